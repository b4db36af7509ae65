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

/**
 * sp_metadata_load_event - add the format of one more event to a tep
 * @l: the file's layout
 * @fd: the file, open for reading
 * @tep: the tep sp_metadata_load() made
 * @system: the event's system ("ftrace" events are in their own block)
 * @name: the event
 * @err: filled in on failure (not for a plain -ENOENT)
 *
 * sp_metadata_load() parses only the formats the reader needs; this finds
 * another in the file's metadata when a caller asks for its records.
 *
 * Return: 0, -ENOENT when the file has no format of the event, -EINVAL
 * with @err set when it has one that does not parse, or another negative
 * code with @err set (the block does not load).
 */
int sp_metadata_load_event(const struct sp_container_layout *l, int fd, struct tep_handle *tep,
			   const char *system, const char *name, struct sp_error *err);

/**
 * sp_metadata_load_functions - add the file's kernel symbols to a tep
 * @l: the file's layout
 * @fd: the file, open for reading
 * @tep: the tep sp_metadata_load() made
 * @err: filled in when the block does not load
 *
 * The saved /proc/kallsyms, for tep_find_function(); sp_metadata_load()
 * leaves it out (megabytes of text few commands need).
 *
 * Return: 0, -ENOENT when the file saved none (an empty block too), or
 * another negative code.
 */
int sp_metadata_load_functions(const struct sp_container_layout *l, int fd, struct tep_handle *tep,
			       struct sp_error *err);

#endif /* SP_METADATA_H */
