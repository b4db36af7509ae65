// SPDX-License-Identifier: GPL-2.0-only
/*
 * trial: a child process tries a file with libtracecmd before this
 * process does; the process policy is stated in the header.
 */
#define _GNU_SOURCE	/* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "schedplot/base/error.h"
#include "schedplot/base/sanitizer.h"
#include "schedplot/trace/trial.h"

enum sp_trial sp_trial_run(int *child_fd, struct sp_error *err)
{
	static const int fatal[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL };
	struct sp_error child_err;
	int status, null_fd, fds[2];
	ssize_t n;
	pid_t pid;
	size_t i;

	if (pipe2(fds, O_CLOEXEC))
		return SP_TRIAL_READS;	/* cannot isolate it: try it in this process */
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return SP_TRIAL_READS;
	}
	if (pid == 0) {
		close(fds[0]);
		*child_fd = fds[1];
		/* die quietly: no sanitizer or fuzzer report for the library's crash */
		for (i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
			signal(fatal[i], SIG_DFL);
		null_fd = open("/dev/null", O_WRONLY);
		if (null_fd >= 0)
			dup2(null_fd, STDERR_FILENO);
		alarm(SP_TRIAL_SECONDS);
#ifndef SP_UNDER_SANITIZER
		setrlimit(RLIMIT_AS, &(struct rlimit){ SP_TRIAL_MEMORY, SP_TRIAL_MEMORY });
#endif
		return SP_TRIAL_CHILD;
	}
	close(fds[1]);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			close(fds[0]);
			return SP_TRIAL_READS;
		}
	}
	do
		n = read(fds[0], &child_err, sizeof(child_err));
	while (n < 0 && errno == EINTR);
	close(fds[0]);
	if (WIFEXITED(status) && WEXITSTATUS(status) == SP_TRIAL_READS)
		return SP_TRIAL_READS;
	if (WIFEXITED(status) && WEXITSTATUS(status) == SP_TRIAL_ERROR &&
	    n == (ssize_t)sizeof(child_err) && child_err.code < 0) {
		child_err.msg[sizeof(child_err.msg) - 1] = '\0';
		if (err)
			*err = child_err;
		return SP_TRIAL_ERROR;
	}
	return SP_TRIAL_FAILS;
}

void sp_trial_end(int fd, int ret, const struct sp_error *err)
{
	struct sp_error e = { .code = ret < 0 ? ret : -EIO, .offset = -1 };

	if (ret && err && err->code)
		e = *err;
	if (ret && write(fd, &e, sizeof(e)) != (ssize_t)sizeof(e))
		_exit(SP_TRIAL_FAILS);
	_exit(ret ? SP_TRIAL_ERROR : SP_TRIAL_READS);
}
