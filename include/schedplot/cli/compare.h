/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_CLI_COMPARE_H
#define SP_CLI_COMPARE_H

/*
 * schedplot compare, split by concern: the command line and the
 * statistics (cmd-compare.c), reading the runs (compare-runs.c: each trace
 * in one pass of the driver's, driver.h) and their charts
 * (compare-graphs.c), the checks of the samples (compare-checks.c) and
 * printing the table or JSON (compare-print.c).  Private to those files.
 */
#include "schedplot/draw/colormap.h"
#include "schedplot/model/timeline.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "schedplot/analysis/collect.h"
#include "schedplot/analysis/compare.h"
#include "schedplot/analysis/crossings.h"
#include "schedplot/analysis/mannwhitney.h"
#include "schedplot/analysis/shift.h"
#include "schedplot/analysis/superiority.h"
#include "schedplot/cli/viewopts.h"
#include "schedplot/draw/output.h"
#include "schedplot/model/timeline.h"
#include "schedplot/model/trace.h"
#include "schedplot/views/datagraph.h"

/* What each run of a trace is reduced to. */
enum sp_cmp_metric_id {
	SP_CMP_DURATION,
	SP_CMP_RUNNING_AVG,
	SP_CMP_WAITING_AVG,
	SP_CMP_IDLE_WAITING,
	SP_CMP_LOST,
	SP_CMP_WAKEUP_P50,
	SP_CMP_WAKEUP_P99,
	SP_CMP_MIGRATIONS,
	SP_CMP_NR_TRACE_METRICS,
	SP_CMP_VALUE = 0,		/* --values: the one metric */
};

enum sp_cmp_unit {
	SP_CMP_U_SECONDS,
	SP_CMP_U_TASKS,
	SP_CMP_U_FRACTION,
	SP_CMP_U_NS,
	SP_CMP_U_PER_SECOND,
	SP_CMP_U_PLAIN,
};

struct sp_cmp_metric_desc {
	const char *name;	/* --metric, the table */
	const char *key;	/* the JSON key of a run */
	enum sp_cmp_unit unit;
	int worse;		/* +1: higher is worse, -1: lower is, 0: neither */
};

/* What became of a metric, as --fail-on reads it. */
enum sp_cmp_verdict {
	SP_CMP_UNTESTED,	/* a group has no value */
	SP_CMP_SAME,		/* p > alpha: no difference shown */
	SP_CMP_NOISE,		/* p <= alpha, the change's interval not beyond --threshold */
	SP_CMP_WORSE,		/* beyond the threshold on the metric's bad side */
	SP_CMP_BETTER,		/* beyond it on the other side */
	SP_CMP_CHANGED,		/* beyond it, on a metric without a bad side */
};

/* What --fail-on fails on. */
enum sp_cmp_fail_on {
	SP_CMP_FAIL_NEVER,
	SP_CMP_FAIL_REGRESSION,
	SP_CMP_FAIL_CHANGE,
};

/* The metrics of a run of a trace, and the one of --values. */
extern const struct sp_cmp_metric_desc sp_cmp_trace_metrics[SP_CMP_NR_TRACE_METRICS];
extern const struct sp_cmp_metric_desc sp_cmp_value_metric;

/* --skip-warmup */
enum sp_cmp_skip {
	SP_CMP_SKIP_NONE,
	SP_CMP_SKIP_AUTO,	/* each run from where it settled */
	SP_CMP_SKIP_TIME,	/* each run from skip_ns into its window */
};

/* The command line. */
struct sp_cmp_opts {
	char **files[2];
	int nr_files[2];
	const char *names_arg;
	char *names[2];
	double alpha;
	double threshold;		/* --threshold: a smaller change is noise */
	enum sp_cmp_fail_on fail_on;	/* --fail-on */
	enum sp_cmp_skip skip_warmup;	/* --skip-warmup */
	uint64_t skip_ns;
	bool values;
	const char *column;
	bool shift;
	bool no_shift;
	uint64_t seed;
	const char *metric;
	int view;		/* enum sp_compare_view */
	/* the shared options of the one table (options.h): the targets
	 * (sp_view_opts_target()), -o, --json, the image's format, sides, title,
	 * --aggregate and --colors (read into shared.colors) */
	struct sp_view_opts shared;
};

/* What took time on the targets' CPUs besides them. */
enum sp_cmp_noise_kind {
	SP_CMP_NOISE_TASK,	/* another command */
	SP_CMP_NOISE_IRQ,	/* a hard interrupt handler (irq:irq_handler_entry's name) */
	SP_CMP_NOISE_SOFTIRQ,	/* a softirq vector (irq:softirq_entry's, as "BLOCK") */
};

/*
 * With --target: the time of one source on one CPU the targets ran on,
 * while they ran (from the first moment one was current to the last).
 */
struct sp_cmp_noise {
	enum sp_cmp_noise_kind kind;
	char name[32];		/* the command, the handler or the vector */
	int cpu;
	uint64_t ns;
};

/* One run: a trace, or with --values a whole file. */
struct sp_cmp_run {
	const char *file;
	double m[SP_CMP_NR_TRACE_METRICS];
	int nr_cpus;
	uint64_t window_ns;	/* traces: the complete window's length */
	double *samples;	/* the shift's values: wakeup latencies in ns, or the numbers */
	size_t nr_samples;
	uint64_t *waits;	/* traces: the wakeup latencies, sorted (the CDF) */
	size_t nr_waits;
	uint64_t lost_events;	/* traces: over all CPUs, at least this many */
	bool lost_exact;	/* the kernel gave every gap's size */
	uint64_t repairs;	/* missed switches and other repairs of the model */
	uint64_t censored_waits;	/* waits still open at the end: no sample */
	uint64_t contradicted_waits;	/* waits whose CPU ran its idle task meanwhile */
	bool has_warmup;	/* traces: the warm-up was looked for */
	uint64_t warmup_ns;	/* where the run settled, from its window's start */
	int warmup_by;		/* enum sp_warmup_series: what settled last */
	uint64_t skipped_ns;	/* --skip-warmup: the numbers count from here */
	uint64_t targets_ns[2];	/* --target: from the first moment one was current to the last */
	int *target_cpus;	/* --target: the CPUs they ran on, in order */
	size_t nr_target_cpus;
	bool has_noise;		/* --target: the noise below was gathered */
	struct sp_cmp_noise *noise;	/* other tasks and interrupts on the targets' CPUs */
	size_t nr_noise;
	bool has_irq;		/* the trace has irq (or softirq) entry and exit events */
	bool has_freq;		/* a frequency was known on the targets' CPUs while they ran */
	double freq_mean_khz;	/* time-weighted over those CPUs and that time */
	double freq_spread;	/* the time-weighted standard deviation / the mean */
};

/* What the checks of the samples found. */
enum sp_cmp_check_kind {
	SP_CMP_CHECK_FEW_RUNS,
	SP_CMP_CHECK_LOST,
	SP_CMP_CHECK_REPAIRS,
	SP_CMP_CHECK_CENSORED,
	SP_CMP_CHECK_CONTRADICTED,
	SP_CMP_CHECK_CV,
	SP_CMP_CHECK_WARMUP,
	SP_CMP_CHECK_NOISE,
	SP_CMP_NR_CHECK_KINDS,
};

/* Above this coefficient of variation a group's runs are called unstable. */
#define SP_CMP_MAX_CV	0.10

struct sp_cmp_check {
	enum sp_cmp_check_kind kind;
	char text[1024];	/* one line, no final newline */
};

struct sp_cmp_group {
	const char *name;
	struct sp_cmp_run *runs;
	int nr_runs;
};

struct sp_cmp_metric {
	const struct sp_cmp_metric_desc *desc;
	struct sp_runs_summary sum[2];
	struct sp_mannwhitney mw;
	double change;		/* (median B - median A) / median A; NaN when A's is 0 */
	bool has_change_ci;	/* the shift's interval over |median A| (not when it is 0) */
	double change_lo, change_hi;
	bool significant;
	struct sp_superiority sup;	/* P(B > A) */
	bool has_sup;
	enum sp_cmp_verdict verdict;
};

/* One run's chart for --view datagraph or running-waiting, gathered in its pass. */
struct sp_cmp_graph {
	int *rows;		/* the CPU of each row: 0, 1, ... */
	struct sp_timeline tl;
	struct sp_datagraph dg;
	struct sp_rw_collect rw;	/* --view running-waiting */
	bool has_rw;
	char label[256];	/* "group  file" */
};

/* The charts of every run, in sp_cmp_run_at()'s order; none when nr is 0. */
struct sp_cmp_graphs {
	struct sp_cmp_graph *g;
	const struct sp_datagraph **dg;	/* for the figure */
	const struct sp_envelope **env;
	const char **labels;
	size_t nr;
	bool rw;		/* running-waiting envelopes, not datagraphs */
	size_t nr_cols;		/* of every timeline, or envelope over dur_ns */
	uint64_t dur_ns;	/* the longest run's complete window */
};

/* Everything the command computes before it writes anything. */
struct sp_cmp {
	struct sp_cmp_opts o;
	struct sp_cmp_group g[2];
	struct sp_cmp_metric *metrics;
	int nr_metrics;
	bool has_shift;
	struct sp_shift shift;
	struct sp_cmp_check checks[SP_CMP_NR_CHECK_KINDS];	/* at most one of each */
	int nr_checks;
	bool has_crossings;	/* traces: both groups have waits */
	struct sp_crossing crossings[SP_CROSSINGS_MAX];	/* of the pooled CDFs */
	size_t nr_crossings;
	struct sp_cmp_graphs graphs;	/* --view datagraph or running-waiting */
};

/**
 * sp_cmp_run_at - the run of the @i-th trace or file given
 * @c: the groups
 * @i: from 0, the first group's runs, then the second's
 *
 * Return: the run.
 */
static inline struct sp_cmp_run *sp_cmp_run_at(const struct sp_cmp *c, int i)
{
	int g = i < c->g[0].nr_runs ? 0 : 1;

	return &c->g[g].runs[g ? i - c->g[0].nr_runs : i];
}

/**
 * sp_cmp_graphs_init - room for every run's chart, before the passes
 * @gs: set up; release with sp_cmp_graphs_release() whatever the result
 * @c: the groups (their names and files label the charts)
 * @rw: running-waiting envelopes, not datagraphs
 * @nr_cols: columns of every timeline, or of an envelope over @dur_ns
 * @dur_ns: the longest run's complete window: every chart spans as long
 *
 * Prints errors.  Return: SP_EXIT_OK or an exit code.
 */
int sp_cmp_graphs_init(struct sp_cmp_graphs *gs, const struct sp_cmp *c, bool rw, size_t nr_cols,
		       uint64_t dur_ns);

/**
 * sp_cmp_graph_start - set up the chart of trace @i before its pass
 * @gs: set up by sp_cmp_graphs_init()
 * @i: the trace (sp_cmp_run_at()'s order)
 * @o: the options (--aggregate)
 * @t: the trace, open
 *
 * Prints errors.  Return: SP_EXIT_OK or an exit code.
 */
int sp_cmp_graph_start(struct sp_cmp_graphs *gs, int i, const struct sp_cmp_opts *o,
		       const struct sp_trace *t);

/**
 * sp_cmp_graph_observe - register chart @i as a consumer of its trace's pass
 * @gs: its chart started (sp_cmp_graph_start())
 * @i: the trace
 * @pass: the pass
 */
void sp_cmp_graph_observe(struct sp_cmp_graphs *gs, int i, struct sp_pass *pass);

/**
 * sp_cmp_graph_finish - finish chart @i after its pass, while its trace is open
 * @gs: the charts
 * @i: the trace
 * @o: the options (--colors)
 * @t: the trace, its model built
 *
 * The chart keeps what it draws: the trace can be closed.  Prints errors.
 * Return: SP_EXIT_OK or an exit code.
 */
int sp_cmp_graph_finish(struct sp_cmp_graphs *gs, int i, const struct sp_cmp_opts *o,
			const struct sp_trace *t);

/**
 * sp_cmp_graphs_release - free the charts
 * @gs: set up, or zeroed
 */
void sp_cmp_graphs_release(struct sp_cmp_graphs *gs);

/**
 * sp_cmp_load_traces - reduce every trace to the numbers of its run, in one pass each
 * @c: the groups, their runs' files set
 * @nr_cols: with --view datagraph or running-waiting, the charts' columns
 *	     (gathered in the same pass, into @c->graphs)
 *
 * Every trace is checked first, so that a file that is no trace fails
 * before any pass; then each is passed over through the driver's loop
 * (driver.h), several at once with --jobs: the run's numbers, CPUs and
 * wakeup latencies, and with --target its noise.  Prints errors and the
 * warnings of the passes.  Return: SP_EXIT_OK or an exit code.
 */
int sp_cmp_load_traces(struct sp_cmp *c, size_t nr_cols);

/**
 * sp_cmp_load_values - read a file of numbers into @r->samples
 * @o: the options (--column)
 * @r: the run: @r->file in
 *
 * One number per line, blank lines and lines starting with '#' skipped;
 * with --column, a CSV file whose first line names the columns.
 * Prints errors.  Return: SP_EXIT_OK or an exit code.
 */
int sp_cmp_load_values(const struct sp_cmp_opts *o, struct sp_cmp_run *r);

/**
 * sp_cmp_checks - check the samples, once for all metrics
 * @c: the computed comparison
 *
 * Too few runs, lost events, repairs, censored and contradicted waits,
 * warm-ups, noise and groups whose
 * duration (or value) varies by more than %SP_CMP_MAX_CV: each kind once,
 * naming the runs, into @c->checks.
 */
void sp_cmp_checks(struct sp_cmp *c);

/**
 * sp_cmp_check_key - the JSON name of a kind of check
 * @kind: the kind
 *
 * Return: a static string.
 */
const char *sp_cmp_check_key(enum sp_cmp_check_kind kind);

/**
 * sp_cmp_check_title - the title of a kind of check, above the table
 * @kind: the kind
 *
 * Return: a static string.
 */
const char *sp_cmp_check_title(enum sp_cmp_check_kind kind);

/**
 * sp_cmp_print_text - the table, benchstat's way, and the shift function
 * @c: the computed comparison
 *
 * Return: nothing; the caller checks standard output.
 */
void sp_cmp_print_text(const struct sp_cmp *c);

/**
 * sp_cmp_print_json - one JSON object: groups, metrics, shift
 * @c: the computed comparison
 *
 * Return: nothing; the caller checks standard output.
 */
void sp_cmp_print_json(const struct sp_cmp *c);

#endif /* SP_CLI_COMPARE_H */
