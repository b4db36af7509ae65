// SPDX-License-Identifier: GPL-2.0-only
/*
 * The options the views share (-o, --min/--max, --time, --cpus, --target,
 * sizes, title, legend, colors), parsed and checked in one place.
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/base/error.h"
#include "schedplot/cli/cli.h"
#include "schedplot/cli/evspec.h"
#include "schedplot/cli/options.h"
#include "schedplot/cli/viewopts.h"
#include "schedplot/draw/palette.h"
#include "schedplot/draw/theme.h"
#include "schedplot/model/cpulist.h"
#include "schedplot/model/target.h"
#include "schedplot/model/topology.h"
#include "schedplot/model/trace.h"
#include "schedplot/trace/reader.h"
#include "schedplot/views/datagraph.h"

static int parse_double(const char *cmd, const char *name, const char *arg, double lo,
			double hi, double *val)
{
	char *end;

	errno = 0;
	*val = strtod(arg, &end);
	if (errno || end == arg || *end || !isfinite(*val))
		return sp_cli_usage(cmd, "--%s needs a number, not '%s'", name, arg);
	if (*val < lo || *val > hi)
		return sp_cli_usage(cmd, "--%s %s is out of range (%g to %g)", name, arg, lo, hi);
	return 0;
}

/* A time: a number of seconds, or with a unit (100ms, 250us, 2s, 300ns). */
static int parse_seconds(const char *cmd, const char *name, const char *arg, double *val)
{
	if (sp_cli_parse_seconds(arg, val) || *val > 1e9)
		return sp_cli_usage(cmd, "--%s needs a time like 2.5, 100ms, 250us or 300ns "
				    "(plain numbers are seconds), not '%s'", name, arg);
	return 0;
}

/* "START,END" as times; either side may be empty, as with perf --time. */
static int parse_time(struct sp_view_opts *o, const char *arg)
{
	const char *comma = strchr(arg, ',');
	char start[64];

	if (!comma || (size_t)(comma - arg) >= sizeof(start))
		return sp_cli_usage(o->cmd, "--time needs START,END (seconds, or times like "
				    "100ms), not '%s'", arg);
	memcpy(start, arg, comma - arg);
	start[comma - arg] = '\0';
	o->has_time = true;
	if (start[0]) {
		if (sp_cli_parse_seconds(start, &o->time_start_s))
			return sp_cli_usage(o->cmd, "--time: bad start '%s' (a time like 2.5, "
					    "100ms or 250us)", start);
		o->has_time_start = true;
	}
	if (comma[1]) {
		if (sp_cli_parse_seconds(comma + 1, &o->time_end_s))
			return sp_cli_usage(o->cmd, "--time: bad end '%s' (a time like 2.5, "
					    "100ms or 250us)", comma + 1);
		o->has_time_end = true;
	}
	return 0;
}

/*
 * --freq, --freq=MODE or --freq MODE: a following word that names a mode
 * is taken as the mode (no trace file is called "rows" or "merged").
 */
static int parse_freq(struct sp_view_opts *o, const char *arg, int argc, char **argv)
{
	if (!arg && optind < argc &&
	    (!strcmp(argv[optind], "rows") || !strcmp(argv[optind], "merged")))
		arg = argv[optind++];
	if (!arg || !strcmp(arg, "rows"))
		o->freq = SP_DG_FREQ_ROWS;
	else if (!strcmp(arg, "merged"))
		o->freq = SP_DG_FREQ_MERGED;
	else
		return sp_cli_usage(o->cmd, "--freq takes rows or merged, not '%s'", arg);
	return 0;
}

/* A comma-separated list of patterns added to @v. */
static int add_targets(struct sp_view_opts *o, const char *name, char ***v, int *nr,
		       const char *arg)
{
	char *copy = strdup(arg), *tok, *save = NULL;
	int before = *nr;

	if (!copy)
		return sp_cli_fail(NULL, "out of memory");
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char **grown = realloc(*v, (*nr + 1) * sizeof(*grown));

		if (!grown || !(grown[*nr] = strdup(tok))) {
			if (grown)
				*v = grown;
			free(copy);
			return sp_cli_fail(NULL, "out of memory");
		}
		*v = grown;
		(*nr)++;
	}
	free(copy);
	if (*nr == before)
		return sp_cli_usage(o->cmd, "--%s needs a command name or a pid", name);
	return 0;
}

int sp_view_opts_scope(struct sp_view_opts *o, int opt, const char *arg)
{
	switch (opt) {
	case SP_VOPT_MIN:
		o->has_min = true;
		return parse_seconds(o->cmd, "min", arg, &o->min_s);
	case SP_VOPT_MAX:
		o->has_max = true;
		return parse_seconds(o->cmd, "max", arg, &o->max_s);
	case SP_VOPT_TIME:
		return parse_time(o, arg);
	case SP_VOPT_CPUS:
		o->cpus_list = arg;
		return 0;
	case SP_VOPT_TARGET:
		return add_targets(o, "target", &o->targets, &o->nr_targets, arg);
	case SP_VOPT_TARGET_PROCESS:
		return add_targets(o, "target-process", &o->target_procs, &o->nr_target_procs,
				   arg);
	case SP_VOPT_TARGET_TREE:
		return add_targets(o, "target-tree", &o->target_trees, &o->nr_target_trees, arg);
	}
	return sp_cli_usage(o->cmd, "unknown option");
}

int sp_view_opts_scope_check(const struct sp_view_opts *o)
{
	if (o->has_time && (o->has_min || o->has_max))
		return sp_cli_usage(o->cmd, "--time and --min/--max both set the window; use one");
	if (o->has_min && o->has_max && o->min_s >= o->max_s)
		return sp_cli_usage(o->cmd, "--min %g must be less than --max %g", o->min_s,
				    o->max_s);
	if (o->min_at && (o->has_min || o->has_time_start))
		return sp_cli_usage(o->cmd, "--min-at starts the window at an event: leave out "
				    "--min and --time's start");
	return 0;
}

/* "system:event": two names, neither empty, of letters, digits and '_' */
static bool event_name_ok(const char *s, size_t len)
{
	const char *colon = memchr(s, ':', len);
	size_t i;

	if (!colon || colon == s || colon == s + len - 1 || len >= SP_VIEW_EVENT_NAME)
		return false;
	for (i = 0; i < len; i++)
		if (s + i != colon && !isalnum((unsigned char)s[i]) && s[i] != '_')
			return false;
	return true;
}

/* --events A,B: kept joined by commas, each name checked */
static int add_events(struct sp_view_opts *o, const char *arg)
{
	size_t old = o->events ? strlen(o->events) : 0, len = strlen(arg);
	const char *p = arg;
	int n = o->events ? 1 : 0;
	char *joined;

	for (const char *q = o->events; q && *q; q++)
		n += *q == ',';
	while (*p) {
		size_t k = strcspn(p, ",");

		if (!event_name_ok(p, k))
			return sp_cli_usage(o->cmd, "--events needs SYSTEM:EVENT names separated "
					    "by commas, like sched:sched_process_exec,ftrace:print, "
					    "not '%s'", arg);
		if (++n > SP_VIEW_MAX_EVENTS)
			return sp_cli_usage(o->cmd, "--events takes at most %d events",
					    SP_VIEW_MAX_EVENTS);
		p += k + (p[k] == ',');
	}
	joined = realloc(o->events, old + len + 2);
	if (!joined)
		return sp_cli_fail(NULL, "out of memory");
	if (old)
		joined[old++] = ',';
	memcpy(joined + old, arg, len + 1);
	o->events = joined;
	return 0;
}

/* --color-by's names, and a color file's color_by */
static const char *const color_by_names[] = {
	[SP_COLOR_BY_PID] = "pid",
	[SP_COLOR_BY_COMMAND] = "command",
	[SP_COLOR_BY_PROCESS] = "process",
};

/* @name's way of coloring ("parent": process's old name); -1, @by unchanged, for none */
static int color_by_of(const char *name, enum sp_color_by *by)
{
	for (size_t i = 0; i < sizeof(color_by_names) / sizeof(*color_by_names); i++) {
		if (!strcmp(name, color_by_names[i])) {
			*by = (enum sp_color_by)i;
			return 0;
		}
	}
	if (strcmp(name, "parent"))
		return -1;
	*by = SP_COLOR_BY_PROCESS;
	return 0;
}

int sp_view_opts_option(struct sp_opts_ctx *ctx, int opt, const char *arg)
{
	static const char *const cpu_orders[] = { "numeric", "socket", NULL };
	struct sp_view_opts *o = ctx->view;
	const char *cmd = o->cmd;
	int choice;

	switch (opt) {
	case 'i':
		return sp_cli_inputs_add(&o->inputs, (char *)arg);
	case 'o':
		o->output = arg;
		return 0;
	case 'j':
		return sp_cli_parse_jobs(cmd, arg);
	case SP_VOPT_FORMAT:
		o->format = sp_format_from_name(arg);
		if (o->format == SP_FORMAT_NONE)
			return sp_cli_usage(cmd, "--format must be png, pdf or svg, not '%s'", arg);
		return 0;
	case SP_VOPT_MIN:
	case SP_VOPT_MAX:
	case SP_VOPT_TIME:
	case SP_VOPT_CPUS:
	case SP_VOPT_TARGET:
	case SP_VOPT_TARGET_PROCESS:
	case SP_VOPT_TARGET_TREE:
		return sp_view_opts_scope(o, opt, arg);
	case SP_VOPT_WIDTH:
		return parse_double(cmd, "width", arg, 64, SP_OUTPUT_MAX_PX, &o->width);
	case SP_VOPT_HEIGHT:
		return parse_double(cmd, "height", arg, 64, SP_OUTPUT_MAX_PX, &o->height);
	case SP_VOPT_TITLE:
		o->title = arg;
		return 0;
	case SP_VOPT_NO_LEGEND:
		o->no_legend = true;
		return 0;
	case SP_VOPT_FONT_SIZE:
		return parse_double(cmd, "font-size", arg, SP_THEME_MIN_FONT_SIZE,
				    SP_THEME_MAX_FONT_SIZE, &o->font_size);
	case SP_VOPT_COLOR_BY:
		o->color_by_given = true;
		if (!color_by_of(arg, &o->color_by))
			return 0;
		/* a field of the switch-in record (next_prio), or of an event */
		if (!strcmp(cmd, "datagraph")) {
			struct sp_colorspec spec;
			int ret = sp_evspec_color_parse(cmd, arg, &spec);

			sp_evspec_color_release(&spec);
			if (ret)
				return ret;
			o->color_by = SP_COLOR_BY_FIELD;
			o->color_field = arg;
			return 0;
		}
		return sp_cli_usage(cmd, "--color-by must be pid, command or process, not '%s'",
				    arg);
	case SP_VOPT_PALETTE:
		if (!sp_palette_by_name(arg))
			return sp_cli_usage(cmd, "unknown palette '%s' (known: %s)", arg,
					    sp_palette_names());
		o->palette = arg;
		return 0;
	case SP_VOPT_CPU_ORDER:
		if (sp_cli_parse_choice(cmd, "cpu-order", arg, cpu_orders, &choice))
			return SP_EXIT_USAGE;
		o->cpu_order = choice ? SP_CPU_ORDER_SOCKET : SP_CPU_ORDER_NUMERIC;
		return 0;
	case SP_VOPT_TOPOLOGY:
		o->topology = arg;
		return 0;
	case SP_VOPT_SOCKET_ORDER:
		o->cpu_order = SP_CPU_ORDER_SOCKET;
		return 0;
	case SP_VOPT_NO_SHADE:
		o->no_shade = true;
		return 0;
	case SP_VOPT_IDLE:
		o->idle = true;
		return 0;
	case SP_VOPT_CSV:
		o->csv = arg;
		return 0;
	case SP_VOPT_TEXT:
		o->text = true;
		return 0;
	case SP_VOPT_JSON:
		o->json = true;
		return 0;
	case SP_VOPT_FREQ:
		return parse_freq(o, arg, ctx->argc, ctx->argv);
	case SP_VOPT_IDLE_STATES:
		o->idle_states = true;
		return 0;
	case SP_VOPT_MIGRATIONS:
		o->migrations = true;
		return 0;
	case SP_VOPT_WAKEUPS:
		o->wakeups = true;
		return 0;
	case SP_VOPT_PLACEMENT:
		o->placement = true;
		return 0;
	case SP_VOPT_EVENTS:
		return add_events(o, arg);
	case SP_VOPT_MIN_AT:
		if (!event_name_ok(arg, strlen(arg)))
			return sp_cli_usage(cmd, "--min-at needs an event as SYSTEM:EVENT, like "
					    "ftrace:print, not '%s'", arg);
		o->min_at = arg;
		return 0;
	case SP_VOPT_MARK:
	case SP_VOPT_SPAN:
		return sp_evspec_keep(o, opt, arg);
	case SP_VOPT_VIEW:
		/* the command line came through sp_viewfile_expand(): none is left */
		return sp_cli_usage(cmd, "--view %s: a view file is read before the options", arg);
	case SP_VOPT_AGGREGATE:
		return sp_view_opts_aggregate(cmd, arg, &o->aggregate);
	case SP_VOPT_COLORS:
		o->colors_in = arg;
		return 0;
	case SP_VOPT_COLORS_OUT:
		o->colors_out = arg;
		return 0;
	}
	return sp_cli_usage(cmd, "unknown option");
}

void sp_view_opts_init(struct sp_view_opts *o, const char *cmd)
{
	memset(o, 0, sizeof(*o));
	o->cmd = cmd;
	o->palette = "default";
}

int sp_view_opts_parse(struct sp_view_opts *o, const struct sp_cmd_opts *cmd, int max_traces,
		       int argc, char **argv, void *own)
{
	int ret;

	sp_view_opts_init(o, cmd->name);
	ret = sp_opts_parse(cmd, argc, argv, o, own, sp_view_opts_option);
	if (ret >= 0) {
		sp_view_opts_release(o);
		return ret;
	}
	ret = sp_cli_inputs_finish(&o->inputs, o->cmd, max_traces, argv + optind,
				   argc - optind);
	if (ret)
		return ret;
	o->traces = o->inputs.paths;
	o->nr_traces = o->inputs.nr;
	ret = sp_view_opts_scope_check(o);
	return ret ? ret : -1;
}

int sp_view_opts_check_image(struct sp_view_opts *o)
{
	const char *cmd = o->cmd;
	int ret;

	if (o->output && !strcmp(o->output, "-") && o->format == SP_FORMAT_NONE)
		return sp_cli_usage(cmd, "-o - writes to standard output: say --format png, pdf "
				    "or svg");
	if (o->output && strcmp(o->output, "-")) {
		ret = sp_cli_output_format(cmd, o->output, &o->format);
		if (ret)
			return ret;
	}
	if (o->color_field && (o->colors_in || o->colors_out))
		return sp_cli_usage(cmd, "--color-by %s colors by value: --colors and --colors-out "
				    "keep the colors of tasks", o->color_field);
	if (o->format == SP_FORMAT_NONE)
		o->format = SP_FORMAT_PNG;
	if (o->colors_in) {
		struct sp_error err = { 0 };

		if (sp_color_map_load(&o->colors, o->colors_in, &err)) {
			sp_cli_error(o->colors_in, &err);
			return SP_EXIT_FAILURE;
		}
		/* the study's figures name their colors one way: the file's, unless told */
		if (!o->color_by_given)
			color_by_of(o->colors.color_by, &o->color_by);
		o->color_by_given = true;
	}
	return -1;
}

int sp_view_opts_aggregate(const char *cmd, const char *arg, enum sp_timeline_rule *rule)
{
	static const char *const rules[] = { "share", "longest", NULL };
	int choice;

	if (sp_cli_parse_choice(cmd, "aggregate", arg, rules, &choice))
		return SP_EXIT_USAGE;
	*rule = choice ? SP_TIMELINE_LONGEST : SP_TIMELINE_BUSIEST;
	return 0;
}

int sp_view_opts_colors_out(struct sp_view_opts *o, const struct sp_datagraph *dg)
{
	struct sp_color_map map = { 0 };
	struct sp_error err = { 0 };
	int ret;

	if (!o->colors_out)
		return SP_EXIT_OK;
	/* this figure's colors, then those of the file read that it did not show */
	ret = sp_datagraph_colors(dg, &map);
	for (size_t i = 0; !ret && i < o->colors.nr; i++)
		ret = sp_color_map_add(&map, o->colors.v[i].name, &o->colors.v[i].color);
	if (ret) {
		sp_color_map_release(&map);
		return sp_cli_fail_code(o->colors_out, ret, "cannot write the colors");
	}
	ret = sp_color_map_save(&map, color_by_names[dg->color_by], o->colors_out, &err);
	sp_color_map_release(&map);
	if (ret) {
		sp_cli_error(NULL, &err);
		return SP_EXIT_FAILURE;
	}
	return SP_EXIT_OK;
}

static uint64_t seconds_to_ns(double s)
{
	return (uint64_t)llround(s * 1e9);
}

int sp_view_opts_topology(const struct sp_view_opts *o, const struct sp_trace *t,
			  struct sp_topology *file_topo, const struct sp_topology **topo,
			  const char **source)
{
	struct sp_error err;
	int ret;

	memset(file_topo, 0, sizeof(*file_topo));
	*topo = NULL;
	*source = NULL;
	if (o->topology) {
		sp_error_clear(&err);
		ret = sp_topology_load(file_topo, o->topology, &err);
		if (ret) {
			if (!err.code)
				err.code = ret;
			sp_cli_error(o->topology, &err);
			return SP_EXIT_FAILURE;
		}
		*source = o->topology;
		if (o->cpu_order != SP_CPU_ORDER_NUMERIC)
			*topo = file_topo;
		return SP_EXIT_OK;
	}
	if (t->nr_topology_markers && !t->has_topology)
		sp_cli_note(t->path, "the topology recorded in the trace is left out: %s",
			    t->topology_err.msg);
	if (o->cpu_order == SP_CPU_ORDER_NUMERIC)
		return SP_EXIT_OK;
	if (!t->has_topology) {
		if (o->cpu_order == SP_CPU_ORDER_SOCKET)
			return sp_cli_usage(o->cmd, "socket order needs a topology: the trace has "
					    "none (record it with 'schedplot record' to save one) "
					    "and no --topology FILE (the output of 'lscpu -p' run "
					    "on the traced machine) was given");
		return SP_EXIT_OK;
	}
	*topo = &t->topology;
	*source = "the topology recorded in the trace";
	sp_cli_note(t->path, "rows ordered by socket from the topology recorded in the trace");
	return SP_EXIT_OK;
}

int sp_view_opts_min_at(struct sp_view_opts *o, struct sp_trace *t)
{
	struct sp_error err = { 0 };
	int ret;

	if (!o->min_at)
		return SP_EXIT_OK;
	ret = sp_trace_first_event(t, o->min_at, &o->min_at_ns, &err);
	if (ret == -ENOENT)
		return sp_cli_fail(t->path, "--min-at %s: the trace has no such event", o->min_at);
	if (ret == -ENODATA)
		return sp_cli_fail(t->path, "--min-at %s: the trace holds no such record",
				   o->min_at);
	if (ret < 0) {
		if (!err.code)
			err.code = ret;
		sp_cli_error(t->path, &err);
		return SP_EXIT_FAILURE;
	}
	sp_cli_note(t->path, "--min-at %s: the window starts at its first record, "
		    "%" PRIu64 ".%09" PRIu64 " s", o->min_at, o->min_at_ns / 1000000000,
		    o->min_at_ns % 1000000000);
	return SP_EXIT_OK;
}

void sp_view_opts_target(const struct sp_view_opts *o, struct sp_target *tg)
{
	tg->tasks = o->targets;
	tg->nr_tasks = o->nr_targets;
	tg->procs = o->target_procs;
	tg->nr_procs = o->nr_target_procs;
	tg->trees = o->target_trees;
	tg->nr_trees = o->nr_target_trees;
}

int sp_view_opts_resolve(struct sp_view_opts *o, const struct sp_trace *t)
{
	uint64_t start = t->first_ns, end = t->end_ns;
	char b1[32];
	long bad;
	int c, ret;

	o->model = &t->model;
	o->t0_ns = start;
	o->t1_ns = end;
	o->origin_ns = start;
	if (o->has_min)
		o->t0_ns = start + seconds_to_ns(o->min_s);
	if (o->has_max)
		o->t1_ns = start + seconds_to_ns(o->max_s);
	if (o->has_time) {
		o->origin_ns = 0;
		if (o->has_time_start)
			o->t0_ns = seconds_to_ns(o->time_start_s);
		if (o->has_time_end)
			o->t1_ns = seconds_to_ns(o->time_end_s);
	}
	if (o->min_at)
		o->t0_ns = o->min_at_ns;	/* sp_view_opts_min_at() found it */
	/* inside the trace, but both ends on the same nanosecond */
	if (o->t0_ns >= o->t1_ns && o->t0_ns >= start && o->t0_ns < end) {
		sp_cli_fail(o->traces[0], "the window asked for is shorter than a nanosecond, "
			    "the trace's resolution (it starts and ends at %" PRIu64 ".%09" PRIu64
			    " s): make it longer", o->t0_ns / 1000000000, o->t0_ns % 1000000000);
		return SP_EXIT_USAGE;
	}
	if (o->t0_ns >= end || o->t1_ns <= start || o->t0_ns >= o->t1_ns) {
		sp_cli_fail(o->traces[0], "the window asked for lies outside the trace, which "
			    "runs %s from %.6f to %.6f s (--min/--max count seconds from its "
			    "start, --time uses its timestamps)",
			    sp_cli_format_duration(b1, sizeof(b1), end - start), start / 1e9,
			    end / 1e9);
		return SP_EXIT_USAGE;
	}
	if (o->t0_ns < start)
		o->t0_ns = start;
	if (o->t1_ns > end) {
		/* a window cut short says so: the image would not show it */
		if (o->has_max)
			sp_cli_notice(t->path, "--max %.9g s is past the end of the trace, which "
				      "runs %s; the window ends there", o->max_s,
				      sp_cli_format_duration(b1, sizeof(b1), end - start));
		else if (o->has_time_end)
			sp_cli_notice(t->path, "--time's end %.9g s is past the end of the trace, "
				      "at %.6f s; the window ends there", o->time_end_s, end / 1e9);
		o->t1_ns = end;
	}

	o->nr_cpus = t->nr_cpus;
	sp_view_opts_target(o, &o->target);
	sp_scope_init(&o->scope, o->t0_ns, o->t1_ns);
	o->scope.target = sp_view_opts_has_targets(o) ? &o->target : NULL;
	o->scope.model = o->model;
	o->scope.reader = t->reader;
	o->scope.nr_cpus = t->nr_cpus;
	free(o->cpus);			/* resolved again for each trace of a view */
	o->cpus = calloc(t->nr_cpus, sizeof(*o->cpus));
	if (!o->cpus)
		return sp_cli_fail(NULL, "out of memory");
	if (!o->cpus_list) {
		for (c = 0; c < t->nr_cpus; c++)
			o->cpus[c] = true;
		return SP_EXIT_OK;
	}
	o->scope.cpus = o->cpus;
	ret = sp_parse_cpu_list(o->cpus_list, o->cpus, t->nr_cpus, &bad);
	if (ret == -ERANGE && bad >= 0)
		return sp_cli_usage(o->cmd, "--cpus %s: the trace has no CPU %ld (it has %d: "
				    "0-%d)", o->cpus_list, bad, t->nr_cpus, t->nr_cpus - 1);
	if (ret)
		return sp_cli_usage(o->cmd, "--cpus needs a list like 0-3,8,10-11, not '%s'",
				    o->cpus_list);
	return SP_EXIT_OK;
}

const char *sp_view_opts_output(const struct sp_view_opts *o, char *buf, size_t len)
{
	const char *base, *dot;
	size_t n;

	if (o->output)
		return o->output;
	base = strrchr(o->traces[0], '/');
	base = base ? base + 1 : o->traces[0];
	dot = strrchr(base, '.');
	n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
	snprintf(buf, len, "%.*s-%s.%s", (int)n, base, o->cmd, sp_format_name(o->format));
	return buf;
}

bool sp_view_opts_has_targets(const struct sp_view_opts *o)
{
	return o->nr_targets || o->nr_target_procs || o->nr_target_trees;
}

bool sp_view_opts_is_target(const struct sp_view_opts *o, int pid, const char *comm)
{
	struct sp_target tg;

	sp_view_opts_target(o, &tg);
	return sp_target_match(&tg, o->model, pid, comm);
}

const char *sp_view_opts_counting(struct sp_view_opts *o)
{
	size_t len = 0, room = sizeof(o->counting) - 4;
	int i;

	if (!sp_view_opts_has_targets(o))
		return NULL;
	o->counting[0] = '\0';
	for (i = 0; i < o->nr_targets + o->nr_target_procs + o->nr_target_trees && len < room;
	     i++) {
		bool process = i >= o->nr_targets && i < o->nr_targets + o->nr_target_procs;
		bool tree = i >= o->nr_targets + o->nr_target_procs;
		int n = snprintf(o->counting + len, room - len, "%s%s%s", i ? ", " : "",
				 tree ? "tree " : process ? "process " : "",
				 tree ? o->target_trees[i - o->nr_targets - o->nr_target_procs] :
				 process ? o->target_procs[i - o->nr_targets] : o->targets[i]);

		len += n > 0 ? (size_t)n : 0;
	}
	if (len >= room)
		strcpy(o->counting + room - 1, "...");
	return o->counting;
}

int sp_view_opts_one_cpu(const struct sp_view_opts *o, const struct sp_model *m)
{
	int cpu = -1;

	if (!sp_view_opts_has_targets(o))
		return -1;
	for (size_t i = 0; i < m->tasks.nr; i++) {
		const struct sp_task *t = &m->tasks.v[i];

		if (t->pid <= 0 || !t->run_ns ||
		    !sp_view_opts_is_target(o, t->pid, sp_model_str(m, t->comm)))
			continue;
		if (t->migrations || t->last_cpu < 0 || (cpu >= 0 && t->last_cpu != cpu))
			return -1;
		cpu = t->last_cpu;
	}
	return cpu;
}

int sp_view_opts_check_targets(const struct sp_view_opts *o, const struct sp_model *m,
			       const char *path)
{
	struct sp_target tg;
	const char *pattern, *suffix;
	bool *unmatched;
	int n, i, nr;

	if (!sp_view_opts_has_targets(o))
		return SP_EXIT_OK;
	sp_view_opts_target(o, &tg);
	nr = tg.nr_tasks + tg.nr_procs + tg.nr_trees;
	unmatched = calloc((size_t)nr, sizeof(*unmatched));
	if (!unmatched)
		return sp_cli_fail(NULL, "out of memory");
	n = sp_target_unmatched(&tg, m, unmatched);
	if (n == nr) {
		free(unmatched);
		pattern = sp_target_nth(&tg, 0, &suffix);
		return sp_cli_fail(path, "no task of the trace matches --target%s '%s'%s (commands "
				   "match as globs, numbers as pids; 'schedplot stats --by "
				   "command' lists the commands)", suffix, pattern,
				   n > 1 ? " or the others" : "");
	}
	for (i = 0; i < nr; i++) {
		if (!unmatched[i])
			continue;
		pattern = sp_target_nth(&tg, i, &suffix);
		sp_cli_warn("%s: no task matches --target%s '%s'; left out", path, suffix,
			    pattern);
	}
	free(unmatched);
	return SP_EXIT_OK;
}

int sp_view_opts_filter(struct sp_model_filter *filter, struct sp_view_opts *o)
{
	int c, n = 0;

	sp_scope_filter(&o->scope, filter);
	for (c = 0; c < o->nr_cpus; c++)
		n += o->cpus[c];
	return n;
}

void sp_view_opts_release(struct sp_view_opts *o)
{
	int i;

	for (i = 0; i < o->nr_targets; i++)
		free(o->targets[i]);
	free(o->targets);
	for (i = 0; i < o->nr_target_procs; i++)
		free(o->target_procs[i]);
	free(o->target_procs);
	o->target_procs = NULL;
	o->nr_target_procs = 0;
	for (i = 0; i < o->nr_target_trees; i++)
		free(o->target_trees[i]);
	free(o->target_trees);
	o->target_trees = NULL;
	o->nr_target_trees = 0;
	free(o->cpus);
	free(o->events);
	o->events = NULL;
	free(o->marks);
	free(o->spans);
	o->marks = o->spans = NULL;
	o->nr_marks = o->nr_spans = 0;
	sp_color_map_release(&o->colors);
	sp_cli_inputs_release(&o->inputs);
	o->traces = NULL;
	o->nr_traces = 0;
	o->targets = NULL;
	o->nr_targets = 0;
	o->cpus = NULL;
}

/* Rows bottom first, and their sockets (NULL in numeric order). */
int sp_view_opts_rows(struct sp_view_opts *o, const struct sp_trace *t, int **rows,
		      int **row_socket, int *nr_rows)
{
	const struct sp_topology *topo;
	struct sp_topology file_topo;
	const char *source;
	int missing = 0, first_missing = -1, r, ret;

	*rows = calloc((size_t)t->nr_cpus, sizeof(**rows));
	*row_socket = calloc((size_t)t->nr_cpus, sizeof(**row_socket));
	if (!*rows || !*row_socket)
		return sp_cli_fail(NULL, "out of memory");
	ret = sp_view_opts_topology(o, t, &file_topo, &topo, &source);
	if (ret)
		return ret;
	*nr_rows = sp_topology_order(topo, o->cpus, t->nr_cpus, *rows, *row_socket);
	for (r = 0; topo && r < *nr_rows; r++) {
		if ((*row_socket)[r] >= 0)
			continue;
		if (!missing++)
			first_missing = (*rows)[r];
	}
	if (missing)
		sp_cli_warn("%s: lists no socket for %d of the CPUs drawn (CPU %d first); they "
			    "are drawn at the top (was it made on the traced machine?)",
			    source, missing, first_missing);
	sp_topology_release(&file_topo);
	if (!topo) {
		free(*row_socket);
		*row_socket = NULL;
	}
	if (!*nr_rows)
		return sp_cli_usage(o->cmd, "--cpus %s selects no CPU", o->cpus_list);
	return SP_EXIT_OK;
}

int sp_view_opts_protect(const struct sp_view_opts *o, struct sp_output *out)
{
	int i, ret = 0;

	for (i = 0; !ret && i < o->nr_traces; i++)
		ret = sp_output_protect(out, o->traces[i]);
	if (!ret && o->topology)
		ret = sp_output_protect(out, o->topology);
	if (ret)
		return sp_cli_fail(NULL, "cannot keep the output from writing over the inputs: "
				   "%s", strerror(-ret));
	return SP_EXIT_OK;
}

int sp_view_opts_probe_output(const struct sp_view_opts *o, struct sp_output *out, char *buf,
			 size_t len, double width, const char **path)
{
	int ret;

	*path = sp_view_opts_output(o, buf, len);
	ret = sp_view_opts_protect(o, out);
	if (ret)
		return ret;
	return sp_cli_probe_output(out, *path, o->format, width);
}

static bool is_target(void *data, int pid, const char *comm)
{
	return sp_view_opts_is_target(data, pid, comm);
}

void sp_view_opts_datagraph(const struct sp_view_opts *o, const int *row_socket,
			    struct sp_datagraph_opts *d)
{
	memset(d, 0, sizeof(*d));
	d->color_by = o->color_by;
	d->color_by_auto = !o->color_by_given;
	d->palette = sp_palette_by_name(o->palette);
	if (sp_view_opts_has_targets(o)) {
		d->is_target = is_target;
		d->target_data = (void *)o;
	}
	d->row_socket = row_socket;
	d->colors = o->colors_in ? (struct sp_color_map *)&o->colors : NULL;
}
