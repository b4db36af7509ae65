/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_RADIX_H
#define SP_RADIX_H

#include <stddef.h>
#include <stdint.h>

/* A timestamp and what it belongs to. */
struct sp_radix_key {
	uint64_t ts;
	uint32_t item;
};

/**
 * sp_radix_sort - sort keys by timestamp, keeping the order of equal ones
 * @keys: the keys
 * @tmp: room for as many keys
 * @n: how many
 *
 * Least significant digit first, 11 bits a pass, only over the bits in
 * which the timestamps differ (a few passes for a batch of records that
 * spans milliseconds).  Stable: keys with equal timestamps stay in the
 * order they came in.
 *
 * Return: @keys or @tmp, whichever holds the sorted keys.
 */
struct sp_radix_key *sp_radix_sort(struct sp_radix_key *keys, struct sp_radix_key *tmp, size_t n);

#endif /* SP_RADIX_H */
