/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_EVSPEC_H
#define SP_EVSPEC_H

/*
 * The marks and spans a user defines on the command line or in a view
 * file (--mark, --span), parsed into names, filters and fields; the
 * filters themselves are libtraceevent's to parse (trace/evfilter.h).
 *
 *   mark: EVENT[/FILTER/][ label=FIELD]
 *   span: START[/FILTER/]..END[/FILTER/] key=FIELD[,FIELD][ name=NAME]
 *
 *   color: FIELD | EVENT[/FILTER]/FIELD[ per=cpu|task|trace|FIELD]
 *
 * EVENT is SYSTEM:EVENT; FILTER is what trace-cmd report -F takes after
 * "EVENT:".
 */

#include <stdbool.h>

#include "schedplot/analysis/fieldkey.h"

struct sp_reader;
struct sp_spans;
struct sp_view_opts;

#define SP_EVSPEC_NAME	64
#define SP_EVSPEC_TITLE	96
#define SP_EVSPEC_MAX_KEYS 2

struct sp_evspec {
	char event[SP_EVSPEC_NAME];	/* "system:event" */
	char *filter;			/* NULL: every record */
};

struct sp_markspec {
	struct sp_evspec ev;
	char label[SP_EVSPEC_NAME];	/* a field whose value labels the mark, "" none */
	char title[SP_EVSPEC_TITLE];	/* as the legend and stats name it */
};

struct sp_spanspec {
	struct sp_evspec start, end;
	char keys[SP_EVSPEC_MAX_KEYS][SP_EVSPEC_NAME];	/* fields of both events */
	int nr_keys;
	char title[SP_EVSPEC_TITLE];	/* name=, else "START..END" as given */
};

/*
 * --color-by FIELD (the switch-in's, sched_switch) or EVENT/FIELD: the
 * value of the latest record on the run's CPU (per=cpu, the default), of
 * its task (per=task: the record's common_pid; per=FIELD: the task that
 * field of the record names) or anywhere (per=trace).
 */
struct sp_colorspec {
	struct sp_evspec ev;
	char field[SP_EVSPEC_NAME];
	enum sp_fieldkey_per per;
	char task_field[SP_EVSPEC_NAME];	/* per=FIELD, else "" */
	char title[SP_EVSPEC_TITLE * 2];	/* "next_prio of the switch-in" */
	char unknown[SP_EVSPEC_TITLE];		/* what runs of no value are called */
};

/**
 * sp_evspec_color_parse - parse a --color-by of a field
 * @cmd: the subcommand, for messages
 * @text: the definition (not pid, command or process)
 * @spec: filled in (released with sp_evspec_color_release())
 *
 * Return: 0 or SP_EXIT_USAGE, having said why.
 */
int sp_evspec_color_parse(const char *cmd, const char *text, struct sp_colorspec *spec);

/**
 * sp_evspec_color_release - free what a --color-by definition holds
 * @spec: parsed or zeroed
 */
void sp_evspec_color_release(struct sp_colorspec *spec);

/**
 * sp_evspec_events - the events a --mark, --span or --color-by needs recorded
 * @cmd: the subcommand, for messages
 * @opt: SP_VOPT_MARK, SP_VOPT_SPAN or SP_VOPT_COLOR_BY
 * @text: the definition
 * @events: set to its events, "system:event", each once
 * @nr: set to how many (--color-by pid, command or process: none)
 *
 * Return: 0 or SP_EXIT_USAGE, having said why.
 */
int sp_evspec_events(const char *cmd, int opt, const char *text,
		     char events[2][SP_EVSPEC_NAME], int *nr);

/**
 * sp_evspec_mark_parse - parse a --mark definition
 * @cmd: the subcommand, for messages
 * @text: the definition
 * @spec: filled in (released with sp_evspec_mark_release())
 *
 * Prints a usage error naming what is wrong.
 * Return: 0 or SP_EXIT_USAGE.
 */
int sp_evspec_mark_parse(const char *cmd, const char *text, struct sp_markspec *spec);

/**
 * sp_evspec_span_parse - parse a --span definition
 * @cmd: the subcommand, for messages
 * @text: the definition
 * @spec: filled in (released with sp_evspec_span_release())
 *
 * Return: 0 or SP_EXIT_USAGE, having said why.
 */
int sp_evspec_span_parse(const char *cmd, const char *text, struct sp_spanspec *spec);

/**
 * sp_evspec_mark_release - free what a mark definition holds
 * @spec: parsed or zeroed
 */
void sp_evspec_mark_release(struct sp_markspec *spec);

/**
 * sp_evspec_span_release - free what a span definition holds
 * @spec: parsed or zeroed
 */
void sp_evspec_span_release(struct sp_spanspec *spec);

/**
 * sp_evspec_keep - keep a --mark or --span definition once it parses
 * @o: the options; the definition is added to o->marks or o->spans
 * @opt: SP_VOPT_MARK or SP_VOPT_SPAN
 * @arg: the definition (kept: a pointer into argv)
 *
 * Return: 0, or the exit code having said what is wrong.
 */
int sp_evspec_keep(struct sp_view_opts *o, int opt, const char *arg);

/**
 * sp_evspec_watch - ask the reader for the records of an event that pass its filter
 * @r: the reader, before its pass
 * @path: the trace, for messages
 * @opt: "--mark" or "--span", for messages
 * @text: the definition as given, for messages
 * @ev: the event and its filter
 * @fields: the fields wanted (sp_reader_watch())
 * @nr_fields: how many
 * @watch: set to the watch's index
 *
 * Says what is wrong in one line: a bad filter or a field the event lacks
 * is a usage error, an event the trace lacks a failure.
 *
 * Return: SP_EXIT_OK, SP_EXIT_USAGE or SP_EXIT_FAILURE.
 */
int sp_evspec_watch(struct sp_reader *r, const char *path, const char *opt, const char *text,
		    const struct sp_evspec *ev, const char *const *fields, int nr_fields,
		    int *watch);

/**
 * sp_evspec_plan - the watches of every --span (and --mark) of the options
 * @r: the reader, before its pass
 * @path: the trace, for messages
 * @o: the options (o->spans, o->marks)
 * @sp: zeroed; its kinds (and marks, with the field of their label=FIELD
 *	as their watch's one field) are set, ready for sp_spans_init()
 * @marks: count the --mark records too (stats; the views draw them instead)
 *
 * Return: SP_EXIT_OK, or the exit code having said what is wrong.
 */
int sp_evspec_plan(struct sp_reader *r, const char *path, const struct sp_view_opts *o,
		   struct sp_spans *sp, bool marks);

#endif /* SP_EVSPEC_H */
