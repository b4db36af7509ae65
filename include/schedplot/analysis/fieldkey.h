/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_FIELDKEY_H
#define SP_FIELDKEY_H

/*
 * Runs keyed by a field of the record that began them (--color-by FIELD):
 * a consumer of the pass between the model and a timeline.  It keeps the
 * value of FIELD of each sched_switch record (a watch, sp_reader_watch())
 * on each CPU, and tells the timeline's run callback every run with the
 * task replaced by the key of the value in the switch that made it
 * current: a run that began at a switch-in record of that CPU, of its
 * task, takes its value; one that began otherwise (the first run of a CPU, a repaired
 * missed switch) has none (SP_FIELDKEY_UNKNOWN).  The idle task stays 0.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "schedplot/model/model.h"

/* The key of a run whose beginning has no switch-in record. */
#define SP_FIELDKEY_UNKNOWN 1

struct sp_fieldkey_rec {
	uint64_t ts_ns;
	int64_t value;
	int32_t pid;		/* next_pid */
};

struct sp_fieldkey {
	/* set before sp_fieldkey_init() */
	int watch;			/* the switch records' watch: FIELD, then next_pid */
	bool is_signed;

	/* the values seen, key k >= 2 is values[k - 2] */
	int64_t *values;
	size_t nr_values, alloc_values;

	/* private */
	struct sp_model_observer next;	/* the timeline's consumer */
	struct {
		struct sp_fieldkey_rec *q;	/* switch-ins not yet matched with a run */
		size_t head, nr, alloc;
	} *cpu;
	int nr_cpus;
	int32_t *slot;			/* open-addressed value -> key */
	size_t alloc_slot;
	int error;
};

/**
 * sp_fieldkey_init - key runs by a field, for a timeline's consumer
 * @fk: watch and is_signed set
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
 * sp_fieldkey_value - the value a key stands for
 * @fk: after the pass
 * @key: a key told to the timeline, at least 2
 *
 * Return: the value.
 */
int64_t sp_fieldkey_value(const struct sp_fieldkey *fk, int key);

/**
 * sp_fieldkey_release - free what @fk holds
 * @fk: zeroed or initialised
 */
void sp_fieldkey_release(struct sp_fieldkey *fk);

#endif /* SP_FIELDKEY_H */
