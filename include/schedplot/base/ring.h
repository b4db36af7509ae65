/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_RING_H
#define SP_RING_H

/*
 * ring: a FIFO of fixed-size items in an array that wraps, the oldest at
 * a head slot, each next one in the next slot.  The owner indexes, adds
 * and drops items itself, on its own hot path, with the arithmetic its
 * numbering wants (a power-of-2 mask over numbers that outlive growth, a
 * position from the oldest that wraps once); what it shares is the
 * moving of the items into a larger array.
 */
#include <stddef.h>

/**
 * sp_ring_regrow - a ring's items moved into a larger array, in order
 * @array: pointer to the array pointer (NULL with no array yet)
 * @alloc: pointer to its capacity in items (0 with no array yet), set
 *	to @new_alloc on success
 * @head: the slot of the oldest item, below *@alloc (0 with no items)
 * @nr: how many items there are, at most *@alloc
 * @new_alloc: the capacity wanted, at least @nr
 * @new_head: the slot the oldest item takes, below @new_alloc
 * @size: size of one item
 *
 * The items keep their order from @new_head on, wrapping at @new_alloc.
 * When none has to move (@new_head is @head and they do not wrap), the
 * array is only realloc()ed; else they are copied into a new array and
 * the old one is freed.  The slots they do not fill are not initialised.
 *
 * Return: 0, or -ENOMEM (the ring is unchanged).
 */
int sp_ring_regrow(void *array, size_t *alloc, size_t head, size_t nr, size_t new_alloc,
		   size_t new_head, size_t size);

#endif /* SP_RING_H */
