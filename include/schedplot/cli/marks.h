/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_CLI_MARKS_H
#define SP_CLI_MARKS_H

#include "schedplot/analysis/migrations.h"
#include "schedplot/analysis/placement.h"
#include "schedplot/model/model.h"

struct sp_topology;
struct sp_trace;

/*
 * The migration classes and the placement diagnosis counted in the pass
 * of a command: a consumer of its own (sp_cli_marks_observer()),
 * registered beside the command's.
 */
struct sp_cli_marks {
	struct sp_migrations mig;
	struct sp_placement_stats place;
	int *socket;			/* per CPU of the trace, from its topology */
	/*
	 * NULL: every migration and wait counts.  Else only a migration of a
	 * task it selects to or from a CPU it selects, and a wait of such a
	 * task that ended on such a CPU (--cpus, --target, as the model's).
	 */
	const struct sp_model_filter *scope;
};

/**
 * sp_cli_marks_init - count over [@t0_ns, @t1_ns] of an open trace
 * @mk: the counts
 * @t: the trace, open; the NUMA balancing events are asked for
 * @topo: the topology to tell sockets by, or NULL
 * @t0_ns: window start
 * @t1_ns: window end
 *
 * Return: 0 or -ENOMEM.
 */
int sp_cli_marks_init(struct sp_cli_marks *mk, struct sp_trace *t, const struct sp_topology *topo,
		      uint64_t t0_ns, uint64_t t1_ns);

/**
 * sp_cli_request_numa - ask the reader for the NUMA balancing records @mg needs
 * @t: the trace, open, before its pass
 * @mg: its move_numa_req and swap_numa_req are set (-1: the trace has none)
 */
void sp_cli_request_numa(struct sp_trace *t, struct sp_migrations *mg);

/**
 * sp_cli_marks_observer - the consumer of a pass that feeds @mk
 * @mk: the counts
 * @obs: filled in (wait, migration, extra and reset)
 */
void sp_cli_marks_observer(struct sp_cli_marks *mk, struct sp_model_observer *obs);

/**
 * sp_cli_marks_release - free what @mk holds
 * @mk: the counts (zeroed or initialised)
 */
void sp_cli_marks_release(struct sp_cli_marks *mk);

#endif /* SP_CLI_MARKS_H */
