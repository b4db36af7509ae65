/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_CPUSTREAM_AHEAD_H
#define SP_CPUSTREAM_AHEAD_H

/*
 * The read-ahead of the per-CPU streams (cpustream-ahead.c), as the page
 * walker (cpustream.c) asks for it.  Private: beside the sources, not
 * under include/.
 */

#include <stdbool.h>

#include "schedplot/base/error.h"
#include "schedplot/trace/container.h"
#include "cpustream-block.h"

/**
 * sp_cpustream_scratch_new - decompression state, with a block pool or not
 * @codec: the file's codec
 * @with_pool: a pool for the streams' blocks (not for a helper's scratch)
 *
 * Return: the scratch, or NULL without memory.
 */
struct sp_cpustream_scratch *sp_cpustream_scratch_new(enum sp_codec codec, bool with_pool);

/**
 * sp_cpustream_ahead_ask - ask the helper for the block after the current one
 * @s: the stream; nothing happens when it may not read ahead now
 */
void sp_cpustream_ahead_ask(struct sp_cpustream *s);

/**
 * sp_cpustream_ahead_cancel - drop the block asked for
 * @s: the stream; waits for the helper to finish with it, or takes it out
 *     of the helper's queue
 */
void sp_cpustream_ahead_cancel(struct sp_cpustream *s);

/**
 * sp_cpustream_ahead_reclaim - take back a helped block nobody started
 * @s: the stream, asked as SP_AHEAD_HELPED; its @ahead_asked is cleared
 *     when the block was still queued
 */
void sp_cpustream_ahead_reclaim(struct sp_cpustream *s);

/**
 * sp_cpustream_ahead_take - wait for the block asked for
 * @s: the stream, its block asked for
 * @helped: set to whether it was asked as SP_AHEAD_HELPED
 * @err: set to the helper's error, if any
 *
 * Return: as sp_cpustream_fill(); on 1 the block is in @s->ahead.
 */
int sp_cpustream_ahead_take(struct sp_cpustream *s, bool *helped, struct sp_error *err);

#endif /* SP_CPUSTREAM_AHEAD_H */
