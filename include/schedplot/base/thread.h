/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_THREAD_H
#define SP_THREAD_H

#include <pthread.h>
#include <stdbool.h>

/**
 * sp_thread_start - start a thread with every signal blocked
 * @thread: where its id goes
 * @fn: what it runs
 * @arg: @fn's argument
 *
 * Signals are the main thread's to handle (output files are removed on
 * SIGINT); a helper thread must not take them.
 *
 * Return: 0 or an error number, as pthread_create().
 */
int sp_thread_start(pthread_t *thread, void *(*fn)(void *), void *arg);

/**
 * sp_cpus_usable - how many CPUs this process may run on
 *
 * Its CPU affinity (taskset, cpusets), else the CPUs online: what a
 * second thread can count on.
 *
 * Return: 1 or more.
 */
int sp_cpus_usable(void);

/*
 * Two threads handing buffers to each other, a flag per buffer.  Each
 * waits for the other hundreds of times a second, for a few microseconds
 * at a time, and sleeping on a futex and waking the other cost more than
 * that on a virtual machine: so a waiting thread spins a while first, and
 * the other takes the lock and wakes it only when it went to sleep (each
 * side sets its flag, then reads the other's, in one order).
 */
struct sp_handoff {
	pthread_mutex_t lock;
	pthread_cond_t cond;		/* a flag set, or stop */
	int sleeping;			/* threads waiting on cond */
	bool stop;			/* the hand-over ended (atomic) */
};

/**
 * sp_handoff_init - start a hand-over
 * @h: it, not stopped
 */
void sp_handoff_init(struct sp_handoff *h);

/**
 * sp_handoff_destroy - free what sp_handoff_init() took
 * @h: it, both threads done with it
 */
void sp_handoff_destroy(struct sp_handoff *h);

/**
 * sp_handoff_set - set a flag and wake the other thread if it sleeps
 * @h: the hand-over
 * @flag: the buffer's flag; what was written into the buffer before is
 *	  seen by a thread that sees the flag
 * @value: its new value
 */
void sp_handoff_set(struct sp_handoff *h, bool *flag, bool value);

/**
 * sp_handoff_wait - wait until a flag has a value, or the hand-over stops
 * @h: the hand-over
 * @flag: the flag
 * @value: the value waited for
 * @help: NULL, or work to do meanwhile: called while it returns true
 *	  before the wait spins on (it keeps the thread from sleeping)
 * @help_data: @help's argument
 *
 * Return: false when the hand-over stopped.
 */
bool sp_handoff_wait(struct sp_handoff *h, const bool *flag, bool value, bool (*help)(void *),
		     void *help_data);

/**
 * sp_handoff_sleep - sp_handoff_wait() without spinning first
 * @h: the hand-over
 * @flag: the flag
 * @value: the value waited for
 *
 * For a wait known to be long: the other thread has much to do first.
 *
 * Return: false when the hand-over stopped.
 */
bool sp_handoff_sleep(struct sp_handoff *h, const bool *flag, bool value);

/**
 * sp_handoff_stop - end the hand-over: every wait, now and later, returns false
 * @h: the hand-over
 */
void sp_handoff_stop(struct sp_handoff *h);

#endif /* SP_THREAD_H */
