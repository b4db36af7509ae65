// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedplot compare: the checks of the samples, listed once above the
 * table (and in the JSON) instead of once per metric or per file: too few
 * runs, lost events, repaired switches, censored waits and unstable
 * groups.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "schedplot/analysis/mannwhitney.h"
#include "schedplot/analysis/shift.h"
#include "schedplot/analysis/warmup.h"
#include "schedplot/cli/compare.h"

static const char *const check_keys[SP_CMP_NR_CHECK_KINDS] = {
	[SP_CMP_CHECK_FEW_RUNS] = "few_runs",
	[SP_CMP_CHECK_LOST] = "lost_events",
	[SP_CMP_CHECK_REPAIRS] = "repairs",
	[SP_CMP_CHECK_CENSORED] = "censored_waits",
	[SP_CMP_CHECK_CV] = "unstable",
	[SP_CMP_CHECK_WARMUP] = "warmup",
};

const char *sp_cmp_check_key(enum sp_cmp_check_kind kind)
{
	return check_keys[kind];
}

/* A check's line, grown piece by piece; truncated past its end. */
static void add(struct sp_cmp_check *ck, const char *fmt, ...)
{
	size_t len = strlen(ck->text);
	va_list ap;

	if (len + 1 >= sizeof(ck->text))
		return;
	va_start(ap, fmt);
	vsnprintf(ck->text + len, sizeof(ck->text) - len, fmt, ap);
	va_end(ap);
}

static const char *base(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
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
	add(ck, "%llu %s in %d run%s of %d:", (unsigned long long)sum, what, nr,
	    nr == 1 ? "" : "s", total);
	for (i = 0; i < 2; i++)
		for (r = 0; r < c->g[i].nr_runs; r++) {
			const struct sp_cmp_run *run = &c->g[i].runs[r];
			uint64_t n = count(run);

			if (!n)
				continue;
			if (shown++ == 6) {
				add(ck, " ...");
				return true;
			}
			add(ck, "%s %s %llu", shown > 1 ? "," : "", base(run->file),
			    (unsigned long long)n);
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

static struct sp_cmp_check *next(struct sp_cmp *c, enum sp_cmp_check_kind kind)
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
	struct sp_cmp_check why = { 0 }, *ck = next(c, SP_CMP_CHECK_FEW_RUNS);
	const char *unit = c->o.values ? "values" : "runs";
	double min_p;

	if (!na || !nb)
		return;
	min_p = sp_mannwhitney_min_p(na, nb);
	if (min_p > c->o.alpha)
		add(&why, "; p cannot go below %.3g, so no difference can be shown at %g", min_p,
		    c->o.alpha);
	if (n < 6)
		add(&why, "; no 95%% interval of a median below 6 %s", unit);
	if (!c->o.values && c->has_shift && (c->g[0].nr_runs < SP_SHIFT_MIN_RUNS ||
					     c->g[1].nr_runs < SP_SHIFT_MIN_RUNS))
		add(&why, "; no interval of the shift function below %d runs a group",
		    SP_SHIFT_MIN_RUNS);
	if (!*why.text)
		return;
	add(ck, "%zu and %zu %s: %s", na, nb, unit, why.text + 2);
	c->nr_checks++;
}

static void check_cv(struct sp_cmp *c)
{
	const struct sp_cmp_metric *cm = &c->metrics[0];
	struct sp_cmp_check *ck = next(c, SP_CMP_CHECK_CV);
	bool any = false;

	for (int i = 0; i < 2; i++) {
		double cv = cm->sum[i].cv;

		if (!cm->sum[i].nr || !(fabs(cv) > SP_CMP_MAX_CV))
			continue;
		add(ck, "%s%s's %s varies by CV %.1f%%", any ? ", " : "", c->g[i].name,
		    cm->desc->name, 100 * fabs(cv));
		any = true;
	}
	if (!any)
		return;
	add(ck, " (above %.0f%%: the runs are not repeatable; quiet and pin the machine, "
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
	struct sp_cmp_check *ck = next(c, SP_CMP_CHECK_WARMUP);
	int i, r, nr = 0, total = 0, shown = 0;
	char at[32], of[32];

	if (c->o.skip_warmup == SP_CMP_SKIP_TIME) {
		format_time(at, sizeof(at), c->o.skip_ns);
		add(ck, "every run counted from %s into it on (--skip-warmup)", at);
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
	add(ck, "%d run%s of %d settle%s only after a warm-up (MSER over %d windows):", nr,
	    nr == 1 ? "" : "s", total, nr == 1 ? "s" : "", SP_WARMUP_WINDOWS);
	for (i = 0; i < 2; i++)
		for (r = 0; r < c->g[i].nr_runs; r++) {
			const struct sp_cmp_run *run = &c->g[i].runs[r];

			if (!run->warmup_ns)
				continue;
			if (shown++ == 6) {
				add(ck, " ...");
				break;
			}
			format_time(at, sizeof(at), run->warmup_ns);
			format_time(of, sizeof(of), run->window_ns);
			add(ck, "%s %s %s of %s (%s)", shown > 1 ? "," : "", base(run->file), at, of,
			    sp_warmup_series_name(run->warmup_by));
		}
	add(ck, c->o.skip_warmup == SP_CMP_SKIP_AUTO ?
	    "; each is counted from there on (--skip-warmup auto)" :
	    "; --skip-warmup auto compares the steady state only");
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
		ck = next(c, SP_CMP_CHECK_LOST);
		if (runs_with(c, ck, lost_of, exact ? "events lost" : "or more events lost")) {
			add(ck, " (ring buffer overruns: what happened then is missing)");
			c->nr_checks++;
		}
		ck = next(c, SP_CMP_CHECK_REPAIRS);
		if (runs_with(c, ck, repairs_of, "repairs")) {
			add(ck, " (missed switches rebuilt; schedplot stats -v lists them)");
			c->nr_checks++;
		}
		ck = next(c, SP_CMP_CHECK_CENSORED);
		if (runs_with(c, ck, censored_of, "waits open at the end")) {
			add(ck, " (censored: no latency, the longest waits may be missing)");
			c->nr_checks++;
		}
		check_warmup(c);
	}
	check_cv(c);
}
