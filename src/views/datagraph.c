// SPDX-License-Identifier: GPL-2.0-only
/*
 * datagraph: the core-by-time chart, drawn from an sp_timeline.  See
 * include/schedplot/datagraph.h for the contracts.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cairo.h>

#include "schedplot/base/alloc.h"
#include "schedplot/base/error.h"
#include "schedplot/model/model.h"
#include "schedplot/model/timeline.h"
#include "schedplot/views/datagraph.h"

/* Hatch of "no data": lines of this grey on theme->no_data, this period (px or pt). */
#define HATCH_GREY 0.62
#define HATCH_PERIOD 6

/* ---- a small map from 64-bit ids to key indices ---- */

struct id_map {
	int64_t *ids;
	uint32_t *vals;
	size_t alloc;			/* power of two, or 0 */
	size_t nr;
};

#define ID_FREE INT64_MIN

static size_t id_hash(int64_t id, size_t mask)
{
	uint64_t h = (uint64_t)id * 0x9e3779b97f4a7c15ull;

	return (size_t)(h >> 17) & mask;
}

static size_t id_slot(const struct id_map *map, int64_t id)
{
	size_t mask = map->alloc - 1, i = id_hash(id, mask);

	while (map->ids[i] != ID_FREE && map->ids[i] != id)
		i = (i + 1) & mask;
	return i;
}

static int id_map_init(struct id_map *map, size_t want)
{
	size_t i;

	map->alloc = 16;
	while (map->alloc < want * 2 + 1)
		map->alloc *= 2;
	map->nr = 0;
	map->ids = sp_alloc_array(map->alloc, sizeof(*map->ids));
	map->vals = sp_alloc_array(map->alloc, sizeof(*map->vals));
	if (!map->ids || !map->vals)
		return -ENOMEM;
	for (i = 0; i < map->alloc; i++)
		map->ids[i] = ID_FREE;
	return 0;
}

static void id_map_release(struct id_map *map)
{
	free(map->ids);
	free(map->vals);
	memset(map, 0, sizeof(*map));
}

/* The value of @id, or UINT32_MAX. */
static uint32_t id_get(const struct id_map *map, int64_t id)
{
	size_t i = id_slot(map, id);

	return map->ids[i] == id ? map->vals[i] : UINT32_MAX;
}

/* Callers size the map for every id they put, so it never fills. */
static void id_put(struct id_map *map, int64_t id, uint32_t val)
{
	size_t i = id_slot(map, id);

	if (map->ids[i] != id)
		map->nr++;
	map->ids[i] = id;
	map->vals[i] = val;
}

/* ---- colors and keys ---- */

struct build {
	struct sp_datagraph *dg;
	const struct sp_datagraph_opts *o;
	const struct sp_model *m;
	struct id_map group;		/* group id -> key */
	struct id_map pid_key;		/* pid -> key */
	struct id_map rank;		/* pid -> palette index by whole-trace run time */
	struct id_map command_color;	/* command's string id -> palette index */
	size_t alloc_keys;
	int error;
};

static int cmp_task_run(const void *a, const void *b)
{
	const struct sp_task *x = *(const struct sp_task *const *)a;
	const struct sp_task *y = *(const struct sp_task *const *)b;

	if (x->run_ns != y->run_ns)
		return x->run_ns < y->run_ns ? 1 : -1;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* Palette index of every task: busiest over the whole trace first. */
static int build_ranks(struct build *b)
{
	const struct sp_model *m = b->m;
	const struct sp_task **v;
	size_t i, n = 0;

	if (id_map_init(&b->rank, m->nr_tasks + 1))
		return -ENOMEM;
	v = sp_alloc_array(m->nr_tasks + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = 0; i < m->nr_tasks; i++)
		if (m->tasks[i].pid > 0)
			v[n++] = &m->tasks[i];
	qsort(v, n, sizeof(*v), cmp_task_run);
	for (i = 0; i < n; i++)
		id_put(&b->rank, v[i]->pid, (uint32_t)i);
	free(v);
	return 0;
}

struct command_time {
	uint32_t comm;			/* string id */
	const char *name;
	uint64_t run_ns;		/* of all its tasks over the whole trace */
};

static int cmp_command_time(const void *a, const void *b)
{
	const struct command_time *x = a, *y = b;

	if (x->run_ns != y->run_ns)
		return x->run_ns < y->run_ns ? 1 : -1;
	return strcmp(x->name, y->name);
}

/*
 * Palette index of every command: its string's own color, the same in
 * every trace, unless a busier command of this trace has that color
 * already; then the next free one of the SP_STRING_COLORS, and past those
 * the palette's later colors.  Two commands of one figure never share one.
 */
static int build_command_colors(struct build *b)
{
	const struct sp_model *m = b->m;
	bool taken[SP_STRING_COLORS] = { false };
	struct command_time *v;
	struct id_map slot = { 0 };
	size_t i, j, n = 0, overflow = SP_STRING_COLORS;
	int ret = -ENOMEM;

	v = sp_alloc_array(m->nr_tasks + 1, sizeof(*v));
	if (!v || id_map_init(&slot, m->nr_tasks + 1) ||
	    id_map_init(&b->command_color, m->nr_tasks + 1))
		goto out;
	for (i = 0; i < m->nr_tasks; i++) {
		const struct sp_task *t = &m->tasks[i];
		uint32_t k;

		if (t->pid <= 0 || !t->comm)
			continue;
		k = id_get(&slot, t->comm);
		if (k == UINT32_MAX) {
			k = (uint32_t)n++;
			id_put(&slot, t->comm, k);
			v[k] = (struct command_time){ t->comm, sp_model_str(m, t->comm), 0 };
		}
		v[k].run_ns += t->run_ns;
	}
	qsort(v, n, sizeof(*v), cmp_command_time);
	for (i = 0; i < n; i++) {
		size_t want = sp_string_color_index(v[i].name), got = overflow;

		for (j = 0; j < SP_STRING_COLORS; j++) {
			if (!taken[(want + j) % SP_STRING_COLORS]) {
				got = (want + j) % SP_STRING_COLORS;
				taken[got] = true;
				break;
			}
		}
		if (got == overflow)
			overflow++;
		id_put(&b->command_color, v[i].comm, (uint32_t)got);
	}
	ret = 0;
out:
	id_map_release(&slot);
	free(v);
	return ret;
}

static size_t rank_of(const struct build *b, int pid)
{
	uint32_t r = id_get(&b->rank, pid);

	/* tasks the model never listed go after all it did */
	return r != UINT32_MAX ? r : b->m->nr_tasks + (size_t)(pid & 0xffff);
}

/* The oldest ancestor seen forking @pid (itself when none), loops cut. */
static int root_of(const struct sp_model *m, int pid)
{
	const struct sp_task *t = sp_model_task(m, pid);
	size_t steps = 0;

	while (t && t->ppid > 0 && steps++ < m->nr_tasks) {
		const struct sp_task *p = sp_model_task(m, t->ppid);

		if (!p)
			return t->ppid;
		t = p;
	}
	return t ? t->pid : pid;
}

static void set_color(struct sp_rgb *c, const struct sp_palette *pal, size_t index)
{
	sp_palette_color(pal, index, &c->r, &c->g, &c->b);
}

static struct sp_datagraph_key *new_key(struct build *b, int64_t group)
{
	struct sp_datagraph *dg = b->dg;
	struct sp_datagraph_key *k;

	if (sp_grow_array(&dg->keys, &b->alloc_keys, dg->nr_keys + 1, sizeof(*dg->keys))) {
		b->error = -ENOMEM;
		return NULL;
	}
	k = &dg->keys[dg->nr_keys];
	memset(k, 0, sizeof(*k));
	k->id = group;
	id_put(&b->group, group, (uint32_t)dg->nr_keys++);
	return k;
}

/* Group ids: specials are small negatives, so no pid or string id collides. */
#define GROUP_OF_SPECIAL(k) (-1 - (int64_t)(k))

static void add_pid(void *data, int pid, uint64_t ns)
{
	struct build *b = data;
	const struct sp_model *m = b->m;
	struct sp_datagraph_key *k;
	const char *comm;
	int64_t group;
	uint32_t idx;
	int root = pid;

	if (b->error)
		return;
	if (pid == 0) {
		group = GROUP_OF_SPECIAL(SP_DG_KEY_IDLE);
	} else {
		comm = sp_model_comm(m, pid);
		if (b->o->is_target && !b->o->is_target(b->o->target_data, comm))
			group = GROUP_OF_SPECIAL(SP_DG_KEY_OTHER);
		else if (b->o->color_by == SP_COLOR_BY_COMMAND && sp_model_task(m, pid) &&
			 sp_model_task(m, pid)->comm)
			group = sp_model_task(m, pid)->comm;
		else if (b->o->color_by == SP_COLOR_BY_PARENT)
			group = ((int64_t)1 << 40) + (root = root_of(m, pid));
		else
			group = ((int64_t)1 << 40) + pid;
	}
	idx = id_get(&b->group, group);
	if (idx == UINT32_MAX) {
		k = new_key(b, group);
		if (!k)
			return;
		comm = sp_model_comm(m, root);
		if (b->o->color_by == SP_COLOR_BY_COMMAND && group < ((int64_t)1 << 40)) {
			uint32_t index = id_get(&b->command_color, group);

			set_color(&k->color, b->o->palette,
				  index != UINT32_MAX ? index : sp_string_color_index(comm));
			snprintf(k->label, sizeof(k->label), "%s", comm);
		} else {
			set_color(&k->color, b->o->palette, rank_of(b, root));
			snprintf(k->label, sizeof(k->label), "%s-%d%s", comm[0] ? comm : "?",
				 root, root != pid ? " & children" : "");
		}
		idx = (uint32_t)(b->dg->nr_keys - 1);
	} else if (b->o->color_by == SP_COLOR_BY_PARENT && root != pid &&
		   !strstr(b->dg->keys[idx].label, " & children")) {
		size_t len = strlen(b->dg->keys[idx].label);

		snprintf(b->dg->keys[idx].label + len, sizeof(b->dg->keys[idx].label) - len,
			 " & children");
	}
	b->dg->keys[idx].ns += ns;
	id_put(&b->pid_key, pid, idx);
}

static int cmp_key(const void *a, const void *b)
{
	const struct sp_datagraph_key *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns < y->ns ? 1 : -1;
	return (x->id > y->id) - (x->id < y->id);
}

static void count_totals(void *data, int pid, uint64_t ns)
{
	(*(size_t *)data)++;
}

int sp_datagraph_init(struct sp_datagraph *dg, const struct sp_timeline *tl,
		      const struct sp_model *m, const struct sp_datagraph_opts *o)
{
	static const char *const special[] = { "idle", "no data", "other tasks" };
	struct build b = { .dg = dg, .o = o, .m = m };
	uint32_t *remap = NULL;
	size_t nr_pids = 0, i, n;
	unsigned int r;
	int ret = -ENOMEM;

	memset(dg, 0, sizeof(*dg));
	dg->tl = tl;
	dg->model = m;
	dg->color_by = o->color_by;
	dg->targets = o->is_target != NULL;
	sp_timeline_for_each_total(tl, count_totals, &nr_pids);
	/* the helpers' own codes go up; the allocations below fail with -ENOMEM */
	ret = id_map_init(&b.group, nr_pids + SP_DG_NR_SPECIAL_KEYS);
	if (!ret)
		ret = id_map_init(&b.pid_key, nr_pids + 1);
	if (!ret)
		ret = build_ranks(&b);
	if (!ret && o->color_by == SP_COLOR_BY_COMMAND)
		ret = build_command_colors(&b);
	if (ret)
		goto out;
	ret = -ENOMEM;

	/* the special keys, always present so their indices are fixed */
	for (i = 0; i < SP_DG_NR_SPECIAL_KEYS; i++) {
		struct sp_datagraph_key *k = new_key(&b, GROUP_OF_SPECIAL(i));

		if (!k)
			goto out;
		snprintf(k->label, sizeof(k->label), "%s", special[i]);
	}
	dg->keys[SP_DG_KEY_IDLE].color = (struct sp_rgb){ 1, 1, 1 };
	dg->keys[SP_DG_KEY_NO_DATA].color = (struct sp_rgb){ 0.8, 0.8, 0.8 };
	dg->keys[SP_DG_KEY_NO_DATA].ns = tl->no_data_ns;
	dg->keys[SP_DG_KEY_OTHER].color = (struct sp_rgb){ 0, 0, 0 };
	sp_timeline_for_each_total(tl, add_pid, &b);
	if (b.error) {
		ret = b.error;
		goto out;
	}

	/* specials stay first; the rest by time, longest first */
	n = dg->nr_keys - SP_DG_NR_SPECIAL_KEYS;
	remap = sp_alloc_array(dg->nr_keys, sizeof(*remap));
	if (!remap)
		goto out;
	for (i = 0; i < dg->nr_keys; i++)
		remap[i] = (uint32_t)i;
	{
		/* sort copies that remember where they were, to renumber the pids' keys */
		struct { struct sp_datagraph_key k; uint32_t old; } *tmp;

		tmp = sp_alloc_array(n + 1, sizeof(*tmp));
		if (!tmp)
			goto out;
		for (i = 0; i < n; i++) {
			tmp[i].k = dg->keys[SP_DG_NR_SPECIAL_KEYS + i];
			tmp[i].old = (uint32_t)(SP_DG_NR_SPECIAL_KEYS + i);
		}
		qsort(tmp, n, sizeof(*tmp), cmp_key);
		for (i = 0; i < n; i++) {
			dg->keys[SP_DG_NR_SPECIAL_KEYS + i] = tmp[i].k;
			remap[tmp[i].old] = (uint32_t)(SP_DG_NR_SPECIAL_KEYS + i);
		}
		free(tmp);
	}

	dg->cell_key = sp_alloc_array((size_t)tl->nr_rows * tl->nr_cols, sizeof(*dg->cell_key));
	dg->entries = sp_alloc_array(dg->nr_keys, sizeof(*dg->entries));
	if (!dg->cell_key || !dg->entries)
		goto out;
	for (i = 0; i < (size_t)tl->nr_rows * tl->nr_cols; i++) {
		int32_t pid = tl->cells[i];
		uint32_t k = pid == SP_TIMELINE_NO_DATA ? UINT32_MAX : id_get(&b.pid_key, pid);

		dg->cell_key[i] = k == UINT32_MAX ? SP_DG_KEY_NO_DATA : remap[k];
	}
	if (o->row_socket) {
		dg->row_socket = sp_alloc_array(tl->nr_rows, sizeof(*dg->row_socket));
		if (!dg->row_socket)
			goto out;
		for (r = 0; r < tl->nr_rows; r++)
			dg->row_socket[r] = o->row_socket[r];
	}
	switch (o->color_by) {
	case SP_COLOR_BY_COMMAND:
		dg->legend_title = "command (most CPU time first)";
		break;
	case SP_COLOR_BY_PARENT:
		dg->legend_title = "task and the tasks it forked (most CPU time first)";
		break;
	default:
		dg->legend_title = "task-pid (most CPU time first)";
		break;
	}
	ret = 0;
out:
	free(remap);
	id_map_release(&b.group);
	id_map_release(&b.pid_key);
	id_map_release(&b.rank);
	id_map_release(&b.command_color);
	if (ret)
		sp_datagraph_release(dg);
	return ret;
}

void sp_datagraph_release(struct sp_datagraph *dg)
{
	free(dg->cell_key);
	free(dg->keys);
	free(dg->row_socket);
	free(dg->entries);
	memset(dg, 0, sizeof(*dg));
}

void sp_datagraph_legend(const struct sp_datagraph *dg, struct sp_legend *legend,
			 size_t max_entries)
{
	struct sp_legend_entry *e = dg->entries;
	size_t n = 0, i, tasks = 0;

	memset(legend, 0, sizeof(*legend));
	legend->title = dg->legend_title;
	if (!e)
		return;
	for (i = 0; i < SP_DG_NR_SPECIAL_KEYS; i++) {
		if (i == SP_DG_KEY_NO_DATA && !dg->keys[i].ns)
			continue;
		if (i == SP_DG_KEY_OTHER && !dg->targets)
			continue;
		if (n < max_entries)
			e[n++] = (struct sp_legend_entry){ dg->keys[i].color, dg->keys[i].label };
	}
	for (i = SP_DG_NR_SPECIAL_KEYS; i < dg->nr_keys; i++) {
		tasks++;
		if (n < max_entries)
			e[n++] = (struct sp_legend_entry){ dg->keys[i].color, dg->keys[i].label };
		else
			legend->nr_more++;
	}
	legend->entries = e;
	legend->nr_entries = n;
}

/* ---- drawing ---- */

static bool is_image(cairo_t *cr)
{
	return cairo_surface_get_type(cairo_get_target(cr)) == CAIRO_SURFACE_TYPE_IMAGE;
}

static unsigned int columns_for(bool image, double plot_w)
{
	double n = image ? floor(plot_w) : ceil(plot_w * 2);

	return n < 1 ? 1 : (unsigned int)n;
}

unsigned int sp_datagraph_columns(cairo_t *cr, double plot_w)
{
	return columns_for(is_image(cr), plot_w);
}

/* Top edge of row @r (row 0 at the bottom) in a plot; @snap rounds to pixels. */
static double row_top(const struct sp_rect *plot, unsigned int nr_rows, unsigned int r,
		      bool snap)
{
	double y = plot->y + plot->h - (double)(r + 1) * plot->h / nr_rows;

	return snap ? round(y) : y;
}

static double col_x(const struct sp_rect *plot, unsigned int nr_cols, unsigned int c, bool snap)
{
	double x = plot->x + (double)c * plot->w / nr_cols;

	return snap ? round(x) : x;
}

struct segment {
	uint32_t key;
	uint32_t row;
	uint32_t c0, c1;		/* columns [c0, c1) */
};

static int cmp_segment(const void *a, const void *b)
{
	const struct segment *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	if (x->row != y->row)
		return x->row < y->row ? -1 : 1;
	return (x->c0 > y->c0) - (x->c0 < y->c0);
}

static cairo_pattern_t *hatch_pattern(const struct sp_theme *theme, bool image)
{
	int p = HATCH_PERIOD;
	cairo_surface_t *s;
	cairo_pattern_t *pat;
	cairo_t *c;
	cairo_matrix_t mat;

	/* drawn at 4x and scaled down in vector output, so lines stay thin */
	s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, p * 4, p * 4);
	c = cairo_create(s);
	sp_render_set_color(c, &theme->no_data);
	cairo_paint(c);
	cairo_set_source_rgb(c, HATCH_GREY, HATCH_GREY, HATCH_GREY);
	cairo_set_line_width(c, 4);
	for (int k = -1; k <= 1; k++) {
		cairo_move_to(c, k * p * 4, p * 4);
		cairo_line_to(c, k * p * 4 + p * 4, 0);
	}
	cairo_stroke(c);
	cairo_destroy(c);
	pat = cairo_pattern_create_for_surface(s);
	cairo_surface_destroy(s);
	cairo_pattern_set_extend(pat, CAIRO_EXTEND_REPEAT);
	cairo_pattern_set_filter(pat, image ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_GOOD);
	cairo_matrix_init_scale(&mat, 4, 4);
	cairo_pattern_set_matrix(pat, &mat);
	return pat;
}

/* The color of a key, with the theme deciding the special ones. */
static void key_source(cairo_t *cr, const struct sp_theme *theme, const struct sp_datagraph *dg,
		       uint32_t key, cairo_pattern_t *hatch)
{
	if (key == SP_DG_KEY_IDLE)
		sp_render_set_color(cr, &theme->idle);
	else if (key == SP_DG_KEY_NO_DATA && hatch)
		cairo_set_source(cr, hatch);
	else if (key == SP_DG_KEY_NO_DATA)
		sp_render_set_color(cr, &theme->no_data);
	else if (key == SP_DG_KEY_OTHER)
		sp_render_set_color(cr, &theme->other);
	else
		sp_render_set_color(cr, &dg->keys[key].color);
}

void sp_datagraph_draw(cairo_t *cr, const struct sp_theme *theme, const struct sp_rect *plot,
		       const struct sp_datagraph *dg)
{
	const struct sp_timeline *tl = dg->tl;
	unsigned int r, c, nr_rows = tl->nr_rows, nr_cols = tl->nr_cols;
	bool image = is_image(cr);
	struct segment *seg;
	size_t nr_seg = 0, alloc_seg = 0, i;
	cairo_pattern_t *hatch;

	cairo_save(cr);
	cairo_rectangle(cr, plot->x, plot->y, plot->w, plot->h);
	cairo_clip(cr);
	sp_render_set_color(cr, &theme->idle);
	cairo_paint(cr);
	if (image)
		cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE);

	/* merge equal keys along each row, then fill all rectangles of a key at once */
	seg = NULL;
	for (r = 0; r < nr_rows; r++) {
		const uint32_t *k = dg->cell_key + (size_t)r * nr_cols;

		for (c = 0; c < nr_cols;) {
			unsigned int e = c + 1;

			while (e < nr_cols && k[e] == k[c])
				e++;
			if (k[c] != SP_DG_KEY_IDLE) {
				if (sp_grow_array(&seg, &alloc_seg, nr_seg + 1, sizeof(*seg))) {
					free(seg);
					cairo_restore(cr);
					return;
				}
				seg[nr_seg++] = (struct segment){ k[c], r, c, e };
			}
			c = e;
		}
	}
	if (nr_seg)	/* qsort() wants a valid pointer even for no elements */
		qsort(seg, nr_seg, sizeof(*seg), cmp_segment);
	hatch = hatch_pattern(theme, image);
	for (i = 0; i < nr_seg; i++) {
		double x0 = col_x(plot, nr_cols, seg[i].c0, image);
		double x1 = col_x(plot, nr_cols, seg[i].c1, image);
		double y0 = row_top(plot, nr_rows, seg[i].row, image);
		double y1 = seg[i].row ? row_top(plot, nr_rows, seg[i].row - 1, image)
				       : plot->y + plot->h;

		cairo_rectangle(cr, x0, y0, x1 - x0, y1 - y0);
		if (i + 1 == nr_seg || seg[i + 1].key != seg[i].key) {
			key_source(cr, theme, dg, seg[i].key, hatch);
			cairo_fill(cr);
		}
	}
	cairo_pattern_destroy(hatch);
	free(seg);

	/* socket boundaries */
	if (dg->row_socket) {
		double lw = fmax(1.0, theme->axis_line_width);

		sp_render_set_color(cr, &theme->axis);
		for (r = 1; r < nr_rows; r++) {
			double y;

			if (dg->row_socket[r] == dg->row_socket[r - 1])
				continue;
			y = row_top(plot, nr_rows, r - 1, image);
			cairo_rectangle(cr, plot->x, y - lw / 2, plot->w, lw);
		}
		cairo_fill(cr);
	}
	cairo_restore(cr);
}

static void cpu_label(char *buf, size_t len, int cpu)
{
	snprintf(buf, len, "%d", cpu);
}

double sp_datagraph_rows_width(cairo_t *cr, const struct sp_theme *theme, const int *cpu_of_row,
			       unsigned int nr_rows)
{
	double w = 0;
	char buf[16];

	cairo_save(cr);
	sp_render_font(cr, theme, theme->font_size, false);
	for (unsigned int r = 0; r < nr_rows; r++) {
		cpu_label(buf, sizeof(buf), cpu_of_row[r]);
		w = fmax(w, sp_text_width(cr, buf));
	}
	cairo_restore(cr);
	return sp_axis_left_width(cr, theme, w, true);
}

void sp_datagraph_rows_draw(cairo_t *cr, const struct sp_theme *theme, const struct sp_rect *plot,
			    const struct sp_datagraph *dg)
{
	const struct sp_timeline *tl = dg->tl;
	unsigned int nr_rows = tl->nr_rows, r, k, first = 0;
	double row_h = plot->h / nr_rows, label_h, last_y = INFINITY, label_w = 0, title_x;
	bool sockets = false, all_fit = true;
	char buf[32];

	cairo_save(cr);
	sp_render_font(cr, theme, theme->font_size, false);
	label_h = theme->font_size * 1.15;
	k = sp_category_label_step(nr_rows, row_h, label_h);
	for (r = 0; r < nr_rows; r++) {
		double y = plot->y + plot->h - (r + 0.5) * row_h;

		if (dg->row_socket && r && dg->row_socket[r] != dg->row_socket[r - 1]) {
			first = r;
			sockets = true;
		}
		cpu_label(buf, sizeof(buf), tl->cpu_of_row[r]);
		label_w = fmax(label_w, sp_text_width(cr, buf));
		if ((r - first) % k || last_y - y < label_h)
			continue;
		last_y = y;
		sp_axis_left_tick(cr, theme, plot, y, buf);
	}

	/* the title column: each socket's name on its band, or one title */
	title_x = plot->x - theme->tick_len - theme->pad - label_w - 2 * theme->pad;
	sp_render_set_color(cr, &theme->text);
	if (sockets) {
		for (r = 0, first = 0; r <= nr_rows; r++) {
			if (r < nr_rows && dg->row_socket[r] == dg->row_socket[first])
				continue;
			snprintf(buf, sizeof(buf), dg->row_socket[first] < 0 ? "socket ?" :
				 "socket %d", dg->row_socket[first]);
			if (sp_text_width(cr, buf) + 2 * theme->pad > (r - first) * row_h)
				all_fit = false;
			first = r;
		}
		for (r = 0, first = 0; all_fit && r <= nr_rows; r++) {
			if (r < nr_rows && dg->row_socket[r] == dg->row_socket[first])
				continue;
			snprintf(buf, sizeof(buf), dg->row_socket[first] < 0 ? "socket ?" :
				 "socket %d", dg->row_socket[first]);
			sp_text_draw_vertical(cr, title_x, plot->y + plot->h -
					      (first + r) * row_h / 2,
					      SP_ALIGN_CENTER | SP_ALIGN_BOTTOM, buf);
			first = r;
		}
	}
	if (!sockets || !all_fit)
		sp_text_draw_vertical(cr, title_x, plot->y + plot->h / 2,
				      SP_ALIGN_CENTER | SP_ALIGN_BOTTOM,
				      sockets ? "CPU (by socket, first at the bottom)" : "CPU");
	cairo_restore(cr);
}

/* ---- the whole figure ---- */

double sp_datagraph_default_plot_height(enum sp_format format, unsigned int nr_rows)
{
	bool px = format == SP_FORMAT_PNG;
	double per_row = px ? 40 : 24, min_row = px ? 3 : 1.2, base = px ? 720 : 400;
	double min_h = px ? 200 : 120;
	double h = fmin(per_row * nr_rows, fmax(base, min_row * nr_rows));

	return fmax(h, min_h);
}

static cairo_t *scratch_context(void)
{
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1);
	cairo_t *cr = cairo_create(s);

	cairo_surface_destroy(s);
	return cr;
}

static void figure_spec(struct sp_layout_spec *spec, cairo_t *cr,
			const struct sp_datagraph_figure *fig, double height, double left_w)
{
	const struct sp_theme *theme = fig->theme;

	sp_layout_spec_init(spec, theme, fig->width, height);
	spec->left_w = left_w;
	if (fig->title && fig->title[0]) {
		sp_render_font(cr, theme, theme->title_font_size, true);
		spec->title_h = sp_text_height(cr);
	}
}

int sp_datagraph_figure_plan(struct sp_datagraph_figure *fig, const int *cpu_of_row,
			     unsigned int nr_rows)
{
	struct sp_layout_spec spec;
	cairo_t *cr = scratch_context();
	double x, left_w;
	int ret;

	if (cairo_status(cr)) {
		cairo_destroy(cr);
		return -ENOMEM;
	}
	left_w = sp_datagraph_rows_width(cr, fig->theme, cpu_of_row, nr_rows);
	figure_spec(&spec, cr, fig, 100000, left_w);
	cairo_destroy(cr);
	ret = sp_layout_compute(&fig->layout, &spec);
	if (ret)
		return ret;
	if (fig->format == SP_FORMAT_PNG) {
		x = ceil(fig->layout.plot.x);
		fig->layout.plot.w = floor(fig->layout.plot.x + fig->layout.plot.w) - x;
		fig->layout.plot.x = x;
	}
	fig->nr_cols = columns_for(fig->format == SP_FORMAT_PNG, fig->layout.plot.w);
	return 0;
}

int sp_datagraph_figure_finish(struct sp_datagraph_figure *fig, const struct sp_datagraph *dg)
{
	const struct sp_theme *theme = fig->theme;
	struct sp_rect planned = fig->layout.plot;
	struct sp_layout_spec spec;
	struct sp_legend legend;
	cairo_t *cr = scratch_context();
	double y, avail;
	int ret;

	if (cairo_status(cr)) {
		cairo_destroy(cr);
		return -ENOMEM;
	}
	/* the plan fixed the plot's left edge: margin + left_w */
	figure_spec(&spec, cr, fig, fig->height, planned.x - theme->margin);
	if (fig->legend) {
		struct sp_legend one;
		double line, want, max;

		sp_datagraph_legend(dg, &legend, 64);
		avail = fig->width - theme->margin - planned.x;
		want = sp_legend_size(cr, theme, &legend, SP_LEGEND_BELOW, avail);
		one = legend;
		one.nr_entries = legend.nr_entries ? 1 : 0;
		one.nr_more = 0;
		one.title = NULL;
		line = sp_legend_size(cr, theme, &one, SP_LEGEND_BELOW, avail);
		max = line * (SP_DATAGRAPH_LEGEND_LINES + (legend.title ? 1 : 0));
		spec.legend = SP_LEGEND_BELOW;
		/* whole units, so the legend grid does not lose a line to rounding */
		spec.legend_h = ceil(fmin(want, max));
	}
	if (!(fig->height > 0)) {
		double chrome = 2 * spec.margin + spec.top_h + spec.bottom_h;

		if (spec.title_h > 0)
			chrome += spec.title_h + spec.gap / 2;
		if (spec.legend_h > 0)
			chrome += spec.legend_h + spec.gap;
		/* one unit of slack: snapping the plot to pixels may cost it one */
		fig->height = ceil(chrome) + 1 +
			      ceil(sp_datagraph_default_plot_height(fig->format, dg->tl->nr_rows));
		if (fig->height > SP_OUTPUT_MAX_PX)
			fig->height = SP_OUTPUT_MAX_PX;
		spec.height = fig->height;
	}
	cairo_destroy(cr);
	ret = sp_layout_compute(&fig->layout, &spec);
	if (ret)
		return ret;
	fig->layout.plot.x = planned.x;
	fig->layout.plot.w = planned.w;
	if (fig->format == SP_FORMAT_PNG) {
		y = ceil(fig->layout.plot.y);
		fig->layout.plot.h = floor(fig->layout.plot.y + fig->layout.plot.h) - y;
		fig->layout.plot.y = y;
	}
	return 0;
}

void sp_datagraph_figure_draw(cairo_t *cr, const struct sp_datagraph_figure *fig,
			      const struct sp_datagraph *dg)
{
	const struct sp_theme *theme = fig->theme;
	const struct sp_layout *lay = &fig->layout;
	struct sp_time_ticks ticks;
	struct sp_legend legend;
	char buf[512];

	cairo_save(cr);
	sp_render_set_color(cr, &theme->background);
	cairo_paint(cr);
	if (lay->title.w > 0 && fig->title) {
		sp_render_font(cr, theme, theme->title_font_size, true);
		sp_render_set_color(cr, &theme->text);
		sp_text_fit(cr, buf, sizeof(buf), fig->title, lay->title.w);
		sp_text_draw(cr, lay->title.x + lay->title.w / 2, lay->title.y,
			     SP_ALIGN_CENTER | SP_ALIGN_TOP, buf);
	}
	sp_datagraph_draw(cr, theme, &lay->plot, dg);
	sp_axis_frame_draw(cr, theme, &lay->plot);
	sp_datagraph_rows_draw(cr, theme, &lay->plot, dg);
	sp_render_font(cr, theme, theme->font_size, false);
	if (!sp_time_ticks_fit(&ticks, cr, lay->plot.w, dg->tl->t0_ns, dg->tl->t1_ns,
			       fig->origin_ns))
		sp_axis_time_draw(cr, theme, &lay->plot, &ticks, dg->tl->t0_ns, dg->tl->t1_ns,
				  false);
	if (fig->legend && lay->legend.w > 0) {
		sp_datagraph_legend(dg, &legend, 64);
		sp_legend_draw(cr, theme, &legend, &lay->legend);
	}
	cairo_restore(cr);
}
