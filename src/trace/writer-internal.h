/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_WRITER_INTERNAL_H
#define SP_WRITER_INTERNAL_H

/*
 * Inside the trace writer; nothing outside src/trace/writer*.c includes
 * this.  The writer's jobs, one file each, each calling only those below it:
 *
 *   writer.c         the API: options, formats, cmdlines, sched events,
 *                    close and abort
 *   writer-layout.c  the file laid out from the metadata and the spool,
 *                    written front to back (to a struct sp_tempfile)
 *   writer-pages.c   records into ring-buffer pages, pages into chunks
 *                    (compressed for v7), chunks into the spool
 *   writer-io.c      bytes in the file's order, writes that finish
 *
 * Only the two files above the pages see struct sp_writer.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "schedplot/base/tempfile.h"
#include "writer-io.h"
#include "writer-pages.h"

struct sp_error;

struct wr_format {
	char *system;
	char *text;
	size_t len;
};

struct wr_option {
	unsigned int id;
	unsigned char *data;
	size_t len;
};

struct sp_writer {
	struct sp_tempfile out;	/* the file, or its temporary file beside it */
	struct sp_pages pages;	/* the CPUs' records in the spool, and the file's geometry */
	int version;
	char *clock;
	char *uname;
	char *header_page;
	char *header_event;
	uint64_t trace_id;
	struct wr_format *formats;
	size_t nr_formats;
	size_t alloc_formats;
	struct wr_option *options;
	size_t nr_options;
	size_t alloc_options;
	struct buf cmdlines;
	struct buf kallsyms;		/* /proc/kallsyms' text, or empty */
	bool sched_formats;
	unsigned char scratch[512];
};

/**
 * sp_writer_layout_write - write the whole file front to back
 * @w: the writer, all its pages flushed to the spool
 * @fd: where to (written sequentially: a FIFO or device is fine)
 * @err: filled in on failure
 *
 * Return: 0, or a negative code with @err set.
 */
int sp_writer_layout_write(struct sp_writer *w, int fd, struct sp_error *err);

#endif /* SP_WRITER_INTERNAL_H */
