// SPDX-License-Identifier: GPL-2.0-only
/*
 * The power layers of the core-by-time views wired into their one pass;
 * see include/schedplot/cli/viewpower.h.
 */
#include <string.h>

#include "schedplot/base/error.h"
#include "schedplot/cli/cli.h"
#include "schedplot/cli/driver.h"
#include "schedplot/cli/viewopts.h"
#include "schedplot/cli/viewpower.h"
#include "schedplot/model/trace.h"
#include "schedplot/views/datagraph.h"

int sp_view_power_plan(struct sp_view_power *vp, const struct sp_view_opts *o,
		       struct sp_trace *t, unsigned int nr_cols, const int *rows,
		       unsigned int nr_rows)
{
	bool want[SP_POWER_NR_KINDS] = {
		[SP_POWER_FREQ] = o->freq != SP_DG_FREQ_OFF,
		[SP_POWER_IDLE] = o->idle_states,
	};
	static const char *const names[SP_POWER_NR_KINDS] = {
		[SP_POWER_FREQ] = "power:cpu_frequency",
		[SP_POWER_IDLE] = "power:cpu_idle",
	};
	struct sp_error err;
	int ret, k;

	if (!want[SP_POWER_FREQ] && !want[SP_POWER_IDLE])
		return SP_EXIT_OK;
	vp->active = true;
	sp_error_clear(&err);
	ret = sp_power_init(&vp->power, t->nr_cpus, o->t0_ns, o->t1_ns);
	if (!ret)
		ret = sp_power_request(&vp->power, t->reader, want[SP_POWER_FREQ],
				       want[SP_POWER_IDLE], &err);
	if (ret) {
		if (!err.code)
			err.code = ret;
		sp_cli_error(t->path, &err);
		return SP_EXIT_FAILURE;
	}
	for (k = 0; k < SP_POWER_NR_KINDS; k++) {
		if (!want[k])
			continue;
		if (vp->power.request[k] < 0)
			sp_cli_warn("%s: the trace has no %s events: %s (record them with -e %s)",
				    t->path, names[k], k == SP_POWER_FREQ ?
				    "the frequency is unknown everywhere" : "idle time stays white",
				    names[k]);
		ret = sp_timeline_init(&vp->tl[k], o->t0_ns, o->t1_ns, nr_cols, t->nr_cpus, rows,
				       nr_rows);
		if (ret)
			return sp_cli_fail_code(NULL, ret, "cannot set up the power layers");
		/* a frequency or idle state holds a column by time, like the old rows */
		sp_timeline_set_rule(&vp->tl[k], SP_TIMELINE_LONGEST);
		vp->tl_init[k] = true;
		vp->power.tl[k] = &vp->tl[k];
	}
	return SP_EXIT_OK;
}

/* The power events to the tracker. */
static void power_extra(void *data, const struct sp_event *ev)
{
	struct sp_view_power *vp = data;

	sp_power_add(&vp->power, ev);
}

static void power_reset(void *data)
{
	struct sp_view_power *vp = data;

	sp_power_reset(&vp->power);
	for (int k = 0; k < SP_POWER_NR_KINDS; k++)
		if (vp->tl_init[k])
			sp_timeline_reset(&vp->tl[k]);
}

void sp_view_power_observe(struct sp_view_power *vp, struct sp_view_pass *pass)
{
	if (vp->active)
		sp_pass_add(&pass->pass, &(struct sp_model_observer){
			.extra = power_extra, .reset = power_reset, .data = vp });
}

int sp_view_power_finish(struct sp_view_power *vp, const struct sp_view_opts *o,
			 const struct sp_trace *t, struct sp_datagraph_opts *dopts)
{
	int ret, k;

	if (!vp->active)
		return SP_EXIT_OK;
	sp_power_finish(&vp->power, t->model.end_ns);
	/* described in the file (trace-cmd keeps every format) but never recorded */
	if (vp->power.request[SP_POWER_FREQ] >= 0 && !vp->power.nr_events[SP_POWER_FREQ])
		sp_cli_warn("%s: the trace holds no power:cpu_frequency record: the frequency is "
			    "unknown everywhere (record them with -e power:cpu_frequency; a "
			    "kernel or virtual machine without cpufreq has none)", t->path);
	if (vp->power.request[SP_POWER_IDLE] >= 0 && !vp->power.nr_events[SP_POWER_IDLE])
		sp_cli_warn("%s: the trace holds no power:cpu_idle record: idle time stays white "
			    "(record them with -e power:cpu_idle)", t->path);
	for (k = 0; k < SP_POWER_NR_KINDS; k++) {
		if (!vp->tl_init[k])
			continue;
		ret = sp_timeline_finish(&vp->tl[k]);
		if (ret)
			return sp_cli_fail_code(NULL, ret, "cannot finish the power layers");
	}
	sp_dg_power_init(&vp->layers, o->freq,
			 vp->tl_init[SP_POWER_FREQ] ? &vp->tl[SP_POWER_FREQ] : NULL,
			 o->idle_states, vp->tl_init[SP_POWER_IDLE] ? &vp->tl[SP_POWER_IDLE] : NULL,
			 vp->power.max_idle_state,
			 !strcmp(o->palette, "grey") || !strcmp(o->palette, "gray"));
	dopts->power = &vp->layers;
	return SP_EXIT_OK;
}

void sp_view_power_release(struct sp_view_power *vp)
{
	for (int k = 0; k < SP_POWER_NR_KINDS; k++)
		if (vp->tl_init[k])
			sp_timeline_release(&vp->tl[k]);
	sp_power_release(&vp->power);
	memset(vp, 0, sizeof(*vp));
}
