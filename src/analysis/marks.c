// SPDX-License-Identifier: GPL-2.0-only
/*
 * marks: the migration classes and the placement diagnosis, counted in the
 * one pass of stats and of the views, a consumer beside the command's own.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/base/error.h"
#include "schedplot/analysis/marks.h"
#include "schedplot/model/topology.h"
#include "schedplot/model/trace.h"
#include "schedplot/trace/reader.h"

int sp_marks_init(struct sp_marks *mk, struct sp_trace *t, const struct sp_topology *topo,
		  const struct sp_scope *scope)
{
	uint64_t t0_ns = scope->t0_ns, t1_ns = scope->t1_ns;
	int c;

	memset(mk, 0, sizeof(*mk));
	mk->scope = *scope;
	if (topo) {
		mk->socket = calloc((size_t)t->nr_cpus, sizeof(*mk->socket));
		if (!mk->socket)
			return -ENOMEM;
		for (c = 0; c < t->nr_cpus; c++)
			mk->socket[c] = sp_topology_socket(topo, c);
	}
	sp_migrations_init(&mk->mig, &t->model, mk->socket, t->nr_cpus, t0_ns, t1_ns);
	sp_placement_init(&mk->place, t0_ns, t1_ns);
	sp_marks_request_numa(t, &mk->mig);
	return 0;
}

void sp_marks_request_numa(struct sp_trace *t, struct sp_migrations *mg)
{
	static const char *const move_fields[] = { "pid" };
	static const char *const swap_fields[] = { "src_pid", "dst_pid" };
	struct sp_error err = { 0 };

	/* not an error when the kernel has no NUMA balancing: no numa class then */
	mg->move_numa_req = sp_reader_request_event(t->reader, "sched:sched_move_numa",
						    move_fields, 1, &err);
	sp_error_clear(&err);
	mg->swap_numa_req = sp_reader_request_event(t->reader, "sched:sched_swap_numa",
						    swap_fields, 2, &err);
	sp_error_clear(&err);
}

static void marks_wait(void *data, const struct sp_wait *w)
{
	struct sp_marks *mk = data;

	/* the placement counts have the scope's window */
	if (sp_scope_wait(&mk->scope, w))
		sp_placement_add_inside(&mk->place, w);
}

static void marks_migration(void *data, uint64_t ts_ns, int pid, int from_cpu, int to_cpu)
{
	struct sp_marks *mk = data;

	/* the others are classified too: a NUMA balancing record is taken by its move */
	if (sp_scope_migration(&mk->scope, ts_ns, pid, from_cpu, to_cpu))
		sp_migrations_add(&mk->mig, ts_ns, pid, from_cpu, to_cpu, NULL);
	else
		sp_migrations_classify(&mk->mig, pid, from_cpu, to_cpu, NULL);
}

static void marks_extra(void *data, const struct sp_event *ev)
{
	struct sp_marks *mk = data;

	sp_migrations_extra(&mk->mig, ev);
}

static void marks_reset(void *data)
{
	struct sp_marks *mk = data;

	sp_migrations_reset(&mk->mig);
	sp_placement_init(&mk->place, mk->place.t0_ns, mk->place.t1_ns);
}

void sp_marks_observer(struct sp_marks *mk, struct sp_model_observer *obs)
{
	*obs = SP_MODEL_OBSERVER(mk, .wait = marks_wait, .migration = marks_migration,
				 .extra = marks_extra, .reset = marks_reset);
}

void sp_marks_release(struct sp_marks *mk)
{
	free(mk->socket);
	mk->socket = NULL;
}
