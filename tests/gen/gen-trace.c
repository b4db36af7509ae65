// SPDX-License-Identifier: GPL-2.0-only
/*
 * gen-trace: a synthetic scheduler trace of a machine we do not have, with
 * the numbers schedplot must find in it.
 *
 *   gen-trace --cpus 256 --sockets 4 --seconds 10 --seed 1 --events 20000000 -o big.dat
 *
 * A small discrete-event simulation of a scheduler, run in global time
 * order, writes every state change as the sched record the kernel would
 * emit (sched_switch, sched_wakeup, sched_wakeup_new, sched_migrate_task,
 * sched_process_fork/exit) through the writer module, and keeps the
 * ground truth as it goes: per-CPU busy time and switch count, migrations
 * (by class: at wakeup, load balancing; across sockets), the placement of
 * each wakeup (stayed, left an idle or a busy previous CPU, with its wait)
 * and the time integrals of running and waiting tasks, with the exact
 * semantics of doc/design.md.  The same seed gives the same bytes.
 *
 * Workloads:
 *   hpc        one thread per CPU that computes and meets at short waits,
 *              per-CPU kworkers that preempt it now and then, wakeups that
 *              land on a busy CPU while another idles (overload), and a load
 *              balancer that pulls waiting tasks to idle CPUs, across sockets
 *   messaging  many tasks (hackbench style) that run briefly, wake a peer and
 *              sleep
 * --overload adds a phase in the middle third in which the hpc threads fork
 * children (more runnable tasks than CPUs) that run a few bursts and exit.
 *
 * Beside the trace it writes FILE.json (the truth) and FILE.lscpu (the
 * topology in `lscpu -p` form; CPUs are numbered round-robin over the
 * sockets, as on many two- and four-socket servers).  --topology-markers
 * also puts that topology inside the trace, as the ftrace:print records
 * schedplot record writes (schedplot-record(1)).  --power adds
 * power:cpu_idle records (a CPU enters idle state 0, 1 or 2 as it goes
 * idle and leaves it, state 4294967295, as a task comes) and
 * power:cpu_frequency records (each socket a frequency policy that picks a
 * new frequency every tenth of the run, told on the socket's first CPU for
 * each of its CPUs; socket k's first one after k + 1 tenths, so the
 * frequency starts unknown), and the truth of each CPU's time-weighted
 * mean frequency over the trace from its first frequency record.
 * --frequencies N has the policies pick among the first N of the four
 * frequencies only (1: it never changes), the random sequence unchanged.
 * --misplace N scripts N times the story of a misplaced wakeup (hpc): a
 * kworker runs briefly on a sleeping thread's idle CPU, then a thread on
 * another CPU wakes it onto its own CPU, where it waits behind the waker;
 * the truth then lists every wakeup that left an idle previous CPU, with
 * its waker, CPUs and wait, the scripted ones with their kworker's run.
 * --blocked-reason records, as Android's kernels do, a
 * sched:sched_blocked_reason (pid, caller, io_wait) as each task that ran
 * is woken from a sleep, on the waker's CPU just before the wakeup; its
 * caller lies in one of three functions of a small kallsyms saved in the
 * trace, picked by the task's pid and count of such sleeps; the truth
 * lists per task and function the sleeps and their time (from the
 * switch-out to the wakeup).
 *
 * --script FILE writes, instead of a simulation, the records FILE lists,
 * for small traces whose numbers are worked out by hand (no truth file):
 *
 *	cpus N					the trace's CPUs (first)
 *	task PID COMM				a name, for the records and cmdlines
 *	TS CPU COMMON switch PREV STATE NEXT	sched_switch, STATE R or S
 *	TS CPU COMMON wakeup PID TARGET		sched_wakeup
 *	TS CPU COMMON migrate PID FROM TO	sched_migrate_task
 *
 * TS in ns, COMMON the record's common_pid; '#' begins a comment.
 */
#define _GNU_SOURCE	/* asprintf */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/base/alloc.h"
#include "schedplot/base/error.h"
#include "schedplot/trace/event.h"
#include "schedplot/trace/writer.h"

#include "formats.h"

#define T0_NS		1000000000ull	/* the trace starts at 1 s */
#define MAX_CPUS	512

enum task_state { T_UNBORN, T_SLEEP, T_WAIT, T_RUN, T_DEAD };
enum task_kind { K_HPC, K_KWORKER, K_MSG, K_CHILD };
enum timer_kind { E_CPU, E_WAKE, E_BALANCE, E_FREQ, E_MISPLACE };

struct task {
	int pid;
	char comm[32];	/* the kernel keeps 15 bytes; so does the writer */
	uint8_t state;
	uint8_t kind;
	int cpu;		/* running or queued on; last CPU when asleep */
	uint64_t burst_left;	/* run time left in the current burst */
	uint64_t run_since;
	uint32_t gen;		/* invalidates a pending wake timer */
	int bursts_left;	/* children: bursts until exit */
	int forks_left;		/* hpc threads in the overload phase */
	/* placement truth: the wakeup the task waits from */
	bool ran;		/* it ran in the trace */
	bool wake_wait;		/* woken, not run since */
	bool wake_prev_idle;	/* its previous CPU ran nothing at the wakeup */
	int wake_prev;		/* that CPU */
	uint64_t wake_ts;
	int wake_waker;		/* the waker: the pid current on the record's CPU */
	int wake_rec_cpu;	/* the CPU of the wakeup record */
	int wake_dest;		/* the CPU the wakeup put it on */
	int scripted;		/* --misplace: the scripted misplacement it waits from, -1: none */
	/* --blocked-reason: its sleeps and their time by the caller's function */
	uint64_t reason_nr[3], reason_ns[3];
	/* its last run: CPU and time (end 0: none yet) */
	int last_cpu;
	uint64_t last_start, last_end;
};

/* A wakeup that left an idle previous CPU, as the truth lists it (--misplace). */
struct misplacement {
	uint64_t wake_ns, wait_ns;
	int task, prev, waker, waker_cpu, dest, cpu;
	int scripted;		/* its index, -1: the simulation's own */
	int kworker;		/* scripted: the kworker that ran on prev before, -1: none */
	uint64_t kw_start, kw_end;
};

/* One scripted misplacement: a sleeping task, its idle CPU, a busy CPU. */
struct script {
	int task, prev, tries;
	bool done;
	int kworker;		/* the kworker's run on prev before the wakeup, -1: none */
	uint64_t kw_start, kw_end;
};

struct cpu {
	int cur;		/* task index, -1: idle (pid 0) */
	uint64_t seg_start;	/* when the current task (or idle) began */
	uint64_t done_at;	/* pending E_CPU timer */
	uint32_t gen;
	int *rq;		/* ring of waiting task indexes */
	int rq_head, rq_len;
	int idle_pos;		/* index in the idle list, -1 if not idle */
	uint64_t busy_ns;
	uint64_t switches;
	uint64_t last_ts;
	/* --power: frequency (kHz, 0 unknown) since, and its truth */
	uint32_t khz;
	uint64_t khz_since;
	double khz_ns;
	uint64_t khz_known_ns;
};

struct timer {
	uint64_t t;
	uint64_t seq;
	uint8_t kind;
	int id;
	uint32_t gen;
};

struct sim {
	/* parameters */
	int nr_cpus, nr_sockets, nr_tasks;
	bool messaging, overload;
	bool waking;			/* sched_waking records instead of sched_wakeup */
	bool big_endian;		/* of the file written */
	bool power;			/* power:cpu_idle and power:cpu_frequency records */
	bool blocked_reason;		/* sched:sched_blocked_reason records */
	int nr_freqs;			/* --frequencies: the policies pick among so many */
	uint64_t seconds_ns, max_events;
	double scale;
	uint64_t rng;
	/* state */
	struct task *tasks;
	struct cpu *cpus;
	int *idle;		/* CPUs with no task and an empty run queue */
	int nr_idle;
	struct timer *heap;
	size_t nr_heap, alloc_heap;
	uint64_t seq;
	uint64_t now;
	int nr_unborn_next;	/* next task index a fork uses */
	/* truth */
	int running, waiting;
	uint64_t last_change;
	uint64_t running_area, waiting_area, iww_ns;
	uint64_t lost_cpu_ns;	/* integral of min(waiting, N - running) */
	uint64_t migrations, records, by_type[SP_EV_NR_TYPES];
	uint64_t mig_wakeup, mig_balance, mig_cross;	/* migration classes */
	uint64_t place_nr[3], place_wait_ns[3];	/* stayed, moved_prev_idle, moved_prev_busy */
	uint64_t nr_markers;	/* print records, not sched records */
	uint64_t nr_power;	/* power records, not sched records either */
	uint64_t nr_reasons;	/* sched_blocked_reason records, not counted as sched */
	uint64_t end_ns;
	/* --misplace: the scripted ones, and every wakeup that left an idle CPU */
	int nr_scripts;
	struct script *scripts;
	struct misplacement *mis;
	size_t nr_mis, alloc_mis;
	/* output */
	struct sp_writer *w;
	struct sp_error err;
	int failed;
};

/* ---- random numbers (splitmix64), exponential durations ---- */

static uint64_t rnd(struct sim *s)
{
	uint64_t z = (s->rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static double rnd01(struct sim *s)
{
	return ((rnd(s) >> 11) + 0.5) / 9007199254740992.0;
}

static int rnd_int(struct sim *s, int n)
{
	return (int)(rnd(s) % (uint64_t)n);
}

/* An exponential duration with mean @mean_ns (scaled), at least 1 ns. */
static uint64_t rnd_exp(struct sim *s, double mean_ns)
{
	double v = -log(rnd01(s)) * mean_ns * s->scale;

	return v < 1 ? 1 : (uint64_t)v;
}

/* ---- the timer heap, ordered by time then insertion ---- */

static bool timer_before(const struct timer *a, const struct timer *b)
{
	return a->t != b->t ? a->t < b->t : a->seq < b->seq;
}

static void timer_add(struct sim *s, uint64_t t, int kind, int id, uint32_t gen)
{
	size_t i;

	if (sp_grow_array(&s->heap, &s->alloc_heap, s->nr_heap + 1, sizeof(*s->heap))) {
		s->failed = -ENOMEM;
		return;
	}
	i = s->nr_heap++;
	s->heap[i] = (struct timer){ t, s->seq++, kind, id, gen };
	while (i) {
		size_t p = (i - 1) / 2;
		struct timer tmp;

		if (!timer_before(&s->heap[i], &s->heap[p]))
			break;
		tmp = s->heap[i];
		s->heap[i] = s->heap[p];
		s->heap[p] = tmp;
		i = p;
	}
}

static struct timer timer_pop(struct sim *s)
{
	struct timer top = s->heap[0];
	size_t i = 0;

	s->heap[0] = s->heap[--s->nr_heap];
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		struct timer tmp;

		if (l < s->nr_heap && timer_before(&s->heap[l], &s->heap[m]))
			m = l;
		if (r < s->nr_heap && timer_before(&s->heap[r], &s->heap[m]))
			m = r;
		if (m == i)
			break;
		tmp = s->heap[i];
		s->heap[i] = s->heap[m];
		s->heap[m] = tmp;
		i = m;
	}
	return top;
}

/* ---- truth and records ---- */

/* Integrate running and waiting up to now, before a change. */
static void account(struct sim *s)
{
	uint64_t dt = s->now - s->last_change;
	int lost;

	s->running_area += (uint64_t)s->running * dt;
	s->waiting_area += (uint64_t)s->waiting * dt;
	if (s->waiting >= 1 && s->running < s->nr_cpus)
		s->iww_ns += dt;
	lost = s->nr_cpus - s->running < s->waiting ? s->nr_cpus - s->running : s->waiting;
	if (lost > 0)
		s->lost_cpu_ns += (uint64_t)lost * dt;
	s->last_change = s->now;
}

static int pid_of(const struct sim *s, int task)
{
	return task < 0 ? 0 : s->tasks[task].pid;
}

static const char *comm_of(const struct sim *s, int task)
{
	return task < 0 ? "swapper" : s->tasks[task].comm;
}

static void emit(struct sim *s, struct sp_event *ev)
{
	ev->ts_ns = s->now;
	s->records++;
	s->by_type[ev->type]++;
	s->end_ns = s->now;
	s->cpus[ev->cpu].last_ts = s->now;
	if (s->w && !s->failed)
		s->failed = sp_writer_write_event(s->w, ev, &s->err);
}

static void emit_switch(struct sim *s, int c, int prev, bool runnable, int next)
{
	struct sp_event ev = {
		.type = SP_EV_SWITCH, .cpu = c, .common_pid = pid_of(s, prev),
		.pid = pid_of(s, prev), .other_pid = pid_of(s, next),
		.comm = comm_of(s, prev), .other_comm = comm_of(s, next),
		.prev_runnable = runnable || prev < 0, .target_cpu = -1, .orig_cpu = -1,
	};

	s->cpus[c].switches++;
	emit(s, &ev);
}

static void emit_task(struct sim *s, int type, int c, int task, int target, int orig)
{
	struct sp_event ev = {
		.type = type, .cpu = c, .common_pid = pid_of(s, s->cpus[c].cur),
		.pid = pid_of(s, task), .comm = comm_of(s, task),
		.target_cpu = target, .orig_cpu = orig, .other_pid = -1,
	};

	emit(s, &ev);
}

/* ---- power records ---- */

#define CPU_FREQUENCY_ID	6
#define CPU_IDLE_ID		7
#define IDLE_EXIT		4294967295u

#define POWER_FORMAT(name, id) \
	"name: " name "\nID: " #id "\nformat:\n" SP_TEST_COMMON_FIELDS \
	"\tfield:u32 state;\toffset:8;\tsize:4;\tsigned:0;\n" \
	"\tfield:u32 cpu_id;\toffset:12;\tsize:4;\tsigned:0;\n\n" \
	"print fmt: \"state=%lu cpu_id=%lu\", (unsigned long)REC->state, " \
	"(unsigned long)REC->cpu_id\n"

static const char cpu_frequency_format[] = POWER_FORMAT("cpu_frequency", 6);
static const char cpu_idle_format[] = POWER_FORMAT("cpu_idle", 7);

static void put32(unsigned char *p, uint32_t v, bool big)
{
	for (int i = 0; i < 4; i++)
		p[big ? 3 - i : i] = (unsigned char)(v >> (8 * i));
}

/* A power record on CPU @c at now: event @id, @state about CPU @cpu_id. */
static void emit_power(struct sim *s, int c, int id, uint32_t state, int cpu_id)
{
	unsigned char rec[16] = { 0 };

	rec[s->big_endian] = (unsigned char)id;		/* common_type (u16) */
	put32(rec + 4, (uint32_t)pid_of(s, s->cpus[c].cur), s->big_endian);
	put32(rec + 8, state, s->big_endian);
	put32(rec + 12, (uint32_t)cpu_id, s->big_endian);
	s->nr_power++;
	s->end_ns = s->now;
	s->cpus[c].last_ts = s->now;
	if (s->w && !s->failed)
		s->failed = sp_writer_write_raw(s->w, c, s->now, rec, sizeof(rec), &s->err);
}

/* ---- sched_blocked_reason records (--blocked-reason) ---- */

#define BLOCKED_REASON_ID	8

/* Android's event (TP_STRUCT__entry: pid_t pid, void *caller, bool io_wait). */
static const char blocked_reason_format[] =
	"name: sched_blocked_reason\nID: 8\nformat:\n" SP_TEST_COMMON_FIELDS
	"\tfield:pid_t pid;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:void * caller;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:bool io_wait;\toffset:24;\tsize:1;\tsigned:0;\n\n"
	"print fmt: \"pid=%d iowait=%d caller=%pS\", REC->pid, REC->io_wait, REC->caller\n";

/* The functions callers lie in, each 0x100 bytes long, and the one after them. */
static const char *const reason_function[3] = { "pipe_read", "ext4_sync_file", "blkdev_read_iter" };
#define REASON_TEXT	0xffffffff81200000ull

static const char reason_kallsyms[] =
	"ffffffff81200000 T pipe_read\n"
	"ffffffff81200100 T ext4_sync_file\n"
	"ffffffff81200200 T blkdev_read_iter\n"
	"ffffffff81200300 t reason_text_end\n";

static void put64(unsigned char *p, uint64_t v, bool big)
{
	for (int i = 0; i < 8; i++)
		p[big ? 7 - i : i] = (unsigned char)(v >> (8 * i));
}

/* @task, asleep since its last run, is woken now on CPU @c: why it blocked. */
static void emit_blocked_reason(struct sim *s, int c, int task)
{
	struct task *t = &s->tasks[task];
	unsigned char rec[32] = { 0 };
	uint64_t n = t->reason_nr[0] + t->reason_nr[1] + t->reason_nr[2];
	int k = (int)((t->pid + n) % 3);

	rec[s->big_endian] = BLOCKED_REASON_ID;		/* common_type (u16) */
	put32(rec + 4, (uint32_t)pid_of(s, s->cpus[c].cur), s->big_endian);
	put32(rec + 8, (uint32_t)t->pid, s->big_endian);
	put64(rec + 16, REASON_TEXT + 0x100 * k + 0x42, s->big_endian);
	rec[24] = k != 0;				/* io_wait: not for a pipe */
	t->reason_nr[k]++;
	t->reason_ns[k] += s->now - t->last_end;
	s->nr_reasons++;
	s->end_ns = s->now;
	s->cpus[c].last_ts = s->now;
	if (s->w && !s->failed)
		s->failed = sp_writer_write_raw(s->w, c, s->now, rec, 25, &s->err);
}

/* CPU @c's frequency so far, into the truth (up to now). */
static void freq_account(struct sim *s, int c, uint64_t now)
{
	struct cpu *cpu = &s->cpus[c];

	if (cpu->khz && now > cpu->khz_since) {
		cpu->khz_ns += (double)cpu->khz * (double)(now - cpu->khz_since);
		cpu->khz_known_ns += now - cpu->khz_since;
	}
	cpu->khz_since = now;
}

static const uint32_t freq_khz[] = { 800000, 1200000, 1800000, 2400000 };

/* Socket @sock's policy picks a frequency for all its CPUs. */
static void freq_change(struct sim *s, int sock)
{
	uint32_t khz = freq_khz[rnd(s) % (sizeof(freq_khz) / sizeof(freq_khz[0])) %
				(uint64_t)s->nr_freqs];
	int c;

	for (c = sock; c < s->nr_cpus; c += s->nr_sockets) {
		freq_account(s, c, s->now);
		s->cpus[c].khz = khz;
		emit_power(s, sock, CPU_FREQUENCY_ID, khz, c);
	}
	timer_add(s, s->now + s->seconds_ns / 10, E_FREQ, sock, 0);
}

/* ---- run queues and the idle list ---- */

static void idle_update(struct sim *s, int c)
{
	struct cpu *cpu = &s->cpus[c];
	bool idle = cpu->cur < 0 && !cpu->rq_len;

	if (idle && cpu->idle_pos < 0) {
		cpu->idle_pos = s->nr_idle;
		s->idle[s->nr_idle++] = c;
	} else if (!idle && cpu->idle_pos >= 0) {
		int last = s->idle[--s->nr_idle];

		s->idle[cpu->idle_pos] = last;
		s->cpus[last].idle_pos = cpu->idle_pos;
		cpu->idle_pos = -1;
	}
}

static void rq_push(struct sim *s, int c, int task, bool front)
{
	struct cpu *cpu = &s->cpus[c];

	if (front) {
		cpu->rq_head = (cpu->rq_head + s->nr_tasks - 1) % s->nr_tasks;
		cpu->rq[cpu->rq_head] = task;
	} else {
		cpu->rq[(cpu->rq_head + cpu->rq_len) % s->nr_tasks] = task;
	}
	cpu->rq_len++;
	account(s);
	s->waiting++;
	s->tasks[task].state = T_WAIT;
	s->tasks[task].cpu = c;
	idle_update(s, c);
}

static int rq_pop(struct sim *s, int c, bool tail)
{
	struct cpu *cpu = &s->cpus[c];
	int task;

	if (!cpu->rq_len)
		return -1;
	if (tail) {
		task = cpu->rq[(cpu->rq_head + cpu->rq_len - 1) % s->nr_tasks];
	} else {
		task = cpu->rq[cpu->rq_head];
		cpu->rq_head = (cpu->rq_head + 1) % s->nr_tasks;
	}
	cpu->rq_len--;
	account(s);
	s->waiting--;
	return task;
}

/* ---- the scheduler ---- */

#define SLICE_NS	3000000.0	/* round robin among runnable tasks */

static void arm_cpu(struct sim *s, int c)
{
	struct cpu *cpu = &s->cpus[c];
	struct task *t = &s->tasks[cpu->cur];
	uint64_t run = t->burst_left;

	/* the burst left, counted from when the task last got the CPU */
	if (cpu->rq_len && run > SLICE_NS * s->scale)
		run = SLICE_NS * s->scale;
	cpu->done_at = t->run_since + run;
	/*
	 * Never at the very time of the change that armed it: a wakeup on
	 * another CPU and this switch at one timestamp would be read in CPU
	 * order, not in the order they happened.
	 */
	if (cpu->done_at <= s->now)
		cpu->done_at = s->now + 1;
	timer_add(s, cpu->done_at, E_CPU, c, ++cpu->gen);
}

/* Keep, for the truth, the wakeup of @task that left its idle CPU; it runs on @c now. */
static void misplacement_add(struct sim *s, int task, int c)
{
	const struct task *t = &s->tasks[task];
	struct misplacement *m;

	if (sp_grow_array(&s->mis, &s->alloc_mis, s->nr_mis + 1, sizeof(*s->mis))) {
		s->failed = -ENOMEM;
		return;
	}
	m = &s->mis[s->nr_mis++];
	*m = (struct misplacement){ .wake_ns = t->wake_ts, .wait_ns = s->now - t->wake_ts,
				    .task = task, .prev = t->wake_prev, .waker = t->wake_waker,
				    .waker_cpu = t->wake_rec_cpu, .dest = t->wake_dest, .cpu = c,
				    .scripted = t->scripted, .kworker = -1 };
	if (t->scripted >= 0) {
		const struct script *sc = &s->scripts[t->scripted];

		m->kworker = sc->kworker;
		m->kw_start = sc->kw_start;
		m->kw_end = sc->kw_end;
	}
}

/* c's current task becomes @next (-1: idle) at now; @runnable: prev stays runnable. */
static void switch_to(struct sim *s, int c, int next, bool runnable)
{
	struct cpu *cpu = &s->cpus[c];
	int prev = cpu->cur;

	/* the idle loop leaves its idle state before switching */
	if (s->power && prev < 0 && next >= 0)
		emit_power(s, c, CPU_IDLE_ID, IDLE_EXIT, c);
	emit_switch(s, c, prev, runnable, next);
	account(s);
	if (prev >= 0) {
		cpu->busy_ns += s->now - cpu->seg_start;
		s->tasks[prev].last_cpu = c;
		s->tasks[prev].last_start = cpu->seg_start;
		s->tasks[prev].last_end = s->now;
	}
	s->running += (next >= 0) - (prev >= 0);
	cpu->cur = next;
	cpu->seg_start = s->now;
	cpu->gen++;
	if (next >= 0) {
		struct task *t = &s->tasks[next];

		if (t->wake_wait && t->ran) {
			int k = c == t->wake_prev ? 0 : t->wake_prev_idle ? 1 : 2;

			s->place_nr[k]++;
			s->place_wait_ns[k] += s->now - t->wake_ts;
			if (k == 1 && s->nr_scripts)
				misplacement_add(s, next, c);
		}
		t->wake_wait = false;
		t->ran = true;
		s->tasks[next].state = T_RUN;
		s->tasks[next].cpu = c;
		s->tasks[next].run_since = s->now;
		arm_cpu(s, c);
	}
	if (s->power && prev >= 0 && next < 0)
		emit_power(s, c, CPU_IDLE_ID, (uint32_t)(rnd(s) % 3), c);
	idle_update(s, c);
}

static uint64_t new_burst(struct sim *s, const struct task *t)
{
	switch (t->kind) {
	case K_HPC:	return rnd_exp(s, 2000000);
	case K_KWORKER:	return rnd_exp(s, 20000);
	case K_MSG:	return rnd_exp(s, 40000);
	default:	return rnd_exp(s, 500000);
	}
}

static uint64_t new_sleep(struct sim *s, const struct task *t)
{
	switch (t->kind) {
	case K_HPC:	return rnd_exp(s, 100000);
	case K_KWORKER:	return rnd_exp(s, 4000000);
	default:	return rnd_exp(s, 1000000);
	}
}

/* Where a waking task goes: its CPU when idle, else mostly an idle CPU. */
static int place(struct sim *s, int task, int waker_cpu)
{
	struct task *t = &s->tasks[task];
	int last = t->cpu;

	if (t->kind == K_KWORKER)
		return last;
	/* one wakeup in 40 lands on any CPU, often a busy one, as misplaced wakeups do */
	if (!rnd_int(s, 40))
		return rnd_int(s, s->nr_cpus);
	if (s->cpus[last].cur < 0 && !s->cpus[last].rq_len)
		return last;
	/* one wakeup in five stacks on the busy CPU: overload until balanced */
	if (s->nr_idle && rnd_int(s, 5))
		return s->idle[rnd_int(s, s->nr_idle)];
	return last;
}

/*
 * Wake @task at now; the record goes on @rec_cpu (the waker's CPU, or the
 * target for timer wakeups).  An idle target runs it after a short delay.
 */
static void wake_to(struct sim *s, int task, int rec_cpu, bool is_new, int force)
{
	struct task *t = &s->tasks[task];
	int dest = force >= 0 ? force : place(s, task, rec_cpu);
	struct cpu *d = &s->cpus[dest];

	t->wake_wait = true;
	t->wake_ts = s->now;
	t->wake_prev = t->cpu;
	t->wake_prev_idle = s->cpus[t->cpu].cur < 0;
	t->wake_waker = pid_of(s, s->cpus[rec_cpu].cur);
	t->wake_rec_cpu = rec_cpu;
	t->wake_dest = dest;
	if (force < 0)
		t->scripted = -1;
	if (s->blocked_reason && !is_new && t->ran)
		emit_blocked_reason(s, rec_cpu, task);
	if (dest != t->cpu) {
		emit_task(s, SP_EV_MIGRATE, rec_cpu, task, dest, t->cpu);
		s->migrations++;
		/* asleep: placement at wakeup */
		s->mig_wakeup++;
		s->mig_cross += dest % s->nr_sockets != t->cpu % s->nr_sockets;
	}
	emit_task(s, is_new ? SP_EV_WAKEUP_NEW : s->waking ? SP_EV_WAKING : SP_EV_WAKEUP, rec_cpu,
		  task, dest, -1);
	t->gen++;
	t->burst_left = new_burst(s, t);
	if (t->kind == K_KWORKER && d->cur >= 0 && s->tasks[d->cur].kind != K_KWORKER) {
		/* kworkers preempt the current task at once */
		int cur = d->cur;
		struct task *ct = &s->tasks[cur];
		uint64_t ran = s->now - ct->run_since;

		ct->burst_left = ct->burst_left > ran ? ct->burst_left - ran : 1;
		rq_push(s, dest, task, true);
		rq_pop(s, dest, false);
		switch_to(s, dest, task, true);
		rq_push(s, dest, cur, true);
		return;
	}
	rq_push(s, dest, task, false);
	if (d->cur < 0) {
		/* the idle CPU takes a few microseconds to switch */
		d->done_at = s->now + 1000 + rnd_int(s, 20000);
		timer_add(s, d->done_at, E_CPU, dest, ++d->gen);
	} else if (d->done_at > s->tasks[d->cur].run_since + SLICE_NS * s->scale) {
		arm_cpu(s, dest);	/* now there is a queue: round robin */
	}
}

static void wake(struct sim *s, int task, int rec_cpu, bool is_new)
{
	wake_to(s, task, rec_cpu, is_new, -1);
}

static void task_sleep(struct sim *s, int task)
{
	struct task *t = &s->tasks[task];

	t->state = T_SLEEP;
	t->burst_left = 0;
	timer_add(s, s->now + new_sleep(s, t), E_WAKE, task, ++t->gen);
}

/* Pick a sleeping task of the messaging workload to wake (-1: none found). */
static int pick_peer(struct sim *s)
{
	int i;

	for (i = 0; i < 8; i++) {
		int k = rnd_int(s, s->nr_tasks);

		if (s->tasks[k].state == T_SLEEP && s->tasks[k].kind == K_MSG)
			return k;
	}
	return -1;
}

static bool in_overload_phase(const struct sim *s)
{
	uint64_t t = s->now - T0_NS;

	return s->overload && t >= s->seconds_ns / 3 && t < 2 * s->seconds_ns / 3;
}

/* A fork by the current task of c: the child starts waiting somewhere. */
static void do_fork(struct sim *s, int c)
{
	int parent = s->cpus[c].cur, child = s->nr_unborn_next++;
	struct task *ch = &s->tasks[child];
	struct sp_event ev = {
		.type = SP_EV_FORK, .cpu = c, .common_pid = pid_of(s, parent),
		.pid = pid_of(s, parent), .other_pid = ch->pid, .comm = comm_of(s, parent),
		.other_comm = ch->comm, .target_cpu = -1, .orig_cpu = -1,
	};

	emit(s, &ev);
	ch->state = T_SLEEP;
	ch->cpu = c;
	ch->bursts_left = 2 + rnd_int(s, 6);
	wake(s, child, c, true);
}

/* c's timer: the current task's burst or slice ended, or an idle CPU picks a task. */
static void cpu_timer(struct sim *s, int c)
{
	struct cpu *cpu = &s->cpus[c];
	int cur = cpu->cur, next;

	if (cur < 0) {
		next = rq_pop(s, c, false);
		if (next >= 0)
			switch_to(s, c, next, false);
		return;
	}
	struct task *t = &s->tasks[cur];
	uint64_t ran = s->now - t->run_since;

	if (ran < t->burst_left) {
		/* slice expired: round robin */
		t->burst_left -= ran;
		next = rq_pop(s, c, false);
		if (next < 0) {
			t->run_since = s->now;
			arm_cpu(s, c);
			return;
		}
		switch_to(s, c, next, true);
		rq_push(s, c, cur, false);
		return;
	}
	/* the burst is done */
	t->burst_left = 0;
	if (t->kind == K_MSG) {
		int peer = pick_peer(s);

		if (peer >= 0)
			wake(s, peer, c, false);
	}
	if (t->kind == K_HPC && t->forks_left > 0 && in_overload_phase(s) &&
	    s->nr_unborn_next < s->nr_tasks) {
		t->forks_left--;
		do_fork(s, c);
	}
	if (t->kind == K_CHILD && --t->bursts_left <= 0) {
		emit_task(s, SP_EV_EXIT, c, cur, -1, -1);
		next = rq_pop(s, c, false);
		switch_to(s, c, next, false);
		t->state = T_DEAD;
		return;
	}
	next = rq_pop(s, c, false);
	switch_to(s, c, next, false);
	task_sleep(s, cur);
}

/* Every 4 ms: each idle CPU pulls a waiting task from a CPU with a queue. */
static void balance(struct sim *s)
{
	int c, i, n = s->nr_idle;
	int *snap = malloc(sizeof(*snap) * (n ? n : 1));

	if (!snap) {
		s->failed = -ENOMEM;
		return;
	}
	memcpy(snap, s->idle, sizeof(*snap) * n);
	c = rnd_int(s, s->nr_cpus);
	for (i = 0; i < n; i++) {
		int dest = snap[i], k, from = -1, task;

		for (k = 0; k < s->nr_cpus; k++, c = (c + 1) % s->nr_cpus) {
			if (s->cpus[c].rq_len && s->cpus[c].cur >= 0 &&
			    s->tasks[s->cpus[c].rq[(s->cpus[c].rq_head + s->cpus[c].rq_len - 1) %
						   s->nr_tasks]].kind != K_KWORKER) {
				from = c;
				break;
			}
		}
		if (from < 0)
			break;
		task = rq_pop(s, from, true);
		emit_task(s, SP_EV_MIGRATE, dest, task, dest, from);
		s->migrations++;
		/* where sched_waking is the wakeup, a task woken and not run since counts as one */
		if (s->waking && s->tasks[task].wake_wait)
			s->mig_wakeup++;
		else
			s->mig_balance++;
		s->mig_cross += dest % s->nr_sockets != from % s->nr_sockets;
		idle_update(s, from);
		rq_push(s, dest, task, false);
		rq_pop(s, dest, false);
		switch_to(s, dest, task, false);
	}
	free(snap);
	timer_add(s, s->now + (uint64_t)(4000000 * s->scale), E_BALANCE, 0, 0);
}

/*
 * --misplace: the talk's story, scripted.  Phase 0: pick a sleeping hpc
 * thread whose CPU is idle and wake that CPU's kworker, which runs there
 * briefly (what makes an idle CPU look busy to the kernel's load
 * tracking).  Phase 1, 300 us later: a task that just got another CPU
 * wakes the thread and the wakeup puts it on the waker's CPU, behind the
 * waker, while its own CPU is still idle; it waits until the waker's slice
 * ends (or the balancer pulls it away).
 */
#define SCRIPT_GAP_NS	300000.0	/* kworker, then the wakeup */
#define SCRIPT_RETRY_NS	100000.0	/* no suitable task or CPU yet: try again */
#define SCRIPT_TRIES	200

static void script_retry(struct sim *s, int k, uint32_t phase)
{
	if (++s->scripts[k].tries < SCRIPT_TRIES)
		timer_add(s, s->now + (uint64_t)(SCRIPT_RETRY_NS * s->scale), E_MISPLACE, k, phase);
}

/*
 * CPU @c's kworker sleeps (or has not run yet: the hpc workload leaves
 * its kworkers unborn, and a script wakes them for the first time).
 */
static bool kworker_asleep(const struct sim *s, int c)
{
	uint8_t st = s->tasks[s->nr_cpus + c].state;

	return st == T_SLEEP || st == T_UNBORN;
}

static void script_begin(struct sim *s, int k)
{
	struct script *sc = &s->scripts[k];
	int i, start = rnd_int(s, s->nr_cpus), task = -1;

	for (i = 0; i < s->nr_cpus && task < 0; i++) {
		struct task *t = &s->tasks[(start + i) % s->nr_cpus];
		const struct cpu *p = &s->cpus[t->cpu];

		if (t->kind == K_HPC && t->state == T_SLEEP && t->ran && t->scripted < 0 &&
		    p->cur < 0 && !p->rq_len && kworker_asleep(s, t->cpu))
			task = (start + i) % s->nr_cpus;
	}
	if (task < 0) {
		script_retry(s, k, 0);
		return;
	}
	sc->task = task;
	sc->prev = s->tasks[task].cpu;
	s->tasks[task].gen++;		/* its own timer no longer wakes it */
	s->tasks[task].scripted = k;
	wake(s, s->nr_cpus + sc->prev, sc->prev, false);	/* the kworker */
	sc->tries = 0;
	timer_add(s, s->now + (uint64_t)(SCRIPT_GAP_NS * s->scale), E_MISPLACE, k, 1);
}

static void script_wake(struct sim *s, int k)
{
	struct script *sc = &s->scripts[k];
	const struct cpu *p = &s->cpus[sc->prev];
	int c, x = -1;

	/* the CPU whose hpc thread got it last: its slice has the most left */
	for (c = 0; c < s->nr_cpus; c++) {
		const struct cpu *cpu = &s->cpus[c];

		if (c != sc->prev && cpu->cur >= 0 && s->tasks[cpu->cur].kind == K_HPC &&
		    !cpu->rq_len && (x < 0 || cpu->seg_start > s->cpus[x].seg_start))
			x = c;
	}
	if (p->cur >= 0 || p->rq_len || x < 0) {
		if (sc->tries + 1 < SCRIPT_TRIES) {
			script_retry(s, k, 1);
			return;
		}
		s->tasks[sc->task].scripted = -1;
		task_sleep(s, sc->task);	/* the story did not come together */
		return;
	}
	{
		struct task *w = &s->tasks[s->cpus[x].cur];
		uint64_t ran = s->now - w->run_since, slice = (uint64_t)(SLICE_NS * s->scale);

		/* the waker runs on: the thread waits for its slice to end */
		if (w->burst_left < ran + slice)
			w->burst_left = ran + slice;
	}
	{
		/* the kworker's run on the idle CPU, as it was at the wakeup */
		int kw = s->nr_cpus + sc->prev;
		const struct task *kt = &s->tasks[kw];

		sc->kworker = -1;
		if (kt->last_cpu == sc->prev && kt->last_end && kt->last_end <= s->now) {
			sc->kworker = kw;
			sc->kw_start = kt->last_start;
			sc->kw_end = kt->last_end;
		}
	}
	wake_to(s, sc->task, x, false, x);
	arm_cpu(s, x);
	sc->done = true;
}

/* ---- setup and the main loop ---- */

static int sim_init(struct sim *s)
{
	int i, c, nr_main;

	s->tasks = sp_alloc_array(s->nr_tasks, sizeof(*s->tasks));
	s->cpus = sp_alloc_array(s->nr_cpus, sizeof(*s->cpus));
	s->idle = sp_alloc_array(s->nr_cpus, sizeof(*s->idle));
	if (!s->tasks || !s->cpus || !s->idle)
		return -ENOMEM;
	for (c = 0; c < s->nr_cpus; c++) {
		s->cpus[c].cur = -1;
		s->cpus[c].idle_pos = -1;
		s->cpus[c].rq = sp_alloc_array(s->nr_tasks, sizeof(int));
		if (!s->cpus[c].rq)
			return -ENOMEM;
	}
	/* hpc: N threads, N kworkers, the rest are children; messaging: all tasks */
	nr_main = s->messaging ? s->nr_tasks : s->nr_cpus;
	for (i = 0; i < s->nr_tasks; i++) {
		struct task *t = &s->tasks[i];

		t->pid = 1000 + i;
		t->cpu = i % s->nr_cpus;
		t->scripted = -1;
		t->last_cpu = -1;
		if (i < nr_main) {
			t->kind = s->messaging ? K_MSG : K_HPC;
			snprintf(t->comm, sizeof(t->comm), s->messaging ? "msg-%d" : "hpc-%d", i);
			t->forks_left = 2;
		} else if (i < 2 * nr_main) {
			t->kind = K_KWORKER;
			snprintf(t->comm, sizeof(t->comm), "kworker/%d:1", i - nr_main);
		} else {
			t->kind = K_CHILD;
			t->state = T_UNBORN;
			snprintf(t->comm, sizeof(t->comm), "child-%d", i);
		}
	}
	s->nr_unborn_next = s->messaging ? s->nr_tasks : 2 * s->nr_cpus;
	if (s->nr_unborn_next > s->nr_tasks)
		s->nr_unborn_next = s->nr_tasks;
	s->now = T0_NS;
	s->last_change = T0_NS;
	for (c = 0; c < s->nr_cpus; c++)
		idle_update(s, c);
	/* every CPU starts with a switch from idle, at the same time */
	for (c = 0; c < s->nr_cpus; c++) {
		int task = c < nr_main ? c : -1;

		if (task >= 0)
			s->tasks[task].burst_left = new_burst(s, &s->tasks[task]);
		switch_to(s, c, task, false);
	}
	for (i = 0; i < s->nr_tasks; i++) {
		struct task *t = &s->tasks[i];

		if (t->state == T_UNBORN || t->state == T_RUN)
			continue;
		t->state = T_SLEEP;
		timer_add(s, s->now + new_sleep(s, t), E_WAKE, i, ++t->gen);
	}
	timer_add(s, s->now + (uint64_t)(4000000 * s->scale), E_BALANCE, 0, 0);
	for (c = 0; s->power && c < s->nr_sockets; c++)
		timer_add(s, s->now + (c + 1) * (s->seconds_ns / 10), E_FREQ, c, 0);
	if (s->nr_scripts) {
		s->scripts = sp_alloc_array(s->nr_scripts, sizeof(*s->scripts));
		if (!s->scripts)
			return -ENOMEM;
		memset(s->scripts, 0, s->nr_scripts * sizeof(*s->scripts));
	}
	/* the scripted misplacements, evenly over the run after its first tenth */
	for (i = 0; i < s->nr_scripts; i++)
		timer_add(s, s->now + s->seconds_ns / 10 +
			     (uint64_t)i * (s->seconds_ns * 9 / 10) / s->nr_scripts, E_MISPLACE, i, 0);
	return s->failed;
}

static void sim_run(struct sim *s)
{
	uint64_t stop = T0_NS + s->seconds_ns;

	while (s->nr_heap && !s->failed && s->records < s->max_events) {
		struct timer tm = timer_pop(s);

		if (tm.t > stop)
			break;
		s->now = tm.t;
		switch (tm.kind) {
		case E_CPU:
			if (tm.gen == s->cpus[tm.id].gen)
				cpu_timer(s, tm.id);
			break;
		case E_WAKE:
			if (tm.gen == s->tasks[tm.id].gen && s->tasks[tm.id].state == T_SLEEP) {
				int c = s->tasks[tm.id].cpu;

				/* timer wakeups are recorded on the task's CPU */
				wake(s, tm.id, c, false);
			}
			break;
		case E_BALANCE:
			balance(s);
			break;
		case E_FREQ:
			freq_change(s, tm.id);
			break;
		case E_MISPLACE:
			if (tm.gen)
				script_wake(s, tm.id);
			else
				script_begin(s, tm.id);
			break;
		}
	}
	s->now = s->end_ns;
	if (s->now > s->last_change)
		account(s);
}

static void sim_release(struct sim *s)
{
	int c;

	for (c = 0; s->cpus && c < s->nr_cpus; c++)
		free(s->cpus[c].rq);
	free(s->cpus);
	free(s->tasks);
	free(s->idle);
	free(s->heap);
	free(s->scripts);
	free(s->mis);
}

/* ---- output ---- */

/* Each CPU's mean frequency over [its first frequency record, end], and that time. */
static void write_freq_truth(const struct sim *s, FILE *f)
{
	const char *sep = "";
	int c;

	fprintf(f, "  \"cpu_freq_mean_khz\": {");
	for (c = 0; c < s->nr_cpus; c++) {
		const struct cpu *cpu = &s->cpus[c];
		uint64_t tail = cpu->khz && s->end_ns > cpu->khz_since ? s->end_ns - cpu->khz_since : 0;
		double area = cpu->khz_ns + (double)cpu->khz * (double)tail;
		uint64_t known = cpu->khz_known_ns + tail;

		if (!known)
			continue;
		fprintf(f, "%s\"%d\": %.3f", sep, c, area / (double)known);
		sep = ", ";
	}
	fprintf(f, "},\n  \"cpu_freq_known_ns\": {");
	for (c = 0, sep = ""; c < s->nr_cpus; c++) {
		const struct cpu *cpu = &s->cpus[c];
		uint64_t tail = cpu->khz && s->end_ns > cpu->khz_since ? s->end_ns - cpu->khz_since : 0;

		if (!(cpu->khz_known_ns + tail))
			continue;
		fprintf(f, "%s\"%d\": %llu", sep, c,
			(unsigned long long)(cpu->khz_known_ns + tail));
		sep = ", ";
	}
	fprintf(f, "},\n");
}

/*
 * --misplace: every wakeup that left an idle previous CPU, in the order
 * they ended, the scripted ones with the kworker that ran before.
 */
static int scripts_done(const struct sim *s)
{
	int n = 0;

	for (int i = 0; i < s->nr_scripts; i++)
		n += s->scripts[i].done;
	return n;
}

static void write_misplacements(const struct sim *s, FILE *f)
{
	fprintf(f, "  \"misplacements\": [");
	for (size_t i = 0; i < s->nr_mis; i++) {
		const struct misplacement *m = &s->mis[i];

		fprintf(f, "%s\n    {\"wake_ns\": %llu, \"pid\": %d, \"comm\": \"%s\", "
			"\"prev_cpu\": %d, \"waker\": %d, \"waker_cpu\": %d, \"target_cpu\": %d, "
			"\"cpu\": %d, \"wait_ns\": %llu, \"scripted\": %s, \"kworker\": ",
			i ? "," : "", (unsigned long long)m->wake_ns, s->tasks[m->task].pid,
			s->tasks[m->task].comm, m->prev, m->waker, m->waker_cpu, m->dest, m->cpu,
			(unsigned long long)m->wait_ns, m->scripted >= 0 ? "true" : "false");
		if (m->kworker >= 0)
			fprintf(f, "{\"pid\": %d, \"start_ns\": %llu, \"end_ns\": %llu}}",
				s->tasks[m->kworker].pid, (unsigned long long)m->kw_start,
				(unsigned long long)m->kw_end);
		else
			fprintf(f, "null}");
	}
	fprintf(f, "\n  ],\n  \"scripted_misplacements\": %d,\n", scripts_done(s));
}

/* --blocked-reason: per task and function, the sleeps the records name. */
static void write_blocked_reasons(const struct sim *s, FILE *f)
{
	bool first = true;

	fprintf(f, "  \"blocked_reason\": [");
	for (int i = 0; i < s->nr_tasks; i++)
		for (int k = 0; k < 3; k++) {
			const struct task *t = &s->tasks[i];

			if (!t->reason_nr[k])
				continue;
			fprintf(f, "%s\n    {\"pid\": %d, \"place\": \"%s\", \"count\": %llu, "
				"\"ns\": %llu}", first ? "" : ",", t->pid, reason_function[k],
				(unsigned long long)t->reason_nr[k],
				(unsigned long long)t->reason_ns[k]);
			first = false;
		}
	fprintf(f, "\n  ],\n");
}

static int write_truth(const struct sim *s, const char *path, const char *trace)
{
	double window = (double)(s->end_ns - T0_NS);
	FILE *f = fopen(path, "w");
	int c, err;

	if (!f)
		return -errno;
	fprintf(f, "{\n  \"trace\": \"%s\",\n  \"nr_cpus\": %d,\n  \"nr_sockets\": %d,\n", trace,
		s->nr_cpus, s->nr_sockets);
	fprintf(f, "  \"records\": %llu,\n  \"sched_records\": %llu,\n",
		(unsigned long long)(s->records + s->nr_markers + s->nr_power + s->nr_reasons),
		(unsigned long long)s->records);
	fprintf(f, "  \"start_ns\": %llu,\n  \"end_ns\": %llu,\n", T0_NS,
		(unsigned long long)s->end_ns);
	fprintf(f, "  \"cpu_busy_ns\": {");
	for (c = 0; c < s->nr_cpus; c++) {
		uint64_t busy = s->cpus[c].busy_ns;

		if (s->cpus[c].cur >= 0)
			busy += s->end_ns - s->cpus[c].seg_start;
		fprintf(f, "%s\"%d\": %llu", c ? ", " : "", c, (unsigned long long)busy);
	}
	fprintf(f, "},\n  \"cpu_switches\": {");
	for (c = 0; c < s->nr_cpus; c++)
		fprintf(f, "%s\"%d\": %llu", c ? ", " : "", c,
			(unsigned long long)s->cpus[c].switches);
	fprintf(f, "},\n");
	if (s->power)
		write_freq_truth(s, f);
	fprintf(f, "  \"migrations\": %llu,\n", (unsigned long long)s->migrations);
	fprintf(f, "  \"migration_classes\": {\"wakeup\": %llu, \"balance\": %llu, \"numa\": 0, "
		"\"cross_socket\": %llu},\n", (unsigned long long)s->mig_wakeup,
		(unsigned long long)s->mig_balance, (unsigned long long)s->mig_cross);
	fprintf(f, "  \"placement\": {\"stayed\": {\"count\": %llu, \"wait_ns\": %llu}, "
		"\"moved_prev_idle\": {\"count\": %llu, \"wait_ns\": %llu}, "
		"\"moved_prev_busy\": {\"count\": %llu, \"wait_ns\": %llu}},\n",
		(unsigned long long)s->place_nr[0], (unsigned long long)s->place_wait_ns[0],
		(unsigned long long)s->place_nr[1], (unsigned long long)s->place_wait_ns[1],
		(unsigned long long)s->place_nr[2], (unsigned long long)s->place_wait_ns[2]);
	fprintf(f, "  \"running_avg\": %.12g,\n  \"waiting_avg\": %.12g,\n",
		window > 0 ? (double)s->running_area / window : 0,
		window > 0 ? (double)s->waiting_area / window : 0);
	fprintf(f, "  \"idle_while_waiting_ns\": %llu,\n", (unsigned long long)s->iww_ns);
	fprintf(f, "  \"lost_cpu_ns\": %llu,\n", (unsigned long long)s->lost_cpu_ns);
	if (s->nr_scripts)
		write_misplacements(s, f);
	if (s->blocked_reason)
		write_blocked_reasons(s, f);
	fprintf(f, "  \"by_type\": {\"sched_switch\": %llu, \"sched_wakeup\": %llu, "
		"\"sched_wakeup_new\": %llu, \"sched_migrate_task\": %llu, "
		"\"sched_process_fork\": %llu, \"sched_process_exit\": %llu}\n}\n",
		(unsigned long long)s->by_type[SP_EV_SWITCH],
		(unsigned long long)s->by_type[SP_EV_WAKEUP],
		(unsigned long long)s->by_type[SP_EV_WAKEUP_NEW],
		(unsigned long long)s->by_type[SP_EV_MIGRATE],
		(unsigned long long)s->by_type[SP_EV_FORK],
		(unsigned long long)s->by_type[SP_EV_EXIT]);
	err = ferror(f);
	if (fclose(f) || err)
		return -EIO;
	return 0;
}

/* `lscpu -p` form; CPU c is on socket c % S, core c / S of it. */
static int write_topology(const struct sim *s, const char *path)
{
	FILE *f = fopen(path, "w");
	int c, err;

	if (!f)
		return -errno;
	fprintf(f, "# The following is the parsable format, which can be fed to other\n"
		   "# programs. Each different item in every column has an unique ID\n"
		   "# starting usually from zero.\n"
		   "# CPU,Core,Socket,Node,,L1d,L1i,L2,L3\n");
	for (c = 0; c < s->nr_cpus; c++) {
		int sock = c % s->nr_sockets, core = c;

		fprintf(f, "%d,%d,%d,%d,,%d,%d,%d,%d\n", c, core, sock, sock, core, core, core,
			sock);
	}
	err = ferror(f);
	if (fclose(f) || err)
		return -EIO;
	return 0;
}

/* The kernel's ftrace:print format, for the topology markers. */
static const char print_format[] = SP_TEST_PRINT_FORMAT;

#define PRINT_ID		SP_TEST_PRINT_ID
#define MARKER_CPUS		64	/* CPUs per marker, as schedplot record */

/*
 * The topology of write_topology() as schedplot record's trace_marker
 * records (CPU:CORE:DIE:CLUSTER:SOCKET:NODE), on CPU 0 at the trace start.
 */
static int write_topology_markers(struct sim *s)
{
	char rec[16 + 32 + MARKER_CPUS * 64];
	size_t len = 0;
	int c, n = 0;

	if (sp_writer_add_format(s->w, "ftrace", print_format, sizeof(print_format) - 1,
				 &s->err))
		return -1;
	memset(rec, 0, 16);
	rec[s->big_endian] = PRINT_ID;	/* common_type (u16); the rest stays 0 */
	for (c = 0; c < s->nr_cpus; c++) {
		int sock = c % s->nr_sockets;

		if (!n)
			len = 16 + snprintf(rec + 16, sizeof(rec) - 16, "schedplot-topology v1");
		len += snprintf(rec + len, sizeof(rec) - len, " %d:%d:0:-1:%d:%d", c, c, sock,
				sock);
		if (++n < MARKER_CPUS && c < s->nr_cpus - 1)
			continue;
		len += snprintf(rec + len, sizeof(rec) - len, "\n") + 1;	/* and its NUL */
		if (sp_writer_write_raw(s->w, 0, T0_NS, rec, len, &s->err))
			return -1;
		s->nr_markers++;
		n = 0;
	}
	return 0;
}

static const char usage[] =
	"usage: gen-trace [OPTIONS] -o FILE.dat\n"
	"\n"
	"Write a synthetic scheduler trace, FILE.dat.json with its ground truth and\n"
	"FILE.dat.lscpu with its CPU topology.\n"
	"\n"
	"  -c, --cpus N            CPUs (2..512, default 8)\n"
	"  -S, --sockets N         sockets, CPUs numbered round-robin (default 1)\n"
	"  -s, --seconds X         simulated time (default 1)\n"
	"  -e, --events N          stop after about N records (default 100000)\n"
	"  -t, --tasks N           tasks (hpc default 3*cpus: threads, kworkers and\n"
	"                          children; messaging default 8*cpus)\n"
	"  -w, --workload NAME     hpc (default) or messaging\n"
	"      --overload          hpc threads fork children in the middle third\n"
	"      --waking            sched_waking records instead of sched_wakeup\n"
	"      --power             power:cpu_idle and power:cpu_frequency records too\n"
	"      --frequencies N     --power: the policies pick among N of the four\n"
	"                          frequencies (1..4, default 4; 1: it never changes)\n"
	"      --blocked-reason    sched_blocked_reason records as tasks are woken\n"
	"                          from sleeps, named by a small kallsyms\n"
	"      --misplace N        hpc: N scripted wakeups that leave an idle CPU (a\n"
	"                          kworker ran there just before) for the waker's busy\n"
	"                          one; the truth lists every such wakeup\n"
	"  -r, --seed N            random seed (default 1)\n"
	"  -F, --file-version N    6 or 7 (default 7)\n"
	"  -C, --compression NAME  zstd or none (version 7; default zstd)\n"
	"      --big-endian        write the file as a big-endian machine would\n"
	"      --truth FILE        where the truth goes (default FILE.dat.json)\n"
	"      --topology FILE     where the topology goes (default FILE.dat.lscpu)\n"
	"      --topology-markers  also save the topology in the trace, as schedplot\n"
	"                          record does (ftrace:print records)\n"
	"      --script FILE       write the records FILE lists instead (no truth;\n"
	"                          the format is in gen-trace.c's opening comment)\n"
	"  -o, --output FILE       the trace\n"
	"  -h, --help              this help\n";

#define SCRIPT_TASKS	64

/* A --script FILE's names: pid -> comm. */
struct script_names {
	int pid[SCRIPT_TASKS];
	char comm[SCRIPT_TASKS][16];
	int nr;
};

static const char *script_comm(const struct script_names *n, int pid)
{
	for (int i = 0; i < n->nr; i++)
		if (n->pid[i] == pid)
			return n->comm[i];
	return pid ? "task" : "swapper";
}

/* One record line of a --script FILE, written; -1 on a line it cannot read. */
static int script_record(struct sp_writer *w, const struct script_names *n, const char *line,
			 int nr_cpus, struct sp_error *err)
{
	unsigned long long ts;
	int cpu, common, a, b, c, len = 0;
	char what[16], state[4];
	struct sp_event ev = { .target_cpu = -1, .orig_cpu = -1, .other_pid = -1 };

	if (sscanf(line, "%llu %d %d %15s %n", &ts, &cpu, &common, what, &len) != 4 ||
	    cpu < 0 || cpu >= nr_cpus)
		return -1;
	line += len;
	ev.ts_ns = ts;
	ev.cpu = cpu;
	ev.common_pid = common;
	if (!strcmp(what, "switch") && sscanf(line, "%d %3s %d", &a, state, &b) == 3 &&
	    (!strcmp(state, "R") || !strcmp(state, "S"))) {
		ev.type = SP_EV_SWITCH;
		ev.pid = a;
		ev.other_pid = b;
		ev.comm = script_comm(n, a);
		ev.other_comm = script_comm(n, b);
		ev.prev_runnable = state[0] == 'R';
	} else if (!strcmp(what, "wakeup") && sscanf(line, "%d %d", &a, &b) == 2) {
		ev.type = SP_EV_WAKEUP;
		ev.pid = a;
		ev.comm = script_comm(n, a);
		ev.target_cpu = b;
	} else if (!strcmp(what, "migrate") && sscanf(line, "%d %d %d", &a, &b, &c) == 3) {
		ev.type = SP_EV_MIGRATE;
		ev.pid = a;
		ev.comm = script_comm(n, a);
		ev.orig_cpu = b;
		ev.target_cpu = c;
	} else {
		return -1;
	}
	return sp_writer_write_event(w, &ev, err) ? -2 : 0;
}

/* --script: the records @path lists, into @out.  Return: the exit status. */
static int write_script(const char *path, const char *out, struct sp_writer_options *wo)
{
	struct script_names n = { .nr = 0 };
	struct sp_writer *w = NULL;
	struct sp_error err = { 0 };
	char line[256];
	int lineno = 0, ret = 0, pid;
	FILE *f = fopen(path, "r");

	if (!f) {
		fprintf(stderr, "gen-trace: %s: %s\n", path, strerror(errno));
		return 1;
	}
	while (!ret && fgets(line, sizeof(line), f)) {
		char *hash = strchr(line, '#'), comm[16];
		int nr_cpus;

		lineno++;
		if (hash)
			*hash = 0;
		if (strspn(line, " \t\n") == strlen(line))
			continue;
		if (!w && sscanf(line, " cpus %d", &nr_cpus) == 1 && nr_cpus > 0 &&
		    nr_cpus <= MAX_CPUS) {
			wo->nr_cpus = nr_cpus;
			w = sp_writer_open(out, wo, &err);
			if (!w || sp_writer_add_sched_formats(w, &err) ||
			    sp_writer_add_cmdline(w, 0, "<idle>", &err))
				ret = 1;
		} else if (w && sscanf(line, " task %d %15s", &pid, comm) == 2 &&
			   n.nr < SCRIPT_TASKS) {
			n.pid[n.nr] = pid;
			snprintf(n.comm[n.nr++], sizeof(n.comm[0]), "%s", comm);
			if (sp_writer_add_cmdline(w, pid, comm, &err))
				ret = 1;
		} else if (!w || (ret = script_record(w, &n, line, wo->nr_cpus, &err)) == -1) {
			fprintf(stderr, "gen-trace: %s:%d: cannot read this line (%s)\n", path,
				lineno, w ? "a record" : "\"cpus N\" first");
			ret = 2;
		} else if (ret) {
			ret = 1;
		}
	}
	fclose(f);
	if (ret == 1)
		fprintf(stderr, "gen-trace: %s: %s\n", out, err.msg[0] ? err.msg : "out of memory");
	if (!w) {
		if (!ret)
			fprintf(stderr, "gen-trace: %s: no records\n", path);
		return ret ? ret : 2;
	}
	if (ret) {
		sp_writer_abort(w);
		return ret;
	}
	if (sp_writer_close(w, &err)) {
		fprintf(stderr, "gen-trace: %s: %s\n", out, err.msg);
		return 1;
	}
	return 0;
}

static bool parse_num(const char *s, double min, double max, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	return !errno && end != s && !*end && *v >= min && *v <= max;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "cpus", required_argument, NULL, 'c' },
		{ "sockets", required_argument, NULL, 'S' },
		{ "seconds", required_argument, NULL, 's' },
		{ "events", required_argument, NULL, 'e' },
		{ "tasks", required_argument, NULL, 't' },
		{ "workload", required_argument, NULL, 'w' },
		{ "overload", no_argument, NULL, 'O' },
		{ "waking", no_argument, NULL, 'K' },
		{ "power", no_argument, NULL, 'W' },
		{ "frequencies", required_argument, NULL, 'Q' },
		{ "misplace", required_argument, NULL, 'X' },
		{ "blocked-reason", no_argument, NULL, 'Y' },
		{ "seed", required_argument, NULL, 'r' },
		{ "file-version", required_argument, NULL, 'F' },
		{ "compression", required_argument, NULL, 'C' },
		{ "big-endian", no_argument, NULL, 'B' },
		{ "truth", required_argument, NULL, 'T' },
		{ "topology", required_argument, NULL, 'P' },
		{ "topology-markers", no_argument, NULL, 'M' },
		{ "output", required_argument, NULL, 'o' },
		{ "script", required_argument, NULL, 'Z' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct sp_writer_options wo = { .uname = "Linux synthetic 6.0.0-gen-trace x86_64" };
	struct sim s = { .nr_cpus = 8, .nr_sockets = 1, .seconds_ns = 1000000000ull,
			 .max_events = 100000, .scale = 1, .nr_freqs = 4 };
	struct sim cal;
	const char *out = NULL, *truth = NULL, *topo = NULL, *script = NULL;
	char *truth_buf = NULL, *topo_buf = NULL;
	double v, rate;
	bool markers = false;
	int opt, i, ret;

	s.rng = 1;
	while ((opt = getopt_long(argc, argv, "c:S:s:e:t:w:r:F:C:o:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'c':
			if (!parse_num(optarg, 2, MAX_CPUS, &v))
				goto bad;
			s.nr_cpus = v;
			break;
		case 'S':
			if (!parse_num(optarg, 1, MAX_CPUS, &v))
				goto bad;
			s.nr_sockets = v;
			break;
		case 's':
			if (!parse_num(optarg, 0.001, 3600, &v))
				goto bad;
			s.seconds_ns = v * 1e9;
			break;
		case 'e':
			if (!parse_num(optarg, 1, 1e10, &v))
				goto bad;
			s.max_events = v;
			break;
		case 't':
			if (!parse_num(optarg, 1, 1e6, &v))
				goto bad;
			s.nr_tasks = v;
			break;
		case 'w':
			if (!strcmp(optarg, "messaging"))
				s.messaging = true;
			else if (strcmp(optarg, "hpc"))
				goto bad;
			break;
		case 'K':
			s.waking = true;
			break;
		case 'Y':
			s.blocked_reason = true;
			break;
		case 'W':
			s.power = true;
			break;
		case 'Q':
			if (!parse_num(optarg, 1, 4, &v))
				goto bad;
			s.nr_freqs = v;
			break;
		case 'O':
			s.overload = true;
			break;
		case 'X':
			if (!parse_num(optarg, 0, 64, &v))
				goto bad;
			s.nr_scripts = v;
			break;
		case 'r':
			if (!parse_num(optarg, 0, 1e18, &v))
				goto bad;
			s.rng = v;
			break;
		case 'F':
			if (!parse_num(optarg, 6, 7, &v))
				goto bad;
			wo.file_version = v;
			break;
		case 'C':
			wo.compression = optarg;
			break;
		case 'B':
			wo.big_endian = s.big_endian = true;
			break;
		case 'T':
			truth = optarg;
			break;
		case 'P':
			topo = optarg;
			break;
		case 'M':
			markers = true;
			break;
		case 'o':
			out = optarg;
			break;
		case 'Z':
			script = optarg;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			fputs(usage, stderr);
			return 2;
		}
	}
	if (script && out && optind == argc)
		return write_script(script, out, &wo);
	if (s.nr_scripts && s.messaging) {
		fprintf(stderr, "gen-trace: --misplace scripts the hpc workload\n");
		return 2;
	}
	if (!out || optind < argc || s.nr_sockets > s.nr_cpus || s.nr_cpus % s.nr_sockets) {
		fprintf(stderr, "gen-trace: give -o FILE, and sockets that divide the CPUs\n");
		return 2;
	}
	if (!s.nr_tasks)
		s.nr_tasks = s.messaging ? 8 * s.nr_cpus : 3 * s.nr_cpus;
	if (!s.messaging && s.nr_tasks < 2 * s.nr_cpus)
		s.nr_tasks = 2 * s.nr_cpus;

	/* calibrate: a short dry run gives records per simulated second at scale 1 */
	cal = s;
	cal.seconds_ns = 20000000;
	cal.max_events = UINT64_MAX;
	if (sim_init(&cal)) {
		fprintf(stderr, "gen-trace: out of memory\n");
		return 1;
	}
	sim_run(&cal);
	rate = cal.records / 0.02;
	sim_release(&cal);
	/* aim at 10% more records than asked for in the time given, then stop at the count */
	s.scale = rate * (s.seconds_ns / 1e9) / (1.1 * (double)s.max_events);
	if (s.scale < 0.001)
		s.scale = 0.001;

	wo.nr_cpus = s.nr_cpus;
	wo.trace_id = 0x5eed000000000000ull ^ s.rng;
	s.w = sp_writer_open(out, &wo, &s.err);
	if (!s.w) {
		fprintf(stderr, "gen-trace: %s: %s\n", out, s.err.msg);
		return 1;
	}
	if (sp_writer_add_sched_formats(s.w, &s.err) ||
	    (s.blocked_reason &&
	     (sp_writer_add_format(s.w, "sched", blocked_reason_format,
				   sizeof(blocked_reason_format) - 1, &s.err) ||
	      sp_writer_add_kallsyms_text(s.w, reason_kallsyms, sizeof(reason_kallsyms) - 1,
					  &s.err))) ||
	    (s.power && (sp_writer_add_format(s.w, "power", cpu_frequency_format,
					      sizeof(cpu_frequency_format) - 1, &s.err) ||
			 sp_writer_add_format(s.w, "power", cpu_idle_format,
					      sizeof(cpu_idle_format) - 1, &s.err))) ||
	    sim_init(&s) ||
	    (markers && write_topology_markers(&s))) {
		fprintf(stderr, "gen-trace: %s\n", s.err.msg[0] ? s.err.msg : "out of memory");
		sp_writer_abort(s.w);
		return 1;
	}
	sp_writer_add_cmdline(s.w, 0, "<idle>", &s.err);
	for (i = 0; i < s.nr_tasks; i++)
		sp_writer_add_cmdline(s.w, s.tasks[i].pid, s.tasks[i].comm, &s.err);
	sim_run(&s);
	if (s.failed) {
		fprintf(stderr, "gen-trace: %s: %s\n", out,
			s.err.msg[0] ? s.err.msg : "out of memory");
		sp_writer_abort(s.w);
		sim_release(&s);
		return 1;
	}
	ret = sp_writer_close(s.w, &s.err);
	if (ret) {
		fprintf(stderr, "gen-trace: %s: %s\n", out, s.err.msg);
		sim_release(&s);
		return 1;
	}
	if ((!truth && asprintf(&truth_buf, "%s.json", out) < 0) ||
	    (!topo && asprintf(&topo_buf, "%s.lscpu", out) < 0)) {
		fprintf(stderr, "gen-trace: out of memory\n");
		return 1;
	}
	ret = write_truth(&s, truth ? truth : truth_buf, out);
	if (!ret)
		ret = write_topology(&s, topo ? topo : topo_buf);
	if (ret)
		fprintf(stderr, "gen-trace: cannot write the truth or topology: %s\n",
			strerror(-ret));
	printf("%s: %llu records, %d CPUs, %.6f s\n", out,
	       (unsigned long long)(s.records + s.nr_markers + s.nr_power),
	       s.nr_cpus, (s.end_ns - T0_NS) / 1e9);
	free(truth_buf);
	free(topo_buf);
	sim_release(&s);
	return ret ? 1 : 0;
bad:
	fprintf(stderr, "gen-trace: bad value for option -%c: '%s'\n", opt, optarg);
	return 2;
}
