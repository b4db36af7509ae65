/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_READER_H
#define SP_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "schedplot/trace/cpustats.h"
#include "schedplot/trace/event.h"

struct sp_container_info;
struct sp_error;
struct sp_reader;

/* Called for every record in timestamp order (ties: lower CPU first). */
typedef int (*sp_event_fn)(const struct sp_event *ev, void *data);

/* Called now and then with the fraction of the trace read so far. */
typedef void (*sp_progress_fn)(double fraction, uint64_t nr_records, void *data);

/**
 * sp_reader_open - open a trace-cmd .dat file
 * @path: the file
 * @err: filled in on failure
 *
 * Checks the container, loads the event formats and resolves the fields the
 * model needs once.  Return: the reader, or NULL with @err set.
 */
struct sp_reader *sp_reader_open(const char *path, struct sp_error *err);

/**
 * sp_reader_close - close a reader (NULL is fine)
 * @r: the reader
 */
void sp_reader_close(struct sp_reader *r);

/**
 * sp_reader_nr_cpus - the number of CPUs in the file's header
 * @r: the reader
 *
 * Return: the count (at least 1).
 */
int sp_reader_nr_cpus(const struct sp_reader *r);

/**
 * sp_reader_cpu_span - timestamps of a CPU's first and last record
 * @r: the reader
 * @cpu: the CPU
 * @first_ns: set to the first record's timestamp (UINT64_MAX if none)
 * @last_ns: set to the last record's timestamp (UINT64_MAX if none)
 *
 * Return: 0, or -ENODATA when the CPU has no records.
 */
int sp_reader_cpu_span(struct sp_reader *r, int cpu, uint64_t *first_ns, uint64_t *last_ns);

/**
 * sp_reader_has_event - whether the file describes an event
 * @r: the reader
 * @type: an sp_event_type
 *
 * Return: true when the file has the event's format.
 */
bool sp_reader_has_event(const struct sp_reader *r, enum sp_event_type type);

/**
 * sp_reader_comm - the command name saved in the file for a pid
 * @r: the reader
 * @pid: the task
 *
 * Return: the name, or NULL when the file does not know it.
 */
const char *sp_reader_comm(const struct sp_reader *r, int pid);

/**
 * sp_reader_file_info - the container's facts: file version, compression, sizes
 * @r: the reader
 *
 * Return: what the container check found (valid while @r is open).
 */
const struct sp_container_info *sp_reader_file_info(const struct sp_reader *r);

/**
 * sp_reader_uname - the system the trace was recorded on, as the file says
 * @r: the reader
 *
 * Return: the file's UNAME option, "sysname nodename release machine" as
 * trace-cmd writes it, or "" when the file has none.
 */
const char *sp_reader_uname(const struct sp_reader *r);

/**
 * sp_reader_clock - the trace clock the timestamps are in
 * @r: the reader
 * @buf: room for the name
 * @size: its size
 *
 * Return: @buf, holding the clock trace-cmd recorded with ("local",
 * "mono", ...), from the file's TRACECLOCK option, or "" when the file
 * does not say.
 */
const char *sp_reader_clock(const struct sp_reader *r, char *buf, size_t size);

/**
 * sp_reader_lost_events - lost-event count seen so far on one CPU
 * @r: the reader
 * @cpu: the CPU
 *
 * Return: records the ring buffer dropped (where the kernel told how many)
 * plus one for every gap of unknown size.
 */
uint64_t sp_reader_lost_events(const struct sp_reader *r, int cpu);

/**
 * sp_reader_gaps_seen - gaps in the records so far in this pass, over all CPUs
 * @r: the reader
 *
 * A gap is a place where a CPU's ring buffer dropped records.  During a
 * callback of a pass with watches (sp_reader_watch()), it counts the gaps
 * before the record handed over; it grows as the pass goes on.
 *
 * Return: the count.
 */
uint64_t sp_reader_gaps_seen(const struct sp_reader *r);

/**
 * sp_reader_lost_exact - whether a CPU's lost-event count is exact
 * @r: the reader
 * @cpu: the CPU
 *
 * Return: false when some gap on @cpu was of a size the kernel did not
 * give (counted as one in sp_reader_lost_events(): "at least").
 */
bool sp_reader_lost_exact(const struct sp_reader *r, int cpu);

/* A gap in a CPU's records, for -v. */
struct sp_lost_note {
	int cpu;
	uint64_t ts_ns;			/* the record that follows the gap */
	int count;			/* records lost, -1: the kernel did not say */
};

/* Gaps noted per pass unless sp_reader_keep_lost_notes() says otherwise. */
#define SP_READER_LOST_NOTES 10

/**
 * sp_reader_keep_lost_notes - how many gaps to note in a pass
 * @r: the reader
 * @max: the first @max gaps are kept (SIZE_MAX: all)
 */
void sp_reader_keep_lost_notes(struct sp_reader *r, size_t max);

/**
 * sp_reader_lost_notes - the gaps noted in the last pass, in delivery order
 * @r: the reader
 * @nr: set to how many are kept
 * @nr_gaps: set to how many there were
 *
 * Return: the array (owned by @r, valid until the next pass), or NULL.
 */
const struct sp_lost_note *sp_reader_lost_notes(const struct sp_reader *r, size_t *nr,
						uint64_t *nr_gaps);

/**
 * sp_reader_cpu_stats - the ring-buffer statistics the file saved for a CPU
 * @r: the reader
 * @cpu: the CPU
 * @st: set to them (st->known false when the file has none for the CPU)
 *
 * Return: 0, or -ENODATA when they are unknown (missing or unreadable).
 */
int sp_reader_cpu_stats(const struct sp_reader *r, int cpu, struct sp_cpu_stats *st);

/**
 * sp_reader_cpu_marker - whether a CPU's data holds a lost-events marker
 * @r: the reader
 * @cpu: the CPU
 *
 * A marker is the kernel's missed-events flag on a ring-buffer page, which
 * trace-cmd report shows as "CPU:N [EVENTS DROPPED]" before the page's
 * first record.  The first call for a CPU reads the header of every page
 * of its data (uncompressed data once, compressed data decompressed once,
 * records not decoded; see sp_cpustream_scan_missed()), so the answer is
 * known before a pass; later calls cost nothing.  A pass of
 * sp_reader_read() that reads all of a CPU's records answers it too, at no
 * cost: a call after it reads nothing.  Not from the callback of
 * sp_reader_read().
 *
 * Return: 1 when it does, 0 when it does not (or the CPU has no data),
 * -ENODATA when that cannot be known (data libtracecmd reads, or a page
 * that cannot be read: the pass then says what is wrong).
 */
int sp_reader_cpu_marker(struct sp_reader *r, int cpu);

/**
 * sp_reader_cpu_marker_costly - whether sp_reader_cpu_marker() would decompress
 * @r: the reader
 * @cpu: the CPU
 *
 * Return: true while the answer is unknown and the CPU's data compressed:
 * asking then costs about as much as decompressing it in a pass, which
 * answers it for free.
 */
bool sp_reader_cpu_marker_costly(const struct sp_reader *r, int cpu);

/**
 * sp_reader_cpu_lossless - whether a CPU lost no records, as doc/design.md says
 * @r: the reader
 * @cpu: the CPU
 *
 * Looks for a marker (sp_reader_cpu_marker()) only when the statistics
 * show no loss.
 *
 * Return: true when its statistics are known and show no overrun and no
 * dropped events, and its data holds no lost-events marker.
 */
bool sp_reader_cpu_lossless(struct sp_reader *r, int cpu);

/**
 * sp_reader_set_progress - report progress while reading
 * @r: the reader
 * @fn: the callback (NULL for none)
 * @data: passed to @fn
 */
void sp_reader_set_progress(struct sp_reader *r, sp_progress_fn fn, void *data);

/**
 * sp_reader_no_read_ahead - read each block of data when a pass reaches it
 * @r: the reader
 *
 * By default a helper thread decompresses each CPU's next block while a
 * pass over a few CPUs' streams walks the current one.  For a caller that
 * runs as many readers at once as there are CPUs, the CPUs are busy anyway
 * and the helper only adds the handing over of blocks: after this call
 * such passes read each block in their own thread.  A block already asked
 * for still comes.  The merge in batches (many CPUs, merge.c) is left as
 * it is: its two threads read the blocks while they wait for each other.
 */
void sp_reader_no_read_ahead(struct sp_reader *r);

/**
 * sp_reader_set_skipped - event types whose own fields are not decoded
 * @r: the reader
 * @types: a bit (1u << type) per enum sp_event_type; 0 (the default): none
 *
 * Their records still come with the type, timestamp, CPU and common_pid;
 * pid, other_pid, target_cpu and orig_cpu are -1, the names NULL and
 * prev_runnable false.  For what the model ignores in a pass (sched_waking
 * where sched_wakeup is the wakeup), which is a third of the records of a
 * busy trace.
 */
void sp_reader_set_skipped(struct sp_reader *r, unsigned int types);

/**
 * sp_reader_load_functions - make kernel addresses nameable
 * @r: the reader
 * @err: filled in when the file's symbol table does not load
 *
 * Loads the kernel symbols the file saved (its copy of /proc/kallsyms) for
 * sp_reader_function(), once; later calls give the first call's result.
 *
 * Return: 0, -ENOENT when the file saved none, or another negative code.
 */
int sp_reader_load_functions(struct sp_reader *r, struct sp_error *err);

/**
 * sp_reader_function - the kernel function an address lies in
 * @r: the reader, after sp_reader_load_functions()
 * @addr: a kernel text address (a stack entry, a caller)
 *
 * Return: the function's name, valid while @r is open (the same pointer
 * for the same function), or NULL when no saved symbol holds @addr.
 */
const char *sp_reader_function(const struct sp_reader *r, uint64_t addr);

/**
 * sp_reader_request_event - deliver the records of one more event, with fields
 * @r: the reader
 * @name: "system:event", such as "power:cpu_frequency" or "ftrace:print"
 * @fields: the names of the fields wanted, such as "state" and "cpu_id"
 *          (common fields too)
 * @nr_fields: how many (0: the records come without values)
 * @err: filled in on failure
 *
 * Call it before sp_reader_read().  Its records then come as SP_EV_EXTRA,
 * with ev->extra the index returned here and ev->values[i] the value of
 * @fields[i], to be read as sp_reader_value_kind() says: numbers as u64 or
 * s64 (sign-extended), strings as pointers valid during the callback that
 * receives the record (NULL when the record does not hold the string),
 * arrays of unsigned numbers as struct sp_addrs, valid as long (as many as
 * the record holds, such as ftrace:kernel_stack's caller).  The records of events not asked for cost nothing more.  A pass with
 * events asked for merges the CPUs with the tree, never in batches (see
 * sp_reader_set_batch_min()).
 *
 * A failure is not fatal: the reader goes on as if the call had not been
 * made.
 *
 * Return: the index of the request (0, 1, ... in the order of the calls
 * that succeed); -ENOENT when the trace has no such event or the event no
 * such field; -EINVAL for a name that is not "system:event", a field that
 * is neither a number nor a string, or one of the sched events the reader
 * decodes already; -EEXIST when the event was asked for already; -ENOMEM
 * or another negative code.  @err says which.
 */
int sp_reader_request_event(struct sp_reader *r, const char *name, const char *const *fields,
			    int nr_fields, struct sp_error *err);

/* An event to ask for and the fields wanted of it, as a row of a caller's table. */
struct sp_event_request {
	const char *name;		/* "system:event" */
	const char *const *fields;
	int nr_fields;
};

/**
 * sp_reader_request_present - sp_reader_request_event(), for an event the trace may lack
 * @r: the reader
 * @want: the event and its fields
 * @req: set to the request's index; left alone when the trace has no such event
 * @err: filled in on failure; cleared when the trace has no such event
 *
 * Return: 0, also when the trace has no such event; another negative code
 * of sp_reader_request_event() as it is.
 */
int sp_reader_request_present(struct sp_reader *r, const struct sp_event_request *want, int *req,
			      struct sp_error *err);

/**
 * sp_reader_value_kind - how a field of an event asked for is to be read
 * @r: the reader
 * @request: the index sp_reader_request_event() returned
 * @field: the field's place in the @fields of that call
 *
 * Return: an enum sp_value_kind (SP_VALUE_U64, SP_VALUE_S64, SP_VALUE_STR),
 * or -EINVAL for an index out of range.
 */
int sp_reader_value_kind(const struct sp_reader *r, int request, int field);

/**
 * sp_reader_watch - mark the records of an event that pass a filter
 * @r: the reader
 * @name: "system:event", a sched event too ("sched:sched_waking")
 * @filter: a filter as trace-cmd report -F takes it after "EVENT:"
 *          ("prio < 100", "buf ~ \"*phase*\""), evaluated by libtraceevent;
 *          NULL or "": every record
 * @fields: the fields whose values a passing record carries (common fields too)
 * @nr_fields: how many
 * @err: filled in on failure
 *
 * Call it before sp_reader_read().  A record of the event that passes has
 * bit i (the index returned) set in ev->watched and the values of @fields
 * in ev->watch_values[i], read as sp_reader_watch_kind() says; it keeps
 * its type, so a sched record still reaches the model as one.  Several
 * watches may name one event.  A pass with watches merges the CPUs with
 * the tree, in the caller's thread, so that sp_reader_lost_events() during
 * a callback counts the records lost before the one handed over.
 *
 * Return: the index of the watch (0, 1, ... below SP_EVENT_MAX_WATCHES);
 * -ENOENT when the trace has no such event or the event no such field
 * (in @fields or in @filter), -EINVAL for a bad name or filter, -E2BIG
 * for too many watches, -ENOMEM.  @err names the event and what is wrong.
 */
int sp_reader_watch(struct sp_reader *r, const char *name, const char *filter,
		    const char *const *fields, int nr_fields, struct sp_error *err);

/**
 * sp_reader_watch_kind - how a field of a watch is to be read
 * @r: the reader
 * @watch: the index sp_reader_watch() returned
 * @field: the field's place in the @fields of that call
 *
 * Return: an enum sp_value_kind, or -EINVAL for an index out of range.
 */
int sp_reader_watch_kind(const struct sp_reader *r, int watch, int field);

/**
 * sp_reader_read - deliver every record of the file, in order
 * @r: the reader
 * @fn: called once per record; a non-zero return stops the pass and is
 *      returned
 * @data: passed to @fn
 * @err: filled in on failure
 *
 * May be called more than once; every call starts at the beginning.
 * Return: 0, what @fn returned, or a negative code with @err set.
 */
int sp_reader_read(struct sp_reader *r, sp_event_fn fn, void *data, struct sp_error *err);

/**
 * sp_reader_set_batch_min - from how many CPUs the merge goes in batches
 * @r: the reader
 * @nr_cpus: CPUs with records; 0: never
 *
 * Both merges deliver the same records in the same order; with many CPUs
 * the batches are faster.  The default suits the file; tests compare the
 * two.  A pass with events asked for by name (sp_reader_request_event())
 * is always the tree's.
 */
void sp_reader_set_batch_min(struct sp_reader *r, int nr_cpus);

/* Where a pass over few CPUs reads and decodes (sp_reader_set_pipe()). */
enum sp_pipe_mode {
	SP_PIPE_AUTO,		/* in a second thread for uncompressed data */
	SP_PIPE_ALWAYS,		/* in a second thread, compressed data too */
	SP_PIPE_NEVER,		/* in the caller's thread */
};

/**
 * sp_reader_set_pipe - whether a pass over few CPUs runs on two threads
 * @r: the reader
 * @mode: an enum sp_pipe_mode
 *
 * With fewer CPUs than the merge in batches needs, a second thread can
 * read, decode and merge the records while the caller's thread handles
 * them (merge-pipe.c).  The records are the same, in the same order.  By
 * default this is done for uncompressed data when the process may run on
 * two CPUs or more (sp_cpus_usable()), and never after
 * sp_reader_no_read_ahead() (the CPUs are busy);
 * compressed data already has its helper thread decompressing.  Tests
 * compare the modes.
 */
void sp_reader_set_pipe(struct sp_reader *r, enum sp_pipe_mode mode);

/**
 * sp_reader_scan_markers - find trace_marker text written when tracing started
 * @r: the reader
 * @prefix: the text the wanted ftrace:print records start with
 * @fn: called with each such record's text (NUL-terminated, valid during the
 *      call), CPU by CPU, in file order within a CPU
 * @data: passed to @fn
 *
 * Looks at the first few hundred records of each CPU only, so it is cheap
 * whatever the size of the trace; schedplot record writes its markers as
 * soon as tracing starts.  Read errors end the look at a CPU without an
 * error (the pass of sp_reader_read() reports them), and the next
 * sp_reader_read() starts at the beginning as always.
 *
 * Return: the number of records passed to @fn (0 when the file has no
 * ftrace:print format).
 */
int sp_reader_scan_markers(struct sp_reader *r, const char *prefix,
			   void (*fn)(void *data, const char *text), void *data);

#endif /* SP_READER_H */
