// SPDX-License-Identifier: GPL-2.0-only
/*
 * sleeps: each task's sleeps by the state it was switched out in, and who
 * ended them (doc/design.md "Sleeps").  Each task's runs are put in the
 * order of their ends (runorder.c): the sleep before a run began at the
 * end of the task's run before it.  A sleep's blocking place comes from a
 * record seen before that run is told (sp_sleeps_place_seen()): each task
 * keeps its last few, and the sleep takes the one that falls inside it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/analysis/sleeps.h"
#include "schedplot/base/alloc.h"
#include "schedplot/base/error.h"
#include "schedplot/model/model.h"
#include "schedplot/trace/reader.h"

/* Stack entries looked at, at most: the trigger records the whole stack. */
#define STACK_MAX	64

/* A record that named where a task blocked. */
struct sp_sleep_mark {
	uint64_t ts_ns;
	int32_t cpu;
	uint32_t place;			/* index in places + 1, 0: a free mark */
	uint8_t source;			/* enum sp_sleep_source */
};

/*
 * A task's place in the counts, its runs put in order, and the places seen
 * for it that no sleep counted has passed yet, in time order: the pass
 * tells a run after some of the task's later ones (runorder.c and the
 * model's holding back), so several sleeps may wait for theirs.
 */
struct sp_sleep_last {
	int32_t pid;			/* first: the key in sp_sleeps.last */
	uint32_t task;			/* index in tasks + 1, 0: none yet */
	struct sp_sleep_mark *marks;	/* [head, nr) are kept */
	uint32_t head, nr, alloc;
	/*
	 * the sleeps counted last that one waker ended, not yet in
	 * sp_sleeps.wakers: a task is mostly woken by the same one, and a
	 * count here costs less than a lookup there
	 */
	int32_t waker;
	uint64_t nr_woken;
	struct sp_runorder_task order;
};

/*
 * The kernel's scheduling functions (its .sched.text, the functions marked
 * __sched, which its wchan and sched_blocked_reason step over too) and the
 * tracing that records the stack: a task blocks in the first function of
 * its stack that is none of these.  Names ending in '*' are prefixes.
 */
static const char *const not_places[] = {
	"trace_event_raw_event_*", "__traceiter_*", "perf_trace_*", "__bpf_trace_*",
	"__ftrace_trace_stack", "event_triggers_call", "stacktrace_trigger",
	"__schedule", "schedule", "schedule_idle", "schedule_user", "schedule_rtlock",
	"schedule_preempt_disabled", "preempt_schedule", "preempt_schedule_common",
	"preempt_schedule_notrace", "preempt_schedule_irq", "__cond_resched", "_cond_resched",
	"io_schedule", "io_schedule_timeout", "yield", "yield_to",
	"schedule_timeout", "schedule_timeout_interruptible", "schedule_timeout_killable",
	"schedule_timeout_uninterruptible", "schedule_timeout_idle",
	"schedule_hrtimeout", "schedule_hrtimeout_range", "schedule_hrtimeout_range_clock",
	"do_nanosleep",
	"__wait_on_bit", "__wait_on_bit_lock", "out_of_line_wait_on_bit",
	"out_of_line_wait_on_bit_timeout", "out_of_line_wait_on_bit_lock", "bit_wait",
	"bit_wait_io", "bit_wait_timeout", "bit_wait_io_timeout",
	"wait_for_completion*", "__wait_for_common", "wait_for_common", "wait_for_common_io",
	"do_wait_for_common",
	"mutex_lock*", "__mutex_lock*", "ww_mutex_lock*", "__ww_mutex_lock*",
	"down", "down_interruptible", "down_killable", "down_timeout", "__down*",
	"down_read*", "down_write*", "rwsem_down_read_slowpath", "rwsem_down_write_slowpath",
	"rt_mutex_slowlock*", "__rt_mutex_slowlock*", "rt_mutex_lock*", "rtlock_slowlock*",
	"percpu_rwsem_wait", "__percpu_down_read",
};

static bool not_a_place(const char *name)
{
	for (size_t i = 0; i < sizeof(not_places) / sizeof(not_places[0]); i++) {
		const char *p = not_places[i];
		size_t n = strlen(p);

		if (p[n - 1] == '*' ? !strncmp(name, p, n - 1) : !strcmp(name, p))
			return true;
	}
	return false;
}

const char *sp_sleep_place_of_stack(const char *const *names, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		if (names[i] && !not_a_place(names[i]))
			return names[i];
	return NULL;
}

enum sp_sleep_state sp_sleep_state_of(const char *state)
{
	if (state && state[0] == 'S')
		return SP_SLEEP_S;
	if (state && state[0] == 'D')
		return SP_SLEEP_D;
	return SP_SLEEP_OTHER;
}

const char *sp_sleep_state_name(enum sp_sleep_state s)
{
	static const char *const names[SP_SLEEP_NR] = { "S", "D", "other" };

	return s < SP_SLEEP_NR ? names[s] : "other";
}

void sp_sleeps_init(struct sp_sleeps *sl, const struct sp_scope *scope)
{
	memset(sl, 0, sizeof(*sl));
	sl->scope = *scope;
	for (int k = 0; k < SP_SLEEP_NR_SOURCES; k++)
		sl->req[k] = -1;
}

void sp_sleeps_release(struct sp_sleeps *sl)
{
	for (size_t i = 0; i < sl->nr_tasks; i++)
		free(sl->tasks[i].places);
	free(sl->tasks);
	for (size_t i = 0; i < sl->nr_places; i++)
		free(sl->places[i]);
	free(sl->places);
	free(sl->place_hash);
	for (size_t i = 0; i < sl->last.alloc; i++)
		free(((struct sp_sleep_last *)sl->last.slots)[i].marks);
	sp_pidtab_release(&sl->last);
	sp_behind_table_release(&sl->wakers);
	memset(sl, 0, sizeof(*sl));
}


static uint32_t name_hash(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

/* @name's index in places + 1, added when new; 0 for ENOMEM. */
static uint32_t place_index(struct sp_sleeps *sl, const char *name)
{
	size_t mask, i;

	if ((sl->nr_places + 1) * 2 > sl->alloc_place_hash) {
		size_t alloc = sl->alloc_place_hash ? sl->alloc_place_hash * 2 : 64;
		uint32_t *h = sp_alloc_array(alloc, sizeof(*h));

		if (!h)
			return 0;
		free(sl->place_hash);
		sl->place_hash = h;
		sl->alloc_place_hash = alloc;
		for (size_t k = 0; k < sl->nr_places; k++) {
			i = name_hash(sl->places[k]) & (alloc - 1);
			while (h[i])
				i = (i + 1) & (alloc - 1);
			h[i] = (uint32_t)k + 1;
		}
	}
	mask = sl->alloc_place_hash - 1;
	for (i = name_hash(name) & mask; sl->place_hash[i]; i = (i + 1) & mask)
		if (!strcmp(sl->places[sl->place_hash[i] - 1], name))
			return sl->place_hash[i];
	if (sp_grow_array(&sl->places, &sl->alloc_places, sl->nr_places + 1, sizeof(*sl->places)))
		return 0;
	sl->places[sl->nr_places] = strdup(name);
	if (!sl->places[sl->nr_places])
		return 0;
	sl->place_hash[i] = (uint32_t)++sl->nr_places;
	return sl->place_hash[i];
}

void sp_sleeps_place_seen(struct sp_sleeps *sl, enum sp_sleep_source source, int pid, int cpu,
			  uint64_t ts_ns, const char *place)
{
	struct sp_sleep_last *l;
	uint32_t idx;

	sl->has_places = true;
	if (pid <= 0 || !place)
		return;
	idx = place_index(sl, place);
	l = idx ? sp_pidtab_get(&sl->last, pid, sizeof(*l), 256) : NULL;
	if (!l) {
		sl->error = -ENOMEM;
		return;
	}
	if (l->head && l->nr == l->alloc) {
		memmove(l->marks, l->marks + l->head, (l->nr - l->head) * sizeof(*l->marks));
		l->nr -= l->head;
		l->head = 0;
	}
	if (l->nr == l->alloc) {
		size_t alloc = l->alloc;

		if (sp_grow_array(&l->marks, &alloc, l->nr + 1, sizeof(*l->marks)) ||
		    alloc > UINT32_MAX) {
			sl->error = -ENOMEM;
			return;
		}
		l->alloc = (uint32_t)alloc;
	}
	l->marks[l->nr++] = (struct sp_sleep_mark){ .ts_ns = ts_ns, .cpu = cpu, .place = idx,
						    .source = (uint8_t)source };
}

/* Forget @l's places from before @ts_ns: no sleep left to count holds them. */
static void marks_drop(struct sp_sleep_last *l, uint64_t ts_ns)
{
	while (l->head < l->nr && l->marks[l->head].ts_ns < ts_ns)
		l->head++;
	if (l->head == l->nr)
		l->head = l->nr = 0;
}

/*
 * The place of the sleep from @prev's end to @r's start: a stack on the
 * CPU @prev left, else a reason; 0 when none names it.
 */
static __attribute__((noinline)) uint32_t place_of_sleep(struct sp_sleep_last *l,
							  const struct sp_run *prev,
							  const struct sp_run *r)
{
	uint32_t reason = 0, stack = 0;

	marks_drop(l, prev->end_ns);
	for (uint32_t i = l->head; i < l->nr && l->marks[i].ts_ns <= r->start_ns; i++) {
		const struct sp_sleep_mark *k = &l->marks[i];

		if (k->source == SP_SLEEP_STACK && k->cpu == prev->cpu && !stack)
			stack = k->place;
		if (k->source == SP_SLEEP_REASON && !reason)
			reason = k->place;
	}
	return stack ? stack : reason;
}

/* Count a sleep of @t in @state at @place (index + 1).  Return: 0 or -ENOMEM. */
static int place_add(struct sp_sleep_task *t, uint32_t place, enum sp_sleep_state state,
		     uint64_t ns)
{
	struct sp_sleep_place *p;
	size_t i;

	for (i = 0; i < t->nr_places; i++)
		if (t->places[i].place == place - 1 && t->places[i].state == state)
			break;
	if (i == t->nr_places) {
		if (sp_grow_array(&t->places, &t->alloc_places, i + 1, sizeof(*t->places)))
			return -ENOMEM;
		t->places[t->nr_places++] = (struct sp_sleep_place){ .place = place - 1,
								     .state = (uint8_t)state };
	}
	p = &t->places[i];
	p->nr++;
	p->ns += ns;
	return 0;
}

/* @l's task counted from now on, in sl->tasks.  Return: 0 or -ENOMEM. */
static __attribute__((noinline)) int task_add(struct sp_sleeps *sl, struct sp_sleep_last *l,
					      int pid)
{
	if (sp_grow_array(&sl->tasks, &sl->alloc_tasks, sl->nr_tasks + 1, sizeof(*sl->tasks))) {
		sl->error = -ENOMEM;
		return -ENOMEM;
	}
	sl->tasks[sl->nr_tasks] = (struct sp_sleep_task){ .pid = pid };
	l->task = (uint32_t)++sl->nr_tasks;
	return 0;
}

/* Put @l's sleeps counted of one waker in sl->wakers; @waker's come next. */
static __attribute__((noinline)) void woken_flush(struct sp_sleeps *sl, struct sp_sleep_last *l,
						  int32_t waker)
{
	if (l->nr_woken)
		sp_behind_table_add(&sl->wakers, l->pid, l->waker, l->nr_woken);
	if (sl->wakers.error)
		sl->error = sl->wakers.error;
	l->waker = waker;
	l->nr_woken = 0;
}

/* The sleep between @prev, the task's run before, and @r of @l's task, if there was one. */
static inline __attribute__((always_inline)) void
count_sleep(struct sp_sleeps *sl, struct sp_sleep_last *l, const struct sp_run *prev,
	    const struct sp_run *r)
{
	struct sp_sleep_task *t;
	enum sp_sleep_state state;
	uint64_t woke;
	uint32_t place;

	/* a run ended by a repair or by the trace's end begins no sleep */
	if (!prev || prev->end != SP_RUN_END_SWITCH || prev->end_runnable)
		return;
	/* it became runnable again at the start of its wait, else of its run */
	woke = r->start_ns - (r->wait_ns < r->start_ns ? r->wait_ns : r->start_ns);
	if (woke < prev->end_ns || !sp_scope_time(&sl->scope, prev->end_ns) ||
	    !sp_scope_cpu(&sl->scope, prev->cpu) ||
	    (sl->scope.target && !sp_scope_task(&sl->scope, r->pid)))
		return;
	if (!l->task && task_add(sl, l, r->pid))
		return;
	t = &sl->tasks[l->task - 1];
	state = sp_sleep_state_of(prev->end_state);
	t->nr[state]++;
	t->ns[state] += woke - prev->end_ns;
	/* most tasks have no place named */
	place = l->nr ? place_of_sleep(l, prev, r) : 0;
	if (place && place_add(t, place, state, woke - prev->end_ns))
		sl->error = -ENOMEM;
	if (r->waker != SP_WAKER_NONE) {
		if (r->waker != l->waker)
			woken_flush(sl, l, r->waker);
		l->nr_woken++;
	}
}

/*
 * Count the sleep before @r, a run of sl->cur's task; the places up to its
 * start are then used up.
 */
static inline __attribute__((always_inline)) void
sleep_before(void *data, const struct sp_run *prev, const struct sp_run *r)
{
	struct sp_sleeps *sl = data;

	count_sleep(sl, sl->cur, prev, r);
	if (sl->cur->nr)
		marks_drop(sl->cur, r->start_ns + 1);
}

/* sp_sleeps_add() of a run of a task (pid > 0): the one function a run costs. */
static __attribute__((noinline)) void add_run(struct sp_sleeps *sl, const struct sp_run *r)
{
	struct sp_sleep_last *l = NULL;

	/* most tasks are where their lookup begins */
	if (sl->last.alloc)
		l = (struct sp_sleep_last *)sl->last.slots + sp_pidtab_home(r->pid, sl->last.alloc);
	if (!l || l->pid != r->pid)
		l = sp_pidtab_get(&sl->last, r->pid, sizeof(*l), 256);
	if (!l) {
		/* its sleeps are not counted: they need the run before, in order */
		sl->error = -ENOMEM;
		return;
	}
	sl->cur = l;
	sp_runorder_task_add(&l->order, r, sleep_before, sl);
}

void sp_sleeps_add(struct sp_sleeps *sl, const struct sp_run *r)
{
	if (r->pid > 0)
		add_run(sl, r);
}

void sp_sleeps_finish(struct sp_sleeps *sl)
{
	struct sp_sleep_last *last = sl->last.slots;

	for (size_t i = 0; i < sl->last.alloc; i++) {
		if (!last[i].pid)
			continue;
		sl->cur = &last[i];
		sp_runorder_task_flush(&last[i].order, sleep_before, sl);
		woken_flush(sl, &last[i], last[i].waker);
	}
}

const struct sp_sleep_task *sp_sleeps_find(const struct sp_sleeps *sl, int pid)
{
	const struct sp_sleep_last *l = sp_pidtab_find(&sl->last, pid, sizeof(*l));

	return l && l->task ? &sl->tasks[l->task - 1] : NULL;
}

/* Places shown, at most, and the order: longest first, then by state, then first seen. */
static int cmp_place(const void *pa, const void *pb)
{
	const struct sp_sleep_place *a = *(const struct sp_sleep_place *const *)pa;
	const struct sp_sleep_place *b = *(const struct sp_sleep_place *const *)pb;

	if (a->ns != b->ns)
		return a->ns > b->ns ? -1 : 1;
	if (a->state != b->state)
		return a->state < b->state ? -1 : 1;
	return a < b ? -1 : a > b;
}

size_t sp_sleep_task_places(const struct sp_sleep_task *t, const struct sp_sleep_place **out,
			    size_t max)
{
	const struct sp_sleep_place **v;
	size_t n;

	if (!t || !t->nr_places || !max)
		return 0;
	v = sp_alloc_array(t->nr_places, sizeof(*v));
	if (!v)
		return 0;
	for (size_t i = 0; i < t->nr_places; i++)
		v[i] = &t->places[i];
	qsort(v, t->nr_places, sizeof(*v), cmp_place);
	n = t->nr_places < max ? t->nr_places : max;
	memcpy(out, v, n * sizeof(*v));
	free(v);
	return n;
}

int sp_sleeps_request(struct sp_sleeps *sl, struct sp_reader *r, struct sp_error *err)
{
	static const char *const stack_fields[] = { "caller" };
	static const char *const reason_fields[] = { "pid", "caller" };
	static const struct sp_event_request want[SP_SLEEP_NR_SOURCES] = {
		[SP_SLEEP_STACK] = { "ftrace:kernel_stack", stack_fields, 1 },
		[SP_SLEEP_REASON] = { "sched:sched_blocked_reason", reason_fields, 2 },
	};
	int ret;

	/* an event the trace lacks, or holds in a layout not read here, names nothing */
	for (int k = 0; k < SP_SLEEP_NR_SOURCES; k++) {
		ret = sp_reader_request_event(r, want[k].name, want[k].fields, want[k].nr_fields,
					      err);
		if (ret == -ENOMEM)
			return ret;
		if (ret < 0) {
			sp_error_clear(err);
			continue;
		}
		sl->req[k] = ret;
	}
	if (sl->req[SP_SLEEP_STACK] < 0 && sl->req[SP_SLEEP_REASON] < 0)
		return 0;
	sl->reader = r;
	return 0;
}

/*
 * The function @addr lies in.  The symbols load at the first record that
 * needs them: every trace-cmd file has the kernel_stack format, few have
 * its records, and parsing a kernel's symbols costs more than the pass
 * over a million events.  Without symbols, stacks name nothing and
 * callers are addresses.
 */
static const char *function_at(struct sp_sleeps *sl, uint64_t addr)
{
	if (!sl->functions_tried) {
		struct sp_error err = { 0 };

		sl->functions_tried = true;
		if (sp_reader_load_functions(sl->reader, &err) == -ENOMEM)
			sl->error = -ENOMEM;
		sp_error_clear(&err);
	}
	return sp_reader_function(sl->reader, addr);
}

/* A record asked for by sp_sleeps_request(): the place it names, if any. */
static void obs_extra(void *data, const struct sp_event *ev)
{
	struct sp_sleeps *sl = data;
	char hex[24];

	if (ev->extra == sl->req[SP_SLEEP_STACK]) {
		const struct sp_addrs *a = ev->values[0].addrs;
		const char *names[STACK_MAX] = { NULL };
		size_t n = a->nr < STACK_MAX ? a->nr : STACK_MAX;

		for (size_t i = 0; i < n; i++)
			names[i] = function_at(sl, a->addr[i]);
		sp_sleeps_place_seen(sl, SP_SLEEP_STACK, ev->common_pid, ev->cpu, ev->ts_ns,
				     sp_sleep_place_of_stack(names, n));
	} else if (ev->extra == sl->req[SP_SLEEP_REASON]) {
		const char *name = function_at(sl, ev->values[1].u64);

		if (!name) {
			snprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)ev->values[1].u64);
			name = hex;
		}
		sp_sleeps_place_seen(sl, SP_SLEEP_REASON, (int)ev->values[0].s64, ev->cpu,
				     ev->ts_ns, name);
	}
}

static void obs_run_info(void *data, const struct sp_run *r)
{
	/* half the runs are the idle task's: they begin no sleep, and cost a test */
	if (r->pid > 0)
		add_run(data, r);
}

static void obs_reset(void *data)
{
	struct sp_sleeps *sl = data;
	struct sp_scope scope = sl->scope;
	struct sp_reader *reader = sl->reader;
	bool functions_tried = sl->functions_tried;
	int req[SP_SLEEP_NR_SOURCES];

	memcpy(req, sl->req, sizeof(req));
	sp_sleeps_release(sl);
	sp_sleeps_init(sl, &scope);
	sl->reader = reader;
	sl->functions_tried = functions_tried;
	memcpy(sl->req, req, sizeof(req));
}

void sp_sleeps_observer(struct sp_sleeps *sl, struct sp_model_observer *obs)
{
	*obs = SP_MODEL_OBSERVER(sl, .run_info = obs_run_info, .run_info_no_idle = true,
				 .extra = sl->reader ? obs_extra : NULL, .reset = obs_reset);
}
