// SPDX-License-Identifier: GPL-2.0-only
/*
 * tasks: the task-by-time chart, one row per task colored by the CPU it
 * ran on.  See include/schedplot/views/tasks.h for the contracts.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cairo.h>

#include "schedplot/base/alloc.h"
#include "schedplot/draw/axes.h"
#include "schedplot/draw/figure.h"
#include "schedplot/draw/ink.h"
#include "schedplot/draw/text.h"
#include "schedplot/draw/theme.h"
#include "schedplot/model/model.h"
#include "schedplot/model/taskline.h"
#include "schedplot/views/runtitles.h"
#include "schedplot/analysis/chain.h"
#include "schedplot/analysis/spans.h"
#include "schedplot/views/datagraph-marks.h"
#include "schedplot/views/tasks.h"

/*
 * Waiting: hatch lines of the running-waiting graph's red on a pale red,
 * this period; with the grey palette, dark grey on light grey (the hatch,
 * not the shade, tells waiting from the CPUs' greys).
 */
static const struct sp_rgb wait_line = { 0.90, 0.30, 0.25 };
static const struct sp_rgb wait_ground = { 1.00, 0.80, 0.78 };
static const struct sp_rgb wait_line_grey = { 0.20, 0.20, 0.20 };
static const struct sp_rgb wait_ground_grey = { 0.88, 0.88, 0.88 };
#define HATCH_PERIOD 6
/*
 * Slept uninterruptibly (D: I/O, a lock): a slate blue hatch on a pale
 * ground, apart from waiting's red and from the white of other sleeps;
 * with the grey palette, a lighter one than waiting's.
 */
static const struct sp_rgb blocked_line = { 0.30, 0.35, 0.65 };
static const struct sp_rgb blocked_ground = { 0.86, 0.88, 0.97 };
static const struct sp_rgb blocked_line_grey = { 0.55, 0.55, 0.55 };
static const struct sp_rgb blocked_ground_grey = { 0.95, 0.95, 0.95 };

/* The mark of a row's long pole, along the top of the row. */
static const struct sp_rgb pole_color = { 0.12, 0.12, 0.12 };

/* Lines of the key at most, and its entries at most. */
#define TASKS_LEGEND_LINES 6
#define TASKS_LEGEND_MAX 65


static int cmp_u64_desc(uint64_t a, uint64_t b)
{
	return (a < b) - (a > b);
}

static int cmp_pid(const struct sp_taskline_task *a, const struct sp_taskline_task *b)
{
	return (a->pid > b->pid) - (a->pid < b->pid);
}

static int cmp_run(const void *x, const void *y)
{
	const struct sp_taskline_task *a = *(const void *const *)x, *b = *(const void *const *)y;

	return cmp_u64_desc(a->run_ns, b->run_ns) ?: cmp_pid(a, b);
}

#define ROW_TASK(x) (((const struct sp_tasks_row *)(x))->task)

static int cmp_rows_run(const void *x, const void *y)
{
	return cmp_u64_desc(ROW_TASK(x)->run_ns, ROW_TASK(y)->run_ns) ?:
	       cmp_pid(ROW_TASK(x), ROW_TASK(y));
}

static int cmp_rows_wait(const void *x, const void *y)
{
	return cmp_u64_desc(ROW_TASK(x)->wait_ns, ROW_TASK(y)->wait_ns) ?:
	       cmp_pid(ROW_TASK(x), ROW_TASK(y));
}

static int cmp_rows_pid(const void *x, const void *y)
{
	return cmp_pid(ROW_TASK(x), ROW_TASK(y));
}

static int cmp_rows_start(const void *x, const void *y)
{
	return -cmp_u64_desc(ROW_TASK(x)->first_ns, ROW_TASK(y)->first_ns) ?:
	       cmp_pid(ROW_TASK(x), ROW_TASK(y));
}

/* The row order of each --sort key, then the lower pid. */
static int (*const cmp_rows[])(const void *, const void *) = {
	[SP_TASKS_SORT_RUN] = cmp_rows_run,
	[SP_TASKS_SORT_WAIT] = cmp_rows_wait,
	[SP_TASKS_SORT_PID] = cmp_rows_pid,
	[SP_TASKS_SORT_START] = cmp_rows_start,
};

static int cmp_pid_row(const void *x, const void *y)
{
	const int32_t *a = x, *b = y;

	return (a[0] > b[0]) - (a[0] < b[0]);
}

/* The row of a task, or -1 when it has none. */
static int row_of_pid(const struct sp_tasks_chart *ch, int pid)
{
	int32_t key[2] = { pid, 0 };
	const int32_t *hit = bsearch(key, ch->pid_rows, ch->nr_rows, sizeof(key), cmp_pid_row);

	return hit ? hit[1] : -1;
}

/* The CPU colors: sockets numbered in the key's order, CPUs inside each. */
static void cpu_colors(struct sp_tasks_chart *ch, const struct sp_tasks_opts *o)
{
	size_t nr_families = 1, family = 0, index = 0;
	int i;

	for (i = 1; o->cpu_socket && i < o->nr_key_cpus; i++)
		if (o->cpu_socket[i] != o->cpu_socket[i - 1])
			nr_families++;
	for (i = 0; i < o->nr_key_cpus; i++) {
		if (o->cpu_socket && i && o->cpu_socket[i] != o->cpu_socket[i - 1]) {
			family++;
			index = 0;
		}
		if (o->cpus[i] >= 0 && o->cpus[i] < ch->nr_cpus)
			sp_palette_cpu_color(o->palette, family, nr_families, index,
					     &ch->cpu_color[o->cpus[i]]);
		index++;
	}
}

/* Each row's long pole: what took most of its time other than its runs (sp_chain_long_pole()). */
static void poles_fill(struct sp_tasks_chart *ch, const struct sp_tasks_opts *o,
		       const struct sp_model *m)
{
	for (size_t r = 0; r < ch->nr_rows; r++) {
		struct sp_tasks_row *row = &ch->rows[r];
		struct sp_chain_cause c;
		uint64_t ns, total;
		char what[112];

		row->pole = -1;
		if (!o->chain || !sp_chain_long_pole(o->chain_ns, o->nr_chain_ns, row->task->pid,
						     &c, &ns, &total))
			continue;
		row->pole = sp_chain_code(c);
		snprintf(row->pole_text, sizeof(row->pole_text), "%s, %.0f%%",
			 sp_chain_cause_format(what, sizeof(what), c, m),
			 total ? 100.0 * (double)ns / (double)total : 0.0);
		ch->any_pole = true;
	}
}

/* The key: waiting, then the CPUs the rows ran on, in the key's order. */
static int legend_fill(struct sp_tasks_chart *ch, const struct sp_tasks_opts *o,
		       const struct sp_model *m)
{
	bool *used = calloc(ch->nr_cpus > 0 ? (size_t)ch->nr_cpus : 1, sizeof(*used));
	size_t n = 0;

	if (!used)
		return -ENOMEM;
	for (size_t r = 0; r < ch->nr_rows; r++) {
		const struct sp_taskline_cell *cells = ch->rows[r].task->cells;

		for (unsigned int c = 0; c < ch->tl->window.nr_cols; c++)
			if (cells[c].run && cells[c].cpu < ch->nr_cpus)
				used[cells[c].cpu] = true;
	}
	ch->entries[n].color = ch->grey ? wait_line_grey : wait_line;
	ch->entries[n++].label = "waiting for a CPU";
	for (size_t r = 0; r < ch->nr_rows; r++) {
		if (ch->rows[r].task->blocked_ns) {
			ch->entries[n].color = ch->grey ? blocked_line_grey : blocked_line;
			ch->entries[n++].label = "slept in D (I/O, a lock)";
			break;
		}
	}
	for (int k = 0; ch->spans && k < ch->spans->nr_kinds; k++) {
		snprintf(ch->span_labels[k], sizeof(ch->span_labels[k]), "%s: %zu",
			 ch->spans->kinds[k].name, ch->spans->kinds[k].durs.nr);
		ch->entries[n].color = sp_span_color[k];
		ch->entries[n].sample = sp_legend_bar_sample;
		ch->entries[n++].label = ch->span_labels[k];
	}
	poles_fill(ch, o, m);
	if (ch->any_pole) {
		ch->entries[n].color = pole_color;
		/* thinner, as drawn along the top of a row */
		ch->entries[n].sample = sp_legend_bar_sample;
		ch->entries[n].style = 30;
		ch->entries[n++].label = "long pole, named on its row";
	}
	ch->nr_more = 0;
	for (int i = 0; i < o->nr_key_cpus; i++) {
		int cpu = o->cpus[i];

		if (cpu < 0 || cpu >= ch->nr_cpus || !used[cpu])
			continue;
		if (n == TASKS_LEGEND_MAX) {
			ch->nr_more++;
			continue;
		}
		if (o->cpu_socket && o->cpu_socket[i] >= 0)
			snprintf(ch->entry_labels[n], sizeof(ch->entry_labels[n]), "CPU %d (s%d)",
				 cpu, o->cpu_socket[i]);
		else
			snprintf(ch->entry_labels[n], sizeof(ch->entry_labels[n]), "CPU %d", cpu);
		ch->entries[n].color = ch->cpu_color[cpu];
		ch->entries[n].label = ch->entry_labels[n];
		n++;
	}
	free(used);
	ch->nr_entries = n;
	ch->legend_title = o->cpu_socket ? "ran on (sN: socket N, a hue per socket)" : "ran on";
	return 0;
}

int sp_tasks_init(struct sp_tasks_chart *ch, const struct sp_taskline *tl,
		  const struct sp_model *m, const struct sp_tasks_opts *o)
{
	const struct sp_taskline_task **cand;
	size_t nr = 0, i;

	memset(ch, 0, sizeof(*ch));
	ch->tl = tl;
	ch->spans = o->spans;
	ch->grey = o->palette && (o->palette == sp_palette_by_name("grey") ||
				  o->palette == sp_palette_by_name("gray"));
	ch->nr_cpus = o->nr_cpus;
	ch->origin_ns = o->origin_ns;
	cand = sp_alloc_array(tl->nr_tasks ? tl->nr_tasks : 1, sizeof(*cand));
	ch->cpu_color = sp_alloc_array(o->nr_cpus > 0 ? (size_t)o->nr_cpus : 1,
				       sizeof(*ch->cpu_color));
	ch->entries = sp_alloc_array(TASKS_LEGEND_MAX, sizeof(*ch->entries));
	ch->chain = o->chain;
	ch->span_labels = sp_alloc_array(SP_SPANS_MAX_KINDS, sizeof(*ch->span_labels));
	if (!ch->span_labels)
		return -ENOMEM;
	ch->entry_labels = sp_alloc_array(TASKS_LEGEND_MAX, sizeof(*ch->entry_labels));
	if (!cand || !ch->cpu_color || !ch->entries || !ch->entry_labels)
		goto nomem;
	for (i = 0; i < tl->nr_tasks; i++) {
		const struct sp_taskline_task *t = &tl->tasks[i];

		if (o->is_target && !o->is_target(o->target_data, t->pid, sp_model_comm(m, t->pid)))
			continue;
		cand[nr++] = t;
	}
	ch->nr_candidates = nr;
	if (nr)
		qsort(cand, nr, sizeof(*cand), cmp_run);
	if (o->top && nr > o->top)
		nr = o->top;
	ch->rows = sp_alloc_array(nr ? nr : 1, sizeof(*ch->rows));
	if (!ch->rows)
		goto nomem;
	for (i = 0; i < nr; i++) {
		ch->rows[i].task = cand[i];
		snprintf(ch->rows[i].label, sizeof(ch->rows[i].label), "%s-%d",
			 sp_model_comm(m, cand[i]->pid), cand[i]->pid);
	}
	ch->nr_rows = nr;
	if (nr)
		qsort(ch->rows, nr, sizeof(*ch->rows),
		      cmp_rows[o->sort <= SP_TASKS_SORT_START ? o->sort : SP_TASKS_SORT_RUN]);
	free(cand);
	ch->pid_rows = sp_alloc_array(nr ? nr : 1, sizeof(*ch->pid_rows));
	if (!ch->pid_rows)
		goto nomem_rows;
	for (i = 0; i < nr; i++) {
		ch->pid_rows[i][0] = ch->rows[i].task->pid;
		ch->pid_rows[i][1] = (int32_t)i;
	}
	if (nr)
		qsort(ch->pid_rows, nr, sizeof(*ch->pid_rows), cmp_pid_row);
	for (int c = 0; c < o->nr_cpus; c++)
		ch->cpu_color[c] = (struct sp_rgb){ 0.5, 0.5, 0.5 };
	cpu_colors(ch, o);
	if (legend_fill(ch, o, m))
		goto nomem_rows;
	return 0;
nomem:
	free(cand);
nomem_rows:
	sp_tasks_release(ch);
	return -ENOMEM;
}

void sp_tasks_release(struct sp_tasks_chart *ch)
{
	SP_FREE_ALL(ch->rows, ch->pid_rows, ch->cpu_color, ch->entries, ch->span_labels,
		    ch->entry_labels);
	memset(ch, 0, sizeof(*ch));
}

static cairo_pattern_t *wait_pattern(const struct sp_tasks_chart *ch, bool image)
{
	return sp_render_hatch(ch->grey ? &wait_ground_grey : &wait_ground,
			       ch->grey ? &wait_line_grey : &wait_line, 6, HATCH_PERIOD, image);
}

static cairo_pattern_t *blocked_pattern(const struct sp_tasks_chart *ch, bool image)
{
	return sp_render_hatch(ch->grey ? &blocked_ground_grey : &blocked_ground,
			       ch->grey ? &blocked_line_grey : &blocked_line, 6, HATCH_PERIOD,
			       image);
}

static double edge(double x0, double w, unsigned int n, unsigned int i, bool snap)
{
	double x = x0 + (double)i * w / n;

	return snap ? round(x) : x;
}

static int task_row(const void *data, const struct sp_runlist_run *r)
{
	return row_of_pid(data, r->pid);
}

static void task_label(const void *data, const struct sp_runlist_run *r, char *buf, size_t len)
{
	const struct sp_tasks_chart *ch = data;
	int row = task_row(ch, r);

	snprintf(buf, len, "%s", row >= 0 ? ch->rows[row].label : "?");
}

/*
 * A cell's look: the CPU color at the ink of its run share, and over it the
 * waiting hatch at the strength of its wait share; under the longest-holder
 * rule, the state that held the column longest, sleep included, drawn whole.
 */
struct cell_look {
	unsigned int cpu;		/* UINT_MAX: no run drawn */
	unsigned int run_level, wait_level, blocked_level;
};

static struct cell_look cell_look(const struct sp_taskline *tl, const struct sp_taskline_cell *cell)
{
	struct cell_look k = { UINT_MAX, 0, 0, 0 };

	if (tl->rule == SP_TIMELINE_LONGEST) {
		unsigned int busy = (unsigned int)cell->run + cell->wait + cell->blocked;
		unsigned int rest = busy < SP_TASKLINE_SHARE_MAX ? SP_TASKLINE_SHARE_MAX - busy : 0;

		/* the longest of run, wait, blocked and the rest of sleep, whole */
		if (cell->run && cell->run >= cell->wait && cell->run >= cell->blocked &&
		    cell->run >= rest)
			k = (struct cell_look){ cell->cpu, SP_INK_LEVELS, 0, 0 };
		else if (cell->wait && cell->wait >= cell->blocked && cell->wait >= rest)
			k.wait_level = SP_INK_LEVELS;
		else if (cell->blocked && cell->blocked >= rest)
			k.blocked_level = SP_INK_LEVELS;
		return k;
	}
	if (cell->run) {
		k.cpu = cell->cpu;
		k.run_level = sp_ink_level(cell->run, SP_TASKLINE_SHARE_MAX);
	}
	k.wait_level = sp_ink_level_rounded(cell->wait, SP_TASKLINE_SHARE_MAX);
	k.blocked_level = sp_ink_level_rounded(cell->blocked, SP_TASKLINE_SHARE_MAX);
	return k;
}

/* The layers of a row, drawn in this order. */
enum row_layer { LAYER_BLOCKED, LAYER_RUN, LAYER_WAIT };

static unsigned int layer_level(struct cell_look k, enum row_layer layer)
{
	return layer == LAYER_RUN ? k.run_level : layer == LAYER_WAIT ? k.wait_level :
									k.blocked_level;
}

static bool same_look(struct cell_look a, struct cell_look b, enum row_layer layer)
{
	return layer_level(a, layer) == layer_level(b, layer) &&
	       (layer != LAYER_RUN || a.cpu == b.cpu);
}

/* Fill the runs of equal looks along a row: the CPUs' ink, or a hatch (waiting, blocked). */
static void draw_row(cairo_t *cr, const struct sp_theme *theme, const struct sp_rect *plot,
		     const struct sp_tasks_chart *ch, const struct sp_taskline_cell *cells,
		     double y0, double y1, enum row_layer layer, cairo_pattern_t *hatch, bool snap)
{
	const struct sp_taskline *tl = ch->tl;
	unsigned int nr_cols = tl->window.nr_cols;

	for (unsigned int c = 0; c < nr_cols;) {
		struct cell_look k = cell_look(tl, &cells[c]);
		unsigned int e = c + 1, level = layer_level(k, layer);
		double x0, x1;
		struct sp_rgb mix;

		while (e < nr_cols && same_look(k, cell_look(tl, &cells[e]), layer))
			e++;
		x0 = edge(plot->x, plot->w, nr_cols, c, snap);
		x1 = edge(plot->x, plot->w, nr_cols, e, snap);
		c = e;
		if (!level)
			continue;
		cairo_rectangle(cr, x0, y0, x1 - x0, y1 - y0);
		if (layer != LAYER_RUN) {
			cairo_save(cr);
			cairo_clip(cr);
			cairo_set_source(cr, hatch);
			cairo_paint_with_alpha(cr, (double)level / SP_INK_LEVELS);
			cairo_restore(cr);
			continue;
		}
		if (k.cpu < (unsigned int)ch->nr_cpus)
			sp_ink_mix(&ch->cpu_color[k.cpu], &theme->idle, level, &mix);
		else
			sp_ink_mix(&(struct sp_rgb){ 0.5, 0.5, 0.5 }, &theme->idle, level, &mix);
		sp_render_set_color(cr, &mix);
		cairo_fill(cr);
	}
}

/* The x of @t_ns in the plot, the window's ends kept. */
static double time_x(const struct sp_rect *plot, const struct sp_taskline *tl, uint64_t t_ns)
{
	if (t_ns < tl->window.t0_ns)
		t_ns = tl->window.t0_ns;
	if (t_ns > tl->window.t1_ns)
		t_ns = tl->window.t1_ns;
	return plot->x + (double)(t_ns - tl->window.t0_ns) /
		(double)(tl->window.t1_ns - tl->window.t0_ns) * plot->w;
}

/*
 * The spans, a bar each along the lower part of the row of the task that
 * began it (the start record's common_pid), the kinds one above the other.
 */
static void draw_spans(cairo_t *cr, const struct sp_rect *plot, const struct sp_tasks_chart *ch)
{
	const struct sp_spans *sp = ch->spans;
	const struct sp_taskline *tl = ch->tl;
	double row_h = plot->h / (double)ch->nr_rows;
	double bar = fmax(fmin(row_h * 0.5 / sp->nr_kinds, 6), 1), edge_h = bar * 0.2;

	cairo_set_antialias(cr, CAIRO_ANTIALIAS_DEFAULT);
	for (size_t i = 0; i < sp->nr_pieces; i++) {
		const struct sp_span_piece *p = &sp->pieces[i];
		int row = row_of_pid(ch, p->pid);
		double x0, x1, y;

		if (row < 0)
			continue;
		x0 = time_x(plot, tl, p->t0_ns);
		x1 = time_x(plot, tl, p->t1_ns);
		y = plot->y + (row + 1) * row_h - row_h * 0.1 - (p->kind + 1) * (bar + edge_h);
		sp_span_bar_draw(cr, x0, x1, y, bar, p->kind);
	}
}

/* The long pole in words over its longest piece in the row, on a pale ground. */
static void pole_name(cairo_t *cr, const struct sp_theme *theme, const struct sp_rect *plot,
		      const struct sp_tasks_row *row, double x, double y0, double row_h)
{
	double size = fmin(theme->font_size * 0.85, row_h * 0.55), w, h, pad;
	char text[sizeof(row->pole_text)];

	if (size < 6)
		return;		/* rows too thin to name it: the key says what the bar is */
	sp_render_font(cr, theme, size, false);
	sp_text_fit(cr, text, sizeof(text), row->pole_text, plot->w - 8);
	w = sp_text_width(cr, text);
	h = sp_text_height(cr);
	pad = size * 0.25;
	x = fmax(plot->x + pad, fmin(x + pad, plot->x + plot->w - w - pad));
	cairo_rectangle(cr, x - pad, y0 + row_h * 0.5 - h * 0.5, w + 2 * pad, h);
	cairo_set_source_rgba(cr, 1, 1, 1, 0.85);
	cairo_fill(cr);
	sp_render_set_color(cr, &theme->text);
	sp_text_draw(cr, x, y0 + row_h * 0.55, SP_ALIGN_LEFT | SP_ALIGN_MIDDLE, text);
}

/*
 * Each row's long pole: a bar along the top of the row over each wait or
 * sleep it names (a wait: by the task that held the CPU longest in it),
 * and its name over the longest of them.
 */
static void draw_poles(cairo_t *cr, const struct sp_theme *theme, const struct sp_rect *plot,
		       const struct sp_tasks_chart *ch)
{
	const struct sp_chain *chain = ch->chain;
	const struct sp_taskline *tl = ch->tl;
	double row_h = plot->h / (double)ch->nr_rows;
	bool image = sp_render_is_image(cr);
	double bar = fmax(fmin(row_h * 0.18, 4), 1), edge_h = fmin(bar * 0.3, 1);
	double (*longest)[2] = sp_alloc_array(ch->nr_rows, sizeof(*longest));

	if (!longest)
		return;
	if (image) {
		bar = round(bar);
		edge_h = 1;
	}
	cairo_set_antialias(cr, CAIRO_ANTIALIAS_DEFAULT);
	for (size_t i = 0; i < chain->nr_pieces; i++) {
		const struct sp_chain_piece *p = &chain->pieces[i];
		int row = row_of_pid(ch, p->pid);
		double x0, x1, y;

		if (row < 0 || ch->rows[row].pole != p->cause || p->t1_ns <= tl->window.t0_ns ||
		    p->t0_ns >= tl->window.t1_ns)
			continue;
		x0 = time_x(plot, tl, p->t0_ns);
		x1 = time_x(plot, tl, p->t1_ns);
		if (x1 - x0 < 1)
			x1 = x0 + 1;
		if (x1 - x0 > longest[row][1] - longest[row][0]) {
			longest[row][0] = x0;
			longest[row][1] = x1;
		}
		y = plot->y + row * row_h + fmax(row_h * 0.08, 1);
		if (image) {
			/* whole pixels: a crisp bar */
			x0 = floor(x0);
			x1 = ceil(x1);
			y = round(y);
		}
		cairo_rectangle(cr, x0, y - edge_h, x1 - x0, bar + 2 * edge_h);
		cairo_set_source_rgb(cr, 1, 1, 1);
		cairo_fill(cr);
		cairo_rectangle(cr, x0, y, x1 - x0, bar);
		sp_render_set_color(cr, &pole_color);
		cairo_fill(cr);
	}
	for (size_t r = 0; r < ch->nr_rows; r++)
		if (longest[r][1] > longest[r][0])
			pole_name(cr, theme, plot, &ch->rows[r], longest[r][0],
				  plot->y + (double)r * row_h, row_h);
	free(longest);
}

void sp_tasks_draw(cairo_t *cr, const struct sp_theme *theme, const struct sp_rect *plot,
		   const struct sp_tasks_chart *ch)
{
	const struct sp_taskline *tl = ch->tl;
	bool image = sp_render_is_image(cr);
	cairo_pattern_t *hatch, *blocked;

	sp_figure_plot_begin(cr, theme, plot, image);
	hatch = wait_pattern(ch, image);
	blocked = blocked_pattern(ch, image);
	for (size_t r = 0; r < ch->nr_rows; r++) {
		const struct sp_taskline_cell *cells = ch->rows[r].task->cells;
		double y0 = edge(plot->y, plot->h, (unsigned int)ch->nr_rows, (unsigned int)r, image);
		double y1 = edge(plot->y, plot->h, (unsigned int)ch->nr_rows, (unsigned int)r + 1,
				 image);

		if (ch->rows[r].task->blocked_ns)
			draw_row(cr, theme, plot, ch, cells, y0, y1, LAYER_BLOCKED, blocked, image);
		draw_row(cr, theme, plot, ch, cells, y0, y1, LAYER_RUN, NULL, image);
		draw_row(cr, theme, plot, ch, cells, y0, y1, LAYER_WAIT, hatch, image);
	}
	cairo_pattern_destroy(hatch);
	cairo_pattern_destroy(blocked);
	if (ch->spans && ch->spans->nr_kinds && ch->nr_rows)
		draw_spans(cr, plot, ch);
	if (ch->chain && ch->nr_rows)
		draw_poles(cr, theme, plot, ch);
	cairo_restore(cr);
	if (ch->nr_rows) {
		struct sp_run_rows rows = { .nr_rows = (unsigned int)ch->nr_rows,
					    .row_of = task_row, .label = task_label, .data = ch };

		sp_run_titles_draw(cr, plot, &tl->runs, ch->origin_ns, &rows);
	}
}

/* The widest label a task can have: a 16-character comm, '-', a 7-digit pid. */
static double label_room(cairo_t *cr, const struct sp_theme *theme)
{
	double w;

	cairo_save(cr);
	sp_render_font(cr, theme, theme->font_size, false);
	w = sp_text_width(cr, "kworker/u16:0-ev-4194304");
	cairo_restore(cr);
	return sp_axis_left_width(cr, theme, w, true);
}

static void figure_spec(struct sp_layout_spec *spec, cairo_t *cr,
			const struct sp_tasks_figure *fig, double height, double left_w)
{
	sp_layout_spec_init(spec, fig->theme, fig->width, height);
	spec->left_w = left_w;
	if (sp_figure_has_title(fig->title))
		spec->title_h = sp_figure_title_height(cr, fig->theme);
}

int sp_tasks_figure_plan(struct sp_tasks_figure *fig)
{
	struct sp_layout_spec spec;
	cairo_t *cr = sp_figure_scratch();
	int ret;

	if (!cr)
		return -ENOMEM;
	figure_spec(&spec, cr, fig, 100000, label_room(cr, fig->theme));
	cairo_destroy(cr);
	ret = sp_figure_layout(&fig->layout, &spec, fig->format == SP_FORMAT_PNG, false);
	if (ret)
		return ret;
	fig->nr_cols = fig->format == SP_FORMAT_PNG ? (unsigned int)fmax(1, floor(fig->layout.plot.w))
						    : (unsigned int)fmax(1, ceil(fig->layout.plot.w * 2));
	return 0;
}

static void chart_legend(const struct sp_tasks_chart *ch, struct sp_legend *legend)
{
	*legend = (struct sp_legend){
		.entries = ch->entries,
		.nr_entries = ch->nr_entries,
		.nr_more = ch->nr_more,
		.title = ch->legend_title,
	};
}

/*
 * Rows get 24 px (18 pt) each, room for every label at the default font
 * size, up to 900 px (600 pt): the default top 32 are all labelled; more
 * thin down to 4 px (2 pt).
 */
static double default_plot_height(enum sp_format format, size_t nr_rows)
{
	bool px = format == SP_FORMAT_PNG;
	double per_row = px ? 24 : 18, min_row = px ? 4 : 2, base = px ? 900 : 600;
	double h = fmin(per_row * (double)nr_rows, fmax(base, min_row * (double)nr_rows));

	return fmax(h, px ? 120 : 80);
}

int sp_tasks_figure_finish(struct sp_tasks_figure *fig, const struct sp_tasks_chart *ch)
{
	const struct sp_theme *theme = fig->theme;
	struct sp_rect planned = fig->layout.plot;
	struct sp_layout_spec spec;
	struct sp_legend legend;
	cairo_t *cr = sp_figure_scratch();

	if (!cr)
		return -ENOMEM;
	figure_spec(&spec, cr, fig, fig->height, planned.x - theme->margin);
	if (fig->legend) {
		chart_legend(ch, &legend);
		spec.legend = SP_LEGEND_BELOW;
		spec.legend_h = sp_figure_legend_height(cr, theme, &legend,
							fig->width - theme->margin - planned.x,
							TASKS_LEGEND_LINES);
	}
	cairo_destroy(cr);
	return sp_figure_relayout(&fig->layout, &spec, &fig->height,
				  default_plot_height(fig->format, ch->nr_rows),
				  fig->format == SP_FORMAT_PNG);
}

/* The comm-pid labels left of the rows, every k-th when rows are thin. */
static void rows_draw(cairo_t *cr, const struct sp_theme *theme, const struct sp_rect *plot,
		      const struct sp_tasks_chart *ch)
{
	const char **labels = sp_alloc_array(ch->nr_rows, sizeof(*labels));

	if (!labels)
		return;
	for (size_t r = 0; r < ch->nr_rows; r++)
		labels[r] = ch->rows[r].label;
	sp_axis_rows_draw(cr, theme, plot, labels, ch->nr_rows, "task (command-pid)");
	free(labels);
}

void sp_tasks_figure_draw(cairo_t *cr, const struct sp_tasks_figure *fig,
			  const struct sp_tasks_chart *ch)
{
	const struct sp_theme *theme = fig->theme;
	const struct sp_layout *lay = &fig->layout;
	const struct sp_taskline *tl = ch->tl;
	struct sp_legend legend;

	sp_figure_frame_draw(cr, theme, &lay->title, fig->title);
	sp_tasks_draw(cr, theme, &lay->plot, ch);
	sp_axis_frame_draw(cr, theme, &lay->plot);
	if (ch->nr_rows)
		rows_draw(cr, theme, &lay->plot, ch);
	sp_figure_time_axis_draw(cr, theme, &lay->plot, tl->window.t0_ns, tl->window.t1_ns,
				 fig->origin_ns);
	if (fig->legend && lay->legend.w > 0) {
		chart_legend(ch, &legend);
		sp_legend_draw(cr, theme, &legend, &lay->legend);
	}
}
