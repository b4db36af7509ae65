// SPDX-License-Identifier: GPL-2.0-only
/*
 * view-chart: the core-by-time chart of datagraph and overview, from the
 * options to the colored chart (include/schedplot/cli/viewchart.h).
 */
#include <stdlib.h>

#include "schedplot/cli/cli.h"
#include "schedplot/cli/driver.h"
#include "schedplot/cli/viewchart.h"
#include "schedplot/cli/viewmarks.h"
#include "schedplot/cli/viewopts.h"
#include "schedplot/cli/viewpower.h"

int sp_view_chart_plan(struct sp_view_run *run, struct sp_view_chart *c, unsigned int nr_cols)
{
	const struct sp_view_opts *o = &run->opts;
	int ret;

	ret = sp_timeline_init(&c->tl, o->t0_ns, o->t1_ns, nr_cols, run->trace.nr_cpus,
			       run->rows, (unsigned int)run->nr_rows);
	if (ret)
		return sp_cli_fail_code(NULL, ret, "cannot set up the timeline");
	sp_timeline_set_rule(&c->tl, o->aggregate);
	return sp_view_power_plan(&c->power, o, &run->trace, nr_cols, run->rows,
				  (unsigned int)run->nr_rows);
}

int sp_view_chart_plan_marks(struct sp_view_run *run, struct sp_view_chart *c)
{
	return sp_view_marks_plan(run, &c->marks, &c->tl, &c->socket);
}

void sp_view_chart_observe(struct sp_view_chart *c, struct sp_view_pass *pass)
{
	sp_view_marks_observe(&c->marks, pass);
	sp_view_power_observe(&c->power, pass);
}

int sp_view_chart_finish_timeline(struct sp_view_run *run, struct sp_view_chart *c,
				  struct sp_datagraph_opts *dopts)
{
	int ret = sp_timeline_finish(&c->tl);

	if (ret)
		return sp_cli_fail_code(NULL, ret, "cannot finish the timeline");
	sp_view_opts_datagraph(&run->opts, run->row_socket, dopts);
	return SP_EXIT_OK;
}

int sp_view_chart_color(struct sp_view_run *run, struct sp_view_chart *c,
			struct sp_datagraph_opts *dopts)
{
	int ret;

	ret = sp_view_power_finish(&c->power, &run->opts, &run->trace, dopts);
	if (ret)
		return ret;
	ret = sp_datagraph_init(&c->dg, &c->tl, &run->trace.model, dopts);
	if (ret)
		return sp_cli_fail_code(NULL, ret, "cannot color the chart");
	ret = sp_view_opts_colors_out(&run->opts, &c->dg);
	if (ret)
		return ret;
	if (sp_dg_marks_any(&c->marks)) {
		ret = sp_dg_marks_finish(&c->marks);
		if (ret)
			return sp_cli_fail_code(NULL, ret, "cannot gather the marks");
	}
	return SP_EXIT_OK;
}

struct sp_dg_marks *sp_view_chart_marks(struct sp_view_chart *c)
{
	return sp_dg_marks_any(&c->marks) ? &c->marks : NULL;
}

void sp_view_chart_release(struct sp_view_chart *c)
{
	sp_view_power_release(&c->power);
	sp_datagraph_release(&c->dg);
	sp_timeline_release(&c->tl);
	sp_dg_marks_release(&c->marks);
	free(c->socket);
}
