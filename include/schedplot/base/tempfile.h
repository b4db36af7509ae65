/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_TEMPFILE_H
#define SP_TEMPFILE_H

#include <stdbool.h>
#include <stdio.h>

struct sp_error;

/*
 * Atomic output: what stands at an output path is replaced only by a
 * complete file, and never destroyed.
 *
 *   - A regular file, or a name where nothing stands yet, is written to a
 *     temporary file beside it (".NAME.PID.N.tmp", same directory, so the
 *     rename is atomic) and renamed into place by sp_tempfile_commit() once
 *     every write, the flush and the fsync succeeded.
 *   - A symlink is followed (to any depth, dangling or not): the file it
 *     ends at is the one written as above, beside it, and the link stays.
 *   - A character or block device, a FIFO or a socket is opened and written
 *     directly: no temporary file, no rename (-o /dev/stdout works; a
 *     scratch /dev/null stays a device).
 *   - A directory is refused (-EISDIR).
 *
 * A temporary file not yet committed is removed by sp_tempfile_discard(),
 * at exit, and when the process is killed by SIGINT, SIGTERM, SIGHUP,
 * SIGQUIT, SIGPIPE, SIGXCPU, SIGUSR1 or SIGUSR2 (those still at their
 * default action when the first tempfile is opened).  The first open also
 * sets SIGXFSZ to be ignored, so that a file size limit (ulimit -f) fails
 * the write with EFBIG and the usual error path cleans up.  A forked child
 * removes nothing.
 *
 *	struct sp_tempfile tf;
 *	FILE *fp;
 *
 *	if (sp_tempfile_open(&tf, "rw.csv", O_WRONLY, &err))
 *		return err.code;
 *	fp = sp_tempfile_fdopen(&tf, "w");
 *	if (!fp) {
 *		sp_tempfile_discard(&tf);
 *		return -ENOMEM;
 *	}
 *	fprintf(fp, ...);
 *	return sp_tempfile_commit(&tf, &err);	(or sp_tempfile_discard(&tf))
 *
 * Standard output ("-") is not a path: callers write it themselves.
 */
struct sp_tempfile {
	int fd;			/* write here (or through @fp); -1 when not open */
	FILE *fp;		/* the stream of sp_tempfile_fdopen(), or NULL */
	bool direct;		/* a device, FIFO or socket: written in place */

	/* private */
	char *path;		/* the output as given */
	char *final_path;	/* the file replaced at commit: @path, its symlinks followed */
	char *tmp_path;		/* the temporary file beside @final_path, or NULL */
	int flags;		/* of open(2), for a deferred device */
};

/*
 * sp_tempfile_open() flag: a device, FIFO or socket is only checked here
 * (access(2) for writing) and opened by sp_tempfile_ready(), so that an
 * output checked early and written much later does not hold a FIFO's
 * reader (or end its input) in between.
 */
#define SP_TEMPFILE_DEFER	(1 << 30)

/**
 * sp_tempfile_open - start writing an output
 * @tf: the record (need not be initialised)
 * @path: the output file (not "-")
 * @flags: O_WRONLY or O_RDWR (O_CREAT, O_EXCL and O_CLOEXEC are added for
 *	   a temporary file), optionally with SP_TEMPFILE_DEFER
 * @err: filled in on failure (may be NULL)
 *
 * The temporary file is created with mode 0666 less the umask, as a new
 * file would be.  A FIFO blocks here until a reader opens it (with
 * SP_TEMPFILE_DEFER: in sp_tempfile_ready()).
 *
 * Return: 0 with @tf->fd open (-1 for a deferred one), or a negative code with @err set and nothing
 * created: -EISDIR for a directory, -ELOOP for a symlink loop, -ENOMEM,
 * -errno of the failed open ("cannot create output in 'DIR': ..." or
 * "cannot write 'PATH': ..."), -EMFILE when too many temporary files are
 * pending at once.  On failure @tf can be given to sp_tempfile_discard().
 */
int sp_tempfile_open(struct sp_tempfile *tf, const char *path, int flags, struct sp_error *err);

/**
 * sp_tempfile_ready - open a device, FIFO or socket deferred by SP_TEMPFILE_DEFER
 * @tf: opened with sp_tempfile_open()
 * @err: filled in on failure (may be NULL)
 *
 * Does nothing when @tf->fd is already open.
 *
 * Return: 0 with @tf->fd open, or -errno with @err set ("cannot write
 * 'PATH': ..."); @tf then still needs sp_tempfile_discard().
 */
int sp_tempfile_ready(struct sp_tempfile *tf, struct sp_error *err);

/**
 * sp_tempfile_fdopen - a stdio stream on an open tempfile
 * @tf: opened with sp_tempfile_open()
 * @mode: as for fdopen(): "w", or "w+" for a file opened O_RDWR
 *
 * The stream belongs to @tf: sp_tempfile_commit() flushes and closes it,
 * sp_tempfile_discard() closes it.  A second call returns the same stream.
 *
 * Return: the stream, or NULL with errno set.
 */
FILE *sp_tempfile_fdopen(struct sp_tempfile *tf, const char *mode);

/**
 * sp_tempfile_path - the file that will hold the output
 * @tf: an opened tempfile
 *
 * Return: the output path with its symlinks followed (for messages and
 * checks against the inputs).
 */
const char *sp_tempfile_path(const struct sp_tempfile *tf);

/**
 * sp_tempfile_tmp_path - the temporary file being written
 * @tf: an opened tempfile
 *
 * For a writer that opens the file by name itself (a SQLite database):
 * it writes there, and sp_tempfile_commit() puts it in place.
 *
 * Return: its path, or NULL for a direct output (written in place).
 */
const char *sp_tempfile_tmp_path(const struct sp_tempfile *tf);

/**
 * sp_tempfile_commit - finish the output and put it in place
 * @tf: an opened tempfile; released, also on failure
 * @err: filled in on failure (may be NULL)
 *
 * Flushes the stream (checking its error flag), fsyncs and closes the
 * file; a temporary file is then renamed over the target and the
 * directory synced.  A direct output is only flushed and closed.
 *
 * Return: 0, or a negative code with @err set ("cannot write 'PATH': ..."
 * or "cannot rename the output to 'PATH': ..."); the temporary file is
 * then removed and the target left as it was.
 */
int sp_tempfile_commit(struct sp_tempfile *tf, struct sp_error *err);

/**
 * sp_tempfile_discard - give up: close, remove the temporary file
 * @tf: what sp_tempfile_open() left, opened or not, or a zeroed record;
 *	released
 *
 * The target is left as it was.  A direct output keeps what was written.
 */
void sp_tempfile_discard(struct sp_tempfile *tf);

/**
 * sp_tempfile_unregister - stop watching a file
 * @path: the same pointer given to sp_tempfile_create()
 *
 * Call it after the file was renamed into place or removed, and before the
 * string is freed.
 */
void sp_tempfile_unregister(const char *path);

/**
 * sp_tempfile_create - create a new file, removed if the process is killed
 * @path: its name; the string must stay valid until sp_tempfile_unregister()
 * @flags: O_WRONLY or O_RDWR (O_CREAT, O_EXCL and O_CLOEXEC are added)
 *
 * Creates the file with mode 0666 (less the umask) and registers it, with
 * no fatal signal in between.
 *
 * Return: the descriptor, or -1 with errno set (EMFILE: too many files
 * registered; the file is then not created).
 */
int sp_tempfile_create(const char *path, int flags);

#endif /* SP_TEMPFILE_H */
