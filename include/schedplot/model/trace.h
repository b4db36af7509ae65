/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_TRACE_H
#define SP_TRACE_H

#include <errno.h>
#include <stdint.h>

#include "schedplot/base/error.h"
#include "schedplot/model/model.h"
#include "schedplot/model/topology.h"
#include "schedplot/trace/reader.h"

/*
 * A trace file and the model built from it.  Opening reads only the
 * headers, the ring-buffer statistics, each CPU's first and last record
 * and, for CPUs that start after the others and whose statistics show no
 * loss, the page headers, so callers know the time span and the complete
 * window (to size pixel columns, check a window) before the one pass over
 * the records that sp_trace_run() makes.
 */
struct sp_trace {
	const char *path;
	struct sp_reader *reader;
	int nr_cpus;
	/*
	 * per CPU: where it is complete from, doc/design.md's start[c]: first_ns
	 * for a lossless CPU with records, else its first record; SP_NO_TS
	 * if it has none
	 */
	uint64_t *start_ns;
	/*
	 * per CPU: its first record came after first_ns, but it lost nothing
	 * (the file's cpustats and its pages say so), so start_ns is first_ns
	 */
	bool *from_t0;
	int nr_from_t0;
	int nr_presumed;		/* of them, taken as lossless before their pages
					   were read (SP_TRACE_PRESUME_LOSSLESS) */
	uint64_t first_ns;		/* t0: the first record over all CPUs */
	uint64_t window_start_ns;	/* max over CPUs with records of start_ns */
	uint64_t end_ns;		/* last record over all CPUs */
	struct sp_model model;		/* valid after sp_trace_run() */
	size_t keep_notes;		/* repairs and gaps noted per pass (0: the
					   first SP_MODEL_REPAIR_NOTES) */
	bool has_model;
	/* the CPU topology schedplot record saved in the trace, if any */
	struct sp_topology topology;
	bool has_topology;
	int nr_topology_markers;	/* markers found (also when they were ignored) */
	struct sp_error topology_err;	/* why markers were ignored (code 0: they were not) */
};

/**
 * sp_trace_open - open a trace and read its time span
 * @t: the trace (zeroed by the caller or not; it is initialised here)
 * @path: the .dat file
 * @err: filled in on failure
 *
 * Also reads the CPU topology markers schedplot record writes when tracing
 * starts (SP_TOPOLOGY_MARKER_PREFIX): t->has_topology says whether there
 * was one.  Damaged markers are not an error: the topology is then left
 * out and t->topology_err says why.
 *
 * Return: 0, or a negative code with @err set (-ENODATA: no records at all).
 */
int sp_trace_open(struct sp_trace *t, const char *path, struct sp_error *err);

/*
 * sp_trace_open_flags()' flag: a CPU whose first record comes after t0,
 * whose statistics show no loss and whose data is compressed is taken as
 * lossless before its pages are read, as decompressing them only to see
 * their flags would cost nearly a second pass.  The pass reads them
 * anyway: when one is flagged after all (a file whose statistics and
 * pages disagree), sp_trace_run() fails with SP_TRACE_START_OVER, and the
 * caller opens the file again without the flag and starts over.  Only for
 * a caller that has shown nothing of the pass when it ends.
 */
#define SP_TRACE_PRESUME_LOSSLESS	(1u << 0)
/* sp_trace_run()'s code when a presumption above was wrong */
#define SP_TRACE_START_OVER		(-ESTALE)

/**
 * sp_trace_open_flags - sp_trace_open(), told how
 * @t: the trace
 * @path: the .dat file
 * @flags: 0 or SP_TRACE_PRESUME_LOSSLESS
 * @err: filled in on failure
 *
 * Return: as sp_trace_open().
 */
int sp_trace_open_flags(struct sp_trace *t, const char *path, unsigned int flags,
			struct sp_error *err);

/**
 * sp_trace_check - whether sp_trace_open() of a file would succeed
 * @path: the .dat file
 * @err: filled in on failure, as sp_trace_open() would
 *
 * Opens the file and reads its time span, then closes it: the same checks
 * with the same errors, without what sp_trace_open() reads that cannot fail
 * (whether CPUs lost events, which reads all their data; the topology).
 * For a command that checks all its files before the passes over them.
 *
 * Return: 0, or the negative code sp_trace_open() would return.
 */
int sp_trace_check(const char *path, struct sp_error *err);

/**
 * sp_trace_run - make the pass over all records and build t->model
 * @t: an open trace
 * @pass: the consumers told about runs, steps and waits (may be NULL)
 * @filter: what running/waiting count (may be NULL)
 * @err: filled in on failure
 *
 * When the file has sched_waking but no sched_wakeup records,
 * doc/design.md makes sched_waking the wakeup; that is only known after a
 * pass, so the pass is made again, after sp_pass_reset() tells every
 * consumer to start over.  Return: 0, or a negative code with @err set
 * (-ENOMSG: no sched records; SP_TRACE_START_OVER: see
 * SP_TRACE_PRESUME_LOSSLESS).
 */
int sp_trace_run(struct sp_trace *t, const struct sp_pass *pass,
		 const struct sp_model_filter *filter, struct sp_error *err);

/**
 * sp_trace_first_event - when a named event first fired
 * @t: an open trace, before its pass
 * @name: "system:event"
 * @ts_ns: set to the timestamp of its first record
 * @err: filled in on failure
 *
 * Reads the records in order up to the first of @name (a window that
 * starts at an event, --min-at), with the trace's own reader; the event
 * stays asked for, so the pass hands its records to consumers as
 * SP_EV_EXTRA too.
 *
 * Return: 0; -ENOENT when the trace has no such event (no format for it),
 * -ENODATA when it has no record of it, or another negative code with
 * @err set.
 */
int sp_trace_first_event(struct sp_trace *t, const char *name, uint64_t *ts_ns,
			 struct sp_error *err);

/**
 * sp_trace_close - release the model and close the file
 * @t: the trace
 */
void sp_trace_close(struct sp_trace *t);

#endif /* SP_TRACE_H */
