// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedplot stats: the numbers behind the pictures, as text for a bug
 * report or as one JSON object for scripts.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/analysis/antagonist.h"
#include "schedplot/analysis/chain.h"
#include "schedplot/analysis/losttime.h"
#include "schedplot/analysis/sleeps.h"
#include "schedplot/analysis/stats.h"
#include "schedplot/cli/cli.h"
#include "schedplot/cli/driver.h"
#include "schedplot/cli/evspec.h"
#include "schedplot/cli/options.h"
#include "schedplot/analysis/marks.h"
#include "schedplot/analysis/spans.h"
#include "schedplot/cli/viewopts.h"
#include "schedplot/model/model.h"
#include "schedplot/model/power.h"
#include "schedplot/model/trace.h"

/* What stats counts: all of the trace, or the views' scope. */
struct stats_scope {
	struct sp_view_opts *opts;	/* the run's: --min/--max/--time, --cpus, --target */
	bool window;			/* a window was asked for */
	bool scoped;			/* the window, CPUs or tasks were narrowed */
	int nr_cpus;			/* N: the CPUs counted */
	/* with a window: each CPU's busy time inside it */
	uint64_t t0_ns, t1_ns;
	uint64_t *busy_ns;		/* t.nr_cpus entries */
	struct sp_power power;		/* frequencies, when the trace has them */
	struct sp_stats *stats;
	struct sp_marks marks;	/* migration classes, placement diagnosis */
	struct sp_spans spans;	/* --span and --mark */
	bool json;		/* --json */
	bool by_command;	/* --by command */
	long top;		/* --top */
	bool has_top;		/* --top given */
	struct sp_model_filter filter;	/* what running/waiting count */
	struct sp_scope scope;		/* what the waits, migrations and spans count */
	bool has_spans;			/* --mark or --span: sc->spans set up */
	struct sp_antagonists hist;	/* each CPU's runs, for ... */
	struct sp_waited_behind behind;	/* ... who each task waited behind */
	/* its sums sorted; by command: keyed by the names' string ids */
	struct sp_behind_entry *sorted;
	size_t nr_sorted;
	struct sp_sleeps sleeps;	/* each task's sleeps by state, and their wakers */
	struct sp_behind_entry *wakers;	/* sleeps.wakers sorted */
	size_t nr_wakers;
	/* with --target: each target's chain, its times and pieces sorted */
	struct sp_chain chain;
	bool chained;
	struct sp_behind_entry *chain_ns, *chain_count;
	size_t nr_chain_ns, nr_chain_count;
	struct sp_lost_time lost;	/* SchedViz's lost time: wall, per CPU, per thread */
};

static void scope_run(void *data, int cpu, int pid, uint64_t t0, uint64_t t1)
{
	struct stats_scope *sc = data;

	if (t0 < sc->t0_ns)
		t0 = sc->t0_ns;
	if (t1 > sc->t1_ns)
		t1 = sc->t1_ns;
	if (pid != 0 && t1 > t0)
		sc->busy_ns[cpu] += t1 - t0;
}

static void scope_reset(void *data)
{
	struct stats_scope *sc = data;

	memset(sc->busy_ns, 0, sc->opts->nr_cpus * sizeof(*sc->busy_ns));
}

/*
 * Ask for the frequency events over [@w0, @w1].  Return: 1 when the trace
 * has them, 0 when not, or a negative code.
 */
static int want_power(struct sp_trace *t, struct sp_power *p, uint64_t w0, uint64_t w1)
{
	struct sp_error err;
	int ret;

	sp_error_clear(&err);
	ret = sp_power_init(p, t->nr_cpus, w0, w1);
	if (!ret)
		ret = sp_power_request(p, t->reader, true, false, &err);
	if (ret)
		return ret;
	return p->request[SP_POWER_FREQ] >= 0;
}

/* The busy time of CPU @c, and the time it was recording, in what is counted. */
static uint64_t cpu_busy(const struct sp_model *m, const struct stats_scope *sc, int c,
			 uint64_t *span)
{
	uint64_t start = m->cpus[c].start_ns;

	if (!sc->window) {
		*span = m->end_ns - start;
		return m->cpus[c].busy_ns;
	}
	if (start < sc->t0_ns)
		start = sc->t0_ns;
	*span = sc->t1_ns > start ? sc->t1_ns - start : 0;
	return sc->busy_ns[c];
}

/* The order of every list stats prints: the longest time first; the lower key on ties. */
static int longest_first(uint64_t a_ns, uint64_t b_ns, int a_key, int b_key)
{
	if (a_ns != b_ns)
		return a_ns < b_ns ? 1 : -1;
	return (a_key > b_key) - (a_key < b_key);
}

/* Tasks by run time, longest first; pid breaks ties so output is stable. */
static int cmp_run(const void *a, const void *b)
{
	const struct sp_task *ta = *(const struct sp_task *const *)a;
	const struct sp_task *tb = *(const struct sp_task *const *)b;

	return longest_first(ta->run_ns, tb->run_ns, ta->pid, tb->pid);
}

/* The tasks other than idle, sorted; NULL when out of memory. */
static struct sp_task **sorted_tasks(const struct sp_model *m, const struct stats_scope *sc,
				     size_t *nr)
{
	struct sp_task **v = calloc(m->tasks.nr + 1, sizeof(*v));
	size_t i, n = 0;

	if (!v)
		return NULL;
	for (i = 0; i < m->tasks.nr; i++)
		if (m->tasks.v[i].pid != 0 &&
		    sp_view_opts_is_target(sc->opts, m->tasks.v[i].pid,
					   sp_model_str(m, m->tasks.v[i].comm)))
			v[n++] = &m->tasks.v[i];
	qsort(v, n, sizeof(*v), cmp_run);
	*nr = n;
	return v;
}

/* The tasks of one command name, merged (--by command). */
struct command_row {
	const char *comm;
	uint32_t comm_id;		/* its string id, the key of its "waited behind" */
	size_t nr_threads;
	uint64_t run_ns;
	uint64_t wait_ns;
	uint64_t wakeups;
	uint64_t migrations;
};

static const struct sp_model *cmp_model;	/* for qsort's comparators */

static int cmp_task_comm(const void *a, const void *b)
{
	const struct sp_task *ta = *(const struct sp_task *const *)a;
	const struct sp_task *tb = *(const struct sp_task *const *)b;

	return strcmp(sp_model_str(cmp_model, ta->comm), sp_model_str(cmp_model, tb->comm));
}

/* Commands by run time, longest first; the name breaks ties. */
static int cmp_command_run(const void *a, const void *b)
{
	const struct command_row *ca = a, *cb = b;

	if (ca->run_ns != cb->run_ns)
		return ca->run_ns < cb->run_ns ? 1 : -1;
	return strcmp(ca->comm, cb->comm);
}

/*
 * The tasks merged by command name, sorted; @tasks is reordered.  NULL
 * when out of memory.
 */
static struct command_row *merge_commands(const struct sp_model *m, struct sp_task **tasks,
					  size_t nr_tasks, size_t *nr)
{
	struct command_row *v = calloc(nr_tasks + 1, sizeof(*v));
	size_t i, n = 0;

	if (!v)
		return NULL;
	cmp_model = m;
	qsort(tasks, nr_tasks, sizeof(*tasks), cmp_task_comm);
	for (i = 0; i < nr_tasks; i++) {
		const struct sp_task *tk = tasks[i];
		const char *comm = sp_model_str(m, tk->comm);

		if (!n || strcmp(v[n - 1].comm, comm)) {
			v[n].comm_id = tk->comm;
			v[n++].comm = comm;
		}
		v[n - 1].nr_threads++;
		v[n - 1].run_ns += tk->run_ns;
		v[n - 1].wait_ns += tk->wait_ns;
		v[n - 1].wakeups += tk->wakeups;
		v[n - 1].migrations += tk->migrations;
	}
	qsort(v, n, sizeof(*v), cmp_command_run);
	*nr = n;
	return v;
}

/* Antagonists shown per task or command, at most. */
#define BEHIND_TOP 5

/*
 * "waited_behind": the waits counted of @key (a pid, or a name's string
 * id with --by command) and who held their CPUs, longest first.
 */
static void print_json_behind(const struct sp_model *m, const struct stats_scope *sc, int key,
			      bool by_command)
{
	const struct sp_behind_entry *e;
	uint64_t wait_ns;
	size_t nr, i;

	e = sp_behind_of(sc->sorted, sc->nr_sorted, key, &wait_ns, &nr);
	printf(", \"waited_behind\": {\"waits_ns\": %llu, \"top\": [",
	       (unsigned long long)wait_ns);
	for (i = 0; e && i < nr && i < BEHIND_TOP; i++) {
		printf("%s{", i ? ", " : "");
		if (!by_command)
			printf("\"pid\": %d, ", e[i].antagonist);
		printf("\"comm\": ");
		sp_cli_json_string(stdout, by_command ? sp_model_str(m, (uint32_t)e[i].antagonist)
					       : sp_model_comm(m, e[i].antagonist));
		printf(", \"ns\": %llu}", (unsigned long long)e[i].ns);
	}
	printf("]}");
}

/* A waker as JSON: a pid is a number, an interrupt a string. */
static void json_waker(int waker)
{
	char buf[16];

	sp_waker_format(buf, sizeof(buf), waker);
	printf(waker < SP_WAKER_NONE ? "\"%s\"" : "%s", buf);
}

/* Wakers shown per task, at most. */
#define WAKERS_TOP 3

/* Blocking places shown per task, at most. */
#define PLACES_TOP 3

/* "sleeps": a task's sleeps counted, by state, and who ended them most often. */
static void print_json_sleeps(const struct sp_model *m, const struct stats_scope *sc, int pid)
{
	const struct sp_sleep_task *st = sp_sleeps_find(&sc->sleeps, pid);
	const struct sp_behind_entry *e;
	uint64_t unused;
	size_t nr, i;
	int k;

	printf(", \"sleeps\": {");
	for (k = 0; k < SP_SLEEP_NR; k++)
		printf("\"%s\": {\"count\": %llu, \"ns\": %llu}, ", sp_sleep_state_name(k),
		       st ? (unsigned long long)st->nr[k] : 0ULL,
		       st ? (unsigned long long)st->ns[k] : 0ULL);
	printf("\"woken_by\": [");
	e = sp_behind_of(sc->wakers, sc->nr_wakers, pid, &unused, &nr);
	for (i = 0; e && i < nr && i < WAKERS_TOP; i++) {
		printf("%s{\"waker\": ", i ? ", " : "");
		json_waker(e[i].antagonist);
		printf(", \"comm\": ");
		sp_cli_json_string(stdout, e[i].antagonist >= 0 ? sp_model_comm(m, e[i].antagonist)
							       : "");
		printf(", \"count\": %llu}", (unsigned long long)e[i].ns);
	}
	printf("]");
	if (sc->sleeps.has_places) {
		const struct sp_sleep_place *pl[PLACES_TOP];

		nr = sp_sleep_task_places(st, pl, PLACES_TOP);
		printf(", \"blocked_in\": [");
		for (i = 0; i < nr; i++) {
			printf("%s{\"place\": ", i ? ", " : "");
			sp_cli_json_string(stdout, sc->sleeps.places[pl[i]->place]);
			printf(", \"state\": \"%s\", \"count\": %llu, \"ns\": %llu}",
			       sp_sleep_state_name(pl[i]->state), (unsigned long long)pl[i]->nr,
			       (unsigned long long)pl[i]->ns);
		}
		printf("]");
	}
	printf("}");
}

/* The pieces of @pid's chain counted for @code. */
static uint64_t chain_pieces(const struct stats_scope *sc, int pid, int32_t code)
{
	const struct sp_behind_entry *e;
	uint64_t unused;
	size_t nr;

	e = sp_behind_of(sc->chain_count, sc->nr_chain_count, pid, &unused, &nr);
	for (size_t i = 0; e && i < nr; i++)
		if (e[i].antagonist == code)
			return e[i].ns;
	return 0;
}

/* "chain": where a target's time went, every cause, longest first. */
static void print_json_chain(const struct sp_model *m, const struct stats_scope *sc, int pid)
{
	const struct sp_behind_entry *e;
	uint64_t total;
	size_t nr, i;

	e = sp_behind_of(sc->chain_ns, sc->nr_chain_ns, pid, &total, &nr);
	printf(", \"chain\": {\"ns\": %llu, \"causes\": [", (unsigned long long)total);
	for (i = 0; e && i < nr; i++) {
		struct sp_chain_cause c = sp_chain_cause_of(e[i].antagonist);

		printf("%s{\"kind\": \"%s\", \"who\": ", i ? ", " : "",
		       sp_chain_kind_name(c.kind));
		if (c.kind == SP_CHAIN_RAN || c.who == SP_WAKER_NONE)
			printf("null");
		else
			json_waker(c.who);
		printf(", \"comm\": ");
		sp_cli_json_string(stdout, c.who >= 0 ? sp_model_comm(m, c.who) : "");
		printf(", \"pieces\": %llu, \"ns\": %llu}",
		       (unsigned long long)chain_pieces(sc, pid, e[i].antagonist),
		       (unsigned long long)e[i].ns);
	}
	printf("]}");
}

static void print_json_commands(const struct sp_model *m, const struct stats_scope *sc,
				const struct command_row *cmds, size_t nr)
{
	size_t i;

	printf("  \"commands\": [");
	for (i = 0; i < nr; i++) {
		printf("%s\n    {\"comm\": ", i ? "," : "");
		sp_cli_json_string(stdout, cmds[i].comm);
		printf(", \"threads\": %zu, \"run_ns\": %llu, \"wait_ns\": %llu, "
		       "\"wakeups\": %llu, \"migrations\": %llu", cmds[i].nr_threads,
		       (unsigned long long)cmds[i].run_ns, (unsigned long long)cmds[i].wait_ns,
		       (unsigned long long)cmds[i].wakeups, (unsigned long long)cmds[i].migrations);
		print_json_behind(m, sc, (int)cmds[i].comm_id, true);
		printf("}");
	}
	printf("%s]\n}\n", nr ? "\n  " : "");
}

/* @name, at most 16 bytes, with control characters shown as '?' */
static void table_name(char comm[17], const char *name)
{
	size_t j;

	snprintf(comm, 17, "%s", name);
	for (j = 0; comm[j]; j++)
		if ((unsigned char)comm[j] < 0x20 || comm[j] == 0x7f)
			comm[j] = '?';
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* Waiters by their waits' time, longest first; the lower key first on ties. */
static int cmp_waiter(const void *pa, const void *pb)
{
	const struct sp_behind_entry *a = *(const struct sp_behind_entry *const *)pa;
	const struct sp_behind_entry *b = *(const struct sp_behind_entry *const *)pb;

	return longest_first(a->ns, b->ns, a->waiter, b->waiter);
}

/* "comm-pid", or the command alone with --by command */
static const char *behind_name(char *buf, size_t size, const struct sp_model *m, int key,
			       bool by_command)
{
	char comm[17];

	table_name(comm, by_command ? sp_model_str(m, (uint32_t)key) : sp_model_comm(m, key));
	if (by_command)
		snprintf(buf, size, "%s", comm);
	else
		snprintf(buf, size, "%s-%d", comm, key);
	return buf;
}

/*
 * Waited behind: for the tasks (or commands) that waited longest, who ran
 * on the CPU they waited for, as a share of their waits.
 */
static void print_text_behind(const struct sp_model *m, const struct stats_scope *sc,
			      size_t top, bool by_command)
{
	const struct sp_behind_entry **w;
	size_t i, nr = 0;

	w = calloc(sc->nr_sorted + 1, sizeof(*w));
	if (!w)
		return;
	for (i = 0; i < sc->nr_sorted; i++)
		if (sc->sorted[i].antagonist == SP_BEHIND_TOTAL && sc->sorted[i].ns)
			w[nr++] = &sc->sorted[i];
	qsort(w, nr, sizeof(*w), cmp_waiter);
	if (!top || top > nr)
		top = nr;
	if (top) {
		printf("\nwaited behind: who ran on the CPU a %s waited for (the %zu that waited "
		       "longest, shares of their waits)\n", by_command ? "command" : "task", top);
		printf("%-24s %12s  %s\n", by_command ? "comm" : "task", "waits",
		       "behind");
	}
	for (i = 0; i < top; i++) {
		const struct sp_behind_entry *e;
		uint64_t wait_ns, held = 0, rest = 0;
		char name[40], d[32];
		double idle;
		size_t n, j;

		e = sp_behind_of(sc->sorted, sc->nr_sorted, w[i]->waiter, &wait_ns, &n);
		printf("%-24s %12s  ", behind_name(name, sizeof(name), m, w[i]->waiter, by_command),
		       sp_cli_format_duration(d, sizeof(d), wait_ns));
		for (j = 0; j < n; j++) {
			held += e[j].ns;
			if (j < 3)
				printf("%s%s %.1f%%", j ? ", " : "",
				       behind_name(name, sizeof(name), m, e[j].antagonist, by_command),
				       pct(e[j].ns, wait_ns));
			else
				rest += e[j].ns;
		}
		if (n > 3)
			printf(", %zu more %.1f%%", n - 3, pct(rest, wait_ns));
		/* the rest: the CPU idled (shown when it rounds to 0.1% or more) */
		idle = pct(wait_ns > held ? wait_ns - held : 0, wait_ns);
		if (!n || idle >= 0.05)
			printf("%sno other task %.1f%%", n ? "; " : "", idle);
		putchar('\n');
	}
	free(w);
}

/* Sleepers by their sleeps' time, longest first; the lower pid first on ties. */
static int cmp_sleeper(const void *pa, const void *pb)
{
	const struct sp_sleep_task *a = *(const struct sp_sleep_task *const *)pa;
	const struct sp_sleep_task *b = *(const struct sp_sleep_task *const *)pb;

	return longest_first(a->ns[0] + a->ns[1] + a->ns[2], b->ns[0] + b->ns[1] + b->ns[2],
			     a->pid, b->pid);
}

/* Where the sleepers @v blocked, as far as the trace names it. */
static void print_text_places(const struct sp_model *m, const struct stats_scope *sc,
			      const struct sp_sleep_task *const *v, size_t n)
{
	bool head = false;

	for (size_t i = 0; i < n; i++) {
		const struct sp_sleep_place *pl[PLACES_TOP];
		size_t nr = sp_sleep_task_places(v[i], pl, PLACES_TOP);
		char name[40], d[32];

		if (nr && !head) {
			printf("\nblocked in: where they slept, the function the trace names "
			       "(kernel stack of the switch, or sched_blocked_reason)\n");
			printf("%-24s %-5s %6s %11s  %s\n", "task", "state", "sleeps", "time",
			       "place");
			head = true;
		}
		for (size_t j = 0; j < nr; j++)
			printf("%-24s %-5s %6llu %11s  %s\n",
			       j ? "" : behind_name(name, sizeof(name), m, v[i]->pid, false),
			       sp_sleep_state_name(pl[j]->state), (unsigned long long)pl[j]->nr,
			       sp_cli_format_duration(d, sizeof(d), pl[j]->ns),
			       sc->sleeps.places[pl[j]->place]);
	}
}

/* Why they slept: the tasks that slept longest, their sleeps by state and who woke them. */
static void print_text_sleeps(const struct sp_model *m, const struct stats_scope *sc,
			      size_t top)
{
	const struct sp_sleep_task **v;
	size_t i, n = 0;

	v = calloc(sc->sleeps.nr_tasks + 1, sizeof(*v));
	if (!v)
		return;
	for (i = 0; i < sc->sleeps.nr_tasks; i++)
		if (sp_view_opts_is_target(sc->opts, sc->sleeps.tasks[i].pid,
					   sp_model_comm(m, sc->sleeps.tasks[i].pid)))
			v[n++] = &sc->sleeps.tasks[i];
	qsort(v, n, sizeof(*v), cmp_sleeper);
	if (!top || top > n)
		top = n;
	if (top) {
		printf("\nslept: the %zu tasks that slept longest, by the state they slept in (S: "
		       "waiting for an event, D: uninterruptible, I/O or a lock), and who woke "
		       "them\n", top);
		printf("%-24s %18s %18s %18s  %s\n", "task", "S: sleeps, time", "D: sleeps, time",
		       "other", "woken by (sleeps)");
	}
	for (i = 0; i < top; i++) {
		const struct sp_sleep_task *st = v[i];
		const struct sp_behind_entry *e;
		char name[40], d[3][32];
		uint64_t unused;
		size_t nr, j;

		printf("%-24s %6llu %11s %6llu %11s %6llu %11s ",
		       behind_name(name, sizeof(name), m, st->pid, false),
		       (unsigned long long)st->nr[SP_SLEEP_S],
		       sp_cli_format_duration(d[0], 32, st->ns[SP_SLEEP_S]),
		       (unsigned long long)st->nr[SP_SLEEP_D],
		       sp_cli_format_duration(d[1], 32, st->ns[SP_SLEEP_D]),
		       (unsigned long long)st->nr[SP_SLEEP_OTHER],
		       sp_cli_format_duration(d[2], 32, st->ns[SP_SLEEP_OTHER]));
		e = sp_behind_of(sc->wakers, sc->nr_wakers, st->pid, &unused, &nr);
		for (j = 0; e && j < nr && j < WAKERS_TOP; j++) {
			if (e[j].antagonist < 0)
				sp_waker_format(name, sizeof(name), e[j].antagonist);
			else
				behind_name(name, sizeof(name), m, e[j].antagonist, false);
			printf("%s%s (%llu)", j ? ", " : " ", name, (unsigned long long)e[j].ns);
		}
		if (nr > WAKERS_TOP)
			printf(", %zu more", nr - WAKERS_TOP);
		putchar('\n');
	}
	if (sc->sleeps.has_places)
		print_text_places(m, sc, v, top);
	free(v);
}

/* Causes listed per target, at most. */
#define CHAIN_ROWS 8

/* "ran 14.6%, waited for a CPU 60.0%, slept 25.4%": the chain by kind of cause */
static void print_chain_kinds(const struct sp_behind_entry *e, size_t nr, uint64_t total)
{
	static const char *const words[] = { "ran", "waited for a CPU", "slept", "not known" };
	uint64_t ns[4] = { 0 };

	for (size_t j = 0; e && j < nr; j++) {
		enum sp_chain_kind k = sp_chain_cause_of(e[j].antagonist).kind;

		ns[k == SP_CHAIN_RAN ? 0 : k == SP_CHAIN_CPU ? 1 : k == SP_CHAIN_UNKNOWN ? 3 : 2] +=
			e[j].ns;
	}
	printf("\n  ");
	for (int k = 0; k < 4; k++)
		if (k < 3 || ns[k])
			printf("%s%s %.1f%%", k ? ", " : "", words[k], pct(ns[k], total));
	putchar('\n');
}

/*
 * The chain of each target: its time followed, cut into its runs, its
 * waits for a CPU by who held it, and its sleeps by state and waker;
 * the long pole first of what was not its runs.
 */
static void print_text_chain(const struct sp_model *m, const struct stats_scope *sc,
			     struct sp_task **tasks, size_t top)
{
	size_t i, shown = 0;

	for (i = 0; i < top; i++) {
		const struct sp_behind_entry *e;
		struct sp_chain_cause pole;
		uint64_t total, pole_ns, rest_ns = 0, rest_pieces = 0;
		char name[40], what[96], d[32];
		size_t nr, j;

		e = sp_behind_of(sc->chain_ns, sc->nr_chain_ns, tasks[i]->pid, &total, &nr);
		if (!total)
			continue;
		if (!shown++)
			printf("\nchain: where each target's time went, from the wait or sleep "
			       "before its first run to the end of its last, each wait and sleep "
			       "named by what it waited on\n");
		printf("%s  %s followed", behind_name(name, sizeof(name), m, tasks[i]->pid, false),
		       sp_cli_format_duration(d, sizeof(d), total));
		if (sp_chain_long_pole(sc->chain_ns, sc->nr_chain_ns, tasks[i]->pid, &pole,
				       &pole_ns, &total))
			printf("; long pole: %s, %.1f%%",
			       sp_chain_cause_format(what, sizeof(what), pole, m),
			       pct(pole_ns, total));
		print_chain_kinds(e, nr, total);
		printf("  %-64s %8s %12s %7s\n", "what", "pieces", "time", "share");
		for (j = 0; e && j < nr; j++) {
			uint64_t pieces = chain_pieces(sc, tasks[i]->pid, e[j].antagonist);

			if (j >= CHAIN_ROWS) {
				rest_ns += e[j].ns;
				rest_pieces += pieces;
				continue;
			}
			printf("  %-64s %8llu %12s %6.1f%%\n",
			       sp_chain_cause_format(what, sizeof(what),
						     sp_chain_cause_of(e[j].antagonist), m),
			       (unsigned long long)pieces,
			       sp_cli_format_duration(d, sizeof(d), e[j].ns), pct(e[j].ns, total));
		}
		if (nr > CHAIN_ROWS) {
			snprintf(what, sizeof(what), "%zu more", nr - CHAIN_ROWS);
			printf("  %-64s %8llu %12s %6.1f%%\n", what, (unsigned long long)rest_pieces,
			       sp_cli_format_duration(d, sizeof(d), rest_ns), pct(rest_ns, total));
		}
	}
}

/* The heading of the table of tasks or commands; Return: the rows it lists. */
static size_t print_top_heading(const struct stats_scope *sc, const char *what,
				const char *merged, size_t nr, size_t top)
{
	if (!top || top > nr)
		top = nr;
	printf("\ntop %zu of %zu %s by run time%s%s\n", top, nr, what, merged,
	       sc->window ? " (run, wait, wakeups: over the whole trace)" : "");
	return top;
}

static void print_text_commands(const struct stats_scope *sc, const struct command_row *cmds,
				size_t nr, size_t top)
{
	char b1[32], b2[32], comm[17];
	size_t i;

	top = print_top_heading(sc, "commands", ", threads merged by name", nr, top);
	printf("%-16s %8s %12s %12s %8s %10s\n", "comm", "threads", "run", "wait", "wakeups",
	       "migrations");
	for (i = 0; i < top; i++) {
		table_name(comm, cmds[i].comm);
		printf("%-16s %8zu %12s %12s %8llu %10llu\n", comm, cmds[i].nr_threads,
		       sp_cli_format_duration(b1, 32, cmds[i].run_ns),
		       sp_cli_format_duration(b2, 32, cmds[i].wait_ns),
		       (unsigned long long)cmds[i].wakeups, (unsigned long long)cmds[i].migrations);
	}
}

static void print_json_scope(const struct sp_trace *t, const struct sp_stats *s,
			     const struct stats_scope *sc)
{
	const struct sp_view_opts *o = sc->opts;
	bool first = true;
	int c, i;

	printf("  \"scope\": {\"window_ns\": [%llu, %llu], \"nr_cpus\": %d, \"cpus\": [",
	       (unsigned long long)s->t0_ns, (unsigned long long)s->end_ns, sc->nr_cpus);
	for (c = 0; c < t->nr_cpus; c++) {
		if (!o->cpus[c])
			continue;
		printf("%s%d", first ? "" : ", ", c);
		first = false;
	}
	printf("], \"targets\": [");
	for (i = 0; i < o->nr_targets; i++) {
		printf("%s", i ? ", " : "");
		sp_cli_json_string(stdout, o->targets[i]);
	}
	printf("], \"target_processes\": [");
	for (i = 0; i < o->nr_target_procs; i++) {
		printf("%s", i ? ", " : "");
		sp_cli_json_string(stdout, o->target_procs[i]);
	}
	printf("], \"target_trees\": [");
	for (i = 0; i < o->nr_target_trees; i++) {
		printf("%s", i ? ", " : "");
		sp_cli_json_string(stdout, o->target_trees[i]);
	}
	printf("]},\n");
}

/* Each CPU's time-weighted mean frequency and the time it was known, in the window. */
static void print_json_freq(const struct sp_power *p)
{
	uint64_t known;
	bool first = true;
	int c;

	printf(",\n  \"cpu_freq_mean_khz\": {");
	for (c = 0; c < p->nr_cpus; c++) {
		double mean = sp_power_mean_khz(p, c, &known);

		if (!known)
			continue;
		printf("%s\"%d\": %.3f", first ? "" : ", ", c, mean);
		first = false;
	}
	printf("},\n  \"cpu_freq_known_ns\": {");
	for (c = 0, first = true; c < p->nr_cpus; c++) {
		sp_power_mean_khz(p, c, &known);
		if (!known)
			continue;
		printf("%s\"%d\": %llu", first ? "" : ", ", c, (unsigned long long)known);
		first = false;
	}
	printf("}");
}

static void print_text_freq(const struct sp_power *p, const struct stats_scope *sc)
{
	char buf[32];
	uint64_t known;
	int c;

	printf("\n  cpu  mean frequency   while known (from its first power:cpu_frequency)\n");
	for (c = 0; c < p->nr_cpus; c++) {
		double mean = sp_power_mean_khz(p, c, &known);

		if (!sc->opts->cpus[c])
			continue;
		if (!known)
			printf("%5d  unknown\n", c);
		else
			printf("%5d  %10.1f MHz   %s\n", c, mean / 1000,
			       sp_cli_format_duration(buf, sizeof(buf), known));
	}
}

static const char *wait_class_name(const struct sp_wait *w)
{
	return w->wait_class == SP_WAIT_WAKEUP ? "wakeup" : "preempted";
}

/* What a contradicted wait is marked with (doc/design.md "Contradicted waits"). */
static const char *contradicted_note(const struct sp_wait *w)
{
	return w->contradicted ? ", contradicted: its CPU idled meanwhile" : "";
}

/* Where to look: the longest stretches of idle while waiting and waits, with a zoom each. */
static void print_text_pointers(const struct sp_trace *t, const struct sp_stats *s)
{
	char d[32], zoom[PATH_MAX + 96];
	size_t i;

	if (!s->nr_iww_top && !s->nr_waits_top)
		return;
	printf("\nwhere to look (longest first)\n");
	for (i = 0; i < s->nr_iww_top; i++) {
		const struct sp_stats_iww *v = &s->iww_top[i];

		printf("  idle while waiting %10s  from %llu.%06llu s, up to %d waiting, %d CPU%s "
		       "idle\n    %s\n", sp_cli_format_duration(d, sizeof(d), v->dur_ns),
		       (unsigned long long)(v->start_ns / 1000000000),
		       (unsigned long long)(v->start_ns % 1000000000 / 1000), v->waiting_max,
		       v->idle_max, v->idle_max == 1 ? "" : "s",
		       sp_cli_zoom_command(zoom, sizeof(zoom), "running-waiting", v->start_ns,
					   v->dur_ns, t->path));
	}
	for (i = 0; i < s->nr_waits_top; i++) {
		const struct sp_wait *w = &s->waits_top[i];
		const char *comm = sp_model_comm(&t->model, w->pid);

		printf("  wait for a CPU     %10s  %s-%d from %llu.%06llu s, then ran on CPU %d "
		       "(%s)%s\n    %s\n", sp_cli_format_duration(d, sizeof(d), w->dur_ns),
		       comm ? comm : "", w->pid, (unsigned long long)(w->start_ns / 1000000000),
		       (unsigned long long)(w->start_ns % 1000000000 / 1000), w->cpu,
		       wait_class_name(w), contradicted_note(w),
		       sp_cli_zoom_command(zoom, sizeof(zoom), "datagraph", w->start_ns, w->dur_ns,
					   t->path));
	}
}

static void print_json_pointers(const struct sp_trace *t, const struct sp_stats *s)
{
	char zoom[PATH_MAX + 96];
	size_t i;

	printf("  \"look_at\": {\"idle_while_waiting\": [");
	for (i = 0; i < s->nr_iww_top; i++) {
		const struct sp_stats_iww *v = &s->iww_top[i];

		printf("%s\n    {\"start_ns\": %llu, \"dur_ns\": %llu, \"waiting_max\": %d, "
		       "\"idle_cpus_max\": %d, \"zoom\": ", i ? "," : "",
		       (unsigned long long)v->start_ns, (unsigned long long)v->dur_ns,
		       v->waiting_max, v->idle_max);
		sp_cli_json_string(stdout, sp_cli_zoom_command(zoom, sizeof(zoom),
							       "running-waiting", v->start_ns,
							       v->dur_ns, t->path));
		printf("}");
	}
	printf("%s],\n   \"waits\": [", s->nr_iww_top ? "\n  " : "");
	for (i = 0; i < s->nr_waits_top; i++) {
		const struct sp_wait *w = &s->waits_top[i];
		const char *comm = sp_model_comm(&t->model, w->pid);

		printf("%s\n    {\"pid\": %d, \"comm\": ", i ? "," : "", w->pid);
		sp_cli_json_string(stdout, comm ? comm : "");
		printf(", \"start_ns\": %llu, \"dur_ns\": %llu, \"cpu\": %d, \"class\": \"%s\", "
		       "\"contradicted\": %s, \"zoom\": ", (unsigned long long)w->start_ns,
		       (unsigned long long)w->dur_ns, w->cpu, wait_class_name(w),
		       w->contradicted ? "true" : "false");
		sp_cli_json_string(stdout, sp_cli_zoom_command(zoom, sizeof(zoom), "datagraph",
							       w->start_ns, w->dur_ns, t->path));
		printf("}");
	}
	printf("%s]},\n", s->nr_waits_top ? "\n  " : "");
}

static void print_json_contradicted(const struct sp_trace *t, const struct sp_stats *s)
{
	const struct sp_wait *w = &s->contradicted_max;

	printf("  \"contradicted_waits\": {\"count\": %llu, \"wait_ns\": %llu, \"longest\": ",
	       (unsigned long long)s->nr_contradicted, (unsigned long long)s->contradicted_ns);
	if (!s->nr_contradicted) {
		printf("null},\n");
		return;
	}
	printf("{\"pid\": %d, \"comm\": ", w->pid);
	sp_cli_json_string(stdout, sp_model_comm(&t->model, w->pid));
	printf(", \"start_ns\": %llu, \"dur_ns\": %llu, \"placed_cpu\": %d, \"cpu\": %d}},\n",
	       (unsigned long long)w->start_ns, (unsigned long long)w->dur_ns, w->target_cpu,
	       w->cpu);
}

/* One line, and a warning: waits the trace contradicts, and the longest of them. */
static void print_text_contradicted(const struct sp_trace *t, const struct sp_stats *s)
{
	const struct sp_wait *w = &s->contradicted_max;
	char b1[32], b2[32];

	if (!s->nr_contradicted)
		return;
	printf("contradicted %llu wait%s (%s) while the CPU it was placed on ran its idle task: "
	       "records lost; longest %s, %s-%d on CPU %d\n",
	       (unsigned long long)s->nr_contradicted, s->nr_contradicted == 1 ? "" : "s",
	       sp_cli_format_duration(b1, 32, s->contradicted_ns),
	       sp_cli_format_duration(b2, 32, w->dur_ns), sp_model_comm(&t->model, w->pid),
	       w->pid, w->target_cpu);
}

/* The warning, also with --json: the numbers above include these waits. */
static void warn_contradicted(const struct sp_trace *t, const struct sp_stats *s)
{
	const struct sp_wait *w = &s->contradicted_max;
	char b[32];

	if (!s->nr_contradicted)
		return;
	sp_cli_warn("%s: %llu wait%s the trace contradicts (the CPU placed on ran its idle task "
		    "while the task waited; records were lost), the longest %s (%s-%d from "
		    "%llu.%06llu s); they count in the numbers", t->path,
		    (unsigned long long)s->nr_contradicted, s->nr_contradicted == 1 ? "" : "s",
		    sp_cli_format_duration(b, sizeof(b), w->dur_ns),
		    sp_model_comm(&t->model, w->pid), w->pid,
		    (unsigned long long)(w->start_ns / 1000000000),
		    (unsigned long long)(w->start_ns % 1000000000 / 1000));
}

static void print_json_marks(const struct sp_marks *mk)
{
	int k;

	printf("  \"migration_classes\": {");
	for (k = 0; k < SP_MIG_NR_CLASSES; k++)
		printf("\"%s\": %llu, ", sp_mig_class_name(k), (unsigned long long)mk->mig.nr[k]);
	printf("\"cross_socket\": %llu},\n", (unsigned long long)mk->mig.nr_cross_socket);
	printf("  \"placement\": {");
	for (k = SP_PLACE_STAYED; k <= SP_PLACE_MOVED_PREV_BUSY; k++)
		printf("%s\"%s\": {\"count\": %llu, \"wait_ns\": %llu}", k ? ", " : "",
		       sp_placement_name(k), (unsigned long long)mk->place.by[k].nr,
		       (unsigned long long)mk->place.by[k].wait_ns);
	printf("},\n");
}

static void print_text_marks(const struct sp_marks *mk)
{
	const struct sp_placement_count *p = mk->place.by;
	uint64_t nr_mig = 0, nr_wake = 0;
	char b1[32], b2[32], b3[32];
	int k;

	for (k = 0; k < SP_MIG_NR_CLASSES; k++)
		nr_mig += mk->mig.nr[k];
	if (nr_mig)
		printf("migrations  %llu: %llu at wakeup, %llu load balancing, %llu NUMA balancing; "
		       "%llu crossed a socket\n", (unsigned long long)nr_mig,
		       (unsigned long long)mk->mig.nr[SP_MIG_WAKEUP],
		       (unsigned long long)mk->mig.nr[SP_MIG_BALANCE],
		       (unsigned long long)mk->mig.nr[SP_MIG_NUMA],
		       (unsigned long long)mk->mig.nr_cross_socket);
	for (k = SP_PLACE_STAYED; k <= SP_PLACE_MOVED_PREV_BUSY; k++)
		nr_wake += p[k].nr;
	if (!nr_wake)
		return;
	printf("placement   %llu wakeups of tasks that ran before: %llu stayed (waited %s), "
	       "%llu left an idle previous CPU (waited %s), %llu left a busy one (waited %s)\n",
	       (unsigned long long)nr_wake, (unsigned long long)p[SP_PLACE_STAYED].nr,
	       sp_cli_format_duration(b1, 32, p[SP_PLACE_STAYED].wait_ns),
	       (unsigned long long)p[SP_PLACE_MOVED_PREV_IDLE].nr,
	       sp_cli_format_duration(b2, 32, p[SP_PLACE_MOVED_PREV_IDLE].wait_ns),
	       (unsigned long long)p[SP_PLACE_MOVED_PREV_BUSY].nr,
	       sp_cli_format_duration(b3, 32, p[SP_PLACE_MOVED_PREV_BUSY].wait_ns));
}

static void print_json_spans(struct sp_spans *sp)
{
	struct sp_summary sum;
	int i;

	if (sp->nr_marks) {
		printf("  \"marks\": [");
		for (i = 0; i < sp->nr_marks; i++) {
			printf("%s\n    {\"name\": ", i ? "," : "");
			sp_cli_json_string(stdout, sp->marks[i].name);
			printf(", \"count\": %llu}", (unsigned long long)sp->marks[i].nr);
		}
		printf("\n  ],\n");
	}
	if (!sp->nr_kinds)
		return;
	printf("  \"spans\": [");
	for (i = 0; i < sp->nr_kinds; i++) {
		struct sp_span_kind *k = &sp->kinds[i];

		sp_samples_summarize(&k->durs, &sum);
		printf("%s\n    {\"name\": ", i ? "," : "");
		sp_cli_json_string(stdout, k->name);
		printf(", \"count\": %llu, \"total_ns\": %llu, ", (unsigned long long)sum.n,
		       (unsigned long long)k->total_ns);
		if (sum.n)
			printf("\"p50_ns\": %llu, \"p99_ns\": %llu, \"max_ns\": %llu, ",
			       (unsigned long long)sum.p50, (unsigned long long)sum.p99,
			       (unsigned long long)sum.max);
		else
			printf("\"p50_ns\": null, \"p99_ns\": null, \"max_ns\": null, ");
		printf("\"unmatched_start\": %llu, \"unmatched_end\": %llu, "
		       "\"across_lost\": %llu}", (unsigned long long)k->unmatched_start,
		       (unsigned long long)k->unmatched_end, (unsigned long long)k->broken);
	}
	printf("\n  ],\n");
}

static void print_text_spans(struct sp_spans *sp)
{
	char b1[32], b2[32], b3[32], b4[32];
	struct sp_summary sum;
	int i;

	for (i = 0; i < sp->nr_marks; i++)
		printf("mark        %s: %llu\n", sp->marks[i].name,
		       (unsigned long long)sp->marks[i].nr);
	for (i = 0; i < sp->nr_kinds; i++) {
		struct sp_span_kind *k = &sp->kinds[i];

		sp_samples_summarize(&k->durs, &sum);
		printf("span        %s: %llu, total %s, p50 %s, p99 %s, max %s; unmatched: %llu "
		       "starts, %llu ends; %llu across lost records\n", k->name,
		       (unsigned long long)sum.n, sp_cli_format_duration(b1, 32, k->total_ns),
		       sp_cli_format_duration(b2, 32, sum.p50),
		       sp_cli_format_duration(b3, 32, sum.p99),
		       sp_cli_format_duration(b4, 32, sum.max),
		       (unsigned long long)k->unmatched_start, (unsigned long long)k->unmatched_end,
		       (unsigned long long)k->broken);
	}
}

static void print_json(const struct sp_trace *t, const struct sp_stats *s,
		       const struct stats_scope *sc, struct sp_task **tasks, size_t nr_tasks,
		       const struct command_row *cmds, size_t nr_cmds)
{
	const struct sp_model *m = &t->model;
	size_t i;
	int c, k;
	bool first;

	printf("{\n  \"file\": ");
	sp_cli_json_string(stdout, t->path);
	printf(",\n  \"nr_cpus\": %d,\n  \"cpus\": [", t->nr_cpus);
	for (c = 0; c < t->nr_cpus; c++)
		printf("%s%d", c ? ", " : "", c);
	printf("],\n  \"start_ns\": {");
	for (c = 0, first = true; c < t->nr_cpus; c++) {
		if (m->cpus[c].start_ns == SP_NO_TS)
			continue;
		printf("%s\"%d\": %llu", first ? "" : ", ", c,
		       (unsigned long long)m->cpus[c].start_ns);
		first = false;
	}
	printf("},\n  \"end_ns\": %llu,\n", (unsigned long long)m->end_ns);
	printf("  \"window_ns\": [%llu, %llu],\n", (unsigned long long)m->window_start_ns,
	       (unsigned long long)m->end_ns);
	if (sc->scoped)
		print_json_scope(t, s, sc);
	printf("  \"records\": %llu,\n  \"sched_records\": %llu,\n",
	       (unsigned long long)m->nr_records, (unsigned long long)m->nr_sched_records);
	printf("  \"cpu_busy_ns\": {");
	for (c = 0; c < t->nr_cpus; c++) {
		uint64_t span;

		printf("%s\"%d\": %llu", c ? ", " : "", c,
		       (unsigned long long)cpu_busy(m, sc, c, &span));
	}
	printf("},\n  \"cpu_switches\": {");
	for (c = 0; c < t->nr_cpus; c++)
		printf("%s\"%d\": %llu", c ? ", " : "", c,
		       (unsigned long long)m->cpus[c].nr_switches);
	printf("}");
	if (s->power && s->power->nr_events[SP_POWER_FREQ])
		print_json_freq(s->power);
	printf(",\n  \"migrations\": %llu,\n", (unsigned long long)m->nr_migrations);
	printf("  \"wakeup_event\": \"%s\",\n  \"wakeup_events\": %llu,\n",
	       m->wakeup_from_waking ? "sched_waking" : "sched_wakeup",
	       (unsigned long long)(m->nr_by_type[m->wakeup_from_waking ? SP_EV_WAKING :
						  SP_EV_WAKEUP] + m->nr_by_type[SP_EV_WAKEUP_NEW]));
	printf("  \"running_avg\": %.9g,\n  \"waiting_avg\": %.9g,\n",
	       sp_stats_running_avg(s), sp_stats_waiting_avg(s));
	printf("  \"running_max\": %d,\n  \"waiting_max\": %d,\n", s->running_max,
	       s->waiting_max);
	printf("  \"idle_while_waiting_ns\": %llu,\n",
	       (unsigned long long)s->idle_while_waiting_ns);
	printf("  \"lost_cpu_ns\": %llu,\n  \"lost_fraction\": %.9g,\n",
	       (unsigned long long)s->lost_cpu_ns, sp_stats_lost_fraction(s));
	printf("  \"lost_time_ns\": {\"wall\": %llu, \"per_cpu\": %llu, \"per_thread\": %llu},\n",
	       (unsigned long long)sc->lost.wall_ns, (unsigned long long)sc->lost.per_cpu_ns,
	       (unsigned long long)sc->lost.per_thread_ns);
	/* no samples have no statistics: null, not a 0 that reads as measured */
	if (s->latency.n)
		printf("  \"wakeup_latency_ns\": {\"count\": %llu, \"mean\": %llu, "
		       "\"p50\": %llu, \"p90\": %llu, \"p99\": %llu, \"max\": %llu},\n",
		       (unsigned long long)s->latency.n, (unsigned long long)s->latency.mean,
		       (unsigned long long)s->latency.p50, (unsigned long long)s->latency.p90,
		       (unsigned long long)s->latency.p99, (unsigned long long)s->latency.max);
	else
		printf("  \"wakeup_latency_ns\": {\"count\": 0, \"mean\": null, \"p50\": null, "
		       "\"p90\": null, \"p99\": null, \"max\": null},\n");
	print_json_marks(&sc->marks);
	print_json_spans((struct sp_spans *)&sc->spans);
	print_json_contradicted(t, s);
	printf("  \"repairs\": {");
	for (k = 0; k < SP_REPAIR_NR_KINDS; k++)
		printf("%s\"%s\": %llu", k ? ", " : "", sp_repair_name(k),
		       (unsigned long long)m->repairs[k]);
	printf("},\n  \"lost_events\": {");
	for (c = 0; c < t->nr_cpus; c++)
		printf("%s\"%d\": %llu", c ? ", " : "", c,
		       (unsigned long long)sp_reader_lost_events(t->reader, c));
	printf("},\n  \"lost_events_exact\": {");
	for (c = 0; c < t->nr_cpus; c++)
		printf("%s\"%d\": %s", c ? ", " : "", c,
		       sp_reader_lost_exact(t->reader, c) ? "true" : "false");
	printf("},\n");
	print_json_pointers(t, s);
	if (cmds) {
		print_json_commands(m, sc, cmds, nr_cmds);
		return;
	}
	printf("  \"tasks\": [");
	for (i = 0; i < nr_tasks; i++) {
		const struct sp_task *tk = tasks[i];

		printf("%s\n    {\"pid\": %d, \"comm\": ", i ? "," : "", tk->pid);
		sp_cli_json_string(stdout, sp_model_str(m, tk->comm));
		printf(", \"ppid\": %d, \"run_ns\": %llu, \"wait_ns\": %llu, \"wakeups\": %llu, "
		       "\"migrations\": %llu", tk->ppid, (unsigned long long)tk->run_ns,
		       (unsigned long long)tk->wait_ns, (unsigned long long)tk->wakeups,
		       (unsigned long long)tk->migrations);
		print_json_behind(m, sc, tk->pid, false);
		print_json_sleeps(m, sc, tk->pid);
		if (sc->chained)
			print_json_chain(m, sc, tk->pid);
		printf("}");
	}
	printf("%s]\n}\n", nr_tasks ? "\n  " : "");
}

static void print_text(const struct sp_trace *t, const struct sp_stats *s,
		       const struct stats_scope *sc, struct sp_task **tasks, size_t nr_tasks,
		       const struct command_row *cmds, size_t nr_cmds, size_t top)
{
	const struct sp_model *m = &t->model;
	uint64_t span = m->end_ns - m->first_ns, window = m->end_ns - m->window_start_ns;
	uint64_t counted = s->end_ns > s->t0_ns ? s->end_ns - s->t0_ns : 0;
	uint64_t busy, busy_span;
	char b1[32], b2[32], b3[32], b4[32];
	int c, with_records = 0;
	bool first;
	size_t i;

	for (c = 0; c < t->nr_cpus; c++)
		with_records += m->cpus[c].start_ns != SP_NO_TS;
	printf("trace       %s\n", t->path);
	printf("span        %s, from %.6f to %.6f s\n", sp_cli_format_duration(b1, 32, span),
	       m->first_ns / 1e9, m->end_ns / 1e9);
	printf("window      %s complete (all CPUs recording), from +%.6f s\n",
	       sp_cli_format_duration(b1, 32, window), (m->window_start_ns - m->first_ns) / 1e9);
	if (sc->scoped) {
		printf("counted     %s, from +%.6f to +%.6f s",
		       sp_cli_format_duration(b1, 32, counted), (s->t0_ns - m->first_ns) / 1e9,
		       (s->end_ns - m->first_ns) / 1e9);
		if (sc->opts->cpus_list)
			printf(", CPUs %s", sc->opts->cpus_list);
		for (c = 0; c < sc->opts->nr_targets; c++)
			printf("%s%s", c ? "," : ", tasks ", sc->opts->targets[c]);
		for (c = 0; c < sc->opts->nr_target_procs; c++)
			printf("%s%s", c ? "," : ", processes ", sc->opts->target_procs[c]);
		for (c = 0; c < sc->opts->nr_target_trees; c++)
			printf("%s%s", c ? "," : ", trees ", sc->opts->target_trees[c]);
		printf("\n");
	}
	printf("cpus        %d (%d with records)\n", t->nr_cpus, with_records);
	if (t->nr_from_t0) {
		/* ranges: "0-3,6" */
		printf("from start  CPU%s ", t->nr_from_t0 > 1 ? "s" : "");
		for (c = 0, first = true; c < t->nr_cpus; c++) {
			int e = c;

			if (!t->from_t0[c])
				continue;
			while (e + 1 < t->nr_cpus && t->from_t0[e + 1])
				e++;
			printf(e > c ? "%s%d-%d" : "%s%d", first ? "" : ",", c, e);
			first = false;
			c = e;
		}
		puts(": lost nothing (no overrun, drop or lost-events marker), complete from +0");
	}
	printf("records     %llu, %llu of them sched events: %llu switches, %llu wakeup events, "
	       "%llu migrations\n", (unsigned long long)m->nr_records,
	       (unsigned long long)m->nr_sched_records,
	       (unsigned long long)m->nr_by_type[SP_EV_SWITCH],
	       (unsigned long long)(m->nr_by_type[m->wakeup_from_waking ? SP_EV_WAKING :
						  SP_EV_WAKEUP] + m->nr_by_type[SP_EV_WAKEUP_NEW]),
	       (unsigned long long)m->nr_migrations);

	printf("\n  cpu      start        busy   busy%%   switches       lost%s\n",
	       sc->window ? "   (busy: in the window counted)" : "");
	for (c = 0; c < t->nr_cpus; c++) {
		const struct sp_cpu *cpu = &m->cpus[c];

		if (!sc->opts->cpus[c])
			continue;
		if (cpu->start_ns == SP_NO_TS) {
			printf("%5d    no records\n", c);
			continue;
		}
		busy = cpu_busy(m, sc, c, &busy_span);
		/* a gap of unknown size counts 1: "at least" (≥ is one column, 3 bytes) */
		snprintf(b2, sizeof(b2), "%s%llu",
			 sp_reader_lost_exact(t->reader, c) ? "" : "\xe2\x89\xa5 ",
			 (unsigned long long)sp_reader_lost_events(t->reader, c));
		printf("%5d  %+9.6f  %10s  %5.1f%%  %9llu  %*s\n", c,
		       (cpu->start_ns - m->first_ns) / 1e9,
		       sp_cli_format_duration(b1, 32, busy), pct(busy, busy_span),
		       (unsigned long long)cpu->nr_switches,
		       sp_reader_lost_exact(t->reader, c) ? 9 : 11, b2);
	}

	if (s->power && s->power->nr_events[SP_POWER_FREQ])
		print_text_freq(s->power, sc);
	printf("\nrunning     %.2f tasks on average, at most %d, on %d CPUs\n",
	       sp_stats_running_avg(s), s->running_max, sc->nr_cpus);
	printf("waiting     %.2f tasks on average, at most %d\n", sp_stats_waiting_avg(s),
	       s->waiting_max);
	printf("idle while waiting  %s, %.1f%% of the window (a task waited while a CPU "
	       "was idle)\n", sp_cli_format_duration(b1, 32, s->idle_while_waiting_ns),
	       pct(s->idle_while_waiting_ns, counted));
	printf("lost capacity       %s of CPU time, %.2f%% of %d CPUs x the window (CPUs that "
	       "idled while a task waited)\n", sp_cli_format_duration(b1, 32, s->lost_cpu_ns),
	       100 * sp_stats_lost_fraction(s), sc->nr_cpus);
	printf("lost time           wall %s, per CPU %s, per thread %s (a CPU idled while "
	       "another ran with tasks waiting for it)\n",
	       sp_cli_format_duration(b1, 32, sc->lost.wall_ns),
	       sp_cli_format_duration(b2, 32, sc->lost.per_cpu_ns),
	       sp_cli_format_duration(b3, 32, sc->lost.per_thread_ns));
	c = sc->nr_cpus > 1 ? sp_view_opts_one_cpu(sc->opts, m) : -1;
	if (c >= 0)
		printf("                    all runs of the tasks counted were on CPU %d: if they "
		       "were bound to it (taskset), the other CPUs could not run them; affinity "
		       "is not in the trace\n", c);
	if (!s->latency.n)
		printf("wakeup latency      no samples (no wait after a wakeup)\n");
	else
		printf("wakeup latency      %llu waits after a wakeup: median %s, p90 %s, p99 %s, "
		       "max %s\n",
		       (unsigned long long)s->latency.n,
		       sp_cli_format_duration(b1, 32, s->latency.p50),
		       sp_cli_format_duration(b2, 32, s->latency.p90),
		       sp_cli_format_duration(b3, 32, s->latency.p99),
		       sp_cli_format_duration(b4, 32, s->latency.max));
	print_text_marks(&sc->marks);
	print_text_spans((struct sp_spans *)&sc->spans);
	print_text_contradicted(t, s);
	if (sp_model_nr_repairs(m))
		printf("repairs     %llu (missed switches reconstructed from common_pid)\n",
		       (unsigned long long)sp_model_nr_repairs(m));

	print_text_pointers(t, s);

	if (cmds) {
		print_text_commands(sc, cmds, nr_cmds, sc->top);
		print_text_behind(m, sc, sc->top, true);
		return;
	}
	top = print_top_heading(sc, "tasks", "", nr_tasks, top);
	printf("%8s  %-16s %12s %12s %8s %10s\n", "pid", "comm", "run", "wait", "wakeups",
	       "migrations");
	for (i = 0; i < top; i++) {
		const struct sp_task *tk = tasks[i];
		char comm[17];

		/* keep the table aligned whatever the name holds */
		table_name(comm, sp_model_str(m, tk->comm));
		printf("%8d  %-16s %12s %12s %8llu %10llu\n", tk->pid, comm,
		       sp_cli_format_duration(b1, 32, tk->run_ns),
		       sp_cli_format_duration(b2, 32, tk->wait_ns),
		       (unsigned long long)tk->wakeups, (unsigned long long)tk->migrations);
	}
	print_text_behind(m, sc, top, false);
	print_text_sleeps(m, sc, top);
	if (sc->chained)
		print_text_chain(m, sc, tasks, top);
}

struct by_command_ctx {
	const struct sp_model *m;
	struct sp_behind_table *out;
};

static uint32_t comm_id_of(const struct sp_model *m, int pid)
{
	const struct sp_task *tk = sp_model_task(m, pid);

	return tk ? tk->comm : 0;
}

static void add_by_command(void *data, int waiter, int antagonist, uint64_t ns)
{
	struct by_command_ctx *c = data;

	sp_behind_table_add(c->out, (int)comm_id_of(c->m, waiter),
			    antagonist == SP_BEHIND_TOTAL ? SP_BEHIND_TOTAL :
			    (int)comm_id_of(c->m, antagonist), ns);
}

/* The sums per task merged by command name, sorted into sc->sorted.  Return: 0 or -ENOMEM. */
static int behind_by_command(const struct sp_model *m, struct stats_scope *sc)
{
	struct sp_behind_table merged = { 0 };
	struct by_command_ctx c = { m, &merged };
	int ret = 0;

	sp_behind_table_each(&sc->behind.table, add_by_command, &c);
	if (merged.error)
		ret = -ENOMEM;
	else
		sc->sorted = sp_behind_table_sorted(&merged, &sc->nr_sorted);
	if (!ret && !sc->sorted && merged.nr)
		ret = -ENOMEM;
	sp_behind_table_release(&merged);
	return ret;
}

static int stats_parse(struct sp_opts_ctx *ctx, int opt, const char *arg)
{
	static const char *const keys[] = { "task", "command", NULL };
	struct stats_scope *sc = ctx->own;
	char *end;
	int choice;

	switch (opt) {
	case 'b':
		if (sp_cli_parse_choice("stats", "by", arg, keys, &choice))
			return SP_EXIT_USAGE;
		sc->by_command = choice == 1;
		return 0;
	default:
		sc->top = strtol(arg, &end, 10);
		sc->has_top = true;
		if (*end || end == arg || sc->top < 0)
			return sp_cli_usage("stats", "--top needs a count, not '%s'", arg);
		return 0;
	}
}

static const struct sp_opt stats_options[] = {
	SP_OPT_SHARED("input"),
	{ .name = "json", .key = 'j', .help = "print one JSON object (all tasks) instead of text" },
	{ "top", 'n', required_argument, "N", "Output",
	  "tasks to list in the text summary (default 15, 0: all)" },
	{ "by", 'b', required_argument, "KEY", "Output",
	  "list tasks (task, the default) or commands (command: the threads of one name "
	  "merged, as perf sched latency)" },
	SP_OPT_WORDS("min", "count from TIME after the trace's start"),
	SP_OPT_WORDS("max", "count up to TIME after the trace's start"),
	SP_OPT_WORDS("time", "count over a window in the trace's own timestamps (seconds); TIME: "
		     "seconds, or 100ms, 250us, 2s, 300ns"),
	SP_OPT_WORDS("cpus", "count only these CPUs and the tasks on them (0-3,8)"),
	SP_OPT_WORDS("target", "count only tasks named COMM (glob) or of thread id PID (repeat "
		     "or separate with commas)"),
	SP_OPT_WORDS("target-process", "count only the threads of these processes (by leader)"),
	SP_OPT_SHARED("target-tree"),
	SP_OPT_WORDS("mark", "count the records of EVENT that pass FILTER (as in trace-cmd "
		     "report -F); may be repeated"),
	SP_OPT_WORDS("span", "count and time the intervals from each START record to the next "
		     "END record with the same FIELD values, e.g. "
		     "'irq:irq_handler_entry..irq:irq_handler_exit key=irq'; may be repeated"),
	{ }
};

/* Only text: no image. */
static int stats_parsed(struct sp_view_run *run)
{
	struct stats_scope *sc = run->data;

	sc->opts = &run->opts;
	sc->json = run->opts.json;
	if (!sc->has_top)
		sc->top = 15;
	sc->window = run->opts.has_min || run->opts.has_max || run->opts.has_time;
	sc->scoped = sc->window || run->opts.cpus_list || sp_view_opts_has_targets(&run->opts);
	run->no_image = true;
	return SP_EXIT_OK;
}

/*
 * The statistics, the marks, the spans, the window's busy time and who
 * each wait waited behind, over the window asked for.
 */
static int stats_plan(struct sp_view_run *run, struct _cairo *cr)
{
	struct stats_scope *sc = run->data;
	struct sp_trace *t = &run->trace;
	struct sp_error err = { 0 };
	struct sp_stats *s;
	uint64_t t0;
	int ret;

	(void)cr;
	sc->nr_cpus = sp_view_opts_filter(&sc->filter, sc->opts);
	if (!sc->nr_cpus)
		return sp_cli_usage("stats", "--cpus %s selects no CPU", sc->opts->cpus_list);
	s = malloc(sizeof(*s));
	if (!s)
		return sp_cli_fail(t->path, "out of memory");
	/* over the window asked for, within the complete window */
	t0 = t->window_start_ns > sc->opts->t0_ns ? t->window_start_ns : sc->opts->t0_ns;
	if (t0 > sc->opts->t1_ns)
		t0 = sc->opts->t1_ns;
	sp_stats_init(s, t0, sc->opts->t1_ns, sc->nr_cpus);
	sc->stats = s;
	/*
	 * The waits and migrations counted: the scope of the views, its
	 * window cut as the step functions' is when one was asked for
	 * (without one, every wait of the trace counts).
	 */
	sc->scope = sc->opts->scope;
	if (sc->window)
		sc->scope.t0_ns = t0;
	s->scope = sc->scope;
	ret = want_power(t, &sc->power, t0, sc->opts->t1_ns);
	if (ret < 0)
		return sp_cli_fail_code(t->path, ret, "cannot read the frequency events");
	if (ret)
		s->power = &sc->power;
	/* all of the trace, or what happened in the window asked for */
	if (sp_marks_init(&sc->marks, t, t->has_topology ? &t->topology : NULL, &sc->scope))
		return sp_cli_fail(t->path, "out of memory");
	if (sc->window) {
		/* each CPU's busy time in the window too */
		sc->busy_ns = calloc(t->nr_cpus, sizeof(*sc->busy_ns));
		if (!sc->busy_ns)
			return sp_cli_fail(t->path, "out of memory");
		sc->t0_ns = sc->opts->t0_ns;
		sc->t1_ns = sc->opts->t1_ns;
	}
	if (sc->opts->nr_spans || sc->opts->nr_marks) {
		ret = sp_evspec_plan(t->reader, t->path, sc->opts, &sc->spans, true);
		if (ret)
			return ret;
		if (sp_spans_init(&sc->spans, &sc->scope, t->reader, t->nr_cpus))
			return sp_cli_fail(t->path, "out of memory");
		sc->has_spans = true;
	}
	/* the time lost to CPUs that idled while others were overloaded */
	if (sp_lost_time_init(&sc->lost, &sc->scope, t0, sc->opts->t1_ns, t->nr_cpus,
			      &t->model))
		return sp_cli_fail(t->path, "out of memory");
	/* who each wait counted waited behind */
	if (sp_antagonists_init(&sc->hist, t->nr_cpus))
		return sp_cli_fail(t->path, "out of memory");
	sc->behind.hist = &sc->hist;
	sc->behind.scope = sc->scope;
	sp_sleeps_init(&sc->sleeps, &sc->scope);
	/* where the trace names the places tasks blocked in */
	if (sp_sleeps_request(&sc->sleeps, t->reader, &err))
		return sp_cli_fail(t->path, "out of memory");
	/* with --target, where each target's time went */
	sc->chained = sp_view_opts_has_targets(sc->opts);
	if (sc->chained)
		sp_chain_init(&sc->chain, &sc->hist, &sc->scope, false);
	else	/* only the waits as the pass tells them ask: the runs before them can go */
		sc->hist.model = &t->model;
	return SP_EXIT_OK;
}

static void stats_observe(struct sp_view_run *run, struct sp_view_pass *pass)
{
	struct stats_scope *sc = run->data;

	SP_PASS_OBSERVE(&pass->pass, sp_stats_observer, sc->stats);
	if (sc->busy_ns)
		sp_pass_add(&pass->pass, &(struct sp_model_observer){ .run = scope_run,
								      .reset = scope_reset,
								      .data = sc });
	SP_PASS_OBSERVE(&pass->pass, sp_marks_observer, &sc->marks);
	if (sc->has_spans)
		SP_PASS_OBSERVE(&pass->pass, sp_spans_observer, &sc->spans);
	SP_PASS_OBSERVE(&pass->pass, sp_antagonists_observer, &sc->hist);
	SP_PASS_OBSERVE(&pass->pass, sp_waited_behind_observer, &sc->behind);
	SP_PASS_OBSERVE(&pass->pass, sp_sleeps_observer, &sc->sleeps);
	if (sc->chained)
		SP_PASS_OBSERVE(&pass->pass, sp_chain_observer, &sc->chain);
	SP_PASS_OBSERVE(&pass->pass, sp_lost_time_observer, &sc->lost);
	pass->filter = &sc->filter;
}

/* What the pass gathered, printed. */
static int stats_finish(struct sp_view_run *run)
{
	struct stats_scope *sc = run->data;
	struct sp_trace *t = &run->trace;
	struct sp_stats *s = sc->stats;
	struct command_row *cmds = NULL;
	struct sp_task **tasks;
	size_t nr_tasks, nr_cmds = 0;
	int ret = 0;

	if (sp_spans_finish(&sc->spans))
		return sp_cli_fail(t->path, "out of memory keeping the spans");
	sp_sleeps_finish(&sc->sleeps);
	if (sc->chained)
		sp_chain_finish(&sc->chain);
	sp_stats_finish(s);
	if (sp_lost_time_finish(&sc->lost))
		return sp_cli_fail(t->path, "out of memory keeping the CPUs' idle and busy time");
	if (s->power)
		sp_power_finish(s->power, t->model.end_ns);
	if (s->lat_error)
		return sp_cli_fail(t->path, "out of memory keeping %llu wakeup latencies",
				   (unsigned long long)s->lat.nr);
	if (sc->hist.error || sc->behind.table.error || sc->sleeps.error || sc->chain.error)
		return sp_cli_fail(t->path, "out of memory keeping who the tasks waited behind");
	if (sc->by_command)
		ret = behind_by_command(&t->model, sc);
	else
		sc->sorted = sp_behind_table_sorted(&sc->behind.table, &sc->nr_sorted);
	sc->wakers = sp_behind_table_sorted(&sc->sleeps.wakers, &sc->nr_wakers);
	sc->chain_ns = sp_behind_table_sorted(&sc->chain.ns, &sc->nr_chain_ns);
	sc->chain_count = sp_behind_table_sorted(&sc->chain.count, &sc->nr_chain_count);
	if (ret || (!sc->sorted && sc->behind.table.nr) ||
	    (!sc->wakers && sc->sleeps.wakers.nr) || (!sc->chain_ns && sc->chain.ns.nr) ||
	    (!sc->chain_count && sc->chain.count.nr))
		return sp_cli_fail(t->path, "out of memory");
	tasks = sorted_tasks(&t->model, sc, &nr_tasks);
	if (tasks && sc->by_command)
		cmds = merge_commands(&t->model, tasks, nr_tasks, &nr_cmds);
	if (!tasks || (sc->by_command && !cmds)) {
		free(tasks);
		return sp_cli_fail(t->path, "out of memory");
	}
	warn_contradicted(t, s);
	if (sc->json)
		print_json(t, s, sc, tasks, nr_tasks, cmds, nr_cmds);
	else
		print_text(t, s, sc, tasks, nr_tasks, cmds, nr_cmds, sc->top);
	free(cmds);
	free(tasks);
	if (fflush(stdout) || ferror(stdout))
		return sp_cli_fail(NULL, "cannot write the output");
	return SP_EXIT_OK;
}

static void stats_release(struct sp_view_run *run)
{
	struct stats_scope *sc = run->data;

	free(sc->sorted);
	free(sc->wakers);
	free(sc->chain_ns);
	free(sc->chain_count);
	sp_chain_release(&sc->chain);
	sp_lost_time_release(&sc->lost);
	sp_sleeps_release(&sc->sleeps);
	sp_behind_table_release(&sc->behind.table);
	sp_antagonists_release(&sc->hist);
	sp_marks_release(&sc->marks);
	sp_spans_release(&sc->spans);
	if (sc->stats) {
		sp_stats_release(sc->stats);
		free(sc->stats);
	}
	sp_power_release(&sc->power);
	free(sc->busy_ns);
}

const struct sp_view_desc sp_view_stats = {
	.cmd = {
		SP_CMD_NAMED(stats, "stats",
			     "print the numbers behind the pictures (text or JSON)"),
		.description =
		"Print what the scheduler did: per-CPU busy time, the tasks that ran most,\n"
		"how many tasks ran and waited on average, and how long a task waited while\n"
		"a CPU was idle (work conservation violated); with power:cpu_frequency\n"
		"events, each CPU's time-weighted mean frequency.\n"
		"\n"
		"Examples:\n"
		"  schedplot stats trace.dat              readable summary\n"
		"  schedplot stats --json trace.dat       one JSON object, times in ns\n"
		"  schedplot stats --top 40 trace.dat     list 40 tasks instead of 15\n"
		"  schedplot stats --by command trace.dat run and wait of each command name\n"
		"  schedplot stats --min 2 --max 2.5s     the numbers of half a second\n"
		"\n",
		.footer = "See schedplot-stats(1) for the exact meaning of every number.\n",
		.parse = stats_parse,
	},
	.data_size = sizeof(struct stats_scope),
	.may_start_over = true,
	.parsed = stats_parsed,
	SP_VIEW_HOOKS(stats),
};
