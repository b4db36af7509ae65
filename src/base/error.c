// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <stdio.h>

#include "schedplot/base/error.h"

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
