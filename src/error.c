// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedplot/error.h"

int sp_error_set(struct sp_error *err, int code, long long offset, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return code;
	err->code = code;
	err->offset = offset;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return code;
}

void sp_error_clear(struct sp_error *err)
{
	if (!err)
		return;
	err->code = 0;
	err->offset = -1;
	err->msg[0] = '\0';
}

void *sp_alloc_array(size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		return NULL;
	return calloc(n ? n : 1, size ? size : 1);
}

int sp_grow_array(void *array, size_t *alloc, size_t need, size_t size)
{
	void **ptr = array;
	size_t new_alloc = *alloc ? *alloc : 16;
	char *p;

	if (need <= *alloc)
		return 0;
	while (new_alloc < need) {
		if (new_alloc > SIZE_MAX / 2)
			return -ENOMEM;
		new_alloc *= 2;
	}
	if (new_alloc > SIZE_MAX / size)
		return -ENOMEM;
	p = realloc(*ptr, new_alloc * size);
	if (!p)
		return -ENOMEM;
	memset(p + *alloc * size, 0, (new_alloc - *alloc) * size);
	*ptr = p;
	*alloc = new_alloc;
	return 0;
}

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
