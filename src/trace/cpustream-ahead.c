// SPDX-License-Identifier: GPL-2.0-only
/*
 * cpustream-ahead: the read-ahead of the per-CPU streams.  A helper thread
 * reads (and decompresses) a stream's next block while the caller walks
 * the current one; streams queue for it in struct sp_cpustream_scratch.
 * With SP_AHEAD_HELPED no thread is started: whoever calls
 * sp_cpustream_scratch_help() reads the queued blocks, a bounded number
 * at a time.  Who owns which field, and under which lock, is said on the
 * fields (cpustream-block.h).
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include "schedplot/base/error.h"
#include "schedplot/base/sanitizer.h"
#include "schedplot/base/thread.h"
#include "schedplot/trace/blockpool.h"
#include "schedplot/trace/cpustream.h"
#include "cpustream-ahead.h"
#include "cpustream-block.h"

/* SP_AHEAD_HELPED: blocks asked for at once, at most */
#define HELPED_MAX	256

/* Under the lock: read the first block queued, with the helper's state. */
static void read_queued(struct sp_cpustream_scratch *sc)
{
	struct sp_cpustream *s = sc->queue;

	sc->queue = s->ahead_next;
	if (!sc->queue)
		sc->queue_tail = &sc->queue;
	__atomic_sub_fetch(&sc->nr_queued, 1, __ATOMIC_RELAXED);
	s->ahead_state = AHEAD_RUNNING;
	sc->reading = true;
	pthread_mutex_unlock(&sc->lock);

	sp_error_clear(&s->ahead_err);
	s->ahead_ret = sp_cpustream_fill(s, &s->ahead, &s->ahead_from, sc->helper,
					 &s->ahead_err);

	pthread_mutex_lock(&sc->lock);
	sc->reading = false;
	s->ahead_state = AHEAD_DONE;
	pthread_cond_broadcast(&sc->cond);
}

static void *helper_main(void *data)
{
	struct sp_cpustream_scratch *sc = data;

	pthread_mutex_lock(&sc->lock);
	for (;;) {
		/* those are read by sp_cpustream_scratch_help() */
		while ((!sc->queue || sc->ahead == SP_AHEAD_HELPED || sc->reading) && !sc->stop)
			pthread_cond_wait(&sc->cond, &sc->lock);
		if (sc->stop)
			break;
		read_queued(sc);
	}
	pthread_mutex_unlock(&sc->lock);
	return NULL;
}

/* The helper's state, and its thread unless sp_cpustream_scratch_help() reads the blocks. */
static bool helper_start(struct sp_cpustream_scratch *sc)
{
	if (sc->helper && (sc->has_thread || sc->ahead == SP_AHEAD_HELPED))
		return true;
	if (sc->no_helper)
		return false;
	if (!sc->helper) {
		sc->helper = sp_cpustream_scratch_new(sc->codec, false);
		if (!sc->helper) {
			sc->no_helper = true;
			return false;
		}
		sc->queue = NULL;
		sc->queue_tail = &sc->queue;
	}
	if (sc->ahead == SP_AHEAD_HELPED)
		return true;
	if (sp_thread_start(&sc->thread, helper_main, sc)) {
		sc->no_helper = true;
		return false;
	}
	sc->has_thread = true;
	return true;
}

void sp_cpustream_ahead_ask(struct sp_cpustream *s)
{
	struct sp_cpustream_scratch *sc = s->scratch;

	if (!s->may_ahead || !s->pos.left || s->ahead_asked || sc->ahead == SP_AHEAD_NONE)
		return;
	if (sc->ahead == SP_AHEAD_HELPED && sc->helped_asked >= HELPED_MAX)
		return;
	if (!helper_start(sc))
		return;
	s->ahead_helped = sc->ahead == SP_AHEAD_HELPED;
	sc->helped_asked += s->ahead_helped;
	s->ahead_asked = true;
	s->ahead_from = s->pos;
	s->ahead_next = NULL;
	pthread_mutex_lock(&sc->lock);
	s->ahead_state = AHEAD_QUEUED;
	*sc->queue_tail = s;
	sc->queue_tail = &s->ahead_next;
	__atomic_add_fetch(&sc->nr_queued, 1, __ATOMIC_RELAXED);
	if (sc->has_thread)
		pthread_cond_broadcast(&sc->cond);
	pthread_mutex_unlock(&sc->lock);
}

/* An asked block is taken, or dropped. */
static void ahead_taken(struct sp_cpustream *s)
{
	if (s->ahead_helped)
		s->scratch->helped_asked--;
	s->ahead_helped = false;
}

/* Under the lock: take @s, not started yet, out of the helper's queue. */
static void unqueue(struct sp_cpustream_scratch *sc, struct sp_cpustream *s)
{
	struct sp_cpustream **pp;

	for (pp = &sc->queue; *pp != s; pp = &(*pp)->ahead_next)
		;
	*pp = s->ahead_next;
	if (sc->queue_tail == &s->ahead_next)
		sc->queue_tail = pp;
	__atomic_sub_fetch(&sc->nr_queued, 1, __ATOMIC_RELAXED);
	s->ahead_state = AHEAD_NONE;
}

void sp_cpustream_ahead_cancel(struct sp_cpustream *s)
{
	struct sp_cpustream_scratch *sc = s->scratch;

	if (!s->ahead_asked)
		return;
	s->ahead_asked = false;
	ahead_taken(s);
	pthread_mutex_lock(&sc->lock);
	if (s->ahead_state == AHEAD_QUEUED)
		unqueue(sc, s);
	while (s->ahead_state == AHEAD_RUNNING)
		pthread_cond_wait(&sc->cond, &sc->lock);
	s->ahead_state = AHEAD_NONE;
	pthread_mutex_unlock(&sc->lock);
}

void sp_cpustream_ahead_reclaim(struct sp_cpustream *s)
{
	struct sp_cpustream_scratch *sc = s->scratch;

	/* not started yet: reading it here is sooner than waiting behind others */
	pthread_mutex_lock(&sc->lock);
	if (s->ahead_state == AHEAD_QUEUED) {
		unqueue(sc, s);
		s->ahead_asked = false;
		ahead_taken(s);
	}
	pthread_mutex_unlock(&sc->lock);
}

int sp_cpustream_ahead_take(struct sp_cpustream *s, bool *helped, struct sp_error *err)
{
	struct sp_cpustream_scratch *sc = s->scratch;

	s->ahead_asked = false;
	pthread_mutex_lock(&sc->lock);
	while (s->ahead_state != AHEAD_DONE)
		pthread_cond_wait(&sc->cond, &sc->lock);
	s->ahead_state = AHEAD_NONE;
	pthread_mutex_unlock(&sc->lock);
	*helped = s->ahead_helped;
	ahead_taken(s);
	if (s->ahead_ret < 0 && err)
		*err = s->ahead_err;
	return s->ahead_ret;
}

struct sp_cpustream_scratch *sp_cpustream_scratch_new(enum sp_codec codec, bool with_pool)
{
	struct sp_cpustream_scratch *sc = calloc(1, sizeof(*sc));

	if (!sc)
		return NULL;
	sc->codec = codec;
#ifndef SP_UNDER_SANITIZER
	if (with_pool) {
		sc->pool = sp_block_pool_alloc();
		if (!sc->pool)
			goto fail;
	}
#endif
	if (codec == SP_CODEC_ZSTD) {
		sc->zstd = ZSTD_createDCtx();
		if (!sc->zstd)
			goto fail;
	}
	pthread_mutex_init(&sc->lock, NULL);
	pthread_cond_init(&sc->cond, NULL);
	return sc;
fail:
	sp_block_pool_free(sc->pool);
	free(sc);
	return NULL;
}

struct sp_cpustream_scratch *sp_cpustream_scratch_alloc(enum sp_codec codec)
{
	return sp_cpustream_scratch_new(codec, true);
}

void sp_cpustream_scratch_read_ahead(struct sp_cpustream_scratch *sc, enum sp_read_ahead how)
{
	pthread_mutex_lock(&sc->lock);
	/*
	 * Helped, the blocks are read by whoever helps, with the helper's
	 * state: the thread finishes the block it reads first.  (Else a
	 * caller that found it busy could go to sleep before it was done,
	 * and nobody would read the blocks queued.)
	 */
	while (how == SP_AHEAD_HELPED && sc->reading)
		pthread_cond_wait(&sc->cond, &sc->lock);
	sc->ahead = how;
	pthread_cond_broadcast(&sc->cond);
	pthread_mutex_unlock(&sc->lock);
}

bool sp_cpustream_scratch_help(struct sp_cpustream_scratch *sc)
{
	bool any;

	if (!__atomic_load_n(&sc->nr_queued, __ATOMIC_RELAXED))
		return false;
	pthread_mutex_lock(&sc->lock);
	/* one reader of the helper's state at a time (the thread is done: see above) */
	any = sc->queue != NULL && !sc->reading;
	if (any)
		read_queued(sc);
	pthread_mutex_unlock(&sc->lock);
	return any;
}

void sp_cpustream_scratch_free(struct sp_cpustream_scratch *sc)
{
	if (!sc)
		return;
	if (sc->has_thread) {
		pthread_mutex_lock(&sc->lock);
		sc->stop = true;
		pthread_cond_broadcast(&sc->cond);
		pthread_mutex_unlock(&sc->lock);
		pthread_join(sc->thread, NULL);
	}
	sp_cpustream_scratch_free(sc->helper);
	pthread_cond_destroy(&sc->cond);
	pthread_mutex_destroy(&sc->lock);
	ZSTD_freeDCtx(sc->zstd);
	sp_block_pool_free(sc->pool);
	free(sc->zbuf);
	free(sc);
}
