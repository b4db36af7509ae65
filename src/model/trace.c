// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace: a file and the model built from it in one pass.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/base/alloc.h"
#include "schedplot/base/error.h"
#include "schedplot/model/trace.h"
#include "schedplot/trace/cpustats.h"

static void add_marker(void *data, const char *text)
{
	struct sp_trace *t = data;

	t->nr_topology_markers++;
	if (!t->topology_err.code)
		sp_topology_parse_marker(&t->topology, text, strlen(text), &t->topology_err);
}

/* The topology markers: all of them, or none when one is damaged. */
static void read_topology(struct sp_trace *t)
{
	sp_error_clear(&t->topology_err);
	sp_reader_scan_markers(t->reader, SP_TOPOLOGY_MARKER_PREFIX, add_marker, t);
	t->has_topology = t->nr_topology_markers && !t->topology_err.code;
	if (!t->has_topology)
		sp_topology_release(&t->topology);
}

/* The reader and the records' time span: what can fail in sp_trace_open(). */
static int open_span(struct sp_trace *t, const char *path, struct sp_error *err)
{
	bool any = false;
	int cpu;

	memset(t, 0, sizeof(*t));
	t->path = path;
	t->reader = sp_reader_open(path, err);
	if (!t->reader)
		return err && err->code ? err->code : -EIO;
	t->nr_cpus = sp_reader_nr_cpus(t->reader);
	t->start_ns = sp_alloc_array(t->nr_cpus, sizeof(*t->start_ns));
	t->from_t0 = sp_alloc_array(t->nr_cpus, sizeof(*t->from_t0));
	if (!t->start_ns || !t->from_t0) {
		sp_trace_close(t);
		return sp_error_set(err, -ENOMEM, -1, "out of memory");
	}
	t->first_ns = UINT64_MAX;
	for (cpu = 0; cpu < t->nr_cpus; cpu++) {
		uint64_t first, last;

		t->start_ns[cpu] = SP_NO_TS;
		if (sp_reader_cpu_span(t->reader, cpu, &first, &last))
			continue;
		any = true;
		t->start_ns[cpu] = first;
		if (first < t->first_ns)
			t->first_ns = first;
		if (last != UINT64_MAX && last > t->end_ns)
			t->end_ns = last;
	}
	if (!any) {
		sp_trace_close(t);
		return sp_error_set(err, -ENODATA, -1,
				    "the trace holds no records (was tracing on while recording?)");
	}
	return 0;
}

int sp_trace_check(const char *path, struct sp_error *err)
{
	struct sp_trace t;
	int ret = open_span(&t, path, err);

	if (!ret)
		sp_trace_close(&t);
	return ret;
}

/*
 * Whether CPU @cpu, whose first record comes after t0, lost nothing: with
 * @presume, taken from its statistics alone where its pages' flags would
 * cost a decompression of its data (counted in t->nr_presumed).
 */
static bool lost_nothing(struct sp_trace *t, int cpu, bool presume)
{
	struct sp_cpu_stats st;

	if (presume && sp_reader_cpu_marker_costly(t->reader, cpu)) {
		if (sp_reader_cpu_stats(t->reader, cpu, &st) || !sp_cpu_stats_lossless(&st))
			return false;
		t->nr_presumed++;
		return true;
	}
	return sp_reader_cpu_lossless(t->reader, cpu);
}

int sp_trace_open_flags(struct sp_trace *t, const char *path, unsigned int flags,
			struct sp_error *err)
{
	int cpu, ret = open_span(t, path, err);

	if (ret)
		return ret;
	/*
	 * doc/design.md: a CPU that lost nothing recorded everything from the
	 * trace's start, t0, so it is complete from there (its first sched
	 * record's common_pid was current since t0); any other CPU only from
	 * its first record.  Whether it lost nothing reads all its pages, so
	 * that is asked only of CPUs whose first record comes after t0.
	 */
	for (cpu = 0; cpu < t->nr_cpus; cpu++) {
		if (t->start_ns[cpu] == SP_NO_TS)
			continue;
		if (t->start_ns[cpu] > t->first_ns &&
		    lost_nothing(t, cpu, flags & SP_TRACE_PRESUME_LOSSLESS)) {
			t->start_ns[cpu] = t->first_ns;
			t->from_t0[cpu] = true;
			t->nr_from_t0++;
		}
		if (t->start_ns[cpu] > t->window_start_ns)
			t->window_start_ns = t->start_ns[cpu];
	}
	if (t->end_ns < t->window_start_ns)
		t->end_ns = t->window_start_ns;
	read_topology(t);
	return 0;
}

int sp_trace_open(struct sp_trace *t, const char *path, struct sp_error *err)
{
	return sp_trace_open_flags(t, path, 0, err);
}

/*
 * After a pass, the CPUs presumed to have lost nothing: their pages were
 * read, so asking costs nothing.  Return: 0 when each lost nothing indeed.
 */
static int check_presumed(struct sp_trace *t, struct sp_error *err)
{
	int cpu;

	for (cpu = 0; cpu < t->nr_cpus && t->nr_presumed; cpu++)
		if (t->from_t0[cpu] && sp_reader_cpu_marker(t->reader, cpu))
			return sp_error_set(err, SP_TRACE_START_OVER, -1,
					    "CPU %d lost records its statistics do not count: "
					    "open the trace again, presuming nothing", cpu);
	t->nr_presumed = 0;
	return 0;
}

static int feed_model(const struct sp_event *ev, void *data)
{
	return sp_model_add(data, ev);
}

static int one_pass(struct sp_trace *t, bool from_waking, const struct sp_pass *pass,
		    const struct sp_model_filter *filter, struct sp_error *err)
{
	int ret, pid;

	if (t->has_model)
		sp_model_release(&t->model);
	t->has_model = false;
	ret = sp_model_init(&t->model, t->nr_cpus, t->start_ns, t->end_ns, from_waking, pass,
			    filter);
	if (ret)
		return sp_error_set(err, ret, -1, "out of memory");
	t->has_model = true;
	if (t->keep_notes) {
		t->model.keep_repair_notes = t->keep_notes;
		sp_reader_keep_lost_notes(t->reader, t->keep_notes);
	}
	/*
	 * the model reads only the wakeup it was told to use, and the
	 * sched_waking records that name the wakers of sched_wakeup
	 */
	sp_reader_set_skipped(t->reader, from_waking ? 1u << SP_EV_WAKEUP : 0);
	ret = sp_reader_read(t->reader, feed_model, &t->model, err);
	if (!ret)
		ret = sp_model_finish(&t->model);
	if (ret)
		return err && err->code ? err->code : sp_error_set(err, ret, -1, "out of memory");
	/* name tasks the sched records never named, from the saved cmdlines */
	for (size_t i = 0; i < t->model.tasks.nr; i++) {
		const char *comm;

		if (t->model.tasks.v[i].comm)
			continue;
		pid = t->model.tasks.v[i].pid;
		comm = sp_reader_comm(t->reader, pid);
		if (comm && sp_model_set_comm(&t->model, pid, comm))
			return sp_error_set(err, -ENOMEM, -1, "out of memory");
	}
	return 0;
}

int sp_trace_run(struct sp_trace *t, const struct sp_pass *pass,
		 const struct sp_model_filter *filter, struct sp_error *err)
{
	int ret;

	if (pass && pass->error)
		return sp_error_set(err, pass->error, -1, "more consumers of one pass than it takes");
	ret = one_pass(t, false, pass, filter, err);

	if (ret)
		return ret;
	if (!t->model.nr_by_type[SP_EV_WAKEUP] && t->model.nr_by_type[SP_EV_WAKING]) {
		sp_pass_reset(pass);
		ret = one_pass(t, true, pass, filter, err);
		if (ret)
			return ret;
	}
	ret = check_presumed(t, err);
	if (ret)
		return ret;
	if (!t->model.nr_sched_records)
		return sp_error_set(err, -ENOMSG, -1,
				    "no scheduler events in %llu records (record with "
				    "-e sched:sched_switch -e sched:sched_wakeup)",
				    (unsigned long long)t->model.nr_records);
	return 0;
}

struct first_event {
	int request;
	uint64_t ts_ns;
};

static int stop_at_first(const struct sp_event *ev, void *data)
{
	struct first_event *f = data;

	if (ev->type != SP_EV_EXTRA || ev->extra != f->request)
		return 0;
	f->ts_ns = ev->ts_ns;
	return 1;
}

int sp_trace_first_event(struct sp_trace *t, const char *name, uint64_t *ts_ns,
			 struct sp_error *err)
{
	struct first_event f = { .ts_ns = UINT64_MAX };
	int ret;

	f.request = sp_reader_request_event(t->reader, name, NULL, 0, err);
	if (f.request < 0)
		return -ENOENT;
	ret = sp_reader_read(t->reader, stop_at_first, &f, err);
	if (ret < 0)
		return ret;
	if (f.ts_ns == UINT64_MAX)
		return -ENODATA;
	*ts_ns = f.ts_ns;
	return 0;
}

void sp_trace_close(struct sp_trace *t)
{
	if (t->has_model)
		sp_model_release(&t->model);
	sp_reader_close(t->reader);
	sp_topology_release(&t->topology);
	free(t->start_ns);
	free(t->from_t0);
	memset(t, 0, sizeof(*t));
}
