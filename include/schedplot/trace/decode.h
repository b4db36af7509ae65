/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_DECODE_H
#define SP_DECODE_H

/*
 * decode: the fields of sched records, from the file's bytes into struct
 * sp_event.  Event ids and field offsets are looked up once per file with
 * libtraceevent (sp_decoder_alloc()); a record is then read with a table
 * lookup and a few loads.
 */

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "schedplot/trace/event.h"
#include "schedplot/trace/cpustream.h"

/* Names (comm fields) are cut to this many bytes, the NUL included. */
#define SP_COMM_LEN		64

struct sp_decoder;
struct sp_error;
struct tep_event;
struct tep_handle;

/* A field's place in the record, resolved once. */
struct sp_field {
	int offset;
	int size;		/* 0: the event has no such field */
	bool is_signed;
	bool dynamic;		/* __data_loc / __rel_loc string */
	bool relative;		/* __rel_loc */
};

/**
 * sp_field_find - look up a field of an event
 * @event: the event's format (may be NULL)
 * @name: the field (common or the event's own; may be NULL)
 * @f: set to its place; f->size is 0 when the event has no such field or
 *     its place is out of range
 */
void sp_field_find(struct tep_event *event, const char *name, struct sp_field *f);

/**
 * sp_field_number - an unsigned number of 1, 2, 4 or 8 bytes in the file's byte order
 * @swap: the file's byte order differs from the host's
 * @p: the number's bytes
 * @size: 1, 2, 4 or 8
 *
 * Return: the number; 0 for another @size.
 */
static inline uint64_t sp_field_number(bool swap, const char *p, int size)
{
	uint8_t v8;
	uint16_t v16;
	uint32_t v32;
	uint64_t v64;

	switch (size) {
	case 1:
		memcpy(&v8, p, 1);
		return v8;
	case 2:
		memcpy(&v16, p, 2);
		return swap ? __builtin_bswap16(v16) : v16;
	case 4:
		memcpy(&v32, p, 4);
		return swap ? __builtin_bswap32(v32) : v32;
	case 8:
		memcpy(&v64, p, 8);
		return swap ? __builtin_bswap64(v64) : v64;
	}
	return 0;
}

/**
 * sp_field_read_int - a number field of a record
 * @swap: the file's byte order differs from the host's
 * @rec: the record
 * @f: the field (sp_field_find())
 * @val: set to the value, sign-extended when the field is signed
 *
 * Inline: it is on the records' hot path.
 *
 * Return: false when the record does not hold the field.
 */
static inline bool sp_field_read_int(bool swap, const struct sp_raw_record *rec,
				     const struct sp_field *f, long long *val)
{
	uint64_t v;

	if (!f->size || f->size > 8 || (unsigned int)(f->offset + f->size) > rec->size)
		return false;
	v = sp_field_number(swap, (const char *)rec->data + f->offset, f->size);
	/* sign-extend narrow signed fields (pids and CPUs are int) */
	if (f->size < 8 && f->is_signed) {
		int shift = 64 - 8 * f->size;

		v = (uint64_t)((int64_t)(v << shift) >> shift);
	}
	*val = (long long)v;
	return true;
}

/**
 * sp_decoder_alloc - resolve the sched events of a file
 * @tep: the file's event formats (borrowed: must outlive the decoder)
 * @swap: the file's byte order differs from the host's
 *
 * Return: the decoder, or NULL when out of memory or the file's event ids
 * are out of range.
 */
struct sp_decoder *sp_decoder_alloc(struct tep_handle *tep, bool swap);

/**
 * sp_decoder_free - free a decoder (NULL is fine)
 * @d: the decoder
 */
void sp_decoder_free(struct sp_decoder *d);

/**
 * sp_decoder_has_event - whether the file describes a sched event usably
 * @d: the decoder
 * @type: an sp_event_type
 *
 * Return: true when the file has the event's format with the fields the
 * model needs.
 */
bool sp_decoder_has_event(const struct sp_decoder *d, enum sp_event_type type);

/**
 * sp_decoder_set_skipped - event types whose own fields are not decoded
 * @d: the decoder
 * @types: a bit (1u << type) per enum sp_event_type (sp_reader_set_skipped())
 */
void sp_decoder_set_skipped(struct sp_decoder *d, unsigned int types);

/**
 * sp_decoder_decode - one record into an event
 * @d: the decoder
 * @rec: the record (its data as in the file)
 * @cpu: the CPU it was recorded on
 * @ev: filled in; its strings point into @rec or into @d, valid until the
 *      next call
 */
void sp_decoder_decode(struct sp_decoder *d, const struct sp_raw_record *rec, int cpu,
		       struct sp_event *ev);

/**
 * sp_decoder_state_index - where a switch's prev_state is kept
 * @d: the decoder
 * @prev_state: ev->prev_state of an event @d decoded, or NULL
 *
 * The decoder keeps the names of the states it has seen in a table whose
 * entries never move or change; this is for handing events between threads.
 *
 * Return: the entry's index, or -1 for NULL.
 */
int sp_decoder_state_index(const struct sp_decoder *d, const char *prev_state);

/**
 * sp_decoder_state_name - the name at an index of sp_decoder_state_index()
 * @d: the decoder
 * @index: the index (-1: none)
 *
 * It only works out an address, reading no memory (hence const, which lets
 * a caller keep what it holds across the call).
 *
 * Return: the same pointer ev->prev_state had, or NULL.
 */
const char *sp_decoder_state_name(const struct sp_decoder *d, int index)
	__attribute__((const));

/**
 * sp_decoder_add_extra - decode the records of one more event
 * @d: the decoder
 * @event: the event's format, from the decoder's tep
 * @fields: the names of the fields wanted (common ones too)
 * @nr_fields: how many (0 is fine: the records come without values)
 * @err: filled in on failure
 *
 * From then on its records are SP_EV_EXTRA, with ev->extra the index
 * returned here and ev->values the fields in the order of @fields: numbers
 * of 1, 2, 4 or 8 bytes (signed ones sign-extended), strings (char arrays,
 * __data_loc and __rel_loc char[], and a char[] of no size, which runs to
 * the record's end) NUL-terminated, in the record or copied into the
 * decoder, and arrays of unsigned numbers of 4 or 8 bytes (SP_VALUE_ADDRS:
 * as many as the record holds) copied into the decoder, all valid until
 * the next record of the event is decoded.  Records
 * of events not asked for cost nothing more.
 *
 * Return: the index (0, 1, ... in the order of the calls that succeed);
 * -ENOENT when the event lacks a field; -EINVAL for a field that is
 * neither a number nor a string or an event decoded as a sched record;
 * -E2BIG, -ENOMEM.  An event asked for again shares the first request's
 * index when one list of fields begins the other (the longer one is kept,
 * so each caller finds its fields first in ev->values); with other fields
 * it is -EEXIST.  @err says which; the decoder is unchanged on failure.
 */
int sp_decoder_add_extra(struct sp_decoder *d, struct tep_event *event,
			 const char *const *fields, int nr_fields, struct sp_error *err);

/**
 * sp_decoder_nr_extras - how many events were asked for by name
 * @d: the decoder
 *
 * Return: the count of distinct events sp_decoder_add_extra() was asked for.
 */
int sp_decoder_nr_extras(const struct sp_decoder *d);

/**
 * sp_decoder_extra_kind - how a field of an event asked for is read
 * @d: the decoder
 * @extra: the index sp_decoder_add_extra() returned
 * @field: the field's place in its @fields
 *
 * Return: an enum sp_value_kind, or -EINVAL for an index out of range.
 */
int sp_decoder_extra_kind(const struct sp_decoder *d, int extra, int field);

/**
 * sp_decoder_add_watch - mark the records of an event that pass a filter
 * @d: the decoder
 * @event: the event, a sched one or any other
 * @filter: trace-cmd -F syntax (sp_evfilter_alloc()); NULL or "": every record
 * @fields: the fields whose values a passing record carries
 * @nr_fields: how many
 * @err: filled in on failure
 *
 * A record that passes has bit i (the index returned) set in ev->watched
 * and its values in ev->watch_values[i]; its type and the rest of its
 * decoding are unchanged.
 *
 * Return: the watch's index, or a negative code with @err set (-ENOENT: no
 * such field; -EINVAL: a bad filter; -E2BIG: too many watches).
 */
int sp_decoder_add_watch(struct sp_decoder *d, struct tep_event *event, const char *filter,
			 const char *const *fields, int nr_fields, struct sp_error *err);

/**
 * sp_decoder_nr_watches - how many watches sp_decoder_add_watch() added
 * @d: the decoder
 *
 * Return: the count.
 */
int sp_decoder_nr_watches(const struct sp_decoder *d);

/**
 * sp_decoder_watch_kind - how a field of a watch is read
 * @d: the decoder
 * @watch: the index sp_decoder_add_watch() returned
 * @field: the field's place in its @fields
 *
 * Return: an enum sp_value_kind, or -EINVAL.
 */
int sp_decoder_watch_kind(const struct sp_decoder *d, int watch, int field);

#endif /* SP_DECODE_H */
