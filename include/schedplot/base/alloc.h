/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_ALLOC_H
#define SP_ALLOC_H

#include <stddef.h>
#include <stdlib.h>

/* free(@p) and set it NULL, so that a second release finds nothing to free */
#define SP_FREE_AND_NULL(p) do { free(p); (p) = NULL; } while (0)

/*
 * free() each pointer listed, in order: a release function's arrays named
 * in one statement, SP_FREE_ALL(t->rows, t->cols, t->names).
 */
#define SP_FREE_ALL(...) do {								\
	void *sp_free_all_[] = { __VA_ARGS__ };						\
											\
	for (size_t sp_i_ = 0; sp_i_ < sizeof(sp_free_all_) / sizeof(*sp_free_all_); sp_i_++) \
		free(sp_free_all_[sp_i_]);						\
} while (0)

/**
 * sp_alloc_array - calloc() with overflow-checked n * size
 * @n: number of elements
 * @size: size of one element
 *
 * Return: zeroed memory, or NULL on overflow or when out of memory.
 */
void *sp_alloc_array(size_t n, size_t size);

/**
 * sp_grow_array - make room for at least @need elements in a growable array
 * @array: pointer to the array pointer
 * @alloc: pointer to the current capacity (in elements)
 * @need: the capacity wanted
 * @size: size of one element
 *
 * New elements are zeroed.  Return: 0, or -ENOMEM (the array is unchanged).
 */
int sp_grow_array(void *array, size_t *alloc, size_t need, size_t size);

/**
 * sp_grow_array_uninit - sp_grow_array() without zeroing what it adds
 * @array: pointer to the array pointer
 * @alloc: pointer to the current capacity (in elements)
 * @need: the capacity wanted
 * @size: size of one element
 *
 * For arrays whose elements are written before they are read: zeroing a
 * large array costs a pass over it.  Return: 0, or -ENOMEM (the array is
 * unchanged).
 */
int sp_grow_array_uninit(void *array, size_t *alloc, size_t need, size_t size);

/**
 * sp_resize_array - realloc() an array to @n elements, overflow-checked
 * @array: pointer to the array pointer
 * @alloc: pointer to the current capacity (in elements), set to @n
 * @n: the capacity wanted, not 0
 * @size: size of one element
 *
 * For arrays that grow by a rule of their own; what it adds is not
 * zeroed.  Return: 0, or -ENOMEM (the array is unchanged).
 */
int sp_resize_array(void *array, size_t *alloc, size_t n, size_t size);

#endif /* SP_ALLOC_H */
