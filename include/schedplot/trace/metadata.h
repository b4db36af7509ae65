/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_METADATA_H
#define SP_METADATA_H

/*
 * metadata: what the reader reads of a file besides the records' pass:
 * the ring-buffer header format, the event formats it needs and the saved
 * cmdlines (sp_metadata_load()), and the trace_marker texts written when
 * tracing started (sp_reader_scan_markers() in reader.h).
 */

#include "schedplot/trace/container.h"

struct sp_error;
struct tep_handle;

/**
 * sp_metadata_damaged - record a metadata block that cannot be read as the
 *                       format says
 * @err: filled in (may be NULL)
 * @what: the block, for the message
 *
 * Return: -EBADMSG.
 */
int sp_metadata_damaged(struct sp_error *err, const char *what);

/**
 * sp_metadata_load - build a tep from the file's metadata
 * @l: the file's layout (sp_container_layout())
 * @path: the file
 * @tep: set to the new tep as soon as it is allocated, also on failure;
 *       the caller frees it with tep_free()
 * @err: filled in on failure
 *
 * Loads only what the reader uses: the ring-buffer header formats, the
 * formats of the sched events and of ftrace:print, and the saved cmdlines.
 *
 * Return: 0, -EBADMSG with @err set (a damaged file), or another -errno
 * (use libtracecmd).
 */
int sp_metadata_load(const struct sp_container_layout *l, const char *path,
		     struct tep_handle **tep, struct sp_error *err);

#endif /* SP_METADATA_H */
