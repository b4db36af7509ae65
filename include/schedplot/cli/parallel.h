/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_PARALLEL_H
#define SP_PARALLEL_H

/*
 * Independent jobs (the traces of compare and of latency a.dat b.dat ...)
 * on worker threads, with the result of a loop over them in order: each
 * job's messages are held back and printed in job order, and the first
 * job that fails ends it, as it would end the loop.
 */

/**
 * sp_parallel_jobs - how many jobs run at once
 * @nr: the jobs there are
 *
 * Return: --jobs (sp_cli.jobs), else the number of online CPUs, at most
 * @nr and at least 1.
 */
int sp_parallel_jobs(int nr);

/**
 * sp_parallel_run - run @fn(@data, i) for i from 0 to @nr - 1
 * @nr: the number of jobs
 * @fn: one job; prints its messages through sp_cli_*() and returns
 *	SP_EXIT_OK or an exit code.  Jobs run at once share only @data:
 *	each must write to its own part of it.
 * @data: @fn's
 *
 * Up to sp_parallel_jobs(@nr) jobs run at once, so as many traces are open at
 * most.  With one, the jobs run in the calling thread as a plain loop.
 * Else each job's messages (sp_cli_fail(), sp_cli_warn(), ...) go to a
 * buffer of its own, printed on stderr in job order; no job after a
 * failing one is started, and the messages of those already started are
 * dropped.
 *
 * Return: the exit code of the first job that failed, or SP_EXIT_OK.
 */
int sp_parallel_run(int nr, int (*fn)(void *data, int i), void *data);

/**
 * sp_parallel_files - sp_parallel_run() of jobs that each read a file
 * @nr: the number of jobs
 * @fn: one job, as for sp_parallel_run()
 * @data: @fn's
 * @files: job i's file (NULL: a job of no size)
 *
 * The same, with the jobs started largest file first: a large file read
 * last would leave the other workers idle until it ends.  Messages, the
 * jobs' results and what a failure ends are as in sp_parallel_run(),
 * in job order; with one job at a time they run in job order too.
 *
 * Return: the exit code of the first job that failed, or SP_EXIT_OK.
 */
int sp_parallel_files(int nr, int (*fn)(void *data, int i), void *data,
			  const char *const *files);

#endif /* SP_PARALLEL_H */
