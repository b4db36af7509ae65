// SPDX-License-Identifier: GPL-2.0-only
/*
 * evfilter: trace-cmd's -F filters over one event, through libtraceevent.
 * See include/schedplot/trace/evfilter.h.
 */
#define _GNU_SOURCE	/* asprintf */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "schedplot/base/error.h"
#include "schedplot/trace/cpustream.h"
#include "schedplot/trace/evfilter.h"

/*
 * A char array of no fixed size at the end of a record (ftrace:print's
 * "char buf[]") is read by libtraceevent's filter as a string of its
 * declared size, 0: empty, so no filter on it ever matches (trace-cmd
 * report -F neither).  Such a field's comparisons are pointed at a copy
 * of the field declared TAIL_CAP bytes long, and a record is handed to
 * the library in a copy padded with zeros to that length, so the string
 * it reads is the record's own, cut at TAIL_CAP bytes.
 */
#define TAIL_CAP	1024

struct sp_evfilter {
	struct tep_event_filter *filter;
	struct tep_format_field *tails;	/* the copies of the tail fields */
	int nr_tails;
	unsigned int padded;		/* bytes a record is padded to, 0: no tails */
	char *scratch;
	unsigned int alloc_scratch;
};

/* The names of @event's fields, for an error: "a, b, c" (cut to @size). */
static void field_names(struct tep_event *event, char *buf, size_t size)
{
	struct tep_format_field *f;
	size_t n = 0;

	buf[0] = '\0';
	for (f = event->format.fields; f && n + 1 < size; f = f->next)
		n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? ", " : "", f->name);
}

/*
 * libtraceevent reads a name it does not know as a comparison that is
 * always false; every name outside a quoted string must be a field of the
 * event (common ones too) or COMM or CPU.  Numbers start with a digit.
 * Return: 0 or -ENOENT with @err naming the first unknown one.
 */
static int check_field_names(struct tep_event *event, const char *text, struct sp_error *err)
{
	const char *p = text;
	char name[128], fields[160];

	while (*p) {
		size_t n;

		if (*p == '"' || *p == '\'') {
			char q = *p++;

			while (*p && *p != q)
				p += p[0] == '\\' && p[1] ? 2 : 1;
			p += *p == q;
			continue;
		}
		if (isdigit((unsigned char)*p)) {
			while (isalnum((unsigned char)*p) || *p == '_' || *p == '.')
				p++;
			continue;
		}
		if (!isalpha((unsigned char)*p) && *p != '_') {
			p++;
			continue;
		}
		for (n = 0; isalnum((unsigned char)p[n]) || p[n] == '_'; n++)
			;
		snprintf(name, sizeof(name), "%.*s", (int)n, p);
		p += n;
		if (!strcmp(name, "COMM") || !strcmp(name, "CPU") || tep_find_any_field(event, name))
			continue;
		field_names(event, fields, sizeof(fields));
		return sp_error_set(err, -ENOENT, -1, "%s:%s has no field '%s' (its fields: %s)",
				    event->system, event->name, name, fields);
	}
	return 0;
}

/* Point the comparisons of tail fields in @arg at copies of TAIL_CAP bytes.  Return: 0 or -ENOMEM. */
static int widen_tails(struct sp_evfilter *f, struct tep_filter_arg *arg)
{
	struct tep_format_field *field, *copy;
	char *buf;
	int ret, i;

	if (!arg)
		return 0;
	switch (arg->type) {
	case TEP_FILTER_ARG_OP:
		ret = widen_tails(f, arg->op.left);
		return ret ? ret : widen_tails(f, arg->op.right);
	case TEP_FILTER_ARG_EXP:
		ret = widen_tails(f, arg->exp.left);
		return ret ? ret : widen_tails(f, arg->exp.right);
	case TEP_FILTER_ARG_NUM:
		ret = widen_tails(f, arg->num.left);
		return ret ? ret : widen_tails(f, arg->num.right);
	case TEP_FILTER_ARG_STR:
		break;
	default:
		return 0;
	}
	field = arg->str.field;
	if (!field || field->size || (field->flags & TEP_FIELD_IS_DYNAMIC) || field->offset < 0)
		return 0;
	for (i = 0, copy = NULL; i < f->nr_tails && !copy; i++)
		if (f->tails[i].offset == field->offset)
			copy = &f->tails[i];
	if (!copy) {
		/* at most one per comparison: room made when the filter was parsed */
		copy = &f->tails[f->nr_tails++];
		*copy = *field;
		copy->size = TAIL_CAP;
		copy->flags |= TEP_FIELD_IS_STRING;
		if ((unsigned int)field->offset + TAIL_CAP + 1 > f->padded)
			f->padded = (unsigned int)field->offset + TAIL_CAP + 1;
	}
	buf = realloc(arg->str.buffer, TAIL_CAP + 1);
	if (!buf)
		return -ENOMEM;
	memset(buf, 0, TAIL_CAP + 1);
	arg->str.buffer = buf;
	arg->str.field = copy;
	return 0;
}

/* Comparisons in @text, at most: for the room of the tail fields' copies. */
static int nr_comparisons(const char *text)
{
	int n = 1;

	for (; *text; text++)
		n += *text == '=' || *text == '~' || *text == '<' || *text == '>';
	return n;
}

/*
 * The kernel's event filters take FIELD ~ "GLOB" (a shell glob, ftrace's
 * own syntax); libtraceevent's take FIELD =~ "REGEX", and read a lone '~'
 * as a bitwise not.  Each '~' outside a string that is not part of "=~"
 * or "!~" and is followed by a double-quoted string becomes "=~" with the
 * glob turned into the regular expression that matches the same strings
 * ('*' any run, '?' any one character, [...] a class, the rest literally,
 * anchored at both ends).  Return: the filter to hand to the library (malloc'd), or
 * NULL for want of memory.
 */
static char *globs_to_regex(const char *text)
{
	size_t len = strlen(text), n = 0;
	char *out = malloc(len * 2 + 16 * (len + 1)), quote = 0;
	const char *p;

	if (!out)
		return NULL;
	for (p = text; *p; p++) {
		const char *q = p + 1;

		if (quote) {
			if (*p == '\\' && p[1])
				out[n++] = *p++;
			else if (*p == quote)
				quote = 0;
			out[n++] = *p;
			continue;
		}
		if (*p == '"' || *p == '\'') {
			quote = *p;
			out[n++] = *p;
			continue;
		}
		while (*q == ' ' || *q == '\t')
			q++;
		if (*p != '~' || (p > text && (p[-1] == '=' || p[-1] == '!')) || *q != '"') {
			out[n++] = *p;
			continue;
		}
		n += (size_t)sprintf(out + n, "=~ \"^");
		for (q++; *q && *q != '"'; q++) {
			if (*q == '*') {
				out[n++] = '.';
				out[n++] = '*';
			} else if (*q == '?') {
				out[n++] = '.';
			} else if (*q == '[' && strchr(q + 1, ']') && strchr(q + 1, ']') <
				   strchr(q + 1, '"')) {
				/* a class: [abc], [a-z], [!a] as the regex's [^a] */
				out[n++] = *q++;
				if (*q == '!')
					out[n++] = '^', q++;
				while (*q != ']')
					out[n++] = *q++;
				out[n++] = ']';
			} else {
				if (*q == '\\' && q[1])
					q++;
				if (strchr(".[]\\^$*", *q))
					out[n++] = '\\';
				out[n++] = *q;
			}
		}
		n += (size_t)sprintf(out + n, "$\"");
		p = *q ? q : q - 1;
	}
	out[n] = '\0';
	return out;
}

struct sp_evfilter *sp_evfilter_alloc(struct tep_handle *tep, struct tep_event *event,
				      const char *text, struct sp_error *err)
{
	struct sp_evfilter *f;
	enum tep_errno ret;
	char *spec, *regex, msg[200];
	int i;

	if (check_field_names(event, text, err))
		return NULL;
	f = calloc(1, sizeof(*f));
	regex = globs_to_regex(text);
	if (!f || !regex || !(f->filter = tep_filter_alloc(tep)) ||
	    asprintf(&spec, "%s/%s:%s", event->system, event->name, regex) < 0) {
		if (f)
			tep_filter_free(f->filter);
		free(f);
		free(regex);
		sp_error_set(err, -ENOMEM, -1, "out of memory");
		return NULL;
	}
	free(regex);
	ret = tep_filter_add_filter_str(f->filter, spec);
	free(spec);
	if (ret < 0) {
		if (tep_filter_strerror(f->filter, ret, msg, sizeof(msg)) < 0)
			snprintf(msg, sizeof(msg), "not a filter");
		/* the library's message may run over lines: keep the first */
		msg[strcspn(msg, "\n")] = '\0';
		sp_error_set(err, -EINVAL, -1, "bad filter '%s' for %s:%s: %s", text,
			     event->system, event->name, msg);
		sp_evfilter_free(f);
		return NULL;
	}
	f->tails = calloc((size_t)nr_comparisons(text), sizeof(*f->tails));
	for (i = 0; f->tails && i < f->filter->filters; i++)
		if (widen_tails(f, f->filter->event_filters[i].filter))
			break;
	if (!f->tails || i < f->filter->filters) {
		sp_error_set(err, -ENOMEM, -1, "out of memory");
		sp_evfilter_free(f);
		return NULL;
	}
	return f;
}

bool sp_evfilter_match(struct sp_evfilter *f, const struct sp_raw_record *rec, int cpu)
{
	struct tep_record r = {
		.ts = rec->ts_ns,
		.size = (int)rec->size,
		.record_size = (int)rec->size,
		.data = rec->data,
		.cpu = cpu,
		.locked = 1,
	};

	if (f->padded) {
		unsigned int need = rec->size > f->padded ? rec->size + 1 : f->padded;

		if (need > f->alloc_scratch) {
			char *p = realloc(f->scratch, need);

			if (!p)
				return false;
			f->scratch = p;
			f->alloc_scratch = need;
		}
		memcpy(f->scratch, rec->data, rec->size);
		memset(f->scratch + rec->size, 0, need - rec->size);
		r.data = f->scratch;
	}
	return tep_filter_match(f->filter, &r) == TEP_ERRNO__FILTER_MATCH;
}

void sp_evfilter_free(struct sp_evfilter *f)
{
	if (!f)
		return;
	tep_filter_free(f->filter);
	free(f->tails);
	free(f->scratch);
	free(f);
}
