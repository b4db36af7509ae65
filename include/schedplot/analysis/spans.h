/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_SPANS_H
#define SP_SPANS_H

/*
 * Spans: intervals from a record of a start event to the next record of
 * an end event with the same key (the values of one or two fields of
 * each), such as irq_handler_entry..irq_handler_exit by irq.  The records
 * come from watches (sp_reader_watch()), whose first values are the key.
 * Gathered in the pass by a consumer of their own (sp_spans_observer()).
 *
 * Nothing is guessed: a start whose key has no end before the next start
 * of that key or before the trace ends, and an end whose key has no start
 * open, are counted as unmatched; a span during which records were lost
 * (on any CPU: the lost ones may have been its end) is counted as broken,
 * and neither is a sample.  A span counts when it began inside the scope's
 * window, on a CPU of its set, in the context of a task of its set (the
 * start record's common_pid); an unmatched end, when the end did.  A
 * record that is both an end and a start of a kind (phases between the
 * markers of one event) ends the open span and starts the next; with
 * none open it is only a start.
 * Marks (sp_span_mark) are the records of a watch, counted by the same
 * rule.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "schedplot/analysis/quantile.h"
#include "schedplot/model/model.h"
#include "schedplot/model/scope.h"

struct sp_event;
struct sp_reader;

#define SP_SPANS_MAX_KINDS	8
#define SP_SPANS_MAX_KEYS	2

/* A span kept for drawing: spans of one task close together on a CPU merged. */
struct sp_span_piece {
	uint64_t t0_ns, t1_ns;
	int32_t cpu;		/* the CPU of the start record */
	int32_t pid;		/* its common_pid */
	uint32_t nr;		/* spans merged into it */
	uint8_t kind;
};

/* An open span of a kind: the start record of a key with no end yet. */
struct sp_span_open {
	uint64_t key[SP_SPANS_MAX_KEYS];
	uint64_t ts_ns;
	uint64_t lost;		/* records lost before it, over all CPUs */
	int32_t cpu, pid;
	bool used;
};

struct sp_span_kind {
	/* set before sp_spans_init() */
	char name[96];
	int start_watch, end_watch;	/* sp_reader_watch()'s indexes */
	int nr_keys;
	uint8_t start_kind[SP_SPANS_MAX_KEYS], end_kind[SP_SPANS_MAX_KEYS];	/* sp_value_kind */

	/* counted */
	struct sp_samples durs;		/* each span's length, ns */
	uint64_t total_ns;
	uint64_t unmatched_start;	/* no end before the key's next start or the trace's end */
	uint64_t unmatched_end;		/* no start open */
	uint64_t broken;		/* records were lost between start and end */

	/* private: the open spans by key */
	struct sp_span_open *open;
	size_t nr_open, alloc_open;
	uint64_t *last;			/* per CPU: index + 1 of its last piece */
};

/* Records of a watch counted (a mark, --mark): in the scope's window, CPUs and tasks. */
struct sp_span_mark {
	char name[96];
	int watch;
	bool has_label;		/* the watch's one field is its label (label=FIELD) */
	uint8_t label_kind;	/* its sp_value_kind */
	uint64_t nr;
};

struct sp_spans {
	struct sp_span_kind kinds[SP_SPANS_MAX_KINDS];
	int nr_kinds;
	struct sp_span_mark marks[SP_SPANS_MAX_KINDS];
	int nr_marks;
	struct sp_scope scope;		/* what counts */

	/* the pieces drawn, when asked for (sp_spans_keep()), in time order per CPU */
	struct sp_span_piece *pieces;
	size_t nr_pieces, alloc_pieces;
	uint64_t draw_t0_ns, draw_t1_ns;	/* the window drawn */
	uint64_t merge_ns;		/* spans closer than this on a CPU are merged */
	bool keep;
	/*
	 * Told, when set, of each span that counts as it ends (not a broken
	 * one: @t0_ns, @cpu and @pid are its start record's, @key the values
	 * of its key as its end record holds them, of the kinds end_kind[])
	 * and of each record of a mark that counts (@mark its index in
	 * marks[]): for a consumer that keeps them all (export)
	 */
	void (*on_span)(void *data, int kind, uint64_t t0_ns, uint64_t t1_ns, int cpu, int pid,
			const union sp_value *key);
	void (*on_mark)(void *data, int mark, const struct sp_event *ev);
	void *hook_data;

	/*
	 * The gaps (places records were lost) seen so far, over all CPUs:
	 * sp_spans_init() sets the reader's (sp_reader_gaps_seen()); another
	 * source of records may set its own after it
	 */
	uint64_t (*gaps_seen)(const void *src);
	const void *gaps_src;

	/* private */
	int nr_cpus;
	int error;			/* sticky -ENOMEM */
};

/**
 * sp_spans_init - gather the spans of the kinds set in @sp->kinds
 * @sp: kinds[0..nr_kinds) set (name, watches, keys and their kinds)
 * @scope: what counts (copied)
 * @reader: the trace's reader, asked for the records lost so far
 * @nr_cpus: CPUs of the trace
 *
 * Return: 0 or -ENOMEM.
 */
int sp_spans_init(struct sp_spans *sp, const struct sp_scope *scope,
		  const struct sp_reader *reader, int nr_cpus);

/**
 * sp_spans_keep - also keep the spans inside a window for drawing
 * @sp: initialised
 * @t0_ns: the window drawn
 * @t1_ns: its end
 * @merge_ns: spans of a kind on a CPU closer than this (a column) are merged
 */
void sp_spans_keep(struct sp_spans *sp, uint64_t t0_ns, uint64_t t1_ns, uint64_t merge_ns);

/**
 * sp_spans_observer - the consumer of a pass that gathers @sp
 * @sp: initialised
 * @obs: filled in (watch and reset)
 */
void sp_spans_observer(struct sp_spans *sp, struct sp_model_observer *obs);

/**
 * sp_spans_finish - count the spans still open at the end of the trace
 * @sp: after the pass
 *
 * Return: 0, or -ENOMEM when the pass ran out of memory.
 */
int sp_spans_finish(struct sp_spans *sp);

/**
 * sp_spans_release - free what @sp holds
 * @sp: zeroed or initialised
 */
void sp_spans_release(struct sp_spans *sp);

#endif /* SP_SPANS_H */
