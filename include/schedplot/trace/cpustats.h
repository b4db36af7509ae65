/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_CPUSTATS_H
#define SP_CPUSTATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The ring-buffer statistics trace-cmd saves per CPU (the cpustats option:
 * the kernel's per_cpu/cpuN/stats, each after a line "CPU: N"), as
 * "trace-cmd report --stat" prints them:
 *
 *   CPU: 0
 *   entries: 0
 *   overrun: 0
 *   commit overrun: 0
 *   bytes: 0
 *   oldest event ts:   439.905653
 *   now ts:   439.979034
 *   dropped events: 0
 *   read events: 7177
 *
 * The statistics of other buffer instances follow a line "Buffer: NAME"
 * and are not the top instance's.  Kernels before 4.x print no "dropped
 * events" line.
 */
struct sp_cpu_stats {
	bool known;		/* the top instance's statistics list the CPU, readably */
	uint64_t overrun;	/* records the ring buffer overwrote */
	bool has_dropped;	/* a "dropped events" line was there */
	uint64_t dropped;	/* records it refused (non-overwrite mode) */
};

/* The text of all cpustats options of a file, at most this long. */
#define SP_CPUSTATS_MAX_TEXT	(8u << 20)

/**
 * sp_cpustats_parse - read the cpustats text of a file
 * @text: the options' text, one after the other (need not end in a NUL)
 * @len: its bytes
 * @stats: one entry per CPU, all set here
 * @nr_cpus: entries in @stats
 *
 * A CPU is known when one block of the top instance names it and holds a
 * readable "overrun" line; a block with a line it cannot read (a number
 * with junk after it, a value out of range), or a CPU named twice, leave
 * the CPU unknown.  Never fails: text that is not statistics leaves CPUs
 * unknown.
 *
 * Return: the number of CPUs known.
 */
int sp_cpustats_parse(const char *text, size_t len, struct sp_cpu_stats *stats, int nr_cpus);

/**
 * sp_cpu_stats_lossless - whether statistics say the CPU lost nothing
 * @st: a CPU's statistics
 *
 * Return: true when they are known and show no overrun and no dropped
 * events (none when the kernel did not print the line).
 */
static inline bool sp_cpu_stats_lossless(const struct sp_cpu_stats *st)
{
	return st->known && !st->overrun && !st->dropped;
}

#endif /* SP_CPUSTATS_H */
