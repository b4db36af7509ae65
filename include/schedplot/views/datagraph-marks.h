/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_DATAGRAPH_MARKS_H
#define SP_DATAGRAPH_MARKS_H

/*
 * Marks drawn over the datagraph's rows, gathered in the same pass:
 *
 *   --migrations  each sched_migrate_task: a tick on the row it left and on
 *                 the row it went to, joined by a line; solid at wakeup,
 *                 dashed for load balancing, dotted for NUMA balancing,
 *                 thicker across sockets (analysis/migrations.h);
 *   --wakeups     an arrow from the waker's row, at the wakeup, to the row
 *                 where the woken task next ran, drawn when few enough to
 *                 read (else a note says how many there are);
 *   --placement   each wakeup that left an idle previous CPU: a ring on
 *                 that CPU's row at the wakeup, a line to where it ran;
 *   --events      each record of the events named: a shape on the row of
 *                 its CPU, one shape and color per event; the text of
 *                 ftrace:print as a label when few enough to read.
 *
 * Memory grows with the marks inside the window, so only what is asked
 * for is kept, wakeups only while few enough to draw their arrows, and a
 * mark that would fall on one kept already (same kind, class and CPUs,
 * same column of the timeline) is only counted.  Drawing costs a few
 * cairo operations per pixel's worth of marks, not a few per mark: rings
 * and shapes are stamped (draw/stamp.h), overlapping migration lines and
 * ticks of a class merged.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "schedplot/analysis/migrations.h"
#include "schedplot/analysis/placement.h"
#include "schedplot/draw/legend.h"
#include "schedplot/model/model.h"
#include "schedplot/views/datagraph-power.h"

struct _cairo;
struct sp_datagraph;
struct sp_rect;
struct sp_dg_seg;
struct sp_theme;
struct sp_timeline;

#define SP_DG_MAX_EVENTS	8
/* legend entries: the classes, across sockets, placement, wakeups, the events */
#define SP_DG_MARKS_MAX_ENTRIES	(SP_MIG_NR_CLASSES + 3 + SP_DG_MAX_EVENTS)

enum sp_dg_mark_kind {
	SP_DG_MARK_MIGRATION,	/* cpu -> cpu2; cls: enum sp_mig_class, cross */
	SP_DG_MARK_WAKEUP,	/* waker's cpu -> cpu2 where it ran; pid */
	SP_DG_MARK_PLACEMENT,	/* left idle cpu, ran on cpu2 at ts2_ns */
	SP_DG_MARK_EVENT,	/* on cpu; cls: the event's index; label */
	SP_DG_MARK_NR
};

struct sp_dg_mark {
	uint64_t ts_ns;
	uint64_t ts2_ns;	/* placement: when it ran */
	int32_t cpu, cpu2;
	int32_t pid;		/* wakeups: the woken task, to find where it ran */
	uint32_t label;		/* events: offset + 1 into the text, 0: none */
	uint32_t col;		/* the timeline's column of ts_ns */
	uint8_t kind;		/* enum sp_dg_mark_kind */
	uint8_t cls;
	bool cross;
};

/* One event asked for with --events. */
struct sp_dg_event {
	char name[64];		/* "system:event" */
	int request;		/* sp_reader_request_event()'s index, -1: none in the trace */
	bool text;		/* its first value is the text of a label (ftrace:print) */
	uint64_t nr;		/* records inside the window, on the rows drawn */
};

struct sp_dg_marks {
	/* what to gather, set before sp_dg_marks_init() */
	bool migrations, wakeups, placement;
	struct sp_dg_event events[SP_DG_MAX_EVENTS];
	int nr_events;

	/* counted inside the window, on the rows drawn */
	struct sp_migrations mig;
	struct sp_placement_stats place;
	/* wakeups that made a task wait, recorded on a CPU drawn: one arrow each */
	uint64_t nr_wakeup_arrows;

	/* private */
	const struct sp_timeline *tl;
	const struct sp_model *model;
	struct sp_dg_mark *marks;
	size_t nr_marks, alloc_marks;
	uint32_t *places;	/* marks kept by place (sp_dg_mark's index + 1), hashed */
	size_t nr_places, alloc_places;
	uint32_t *recent;	/* by kind and CPU, the mark kept last (index + 1) */
	struct sp_dg_seg *segs;		/* drawing: room for two per migration */
	size_t *open_ticks;		/* drawing: per row, its last tick in segs */
	struct sp_dg_mark *runs;	/* wakeups: where each woken task then ran */
	size_t nr_runs, alloc_runs;
	char *text;
	size_t nr_text, alloc_text;
	int error;			/* sticky -ENOMEM */
	struct sp_legend_entry entries[SP_DG_MARKS_MAX_ENTRIES];
	char labels[SP_DG_MARKS_MAX_ENTRIES][96];
	size_t nr_entries;
};

/**
 * sp_dg_marks_any - whether any mark was asked for
 * @mk: the settings
 *
 * Return: true when there is something to gather and draw.
 */
bool sp_dg_marks_any(const struct sp_dg_marks *mk);

/**
 * sp_dg_marks_init - gather marks for a timeline's window and rows
 * @mk: settings filled in; the event requests made
 * @tl: the timeline (its window and rows; kept by reference)
 * @model: the model the pass builds (kept by reference)
 * @socket: per CPU its socket (-1 unknown), or NULL; kept by reference
 * @nr_cpus: CPUs of the trace
 */
void sp_dg_marks_init(struct sp_dg_marks *mk, const struct sp_timeline *tl,
		      const struct sp_model *model, const int *socket, int nr_cpus);

/**
 * sp_dg_marks_observer - the consumer of a pass that gathers @mk
 * @mk: the marks, initialised
 * @obs: filled in: the callbacks the marks asked for need, and reset
 */
void sp_dg_marks_observer(struct sp_dg_marks *mk, struct sp_model_observer *obs);

/**
 * sp_dg_marks_finish - match the wakeups with the runs that followed, label the legend
 * @mk: the marks, after the pass
 *
 * Return: 0, or -ENOMEM (also when the pass ran out of memory).
 */
int sp_dg_marks_finish(struct sp_dg_marks *mk);

/**
 * sp_dg_marks_legend - the legend entries of the marks, counts in their labels
 * @mk: finished marks
 * @n: set to how many
 *
 * Return: the entries (valid while @mk lives).
 */
const struct sp_legend_entry *sp_dg_marks_legend(const struct sp_dg_marks *mk, size_t *n);

/* Legend entries a chart with marks may have: sp_dg_marks_chart_legend()'s @buf. */
#define SP_DG_MARKS_LEGEND_BUF	(64 + SP_DG_POWER_MAX_ENTRIES + SP_DG_MARKS_MAX_ENTRIES)

/**
 * sp_dg_marks_chart_legend - a datagraph's legend with the marks' entries first
 * @mk: finished marks, or NULL (the chart's legend alone)
 * @dg: the chart
 * @legend: filled in; points into @dg and @buf
 * @buf: room for SP_DG_MARKS_LEGEND_BUF entries
 */
void sp_dg_marks_chart_legend(const struct sp_dg_marks *mk, const struct sp_datagraph *dg,
			      struct sp_legend *legend, struct sp_legend_entry *buf);

/**
 * sp_dg_marks_arrows - whether the wakeup arrows are few enough to draw
 * @mk: finished marks
 * @plot_w: the width of the plot they would be drawn in
 *
 * Return: true when, on average, they would be far enough apart to read.
 */
bool sp_dg_marks_arrows(const struct sp_dg_marks *mk, double plot_w);

/**
 * sp_dg_marks_draw - draw the marks over the rows in a plot rectangle
 * @cr: cairo context
 * @theme: the theme
 * @plot: the rectangle of sp_datagraph_draw()
 * @mk: finished marks
 */
void sp_dg_marks_draw(struct _cairo *cr, const struct sp_theme *theme, const struct sp_rect *plot,
		      const struct sp_dg_marks *mk);

/**
 * sp_dg_marks_release - free what @mk holds
 * @mk: the marks (zeroed or initialised)
 */
void sp_dg_marks_release(struct sp_dg_marks *mk);

#endif /* SP_DATAGRAPH_MARKS_H */
