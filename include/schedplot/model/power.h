/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_POWER_H
#define SP_POWER_H

#include <stdbool.h>
#include <stdint.h>

struct sp_error;
struct sp_event;
struct sp_reader;
struct sp_timeline;

/*
 * Per-CPU power state from the power:cpu_frequency and power:cpu_idle
 * events, built in the model's one pass (the reader delivers them as
 * SP_EV_EXTRA records, sp_power_request()).  Both events name the CPU they
 * are about in cpu_id, which need not be the CPU the record fired on.
 *
 * A CPU's frequency is unknown until its first cpu_frequency event (never
 * guessed from later ones), then the last one's state (kHz) holds.  Its
 * idle state is unknown until its first cpu_idle event; state N enters
 * C-state N, state 4294967295 ((u32)-1) leaves idle.
 *
 *	cpu_id 2:  ?????????|850000 kHz------|1200000 kHz------| end
 *	                    e1               e2
 *	mean over [w0, w1] = sum(kHz x ns while known) / known ns
 *
 * The state is told, as runs of constant value per CPU in time order, to
 * up to one timeline per kind (the value standing in for the pid):
 * frequency in kHz; idle state + 1 while in a C-state and 0 out of one.
 * Time before the first event is no run there, so the timeline calls it
 * no data.
 */

enum sp_power_kind {
	SP_POWER_FREQ,			/* power:cpu_frequency */
	SP_POWER_IDLE,			/* power:cpu_idle */
	SP_POWER_NR_KINDS,
};

/* cpu_idle's state when a CPU leaves idle */
#define SP_POWER_IDLE_EXIT UINT32_MAX

struct sp_power_cpu {
	uint64_t since_ns[SP_POWER_NR_KINDS];	/* current value since; SP_NO_TS: unknown */
	int64_t value[SP_POWER_NR_KINDS];	/* kHz; C-state or -1 out of idle */
	double khz_ns;			/* sum of kHz x ns with a known frequency, in the window */
	double khz2_ns;			/* sum of kHz^2 x ns: the spread */
	uint64_t freq_known_ns;		/* time with a known frequency, in the window */
};

struct sp_power {
	int nr_cpus;
	struct sp_power_cpu *cpus;
	uint64_t w0_ns, w1_ns;		/* the window of the means */
	int request[SP_POWER_NR_KINDS];	/* the reader's request index, -1: not asked/absent */
	uint64_t nr_events[SP_POWER_NR_KINDS];
	int max_idle_state;		/* deepest C-state entered, -1: none */
	struct sp_timeline *tl[SP_POWER_NR_KINDS];	/* fed when set (by the caller) */
};

/**
 * sp_power_init - track power state over a window
 * @p: the tracker
 * @nr_cpus: CPUs in the trace (events about other CPUs are ignored)
 * @w0_ns: start of the window of sp_power_mean_khz()
 * @w1_ns: its end
 *
 * Return: 0, or -ENOMEM.
 */
int sp_power_init(struct sp_power *p, int nr_cpus, uint64_t w0_ns, uint64_t w1_ns);

/**
 * sp_power_release - free what @p holds
 * @p: the tracker (zeroed or initialised)
 */
void sp_power_release(struct sp_power *p);

/**
 * sp_power_reset - forget every event, for a pass made again
 * @p: the tracker (its requests and timelines stay; the timelines are the
 *     caller's to reset)
 */
void sp_power_reset(struct sp_power *p);

/**
 * sp_power_request - ask the reader for the power events of @kinds
 * @p: the tracker
 * @r: the reader, before its pass
 * @freq: ask for power:cpu_frequency
 * @idle: ask for power:cpu_idle
 * @err: filled in on failure
 *
 * An event the trace does not hold is no error: its request stays -1.
 * Return: 0, or a negative code with @err set.
 */
int sp_power_request(struct sp_power *p, struct sp_reader *r, bool freq, bool idle,
		     struct sp_error *err);

/**
 * sp_power_add - take one SP_EV_EXTRA record (others are ignored)
 * @p: the tracker
 * @ev: the record, in trace order
 */
void sp_power_add(struct sp_power *p, const struct sp_event *ev);

/**
 * sp_power_finish - the last values hold until the end of the trace
 * @p: the tracker
 * @end_ns: the last record's timestamp
 */
void sp_power_finish(struct sp_power *p, uint64_t end_ns);

/**
 * sp_power_mean_khz - a CPU's time-weighted mean frequency in the window
 * @p: a finished tracker
 * @cpu: the CPU
 * @known_ns: set to the time with a known frequency in the window
 *
 * Return: the mean in kHz, or 0 when the frequency was never known in it.
 */
double sp_power_mean_khz(const struct sp_power *p, int cpu, uint64_t *known_ns);

/**
 * sp_power_spread - the time-weighted mean and spread of the frequency over CPUs
 * @p: a finished tracker
 * @cpus: @p->nr_cpus flags, the CPUs pooled; NULL: all
 * @mean_khz: out: the mean over their time with a known frequency in the window
 * @spread: out: the time-weighted (population) standard deviation of the
 *          frequency over that time, divided by @mean_khz; 0 where the
 *          frequency stood still (E[f^2] - E[f]^2 is taken for 0 below
 *          1e-12 E[f]^2, where only rounding is left)
 *
 * Return: the time with a known frequency pooled (0: never known; then
 * both outputs are 0).
 */
uint64_t sp_power_spread(const struct sp_power *p, const bool *cpus, double *mean_khz,
			 double *spread);

#endif /* SP_POWER_H */
