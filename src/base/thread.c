// SPDX-License-Identifier: GPL-2.0-only
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <unistd.h>

#include "schedplot/base/thread.h"

int sp_thread_start(pthread_t *thread, void *(*fn)(void *), void *arg)
{
	sigset_t all, old;
	int ret;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ret = pthread_create(thread, NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return ret;
}

int sp_cpus_usable(void)
{
	cpu_set_t set;
	long n;

	if (!sched_getaffinity(0, sizeof(set), &set) && CPU_COUNT(&set) > 0)
		return CPU_COUNT(&set);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 1 ? (int)n : 1;
}

/* Spins of a wait before it sleeps: about a millisecond */
#define SPINS	4000

/* A hint to the CPU that this thread spins. */
static inline void spin_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

void sp_handoff_init(struct sp_handoff *h)
{
	pthread_mutex_init(&h->lock, NULL);
	pthread_cond_init(&h->cond, NULL);
	h->sleeping = 0;
	h->stop = false;
}

void sp_handoff_destroy(struct sp_handoff *h)
{
	pthread_cond_destroy(&h->cond);
	pthread_mutex_destroy(&h->lock);
}

void sp_handoff_set(struct sp_handoff *h, bool *flag, bool value)
{
	__atomic_store_n(flag, value, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&h->sleeping, __ATOMIC_SEQ_CST)) {
		pthread_mutex_lock(&h->lock);
		pthread_cond_broadcast(&h->cond);
		pthread_mutex_unlock(&h->lock);
	}
}

static inline bool flag_is(const bool *flag, bool value)
{
	return __atomic_load_n(flag, __ATOMIC_ACQUIRE) == value;
}

bool sp_handoff_wait(struct sp_handoff *h, const bool *flag, bool value, bool (*help)(void *),
		     void *help_data)
{
	int i;

	for (i = 0; i < SPINS && !flag_is(flag, value); i++) {
		if (help && help(help_data))
			i = 0;
		else
			spin_pause();
	}
	return sp_handoff_sleep(h, flag, value);
}

bool sp_handoff_sleep(struct sp_handoff *h, const bool *flag, bool value)
{
	bool go;

	if (flag_is(flag, value))
		return !__atomic_load_n(&h->stop, __ATOMIC_ACQUIRE);
	pthread_mutex_lock(&h->lock);
	__atomic_add_fetch(&h->sleeping, 1, __ATOMIC_SEQ_CST);
	while (!flag_is(flag, value) && !__atomic_load_n(&h->stop, __ATOMIC_ACQUIRE))
		pthread_cond_wait(&h->cond, &h->lock);
	__atomic_sub_fetch(&h->sleeping, 1, __ATOMIC_SEQ_CST);
	go = !__atomic_load_n(&h->stop, __ATOMIC_ACQUIRE);
	pthread_mutex_unlock(&h->lock);
	return go;
}

void sp_handoff_stop(struct sp_handoff *h)
{
	pthread_mutex_lock(&h->lock);
	__atomic_store_n(&h->stop, true, __ATOMIC_SEQ_CST);
	pthread_cond_broadcast(&h->cond);
	pthread_mutex_unlock(&h->lock);
}
