/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_RUNLIST_H
#define SP_RUNLIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sp_run;

/*
 * The runs of a window kept whole, for what names each run (SVG hover
 * titles), but only while they are few: at most max_runs of them, and
 * beyond that none at all (the memory is freed at once), so a zoomed-in
 * view gets every run and a large window costs nothing.  Runs of pid 0
 * and runs of no length inside the window are left out.
 */
struct sp_runlist_run {
	uint64_t start_ns, end_ns;	/* the whole run, not clipped */
	int32_t pid;
	int32_t cpu;
};

struct sp_runlist {
	uint64_t t0_ns, t1_ns;		/* the window */
	size_t max_runs;
	struct sp_runlist_run *runs;	/* in the order they ended */
	size_t nr_runs;
	size_t alloc_runs;
	bool dropped;			/* more than max_runs: none kept */
	int error;			/* -ENOMEM when an allocation failed */
};

/**
 * sp_runlist_init - an empty list
 * @rl: the list
 * @t0_ns: window start
 * @t1_ns: window end
 * @max_runs: runs kept at most; 0 keeps none
 */
void sp_runlist_init(struct sp_runlist *rl, uint64_t t0_ns, uint64_t t1_ns, size_t max_runs);

/**
 * sp_runlist_add - keep a run when it lies in the window
 * @rl: the list
 * @r: the run
 */
void sp_runlist_add(struct sp_runlist *rl, const struct sp_run *r);

/**
 * sp_runlist_reset - forget the runs (the model starts the pass over)
 * @rl: the list
 */
void sp_runlist_reset(struct sp_runlist *rl);

/**
 * sp_runlist_release - free the runs
 * @rl: initialised or zeroed
 */
void sp_runlist_release(struct sp_runlist *rl);

/**
 * sp_runlist_usable - whether the list holds every run of the window
 * @rl: the list
 *
 * Return: false when it keeps none, dropped them or ran out of memory.
 */
bool sp_runlist_usable(const struct sp_runlist *rl);

#endif /* SP_RUNLIST_H */
