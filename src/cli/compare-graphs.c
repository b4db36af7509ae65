// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedplot compare --view datagraph: every run's datagraph for small
 * multiples.  Each trace is read again, into a timeline of the same length
 * from its own start (the longest run's), its CPUs in numeric order and its
 * tasks coloured by command, so that the runs compare at a glance.  The
 * traces stay open until the figure is drawn: the charts name their tasks
 * from the models.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/cli/cli.h"
#include "schedplot/cli/compare.h"
#include "schedplot/model/timeline.h"
#include "schedplot/model/trace.h"

static int graph_load(struct sp_cmp_graph *g, const char *file, uint64_t dur_ns,
		      unsigned int nr_cols)
{
	struct sp_datagraph_opts dopts = { .color_by = SP_COLOR_BY_COMMAND };
	struct sp_model_observer obs = { 0 };
	int ret, cpu;

	ret = sp_cli_open(&g->trace, file);
	if (ret)
		return ret;
	g->open = true;
	g->rows = calloc(g->trace.nr_cpus, sizeof(*g->rows));
	if (!g->rows)
		return sp_cli_fail(file, "out of memory");
	for (cpu = 0; cpu < g->trace.nr_cpus; cpu++)
		g->rows[cpu] = cpu;
	ret = sp_timeline_init(&g->tl, g->trace.window_start_ns, g->trace.window_start_ns + dur_ns,
			       nr_cols, g->trace.nr_cpus, g->rows, (unsigned int)g->trace.nr_cpus);
	if (ret)
		return sp_cli_fail_code(file, ret, "cannot set up the timeline");
	sp_timeline_observer(&g->tl, &obs);
	ret = sp_cli_run(&g->trace, &obs, sp_timeline_reset_cb, NULL);
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

int sp_cmp_graphs_load(const struct sp_cmp *c, unsigned int nr_cols, struct sp_cmp_graphs *gs)
{
	uint64_t dur_ns = 1;
	size_t n = 0;
	int i, r, ret;

	memset(gs, 0, sizeof(*gs));
	for (i = 0; i < 2; i++)
		gs->nr += (size_t)c->g[i].nr_runs;
	gs->g = calloc(gs->nr, sizeof(*gs->g));
	gs->dg = calloc(gs->nr, sizeof(*gs->dg));
	gs->labels = calloc(gs->nr, sizeof(*gs->labels));
	if (!gs->g || !gs->dg || !gs->labels)
		return sp_cli_fail(NULL, "out of memory");
	for (i = 0; i < 2; i++)
		for (r = 0; r < c->g[i].nr_runs; r++)
			if (c->g[i].runs[r].window_ns > dur_ns)
				dur_ns = c->g[i].runs[r].window_ns;
	for (i = 0; i < 2; i++) {
		for (r = 0; r < c->g[i].nr_runs; r++, n++) {
			const char *file = c->g[i].runs[r].file;
			const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;

			ret = graph_load(&gs->g[n], file, dur_ns, nr_cols);
			if (ret)
				return ret;
			gs->dg[n] = &gs->g[n].dg;
			snprintf(gs->g[n].label, sizeof(gs->g[n].label), "%s  %s", c->g[i].name, base);
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
		free(gs->g[n].rows);
		if (gs->g[n].open)
			sp_trace_close(&gs->g[n].trace);
	}
	free(gs->g);
	free(gs->dg);
	free(gs->labels);
	memset(gs, 0, sizeof(*gs));
}
