// SPDX-License-Identifier: GPL-2.0-only
/*
 * sp_evformat_check: a kernel's sched_switch format passes, and each kind of
 * damage that crashes libtraceevent's tep_parse_event() is refused (the
 * inputs in tests/fuzz/regressions/format-*.dat, cut down to one line).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "schedplot/trace/evformat.h"

#define HEAD \
	"name: sched_switch\nID: 316\nformat:\n" \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n" \
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n" \
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n" \
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n" \
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n" \
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n\n"

static int check(const char *text)
{
	return sp_evformat_check(text, strlen(text));
}

static void test_kernel_format(void **state)
{
	(void)state;
	assert_int_equal(check(HEAD "print fmt: \"prev_comm=%s prev_pid=%d prev_state=%s%s "
				    "next_comm=%s next_pid=%d\", REC->prev_comm, REC->prev_pid, "
				    "(REC->prev_state & ((((0x00000000 | 0x00000001) + 1) << 1) - 1)) "
				    "? __print_flags(REC->prev_state & 3, \"|\", { 0x00000001, \"S\" }) "
				    ": \"R\", REC->prev_state & (((0x00000000 | 0x00000001) + 1) << 1) "
				    "? \"+\" : \"\", REC->next_comm, REC->next_pid\n"),
			 0);
	/* ';' and bytes of any kind are fine inside the strings */
	assert_int_equal(check(HEAD "print fmt: \"a;b\\\";c\", REC->next_pid\n"), 0);
	/* a division by a non-zero number */
	assert_int_equal(check(HEAD "print fmt: \"%d\", REC->prev_pid / 1000 % 0x10\n"), 0);
	/* '/' and '%' inside strings, "%0" in the format string */
	assert_int_equal(check(HEAD "print fmt: \"%0*d %08x\", REC->prev_pid ? \"r/w 0\" : "
				    "\"100%\"\n"),
			 0);
	/* brackets and braces inside strings, flag lists after ',' */
	assert_int_equal(check(HEAD "print fmt: \"a[ns]{x}\", __print_symbolic(REC->prev_pid, "
				    "{0, \"A\"},{ 1, \"B\" })\n"),
			 0);
	/* no print fmt at all: nothing for libtraceevent to follow */
	assert_int_equal(check(HEAD), 0);
}

static void test_damaged(void **state)
{
	(void)state;
	/* a ';' among the arguments (format-print-semicolon.dat) */
	assert_int_equal(check(HEAD "print fmt: \"%s\", REC->prev_state ? \"+\" : 16;\tsize:4080;"
				    "comm, REC->next_pid\n"),
			 -EBADMSG);
	/* a byte above 0x7f in an array size (format-high-byte.dat) */
	assert_int_equal(check("name: x\nID: 1\nformat:\n\tfield:char comm[\xce" "6];\toffset:8;"
			       "\tsize:16;\tsigned:0;\n\nprint fmt: \"%s\", REC->comm\n"),
			 -EBADMSG);
	/* a control character (format-control-char.dat) */
	assert_int_equal(check("name: x\nID: 1\nformat:\n\tfield:char comm[\x01" "6];\toffset:8;"
			       "\tsize:16;\tsigned:0;\n\nprint fmt: \"%s\", REC->comm\n"),
			 -EBADMSG);
	/* a field the format does not declare (format-undeclared-field.dat) */
	assert_int_equal(check(HEAD "print fmt: \"%d\", REC->nothere\n"), -EBADMSG);
	/* a dereference other than REC-> (format-division-by-zero.dat) */
	assert_int_equal(check(HEAD "print fmt: \"%d\", R%C->next_pid\n"), -EBADMSG);
	/* a constant division or remainder by zero (format-divide-by-zero-*.dat) */
	assert_int_equal(check(HEAD "print fmt: \"%d\", REC->prev_state & (0x10 / 0008)\n"), -EBADMSG);
	assert_int_equal(check(HEAD "print fmt: \"%d\", REC->prev_state & (0x000000%0 | 1)\n"),
			 -EBADMSG);
	assert_int_equal(check(HEAD "print fmt: \"%d\", REC->prev_state & (8 / (1 - 1))\n"), -EBADMSG);
	/*
	 * A quote lost in __print_flags(): by the quotes the division is in a
	 * string, but libtraceevent evaluates it (format-lost-quote-fpe.dat)
	 */
	assert_int_equal(check(HEAD "print fmt: \"%d\", REC->prev_state ? __print_flags("
				    "REC->prev_state, \"|\", { 1, \"S\" }, { 4, \"T\t }, { 8, \"t\" }) "
				    ": \"R\", REC->prev_state & ((0/00000000 | 1) << 1) ? \"+\" : \"\"\n"),
			 -EBADMSG);
	/* '.' after a string: libtraceevent dereferences NULL (format-dot-segv.dat) */
	assert_int_equal(check(HEAD "print fmt: \"%s%s\", REC->prev_pid ? \"S\" : \"R\". "
				    "REC->prev_state & 1 ? \"+\" : \"\"\n"),
			 -EBADMSG);
	/* a single quote, which starts a string for libtraceevent only */
	assert_int_equal(check(HEAD "print fmt: \"%d\", 'x / 0', REC->next_pid\n"), -EBADMSG);
	/* a quote in a field's array size (format-field-quote-segv.dat) */
	assert_int_equal(check("name: x\nID: 1\nformat:\n\tfield:char comm[1\"];\toffset:8;"
			       "\tsize:16;\tsigned:0;\n\nprint fmt: \"%s\", REC->comm\n"),
			 -EBADMSG);
	/* a field declaration cut short */
	assert_int_equal(check("name: x\nID: 1\nformat:\n\tfield:int a\n"), -EBADMSG);
	/* a brace right after a name, after ':' (format-brace-after-name-segv.dat) */
	assert_int_equal(check(HEAD "print fmt: \"%s\", REC->prev_pid ? \"S\" :_{4\", \"\"\n"),
			 -EBADMSG);
	assert_int_equal(check(HEAD "print fmt: \"%s\", REC->prev_pid ? \"S\" : x }\n"),
			 -EBADMSG);
	/* an array index there, even a field's */
	assert_int_equal(check(HEAD "print fmt: \"%c\", REC->prev_pid ? 1 : REC->prev_comm[0]\n"),
			 -EBADMSG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernel_format),
		cmocka_unit_test(test_damaged),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
