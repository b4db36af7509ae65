// SPDX-License-Identifier: GPL-2.0-only
/*
 * migrations: why each sched_migrate_task happened (wakeup placement, load
 * balancing, NUMA balancing) and whether it crossed a socket.
 *
 * In try_to_wake_up() the kernel records sched_waking, picks a CPU (the
 * migration record, when it differs), then records sched_wakeup:
 *
 *	sched_waking  ->  sched_migrate_task  ->  sched_wakeup
 *	                  (task asleep, or waiting from sched_waking)
 *
 * so a migration of a task asleep is a placement at wakeup; so is one of
 * a task that sched_waking (standing in for sched_wakeup) made wait, as
 * long as it has not run since.  Load balancing moves runnable or running
 * tasks.  The model says which (sp_model.mig_at_wakeup): a repair found
 * later can show a task was current at the migration after all.
 */
#include <string.h>

#include "schedplot/analysis/migrations.h"
#include "schedplot/model/model.h"
#include "schedplot/trace/event.h"

static const char *const class_names[SP_MIG_NR_CLASSES] = {
	[SP_MIG_WAKEUP] = "wakeup",
	[SP_MIG_BALANCE] = "balance",
	[SP_MIG_NUMA] = "numa",
};

const char *sp_mig_class_name(enum sp_mig_class c)
{
	return c < SP_MIG_NR_CLASSES ? class_names[c] : "unknown";
}

void sp_migrations_init(struct sp_migrations *mg, const struct sp_model *model,
			const int *socket, int nr_cpus, uint64_t t0_ns, uint64_t t1_ns)
{
	memset(mg, 0, sizeof(*mg));
	mg->model = model;
	mg->socket = socket;
	mg->nr_cpus = nr_cpus;
	mg->t0_ns = t0_ns;
	mg->t1_ns = t1_ns;
	mg->move_numa_req = mg->swap_numa_req = -1;
}

void sp_migrations_reset(struct sp_migrations *mg)
{
	memset(mg->nr, 0, sizeof(mg->nr));
	mg->nr_cross_socket = 0;
	mg->nr_numa = 0;
}

void sp_migrations_numa(struct sp_migrations *mg, int pid)
{
	int i;

	for (i = 0; i < mg->nr_numa; i++)
		if (mg->numa_pid[i] == pid)
			return;
	/* the oldest is forgotten: its migration did not follow */
	if (mg->nr_numa == SP_MIG_NUMA_PENDING) {
		memmove(mg->numa_pid, mg->numa_pid + 1, sizeof(mg->numa_pid) - sizeof(int32_t));
		mg->nr_numa--;
	}
	mg->numa_pid[mg->nr_numa++] = pid;
}

void sp_migrations_extra(struct sp_migrations *mg, const struct sp_event *ev)
{
	int i, n = ev->extra == mg->move_numa_req ? 1 : ev->extra == mg->swap_numa_req ? 2 : 0;

	for (i = 0; i < n; i++)
		sp_migrations_numa(mg, (int)ev->values[i].s64);
}

static bool numa_take(struct sp_migrations *mg, int pid)
{
	int i;

	for (i = 0; i < mg->nr_numa; i++) {
		if (mg->numa_pid[i] != pid)
			continue;
		memmove(mg->numa_pid + i, mg->numa_pid + i + 1,
			(size_t)(mg->nr_numa - i - 1) * sizeof(int32_t));
		mg->nr_numa--;
		return true;
	}
	return false;
}

static int socket_of(const struct sp_migrations *mg, int cpu)
{
	if (!mg->socket || cpu < 0 || cpu >= mg->nr_cpus)
		return -1;
	return mg->socket[cpu];
}

enum sp_mig_class sp_migrations_classify(struct sp_migrations *mg, int pid, int from_cpu,
					 int to_cpu, bool *cross)
{
	int s0 = socket_of(mg, from_cpu), s1 = socket_of(mg, to_cpu);
	enum sp_mig_class c;
	bool x = s0 >= 0 && s1 >= 0 && s0 != s1;

	if (numa_take(mg, pid))
		c = SP_MIG_NUMA;
	else if (mg->model->mig_at_wakeup)
		c = SP_MIG_WAKEUP;
	else
		c = SP_MIG_BALANCE;
	if (cross)
		*cross = x;
	return c;
}

enum sp_mig_class sp_migrations_add(struct sp_migrations *mg, uint64_t ts_ns, int pid,
				    int from_cpu, int to_cpu, bool *cross)
{
	bool x;
	enum sp_mig_class c = sp_migrations_classify(mg, pid, from_cpu, to_cpu, &x);

	if (cross)
		*cross = x;
	if (ts_ns >= mg->t0_ns && ts_ns <= mg->t1_ns) {
		mg->nr[c]++;
		mg->nr_cross_socket += x;
	}
	return c;
}
