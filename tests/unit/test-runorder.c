// SPDX-License-Identifier: GPL-2.0-only
/*
 * runorder (analysis/runorder.c): each task's runs handed back in the
 * order of their ends, up to SP_RUNORDER_KEEP late, each with the task's
 * run handed out before it that ended latest; checked against the rule
 * written out plainly, over runs that come in order, a little late, and
 * too late.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "schedplot/analysis/runorder.h"
#include "schedplot/model/model.h"

#define NR_RUNS		4000
#define NR_PIDS		5

/* One hand-out: the run and the one before it (end 0: none). */
struct out {
	int pid;
	uint64_t start, end, prev_end, prev_start;
	int cpu;
};

struct outs {
	struct out v[NR_RUNS];
	size_t nr;
};

static void record(void *data, const struct sp_run *prev, const struct sp_run *r)
{
	struct outs *o = data;

	assert_true(o->nr < NR_RUNS);
	o->v[o->nr++] = (struct out){ r->pid, r->start_ns, r->end_ns, prev ? prev->end_ns : 0,
				      prev ? prev->start_ns : 0, r->cpu };
}

static bool before(const struct sp_run *a, const struct sp_run *b)
{
	if (a->end_ns != b->end_ns)
		return a->end_ns < b->end_ns;
	if (a->start_ns != b->start_ns)
		return a->start_ns < b->start_ns;
	return a->cpu < b->cpu;
}

/* The rule plainly: a sorted array of at most KEEP runs and a copy of the last. */
struct plain {
	struct sp_run held[SP_RUNORDER_KEEP];
	size_t nr;
	bool has_last;
	struct sp_run last;
};

static void plain_out(struct plain *p, const struct sp_run *r, struct outs *o)
{
	struct sp_run run = *r;

	record(o, p->has_last ? &p->last : NULL, &run);
	if (!p->has_last || run.end_ns >= p->last.end_ns) {
		p->last = run;
		p->has_last = true;
	}
}

static void plain_add(struct plain *p, const struct sp_run *r, struct outs *o)
{
	size_t i;

	if (p->nr == SP_RUNORDER_KEEP) {
		struct sp_run first = p->held[0];

		if (before(r, &first)) {
			plain_out(p, r, o);
			return;
		}
		memmove(p->held, p->held + 1, --p->nr * sizeof(*p->held));
		plain_out(p, &first, o);
	}
	for (i = p->nr; i > 0 && before(r, &p->held[i - 1]); i--)
		p->held[i] = p->held[i - 1];
	p->held[i] = *r;
	p->nr++;
}

static struct outs got, want;

static void test_runorder(void **state)
{
	static struct plain plain[NR_PIDS + 1];
	struct sp_runorder ro = { 0 };
	uint64_t now[NR_PIDS + 1] = { 0 };
	unsigned int seed = 1;

	(void)state;
	got.nr = want.nr = 0;
	memset(plain, 0, sizeof(plain));
	for (int i = 0; i < NR_RUNS; i++) {
		int pid = 1 + (int)((seed = seed * 1103515245u + 12345u) >> 16) % NR_PIDS;
		unsigned int k = (seed = seed * 1103515245u + 12345u) >> 16;
		struct sp_run r = { .pid = pid, .cpu = (int)(k % 3) };

		/* mostly in order; some late, by up to 6 runs' time; some equal ends */
		now[pid] += 10;
		r.end_ns = now[pid] - (k % 5 == 0 ? (k / 5) % 60 : 0) - (k % 7 == 0 ? 10 : 0);
		r.start_ns = r.end_ns - 1 - (k / 7) % 3;
		sp_runorder_add(&ro, &r, record, &got);
		plain_add(&plain[pid], &r, &want);
	}
	sp_runorder_flush(&ro, record, &got);
	assert_int_equal(ro.error, 0);
	/* the tasks held may be flushed in any order: compare per task */
	for (int pid = 1; pid <= NR_PIDS; pid++) {
		size_t g = 0, w = 0;

		for (size_t k = 0; k < plain[pid].nr; k++)
			plain_out(&plain[pid], &plain[pid].held[k], &want);
		for (;;) {
			while (g < got.nr && got.v[g].pid != pid)
				g++;
			while (w < want.nr && want.v[w].pid != pid)
				w++;
			if (g == got.nr || w == want.nr)
				break;
			assert_int_equal(got.v[g].start, want.v[w].start);
			assert_int_equal(got.v[g].end, want.v[w].end);
			assert_int_equal(got.v[g].cpu, want.v[w].cpu);
			assert_int_equal(got.v[g].prev_start, want.v[w].prev_start);
			assert_int_equal(got.v[g].prev_end, want.v[w].prev_end);
			g++;
			w++;
		}
		assert_int_equal(g, got.nr);
		assert_int_equal(w, want.nr);
	}
	assert_int_equal(got.nr, NR_RUNS);
	assert_int_equal(want.nr, NR_RUNS);
	sp_runorder_release(&ro);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_runorder),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
