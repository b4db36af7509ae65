// SPDX-License-Identifier: GPL-2.0-only
/*
 * Runs keyed by a field's value (analysis/fieldkey.h): the switch-in's
 * value, the latest record's per CPU, per task and over the trace, runs
 * split where the value changes, numbers signed and unsigned, strings,
 * many values, and a pass made again.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "schedplot/analysis/fieldkey.h"
#include "schedplot/model/model.h"
#include "schedplot/trace/event.h"

/* What the timeline would be told. */
struct told {
	struct { int cpu, key; uint64_t t0, t1; } run[64];
	int nr;
	int resets;
};

static void told_run(void *data, int cpu, int key, uint64_t t0, uint64_t t1)
{
	struct told *t = data;

	assert_true(t->nr < 64);
	t->run[t->nr].cpu = cpu;
	t->run[t->nr].key = key;
	t->run[t->nr].t0 = t0;
	t->run[t->nr].t1 = t1;
	t->nr++;
}

static void told_reset(void *data)
{
	((struct told *)data)->resets++;
}

struct fixture {
	struct sp_fieldkey fk;
	struct sp_model_observer obs;
	struct told told;
};

static void setup(struct fixture *f, enum sp_fieldkey_per per, bool is_signed, bool is_string,
		  bool task_field, int nr_cpus)
{
	struct sp_model_observer next = { .run = told_run, .reset = told_reset };

	memset(f, 0, sizeof(*f));
	next.data = &f->told;
	f->fk.watch = 1;	/* not the first: the watch's own bit is what counts */
	f->fk.per = per;
	f->fk.is_signed = is_signed;
	f->fk.is_string = is_string;
	f->fk.task_field = task_field;
	assert_int_equal(sp_fieldkey_init(&f->fk, &next, nr_cpus), 0);
	sp_fieldkey_observer(&f->fk, &f->obs);
}

/* A record of the watch: @v (and @v2, a task's pid) as its values. */
static void record(struct fixture *f, int type, int cpu, uint64_t ts, int common_pid,
		   union sp_value v, union sp_value v2)
{
	union sp_value values[2] = { v, v2 };
	const union sp_value *by_watch[2] = { NULL, values };
	struct sp_event ev = { .ts_ns = ts, .cpu = cpu, .common_pid = common_pid,
			       .type = (uint8_t)type, .watched = 1u << 1,
			       .watch_values = by_watch };

	f->obs.watch(f->obs.data, &ev);
}

static union sp_value num(int64_t n)
{
	return (union sp_value){ .s64 = n };
}

static union sp_value str(const char *s)
{
	return (union sp_value){ .str = s };
}

static void run(struct fixture *f, int cpu, int pid, uint64_t t0, uint64_t t1)
{
	f->obs.run(f->obs.data, cpu, pid, t0, t1);
}

static void label_is(const struct sp_fieldkey *fk, int key, const char *want)
{
	char buf[64];

	sp_fieldkey_label(fk, key, buf, sizeof(buf));
	assert_string_equal(buf, want);
}

/* told run @i is [@t0, @t1) on @cpu, of the value labelled @label ("" for none) */
static void told_is(const struct fixture *f, int i, int cpu, uint64_t t0, uint64_t t1,
		    const char *label)
{
	assert_true(i < f->told.nr);
	assert_int_equal(f->told.run[i].cpu, cpu);
	assert_int_equal(f->told.run[i].t0, t0);
	assert_int_equal(f->told.run[i].t1, t1);
	if (!label[0])
		assert_int_equal(f->told.run[i].key, SP_FIELDKEY_UNKNOWN);
	else
		label_is(&f->fk, f->told.run[i].key, label);
}

/*
 * The switch-in's value: a run that begins at a switch of its CPU to its
 * task takes the switch's value; one that begins where a switch made
 * another task current (a repair) or with no switch has none; the idle
 * task stays 0; a record of another type is no switch-in.
 */
static void test_switch_in(void **state)
{
	struct fixture f;

	(void)state;
	setup(&f, SP_FIELDKEY_SWITCH_IN, true, false, false, 2);
	record(&f, SP_EV_SWITCH, 0, 10, 0, num(120), num(5));
	record(&f, SP_EV_SWITCH, 1, 12, 0, num(100), num(6));
	record(&f, SP_EV_WAKEUP, 0, 15, 0, num(1), num(7));	/* not a switch */
	record(&f, SP_EV_SWITCH, 0, 20, 5, num(139), num(7));
	record(&f, SP_EV_SWITCH, 0, 30, 7, num(120), num(0));
	run(&f, 0, 5, 2, 10);		/* the CPU's first run: before any switch */
	run(&f, 0, 5, 10, 20);
	run(&f, 1, 6, 12, 40);
	run(&f, 0, 8, 20, 30);		/* a repair: the switch at 20 was to 7 */
	run(&f, 0, 0, 30, 40);		/* idle */
	assert_int_equal(f.fk.error, 0);
	assert_int_equal(f.told.nr, 5);
	told_is(&f, 0, 0, 2, 10, "");
	told_is(&f, 1, 0, 10, 20, "120");
	told_is(&f, 2, 1, 12, 40, "100");
	told_is(&f, 3, 0, 20, 30, "");
	assert_int_equal(f.told.run[4].key, 0);
	assert_int_equal(sp_fieldkey_value(&f.fk, f.told.run[1].key), 120);
	sp_fieldkey_release(&f.fk);
}

/*
 * The latest record on the run's CPU: before the first, no value; a run
 * during which the value changes is told in pieces; a record repeating
 * the value splits nothing; other CPUs' records are not this CPU's.
 */
static void test_per_cpu(void **state)
{
	struct fixture f;

	(void)state;
	setup(&f, SP_FIELDKEY_PER_CPU, false, false, false, 2);
	record(&f, SP_EV_OTHER, 0, 10, 3, num(1), num(0));
	record(&f, SP_EV_OTHER, 1, 12, 3, num(3), num(0));
	record(&f, SP_EV_OTHER, 0, 25, 3, num(2), num(0));
	record(&f, SP_EV_OTHER, 0, 28, 3, num(2), num(0));	/* the same value */
	record(&f, SP_EV_OTHER, 0, 40, 3, num(1), num(0));	/* at the run's end */
	run(&f, 0, 5, 5, 40);
	run(&f, 1, 5, 15, 20);
	run(&f, 0, 6, 40, 50);
	run(&f, 0, 6, 50, 60);		/* the value at 40 holds on */
	assert_int_equal(f.fk.error, 0);
	assert_int_equal(f.told.nr, 6);
	told_is(&f, 0, 0, 5, 10, "");
	told_is(&f, 1, 0, 10, 25, "1");
	told_is(&f, 2, 0, 25, 40, "2");
	told_is(&f, 3, 1, 15, 20, "3");
	told_is(&f, 4, 0, 40, 50, "1");
	told_is(&f, 5, 0, 50, 60, "1");
	/* 1 was seen first: the same key both times */
	assert_int_equal(f.told.run[1].key, f.told.run[4].key);
	assert_int_equal(f.fk.nr_values, 3);
	sp_fieldkey_release(&f.fk);
}

/*
 * The latest record of the run's task, by common_pid: recorded on any
 * CPU, applied to runs on any CPU, in whatever order the runs come.
 */
static void test_per_task(void **state)
{
	struct fixture f;

	(void)state;
	setup(&f, SP_FIELDKEY_PER_TASK, true, false, false, 2);
	record(&f, SP_EV_OTHER, 0, 10, 7, num(-5), num(0));
	record(&f, SP_EV_OTHER, 1, 30, 7, num(4), num(0));
	record(&f, SP_EV_OTHER, 1, 31, 8, num(9), num(0));
	run(&f, 1, 7, 20, 40);
	run(&f, 0, 7, 0, 10);		/* earlier, told later */
	run(&f, 0, 9, 0, 50);		/* a task without records */
	run(&f, 0, 8, 50, 60);
	assert_int_equal(f.fk.error, 0);
	assert_int_equal(f.told.nr, 5);
	told_is(&f, 0, 1, 20, 30, "-5");
	told_is(&f, 1, 1, 30, 40, "4");
	told_is(&f, 2, 0, 0, 10, "");
	told_is(&f, 3, 0, 0, 50, "");
	told_is(&f, 4, 0, 50, 60, "9");
	assert_int_equal(sp_fieldkey_value(&f.fk, f.told.run[0].key), -5);
	sp_fieldkey_release(&f.fk);
}

/* per=FIELD: the task is the one a field of the record names, not common_pid. */
static void test_per_task_field(void **state)
{
	struct fixture f;

	(void)state;
	setup(&f, SP_FIELDKEY_PER_TASK, false, false, true, 1);
	record(&f, SP_EV_OTHER, 0, 10, 1, num(90), num(7));
	run(&f, 0, 7, 20, 30);
	run(&f, 0, 1, 30, 40);
	assert_int_equal(f.told.nr, 2);
	told_is(&f, 0, 0, 20, 30, "90");
	told_is(&f, 1, 0, 30, 40, "");
	sp_fieldkey_release(&f.fk);
}

/* Strings, over the whole trace: trailing white space left out, NULL as "". */
static void test_per_trace_strings(void **state)
{
	struct fixture f;

	(void)state;
	setup(&f, SP_FIELDKEY_PER_TRACE, false, true, false, 2);
	record(&f, SP_EV_OTHER, 1, 10, 3, str("phase 1: setup\n"), num(0));
	record(&f, SP_EV_OTHER, 0, 20, 4, str("phase 2: run"), num(0));
	record(&f, SP_EV_OTHER, 1, 30, 3, str("phase 1: setup"), num(0));
	record(&f, SP_EV_OTHER, 1, 40, 3, str(NULL), num(0));
	run(&f, 0, 5, 15, 35);
	run(&f, 1, 6, 0, 50);
	assert_int_equal(f.fk.error, 0);
	assert_int_equal(f.fk.nr_values, 3);
	assert_int_equal(f.told.nr, 8);
	told_is(&f, 0, 0, 15, 20, "phase 1: setup");
	told_is(&f, 1, 0, 20, 30, "phase 2: run");
	told_is(&f, 2, 0, 30, 35, "phase 1: setup");
	told_is(&f, 3, 1, 0, 10, "");
	told_is(&f, 4, 1, 10, 20, "phase 1: setup");
	told_is(&f, 6, 1, 30, 40, "phase 1: setup");
	/* the empty string is a value, not the want of one */
	assert_int_equal(f.told.run[7].t0, 40);
	assert_int_not_equal(f.told.run[7].key, SP_FIELDKEY_UNKNOWN);
	label_is(&f.fk, f.told.run[7].key, "");
	assert_int_equal(f.told.run[0].key, f.told.run[2].key);
	assert_int_equal(sp_fieldkey_value(&f.fk, f.told.run[0].key), 0);	/* not a number */
	sp_fieldkey_release(&f.fk);
}

/* Unsigned numbers above INT64_MAX print as such; signed ones with their sign. */
static void test_number_kinds(void **state)
{
	struct fixture f;

	(void)state;
	setup(&f, SP_FIELDKEY_PER_CPU, false, false, false, 1);
	record(&f, SP_EV_OTHER, 0, 10, 1, (union sp_value){ .u64 = UINT64_MAX }, num(0));
	run(&f, 0, 5, 10, 20);
	label_is(&f.fk, f.told.run[0].key, "18446744073709551615");
	label_is(&f.fk, 99, "?");
	sp_fieldkey_release(&f.fk);
	setup(&f, SP_FIELDKEY_PER_CPU, true, false, false, 1);
	record(&f, SP_EV_OTHER, 0, 10, 1, num(-1), num(0));
	run(&f, 0, 5, 10, 20);
	label_is(&f.fk, f.told.run[0].key, "-1");
	sp_fieldkey_release(&f.fk);
}

/* Many values and tasks: the maps grow, every key still stands for its value. */
static void test_many(void **state)
{
	struct fixture f;
	int i;

	(void)state;
	setup(&f, SP_FIELDKEY_PER_TASK, true, false, false, 1);
	for (i = 0; i < 5000; i++)
		record(&f, SP_EV_OTHER, 0, 10 + (uint64_t)i, 100 + i, num(i * 7 - 3), num(0));
	assert_int_equal(f.fk.error, 0);
	assert_int_equal(f.fk.nr_values, 5000);
	assert_int_equal(f.fk.nr_queues, 5000);
	for (i = 0; i < 5000; i += 499) {
		f.told.nr = 0;
		run(&f, 0, 100 + i, 20000, 20001);
		assert_int_equal(f.told.nr, 1);
		assert_int_equal(sp_fieldkey_value(&f.fk, f.told.run[0].key), i * 7 - 3);
	}
	sp_fieldkey_release(&f.fk);
	sp_fieldkey_release(&f.fk);	/* released twice is fine */
}

/* A pass made again starts the records over; the consumer is reset too. */
static void test_reset(void **state)
{
	struct fixture f;

	(void)state;
	setup(&f, SP_FIELDKEY_PER_CPU, false, false, false, 1);
	record(&f, SP_EV_OTHER, 0, 10, 1, num(1), num(0));
	f.obs.reset(f.obs.data);
	assert_int_equal(f.told.resets, 1);
	run(&f, 0, 5, 20, 30);
	told_is(&f, 0, 0, 20, 30, "");
	sp_fieldkey_release(&f.fk);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_switch_in),
		cmocka_unit_test(test_per_cpu),
		cmocka_unit_test(test_per_task),
		cmocka_unit_test(test_per_task_field),
		cmocka_unit_test(test_per_trace_strings),
		cmocka_unit_test(test_number_kinds),
		cmocka_unit_test(test_many),
		cmocka_unit_test(test_reset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
