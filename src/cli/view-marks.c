// SPDX-License-Identifier: GPL-2.0-only
/*
 * view-marks: the datagraph marks (--migrations, --wakeups, --placement,
 * --events) of datagraph and overview, from the options to the consumer of the pass.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/base/error.h"
#include "schedplot/cli/driver.h"
#include "schedplot/analysis/marks.h"
#include "schedplot/model/timeline.h"
#include "schedplot/trace/reader.h"
#include "schedplot/views/datagraph-marks.h"

static int request_events(struct sp_view_run *run, struct sp_dg_marks *mk)
{
	static const char *const print_fields[] = { "buf" };
	const char *p = run->opts.events;
	struct sp_error err = { 0 };

	while (p && *p) {
		struct sp_overlay_event *e = &mk->ov.events[mk->ov.nr_events];
		size_t k = strcspn(p, ",");
		int i, dup = 0;

		snprintf(e->name, sizeof(e->name), "%.*s", (int)k, p);
		p += k + (p[k] == ',');
		for (i = 0; i < mk->ov.nr_events; i++)
			dup |= !strcmp(mk->ov.events[i].name, e->name);
		if (dup)
			continue;
		e->text = !strcmp(e->name, "ftrace:print");
		e->request = sp_reader_request_event(run->trace.reader, e->name,
						     e->text ? print_fields : NULL, e->text, &err);
		if (e->request == -ENOENT)
			return sp_cli_fail(run->trace.path, "--events %s: the trace has no such "
					   "event", e->name);
		if (e->request < 0) {
			sp_cli_error(run->trace.path, &err);
			return SP_EXIT_FAILURE;
		}
		mk->ov.nr_events++;
	}
	return SP_EXIT_OK;
}

int sp_view_marks_plan(struct sp_view_run *run, struct sp_dg_marks *mk,
		       const struct sp_timeline *tl, int **socket)
{
	const struct sp_view_opts *o = &run->opts;
	int r, c, ret;

	*socket = NULL;
	mk->ov.migrations = o->migrations;
	mk->ov.wakeups = o->wakeups;
	mk->ov.placement = o->placement;
	mk->ov.mig.move_numa_req = mk->ov.mig.swap_numa_req = -1;
	ret = request_events(run, mk);
	if (ret || !sp_overlay_any(&mk->ov))
		return ret;
	if (run->row_socket) {
		*socket = malloc((size_t)run->trace.nr_cpus * sizeof(**socket));
		if (!*socket)
			return sp_cli_fail(NULL, "out of memory");
		for (c = 0; c < run->trace.nr_cpus; c++)
			(*socket)[c] = -1;
		for (r = 0; r < run->nr_rows; r++)
			(*socket)[run->rows[r]] = run->row_socket[r];
	}
	if (mk->ov.migrations)
		sp_marks_request_numa(&run->trace, &mk->ov.mig);
	sp_overlay_init(&mk->ov, tl, &run->trace.model, *socket, run->trace.nr_cpus);
	return SP_EXIT_OK;
}

void sp_view_marks_note(const struct sp_view_run *run, const struct sp_dg_marks *mk)
{
	const struct sp_legend_entry *e;
	size_t n, i;

	e = sp_dg_marks_legend(mk, &n);
	for (i = 0; i < n; i++)
		sp_cli_note(run->trace.path, "marks: %s", e[i].label);
	if (mk->ov.wakeups)
		sp_cli_note(run->trace.path, "marks: wakeup arrows %s", sp_dg_marks_arrows(mk,
			    run->width) ? "drawn" : "not drawn: too many for the width");
}

void sp_view_marks_observe(struct sp_dg_marks *mk, struct sp_view_pass *pass)
{
	struct sp_model_observer obs;

	if (!sp_overlay_any(&mk->ov))
		return;
	sp_overlay_observer(&mk->ov, &obs);
	sp_pass_add(&pass->pass, &obs);
}
