/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_SPAN_H
#define SP_SPAN_H

#include <stdbool.h>
#include <stdint.h>

/**
 * sp_span_clip - cut a span of time [*@t0, *@t1) to a window [@lo, @hi)
 * @t0: the span's start, raised to @lo
 * @t1: the span's end, lowered to @hi
 * @lo: the window's start
 * @hi: the window's end
 *
 * Return: true when some of the span is left in the window (*@t0 < *@t1).
 */
static inline bool sp_span_clip(uint64_t *t0, uint64_t *t1, uint64_t lo, uint64_t hi)
{
	if (*t0 < lo)
		*t0 = lo;
	if (*t1 > hi)
		*t1 = hi;
	return *t0 < *t1;
}

#endif /* SP_SPAN_H */
