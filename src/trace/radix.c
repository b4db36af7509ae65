// SPDX-License-Identifier: GPL-2.0-only
/*
 * radix: a stable sort of timestamps for the reader's merge in batches.
 */
#include <string.h>

#include "schedplot/trace/radix.h"

#define DIGIT_BITS	11
#define DIGITS		(1u << DIGIT_BITS)

struct sp_radix_key *sp_radix_sort(struct sp_radix_key *keys, struct sp_radix_key *tmp, size_t n)
{
	size_t count[DIGITS];
	uint64_t lo = UINT64_MAX, hi = 0;
	unsigned int shift;
	size_t i, sum;

	for (i = 0; i < n; i++) {
		if (keys[i].ts < lo)
			lo = keys[i].ts;
		if (keys[i].ts > hi)
			hi = keys[i].ts;
	}
	/* digits of ts - lo: those above the span's highest bit are all 0 */
	for (shift = 0; n > 1 && shift < 64 && (hi - lo) >> shift; shift += DIGIT_BITS) {
		struct sp_radix_key *t;

		memset(count, 0, sizeof(count));
		for (i = 0; i < n; i++)
			count[((keys[i].ts - lo) >> shift) & (DIGITS - 1)]++;
		for (i = 0, sum = 0; i < DIGITS; i++) {
			size_t c = count[i];

			count[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			tmp[count[((keys[i].ts - lo) >> shift) & (DIGITS - 1)]++] = keys[i];
		t = keys;
		keys = tmp;
		tmp = t;
	}
	return keys;
}
