/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_TOPOLOGY_H
#define SP_TOPOLOGY_H

#include <stdbool.h>
#include <stddef.h>

struct sp_error;

/*
 * Which socket, core and NUMA node each CPU belongs to, read from the
 * markers schedplot record writes into a trace (sp_topology_parse_marker())
 * or from the output of `lscpu -p` (or `lscpu -p=CPU,Core,Socket,Node`)
 * run on the traced machine: comment lines start with '#', the last
 * comment naming the columns ("# CPU,Core,Socket,Node,,L1d,...") says where
 * each field is (without one, the default order CPU,Core,Socket,Node is
 * assumed); every other line is one CPU.  Empty fields are unknown (-1).
 */
struct sp_topology {
	int nr_cpus;		/* highest CPU listed + 1 */
	int *socket;		/* per CPU, -1 when not listed or unknown */
	int *core;
	int *node;
};

/**
 * sp_topology_parse - read lscpu -p output from memory
 * @topo: filled in (release with sp_topology_release())
 * @text: the text (need not end in a newline; NUL bytes are an error)
 * @len: its length
 * @err: filled in on failure, the message starting "line N: "
 *
 * Return: 0, -EINVAL for text that is not lscpu -p output, or -ENOMEM.
 */
int sp_topology_parse(struct sp_topology *topo, const char *text, size_t len,
		      struct sp_error *err);

/**
 * sp_topology_load - read lscpu -p output from a file
 * @topo: filled in
 * @path: the file
 * @err: filled in on failure
 *
 * Return: 0, a negative errno of a failed read, or as sp_topology_parse().
 */
int sp_topology_load(struct sp_topology *topo, const char *path, struct sp_error *err);

/*
 * What schedplot record writes to trace_marker when tracing starts (see
 * schedplot-record(1)): "schedplot-topology v1" and up to 64 entries
 * CPU:CORE:DIE:CLUSTER:SOCKET:NODE, -1 for unknown values.
 */
#define SP_TOPOLOGY_MARKER_PREFIX	"schedplot-topology "

/**
 * sp_topology_parse_marker - add the CPUs of one topology marker
 * @topo: zeroed, or holding the CPUs of earlier markers (the marker's CPUs
 *        are added; release with sp_topology_release() also on failure)
 * @text: the marker's text, starting with SP_TOPOLOGY_MARKER_PREFIX (a
 *        trailing newline or NUL is fine)
 * @len: its length
 * @err: filled in on failure
 *
 * DIE and CLUSTER are checked but not kept.  A CPU given again with the
 * same values is fine.
 *
 * Return: 0; -EINVAL for text that is not a marker, an entry that is not
 * six numbers, a CPU given twice differently or a marker without CPUs;
 * -EPROTONOSUPPORT for a version other than v1; -ENOMEM.
 */
int sp_topology_parse_marker(struct sp_topology *topo, const char *text, size_t len,
			     struct sp_error *err);

/**
 * sp_topology_release - free what the topology holds
 * @topo: the topology (zeroed or filled in)
 */
void sp_topology_release(struct sp_topology *topo);

/**
 * sp_topology_socket - the socket of a CPU
 * @topo: the topology, or NULL
 * @cpu: the CPU
 *
 * Return: the socket, or -1 when unknown.
 */
int sp_topology_socket(const struct sp_topology *topo, int cpu);

/**
 * sp_topology_order - the rows of a core-by-time chart, bottom row first
 * @topo: the topology, or NULL for numeric order
 * @cpus: @nr_cpus entries, true for the CPUs drawn
 * @nr_cpus: CPUs in the trace
 * @rows: at least @nr_cpus entries: the CPUs drawn, bottom row first
 * @row_socket: NULL, or like @rows: each row's socket (-1 unknown)
 *
 * With a topology the order is socket-major: the first socket at the
 * bottom, CPUs by number within a socket, CPUs of unknown socket last (at
 * the top).  Without one, CPUs by number.
 *
 * Return: the number of rows.
 */
int sp_topology_order(const struct sp_topology *topo, const bool *cpus, int nr_cpus, int *rows,
		      int *row_socket);

#endif /* SP_TOPOLOGY_H */
