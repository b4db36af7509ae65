// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-CPU frequency and idle state from the power events; see
 * include/schedplot/model/power.h.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/base/alloc.h"
#include "schedplot/model/model.h"
#include "schedplot/model/power.h"
#include "schedplot/model/timeline.h"
#include "schedplot/trace/event.h"
#include "schedplot/trace/reader.h"

static const char *const event_name[SP_POWER_NR_KINDS] = {
	[SP_POWER_FREQ] = "power:cpu_frequency",
	[SP_POWER_IDLE] = "power:cpu_idle",
};

int sp_power_init(struct sp_power *p, int nr_cpus, uint64_t w0_ns, uint64_t w1_ns)
{
	memset(p, 0, sizeof(*p));
	p->cpus = sp_alloc_array(nr_cpus > 0 ? nr_cpus : 1, sizeof(*p->cpus));
	if (!p->cpus)
		return -ENOMEM;
	p->nr_cpus = nr_cpus;
	p->w0_ns = w0_ns;
	p->w1_ns = w1_ns;
	for (int k = 0; k < SP_POWER_NR_KINDS; k++)
		p->request[k] = -1;
	sp_power_reset(p);
	return 0;
}

void sp_power_release(struct sp_power *p)
{
	free(p->cpus);
	memset(p, 0, sizeof(*p));
}

void sp_power_reset(struct sp_power *p)
{
	for (int c = 0; c < p->nr_cpus; c++) {
		struct sp_power_cpu *pc = &p->cpus[c];

		memset(pc, 0, sizeof(*pc));
		for (int k = 0; k < SP_POWER_NR_KINDS; k++) {
			pc->since_ns[k] = SP_NO_TS;
			pc->value[k] = -1;
		}
	}
	memset(p->nr_events, 0, sizeof(p->nr_events));
	p->max_idle_state = -1;
}

int sp_power_request(struct sp_power *p, struct sp_reader *r, bool freq, bool idle,
		     struct sp_error *err)
{
	static const char *const fields[] = { "state", "cpu_id" };
	bool want[SP_POWER_NR_KINDS] = { [SP_POWER_FREQ] = freq, [SP_POWER_IDLE] = idle };

	for (int k = 0; k < SP_POWER_NR_KINDS; k++) {
		struct sp_event_request event = { event_name[k], fields, 2 };
		int ret;

		if (!want[k] || p->request[k] >= 0)
			continue;
		ret = sp_reader_request_present(r, &event, &p->request[k], err);
		if (ret)
			return ret;
	}
	return 0;
}

/* The value of @kind on @cpu was @value during [since, t1): account it. */
static void close_segment(struct sp_power *p, int kind, int cpu, uint64_t t1)
{
	struct sp_power_cpu *pc = &p->cpus[cpu];
	uint64_t t0 = pc->since_ns[kind];
	int64_t v = pc->value[kind];

	if (t0 == SP_NO_TS || t1 <= t0)
		return;
	if (kind == SP_POWER_FREQ) {
		uint64_t a = t0 > p->w0_ns ? t0 : p->w0_ns;
		uint64_t b = t1 < p->w1_ns ? t1 : p->w1_ns;

		if (b > a) {
			pc->khz_ns += (double)v * (double)(b - a);
			pc->khz2_ns += (double)v * (double)v * (double)(b - a);
			pc->freq_known_ns += b - a;
		}
	}
	if (p->tl[kind])
		sp_timeline_add(p->tl[kind], cpu, (int)(kind == SP_POWER_IDLE ? v + 1 : v), t0, t1);
}

void sp_power_add(struct sp_power *p, const struct sp_event *ev)
{
	struct sp_power_cpu *pc;
	uint64_t state, cpu, ts;
	int kind;

	if (ev->type != SP_EV_EXTRA)
		return;
	for (kind = 0; kind < SP_POWER_NR_KINDS; kind++)
		if (p->request[kind] >= 0 && ev->extra == p->request[kind])
			break;
	if (kind == SP_POWER_NR_KINDS)
		return;
	state = ev->values[0].u64;
	cpu = ev->values[1].u64;
	if (cpu >= (uint64_t)p->nr_cpus)
		return;
	pc = &p->cpus[cpu];
	/* records about one CPU can fire on several: keep its time monotonic */
	ts = ev->ts_ns;
	if (pc->since_ns[kind] != SP_NO_TS && ts < pc->since_ns[kind])
		ts = pc->since_ns[kind];
	close_segment(p, kind, (int)cpu, ts);
	p->nr_events[kind]++;
	if (kind == SP_POWER_IDLE) {
		/* a u32 field, also when read sign-extended */
		state &= UINT32_MAX;
		pc->value[kind] = state == SP_POWER_IDLE_EXIT ? -1 : (int64_t)state;
		if (pc->value[kind] > p->max_idle_state)
			p->max_idle_state = (int)pc->value[kind];
	} else {
		pc->value[kind] = (int64_t)(state & INT32_MAX);
	}
	pc->since_ns[kind] = ts;
}

void sp_power_finish(struct sp_power *p, uint64_t end_ns)
{
	for (int c = 0; c < p->nr_cpus; c++)
		for (int k = 0; k < SP_POWER_NR_KINDS; k++) {
			close_segment(p, k, c, end_ns);
			if (p->cpus[c].since_ns[k] != SP_NO_TS && p->cpus[c].since_ns[k] < end_ns)
				p->cpus[c].since_ns[k] = end_ns;
		}
}

double sp_power_mean_khz(const struct sp_power *p, int cpu, uint64_t *known_ns)
{
	const struct sp_power_cpu *pc = &p->cpus[cpu];

	*known_ns = pc->freq_known_ns;
	return pc->freq_known_ns ? pc->khz_ns / (double)pc->freq_known_ns : 0;
}

uint64_t sp_power_spread(const struct sp_power *p, const bool *cpus, double *mean_khz,
			 double *spread)
{
	double khz_ns = 0, khz2_ns = 0, mean, var;
	uint64_t known = 0;

	*mean_khz = *spread = 0;
	for (int c = 0; c < p->nr_cpus; c++) {
		if (cpus && !cpus[c])
			continue;
		khz_ns += p->cpus[c].khz_ns;
		khz2_ns += p->cpus[c].khz2_ns;
		known += p->cpus[c].freq_known_ns;
	}
	if (!known)
		return 0;
	mean = khz_ns / (double)known;
	var = khz2_ns / (double)known - mean * mean;
	if (var <= 1e-12 * mean * mean)
		var = 0;
	*mean_khz = mean;
	*spread = mean > 0 ? sqrt(var) / mean : 0;
	return known;
}
