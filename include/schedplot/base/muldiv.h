/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_MULDIV_H
#define SP_MULDIV_H

#include <stdint.h>

/**
 * sp_muldiv - floor((a * b + add) / c), exactly
 * @a: a factor
 * @b: a factor
 * @add: added to the product before dividing
 * @c: the divisor, not 0
 *
 * Pixel columns come from nanosecond timestamps scaled by the image width,
 * whose product passes 64 bits.  The quotient must fit in 64 bits.  With a
 * 128-bit integer type (64-bit hosts) one multiplication and division;
 * elsewhere (32-bit hosts) a long division, as exact.
 */
static inline uint64_t sp_muldiv(uint64_t a, uint64_t b, uint64_t add, uint64_t c)
{
#if defined(__SIZEOF_INT128__) && !defined(SP_MULDIV_PORTABLE)
	return (uint64_t)(((unsigned __int128)a * b + add) / c);
#else
	uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
	uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
	uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
	uint64_t lo = (uint32_t)p00 | (mid << 32);
	uint64_t hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
	uint64_t q = 0, r = 0, carry;
	int i;

	lo += add;
	hi += lo < add;
	for (i = 127; i >= 0; i--) {
		carry = r >> 63;
		r = (r << 1) | ((i >= 64 ? hi >> (i - 64) : lo >> i) & 1);
		q <<= 1;
		if (carry || r >= c) {
			r -= c;
			q |= 1;
		}
	}
	return q;
#endif
}

/*
 * A time window of @span ns from @t0, cut into @n pixel columns: the column
 * holding @ts (t0 <= ts), and the first nanosecond of column @i (i <= n),
 * ceil(i * span / n).  For an integer d, d >= ceil(span * i / n) exactly
 * when d * n >= span * i, so sp_col_of() is the largest i with
 * sp_col_start(i) <= ts: the two agree on every boundary.  The datagraph
 * and the running-waiting graph both cut time this way.
 */
static inline uint64_t sp_col_of(uint64_t t0, uint64_t span, uint64_t n, uint64_t ts)
{
	return sp_muldiv(ts - t0, n, 0, span);
}

static inline uint64_t sp_col_start(uint64_t t0, uint64_t span, uint64_t n, uint64_t i)
{
	return t0 + sp_muldiv(span, i, n - 1, n);
}

/* A window [t0_ns, t1_ns) cut into nr_cols columns as sp_col_of() cuts it. */
struct sp_cols {
	uint64_t t0_ns, t1_ns;
	unsigned int nr_cols;
};

static inline uint64_t sp_cols_of(const struct sp_cols *c, uint64_t ts)
{
	return sp_col_of(c->t0_ns, c->t1_ns - c->t0_ns, c->nr_cols, ts);
}

static inline uint64_t sp_cols_start(const struct sp_cols *c, uint64_t i)
{
	return sp_col_start(c->t0_ns, c->t1_ns - c->t0_ns, c->nr_cols, i);
}

/**
 * sp_share - @ns of a column @width_ns wide, as a share of @max
 * @ns: the time, at most @width_ns
 * @width_ns: the column's width (0: an empty column, taken whole)
 * @max: the share of the whole column
 *
 * Rounded to nearest, but never to 0 for time that is there: a column in
 * which anything happened must not read as one in which nothing did.
 *
 * Return: 0 to @max.
 */
static inline uint64_t sp_share(uint64_t ns, uint64_t width_ns, uint64_t max)
{
	uint64_t s;

	if (!ns)
		return 0;
	if (ns >= width_ns)
		return max;
	s = sp_muldiv(ns, max, width_ns / 2, width_ns);
	return s ? s : 1;
}

#endif /* SP_MULDIV_H */
