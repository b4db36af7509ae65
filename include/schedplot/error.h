/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_ERROR_H
#define SP_ERROR_H

#include <pthread.h>
#include <stddef.h>

/*
 * Below the CLI nothing prints: a failing function records what went wrong
 * here and returns the (negative, errno-style) code.  The CLI formats it as
 * "schedplot: FILE: offset 0x..: message".
 */
struct sp_error {
	int code;		/* 0 or a negative errno value */
	long long offset;	/* file offset the problem was found at, -1 if unknown */
	char msg[256];
};

/**
 * sp_error_set - record an error
 * @err: where to record it (may be NULL)
 * @code: negative errno-style code
 * @offset: file offset, or -1 when there is none
 * @fmt: printf-style message: lowercase, no full stop
 *
 * Return: @code, so callers can write "return sp_error_set(...)".
 */
int sp_error_set(struct sp_error *err, int code, long long offset, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/**
 * sp_error_clear - reset an error record to "no error"
 * @err: the record (may be NULL)
 */
void sp_error_clear(struct sp_error *err);

/**
 * sp_alloc_array - calloc() with overflow-checked n * size
 * @n: number of elements
 * @size: size of one element
 *
 * Return: zeroed memory, or NULL on overflow or when out of memory.
 */
void *sp_alloc_array(size_t n, size_t size);

/**
 * sp_grow_array - make room for at least @need elements in a growable array
 * @array: pointer to the array pointer
 * @alloc: pointer to the current capacity (in elements)
 * @need: the capacity wanted
 * @size: size of one element
 *
 * New elements are zeroed.  Return: 0, or -ENOMEM (the array is unchanged).
 */
int sp_grow_array(void *array, size_t *alloc, size_t need, size_t size);

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

#endif /* SP_ERROR_H */
