// SPDX-License-Identifier: GPL-2.0-only
/*
 * pass: the consumers of one pass over a trace, filed per callback so
 * that the model calls, for each thing it finds, exactly the consumers
 * that asked to be told of it.
 */
#include <errno.h>
#include <string.h>

#include "schedplot/model/model.h"

void sp_pass_init(struct sp_pass *p)
{
	memset(p, 0, sizeof(*p));
}

/* Whether one more consumer of the callback @fn fits, when it is set. */
#define ROOM(p, cb, obs) (!(obs)->cb || (p)->nr_##cb < SP_PASS_MAX_CONSUMERS)

#define FILE_CB(p, cb, obs)							\
	do {									\
		if ((obs)->cb) {						\
			(p)->cb[(p)->nr_##cb].fn = (obs)->cb;			\
			(p)->cb[(p)->nr_##cb].data = (obs)->data;		\
			(p)->nr_##cb++;						\
		}								\
	} while (0)

int sp_pass_add(struct sp_pass *p, const struct sp_model_observer *obs)
{
	if (!obs)
		return 0;
	if (!ROOM(p, run, obs) || !ROOM(p, run_info, obs) || !ROOM(p, steps, obs) ||
	    !ROOM(p, wait, obs) || !ROOM(p, wakeup, obs) || !ROOM(p, migration, obs) ||
	    !ROOM(p, extra, obs) || !ROOM(p, watch, obs) || !ROOM(p, reset, obs))
		return p->error = -ENOSPC;
	FILE_CB(p, run, obs);
	if (obs->run_info && !obs->run_info_no_idle)
		p->nr_run_info_idle++;
	FILE_CB(p, run_info, obs);
	FILE_CB(p, steps, obs);
	FILE_CB(p, wait, obs);
	FILE_CB(p, wakeup, obs);
	FILE_CB(p, migration, obs);
	FILE_CB(p, extra, obs);
	FILE_CB(p, watch, obs);
	FILE_CB(p, reset, obs);
	return 0;
}

void sp_pass_init_one(struct sp_pass *p, const struct sp_model_observer *obs)
{
	sp_pass_init(p);
	sp_pass_add(p, obs);	/* the first of each callback: always room */
}

void sp_pass_reset(const struct sp_pass *p)
{
	if (!p)
		return;
	for (unsigned int i = 0; i < p->nr_reset; i++)
		p->reset[i].fn(p->reset[i].data);
}
