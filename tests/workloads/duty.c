// SPDX-License-Identifier: GPL-2.0-only
/*
 * duty: spin for a share of every period, sleep for the rest, on time.
 *
 *	duty --percent 10 --period-ms 10 --seconds 30
 *
 * The periods are kept on an absolute clock (clock_nanosleep with
 * TIMER_ABSTIME), so the task's busy share stays what was asked for even
 * when a wakeup comes late.  Pin it with taskset to give a CPU a known
 * busy share: a pattern finer than a pixel column of a zoomed-out chart.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "percent", required_argument, NULL, 'p' },
		{ "period-ms", required_argument, NULL, 'P' },
		{ "seconds", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 },
	};
	double percent = 10, period_ms = 10, seconds = 10;
	long long period, busy, start, next, end;
	volatile unsigned long spin = 0;
	int c;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'p': percent = atof(optarg); break;
		case 'P': period_ms = atof(optarg); break;
		case 's': seconds = atof(optarg); break;
		default:
			fprintf(stderr, "usage: duty --percent P --period-ms MS --seconds S\n");
			return 2;
		}
	}
	if (percent <= 0 || percent > 100 || period_ms <= 0 || seconds <= 0) {
		fprintf(stderr, "duty: percent in (0, 100], period and seconds > 0\n");
		return 2;
	}
	period = (long long)(period_ms * 1e6);
	busy = (long long)(period * percent / 100);
	start = now_ns();
	end = start + (long long)(seconds * 1e9);
	for (next = start; next < end; next += period) {
		struct timespec ts = { (time_t)((next + period) / 1000000000LL),
				       (long)((next + period) % 1000000000LL) };

		while (now_ns() < next + busy)
			spin++;
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
	}
	return 0;
}
