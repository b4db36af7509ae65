// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedplot compare --view datagraph or running-waiting: every run's chart
 * for small multiples, gathered in the one pass over its trace that also
 * gives the run's numbers (compare-runs.c).  Each covers the same length of
 * time from its own start (the longest run's complete window, known from
 * the check of every trace before the passes): a timeline, its CPUs in
 * numeric order and its tasks coloured by command, or the running-waiting
 * envelope (over its own window only, with as many columns as its share of
 * that time), so that the runs compare at a glance.  A chart keeps what it
 * draws: its trace is closed after the pass.
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

int sp_cmp_graphs_init(struct sp_cmp_graphs *gs, const struct sp_cmp *c, bool rw, size_t nr_cols,
		       uint64_t dur_ns)
{
	size_t n;

	memset(gs, 0, sizeof(*gs));
	gs->nr = (size_t)c->g[0].nr_runs + (size_t)c->g[1].nr_runs;
	gs->rw = rw;
	gs->nr_cols = nr_cols;
	gs->dur_ns = dur_ns;
	gs->g = calloc(gs->nr, sizeof(*gs->g));
	gs->dg = calloc(gs->nr, sizeof(*gs->dg));
	gs->env = calloc(gs->nr, sizeof(*gs->env));
	gs->labels = calloc(gs->nr, sizeof(*gs->labels));
	if (!gs->g || !gs->dg || !gs->env || !gs->labels)
		return sp_cli_fail(NULL, "out of memory");
	for (n = 0; n < gs->nr; n++) {
		const char *file = sp_cmp_run_at(c, (int)n)->file;
		const char *group = c->g[n < (size_t)c->g[0].nr_runs ? 0 : 1].name;

		gs->dg[n] = &gs->g[n].dg;
		gs->env[n] = &gs->g[n].rw.env;
		snprintf(gs->g[n].label, sizeof(gs->g[n].label), "%s  %s", group,
			 sp_cli_base_name(file));
		gs->labels[n] = gs->g[n].label;
	}
	return SP_EXIT_OK;
}

/* over the run's own window: the envelope knows nothing after its end */
static int rw_start(struct sp_cmp_graphs *gs, struct sp_cmp_graph *g, const struct sp_trace *t)
{
	uint64_t t0_ns = t->window_start_ns, own_ns = t->end_ns - t0_ns;
	size_t nr_cols;
	int ret;

	if (!own_ns)
		own_ns = 1;
	nr_cols = (size_t)fmax(1, round((double)gs->nr_cols * (double)own_ns /
					(double)gs->dur_ns));
	if (nr_cols > own_ns)
		nr_cols = own_ns;
	ret = sp_rw_collect_init(&g->rw, t0_ns, t0_ns + own_ns, nr_cols, t->nr_cpus, t0_ns, NULL);
	if (ret)
		return sp_cli_fail_code(t->path, ret, "cannot set up the graph's columns");
	g->has_rw = true;
	return SP_EXIT_OK;
}

int sp_cmp_graph_start(struct sp_cmp_graphs *gs, int i, const struct sp_cmp_opts *o,
		       const struct sp_trace *t)
{
	struct sp_cmp_graph *g = &gs->g[i];
	int ret, cpu;

	if (gs->rw)
		return rw_start(gs, g, t);
	g->rows = calloc(t->nr_cpus, sizeof(*g->rows));
	if (!g->rows)
		return sp_cli_fail(t->path, "out of memory");
	for (cpu = 0; cpu < t->nr_cpus; cpu++)
		g->rows[cpu] = cpu;
	ret = sp_timeline_init(&g->tl, t->window_start_ns, t->window_start_ns + gs->dur_ns,
			       (unsigned int)gs->nr_cols, t->nr_cpus, g->rows,
			       (unsigned int)t->nr_cpus);
	if (ret)
		return sp_cli_fail_code(t->path, ret, "cannot set up the timeline");
	sp_timeline_set_rule(&g->tl, o->shared.aggregate);
	return SP_EXIT_OK;
}

void sp_cmp_graph_observe(struct sp_cmp_graphs *gs, int i, struct sp_pass *pass)
{
	struct sp_model_observer obs;

	if (gs->rw)
		sp_rw_collect_observer(&gs->g[i].rw, &obs);
	else
		sp_timeline_observer(&gs->g[i].tl, &obs);
	sp_pass_add(pass, &obs);
}

int sp_cmp_graph_finish(struct sp_cmp_graphs *gs, int i, const struct sp_cmp_opts *o,
			const struct sp_trace *t)
{
	struct sp_datagraph_opts dopts = {
		.color_by = SP_COLOR_BY_COMMAND,
		.colors = o->shared.colors_in ? (struct sp_color_map *)&o->shared.colors : NULL,
	};
	struct sp_cmp_graph *g = &gs->g[i];
	int ret;

	if (gs->rw) {
		if (sp_rw_collect_finish(&g->rw))
			return sp_cli_fail(t->path, "cannot finish the running-waiting graph");
		return SP_EXIT_OK;
	}
	ret = sp_timeline_finish(&g->tl);
	if (ret)
		return sp_cli_fail_code(t->path, ret, "cannot finish the timeline");
	ret = sp_datagraph_init(&g->dg, &g->tl, &t->model, &dopts);
	if (ret)
		return sp_cli_fail_code(t->path, ret, "cannot color the chart");
	/* the keys hold the names drawn: nothing reads the model, closed after the pass */
	g->dg.model = NULL;
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
	}
	free(gs->g);
	free(gs->dg);
	free(gs->env);
	free(gs->labels);
	memset(gs, 0, sizeof(*gs));
}
