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
#include "schedplot/cli/viewmarks.h"
#include "schedplot/cli/evspec.h"
#include "schedplot/analysis/marks.h"
#include "schedplot/model/timeline.h"
#include "schedplot/trace/reader.h"
#include "schedplot/views/datagraph-marks.h"

/* One mark's watch: the records of its event that pass its filter. */
static int watch_mark(struct sp_view_run *run, struct sp_dg_marks *mk, const char *opt,
		      const char *text)
{
	struct sp_overlay_event *e = &mk->ov.events[mk->ov.nr_events];
	const char *label[1];
	struct sp_markspec spec;
	int i, ret;

	ret = sp_evspec_mark_parse(run->opts.cmd, text, &spec);
	if (ret)
		return ret;
	for (i = 0; i < mk->ov.nr_events; i++)
		if (!strcmp(mk->ov.events[i].name, spec.title))
			goto out;	/* the same twice: once */
	if (mk->ov.nr_events == SP_OVERLAY_MAX_EVENTS) {
		ret = sp_cli_usage(run->opts.cmd, "--events and --mark take at most %d events "
				   "together", SP_OVERLAY_MAX_EVENTS);
		goto out;
	}
	label[0] = spec.label;
	ret = sp_evspec_watch(run->trace.reader, run->trace.path, opt, text, &spec.ev, label,
			      spec.label[0] ? 1 : 0, &e->watch);
	if (ret)
		goto out;
	snprintf(e->name, sizeof(e->name), "%s", spec.title);
	e->text = spec.label[0];
	if (e->text)
		e->label_kind = (uint8_t)sp_reader_watch_kind(run->trace.reader, e->watch, 0);
	mk->ov.nr_events++;
out:
	sp_evspec_mark_release(&spec);
	return ret;
}

/* --events (every record of each) and --mark (those that pass a filter) */
static int request_events(struct sp_view_run *run, struct sp_dg_marks *mk)
{
	const char *p = run->opts.events;
	char name[SP_VIEW_EVENT_NAME];
	int i, ret;

	while (p && *p) {
		size_t k = strcspn(p, ",");

		snprintf(name, sizeof(name), "%.*s", (int)k, p);
		p += k + (p[k] == ',');
		ret = watch_mark(run, mk, "--events", name);
		if (ret)
			return ret;
	}
	for (i = 0; i < run->opts.nr_marks; i++) {
		ret = watch_mark(run, mk, "--mark", run->opts.marks[i]);
		if (ret)
			return ret;
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
	if (!ret && o->nr_spans) {
		ret = sp_evspec_plan(run->trace.reader, run->trace.path, o, &mk->spans, false);
		if (!ret && sp_spans_init(&mk->spans, &o->scope, run->trace.reader,
					  run->trace.nr_cpus))
			ret = sp_cli_fail(NULL, "out of memory");
		/* a column apart is one bar */
		if (!ret)
			sp_spans_keep(&mk->spans, tl->window.t0_ns, tl->window.t1_ns,
				      (tl->window.t1_ns - tl->window.t0_ns) / (tl->window.nr_cols ? tl->window.nr_cols : 1));
	}
	if (ret || !sp_dg_marks_any(mk))
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
	if (mk->spans.nr_kinds)
		SP_PASS_OBSERVE(&pass->pass, sp_spans_observer, &mk->spans);
	if (!sp_overlay_any(&mk->ov))
		return;
	SP_PASS_OBSERVE(&pass->pass, sp_overlay_observer, &mk->ov);
}
