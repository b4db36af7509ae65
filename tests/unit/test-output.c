// SPDX-License-Identifier: GPL-2.0-only
/*
 * Image output: every format writes a valid file, twice byte for byte the
 * same, and nothing is left behind on failure or when not committed.  Works
 * in a fresh temporary directory; external checkers (pdftoppm, xmllint)
 * are used when installed.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <cairo.h>

#include "schedplot/base/error.h"
#include "schedplot/draw/output.h"
#include "schedplot/draw/text.h"
#include "schedplot/draw/theme.h"

static char dir[256];

static int setup(void **state)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(dir, sizeof(dir), "%s/schedplot-test-output-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	return mkdtemp(dir) ? 0 : -1;
}

/*
 * Let leak checkers see only our own allocations: fontconfig leaks a little
 * while parsing its configuration (not ours to fix).
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libfontconfig.so\n";
}

static int teardown(void **state)
{
	char cmd[512];

	/* cairo keeps font caches until reset; leak checkers would see them. */
	cairo_debug_reset_static_data();
	chmod(dir, 0700);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void path_in(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s", dir, name);
}

/* Names in the test directory (without . and ..). */
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

static void clear_dir(void)
{
	DIR *dp = opendir(dir);
	struct dirent *de;
	char p[512];

	assert_non_null(dp);
	while ((de = readdir(dp))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, de->d_name);
		if (unlink(p))
			rmdir(p);
	}
	closedir(dp);
}

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	unsigned char *buf;
	long n;

	assert_non_null(fp);
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	rewind(fp);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
	buf[n] = 0;
	fclose(fp);
	*len = (size_t)n;
	return buf;
}

static bool have_tool(const char *name)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", name);
	return system(cmd) == 0;
}

/* Something with text, lines and fills in it. */
static void draw(struct sp_output *out)
{
	struct sp_theme th;

	sp_theme_init(&th, 0);
	cairo_set_source_rgb(out->cr, 0.9, 0.6, 0);
	cairo_rectangle(out->cr, 10, 10, 50, 20);
	cairo_fill(out->cr);
	sp_render_font(out->cr, &th, th.font_size, false);
	sp_render_set_color(out->cr, &th.text);
	sp_text_draw(out->cr, 20, 50, SP_ALIGN_LEFT | SP_ALIGN_TOP, "kworker/0:1 \xc2\xb5s");
	cairo_set_line_width(out->cr, 1);
	cairo_move_to(out->cr, 0, 0);
	cairo_line_to(out->cr, 100, 80);
	cairo_stroke(out->cr);
}

static int write_image(const char *path, enum sp_format fmt, bool commit, struct sp_error *err)
{
	struct sp_output out;
	int ret;

	sp_output_init(&out);
	ret = sp_output_open(&out, path, fmt, 120, 90, err);
	if (ret)
		return ret;
	draw(&out);
	return sp_output_close(&out, commit, err);
}

static void test_format_names(void **state)
{
	assert_int_equal(sp_format_from_name("png"), SP_FORMAT_PNG);
	assert_int_equal(sp_format_from_name("PDF"), SP_FORMAT_PDF);
	assert_int_equal(sp_format_from_name("Svg"), SP_FORMAT_SVG);
	assert_int_equal(sp_format_from_name("jpg"), SP_FORMAT_NONE);
	assert_int_equal(sp_format_from_name(NULL), SP_FORMAT_NONE);
	assert_int_equal(sp_format_from_path("x.PDF"), SP_FORMAT_PDF);
	assert_int_equal(sp_format_from_path("a/b.c/cores.png"), SP_FORMAT_PNG);
	assert_int_equal(sp_format_from_path("rw.svg"), SP_FORMAT_SVG);
	assert_int_equal(sp_format_from_path("a.png/out"), SP_FORMAT_NONE);
	assert_int_equal(sp_format_from_path(".png"), SP_FORMAT_NONE);
	assert_int_equal(sp_format_from_path("png"), SP_FORMAT_NONE);
	assert_int_equal(sp_format_from_path("x.png.gz"), SP_FORMAT_NONE);
	assert_string_equal(sp_format_name(SP_FORMAT_SVG), "svg");
}

static void test_png(void **state)
{
	static const unsigned char sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	struct sp_error err;
	char p[512];
	unsigned char *a, *b;
	size_t na, nb;
	cairo_surface_t *img;

	clear_dir();
	path_in(p, sizeof(p), "a.png");
	assert_int_equal(write_image(p, SP_FORMAT_NONE, true, &err), 0);
	a = slurp(p, &na);
	assert_true(na > 8);
	assert_memory_equal(a, sig, 8);
	/* IHDR: width and height, rounded up to whole pixels. */
	assert_int_equal((a[16] << 24) | (a[17] << 16) | (a[18] << 8) | a[19], 120);
	assert_int_equal((a[20] << 24) | (a[21] << 16) | (a[22] << 8) | a[23], 90);

	/* White background where nothing was drawn; the drawing where it was. */
	img = cairo_image_surface_create_from_png(p);
	assert_int_equal(cairo_surface_status(img), CAIRO_STATUS_SUCCESS);
	{
		unsigned char *px = cairo_image_surface_get_data(img);
		int stride = cairo_image_surface_get_stride(img);
		uint32_t corner = *(uint32_t *)(px + 85 * stride + 115 * 4);
		uint32_t fill = *(uint32_t *)(px + 20 * stride + 40 * 4);

		assert_int_equal(corner & 0xffffff, 0xffffff);
		assert_in_range((fill >> 16) & 0xff, 0xe4, 0xe6);
		assert_int_equal((fill >> 8) & 0xff, 0x99);
		assert_int_equal(fill & 0xff, 0);
	}
	cairo_surface_destroy(img);

	assert_int_equal(write_image(p, SP_FORMAT_PNG, true, &err), 0);
	b = slurp(p, &nb);
	assert_int_equal(na, nb);
	assert_memory_equal(a, b, na);
	assert_int_equal(count_entries(dir), 1);
	free(a);
	free(b);
}

static void test_pdf(void **state)
{
	struct sp_error err;
	char p[512], q[512], cmd[1200];
	unsigned char *a, *b;
	size_t na, nb;

	clear_dir();
	path_in(p, sizeof(p), "a.pdf");
	path_in(q, sizeof(q), "b.PDF");
	unsetenv("SOURCE_DATE_EPOCH");
	assert_int_equal(write_image(p, SP_FORMAT_NONE, true, &err), 0);
	assert_int_equal(write_image(q, SP_FORMAT_NONE, true, &err), 0);
	a = slurp(p, &na);
	b = slurp(q, &nb);
	assert_memory_equal(a, "%PDF-", 5);
	assert_int_equal(na, nb);
	assert_memory_equal(a, b, na);
	/* cairo 1.16 leaves out the "D:" prefix; readers accept both. */
	assert_non_null(memmem(a, na, "19700101000000", 14));
	free(b);

	/* SOURCE_DATE_EPOCH sets the date, and only the date. */
	setenv("SOURCE_DATE_EPOCH", "1700000000", 1);
	assert_int_equal(write_image(q, SP_FORMAT_PDF, true, &err), 0);
	unsetenv("SOURCE_DATE_EPOCH");
	b = slurp(q, &nb);
	assert_non_null(memmem(b, nb, "/CreationDate (", 15));
	assert_non_null(memmem(b, nb, "20231114221320", 14));
	assert_null(memmem(b, nb, "19700101", 8));
	assert_non_null(memmem(b, nb, "/ModDate (", 10));
	assert_int_equal(na, nb);
	free(a);
	free(b);

	if (have_tool("pdftoppm")) {
		snprintf(cmd, sizeof(cmd), "pdftoppm -png -r 30 '%s' '%s/page' >/dev/null 2>&1", p, dir);
		assert_int_equal(system(cmd), 0);
	}
}

static void test_svg(void **state)
{
	struct sp_error err;
	char p[512], q[512], cmd[1200];
	unsigned char *a, *b;
	size_t na, nb;

	clear_dir();
	path_in(p, sizeof(p), "a.svg");
	path_in(q, sizeof(q), "b.svg");
	assert_int_equal(write_image(p, SP_FORMAT_NONE, true, &err), 0);
	assert_int_equal(write_image(q, SP_FORMAT_SVG, true, &err), 0);
	a = slurp(p, &na);
	b = slurp(q, &nb);
	assert_non_null(strstr((char *)a, "<svg"));
	assert_non_null(strstr((char *)a, "width=\"120"));
	assert_int_equal(na, nb);
	assert_memory_equal(a, b, na);
	free(a);
	free(b);
	if (have_tool("xmllint")) {
		snprintf(cmd, sizeof(cmd), "xmllint --noout '%s' >/dev/null 2>&1", p);
		assert_int_equal(system(cmd), 0);
	}
}

/*
 * The SVG overlay: text as <text> with what it was drawn with, titles as
 * transparent rectangles, hostile strings escaped and made valid UTF-8,
 * and no titles at all beyond SP_OUTPUT_SVG_MAX_TITLES.
 */
static void write_titled(const char *path, enum sp_format fmt, int nr_titles)
{
	struct sp_error err;
	struct sp_output out;

	sp_output_init(&out);
	assert_int_equal(sp_output_open(&out, path, fmt, 120, 90, &err), 0);
	draw(&out);
	cairo_translate(out.cr, 5, 7);
	for (int i = 0; i < nr_titles; i++)
		sp_output_svg_title(out.cr, 1, 2, 3, 4, "a<b & \"c\" \xff\x01 d");
	assert_int_equal(sp_output_close(&out, true, &err), 0);
}

static void test_svg_overlay(void **state)
{
	char p[512], cmd[1200];
	unsigned char *a;
	size_t na;
	char *at;

	clear_dir();
	path_in(p, sizeof(p), "t.svg");
	write_titled(p, SP_FORMAT_SVG, 2);
	a = slurp(p, &na);
	at = strstr((char *)a, "<g id=\"schedplot-text\"");
	assert_non_null(at);
	assert_non_null(strstr(at, ">kworker/0:1 \xc2\xb5s</text>"));
	/* the titles last, moved as the drawing was, before the closing tag */
	at = strstr((char *)a, "<g id=\"schedplot-titles\"");
	assert_non_null(at);
	assert_non_null(strstr(at, "<rect x=\"6.000\" y=\"9.000\" width=\"3.000\" height=\"4.000\">"
				   "<title>a&lt;b &amp; &quot;c&quot; ?? d</title></rect>"));
	assert_string_equal((char *)a + na - 7, "</svg>\n");
	assert_null(strchr((char *)a, 0xff));
	free(a);
	if (have_tool("xmllint")) {
		snprintf(cmd, sizeof(cmd), "xmllint --noout '%s' >/dev/null 2>&1", p);
		assert_int_equal(system(cmd), 0);
	}
	/* beyond the limit: the text, no titles */
	write_titled(p, SP_FORMAT_SVG, SP_OUTPUT_SVG_MAX_TITLES + 1);
	a = slurp(p, &na);
	assert_non_null(strstr((char *)a, "<g id=\"schedplot-text\""));
	assert_null(strstr((char *)a, "<title>"));
	free(a);
	/* other formats: nothing of it */
	path_in(p, sizeof(p), "t.pdf");
	write_titled(p, SP_FORMAT_PDF, 2);
	a = slurp(p, &na);
	assert_null(strstr((char *)a, "schedplot-t"));
	free(a);
}

/* Byte identity across processes, the case users see. */
static void test_identical_across_runs(void **state)
{
	static const char *const names[] = { "p.png", "p.pdf", "p.svg" };
	struct sp_error err;

	clear_dir();
	for (int i = 0; i < 3; i++) {
		char p[512], q[512];
		unsigned char *a, *b;
		size_t na, nb;
		pid_t pid;
		int status;

		path_in(p, sizeof(p), names[i]);
		snprintf(q, sizeof(q), "%s/q%s", dir, names[i] + 1);
		pid = fork();
		assert_true(pid >= 0);
		if (pid == 0)
			_exit(write_image(p, SP_FORMAT_NONE, true, &err) ? 1 : 0);
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
		assert_int_equal(write_image(q, SP_FORMAT_NONE, true, &err), 0);
		a = slurp(p, &na);
		b = slurp(q, &nb);
		assert_int_equal(na, nb);
		assert_memory_equal(a, b, na);
		free(a);
		free(b);
	}
}

static void test_no_commit(void **state)
{
	static const enum sp_format fmts[] = { SP_FORMAT_PNG, SP_FORMAT_PDF, SP_FORMAT_SVG };
	struct sp_error err;
	char p[512];

	clear_dir();
	path_in(p, sizeof(p), "gone.img");
	for (int i = 0; i < 3; i++) {
		struct sp_output out;

		sp_output_init(&out);
		assert_int_equal(sp_output_open(&out, p, fmts[i], 100, 100, &err), 0);
		/* The temporary file exists while drawing, beside the target. */
		assert_int_equal(count_entries(dir), 1);
		draw(&out);
		assert_int_equal(sp_output_close(&out, false, &err), 0);
		assert_int_equal(count_entries(dir), 0);
		assert_null(out.cr);
		/* Closing twice is harmless. */
		assert_int_equal(sp_output_close(&out, true, &err), 0);
	}
}

static void test_drawing_error(void **state)
{
	struct sp_output out;
	struct sp_error err;
	char p[512];
	unsigned char *a;
	size_t na;
	FILE *fp;

	clear_dir();
	path_in(p, sizeof(p), "keep.svg");
	fp = fopen(p, "w");
	assert_non_null(fp);
	fputs("old", fp);
	fclose(fp);

	sp_output_init(&out);
	assert_int_equal(sp_output_open(&out, p, SP_FORMAT_NONE, 100, 100, &err), 0);
	draw(&out);
	cairo_restore(out.cr);	/* unbalanced: cairo's sticky error */
	assert_int_equal(sp_output_close(&out, true, &err), -EIO);
	assert_non_null(strstr(err.msg, "cannot draw the svg image"));
	/* The old file is untouched and no temporary file is left. */
	assert_int_equal(count_entries(dir), 1);
	a = slurp(p, &na);
	assert_int_equal(na, 3);
	assert_memory_equal(a, "old", 3);
	free(a);
}

static void test_bad_directory(void **state)
{
	struct sp_error err;
	char p[512], sub[512];

	clear_dir();
	path_in(p, sizeof(p), "missing/out.png");
	sp_error_clear(&err);
	assert_int_equal(write_image(p, SP_FORMAT_NONE, true, &err), -ENOENT);
	assert_int_equal(err.code, -ENOENT);
	assert_non_null(strstr(err.msg, "cannot create output in '"));
	assert_non_null(strstr(err.msg, "/missing': No such file or directory"));
	assert_int_equal(count_entries(dir), 0);

	/* The target is a directory. */
	path_in(sub, sizeof(sub), "d.png");
	assert_int_equal(mkdir(sub, 0700), 0);
	assert_int_equal(write_image(sub, SP_FORMAT_NONE, true, &err), -EISDIR);
	assert_non_null(strstr(err.msg, "is a directory"));
	rmdir(sub);

	/* A directory we may not write to (root may write anywhere). */
	path_in(sub, sizeof(sub), "ro");
	assert_int_equal(mkdir(sub, 0500), 0);
	if (geteuid() != 0) {
		path_in(p, sizeof(p), "ro/out.pdf");
		assert_int_equal(write_image(p, SP_FORMAT_NONE, true, &err), -EACCES);
		assert_non_null(strstr(err.msg, "/ro': Permission denied"));
		assert_int_equal(count_entries(sub), 0);
	}
	chmod(sub, 0700);
	rmdir(sub);
}

static void test_bad_arguments(void **state)
{
	struct sp_output out;
	struct sp_error err;
	char p[512];

	clear_dir();
	sp_output_init(&out);
	path_in(p, sizeof(p), "x.jpg");
	assert_int_equal(sp_output_open(&out, p, SP_FORMAT_NONE, 10, 10, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "cannot tell the image format"));
	assert_int_equal(sp_output_open(&out, "-", SP_FORMAT_NONE, 10, 10, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "standard output"));
	path_in(p, sizeof(p), "x.png");
	assert_int_equal(sp_output_open(&out, p, SP_FORMAT_NONE, 0, 10, &err), -EINVAL);
	assert_int_equal(sp_output_open(&out, p, SP_FORMAT_NONE, 10, 40000, &err), -EINVAL);
	assert_int_equal(sp_output_open(&out, p, SP_FORMAT_NONE, 10, 0.0 / 0.0, &err), -EINVAL);
	assert_int_equal(count_entries(dir), 0);
	assert_null(out.cr);
}

static void test_protected_input(void **state)
{
	struct sp_output out;
	struct sp_error err;
	char in[512], sym[512], hard[512];
	unsigned char *a;
	size_t na;
	FILE *fp;

	clear_dir();
	path_in(in, sizeof(in), "trace.svg");
	path_in(sym, sizeof(sym), "sym.svg");
	path_in(hard, sizeof(hard), "hard.svg");
	fp = fopen(in, "w");
	assert_non_null(fp);
	fputs("trace data", fp);
	fclose(fp);
	assert_int_equal(symlink("trace.svg", sym), 0);
	assert_int_equal(link(in, hard), 0);

	sp_output_init(&out);
	assert_int_equal(sp_output_protect(&out, in), 0);
	assert_int_equal(sp_output_protect(&out, "/nonexistent/file"), 0);
	assert_int_equal(sp_output_open(&out, in, SP_FORMAT_NONE, 10, 10, &err), -EEXIST);
	assert_non_null(strstr(err.msg, "refusing to write the image over the input file"));
	assert_int_equal(sp_output_open(&out, sym, SP_FORMAT_NONE, 10, 10, &err), -EEXIST);
	assert_int_equal(sp_output_open(&out, hard, SP_FORMAT_NONE, 10, 10, &err), -EEXIST);
	a = slurp(in, &na);
	assert_int_equal(na, 10);
	assert_memory_equal(a, "trace data", 10);
	free(a);
	assert_int_equal(count_entries(dir), 3);

	/* Other names are fine, and the protection survives a close. */
	path_in(sym, sizeof(sym), "other.svg");
	assert_int_equal(sp_output_open(&out, sym, SP_FORMAT_NONE, 10, 10, &err), 0);
	assert_int_equal(sp_output_close(&out, true, &err), 0);
	assert_int_equal(sp_output_open(&out, in, SP_FORMAT_NONE, 10, 10, &err), -EEXIST);

	/* Standard output redirected to the input. */
	{
		int saved = dup(STDOUT_FILENO), fd = open(in, O_WRONLY | O_APPEND);

		assert_true(saved >= 0 && fd >= 0);
		fflush(stdout);
		dup2(fd, STDOUT_FILENO);
		close(fd);
		assert_int_equal(sp_output_open(&out, "-", SP_FORMAT_PNG, 10, 10, &err), -EEXIST);
		dup2(saved, STDOUT_FILENO);
		close(saved);
	}
	sp_output_release(&out);
}

/* Any number of inputs: the last of many is as protected as the first. */
static void test_protect_many(void **state)
{
	struct sp_output out;
	struct sp_error err;
	char p[512], name[32];
	FILE *fp;
	int i;

	clear_dir();
	sp_output_init(&out);
	for (i = 0; i < 40; i++) {
		snprintf(name, sizeof(name), "in%d.png", i);
		path_in(p, sizeof(p), name);
		fp = fopen(p, "w");
		assert_non_null(fp);
		fclose(fp);
		assert_int_equal(sp_output_protect(&out, p), 0);
	}
	assert_int_equal(sp_output_open(&out, p, SP_FORMAT_NONE, 10, 10, &err), -EEXIST);
	path_in(p, sizeof(p), "in0.png");
	assert_int_equal(sp_output_open(&out, p, SP_FORMAT_NONE, 10, 10, &err), -EEXIST);
	path_in(p, sizeof(p), "out.png");
	assert_int_equal(sp_output_open(&out, p, SP_FORMAT_NONE, 10, 10, &err), 0);
	assert_int_equal(sp_output_close(&out, true, &err), 0);
	sp_output_release(&out);
	assert_int_equal(count_entries(dir), 41);
}

static void test_stdout(void **state)
{
	struct sp_output out;
	struct sp_error err;
	char p[512];
	unsigned char *a;
	size_t na;
	int saved, fd;

	clear_dir();
	path_in(p, sizeof(p), "stdout.bin");
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	saved = dup(STDOUT_FILENO);
	assert_true(fd >= 0 && saved >= 0);
	fflush(stdout);
	dup2(fd, STDOUT_FILENO);
	close(fd);

	sp_output_init(&out);
	assert_int_equal(sp_output_open(&out, "-", SP_FORMAT_SVG, 50, 50, &err), 0);
	draw(&out);
	/* Nothing reaches standard output before the image is complete. */
	assert_int_equal(lseek(STDOUT_FILENO, 0, SEEK_END), 0);
	assert_int_equal(sp_output_close(&out, true, &err), 0);

	/* Not committed: nothing written at all. */
	assert_int_equal(sp_output_open(&out, "-", SP_FORMAT_PNG, 50, 50, &err), 0);
	draw(&out);
	assert_int_equal(sp_output_close(&out, false, &err), 0);

	dup2(saved, STDOUT_FILENO);
	close(saved);
	a = slurp(p, &na);
	assert_true(na > 100);
	assert_non_null(strstr((char *)a, "<svg"));
	assert_non_null(strstr((char *)a, "</svg>"));
	free(a);
}

static void test_overwrite(void **state)
{
	struct sp_error err;
	char p[512];
	unsigned char *a;
	size_t na;
	FILE *fp;
	struct stat st;
	mode_t mask = umask(022);

	umask(mask);
	clear_dir();
	path_in(p, sizeof(p), "old.png");
	fp = fopen(p, "w");
	assert_non_null(fp);
	fputs("an older image", fp);
	fclose(fp);
	assert_int_equal(write_image(p, SP_FORMAT_NONE, true, &err), 0);
	a = slurp(p, &na);
	assert_memory_equal(a, "\x89PNG", 4);
	free(a);
	assert_int_equal(count_entries(dir), 1);
	/* A new file: mode from the umask, not the 0600 of a temporary file. */
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0666 & ~mask);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_names),
		cmocka_unit_test(test_png),
		cmocka_unit_test(test_pdf),
		cmocka_unit_test(test_svg),
		cmocka_unit_test(test_svg_overlay),
		cmocka_unit_test(test_identical_across_runs),
		cmocka_unit_test(test_no_commit),
		cmocka_unit_test(test_drawing_error),
		cmocka_unit_test(test_bad_directory),
		cmocka_unit_test(test_bad_arguments),
		cmocka_unit_test(test_protected_input),
		cmocka_unit_test(test_protect_many),
		cmocka_unit_test(test_stdout),
		cmocka_unit_test(test_overwrite),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
