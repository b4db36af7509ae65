// SPDX-License-Identifier: GPL-2.0-only
/*
 * quantile: exact nearest-rank quantiles of durations, kept one by one
 * and sorted once.  Memory is 8 bytes a sample, up to half again for
 * growth, and twice that while sorting.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/analysis/quantile.h"

/* 11 bits a digit: waits up to 8.6 s sort in three passes. */
#define RADIX_BITS	11
#define RADIX_MASK	((1u << RADIX_BITS) - 1)

/* Room for one more: grown by half, never zeroed (every slot is written first). */
static int samples_grow(struct sp_samples *s)
{
	size_t alloc = s->alloc ? s->alloc + s->alloc / 2 : 1024;
	uint64_t *v;

	if (alloc > SIZE_MAX / sizeof(*v))
		return -ENOMEM;
	v = realloc(s->v, alloc * sizeof(*v));
	if (!v)
		return -ENOMEM;
	s->v = v;
	s->alloc = alloc;
	return 0;
}

int sp_samples_add(struct sp_samples *s, uint64_t v)
{
	if (s->nr == s->alloc && samples_grow(s))
		return -ENOMEM;
	s->v[s->nr++] = v;
	s->sorted = false;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

int sp_samples_sort(struct sp_samples *s)
{
	uint64_t *tmp, *src, *dst, *swap, all_or = 0, all_and = UINT64_MAX, differ;
	size_t count[1 << RADIX_BITS], i;
	int shift;

	if (s->sorted || s->nr < 2) {
		s->sorted = true;
		return 0;
	}
	tmp = s->nr <= SIZE_MAX / sizeof(*tmp) ? malloc(s->nr * sizeof(*tmp)) : NULL;
	if (!tmp) {
		qsort(s->v, s->nr, sizeof(*s->v), cmp_u64);
		s->sorted = true;
		return -ENOMEM;
	}
	for (i = 0; i < s->nr; i++) {
		all_or |= s->v[i];
		all_and &= s->v[i];
	}
	differ = all_or ^ all_and;	/* the bits in which some values differ */
	src = s->v;
	dst = tmp;
	for (shift = 0; shift < 64; shift += RADIX_BITS) {
		size_t pos = 0;

		if (!((differ >> shift) & RADIX_MASK))
			continue;	/* every value has the same digit here */
		memset(count, 0, sizeof(count));
		for (i = 0; i < s->nr; i++)
			count[(src[i] >> shift) & RADIX_MASK]++;
		for (i = 0; i <= RADIX_MASK; i++) {
			size_t c = count[i];

			count[i] = pos;
			pos += c;
		}
		for (i = 0; i < s->nr; i++)
			dst[count[(src[i] >> shift) & RADIX_MASK]++] = src[i];
		swap = src;
		src = dst;
		dst = swap;
	}
	if (src != s->v)
		memcpy(s->v, src, s->nr * sizeof(*s->v));
	free(tmp);
	s->sorted = true;
	return 0;
}

/* The 1-based nearest rank of p = num/den among @n samples (n > 0, den > 0). */
static size_t quantile_rank(size_t n, uint64_t num, uint64_t den)
{
	uint64_t rank;

	if (num > den)
		num = den;
	/* ceil(num * n / den) without overflow for any n below 2^54 */
	rank = (num * (uint64_t)n + den - 1) / den;
	return rank < 1 ? 1 : rank;
}

uint64_t sp_samples_quantile(const struct sp_samples *s, uint64_t num, uint64_t den)
{
	if (!s->nr || !den)
		return 0;
	return s->v[quantile_rank(s->nr, num, den) - 1];
}

/*
 * Put the k-th smallest of v[0..n) at v[k], none larger before it and none
 * smaller after (Hoare's selection, median of three).  Return: false when
 * it did more than a few passes' work (values chosen to defeat it), and
 * v is then only reordered.
 */
static bool select_nth(uint64_t *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1, budget = 8 * n + 64;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2, i = lo, j = hi;
		uint64_t a = v[lo], b = v[mid], c = v[hi], pivot, tmp;

		pivot = a < b ? (b < c ? b : a < c ? c : a) : (a < c ? a : b < c ? c : b);
		if (budget < hi - lo + 1)
			return false;
		budget -= hi - lo + 1;
		while (i <= j) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i <= j) {
				tmp = v[i];
				v[i] = v[j];
				v[j] = tmp;
				i++;
				if (!j--)
					break;
			}
		}
		/* v[lo..j] <= pivot <= v[i..hi], and between them all equal the pivot */
		if (k <= j && j != (size_t)-1)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			return true;
	}
	return true;
}

int sp_samples_summary(struct sp_samples *s, struct sp_summary *sum)
{
	static const uint64_t p[][2] = { { 999, 1000 }, { 99, 100 }, { 9, 10 }, { 1, 2 } };
	uint64_t *q[] = { &sum->p999, &sum->p99, &sum->p90, &sum->p50 };
	uint64_t total = 0, lo = UINT64_MAX, hi = 0;
	size_t i, k, end;

	if (s->sorted || s->nr < 2)
		return sp_samples_summarize(s, sum);
	memset(sum, 0, sizeof(*sum));
	for (i = 0; i < s->nr; i++) {
		total += s->v[i];
		lo = s->v[i] < lo ? s->v[i] : lo;
		hi = s->v[i] > hi ? s->v[i] : hi;
	}
	/* highest rank first: each lower one lies in the part before it */
	end = s->nr;
	for (i = 0; i < 4; i++) {
		k = quantile_rank(s->nr, p[i][0], p[i][1]) - 1;
		if ((!i || k + 1 < end) && !select_nth(s->v, end, k))
			return sp_samples_summarize(s, sum);
		*q[i] = s->v[k];
		end = k + 1;
	}
	sum->n = s->nr;
	sum->min = lo;
	sum->max = hi;
	sum->mean = total / s->nr;
	return 0;
}

int sp_samples_summarize(struct sp_samples *s, struct sp_summary *sum)
{
	uint64_t total = 0;	/* 2^64 ns: 584 years of waiting */
	int ret = sp_samples_sort(s);
	size_t i;

	memset(sum, 0, sizeof(*sum));
	if (!s->nr)
		return ret;
	for (i = 0; i < s->nr; i++)
		total += s->v[i];
	sum->n = s->nr;
	sum->min = s->v[0];
	sum->p50 = sp_samples_quantile(s, 1, 2);
	sum->p90 = sp_samples_quantile(s, 9, 10);
	sum->p99 = sp_samples_quantile(s, 99, 100);
	sum->p999 = sp_samples_quantile(s, 999, 1000);
	sum->max = s->v[s->nr - 1];
	sum->mean = total / s->nr;
	return ret;
}

void sp_samples_release(struct sp_samples *s)
{
	free(s->v);
	memset(s, 0, sizeof(*s));
}
