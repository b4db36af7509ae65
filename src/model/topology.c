// SPDX-License-Identifier: GPL-2.0-only
/*
 * topology: CPU to socket/core/node from lscpu -p output or from the
 * markers schedplot record writes into a trace, and the socket order of the
 * core-by-time chart.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/base/alloc.h"
#include "schedplot/base/error.h"
#include "schedplot/model/topology.h"

/* Fields we use; lscpu has more (Book, Drawer, caches, ...). */
enum { F_CPU, F_CORE, F_SOCKET, F_NODE, F_NR };

static const char *const field_names[F_NR] = { "cpu", "core", "socket", "node" };

/* Largest CPU number accepted: beyond any machine, small enough to allocate. */
#define MAX_CPU 65535

#define MAX_COLS 32

/* Column of each field in a "# CPU,Core,Socket,Node,,L1d" header; false if it is not one. */
static bool parse_header(const char *line, size_t len, int col_of[F_NR])
{
	int col = 0, f, found[F_NR];
	size_t i = 0;

	while (i < len && (line[i] == '#' || line[i] == ' ' || line[i] == '\t'))
		i++;
	for (f = 0; f < F_NR; f++)
		found[f] = -1;
	while (i <= len && col < MAX_COLS) {
		size_t start = i;

		while (i < len && line[i] != ',')
			i++;
		for (f = 0; f < F_NR; f++)
			if (i - start == strlen(field_names[f]) &&
			    !strncasecmp(line + start, field_names[f], i - start))
				found[f] = col;
		col++;
		i++;
	}
	if (found[F_CPU] < 0)
		return false;
	memcpy(col_of, found, sizeof(found));
	return true;
}

static int grow(struct sp_topology *topo, int cpu)
{
	int n = topo->nr_cpus, alloc = cpu + 1, i;
	int *s, *c, *nd;

	if (cpu < n)
		return 0;
	s = realloc(topo->socket, alloc * sizeof(*s));
	if (s)
		topo->socket = s;
	c = realloc(topo->core, alloc * sizeof(*c));
	if (c)
		topo->core = c;
	nd = realloc(topo->node, alloc * sizeof(*nd));
	if (nd)
		topo->node = nd;
	if (!s || !c || !nd)
		return -ENOMEM;
	for (i = n; i < alloc; i++)
		topo->socket[i] = topo->core[i] = topo->node[i] = -1;
	topo->nr_cpus = alloc;
	return 0;
}

/* One field of a data line: -1 for empty, -2 for garbage. */
static long field_value(const char *s, size_t len)
{
	long v = 0;
	size_t i;

	while (len && (*s == ' ' || *s == '\t')) {
		s++;
		len--;
	}
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\r'))
		len--;
	if (!len)
		return -1;
	for (i = 0; i < len; i++) {
		if (!isdigit((unsigned char)s[i]) || v > MAX_CPU * 16L)
			return -2;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

static int parse_line(struct sp_topology *topo, const char *line, size_t len,
		      const int col_of[F_NR], unsigned long lineno, struct sp_error *err)
{
	long val[F_NR];
	const char *p = line, *end = line + len;
	int col = 0, f;

	for (f = 0; f < F_NR; f++)
		val[f] = -1;
	while (p <= end) {
		const char *q = memchr(p, ',', (size_t)(end - p));
		size_t flen = q ? (size_t)(q - p) : (size_t)(end - p);

		for (f = 0; f < F_NR; f++) {
			if (col_of[f] != col)
				continue;
			val[f] = field_value(p, flen);
			if (val[f] == -2)
				return sp_error_set(err, -EINVAL, -1,
						    "line %lu: %s is '%.*s', not a number (expected "
						    "lscpu -p output: CPU,Core,Socket,Node)", lineno,
						    field_names[f], (int)(flen > 40 ? 40 : flen), p);
		}
		col++;
		if (!q)
			break;
		p = q + 1;
	}
	if (val[F_CPU] < 0)
		return sp_error_set(err, -EINVAL, -1,
				    "line %lu: no CPU number (expected lscpu -p output: "
				    "CPU,Core,Socket,Node)", lineno);
	if (val[F_CPU] > MAX_CPU)
		return sp_error_set(err, -EINVAL, -1, "line %lu: CPU %ld is out of range",
				    lineno, val[F_CPU]);
	if (grow(topo, (int)val[F_CPU]))
		return sp_error_set(err, -ENOMEM, -1, "out of memory");
	f = (int)val[F_CPU];
	if (topo->socket[f] != -1 || topo->core[f] != -1 || topo->node[f] != -1)
		return sp_error_set(err, -EINVAL, -1, "line %lu: CPU %d is listed twice", lineno,
				    f);
	topo->socket[f] = (int)(val[F_SOCKET] < 0 ? -1 : val[F_SOCKET]);
	topo->core[f] = (int)(val[F_CORE] < 0 ? -1 : val[F_CORE]);
	topo->node[f] = (int)(val[F_NODE] < 0 ? -1 : val[F_NODE]);
	return 0;
}

int sp_topology_parse(struct sp_topology *topo, const char *text, size_t len,
		      struct sp_error *err)
{
	int col_of[F_NR] = { 0, 1, 2, 3 };
	unsigned long lineno = 0;
	size_t pos = 0;
	bool any = false;
	int ret;

	memset(topo, 0, sizeof(*topo));
	if (memchr(text, '\0', len))
		return sp_error_set(err, -EINVAL, -1, "binary data, not lscpu -p output");
	while (pos < len) {
		const char *line = text + pos, *nl = memchr(line, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - line) : len - pos, i = 0;

		pos += n + (nl ? 1 : 0);
		lineno++;
		while (i < n && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'))
			i++;
		if (i == n)
			continue;
		if (line[i] == '#') {
			parse_header(line + i, n - i, col_of);
			continue;
		}
		ret = parse_line(topo, line + i, n - i, col_of, lineno, err);
		if (ret) {
			sp_topology_release(topo);
			return ret;
		}
		any = true;
	}
	if (!any)
		return sp_error_set(err, -EINVAL, -1,
				    "no CPUs listed (expected the output of lscpu -p run on the "
				    "traced machine)");
	return 0;
}

int sp_topology_load(struct sp_topology *topo, const char *path, struct sp_error *err)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL, *nbuf;
	size_t len = 0, alloc = 0, n;
	int ret;

	memset(topo, 0, sizeof(*topo));
	if (!f)
		return sp_error_set(err, -errno, -1, "cannot open: %s", strerror(errno));
	for (;;) {
		if (alloc - len < 4096) {
			if (alloc > (16u << 20)) {
				free(buf);
				fclose(f);
				return sp_error_set(err, -EFBIG, -1,
						    "too large for lscpu -p output");
			}
			alloc = alloc ? alloc * 2 : 8192;
			nbuf = realloc(buf, alloc);
			if (!nbuf) {
				free(buf);
				fclose(f);
				return sp_error_set(err, -ENOMEM, -1, "out of memory");
			}
			buf = nbuf;
		}
		n = fread(buf + len, 1, alloc - len, f);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		ret = errno ? -errno : -EIO;
		free(buf);
		fclose(f);
		return sp_error_set(err, ret, -1, "cannot read: %s", strerror(-ret));
	}
	fclose(f);
	ret = sp_topology_parse(topo, buf ? buf : "", len, err);
	free(buf);
	return ret;
}

/* One number of a marker entry, -1 or 0..@max; false for anything else. */
static bool marker_num(const char **p, const char *end, long max, long *val)
{
	const char *s = *p;
	long v = 0;

	if (end - s >= 2 && s[0] == '-' && s[1] == '1') {
		*val = -1;
		*p = s + 2;
		return true;
	}
	if (s == end || !isdigit((unsigned char)*s))
		return false;
	for (; s < end && isdigit((unsigned char)*s); s++) {
		v = v * 10 + (*s - '0');
		if (v > max)
			return false;
	}
	*val = v;
	*p = s;
	return true;
}

/* Entry @p..@end, "CPU:CORE:DIE:CLUSTER:SOCKET:NODE", into @topo. */
static int marker_entry(struct sp_topology *topo, const char *p, const char *end,
			struct sp_error *err)
{
	enum { M_CPU, M_CORE, M_DIE, M_CLUSTER, M_SOCKET, M_NODE, M_NR };
	const char *start = p;
	long v[M_NR];
	int i, cpu;

	for (i = 0; i < M_NR; i++) {
		if (i && (p == end || *p++ != ':'))
			break;
		if (!marker_num(&p, end, i == M_CPU ? MAX_CPU : INT_MAX, &v[i]))
			break;
	}
	if (i < M_NR || p != end || v[M_CPU] < 0)
		return sp_error_set(err, -EINVAL, -1,
				    "topology marker entry '%.*s' is not CPU:CORE:DIE:CLUSTER:"
				    "SOCKET:NODE", (int)(end - start > 40 ? 40 : end - start),
				    start);
	cpu = (int)v[M_CPU];
	if (grow(topo, cpu))
		return sp_error_set(err, -ENOMEM, -1, "out of memory");
	if ((topo->socket[cpu] != -1 || topo->core[cpu] != -1 || topo->node[cpu] != -1) &&
	    (topo->socket[cpu] != v[M_SOCKET] || topo->core[cpu] != v[M_CORE] ||
	     topo->node[cpu] != v[M_NODE]))
		return sp_error_set(err, -EINVAL, -1,
				    "topology markers give CPU %d twice, differently", cpu);
	topo->socket[cpu] = (int)v[M_SOCKET];
	topo->core[cpu] = (int)v[M_CORE];
	topo->node[cpu] = (int)v[M_NODE];
	return 0;
}

int sp_topology_parse_marker(struct sp_topology *topo, const char *text, size_t len,
			     struct sp_error *err)
{
	static const char tag[] = SP_TOPOLOGY_MARKER_PREFIX;
	const char *p = text, *end = text + len, *tok;
	size_t vlen;
	int ret, n = 0;

	if (len < sizeof(tag) - 1 || memcmp(text, tag, sizeof(tag) - 1))
		return sp_error_set(err, -EINVAL, -1, "not a topology marker");
	p += sizeof(tag) - 1;
	for (vlen = 0; p + vlen < end && !isspace((unsigned char)p[vlen]); vlen++)
		;
	if (vlen != 2 || memcmp(p, "v1", 2))
		return sp_error_set(err, -EPROTONOSUPPORT, -1,
				    "topology marker version '%.*s' is not known (written by a "
				    "newer schedplot?)", (int)(vlen > 16 ? 16 : vlen), p);
	p += vlen;
	for (;;) {
		while (p < end && isspace((unsigned char)*p))
			p++;
		if (p == end || !*p)
			break;
		tok = p;
		while (p < end && *p && !isspace((unsigned char)*p))
			p++;
		ret = marker_entry(topo, tok, p, err);
		if (ret)
			return ret;
		n++;
	}
	if (!n)
		return sp_error_set(err, -EINVAL, -1, "topology marker lists no CPUs");
	return 0;
}

void sp_topology_release(struct sp_topology *topo)
{
	free(topo->socket);
	free(topo->core);
	free(topo->node);
	memset(topo, 0, sizeof(*topo));
}

int sp_topology_socket(const struct sp_topology *topo, int cpu)
{
	if (!topo || cpu < 0 || cpu >= topo->nr_cpus)
		return -1;
	return topo->socket[cpu];
}

struct row_key {
	int cpu;
	int socket;
};

/* Known sockets in ascending order, unknown (-1) last; CPUs by number within. */
static int cmp_row(const void *a, const void *b)
{
	const struct row_key *x = a, *y = b;
	unsigned int sx = (unsigned int)x->socket, sy = (unsigned int)y->socket;

	if (sx != sy)
		return sx < sy ? -1 : 1;
	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

int sp_topology_order(const struct sp_topology *topo, const bool *cpus, int nr_cpus, int *rows,
		      int *row_socket)
{
	struct row_key *keys;
	int n = 0, c, i;

	keys = sp_alloc_array(nr_cpus > 0 ? (size_t)nr_cpus : 1, sizeof(*keys));
	for (c = 0; c < nr_cpus; c++) {
		if (cpus && !cpus[c])
			continue;
		if (!keys) {
			/* no memory to sort: numeric order still gives a chart */
			rows[n] = c;
			if (row_socket)
				row_socket[n] = sp_topology_socket(topo, c);
			n++;
			continue;
		}
		keys[n].cpu = c;
		keys[n++].socket = sp_topology_socket(topo, c);
	}
	if (!keys)
		return n;
	qsort(keys, (size_t)n, sizeof(*keys), cmp_row);
	for (i = 0; i < n; i++) {
		rows[i] = keys[i].cpu;
		if (row_socket)
			row_socket[i] = keys[i].socket;
	}
	free(keys);
	return n;
}
