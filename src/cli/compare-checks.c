// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedplot compare: the checks of the samples, listed once above the
 * table (and in the JSON) instead of once per metric or per file: too few
 * runs, lost events, repaired switches, censored waits and unstable
 * groups.
 */
#define _GNU_SOURCE	/* qsort_r */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "schedplot/analysis/mannwhitney.h"
#include "schedplot/analysis/shift.h"
#include "schedplot/analysis/spearman.h"
#include "schedplot/analysis/warmup.h"
#include "schedplot/base/alloc.h"
#include "schedplot/cli/compare.h"

/* Each kind of check: its JSON key, and its title above the table. */
static const struct {
	const char *key;
	const char *title;
} check_names[SP_CMP_NR_CHECK_KINDS] = {
	[SP_CMP_CHECK_FEW_RUNS] = { "few_runs", "too few" },
	[SP_CMP_CHECK_LOST] = { "lost_events", "lost events" },
	[SP_CMP_CHECK_REPAIRS] = { "repairs", "repairs" },
	[SP_CMP_CHECK_CENSORED] = { "censored_waits", "censored waits" },
	[SP_CMP_CHECK_CONTRADICTED] = { "contradicted_waits", "contradicted waits" },
	[SP_CMP_CHECK_CV] = { "unstable", "unstable" },
	[SP_CMP_CHECK_WARMUP] = { "warmup", "warm-up" },
	[SP_CMP_CHECK_NOISE] = { "noise", "noise" },
};

const char *sp_cmp_check_key(enum sp_cmp_check_kind kind)
{
	return check_names[kind].key;
}

const char *sp_cmp_check_title(enum sp_cmp_check_kind kind)
{
	return check_names[kind].title;
}

/* A check's line, grown piece by piece; truncated past its end. */
static void check_append(struct sp_cmp_check *ck, const char *fmt, ...)
{
	size_t len = strlen(ck->text);
	va_list ap;

	if (len + 1 >= sizeof(ck->text))
		return;
	va_start(ap, fmt);
	vsnprintf(ck->text + len, sizeof(ck->text) - len, fmt, ap);
	va_end(ap);
}

/* A per-run count: "t2-1.dat 26, t2-4.dat 18 (2 runs of 10)" */
static bool runs_with(const struct sp_cmp *c, struct sp_cmp_check *ck,
		      uint64_t (*count)(const struct sp_cmp_run *), const char *what)
{
	int i, r, nr = 0, total = 0, shown = 0;
	uint64_t sum = 0;

	for (i = 0; i < 2; i++)
		for (r = 0; r < c->g[i].nr_runs; r++) {
			uint64_t n = count(&c->g[i].runs[r]);

			total++;
			sum += n;
			nr += n > 0;
		}
	if (!nr)
		return false;
	check_append(ck, "%llu %s in %d run%s of %d:", (unsigned long long)sum, what, nr,
		     nr == 1 ? "" : "s", total);
	for (i = 0; i < 2; i++)
		for (r = 0; r < c->g[i].nr_runs; r++) {
			const struct sp_cmp_run *run = &c->g[i].runs[r];
			uint64_t n = count(run);

			if (!n)
				continue;
			if (shown++ == 6) {
				check_append(ck, " ...");
				return true;
			}
			check_append(ck, "%s %s %llu", shown > 1 ? "," : "",
				     sp_cli_base_name(run->file), (unsigned long long)n);
		}
	return true;
}

static uint64_t lost_of(const struct sp_cmp_run *r)
{
	return r->lost_events;
}

static uint64_t repairs_of(const struct sp_cmp_run *r)
{
	return r->repairs;
}

static uint64_t censored_of(const struct sp_cmp_run *r)
{
	return r->censored_waits;
}

static uint64_t contradicted_of(const struct sp_cmp_run *r)
{
	return r->contradicted_waits;
}

/* The next check, blank, of @kind; it counts once c->nr_checks is increased. */
static struct sp_cmp_check *check_begin(struct sp_cmp *c, enum sp_cmp_check_kind kind)
{
	struct sp_cmp_check *ck = &c->checks[c->nr_checks];

	memset(ck, 0, sizeof(*ck));
	ck->kind = kind;
	return ck;
}

static void check_few_runs(struct sp_cmp *c)
{
	const struct sp_cmp_metric *cm = &c->metrics[0];
	size_t na = cm->sum[0].nr, nb = cm->sum[1].nr, n = na < nb ? na : nb;
	struct sp_cmp_check why = { 0 }, *ck = check_begin(c, SP_CMP_CHECK_FEW_RUNS);
	const char *unit = c->o.values ? "values" : "runs";
	double min_p;

	if (!na || !nb)
		return;
	min_p = sp_mannwhitney_min_p(na, nb);
	if (min_p > c->o.alpha)
		check_append(&why, "; p cannot go below %.3g, so no difference can be shown at %g",
			     min_p, c->o.alpha);
	if (n < 6)
		check_append(&why, "; no 95%% interval of a median below 6 %s", unit);
	if (!c->o.values && c->has_shift && (c->g[0].nr_runs < SP_SHIFT_MIN_RUNS ||
					     c->g[1].nr_runs < SP_SHIFT_MIN_RUNS))
		check_append(&why, "; no interval of the shift function below %d runs a group",
			     SP_SHIFT_MIN_RUNS);
	if (!*why.text)
		return;
	check_append(ck, "%zu and %zu %s: %s", na, nb, unit, why.text + 2);
	c->nr_checks++;
}

static void check_cv(struct sp_cmp *c)
{
	const struct sp_cmp_metric *cm = &c->metrics[0];
	struct sp_cmp_check *ck = check_begin(c, SP_CMP_CHECK_CV);
	bool any = false;

	for (int i = 0; i < 2; i++) {
		double cv = cm->sum[i].cv;

		if (!cm->sum[i].nr || !(fabs(cv) > SP_CMP_MAX_CV))
			continue;
		check_append(ck, "%s%s's %s varies by CV %.1f%%", any ? ", " : "", c->g[i].name,
			     cm->desc->name, 100 * fabs(cv));
		any = true;
	}
	if (!any)
		return;
	check_append(ck, " (above %.0f%%: the runs are not repeatable; quiet and pin the machine, "
		     "run longer)", 100 * SP_CMP_MAX_CV);
	c->nr_checks++;
}

/* "120ms", "1.5s" */
static void format_time(char *buf, size_t len, uint64_t ns)
{
	if (ns >= 1000000000ull)
		snprintf(buf, len, "%.3gs", ns / 1e9);
	else if (ns >= 1000000)
		snprintf(buf, len, "%.3gms", ns / 1e6);
	else
		snprintf(buf, len, "%.3gµs", ns / 1e3);
}

static void check_warmup(struct sp_cmp *c)
{
	struct sp_cmp_check *ck = check_begin(c, SP_CMP_CHECK_WARMUP);
	int i, r, nr = 0, total = 0, shown = 0;
	char at[32], of[32];

	if (c->o.skip_warmup == SP_CMP_SKIP_TIME) {
		format_time(at, sizeof(at), c->o.skip_ns);
		check_append(ck, "every run counted from %s into it on (--skip-warmup)", at);
		c->nr_checks++;
		return;
	}
	for (i = 0; i < 2; i++)
		for (r = 0; r < c->g[i].nr_runs; r++) {
			total++;
			nr += c->g[i].runs[r].warmup_ns > 0;
		}
	if (!nr)
		return;
	check_append(ck, "%d run%s of %d settle%s only after a warm-up (MSER over %d windows):", nr,
		     nr == 1 ? "" : "s", total, nr == 1 ? "s" : "", SP_WARMUP_WINDOWS);
	for (i = 0; i < 2; i++)
		for (r = 0; r < c->g[i].nr_runs; r++) {
			const struct sp_cmp_run *run = &c->g[i].runs[r];

			if (!run->warmup_ns)
				continue;
			if (shown++ == 6) {
				check_append(ck, " ...");
				break;
			}
			format_time(at, sizeof(at), run->warmup_ns);
			format_time(of, sizeof(of), run->window_ns);
			check_append(ck, "%s %s %s of %s (%s)", shown > 1 ? "," : "",
				     sp_cli_base_name(run->file), at, of,
				     sp_warmup_series_name(run->warmup_by));
		}
	check_append(ck, c->o.skip_warmup == SP_CMP_SKIP_AUTO ?
		     "; each is counted from there on (--skip-warmup auto)" :
		     "; --skip-warmup auto compares the steady state only");
	c->nr_checks++;
}

/* A kind of candidate beyond the kinds of struct sp_cmp_noise: the frequency's spread. */
#define NOISE_FREQ	(SP_CMP_NOISE_SOFTIRQ + 1)

/*
 * A source of noise tried against the runs' durations: a command, a
 * handler or a vector on a CPU or on all of them, or the frequency spread.
 */
struct noise_candidate {
	int kind;		/* enum sp_cmp_noise_kind, or NOISE_FREQ */
	char name[32];
	int cpu;		/* -1: on all the targets' CPUs */
	double rho, p;
	double slow, fast;	/* mean ns (the spread) in the slower and the faster half of the runs */
};

/* "the kworker/1:1", "the interrupt virtio1-req.0", "the softirq BLOCK" */
static const char *const kind_words[] = {
	[SP_CMP_NOISE_TASK] = "",
	[SP_CMP_NOISE_IRQ] = "interrupt ",
	[SP_CMP_NOISE_SOFTIRQ] = "softirq ",
};

/* the value of @cd in @run: the time of its source on its CPU (-1: on any), or the spread */
static double noise_of(const struct sp_cmp_run *run, const struct noise_candidate *cd)
{
	double ns = 0;

	if (cd->kind == NOISE_FREQ)
		return run->has_freq ? run->freq_spread : NAN;
	for (size_t k = 0; k < run->nr_noise; k++) {
		const struct sp_cmp_noise *e = &run->noise[k];

		if ((int)e->kind == cd->kind && !strcmp(e->name, cd->name) &&
		    (cd->cpu < 0 || e->cpu == cd->cpu))
			ns += (double)e->ns;
	}
	return ns;
}

static bool has_candidate(const struct noise_candidate *cand, size_t n,
			  const struct sp_cmp_noise *e, int cpu)
{
	for (size_t i = 0; i < n; i++)
		if (cand[i].kind == (int)e->kind && cand[i].cpu == cpu &&
		    !strcmp(cand[i].name, e->name))
			return true;
	return false;
}

/* whether @cd's source took time on one of the targets' CPUs only, in every run */
static bool on_one_cpu(const struct sp_cmp_group *grp, const struct noise_candidate *cd)
{
	int cpu = -1;

	for (int r = 0; r < grp->nr_runs; r++)
		for (size_t k = 0; k < grp->runs[r].nr_noise; k++) {
			const struct sp_cmp_noise *e = &grp->runs[r].noise[k];

			if ((int)e->kind != cd->kind || strcmp(e->name, cd->name))
				continue;
			if (cpu >= 0 && e->cpu != cpu)
				return false;
			cpu = e->cpu;
		}
	return true;
}

static int cmp_index_by(const void *pa, const void *pb, void *arg)
{
	const double *d = arg;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;

	return (d[a] > d[b]) - (d[a] < d[b]);
}

/* every source of @grp's runs, on each CPU and on all, and the frequency spread when known */
static int noise_candidates(const struct sp_cmp_group *grp, struct noise_candidate **cand,
			    size_t *nr)
{
	size_t alloc = 0;
	bool freq = true;

	*cand = NULL;
	*nr = 0;
	for (int r = 0; r < grp->nr_runs; r++) {
		freq &= grp->runs[r].has_freq;
		for (size_t k = 0; k < grp->runs[r].nr_noise; k++) {
			const struct sp_cmp_noise *e = &grp->runs[r].noise[k];

			for (int pass = 0; pass < 2; pass++) {
				int cpu = pass ? -1 : e->cpu;
				struct noise_candidate *cd;

				if (has_candidate(*cand, *nr, e, cpu))
					continue;
				if (sp_grow_array(cand, &alloc, *nr + 1, sizeof(**cand)))
					return -ENOMEM;
				cd = &(*cand)[(*nr)++];
				memset(cd, 0, sizeof(*cd));
				cd->kind = (int)e->kind;
				snprintf(cd->name, sizeof(cd->name), "%s", e->name);
				cd->cpu = cpu;
			}
		}
	}
	if (freq) {
		if (sp_grow_array(cand, &alloc, *nr + 1, sizeof(**cand)))
			return -ENOMEM;
		memset(&(*cand)[*nr], 0, sizeof(**cand));
		(*cand)[*nr].kind = NOISE_FREQ;
		(*cand)[(*nr)++].cpu = -1;
	}
	return 0;
}

/*
 * Whether @cd matters: it goes with the duration, and its time differs
 * between the slow and the fast runs by 5% of a run's mean duration or
 * more (the spread by 5 points or more): a correlated trifle explains
 * nothing.  A source on one CPU only is named with its CPU, not twice.
 */
static bool noise_matters(const struct sp_cmp_group *grp, const struct noise_candidate *cd,
			  double mean_ns)
{
	if (!(cd->rho > 0))
		return false;
	if (cd->kind == NOISE_FREQ)
		return cd->slow - cd->fast >= 0.05;
	return cd->slow - cd->fast >= 0.05 * mean_ns && !(cd->cpu < 0 && on_one_cpu(grp, cd));
}

static void noise_name(struct sp_cmp_check *ck, const struct noise_candidate *cd)
{
	char slow[32], fast[32];

	if (cd->kind == NOISE_FREQ) {
		check_append(ck, " a frequency spread of %.0f%% against %.0f%% (the time-weighted "
			     "standard deviation of the frequency on the targets' CPUs over its "
			     "mean", 100 * cd->slow, 100 * cd->fast);
	} else {
		format_time(slow, sizeof(slow), (uint64_t)cd->slow);
		format_time(fast, sizeof(fast), (uint64_t)cd->fast);
		if (cd->fast > 0 && cd->slow / cd->fast >= 100)
			check_append(ck, " over 100x the %s%s time", kind_words[cd->kind],
				     cd->name);
		else if (cd->fast > 0)
			check_append(ck, " %.*fx the %s%s time", cd->slow / cd->fast < 10 ? 1 : 0,
				     cd->slow / cd->fast, kind_words[cd->kind], cd->name);
		else
			check_append(ck, " all the %s%s time", kind_words[cd->kind], cd->name);
		if (cd->cpu >= 0)
			check_append(ck, " on CPU %d", cd->cpu);
		check_append(ck, " (%s against %s a run", slow, cd->fast > 0 ? fast : "none");
	}
	check_append(ck, ", Spearman %.2f with the duration, p %.2g", cd->rho, cd->p);
}

/*
 * Which source of noise on the targets' CPUs moves with the duration
 * across the runs of group @g: Spearman's rho and p for each command,
 * interrupt handler and softirq vector on each CPU and on all of them,
 * and for the frequency spread; the three of smallest p that go with the
 * duration and matter are named, with their p and Hochberg's verdict
 * over all those tried.
 */
static void noise_group(struct sp_cmp *c, int g, struct sp_cmp_check *ck)
{
	const struct sp_cmp_group *grp = &c->g[g];
	size_t n = (size_t)grp->nr_runs, nr = 0, i, best[3], nr_best = 0, *order = NULL;
	struct noise_candidate *cand = NULL;
	double *dur = NULL, *v = NULL, *pv = NULL, *alpha = NULL, total = 0;
	bool *sig = NULL;

	if (n < 4)
		return;
	dur = calloc(n, sizeof(*dur));
	v = calloc(n, sizeof(*v));
	order = calloc(n, sizeof(*order));
	if (!dur || !v || !order)
		goto out;
	for (i = 0; i < n; i++) {
		dur[i] = grp->runs[i].m[SP_CMP_DURATION];
		total += dur[i] * 1e9;
		order[i] = i;
	}
	qsort_r(order, n, sizeof(*order), cmp_index_by, dur);
	if (noise_candidates(grp, &cand, &nr) || !nr)
		goto out;
	pv = calloc(nr, sizeof(*pv));
	alpha = calloc(nr, sizeof(*alpha));
	sig = calloc(nr, sizeof(*sig));
	if (!pv || !alpha || !sig)
		goto out;
	for (size_t j = 0; j < nr; j++) {
		struct noise_candidate *cd = &cand[j];
		double sum = 0;

		for (i = 0; i < n; i++) {
			v[i] = noise_of(&grp->runs[i], cd);
			sum += v[i];
		}
		cd->p = 1;
		cd->rho = NAN;
		/* below 0.1% of the runs' time a source cannot explain much */
		if ((cd->kind == NOISE_FREQ || sum >= 0.001 * total) &&
		    !sp_spearman(dur, v, n, true, &cd->rho, &cd->p) && isnan(cd->rho))
			cd->p = 1;
		for (i = 0; i < n / 2; i++) {
			cd->fast += v[order[i]] / (double)(n / 2);
			cd->slow += v[order[n - 1 - i]] / (double)(n / 2);
		}
		pv[j] = cd->p;
		if (noise_matters(grp, cd, total / (double)n)) {
			size_t at = nr_best < 3 ? nr_best++ : 3;

			while (at > 0 && cand[best[at - 1]].p > cd->p) {
				if (at < 3)
					best[at] = best[at - 1];
				at--;
			}
			if (at < 3)
				best[at] = j;
		}
	}
	if (!nr_best || sp_hochberg_adjust(pv, nr, 0.05, alpha, sig))
		goto out;
	check_append(ck, "%sin %s the slow half of the runs against the fast half had",
		     *ck->text ? "; " : "", grp->name);
	for (size_t b = 0; b < nr_best; b++) {
		check_append(ck, "%s", b ? "," : "");
		noise_name(ck, &cand[best[b]]);
		check_append(ck, "%s)", sig[best[b]] ? ", significant" : "");
	}
	check_append(ck, " (Hochberg over %zu source%s and CPU%s)", nr, nr == 1 ? "" : "s",
		     nr == 1 ? "" : "s");
out:
	free(dur);
	free(v);
	free(order);
	free(cand);
	free(pv);
	free(alpha);
	free(sig);
}

/* the source that took most time on one of the targets' CPUs in @run, or NULL */
static const struct sp_cmp_noise *top_noise(const struct sp_cmp_run *run)
{
	const struct sp_cmp_noise *top = NULL;

	for (size_t k = 0; k < run->nr_noise; k++)
		if (!top || run->noise[k].ns > top->ns)
			top = &run->noise[k];
	return top;
}

/* the runs in which one source took 5% or more of the duration on one CPU */
static void noise_runs(struct sp_cmp *c, struct sp_cmp_check *ck)
{
	int i, r, shown = 0;
	char t[32];

	for (i = 0; i < 2; i++)
		for (r = 0; r < c->g[i].nr_runs; r++) {
			const struct sp_cmp_run *run = &c->g[i].runs[r];
			const struct sp_cmp_noise *top = top_noise(run);
			double dur = run->m[SP_CMP_DURATION] * 1e9;

			if (!top || !(dur > 0) || (double)top->ns < 0.05 * dur)
				continue;
			if (shown++ == 6) {
				check_append(ck, " ...");
				return;
			}
			format_time(t, sizeof(t), top->ns);
			check_append(ck, "%s%s: %s%s %s on CPU %d (%.0f%% of its duration)",
				     shown > 1 ? ", " : "", sp_cli_base_name(run->file),
				     kind_words[top->kind], top->name, t, top->cpu,
				     100 * (double)top->ns / dur);
		}
}

static void check_noise(struct sp_cmp *c)
{
	struct sp_cmp_check *ck = check_begin(c, SP_CMP_CHECK_NOISE);

	if (!sp_view_opts_has_targets(&c->o.shared))
		return;
	noise_runs(c, ck);
	noise_group(c, 0, ck);
	noise_group(c, 1, ck);
	if (*ck->text)
		c->nr_checks++;
}

void sp_cmp_checks(struct sp_cmp *c)
{
	struct sp_cmp_check *ck;
	bool exact = true;

	c->nr_checks = 0;
	check_few_runs(c);
	if (!c->o.values) {
		for (int i = 0; i < 2; i++)
			for (int r = 0; r < c->g[i].nr_runs; r++)
				exact &= c->g[i].runs[r].lost_exact;
		ck = check_begin(c, SP_CMP_CHECK_LOST);
		if (runs_with(c, ck, lost_of, exact ? "events lost" : "or more events lost")) {
			check_append(ck, " (ring buffer overruns: what happened then is missing)");
			c->nr_checks++;
		}
		ck = check_begin(c, SP_CMP_CHECK_REPAIRS);
		if (runs_with(c, ck, repairs_of, "repairs")) {
			check_append(ck, " (missed switches rebuilt; schedplot stats -v lists "
				     "them)");
			c->nr_checks++;
		}
		ck = check_begin(c, SP_CMP_CHECK_CENSORED);
		if (runs_with(c, ck, censored_of, "waits open at the end")) {
			check_append(ck, " (censored: no latency, the longest waits may be "
				     "missing)");
			c->nr_checks++;
		}
		ck = check_begin(c, SP_CMP_CHECK_CONTRADICTED);
		if (runs_with(c, ck, contradicted_of, "waits contradicted")) {
			check_append(ck, " (the CPU the task waited for ran its idle task "
				     "meanwhile: records lost or out of order; schedplot stats "
				     "lists the longest)");
			c->nr_checks++;
		}
		check_warmup(c);
		check_noise(c);
	}
	check_cv(c);
}
