/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_HASHINDEX_H
#define SP_HASHINDEX_H

/*
 * hashindex: an open-addressing index over items kept elsewhere (an
 * array, a string pool), with linear probing.  A slot holds an item's
 * number + 1, whatever numbers the items (a place in an array, an
 * offset), and 0 when free; the slots are a power of 2.  The owner looks
 * items up and adds them itself, on its own hot path; what it shares is
 * the making of the index anew, larger.
 */
#include <stddef.h>
#include <stdint.h>

/**
 * sp_hashindex_rebuild - an index made anew with more slots
 * @slots: the index, replaced by the new one on success
 * @alloc: how many slots it has (0 with no index yet), set on success
 * @new_alloc: the new number of slots, a power of 2 larger than the items
 * @hash: the key hash of the item in a slot, told by the slot (item + 1)
 * @data: passed to @hash
 *
 * The items move in the order of the old slots.
 *
 * Return: 0, or -ENOMEM (the index is unchanged).
 */
int sp_hashindex_rebuild(uint32_t **slots, size_t *alloc, size_t new_alloc,
			 uint32_t (*hash)(const void *data, uint32_t slot), const void *data);

#endif /* SP_HASHINDEX_H */
