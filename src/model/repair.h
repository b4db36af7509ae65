/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_MODEL_REPAIR_H
#define SP_MODEL_REPAIR_H

/*
 * The repairs of missed switches (repair.c; doc/design.md "Missed
 * switches").  Private to the model: beside the sources, not under
 * include/.
 */

#include "schedplot/model/model.h"

/**
 * repair_missed_switch - a switch on a CPU was missed: repair it
 * @m: the model
 * @c: the CPU, whose current task was not current at its sched record now
 * @pid: that record's common_pid: the task current on @c after all
 *
 * The CPU's current task left, and @pid came, at the CPU's previous sched
 * record; what the model decided since under the old belief is decided
 * again.  Return: 0, or -ENOMEM.
 */
int repair_missed_switch(struct sp_model *m, int c, int pid);

#endif /* SP_MODEL_REPAIR_H */
