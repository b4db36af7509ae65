// SPDX-License-Identifier: GPL-2.0-only
/*
 * CPU lists as the kernel and taskset write them: "0-3,8,10-11".
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

#include "schedplot/model/cpulist.h"

static int parse_num(const char **p, long *val)
{
	char *end;

	if (!isdigit((unsigned char)**p))
		return -EINVAL;
	errno = 0;
	*val = strtol(*p, &end, 10);
	if (errno || *val > 1000000)
		return -ERANGE;
	*p = end;
	return 0;
}

int sp_parse_cpu_list(const char *list, bool *cpus, int nr_cpus, long *bad)
{
	const char *p = list;
	long lo, hi, c;
	int ret;

	*bad = -1;
	if (!*p)
		return -EINVAL;
	for (;;) {
		ret = parse_num(&p, &lo);
		if (ret)
			return ret;
		hi = lo;
		if (*p == '-') {
			p++;
			ret = parse_num(&p, &hi);
			if (ret)
				return ret;
			if (hi < lo)
				return -EINVAL;
		}
		if (hi >= nr_cpus) {
			*bad = lo >= nr_cpus ? lo : nr_cpus;
			return -ERANGE;
		}
		for (c = lo; c <= hi; c++)
			cpus[c] = true;
		if (!*p)
			return 0;
		if (*p++ != ',')
			return -EINVAL;
	}
}
