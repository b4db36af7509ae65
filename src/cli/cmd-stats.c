// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedplot stats: the numbers behind the pictures, as text for a bug
 * report or as one JSON object for scripts.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/analysis/stats.h"
#include "schedplot/cli/cli.h"
#include "schedplot/model/model.h"
#include "schedplot/model/trace.h"

static const char stats_usage[] =
	"usage: schedplot stats [OPTIONS] [TRACE.dat]\n"
	"\n"
	"Print what the scheduler did: per-CPU busy time, the tasks that ran most,\n"
	"how many tasks ran and waited on average, and how long a task waited while\n"
	"a CPU was idle (work conservation violated).\n"
	"\n"
	"Examples:\n"
	"  schedplot stats trace.dat              readable summary\n"
	"  schedplot stats --json trace.dat       one JSON object, times in ns\n"
	"  schedplot stats --top 40 trace.dat     list 40 tasks instead of 15\n"
	"\n"
	"Options:\n"
	"  -i, --input FILE  the trace to read (default: trace.dat)\n"
	"  -j, --json        print one JSON object (all tasks) instead of text\n"
	"  -n, --top N       tasks to list in the text summary (default 15, 0: all)\n"
	"  -v, --verbose     list what was repaired or lost in the trace\n"
	"  -q, --quiet       no progress line and no warnings\n"
	"  -h, --help        show this help\n"
	"\n"
	"See schedplot-stats(1) for the exact meaning of every number.\n";

static const struct option stats_options[] = {
	{ "input", required_argument, NULL, 'i' },
	{ "json", no_argument, NULL, 'j' },
	{ "top", required_argument, NULL, 'n' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* Tasks by run time, longest first; pid breaks ties so output is stable. */
static int cmp_run(const void *a, const void *b)
{
	const struct sp_task *ta = *(const struct sp_task *const *)a;
	const struct sp_task *tb = *(const struct sp_task *const *)b;

	if (ta->run_ns != tb->run_ns)
		return ta->run_ns < tb->run_ns ? 1 : -1;
	return (ta->pid > tb->pid) - (ta->pid < tb->pid);
}

/* The tasks other than idle, sorted; NULL when out of memory. */
static struct sp_task **sorted_tasks(const struct sp_model *m, size_t *nr)
{
	struct sp_task **v = calloc(m->nr_tasks + 1, sizeof(*v));
	size_t i, n = 0;

	if (!v)
		return NULL;
	for (i = 0; i < m->nr_tasks; i++)
		if (m->tasks[i].pid != 0)
			v[n++] = &m->tasks[i];
	qsort(v, n, sizeof(*v), cmp_run);
	*nr = n;
	return v;
}

static void print_json(const struct sp_trace *t, const struct sp_stats *s,
		       struct sp_task **tasks, size_t nr_tasks)
{
	const struct sp_model *m = &t->model;
	size_t i;
	int c, k;
	bool first;

	printf("{\n  \"file\": ");
	sp_cli_json_string(stdout, t->path);
	printf(",\n  \"nr_cpus\": %d,\n  \"cpus\": [", t->nr_cpus);
	for (c = 0; c < t->nr_cpus; c++)
		printf("%s%d", c ? ", " : "", c);
	printf("],\n  \"start_ns\": {");
	for (c = 0, first = true; c < t->nr_cpus; c++) {
		if (m->cpus[c].start_ns == SP_NO_TS)
			continue;
		printf("%s\"%d\": %llu", first ? "" : ", ", c,
		       (unsigned long long)m->cpus[c].start_ns);
		first = false;
	}
	printf("},\n  \"end_ns\": %llu,\n", (unsigned long long)m->end_ns);
	printf("  \"window_ns\": [%llu, %llu],\n", (unsigned long long)m->window_start_ns,
	       (unsigned long long)m->end_ns);
	printf("  \"records\": %llu,\n  \"sched_records\": %llu,\n",
	       (unsigned long long)m->nr_records, (unsigned long long)m->nr_sched_records);
	printf("  \"cpu_busy_ns\": {");
	for (c = 0; c < t->nr_cpus; c++)
		printf("%s\"%d\": %llu", c ? ", " : "", c, (unsigned long long)m->cpus[c].busy_ns);
	printf("},\n  \"cpu_switches\": {");
	for (c = 0; c < t->nr_cpus; c++)
		printf("%s\"%d\": %llu", c ? ", " : "", c,
		       (unsigned long long)m->cpus[c].nr_switches);
	printf("},\n  \"migrations\": %llu,\n", (unsigned long long)m->nr_migrations);
	printf("  \"wakeup_event\": \"%s\",\n",
	       m->wakeup_from_waking ? "sched_waking" : "sched_wakeup");
	printf("  \"running_avg\": %.9g,\n  \"waiting_avg\": %.9g,\n",
	       sp_stats_running_avg(s), sp_stats_waiting_avg(s));
	printf("  \"running_max\": %d,\n  \"waiting_max\": %d,\n", s->running_max,
	       s->waiting_max);
	printf("  \"idle_while_waiting_ns\": %llu,\n",
	       (unsigned long long)s->idle_while_waiting_ns);
	printf("  \"lost_cpu_ns\": %llu,\n  \"lost_fraction\": %.9g,\n",
	       (unsigned long long)s->lost_cpu_ns, sp_stats_lost_fraction(s));
	printf("  \"wakeup_latency_ns\": {\"count\": %llu, \"mean\": %llu, \"p50\": %llu, "
	       "\"p90\": %llu, \"p99\": %llu, \"max\": %llu},\n",
	       (unsigned long long)s->latency.n, (unsigned long long)s->latency.mean,
	       (unsigned long long)s->latency.p50, (unsigned long long)s->latency.p90,
	       (unsigned long long)s->latency.p99, (unsigned long long)s->latency.max);
	printf("  \"repairs\": {");
	for (k = 0; k < SP_REPAIR_NR_KINDS; k++)
		printf("%s\"%s\": %llu", k ? ", " : "", sp_repair_name(k),
		       (unsigned long long)m->repairs[k]);
	printf("},\n  \"lost_events\": {");
	for (c = 0; c < t->nr_cpus; c++)
		printf("%s\"%d\": %llu", c ? ", " : "", c,
		       (unsigned long long)sp_reader_lost_events(t->reader, c));
	printf("},\n  \"tasks\": [");
	for (i = 0; i < nr_tasks; i++) {
		const struct sp_task *tk = tasks[i];

		printf("%s\n    {\"pid\": %d, \"comm\": ", i ? "," : "", tk->pid);
		sp_cli_json_string(stdout, sp_model_str(m, tk->comm));
		printf(", \"ppid\": %d, \"run_ns\": %llu, \"wait_ns\": %llu, \"wakeups\": %llu, "
		       "\"migrations\": %llu}", tk->ppid, (unsigned long long)tk->run_ns,
		       (unsigned long long)tk->wait_ns, (unsigned long long)tk->wakeups,
		       (unsigned long long)tk->migrations);
	}
	printf("%s]\n}\n", nr_tasks ? "\n  " : "");
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static void print_text(const struct sp_trace *t, const struct sp_stats *s,
		       struct sp_task **tasks, size_t nr_tasks, size_t top)
{
	const struct sp_model *m = &t->model;
	uint64_t span = m->end_ns - m->first_ns, window = m->end_ns - m->window_start_ns;
	char b1[32], b2[32], b3[32], b4[32];
	int c, with_records = 0;
	size_t i;

	for (c = 0; c < t->nr_cpus; c++)
		with_records += m->cpus[c].start_ns != SP_NO_TS;
	printf("trace       %s\n", t->path);
	printf("span        %s, from %.6f to %.6f s\n", sp_cli_format_duration(b1, 32, span),
	       m->first_ns / 1e9, m->end_ns / 1e9);
	printf("window      %s complete (all CPUs recording), from +%.6f s\n",
	       sp_cli_format_duration(b1, 32, window), (m->window_start_ns - m->first_ns) / 1e9);
	printf("cpus        %d (%d with records)\n", t->nr_cpus, with_records);
	printf("records     %llu, %llu of them sched events: %llu switches, %llu wakeups, "
	       "%llu migrations\n", (unsigned long long)m->nr_records,
	       (unsigned long long)m->nr_sched_records,
	       (unsigned long long)m->nr_by_type[SP_EV_SWITCH],
	       (unsigned long long)(m->nr_by_type[m->wakeup_from_waking ? SP_EV_WAKING :
						  SP_EV_WAKEUP] + m->nr_by_type[SP_EV_WAKEUP_NEW]),
	       (unsigned long long)m->nr_migrations);

	printf("\n  cpu      start        busy   busy%%   switches       lost\n");
	for (c = 0; c < t->nr_cpus; c++) {
		const struct sp_cpu *cpu = &m->cpus[c];

		if (cpu->start_ns == SP_NO_TS) {
			printf("%5d    no records\n", c);
			continue;
		}
		printf("%5d  %+9.6f  %10s  %5.1f%%  %9llu  %9llu\n", c,
		       (cpu->start_ns - m->first_ns) / 1e9,
		       sp_cli_format_duration(b1, 32, cpu->busy_ns),
		       pct(cpu->busy_ns, m->end_ns - cpu->start_ns),
		       (unsigned long long)cpu->nr_switches,
		       (unsigned long long)sp_reader_lost_events(t->reader, c));
	}

	printf("\nrunning     %.2f tasks on average, at most %d, on %d CPUs\n",
	       sp_stats_running_avg(s), s->running_max, t->nr_cpus);
	printf("waiting     %.2f tasks on average, at most %d\n", sp_stats_waiting_avg(s),
	       s->waiting_max);
	printf("idle while waiting  %s, %.1f%% of the window (a task waited while a CPU "
	       "was idle)\n", sp_cli_format_duration(b1, 32, s->idle_while_waiting_ns),
	       pct(s->idle_while_waiting_ns, window));
	printf("lost capacity       %s of CPU time, %.2f%% of %d CPUs x the window (CPUs that "
	       "idled while a task waited)\n", sp_cli_format_duration(b1, 32, s->lost_cpu_ns),
	       100 * sp_stats_lost_fraction(s), t->nr_cpus);
	if (s->latency.n)
		printf("wakeup latency      %llu wakeups: median %s, p90 %s, p99 %s, max %s\n",
		       (unsigned long long)s->latency.n,
		       sp_cli_format_duration(b1, 32, s->latency.p50),
		       sp_cli_format_duration(b2, 32, s->latency.p90),
		       sp_cli_format_duration(b3, 32, s->latency.p99),
		       sp_cli_format_duration(b4, 32, s->latency.max));
	if (sp_model_nr_repairs(m))
		printf("repairs     %llu (missed switches reconstructed from common_pid)\n",
		       (unsigned long long)sp_model_nr_repairs(m));

	if (!top || top > nr_tasks)
		top = nr_tasks;
	printf("\ntop %zu of %zu tasks by run time\n", top, nr_tasks);
	printf("%8s  %-16s %12s %12s %8s %10s\n", "pid", "comm", "run", "wait", "wakeups",
	       "migrations");
	for (i = 0; i < top; i++) {
		const struct sp_task *tk = tasks[i];
		char comm[17];
		size_t j;

		/* keep the table aligned whatever the name holds */
		snprintf(comm, sizeof(comm), "%s", sp_model_str(m, tk->comm));
		for (j = 0; comm[j]; j++)
			if ((unsigned char)comm[j] < 0x20 || comm[j] == 0x7f)
				comm[j] = '?';
		printf("%8d  %-16s %12s %12s %8llu %10llu\n", tk->pid, comm,
		       sp_cli_format_duration(b1, 32, tk->run_ns),
		       sp_cli_format_duration(b2, 32, tk->wait_ns),
		       (unsigned long long)tk->wakeups, (unsigned long long)tk->migrations);
	}
}

static void stats_reset(void *data)
{
	sp_stats_reset(data);
}

int sp_cmd_stats(int argc, char **argv)
{
	struct sp_cli_inputs in = { 0 };
	struct sp_model_observer obs;
	struct sp_task **tasks;
	struct sp_stats *s;
	struct sp_trace t;
	bool json = false;
	long top = 15;
	size_t nr_tasks;
	int opt, ret;
	const char *path;
	char *end;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":i:jn:vqh", stats_options, NULL)) != -1) {
		if (sp_cli_parse_common(opt))
			continue;
		switch (opt) {
		case 'i':
			ret = sp_cli_inputs_add(&in, optarg);
			if (ret)
				goto out_inputs;
			break;
		case 'j':
			json = true;
			break;
		case 'n':
			top = strtol(optarg, &end, 10);
			if (*end || end == optarg || top < 0) {
				ret = sp_cli_usage("stats", "--top needs a count, not '%s'", optarg);
				goto out_inputs;
			}
			break;
		case 'h':
			fputs(stats_usage, stdout);
			ret = SP_EXIT_OK;
			goto out_inputs;
		default:
			ret = sp_cli_bad_option("stats", stats_options, NULL, opt, argv);
			goto out_inputs;
		}
	}
	ret = sp_cli_inputs_finish(&in, "stats", 1, argv + optind, argc - optind);
	if (ret)
		goto out_inputs;
	path = in.paths[0];

	ret = sp_cli_open(&t, path);
	if (ret)
		goto out_inputs;
	s = malloc(sizeof(*s));
	if (!s) {
		ret = sp_cli_fail(path, "out of memory");
		sp_trace_close(&t);
		goto out_inputs;
	}
	sp_stats_init(s, t.window_start_ns, t.end_ns, t.nr_cpus);
	sp_stats_observer(s, &obs);
	ret = sp_cli_run(&t, &obs, stats_reset, NULL);
	if (ret)
		goto out;
	sp_stats_finish(s);
	if (s->lat_error) {
		ret = sp_cli_fail(path, "out of memory keeping %llu wakeup latencies",
				  (unsigned long long)s->lat.nr);
		goto out;
	}
	tasks = sorted_tasks(&t.model, &nr_tasks);
	if (!tasks) {
		ret = sp_cli_fail(path, "out of memory");
		goto out;
	}
	if (json)
		print_json(&t, s, tasks, nr_tasks);
	else
		print_text(&t, s, tasks, nr_tasks, top);
	free(tasks);
	if (fflush(stdout) || ferror(stdout))
		ret = sp_cli_fail(NULL, "cannot write the output");
out:
	sp_stats_release(s);
	free(s);
	sp_trace_close(&t);
out_inputs:
	sp_cli_inputs_release(&in);
	return ret;
}
