// SPDX-License-Identifier: GPL-2.0-only
/*
 * irqtime: interrupt time per CPU and source from the irq events; see
 * include/schedplot/analysis/irqtime.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/analysis/irqtime.h"
#include "schedplot/base/alloc.h"
#include "schedplot/base/span.h"
#include "schedplot/model/model.h"
#include "schedplot/trace/event.h"
#include "schedplot/trace/reader.h"

enum { HARD_ENTRY, HARD_EXIT, SOFT_ENTRY, SOFT_EXIT, NR_REQ };

/* the kernel's softirq_to_name[], in the order of its enum */
static const char *const softirq_names[] = {
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER",
	"RCU",
};

const char *sp_irqtime_softirq_name(uint64_t vec)
{
	return vec < sizeof(softirq_names) / sizeof(softirq_names[0]) ? softirq_names[vec] : NULL;
}

int sp_irqtime_init(struct sp_irqtime *it, int nr_cpus, uint64_t w0_ns, uint64_t w1_ns)
{
	memset(it, 0, sizeof(*it));
	it->cpus = sp_alloc_array(nr_cpus > 0 ? (size_t)nr_cpus : 1, sizeof(*it->cpus));
	if (!it->cpus)
		return -ENOMEM;
	it->nr_cpus = nr_cpus;
	it->w0_ns = w0_ns;
	it->w1_ns = w1_ns;
	for (int k = 0; k < NR_REQ; k++)
		it->req[k] = -1;
	sp_irqtime_reset(it);
	return 0;
}

void sp_irqtime_release(struct sp_irqtime *it)
{
	SP_FREE_ALL(it->cpus, it->src);
	memset(it, 0, sizeof(*it));
}

void sp_irqtime_reset(struct sp_irqtime *it)
{
	for (int c = 0; c < it->nr_cpus; c++) {
		memset(&it->cpus[c], 0, sizeof(it->cpus[c]));
		it->cpus[c].hard_ns = it->cpus[c].soft_ns = SP_NO_TS;
	}
	it->nr_src = 0;
	it->error = 0;
}

int sp_irqtime_request(struct sp_irqtime *it, struct sp_reader *r, struct sp_error *err)
{
	static const char *const name_field[] = { "name" }, *const vec_field[] = { "vec" };
	static const struct sp_event_request want[NR_REQ] = {
		[HARD_ENTRY] = { "irq:irq_handler_entry", name_field, 1 },
		[HARD_EXIT] = { "irq:irq_handler_exit", NULL, 0 },
		[SOFT_ENTRY] = { "irq:softirq_entry", vec_field, 1 },
		[SOFT_EXIT] = { "irq:softirq_exit", NULL, 0 },
	};

	for (int k = 0; k < NR_REQ; k++) {
		int ret = sp_reader_request_present(r, &want[k], &it->req[k], err);

		if (ret)
			return ret;
	}
	return (it->req[HARD_ENTRY] >= 0 && it->req[HARD_EXIT] >= 0) ||
	       (it->req[SOFT_ENTRY] >= 0 && it->req[SOFT_EXIT] >= 0);
}

/* the index of source (@kind, @name) on @cpu, added when new; -1 out of memory */
static int source(struct sp_irqtime *it, enum sp_irqtime_kind kind, const char *name, int cpu)
{
	struct sp_irqtime_source *s;

	for (size_t i = 0; i < it->nr_src; i++) {
		s = &it->src[i];
		if (s->kind == kind && s->cpu == cpu && !strncmp(s->name, name, sizeof(s->name) - 1))
			return (int)i;
	}
	if (it->error || sp_grow_array(&it->src, &it->alloc_src, it->nr_src + 1, sizeof(*it->src))) {
		it->error = -ENOMEM;
		return -1;
	}
	s = &it->src[it->nr_src];
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->cpu = cpu;
	return (int)it->nr_src++;
}

/* the part of [@t0, @t1] inside the window */
static uint64_t clip(const struct sp_irqtime *it, uint64_t t0, uint64_t t1)
{
	return sp_span_clip(&t0, &t1, it->w0_ns, it->w1_ns) ? t1 - t0 : 0;
}

void sp_irqtime_add(struct sp_irqtime *it, const struct sp_event *ev)
{
	struct sp_irqtime_cpu *c;
	char vec[24];
	uint64_t ns;
	int k;

	if (ev->type != SP_EV_EXTRA || ev->cpu < 0 || ev->cpu >= it->nr_cpus)
		return;
	for (k = 0; k < NR_REQ; k++)
		if (it->req[k] >= 0 && ev->extra == it->req[k])
			break;
	if (k == NR_REQ)
		return;
	c = &it->cpus[ev->cpu];
	switch (k) {
	case HARD_ENTRY:
		c->hard_ns = ev->ts_ns;
		c->hard_src = source(it, SP_IRQTIME_IRQ, ev->values[0].str ? ev->values[0].str : "?",
				     ev->cpu);
		break;
	case HARD_EXIT:
		if (c->hard_ns == SP_NO_TS)
			break;
		ns = clip(it, c->hard_ns, ev->ts_ns);
		if (c->hard_src >= 0)
			it->src[c->hard_src].ns += ns;
		if (c->soft_ns != SP_NO_TS && c->soft_ns <= c->hard_ns)
			c->soft_nested_ns += ns;
		c->hard_ns = SP_NO_TS;
		break;
	case SOFT_ENTRY:
		c->soft_ns = ev->ts_ns;
		c->soft_vec = (int)(ev->values[0].u64 & 0xffff);
		c->soft_nested_ns = 0;
		break;
	case SOFT_EXIT: {
		const char *name = sp_irqtime_softirq_name((uint64_t)c->soft_vec);
		int s;

		if (c->soft_ns == SP_NO_TS)
			break;
		ns = clip(it, c->soft_ns, ev->ts_ns);
		ns = ns > c->soft_nested_ns ? ns - c->soft_nested_ns : 0;
		if (!name) {
			snprintf(vec, sizeof(vec), "vec %d", c->soft_vec);
			name = vec;
		}
		s = ns ? source(it, SP_IRQTIME_SOFTIRQ, name, ev->cpu) : -1;
		if (s >= 0)
			it->src[s].ns += ns;
		c->soft_ns = SP_NO_TS;
		break;
	}
	}
}
