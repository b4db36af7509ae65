// SPDX-License-Identifier: GPL-2.0-only
/*
 * placement: where each wakeup put the task against where it ran before
 * (the work-conservation question asked per wakeup).
 */
#include <string.h>

#include "schedplot/analysis/placement.h"
#include "schedplot/model/model.h"

void sp_placement_init(struct sp_placement_stats *p, uint64_t t0_ns, uint64_t t1_ns)
{
	memset(p, 0, sizeof(*p));
	p->t0_ns = t0_ns;
	p->t1_ns = t1_ns;
}

enum sp_placement sp_placement_add(struct sp_placement_stats *p, const struct sp_wait *w)
{
	enum sp_placement pl = sp_placement_of(w);

	if (pl <= SP_PLACE_MOVED_PREV_BUSY && w->start_ns >= p->t0_ns && w->start_ns <= p->t1_ns) {
		p->by[pl].nr++;
		p->by[pl].wait_ns += w->dur_ns;
	}
	return pl;
}
