/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_MERGE_PIPE_H
#define SP_MERGE_PIPE_H

/*
 * The merge of few CPUs in a second thread, the records handed to the
 * caller's thread (merge-pipe.c).
 */

#include <stdbool.h>
#include <stdint.h>

#include "schedplot/trace/reader.h"

struct sp_error;
struct sp_reader;

/* A merge of the reader's streams in trace order, each record to @fn. */
typedef int (*sp_merge_fn)(struct sp_reader *r, sp_event_fn fn, void *data,
			   struct sp_error *err);

/* Records lost on @cpu before its record at @ts_ns (@missed: -1 for an unknown count). */
typedef void (*sp_lost_fn)(struct sp_reader *r, int cpu, int missed, uint64_t ts_ns);

/**
 * sp_merge_pipe_fits - whether a pass of @r can go through the pipe
 * @r: the reader, its streams open
 *
 * Return: false when its records carry what the pipe does not hand over:
 * the values of events asked for by name, or CPUs numbered past 65535.
 */
bool sp_merge_pipe_fits(const struct sp_reader *r);

/**
 * sp_merge_pipe - a pass with @merge in a second thread
 * @r: the reader
 * @merge: the merge, run in the second thread; it leaves the lost records
 *         to @note_lost while r->lost_noted_later is set
 * @note_lost: notes the records lost before a record, called in this thread
 *             before @fn gets the record
 * @fn: called in this thread for each record, in the merge's order
 * @data: @fn's argument
 * @err: filled in on failure
 *
 * The events @fn gets are the ones @merge gives, field by field; their
 * strings stay valid during the call.  Progress (sp_reader_set_progress())
 * is told from this thread.  Without a thread, @merge runs here.
 *
 * Return: as @merge: 0, an error (@err), or what @fn returned.
 */
int sp_merge_pipe(struct sp_reader *r, sp_merge_fn merge, sp_lost_fn note_lost, sp_event_fn fn,
		  void *data, struct sp_error *err);

#endif /* SP_MERGE_PIPE_H */
