// SPDX-License-Identifier: GPL-2.0-only
/*
 * record: a private tracefs instance -> trace-cmd file, through the writer.
 *
 * Order of work: check root and tracefs; create the instance and size its
 * buffers; enable the events (a missing optional one is noted, a missing
 * requested one is an error naming close matches); open each CPU's raw
 * buffer; open the writer (its spool lives beside the output); trace on;
 * write the topology markers; start the command; copy full pages to the
 * writer until the command exits, the time is up or a signal says stop;
 * trace off; flush the partial pages; save formats, command lines and
 * per-CPU statistics; close the writer (atomic rename); destroy the
 * instance.  Every failure path destroys the instance and aborts the writer.
 */
#define _GNU_SOURCE	/* asprintf */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <traceevent/kbuffer.h>
#include <tracefs.h>

#include "schedplot/base/alloc.h"
#include "schedplot/base/error.h"
#include "schedplot/trace/record.h"
#include "schedplot/trace/writer.h"

#define TOPOLOGY_PER_MARKER	64

static const struct {
	const char *system;
	const char *event;
	bool required;
} default_events[] = {
	{ "sched", "sched_switch", true },
	{ "sched", "sched_wakeup", true },
	{ "sched", "sched_wakeup_new", true },
	{ "sched", "sched_waking", false },
	{ "sched", "sched_migrate_task", true },
	{ "sched", "sched_process_fork", true },
	{ "sched", "sched_process_exec", true },
	{ "sched", "sched_process_exit", true },
	{ "power", "cpu_frequency", false },
	{ "power", "cpu_idle", false },
};

struct rec {
	const struct sp_record_options *o;
	struct sp_record_result *res;
	struct sp_error *err;
	struct tracefs_instance *inst;
	struct tracefs_cpu **tcpu;
	int nr_cpus;
	struct sp_writer *w;
	void *page;
	int page_size;
	struct kbuffer *kbuf;	/* walks the pages saved, to count their records */
	char (*enabled)[2][64];	/* system, event */
	int nr_enabled;
	size_t alloc_enabled;
	pid_t child;
	char *marker_path;	/* the instance's trace_marker, for the command */
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* Edit distance of two short names (for "did you mean"). */
static int distance(const char *a, const char *b)
{
	int la = strlen(a), lb = strlen(b), i, j;
	int row[128];

	if (la > 120 || lb > 120)
		return 1000;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		int prev = row[0], tmp;

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			int best = prev + (a[i - 1] != b[j - 1]);

			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			tmp = row[j];
			row[j] = best;
			prev = tmp;
		}
	}
	return row[lb];
}

/* "unknown event S:E (did you mean: a:b, c:d?)" */
static int unknown_event(struct rec *r, const char *sys, const char *ev)
{
	char **systems = tracefs_event_systems(NULL);
	char list[160] = "";
	size_t len = 0;
	int i, j, found = 0;

	for (i = 0; systems && systems[i] && found < 5; i++) {
		char **events = tracefs_system_events(NULL, systems[i]);

		for (j = 0; events && events[j] && found < 5; j++) {
			const char *e = events[j];
			bool close = strstr(e, ev) || (strlen(ev) > 3 && strstr(ev, e)) ||
				     distance(e, ev) <= 2;

			if (!close || len + strlen(systems[i]) + strlen(e) + 4 >= sizeof(list))
				continue;
			len += snprintf(list + len, sizeof(list) - len, "%s%s:%s",
					found ? ", " : "", systems[i], e);
			found++;
		}
		tracefs_list_free(events);
	}
	tracefs_list_free(systems);
	if (found)
		return sp_error_set(r->err, -ENOENT, -1, "unknown event '%s:%s' (did you mean %s?)",
				    sys, ev, list);
	return sp_error_set(r->err, -ENOENT, -1,
			    "unknown event '%s:%s' (trace-cmd list -e shows the events this kernel has)",
			    sys, ev);
}

static int enable(struct rec *r, const char *sys, const char *ev, bool required)
{
	char *fmt;
	int size;

	fmt = tracefs_event_file_read(NULL, sys, ev, "format", &size);
	if (!fmt) {
		if (required)
			return unknown_event(r, sys, ev);
		snprintf(r->res->missing + strlen(r->res->missing),
			 sizeof(r->res->missing) - strlen(r->res->missing), "%s%s:%s",
			 r->res->missing[0] ? " " : "", sys, ev);
		return 0;
	}
	if (tracefs_event_enable(r->inst, sys, ev) < 0) {
		free(fmt);
		return sp_error_set(r->err, errno ? -errno : -EIO, -1,
				    "cannot enable the event %s:%s: %s", sys, ev, strerror(errno));
	}
	if (sp_grow_array(&r->enabled, &r->alloc_enabled, r->nr_enabled + 1,
			  sizeof(*r->enabled)) < 0) {
		free(fmt);
		return sp_error_set(r->err, -ENOMEM, -1, "out of memory");
	}
	free(fmt);
	snprintf(r->enabled[r->nr_enabled][0], 64, "%s", sys);
	snprintf(r->enabled[r->nr_enabled][1], 64, "%s", ev);
	r->nr_enabled++;
	r->res->nr_events++;
	return 0;
}

static int enable_spec(struct rec *r, const char *spec);

static int enable_events(struct rec *r)
{
	size_t i;
	int k, ret;

	for (i = 0; i < sizeof(default_events) / sizeof(default_events[0]); i++) {
		ret = enable(r, default_events[i].system, default_events[i].event,
			     default_events[i].required);
		if (ret)
			return ret;
	}
	for (k = 0; k < r->o->nr_events; k++) {
		ret = enable_spec(r, r->o->events[k]);
		if (ret)
			return ret;
	}
	return 0;
}

/* Enable @sys:@ev unless it is already.  Return: 0 or a negative code. */
static int enable_once(struct rec *r, const char *sys, const char *ev)
{
	int i;

	for (i = 0; i < r->nr_enabled; i++)
		if (!strcmp(r->enabled[i][0], sys) && !strcmp(r->enabled[i][1], ev))
			return 0;
	return enable(r, sys, ev, true);
}

/*
 * One -e, as trace-cmd record takes it: SYSTEM:EVENT, SYSTEM (all its
 * events), EVENT (in whichever system has it), each part a glob
 * ("sched:*", "irq:irq_handler_*").  ftrace:print is always saved: its
 * records are what is written to the instance's trace_marker.
 * Return: 0 or a negative code (@r->err says which).
 */
static int enable_spec(struct rec *r, const char *spec)
{
	const char *colon = strchr(spec, ':');
	char sys[64], ev[64], **systems;
	int i, j, nr = 0, ret = 0;

	if (colon ? (colon == spec || !colon[1] || (size_t)(colon - spec) >= sizeof(sys) ||
		     strlen(colon + 1) >= sizeof(ev) || strchr(colon + 1, ':')) :
		    (!*spec || strlen(spec) >= sizeof(ev)))
		return sp_error_set(r->err, -EINVAL, -1,
				    "'%s' is not SYSTEM:EVENT, SYSTEM or EVENT (for example "
				    "sched:sched_switch, sched or 'irq:*')", spec);
	if (colon) {
		snprintf(sys, sizeof(sys), "%.*s", (int)(colon - spec), spec);
		snprintf(ev, sizeof(ev), "%s", colon + 1);
	} else {
		snprintf(sys, sizeof(sys), "%s", spec);
		strcpy(ev, "*");
	}
	if (!strcmp(sys, "ftrace") && !fnmatch(ev, "print", 0))
		return 0;
	systems = tracefs_event_systems(NULL);
	for (i = 0; systems && systems[i] && !ret; i++) {
		char **events;

		if (fnmatch(sys, systems[i], 0) || !strcmp(systems[i], "ftrace"))
			continue;
		events = tracefs_system_events(NULL, systems[i]);
		for (j = 0; events && events[j] && !ret; j++)
			if (!fnmatch(ev, events[j], 0)) {
				ret = enable_once(r, systems[i], events[j]);
				nr++;
			}
		tracefs_list_free(events);
	}
	/* no system of that name: an event of any system, as trace-cmd takes it */
	for (i = 0; !colon && !nr && systems && systems[i] && !ret; i++) {
		char **events = tracefs_system_events(NULL, systems[i]);

		for (j = 0; events && events[j] && !ret; j++)
			if (strcmp(systems[i], "ftrace") && !fnmatch(spec, events[j], 0)) {
				ret = enable_once(r, systems[i], events[j]);
				nr++;
			}
		tracefs_list_free(events);
	}
	tracefs_list_free(systems);
	if (!ret && !nr)
		return colon ? unknown_event(r, sys, ev) : unknown_event(r, "*", spec);
	return ret;
}

static long read_sysfs_num(int cpu, const char *what)
{
	char path[128], buf[32];
	ssize_t n;
	long v;
	int fd;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, what);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	v = strtol(buf, NULL, 10);
	return v == 65535 ? -1 : v;	/* "no such level" on some kernels */
}

static long numa_node(int cpu)
{
	char path[64];
	struct dirent *e;
	long node = -1;
	DIR *d;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", cpu);
	d = opendir(path);
	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, "node", 4) && e->d_name[4] >= '0' && e->d_name[4] <= '9')
			node = strtol(e->d_name + 4, NULL, 10);
	closedir(d);
	return node;
}

/* The topology, as print records in the instance's buffer (see record.h). */
static int write_topology(struct rec *r)
{
	char line[64 * TOPOLOGY_PER_MARKER + 64];
	size_t len = 0;
	int cpu, n = 0;

	if (tracefs_print_init(r->inst) < 0)
		return sp_error_set(r->err, -EIO, -1, "cannot open the instance's trace_marker");
	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		if (!n)
			len = snprintf(line, sizeof(line), "%s", SP_RECORD_TOPOLOGY_TAG);
		len += snprintf(line + len, sizeof(line) - len, " %d:%ld:%ld:%ld:%ld:%ld", cpu,
				read_sysfs_num(cpu, "core_id"), read_sysfs_num(cpu, "die_id"),
				read_sysfs_num(cpu, "cluster_id"),
				read_sysfs_num(cpu, "physical_package_id"), numa_node(cpu));
		if (++n == TOPOLOGY_PER_MARKER || cpu == r->nr_cpus - 1) {
			if (tracefs_printf(r->inst, "%s\n", line) < 0)
				return sp_error_set(r->err, -EIO, -1,
						    "cannot write the topology to trace_marker");
			n = 0;
		}
	}
	return 0;
}

static int start_command(struct rec *r)
{
	int pipefd[2], e = 0;
	ssize_t n;

	if (pipe2(pipefd, O_CLOEXEC))
		return sp_error_set(r->err, -errno, -1, "cannot run the command: %s",
				    strerror(errno));
	r->child = fork();
	if (r->child < 0) {
		close(pipefd[0]);
		close(pipefd[1]);
		return sp_error_set(r->err, -errno, -1, "cannot run the command: %s",
				    strerror(errno));
	}
	if (!r->child) {
		close(pipefd[0]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		/* where the command writes what it wants recorded as ftrace:print */
		if (r->marker_path)
			setenv("SCHEDPLOT_TRACE_MARKER", r->marker_path, 1);
		execvp(r->o->argv[0], r->o->argv);
		e = errno;
		if (write(pipefd[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(pipefd[1]);
	/* the pipe closes on a successful exec, or carries its errno */
	do
		n = read(pipefd[0], &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(pipefd[0]);
	if (n == sizeof(e)) {
		waitpid(r->child, NULL, 0);
		r->child = 0;
		return sp_error_set(r->err, -e, -1, "cannot run '%s': %s", r->o->argv[0],
				    strerror(e));
	}
	r->res->command_ran = true;
	return 0;
}

/* Count the records of a page as saved (the kernel's own layout: this host's). */
static void count_records(struct rec *r)
{
	if (!r->kbuf || kbuffer_load_subbuffer(r->kbuf, r->page) < 0)
		return;
	for (void *d = kbuffer_read_event(r->kbuf, NULL); d; d = kbuffer_next_event(r->kbuf, NULL))
		r->res->records++;
}

/* Copy every full page now readable; *@got counts them. */
static int drain(struct rec *r, int *got)
{
	int cpu, n, ret;

	*got = 0;
	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		while ((n = tracefs_cpu_read(r->tcpu[cpu], r->page, true)) > 0) {
			ret = sp_writer_write_page(r->w, cpu, r->page, n, r->err);
			if (ret)
				return ret;
			count_records(r);
			r->res->pages++;
			(*got)++;
		}
	}
	return 0;
}

static int flush_all(struct rec *r)
{
	int cpu, n, ret;

	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		while ((n = tracefs_cpu_flush(r->tcpu[cpu], r->page)) > 0) {
			ret = sp_writer_write_page(r->w, cpu, r->page, n, r->err);
			if (ret)
				return ret;
			count_records(r);
			r->res->pages++;
		}
	}
	return 0;
}

static int record_loop(struct rec *r)
{
	uint64_t deadline = r->o->duration_s > 0 ? now_ns() + r->o->duration_s * 1e9 : 0;
	int status, got, ret;

	for (;;) {
		ret = drain(r, &got);
		if (ret)
			return ret;
		if (r->o->stop && *r->o->stop)
			break;
		if (deadline && now_ns() >= deadline)
			break;
		if (r->child > 0 && waitpid(r->child, &status, WNOHANG) == r->child) {
			r->child = 0;
			r->res->command_status = status;
			break;
		}
		if (!got)
			poll(NULL, 0, 50);
	}
	return 0;
}

/* /proc/kallsyms, for the names of the addresses of kernel stacks. */
static int save_kallsyms(struct rec *r)
{
	char buf[65536];
	ssize_t n;
	int fd, ret = 0;

	fd = open("/proc/kallsyms", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return sp_error_set(r->err, -errno, -1, "cannot read /proc/kallsyms: %s",
				    strerror(errno));
	while (!ret && (n = read(fd, buf, sizeof(buf))) > 0)
		ret = sp_writer_add_kallsyms_text(r->w, buf, n, r->err);
	if (!ret && n < 0)
		ret = sp_error_set(r->err, -errno, -1, "cannot read /proc/kallsyms: %s",
				   strerror(errno));
	close(fd);
	return ret;
}

/* Everything but the pages: formats, command lines, per-CPU statistics. */
static int save_metadata(struct rec *r)
{
	char *text, *p;
	int i, size, ret = 0;

	text = tracefs_event_file_read(NULL, "ftrace", "print", "format", &size);
	if (text)
		ret = sp_writer_add_format(r->w, "ftrace", text, size, r->err);
	free(text);
	if (r->o->sleep_stacks && !ret) {
		text = tracefs_event_file_read(NULL, "ftrace", "kernel_stack", "format", &size);
		if (!text)
			return sp_error_set(r->err, -EIO, -1,
					    "cannot read the format of ftrace:kernel_stack");
		ret = sp_writer_add_format(r->w, "ftrace", text, size, r->err);
		free(text);
		if (!ret)
			ret = save_kallsyms(r);
	}
	for (i = 0; i < r->nr_enabled && !ret; i++) {
		text = tracefs_event_file_read(NULL, r->enabled[i][0], r->enabled[i][1], "format",
					       &size);
		if (!text)
			return sp_error_set(r->err, -EIO, -1, "cannot read the format of %s:%s",
					    r->enabled[i][0], r->enabled[i][1]);
		ret = sp_writer_add_format(r->w, r->enabled[i][0], text, size, r->err);
		free(text);
	}
	text = tracefs_instance_file_read(NULL, "saved_cmdlines", &size);
	if (text && !ret)
		ret = sp_writer_add_cmdlines_text(r->w, text, size, r->err);
	free(text);
	for (i = 0; i < r->nr_cpus && !ret; i++) {
		char name[64];

		snprintf(name, sizeof(name), "per_cpu/cpu%d/stats", i);
		text = tracefs_instance_file_read(r->inst, name, &size);
		if (!text)
			continue;
		p = strstr(text, "overrun:");
		if (p)
			r->res->lost += strtoull(p + 8, NULL, 10);
		p = strstr(text, "dropped events:");
		if (p)
			r->res->lost += strtoull(p + 15, NULL, 10);
		ret = sp_writer_add_option(r->w, SP_WRITER_OPT_CPUSTAT, text, strlen(text) + 1, r->err);
		free(text);
	}
	return ret;
}

static char *read_events_file(const char *name)
{
	char *path = tracefs_get_tracing_file(name);
	char buf[4096];
	ssize_t n;
	int fd;

	if (!path)
		return NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	tracefs_put_tracing_file(path);
	if (fd < 0)
		return NULL;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	return strdup(buf);
}

static int setup(struct rec *r)
{
	struct sp_writer_options wo = { 0 };
	char name[64], kb[32];
	char *hp = NULL, *he = NULL, *clock = NULL;
	int cpu, ret;

	if (geteuid() != 0)
		return sp_error_set(r->err, -EPERM, -1,
				    "recording needs root (tracefs and the ring buffers are root-only); try: sudo schedplot record ...");
	if (!tracefs_tracing_dir() || access(tracefs_tracing_dir(), W_OK))
		return sp_error_set(r->err, -ENOENT, -1,
				    "tracefs is not mounted; mount it with: mount -t tracefs nodev /sys/kernel/tracing");
	r->nr_cpus = sysconf(_SC_NPROCESSORS_CONF);
	if (r->nr_cpus < 1)
		r->nr_cpus = 1;
	r->res->nr_cpus = r->nr_cpus;
	snprintf(name, sizeof(name), "schedplot-%d", (int)getpid());
	r->inst = tracefs_instance_create(name);
	if (!r->inst)
		return sp_error_set(r->err, errno ? -errno : -EIO, -1,
				    "cannot create the tracefs instance %s: %s", name,
				    strerror(errno));
	snprintf(kb, sizeof(kb), "%u", r->o->buffer_kb ? r->o->buffer_kb : 8192);
	if (tracefs_instance_file_write(r->inst, "buffer_size_kb", kb) < 0)
		return sp_error_set(r->err, -ENOMEM, -1,
				    "cannot set the ring buffers to %s KiB per CPU (try a smaller --buffer-size)",
				    kb);
	ret = enable_events(r);
	if (ret)
		return ret;
	if (r->o->sleep_stacks && tracefs_event_file_write(r->inst, "sched", "sched_switch",
							   "trigger", SP_RECORD_SLEEP_STACKS) < 0)
		return sp_error_set(r->err, -EIO, -1,
				    "cannot set the stacktrace trigger on sched_switch: %s",
				    strerror(errno));
	r->marker_path = tracefs_instance_get_file(r->inst, "trace_marker");
	r->tcpu = sp_alloc_array(r->nr_cpus, sizeof(*r->tcpu));
	if (!r->tcpu)
		return sp_error_set(r->err, -ENOMEM, -1, "out of memory");
	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		r->tcpu[cpu] = tracefs_cpu_open(r->inst, cpu, true);
		if (!r->tcpu[cpu])
			return sp_error_set(r->err, errno ? -errno : -EIO, -1,
					    "cannot open the ring buffer of CPU %d: %s", cpu,
					    strerror(errno));
		if (!r->page_size)
			r->page_size = tracefs_cpu_read_size(r->tcpu[cpu]);
	}
	r->page = malloc(r->page_size > 0 ? r->page_size : 4096);
	r->kbuf = kbuffer_alloc(KBUFFER_LSIZE_SAME_AS_HOST, KBUFFER_ENDIAN_SAME_AS_HOST);
	if (!r->page || !r->kbuf)
		return sp_error_set(r->err, -ENOMEM, -1, "out of memory");

	hp = read_events_file("events/header_page");
	he = read_events_file("events/header_event");
	clock = tracefs_get_clock(r->inst);
	wo.file_version = r->o->file_version;
	wo.compression = r->o->compression;
	wo.nr_cpus = r->nr_cpus;
	wo.page_size = r->page_size;
	wo.clock = clock;
	wo.header_page = hp;
	wo.header_event = he;
	wo.trace_id = ((uint64_t)getpid() << 32) ^ now_ns();
	r->w = sp_writer_open(r->o->output, &wo, r->err);
	free(hp);
	free(he);
	free(clock);
	return r->w ? 0 : r->err->code;
}

static void cleanup(struct rec *r)
{
	int cpu;

	if (r->inst)
		tracefs_trace_off(r->inst);
	if (r->child > 0) {
		kill(r->child, SIGTERM);
		waitpid(r->child, NULL, 0);
	}
	for (cpu = 0; r->tcpu && cpu < r->nr_cpus; cpu++)
		if (r->tcpu[cpu])
			tracefs_cpu_close(r->tcpu[cpu]);
	if (r->inst && r->o->sleep_stacks)
		tracefs_event_file_write(r->inst, "sched", "sched_switch", "trigger",
					 "!" SP_RECORD_SLEEP_STACKS);
	if (r->inst) {
		/* an open trace_marker keeps the instance busy */
		tracefs_print_close(r->inst);
		tracefs_instance_destroy(r->inst);
		tracefs_instance_free(r->inst);
	}
	sp_writer_abort(r->w);
	free(r->tcpu);
	free(r->page);
	kbuffer_free(r->kbuf);
	free(r->enabled);
	tracefs_put_tracing_file(r->marker_path);
}

int sp_record_run(const struct sp_record_options *opts, struct sp_record_result *res,
		  struct sp_error *err)
{
	struct rec r = { .o = opts, .res = res, .err = err };
	int ret;

	memset(res, 0, sizeof(*res));
	sp_error_clear(err);
	ret = setup(&r);
	if (!ret && tracefs_trace_on(r.inst) < 0)
		ret = sp_error_set(err, -EIO, -1, "cannot start tracing in the instance");
	if (!ret)
		ret = write_topology(&r);
	if (!ret && opts->argv && opts->argv[0])
		ret = start_command(&r);
	if (!ret)
		ret = record_loop(&r);
	if (r.inst)
		tracefs_trace_off(r.inst);
	if (!ret)
		ret = flush_all(&r);
	if (!ret)
		ret = save_metadata(&r);
	if (!ret) {
		ret = sp_writer_close(r.w, err);
		r.w = NULL;
	}
	cleanup(&r);
	return ret;
}
