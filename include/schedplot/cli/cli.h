/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_CLI_H
#define SP_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct option;
struct sp_cmd_opts;

#include "schedplot/base/tempfile.h"
#include "schedplot/draw/output.h"

struct sp_error;
struct sp_trace;
struct sp_pass;
struct sp_model_filter;

/* Exit codes of every subcommand. */
enum sp_exit {
	SP_EXIT_OK = 0,
	SP_EXIT_FAILURE = 1,	/* bad trace, no sched events, write error */
	SP_EXIT_USAGE = 2,	/* bad command line */
	/*
	 * never the process's: sp_cli_run() of a trace opened presuming
	 * (SP_TRACE_PRESUME_LOSSLESS) found the presumption wrong, and the
	 * command starts over (sp_view_main())
	 */
	SP_EXIT_START_OVER = 3,
};

/* Options every subcommand takes. */
struct sp_cli_common {
	int verbose;		/* -v: explain repairs and oddities */
	bool quiet;		/* -q: no progress, no warnings */
	int jobs;		/* --jobs: traces read at once; 0: one per CPU */
};

extern struct sp_cli_common sp_cli;

/**
 * sp_cli_error - print "schedplot: FILE: offset 0x..: message" on stderr
 * @file: the file the error is about (NULL for none)
 * @err: the error
 */
void sp_cli_error(const char *file, const struct sp_error *err);

/**
 * sp_cli_fail - print "schedplot: FILE: message" on stderr
 * @file: the file the message is about (NULL for none)
 * @fmt: printf format
 *
 * Return: SP_EXIT_FAILURE.
 */
int sp_cli_fail(const char *file, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/**
 * sp_cli_fail_code - print a failure by its error code
 * @file: the file the message is about (NULL for none)
 * @code: the negative errno-style code a function returned
 * @what: what could not be done, e.g. "cannot set up the timeline"
 *
 * -ENOMEM prints "out of memory"; any other code "WHAT: its strerror()",
 * so that a bad argument is never reported as a lack of memory.
 * Return: SP_EXIT_FAILURE.
 */
int sp_cli_fail_code(const char *file, int code, const char *what);

/**
 * sp_cli_usage - print a usage error and the hint to --help
 * @cmd: the subcommand
 * @fmt: printf format for the problem
 *
 * Return: SP_EXIT_USAGE.
 */
int sp_cli_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/**
 * sp_cli_bad_option - the one message for an option getopt_long refused
 * @cmd: the subcommand
 * @options: the table it parsed with (what the command takes)
 * @others: options of other commands, said not to apply (NULL: none)
 * @opt: what getopt_long returned: '?' or ':' (its optstring starts with
 *	 ':' so that a missing value is told apart)
 * @argv: what getopt_long parsed
 *
 * Prints "schedplot: unknown option '--x'" (or "option '--x' needs a value",
 * "option '--x' is ambiguous (...)", "--x does not apply to CMD") and the
 * "Try" line; getopt_long must print nothing itself (opterr = 0).
 * Return: SP_EXIT_USAGE.
 */
int sp_cli_bad_option(const char *cmd, const struct option *options,
		      const struct option *others, int opt, char **argv);

/**
 * sp_cli_warn - print "schedplot: warning: ..." unless -q
 * @fmt: printf format
 */
void sp_cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/**
 * sp_cli_notice - print "schedplot: FILE: note: ..." on stderr unless -q
 * @file: the file the message is about (NULL for none)
 * @fmt: printf format
 */
void sp_cli_notice(const char *file, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/**
 * sp_cli_note - print "schedplot: FILE: message" on stderr, only with -v
 * @file: the file the message is about (NULL for none)
 * @fmt: printf format
 */
void sp_cli_note(const char *file, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * SP_PASS_OBSERVE - register in @pass (a struct sp_pass *) the consumer
 * that @fill (sp_stats_observer(), sp_spans_observer(), ...) makes of
 * @obj.  A macro, as each fill function takes its own type; a failure is
 * kept in the pass (sp_pass_add()).
 */
#define SP_PASS_OBSERVE(pass, fill, obj)			\
	do {							\
		struct sp_model_observer observer_;		\
								\
		fill(obj, &observer_);				\
		sp_pass_add(pass, &observer_);			\
	} while (0)

/**
 * sp_cli_open - open @path and read its span only (sp_trace_open_flags())
 * @t: the trace
 * @path: the file
 * @flags: as sp_trace_open_flags()'s
 *
 * Prints the error on failure.  Return: SP_EXIT_OK or SP_EXIT_FAILURE.
 */
int sp_cli_open(struct sp_trace *t, const char *path, unsigned int flags);

/**
 * sp_cli_check - whether sp_cli_open() of @path would succeed (sp_trace_check())
 * @path: the file
 *
 * Prints the error sp_cli_open() would print.
 * Return: SP_EXIT_OK or SP_EXIT_FAILURE.
 */
int sp_cli_check(const char *path);

/**
 * sp_cli_run - build the model of an open trace (sp_trace_run()), with progress
 * @t: the trace
 * @pass: its consumers (may be NULL)
 * @filter: may be NULL
 *
 * Prints the error and the warnings about repairs and lost events, these
 * on the first pass over @t only (another finds the same).
 * Return: SP_EXIT_OK or SP_EXIT_FAILURE; SP_EXIT_START_OVER, printing
 * nothing, when @t was opened presuming and the pass showed otherwise.
 */
int sp_cli_run(struct sp_trace *t, const struct sp_pass *pass,
	       const struct sp_model_filter *filter);

/**
 * sp_cli_hush_until_pass - print no warning, note or notice until sp_cli_run()
 *
 * For a command started over (SP_EXIT_START_OVER): what it says before the
 * pass, it said the first time.  Errors are printed all the same.
 */
void sp_cli_hush_until_pass(void);

/**
 * sp_cli_format_duration - "1.23 s", "45.6 ms", "789 µs", "12 ns"
 * @buf: output buffer
 * @len: its size
 * @ns: the duration
 *
 * Return: @buf.
 */
char *sp_cli_format_duration(char *buf, size_t len, uint64_t ns);

/**
 * sp_cli_zoom_command - a ready command line that shows an interval in context
 * @buf: output buffer
 * @len: its size
 * @view: the view to run ("datagraph", "running-waiting")
 * @start_ns: the interval's start (the trace's own time)
 * @dur_ns: its length
 * @file: the trace
 *
 * "schedplot VIEW --time A,B FILE": half the interval's length (at least
 * 50 us) on each side, rounded outward to whole microseconds, so the
 * window holds the whole interval.
 *
 * Return: @buf.
 */
char *sp_cli_zoom_command(char *buf, size_t len, const char *view, uint64_t start_ns,
			  uint64_t dur_ns, const char *file);

/**
 * sp_cli_parse_seconds - a time as given on the command line, in seconds
 * @arg: a number with an optional unit: ns, us, ms or s ("100ms", "1.5ms",
 *	 "250us", "2s", "300ns"); a plain number counts seconds
 * @s: the time in seconds
 *
 * Return: 0, or -EINVAL when @arg is not such a time or is negative.
 */
int sp_cli_parse_seconds(const char *arg, double *s);

/**
 * sp_cli_json_string - write @s as a JSON string (escaped, valid UTF-8)
 * @f: the stream
 * @s: the string
 */
void sp_cli_json_string(FILE *f, const char *s);

/**
 * sp_cli_parse_jobs - parse --jobs N into sp_cli.jobs
 * @cmd: the subcommand, for the message
 * @arg: the option's value, a count from 1 to 1024
 *
 * Return: 0, or SP_EXIT_USAGE with the message printed.
 */
int sp_cli_parse_jobs(const char *cmd, const char *arg);

/**
 * sp_cli_parse_choice - which of a few words an option's value is
 * @cmd: the subcommand, for the message
 * @opt: the option's long name, without "--"
 * @arg: the option's value
 * @words: the words it takes, ended by NULL
 * @index: set to the index in @words of the word @arg is
 *
 * Return: 0, or SP_EXIT_USAGE with "--OPT must be A, B or C, not 'ARG'"
 * printed.
 */
int sp_cli_parse_choice(const char *cmd, const char *opt, const char *arg,
			const char *const *words, int *index);

/**
 * sp_cli_capture - send this thread's messages to @fp instead of stderr
 * @fp: the stream; NULL: stderr again
 *
 * For the jobs of sp_parallel_run(): no progress is shown meanwhile.
 */
void sp_cli_capture(FILE *fp);

/**
 * sp_cli_cpus_busy - whether other threads keep every CPU busy meanwhile
 * @busy: true: the traces this thread opens (sp_cli_open()) read each block
 *	  in this thread, without a helper thread (sp_reader_no_read_ahead())
 *
 * For the jobs of sp_parallel_run() when as many run at once as there are
 * CPUs.
 */
void sp_cli_cpus_busy(bool busy);

/**
 * sp_cli_parse_common - handle -v/-q style options shared by subcommands
 * @opt: the option character getopt_long returned
 *
 * Return: true when the option was one of them.
 */
bool sp_cli_parse_common(int opt);

/**
 * sp_cli_output_error - report a failure to open or write an output image
 * @path: the output ("-" for standard output)
 * @err: what went wrong
 *
 * Return: SP_EXIT_USAGE when the output would be the input trace, else
 * SP_EXIT_FAILURE.
 */
int sp_cli_output_error(const char *path, const struct sp_error *err);

/**
 * sp_cli_output_format - the format of an output image, from its name
 * @cmd: the subcommand, for the usage message
 * @path: the output given with -o (not "-")
 * @fmt: in: the format asked for, SP_FORMAT_NONE for none; out: the format
 *
 * A name that is a directory, or ends in '/', is said to be one.
 *
 * Return: SP_EXIT_OK, or SP_EXIT_USAGE with the message printed.
 */
int sp_cli_output_format(const char *cmd, const char *path, enum sp_format *fmt);

/**
 * sp_cli_probe_output - fail early, before the pass, when @path cannot be written
 * @out: an initialised output with its protected inputs set
 * @path: the output ("-" is not probed)
 * @fmt: its format
 * @width: the image width
 *
 * Opens the output and closes it again without writing; prints the error.
 * Return: SP_EXIT_OK, or an exit code.
 */
int sp_cli_probe_output(struct sp_output *out, const char *path, enum sp_format fmt,
			double width);

/* The input traces of a command: -i FILEs, then the operands. */
struct sp_cli_inputs {
	char **paths;		/* pointers into argv, or to "trace.dat" */
	int nr;
	int alloc;
};

/* The trace read when a command is given none, as trace-cmd report does. */
#define SP_CLI_DEFAULT_TRACE	"trace.dat"

/**
 * sp_cli_inputs_add - one -i FILE
 * @in: zeroed, or added to before
 * @path: the file (not copied)
 *
 * Return: SP_EXIT_OK, or SP_EXIT_FAILURE with the error printed.
 */
int sp_cli_inputs_add(struct sp_cli_inputs *in, char *path);

/**
 * sp_cli_inputs_finish - add the operands, check the count
 * @in: the -i FILEs given
 * @cmd: the subcommand, for messages
 * @max: how many traces the command takes
 * @operands: the non-option arguments
 * @nr_operands: how many
 *
 * With no trace named at all, SP_CLI_DEFAULT_TRACE in the current directory
 * is read when it exists.  Prints usage errors: no trace and no trace.dat,
 * more than @max traces.
 * Return: SP_EXIT_OK (@in->nr >= 1), or SP_EXIT_USAGE or SP_EXIT_FAILURE.
 */
int sp_cli_inputs_finish(struct sp_cli_inputs *in, const char *cmd, int max, char **operands,
			 int nr_operands);

/**
 * sp_cli_inputs_release - free what sp_cli_inputs_add() took
 * @in: the inputs; zeroed again
 */
void sp_cli_inputs_release(struct sp_cli_inputs *in);

/*
 * Subcommands other than the views (those are descriptions run by
 * sp_view_main(), driver.h): argc/argv start at the subcommand's name.
 */
int sp_cmd_record(int argc, char **argv);
int sp_cmd_compare(int argc, char **argv);
int sp_cmd_export(int argc, char **argv);

/* Their command lines. */
extern const struct sp_cmd_opts sp_cmd_record_opts;
extern const struct sp_cmd_opts sp_cmd_compare_opts;
extern const struct sp_cmd_opts sp_cmd_export_opts;

/* A CSV output (--csv): an atomic output, or standard output. */
struct sp_cli_csv {
	FILE *fp;		/* write here; stdout for "-"; NULL when not open */
	bool open;		/* @tf is open (a file, not standard output) */
	const char *path;	/* the target, for messages */
	struct sp_tempfile tf;
};

struct sp_view_opts;

/**
 * sp_cli_csv_open - create the temporary file of a CSV output
 * @csv: filled in
 * @path: the target, or "-" for standard output
 * @trace_path: the input, never written over
 * @image_path: the image written in the same run (NULL: none), never the same file
 *
 * Prints errors.  Return: SP_EXIT_OK, SP_EXIT_USAGE (the CSV would write
 * over the input or the image, or share standard output with it) or
 * SP_EXIT_FAILURE.
 */
int sp_cli_csv_open(struct sp_cli_csv *csv, const char *path, const char *trace_path,
		    const char *image_path);

/**
 * sp_cli_csv_close - put the CSV in place, or throw it away
 * @csv: opened with sp_cli_csv_open() (or zeroed: nothing happens)
 * @commit: flush, sync and rename; false removes the temporary file
 *
 * Prints errors.  Return: SP_EXIT_OK or SP_EXIT_FAILURE.
 */
int sp_cli_csv_close(struct sp_cli_csv *csv, bool commit);

/**
 * sp_cli_base_name - the file name of a path, for default titles
 * @path: a path
 *
 * Return: the part after the last '/' (all of @path when there is none).
 */
const char *sp_cli_base_name(const char *path);

#endif /* SP_CLI_H */
