/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_READER_INTERNAL_H
#define SP_READER_INTERNAL_H

/*
 * The reader's state, shared by the modules that make it up: reader.c
 * (open, close, the accessors), merge.c (the pass over the per-CPU
 * streams) and metadata.c (what is read besides the pass).  Callers use
 * reader.h only.
 */

#include <stdbool.h>
#include <stdint.h>

#include "schedplot/trace/container.h"
#include "schedplot/trace/cpustream.h"
#include "schedplot/trace/cpustats.h"
#include "schedplot/trace/reader.h"

struct sp_decoder;
struct sp_reader_batch;
struct tep_handle;
struct tep_record;
struct tracecmd_input;

/* The merge in batches (merge.c): from how many CPUs */
#define SP_BATCH_MIN_LEAVES	16

/* One CPU's next record. */
struct sp_reader_stream {
	struct sp_cpustream *cs;	/* cpustream mode */
	struct tep_record *held;	/* libtracecmd mode: the record in @cur */
	struct sp_raw_record cur;
	uint64_t first_ns;		/* span: UINT64_MAX when the CPU has no records */
	uint64_t last_ns;
};

/* A merge key: the next record's timestamp, then the CPU's rank (ties: lower CPU). */
struct sp_merge_key {
	uint64_t ts;
	uint32_t rank;		/* the leaf; ended streams rank after every other */
};

/* A CPU's lost-events marker before it is known (struct sp_reader's marker). */
enum sp_marker_state {
	SP_MARKER_NOT_LOOKED = -2,	/* not asked for yet */
	SP_MARKER_UNKNOWN = -1,		/* its data cannot be read here */
};

struct sp_reader {
	struct tracecmd_input *handle;	/* libtracecmd mode only */
	struct tep_handle *tep;
	bool own_tep;			/* loaded here, not by libtracecmd */
	bool use_libtracecmd;		/* the data is read by libtracecmd */
	int functions;			/* sp_reader_load_functions(): 0 not tried, 1 loaded,
					 * else the negative code it gave */
	int trial_fd;			/* this process only tries the file (trial.h):
					 * where its error goes; else -1 */
	unsigned int page_size;
	int kbuf_long_size;		/* the ring-buffer page header's commit field */
	int fd;
	struct sp_container_layout layout;
	struct sp_cpustream_scratch *scratch;	/* shared by the CPUs' streams */
	bool no_read_ahead;		/* sp_reader_no_read_ahead(): each block when reached */
	enum sp_pipe_mode pipe;		/* sp_reader_set_pipe() */
	bool lost_noted_later;		/* merge-pipe.c notes the lost records, in order */
	int nr_cpus;
	bool swap;			/* file and host byte order differ */
	struct sp_decoder *dec;
	uint64_t *lost;			/* per CPU */
	uint64_t *lost_unknown;		/* per CPU: gaps the kernel gave no size for */
	struct sp_lost_note *lost_notes;	/* the first keep_lost_notes gaps */
	size_t nr_lost_notes, alloc_lost_notes, keep_lost_notes;
	uint64_t nr_gaps;		/* gaps seen in this pass, kept or not */
	struct sp_cpu_stats *stats;	/* per CPU: the file's cpustats */
	signed char *marker;		/* per CPU: a page flags lost records: 1, none: 0,
					 * or an enum sp_marker_state */
	struct sp_reader_stream *streams;
	/*
	 * The merge: a loser tree over the CPUs that have records.  Leaf i is
	 * CPU leaf_cpu[i] with key[i]; node[0] is the winner (the earliest
	 * next record), node[1..nr_leaves) the loser of the match played there.
	 */
	struct sp_merge_key *key;
	int *node;
	int *leaf_cpu;
	int nr_leaves;
	int batch_min_leaves;		/* merge in batches from this many leaves; 0: never */
	struct sp_reader_batch *batch;
	sp_progress_fn progress;
	void *progress_data;
	uint64_t first_ns;
	uint64_t last_ns;
};

#endif /* SP_READER_INTERNAL_H */
