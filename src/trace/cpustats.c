// SPDX-License-Identifier: GPL-2.0-only
/*
 * cpustats: the per-CPU ring-buffer statistics trace-cmd saves in a file.
 *
 * The text comes from the file and may be anything: it is read line by
 * line within @len, numbers are checked for range and trailing junk, and
 * whatever cannot be read leaves the CPU unknown (the model then keeps the
 * rule for CPUs that may have lost records).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/trace/cpustats.h"

/* Per CPU while parsing: blocks seen, and whether one was unreadable. */
struct block_state {
	int cpu;		/* the CPU of the block being read, -1 if none or ignored */
	bool bad;		/* the block had a line that could not be read */
	bool overrun;		/* it had an overrun line */
};

static bool starts(const char *p, size_t n, const char *word)
{
	size_t w = strlen(word);

	return n >= w && !memcmp(p, word, w);
}

/* A decimal number filling [p, p + n) after blanks; false for anything else. */
static bool parse_u64(const char *p, size_t n, uint64_t *val)
{
	uint64_t v = 0;
	size_t i = 0, start;

	while (i < n && (p[i] == ' ' || p[i] == '\t'))
		i++;
	start = i;
	for (; i < n && p[i] >= '0' && p[i] <= '9'; i++) {
		if (v > (UINT64_MAX - (uint64_t)(p[i] - '0')) / 10)
			return false;
		v = v * 10 + (uint64_t)(p[i] - '0');
	}
	if (i == start)
		return false;
	while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r'))
		i++;
	if (i != n)
		return false;
	*val = v;
	return true;
}

/* Whether [p, p + n) holds more than blanks: an instance's name. */
static bool parse_name(const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r')
			return true;
	return false;
}

static void end_block(struct block_state *b, struct sp_cpu_stats *stats, unsigned char *seen)
{
	if (b->cpu < 0)
		return;
	stats[b->cpu].known = seen[b->cpu] == 1 && !b->bad && b->overrun;
	b->cpu = -1;
}

int sp_cpustats_parse(const char *text, size_t len, struct sp_cpu_stats *stats, int nr_cpus)
{
	/* at most 2 per CPU: 0 not seen, 1 once, 2 more often */
	unsigned char seen_small[256], *seen = seen_small;
	struct block_state b = { .cpu = -1 };
	bool top = true;
	size_t pos = 0, n;
	const char *line, *nl, *z;
	uint64_t v;
	int c, known = 0;

	if (nr_cpus <= 0)
		return 0;
	memset(stats, 0, (size_t)nr_cpus * sizeof(*stats));
	if (!text)
		return 0;
	if ((size_t)nr_cpus > sizeof(seen_small)) {
		seen = calloc((size_t)nr_cpus, 1);
		if (!seen)
			return 0;
	} else {
		memset(seen, 0, sizeof(seen_small));
	}
	while (pos < len) {
		line = text + pos;
		nl = memchr(line, '\n', len - pos);
		n = nl ? (size_t)(nl - line) : len - pos;
		pos += n + 1;
		/* a NUL ends each option's text: what follows it is the next line */
		z = memchr(line, '\0', n);
		if (z) {
			pos = (size_t)(z - text) + 1;
			n = (size_t)(z - line);
		}
		if (starts(line, n, "Buffer:")) {
			end_block(&b, stats, seen);
			/* trace-cmd names every instance but the top one */
			top = !parse_name(line + 7, n - 7);
			continue;
		}
		if (starts(line, n, "CPU:")) {
			end_block(&b, stats, seen);
			if (!top || !parse_u64(line + 4, n - 4, &v) || v >= (uint64_t)nr_cpus)
				continue;
			b.cpu = (int)v;
			b.bad = b.overrun = false;
			if (seen[b.cpu] < 2)
				seen[b.cpu]++;
			stats[b.cpu].overrun = 0;
			stats[b.cpu].dropped = 0;
			stats[b.cpu].has_dropped = false;
			continue;
		}
		if (b.cpu < 0)
			continue;
		if (starts(line, n, "overrun:")) {
			if (parse_u64(line + 8, n - 8, &v)) {
				stats[b.cpu].overrun = v;
				b.overrun = true;
			} else {
				b.bad = true;
			}
		} else if (starts(line, n, "dropped events:")) {
			if (parse_u64(line + 15, n - 15, &v)) {
				stats[b.cpu].dropped = v;
				stats[b.cpu].has_dropped = true;
			} else {
				b.bad = true;
			}
		}
	}
	end_block(&b, stats, seen);
	/* a CPU named twice is unknown, whichever of its blocks came last */
	for (c = 0; c < nr_cpus; c++) {
		if (seen[c] > 1)
			stats[c].known = false;
		if (!stats[c].known) {
			stats[c].overrun = stats[c].dropped = 0;
			stats[c].has_dropped = false;
		}
		known += stats[c].known;
	}
	if (seen != seen_small)
		free(seen);
	return known;
}
