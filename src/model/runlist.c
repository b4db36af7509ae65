// SPDX-License-Identifier: GPL-2.0-only
/*
 * The runs of a window, kept whole while they are few
 * (include/schedplot/model/runlist.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/base/alloc.h"
#include "schedplot/model/model.h"
#include "schedplot/model/runlist.h"

void sp_runlist_init(struct sp_runlist *rl, uint64_t t0_ns, uint64_t t1_ns, size_t max_runs)
{
	memset(rl, 0, sizeof(*rl));
	rl->t0_ns = t0_ns;
	rl->t1_ns = t1_ns;
	rl->max_runs = max_runs;
}

void sp_runlist_reset(struct sp_runlist *rl)
{
	free(rl->runs);
	rl->runs = NULL;
	rl->nr_runs = rl->alloc_runs = 0;
	rl->dropped = false;
	rl->error = 0;
}

void sp_runlist_release(struct sp_runlist *rl)
{
	sp_runlist_reset(rl);
}

bool sp_runlist_usable(const struct sp_runlist *rl)
{
	return rl->max_runs && !rl->dropped && !rl->error;
}

void sp_runlist_add(struct sp_runlist *rl, const struct sp_run *r)
{
	struct sp_runlist_run *k;

	if (!sp_runlist_usable(rl) || r->pid <= 0 || r->end_ns <= r->start_ns ||
	    r->start_ns >= rl->t1_ns || r->end_ns <= rl->t0_ns)
		return;
	if (rl->nr_runs == rl->max_runs) {
		sp_runlist_reset(rl);
		rl->dropped = true;
		return;
	}
	if (sp_grow_array(&rl->runs, &rl->alloc_runs, rl->nr_runs + 1, sizeof(*rl->runs))) {
		rl->error = -ENOMEM;
		return;
	}
	k = &rl->runs[rl->nr_runs++];
	k->start_ns = r->start_ns;
	k->end_ns = r->end_ns;
	k->pid = r->pid;
	k->cpu = r->cpu;
}
