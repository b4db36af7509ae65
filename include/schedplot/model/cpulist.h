/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_CPULIST_H
#define SP_CPULIST_H

#include <stdbool.h>

/**
 * sp_parse_cpu_list - parse "0-3,8,10-11" into a bool array
 * @list: the text
 * @cpus: nr_cpus entries, set to true for the CPUs listed
 * @nr_cpus: CPUs in the trace
 * @bad: set to the first CPU number >= @nr_cpus found (or -1)
 *
 * Return: 0, -EINVAL for bad syntax, -ERANGE when a CPU is out of range.
 */
int sp_parse_cpu_list(const char *list, bool *cpus, int nr_cpus, long *bad);

#endif /* SP_CPULIST_H */
