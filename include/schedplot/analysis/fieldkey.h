/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_FIELDKEY_H
#define SP_FIELDKEY_H

/*
 * Runs keyed by the value of a field (--color-by FIELD, --color-by
 * EVENT/FIELD): a consumer of the pass between the model and a timeline.
 * It keeps the values of FIELD in the records of a watch
 * (sp_reader_watch()) and tells the timeline's run callback every run with
 * the task replaced by the key of the value in effect:
 *
 *   SP_FIELDKEY_SWITCH_IN: the value in the sched_switch record that made
 *     the run's task current: a run that began at a switch-in record of
 *     its CPU, of its task, takes its value; one that began otherwise (the
 *     first run of a CPU, a repaired missed switch) has none.
 *   SP_FIELDKEY_PER_CPU, _PER_TASK, _PER_TRACE: the value of the latest
 *     record of the event on the run's CPU, of the run's task (the
 *     record's common_pid, or a field naming the task), or anywhere.  A
 *     record colors what runs from its timestamp on: a run during which
 *     the value changes is told in pieces, one per value; the part before
 *     any record has none.
 *
 * A run with no value takes SP_FIELDKEY_UNKNOWN.  The idle task stays 0.
 * Keys are numbered in the order values are first seen.  Values are
 * numbers, or strings (interned; trailing white space, such as the
 * newline of a trace_marker text, is left out).
 *
 * Memory: the switch-in records not yet matched with their run (per CPU),
 * and, per CPU, the records since the latest run; per task and for the
 * whole trace, the changes of value (a record that repeats the value its
 * holder has adds nothing), as runs of different CPUs come in no common
 * order.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "schedplot/model/model.h"

/* The key of a run with no value: no switch-in record, no record yet. */
#define SP_FIELDKEY_UNKNOWN 1

enum sp_fieldkey_per {
	SP_FIELDKEY_SWITCH_IN,
	SP_FIELDKEY_PER_CPU,
	SP_FIELDKEY_PER_TASK,
	SP_FIELDKEY_PER_TRACE,
};

/* A value taking effect: a switch-in (pid: next_pid) or a record of the event. */
struct sp_fieldkey_rec {
	uint64_t ts_ns;
	int32_t key;
	int32_t pid;
};

/* The records of one holder (a CPU, a task, the trace), in time order. */
struct sp_fieldkey_queue {
	struct sp_fieldkey_rec *q;
	size_t head, nr, alloc;
};

/* Ids to small numbers, open addressed: the values' keys, the tasks' queues. */
struct sp_fieldkey_map {
	int32_t *slot;			/* 0 empty, else index + 1 */
	size_t alloc_slot;
};

struct sp_fieldkey {
	/* set before sp_fieldkey_init() */
	int watch;		/* FIELD, then: SWITCH_IN next_pid, PER_TASK the task's field */
	enum sp_fieldkey_per per;
	bool is_signed;		/* numbers: FIELD is signed */
	bool is_string;		/* FIELD is a string */
	bool task_field;	/* PER_TASK: the task is the watch's second field, not common_pid */

	/* the values seen, key k >= 2 is values[k - 2] (strings: strings[k - 2]) */
	int64_t *values;
	char **strings;
	size_t nr_values, alloc_values, alloc_strings;

	/* private */
	struct sp_model_observer next;	/* the timeline's consumer */
	struct sp_fieldkey_queue *queue;	/* per holder */
	size_t nr_queues, alloc_queues;
	int32_t *queue_pid;		/* PER_TASK: the task of each queue */
	size_t alloc_queue_pid;
	struct sp_fieldkey_map value_map, task_map;
	int nr_cpus;
	int error;
};

/**
 * sp_fieldkey_init - key runs by a field, for a timeline's consumer
 * @fk: watch, per, is_signed, is_string and task_field set
 * @next: the consumer to tell the keyed runs (its run and reset; copied)
 * @nr_cpus: CPUs of the trace
 *
 * Return: 0 or -ENOMEM.
 */
int sp_fieldkey_init(struct sp_fieldkey *fk, const struct sp_model_observer *next, int nr_cpus);

/**
 * sp_fieldkey_observer - the consumer to register in place of @next
 * @fk: initialised
 * @obs: filled in (watch, run, reset)
 */
void sp_fieldkey_observer(struct sp_fieldkey *fk, struct sp_model_observer *obs);

/**
 * sp_fieldkey_value - the number a key stands for
 * @fk: after the pass
 * @key: a key told to the timeline, at least 2
 *
 * Return: the value; 0 for a string field or a key out of range.
 */
int64_t sp_fieldkey_value(const struct sp_fieldkey *fk, int key);

/**
 * sp_fieldkey_label - the value a key stands for, as text
 * @fk: after the pass
 * @key: a key told to the timeline, at least 2
 * @buf: where to write it
 * @size: its size
 */
void sp_fieldkey_label(const struct sp_fieldkey *fk, int key, char *buf, size_t size);

/**
 * sp_fieldkey_release - free what @fk holds
 * @fk: zeroed or initialised
 */
void sp_fieldkey_release(struct sp_fieldkey *fk);

#endif /* SP_FIELDKEY_H */
