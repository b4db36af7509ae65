// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz-trace: the whole path a user's file takes, as one libFuzzer target.
 *
 * Each input is written to an anonymous memory file and opened by path
 * (/proc/self/fd/N), as `schedplot` would open it: the container check,
 * the event formats, the per-CPU decoding, the model with the stats and a
 * timeline observer, then a small datagraph drawn into an in-memory image
 * surface.  Nothing is written to disk.
 *
 * Work per input is bounded: inputs are capped by -max_len, decompressed
 * blocks by the container's limits, and a first pass counts the records and
 * stops at FUZZ_MAX_RECORDS; only traces below that are modelled and drawn.
 *
 * Build and run with `make fuzz` (see tests/fuzz/README).  Built with
 * -DFUZZ_STANDALONE it is a plain program that runs the target once over
 * each file named on its command line (for replaying a crash without
 * libFuzzer, e.g. under valgrind or gdb).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cairo.h>

#include "schedplot/analysis/stats.h"
#include "schedplot/base/error.h"
#include "schedplot/draw/theme.h"
#include "schedplot/model/model.h"
#include "schedplot/model/timeline.h"
#include "schedplot/model/trace.h"
#include "schedplot/trace/reader.h"
#include "schedplot/views/datagraph.h"

#define FUZZ_MAX_RECORDS	200000
#define FUZZ_MAX_ROWS		64
#define FUZZ_WIDTH		200
#define FUZZ_HEIGHT		100

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A pass in short: how many records, a digest of them in order, how it ended. */
struct pass_sum {
	uint64_t nr, digest;
	int ret;
};

static int sum_record(const struct sp_event *ev, void *data)
{
	struct pass_sum *p = data;
	uint64_t v = ev->ts_ns ^ ((uint64_t)(uint32_t)ev->cpu << 32) ^ (uint32_t)ev->pid ^
		     ((uint64_t)(uint32_t)ev->common_pid << 16) ^ ((uint64_t)ev->type << 56);

	p->digest = (p->digest ^ v) * 0x100000001b3ull;
	return ++p->nr >= FUZZ_MAX_RECORDS ? 1 : 0;
}

/*
 * Count the records, with both merges: the tree and the batches must
 * agree on every record and on how the pass ends, whatever the input.
 */
static int count_records(struct sp_reader *r, uint64_t *nr)
{
	struct pass_sum tree = { 0 }, batches = { 0 };
	struct sp_error err;

	sp_reader_set_batch_min(r, 0);
	tree.ret = sp_reader_read(r, sum_record, &tree, &err);
	sp_reader_set_batch_min(r, 1);
	batches.ret = sp_reader_read(r, sum_record, &batches, &err);
	if (tree.nr != batches.nr || tree.digest != batches.digest || tree.ret != batches.ret)
		abort();
	*nr = tree.nr;
	return tree.ret;
}

/* Both observers at once: the stats and the timeline. */
/* Draw a small datagraph of the finished timeline into memory. */
static void draw(const struct sp_trace *t, struct sp_timeline *tl,
		 struct sp_datagraph_figure *fig)
{
	struct sp_datagraph dg = { 0 };
	cairo_surface_t *surface;
	cairo_t *cr;

	if (sp_datagraph_init(&dg, tl, &t->model, &(struct sp_datagraph_opts){ 0 }))
		goto out;
	if (sp_datagraph_figure_finish(fig, &dg))
		goto out;
	surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, FUZZ_WIDTH, FUZZ_HEIGHT);
	cr = cairo_create(surface);
	sp_datagraph_figure_draw(cr, fig, &dg);
	cairo_destroy(cr);
	cairo_surface_finish(surface);
	cairo_surface_destroy(surface);
out:
	sp_datagraph_release(&dg);
}

static void run_file(const char *path)
{
	struct sp_trace t;
	struct sp_error err;
	struct sp_stats stats = { 0 };
	struct sp_timeline tl = { 0 };
	struct sp_theme theme;
	struct sp_datagraph_figure fig = { 0 };
	struct sp_model_observer obs = { 0 };
	struct sp_pass pass;
	int rows[FUZZ_MAX_ROWS];
	unsigned int nr_rows, i;
	uint64_t nr = 0;

	sp_error_clear(&err);
	if (sp_trace_open(&t, path, &err))
		return;
	/* bounded work: count first, model only what is small enough */
	if (count_records(t.reader, &nr))
		goto out;

	nr_rows = t.nr_cpus < FUZZ_MAX_ROWS ? (unsigned int)t.nr_cpus : FUZZ_MAX_ROWS;
	for (i = 0; i < nr_rows; i++)
		rows[i] = (int)i;
	sp_theme_init(&theme, 0);
	fig.theme = &theme;
	fig.format = SP_FORMAT_PNG;
	fig.width = FUZZ_WIDTH;
	fig.height = FUZZ_HEIGHT;
	fig.title = "fuzz";
	fig.legend = true;
	if (sp_datagraph_figure_plan(&fig, rows, nr_rows))
		goto out;
	if (sp_timeline_init(&tl, t.window_start_ns, t.end_ns > t.window_start_ns ?
			     t.end_ns : t.window_start_ns + 1, fig.nr_cols, t.nr_cpus, rows,
			     nr_rows))
		goto out;

	sp_stats_init(&stats, t.window_start_ns, t.end_ns, t.nr_cpus);
	/* two consumers of one pass, as the commands have */
	sp_pass_init(&pass);
	sp_stats_observer(&stats, &obs);
	sp_pass_add(&pass, &obs);
	sp_timeline_observer(&tl, &obs);
	sp_pass_add(&pass, &obs);
	if (sp_trace_run(&t, &pass, NULL, &err))
		goto out;
	sp_stats_finish(&stats);
	(void)sp_stats_running_avg(&stats);
	(void)sp_stats_waiting_avg(&stats);
	for (i = 0; i < (unsigned int)t.nr_cpus && i < FUZZ_MAX_ROWS; i++)
		(void)sp_reader_lost_events(t.reader, (int)i);
	if (sp_timeline_finish(&tl))
		goto out;
	draw(&t, &tl, &fig);
out:
	sp_stats_release(&stats);
	sp_timeline_release(&tl);
	sp_trace_close(&t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	int fd;

	fd = memfd_create("fuzz-trace", MFD_CLOEXEC);
	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	run_file(path);
	close(fd);
	return 0;
}

#ifdef FUZZ_STANDALONE
int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		uint8_t *buf = NULL;
		long len;

		if (!f || fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 ||
		    fseek(f, 0, SEEK_SET)) {
			perror(argv[i]);
			return 1;
		}
		buf = malloc(len ? (size_t)len : 1);
		if (!buf || fread(buf, 1, (size_t)len, f) != (size_t)len) {
			perror(argv[i]);
			return 1;
		}
		fclose(f);
		LLVMFuzzerTestOneInput(buf, (size_t)len);
		free(buf);
	}
	return 0;
}
#endif
