// SPDX-License-Identifier: GPL-2.0-only
/*
 * phases: a workload in three named phases, for the traces the views of
 * contrib/views are tested on: futex waits, block I/O and sleep.
 *
 * Each phase begins with a line "phase N: NAME" written to the file named
 * by $SCHEDPLOT_TRACE_MARKER (schedplot record sets it to its instance's
 * trace_marker), which the trace holds as an ftrace:print record.
 *   phase 1: futex   T threads take turns on one mutex (futex waits)
 *   phase 2: block   W writes of 64 KiB to FILE with O_DIRECT, each synced
 *   phase 3: sleep   a few short sleeps (timer interrupts, idle CPUs)
 *
 * Build: cc -O2 -pthread -o phases phases.c
 * Usage: phases [--threads T] [--rounds R] [--writes W] FILE
 */
#define _GNU_SOURCE	/* O_DIRECT */
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long nr_rounds = 200;
static volatile unsigned long sink;

static void phase(int n, const char *name)
{
	const char *path = getenv("SCHEDPLOT_TRACE_MARKER");
	FILE *f = path ? fopen(path, "w") : NULL;

	if (f) {
		fprintf(f, "phase %d: %s\n", n, name);
		fclose(f);
	}
}

static void *worker(void *arg)
{
	unsigned long r, i, seed = (unsigned long)(size_t)arg + 1;

	for (r = 0; r < nr_rounds; r++) {
		pthread_mutex_lock(&lock);
		for (i = 0; i < 20000; i++)
			seed = seed * 6364136223846793005UL + 1442695040888963407UL;
		sink = seed;
		pthread_mutex_unlock(&lock);
		sched_yield();
	}
	return NULL;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "threads", required_argument, NULL, 't' },
		{ "rounds", required_argument, NULL, 'r' },
		{ "writes", required_argument, NULL, 'w' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long nr_threads = 4, nr_writes = 40, i;
	struct timespec nap = { 0, 5 * 1000 * 1000 };
	pthread_t *th;
	void *buf;
	int opt, fd;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 't':
			nr_threads = strtoul(optarg, NULL, 10);
			break;
		case 'r':
			nr_rounds = strtoul(optarg, NULL, 10);
			break;
		case 'w':
			nr_writes = strtoul(optarg, NULL, 10);
			break;
		default:
			return 2;
		}
	}
	if (optind != argc - 1 || !nr_threads) {
		fprintf(stderr, "usage: phases [--threads T] [--rounds R] [--writes W] FILE\n");
		return 2;
	}
	phase(1, "futex");
	th = calloc(nr_threads, sizeof(*th));
	if (!th)
		return 1;
	for (i = 0; i < nr_threads; i++)
		if (pthread_create(&th[i], NULL, worker, (void *)(size_t)i))
			return 1;
	for (i = 0; i < nr_threads; i++)
		pthread_join(th[i], NULL);
	phase(2, "block");
	fd = open(argv[optind], O_WRONLY | O_CREAT | O_TRUNC | O_DIRECT, 0600);
	if (fd < 0 || posix_memalign(&buf, 4096, 65536)) {
		perror(argv[optind]);
		return 1;
	}
	memset(buf, 0x5a, 65536);
	for (i = 0; i < nr_writes; i++)
		if (write(fd, buf, 65536) != 65536 || fdatasync(fd)) {
			perror(argv[optind]);
			return 1;
		}
	close(fd);
	unlink(argv[optind]);
	phase(3, "sleep");
	for (i = 0; i < 10; i++)
		nanosleep(&nap, NULL);
	free(buf);
	free(th);
	return 0;
}
