// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedplot compare: the table (benchstat's layout: each group's median
 * with its interval, the change, p and n) and the JSON object.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/cli/cli.h"
#include "schedplot/analysis/warmup.h"
#include "schedplot/cli/compare.h"

/* The shortest decimal that reads back as @v; null for NaN and infinities. */
static void json_num(double v)
{
	char buf[32];
	int prec;

	if (!isfinite(v)) {
		printf("null");
		return;
	}
	for (prec = 15; prec < 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	printf("%.*g", prec, v);
}

/* ", \"@key\": @v", @v as json_num() writes it */
static void json_key(const char *key, double v)
{
	printf(", \"%s\": ", key);
	json_num(v);
}

static const char *const verdict_names[] = {
	[SP_CMP_SAME] = "same",
	[SP_CMP_NOISE] = "noise",
	[SP_CMP_WORSE] = "worse",
	[SP_CMP_BETTER] = "better",
	[SP_CMP_CHANGED] = "changed",
};

/* Why decile @d has no interval: one line, no final stop. */
static void shift_withheld_reason(const struct sp_cmp *c, const struct sp_shift_decile *d,
				  char *buf, size_t len)
{
	if (d->support == SP_SHIFT_FEW_RUNS)
		snprintf(buf, len, "fewer than %d runs in a group (%d and %d): resampling "
			 "cannot show a difference beyond the variation between runs",
			 SP_SHIFT_MIN_RUNS, c->g[0].nr_runs, c->g[1].nr_runs);
	else
		snprintf(buf, len, "decile %.1f needs %zu values a group for a 95%% interval, "
			 "the smaller group has %zu", d->q, d->min_n,
			 c->shift.nr_a < c->shift.nr_b ? c->shift.nr_a : c->shift.nr_b);
}

/* the order of the noise in the JSON: most time first, then by kind, name and CPU */
static int cmp_noise(const struct sp_cmp_noise *a, const struct sp_cmp_noise *b)
{
	int d;

	if (a->ns != b->ns)
		return (a->ns < b->ns) - (a->ns > b->ns);
	if (a->kind != b->kind)
		return (a->kind > b->kind) - (a->kind < b->kind);
	d = strcmp(a->name, b->name);
	return d ? d : (a->cpu > b->cpu) - (a->cpu < b->cpu);
}

/*
 * The @max first sources of @run whose kind is in @kinds (a bit each), in
 * the order of cmp_noise(): each the least after the one before (no copy
 * to sort, so nothing can fail half-way).
 */
static void print_noise(const struct sp_cmp_run *run, unsigned int kinds, size_t max,
			const char *name_key)
{
	const struct sp_cmp_noise *prev = NULL;

	printf("[");
	for (size_t shown = 0; shown < max; shown++) {
		const struct sp_cmp_noise *next = NULL;

		for (size_t k = 0; k < run->nr_noise; k++) {
			const struct sp_cmp_noise *e = &run->noise[k];

			if (!(kinds & 1u << e->kind) || (prev && cmp_noise(e, prev) <= 0))
				continue;
			if (!next || cmp_noise(e, next) < 0)
				next = e;
		}
		if (!next)
			break;
		printf("%s{", shown ? ", " : "");
		if (next->kind != SP_CMP_NOISE_TASK)
			printf("\"kind\": \"%s\", ", next->kind == SP_CMP_NOISE_IRQ ? "irq" : "softirq");
		printf("\"%s\": ", name_key);
		sp_cli_json_string(stdout, next->name);
		printf(", \"cpu\": %d, \"ns\": %llu}", next->cpu, (unsigned long long)next->ns);
		prev = next;
	}
	printf("]");
}

/*
 * --target: the five commands that took most time on the targets' CPUs
 * while they ran, every interrupt handler and softirq vector there (null
 * when the trace has no irq events) and the frequency (null when unknown);
 * without it every key is there, null, so a run has the same keys always
 */
static void print_other_tasks(const struct sp_cmp_run *run)
{
	if (!run->has_noise) {
		printf(", \"targets_ns\": null, \"target_cpus\": null, \"other_tasks\": null, "
		       "\"interrupts\": null, \"frequency\": null");
		return;
	}
	printf(", \"targets_ns\": [%llu, %llu], \"target_cpus\": [",
	       (unsigned long long)run->targets_ns[0], (unsigned long long)run->targets_ns[1]);
	for (size_t k = 0; k < run->nr_target_cpus; k++)
		printf("%s%d", k ? ", " : "", run->target_cpus[k]);
	printf("]");
	printf(", \"other_tasks\": ");
	print_noise(run, 1u << SP_CMP_NOISE_TASK, 5, "command");
	printf(", \"interrupts\": ");
	if (run->has_irq)
		print_noise(run, 1u << SP_CMP_NOISE_IRQ | 1u << SP_CMP_NOISE_SOFTIRQ, SIZE_MAX,
			    "name");
	else
		printf("null");
	printf(", \"frequency\": ");
	if (run->has_freq)
		printf("{\"mean_khz\": %.17g, \"spread\": %.17g}", run->freq_mean_khz,
		       run->freq_spread);
	else
		printf("null");
}

void sp_cmp_print_json(const struct sp_cmp *c)
{
	int i, r, k;

	printf("{\n  \"alpha\": %.10g,\n  \"threshold\": %.10g,\n  \"seed\": %llu,\n"
	       "  \"groups\": [", c->o.alpha, c->o.threshold, (unsigned long long)c->o.seed);
	for (i = 0; i < 2; i++) {
		const struct sp_cmp_group *g = &c->g[i];

		printf("%s\n    {\"name\": ", i ? "," : "");
		sp_cli_json_string(stdout, g->name);
		printf(", \"runs\": [");
		for (r = 0; r < g->nr_runs; r++) {
			const struct sp_cmp_run *run = &g->runs[r];

			printf("%s\n      {\"file\": ", r ? "," : "");
			sp_cli_json_string(stdout, run->file);
			if (c->o.values) {
				size_t j;

				printf(", \"count\": %zu, \"value\": [", run->nr_samples);
				for (j = 0; j < run->nr_samples; j++) {
					printf("%s", j ? ", " : "");
					json_num(run->samples[j]);
				}
				printf("]}");
				continue;
			}
			printf(", \"nr_cpus\": %d, \"lost_events\": %llu, \"lost_events_exact\": %s, "
			       "\"repairs\": %llu, \"censored_waits\": %llu, "
			       "\"contradicted_waits\": %llu", run->nr_cpus,
			       (unsigned long long)run->lost_events,
			       run->lost_exact ? "true" : "false",
			       (unsigned long long)run->repairs,
			       (unsigned long long)run->censored_waits,
			       (unsigned long long)run->contradicted_waits);
			printf(", \"warmup_ns\": ");
			if (run->has_warmup)
				printf("%llu, \"warmup_by\": \"%s\"",
				       (unsigned long long)run->warmup_ns,
				       sp_warmup_series_name(run->warmup_by));
			else
				printf("null, \"warmup_by\": null");
			printf(", \"skipped_ns\": %llu", (unsigned long long)run->skipped_ns);
			print_other_tasks(run);
			for (k = 0; k < SP_CMP_NR_TRACE_METRICS; k++) {
				json_key(sp_cmp_trace_metrics[k].key, run->m[k]);
			}
			printf("}");
		}
		printf("\n    ]}");
	}
	printf("\n  ],\n  \"checks\": [");
	for (k = 0; k < c->nr_checks; k++) {
		printf("%s\n    {\"check\": \"%s\", \"message\": ", k ? "," : "",
		       sp_cmp_check_key(c->checks[k].kind));
		sp_cli_json_string(stdout, c->checks[k].text);
		printf("}");
	}
	printf("%s],\n  \"metrics\": [", c->nr_checks ? "\n  " : "");
	for (k = 0; k < c->nr_metrics; k++) {
		const struct sp_cmp_metric *cm = &c->metrics[k];

		printf("%s\n    {\"name\": \"%s\"", k ? "," : "", cm->desc->name);
		for (i = 0; i < 2; i++) {
			const struct sp_runs_summary *s = &cm->sum[i];

			printf(", \"%s\": {\"n\": %zu", i ? "b" : "a", s->nr);
			json_key("median", s->nr ? s->median : NAN);
			json_key("ci_low", s->has_ci ? s->ci_lo : NAN);
			json_key("ci_high", s->has_ci ? s->ci_hi : NAN);
			json_key("mean", s->nr ? s->mean : NAN);
			json_key("sd", s->nr ? s->sd : NAN);
			json_key("cv", s->nr ? s->cv : NAN);
			json_key("min", s->nr ? s->min : NAN);
			json_key("max", s->nr ? s->max : NAN);
			printf("}");
		}
		json_key("change", cm->change);
		printf(", \"change_ci\": ");
		if (cm->has_change_ci) {
			printf("[");
			json_num(cm->change_lo);
			printf(", ");
			json_num(cm->change_hi);
			printf("]");
		} else {
			printf("null");
		}
		json_key("u", cm->mw.u_a);
		json_key("p_value", cm->mw.p);
		printf(", \"significant\": %s, \"superiority\": ", cm->significant ? "true" : "false");
		if (cm->has_sup) {
			printf("{\"p\": ");
			json_num(cm->sup.p);
			json_key("se", cm->sup.se);
			json_key("ci_low", cm->sup.ci_lo);
			json_key("ci_high", cm->sup.ci_hi);
			printf("}");
		} else {
			printf("null");
		}
		printf(", \"verdict\": ");
		if (cm->verdict == SP_CMP_UNTESTED)
			printf("null}");
		else
			printf("\"%s\"}", verdict_names[cm->verdict]);
	}
	printf("\n  ],\n  \"shift\": [");
	for (k = 0; c->has_shift && k < SP_NR_DECILES; k++) {
		const struct sp_shift_decile *d = &c->shift.dec[k];

		printf("%s\n    {\"q\": %.1f, \"a\": ", k ? "," : "", d->q);
		json_num(d->a);
		json_key("b", d->b);
		json_key("diff", d->diff);
		json_key("ci_low", d->ci_lo);
		json_key("ci_high", d->ci_hi);
		json_key("p_value", d->p);
		printf(", \"significant\": %s, \"withheld\": ", d->significant ? "true" : "false");
		if (d->support == SP_SHIFT_SUPPORTED) {
			printf("null");
		} else {
			char why[160];

			shift_withheld_reason(c, d, why, sizeof(why));
			sp_cli_json_string(stdout, why);
		}
		printf("}");
	}
	if (c->has_shift)
		printf("\n  ], \"shift_resample\": \"%s\"",
		       c->shift.mode == SP_SHIFT_RUNS ? "runs" : "values");
	else
		printf("]");
	if (c->has_crossings) {
		printf(",\n  \"crossings\": [");
		for (size_t x = 0; x < c->nr_crossings; x++)
			printf("%s{\"at_ns\": %llu, \"below\": \"%s\"}", x ? ", " : "",
			       (unsigned long long)c->crossings[x].at_ns,
			       c->crossings[x].below ? "b" : "a");
		printf("]");
	}
	printf("\n}\n");
}

/* A value in its metric's unit, for the table. */
static void format_value(char *buf, size_t len, enum sp_cmp_unit unit, double v)
{
	if (!isfinite(v)) {
		snprintf(buf, len, "-");
		return;
	}
	switch (unit) {
	case SP_CMP_U_SECONDS:
		snprintf(buf, len, "%.4gs", v);
		break;
	case SP_CMP_U_FRACTION:
		snprintf(buf, len, "%.3g%%", 100 * v);
		break;
	case SP_CMP_U_NS:
		if (fabs(v) >= 1e6)
			snprintf(buf, len, "%.4gms", v / 1e6);
		else if (fabs(v) >= 1e3)
			snprintf(buf, len, "%.4gµs", v / 1e3);
		else
			snprintf(buf, len, "%.4gns", v);
		break;
	case SP_CMP_U_PER_SECOND:
		snprintf(buf, len, "%.4g/s", v);
		break;
	default:
		snprintf(buf, len, "%.4g", v);
		break;
	}
}

/* "1.502s ± 3%": the interval as its farthest end from the median, as benchstat does. */
static void format_cell(char *buf, size_t len, enum sp_cmp_unit unit,
			const struct sp_runs_summary *s)
{
	char v[32];
	double d;

	if (!s->nr) {
		snprintf(buf, len, "-");
		return;
	}
	format_value(v, sizeof(v), unit, s->median);
	if (!s->has_ci) {
		snprintf(buf, len, "%s ± ∞", v);
		return;
	}
	d = fmax(s->median - s->ci_lo, s->ci_hi - s->median);
	if (s->median != 0)
		snprintf(buf, len, "%s ± %.0f%%", v, 100 * d / fabs(s->median));
	else
		snprintf(buf, len, "%s ± %.2g", v, d);
}

/* Pad to @w display columns ("±", "µ" and "∞" take one each). */
static void print_padded(const char *s, int w)
{
	int cols = 0;
	const char *p;

	for (p = s; *p; p++)
		cols += ((unsigned char)*p & 0xc0) != 0x80;
	fputs(s, stdout);
	for (; cols < w; cols++)
		putchar(' ');
}

/*
 * @s indented by @indent, broken at spaces before @width display columns;
 * the lines after the first indented two more.
 */
static void print_wrapped(const char *s, int indent, int width)
{
	int col, first = 1;

	while (*s) {
		const char *p = s, *brk = NULL;

		col = indent + (first ? 0 : 2);
		for (; *p && (col < width || !brk); p++) {
			if (*p == ' ')
				brk = p;
			col += ((unsigned char)*p & 0xc0) != 0x80;
		}
		if (!*p)
			brk = p;
		printf("%*s%.*s\n", indent + (first ? 0 : 2), "", (int)(brk - s), s);
		s = *brk ? brk + 1 : brk;
		first = 0;
	}
}

/* "below 180µs 3-per-cpu is faster, above it slower": the pooled CDFs' crossings */
static void print_crossings(const struct sp_cmp *c)
{
	char at[32], to[32];

	if (!c->has_crossings)
		return;
	printf("\nwakeup latency CDFs (runs pooled) cross ");
	if (!c->nr_crossings) {
		printf("nowhere between their 5%% and 95%% quantiles\n");
		return;
	}
	printf("%zu time%s:\n", c->nr_crossings, c->nr_crossings > 1 ? "s" : "");
	format_value(at, sizeof(at), SP_CMP_U_NS, (double)c->crossings[0].at_ns);
	if (c->nr_crossings == 1) {
		printf("  below %s %s is faster, above it slower\n", at,
		       c->g[c->crossings[0].below].name);
		return;
	}
	printf("  below %s %s is faster\n", at, c->g[c->crossings[0].below].name);
	for (size_t x = 1; x < c->nr_crossings; x++) {
		format_value(to, sizeof(to), SP_CMP_U_NS, (double)c->crossings[x].at_ns);
		printf("  from %s to %s %s is faster\n", at, to, c->g[c->crossings[x].below].name);
		memcpy(at, to, sizeof(at));
	}
	printf("  above %s %s is faster\n", at, c->g[!c->crossings[c->nr_crossings - 1].below].name);
}

void sp_cmp_print_text(const struct sp_cmp *c)
{
	const struct sp_shift_decile *withheld = NULL;
	char cell[64], line[1152];
	bool no_ci = false, same = false, noise = false, resampled = false;
	int i, k;

	if (c->nr_checks) {
		printf("checks of the samples:\n");
		for (k = 0; k < c->nr_checks; k++) {
			snprintf(line, sizeof(line), "%s: %s", sp_cmp_check_title(c->checks[k].kind),
				 c->checks[k].text);
			print_wrapped(line, 2, 96);
		}
		printf("\n");
	}
	print_padded("", 20);
	print_padded(c->g[0].name, 22);
	printf("%s\n", c->g[1].name);
	print_padded("", 20);
	print_padded("median ± 95% CI", 22);
	print_padded("median ± 95% CI", 22);
	printf("%-10s %-18s %s\n", "change", "P(B>A)", "p (n)");
	for (k = 0; k < c->nr_metrics; k++) {
		const struct sp_cmp_metric *cm = &c->metrics[k];

		print_padded(cm->desc->name, 20);
		for (i = 0; i < 2; i++) {
			format_cell(cell, sizeof(cell), cm->desc->unit, &cm->sum[i]);
			print_padded(cell, 22);
			no_ci |= cm->sum[i].nr && !cm->sum[i].has_ci;
		}
		if (isnan(cm->mw.p))
			snprintf(cell, sizeof(cell), "-");
		else if (!cm->significant)
			snprintf(cell, sizeof(cell), "~");
		else if (cm->verdict == SP_CMP_NOISE)
			snprintf(cell, sizeof(cell), "≈");
		else if (isnan(cm->change))
			snprintf(cell, sizeof(cell), "?");
		else
			snprintf(cell, sizeof(cell), "%+.2f%%", 100 * cm->change);
		same |= !strcmp(cell, "~");
		noise |= cm->verdict == SP_CMP_NOISE;
		print_padded(cell, 11);
		if (!cm->has_sup)
			snprintf(cell, sizeof(cell), "-");
		else if (!cm->sup.has_ci)
			snprintf(cell, sizeof(cell), "%.2f", cm->sup.p);
		else
			snprintf(cell, sizeof(cell), "%.2f [%.2f, %.2f]", cm->sup.p, cm->sup.ci_lo,
				 cm->sup.ci_hi);
		print_padded(cell, 19);
		if (isnan(cm->mw.p))
			printf("(n=%zu+%zu)\n", cm->sum[0].nr, cm->sum[1].nr);
		else
			printf("(p=%.3f n=%zu+%zu)\n", cm->mw.p, cm->sum[0].nr, cm->sum[1].nr);
	}
	if (no_ci)
		printf("± ∞: no 95%% interval of the median below 6 runs\n");
	if (same)
		printf("~: no difference shown (p > %g)\n", c->o.alpha);
	if (noise)
		printf("≈: p <= %g, but the change's %g%% interval is not wholly beyond the noise "
		       "threshold (±%g%%)\n", c->o.alpha, 100 * (1 - c->o.alpha),
		       100 * c->o.threshold);
	printf("change: of the median; P(B>A): of a run of %s above one of %s, 95%% CI;\n"
	       "p: two-sided Mann-Whitney U, a difference where p <= %g\n", c->g[1].name,
	       c->g[0].name, c->o.alpha);
	print_crossings(c);
	if (!c->has_shift)
		return;
	for (k = 0; k < SP_NR_DECILES; k++)
		resampled |= c->shift.dec[k].support == SP_SHIFT_SUPPORTED;
	printf("\nshift function (%s): deciles by Harrell-Davis", c->o.values ? "values" :
	       "wakeup latency");
	if (resampled)
		printf(", %zu bootstrap resamples of %s\n", c->shift.nr_boot,
		       c->shift.mode == SP_SHIFT_RUNS ? "whole runs" : "single values");
	else
		printf(", not resampled\n");
	printf("%-8s", "decile");
	print_padded(c->g[0].name, 14);
	print_padded(c->g[1].name, 14);
	printf("%-14s %s\n", "diff", "interval");
	for (k = 0; k < SP_NR_DECILES; k++) {
		const struct sp_shift_decile *d = &c->shift.dec[k];
		enum sp_cmp_unit u = c->o.values ? SP_CMP_U_PLAIN : SP_CMP_U_NS;
		char lo[80], hi[32];

		printf("%-8.1f", d->q);
		format_value(cell, sizeof(cell), u, d->a);
		print_padded(cell, 14);
		format_value(cell, sizeof(cell), u, d->b);
		print_padded(cell, 14);
		format_value(cell, sizeof(cell), u, fabs(d->diff));
		snprintf(lo, sizeof(lo), "%s%s", d->diff < 0 ? "-" : "+", cell);
		print_padded(lo, 14);
		if (d->support != SP_SHIFT_SUPPORTED) {
			printf(" -\n");
			withheld = d;
			continue;
		}
		format_value(lo, sizeof(lo), u, d->ci_lo);
		format_value(hi, sizeof(hi), u, d->ci_hi);
		printf(" [%s, %s]%s\n", lo, hi, d->significant ? " *" : "");
	}
	if (resampled && !withheld)
		printf("*: significant (Hochberg's step-up over the nine deciles, family-wise %g)\n",
		       SP_SHIFT_ALPHA);
	else if (resampled)
		printf("*: significant (Hochberg's step-up over the deciles with intervals, "
		       "family-wise %g)\n", SP_SHIFT_ALPHA);
	if (withheld && withheld->support == SP_SHIFT_FEW_RUNS) {
		char why[160];

		shift_withheld_reason(c, withheld, why, sizeof(why));
		printf("-: no interval, no significance: %s\n", why);
	} else if (withheld) {
		size_t n = c->shift.nr_a < c->shift.nr_b ? c->shift.nr_a : c->shift.nr_b;

		printf("-: no interval, no significance: the smaller group has %zu value%s;\n"
		       "   a 95%% interval of decile q needs n values a group, 1 - q^n - (1-q)^n >= "
		       "0.95:\n   6 for the median, 29 for 0.1 and 0.9\n", n, n == 1 ? "" : "s");
	}
}
