// SPDX-License-Identifier: GPL-2.0-only
/*
 * datagraph keys: which color each task of a timeline gets and what the
 * legend calls it, through a small map from 64-bit ids to key indices.
 * See include/schedplot/views/datagraph.h for the contracts.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cairo.h>

#include "schedplot/base/alloc.h"
#include "schedplot/draw/colormap.h"
#include "schedplot/draw/legend.h"
#include "schedplot/draw/palette.h"
#include "schedplot/model/model.h"
#include "schedplot/model/timeline.h"
#include "schedplot/analysis/fieldkey.h"
#include "schedplot/views/datagraph.h"
#include "schedplot/views/datagraph-power.h"

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

	if (id_map_init(&b->rank, m->tasks.nr + 1))
		return -ENOMEM;
	v = sp_alloc_array(m->tasks.nr + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = 0; i < m->tasks.nr; i++)
		if (m->tasks.v[i].pid > 0)
			v[n++] = &m->tasks.v[i];
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

	v = sp_alloc_array(m->tasks.nr + 1, sizeof(*v));
	if (!v || id_map_init(&slot, m->tasks.nr + 1) ||
	    id_map_init(&b->command_color, m->tasks.nr + 1))
		goto out;
	for (i = 0; i < m->tasks.nr; i++) {
		const struct sp_task *t = &m->tasks.v[i];
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
	return r != UINT32_MAX ? r : b->m->tasks.nr + (size_t)(pid & 0xffff);
}

static void set_color(struct sp_datagraph_key *k, const struct sp_palette *pal, size_t index)
{
	k->palette_index = index;
	sp_palette_color(pal, index, &k->color.r, &k->color.g, &k->color.b);
}

/*
 * Keys sorted busiest first pick their colors in that order: each keeps
 * its stable color (by whole-trace rank or command name) unless a busier
 * key of this window, or a special one on screen, is too close to it.
 */
static int pick_distinct(struct sp_datagraph *dg, const struct sp_palette *pal)
{
	size_t nr_fixed = 0, n = 0, i;
	struct sp_rgb *fixed;
	size_t *index, *key;
	int ret = -ENOMEM;

	/* the special colors on screen and the colors a file gave stay; the rest keep clear */
	fixed = sp_alloc_array(dg->nr_keys + 1, sizeof(*fixed));
	index = sp_alloc_array(dg->nr_keys + 1, sizeof(*index));
	key = sp_alloc_array(dg->nr_keys + 1, sizeof(*key));
	if (!fixed || !index || !key)
		goto out;
	fixed[nr_fixed++] = dg->keys[SP_DG_KEY_IDLE].color;
	if (dg->keys[SP_DG_KEY_NO_DATA].ns)
		fixed[nr_fixed++] = dg->keys[SP_DG_KEY_NO_DATA].color;
	if (dg->targets)
		fixed[nr_fixed++] = dg->keys[SP_DG_KEY_OTHER].color;
	for (i = SP_DG_NR_SPECIAL_KEYS; i < dg->nr_keys; i++) {
		if (dg->keys[i].fixed) {
			fixed[nr_fixed++] = dg->keys[i].color;
		} else {
			key[n] = i;
			index[n++] = dg->keys[i].palette_index;
		}
	}
	ret = sp_palette_pick_distinct(pal, fixed, nr_fixed, index, n);
	for (i = 0; !ret && i < n; i++)
		set_color(&dg->keys[key[i]], pal, index[i]);
out:
	free(fixed);
	free(index);
	free(key);
	return ret;
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
/* --color-by FIELD: a value's key */
#define FIELD_GROUP(key) (((int64_t)1 << 41) + (key))

/*
 * The sequential scale of --color-by FIELD, from dark violet through blue
 * and green to light yellow (the anchors of the viridis scale, whose
 * lightness grows all along it, so its order survives grey printing and
 * color blindness), at 0 <= @f <= 1.
 */
static void value_color(double f, struct sp_rgb *c)
{
	static const struct sp_rgb anchor[] = {
		{ 0.267, 0.005, 0.329 }, { 0.231, 0.322, 0.545 }, { 0.129, 0.569, 0.549 },
		{ 0.369, 0.788, 0.384 }, { 0.992, 0.906, 0.145 },
	};
	double x = (f < 0 ? 0 : f > 1 ? 1 : f) * 4, t;
	int i = x >= 4 ? 3 : (int)x;

	t = x - i;
	c->r = anchor[i].r + (anchor[i + 1].r - anchor[i].r) * t;
	c->g = anchor[i].g + (anchor[i + 1].g - anchor[i].g) * t;
	c->b = anchor[i].b + (anchor[i + 1].b - anchor[i].b) * t;
}

/* The grey of runs of no value (field_key()). */
static const struct sp_rgb field_unknown_grey = { 0.62, 0.62, 0.62 };

static void field_unknown_fill(cairo_t *cr, const struct sp_theme *theme)
{
	(void)theme;
	cairo_set_source_rgb(cr, field_unknown_grey.r, field_unknown_grey.g, field_unknown_grey.b);
}

/* The color bar's colors: the rows' function. */
static void field_bar_color(const void *data, double v, struct sp_rgb *c)
{
	const struct sp_datagraph *dg = data;

	value_color((v - dg->field_lo) / (dg->field_hi - dg->field_lo), c);
}

/*
 * The scale of a number field: with few values (SP_DG_FIELD_LEGEND_VALUES)
 * each is a legend entry, placed on the scale by its rank among the values
 * the trace has (priorities 100, 120 and 139 are three steps apart, not
 * crowded at one end); with more, a color bar, each value placed by its
 * size between the least and the greatest.
 */
static void field_scale(struct sp_datagraph *dg, const struct sp_datagraph_opts *o)
{
	const struct sp_fieldkey *fk = o->field;
	size_t i;

	dg->field = fk;
	if (fk->is_string || fk->nr_values <= SP_DG_FIELD_LEGEND_VALUES)
		return;
	dg->field_bar_on = true;
	dg->field_lo = dg->field_hi = (double)sp_fieldkey_value(fk, 2);
	for (i = 1; i < fk->nr_values; i++) {
		double v = (double)sp_fieldkey_value(fk, (int)i + 2);

		dg->field_lo = v < dg->field_lo ? v : dg->field_lo;
		dg->field_hi = v > dg->field_hi ? v : dg->field_hi;
	}
	dg->field_bar = (struct sp_colorbar){
		.title = o->field_title,
		.lo = dg->field_lo,
		.hi = dg->field_hi,
		.color = field_bar_color,
		.data = dg,
		.unknown_fill = field_unknown_fill,
	};
}

/*
 * A value of --color-by FIELD: a number's color kept as the scale gives
 * it (its order is its meaning); a string wishes for the palette color of
 * its rank of first appearance, like a task, and is kept apart from the
 * busier ones.  Runs of no value are grey.
 */
static void field_key(struct build *b, struct sp_datagraph_key *k, int key)
{
	const struct sp_datagraph *dg = b->dg;
	const struct sp_fieldkey *fk = b->o->field;
	char value[48];
	size_t i, below = 0;
	int64_t v;

	k->fixed = true;
	if (key == SP_FIELDKEY_UNKNOWN || !fk->nr_values) {
		k->color = field_unknown_grey;
		snprintf(k->label, sizeof(k->label), "%s", b->o->field_unknown);
		return;
	}
	sp_fieldkey_label(fk, key, value, sizeof(value));
	/* a string says what it is ("phase 2: block"), a number is named by its field */
	snprintf(k->label, sizeof(k->label), "%s%s%s", fk->is_string ? "" : b->o->field_name,
		 fk->is_string ? "" : " ", value);
	if (fk->is_string) {
		k->fixed = false;
		set_color(k, b->o->palette, (size_t)key - 2);
		return;
	}
	v = sp_fieldkey_value(fk, key);
	if (dg->field_bar_on) {
		field_bar_color(dg, (double)v, &k->color);
		return;
	}
	/* the values are distinct: the rank is how many are less */
	for (i = 0; i < fk->nr_values; i++)
		below += sp_fieldkey_value(fk, (int)i + 2) < v;
	value_color(fk->nr_values > 1 ? (double)below / (double)(fk->nr_values - 1) : 0.5,
		    &k->color);
}

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
		if (b->o->is_target && !b->o->is_target(b->o->target_data, pid, comm))
			group = GROUP_OF_SPECIAL(SP_DG_KEY_OTHER);
		else if (b->dg->color_by == SP_COLOR_BY_FIELD)
			group = FIELD_GROUP(pid);
		else if (b->dg->color_by == SP_COLOR_BY_COMMAND && sp_model_task(m, pid) &&
			 sp_model_task(m, pid)->comm)
			group = sp_model_task(m, pid)->comm;
		else if (b->dg->color_by == SP_COLOR_BY_PROCESS)
			group = ((int64_t)1 << 40) + (root = sp_model_tgid(m, pid));
		else
			group = ((int64_t)1 << 40) + pid;
	}
	idx = id_get(&b->group, group);
	if (idx == UINT32_MAX) {
		k = new_key(b, group);
		if (!k)
			return;
		comm = sp_model_comm(m, root);
		if (b->dg->color_by == SP_COLOR_BY_FIELD && group >= ((int64_t)1 << 41)) {
			field_key(b, k, pid);
		} else if (b->dg->color_by == SP_COLOR_BY_COMMAND && group < ((int64_t)1 << 40)) {
			uint32_t index = id_get(&b->command_color, group);

			set_color(k, b->o->palette,
				  index != UINT32_MAX ? index : sp_string_color_index(comm));
			snprintf(k->label, sizeof(k->label), "%s", comm);
		} else {
			set_color(k, b->o->palette, rank_of(b, root));
			snprintf(k->label, sizeof(k->label), "%s-%d", comm[0] ? comm : "?", root);
		}
		snprintf(k->name, sizeof(k->name), "%s", k->label);
		if (b->o->colors) {
			const struct sp_rgb *c = sp_color_map_find(b->o->colors, k->name);

			if (c) {
				k->color = *c;
				k->fixed = true;
			}
		}
		idx = (uint32_t)(b->dg->nr_keys - 1);
	}
	b->dg->keys[idx].ns += ns;
	b->dg->keys[idx].nr_tasks++;
	id_put(&b->pid_key, pid, idx);
}

struct group_count {
	const struct sp_model *m;
	struct id_map processes, commands;
	size_t nr_tasks, nr_processes, nr_commands;
};

static void count_groups(void *data, int pid, uint64_t ns)
{
	struct group_count *g = data;
	const struct sp_task *t;
	int64_t tgid;

	if (pid <= 0)
		return;
	g->nr_tasks++;
	tgid = sp_model_tgid(g->m, pid);
	if (id_get(&g->processes, tgid) == UINT32_MAX) {
		id_put(&g->processes, tgid, 0);
		g->nr_processes++;
	}
	t = sp_model_task(g->m, pid);
	if (t && t->comm && id_get(&g->commands, t->comm) == UINT32_MAX) {
		id_put(&g->commands, t->comm, 0);
		g->nr_commands++;
	}
}

/*
 * More threads in the window than colors can tell apart: color by process
 * when few enough processes hold them, else by command when that gives
 * fewer colors, and say so in the legend.  Out of memory keeps the
 * colors by thread.
 */
static void auto_color_by(struct sp_datagraph *dg, const struct sp_timeline *tl,
			  const struct sp_model *m, size_t nr_pids)
{
	struct group_count g = { .m = m };

	if (nr_pids <= SP_DG_AUTO_PROCESS_TASKS || id_map_init(&g.processes, nr_pids + 1) ||
	    id_map_init(&g.commands, nr_pids + 1))
		goto out;
	sp_timeline_for_each_total(tl, count_groups, &g);
	if (g.nr_tasks <= SP_DG_AUTO_PROCESS_TASKS)
		goto out;
	if (g.nr_processes < g.nr_tasks &&
	    (g.nr_processes <= SP_DG_AUTO_PROCESS_TASKS || g.nr_processes <= g.nr_commands))
		dg->color_by = SP_COLOR_BY_PROCESS;
	else if (g.nr_commands < g.nr_tasks)
		dg->color_by = SP_COLOR_BY_COMMAND;
	else
		goto out;
	dg->auto_threads = g.nr_tasks;
out:
	id_map_release(&g.processes);
	id_map_release(&g.commands);
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
	const char *group;
	size_t nr_pids = 0, i, n;
	unsigned int r;
	int ret = -ENOMEM;

	memset(dg, 0, sizeof(*dg));
	dg->tl = tl;
	dg->model = m;
	dg->color_by = o->color_by;
	dg->targets = o->is_target != NULL;
	sp_timeline_for_each_total(tl, count_totals, &nr_pids);
	if (o->color_by_auto && o->color_by == SP_COLOR_BY_PID && !o->colors)
		auto_color_by(dg, tl, m, nr_pids);
	/* the helpers' own codes go up; the allocations below fail with -ENOMEM */
	ret = id_map_init(&b.group, nr_pids + SP_DG_NR_SPECIAL_KEYS);
	if (!ret)
		ret = id_map_init(&b.pid_key, nr_pids + 1);
	if (!ret)
		ret = build_ranks(&b);
	if (!ret && dg->color_by == SP_COLOR_BY_COMMAND)
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
	if (dg->color_by == SP_COLOR_BY_FIELD)
		field_scale(dg, o);
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
	/* a process names how many of its threads the window shows */
	for (i = SP_DG_NR_SPECIAL_KEYS; dg->color_by == SP_COLOR_BY_PROCESS && i < dg->nr_keys; i++) {
		struct sp_datagraph_key *k = &dg->keys[i];
		size_t len = strlen(k->label);

		if (k->id >= ((int64_t)1 << 40) && k->nr_tasks > 1)
			snprintf(k->label + len, sizeof(k->label) - len, " (%u threads)",
				 k->nr_tasks);
	}
	/* the bar's grey swatch only when runs of no value are drawn */
	for (i = SP_DG_NR_SPECIAL_KEYS; dg->field_bar_on && i < dg->nr_keys; i++)
		if (dg->keys[i].id == FIELD_GROUP(SP_FIELDKEY_UNKNOWN) && dg->keys[i].ns)
			dg->field_bar.unknown_label = o->field_unknown;
	ret = pick_distinct(dg, o->palette);
	if (ret)
		goto out;
	ret = -ENOMEM;

	dg->cell_key = sp_alloc_array((size_t)tl->nr_rows * tl->window.nr_cols, sizeof(*dg->cell_key));
	dg->power = o->power;
	dg->entries = sp_alloc_array(dg->nr_keys + SP_DG_POWER_MAX_ENTRIES, sizeof(*dg->entries));
	if (!dg->cell_key || !dg->entries)
		goto out;
	for (i = 0; i < (size_t)tl->nr_rows * tl->window.nr_cols; i++) {
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
	switch (dg->color_by) {
	case SP_COLOR_BY_COMMAND:
	case SP_COLOR_BY_PROCESS:
		group = dg->color_by == SP_COLOR_BY_COMMAND ? "command" :
							      "process, named by its leader";
		if (dg->auto_threads)
			snprintf(dg->auto_buf, sizeof(dg->auto_buf),
				 "%s: %zu threads are too many to tell apart (--color-by pid to try)",
				 group, dg->auto_threads);
		else
			snprintf(dg->auto_buf, sizeof(dg->auto_buf), "%s (most CPU time first)",
				 group);
		dg->legend_title = dg->auto_buf;
		break;
	case SP_COLOR_BY_FIELD:
		snprintf(dg->auto_buf, sizeof(dg->auto_buf), "%s%s", o->field_title,
			 o->field->is_string ? " (most CPU time first)" :
			 ", dark to light: low to high (most CPU time first)");
		/* a bar has its own title; the legend keeps idle and no data */
		dg->legend_title = dg->field_bar_on ? NULL : dg->auto_buf;
		break;
	default:
		dg->legend_title = "task-pid (most CPU time first)";
		break;
	}
	if (o->power && o->power->nr_entries) {
		snprintf(dg->title_buf, sizeof(dg->title_buf), "%s; %s", o->power->legend_title,
			 dg->legend_title);
		dg->legend_title = dg->title_buf;
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

int sp_datagraph_colors(const struct sp_datagraph *dg, struct sp_color_map *map)
{
	for (size_t i = SP_DG_NR_SPECIAL_KEYS; i < dg->nr_keys; i++) {
		int ret = sp_color_map_add(map, dg->keys[i].name, &dg->keys[i].color);

		if (ret)
			return ret;
	}
	return 0;
}

void sp_datagraph_release(struct sp_datagraph *dg)
{
	SP_FREE_ALL(dg->cell_key, dg->keys, dg->row_socket, dg->entries);
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
	/* the power layers' keys first; rows colored by frequency have no others */
	if (dg->power) {
		if (dg->power->freq != SP_DG_FREQ_OFF)
			legend->bar = &dg->power->bar;
		for (i = 0; i < dg->power->nr_entries; i++)
			e[n++] = dg->power->entries[i];
		if (dg->power->freq == SP_DG_FREQ_ROWS) {
			legend->title = n ? dg->power->legend_title : NULL;
			legend->entries = e;
			legend->nr_entries = n;
			return;
		}
		max_entries += n;
	}
	/* --color-by FIELD of many values: the bar stands for every value */
	if (!legend->bar && dg->field_bar_on)
		legend->bar = &dg->field_bar;
	for (i = 0; i < SP_DG_NR_SPECIAL_KEYS; i++) {
		if (i == SP_DG_KEY_NO_DATA && !dg->keys[i].ns)
			continue;
		if (i == SP_DG_KEY_OTHER && !dg->targets)
			continue;
		if (n < max_entries)
			e[n++] = (struct sp_legend_entry){ .color = dg->keys[i].color,
							   .label = dg->keys[i].label,
							   .no_data = i == SP_DG_KEY_NO_DATA };
	}
	for (i = SP_DG_NR_SPECIAL_KEYS; legend->bar != &dg->field_bar && i < dg->nr_keys; i++) {
		tasks++;
		if (n < max_entries)
			e[n++] = (struct sp_legend_entry){ .color = dg->keys[i].color,
							   .label = dg->keys[i].label };
		else
			legend->nr_more++;
	}
	legend->entries = e;
	legend->nr_entries = n;
}
