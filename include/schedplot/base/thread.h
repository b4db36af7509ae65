/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_THREAD_H
#define SP_THREAD_H

#include <pthread.h>

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

#endif /* SP_THREAD_H */
