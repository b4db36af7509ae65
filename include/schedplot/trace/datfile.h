/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_DATFILE_H
#define SP_DATFILE_H

/*
 * The trace-cmd data file format, as trace-cmd.dat.v6(5) and
 * trace-cmd.dat.v7(5) and the kernel's ring buffer (kernel/trace/
 * ring_buffer.c, include/linux/ring_buffer.h) lay it out: one name for
 * each number, shared by the container check, the per-CPU streams and the
 * writer.  Numbers in the file are in the byte order of its header.
 *
 * The file header:
 *
 *   "\027\010Dtracing" | version "6\0" or "7\0" | endian (1 byte: 1 big)
 *   | long size (1 byte) | page size (4 bytes)
 *   | v7 only: compression name "\0", compression version "\0",
 *     offset of the first options section (8 bytes)
 */

#define SP_DAT_MAGIC		"\027\010Dtracing"
#define SP_DAT_MAGIC_LEN	10	/* the bytes above, without a NUL */

/*
 * v6: after the CPU count, a 10-byte tag says what follows: options (then
 * the tag again), ring-buffer pages or latency text.  v7 buffer option
 * names and section descriptions use the same words.
 */
#define SP_DAT_TAG_LEN		10	/* with the NUL that ends each tag */
#define SP_DAT_TAG_OPTIONS	"options  "
#define SP_DAT_TAG_FLYRECORD	"flyrecord"
#define SP_DAT_TAG_LATENCY	"latency  "

/*
 * Option ids (v6 and v7) and section ids (v7) share one number space: a v7
 * section carries the id of the option that points at it.
 */
enum sp_dat_id {
	SP_DAT_ID_DONE = 0,		/* end of options; v7: link to the next options section */
	SP_DAT_OPT_DATE = 1,		/* timestamp offset, text */
	SP_DAT_OPT_CPUSTAT = 2,		/* per_cpu/cpuN/stats text */
	SP_DAT_OPT_BUFFER = 3,		/* a buffer instance (v7: also the top one) */
	SP_DAT_OPT_TRACECLOCK = 4,
	SP_DAT_OPT_UNAME = 5,
	SP_DAT_OPT_HOOK = 6,
	SP_DAT_OPT_OFFSET = 7,		/* timestamp offset, number */
	SP_DAT_OPT_CPUCOUNT = 8,
	SP_DAT_OPT_VERSION = 9,
	SP_DAT_OPT_PROCMAPS = 10,
	SP_DAT_OPT_TRACEID = 11,
	SP_DAT_OPT_TIME_SHIFT = 12,	/* guest tracing: per-CPU time samples */
	SP_DAT_OPT_GUEST = 13,
	SP_DAT_OPT_TSC2NSEC = 14,
	SP_DAT_SEC_STRINGS = 15,	/* v7 sections from here on */
	SP_DAT_SEC_HEADER_INFO = 16,
	SP_DAT_SEC_FTRACE_EVENTS = 17,
	SP_DAT_SEC_EVENT_FORMATS = 18,
	SP_DAT_SEC_KALLSYMS = 19,
	SP_DAT_SEC_PRINTK = 20,
	SP_DAT_SEC_CMDLINES = 21,
	SP_DAT_OPT_BUFFER_TEXT = 22,	/* a latency (text) buffer */
};

/* A v7 section header: id (2), flags (2), description string id (4), size (8). */
#define SP_DAT_SEC_HDR_SIZE	16
#define SP_DAT_SEC_FL_COMPRESS	1	/* the section data is one compressed block */

/*
 * Compressed data (v7): a block is a 4-byte compressed size and a 4-byte
 * uncompressed size, then the compressed bytes.  A CPU's data is a 4-byte
 * chunk count, then its chunks; trace-cmd puts ten pages in a chunk.
 */
#define SP_DAT_CHUNK_HDR_SIZE	8
#define SP_DAT_CHUNK_COUNT_SIZE	4
#define SP_DAT_PAGES_IN_CHUNK	10

/*
 * A ring-buffer page: a u64 timestamp, then the commit field (a long: 4 or
 * 8 bytes as the file header says) holding the bytes of data and two flags;
 * when MISSED_STORED is set, the count of lost events (a long) follows the
 * committed data.
 */
#define SP_DAT_PAGE_TS_SIZE	8
#define SP_DAT_PAGE_COMMIT_MASK	((1u << 27) - 1)
#define SP_DAT_MISSED_EVENTS	(1ull << 31)
#define SP_DAT_MISSED_STORED	(1ull << 30)

/*
 * An event header in a page: one 32-bit word of type_len (5 bits) and
 * time_delta (27 bits), type_len in the low bits on a little-endian
 * machine and in the high bits on a big-endian one.
 *
 *   type_len 1..28: a payload of type_len * 4 bytes follows the header
 *   type_len 0:     a 4-byte length (payload + 4) follows, then the payload
 *   29 padding:     the next word is the length of the padding
 *   30 time extend: delta = next word << 27 | time_delta
 *   31 time stamp:  absolute time = next word << 27 | time_delta
 */
#define SP_DAT_TYPE_LEN_BITS	5
#define SP_DAT_TS_SHIFT		27
#define SP_DAT_TS_DELTA_MAX	((1ull << SP_DAT_TS_SHIFT) - 1)
#define SP_DAT_TYPE_MAX_DATA	28
#define SP_DAT_TYPE_PADDING	29
#define SP_DAT_TYPE_TIME_EXTEND	30
#define SP_DAT_TYPE_TIME_STAMP	31
/* The top bits of a timestamp, which an absolute time stamp event leaves as they were. */
#define SP_DAT_TS_MSB		(0xf8ull << 56)

#endif /* SP_DATFILE_H */
