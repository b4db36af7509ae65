/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_TRIAL_H
#define SP_TRIAL_H

/*
 * trial: try a file with libtracecmd in a child process first.
 *
 * Why it forks: libtracecmd 1.3 crashes on some damaged files that our own
 * checks let through (in tracecmd_open_fd(), its cleanup, or kbuffer as it
 * reads pages), and a damaged size can make it allocate gigabytes.  Before
 * this process reads a file with it, a child process opens and reads the
 * whole file the same way (the rest of sp_reader_open() and a pass of
 * sp_reader_read(), so the same calls in the same order).  Only if the
 * child comes through does this process go on.  The fallback is rare
 * (timestamp options, odd layouts), so reading twice is affordable.
 *
 * The process policy, in the child only:
 *  - address space limited to SP_TRIAL_MEMORY (RLIMIT_AS; not under a
 *    sanitizer, whose shadow memory needs more);
 *  - a timeout of SP_TRIAL_SECONDS (alarm(), whose SIGALRM kills it);
 *  - stderr goes to /dev/null, so the library's messages and a crash say
 *    nothing; SIGSEGV, SIGBUS, SIGABRT, SIGFPE and SIGILL get their
 *    default action back (no sanitizer or fuzzer report for the library's
 *    crash);
 *  - it ends with _exit() (sp_trial_end()): nothing of the parent's is
 *    flushed or cleaned up twice (stdio is flushed before the fork).
 * The parent waits for the child (waitpid(), EINTR retried) and reads the
 * child's error from a pipe.  When no pipe or child can be made, the file
 * is tried in this process without isolation (SP_TRIAL_READS).
 */

#include "schedplot/base/error.h"

/* Address space of the child that tries libtracecmd on a file. */
#define SP_TRIAL_MEMORY		(2ul << 30)
/* Seconds the child has to open and read the whole file. */
#define SP_TRIAL_SECONDS	60

enum sp_trial {
	SP_TRIAL_CHILD = -1,		/* in the child: go on opening, then read */
	SP_TRIAL_READS = 0,		/* the child read it all (or none could be made) */
	SP_TRIAL_ERROR = 3,		/* the child met an ordinary error: it says which */
	SP_TRIAL_FAILS,			/* it crashed, or ran out of time or memory */
};

/**
 * sp_trial_run - fork the child that tries a file
 * @child_fd: in the child, set to where its error is to be written
 *            (sp_trial_end()); untouched in the parent
 * @err: an ordinary error of the child (SP_TRIAL_ERROR), so that this
 *       process does not meet it again without the child's limits
 *
 * Returns twice when the fork succeeds: SP_TRIAL_CHILD in the child, which
 * then goes on opening and reading and ends with sp_trial_end(); the
 * child's verdict in the parent.
 *
 * Return: an enum sp_trial.
 */
enum sp_trial sp_trial_run(int *child_fd, struct sp_error *err);

/**
 * sp_trial_end - end the trial child: its error, if any, to the parent
 * @fd: the child's end of the pipe (*@child_fd of sp_trial_run())
 * @ret: 0 when the child read the whole file, else a negative code
 * @err: the error that goes with @ret (may be NULL)
 *
 * Return: never; the child exits.
 */
void sp_trial_end(int fd, int ret, const struct sp_error *err) __attribute__((noreturn));

#endif /* SP_TRIAL_H */
