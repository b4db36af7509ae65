/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_MODEL_INTERNAL_H
#define SP_MODEL_INTERNAL_H

/*
 * What the model's own files share, not its users: telling the consumers
 * of the pass, counting repairs, the CPU filter.  Private: beside the
 * sources, not under include/.
 */

#include <stdbool.h>
#include <stdint.h>

#include "schedplot/model/model.h"

/* Tell every consumer of the pass that filed callback @cb, in the order filed. */
#define TELL(m, cb, ...)							\
	do {									\
		for (const __typeof__((m)->pass.cb[0]) *e_ = (m)->pass.cb; e_->fn; e_++) \
			e_->fn(e_->data, __VA_ARGS__);				\
	} while (0)
/* Whether any consumer filed callback @cb. */
#define TOLD(m, cb) ((m)->pass.cb[0].fn != NULL)

/* Tell the consumers a migration, and whether it was a placement at wakeup. */
static inline void sp_model_tell_migration(struct sp_model *m, uint64_t ts, int pid, int from,
					   int to, bool at_wakeup)
{
	m->mig_at_wakeup = at_wakeup;
	TELL(m, migration, ts, pid, from, to);
}

/**
 * sp_model_note_repair - count a repair, and keep its note while there is room
 * @m: the model
 * @kind: an enum sp_repair_kind
 * @cpu: the CPU, -1 for none
 * @ts_ns: when
 * @pid: the task made current, -1 for none
 */
void sp_model_note_repair(struct sp_model *m, int kind, int cpu, uint64_t ts_ns, int pid);

/* Whether running(t) and waiting(t) count @cpu (the model's CPU filter). */
static inline bool sp_model_cpu_selected(const struct sp_model *m, int cpu)
{
	if (!m->filter.cpus)
		return true;
	return cpu >= 0 && cpu < m->nr_cpus && m->filter.cpus[cpu];
}

/*
 * How often (in records) the flush point is recomputed: O(CPUs) work, so
 * at least 1024 records and 16 per CPU apart, to keep it O(1) per record.
 * When changes are handed out does not change what is handed out.
 */
#define SP_FLUSH_INTERVAL	1024

/*
 * A power of two: SP_FLUSH_INTERVAL, or 16 records per CPU rounded up;
 * sp_model_init() keeps it, less one, as the mask the record count is
 * tested with.
 */
static inline uint64_t sp_model_flush_interval(int nr_cpus)
{
	unsigned int n = (unsigned int)nr_cpus * 16;

	if (n <= SP_FLUSH_INTERVAL)
		return SP_FLUSH_INTERVAL;
	return (uint64_t)1 << (32 - __builtin_clz(n - 1));
}

#endif /* SP_MODEL_INTERNAL_H */
