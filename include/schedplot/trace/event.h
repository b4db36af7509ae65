/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_EVENT_H
#define SP_EVENT_H

#include <stdbool.h>
#include <stdint.h>

/* The records the model decodes; everything else is SP_EV_OTHER. */
enum sp_event_type {
	SP_EV_OTHER = 0,
	SP_EV_SWITCH,
	SP_EV_WAKEUP,
	SP_EV_WAKEUP_NEW,
	SP_EV_WAKING,
	SP_EV_MIGRATE,
	SP_EV_FORK,
	SP_EV_EXEC,
	SP_EV_EXIT,
	SP_EV_NR_TYPES,
};

/*
 * One decoded record, independent of the kernel's field layout.  Field use
 * by type:
 *   SWITCH:     pid = prev_pid, other_pid = next_pid, prev_runnable,
 *               comm = prev_comm, other_comm = next_comm
 *   WAKEUP*:    pid, target_cpu, comm
 *   MIGRATE:    pid, orig_cpu, target_cpu = dest_cpu, comm
 *   FORK:       pid = parent_pid, other_pid = child_pid, comm = parent_comm,
 *               other_comm = child_comm
 *   EXEC:       pid, comm = basename of the new program (kernel's comm)
 *   EXIT:       pid, comm
 * Strings are only valid during the callback that receives the event; they
 * may be NULL when the field is missing.
 */
struct sp_event {
	uint64_t ts_ns;
	int32_t cpu;
	int32_t common_pid;
	int32_t pid;
	int32_t other_pid;
	int32_t target_cpu;
	int32_t orig_cpu;
	uint8_t type;		/* enum sp_event_type */
	bool prev_runnable;	/* SWITCH: prev_state is TASK_RUNNING (+ preempt flag) */
	const char *comm;
	const char *other_comm;
};

/**
 * sp_event_is_sched - whether the model decodes this record
 * @ev: the event
 *
 * Return: true for the sched records of DESIGN.md.
 */
static inline bool sp_event_is_sched(const struct sp_event *ev)
{
	return ev->type != SP_EV_OTHER;
}

#endif /* SP_EVENT_H */
