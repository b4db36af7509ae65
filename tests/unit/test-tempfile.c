// SPDX-License-Identifier: GPL-2.0-only
/*
 * Atomic output (struct sp_tempfile): a regular file or a new name is
 * replaced only at commit, through a temporary file beside it; a discarded
 * or failed output leaves the target as it was and no file behind; a
 * symlink (to another directory, dangling, chained) stays a link and its
 * target gets the data; a FIFO is written in place (opened at once or
 * deferred); a directory is
 * refused; a process killed by a signal leaves no temporary file.  Works in
 * a fresh temporary directory.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "schedplot/base/error.h"
#include "schedplot/base/tempfile.h"

static char dir[256];

static int setup(void **state)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(dir, sizeof(dir), "%s/schedplot-test-tempfile-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[512];

	chmod(dir, 0700);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* A fresh subdirectory of the test directory for each test. */
static void subdir(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s", dir, name);
	assert_int_equal(mkdir(buf, 0700), 0);
}

static void join(char *buf, size_t size, const char *d, const char *name)
{
	snprintf(buf, size, "%s/%s", d, name);
}

static int count_entries(const char *d)
{
	DIR *dp = opendir(d);
	struct dirent *de;
	int n = 0;

	assert_non_null(dp);
	while ((de = readdir(dp)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			n++;
	closedir(dp);
	return n;
}

static void write_text(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	assert_non_null(fp);
	fputs(text, fp);
	assert_int_equal(fclose(fp), 0);
}

/* @path holds exactly @text. */
static void assert_text(const char *path, const char *text)
{
	char buf[256] = "";
	FILE *fp = fopen(path, "r");
	size_t n;

	assert_non_null(fp);
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	fclose(fp);
	buf[n] = '\0';
	assert_string_equal(buf, text);
}

static void assert_link(const char *path)
{
	struct stat st;

	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
}

/* Write @text to @path through a tempfile and commit. */
static void put(const char *path, const char *text)
{
	struct sp_tempfile tf;
	struct sp_error err;
	FILE *fp;

	assert_int_equal(sp_tempfile_open(&tf, path, O_WRONLY, &err), 0);
	fp = sp_tempfile_fdopen(&tf, "w");
	assert_non_null(fp);
	assert_ptr_equal(sp_tempfile_fdopen(&tf, "w"), fp);
	fputs(text, fp);
	assert_int_equal(sp_tempfile_commit(&tf, &err), 0);
	assert_int_equal(tf.fd, -1);
}

static void test_new_and_replace(void **state)
{
	char d[300], p[400];
	struct sp_tempfile tf;
	struct sp_error err;
	struct stat st;
	mode_t mask;

	subdir(d, sizeof(d), "plain");
	join(p, sizeof(p), d, "out.csv");
	assert_int_equal(sp_tempfile_open(&tf, p, O_WRONLY, &err), 0);
	assert_false(tf.direct);
	assert_string_equal(sp_tempfile_path(&tf), p);
	/* the temporary file is beside the target, the target not there yet */
	assert_int_equal(count_entries(d), 1);
	assert_int_equal(stat(p, &st), -1);
	assert_int_equal(write(tf.fd, "one\n", 4), 4);
	assert_int_equal(sp_tempfile_commit(&tf, &err), 0);
	assert_text(p, "one\n");
	assert_int_equal(count_entries(d), 1);

	mask = umask(0);
	umask(mask);
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0666 & ~mask);

	/* an existing file keeps its contents until the commit */
	assert_int_equal(sp_tempfile_open(&tf, p, O_WRONLY, &err), 0);
	assert_int_equal(write(tf.fd, "two\n", 4), 4);
	assert_text(p, "one\n");
	assert_int_equal(sp_tempfile_commit(&tf, &err), 0);
	assert_text(p, "two\n");
	assert_int_equal(count_entries(d), 1);
}

static void test_discard(void **state)
{
	char d[300], p[400];
	struct sp_tempfile tf;
	struct sp_error err;
	struct stat st;

	subdir(d, sizeof(d), "discard");
	join(p, sizeof(p), d, "new.png");
	assert_int_equal(sp_tempfile_open(&tf, p, O_WRONLY, &err), 0);
	assert_non_null(sp_tempfile_fdopen(&tf, "w"));
	fputs("partial", tf.fp);
	sp_tempfile_discard(&tf);
	assert_int_equal(count_entries(d), 0);
	assert_int_equal(stat(p, &st), -1);
	sp_tempfile_discard(&tf);	/* twice is fine */

	write_text(p, "kept");
	assert_int_equal(sp_tempfile_open(&tf, p, O_RDWR, &err), 0);
	assert_int_equal(write(tf.fd, "lost", 4), 4);
	sp_tempfile_discard(&tf);
	assert_text(p, "kept");
	assert_int_equal(count_entries(d), 1);

	/* a zeroed record */
	memset(&tf, 0, sizeof(tf));
	sp_tempfile_discard(&tf);
}

static void test_symlinks(void **state)
{
	char a[300], b[300], link[400], target[400], chain[400], dangling[400], missing[400];
	char loop[400];
	struct sp_tempfile tf;
	struct sp_error err;

	subdir(a, sizeof(a), "links");
	subdir(b, sizeof(b), "targets");
	join(target, sizeof(target), b, "image.png");
	join(link, sizeof(link), a, "link.png");
	write_text(target, "old");
	assert_int_equal(symlink(target, link), 0);

	/* a link to a file in another directory: the target is replaced, the link stays */
	put(link, "new");
	assert_link(link);
	assert_text(target, "new");
	assert_int_equal(count_entries(a), 1);
	assert_int_equal(count_entries(b), 1);

	/* a relative link to a link */
	join(chain, sizeof(chain), a, "chain.png");
	assert_int_equal(symlink("link.png", chain), 0);
	assert_int_equal(sp_tempfile_open(&tf, chain, O_WRONLY, &err), 0);
	assert_string_equal(sp_tempfile_path(&tf), target);
	sp_tempfile_discard(&tf);
	put(chain, "newer");
	assert_link(chain);
	assert_link(link);
	assert_text(target, "newer");

	/* a dangling link: its target is created, the link stays */
	join(dangling, sizeof(dangling), a, "dangling.png");
	join(missing, sizeof(missing), b, "missing.png");
	assert_int_equal(symlink("../targets/missing.png", dangling), 0);
	put(dangling, "created");
	assert_link(dangling);
	assert_text(missing, "created");
	assert_int_equal(count_entries(b), 2);

	/* a loop is an error, and nothing is created */
	join(loop, sizeof(loop), a, "loop.png");
	assert_int_equal(symlink("loop.png", loop), 0);
	assert_int_equal(sp_tempfile_open(&tf, loop, O_WRONLY, &err), -ELOOP);
	sp_tempfile_discard(&tf);
	assert_int_equal(count_entries(a), 4);
	assert_int_equal(count_entries(b), 2);
}

static void test_fifo(void **state)
{
	char d[300], p[400], buf[64];
	struct sp_tempfile tf;
	struct sp_error err;
	struct stat st;
	ssize_t n;
	int rfd;

	subdir(d, sizeof(d), "fifo");
	join(p, sizeof(p), d, "pipe");
	assert_int_equal(mkfifo(p, 0600), 0);
	/* a reader first, so that the open does not wait */
	rfd = open(p, O_RDONLY | O_NONBLOCK);
	assert_true(rfd >= 0);
	assert_int_equal(sp_tempfile_open(&tf, p, O_WRONLY, &err), 0);
	assert_true(tf.direct);
	assert_int_equal(count_entries(d), 1);
	assert_non_null(sp_tempfile_fdopen(&tf, "w"));
	fputs("through the pipe", tf.fp);
	assert_int_equal(sp_tempfile_commit(&tf, &err), 0);
	n = read(rfd, buf, sizeof(buf) - 1);
	assert_int_equal(n, 16);
	buf[n] = '\0';
	assert_string_equal(buf, "through the pipe");
	close(rfd);
	assert_int_equal(lstat(p, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
	assert_int_equal(count_entries(d), 1);

	/* deferred: no reader needed until sp_tempfile_ready() */
	assert_int_equal(sp_tempfile_open(&tf, p, O_WRONLY | SP_TEMPFILE_DEFER, &err), 0);
	assert_true(tf.direct);
	assert_int_equal(tf.fd, -1);
	rfd = open(p, O_RDONLY | O_NONBLOCK);
	assert_true(rfd >= 0);
	assert_int_equal(sp_tempfile_ready(&tf, &err), 0);
	assert_int_equal(write(tf.fd, "late", 4), 4);
	assert_int_equal(sp_tempfile_commit(&tf, &err), 0);
	assert_int_equal(read(rfd, buf, sizeof(buf)), 4);
	close(rfd);
	assert_int_equal(count_entries(d), 1);
}

/* A scratch null device (root only): never the real /dev/null, which a bug would replace. */
static void test_char_device(void **state)
{
	char d[300], p[400], link[400];
	struct sp_tempfile tf;
	struct sp_error err;
	struct stat st;

	subdir(d, sizeof(d), "chr");
	join(p, sizeof(p), d, "null");
	if (mknod(p, S_IFCHR | 0666, makedev(1, 3))) {
		skip();
		return;
	}
	assert_int_equal(sp_tempfile_open(&tf, p, O_WRONLY, &err), 0);
	assert_true(tf.direct);
	assert_int_equal(write(tf.fd, "x", 1), 1);
	assert_int_equal(sp_tempfile_commit(&tf, &err), 0);
	assert_int_equal(lstat(p, &st), 0);
	assert_true(S_ISCHR(st.st_mode));

	/* a symlink to the device: written through, the link stays */
	join(link, sizeof(link), d, "null.png");
	assert_int_equal(symlink("null", link), 0);
	put(link, "nothing");
	assert_link(link);
	assert_int_equal(lstat(p, &st), 0);
	assert_true(S_ISCHR(st.st_mode));
	assert_int_equal(count_entries(d), 2);
}

static void test_errors(void **state)
{
	char d[300], p[400], inside[500];
	struct sp_tempfile tf;
	struct sp_error err;

	subdir(d, sizeof(d), "errors");
	assert_int_equal(sp_tempfile_open(&tf, d, O_WRONLY, &err), -EISDIR);
	assert_non_null(strstr(err.msg, "is a directory"));
	sp_tempfile_discard(&tf);

	join(p, sizeof(p), d, "missing/out.png");
	assert_int_equal(sp_tempfile_open(&tf, p, O_WRONLY, &err), -ENOENT);
	assert_non_null(strstr(err.msg, "cannot create output in '"));
	assert_non_null(strstr(err.msg, "errors/missing'"));
	sp_tempfile_discard(&tf);
	assert_int_equal(count_entries(d), 0);

	/* a rename that fails (the target turned into a directory) removes the temporary file */
	join(p, sizeof(p), d, "out.png");
	assert_int_equal(sp_tempfile_open(&tf, p, O_WRONLY, &err), 0);
	assert_int_equal(mkdir(p, 0700), 0);
	join(inside, sizeof(inside), p, "inside");
	write_text(inside, "x");
	assert_true(sp_tempfile_commit(&tf, &err) < 0);
	assert_non_null(strstr(err.msg, "cannot rename the output to '"));
	assert_int_equal(count_entries(d), 1);
}

/* A child killed while its temporary file is pending leaves nothing. */
static void test_signal(void **state)
{
	char d[300], p[400];
	int fds[2], status;
	pid_t pid;
	char c;

	subdir(d, sizeof(d), "signal");
	join(p, sizeof(p), d, "out.png");
	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct sp_tempfile tf;
		struct sp_error err;

		if (sp_tempfile_open(&tf, p, O_WRONLY, &err))
			_exit(1);
		if (write(fds[1], "x", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(fds[1]);
	assert_int_equal(read(fds[0], &c, 1), 1);
	close(fds[0]);
	assert_int_equal(count_entries(d), 1);
	kill(pid, SIGTERM);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGTERM);
	assert_int_equal(count_entries(d), 0);
}

/* The low-level pair: a created file is removed at exit unless forgotten. */
static void test_create(void **state)
{
	char d[300], kept[400], gone[400];
	int status, fd;
	pid_t pid;

	subdir(d, sizeof(d), "create");
	join(kept, sizeof(kept), d, "kept");
	join(gone, sizeof(gone), d, "gone");
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		fd = sp_tempfile_create(kept, O_WRONLY);
		if (fd < 0)
			_exit(1);
		close(fd);
		sp_tempfile_unregister(kept);
		fd = sp_tempfile_create(gone, O_RDWR);
		if (fd < 0 || sp_tempfile_create(gone, O_RDWR) >= 0 || errno != EEXIST)
			_exit(1);
		exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(count_entries(d), 1);
	assert_int_equal(access(kept, F_OK), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_new_and_replace),
		cmocka_unit_test(test_discard),
		cmocka_unit_test(test_symlinks),
		cmocka_unit_test(test_fifo),
		cmocka_unit_test(test_char_device),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_signal),
		cmocka_unit_test(test_create),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
