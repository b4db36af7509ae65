/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_VIEWMARKS_H
#define SP_VIEWMARKS_H

/*
 * The datagraph marks of a view (--migrations, --wakeups, --placement,
 * --events, --mark, --span): planned from the options, registered in the
 * view's one pass, counted with -v (view-marks.c).
 */

struct sp_view_pass;
struct sp_view_run;
struct sp_dg_marks;
struct sp_timeline;

/**
 * sp_view_marks_plan - set up the datagraph marks the options ask for
 * @run: the run, its trace open and its rows planned
 * @mk: zeroed; filled in (nothing asked for: left without marks)
 * @tl: the timeline the marks are drawn over
 * @socket: set to a per-CPU socket array the caller frees, or NULL
 *
 * Asks the reader for the events the marks need.  Return: SP_EXIT_OK or
 * an exit code, the error printed.
 */
int sp_view_marks_plan(struct sp_view_run *run, struct sp_dg_marks *mk,
		       const struct sp_timeline *tl, int **socket);

/**
 * sp_view_marks_note - with -v, list the marks' counts, as the legend says them
 * @run: the run
 * @mk: finished marks
 */
void sp_view_marks_note(const struct sp_view_run *run, const struct sp_dg_marks *mk);

/**
 * sp_view_marks_observe - register the marks' consumer in the pass
 * @mk: planned with sp_view_marks_plan() (nothing asked for: no change)
 * @pass: the view's pass
 */
void sp_view_marks_observe(struct sp_dg_marks *mk, struct sp_view_pass *pass);

#endif /* SP_VIEWMARKS_H */
