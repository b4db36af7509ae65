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
