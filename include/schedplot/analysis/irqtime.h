/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_IRQTIME_H
#define SP_IRQTIME_H

/*
 * Interrupt time per CPU and source, from the irq events of a trace
 * (irq:irq_handler_entry/exit and irq:softirq_entry/exit, asked for by
 * name: sp_irqtime_request()), built in the model's one pass.
 *
 * Per CPU, in record order: an irq_handler_entry opens a hard interrupt
 * of its handler (name=), its irq_handler_exit closes it; a softirq_entry
 * opens a softirq of its vector, its softirq_exit closes it.  A hard
 * interrupt that came and went inside an open softirq is taken out of the
 * softirq's time, so the sources of a CPU add up to its time in
 * interrupts (hard handlers do not nest):
 *
 *	CPU 1:   softirq BLOCK  [---------|xxxx|------]
 *	         irq virtio1-req.0        [----]
 *	         BLOCK's time = its span - the handler's
 *
 * Nothing is guessed: an exit with nothing open, an entry whose exit never
 * comes (another entry of its kind replaces it, or the trace ends) and
 * what lies outside the window [w0, w1] count nothing.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sp_error;
struct sp_event;
struct sp_reader;

enum sp_irqtime_kind {
	SP_IRQTIME_IRQ,		/* a hard interrupt handler */
	SP_IRQTIME_SOFTIRQ,	/* a softirq vector */
};

/* The time of one source on one CPU. */
struct sp_irqtime_source {
	enum sp_irqtime_kind kind;
	char name[32];		/* the handler's name ("virtio1-req.0"), the vector's ("BLOCK") */
	int cpu;
	uint64_t ns;
};

struct sp_irqtime_cpu {
	uint64_t hard_ns;	/* SP_NO_TS: no hard interrupt open */
	int hard_src;		/* its source, found at its entry */
	uint64_t soft_ns;	/* SP_NO_TS: no softirq open */
	int soft_vec;
	uint64_t soft_nested_ns;	/* hard interrupt time inside the open softirq */
};

struct sp_irqtime {
	uint64_t w0_ns, w1_ns;		/* what counts */
	int nr_cpus;
	struct sp_irqtime_cpu *cpus;
	struct sp_irqtime_source *src;	/* the sources seen, by first entry */
	size_t nr_src, alloc_src;
	int req[4];			/* the reader's requests, -1: the trace lacks the event */
	int error;			/* sticky -ENOMEM */
};

/**
 * sp_irqtime_init - gather interrupt time over a window
 * @it: the tracker
 * @nr_cpus: CPUs of the trace (records of others are ignored)
 * @w0_ns: the window's start
 * @w1_ns: its end
 *
 * Return: 0, or -ENOMEM.
 */
int sp_irqtime_init(struct sp_irqtime *it, int nr_cpus, uint64_t w0_ns, uint64_t w1_ns);

/**
 * sp_irqtime_release - free what @it holds
 * @it: the tracker, zeroed or initialised
 */
void sp_irqtime_release(struct sp_irqtime *it);

/**
 * sp_irqtime_reset - forget every record, for a pass made again
 * @it: the tracker (its requests stay)
 */
void sp_irqtime_reset(struct sp_irqtime *it);

/**
 * sp_irqtime_request - ask the reader for the irq events
 * @it: the tracker
 * @r: the reader, before its pass
 * @err: filled in on failure
 *
 * Events the trace lacks are no error.
 * Return: 1 when the trace has hard or soft interrupt events (both of
 * a pair), 0 when not, or a negative code with @err set.
 */
int sp_irqtime_request(struct sp_irqtime *it, struct sp_reader *r, struct sp_error *err);

/**
 * sp_irqtime_add - take one SP_EV_EXTRA record (others are ignored)
 * @it: the tracker
 * @ev: the record, in record order
 */
void sp_irqtime_add(struct sp_irqtime *it, const struct sp_event *ev);

/**
 * sp_irqtime_softirq_name - the kernel's name of a softirq vector
 * @vec: the vector (softirq_entry's vec)
 *
 * Return: "HI", "TIMER", ... "RCU", or NULL for one the kernel does not have.
 */
const char *sp_irqtime_softirq_name(uint64_t vec);

#endif /* SP_IRQTIME_H */
