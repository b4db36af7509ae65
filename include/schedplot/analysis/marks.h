/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_MARKS_H
#define SP_MARKS_H

#include "schedplot/analysis/migrations.h"
#include "schedplot/analysis/placement.h"
#include "schedplot/model/model.h"
#include "schedplot/model/scope.h"

struct sp_topology;
struct sp_trace;

/*
 * The migration classes and the placement diagnosis counted in the pass
 * of a command: a consumer of its own (sp_marks_observer()),
 * registered beside the command's.
 */
struct sp_marks {
	struct sp_migrations mig;
	struct sp_placement_stats place;
	int *socket;			/* per CPU of the trace, from its topology */
	/* the migrations and waits counted (sp_scope_migration(), sp_scope_wait()) */
	struct sp_scope scope;
};

/**
 * sp_marks_init - count what a scope counts of an open trace
 * @mk: the counts
 * @t: the trace, open; the NUMA balancing events are asked for
 * @topo: the topology to tell sockets by, or NULL
 * @scope: the window, CPUs and tasks counted (copied)
 *
 * Return: 0 or -ENOMEM.
 */
int sp_marks_init(struct sp_marks *mk, struct sp_trace *t, const struct sp_topology *topo,
		  const struct sp_scope *scope);

/**
 * sp_marks_request_numa - ask the reader for the NUMA balancing records @mg needs
 * @t: the trace, open, before its pass
 * @mg: its move_numa_req and swap_numa_req are set (-1: the trace has none)
 */
void sp_marks_request_numa(struct sp_trace *t, struct sp_migrations *mg);

/**
 * sp_marks_observer - the consumer of a pass that feeds @mk
 * @mk: the counts
 * @obs: filled in (wait, migration, extra and reset)
 */
void sp_marks_observer(struct sp_marks *mk, struct sp_model_observer *obs);

/**
 * sp_marks_release - free what @mk holds
 * @mk: the counts (zeroed or initialised)
 */
void sp_marks_release(struct sp_marks *mk);

#endif /* SP_MARKS_H */
