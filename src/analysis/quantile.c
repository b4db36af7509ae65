// SPDX-License-Identifier: GPL-2.0-only
/*
 * quantile: exact nearest-rank quantiles of durations, kept one by one.
 * Memory is 4 bytes a sample below 2^32 ns (4.29 s), 8 bytes above (rare),
 * up to half again for growth; sorting, selecting and merging work in
 * place.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/analysis/quantile.h"
#include "schedplot/base/alloc.h"

/* Ranges this short are sorted by insertion: a digit's buckets cost more. */
#define INSERTION_MAX	48
/*
 * Bits of a digit: 8, and up to 12 for the first digit of many values, so
 * that its buckets are a few thousand values, sorted within the caches.
 */
#define DIGIT_BITS	8
#define TOP_BITS_MAX	12

/*
 * Room for @need in an array of @size-byte values, never zeroed: one more
 * grows it by half, more than that (a merge) to @need exactly.
 */
static int grow(void *array, size_t *alloc, size_t need, size_t size)
{
	size_t n = *alloc;

	if (need <= n)
		return 0;
	n = need > n + 1 ? need : n ? n + n / 2 : 1024;
	return sp_resize_array(array, alloc, n, size);
}

/* sp_samples_add() for a wide sample or one that needs room */
int sp_samples_add_grow(struct sp_samples *s, uint64_t v)
{
	if (v <= UINT32_MAX) {
		if (s->nr_v == s->alloc_v && grow(&s->v, &s->alloc_v, s->nr_v + 1, sizeof(*s->v)))
			return -ENOMEM;
		s->v[s->nr_v++] = (uint32_t)v;
	} else {
		if (s->nr_wide == s->alloc_wide &&
		    grow(&s->wide, &s->alloc_wide, s->nr_wide + 1, sizeof(*s->wide)))
			return -ENOMEM;
		s->wide[s->nr_wide++] = v;
	}
	s->nr++;
	s->sorted = false;
	return 0;
}

void sp_samples_clear(struct sp_samples *s)
{
	s->nr = s->nr_v = s->nr_wide = 0;
	s->sorted = false;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static void insertion_sort(uint32_t *v, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		uint32_t x = v[i];
		size_t j = i;

		for (; j && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/*
 * Put v[0..n) in the order of its digit (v >> @shift) & (@nr_buckets - 1),
 * in place: American flag sort's pass, each value swapped into its
 * bucket along a cycle.  @end[b] gets where bucket b ends; @head is room.
 */
static void flag_pass(uint32_t *v, size_t n, int shift, uint32_t nr_buckets, size_t *head,
		      size_t *end)
{
	uint32_t b, mask = nr_buckets - 1;
	size_t i, pos = 0;

	memset(end, 0, nr_buckets * sizeof(*end));
	for (i = 0; i < n; i++)
		end[(v[i] >> shift) & mask]++;
	for (b = 0; b < nr_buckets; b++) {
		head[b] = pos;
		pos += end[b];
		end[b] = pos;
	}
	for (b = 0; b < nr_buckets; b++) {
		while (head[b] < end[b]) {
			uint32_t x = v[head[b]];
			uint32_t d = (x >> shift) & mask;

			while (d != b) {	/* x belongs elsewhere: put it there, take what was */
				uint32_t y = v[head[d]];

				v[head[d]++] = x;
				x = y;
				d = (x >> shift) & mask;
			}
			v[head[b]++] = x;
		}
	}
}

static void flag_sort(uint32_t *v, size_t n, int top);

/* Sort each bucket of a pass over the digit at @shift by the bits below it. */
static void sort_buckets(uint32_t *v, int shift, uint32_t nr_buckets, const size_t *end)
{
	size_t start = 0;

	if (!shift)
		return;
	for (uint32_t b = 0; b < nr_buckets; start = end[b++])
		if (end[b] - start > 1)
			flag_sort(v + start, end[b] - start, shift);
}

/* Sort v[0..n), whose values agree above bit @top, in place, a byte at a time. */
static void flag_sort(uint32_t *v, size_t n, int top)
{
	size_t head[1 << DIGIT_BITS], end[1 << DIGIT_BITS];
	int bits = top < DIGIT_BITS ? top : DIGIT_BITS;

	if (n <= INSERTION_MAX) {
		insertion_sort(v, n);
		return;
	}
	flag_pass(v, n, top - bits, 1u << bits, head, end);
	sort_buckets(v, top - bits, 1u << bits, end);
}

int sp_samples_sort(struct sp_samples *s)
{
	size_t head[1 << TOP_BITS_MAX], end[1 << TOP_BITS_MAX];	/* the first digit's */
	uint32_t all_or = 0, all_and = UINT32_MAX, differ;
	int bits = DIGIT_BITS, top;
	size_t i;

	if (s->sorted)
		return 0;
	for (i = 0; i < s->nr_v; i++) {
		all_or |= s->v[i];
		all_and &= s->v[i];
	}
	differ = all_or ^ all_and;	/* the bits in which some values differ */
	while (bits < TOP_BITS_MAX && s->nr_v >> (bits + 11))
		bits++;
	if (s->nr_v > INSERTION_MAX && differ) {
		top = 32 - __builtin_clz(differ);
		bits = top < bits ? top : bits;
		flag_pass(s->v, s->nr_v, top - bits, 1u << bits, head, end);
		sort_buckets(s->v, top - bits, 1u << bits, end);
	} else {
		insertion_sort(s->v, s->nr_v);
	}
	if (s->nr_wide > 1)
		qsort(s->wide, s->nr_wide, sizeof(*s->wide), cmp_u64);
	s->sorted = true;
	return 0;
}

/* The 1-based nearest rank of p = num/den among @n samples (n > 0, den > 0). */
static size_t quantile_rank(size_t n, uint64_t num, uint64_t den)
{
	uint64_t rank;

	if (!den)
		return 1;
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
	return sp_samples_at(s, quantile_rank(s->nr, num, den) - 1);
}

/*
 * Put the k-th smallest of v[0..n) at v[k], none larger before it and none
 * smaller after (Hoare's selection, median of three).  Return: false when
 * it did more than a few passes' work (values chosen to defeat it), and
 * v is then only reordered.
 */
static bool select_nth(uint32_t *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1, budget = 8 * n + 64;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2, i = lo, j = hi;
		uint32_t a = v[lo], b = v[mid], c = v[hi], pivot, tmp;

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

/*
 * Buckets for selecting among many values: a value's bucket keeps its
 * magnitude and its 11 next bits (below 2048 the value itself), so that
 * a bucket holds values within 0.05% of each other however they spread,
 * and the buckets follow the values' order.
 */
#define HIST_MIN	65536		/* fewer values: Hoare's selection alone */
#define HIST_BUCKETS	(22 << 11)

static inline uint32_t bucket_of(uint32_t v)
{
	int e;

	if (v < 2048)
		return v;
	e = 31 - __builtin_clz(v);
	return (uint32_t)(e - 10) << 11 | (v >> (e - 11) & 0x7ff);
}

/*
 * Set out[i] to the value of rank k[i] (0-based, ascending) of v[0..n):
 * count the values per bucket, gather those of the buckets holding the
 * ranks, and select among them.  A few passes over v that read it
 * straight through, where each selection over all of it jumps about.
 * Return: false, nothing set, when those buckets hold over an eighth of
 * the values (many equal ones) or for want of memory.
 */
static bool select_ranks(const uint32_t *v, size_t n, const size_t *k, int nr, uint32_t *out)
{
	uint32_t *count = calloc(HIST_BUCKETS, sizeof(*count)), *got = NULL, b = 0;
	uint8_t *group = NULL;		/* per bucket: 1 + the group gathered from it, or 0 */
	size_t start[4], fill[4], nr_in[4], below[4], total = 0, seen = 0, i;
	uint32_t want[4];
	int of[4], j, m = 0;
	bool ok = false;

	if (!count || nr > 4)
		goto out;
	for (i = 0; i < n; i++)
		count[bucket_of(v[i])]++;
	/* each rank's bucket, and how many values lie below it */
	for (j = 0; j < nr; j++) {
		while (seen + count[b] <= k[j])
			seen += count[b++];
		if (!m || want[m - 1] != b) {
			want[m] = b;
			below[m] = seen;
			nr_in[m] = count[b];
			start[m] = fill[m] = total;
			total += count[b];
			m++;
		}
		of[j] = m - 1;
	}
	group = calloc(HIST_BUCKETS, 1);
	if (!group || total > n / 8)
		goto out;
	got = malloc(total * sizeof(*got));
	if (!got)
		goto out;
	for (j = 0; j < m; j++)
		group[want[j]] = (uint8_t)(j + 1);
	for (i = 0; i < n; i++) {
		uint8_t g = group[bucket_of(v[i])];

		if (g)
			got[fill[g - 1]++] = v[i];
	}
	for (j = 0; j < nr; j++) {
		uint32_t *in = got + start[of[j]];
		size_t r = k[j] - below[of[j]];

		if (!select_nth(in, nr_in[of[j]], r))
			goto out;
		out[j] = in[r];
	}
	ok = true;
out:
	free(count);
	free(group);
	free(got);
	return ok;
}

/*
 * The summary's quantiles @p into *@q by select_ranks(), the ranks among
 * the wide values read off (they are sorted).  Return: false when it
 * could not.
 */
static bool summary_by_buckets(const struct sp_samples *s, uint64_t *const *q,
			       const uint64_t (*p)[2])
{
	size_t k[4], n = 0;
	uint32_t at[4];
	int i, which[4];

	/* ascending ranks for select_ranks(): p50 first */
	for (i = 3; i >= 0; i--) {
		size_t rank = quantile_rank(s->nr, p[i][0], p[i][1]) - 1;

		if (rank >= s->nr_v) {
			*q[i] = s->wide[rank - s->nr_v];
			continue;
		}
		which[n] = i;
		k[n++] = rank;
	}
	if (!select_ranks(s->v, s->nr_v, k, (int)n, at))
		return false;
	while (n--)
		*q[which[n]] = at[n];
	return true;
}

int sp_samples_summary(struct sp_samples *s, struct sp_summary *sum)
{
	static const uint64_t p[][2] = { { 999, 1000 }, { 99, 100 }, { 9, 10 }, { 1, 2 } };
	uint64_t *q[] = { &sum->p999, &sum->p99, &sum->p90, &sum->p50 };
	uint64_t total = 0, lo = UINT64_MAX, hi = 0;
	size_t i, k, end;
	bool first = true;

	if (s->sorted || s->nr < 2)
		return sp_samples_summarize(s, sum);
	memset(sum, 0, sizeof(*sum));
	for (i = 0; i < s->nr_v; i++) {
		total += s->v[i];
		lo = s->v[i] < lo ? s->v[i] : lo;
		hi = s->v[i] > hi ? s->v[i] : hi;
	}
	if (s->nr_wide) {	/* rare: sorted, and each rank among them read off */
		qsort(s->wide, s->nr_wide, sizeof(*s->wide), cmp_u64);
		for (i = 0; i < s->nr_wide; i++)
			total += s->wide[i];
		lo = s->nr_v ? lo : s->wide[0];
		hi = s->wide[s->nr_wide - 1];
	}
	if (s->nr_v >= HIST_MIN && summary_by_buckets(s, q, p))
		goto done;
	/* highest rank first: each lower one lies in the part before it */
	end = s->nr_v;
	for (i = 0; i < 4; i++) {
		k = quantile_rank(s->nr, p[i][0], p[i][1]) - 1;
		if (k >= s->nr_v) {
			*q[i] = s->wide[k - s->nr_v];
			continue;
		}
		if ((first || k + 1 < end) && !select_nth(s->v, end, k))
			return sp_samples_summarize(s, sum);
		*q[i] = s->v[k];
		end = k + 1;
		first = false;
	}
done:
	sum->n = s->nr;
	sum->min = lo;
	sum->max = hi;
	sum->mean = total / s->nr;
	return 0;
}

int sp_samples_summarize(struct sp_samples *s, struct sp_summary *sum)
{
	const struct sp_samples *one = s;

	sp_samples_sort(s);
	sp_samples_summarize_sets(&one, 1, sum);
	return 0;
}

/* How many of sorted @s are at most @x. */
static size_t count_at_most(const struct sp_samples *s, uint64_t x)
{
	size_t lo = 0, hi = s->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (sp_samples_at(s, mid) <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The least sample value with at least @rank samples of @sets at or below it. */
static uint64_t sets_at_rank(const struct sp_samples *const *sets, size_t nr_sets,
			     size_t rank, uint64_t lo, uint64_t hi)
{
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		size_t n = 0;

		for (size_t i = 0; i < nr_sets; i++)
			n += count_at_most(sets[i], mid);
		if (n >= rank)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

void sp_samples_summarize_sets(const struct sp_samples *const *sets, size_t nr_sets,
			       struct sp_summary *sum)
{
	uint64_t total = 0, lo = UINT64_MAX, hi = 0;	/* 2^64 ns: 584 years of waiting */
	size_t i, k, n = 0;

	memset(sum, 0, sizeof(*sum));
	for (i = 0; i < nr_sets; i++) {
		const struct sp_samples *s = sets[i];

		if (!s->nr)
			continue;
		for (k = 0; k < s->nr_v; k++)
			total += s->v[k];
		for (k = 0; k < s->nr_wide; k++)
			total += s->wide[k];
		n += s->nr;
		lo = sp_samples_at(s, 0) < lo ? sp_samples_at(s, 0) : lo;
		hi = sp_samples_at(s, s->nr - 1) > hi ? sp_samples_at(s, s->nr - 1) : hi;
	}
	if (!n)
		return;
	sum->n = n;
	sum->min = lo;
	sum->max = hi;
	sum->mean = total / n;
	if (nr_sets == 1) {
		sum->p50 = sp_samples_quantile(sets[0], 1, 2);
		sum->p90 = sp_samples_quantile(sets[0], 9, 10);
		sum->p99 = sp_samples_quantile(sets[0], 99, 100);
		sum->p999 = sp_samples_quantile(sets[0], 999, 1000);
		return;
	}
	sum->p50 = sets_at_rank(sets, nr_sets, quantile_rank(n, 1, 2), lo, hi);
	sum->p90 = sets_at_rank(sets, nr_sets, quantile_rank(n, 9, 10), sum->p50, hi);
	sum->p99 = sets_at_rank(sets, nr_sets, quantile_rank(n, 99, 100), sum->p90, hi);
	sum->p999 = sets_at_rank(sets, nr_sets, quantile_rank(n, 999, 1000), sum->p99, hi);
}

/* Merge sorted b[0..nb) into sorted a[0..na), which has room for both, from the back. */
#define MERGE_BACK(a, na, b, nb)						\
	do {									\
		size_t i_ = (na), j_ = (nb), k_ = (na) + (nb);			\
										\
		while (j_)							\
			(a)[--k_] = i_ && (a)[i_ - 1] > (b)[j_ - 1] ?		\
				    (a)[--i_] : (b)[--j_];			\
	} while (0)

int sp_samples_merge(struct sp_samples *dst, struct sp_samples *src)
{
	struct sp_samples t = *dst;
	bool swapped = src->nr_v > dst->nr_v;

	if (swapped) {	/* grow the larger: the smaller is all that is copied */
		*dst = *src;
		*src = t;
	}
	if (grow(&dst->v, &dst->alloc_v, dst->nr_v + src->nr_v, sizeof(*dst->v)) ||
	    grow(&dst->wide, &dst->alloc_wide, dst->nr_wide + src->nr_wide, sizeof(*dst->wide))) {
		if (swapped) {
			t = *dst;
			*dst = *src;
			*src = t;
		}
		return -ENOMEM;
	}
	MERGE_BACK(dst->v, dst->nr_v, src->v, src->nr_v);
	MERGE_BACK(dst->wide, dst->nr_wide, src->wide, src->nr_wide);
	dst->nr_v += src->nr_v;
	dst->nr_wide += src->nr_wide;
	dst->nr += src->nr;
	dst->sorted = true;
	sp_samples_release(src);
	return 0;
}

void sp_samples_release(struct sp_samples *s)
{
	SP_FREE_ALL(s->v, s->wide);
	memset(s, 0, sizeof(*s));
}
