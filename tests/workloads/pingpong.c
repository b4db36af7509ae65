// SPDX-License-Identifier: GPL-2.0-only
/*
 * pingpong: two processes pass a byte back and forth over two pipes, as
 * perf bench sched pipe does, but each pinned to a CPU of its own, so that
 * every wakeup crosses CPUs (perf's two tasks often share one CPU).
 *
 * Usage: pingpong [--loops N] [--cpus A,B]   (defaults: 100000, 0,1)
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("pingpong: sched_setaffinity");
		return -1;
	}
	return 0;
}

/* Read one byte from @in and write it to @out, @loops times (@first: write first). */
static int bounce(int in, int out, long loops, int first)
{
	char c = 'x';

	for (long i = 0; i < loops; i++) {
		if (first && write(out, &c, 1) != 1)
			return -1;
		if (read(in, &c, 1) != 1)
			return -1;
		if (!first && write(out, &c, 1) != 1)
			return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	long loops = 100000;
	int a = 0, b = 1, ab[2], ba[2], status;
	pid_t child;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--loops") && i + 1 < argc) {
			loops = strtol(argv[++i], NULL, 10);
		} else if (!strcmp(argv[i], "--cpus") && i + 1 < argc &&
			   sscanf(argv[i + 1], "%d,%d", &a, &b) == 2) {
			i++;
		} else {
			fprintf(stderr, "usage: pingpong [--loops N] [--cpus A,B]\n");
			return 2;
		}
	}
	if (pipe(ab) || pipe(ba)) {
		perror("pingpong: pipe");
		return 1;
	}
	child = fork();
	if (child < 0) {
		perror("pingpong: fork");
		return 1;
	}
	if (child == 0) {
		if (pin(b) || bounce(ab[0], ba[1], loops, 0))
			_exit(1);
		_exit(0);
	}
	if (pin(a) || bounce(ba[0], ab[1], loops, 1)) {
		kill(child, SIGKILL);
		return 1;
	}
	if (waitpid(child, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		return 1;
	return 0;
}
