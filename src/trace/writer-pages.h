/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_WRITER_PAGES_H
#define SP_WRITER_PAGES_H

/*
 * Each CPU's records packed into ring-buffer pages, pages into chunks
 * (compressed for v7), chunks appended to an unlinked spool file.  Below
 * the layout: what it leaves for writer-layout.c is each CPU's list of
 * chunks in the spool; it knows nothing of the file around them.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sp_error;
struct ZSTD_CCtx_s;

struct chunk_ref {
	uint64_t spool_off;
	uint32_t len;		/* bytes in the spool: zsize+rsize header and data, or raw */
	uint32_t raw;		/* uncompressed bytes (whole pages) */
};

struct wcpu {
	unsigned char *chunk;	/* SP_DAT_PAGES_IN_CHUNK pages, allocated on first use */
	unsigned int nr_pages;	/* finished pages in chunk */
	unsigned int used;	/* data bytes of the current page; 0: none open */
	bool open;		/* a page is being filled */
	uint64_t last_ts;	/* time of the last record of the open page */
	bool have_ts;
	uint64_t prev_ts;	/* last record's time, for the order check */
	bool lost;		/* records were lost before the next record */
	uint64_t lost_count;
	bool page_lost;		/* the open page comes after lost records */
	uint64_t page_lost_count;
	struct chunk_ref *chunks;
	size_t nr_chunks;
	size_t alloc_chunks;
	uint64_t file_bytes;	/* bytes this CPU takes in the file (v7: without the count) */
	uint64_t nr_records;
};

struct sp_pages {
	/* set by the caller before sp_pages_open() */
	int nr_cpus;
	unsigned int page_size;
	bool big_endian;
	bool compress;		/* zstd chunks (v7) */
	int level;

	/* owned */
	int spool_fd;
	uint64_t spool_len;
	struct ZSTD_CCtx_s *cctx;	/* also compresses the layout's sections */
	unsigned char *zbuf;
	size_t zbuf_len;
	struct wcpu *cpus;
};

/**
 * sp_pages_open - allocate the CPUs and the compressor, create the spool
 * @pg: its settings filled in, the rest zero
 * @near: the output's path, the spool goes beside it; NULL: in $TMPDIR
 * @err: filled in on failure
 *
 * Return: 0, or -ENOMEM or -errno with @err set; sp_pages_release() either way.
 */
int sp_pages_open(struct sp_pages *pg, const char *near, struct sp_error *err);

/**
 * sp_pages_record - append one record to a CPU's open page
 * @pg: the pages
 * @cpu: the CPU
 * @ts_ns: its time, not before the CPU's last record
 * @payload: the record's bytes
 * @len: how many
 * @err: filled in on failure
 *
 * Return: 0, or a negative code with @err set.
 */
int sp_pages_record(struct sp_pages *pg, int cpu, uint64_t ts_ns, const void *payload,
		    size_t len, struct sp_error *err);

/**
 * sp_pages_page - append a whole ring-buffer page, as read, to a CPU
 * @pg: the pages
 * @cpu: the CPU
 * @page: the page, header first
 * @len: its length, at most the page size
 * @err: filled in on failure
 *
 * Return: 0, or a negative code with @err set.
 */
int sp_pages_page(struct sp_pages *pg, int cpu, const void *page, size_t len,
		  struct sp_error *err);

/**
 * sp_pages_lost - note records lost on a CPU before its next record
 * @pg: the pages
 * @cpu: the CPU
 * @count: how many (0: unknown)
 *
 * Return: 0, or -EINVAL for a CPU out of range.
 */
int sp_pages_lost(struct sp_pages *pg, int cpu, uint64_t count);

/**
 * sp_pages_nr_records - records appended one by one
 * @pg: the pages
 * @cpu: the CPU, or -1 for all
 *
 * Return: the count (0 for a CPU out of range); the records of whole pages
 * (sp_pages_page()) are not counted.
 */
uint64_t sp_pages_nr_records(const struct sp_pages *pg, int cpu);

/**
 * sp_pages_flush - close every CPU's open page and flush its chunk
 * @pg: the pages
 * @err: filled in on failure
 *
 * Return: 0, or a negative code with @err set (compression or spool errors).
 */
int sp_pages_flush(struct sp_pages *pg, struct sp_error *err);

/**
 * sp_pages_release - close the spool and free what sp_pages_open() took
 * @pg: the pages (zeroed or opened)
 */
void sp_pages_release(struct sp_pages *pg);

#endif /* SP_WRITER_PAGES_H */
