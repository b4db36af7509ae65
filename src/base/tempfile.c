// SPDX-License-Identifier: GPL-2.0-only
/*
 * tempfile: outputs that appear whole or not at all (include/schedplot/
 * base/tempfile.h says what happens to each kind of path).
 *
 * The temporary files pending in the process sit in a small table that a
 * signal handler and an exit hook read; entries are claimed with an atomic
 * compare-and-swap and filled with the fatal signals blocked, so the
 * handler never sees a file created but not yet recorded.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "schedplot/base/error.h"
#include "schedplot/base/tempfile.h"

#define MAX_PENDING	32
#define MAX_LINKS	40	/* symlinks followed at most, as the kernel does */
#define MAX_TRIES	1000	/* temporary names tried beside one target */

/* ---- files removed on a fatal signal or at exit ---- */

/* Signals whose default action ends the process without a chance to clean up. */
static const int cleanup_signals[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGXCPU,
				       SIGUSR1, SIGUSR2 };
#define NR_CLEANUP_SIGNALS (sizeof(cleanup_signals) / sizeof(cleanup_signals[0]))

/*
 * The pending files, read by the signal handler, and the process that made
 * each: a forked child (the reader's isolation) inherits the table and the
 * handlers, and removes only its own files.
 */
static const char *volatile pending[MAX_PENDING];
static volatile pid_t pending_pid[MAX_PENDING];

/* Async-signal-safe. */
static void remove_pending(void)
{
	pid_t self = getpid();

	for (size_t i = 0; i < MAX_PENDING; i++) {
		const char *p = pending[i];

		if (p && pending_pid[i] == self)
			unlink(p);
	}
}

static void on_fatal_signal(int sig)
{
	int saved = errno;

	remove_pending();
	/*
	 * Die of @sig once the handler returns: @sig stays blocked until then,
	 * so a second one (timeout(1) signals the process and its group) cannot
	 * kill the process before the files are gone.  SA_RESETHAND is not used
	 * for this: it does not keep @sig blocked in the handler.
	 */
	signal(sig, SIG_DFL);
	raise(sig);
	errno = saved;
}

static pthread_once_t cleanup_once = PTHREAD_ONCE_INIT;

/*
 * Once per process: handlers for the signals still at their default action
 * (a SIG_IGN from nohup, or a handler of the program, is kept), and the exit
 * hook.  SIGXFSZ is ignored instead, so that a file size limit (ulimit -f)
 * makes the write fail with EFBIG and the usual error path cleans up.
 */
static void install_cleanup(void)
{
	struct sigaction sa, old;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_fatal_signal;
	sigemptyset(&sa.sa_mask);
	/* the other cleanup signals wait too, while the files are removed */
	for (i = 0; i < NR_CLEANUP_SIGNALS; i++)
		sigaddset(&sa.sa_mask, cleanup_signals[i]);
	for (i = 0; i < NR_CLEANUP_SIGNALS; i++)
		if (!sigaction(cleanup_signals[i], NULL, &old) && old.sa_handler == SIG_DFL &&
		    !(old.sa_flags & SA_SIGINFO))
			sigaction(cleanup_signals[i], &sa, NULL);
	if (!sigaction(SIGXFSZ, NULL, &old) && old.sa_handler == SIG_DFL &&
	    !(old.sa_flags & SA_SIGINFO))
		signal(SIGXFSZ, SIG_IGN);
	atexit(remove_pending);
}

static void block_cleanup_signals(sigset_t *old)
{
	sigset_t block;

	sigemptyset(&block);
	for (size_t i = 0; i < NR_CLEANUP_SIGNALS; i++)
		sigaddset(&block, cleanup_signals[i]);
	pthread_sigmask(SIG_BLOCK, &block, old);
}

/* A free entry for @path, or -1 when the table is full. */
static int claim_pending(const char *path)
{
	for (int i = 0; i < MAX_PENDING; i++) {
		const char *expected = NULL;

		if (__atomic_compare_exchange_n(&pending[i], &expected, path, false,
						__ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
			pending_pid[i] = getpid();
			return i;
		}
	}
	return -1;
}

int sp_tempfile_create(const char *path, int flags)
{
	sigset_t old;
	int fd, slot, e = 0;

	pthread_once(&cleanup_once, install_cleanup);
	/* No signal between creating the file and recording it. */
	block_cleanup_signals(&old);
	slot = claim_pending(path);
	if (slot < 0) {
		fd = -1;
		e = EMFILE;
	} else {
		fd = open(path, flags | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd < 0) {
			e = errno;
			pending[slot] = NULL;
		}
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	errno = e;
	return fd;
}

void sp_tempfile_unregister(const char *path)
{
	for (size_t i = 0; i < MAX_PENDING; i++) {
		const char *expected = path;

		__atomic_compare_exchange_n(&pending[i], &expected, NULL, false, __ATOMIC_SEQ_CST,
					    __ATOMIC_SEQ_CST);
	}
}

/* ---- where an output goes ---- */

/* Length of the directory part of @path, with its slash ("a/b" -> 2). */
static size_t dir_len(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? (size_t)(slash - path) + 1 : 0;
}

/* What the symlink @path points at, as a new string; NULL with errno set. */
static char *read_link(const char *path, size_t hint)
{
	size_t size = hint + 2 > 64 ? hint + 2 : 64;

	for (;;) {
		char *buf = malloc(size);
		ssize_t n;

		if (!buf)
			return NULL;
		n = readlink(path, buf, size);
		if (n < 0) {
			free(buf);
			return NULL;
		}
		if ((size_t)n < size) {
			buf[n] = '\0';
			return buf;
		}
		free(buf);
		if (size > (size_t)PATH_MAX * 4) {
			errno = ENAMETOOLONG;
			return NULL;
		}
		size *= 2;
	}
}

/*
 * @path with the symlinks at its end followed, as a new string: the name a
 * rename must replace for the links to stay.  A dangling link ends at the
 * name it points to.  Directories on the way are not resolved: the rename
 * goes through them as the open does.  NULL with errno set (ELOOP, ENOMEM).
 */
static char *follow_links(const char *path)
{
	char *cur = strdup(path);
	struct stat st;

	for (int hops = 0; cur; hops++) {
		char *link, *next;
		size_t n;

		if (lstat(cur, &st) < 0 || !S_ISLNK(st.st_mode))
			return cur;
		if (hops == MAX_LINKS) {
			free(cur);
			errno = ELOOP;
			return NULL;
		}
		link = read_link(cur, st.st_size);
		if (!link) {
			free(cur);
			return NULL;
		}
		if (link[0] == '/') {
			next = link;
		} else {
			n = dir_len(cur);
			next = malloc(n + strlen(link) + 1);
			if (next) {
				memcpy(next, cur, n);
				strcpy(next + n, link);
			}
			free(link);
		}
		free(cur);
		cur = next;
	}
	errno = ENOMEM;
	return NULL;
}

static void release(struct sp_tempfile *tf)
{
	if (tf->tmp_path) {
		sp_tempfile_unregister(tf->tmp_path);
		free(tf->tmp_path);
	}
	free(tf->path);
	free(tf->final_path);
	tf->fp = NULL;
	tf->fd = -1;
	tf->direct = false;
	tf->path = NULL;
	tf->final_path = NULL;
	tf->tmp_path = NULL;
}

/* Create the temporary file beside tf->final_path. */
static int create_temp(struct sp_tempfile *tf, int flags, struct sp_error *err)
{
	const char *final = tf->final_path;
	size_t n = dir_len(final), size = strlen(final) + 64;
	int code;

	tf->tmp_path = malloc(size);
	if (!tf->tmp_path)
		return sp_error_set(err, -ENOMEM, -1, "out of memory");
	for (unsigned int i = 0; i < MAX_TRIES; i++) {
		/* Keep the name short of NAME_MAX whatever the target's length. */
		snprintf(tf->tmp_path, size, "%.*s.%.200s.%ld.%u.tmp", (int)n, final, final + n,
			 (long)getpid(), i);
		tf->fd = sp_tempfile_create(tf->tmp_path, flags);
		if (tf->fd >= 0 || errno != EEXIST)
			break;
	}
	if (tf->fd >= 0)
		return 0;
	code = -errno;
	free(tf->tmp_path);
	tf->tmp_path = NULL;
	if (code == -EMFILE)
		return sp_error_set(err, code, -1,
				    "cannot create output: too many temporary files at once");
	if (n == 0)
		return sp_error_set(err, code, -1, "cannot create output in the current directory: %s",
				    strerror(-code));
	if (n == 1)
		return sp_error_set(err, code, -1, "cannot create output in '/': %s",
				    strerror(-code));
	return sp_error_set(err, code, -1, "cannot create output in '%.*s': %s", (int)n - 1, final,
			    strerror(-code));
}

int sp_tempfile_open(struct sp_tempfile *tf, const char *path, int flags, struct sp_error *err)
{
	struct stat st = { 0 }, fst;
	bool defer = flags & SP_TEMPFILE_DEFER;
	int ret;

	memset(tf, 0, sizeof(*tf));
	tf->fd = -1;
	flags &= O_ACCMODE;
	tf->flags = flags;
	tf->path = strdup(path);
	if (!tf->path) {
		ret = sp_error_set(err, -ENOMEM, -1, "out of memory");
		goto fail;
	}
	if (!stat(path, &st)) {
		if (S_ISDIR(st.st_mode)) {
			ret = sp_error_set(err, -EISDIR, -1,
					   "cannot write '%s': it is a directory (give a file name)",
					   path);
			goto fail;
		}
		tf->direct = !S_ISREG(st.st_mode);
	}
	if (!tf->direct) {
		tf->final_path = follow_links(path);
		if (!tf->final_path) {
			ret = -errno;
			sp_error_set(err, ret, -1, "cannot write '%s': %s", path, strerror(-ret));
			goto fail;
		}
		/*
		 * A link the walk cannot follow by name (/dev/stdout through
		 * /proc/self/fd/1 to a deleted file): write what it opens.
		 */
		if (!stat(path, &st) &&
		    (stat(tf->final_path, &fst) || fst.st_dev != st.st_dev || fst.st_ino != st.st_ino))
			tf->direct = true;
	}
	if (tf->direct) {
		if (S_ISREG(st.st_mode))
			tf->flags |= O_TRUNC;
		if (!defer)
			ret = sp_tempfile_ready(tf, err);
		else if (access(path, W_OK))
			ret = sp_error_set(err, -errno, -1, "cannot write '%s': %s", path,
					   strerror(errno));
		else
			ret = 0;
		if (ret)
			goto fail;
		return 0;
	}
	ret = create_temp(tf, flags, err);
	if (ret)
		goto fail;
	return 0;
fail:
	release(tf);
	return ret;
}

int sp_tempfile_ready(struct sp_tempfile *tf, struct sp_error *err)
{
	int ret;

	if (tf->fd >= 0)
		return 0;
	if (!tf->path)
		return sp_error_set(err, -EBADF, -1, "output is not open");
	tf->fd = open(tf->path, tf->flags | O_CLOEXEC);
	if (tf->fd >= 0)
		return 0;
	ret = -errno;
	return sp_error_set(err, ret, -1, "cannot write '%s': %s", tf->path, strerror(-ret));
}

FILE *sp_tempfile_fdopen(struct sp_tempfile *tf, const char *mode)
{
	if (!tf->fp && tf->fd >= 0)
		tf->fp = fdopen(tf->fd, mode);
	else if (tf->fd < 0)
		errno = EBADF;
	return tf->fp;
}

const char *sp_tempfile_path(const struct sp_tempfile *tf)
{
	return tf->final_path ? tf->final_path : tf->path;
}

/* Close the file; the first error as -errno. */
static int close_file(struct sp_tempfile *tf, bool sync)
{
	int ret = 0;

	if (tf->fp && (fflush(tf->fp) || ferror(tf->fp)))
		ret = errno ? -errno : -EIO;
	if (!ret && sync && fsync(tf->fd) && errno != EINVAL)
		ret = -errno;
	if (tf->fp) {
		if (fclose(tf->fp) && !ret)
			ret = errno ? -errno : -EIO;
	} else if (tf->fd >= 0) {
		if (close(tf->fd) && !ret && errno != EINTR)
			ret = -errno;
	}
	tf->fp = NULL;
	tf->fd = -1;
	return ret;
}

/* Make a rename durable; a failure here loses nothing written. */
static void sync_dir(const char *path)
{
	size_t n = dir_len(path);
	char *dir = n ? strndup(path, n > 1 ? n - 1 : 1) : strdup(".");
	int dfd = dir ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;

	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	free(dir);
}

const char *sp_tempfile_tmp_path(const struct sp_tempfile *tf)
{
	return tf->tmp_path;
}

int sp_tempfile_commit(struct sp_tempfile *tf, struct sp_error *err)
{
	int ret;

	if (!tf->path)
		return sp_error_set(err, -EBADF, -1, "output is not open");
	/* a deferred device never opened: opened now, to be closed as written */
	ret = sp_tempfile_ready(tf, err);
	if (ret)
		goto fail;
	errno = 0;
	ret = close_file(tf, !tf->direct);
	if (ret) {
		sp_error_set(err, ret, -1, "cannot write '%s': %s", tf->path, strerror(-ret));
		goto fail;
	}
	if (!tf->direct) {
		if (rename(tf->tmp_path, tf->final_path) < 0) {
			ret = -errno;
			sp_error_set(err, ret, -1, "cannot rename the output to '%s': %s",
				     tf->final_path, strerror(-ret));
			goto fail;
		}
		sp_tempfile_unregister(tf->tmp_path);
		free(tf->tmp_path);
		tf->tmp_path = NULL;
		sync_dir(tf->final_path);
	}
	release(tf);
	return 0;
fail:
	sp_tempfile_discard(tf);
	return ret;
}

void sp_tempfile_discard(struct sp_tempfile *tf)
{
	if (!tf->path)
		return;
	close_file(tf, false);
	if (tf->tmp_path)
		unlink(tf->tmp_path);
	release(tf);
}
