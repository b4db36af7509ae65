// SPDX-License-Identifier: GPL-2.0-only
/*
 * The options the views share (-o, --min/--max, --time, --cpus, --target,
 * sizes, title, legend, colors), parsed and checked in one place.
 */
#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/base/error.h"
#include "schedplot/cli/cli.h"
#include "schedplot/cli/viewopts.h"
#include "schedplot/draw/palette.h"
#include "schedplot/draw/theme.h"
#include "schedplot/model/cpulist.h"
#include "schedplot/model/topology.h"
#include "schedplot/model/trace.h"
#include "schedplot/views/datagraph.h"

/*
 * Every option of every view: getopt_long parses with the view's own table,
 * and an option of this one missing from it "does not apply" to the view.
 */
static const struct option view_options[] = {
	{ "input", required_argument, NULL, 'i' },
	{ "output", required_argument, NULL, 'o' },
	{ "format", required_argument, NULL, SP_VOPT_FORMAT },
	{ "min", required_argument, NULL, SP_VOPT_MIN },
	{ "max", required_argument, NULL, SP_VOPT_MAX },
	{ "time", required_argument, NULL, SP_VOPT_TIME },
	{ "cpus", required_argument, NULL, SP_VOPT_CPUS },
	{ "target", required_argument, NULL, SP_VOPT_TARGET },
	{ "width", required_argument, NULL, SP_VOPT_WIDTH },
	{ "height", required_argument, NULL, SP_VOPT_HEIGHT },
	{ "title", required_argument, NULL, SP_VOPT_TITLE },
	{ "no-legend", no_argument, NULL, SP_VOPT_NO_LEGEND },
	{ "font-size", required_argument, NULL, SP_VOPT_FONT_SIZE },
	{ "color-by", required_argument, NULL, SP_VOPT_COLOR_BY },
	{ "palette", required_argument, NULL, SP_VOPT_PALETTE },
	{ "cpu-order", required_argument, NULL, SP_VOPT_CPU_ORDER },
	{ "topology", required_argument, NULL, SP_VOPT_TOPOLOGY },
	{ "socket-order", no_argument, NULL, SP_VOPT_SOCKET_ORDER },
	{ "no-shade", no_argument, NULL, SP_VOPT_NO_SHADE },
	{ "csv", required_argument, NULL, SP_VOPT_CSV },
	{ "jobs", required_argument, NULL, SP_VOPT_JOBS },
	{ "by", required_argument, NULL, SP_VOPT_BY },
	{ "class", required_argument, NULL, SP_VOPT_CLASS },
	{ "ccdf", no_argument, NULL, SP_VOPT_CCDF },
	{ "hist", no_argument, NULL, SP_VOPT_HIST },
	{ "text", no_argument, NULL, SP_VOPT_TEXT },
	{ "json", no_argument, NULL, SP_VOPT_JSON },
	{ "slowest", required_argument, NULL, SP_VOPT_SLOWEST },
	{ "layout", required_argument, NULL, SP_VOPT_LAYOUT },
	{ "shade", required_argument, NULL, SP_VOPT_SHADE },
	{ "over-time", no_argument, NULL, SP_VOPT_OVER_TIME },
	{ "verbose", no_argument, NULL, 'v' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

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

static int add_targets(struct sp_view_opts *o, const char *arg)
{
	char *copy = strdup(arg), *tok, *save = NULL;

	if (!copy)
		return sp_cli_fail(NULL, "out of memory");
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char **v = realloc(o->targets, (o->nr_targets + 1) * sizeof(*v));

		if (!v || !(v[o->nr_targets] = strdup(tok))) {
			if (v)
				o->targets = v;
			free(copy);
			return sp_cli_fail(NULL, "out of memory");
		}
		o->targets = v;
		o->nr_targets++;
	}
	free(copy);
	if (!o->nr_targets)
		return sp_cli_usage(o->cmd, "--target needs a command name");
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
		return add_targets(o, arg);
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
	return 0;
}

int sp_view_opts_parse(struct sp_view_opts *o, const char *cmd,
		       const struct option *options, int max_traces, const char *usage, int argc,
		       char **argv, int (*own)(void *data, int opt, const char *arg),
		       void *own_data)
{
	int opt, ret = 0;

	memset(o, 0, sizeof(*o));
	o->cmd = cmd;
	o->palette = "default";
	optind = 1;
	opterr = 0;
	/* the view's own table: an abbreviation never names an option it rejects */
	while ((opt = getopt_long(argc, argv, ":i:o:vqh", options, NULL)) != -1) {
		if (sp_cli_parse_common(opt))
			continue;
		switch (opt) {
		case 'i':
			ret = sp_cli_inputs_add(&o->inputs, optarg);
			break;
		case 'o':
			o->output = optarg;
			break;
		case SP_VOPT_FORMAT:
			o->format = sp_format_from_name(optarg);
			if (o->format == SP_FORMAT_NONE)
				return sp_cli_usage(cmd, "--format must be png, pdf or svg, not "
						    "'%s'", optarg);
			break;
		case SP_VOPT_MIN:
		case SP_VOPT_MAX:
		case SP_VOPT_TIME:
		case SP_VOPT_CPUS:
		case SP_VOPT_TARGET:
			ret = sp_view_opts_scope(o, opt, optarg);
			break;
		case SP_VOPT_WIDTH:
			ret = parse_double(cmd, "width", optarg, 64, SP_OUTPUT_MAX_PX, &o->width);
			break;
		case SP_VOPT_HEIGHT:
			ret = parse_double(cmd, "height", optarg, 64, SP_OUTPUT_MAX_PX,
					   &o->height);
			break;
		case SP_VOPT_TITLE:
			o->title = optarg;
			break;
		case SP_VOPT_NO_LEGEND:
			o->no_legend = true;
			break;
		case SP_VOPT_FONT_SIZE:
			ret = parse_double(cmd, "font-size", optarg, SP_THEME_MIN_FONT_SIZE,
					   SP_THEME_MAX_FONT_SIZE, &o->font_size);
			break;
		case SP_VOPT_COLOR_BY:
			if (!strcmp(optarg, "pid"))
				o->color_by = SP_COLOR_BY_PID;
			else if (!strcmp(optarg, "command"))
				o->color_by = SP_COLOR_BY_COMMAND;
			else if (!strcmp(optarg, "parent"))
				o->color_by = SP_COLOR_BY_PARENT;
			else
				return sp_cli_usage(cmd, "--color-by must be pid, command or "
						    "parent, not '%s'", optarg);
			break;
		case SP_VOPT_PALETTE:
			if (!sp_palette_by_name(optarg))
				return sp_cli_usage(cmd, "unknown palette '%s' (known: %s)",
						    optarg, sp_palette_names());
			o->palette = optarg;
			break;
		case SP_VOPT_CPU_ORDER:
			if (!strcmp(optarg, "numeric"))
				o->cpu_order = SP_CPU_ORDER_NUMERIC;
			else if (!strcmp(optarg, "socket"))
				o->cpu_order = SP_CPU_ORDER_SOCKET;
			else
				return sp_cli_usage(cmd, "--cpu-order must be numeric or socket, "
						    "not '%s'", optarg);
			break;
		case SP_VOPT_TOPOLOGY:
			o->topology = optarg;
			break;
		case SP_VOPT_SOCKET_ORDER:
			o->cpu_order = SP_CPU_ORDER_SOCKET;
			break;
		case SP_VOPT_NO_SHADE:
			o->no_shade = true;
			break;
		case SP_VOPT_CSV:
			o->csv = optarg;
			break;
		case SP_VOPT_JOBS:
			ret = sp_cli_parse_jobs(cmd, optarg);
			break;
		case 'h':
			fputs(usage, stdout);
			sp_view_opts_release(o);
			return SP_EXIT_OK;
		default:
			if (opt >= SP_VOPT_BY && own) {
				ret = own(own_data, opt, optarg);
				break;
			}
			sp_view_opts_release(o);
			return sp_cli_bad_option(cmd, options, view_options, opt, argv);
		}
		if (ret) {
			sp_view_opts_release(o);
			return ret;
		}
	}
	ret = sp_cli_inputs_finish(&o->inputs, cmd, max_traces, argv + optind, argc - optind);
	if (ret)
		return ret;
	o->traces = o->inputs.paths;
	o->nr_traces = o->inputs.nr;
	ret = sp_view_opts_scope_check(o);
	if (ret)
		return ret;
	if (o->output && !strcmp(o->output, "-") && o->format == SP_FORMAT_NONE)
		return sp_cli_usage(cmd, "-o - writes to standard output: say --format png, pdf "
				    "or svg");
	if (o->output && strcmp(o->output, "-") && o->format == SP_FORMAT_NONE) {
		o->format = sp_format_from_path(o->output);
		if (o->format == SP_FORMAT_NONE)
			return sp_cli_usage(cmd, "cannot tell the format of '%s': name it .png, "
					    ".pdf or .svg, or give --format", o->output);
	}
	if (o->format == SP_FORMAT_NONE)
		o->format = SP_FORMAT_PNG;
	return -1;
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

int sp_view_opts_resolve(struct sp_view_opts *o, const struct sp_trace *t)
{
	uint64_t start = t->first_ns, end = t->end_ns;
	char b1[32];
	long bad;
	int c, ret;

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
	free(o->cpus);			/* resolved again for each trace of a view */
	o->cpus = calloc(t->nr_cpus, sizeof(*o->cpus));
	if (!o->cpus)
		return sp_cli_fail(NULL, "out of memory");
	if (!o->cpus_list) {
		for (c = 0; c < t->nr_cpus; c++)
			o->cpus[c] = true;
		return SP_EXIT_OK;
	}
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

bool sp_view_opts_is_target(const struct sp_view_opts *o, const char *comm)
{
	int i;

	if (!o->nr_targets)
		return true;
	for (i = 0; i < o->nr_targets; i++)
		if (!strcmp(o->targets[i], comm) || !fnmatch(o->targets[i], comm, 0))
			return true;
	return false;
}

void sp_view_opts_release(struct sp_view_opts *o)
{
	int i;

	for (i = 0; i < o->nr_targets; i++)
		free(o->targets[i]);
	free(o->targets);
	free(o->cpus);
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

int sp_view_probe_output(const struct sp_view_opts *o, struct sp_output *out, char *buf,
			 size_t len, double width, const char **path)
{
	int ret;

	*path = sp_view_opts_output(o, buf, len);
	ret = sp_view_opts_protect(o, out);
	if (ret)
		return ret;
	return sp_cli_probe_output(out, *path, o->format, width);
}

static bool is_target(void *data, const char *comm)
{
	return sp_view_opts_is_target(data, comm);
}

void sp_view_datagraph_opts(const struct sp_view_opts *o, const int *row_socket,
			    struct sp_datagraph_opts *d)
{
	memset(d, 0, sizeof(*d));
	d->color_by = o->color_by;
	d->palette = sp_palette_by_name(o->palette);
	if (o->nr_targets) {
		d->is_target = is_target;
		d->target_data = (void *)o;
	}
	d->row_socket = row_socket;
}
