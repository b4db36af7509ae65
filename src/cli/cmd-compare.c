// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedplot compare: did the patch change anything?  Two groups of runs
 * (traces, or files of numbers), each run reduced to a few numbers, each
 * group summarised, the groups tested against each other (Mann-Whitney U)
 * and their wait distributions compared decile by decile (shift function).
 *
 * Everything is computed before anything is written: text or JSON goes to
 * standard output at the end, the image (-o) is committed last, so a
 * failure leaves nothing half-written.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "schedplot/analysis/compare.h"
#include "schedplot/analysis/mannwhitney.h"
#include "schedplot/analysis/shift.h"
#include "schedplot/base/alloc.h"
#include "schedplot/base/error.h"
#include "schedplot/cli/cli.h"
#include "schedplot/cli/compare.h"
#include "schedplot/cli/options.h"
#include "schedplot/cli/parallel.h"
#include "schedplot/cli/viewopts.h"
#include "schedplot/draw/output.h"
#include "schedplot/draw/theme.h"
#include "schedplot/model/trace.h"
#include "schedplot/views/compare.h"

#define COMPARE_DEFAULT_SEED	1
#define COMPARE_DEFAULT_ALPHA	0.05
#define COMPARE_DEFAULT_THRESHOLD 0.01	/* criterion's noise threshold */
#define SP_CMP_EXIT_CHANGED	3	/* --fail-on: a metric changed */
/* a square page: 900 px, or 720 pt (10 inches) as wide as the other views' PDF */
#define COMPARE_SIDE_PX		900
#define COMPARE_SIDE_PT		720

/* ---- the statistics ------------------------------------------------------ */

/*
 * criterion's rule: a significant change is one only when its whole
 * interval lies beyond the noise threshold, above +threshold or below
 * -threshold; else it is noise.  The interval is the shift's (the one
 * that goes with the Mann-Whitney test) over |median A|.  A median of A of
 * 0 has no relative interval and makes any other median of B a change
 * beyond every threshold.
 */
static enum sp_cmp_verdict verdict(const struct sp_cmp_metric *cm, double threshold)
{
	double d = cm->sum[1].median - cm->sum[0].median;
	int side;

	if (!cm->significant)
		return SP_CMP_SAME;
	if (cm->has_change_ci) {
		if (!(cm->change_lo > threshold) && !(cm->change_hi < -threshold))
			return SP_CMP_NOISE;
		d = cm->change_lo > threshold ? 1 : -1;
	} else if (d == 0 || (!isnan(cm->change) && fabs(cm->change) < threshold)) {
		return SP_CMP_NOISE;
	}
	side = (d > 0 ? 1 : -1) * cm->desc->worse;
	return side > 0 ? SP_CMP_WORSE : side < 0 ? SP_CMP_BETTER : SP_CMP_CHANGED;
}

/* The exit code of --fail-on: 3 when a metric changed as it names. */
static int fail_on_code(const struct sp_cmp *c)
{
	for (int k = 0; k < c->nr_metrics; k++) {
		enum sp_cmp_verdict v = c->metrics[k].verdict;

		if (v == SP_CMP_WORSE && c->o.fail_on != SP_CMP_FAIL_NEVER)
			return SP_CMP_EXIT_CHANGED;
		if ((v == SP_CMP_BETTER || v == SP_CMP_CHANGED) &&
		    c->o.fail_on == SP_CMP_FAIL_CHANGE)
			return SP_CMP_EXIT_CHANGED;
	}
	return SP_EXIT_OK;
}

static int compute(struct sp_cmp *c)
{
	const struct sp_cmp_opts *o = &c->o;
	double *x[2] = { NULL, NULL };
	int i, k, ret = SP_EXIT_OK, err;

	c->nr_metrics = o->values ? 1 : SP_CMP_NR_TRACE_METRICS;
	c->metrics = calloc(c->nr_metrics, sizeof(*c->metrics));
	if (!c->metrics)
		return sp_cli_fail(NULL, "out of memory");
	for (k = 0; k < c->nr_metrics; k++) {
		struct sp_cmp_metric *cm = &c->metrics[k];
		size_t n[2] = { 0, 0 };

		cm->desc = o->values ? &sp_cmp_value_metric : &sp_cmp_trace_metrics[k];
		for (i = 0; i < 2; i++) {
			const struct sp_cmp_group *g = &c->g[i];
			size_t total = 0;
			int r;

			for (r = 0; r < g->nr_runs; r++)
				total += o->values ? g->runs[r].nr_samples : 1;
			free(x[i]);
			x[i] = sp_alloc_array(total, sizeof(double));
			if (!x[i]) {
				ret = sp_cli_fail(NULL, "out of memory");
				goto out;
			}
			for (r = 0; r < g->nr_runs; r++) {
				const struct sp_cmp_run *run = &g->runs[r];

				if (o->values) {
					memcpy(x[i] + n[i], run->samples,
					       run->nr_samples * sizeof(double));
					n[i] += run->nr_samples;
				} else if (!isnan(run->m[k])) {
					x[i][n[i]++] = run->m[k];
				}
			}
		}
		if (!n[0] || !n[1]) {
			/* e.g. no wakeup latency in any run of a group */
			for (i = 0; i < 2; i++)
				if (!n[i])
					memset(&cm->sum[i], 0, sizeof(cm->sum[i]));
			cm->change = NAN;
			cm->mw.p = NAN;
			cm->mw.u_a = NAN;
			if (!n[0] && !n[1])
				continue;
		}
		for (i = 0; i < 2; i++) {
			if (!n[i])
				continue;
			err = sp_runs_summary_compute(&cm->sum[i], x[i], n[i]);
			if (err) {
				ret = sp_cli_fail_code(NULL, err, "cannot summarise the runs");
				goto out;
			}
		}
		if (!n[0] || !n[1])
			continue;
		err = sp_mannwhitney_test(&cm->mw, x[0], n[0], x[1], n[1], SP_MANNWHITNEY_AUTO);
		if (err) {
			ret = sp_cli_fail_code(NULL, err, "cannot test the groups");
			goto out;
		}
		cm->change = cm->sum[0].median != 0 ?
			(cm->sum[1].median - cm->sum[0].median) / fabs(cm->sum[0].median) : NAN;
		if (cm->sum[0].median == cm->sum[1].median)
			cm->change = 0;
		cm->significant = cm->mw.p <= o->alpha;
		/* the change's interval, at the test's level (E2BIG: too many pairs, none) */
		if (cm->sum[0].median != 0 &&
		    !sp_mannwhitney_shift_ci(x[0], n[0], x[1], n[1], 1 - o->alpha, &cm->change_lo,
					     &cm->change_hi)) {
			cm->change_lo /= fabs(cm->sum[0].median);
			cm->change_hi /= fabs(cm->sum[0].median);
			cm->has_change_ci = true;
		}
		err = sp_superiority_compute(&cm->sup, x[0], n[0], x[1], n[1],
					     SP_SUMMARY_CI_LEVEL);
		if (err) {
			ret = sp_cli_fail_code(NULL, err, "cannot estimate P(B > A)");
			goto out;
		}
		cm->has_sup = true;
		cm->verdict = verdict(cm, o->threshold);
	}
out:
	free(x[0]);
	free(x[1]);
	return ret;
}

/*
 * Where the two groups' CDFs of waits, each group's runs pooled, cross.
 * Each run's waits are sorted: the runs are walked in step, not pooled.
 */
static int compute_crossings(struct sp_cmp *c)
{
	const uint64_t **v[2] = { NULL, NULL };
	size_t *nr[2] = { NULL, NULL }, total;
	struct sp_sorted_runs runs[2];
	int i, r, n, ret = SP_EXIT_OK;

	if (c->o.values)
		return SP_EXIT_OK;
	for (i = 0; i < 2; i++) {
		v[i] = sp_alloc_array(c->g[i].nr_runs, sizeof(*v[i]));
		nr[i] = sp_alloc_array(c->g[i].nr_runs, sizeof(*nr[i]));
		if (!v[i] || !nr[i]) {
			ret = sp_cli_fail(NULL, "out of memory");
			goto out;
		}
		total = 0;
		for (r = 0; r < c->g[i].nr_runs; r++) {
			v[i][r] = c->g[i].runs[r].waits;
			nr[i][r] = c->g[i].runs[r].nr_waits;
			total += nr[i][r];
		}
		if (!total)
			goto out;
		runs[i] = (struct sp_sorted_runs){ v[i], nr[i], (size_t)c->g[i].nr_runs };
	}
	n = sp_cdf_crossings_runs(&runs[0], &runs[1], c->crossings);
	if (n < 0) {
		ret = sp_cli_fail(NULL, "out of memory");
		goto out;
	}
	c->nr_crossings = n;
	c->has_crossings = true;
out:
	for (i = 0; i < 2; i++) {
		free(v[i]);
		free(nr[i]);
	}
	return ret;
}

static int compute_shift(struct sp_cmp *c)
{
	const struct sp_cmp_opts *o = &c->o;
	struct sp_shift_run *runs[2] = { NULL, NULL };
	struct sp_shift_group sg[2];
	enum sp_shift_resample mode;
	int i, r, err, ret = SP_EXIT_OK;
	size_t total[2] = { 0, 0 };

	if (o->no_shift || (o->values && !o->shift))
		return SP_EXIT_OK;
	for (i = 0; i < 2; i++) {
		runs[i] = calloc(c->g[i].nr_runs, sizeof(*runs[i]));
		if (!runs[i]) {
			ret = sp_cli_fail(NULL, "out of memory");
			goto out;
		}
		sg[i].runs = runs[i];
		sg[i].nr_runs = 0;
		for (r = 0; r < c->g[i].nr_runs; r++) {
			const struct sp_cmp_run *run = &c->g[i].runs[r];

			if (!run->nr_samples)
				continue;
			runs[i][sg[i].nr_runs].v = run->samples;
			runs[i][sg[i].nr_runs++].nr = run->nr_samples;
			total[i] += run->nr_samples;
		}
	}
	if (!total[0] || !total[1]) {
		sp_cli_warn("no shift function: group '%s' has no wakeup latencies",
			    c->g[total[0] ? 1 : 0].name);
		goto out;
	}
	/*
	 * Traces: whole runs are resampled, as the variation between runs is
	 * what a change must stand out from; with fewer than
	 * SP_SHIFT_MIN_RUNS a group, the deciles are estimated only.
	 */
	mode = o->values ? SP_SHIFT_VALUES : SP_SHIFT_RUNS;
	err = sp_shift_compute(&c->shift, &sg[0], &sg[1], mode, SP_SHIFT_NR_BOOT, o->seed);
	if (err) {
		ret = sp_cli_fail_code(NULL, err, "cannot compute the shift function");
		goto out;
	}
	c->has_shift = true;
out:
	free(runs[0]);
	free(runs[1]);
	return ret;
}

/* ---- the command line ---------------------------------------------------- */

/* The name of a group from its files: their common start, less digits and separators. */
static char *default_name(char **files, int nr)
{
	const char *first = sp_cli_base_name(files[0]);
	size_t len = strlen(first), j;
	char *dot, *name;
	int i;

	dot = strrchr(first, '.');
	if (dot && dot != first)
		len = dot - first;
	if (nr > 1) {
		for (i = 1; i < nr; i++) {
			const char *b = sp_cli_base_name(files[i]);

			for (j = 0; j < len && b[j] == first[j]; j++)
				;
			len = j;
		}
		while (len && strchr("0123456789-_.", first[len - 1]))
			len--;
	}
	name = strndup(first, len);
	return name;
}

static int parse_double(const char *name, const char *arg, double lo, double hi, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (end == arg || *end || errno || !(v >= lo && v <= hi))
		return sp_cli_usage("compare", "--%s needs a number from %g to %g, not '%s'", name,
				    lo, hi, arg);
	*out = v;
	return -1;
}

/* "1%" or a fraction below 1 ("0.01"); "1" alone is refused as ambiguous */
static int parse_threshold(const char *arg, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (end != arg && !errno && !strcmp(end, "%") && v >= 0 && v < 100) {
		*out = v / 100;
		return -1;
	}
	if (end != arg && !errno && !*end && v >= 0 && v < 1) {
		*out = v;
		return -1;
	}
	return sp_cli_usage("compare", "--threshold needs a share such as 1%% or 0.01, "
			    "not '%s'", arg);
}

static const char *const compare_views[] = {
	[SP_COMPARE_VIEW_RUNS] = "runs",
	[SP_COMPARE_VIEW_CDF] = "cdf",
	[SP_COMPARE_VIEW_SHIFT] = "shift",
	[SP_COMPARE_VIEW_RIDGELINE] = "ridgeline",
	[SP_COMPARE_VIEW_DATAGRAPH] = "datagraph",
	[SP_COMPARE_VIEW_RUNNING_WAITING] = "running-waiting",
};

/* the view named @name, or -1 */
static int parse_view(const char *name)
{
	for (size_t i = 0; i < sizeof(compare_views) / sizeof(*compare_views); i++)
		if (compare_views[i] && !strcmp(compare_views[i], name))
			return (int)i;
	return -1;
}

/* compare's own options, handed to compare_parse() */
enum {
	OPT_VS = SP_VOPT_IDLE + 1,
	OPT_NAMES,
	OPT_ALPHA,
	OPT_VALUES,
	OPT_COLUMN,
	OPT_SHIFT,
	OPT_NO_SHIFT,
	OPT_SEED,
	OPT_METRIC,
	OPT_VIEW,
	OPT_THRESHOLD,
	OPT_FAIL_ON,
	OPT_SKIP_WARMUP,
};

/* What the parse hook fills: the options, and the group the files go to. */
struct compare_parse_state {
	struct sp_cmp_opts *o;
	int group;		/* 1 after --vs */
};

static int parse_skip_warmup(struct sp_cmp_opts *o, const char *arg)
{
	double sec;

	if (!strcmp(arg, "auto")) {
		o->skip_warmup = SP_CMP_SKIP_AUTO;
		return 0;
	}
	if (!sp_cli_parse_seconds(arg, &sec) && sec >= 0 && sec < 1e9) {
		o->skip_warmup = sec > 0 ? SP_CMP_SKIP_TIME : SP_CMP_SKIP_NONE;
		o->skip_ns = (uint64_t)llround(sec * 1e9);
		return 0;
	}
	return sp_cli_usage("compare", "--skip-warmup: auto or a time such as 0.2 or 200ms, "
			    "not '%s'", arg);
}

/* An own option of compare, or (key 1) a file of the group being filled. */
static int compare_parse(struct sp_opts_ctx *ctx, int opt, const char *arg)
{
	struct compare_parse_state *st = ctx->own;
	struct sp_cmp_opts *o = st->o;
	char *end;
	int ret;

	switch (opt) {
	case 1:
		o->files[st->group][o->nr_files[st->group]++] = (char *)arg;
		return 0;
	case OPT_VS:
		if (st->group)
			return sp_cli_usage("compare", "--vs given twice (two groups only)");
		st->group = 1;
		return 0;
	case OPT_NAMES:
		o->names_arg = arg;
		return 0;
	case OPT_ALPHA:
		ret = parse_double("alpha", arg, 1e-9, 0.5, &o->alpha);
		return ret < 0 ? 0 : ret;
	case OPT_THRESHOLD:
		ret = parse_threshold(arg, &o->threshold);
		return ret < 0 ? 0 : ret;
	case OPT_FAIL_ON:
		if (!strcmp(arg, "regression"))
			o->fail_on = SP_CMP_FAIL_REGRESSION;
		else if (!strcmp(arg, "change"))
			o->fail_on = SP_CMP_FAIL_CHANGE;
		else
			return sp_cli_usage("compare", "--fail-on: regression or change, not '%s'",
					    arg);
		return 0;
	case OPT_SKIP_WARMUP:
		return parse_skip_warmup(o, arg);
	case OPT_VALUES:
		o->values = true;
		return 0;
	case OPT_COLUMN:
		o->column = arg;
		return 0;
	case OPT_SHIFT:
	case OPT_NO_SHIFT:
		o->shift = opt == OPT_SHIFT;
		o->no_shift = opt == OPT_NO_SHIFT;
		return 0;
	case OPT_SEED:
		errno = 0;
		o->seed = strtoull(arg, &end, 0);
		if (end == arg || *end || errno || *arg == '-')
			return sp_cli_usage("compare", "--seed needs a number, not '%s'", arg);
		return 0;
	case OPT_METRIC:
		o->metric = arg;
		return 0;
	default:
		o->view = parse_view(arg);
		if (o->view < 0)
			return sp_cli_usage("compare", "--view: runs, cdf, shift, ridgeline, "
					    "datagraph or running-waiting, not '%s'", arg);
		return 0;
	}
}

/* The shared options, but the image's sides: a square page needs room for three panels. */
static int compare_shared(struct sp_opts_ctx *ctx, int opt, const char *arg)
{
	struct sp_view_opts *v = ctx->view;
	int ret;

	if (opt != SP_VOPT_WIDTH && opt != SP_VOPT_HEIGHT)
		return sp_view_opts_option(ctx, opt, arg);
	ret = parse_double(opt == SP_VOPT_WIDTH ? "width" : "height", arg, 300,
			   SP_OUTPUT_MAX_PX, opt == SP_VOPT_WIDTH ? &v->width : &v->height);
	return ret < 0 ? 0 : ret;
}

static const struct sp_opt compare_options[] = {
	{ "vs", OPT_VS, no_argument, NULL, "Groups",
	  "the files after it form the second group" },
	{ "names", OPT_NAMES, required_argument, "A,B", "Groups",
	  "the groups' names (default: from the file names)" },
	{ "values", OPT_VALUES, no_argument, NULL, "Groups",
	  "the inputs are text files of numbers, one per line" },
	{ "column", OPT_COLUMN, required_argument, "NAME", "Groups",
	  "with --values: the column NAME of CSV files" },
	{ "alpha", OPT_ALPHA, required_argument, "X", "Test",
	  "significance level of the test: p <= X (default 0.05)" },
	{ "threshold", OPT_THRESHOLD, required_argument, "P", "Test",
	  "a significant change is noise unless its interval lies wholly beyond +-P (1% or "
	  "0.01; default 1%, criterion's rule)" },
	{ "fail-on", OPT_FAIL_ON, required_argument, "WHAT", "Test",
	  "exit 3 when a metric changed beyond the threshold: regression (on its bad side) "
	  "or change (either)" },
	{ "skip-warmup", OPT_SKIP_WARMUP, required_argument, "auto|TIME", "Test",
	  "count each run's numbers from where it settled (auto) or from TIME (0.2, 200ms) "
	  "into it" },
	{ "shift", OPT_SHIFT, no_argument, NULL, "Test",
	  "with --values: the shift function of the values too" },
	{ "no-shift", OPT_NO_SHIFT, no_argument, NULL, "Test",
	  "no shift function (its bootstrap takes seconds per 100000 waits)" },
	{ "seed", OPT_SEED, required_argument, "N", "Test",
	  "seed of the bootstrap (default 1)" },
	{ "metric", OPT_METRIC, required_argument, "NAME", "Output",
	  "the metric of the runs plot (default duration)" },
	{ "view", OPT_VIEW, required_argument, "VIEW", "Output",
	  "runs, cdf, shift, ridgeline, datagraph or running-waiting alone (default: a page "
	  "of runs, CDF and shift function)" },
	SP_OPT_WORDS("output", "draw the runs, the wait distributions (where they cross dashed) "
		     "and the shift function (PNG, PDF, SVG; '-': standard output)"),
	SP_OPT_WORDS("json", "print one JSON object instead of the table"),
	SP_OPT_SHARED("format"),
	SP_OPT_WORDS("width", "image width (default 900 px; 720 pt for PDF, SVG)"),
	SP_OPT_WORDS("height", "image height (default as the width)"),
	SP_OPT_WORDS("title", "image title"),
	SP_OPT_WORDS("aggregate", "the datagraph panels' cells: share (default) or longest, as "
		     "in schedplot-datagraph(1)"),
	SP_OPT_WORDS("colors", "the datagraph panels take the colors of the commands FILE names "
		     "(datagraph --color-by command --colors-out FILE)"),
	SP_OPT_WORDS("target", "a run's duration spans the tasks named COMM (glob) or of thread "
		     "id PID (repeat or separate with commas), not the complete window"),
	SP_OPT_SHARED("target-process"), SP_OPT_SHARED("target-tree"),
	SP_OPT_SHARED("jobs"),
	SP_OPT_WORDS("verbose", "explain repairs and oddities"),
	{ }
};

const struct sp_cmd_opts sp_cmd_compare_opts = {
	SP_CMD_NAMED(compare, "compare",
		     "did a change make a difference? two groups of runs, tested"),
	.synopsis = "[OPTIONS] A1.dat A2.dat ... --vs B1.dat B2.dat ...\n"
		    "[OPTIONS] --values A.txt --vs B.txt",
	.description =
	"Did the change make a difference?  Reduce each run (trace) of two groups to\n"
	"a few numbers, summarise each group (median with a 95% interval, mean, sd,\n"
	"CV) and test the groups against each other (two-sided Mann-Whitney U).\n"
	"\n"
	"Examples:\n"
	"  schedplot compare b1.dat b2.dat b3.dat --vs a1.dat a2.dat a3.dat\n"
	"  schedplot compare --names before,after b*.dat --vs a*.dat -o cmp.png\n"
	"  schedplot compare --json b*.dat --vs a*.dat\n"
	"  schedplot compare --values before.txt --vs after.txt\n"
	"\n",
	.footer =
	"Metrics: duration, running_avg, waiting_avg, idle_while_waiting,\n"
	"lost_fraction, wakeup_p50, wakeup_p99, migrations_per_s.\n"
	"See schedplot-compare(1) for their exact meaning.\n",
	.parse = compare_parse,
	.in_order = true,
};

static int parse_args(struct sp_cmp_opts *o, int argc, char **argv)
{
	struct compare_parse_state st = { .o = o };
	int ret, i, group;

	o->alpha = COMPARE_DEFAULT_ALPHA;
	o->threshold = COMPARE_DEFAULT_THRESHOLD;
	o->seed = COMPARE_DEFAULT_SEED;
	for (i = 0; i < 2; i++) {
		o->files[i] = calloc(argc + 1, sizeof(char *));
		if (!o->files[i])
			return sp_cli_fail(NULL, "out of memory");
	}
	sp_view_opts_init(&o->shared, "compare");
	/* in order: the files come back as key 1, so --vs splits them */
	ret = sp_opts_parse(&sp_cmd_compare_opts, argc, argv, &o->shared, &st, compare_shared);
	if (ret >= 0)
		return ret;
	group = st.group;
	/* after "--", the rest are files of the group then being filled */
	for (; optind < argc; optind++)
		o->files[group][o->nr_files[group]++] = argv[optind];
	if (!o->nr_files[0] && !o->nr_files[1])
		return sp_cli_usage("compare", "no files given (A.dat ... --vs B.dat ...)");
	if (!group)
		return sp_cli_usage("compare", "no --vs: give the second group after --vs");
	if (!o->nr_files[0])
		return sp_cli_usage("compare", "the first group is empty (no file before --vs)");
	if (!o->nr_files[1])
		return sp_cli_usage("compare", "the second group is empty (no file after --vs)");
	if (o->values && sp_view_opts_has_targets(&o->shared))
		return sp_cli_usage("compare", "--target%s is for traces, not with --values",
				    o->shared.nr_targets ? "" : "-process");
	if (o->values && o->skip_warmup != SP_CMP_SKIP_NONE)
		return sp_cli_usage("compare", "--skip-warmup is for traces, not with --values");
	if (!o->values && (o->column || o->shift))
		return sp_cli_usage("compare", "--%s needs --values",
				    o->column ? "column" : "shift");
	if (o->values && (o->nr_files[0] > 1 || o->nr_files[1] > 1))
		return sp_cli_usage("compare", "--values takes one file per group");
	if (o->metric) {
		bool found = false;

		if (o->values)
			found = !strcmp(o->metric, "value");
		for (i = 0; !o->values && i < SP_CMP_NR_TRACE_METRICS; i++)
			found |= !strcmp(o->metric, sp_cmp_trace_metrics[i].name);
		if (!found)
			return sp_cli_usage("compare", "--metric: no metric '%s' (see --help)",
					    o->metric);
	}
	if (o->shared.output) {
		ret = sp_cli_output_format("compare", o->shared.output, &o->shared.format);
		if (ret)
			return ret;
	} else if (o->shared.format || o->metric || o->view || o->shared.width || o->shared.height || o->shared.title) {
		return sp_cli_usage("compare", "--format, --metric, --view, --width, --height and "
				    "--title are for the image: give -o FILE");
	}
	if (o->shared.colors_in) {
		struct sp_error err = { 0 };

		if (sp_color_map_load(&o->shared.colors, o->shared.colors_in, &err)) {
			sp_cli_error(o->shared.colors_in, &err);
			return SP_EXIT_FAILURE;
		}
	}
	if (o->values && o->view != SP_COMPARE_VIEW_PAGE && o->view != SP_COMPARE_VIEW_RUNS &&
	    o->view != SP_COMPARE_VIEW_SHIFT)
		return sp_cli_usage("compare", "--view %s draws traces, not --values",
				    compare_views[o->view]);
	if (o->view == SP_COMPARE_VIEW_SHIFT && (o->no_shift || (o->values && !o->shift)))
		return sp_cli_usage("compare", "--view shift needs the shift function (%s)",
				    o->no_shift ? "not --no-shift" : "--values --shift");
	if (o->shared.output && !strcmp(o->shared.output, "-") && o->shared.json)
		return sp_cli_usage("compare", "-o - and --json both want standard output");
	for (i = 0; i < 2; i++) {
		o->names[i] = default_name(o->files[i], o->nr_files[i]);
		if (!o->names[i])
			return sp_cli_fail(NULL, "out of memory");
	}
	if (o->names_arg) {
		const char *comma = strchr(o->names_arg, ',');

		if (!comma || comma == o->names_arg || !comma[1] || strchr(comma + 1, ','))
			return sp_cli_usage("compare", "--names needs two names: A,B, not '%s'",
					    o->names_arg);
		free(o->names[0]);
		free(o->names[1]);
		o->names[0] = strndup(o->names_arg, comma - o->names_arg);
		o->names[1] = strdup(comma + 1);
		if (!o->names[0] || !o->names[1])
			return sp_cli_fail(NULL, "out of memory");
	} else if (!*o->names[0] || !*o->names[1] || !strcmp(o->names[0], o->names[1])) {
		free(o->names[0]);
		free(o->names[1]);
		o->names[0] = strdup("A");
		o->names[1] = strdup("B");
		if (!o->names[0] || !o->names[1])
			return sp_cli_fail(NULL, "out of memory");
	}
	return -1;
}

static double default_side(const struct sp_cmp_opts *o)
{
	return o->shared.format == SP_FORMAT_PNG ? COMPARE_SIDE_PX : COMPARE_SIDE_PT;
}

/*
 * The output can be written and is not one of the inputs,
 * checked before any reading, with the names of the inputs in the message.
 */
static int check_output(const struct sp_cmp_opts *o)
{
	struct sp_output probe;
	struct stat out, in;
	bool exists;
	int i, r;

	if (!o->shared.output)
		return SP_EXIT_OK;
	if (!strcmp(o->shared.output, "-"))
		exists = !fstat(STDOUT_FILENO, &out) && S_ISREG(out.st_mode);
	else
		exists = !stat(o->shared.output, &out);
	for (i = 0; exists && i < 2; i++)
		for (r = 0; r < o->nr_files[i]; r++)
			if (!stat(o->files[i][r], &in) && in.st_dev == out.st_dev &&
			    in.st_ino == out.st_ino) {
				fprintf(stderr, "schedplot: %s: refusing to write the image over "
					"the input file '%s' (choose another output name)\n",
					o->shared.output, o->files[i][r]);
				return SP_EXIT_USAGE;
			}
	/* a wrong directory fails now, not after the passes */
	sp_output_init(&probe);
	return sp_cli_probe_output(&probe, o->shared.output, o->shared.format,
				   o->shared.width ? o->shared.width : default_side(o));
}

static void compare_release(struct sp_cmp *c)
{
	int i, r;

	for (i = 0; i < 2; i++) {
		for (r = 0; c->g[i].runs && r < c->g[i].nr_runs; r++) {
			free(c->g[i].runs[r].samples);
			free(c->g[i].runs[r].waits);
			free(c->g[i].runs[r].noise);
			free(c->g[i].runs[r].target_cpus);
		}
		free(c->g[i].runs);
		free(c->o.files[i]);
		free(c->o.names[i]);
	}
	sp_view_opts_release(&c->o.shared);
	free(c->metrics);
	sp_cmp_graphs_release(&c->graphs);
}

/* Job @i of --values: the file of run @i of the first group, then of the second. */
static int load_values_one(void *data, int i)
{
	struct sp_cmp *c = data;

	return sp_cmp_load_values(&c->o, sp_cmp_run_at(c, i));
}

/* The files of numbers: independent, read on the CPUs there are, the largest first. */
static int load_values(struct sp_cmp *c)
{
	int i, ret, nr = c->o.nr_files[0] + c->o.nr_files[1];
	const char **files = calloc(nr, sizeof(*files));

	if (!files)
		return sp_cli_fail(NULL, "out of memory");
	for (i = 0; i < nr; i++)
		files[i] = sp_cmp_run_at(c, i)->file;
	ret = sp_parallel_files(nr, load_values_one, c, files);
	free(files);
	return ret;
}

/* The columns of every run's chart (--view datagraph or running-waiting) on @out, else 0. */
static size_t chart_columns(const struct sp_cmp *c, const struct sp_output *out)
{
	struct sp_theme theme;

	if (c->o.view == SP_COMPARE_VIEW_DATAGRAPH)
		return sp_datagraph_format_columns(c->o.shared.format, out->width);
	if (c->o.view != SP_COMPARE_VIEW_RUNNING_WAITING)
		return 0;
	sp_theme_init(&theme, 0);
	return sp_compare_graphs_cols(out->cr, &theme, c->o.shared.format == SP_FORMAT_PNG,
				      out->width);
}

/* Every run: the traces' passes (with the charts, on @out) or the files of numbers. */
static int load_groups(struct sp_cmp *c, const struct sp_output *out)
{
	const struct sp_cmp_opts *o = &c->o;
	int i, r, ret;

	for (i = 0; i < 2; i++) {
		c->g[i].name = o->names[i];
		c->g[i].runs = calloc(o->nr_files[i], sizeof(*c->g[i].runs));
		if (!c->g[i].runs)
			return sp_cli_fail(NULL, "out of memory");
		c->g[i].nr_runs = o->nr_files[i];
		for (r = 0; r < o->nr_files[i]; r++)
			c->g[i].runs[r].file = o->files[i][r];
	}
	if (o->values)
		return load_values(c);
	ret = sp_cmp_load_traces(c, chart_columns(c, out));
	if (ret)
		return ret;
	/* different machines can be compared, but the numbers then mean less */
	for (i = 0; i < 2; i++)
		for (r = 0; r < c->g[i].nr_runs; r++)
			if (c->g[i].runs[r].nr_cpus != c->g[0].runs[0].nr_cpus && !sp_cli.quiet) {
				fprintf(stderr, "schedplot: note: %s has %d CPUs, %s has %d: the "
					"runs come from different machines or settings\n",
					c->g[0].runs[0].file, c->g[0].runs[0].nr_cpus,
					c->g[i].runs[r].file, c->g[i].runs[r].nr_cpus);
				return SP_EXIT_OK;
			}
	return SP_EXIT_OK;
}

/*
 * The checks of the samples go above the table; where no table is
 * printed (--json, the image on standard output) they are warnings.
 */
static void warn_checks(const struct sp_cmp *c)
{
	for (int k = 0; k < c->nr_checks; k++)
		sp_cli_warn("%s: %s", sp_cmp_check_key(c->checks[k].kind), c->checks[k].text);
}

/* How a metric is shown on the runs plot's axis: a scale and a title. */
static double axis_scale(const struct sp_cmp_metric_desc *d, char *title, size_t len)
{
	switch (d->unit) {
	case SP_CMP_U_SECONDS:
		snprintf(title, len, "%s (s)", d->name);
		return 1;
	case SP_CMP_U_FRACTION:
		snprintf(title, len, "%s (%%)", d->name);
		return 100;
	case SP_CMP_U_NS:
		snprintf(title, len, "%s (µs)", d->name);
		return 1e-3;
	default:
		snprintf(title, len, "%s", d->name);
		return 1;
	}
}

/*
 * Open the image (-o) before the passes, the inputs protected: the charts
 * of --view running-waiting measure their columns on it.
 */
static int open_figure(const struct sp_cmp *c, struct sp_output *out)
{
	const struct sp_cmp_opts *o = &c->o;
	struct sp_error err = { 0 };
	int i, r;

	if (!o->shared.output)
		return SP_EXIT_OK;
	for (i = 0; i < 2; i++)
		for (r = 0; r < o->nr_files[i]; r++)
			if (sp_output_protect(out, o->files[i][r]))
				return sp_cli_fail(NULL, "out of memory");
	if (sp_output_open(out, o->shared.output, o->shared.format,
			   o->shared.width ? o->shared.width : default_side(o),
			   o->shared.height ? o->shared.height : default_side(o), &err))
		return sp_cli_output_error(o->shared.output, &err);
	return SP_EXIT_OK;
}

/* Draw the figure on @out and commit it; nothing is left behind on failure. */
static int draw_figure(struct sp_cmp *c, struct sp_output *out)
{
	const struct sp_cmp_opts *o = &c->o;
	const struct sp_cmp_graphs *graphs = &c->graphs;
	struct sp_compare_figure fig = { 0 };
	struct sp_compare_runs rg[2];
	struct sp_error err = { 0 };
	uint64_t *warmup = NULL;
	struct sp_theme theme;
	char y_title[64];
	int i, r, k = 0, ret = SP_EXIT_OK, code;
	double scale;
	size_t j;

	if (o->metric)
		for (k = 0; k < c->nr_metrics - 1; k++)
			if (!strcmp(c->metrics[k].desc->name, o->metric))
				break;
	scale = axis_scale(c->metrics[k].desc, y_title, sizeof(y_title));
	memset(rg, 0, sizeof(rg));
	for (i = 0; i < 2; i++) {
		const struct sp_cmp_group *g = &c->g[i];
		size_t nr = o->values ? g->runs[0].nr_samples : (size_t)g->nr_runs;

		rg[i].name = g->name;
		rg[i].nr_runs = nr;
		rg[i].values = calloc(nr ? nr : 1, sizeof(double));
		rg[i].waits = calloc(g->nr_runs, sizeof(*rg[i].waits));
		rg[i].nr_waits = calloc(g->nr_runs, sizeof(*rg[i].nr_waits));
		rg[i].labels = calloc(g->nr_runs, sizeof(*rg[i].labels));
		if (!rg[i].values || !rg[i].waits || !rg[i].nr_waits || !rg[i].labels) {
			ret = sp_cli_fail(NULL, "out of memory");
			goto out;
		}
		for (j = 0; j < nr; j++)
			rg[i].values[j] = scale * (o->values ? g->runs[0].samples[j] :
						   g->runs[j].m[k]);
		for (r = 0; !o->values && r < g->nr_runs; r++) {
			rg[i].waits[r] = g->runs[r].waits;
			rg[i].nr_waits[r] = g->runs[r].nr_waits;
			rg[i].labels[r] = strrchr(g->runs[r].file, '/') ?
					  strrchr(g->runs[r].file, '/') + 1 : g->runs[r].file;
		}
		rg[i].nr_waits_runs = o->values ? 0 : g->nr_runs;
		rg[i].median = c->metrics[k].sum[i].nr ? scale * c->metrics[k].sum[i].median : NAN;
		rg[i].cv = c->metrics[k].sum[i].nr ? c->metrics[k].sum[i].cv : NAN;
		rg[i].ci_lo = c->metrics[k].sum[i].has_ci ? scale * c->metrics[k].sum[i].ci_lo : NAN;
		rg[i].ci_hi = c->metrics[k].sum[i].has_ci ? scale * c->metrics[k].sum[i].ci_hi : NAN;
	}
	fig.view = o->view;
	fig.title = o->shared.title;
	fig.y_title = y_title;
	fig.groups = rg;
	fig.shift = c->has_shift ? &c->shift : NULL;
	fig.shift_scale = 1;
	fig.shift_title = "difference";
	/* ns: the panel labels its signed log axis in time units itself */
	fig.shift_ns = !o->values;
	fig.crossings = c->has_crossings ? c->crossings : NULL;
	fig.nr_crossings = c->has_crossings ? c->nr_crossings : 0;
	if (fig.shift_ns)
		fig.shift_title = "difference";
	fig.pixels = o->shared.format == SP_FORMAT_PNG;

	sp_theme_init(&theme, 0);
	if (graphs->nr) {
		fig.graphs = graphs->dg;
		fig.envelopes = graphs->env;
		if (graphs->rw) {
			warmup = calloc(graphs->nr, sizeof(*warmup));
			if (!warmup) {
				ret = sp_cli_fail(NULL, "out of memory");
				goto out;
			}
			for (j = 0; j < graphs->nr; j++) {
				const struct sp_cmp_run *run = sp_cmp_run_at(c, (int)j);

				/* what is skipped is not drawn as settling later */
				warmup[j] = run->skipped_ns ? run->skipped_ns : run->warmup_ns;
			}
			fig.warmup_ns = warmup;
		}
		fig.graph_labels = graphs->labels;
		fig.nr_graphs = graphs->nr;
	}
	code = sp_compare_figure_draw(out->cr, &theme, &fig, out->width, out->height);
	if (code) {
		ret = code == -ERANGE ?
			sp_cli_fail(o->shared.output, "the image is too small for its labels "
				    "(try a larger --width/--height)") :
			sp_cli_fail_code(o->shared.output, code, "cannot draw the figure");
		goto out;
	}
	if (sp_output_close(out, true, &err))
		ret = sp_cli_output_error(o->shared.output, &err);
out:
	for (i = 0; i < 2; i++) {
		free(rg[i].values);
		free(rg[i].waits);
		free(rg[i].nr_waits);
		free(rg[i].labels);
	}
	free(warmup);
	return ret;
}

int sp_cmd_compare(int argc, char **argv)
{
	struct sp_output out;
	struct sp_cmp c;
	bool to_stdout;
	int ret;

	memset(&c, 0, sizeof(c));
	sp_output_init(&out);
	ret = parse_args(&c.o, argc, argv);
	if (ret >= 0)
		goto out;
	ret = check_output(&c.o);
	if (!ret)
		ret = open_figure(&c, &out);
	if (ret)
		goto out;
	ret = load_groups(&c, &out);
	if (ret)
		goto out;
	ret = compute(&c);
	if (ret)
		goto out;
	ret = compute_shift(&c);
	if (ret)
		goto out;
	ret = compute_crossings(&c);
	if (ret)
		goto out;
	sp_cmp_checks(&c);
	if (c.o.shared.output) {
		ret = draw_figure(&c, &out);
		if (ret)
			goto out;
	}
	to_stdout = c.o.shared.output && !strcmp(c.o.shared.output, "-");
	if (c.o.shared.json || to_stdout)
		warn_checks(&c);
	if (c.o.shared.json)
		sp_cmp_print_json(&c);
	else if (!to_stdout)
		sp_cmp_print_text(&c);
	if (fflush(stdout) || ferror(stdout))
		ret = sp_cli_fail(NULL, "cannot write the output");
	else
		ret = fail_on_code(&c);
out:
	sp_output_release(&out);
	compare_release(&c);
	return ret;
}
