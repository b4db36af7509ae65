/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_MIGRATIONS_H
#define SP_MIGRATIONS_H

#include <stdbool.h>
#include <stdint.h>

struct sp_event;
struct sp_model;

/*
 * Why a task moved (a sched_migrate_task record), judged from the model's
 * state of the task as the record is added:
 *
 *   wakeup   placement at wakeup (try_to_wake_up's select_task_rq): the
 *            task was asleep, or, in a trace whose wakeup event is
 *            sched_waking (fired before the placement), made runnable by
 *            a wakeup and not run since;
 *   numa     NUMA balancing: a sched_move_numa or sched_swap_numa record
 *            named the task since its last migration;
 *   balance  any other: a runnable or running task pulled or pushed by
 *            load balancing.
 *
 * It crossed a socket when the topology puts its two CPUs on different
 * sockets (unknown sockets never cross).
 */
enum sp_mig_class {
	SP_MIG_WAKEUP,
	SP_MIG_BALANCE,
	SP_MIG_NUMA,
	SP_MIG_NR_CLASSES,
};

#define SP_MIG_NUMA_PENDING	16

struct sp_migrations {
	const struct sp_model *model;	/* the task states; the model being built */
	const int *socket;		/* per CPU, -1 unknown; NULL: no topology */
	int nr_cpus;
	uint64_t t0_ns, t1_ns;		/* migrations counted: in [t0, t1] */
	uint64_t nr[SP_MIG_NR_CLASSES];
	uint64_t nr_cross_socket;
	/*
	 * the requests (sp_reader_request_event()) of sched_move_numa with
	 * its "pid" and of sched_swap_numa with "src_pid" and "dst_pid"; -1:
	 * not asked for
	 */
	int move_numa_req, swap_numa_req;
	/* private: tasks named by NUMA records, not migrated since */
	int32_t numa_pid[SP_MIG_NUMA_PENDING];
	int nr_numa;
};

/**
 * sp_migrations_init - count migrations in [@t0_ns, @t1_ns]
 * @mg: the counts
 * @model: the model the pass builds (read at each migration)
 * @socket: per CPU its socket (-1 unknown), or NULL
 * @nr_cpus: entries of @socket
 * @t0_ns: window start
 * @t1_ns: window end
 */
void sp_migrations_init(struct sp_migrations *mg, const struct sp_model *model,
			const int *socket, int nr_cpus, uint64_t t0_ns, uint64_t t1_ns);

/**
 * sp_migrations_reset - forget what was counted (a pass starts again)
 * @mg: the counts
 */
void sp_migrations_reset(struct sp_migrations *mg);

/**
 * sp_migrations_numa - a NUMA balancing record names @pid
 * @mg: the counts
 * @pid: the task about to move
 */
void sp_migrations_numa(struct sp_migrations *mg, int pid);

/**
 * sp_migrations_extra - a record of an event asked for by name
 * @mg: the counts
 * @ev: the record (SP_EV_EXTRA); those of other requests are ignored
 */
void sp_migrations_extra(struct sp_migrations *mg, const struct sp_event *ev);

/**
 * sp_migrations_classify - classify one migration without counting it
 * @mg: the counts (the NUMA records pending are used up as when counted)
 * @pid: the task
 * @from_cpu: where it was (-1 unknown)
 * @to_cpu: where it goes (-1 unknown)
 * @cross: set to whether it crossed a socket; may be NULL
 *
 * For a migration outside what is counted (other CPUs, other tasks): the
 * later ones are classified as if it had been.
 *
 * Return: the enum sp_mig_class.
 */
enum sp_mig_class sp_migrations_classify(struct sp_migrations *mg, int pid, int from_cpu,
					 int to_cpu, bool *cross);

/**
 * sp_migrations_add - classify and count one migration, as the model tells it
 * @mg: the counts
 * @ts_ns: its time
 * @pid: the task
 * @from_cpu: where it was (-1 unknown)
 * @to_cpu: where it goes (-1 unknown)
 * @cross: set to whether it crossed a socket; may be NULL
 *
 * Call it from the model's migration callback: the class depends on the
 * task's state at that moment.
 *
 * Return: the enum sp_mig_class.
 */
enum sp_mig_class sp_migrations_add(struct sp_migrations *mg, uint64_t ts_ns, int pid,
				    int from_cpu, int to_cpu, bool *cross);

/**
 * sp_mig_class_name - "wakeup", "balance" or "numa"
 * @c: an enum sp_mig_class
 *
 * Return: a static string.
 */
const char *sp_mig_class_name(enum sp_mig_class c);

#endif /* SP_MIGRATIONS_H */
