// SPDX-License-Identifier: GPL-2.0-only
/*
 * barrier: a bulk-synchronous compute workload for recording test traces.
 *
 * Each of T threads does R rounds; in every round it does a fixed amount of
 * arithmetic and then waits at a pthread barrier for the others, like the
 * inner loop of an HPC benchmark. With more threads than CPUs the scheduler
 * has to time-share them and the barrier makes every round as slow as its
 * slowest thread, which is what the overload trace is meant to show.
 *
 * Build: cc -O2 -pthread -o barrier barrier.c
 */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long nr_rounds = 50;
static unsigned long work_per_round = 2000000;
static pthread_barrier_t barrier;

/* The result is kept so that the compiler cannot drop the arithmetic. */
static volatile unsigned long sink;

static void *worker(void *arg)
{
	unsigned long seed = (unsigned long)(size_t)arg + 1;
	unsigned long r, i;

	for (r = 0; r < nr_rounds; r++) {
		for (i = 0; i < work_per_round; i++)
			seed = seed * 6364136223846793005UL + 1442695040888963407UL;
		sink = seed;
		pthread_barrier_wait(&barrier);
	}
	return NULL;
}

static int parse_ulong(const char *s, unsigned long *val)
{
	char *end;

	errno = 0;
	*val = strtoul(s, &end, 0);
	if (errno || end == s || *end || *val == 0)
		return -1;
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: barrier [-t THREADS] [-r ROUNDS] [-w WORK]\n"
		   "  -t, --threads N  number of worker threads (default 6)\n"
		   "  -r, --rounds N   barrier rounds per thread (default 50)\n"
		   "  -w, --work N     loop iterations per round (default 2000000)\n");
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "threads", required_argument, NULL, 't' },
		{ "rounds", required_argument, NULL, 'r' },
		{ "work", required_argument, NULL, 'w' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long nr_threads = 6, i;
	pthread_t *threads;
	int opt, err;

	while ((opt = getopt_long(argc, argv, "t:r:w:h", options, NULL)) != -1) {
		switch (opt) {
		case 't':
			if (parse_ulong(optarg, &nr_threads))
				goto bad_usage;
			break;
		case 'r':
			if (parse_ulong(optarg, &nr_rounds))
				goto bad_usage;
			break;
		case 'w':
			if (parse_ulong(optarg, &work_per_round))
				goto bad_usage;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			goto bad_usage;
		}
	}
	if (optind != argc)
		goto bad_usage;

	threads = calloc(nr_threads, sizeof(*threads));
	if (!threads) {
		fprintf(stderr, "barrier: out of memory\n");
		return 1;
	}
	err = pthread_barrier_init(&barrier, NULL, nr_threads);
	if (err) {
		fprintf(stderr, "barrier: pthread_barrier_init: %s\n", strerror(err));
		return 1;
	}
	for (i = 0; i < nr_threads; i++) {
		err = pthread_create(&threads[i], NULL, worker, (void *)(size_t)i);
		if (err) {
			fprintf(stderr, "barrier: pthread_create: %s\n", strerror(err));
			return 1;
		}
	}
	for (i = 0; i < nr_threads; i++)
		pthread_join(threads[i], NULL);
	pthread_barrier_destroy(&barrier);
	free(threads);
	return 0;

bad_usage:
	usage(stderr);
	return 2;
}
