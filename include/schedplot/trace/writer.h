/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_WRITER_H
#define SP_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "schedplot/trace/datfile.h"

struct sp_error;
struct sp_event;
struct sp_writer;

/*
 * A writer of trace-cmd data files (trace-cmd.dat.v6(5), trace-cmd.dat.v7(5))
 * that trace-cmd report and our reader read.  Records arrive per CPU in time
 * order, CPUs interleaved in any way; each CPU's records are packed into
 * ring-buffer pages in the kernel's format (page header: timestamp and
 * commit; event headers: 5-bit type_len and 27-bit time delta, time-extend
 * events for longer gaps) and, for version 7, compressed with zstd in
 * chunks of ten pages.  Filled chunks go to an unlinked spool file beside
 * the output at once, so memory stays bounded by the chunk buffers of the
 * CPUs (ten pages each).  sp_writer_close() lays out the file and writes
 * it front to back through struct sp_tempfile: to a temporary name in the
 * same directory, renamed into place (a symlink's target is replaced, the
 * link stays), or straight into a device or FIFO; no partial output is
 * ever left behind in a file.
 *
 * The file has 8-byte longs and is little endian, like the x86_64 and arm64
 * kernels it describes, or big endian on request (s390x, ppc64).
 */

#define SP_WRITER_MAX_CPUS	8192

/* Option ids of trace-cmd.dat.v7(5) that callers may add themselves. */
enum sp_writer_option {
	SP_WRITER_OPT_DATE = SP_DAT_OPT_DATE,
	SP_WRITER_OPT_CPUSTAT = SP_DAT_OPT_CPUSTAT,
	SP_WRITER_OPT_VERSION = SP_DAT_OPT_VERSION,
};

struct sp_writer_options {
	int file_version;		/* 6 or 7; 0 means 7 */
	const char *compression;	/* "zstd" or "none"; NULL: zstd for version 7 when
					 * built with libzstd, else none */
	int compression_level;		/* zstd level; 0 means 1 (fast) */
	int nr_cpus;			/* 1..SP_WRITER_MAX_CPUS */
	unsigned int page_size;		/* ring-buffer page size; 0 means 4096 */
	const char *clock;		/* trace clock name; NULL means "local" */
	const char *uname;		/* UNAME option; NULL: this machine's uname(2) */
	const char *header_page;	/* events/header_page text; NULL: the layout above */
	const char *header_event;	/* events/header_event text; NULL: the layout above */
	uint64_t trace_id;		/* TRACEID option; 0: none */
	bool big_endian;		/* as recorded on a big-endian machine */
};

/* Ids of the built-in sched event formats (sp_writer_add_sched_formats()). */
enum sp_writer_sched_id {
	SP_WRITER_ID_SWITCH = 316,
	SP_WRITER_ID_WAKEUP,
	SP_WRITER_ID_WAKEUP_NEW,
	SP_WRITER_ID_WAKING,
	SP_WRITER_ID_MIGRATE,
	SP_WRITER_ID_FORK,
	SP_WRITER_ID_EXEC,
	SP_WRITER_ID_EXIT,
};

/**
 * sp_writer_open - start writing a trace-cmd data file
 * @path: the file to create (replaced only when sp_writer_close() succeeds;
 *	  a device or FIFO is only checked here, and opened at close)
 * @opts: what to write
 * @err: filled in on failure
 *
 * Return: the writer, or NULL with @err set (-EINVAL for bad options,
 * -ENOTSUP for zstd without libzstd, -EISDIR for a directory, -errno when
 * the temporary or spool file cannot be created beside @path, or the
 * device cannot be opened).
 */
struct sp_writer *sp_writer_open(const char *path, const struct sp_writer_options *opts,
				 struct sp_error *err);

/**
 * sp_writer_add_format - save an event format file in the trace
 * @w: the writer
 * @system: the event system ("ftrace" formats go to the ftrace section)
 * @format: the text of tracefs events/SYSTEM/EVENT/format
 * @len: its length in bytes
 * @err: filled in on failure
 *
 * Return: 0, or -ENOMEM with @err set.
 */
int sp_writer_add_format(struct sp_writer *w, const char *system, const char *format,
			 size_t len, struct sp_error *err);

/**
 * sp_writer_add_sched_formats - save the built-in sched event formats
 * @w: the writer
 * @err: filled in on failure
 *
 * The formats sp_writer_write_event() encodes for: the kernel's sched
 * events (fixed 16-byte comms, prev_state with the layout of Linux 6.x),
 * with the ids of enum sp_writer_sched_id.  Return: 0 or -ENOMEM.
 */
int sp_writer_add_sched_formats(struct sp_writer *w, struct sp_error *err);

/**
 * sp_writer_add_cmdline - save a pid's command name (saved_cmdlines)
 * @w: the writer
 * @pid: the task
 * @comm: its name (at most 15 bytes are kept)
 * @err: filled in on failure
 *
 * Return: 0 or -ENOMEM.
 */
int sp_writer_add_cmdline(struct sp_writer *w, int pid, const char *comm, struct sp_error *err);

/**
 * sp_writer_add_cmdlines_text - save saved_cmdlines text ("PID COMM" lines)
 * @w: the writer
 * @text: the text
 * @len: its length
 * @err: filled in on failure
 *
 * Return: 0 or -ENOMEM.
 */
int sp_writer_add_cmdlines_text(struct sp_writer *w, const char *text, size_t len,
				struct sp_error *err);

/**
 * sp_writer_add_kallsyms_text - save kernel symbols (/proc/kallsyms text)
 * @w: the writer
 * @text: lines "ADDRESS TYPE NAME [MODULE]", appended to those saved
 * @len: its length
 * @err: filled in on failure
 *
 * Readers name the addresses of kernel stacks with them.  Return: 0 or -ENOMEM.
 */
int sp_writer_add_kallsyms_text(struct sp_writer *w, const char *text, size_t len,
				struct sp_error *err);

/**
 * sp_writer_add_option - save an option (enum sp_writer_option) in the trace
 * @w: the writer
 * @id: the option id
 * @data: its data (text options include their NUL)
 * @len: its length
 * @err: filled in on failure
 *
 * Return: 0, -EINVAL for an option the writer writes itself, or -ENOMEM.
 */
int sp_writer_add_option(struct sp_writer *w, unsigned int id, const void *data, size_t len,
			 struct sp_error *err);

/**
 * sp_writer_write_raw - append one record to a CPU's stream
 * @w: the writer
 * @cpu: the CPU
 * @ts_ns: its timestamp, not before the CPU's previous record
 * @payload: the event data, starting with the common fields (common_type...)
 * @len: its length (at most the page size minus 32 bytes)
 * @err: filled in on failure
 *
 * Return: 0, or a negative code with @err set (-EINVAL: bad CPU, size or a
 * timestamp going backwards; -ENOSPC and other -errno: writing the spool).
 */
int sp_writer_write_raw(struct sp_writer *w, int cpu, uint64_t ts_ns, const void *payload,
			size_t len, struct sp_error *err);

/**
 * sp_writer_write_event - encode a sched event with the built-in formats
 * @w: the writer
 * @ev: the event (type, cpu, ts_ns, pids, CPUs, comms, prev_runnable)
 * @err: filled in on failure
 *
 * prev_runnable is written as prev_state 0 ("R"), otherwise 1 ("S").  EXEC
 * writes @ev->comm as the filename.  Return: as sp_writer_write_raw(), and
 * -EINVAL for SP_EV_OTHER or when the formats were not added.
 */
int sp_writer_write_event(struct sp_writer *w, const struct sp_event *ev, struct sp_error *err);

/**
 * sp_writer_write_page - append a ring-buffer page read from the kernel
 * @w: the writer
 * @cpu: the CPU it was read from
 * @page: the page (tracefs per_cpu/cpuN/trace_pipe_raw), @len bytes
 * @len: at most the page size; the rest of the page is zeroed
 * @err: filled in on failure
 *
 * The page must be in the format the header_page text describes; its
 * records must not go back in time against earlier ones of the CPU.
 * Return: as sp_writer_write_raw().
 */
int sp_writer_write_page(struct sp_writer *w, int cpu, const void *page, size_t len,
			 struct sp_error *err);

/**
 * sp_writer_lost - note that records were lost before the CPU's next record
 * @w: the writer
 * @cpu: the CPU
 * @count: how many (0 when unknown)
 *
 * The next record starts a new page flagged with missed events, as the
 * kernel flags them.  Return: 0 or -EINVAL for a bad CPU.
 */
int sp_writer_lost(struct sp_writer *w, int cpu, uint64_t count);

/**
 * sp_writer_nr_records - records written so far
 * @w: the writer
 * @cpu: a CPU, or -1 for all
 *
 * Return: the count (records of sp_writer_write_page() pages are not counted).
 */
uint64_t sp_writer_nr_records(const struct sp_writer *w, int cpu);

/**
 * sp_writer_close - write the file and rename it into place
 * @w: the writer (freed, also on failure)
 * @err: filled in on failure
 *
 * Return: 0, or a negative code with @err set; then nothing is left at the
 * target path that was not there before.
 */
int sp_writer_close(struct sp_writer *w, struct sp_error *err);

/**
 * sp_writer_abort - give up: remove the temporary files, free the writer
 * @w: the writer (NULL is fine)
 */
void sp_writer_abort(struct sp_writer *w);

#endif /* SP_WRITER_H */
