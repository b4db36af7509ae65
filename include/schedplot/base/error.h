/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_ERROR_H
#define SP_ERROR_H

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

#endif /* SP_ERROR_H */
