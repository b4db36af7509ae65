// SPDX-License-Identifier: GPL-2.0-only
/*
 * Messages, progress and the load step shared by every subcommand.  All
 * user-facing text of the CLI goes through here.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "schedplot/base/error.h"
#include "schedplot/base/tempfile.h"
#include "schedplot/cli/cli.h"
#include "schedplot/draw/output.h"
#include "schedplot/model/trace.h"

struct sp_cli_common sp_cli;

/* where this thread's messages go: stderr, or a job's buffer (parallel.c) */
static __thread FILE *capture;

void sp_cli_capture(FILE *fp)
{
	capture = fp;
}

/* the other threads keep every CPU busy: no helper thread for this one's traces */
static __thread bool cpus_busy;

void sp_cli_cpus_busy(bool busy)
{
	cpus_busy = busy;
}

static FILE *msgs(void)
{
	return capture ? capture : stderr;
}

/* sp_cli_hush_until_pass() */
static bool hushed;

void sp_cli_hush_until_pass(void)
{
	hushed = true;
}

void sp_cli_error(const char *file, const struct sp_error *err)
{
	fputs("schedplot: ", msgs());
	if (file)
		fprintf(msgs(), "%s: ", file);
	if (err->offset >= 0)
		fprintf(msgs(), "offset 0x%llx: ", (unsigned long long)err->offset);
	fprintf(msgs(), "%s\n", err->msg[0] ? err->msg : strerror(-err->code));
}

/* One line on stderr: "schedplot: FILE: message" (no FILE when NULL). */
static void message(const char *file, const char *fmt, va_list ap)
{
	fputs("schedplot: ", msgs());
	if (file)
		fprintf(msgs(), "%s: ", file);
	vfprintf(msgs(), fmt, ap);
	fputc('\n', msgs());
}

int sp_cli_fail(const char *file, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	message(file, fmt, ap);
	va_end(ap);
	return SP_EXIT_FAILURE;
}

int sp_cli_fail_code(const char *file, int code, const char *what)
{
	if (code == -ENOMEM)
		return sp_cli_fail(file, "out of memory");
	return sp_cli_fail(file, "%s: %s", what, strerror(code < 0 ? -code : code));
}

int sp_cli_usage(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fputs("schedplot: ", msgs());
	va_start(ap, fmt);
	vfprintf(msgs(), fmt, ap);
	va_end(ap);
	fprintf(msgs(), "\nTry 'schedplot%s%s --help'.\n", cmd ? " " : "", cmd ? cmd : "");
	return SP_EXIT_USAGE;
}

/* The entry of @options named exactly @name (@len bytes), or NULL. */
static const struct option *find_option(const struct option *options, const char *name,
					size_t len)
{
	for (; options && options->name; options++)
		if (strlen(options->name) == len && !strncmp(options->name, name, len))
			return options;
	return NULL;
}

int sp_cli_bad_option(const char *cmd, const struct option *options,
		      const struct option *others, int opt, char **argv)
{
	const char *arg = optind > 0 ? argv[optind - 1] : "";
	const struct option *o;
	char list[256];
	size_t len, n = 0;
	int nr = 0;

	if (strncmp(arg, "--", 2) || !arg[2]) {
		/* a short option: getopt_long says which in optopt */
		if (opt == ':')
			return sp_cli_usage(cmd, "option '-%c' needs a value", optopt);
		if (optopt > 0 && optopt < 256)
			return sp_cli_usage(cmd, "unknown option '-%c'", optopt);
		return sp_cli_usage(cmd, "unknown option '%s'", arg);
	}
	arg += 2;
	len = strcspn(arg, "=");
	if (opt == ':')
		return sp_cli_usage(cmd, "option '--%.*s' needs a value", (int)len, arg);
	if (find_option(others, arg, len) && !find_option(options, arg, len))
		return sp_cli_usage(cmd, "--%.*s does not apply to %s", (int)len, arg, cmd);
	list[0] = '\0';
	for (o = options; o->name; o++) {
		if (strncmp(o->name, arg, len))
			continue;
		if (nr++ && n < sizeof(list))
			n += snprintf(list + n, sizeof(list) - n, ", ");
		if (n < sizeof(list))
			n += snprintf(list + n, sizeof(list) - n, "--%s", o->name);
	}
	if (nr > 1)
		return sp_cli_usage(cmd, "option '--%.*s' is ambiguous (%s)", (int)len, arg, list);
	if (nr == 1 && arg[len] == '=')
		return sp_cli_usage(cmd, "option '--%.*s' takes no value", (int)len, arg);
	return sp_cli_usage(cmd, "unknown option '--%.*s'", (int)len, arg);
}

void sp_cli_warn(const char *fmt, ...)
{
	va_list ap;

	if (sp_cli.quiet || hushed)
		return;
	fputs("schedplot: warning: ", msgs());
	va_start(ap, fmt);
	vfprintf(msgs(), fmt, ap);
	va_end(ap);
	fputc('\n', msgs());
}

void sp_cli_note(const char *file, const char *fmt, ...)
{
	va_list ap;

	if (!sp_cli.verbose || hushed)
		return;
	va_start(ap, fmt);
	message(file, fmt, ap);
	va_end(ap);
}

void sp_cli_notice(const char *file, const char *fmt, ...)
{
	va_list ap;

	if (sp_cli.quiet || hushed)
		return;
	fputs("schedplot: ", msgs());
	if (file)
		fprintf(msgs(), "%s: ", file);
	fputs("note: ", msgs());
	va_start(ap, fmt);
	vfprintf(msgs(), fmt, ap);
	va_end(ap);
	fputc('\n', msgs());
}

bool sp_cli_parse_common(int opt)
{
	switch (opt) {
	case 'v':
		sp_cli.verbose++;
		return true;
	case 'q':
		sp_cli.quiet = true;
		return true;
	}
	return false;
}

char *sp_cli_zoom_command(char *buf, size_t len, const char *view, uint64_t start_ns,
			  uint64_t dur_ns, const char *file)
{
	uint64_t pad = dur_ns / 2 > 50000 ? dur_ns / 2 : 50000;
	uint64_t from = (start_ns > pad ? start_ns - pad : 0) / 1000;
	uint64_t to = (start_ns + dur_ns + pad + 999) / 1000;

	snprintf(buf, len, "schedplot %s --time %llu.%06llu,%llu.%06llu %s", view,
		 (unsigned long long)(from / 1000000), (unsigned long long)(from % 1000000),
		 (unsigned long long)(to / 1000000), (unsigned long long)(to % 1000000), file);
	return buf;
}

int sp_cli_parse_jobs(const char *cmd, const char *arg)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(arg, &end, 10);
	if (errno || end == arg || *end || n < 1 || n > 1024)
		return sp_cli_usage(cmd, "--jobs needs a count from 1 to 1024, not '%s'", arg);
	sp_cli.jobs = (int)n;
	return 0;
}

int sp_cli_parse_choice(const char *cmd, const char *opt, const char *arg,
			const char *const *words, int *index)
{
	char list[256];
	size_t n = 0;
	int i;

	for (i = 0; words[i]; i++) {
		if (!strcmp(arg, words[i])) {
			*index = i;
			return 0;
		}
	}
	list[0] = '\0';
	for (i = 0; words[i] && n < sizeof(list); i++)
		n += snprintf(list + n, sizeof(list) - n, "%s%s", !i ? "" : words[i + 1] ? ", " :
			      " or ", words[i]);
	return sp_cli_usage(cmd, "--%s must be %s, not '%s'", opt, list, arg);
}

char *sp_cli_format_duration(char *buf, size_t len, uint64_t ns)
{
	if (ns >= 1000000000ull)
		snprintf(buf, len, "%.3f s", ns / 1e9);
	else if (ns >= 1000000ull)
		snprintf(buf, len, "%.3f ms", ns / 1e6);
	else if (ns >= 1000ull)
		snprintf(buf, len, "%.3f us", ns / 1e3);
	else
		snprintf(buf, len, "%llu ns", (unsigned long long)ns);
	return buf;
}

int sp_cli_parse_seconds(const char *arg, double *s)
{
	static const struct {
		const char *name;
		double scale;
	} units[] = {
		{ "", 1 }, { "s", 1 }, { "ms", 1e-3 }, { "us", 1e-6 }, { "ns", 1e-9 },
	};
	char *end;
	size_t i;

	/* strtod would take "inf", "nan", hex and leading blanks: a time is none of them */
	if ((!(arg[0] >= '0' && arg[0] <= '9') && arg[0] != '.') || strpbrk(arg, "xX"))
		return -EINVAL;
	errno = 0;
	*s = strtod(arg, &end);
	if (errno || end == arg || !isfinite(*s) || *s < 0)
		return -EINVAL;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (!strcmp(end, units[i].name)) {
			*s *= units[i].scale;
			return 0;
		}
	}
	return -EINVAL;
}

int sp_cli_inputs_add(struct sp_cli_inputs *in, char *path)
{
	if (in->nr == in->alloc) {
		int alloc = in->alloc ? 2 * in->alloc : 4;
		char **v = realloc(in->paths, alloc * sizeof(*v));

		if (!v)
			return sp_cli_fail(NULL, "out of memory");
		in->paths = v;
		in->alloc = alloc;
	}
	in->paths[in->nr++] = path;
	return SP_EXIT_OK;
}

int sp_cli_inputs_finish(struct sp_cli_inputs *in, const char *cmd, int max, char **operands,
			 int nr_operands)
{
	int i, ret;

	for (i = 0; i < nr_operands; i++) {
		ret = sp_cli_inputs_add(in, operands[i]);
		if (ret)
			return ret;
	}
	if (!in->nr) {
		if (access(SP_CLI_DEFAULT_TRACE, F_OK))
			return sp_cli_usage(cmd, "no trace file given, and no %s in the "
					    "current directory (name one, or -i FILE)",
					    SP_CLI_DEFAULT_TRACE);
		return sp_cli_inputs_add(in, (char *)SP_CLI_DEFAULT_TRACE);
	}
	if (in->nr > max && max == 1)
		return sp_cli_usage(cmd, "one trace file at a time ('%s' is extra)", in->paths[1]);
	if (in->nr > max)
		return sp_cli_usage(cmd, "at most %d trace files ('%s' is extra)", max,
				    in->paths[max]);
	return SP_EXIT_OK;
}

void sp_cli_inputs_release(struct sp_cli_inputs *in)
{
	free(in->paths);
	memset(in, 0, sizeof(*in));
}

/* Length of the valid UTF-8 sequence at @s, or 0 when it is not one. */
static int utf8_len(const unsigned char *s)
{
	int n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	/* overlong forms, surrogates and code points past U+10FFFF are not UTF-8 */
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] > 0x9f) ||
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] > 0x8f))
		return 0;
	return n;
}

void sp_cli_json_string(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	fputc('"', f);
	while (*s) {
		int n = utf8_len(s);

		if (*s == '"' || *s == '\\') {
			fprintf(f, "\\%c", *s);
		} else if (*s < 0x20 || *s == 0x7f) {
			fprintf(f, "\\u%04x", *s);
		} else if (!n) {
			fputs("\\ufffd", f);	/* not UTF-8: replacement character */
			n = 1;
		} else {
			fwrite(s, 1, n, f);
		}
		s += n ? n : 1;
	}
	fputc('"', f);
}

/* ---- progress on a terminal ---- */

struct progress {
	const char *path;
	struct timespec start;
	double last_print;
	bool printed;
};

static double seconds_since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - t0->tv_sec) + (now.tv_nsec - t0->tv_nsec) / 1e9;
}

static void progress_show(double fraction, uint64_t nr, void *data)
{
	struct progress *p = data;
	double t = seconds_since(&p->start);

	/* nothing for short runs, then at most a few updates a second */
	if (t < 1.0 || t - p->last_print < 0.25)
		return;
	p->last_print = t;
	p->printed = true;
	fprintf(stderr, "\rschedplot: reading %s: %3.0f%%, %.1f M records, %.1f M/s ", p->path,
		fraction * 100, nr / 1e6, nr / 1e6 / t);
	fflush(stderr);
}

static void progress_done(struct progress *p)
{
	if (p->printed)
		fputs("\r\033[K", stderr);
}

/* Print the error of opening @path, which returned @ret. */
static int open_failed(const char *path, int ret, struct sp_error *err)
{
	if (!err->code)
		err->code = ret;		/* unrecorded: report the code returned */
	sp_cli_error(path, err);
	return SP_EXIT_FAILURE;
}

int sp_cli_open(struct sp_trace *t, const char *path, unsigned int flags)
{
	struct sp_error err;
	int ret;

	sp_error_clear(&err);
	ret = sp_trace_open_flags(t, path, flags, &err);
	if (ret)
		return open_failed(path, ret, &err);
	if (cpus_busy)
		sp_reader_no_read_ahead(t->reader);
	return SP_EXIT_OK;
}

int sp_cli_check(const char *path)
{
	struct sp_error err;
	int ret;

	sp_error_clear(&err);
	ret = sp_trace_check(path, &err);
	return ret ? open_failed(path, ret, &err) : SP_EXIT_OK;
}

/* -v: each kept repair and gap, with its CPU and time as trace-cmd report prints it. */
static void list_oddities(struct sp_trace *t)
{
	const struct sp_model *m = &t->model;
	const struct sp_lost_note *gaps;
	size_t nr_gaps, nr_repairs = m->nr_repair_notes, i;
	uint64_t all_gaps, all_repairs = sp_model_nr_repairs(m);

	gaps = sp_reader_lost_notes(t->reader, &nr_gaps, &all_gaps);
	/* -v lists the first few, also when the caller kept more */
	if (sp_cli.verbose < 2 && nr_gaps > SP_READER_LOST_NOTES)
		nr_gaps = SP_READER_LOST_NOTES;
	if (sp_cli.verbose < 2 && nr_repairs > SP_MODEL_REPAIR_NOTES)
		nr_repairs = SP_MODEL_REPAIR_NOTES;
	for (i = 0; i < nr_gaps; i++) {
		bool known = gaps[i].count >= 0;

		fprintf(msgs(), "schedplot: %s: CPU %d: %llu.%09llu: lost %s%d events before this "
			"record%s\n", t->path, gaps[i].cpu,
			(unsigned long long)(gaps[i].ts_ns / 1000000000),
			(unsigned long long)(gaps[i].ts_ns % 1000000000), known ? "" : "\xe2\x89\xa5 ",
			known ? gaps[i].count : 1, known ? "" : " (the kernel did not say how many)");
	}
	if (all_gaps > nr_gaps)
		fprintf(msgs(), "schedplot: %s: %llu more gaps (-vv lists them all)\n", t->path,
			(unsigned long long)(all_gaps - nr_gaps));
	for (i = 0; i < nr_repairs; i++) {
		const struct sp_repair_note *r = &m->repair_notes[i];
		char cpu[24] = "", pid[40] = "";

		if (r->cpu >= 0)
			snprintf(cpu, sizeof(cpu), " CPU %d:", r->cpu);
		if (r->pid >= 0)
			snprintf(pid, sizeof(pid), r->kind == SP_REPAIR_MISSED_SWITCH ?
				 ", pid %d made current" : ", prev_pid %d", r->pid);
		fprintf(msgs(), "schedplot: %s:%s %llu.%09llu: repair %s%s\n", t->path, cpu,
			(unsigned long long)(r->ts_ns / 1000000000),
			(unsigned long long)(r->ts_ns % 1000000000), sp_repair_name(r->kind), pid);
	}
	if (all_repairs > nr_repairs)
		fprintf(msgs(), "schedplot: %s: %llu more repairs (-vv lists them all)\n", t->path,
			(unsigned long long)(all_repairs - nr_repairs));
}

static void report_oddities(struct sp_trace *t)
{
	const struct sp_model *m = &t->model;
	uint64_t lost = 0, repairs = sp_model_nr_repairs(m);
	int c, k, cpus_lost = 0;

	for (c = 0; c < t->nr_cpus; c++) {
		uint64_t n = sp_reader_lost_events(t->reader, c);

		lost += n;
		cpus_lost += n > 0;
		if (n && sp_cli.verbose)
			fprintf(msgs(), "schedplot: %s: CPU %d: %s%llu events lost\n", t->path, c,
				sp_reader_lost_exact(t->reader, c) ? "" : "\xe2\x89\xa5 ",
				(unsigned long long)n);
	}
	if (sp_cli.verbose)
		list_oddities(t);
	if (sp_cli.verbose)
		for (k = 0; k < SP_REPAIR_NR_KINDS; k++)
			if (m->repairs[k])
				fprintf(msgs(), "schedplot: %s: %llu repairs of kind %s\n", t->path,
					(unsigned long long)m->repairs[k], sp_repair_name(k));
	if (lost)
		sp_cli_warn("%s: events lost on %d CPU%s (ring buffer overrun, %llu or more); "
			    "record with a larger buffer (trace-cmd record -b)", t->path,
			    cpus_lost, cpus_lost == 1 ? "" : "s", (unsigned long long)lost);
	/* waiting starts at a wakeup or a preemption: without wakeups, half is unseen */
	if (m->nr_by_type[SP_EV_SWITCH] && !m->nr_by_type[SP_EV_WAKEUP] &&
	    !m->nr_by_type[SP_EV_WAKING] && !m->nr_by_type[SP_EV_WAKEUP_NEW])
		sp_cli_warn("%s: no wakeup events (sched_wakeup, sched_waking): tasks woken from "
			    "sleep are not seen waiting, so waiting is undercounted and wakeup "
			    "latency has no samples (record -e sched:sched_wakeup too)", t->path);
	/* a few missed switches are normal on some kernels; say so when they matter */
	if (repairs && (repairs * 100 > m->nr_by_type[SP_EV_SWITCH] || sp_cli.verbose))
		sp_cli_warn("%s: repaired %llu inconsistencies (%llu missed switches) from "
			    "common_pid%s", t->path, (unsigned long long)repairs,
			    (unsigned long long)m->repairs[SP_REPAIR_MISSED_SWITCH],
			    sp_cli.verbose ? "" : "; -v lists them");
}

int sp_cli_run(struct sp_trace *t, const struct sp_pass *pass,
	       const struct sp_model_filter *filter)
{
	struct progress p = { .path = t->path };
	bool again = t->has_model;	/* the same repairs and gaps as the first pass */
	struct sp_error err;
	int ret;

	sp_error_clear(&err);
	hushed = false;
	clock_gettime(CLOCK_MONOTONIC, &p.start);
	if (!sp_cli.quiet && !capture && isatty(STDERR_FILENO))
		sp_reader_set_progress(t->reader, progress_show, &p);
	/* what the caller keeps (export keeps all), or what -v lists */
	if (sp_cli.verbose >= 2)
		t->keep_notes = SIZE_MAX;
	ret = sp_trace_run(t, pass, filter, &err);
	sp_reader_set_progress(t->reader, NULL, NULL);
	progress_done(&p);
	if (ret == SP_TRACE_START_OVER)
		return SP_EXIT_START_OVER;
	if (ret) {
		if (!err.code)
			err.code = ret;
		sp_cli_error(t->path, &err);
		return SP_EXIT_FAILURE;
	}
	if (!again)
		report_oddities(t);
	return SP_EXIT_OK;
}

const char *sp_cli_base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash && slash[1] ? slash + 1 : path;
}

int sp_cli_output_error(const char *path, const struct sp_error *err)
{
	sp_cli_error(strcmp(path, "-") ? path : NULL, err);
	/* asking to write over the input is a usage error */
	return err->code == -EEXIST ? SP_EXIT_USAGE : SP_EXIT_FAILURE;
}

int sp_cli_output_format(const char *cmd, const char *path, enum sp_format *fmt)
{
	size_t len = strlen(path);
	struct stat st;

	if ((len && path[len - 1] == '/') || (!stat(path, &st) && S_ISDIR(st.st_mode)))
		return sp_cli_usage(cmd, "'%s' is a directory: give -o a file name in it, "
				    "ending in .png, .pdf or .svg", path);
	if (!strcmp(path, "-") && *fmt == SP_FORMAT_NONE)
		return sp_cli_usage(cmd, "-o - writes to standard output: say --format png, pdf "
				    "or svg");
	if (*fmt == SP_FORMAT_NONE)
		*fmt = sp_format_from_path(path);
	if (*fmt == SP_FORMAT_NONE)
		return sp_cli_usage(cmd, "cannot tell the format of '%s': name it .png, .pdf "
				    "or .svg, or give --format", path);
	return SP_EXIT_OK;
}

int sp_cli_probe_output(struct sp_output *out, const char *path, enum sp_format fmt,
			double width)
{
	struct sp_error err;

	if (!strcmp(path, "-"))
		return SP_EXIT_OK;
	sp_error_clear(&err);
	if (sp_output_open(out, path, fmt, width, 64, &err))
		return sp_cli_output_error(path, &err);
	sp_output_close(out, false, &err);
	return SP_EXIT_OK;
}

/*
 * ---- the --csv file: an atomic output (schedplot/base/tempfile.h) ----
 *
 * The CSV output's file handling, for running-waiting and overview
 * (sp_view_csv, cmd-running-waiting.c): a regular file is written beside its target and
 * renamed into place, a device, FIFO or socket is written in place.
 */

static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int sp_cli_csv_open(struct sp_cli_csv *csv, const char *path, const char *trace_path,
		    const char *image_path)
{
	struct sp_error err;

	memset(csv, 0, sizeof(*csv));
	csv->tf.fd = -1;
	if (!strcmp(path, "-")) {
		if (image_path && !strcmp(image_path, "-")) {
			sp_cli_fail(NULL, "--csv - and -o - both write to standard output; "
				    "send one of them to a file");
			return SP_EXIT_USAGE;
		}
		csv->fp = stdout;
		return SP_EXIT_OK;
	}
	if (same_file(path, trace_path)) {
		sp_cli_fail(path, "refusing to write the CSV over the input trace");
		return SP_EXIT_USAGE;
	}
	if (image_path && (!strcmp(path, image_path) || same_file(path, image_path))) {
		sp_cli_fail(path, "the CSV and the image cannot be the same file");
		return SP_EXIT_USAGE;
	}
	sp_error_clear(&err);
	if (sp_tempfile_open(&csv->tf, path, O_WRONLY | SP_TEMPFILE_DEFER, &err) ||
	    sp_tempfile_ready(&csv->tf, &err)) {
		sp_tempfile_discard(&csv->tf);
		sp_cli_error(path, &err);
		return SP_EXIT_FAILURE;
	}
	csv->open = true;
	csv->path = path;
	csv->fp = sp_tempfile_fdopen(&csv->tf, "w");
	if (!csv->fp) {
		int e = errno;

		sp_tempfile_discard(&csv->tf);
		csv->open = false;
		return sp_cli_fail(path, "cannot create the CSV file: %s", strerror(e));
	}
	return SP_EXIT_OK;
}

int sp_cli_csv_close(struct sp_cli_csv *csv, bool commit)
{
	struct sp_error err;
	int ret = SP_EXIT_OK;

	if (csv->fp == stdout) {
		if (fflush(stdout) || ferror(stdout))
			ret = sp_cli_fail(NULL, "cannot write the CSV to standard output");
		csv->fp = NULL;
		return ret;
	}
	if (!csv->open)
		return SP_EXIT_OK;
	csv->fp = NULL;
	csv->open = false;
	if (!commit) {
		sp_tempfile_discard(&csv->tf);
		return SP_EXIT_OK;
	}
	sp_error_clear(&err);
	if (sp_tempfile_commit(&csv->tf, &err)) {
		sp_cli_error(csv->path, &err);
		return SP_EXIT_FAILURE;
	}
	return SP_EXIT_OK;
}
