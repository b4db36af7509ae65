/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_EVENT_H
#define SP_EVENT_H

#include <stdbool.h>
#include <stdint.h>

/*
 * The records the model decodes; the events a caller asked for by name
 * (sp_reader_request_event()) are SP_EV_EXTRA; everything else is
 * SP_EV_OTHER.
 */
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
	SP_EV_NR_TYPES,			/* the sched records: the types above */
	SP_EV_EXTRA = SP_EV_NR_TYPES,	/* an event asked for by name; not a sched record */
};

/* The context a record fired in (its common_flags): a task's, or an interrupt's. */
enum sp_ctx {
	SP_CTX_TASK = 0,	/* common_pid's own, or not known */
	SP_CTX_SOFTIRQ,		/* serving a softirq, in common_pid's time */
	SP_CTX_IRQ,		/* a hard interrupt, in common_pid's time */
};

/* Filters watched at most in one pass (sp_reader_watch()): a bit each in sp_event.watched. */
#define SP_EVENT_MAX_WATCHES	32

/* How the value of a field of an SP_EV_EXTRA record is to be read. */
enum sp_value_kind {
	SP_VALUE_U64,		/* an unsigned number */
	SP_VALUE_S64,		/* a signed number, sign-extended */
	SP_VALUE_STR,		/* a string (char array or __data_loc char[]) */
	SP_VALUE_ADDRS,		/* an array of unsigned numbers (ftrace:kernel_stack's caller) */
};

/* The numbers of an SP_VALUE_ADDRS field, as many as the record holds. */
struct sp_addrs {
	const uint64_t *addr;
	uint32_t nr;
};

/* One field's value in an SP_EV_EXTRA record. */
union sp_value {
	uint64_t u64;
	int64_t s64;
	const char *str;	/* NULL when the record does not hold the field */
	const struct sp_addrs *addrs;	/* never NULL; nr 0 when the record holds none */
};

/*
 * One decoded record, independent of the kernel's field layout.  Field use
 * by type:
 *   SWITCH:     pid = prev_pid, other_pid = next_pid, prev_runnable,
 *               prev_state, comm = prev_comm, other_comm = next_comm
 *   WAKEUP*:    pid, target_cpu, comm, ctx (WAKING too)
 *   MIGRATE:    pid, orig_cpu, target_cpu = dest_cpu, comm
 *   FORK:       pid = parent_pid, other_pid = child_pid, comm = parent_comm,
 *               other_comm = child_comm
 *   EXEC:       pid, comm = basename of the new program (kernel's comm)
 *   EXIT:       pid, comm
 *   EXTRA:      extra = the index of the request, values = the fields asked
 *               for, in the order asked (pid, other_pid, target_cpu and
 *               orig_cpu are -1, the names NULL)
 * Strings are only valid during the callback that receives the event; they
 * may be NULL when the field is missing.  @prev_state is the decoder's own
 * and stays valid while the reader is open.  @extra and @values are set for
 * EXTRA records only.  @watched has bit i set when the record is of the
 * event of watch i and passes its filter (sp_reader_watch(), sched records
 * too); @watch_values[i] then holds the fields that watch asked for.
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
	uint8_t ctx;		/* enum sp_ctx; SP_CTX_TASK but in WAKEUP, WAKEUP_NEW, WAKING */
	bool prev_runnable;	/* SWITCH: prev_state is TASK_RUNNING (+ preempt flag) */
	uint16_t extra;		/* EXTRA: the index of the request */
	bool comm16;		/* comm and other_comm, where set, have 16 bytes to read */
	const char *comm;
	const char *other_comm;
	const char *prev_state;	/* SWITCH: as trace-cmd prints it ("S", "R+"); may be NULL */
	const union sp_value *values;	/* EXTRA: valid during the callback */
	uint32_t watched;		/* the watches it passes, a bit each */
	const union sp_value *const *watch_values;	/* by watch, valid during the callback */
};

/**
 * sp_event_is_sched - whether the model decodes this record
 * @ev: the event
 *
 * Return: true for the sched records of doc/design.md.
 */
static inline bool sp_event_is_sched(const struct sp_event *ev)
{
	return ev->type != SP_EV_OTHER && ev->type < SP_EV_NR_TYPES;
}

#endif /* SP_EVENT_H */
