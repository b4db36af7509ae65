/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_CPUSTREAM_H
#define SP_CPUSTREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sp_container_cpu;
struct sp_error;
struct sp_cpustream;
struct sp_cpustream_scratch;

/*
 * The records of one CPU of a trace-cmd file, read straight from the file:
 * the ring-buffer pages are read a window at a time (uncompressed data) or
 * decompressed one chunk at a time (version 7 zstd or zlib data), and the
 * records inside each page are walked as kbuffer would (not for the page
 * format of kernels before 2.6.31, which libtracecmd reads).  Memory
 * is two windows or chunks per stream (the one walked and the next, read
 * ahead by a helper thread), whatever the size of the trace.
 */

enum sp_codec {
	SP_CODEC_NONE,
	SP_CODEC_ZSTD,
	SP_CODEC_ZLIB,
};

struct sp_cpustream_params {
	int fd;			/* the open file; streams pread() it, never seek */
	enum sp_codec codec;
	unsigned int page_size;	/* of the file header: ring-buffer pages are this big */
	int long_size;		/* size of the page header's commit field: 4 or 8 */
	bool big_endian;	/* of the recording machine */
	size_t window_bytes;	/* uncompressed data: bytes read at a time */
	struct sp_cpustream_scratch *scratch;	/* decompression state the streams of
						 * a file share (NULL: the stream has
						 * its own); they must then be read
						 * from one thread */
};

/**
 * sp_cpustream_scratch_alloc - decompression state for streams to share
 * @codec: the file's codec
 *
 * Return: the scratch (free it after its streams), or NULL without memory.
 */
struct sp_cpustream_scratch *sp_cpustream_scratch_alloc(enum sp_codec codec);

/* When a stream's next block is read ahead (sp_cpustream_scratch_read_ahead()). */
enum sp_read_ahead {
	SP_AHEAD_WHOLE,		/* by a helper thread, as soon as the stream starts a block */
	SP_AHEAD_NONE,		/* never: the stream reads its next block when it reaches it */
	SP_AHEAD_HELPED,	/* by whoever calls sp_cpustream_scratch_help(), a bounded
				 * number of blocks at a time */
};

/**
 * sp_cpustream_scratch_read_ahead - when blocks are read ahead
 * @sc: the streams' shared state
 * @how: see enum sp_read_ahead; a block already asked for still comes
 *
 * SP_AHEAD_WHOLE holds two blocks per stream; SP_AHEAD_HELPED one per
 * stream and a bounded number more, for many streams walked a little at a
 * time by one thread while another has time to spare.  A stream that
 * reaches its block's end before anyone started reading the next one reads
 * it itself.
 */
void sp_cpustream_scratch_read_ahead(struct sp_cpustream_scratch *sc, enum sp_read_ahead how);

/**
 * sp_cpustream_scratch_help - read one block asked for with SP_AHEAD_HELPED
 * @sc: the streams' shared state
 *
 * For a thread with nothing else to do, while another walks the streams.
 *
 * Return: whether there was one.
 */
bool sp_cpustream_scratch_help(struct sp_cpustream_scratch *sc);

/**
 * sp_cpustream_scratch_free - free shared decompression state (NULL is fine)
 * @sc: the scratch
 */
void sp_cpustream_scratch_free(struct sp_cpustream_scratch *sc);

/* One record; @data is valid until the next call on the stream. */
struct sp_raw_record {
	uint64_t ts_ns;
	void *data;		/* the event: common fields first */
	unsigned int size;	/* bytes of @data */
	int missed;		/* records lost just before this one: a count, -1 when the
				 * kernel did not say how many, 0 when none */
};

/**
 * sp_cpustream_alloc - prepare to read one CPU's data
 * @p: how the file is laid out (copied)
 * @cpu: the CPU's data, from sp_container_layout() (copied)
 * @err: filled in on failure
 *
 * Reads nothing yet.  Return: the stream, or NULL with @err set (-ENOMEM,
 * or -EINVAL for parameters it cannot read).
 */
struct sp_cpustream *sp_cpustream_alloc(const struct sp_cpustream_params *p,
					const struct sp_container_cpu *cpu,
					struct sp_error *err);

/**
 * sp_cpustream_free - free a stream (NULL is fine)
 * @s: the stream
 */
void sp_cpustream_free(struct sp_cpustream *s);

/**
 * sp_cpustream_prefetch - ask the cache for the state the next call reads
 * @s: the stream
 *
 * For a caller that visits many streams in turn, a call ahead of time.
 */
void sp_cpustream_prefetch(const struct sp_cpustream *s);

/**
 * sp_cpustream_rewind - go back to the first record
 * @s: the stream
 */
void sp_cpustream_rewind(struct sp_cpustream *s);

/**
 * sp_cpustream_next - read the next record
 * @s: the stream
 * @rec: filled in with the record
 * @err: filled in on failure
 *
 * Return: 1 with @rec set, 0 at the end of the CPU's data, or a negative
 * code with @err set: -EBADMSG (with the file offset) for a page or chunk
 * that cannot be what it claims, -EIO and other -errno for read errors.
 */
int sp_cpustream_next(struct sp_cpustream *s, struct sp_raw_record *rec, struct sp_error *err);

/**
 * sp_cpustream_span - timestamps of the CPU's first and last record
 * @s: the stream
 * @first_ns: set to the first record's timestamp
 * @last_ns: set to the last record's timestamp
 * @err: filled in on failure
 *
 * Reads the first page and the last page (or chunk) that hold records,
 * not the whole stream.  Leaves the stream rewound.
 * Return: 0, -ENODATA when the CPU has no records, or a negative code as
 * for sp_cpustream_next().
 */
int sp_cpustream_span(struct sp_cpustream *s, uint64_t *first_ns, uint64_t *last_ns,
		      struct sp_error *err);

/**
 * sp_cpustream_scan_missed - whether the kernel flagged lost records in the data
 * @s: the stream
 * @err: filled in on failure
 *
 * Looks at the header of every page (the missed-events flag, which the
 * kernel sets on the first page it hands out after losing records),
 * never at the records: uncompressed data is read once, compressed data
 * decompressed once.  Stops at the first flagged page.  Leaves the stream
 * rewound.
 *
 * Return: 1 when a page is flagged, 0 when none is, or a negative code as
 * for sp_cpustream_next().
 */
int sp_cpustream_scan_missed(struct sp_cpustream *s, struct sp_error *err);

/**
 * sp_cpustream_walked_missed - sp_cpustream_scan_missed()'s answer, from the walk
 * @s: the stream
 *
 * What sp_cpustream_next() saw of the pages' missed-events flags since the
 * stream was last rewound, at no cost of its own: a pass over the records
 * reads every page header anyway.
 *
 * Return: 1 when a page walked is flagged, 0 when none is and the walk went
 * from the first block to the end of the data, -1 when it did not (then
 * only sp_cpustream_scan_missed() can tell).
 */
int sp_cpustream_walked_missed(const struct sp_cpustream *s);

/**
 * sp_cpustream_spans - sp_cpustream_span() of many streams, in two threads
 * @streams: the streams (NULL entries are skipped: -ENODATA); they share
 *	     one scratch and no other thread reads them meanwhile
 * @nr: how many
 * @first_ns, @last_ns, @ret, @err: arrays of @nr: what sp_cpustream_span()
 *	     sets and returns for each stream
 */
void sp_cpustream_spans(struct sp_cpustream *const *streams, int nr, uint64_t *first_ns,
			uint64_t *last_ns, int *ret, struct sp_error *err);

#endif /* SP_CPUSTREAM_H */
