/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_CONTAINER_H
#define SP_CONTAINER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sp_error;

/*
 * The trace-cmd file container (trace-cmd.dat.v6(5), trace-cmd.dat.v7(5)),
 * checked before the file is handed to libtracecmd, which prints its own
 * errors and trusts sizes and offsets it reads.  The check reads only
 * headers, sizes and offsets (small preads, never the whole file), does not
 * decompress anything and does not look inside ring-buffer pages.
 */

/* Limits the check enforces; anything outside them is a damaged file. */
#define SP_CONTAINER_MIN_PAGE_SIZE	4096u
#define SP_CONTAINER_MAX_PAGE_SIZE	(1u << 20)
#define SP_CONTAINER_MAX_CPUS		8192u
#define SP_CONTAINER_MAX_CHUNK		(256u << 20)	/* uncompressed bytes per block */
#define SP_CONTAINER_MAX_RATIO		1024u		/* uncompressed / compressed */
/*
 * Compressed CPU data: trace-cmd writes chunks of 10 pages (640 KiB with
 * 64 KiB pages); the reader holds one chunk of every CPU at a time.
 */
#define SP_CONTAINER_MAX_DATA_CHUNK	(4u << 20)
#define SP_CONTAINER_MAX_DATA_MEMORY	(512u << 20)	/* the largest chunks of all CPUs */

struct sp_container_info {
	int version;		/* 6 or 7 */
	bool big_endian;
	int long_size;		/* 4 or 8 */
	int page_size;
	int nr_cpus;
	char compression[32];	/* "none", "zstd", "zlib" */
	uint64_t file_size;
};

/**
 * sp_container_check - validate the container of a trace-cmd data file
 * @path: the .dat file
 * @info: filled in as far as the file could be read, also on failure (may be NULL)
 * @err: filled in on failure (may be NULL)
 *
 * Walks the header, the metadata, the options (v6) or the sections and the
 * chain of options sections (v7), and checks that every size and offset,
 * each CPU's data and each compressed block header lies inside the file.
 *
 * Return: 0 when the container is sound, or a negative code with @err set:
 * -errno when the file cannot be opened or read, -EISDIR for a directory,
 * -ENODATA for an empty file, -EINVAL when it is not a trace-cmd file,
 * -EPROTONOSUPPORT for a file version other than 6 or 7, -ENOTSUP for an
 * unknown compression, and -EBADMSG (with the file offset) when the file
 * is truncated or holds impossible values.
 */
int sp_container_check(const char *path, struct sp_container_info *info,
		       struct sp_error *err);

/**
 * sp_container_check_visit - sp_container_check() that reports what it reads
 * @path: the .dat file
 * @info: as for sp_container_check()
 * @err: as for sp_container_check()
 * @visit: called for each item read and found inside the file (may be NULL)
 * @data: passed to @visit
 *
 * @visit gets the item's name, file offset and size in bytes, in the order
 * the check reads them.  Names: "magic", "version", "page size",
 * "compression", "options offset", "header_page", "header_event",
 * "ftrace formats", "event formats", "kallsyms", "printk", "cmdlines",
 * "cpu count", "data type", "options", "option", "flyrecord", "cpu data",
 * "chunk", "section", "next options offset".  Tests use it to find the
 * fields to damage and the boundaries to truncate at.
 *
 * Return: as sp_container_check().
 */
int sp_container_check_visit(const char *path, struct sp_container_info *info,
			     struct sp_error *err,
			     void (*visit)(void *data, const char *what,
					   uint64_t offset, uint64_t size),
			     void *data);

/* One CPU's ring-buffer data in the top buffer instance. */
struct sp_container_cpu {
	unsigned int cpu;	/* CPU id */
	uint64_t offset;	/* file offset of the data (compressed: of the chunk count) */
	uint64_t size;		/* bytes in the file, 0 when the CPU recorded nothing */
	uint64_t nr_chunks;	/* compressed data: number of chunks */
	uint64_t mid_chunk;	/* compressed data: file offset of chunk nr_chunks / 2's header */
	uint64_t last_chunk;	/* compressed data: file offset of the last chunk's header */
	uint64_t largest_chunk;	/* compressed data: the most bytes a chunk holds uncompressed */
};

/*
 * A metadata block, laid out as trace-cmd.dat.v6(5) describes it: in v6 the
 * bytes in the file, in v7 the contents of its section (which may be one
 * compressed block: sizes, then the compressed bytes).
 */
struct sp_container_block {
	uint64_t offset;	/* first byte (v7: just after the section header) */
	uint64_t size;		/* bytes in the file */
	bool compressed;	/* v7: the section is compressed */
	bool present;
};

/*
 * Where a file keeps what a reader needs, found while checking it.  Only
 * the top buffer instance is described (the one trace-cmd report shows).
 */
struct sp_container_layout {
	struct sp_container_info info;
	bool flyrecord;		/* the top instance holds ring-buffer pages (not latency text) */
	bool compressed;	/* its data is in compressed chunks */
	bool ts_options;	/* options that shift or scale timestamps (date, offset, guest
				 * time shift, TSC conversion) are present */
	unsigned int nr_cpus;	/* entries in @cpus, in file order */
	struct sp_container_cpu *cpus;
	/* metadata: "header_page"/"header_event", ftrace and event formats, kallsyms, saved cmdlines */
	struct sp_container_block header_info;
	struct sp_container_block ftrace_formats;	/* a 4-byte count, then sized formats */
	struct sp_container_block event_formats;
	struct sp_container_block kallsyms;		/* a 4-byte size, then /proc/kallsyms' text */
	struct sp_container_block cmdlines;
	/*
	 * The text of the cpustats options (ring-buffer statistics), one
	 * after the other with a NUL after each, or NULL when there are none
	 * or they are larger than SP_CPUSTATS_MAX_TEXT (then
	 * cpustats_too_long).  For sp_cpustats_parse().
	 */
	char *cpustats;
	size_t cpustats_len;
	bool cpustats_too_long;
	/*
	 * The UNAME option ("sysname nodename release machine" as trace-cmd
	 * writes it) and the TRACECLOCK option (the trace_clock file: the
	 * clock in use in brackets), cut to what fits; "" when absent
	 */
	char uname[256];
	char trace_clock[256];
};

/**
 * sp_container_layout - check a file and describe where its data lies
 * @path: the .dat file
 * @layout: filled in (release it with sp_container_layout_release(), also
 *          on failure)
 * @err: filled in on failure (may be NULL)
 *
 * Makes the checks of sp_container_check() and records the per-CPU data of
 * the top buffer instance, the metadata blocks and the cpustats text.  Compressed data is
 * described by its first and last chunk only, so the layout stays small
 * whatever the size of the trace.
 *
 * Return: as sp_container_check(), or -ENOMEM.
 */
int sp_container_layout(const char *path, struct sp_container_layout *layout,
			struct sp_error *err);

/**
 * sp_container_layout_release - free what a layout holds
 * @layout: the layout (the struct itself stays)
 */
void sp_container_layout_release(struct sp_container_layout *layout);

#endif /* SP_CONTAINER_H */
