// SPDX-License-Identifier: GPL-2.0-only
/*
 * evformat: a check of an event format's text before libtraceevent parses
 * it, for what the library does not survive (see evformat.h).
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/trace/evformat.h"

#define MAX_FIELDS 256

struct span {
	const char *p;
	size_t len;
};

static bool is_ident(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* The name declared by "field:TYPE NAME;" or "field:TYPE NAME[N];" in [p, end). */
static bool field_name(const char *p, const char *end, struct span *name)
{
	const char *q;

	while (p < end && *p != ';' && *p != '\n')
		p++;
	if (p >= end || *p != ';')
		return false;
	q = p;
	if (q[-1] == ']') {		/* an array: skip back over "[...]" */
		while (q > name->p && q[-1] != '[')
			q--;
		if (q == name->p)
			return false;
		q--;
	}
	p = q;
	while (q > name->p && is_ident(q[-1]))
		q--;
	if (q == p)
		return false;
	name->p = q;
	name->len = (size_t)(p - q);
	return true;
}

/*
 * Whether [p, end) starts, after blanks, with a number other than zero as
 * libtraceevent reads it (strtoull base 0: "0008" is octal 0).  A divisor
 * that is anything else, an expression or a field, is refused too.
 */
static bool nonzero_literal(const char *p, const char *end)
{
	char num[32];
	size_t n = 0;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p >= end || !isdigit((unsigned char)*p))
		return false;
	while (p < end && isalnum((unsigned char)*p)) {
		if (n == sizeof(num) - 1)
			return false;
		num[n++] = *p++;
	}
	num[n] = '\0';
	return strtoull(num, NULL, 0) != 0;
}

/* Whether [p, end) starts, after blanks, with a literal zero ("0", "00", "0x0"). */
static bool zero_literal(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p < end && isdigit((unsigned char)*p) && !nonzero_literal(p, end);
}

static bool declared(const struct span *fields, int nr, const char *p, size_t len)
{
	for (int i = 0; i < nr; i++)
		if (fields[i].len == len && !memcmp(fields[i].p, p, len))
			return true;
	return false;
}

/* Whether an identifier or a number ends just before @p (blanks between). */
static bool after_operand(const char *start, const char *p)
{
	while (p > start && (p[-1] == ' ' || p[-1] == '\t'))
		p--;
	return p > start && is_ident(p[-1]);
}

int sp_evformat_check(const char *text, size_t len)
{
	static const char field_tag[] = "field:", print_tag[] = "print fmt:", rec[] = "REC->";
	struct span fields[MAX_FIELDS];
	const char *p = text, *end = text + len, *fmt = NULL;
	int nr = 0, nr_strings = 0;
	bool quoted = false, choice = false;	/* choice: a '?' came before */

	/*
	 * A kernel writes printable ASCII, tabs and newlines only (a byte
	 * above 0x7f in an array size crashes libtraceevent 1.7 too).
	 */
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];

		if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c >= 0x7f)
			return -EBADMSG;
	}
	/* the field declarations, one per line, up to the print fmt */
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *s = p;

		if (!eol)
			eol = end;
		while (s < eol && (*s == ' ' || *s == '\t'))
			s++;
		if ((size_t)(eol - s) >= sizeof(print_tag) - 1 &&
		    !memcmp(s, print_tag, sizeof(print_tag) - 1)) {
			fmt = s + sizeof(print_tag) - 1;
			break;
		}
		/* a quote here starts a string for libtraceevent, across lines */
		for (const char *c = s; c < eol; c++)
			if (*c == '"' || *c == '\'' || *c == '\\' || *c == '`')
				return -EBADMSG;
		if ((size_t)(eol - s) >= sizeof(field_tag) - 1 &&
		    !memcmp(s, field_tag, sizeof(field_tag) - 1)) {
			struct span name = { s + sizeof(field_tag) - 1, 0 };

			if (nr == MAX_FIELDS || !field_name(name.p, eol, &name))
				return -EBADMSG;
			fields[nr++] = name;
		}
		p = eol + 1;
	}
	if (!fmt)
		return 0;	/* no print fmt: nothing for the crash to follow */
	/* every REC->NAME outside string literals names a declared field */
	for (p = fmt; p < end; p++) {
		if (quoted) {
			if (*p == '\\' && p + 1 < end)
				p++;
			else if (*p == '"')
				quoted = false;
			/*
			 * A damaged quote can make libtraceevent read as an
			 * expression what looks like a string here (it recovers
			 * from a broken __print_flags() in its own way): past the
			 * format string, a division by zero is refused anywhere.
			 */
			else if ((*p == '/' || *p == '%') && nr_strings > 1 && zero_literal(p + 1, end))
				return -EBADMSG;
			continue;
		}
		if (*p == '?')
			choice = true;
		if (*p == '"') {
			quoted = true;
			nr_strings++;
		} else if ((size_t)(end - p) > sizeof(rec) - 1 &&
			   !memcmp(p, rec, sizeof(rec) - 1) && (p == fmt || !is_ident(p[-1]))) {
			const char *n = p + sizeof(rec) - 1, *q = n;

			while (q < end && is_ident(*q))
				q++;
			if (q == n || !declared(fields, nr, n, (size_t)(q - n)))
				return -EBADMSG;
			/*
			 * an element of an array field (ftrace:kernel_stack's
			 * caller[0]): a literal index, and not where a branch
			 * of a ?: may be
			 */
			if (q < end && *q == '[') {
				if (choice)
					return -EBADMSG;
				const char *digits = ++q;

				while (q < end && isdigit((unsigned char)*q))
					q++;
				if (q == digits || q >= end || *q != ']')
					return -EBADMSG;
				q++;
			}
			p = q - 1;
		} else if ((size_t)(end - p) >= 2 && p[0] == '-' && p[1] == '>') {
			return -EBADMSG;	/* only REC-> is dereferenced */
		} else if (*p == ';') {
			return -EBADMSG;	/* the arguments are expressions: no ';' */
		} else if (*p == '.' && !(p > fmt && isdigit((unsigned char)p[-1]))) {
			return -EBADMSG;	/* a member of a string: a NULL dereference */
		} else if (*p && strchr("'#$@`\\", *p)) {
			return -EBADMSG;	/* never in a kernel's arguments; ' starts a string there */
		} else if ((*p == '/' || *p == '%') && !nonzero_literal(p + 1, end)) {
			return -EBADMSG;	/* libtraceevent folds constants: SIGFPE */
		} else if (*p == '[' || *p == ']') {
			return -EBADMSG;	/* no other '[': a crash after ':' */
		} else if ((*p == '{' || *p == '}') && after_operand(fmt, p)) {
			return -EBADMSG;	/* braces open and close flag lists: a crash */
		}
	}
	return 0;
}
