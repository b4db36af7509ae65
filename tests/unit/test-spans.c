// SPDX-License-Identifier: GPL-2.0-only
/*
 * Spans (analysis/spans.h, doc/design.md "Marks and spans") from hand-made
 * records: matched by key (numbers, strings, two fields), unmatched starts
 * and ends at the trace's edges, a start of a key already open, spans
 * across lost records, records that end one span and start the next, the
 * scope, marks, the pieces kept for drawing, and a pass made again.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "schedplot/analysis/spans.h"
#include "schedplot/model/scope.h"
#include "schedplot/trace/event.h"

#define START 0		/* the watches: a kind's start and end records */
#define END 1
#define MARK 2

/* The gaps the records have seen, as the reader would count them. */
static uint64_t gaps;

static uint64_t test_gaps(const void *src)
{
	(void)src;
	return gaps;
}

/* One kind of @nr_keys keys of @kind (SP_VALUE_U64 or _STR), start and end by @watched. */
static void setup(struct sp_spans *sp, int nr_keys, uint8_t kind, uint64_t t0, uint64_t t1,
		  int nr_cpus)
{
	struct sp_scope scope;

	memset(sp, 0, sizeof(*sp));
	sp->nr_kinds = 1;
	snprintf(sp->kinds[0].name, sizeof(sp->kinds[0].name), "test");
	sp->kinds[0].start_watch = START;
	sp->kinds[0].end_watch = END;
	sp->kinds[0].nr_keys = nr_keys;
	for (int i = 0; i < nr_keys; i++)
		sp->kinds[0].start_kind[i] = sp->kinds[0].end_kind[i] = kind;
	sp->nr_marks = 1;
	sp->marks[0].watch = MARK;
	sp_scope_init(&scope, t0, t1);
	assert_int_equal(sp_spans_init(sp, &scope, NULL, nr_cpus), 0);
	sp->gaps_seen = test_gaps;
	gaps = 0;
}

/* A record passing the watches in @watched (bits), with the key @a (and @b) in each. */
static void record(struct sp_spans *sp, uint32_t watched, int cpu, uint64_t ts, int pid,
		   union sp_value a, union sp_value b)
{
	union sp_value v[2] = { a, b };
	const union sp_value *by_watch[3] = { v, v, v };
	struct sp_event ev = { .ts_ns = ts, .cpu = cpu, .common_pid = pid,
			       .watched = watched, .watch_values = by_watch };
	struct sp_model_observer obs;

	sp_spans_observer(sp, &obs);
	obs.watch(obs.data, &ev);
}

static union sp_value n(uint64_t x)
{
	return (union sp_value){ .u64 = x };
}

static union sp_value s(const char *x)
{
	return (union sp_value){ .str = x };
}

static const uint32_t S = 1u << START, E = 1u << END, M = 1u << MARK;

/*
 * By key: irq 1 and irq 2 interleave, each end closes its own start.  At
 * the edges: an end before any start (its start was before the trace) is
 * an unmatched end; a start with no end when the trace ends, an unmatched
 * start.  A key never started is no match for another's end.
 */
static void test_by_key(void **state)
{
	const struct sp_span_kind *k;
	struct sp_spans sp;

	(void)state;
	setup(&sp, 1, SP_VALUE_U64, 0, UINT64_MAX, 2);
	record(&sp, E, 0, 5, 1, n(3), n(0));		/* began before the trace */
	record(&sp, S, 0, 10, 1, n(1), n(0));
	record(&sp, S, 1, 20, 2, n(2), n(0));
	record(&sp, E, 0, 30, 1, n(1), n(0));
	record(&sp, E, 1, 45, 2, n(2), n(0));
	record(&sp, E, 1, 46, 2, n(7), n(0));		/* a key never started */
	record(&sp, S, 1, 50, 2, n(4), n(0));		/* ends after the trace */
	assert_int_equal(sp_spans_finish(&sp), 0);
	k = &sp.kinds[0];
	assert_int_equal(k->durs.nr, 2);
	assert_int_equal(k->total_ns, 20 + 25);
	assert_int_equal(k->unmatched_end, 2);
	assert_int_equal(k->unmatched_start, 1);
	assert_int_equal(k->broken, 0);
	sp_spans_release(&sp);
}

/*
 * Nested or overlapping starts of one key: a start while its key is open
 * means the first start had no end (an unmatched start, not a span of the
 * outer pair); the end closes the later start; a second end finds none
 * open.  Overlapping spans of different keys are independent.
 */
static void test_nested(void **state)
{
	const struct sp_span_kind *k;
	struct sp_spans sp;

	(void)state;
	setup(&sp, 1, SP_VALUE_U64, 0, UINT64_MAX, 1);
	record(&sp, S, 0, 100, 1, n(1), n(0));
	record(&sp, S, 0, 105, 1, n(2), n(0));
	record(&sp, S, 0, 110, 1, n(1), n(0));
	record(&sp, E, 0, 130, 1, n(1), n(0));
	record(&sp, E, 0, 140, 1, n(1), n(0));
	record(&sp, E, 0, 150, 1, n(2), n(0));
	assert_int_equal(sp_spans_finish(&sp), 0);
	k = &sp.kinds[0];
	assert_int_equal(k->durs.nr, 2);
	assert_int_equal(k->total_ns, 20 + 45);
	assert_int_equal(k->unmatched_start, 1);
	assert_int_equal(k->unmatched_end, 1);
	sp_spans_release(&sp);
}

/*
 * Records lost between a start and its end: the end seen may not be its
 * start's, so the span is broken, no sample; spans wholly after the gap
 * are samples again.
 */
static void test_lost(void **state)
{
	const struct sp_span_kind *k;
	struct sp_spans sp;

	(void)state;
	setup(&sp, 1, SP_VALUE_U64, 0, UINT64_MAX, 2);
	sp_spans_keep(&sp, 0, 1000, 1);
	record(&sp, S, 0, 200, 1, n(5), n(0));
	gaps = 1;					/* CPU 1 dropped records */
	record(&sp, E, 0, 220, 1, n(5), n(0));
	record(&sp, S, 0, 230, 1, n(5), n(0));
	record(&sp, E, 0, 260, 1, n(5), n(0));
	assert_int_equal(sp_spans_finish(&sp), 0);
	k = &sp.kinds[0];
	assert_int_equal(k->broken, 1);
	assert_int_equal(k->durs.nr, 1);
	assert_int_equal(k->total_ns, 30);
	assert_int_equal(k->unmatched_start + k->unmatched_end, 0);
	/* only the whole span is drawn */
	assert_int_equal(sp.nr_pieces, 1);
	assert_int_equal(sp.pieces[0].t0_ns, 230);
	assert_int_equal(sp.pieces[0].t1_ns, 260);
	sp_spans_release(&sp);
}

/*
 * Keys of strings and of two fields: "eth0" and "eth1" are told apart;
 * the same sector of two devices is two keys.
 */
static void test_key_kinds(void **state)
{
	const struct sp_span_kind *k;
	struct sp_spans sp;

	(void)state;
	setup(&sp, 1, SP_VALUE_STR, 0, UINT64_MAX, 1);
	record(&sp, S, 0, 10, 1, s("eth0"), n(0));
	record(&sp, S, 0, 11, 1, s("eth1"), n(0));
	record(&sp, E, 0, 15, 1, s("eth1"), n(0));
	record(&sp, E, 0, 20, 1, s("eth0"), n(0));
	record(&sp, E, 0, 21, 1, s(NULL), n(0));	/* no such field: "" */
	assert_int_equal(sp_spans_finish(&sp), 0);
	k = &sp.kinds[0];
	assert_int_equal(k->durs.nr, 2);
	assert_int_equal(k->total_ns, 4 + 10);
	assert_int_equal(k->unmatched_end, 1);
	sp_spans_release(&sp);

	setup(&sp, 2, SP_VALUE_U64, 0, UINT64_MAX, 1);
	record(&sp, S, 0, 10, 1, n(8), n(4096));	/* dev 8, sector 4096 */
	record(&sp, S, 0, 12, 1, n(9), n(4096));
	record(&sp, E, 0, 30, 1, n(9), n(4096));
	record(&sp, E, 0, 31, 1, n(8), n(4097));
	assert_int_equal(sp_spans_finish(&sp), 0);
	k = &sp.kinds[0];
	assert_int_equal(k->durs.nr, 1);
	assert_int_equal(k->total_ns, 18);
	assert_int_equal(k->unmatched_end, 1);
	assert_int_equal(k->unmatched_start, 1);
	sp_spans_release(&sp);
}

/*
 * Markers of phases: each record both ends the open span and starts the
 * next; the first only starts (nothing open: no unmatched end), the last
 * phase has no end.
 */
static void test_phases(void **state)
{
	const struct sp_span_kind *k;
	struct sp_spans sp;

	(void)state;
	setup(&sp, 1, SP_VALUE_U64, 0, UINT64_MAX, 1);
	record(&sp, S | E | M, 0, 300, 1, n(6), n(0));
	record(&sp, S | E | M, 0, 400, 1, n(6), n(0));
	record(&sp, S | E | M, 0, 550, 1, n(6), n(0));
	assert_int_equal(sp_spans_finish(&sp), 0);
	k = &sp.kinds[0];
	assert_int_equal(k->durs.nr, 2);
	assert_int_equal(k->total_ns, 250);
	assert_int_equal(k->unmatched_end, 0);
	assert_int_equal(k->unmatched_start, 1);
	assert_int_equal(sp.marks[0].nr, 3);
	sp_spans_release(&sp);
}

/*
 * The scope: a span counts when its start lies in the window; an
 * unmatched end, when it does; marks by their own time.
 */
static void test_scope(void **state)
{
	const struct sp_span_kind *k;
	struct sp_spans sp;

	(void)state;
	setup(&sp, 1, SP_VALUE_U64, 100, 200, 1);
	record(&sp, S | M, 0, 90, 1, n(1), n(0));	/* starts before the window */
	record(&sp, E, 0, 110, 1, n(1), n(0));
	record(&sp, E, 0, 120, 1, n(2), n(0));		/* unmatched, inside */
	record(&sp, S | M, 0, 150, 1, n(3), n(0));	/* inside, ends after it */
	record(&sp, E, 0, 250, 1, n(3), n(0));
	record(&sp, E, 0, 260, 1, n(4), n(0));		/* unmatched, after */
	record(&sp, S, 0, 270, 1, n(5), n(0));		/* open at the end, after */
	assert_int_equal(sp_spans_finish(&sp), 0);
	k = &sp.kinds[0];
	assert_int_equal(k->durs.nr, 1);
	assert_int_equal(k->total_ns, 100);
	assert_int_equal(k->unmatched_end, 1);
	assert_int_equal(k->unmatched_start, 0);
	assert_int_equal(sp.marks[0].nr, 1);
	sp_spans_release(&sp);
}

/* Many keys open at once: the open spans grow; a pass made again starts from nothing. */
static void test_many_and_reset(void **state)
{
	const struct sp_span_kind *k;
	struct sp_model_observer obs;
	struct sp_spans sp;
	uint64_t i;

	(void)state;
	setup(&sp, 1, SP_VALUE_U64, 0, UINT64_MAX, 1);
	for (i = 0; i < 3000; i++)
		record(&sp, S, 0, 10 + i, 1, n(i), n(0));
	for (i = 0; i < 3000; i++)
		record(&sp, E, 0, 10000 + i, 1, n(2999 - i), n(0));
	k = &sp.kinds[0];
	assert_int_equal(k->durs.nr, 3000);
	assert_int_equal(k->nr_open, 0);
	sp_spans_observer(&sp, &obs);
	obs.reset(obs.data);
	assert_int_equal(k->durs.nr, 0);
	assert_int_equal(k->total_ns, 0);
	record(&sp, E, 0, 20000, 1, n(1), n(0));
	assert_int_equal(sp_spans_finish(&sp), 0);
	assert_int_equal(k->unmatched_end, 1);
	assert_int_equal(k->unmatched_start, 0);
	sp_spans_release(&sp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_by_key),
		cmocka_unit_test(test_nested),
		cmocka_unit_test(test_lost),
		cmocka_unit_test(test_key_kinds),
		cmocka_unit_test(test_phases),
		cmocka_unit_test(test_scope),
		cmocka_unit_test(test_many_and_reset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
