/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_OVERLAY_H
#define SP_OVERLAY_H

/*
 * The marks drawn over the rows of a per-CPU chart, gathered in the one
 * pass over a trace by a consumer of their own (sp_overlay_observer()):
 * each sched_migrate_task (from and to a CPU, with its class), each wakeup
 * that made a task wait (from the waker's CPU to where the task then ran),
 * each wakeup that left an idle previous CPU, and each record of the
 * events asked for that passed their filter (a watch, sp_reader_watch()).  Only marks inside the timeline's window and on its
 * rows are kept, wakeups only while few enough to draw their arrows, and
 * a mark that would fall on one kept already (same kind, class and CPUs,
 * same column of the timeline) is only counted.  Drawing them is the
 * views' (views/datagraph-marks.h).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "schedplot/analysis/migrations.h"
#include "schedplot/analysis/placement.h"
#include "schedplot/model/model.h"

struct sp_timeline;

#define SP_OVERLAY_MAX_EVENTS	8
/* Wakeup arrows are kept (and drawn) when, on average, this many columns apart. */
#define SP_OVERLAY_ARROW_SPACING	8.0

enum sp_overlay_kind {
	SP_OVERLAY_MIGRATION,	/* cpu -> cpu2; cls: enum sp_mig_class, cross */
	SP_OVERLAY_WAKEUP,	/* waker's cpu -> cpu2 where it ran; pid */
	SP_OVERLAY_PLACEMENT,	/* left idle cpu, ran on cpu2 at ts2_ns */
	SP_OVERLAY_EVENT,	/* on cpu; cls: the event's index; label */
	SP_OVERLAY_NR
};

struct sp_overlay_mark {
	uint64_t ts_ns;
	uint64_t ts2_ns;	/* placement: when it ran */
	int32_t cpu, cpu2;
	int32_t pid;		/* wakeups: the woken task, to find where it ran */
	uint32_t label;		/* events: offset + 1 into the text, 0: none */
	uint32_t col;		/* the timeline's column of ts_ns */
	uint8_t kind;		/* enum sp_overlay_kind */
	uint8_t cls;
	bool cross;
};

/* One event marked (--events, --mark): the records that pass a watch's filter. */
struct sp_overlay_event {
	char name[96];		/* as the legend names it: "system:event", "...: filter" */
	int watch;		/* sp_reader_watch()'s index */
	bool text;		/* the watch's first value is a label */
	uint8_t label_kind;	/* then: its enum sp_value_kind */
	uint64_t nr;		/* records inside the window, on the rows drawn */
};

struct sp_overlay {
	/* what to gather, set before sp_overlay_init() */
	bool migrations, wakeups, placement;
	struct sp_overlay_event events[SP_OVERLAY_MAX_EVENTS];
	int nr_events;

	/* counted inside the window, on the rows drawn */
	struct sp_migrations mig;
	struct sp_placement_stats place;
	/* wakeups that made a task wait, recorded on a CPU drawn: one arrow each */
	uint64_t nr_wakeup_arrows;

	/* the marks kept, wakeups matched with where they ran by sp_overlay_finish() */
	struct sp_overlay_mark *marks;
	size_t nr_marks;
	char *text;		/* the labels, NUL separated (sp_overlay_mark.label) */
	const struct sp_timeline *tl;	/* the window, columns and rows */

	/* private */
	const struct sp_model *model;
	size_t alloc_marks;
	uint32_t *places;	/* marks kept by place (index + 1), hashed */
	size_t nr_places, alloc_places;
	uint32_t *recent;	/* by kind and CPU, the mark kept last (index + 1) */
	struct sp_overlay_mark *runs;	/* wakeups: where each woken task then ran */
	size_t nr_runs, alloc_runs;
	size_t nr_text, alloc_text;
	int error;			/* sticky -ENOMEM */
};

/**
 * sp_overlay_any - whether any mark was asked for
 * @ov: the settings
 *
 * Return: true when there is something to gather.
 */
bool sp_overlay_any(const struct sp_overlay *ov);

/**
 * sp_overlay_init - gather marks for a timeline's window and rows
 * @ov: settings filled in; the event requests made
 * @tl: the timeline (its window, columns and rows; kept by reference)
 * @model: the model the pass builds (kept by reference)
 * @socket: per CPU its socket (-1 unknown), or NULL; kept by reference
 * @nr_cpus: CPUs of the trace
 */
void sp_overlay_init(struct sp_overlay *ov, const struct sp_timeline *tl,
		     const struct sp_model *model, const int *socket, int nr_cpus);

/**
 * sp_overlay_observer - the consumer of a pass that gathers @ov
 * @ov: initialised
 * @obs: filled in: the callbacks the marks asked for need, and reset
 */
void sp_overlay_observer(struct sp_overlay *ov, struct sp_model_observer *obs);

/**
 * sp_overlay_finish - match each wakeup with where its task then ran
 * @ov: after the pass
 *
 * Return: 0, or -ENOMEM (also when the pass ran out of memory).
 */
int sp_overlay_finish(struct sp_overlay *ov);

/**
 * sp_overlay_release - free what @ov holds
 * @ov: zeroed or initialised
 */
void sp_overlay_release(struct sp_overlay *ov);

#endif /* SP_OVERLAY_H */
