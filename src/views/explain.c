// SPDX-License-Identifier: GPL-2.0-only
/*
 * explain: the figure of one scheduler decision, and its facts in words.
 * See include/schedplot/views/explain.h for what it shows.  The rows are
 * the datagraph's (a timeline of the case's runs, drawn by
 * sp_datagraph_draw()); this file adds the CPU labels with their parts,
 * the marks of the story and the words.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cairo.h>

#include "schedplot/analysis/explain.h"
#include "schedplot/analysis/latency.h"
#include "schedplot/base/span.h"
#include "schedplot/draw/axes.h"
#include "schedplot/draw/figure.h"
#include "schedplot/draw/layout.h"
#include "schedplot/draw/text.h"
#include "schedplot/draw/theme.h"
#include "schedplot/model/model.h"
#include "schedplot/model/timeline.h"
#include "schedplot/views/datagraph.h"
#include "schedplot/views/explain.h"

/* ---- words ---- */

/* A moment from the wakeup: "-0.40 ms", "+2.10 ms", "0". */
static char *rel(char *buf, size_t len, uint64_t ts, uint64_t wake, bool unicode)
{
	char d[32];

	if (ts == wake)
		snprintf(buf, len, "0");
	else
		snprintf(buf, len, "%s%s", ts < wake ? (unicode ? "\u2212" : "-") : "+",
			 sp_text_duration(d, sizeof(d), ts < wake ? wake - ts : ts - wake));
	return buf;
}

/* "hpc-5 (1005)": a task by the name it had then. */
static char *task_name(char *buf, size_t len, const struct sp_model *m, int pid, uint32_t comm)
{
	const char *name = comm ? sp_model_str(m, comm) : sp_model_comm(m, pid);

	snprintf(buf, len, "%s (%d)", name && *name ? name : "?", pid);
	return buf;
}

static char *waker_name(char *buf, size_t len, const struct sp_model *m,
			const struct sp_explain_case *c)
{
	switch (c->w.waker) {
	case SP_WAKER_IRQ:
		snprintf(buf, len, "a hard interrupt");
		return buf;
	case SP_WAKER_SOFTIRQ:
		snprintf(buf, len, "a softirq");
		return buf;
	case SP_WAKER_NONE:
		snprintf(buf, len, "?");
		return buf;
	case 0:
		snprintf(buf, len, "the idle task (an interrupt)");
		return buf;
	default:
		return task_name(buf, len, m, c->w.waker, c->waker_comm);
	}
}

/* The run of a row going on at @ts (the last one to begin at or before it), or NULL. */
static const struct sp_explain_run *run_at(const struct sp_explain_case *c, int cpu, uint64_t ts)
{
	int i = sp_explain_row_of(c, cpu);
	const struct sp_explain_row *row;

	if (i < 0)
		return NULL;
	row = &c->rows[i];
	for (size_t k = row->nr_runs; k-- > 0;)
		if (row->runs[k].start_ns <= ts && ts < row->runs[k].end_ns)
			return &row->runs[k];
	return NULL;
}

static void add_line(struct sp_explain_words *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void add_line(struct sp_explain_words *o, const char *fmt, ...)
{
	va_list ap;

	if (o->nr_lines >= SP_EXPLAIN_NR_LINES)
		return;
	va_start(ap, fmt);
	vsnprintf(o->lines[o->nr_lines++], sizeof(o->lines[0]), fmt, ap);
	va_end(ap);
}

/* Whose CPU a wakeup put the task on, when it is one of the story's. */
static const char *place_note(const struct sp_wait *w, int cpu)
{
	if (w->wait_class != SP_WAIT_WAKEUP)
		return "";
	if (cpu == w->prev_cpu)
		return " (where it ran before)";
	return cpu == w->waker_cpu ? " (the waker's)" : "";
}

/* What the task waited behind: "behind hpc-5 (1005) 2.00 ms, kworker/5:1 (1013) 12 µs". */
static void behind_text(char *buf, size_t len, const struct sp_explain_case *c,
			const struct sp_model *m, bool durations)
{
	size_t n = 0;
	char name[96], d[32];

	buf[0] = 0;
	for (int i = 0; i < c->nr_behind && n < len; i++) {
		task_name(name, sizeof(name), m, c->behind[i].pid, c->behind[i].comm);
		if (durations)
			n += snprintf(buf + n, len - n, "%s%s %s", i ? ", " : " behind ", name,
				      sp_text_duration(d, sizeof(d), c->behind[i].ns));
		else if (!i)
			n += snprintf(buf + n, len - n, " behind %s", name);
	}
	if (durations && c->behind_other_ns && n < len)
		snprintf(buf + n, len - n, " and others %s",
			 sp_text_duration(d, sizeof(d), c->behind_other_ns));
}

void sp_explain_words(const struct sp_explain_case *c, const struct sp_model *m, bool unicode,
		      struct sp_explain_words *o)
{
	const struct sp_wait *w = &c->w;
	uint64_t wake = w->start_ns, end = wake + w->dur_ns;
	enum sp_placement pl = sp_placement_of(w);
	char name[96], who[96], d[32], r1[32], r2[32], behind[256], more[192];
	const struct sp_explain_run *at;

	memset(o, 0, sizeof(*o));
	task_name(name, sizeof(name), m, w->pid, c->comm);
	switch (pl) {
	case SP_PLACE_MOVED_PREV_IDLE:
		if (w->target_cpu == w->prev_cpu)
			snprintf(more, sizeof(more), "put back on its idle CPU %d, ran on CPU %d",
				 w->prev_cpu, w->cpu);
		else
			snprintf(more, sizeof(more), "put on CPU %d while its CPU %d was idle",
				 w->target_cpu >= 0 ? w->target_cpu : w->cpu, w->prev_cpu);
		break;
	case SP_PLACE_MOVED_PREV_BUSY:
		snprintf(more, sizeof(more), "moved from busy CPU %d to CPU %d", w->prev_cpu,
			 w->cpu);
		break;
	case SP_PLACE_STAYED:
		snprintf(more, sizeof(more), "woken, waited %s on its CPU %d",
			 sp_text_duration(d, sizeof(d), w->dur_ns), w->cpu);
		break;
	case SP_PLACE_FIRST_RUN:
		snprintf(more, sizeof(more), "woken for its first run, on CPU %d", w->cpu);
		break;
	default:
		snprintf(more, sizeof(more), "preempted on CPU %d, waited %s", w->prev_cpu,
			 sp_text_duration(d, sizeof(d), w->dur_ns));
		break;
	}
	snprintf(o->title, sizeof(o->title), "%s at %" PRIu64 ".%06" PRIu64 " s: %s", name,
		 wake / 1000000000, wake % 1000000000 / 1000, more);

	/* the wakeup, or the preemption */
	if (w->wait_class == SP_WAIT_WAKEUP) {
		waker_name(who, sizeof(who), m, c);
		if (w->waker_cpu >= 0)
			add_line(o, "woken by %s on CPU %d", who, w->waker_cpu);
		else
			add_line(o, "woken by %s", who);
	} else {
		at = run_at(c, w->prev_cpu, wake);
		if (at && at->pid > 0 && at->pid != w->pid)
			add_line(o, "preempted on CPU %d by %s", w->prev_cpu,
				 task_name(who, sizeof(who), m, at->pid, at->comm));
		else
			add_line(o, "preempted on CPU %d", w->prev_cpu);
	}

	/* the previous CPU */
	if (w->wait_class == SP_WAIT_WAKEUP && w->prev_cpu >= 0) {
		char story[256] = "";
		size_t n = 0;

		if (c->last_ran_ns != SP_NO_TS)
			n += snprintf(story + n, sizeof(story) - n, "CPU %d, where it last ran (until %s),",
				      w->prev_cpu, rel(r1, sizeof(r1), c->last_ran_ns, wake, unicode));
		else
			n += snprintf(story + n, sizeof(story) - n, "CPU %d, where it last ran,",
				      w->prev_cpu);
		at = run_at(c, w->prev_cpu, wake);
		if (w->prev_idle) {
			if (c->prev_busy_end_ns != SP_NO_TS && c->prev_idle_exact)
				n += snprintf(story + n, sizeof(story) - n, " was idle since %s",
					      rel(r1, sizeof(r1), c->prev_busy_end_ns, wake, unicode));
			else if (c->prev_busy_end_ns != SP_NO_TS)
				n += snprintf(story + n, sizeof(story) - n,
					      " was idle for more than %s",
					      sp_text_duration(d, sizeof(d),
							       wake - c->prev_busy_end_ns));
			else
				n += snprintf(story + n, sizeof(story) - n, " was idle");
			if (at && at->pid == 0 && at->end_ns >= end)
				n += snprintf(story + n, sizeof(story) - n,
					      " and stayed idle while it waited");
			else if (at && at->pid == 0)
				n += snprintf(story + n, sizeof(story) - n, " until %s",
					      rel(r1, sizeof(r1), at->end_ns, wake, unicode));
		} else if (at && at->pid > 0) {
			n += snprintf(story + n, sizeof(story) - n, " was running %s",
				      task_name(who, sizeof(who), m, at->pid, at->comm));
		} else {
			n += snprintf(story + n, sizeof(story) - n, " was busy");
		}
		if (c->prev_last_other.pid > 0 && w->prev_idle) {
			const struct sp_explain_run *k = &c->prev_last_other;

			snprintf(story + n, sizeof(story) - n, "; %s ran %s there at %s",
				 task_name(who, sizeof(who), m, k->pid, k->comm),
				 sp_text_duration(d, sizeof(d), k->end_ns - k->start_ns),
				 rel(r1, sizeof(r1), k->start_ns, wake, unicode));
			snprintf(o->other_label, sizeof(o->other_label), "%s %s",
				 k->comm ? sp_model_str(m, k->comm) : sp_model_comm(m, k->pid),
				 sp_text_duration(d, sizeof(d), k->end_ns - k->start_ns));
			snprintf(o->other_short, sizeof(o->other_short), "%s",
				 k->comm ? sp_model_str(m, k->comm) : sp_model_comm(m, k->pid));
		}
		add_line(o, "%s", story);
	}

	/* where it was put and what it waited behind */
	behind_text(behind, sizeof(behind), c, m, true);
	if (w->target_cpu >= 0 && w->target_cpu != w->cpu) {
		char moved[96] = "";

		if (c->mig_ns != SP_NO_TS)
			snprintf(moved, sizeof(moved), " at %s",
				 rel(r1, sizeof(r1), c->mig_ns, wake, unicode));
		add_line(o, "%s on CPU %d%s, moved to CPU %d%s; waited %s%s",
			 w->wait_class == SP_WAIT_WAKEUP ? "placed" : "queued", w->target_cpu,
			 place_note(w, w->target_cpu), w->cpu, moved,
			 sp_text_duration(d, sizeof(d), w->dur_ns), behind);
	} else {
		add_line(o, "%s on CPU %d%s, waited %s%s",
			 w->wait_class == SP_WAIT_WAKEUP ? "placed" : "queued", w->cpu,
			 place_note(w, w->cpu), sp_text_duration(d, sizeof(d), w->dur_ns), behind);
	}
	if (c->next_end_ns != SP_NO_TS)
		add_line(o, "ran on CPU %d from %s for %s", w->cpu, rel(r1, sizeof(r1), end, wake,
									 unicode),
			 sp_text_duration(d, sizeof(d), c->next_end_ns - end));
	if (c->idle_cpu >= 0)
		add_line(o, "a CPU was idle for %s of the wait; CPU %d for %s",
			 sp_text_duration(d, sizeof(d), c->iww_ns), c->idle_cpu,
			 sp_text_duration(r2, sizeof(r2), c->idle_cpu_ns));

	behind_text(behind, sizeof(behind), c, m, false);
	snprintf(o->wait_label, sizeof(o->wait_label), "waited %s%s",
		 sp_text_duration(d, sizeof(d), w->dur_ns), behind);
	snprintf(o->wait_short, sizeof(o->wait_short), "waited %s",
		 sp_text_duration(d, sizeof(d), w->dur_ns));
	/* strip the pid from the label's name: the row says enough */
	{
		char *p = strstr(o->wait_label, " (");

		if (p && strchr(p, ')'))
			memmove(p, strchr(p, ')') + 1, strlen(strchr(p, ')') + 1) + 1);
	}
}

/* ---- the figure ---- */

/* The rows from the top: previous CPU, waker's, placed, ran, idle. */
static int display_order(const struct sp_explain_case *c, int *order)
{
	static const unsigned int roles[] = { SP_ROLE_PREV, SP_ROLE_WAKER, SP_ROLE_PLACED,
					      SP_ROLE_RAN, SP_ROLE_IDLE };
	bool used[SP_EXPLAIN_MAX_ROWS] = { false };
	int n = 0;

	for (size_t r = 0; r < sizeof(roles) / sizeof(roles[0]); r++)
		for (int i = 0; i < c->nr_rows; i++)
			if (!used[i] && (c->rows[i].roles & roles[r])) {
				used[i] = true;
				order[n++] = i;
			}
	return n;
}

static void role_text(char *buf, size_t len, unsigned int roles)
{
	static const struct {
		unsigned int role;
		const char *name;
	} names[] = {
		{ SP_ROLE_PREV, "ran before" }, { SP_ROLE_WAKER, "waker" },
		{ SP_ROLE_PLACED, "placed" }, { SP_ROLE_RAN, "ran next" }, { SP_ROLE_IDLE, "idle" },
	};
	size_t n = 0;

	buf[0] = 0;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]) && n < len; i++)
		if (roles & names[i].role)
			n += snprintf(buf + n, len - n, "%s%s", n ? ", " : "", names[i].name);
}

/* Sizes of one figure, in the theme's units. */
struct geometry {
	double f;		/* font size */
	double title_h, top_h, row_h, axis_h, line_h, left_w, right_w;
	double title_line_h, role_line_h;
	int nr_lines;		/* of the words, wrapped */
	int nr_title_lines;	/* of the title, wrapped (at most 2) */
	bool role_split;	/* the CPUs' parts take two lines */
};

/* The CPU labels' column at most, of the figure's width. */
#define LEFT_SHARE 0.24

/*
 * Break @text into lines no wider than @max_w at spaces; @lines gets up to
 * @max pointers into @buf.  Return: the number of lines.
 */
static int wrap(cairo_t *cr, const char *text, double max_w, char *buf, size_t len,
		const char **lines, int max)
{
	int n = 0;
	size_t used = 0;
	const char *p = text;

	while (*p && n < max) {
		const char *brk = NULL, *q = p;
		size_t k;
		char tmp[512];

		/* the longest prefix up to a space that fits */
		while (*q) {
			const char *sp = strchr(q + 1, ' ');
			size_t l = sp ? (size_t)(sp - p) : strlen(p);

			if (l >= sizeof(tmp))
				break;
			memcpy(tmp, p, l);
			tmp[l] = 0;
			if (sp_text_width(cr, tmp) > max_w && brk)
				break;
			brk = sp ? sp : p + strlen(p);
			if (!sp)
				break;
			q = sp;
		}
		if (!brk)
			brk = p + strlen(p);
		k = (size_t)(brk - p);
		if (used + k + 1 > len)
			break;
		memcpy(buf + used, p, k);
		buf[used + k] = 0;
		lines[n++] = buf + used;
		used += k + 1;
		p = brk;
		while (*p == ' ')
			p++;
	}
	return n;
}

#define MAX_WRAPPED 24

static int words_wrapped(cairo_t *cr, const struct sp_theme *theme,
			 const struct sp_explain_words *wd, double max_w, char *buf, size_t len,
			 const char **lines)
{
	int n = 0;
	size_t used = 0;

	sp_render_font(cr, theme, theme->font_size, false);
	for (int i = 0; i < wd->nr_lines && n < MAX_WRAPPED; i++) {
		int k = wrap(cr, wd->lines[i], max_w, buf + used, len - used, lines + n,
			     MAX_WRAPPED - n);

		for (int j = 0; j < k; j++)
			used += strlen(lines[n + j]) + 1;
		n += k;
	}
	return n;
}

/* A CPU's parts in one line, or split in two after the comma nearest the middle. */
static int role_lines(unsigned int roles, bool split, char lines[2][96])
{
	char *comma, *best = NULL;
	size_t mid;

	role_text(lines[0], sizeof(lines[0]), roles);
	lines[1][0] = 0;
	if (!split)
		return 1;
	mid = strlen(lines[0]) / 2;
	for (comma = strchr(lines[0], ','); comma; comma = strchr(comma + 1, ','))
		if (!best || labs((long)(comma - lines[0]) - (long)mid) <
				     labs((long)(best - lines[0]) - (long)mid))
			best = comma;
	if (!best)
		return 1;
	snprintf(lines[1], sizeof(lines[1]), "%s", best + 2);
	*best = 0;
	return 2;
}

static void geometry(cairo_t *cr, const struct sp_explain_figure *fig,
		     const struct sp_explain_case *c, double width, struct geometry *g)
{
	const struct sp_theme *theme = fig->theme;
	struct sp_explain_words wd;
	char buf[4096], label[96], roles[2][96];
	const char *lines[MAX_WRAPPED];
	double lw = 0, rw = 0, text_h;

	memset(g, 0, sizeof(*g));
	g->f = theme->font_size;
	cairo_save(cr);
	sp_explain_words(c, fig->model, true, &wd);
	sp_render_font(cr, theme, theme->title_font_size, true);
	g->title_line_h = sp_text_height(cr);
	g->nr_title_lines = wrap(cr, wd.title, width - 2 * theme->margin, buf, sizeof(buf), lines,
				 2);
	g->title_h = g->nr_title_lines * g->title_line_h + theme->pad;
	sp_render_font(cr, theme, g->f, false);
	text_h = sp_text_height(cr);
	g->line_h = text_h * 1.15;
	g->top_h = g->line_h + theme->pad;
	g->axis_h = theme->tick_len + theme->pad + 2 * text_h + theme->pad;
	for (int i = 0; i < c->nr_rows; i++) {
		snprintf(label, sizeof(label), "CPU %d", c->rows[i].cpu);
		sp_render_font(cr, theme, g->f, true);
		lw = fmax(lw, sp_text_width(cr, label));
		role_lines(c->rows[i].roles, false, roles);
		sp_render_font(cr, theme, g->f * 0.85, false);
		rw = fmax(rw, sp_text_width(cr, roles[0]));
	}
	/* parts too wide for the column go on two lines */
	if (fmax(lw, rw) + 2 * theme->pad > LEFT_SHARE * width) {
		g->role_split = true;
		rw = 0;
		for (int i = 0; i < c->nr_rows; i++) {
			int n = role_lines(c->rows[i].roles, true, roles);

			for (int k = 0; k < n; k++)
				rw = fmax(rw, sp_text_width(cr, roles[k]));
		}
	}
	g->role_line_h = sp_text_height(cr);
	g->row_h = fmax(2.5 * text_h, text_h + (g->role_split ? 2 : 1) * g->role_line_h +
					      0.5 * text_h);
	g->left_w = fmax(lw, rw) + 2 * theme->pad;
	g->right_w = g->f * 1.5;
	g->nr_lines = 0;
	if (fig->words)
		g->nr_lines = words_wrapped(cr, theme, &wd, width - 2 * theme->margin, buf,
					    sizeof(buf), lines);
	cairo_restore(cr);
}

static double figure_height(const struct sp_explain_figure *fig, const struct geometry *g,
			    int nr_rows)
{
	double h = 2 * fig->theme->margin + g->title_h + g->top_h + nr_rows * g->row_h + g->axis_h;

	if (g->nr_lines)
		h += fig->theme->pad + g->nr_lines * g->line_h;
	return ceil(h);
}

static unsigned int grid_columns(const struct sp_explain_figure *fig, size_t nr)
{
	unsigned int cols = fig->columns;

	if (fig->pages || nr <= 1)
		return 1;
	if (!cols)
		cols = nr >= 2 ? 2 : 1;
	return cols > nr ? (unsigned int)nr : cols;
}

double sp_explain_figure_height(const struct sp_explain_figure *fig,
				const struct sp_explain_case *cases, size_t nr)
{
	unsigned int cols = grid_columns(fig, nr);
	double cell_w = fig->width / cols, total = 0, row_max = 0;
	cairo_t *cr = sp_figure_scratch();
	struct geometry g;

	if (!cr)
		return -1;
	/* measured as the output will draw */
	sp_output_text_options(cr);
	for (size_t i = 0; i < nr; i++) {
		double h;

		geometry(cr, fig, &cases[i], cell_w, &g);
		if (cell_w - 2 * fig->theme->margin - g.left_w - g.right_w < SP_LAYOUT_MIN_PLOT) {
			cairo_destroy(cr);
			return -1;
		}
		h = figure_height(fig, &g, cases[i].nr_rows);
		if (fig->pages) {
			total = fmax(total, h);
			continue;
		}
		row_max = fmax(row_max, h);
		if ((i + 1) % cols == 0 || i + 1 == nr) {
			total += row_max;
			row_max = 0;
		}
	}
	cairo_destroy(cr);
	return total;
}

static bool is_task(void *data, int pid, const char *comm)
{
	(void)comm;
	return pid == *(const int *)data;
}

/* A row's extent, display index @i of @n from the top. */
static void row_y(const struct sp_rect *plot, int n, int i, bool snap, double *y0, double *y1)
{
	sp_datagraph_row_span(plot, (unsigned int)n, (unsigned int)(n - 1 - i), snap, y0, y1);
}

static double x_of(const struct sp_rect *plot, const struct sp_explain_case *c, uint64_t ts)
{
	if (ts <= c->t0_ns)
		return plot->x;
	if (ts >= c->t1_ns)
		return plot->x + plot->w;
	return plot->x + (double)(ts - c->t0_ns) / (double)(c->t1_ns - c->t0_ns) * plot->w;
}

static void arrow_head(cairo_t *cr, double x, double y, double dx, double dy, double size)
{
	double l = hypot(dx, dy), ux, uy;

	if (l <= 0)
		return;
	ux = dx / l;
	uy = dy / l;
	cairo_move_to(cr, x, y);
	cairo_line_to(cr, x - size * ux + size * 0.5 * uy, y - size * uy - size * 0.5 * ux);
	cairo_line_to(cr, x - size * ux - size * 0.5 * uy, y - size * uy + size * 0.5 * ux);
	cairo_close_path(cr);
	cairo_fill(cr);
}

/* Text on a white box, so that it reads over the rows. */
static void boxed_text(cairo_t *cr, const struct sp_theme *theme, double x, double y,
		       unsigned int align, const char *text, double x_min, double x_max)
{
	double w = sp_text_width(cr, text), h = sp_text_height(cr), left;

	switch (align & SP_ALIGN_H_MASK) {
	case SP_ALIGN_CENTER:
		left = x - w / 2;
		break;
	case SP_ALIGN_RIGHT:
		left = x - w;
		break;
	default:
		left = x;
		break;
	}
	if (left + w > x_max)
		left = x_max - w;
	if (left < x_min)
		left = x_min;
	cairo_save(cr);
	cairo_set_source_rgba(cr, 1, 1, 1, 0.85);
	cairo_rectangle(cr, left - theme->pad / 2, y - h / 2, w + theme->pad, h);
	cairo_fill(cr);
	cairo_restore(cr);
	sp_render_set_color(cr, &theme->text);
	sp_text_draw(cr, left, y, SP_ALIGN_LEFT | SP_ALIGN_MIDDLE, text);
}

/*
 * A label at the first of its places that lies whole inside [lo, hi]:
 * each place is a text and the left edge it would start at.  Return:
 * whether one did.
 */
struct place {
	const char *text;
	double left;		/* NAN: centred on @mid */
};

static bool place_label(cairo_t *cr, const struct sp_theme *theme, const struct place *p,
			size_t n, double y, double lo, double hi, double mid)
{
	for (size_t i = 0; i < n; i++) {
		double w, left;

		if (!p[i].text || !p[i].text[0])
			continue;
		w = sp_text_width(cr, p[i].text);
		left = isnan(p[i].left) ? mid - w / 2 : p[i].left;
		if (isnan(p[i].left) && left < lo)
			left = lo;
		if (isnan(p[i].left) && left + w > hi)
			left = hi - w;
		if (left < lo || left + w > hi)
			continue;
		boxed_text(cr, theme, left, y, SP_ALIGN_LEFT, p[i].text, lo, hi);
		return true;
	}
	return false;
}

static int draw_rows(cairo_t *cr, const struct sp_explain_figure *fig,
		     const struct sp_explain_case *c, const struct sp_rect *plot, const int *order,
		     int n, struct sp_rgb *task_color)
{
	struct sp_theme muted = *fig->theme;
	struct sp_datagraph_opts o = { 0 };
	struct sp_datagraph dg = { 0 };
	struct sp_timeline tl = { 0 };
	int cpu_of_row[SP_EXPLAIN_MAX_ROWS], pid = c->w.pid, ret;
	unsigned int cols = sp_datagraph_columns(cr, plot->w);

	for (int i = 0; i < n; i++)
		cpu_of_row[n - 1 - i] = c->rows[order[i]].cpu;
	ret = sp_timeline_init(&tl, c->t0_ns, c->t1_ns, cols ? cols : 1, fig->model->nr_cpus,
			       cpu_of_row, (unsigned int)n);
	if (ret)
		return ret;
	for (int i = 0; i < c->nr_rows; i++) {
		const struct sp_explain_row *row = &c->rows[i];

		for (size_t k = 0; k < row->nr_runs; k++) {
			uint64_t a = row->runs[k].start_ns, b = row->runs[k].end_ns;

			if (sp_span_clip(&a, &b, row->known_ns, c->t1_ns))
				sp_timeline_add(&tl, row->cpu, row->runs[k].pid, a, b);
		}
	}
	ret = sp_timeline_finish(&tl);
	if (ret)
		goto out;
	o.color_by = SP_COLOR_BY_PID;
	o.palette = fig->palette;
	o.is_target = is_task;
	o.target_data = &pid;
	ret = sp_datagraph_init(&dg, &tl, fig->model, &o);
	if (ret)
		goto out;
	*task_color = (struct sp_rgb){ 0.12, 0.47, 0.71 };
	for (size_t k = SP_DG_NR_SPECIAL_KEYS; k < dg.nr_keys; k++)
		if (dg.keys[k].id == pid)
			*task_color = dg.keys[k].color;
	/* everything but the task muted, so that the task and the marks stand out */
	muted.other = (struct sp_rgb){ 0.72, 0.72, 0.72 };
	sp_datagraph_draw(cr, &muted, plot, &dg);
out:
	sp_datagraph_release(&dg);
	sp_timeline_release(&tl);
	return ret;
}

static void draw_one(cairo_t *cr, const struct sp_explain_figure *fig,
		     const struct sp_explain_case *c, double x0, double y0, double width)
{
	const struct sp_theme *theme = fig->theme;
	const struct sp_wait *w = &c->w;
	uint64_t wake = w->start_ns, end = wake + w->dur_ns;
	bool image = fig->format == SP_FORMAT_PNG;
	struct sp_explain_words wd;
	struct sp_time_ticks ticks;
	struct sp_rect plot;
	struct sp_rgb task_color;
	struct geometry g;
	int order[SP_EXPLAIN_MAX_ROWS], n, i;
	char buf[4096], fit[256];
	const char *lines[MAX_WRAPPED];
	double y, ya, yb, xw, xe, red_h;
	static const struct sp_rgb red = { 0.84, 0.15, 0.16 }, mark = { 0.1, 0.1, 0.1 };

	geometry(cr, fig, c, width, &g);
	sp_explain_words(c, fig->model, true, &wd);
	n = display_order(c, order);
	plot.x = x0 + theme->margin + g.left_w;
	plot.y = y0 + theme->margin + g.title_h + g.top_h;
	plot.w = width - 2 * theme->margin - g.left_w - g.right_w;
	plot.h = n * g.row_h;
	if (image) {
		sp_figure_snap_x(&plot);
		sp_figure_snap_y(&plot);
	}

	/* the title, on two lines at most, the second cut short if need be */
	cairo_save(cr);
	sp_render_font(cr, theme, theme->title_font_size, true);
	sp_render_set_color(cr, &theme->text);
	{
		const char *tl[2];
		char tbuf[sizeof(wd.title) + 2];
		int nt = wrap(cr, wd.title, width - 2 * theme->margin, tbuf, sizeof(tbuf), tl, 2);

		for (i = 0; i < nt; i++) {
			const char *rest = i == nt - 1 ? wd.title + (tl[i] - tbuf) : tl[i];

			sp_text_fit(cr, fit, sizeof(fit), rest, width - 2 * theme->margin);
			sp_text_draw(cr, x0 + theme->margin, y0 + theme->margin + i * g.title_line_h,
				     SP_ALIGN_LEFT | SP_ALIGN_TOP, fit);
		}
	}
	cairo_restore(cr);

	if (draw_rows(cr, fig, c, &plot, order, n, &task_color))
		return;

	cairo_save(cr);
	sp_render_font(cr, theme, g.f, false);
	xw = x_of(&plot, c, wake);
	xe = x_of(&plot, c, end);

	/*
	 * The previous CPU, when it was idle at the wakeup: the other tasks'
	 * runs before it, which make an idle CPU look busy to the wakeup
	 * path.  Short ones in black (dots that would vanish in grey), longer
	 * ones outlined; the last one named.
	 */
	i = sp_explain_row_of(c, w->prev_cpu);
	for (int k = 0; k < n && i >= 0 && w->wait_class == SP_WAIT_WAKEUP && w->prev_idle; k++) {
		const struct sp_explain_row *row = &c->rows[i];
		double min_w = image ? 2 : 0.8;

		if (order[k] != i)
			continue;
		row_y(&plot, n, k, image, &ya, &yb);
		for (size_t r = 0; r < row->nr_runs; r++) {
			const struct sp_explain_run *run = &row->runs[r];
			double a, b;

			if (run->pid == 0 || run->pid == w->pid || run->start_ns >= wake ||
			    run->end_ns <= c->t0_ns)
				continue;
			a = x_of(&plot, c, run->start_ns);
			b = x_of(&plot, c, run->end_ns);
			sp_render_set_color(cr, &mark);
			if (b - a < plot.w / 20) {
				if (b - a < min_w) {
					a = (a + b) / 2 - min_w / 2;
					b = a + min_w;
				}
				cairo_rectangle(cr, a, ya, b - a, yb - ya);
				cairo_fill(cr);
			} else {
				double lw = theme->axis_line_width;

				cairo_set_line_width(cr, lw);
				cairo_rectangle(cr, a + lw / 2, ya + lw / 2, b - a - lw, yb - ya - lw);
				cairo_stroke(cr);
			}
			/* its name beside it, before the wakeup's line */
			if (run->start_ns == c->prev_last_other.start_ns && wd.other_label[0]) {
				double p = theme->pad, ow = sp_text_width(cr, wd.other_label);
				double sw = sp_text_width(cr, wd.other_short);
				const struct place places[] = {
					{ wd.other_label, b + p }, { wd.other_label, a - p - ow },
					{ wd.other_short, b + p }, { wd.other_short, a - p - sw },
				};

				place_label(cr, theme, places, 4, (ya + yb) / 2, plot.x + p, xw - p,
					    0);
			}
		}
		/* "idle" in the idle run around the wakeup, right of it */
		if (w->prev_idle) {
			const struct sp_explain_run *at = NULL;

			for (size_t r = 0; r < row->nr_runs; r++)
				if (row->runs[r].pid == 0 && row->runs[r].start_ns <= wake &&
				    wake < row->runs[r].end_ns)
					at = &row->runs[r];
			if (at) {
				double b = x_of(&plot, c, at->end_ns), iw = sp_text_width(cr, "idle");

				sp_render_set_color(cr, &theme->text);
				if (b - xw > iw + 3 * theme->pad)
					sp_text_draw(cr, (xw + b) / 2, (ya + yb) / 2,
						     SP_ALIGN_CENTER | SP_ALIGN_MIDDLE, "idle");
			}
		}
	}

	/* the moment of the wakeup, across the rows */
	cairo_set_line_width(cr, theme->axis_line_width);
	sp_render_set_color(cr, &mark);
	{
		double dash[2] = { 3 * theme->axis_line_width, 2 * theme->axis_line_width };

		cairo_set_dash(cr, dash, 2, 0);
		cairo_move_to(cr, xw, plot.y - g.top_h * 0.25);
		cairo_line_to(cr, xw, plot.y + plot.h);
		cairo_stroke(cr);
		cairo_set_dash(cr, NULL, 0, 0);
	}
	sp_text_draw(cr, xw, plot.y - g.top_h * 0.3, SP_ALIGN_CENTER | SP_ALIGN_BOTTOM,
		     w->wait_class == SP_WAIT_WAKEUP ? "wakeup" : "preempted");

	/* the wait, in red, on the CPU it was queued on, then where it moved */
	{
		int placed = sp_explain_row_of(c, w->target_cpu >= 0 ? w->target_cpu : w->cpu);
		int ran = sp_explain_row_of(c, w->cpu);
		uint64_t mid = c->mig_ns != SP_NO_TS ? c->mig_ns : end;
		int kp = -1, kr = -1;
		double xm = x_of(&plot, c, mid), label_y;

		for (int k = 0; k < n; k++) {
			if (order[k] == placed)
				kp = k;
			if (order[k] == ran)
				kr = k;
		}
		red_h = fmax(g.row_h * 0.22, image ? 3 : 1.5);
		sp_render_set_color(cr, &red);
		if (kp >= 0) {
			row_y(&plot, n, kp, image, &ya, &yb);
			cairo_rectangle(cr, xw, yb - red_h, fmax((kp == kr ? xe : xm) - xw, 1),
					red_h);
			cairo_fill(cr);
			label_y = ya + (yb - red_h - ya) / 2;
			/* the wakeup's arrow, from the waker's row */
			if (w->wait_class == SP_WAIT_WAKEUP) {
				int wr = sp_explain_row_of(c, w->waker_cpu), kw = -1;
				double y_from, y_to = (ya + yb) / 2, hs = g.f * 0.7;

				for (int k = 0; k < n; k++)
					if (order[k] == wr)
						kw = k;
				sp_render_set_color(cr, &mark);
				if (kw >= 0 && kw != kp) {
					double a0, a1;

					row_y(&plot, n, kw, image, &a0, &a1);
					y_from = (a0 + a1) / 2;
					y_to = kw < kp ? ya : yb;
					cairo_arc(cr, xw, y_from, hs * 0.3, 0, 2 * M_PI);
					cairo_fill(cr);
					cairo_set_line_width(cr, theme->data_line_width);
					cairo_move_to(cr, xw, y_from);
					cairo_line_to(cr, xw, y_to - (kw < kp ? hs : -hs) * 0.8);
					cairo_stroke(cr);
					arrow_head(cr, xw, y_to, 0, kw < kp ? 1 : -1, hs);
				} else {
					arrow_head(cr, xw, ya + (yb - ya) * 0.45, 0, 1, hs);
				}
			}
			if (kp != kr && kr >= 0) {
				double r0, r1;

				row_y(&plot, n, kr, image, &r0, &r1);
				sp_render_set_color(cr, &red);
				cairo_rectangle(cr, xm, r1 - red_h, fmax(xe - xm, 1), red_h);
				cairo_fill(cr);
				/* the move */
				sp_render_set_color(cr, &mark);
				cairo_set_line_width(cr, theme->data_line_width);
				cairo_move_to(cr, xm, kp < kr ? yb : ya);
				cairo_line_to(cr, xm, kp < kr ? r0 : r1);
				cairo_stroke(cr);
				arrow_head(cr, xm, kp < kr ? r0 : r1, 0, kp < kr ? 1 : -1, g.f * 0.6);
			}
			/*
			 * Over the wait, else left of the wakeup, shortened if need
			 * be; over the task's next run only as a last resort
			 */
			{
				double p = theme->pad, right = plot.x + plot.w;
				double fw = sp_text_width(cr, wd.wait_label);
				double sw = sp_text_width(cr, wd.wait_short);
				const struct place inside[] = {
					{ wd.wait_label, NAN }, { wd.wait_short, NAN },
				};
				const struct place before[] = {
					{ wd.wait_label, xw - p - fw }, { wd.wait_short, xw - p - sw },
				};
				const struct place after[] = {
					{ wd.wait_label, xw + p }, { wd.wait_short, xw + p },
				};
				double xend = kp == kr ? xe : xm;

				if (!place_label(cr, theme, inside, 2, label_y, xw + p, xend - p,
						 (xw + xend) / 2) &&
				    !place_label(cr, theme, before, 2, label_y, plot.x + p, xw - p, 0))
					place_label(cr, theme, after, 2, label_y, xw + p, right - p, 0);
			}
		}
	}
	cairo_restore(cr);

	sp_axis_frame_draw(cr, theme, &plot);

	/* CPU labels and their parts */
	cairo_save(cr);
	for (int k = 0; k < n; k++) {
		char label[96], roles[2][96];
		int nl = role_lines(c->rows[order[k]].roles, g.role_split, roles);
		double top;

		row_y(&plot, n, k, image, &ya, &yb);
		sp_render_set_color(cr, &theme->text);
		snprintf(label, sizeof(label), "CPU %d", c->rows[order[k]].cpu);
		sp_render_font(cr, theme, g.f, true);
		/* the CPU and its parts, centred on the row together */
		top = (ya + yb) / 2 - (sp_text_height(cr) + nl * g.role_line_h) / 2;
		sp_text_draw(cr, plot.x - theme->pad, top, SP_ALIGN_RIGHT | SP_ALIGN_TOP, label);
		top += sp_text_height(cr);
		sp_render_font(cr, theme, g.f * 0.85, false);
		for (int r = 0; r < nl; r++)
			sp_text_draw(cr, plot.x - theme->pad, top + r * g.role_line_h,
				     SP_ALIGN_RIGHT | SP_ALIGN_TOP, roles[r]);
	}
	cairo_restore(cr);

	/* the time axis, from the wakeup */
	cairo_save(cr);
	sp_render_font(cr, theme, theme->font_size, false);
	if (!sp_time_ticks_relative_fit(&ticks, cr, plot.w, c->t0_ns, c->t1_ns, wake,
					w->wait_class == SP_WAIT_WAKEUP ? "the wakeup"
									: "the preemption"))
		sp_axis_time_draw(cr, theme, &plot, &ticks, c->t0_ns, c->t1_ns, false);
	cairo_restore(cr);

	/* the words */
	if (fig->words) {
		int nl;

		cairo_save(cr);
		nl = words_wrapped(cr, theme, &wd, width - 2 * theme->margin, buf, sizeof(buf),
				   lines);
		sp_render_set_color(cr, &theme->text);
		y = plot.y + plot.h + g.axis_h + theme->pad;
		for (i = 0; i < nl; i++)
			sp_text_draw(cr, x0 + theme->margin, y + i * g.line_h,
				     SP_ALIGN_LEFT | SP_ALIGN_TOP, lines[i]);
		cairo_restore(cr);
	}
	(void)task_color;
}

int sp_explain_figure_draw(cairo_t *cr, const struct sp_explain_figure *fig,
			   const struct sp_explain_case *cases, size_t nr)
{
	unsigned int cols = grid_columns(fig, nr);
	double cell_w = fig->width / cols, y = 0, row_max = 0;
	struct geometry g;

	sp_figure_background(cr, fig->theme);
	for (size_t i = 0; i < nr; i++) {
		double x = (double)(i % cols) * cell_w;

		if (fig->pages && i) {
			cairo_show_page(cr);
			sp_figure_background(cr, fig->theme);
		}
		if (fig->format == SP_FORMAT_PNG)
			x = floor(x);
		draw_one(cr, fig, &cases[i], x, fig->pages ? 0 : y, cell_w);
		if (fig->pages)
			continue;
		geometry(cr, fig, &cases[i], cell_w, &g);
		row_max = fmax(row_max, figure_height(fig, &g, cases[i].nr_rows));
		if ((i + 1) % cols == 0) {
			y += row_max;
			row_max = 0;
		}
	}
	return cairo_status(cr) == CAIRO_STATUS_NO_MEMORY ? -ENOMEM : 0;
}
