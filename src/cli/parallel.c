// SPDX-License-Identifier: GPL-2.0-only
/*
 * Independent jobs on worker threads, finished in job order: a worker takes
 * the next job in the order of starting under the lock (largest file
 * first, so that no large one is left alone at the end); the calling
 * thread prints the messages of each job in index order as it ends.
 */
#define _GNU_SOURCE	/* open_memstream */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "schedplot/base/thread.h"
#include "schedplot/cli/cli.h"
#include "schedplot/cli/parallel.h"

struct job {
	char *msg;		/* its messages, NUL-terminated */
	size_t len;
	int ret;
	bool done;
};

struct pool {
	int (*fn)(void *data, int i);
	void *data;
	int nr;
	pthread_mutex_t lock;
	pthread_cond_t done;	/* a job ended */
	bool cpus_busy;		/* a worker per CPU at least */
	int *order;		/* the jobs in the order they start */
	int next;		/* where in order the next job to start is */
	int stop;		/* no job from here on starts: one before failed */
	struct job *jobs;
};

int sp_parallel_jobs(int nr)
{
	long n = sp_cli.jobs;

	if (n <= 0)
		n = sp_cpus_usable();
	if (n > nr)
		n = nr;
	return n < 1 ? 1 : (int)n;
}

/* One job, its messages into a buffer of its own. */
static void run_job(struct pool *p, int i, struct job *j)
{
	FILE *fp = open_memstream(&j->msg, &j->len);

	if (!fp) {
		j->ret = sp_cli_fail(NULL, "out of memory");
		return;
	}
	sp_cli_capture(fp);
	sp_cli_cpus_busy(p->cpus_busy);
	j->ret = p->fn(p->data, i);
	sp_cli_cpus_busy(false);
	sp_cli_capture(NULL);
	if (fclose(fp) && j->ret == SP_EXIT_OK)
		j->ret = SP_EXIT_FAILURE;
}

static void *worker(void *arg)
{
	struct pool *p = arg;
	struct job j;
	int i;

	for (;;) {
		pthread_mutex_lock(&p->lock);
		while (p->next < p->nr && p->order[p->next] >= p->stop)
			p->next++;
		if (p->next >= p->nr) {
			pthread_mutex_unlock(&p->lock);
			return NULL;
		}
		i = p->order[p->next++];
		pthread_mutex_unlock(&p->lock);

		j = (struct job){ 0 };
		run_job(p, i, &j);

		pthread_mutex_lock(&p->lock);
		p->jobs[i] = j;
		p->jobs[i].done = true;
		if (j.ret != SP_EXIT_OK && i + 1 < p->stop)
			p->stop = i + 1;
		pthread_cond_broadcast(&p->done);
		pthread_mutex_unlock(&p->lock);
	}
}

struct sized {
	uint64_t size;
	int i;
};

/* Largest first; of equal ones, the first first. */
static int cmp_sized(const void *pa, const void *pb)
{
	const struct sized *a = pa, *b = pb;

	if (a->size != b->size)
		return a->size < b->size ? 1 : -1;
	return a->i - b->i;
}

/* The order in which the jobs start: by the size of their files, or as they come. */
static int *start_order(int nr, const char *const *files)
{
	struct sized *by = files ? calloc(nr, sizeof(*by)) : NULL;
	int *order = calloc(nr, sizeof(*order)), i;
	struct stat st;

	for (i = 0; by && i < nr; i++) {
		by[i].i = i;
		by[i].size = files[i] && !stat(files[i], &st) ? (uint64_t)st.st_size : 0;
	}
	if (by)
		qsort(by, nr, sizeof(*by), cmp_sized);
	for (i = 0; order && i < nr; i++)
		order[i] = by ? by[i].i : i;
	free(by);
	return order;
}

int sp_parallel_run(int nr, int (*fn)(void *data, int i), void *data)
{
	return sp_parallel_files(nr, fn, data, NULL);
}

int sp_parallel_files(int nr, int (*fn)(void *data, int i), void *data,
			  const char *const *files)
{
	struct pool p = { .fn = fn, .data = data, .nr = nr, .stop = nr };
	int i, nr_workers = sp_parallel_jobs(nr), started = 0, ret = SP_EXIT_OK;
	pthread_t *threads;

	if (nr_workers == 1) {
		for (i = 0; i < nr && ret == SP_EXIT_OK; i++)
			ret = fn(data, i);
		return ret;
	}
	/* with a trace on every CPU, a helper thread per trace only hands blocks over */
	p.cpus_busy = nr_workers >= sp_cpus_usable();
	p.jobs = calloc(nr, sizeof(*p.jobs));
	p.order = start_order(nr, files);
	threads = calloc(nr_workers, sizeof(*threads));
	if (!p.jobs || !p.order || !threads) {
		free(p.jobs);
		free(p.order);
		free(threads);
		return sp_cli_fail(NULL, "out of memory");
	}
	pthread_mutex_init(&p.lock, NULL);
	pthread_cond_init(&p.done, NULL);
	while (started < nr_workers && !sp_thread_start(&threads[started], worker, &p))
		started++;
	if (!started) {
		/* no thread: the loop in this one */
		for (i = 0; i < nr && ret == SP_EXIT_OK; i++)
			ret = fn(data, i);
		goto out;
	}

	/* each job's messages in turn, as it ends; none after the first failure */
	for (i = 0; i < nr; i++) {
		pthread_mutex_lock(&p.lock);
		while (!p.jobs[i].done)
			pthread_cond_wait(&p.done, &p.lock);
		pthread_mutex_unlock(&p.lock);
		if (p.jobs[i].len)
			fwrite(p.jobs[i].msg, 1, p.jobs[i].len, stderr);
		ret = p.jobs[i].ret;
		if (ret != SP_EXIT_OK)
			break;
	}
	for (i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
out:
	for (i = 0; i < nr; i++)
		free(p.jobs[i].msg);
	pthread_cond_destroy(&p.done);
	pthread_mutex_destroy(&p.lock);
	free(p.jobs);
	free(p.order);
	free(threads);
	return ret;
}
