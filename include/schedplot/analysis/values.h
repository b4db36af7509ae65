/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_VALUES_H
#define SP_VALUES_H

/*
 * values: what the statistics ask of their inputs, said once: the order of
 * doubles, the checks that a series holds no NaN or only finite values, and
 * a sorted copy to take order statistics from.
 */
#include <stdbool.h>
#include <stddef.h>

/**
 * sp_values_cmp - qsort() comparison of doubles, ascending
 * @pa: a double, or a struct whose first member is the double to order by
 * @pb: the same for the other element
 *
 * NaN compares equal to everything; callers reject it first.
 *
 * Return: -1, 0 or 1 as *@pa is below, equal to or above *@pb.
 */
int sp_values_cmp(const void *pa, const void *pb);

/**
 * sp_values_have_nan - whether a series holds a NaN
 * @v: the values
 * @n: how many
 *
 * Return: true when some value is NaN.
 */
bool sp_values_have_nan(const double *v, size_t n);

/**
 * sp_values_finite - whether every value of a series is finite
 * @v: the values
 * @n: how many
 *
 * Return: true when no value is NaN or infinite (also for none).
 */
bool sp_values_finite(const double *v, size_t n);

/**
 * sp_values_sorted_copy - a copy of a series in ascending order
 * @v: the values (none NaN)
 * @n: how many (at least 1)
 * @out: gets the copy, which the caller frees; NULL on failure
 *
 * Return: 0, or -ENOMEM.
 */
int sp_values_sorted_copy(const double *v, size_t n, double **out);

#endif /* SP_VALUES_H */
