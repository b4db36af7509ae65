/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_EVFORMAT_H
#define SP_EVFORMAT_H

#include <stddef.h>

/**
 * sp_evformat_check - whether an event format text is safe to parse
 * @text: the format as the file stores it ("name: ...\nID: ...\nformat:\n...")
 * @len: its length (it need not be NUL-terminated)
 *
 * libtraceevent 1.7's tep_parse_event() crashes on some damaged formats: a
 * print fmt naming fields the format does not declare (`REC->x` with no
 * field x, then __print_symbolic(REC->y, ...)), a control character inside
 * a field's array size, a byte above 0x7f there, a field declaration cut
 * short, `C->x` (a division by zero follows), a ';' among the print fmt's
 * arguments, a constant division or remainder by zero (`0x10 / 0008`: the
 * library folds it while parsing), an array index or a brace right after a
 * name in the false branch of a `?:`.  A kernel writes printable ASCII, every
 * field on a line of its own ending in ';', no dereference but REC->, no
 * ';' outside the strings of the print fmt, a non-zero number after every
 * '/' and '%' there, no '[' or ']' there but a literal index after a
 * REC->NAME before any '?' (ftrace:kernel_stack's caller[0]), braces only
 * around flag lists, and every field its print fmt uses; a format that
 * breaks any of these is damaged: leave it out.
 *
 * Return: 0 when the format can be handed to libtraceevent, -EBADMSG when not.
 */
int sp_evformat_check(const char *text, size_t len);

#endif /* SP_EVFORMAT_H */
