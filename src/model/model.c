// SPDX-License-Identifier: GPL-2.0-only
/*
 * model: sched records -> per-CPU runs, task table, running/waiting steps,
 * by the rules of doc/design.md ("Exact semantics").  This file keeps the
 * model's lifecycle and its counts of repairs; the record handling is
 * sched.c's, the state changes state.c's, the repairs of missed switches
 * repair.c's, what is held back until no repair can precede it held.c's;
 * the task table (tasktab.c) is embedded, knowing nothing of the model.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/base/alloc.h"
#include "schedplot/model/model.h"
#include "model-internal.h"

/* Count a repair, and keep its note while fewer than keep_repair_notes are. */
void sp_model_note_repair(struct sp_model *m, int kind, int cpu, uint64_t ts_ns, int pid)
{
	m->repairs[kind]++;
	if (m->nr_repair_notes < m->keep_repair_notes &&
	    sp_grow_array(&m->repair_notes, &m->alloc_repair_notes, m->nr_repair_notes + 1,
			  sizeof(*m->repair_notes)) == 0)
		m->repair_notes[m->nr_repair_notes++] = (struct sp_repair_note){
			.kind = kind, .cpu = cpu, .ts_ns = ts_ns, .pid = pid };
}

static const char *const repair_names[SP_REPAIR_NR_KINDS] = {
	[SP_REPAIR_MISSED_SWITCH] = "missed_switch",
	[SP_REPAIR_PREV_MISMATCH] = "prev_pid_mismatch",
	[SP_REPAIR_TIME_BACKWARDS] = "time_backwards",
	[SP_REPAIR_LATE_CHANGE] = "late_change",
};

const char *sp_repair_name(enum sp_repair_kind kind)
{
	return kind < SP_REPAIR_NR_KINDS ? repair_names[kind] : "unknown";
}

const char *sp_run_end_name(const struct sp_run *r)
{
	switch (r->end) {
	case SP_RUN_END_SWITCH:
		return r->end_state ? r->end_state : r->end_runnable ? "R" : "?";
	case SP_RUN_END_REPAIR:
		return "repair";
	default:
		return "end";
	}
}

uint64_t sp_model_nr_repairs(const struct sp_model *m)
{
	uint64_t n = 0;
	int k;

	for (k = 0; k < SP_REPAIR_NR_KINDS; k++)
		n += m->repairs[k];
	return n;
}

int sp_model_init(struct sp_model *m, int nr_cpus, const uint64_t *start_ns, uint64_t end_ns,
		  bool wakeup_from_waking, const struct sp_pass *pass,
		  const struct sp_model_filter *filter)
{
	int c;

	memset(m, 0, sizeof(*m));
	if (nr_cpus <= 0)
		return -EINVAL;
	m->cpus = sp_alloc_array(nr_cpus, sizeof(*m->cpus));
	if (!m->cpus)
		return -ENOMEM;
	m->nr_cpus = nr_cpus;
	m->flush_mask = sp_model_flush_interval(nr_cpus) - 1;
	m->keep_repair_notes = SP_MODEL_REPAIR_NOTES;
	m->end_ns = end_ns;
	m->first_ns = SP_NO_TS;
	m->window_start_ns = 0;
	m->wakeup_from_waking = wakeup_from_waking;
	/* as a task is first seen: nowhere, not woken */
	sp_tasktab_init(&m->tasks, &(struct sp_task){ .ppid = -1, .cpu = -1, .last_cpu = -1,
						      .wake_ns = SP_NO_TS, .waker = SP_WAKER_NONE,
						      .waker_cpu = -1, .waking_cpu = -1 });
	if (pass)
		m->pass = *pass;
	if (filter)
		m->filter = *filter;
	for (c = 0; c < nr_cpus; c++) {
		struct sp_cpu *cpu = &m->cpus[c];

		cpu->start_ns = start_ns ? start_ns[c] : SP_NO_TS;
		cpu->last_sched_ns = SP_NO_TS;
		cpu->deferred_wake_ns = SP_NO_TS;
		cpu->deferred_mig_ns = SP_NO_TS;
		cpu->cur_pid = -1;
		cpu->selected = sp_model_cpu_selected(m, c);
		if (cpu->start_ns == SP_NO_TS)
			continue;
		if (cpu->start_ns < m->first_ns)
			m->first_ns = cpu->start_ns;
		if (cpu->start_ns > m->window_start_ns)
			m->window_start_ns = cpu->start_ns;
	}
	return 0;
}

void sp_model_release(struct sp_model *m)
{
	for (int c = 0; m->cpus && c < m->nr_cpus; c++)
		free(m->cpus[c].woken);
	free(m->cpus);
	sp_tasktab_release(&m->tasks);
	free(m->changes);
	free(m->held);
	free(m->repair_notes);
	memset(m, 0, sizeof(*m));
}

const char *sp_waker_format(char *buf, size_t size, int waker)
{
	if (waker == SP_WAKER_IRQ)
		snprintf(buf, size, "irq");
	else if (waker == SP_WAKER_SOFTIRQ)
		snprintf(buf, size, "softirq");
	else
		snprintf(buf, size, "%d", waker < 0 ? -1 : waker);
	return buf;
}
