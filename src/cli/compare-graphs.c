// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedplot compare --view datagraph or running-waiting: every run's chart
 * for small multiples.  Each trace is read again over the same length of
 * time from its own start (the longest run's complete window): into a
 * timeline, its CPUs in numeric order and its tasks coloured by command, or
 * into the running-waiting envelope (over its own window only, with as
 * many columns as its share of that time), so that the runs compare at a
 * glance.
 * The traces stay open until the figure is drawn: the charts name their
 * tasks from the models.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/cli/cli.h"
#include "schedplot/analysis/collect.h"
#include "schedplot/cli/compare.h"
#include "schedplot/model/timeline.h"
#include "schedplot/model/trace.h"

static int graph_load_rw(struct sp_cmp_graph *g, const char *file, uint64_t dur_ns,
			 size_t nr_cols)
{
	struct sp_model_observer obs;
	struct sp_pass pass;
	uint64_t t0_ns = g->trace.window_start_ns, own_ns = g->trace.end_ns - t0_ns;
	int ret;

	/* over the run's own window: the envelope knows nothing after its end */
	if (!own_ns)
		own_ns = 1;
	nr_cols = (size_t)fmax(1, round((double)nr_cols * (double)own_ns / (double)dur_ns));
	if (nr_cols > own_ns)
		nr_cols = own_ns;
	ret = sp_rw_collect_init(&g->rw, t0_ns, t0_ns + own_ns, nr_cols, g->trace.nr_cpus, t0_ns,
				 NULL);
	if (ret)
		return sp_cli_fail_code(file, ret, "cannot set up the graph's columns");
	g->has_rw = true;
	sp_rw_collect_observer(&g->rw, &obs);
	sp_pass_init_one(&pass, &obs);
	ret = sp_cli_run(&g->trace, &pass, NULL);
	if (ret)
		return ret;
	if (sp_rw_collect_finish(&g->rw))
		return sp_cli_fail(file, "cannot finish the running-waiting graph");
	return SP_EXIT_OK;
}

static int graph_load(struct sp_cmp_graph *g, const struct sp_cmp_opts *o, const char *file,
		      uint64_t dur_ns, bool rw, size_t nr_cols)
{
	struct sp_datagraph_opts dopts = { .color_by = SP_COLOR_BY_COMMAND,
					   .colors = o->shared.colors_in ?
						     (struct sp_color_map *)&o->shared.colors : NULL };
	struct sp_model_observer obs;
	struct sp_pass pass;
	int ret, cpu;

	ret = sp_cli_open(&g->trace, file);
	if (ret)
		return ret;
	g->open = true;
	if (rw)
		return graph_load_rw(g, file, dur_ns, nr_cols);
	g->rows = calloc(g->trace.nr_cpus, sizeof(*g->rows));
	if (!g->rows)
		return sp_cli_fail(file, "out of memory");
	for (cpu = 0; cpu < g->trace.nr_cpus; cpu++)
		g->rows[cpu] = cpu;
	ret = sp_timeline_init(&g->tl, g->trace.window_start_ns, g->trace.window_start_ns + dur_ns,
			       (unsigned int)nr_cols, g->trace.nr_cpus, g->rows,
			       (unsigned int)g->trace.nr_cpus);
	if (ret)
		return sp_cli_fail_code(file, ret, "cannot set up the timeline");
	sp_timeline_set_rule(&g->tl, o->shared.aggregate);
	sp_timeline_observer(&g->tl, &obs);
	sp_pass_init_one(&pass, &obs);
	ret = sp_cli_run(&g->trace, &pass, NULL);
	if (ret)
		return ret;
	ret = sp_timeline_finish(&g->tl);
	if (ret)
		return sp_cli_fail_code(file, ret, "cannot finish the timeline");
	ret = sp_datagraph_init(&g->dg, &g->tl, &g->trace.model, &dopts);
	if (ret)
		return sp_cli_fail_code(file, ret, "cannot color the chart");
	return SP_EXIT_OK;
}

int sp_cmp_graphs_load(const struct sp_cmp *c, bool rw, size_t nr_cols, struct sp_cmp_graphs *gs)
{
	uint64_t dur_ns = 1;
	size_t n = 0;
	int i, r, ret;

	memset(gs, 0, sizeof(*gs));
	for (i = 0; i < 2; i++)
		gs->nr += (size_t)c->g[i].nr_runs;
	gs->g = calloc(gs->nr, sizeof(*gs->g));
	gs->dg = calloc(gs->nr, sizeof(*gs->dg));
	gs->env = calloc(gs->nr, sizeof(*gs->env));
	gs->labels = calloc(gs->nr, sizeof(*gs->labels));
	if (!gs->g || !gs->dg || !gs->env || !gs->labels)
		return sp_cli_fail(NULL, "out of memory");
	for (i = 0; i < 2; i++)
		for (r = 0; r < c->g[i].nr_runs; r++)
			if (c->g[i].runs[r].window_ns > dur_ns)
				dur_ns = c->g[i].runs[r].window_ns;
	for (i = 0; i < 2; i++) {
		for (r = 0; r < c->g[i].nr_runs; r++, n++) {
			const char *file = c->g[i].runs[r].file;
			const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;

			ret = graph_load(&gs->g[n], &c->o, file, dur_ns, rw, nr_cols);
			if (ret)
				return ret;
			gs->dg[n] = &gs->g[n].dg;
			gs->env[n] = &gs->g[n].rw.env;
			snprintf(gs->g[n].label, sizeof(gs->g[n].label), "%s  %s", c->g[i].name,
				 base);
			gs->labels[n] = gs->g[n].label;
		}
	}
	return SP_EXIT_OK;
}

void sp_cmp_graphs_release(struct sp_cmp_graphs *gs)
{
	for (size_t n = 0; gs->g && n < gs->nr; n++) {
		sp_datagraph_release(&gs->g[n].dg);
		sp_timeline_release(&gs->g[n].tl);
		if (gs->g[n].has_rw)
			sp_rw_collect_release(&gs->g[n].rw);
		free(gs->g[n].rows);
		if (gs->g[n].open)
			sp_trace_close(&gs->g[n].trace);
	}
	free(gs->g);
	free(gs->dg);
	free(gs->env);
	free(gs->labels);
	memset(gs, 0, sizeof(*gs));
}
