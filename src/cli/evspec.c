// SPDX-License-Identifier: GPL-2.0-only
/*
 * evspec: --mark and --span definitions into events, filters and fields.
 * See include/schedplot/cli/evspec.h.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/cli/cli.h"
#include "schedplot/analysis/spans.h"
#include "schedplot/base/error.h"
#include "schedplot/cli/evspec.h"
#include "schedplot/cli/viewopts.h"
#include "schedplot/trace/reader.h"

static bool name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Length of a field's name at @p (0: none). */
static size_t field_len(const char *p)
{
	size_t n = 0;

	while (name_char(p[n]))
		n++;
	return n;
}

/*
 * SYSTEM:EVENT[/FILTER/] at *@p; *@p is moved past it.  The filter ends
 * at the first '/' outside a quoted string.  Return: 0, or SP_EXIT_USAGE.
 */
static int parse_event(const char *cmd, const char *opt, const char *text, const char **p,
		       struct sp_evspec *ev)
{
	const char *s = *p, *q;
	size_t n = 0;

	while (name_char(s[n]) || s[n] == ':')
		n++;
	q = memchr(s, ':', n);
	if (!q || q == s || q == s + n - 1 || memchr(q + 1, ':', s + n - q - 1) ||
	    n >= sizeof(ev->event))
		return sp_cli_usage(cmd, "%s '%s': '%.*s' is not an event; give SYSTEM:EVENT, "
				    "like irq:irq_handler_entry", opt, text,
				    (int)(strcspn(s, "/ .") ? strcspn(s, "/ .") : strlen(s)), s);
	snprintf(ev->event, sizeof(ev->event), "%.*s", (int)n, s);
	s += n;
	if (*s == '/') {
		const char *f = ++s;
		char quote = 0;

		for (; *s && (quote || *s != '/'); s++) {
			if (quote && *s == '\\' && s[1])
				s++;
			else if (quote && *s == quote)
				quote = 0;
			else if (!quote && (*s == '"' || *s == '\''))
				quote = *s;
		}
		if (*s != '/')
			return sp_cli_usage(cmd, "%s '%s': the filter of %s has no closing '/'", opt,
					    text, ev->event);
		while (f < s && isspace((unsigned char)*f))
			f++;
		if (f < s) {
			ev->filter = strndup(f, (size_t)(s - f));
			if (!ev->filter)
				return sp_cli_fail(NULL, "out of memory");
		}
		s++;
	}
	*p = s;
	return 0;
}

/* " word=VALUE" at *@p: 1 with @key and @val (pointing into the text), 0 at the end. */
static int next_setting(const char **p, const char **key, size_t *key_len, const char **val,
			size_t *val_len)
{
	const char *s = *p;

	while (isspace((unsigned char)*s))
		s++;
	if (!*s) {
		*p = s;
		return 0;
	}
	*key = s;
	*key_len = field_len(s);
	if (!*key_len || s[*key_len] != '=')
		return -1;
	s += *key_len + 1;
	*val = s;
	/* name= runs to the end of the definition; the others to a space */
	*val_len = *key_len == 4 && !strncmp(*key, "name", 4) ? strlen(s) : strcspn(s, " \t");
	*p = s + *val_len;
	return 1;
}

int sp_evspec_mark_parse(const char *cmd, const char *text, struct sp_markspec *spec)
{
	const char *p = text, *key, *val;
	size_t kl, vl;
	int ret;

	memset(spec, 0, sizeof(*spec));
	ret = parse_event(cmd, "--mark", text, &p, &spec->ev);
	if (ret)
		return ret;
	/* as trace-cmd report -F writes it: "sched_waking: prio < 100" */
	if (spec->ev.filter)
		snprintf(spec->title, sizeof(spec->title), "%s: %s",
			 strchr(spec->ev.event, ':') + 1, spec->ev.filter);
	else
		snprintf(spec->title, sizeof(spec->title), "%s", spec->ev.event);
	while ((ret = next_setting(&p, &key, &kl, &val, &vl)) > 0) {
		if (kl == 5 && !strncmp(key, "label", 5) && vl == field_len(val) && vl &&
		    vl < sizeof(spec->label)) {
			snprintf(spec->label, sizeof(spec->label), "%.*s", (int)vl, val);
			continue;
		}
		ret = -1;
		break;
	}
	if (ret < 0) {
		sp_evspec_mark_release(spec);
		return sp_cli_usage(cmd, "--mark '%s': after the event, only label=FIELD, not '%s'",
				    text, p);
	}
	/* a print's text is its label unless another field is named */
	if (!spec->label[0] && !strcmp(spec->ev.event, "ftrace:print"))
		strcpy(spec->label, "buf");
	return 0;
}

int sp_evspec_span_parse(const char *cmd, const char *text, struct sp_spanspec *spec)
{
	const char *p = text, *key, *val;
	size_t kl, vl;
	int ret;

	memset(spec, 0, sizeof(*spec));
	ret = parse_event(cmd, "--span", text, &p, &spec->start);
	if (ret)
		return ret;
	if (strncmp(p, "..", 2)) {
		sp_evspec_span_release(spec);
		return sp_cli_usage(cmd, "--span '%s': give START..END key=FIELD, like "
				    "'irq:irq_handler_entry..irq:irq_handler_exit key=irq'", text);
	}
	p += 2;
	ret = parse_event(cmd, "--span", text, &p, &spec->end);
	if (ret) {
		sp_evspec_span_release(spec);
		return ret;
	}
	snprintf(spec->title, sizeof(spec->title), "%s..%s", strchr(spec->start.event, ':') + 1,
		 strchr(spec->end.event, ':') + 1);
	while ((ret = next_setting(&p, &key, &kl, &val, &vl)) > 0) {
		if (kl == 3 && !strncmp(key, "key", 3)) {
			const char *v = val, *end = val + vl;

			spec->nr_keys = 0;
			while (v < end) {
				size_t n = field_len(v);

				if (!n || n >= SP_EVSPEC_NAME || spec->nr_keys == SP_EVSPEC_MAX_KEYS ||
				    (v + n < end && v[n] != ','))
					break;
				snprintf(spec->keys[spec->nr_keys++], SP_EVSPEC_NAME, "%.*s",
					 (int)n, v);
				v += n + (v + n < end);
			}
			if (v < end || !spec->nr_keys) {
				sp_evspec_span_release(spec);
				return sp_cli_usage(cmd, "--span '%s': key= takes one or two fields "
						    "separated by a comma, like key=irq or "
						    "key=dev,sector", text);
			}
		} else if (kl == 4 && !strncmp(key, "name", 4) && vl) {
			snprintf(spec->title, sizeof(spec->title), "%.*s", (int)vl, val);
		} else {
			ret = -1;
			break;
		}
	}
	if (ret < 0 || !spec->nr_keys) {
		sp_evspec_span_release(spec);
		if (ret < 0)
			return sp_cli_usage(cmd, "--span '%s': after the events, only key=FIELD "
					    "and name=NAME, not '%s'", text, p);
		return sp_cli_usage(cmd, "--span '%s': which records belong together? add "
				    "key=FIELD, like key=irq or key=common_pid", text);
	}
	return 0;
}

/* What a --color-by of a field says, worded for the legend. */
static void colorspec_words(struct sp_colorspec *spec)
{
	const char *ev = strchr(spec->ev.event, ':') + 1;

	switch (spec->per) {
	case SP_FIELDKEY_SWITCH_IN:
		snprintf(spec->title, sizeof(spec->title), "%s of the switch-in", spec->field);
		snprintf(spec->unknown, sizeof(spec->unknown), "no switch-in record");
		return;
	case SP_FIELDKEY_PER_CPU:
		snprintf(spec->title, sizeof(spec->title), "%s of the CPU's latest %s",
			 spec->field, ev);
		break;
	case SP_FIELDKEY_PER_TASK:
		if (spec->task_field[0])
			snprintf(spec->title, sizeof(spec->title), "%s of the latest %s of its %s",
				 spec->field, ev, spec->task_field);
		else
			snprintf(spec->title, sizeof(spec->title), "%s of the task's latest %s",
				 spec->field, ev);
		break;
	default:
		snprintf(spec->title, sizeof(spec->title), "%s of the latest %s", spec->field, ev);
		break;
	}
	snprintf(spec->unknown, sizeof(spec->unknown), "before any %s", ev);
}

/* After EVENT/FIELD: the end, or settings (EVENT/FILTER/FIELD has more). */
static bool simple_rest(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return !*s || !strncmp(s, "per=", 4);
}

int sp_evspec_color_parse(const char *cmd, const char *text, struct sp_colorspec *spec)
{
	const char *p = text, *key, *val;
	size_t n, kl, vl;
	int ret;

	memset(spec, 0, sizeof(*spec));
	n = field_len(p);
	if (n && !p[n]) {	/* FIELD: of the switch-in */
		if (n >= sizeof(spec->field))
			goto bad;
		snprintf(spec->ev.event, sizeof(spec->ev.event), "sched:sched_switch");
		snprintf(spec->field, sizeof(spec->field), "%s", p);
		colorspec_words(spec);
		return 0;
	}
	if (!strchr(p, ':'))
		goto bad;
	/* EVENT/FIELD, else EVENT/FILTER/FIELD */
	n = strcspn(p, "/");
	if (p[n] == '/' && field_len(p + n + 1) && simple_rest(p + n + 1 + field_len(p + n + 1))) {
		char name[SP_EVSPEC_NAME];
		const char *q = name;

		if (n >= sizeof(name))
			goto bad;
		snprintf(name, sizeof(name), "%.*s", (int)n, p);
		ret = parse_event(cmd, "--color-by", text, &q, &spec->ev);
		if (ret)
			return ret;
		if (*q)
			goto bad;
		p += n + 1;
	} else {
		ret = parse_event(cmd, "--color-by", text, &p, &spec->ev);
		if (ret)
			return ret;
		if (!spec->ev.filter && p[-1] != '/')
			goto bad;
	}
	n = field_len(p);
	if (!n || n >= sizeof(spec->field))
		goto bad;
	snprintf(spec->field, sizeof(spec->field), "%.*s", (int)n, p);
	p += n;
	spec->per = !strcmp(spec->ev.event, "sched:sched_switch") ? SP_FIELDKEY_SWITCH_IN :
		    SP_FIELDKEY_PER_CPU;
	while ((ret = next_setting(&p, &key, &kl, &val, &vl)) > 0) {
		if (kl != 3 || strncmp(key, "per", 3) || !vl) {
			ret = -1;
			break;
		}
		if (vl == 3 && !strncmp(val, "cpu", 3)) {
			spec->per = SP_FIELDKEY_PER_CPU;
		} else if (vl == 4 && !strncmp(val, "task", 4)) {
			spec->per = SP_FIELDKEY_PER_TASK;
		} else if (vl == 5 && !strncmp(val, "trace", 5)) {
			spec->per = SP_FIELDKEY_PER_TRACE;
		} else if (vl == field_len(val) && vl < sizeof(spec->task_field)) {
			spec->per = SP_FIELDKEY_PER_TASK;
			snprintf(spec->task_field, sizeof(spec->task_field), "%.*s", (int)vl, val);
		} else {
			ret = -1;
			break;
		}
	}
	if (ret < 0) {
		sp_evspec_color_release(spec);
		return sp_cli_usage(cmd, "--color-by '%s': after the field, only per=cpu, per=task, "
				    "per=trace or per=FIELD (a field naming the task), not '%s'",
				    text, p);
	}
	colorspec_words(spec);
	return 0;
bad:
	sp_evspec_color_release(spec);
	return sp_cli_usage(cmd, "--color-by must be pid, command, process, a field of "
			    "sched_switch such as next_prio, or EVENT/FIELD such as "
			    "'sched:sched_switch/next_prio', not '%s'", text);
}

void sp_evspec_color_release(struct sp_colorspec *spec)
{
	free(spec->ev.filter);
	spec->ev.filter = NULL;
}

void sp_evspec_mark_release(struct sp_markspec *spec)
{
	free(spec->ev.filter);
	spec->ev.filter = NULL;
}

void sp_evspec_span_release(struct sp_spanspec *spec)
{
	free(spec->start.filter);
	free(spec->end.filter);
	spec->start.filter = spec->end.filter = NULL;
}

int sp_evspec_events(const char *cmd, int opt, const char *text,
		     char events[2][SP_EVSPEC_NAME], int *nr)
{
	struct sp_markspec m;
	struct sp_spanspec sp;
	struct sp_colorspec c;
	int ret;

	*nr = 0;
	if (opt == SP_VOPT_MARK) {
		ret = sp_evspec_mark_parse(cmd, text, &m);
		if (!ret)
			snprintf(events[(*nr)++], SP_EVSPEC_NAME, "%s", m.ev.event);
		sp_evspec_mark_release(&m);
		return ret;
	}
	if (opt == SP_VOPT_SPAN) {
		ret = sp_evspec_span_parse(cmd, text, &sp);
		if (!ret) {
			snprintf(events[(*nr)++], SP_EVSPEC_NAME, "%s", sp.start.event);
			if (strcmp(sp.start.event, sp.end.event))
				snprintf(events[(*nr)++], SP_EVSPEC_NAME, "%s", sp.end.event);
		}
		sp_evspec_span_release(&sp);
		return ret;
	}
	/* the ways of coloring by task need nothing */
	if (!strcmp(text, "pid") || !strcmp(text, "command") || !strcmp(text, "process") ||
	    !strcmp(text, "parent"))
		return 0;
	ret = sp_evspec_color_parse(cmd, text, &c);
	if (!ret)
		snprintf(events[(*nr)++], SP_EVSPEC_NAME, "%s", c.ev.event);
	sp_evspec_color_release(&c);
	return ret;
}

int sp_evspec_keep(struct sp_view_opts *o, int opt, const char *arg)
{
	bool mark = opt == SP_VOPT_MARK;
	const char ***list = mark ? &o->marks : &o->spans;
	int *nr = mark ? &o->nr_marks : &o->nr_spans;
	struct sp_markspec m;
	struct sp_spanspec sp;
	const char **grown;
	int ret;

	ret = mark ? sp_evspec_mark_parse(o->cmd, arg, &m) : sp_evspec_span_parse(o->cmd, arg, &sp);
	if (ret)
		return ret;
	if (mark)
		sp_evspec_mark_release(&m);
	else
		sp_evspec_span_release(&sp);
	grown = realloc(*list, (size_t)(*nr + 1) * sizeof(**list));
	if (!grown)
		return sp_cli_fail(NULL, "out of memory");
	grown[(*nr)++] = arg;
	*list = grown;
	return 0;
}

int sp_evspec_watch(struct sp_reader *r, const char *path, const char *opt, const char *text,
		    const struct sp_evspec *ev, const char *const *fields, int nr_fields,
		    int *watch)
{
	struct sp_error err = { 0 };
	int ret;

	ret = sp_reader_watch(r, ev->event, ev->filter, fields, nr_fields, &err);
	if (ret >= 0) {
		*watch = ret;
		return SP_EXIT_OK;
	}
	/* the trace lacks the event: a matter of the trace, not of the command line */
	if (ret == -ENOENT && !strncmp(err.msg, "the trace has no", 16)) {
		sp_cli_fail(path, "%s '%s': %s", opt, text, err.msg);
		return SP_EXIT_FAILURE;
	}
	if (ret == -ENOENT || ret == -EINVAL || ret == -E2BIG) {
		sp_cli_fail(NULL, "%s '%s': %s", opt, text, err.msg);
		return SP_EXIT_USAGE;
	}
	sp_cli_error(path, &err);
	return SP_EXIT_FAILURE;
}

/* One --span: the watches of its start and end, with the key's fields. */
static int plan_span(struct sp_reader *r, const char *path, const char *cmd, const char *text,
		     struct sp_span_kind *k)
{
	const char *keys[SP_EVSPEC_MAX_KEYS];
	struct sp_spanspec spec;
	int i, ret;

	ret = sp_evspec_span_parse(cmd, text, &spec);
	if (ret)
		return ret;
	for (i = 0; i < spec.nr_keys; i++)
		keys[i] = spec.keys[i];
	ret = sp_evspec_watch(r, path, "--span", text, &spec.start, keys, spec.nr_keys,
			      &k->start_watch);
	if (!ret)
		ret = sp_evspec_watch(r, path, "--span", text, &spec.end, keys, spec.nr_keys,
				      &k->end_watch);
	if (!ret) {
		snprintf(k->name, sizeof(k->name), "%s", spec.title);
		k->nr_keys = spec.nr_keys;
		for (i = 0; i < spec.nr_keys; i++) {
			k->start_kind[i] = (uint8_t)sp_reader_watch_kind(r, k->start_watch, i);
			k->end_kind[i] = (uint8_t)sp_reader_watch_kind(r, k->end_watch, i);
			if ((k->start_kind[i] == SP_VALUE_STR) != (k->end_kind[i] == SP_VALUE_STR)) {
				sp_cli_fail(NULL, "--span '%s': key field '%s' is a string in one "
					    "event and a number in the other", text, keys[i]);
				ret = SP_EXIT_USAGE;
			}
		}
	}
	sp_evspec_span_release(&spec);
	return ret;
}

int sp_evspec_plan(struct sp_reader *r, const char *path, const struct sp_view_opts *o,
		   struct sp_spans *sp, bool marks)
{
	struct sp_markspec m;
	int i, ret;

	if (o->nr_spans > SP_SPANS_MAX_KINDS || o->nr_marks > SP_SPANS_MAX_KINDS)
		return sp_cli_usage(o->cmd, "--span and --mark take at most %d each",
				    SP_SPANS_MAX_KINDS);
	for (i = 0; i < o->nr_spans; i++) {
		ret = plan_span(r, path, o->cmd, o->spans[i], &sp->kinds[i]);
		if (ret)
			return ret;
		sp->nr_kinds++;
	}
	for (i = 0; marks && i < o->nr_marks; i++) {
		struct sp_span_mark *mk = &sp->marks[sp->nr_marks];

		const char *label[1];

		ret = sp_evspec_mark_parse(o->cmd, o->marks[i], &m);
		label[0] = m.label;
		if (!ret)
			ret = sp_evspec_watch(r, path, "--mark", o->marks[i], &m.ev, label,
					      m.label[0] ? 1 : 0, &mk->watch);
		if (!ret) {
			snprintf(mk->name, sizeof(mk->name), "%s", m.title);
			mk->has_label = m.label[0];
			if (mk->has_label)
				mk->label_kind = (uint8_t)sp_reader_watch_kind(r, mk->watch, 0);
		}
		sp_evspec_mark_release(&m);
		if (ret)
			return ret;
		sp->nr_marks++;
	}
	return SP_EXIT_OK;
}
