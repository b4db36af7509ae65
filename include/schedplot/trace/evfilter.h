/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_EVFILTER_H
#define SP_EVFILTER_H

/*
 * A filter over one event's records, in the syntax of trace-cmd report -F
 * ("prio < 100 && comm ~ \"kworker*\""), parsed and evaluated by
 * libtraceevent (tep_filter_add_filter_str(), tep_filter_match()).  The
 * library takes a name it does not know for a comparison that is false;
 * here it is an error that names it.
 */

#include <stdbool.h>

struct sp_error;
struct sp_raw_record;
struct tep_event;
struct tep_handle;
struct sp_evfilter;

/**
 * sp_evfilter_alloc - parse a filter over the records of @event
 * @tep: the handle that holds @event's format
 * @event: the event
 * @text: the filter, as after "EVENT:" in trace-cmd report -F
 * @err: filled in on failure, naming the event, and the unknown field or
 *       what libtraceevent says is wrong
 *
 * Return: the filter, or NULL with @err set: -ENOENT for a name that is
 * neither a field of @event nor COMM or CPU, -EINVAL for a filter the
 * library refuses, -ENOMEM.
 */
struct sp_evfilter *sp_evfilter_alloc(struct tep_handle *tep, struct tep_event *event,
				      const char *text, struct sp_error *err);

/**
 * sp_evfilter_match - whether a record of the event passes the filter
 * @f: the filter
 * @rec: a record of the event @f was made for
 * @cpu: the CPU it was recorded on (the filter's CPU)
 *
 * Return: true when it passes.
 */
bool sp_evfilter_match(struct sp_evfilter *f, const struct sp_raw_record *rec, int cpu);

/**
 * sp_evfilter_free - free a filter (NULL is fine)
 * @f: the filter
 */
void sp_evfilter_free(struct sp_evfilter *f);

#endif /* SP_EVFILTER_H */
