// SPDX-License-Identifier: GPL-2.0-only
/*
 * chain: where a target task's time went, each wait and sleep named by
 * what it waited on (doc/design.md "The chain of a target").  Runs come in
 * the order of their ends, so each task's in time order: what lies
 * between the end of its previous run and the start of this one is a
 * sleep (or a gap not known) up to its wakeup, then a wait for the CPU
 * it ran on:
 *
 *	   run      sleep (S, D, ...)     wait        run
 *	|========|.....................|~~~~~~~~~~|=========|
 *	         ^ end of the last     ^ woken     ^ start
 *	           run (its state)       by waker    (antagonists on r->cpu)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/analysis/chain.h"
#include "schedplot/analysis/sleeps.h"
#include "schedplot/base/alloc.h"
#include "schedplot/model/model.h"

#define WHO_BITS 23
#define WHO_BIAS 4		/* SP_WAKER_* are -1 .. -3 */

int32_t sp_chain_code(struct sp_chain_cause c)
{
	uint32_t who = (uint32_t)(c.who + WHO_BIAS) & ((1u << WHO_BITS) - 1);

	return (int32_t)(((uint32_t)c.kind << WHO_BITS) | who);
}

struct sp_chain_cause sp_chain_cause_of(int32_t code)
{
	return (struct sp_chain_cause){
		.kind = (enum sp_chain_kind)((uint32_t)code >> WHO_BITS),
		.who = (int32_t)((uint32_t)code & ((1u << WHO_BITS) - 1)) - WHO_BIAS,
	};
}

const char *sp_chain_kind_name(enum sp_chain_kind kind)
{
	static const char *const names[SP_CHAIN_NR] = {
		"ran", "cpu", "S", "D", "other", "unknown",
	};

	return kind < SP_CHAIN_NR ? names[kind] : "unknown";
}

void sp_chain_init(struct sp_chain *ch, struct sp_antagonists *hist,
		   const struct sp_scope *scope, bool keep)
{
	memset(ch, 0, sizeof(*ch));
	ch->hist = hist;
	ch->scope = *scope;
	ch->keep = keep;
}

void sp_chain_release(struct sp_chain *ch)
{
	sp_behind_table_release(&ch->ns);
	sp_behind_table_release(&ch->count);
	free(ch->pieces);
	sp_runorder_release(&ch->order);
	memset(ch, 0, sizeof(*ch));
}

/* [@t0, @t1) cut to the window; false when nothing of it is left. */
static bool clip(const struct sp_chain *ch, uint64_t *t0, uint64_t *t1)
{
	if (*t0 < ch->scope.t0_ns)
		*t0 = ch->scope.t0_ns;
	if (*t1 > ch->scope.t1_ns)
		*t1 = ch->scope.t1_ns;
	return *t1 > *t0;
}

/* Keep [@t0, @t1) of @pid as a piece of @code, for drawing. */
static void keep_piece(struct sp_chain *ch, int pid, int32_t code, uint64_t t0, uint64_t t1)
{
	if (!ch->keep)
		return;
	if (sp_grow_array(&ch->pieces, &ch->alloc_pieces, ch->nr_pieces + 1,
			  sizeof(*ch->pieces))) {
		ch->error = -ENOMEM;
		return;
	}
	ch->pieces[ch->nr_pieces++] = (struct sp_chain_piece){ t0, t1, pid, code };
}

/* Count @ns of @pid's time, in one piece more, for @code. */
static void account(struct sp_chain *ch, int pid, int32_t code, uint64_t ns)
{
	sp_behind_table_add(&ch->ns, pid, code, ns);
	sp_behind_table_add(&ch->count, pid, code, 1);
}

/* The wait [@t0, @t1) for @cpu: each task that held it, and the rest (idle). */
static void account_wait(struct sp_chain *ch, const struct sp_run *r, uint64_t t0, uint64_t t1)
{
	struct sp_antagonists *a = ch->hist;
	struct sp_behind top;
	uint64_t held;
	size_t nr;
	int32_t main_code;

	if (!clip(ch, &t0, &t1))
		return;
	sp_antagonists_query(a, r->cpu, r->pid, t0, t1, &top, 1, &nr, &held);
	if (a->error) {
		ch->error = a->error;
		return;
	}
	/* the piece drawn is the whole wait, named by its longest holder */
	main_code = sp_chain_code((struct sp_chain_cause){
		SP_CHAIN_CPU, nr && top.ns >= t1 - t0 - held ? top.pid : -1 });
	for (size_t i = 0; nr && i < a->alloc_sums; i++)
		if (a->sums[i].pid >= 0)
			account(ch, r->pid,
				sp_chain_code((struct sp_chain_cause){ SP_CHAIN_CPU, a->sums[i].pid }),
				a->sums[i].ns);
	if (held < t1 - t0)
		account(ch, r->pid, sp_chain_code((struct sp_chain_cause){ SP_CHAIN_CPU, -1 }),
			t1 - t0 - held);
	sp_behind_table_add(&ch->ns, r->pid, SP_BEHIND_TOTAL, t1 - t0);
	keep_piece(ch, r->pid, main_code, t0, t1);
}

/* A piece of one cause: counted, and added to the task's time followed. */
static void account_one(struct sp_chain *ch, int pid, enum sp_chain_kind kind, int who,
			uint64_t t0, uint64_t t1)
{
	if (!clip(ch, &t0, &t1))
		return;
	account(ch, pid, sp_chain_code((struct sp_chain_cause){ kind, who }), t1 - t0);
	keep_piece(ch, pid, sp_chain_code((struct sp_chain_cause){ kind, who }), t0, t1);
	sp_behind_table_add(&ch->ns, pid, SP_BEHIND_TOTAL, t1 - t0);
}

/*
 * The gap before @r: from the end of the task's run before (@prev), in the
 * state it ended in, to its wakeup.
 */
static void chain_gap(void *data, const struct sp_run *prev, const struct sp_run *r)
{
	struct sp_chain *ch = data;
	uint64_t woke = r->start_ns - (r->wait_ns < r->start_ns ? r->wait_ns : r->start_ns);
	enum sp_chain_kind kind;

	if (!prev || woke <= prev->end_ns)
		return;
	if (prev->end == SP_RUN_END_SWITCH && !prev->end_runnable)
		kind = SP_CHAIN_SLEPT_S + sp_sleep_state_of(prev->end_state);
	else
		/* a repair ended it, or it waited not at once: not known */
		kind = SP_CHAIN_UNKNOWN;
	account_one(ch, r->pid, kind, r->waker, prev->end_ns, woke);
}

void sp_chain_add(struct sp_chain *ch, const struct sp_run *r)
{
	if (r->pid <= 0 || !sp_scope_task(&ch->scope, r->pid))
		return;
	/* the wait and the run at once, while the CPU's runs are kept */
	account_wait(ch, r, r->start_ns - (r->wait_ns < r->start_ns ? r->wait_ns : r->start_ns),
		     r->start_ns);
	account_one(ch, r->pid, SP_CHAIN_RAN, -1, r->start_ns, r->end_ns);
	/* the sleep before it once the task's runs before it are in */
	sp_runorder_add(&ch->order, r, chain_gap, ch);
	if (ch->ns.error || ch->count.error || ch->order.error)
		ch->error = -ENOMEM;
}

void sp_chain_finish(struct sp_chain *ch)
{
	sp_runorder_flush(&ch->order, chain_gap, ch);
	if (ch->ns.error || ch->count.error)
		ch->error = -ENOMEM;
}

static void obs_run_info(void *data, const struct sp_run *r)
{
	sp_chain_add(data, r);
}

static void obs_reset(void *data)
{
	struct sp_chain *ch = data;

	sp_behind_table_clear(&ch->ns);
	sp_behind_table_clear(&ch->count);
	ch->nr_pieces = 0;
	sp_runorder_clear(&ch->order);
	ch->error = 0;
}

void sp_chain_observer(struct sp_chain *ch, struct sp_model_observer *obs)
{
	*obs = SP_MODEL_OBSERVER(ch, .run_info = obs_run_info, .reset = obs_reset);
}

bool sp_chain_long_pole(const struct sp_behind_entry *v, size_t nr, int pid,
			struct sp_chain_cause *cause, uint64_t *ns, uint64_t *total_ns)
{
	const struct sp_behind_entry *e = sp_behind_of(v, nr, pid, total_ns, &nr);

	/* longest first: the first that is not its runs */
	for (size_t i = 0; e && i < nr; i++) {
		struct sp_chain_cause c = sp_chain_cause_of(e[i].antagonist);

		if (c.kind == SP_CHAIN_RAN || !e[i].ns)
			continue;
		*cause = c;
		*ns = e[i].ns;
		return true;
	}
	return false;
}

const char *sp_chain_cause_format(char *buf, size_t size, struct sp_chain_cause c,
				  const struct sp_model *m)
{
	char who[48];

	if (c.who >= 0)
		snprintf(who, sizeof(who), "%s-%d", sp_model_comm(m, c.who), c.who);
	else
		sp_waker_format(who, sizeof(who), c.who);
	switch (c.kind) {
	case SP_CHAIN_RAN:
		snprintf(buf, size, "ran");
		break;
	case SP_CHAIN_CPU:
		if (c.who >= 0)
			snprintf(buf, size, "waited for a CPU held by %s", who);
		else
			snprintf(buf, size, "waited for a CPU that ran no other task");
		break;
	case SP_CHAIN_UNKNOWN:
		if (c.who == SP_WAKER_NONE)
			snprintf(buf, size, "not known (a missed switch), no wakeup");
		else
			snprintf(buf, size, "not known (a missed switch), woken by %s", who);
		break;
	default:
		if (c.who == SP_WAKER_NONE)
			snprintf(buf, size, "slept (%s), no wakeup", sp_chain_kind_name(c.kind));
		else
			snprintf(buf, size, "slept (%s) until woken by %s",
				 sp_chain_kind_name(c.kind), who);
		break;
	}
	return buf;
}
