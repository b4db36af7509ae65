/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_RECORD_H
#define SP_RECORD_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

struct sp_error;

/*
 * Recording with libtracefs into a trace-cmd file.  A private tracefs
 * instance ("schedplot-PID") holds the ring buffers, so other tracing users
 * are not disturbed and nothing global needs restoring; it is removed on
 * every way out.  The per-CPU raw pages are streamed through the writer
 * (whose spool is on the output's file system) while recording.
 *
 * The CPU topology goes into the trace as ftrace print records written to
 * the instance's trace_marker right after tracing starts, each
 *
 *   schedplot-topology v1 CPU:CORE:DIE:CLUSTER:SOCKET:NODE ...
 *
 * with up to 64 CPUs per record; -1 stands for what sysfs does not say.
 *
 * With sleep_stacks, the instance's sched_switch gets the trigger
 * SP_RECORD_SLEEP_STACKS: the kernel stack of each switch out in S or D,
 * an ftrace:kernel_stack record right after it, in the task's context;
 * the file then keeps that event's format and /proc/kallsyms, to name the
 * addresses (doc/design.md "Sleeps").
 */

#define SP_RECORD_SLEEP_STACKS	"stacktrace if prev_state & 3"

#define SP_RECORD_TOPOLOGY_TAG	"schedplot-topology v1"

struct sp_record_options {
	const char *output;		/* the .dat file */
	const char *const *events;	/* more "SYSTEM:EVENT" names (may be NULL) */
	int nr_events;
	double duration_s;		/* stop after this long; 0: when the command exits */
	char *const *argv;		/* the command to run, NULL: system-wide */
	unsigned int buffer_kb;		/* per-CPU ring buffer; 0 means 8192 */
	int file_version;		/* 6 or 7 (0: 7) */
	const char *compression;	/* see struct sp_writer_options */
	bool sleep_stacks;		/* the stack of each switch out in S or D */
	volatile sig_atomic_t *stop;	/* set by a signal handler to stop */
};

struct sp_record_result {
	bool command_ran;
	int command_status;		/* as waitpid() gives it */
	int nr_cpus;
	uint64_t pages;			/* ring-buffer pages saved */
	uint64_t records;		/* the records on them */
	uint64_t lost;			/* records overwritten or dropped, all CPUs */
	int nr_events;			/* event types enabled */
	char missing[256];		/* optional events this kernel lacks */
};

/**
 * sp_record_run - record a trace
 * @opts: what to record and where
 * @res: filled in with what happened
 * @err: filled in on failure
 *
 * Return: 0, or a negative code with @err set: -EPERM (not root), -ENOENT
 * (no tracefs, or an unknown event: the message lists close matches),
 * -ENOSPC (disk full), -errno from tracefs or the output.  Nothing is left
 * at the output path on failure.
 */
int sp_record_run(const struct sp_record_options *opts, struct sp_record_result *res,
		  struct sp_error *err);

#endif /* SP_RECORD_H */
