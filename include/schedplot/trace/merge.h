/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_MERGE_H
#define SP_MERGE_H

/*
 * merge: the pass of sp_reader_read(), the per-CPU streams merged in
 * timestamp order (ties: lower CPU first, each CPU's own order kept).  A
 * tournament tree, one comparison per level, log2(CPUs) per record; from
 * SP_BATCH_MIN_LEAVES CPUs on, in batches sorted by radix in a second
 * thread (merge.c says how); for fewer CPUs of uncompressed data, the tree
 * in a second thread, the records handed to the caller's (merge-pipe.c).
 */

#include "schedplot/trace/reader.h"

struct sp_error;
struct sp_reader;
struct sp_reader_batch;

/**
 * sp_merge_pass - deliver every record of an open reader, in order
 * @r: the reader
 * @fn: called once per record; a non-zero return stops the pass
 * @data: passed to @fn
 * @err: filled in on failure
 *
 * Rewinds every stream first.  Return: as sp_reader_read().
 */
int sp_merge_pass(struct sp_reader *r, sp_event_fn fn, void *data, struct sp_error *err);

/**
 * sp_merge_batch_free - free the state of the merge in batches (NULL is fine)
 * @b: r->batch
 */
void sp_merge_batch_free(struct sp_reader_batch *b);

#endif /* SP_MERGE_H */
