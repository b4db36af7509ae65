/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_TEST_FORMATS_H
#define SP_TEST_FORMATS_H

/*
 * Event formats as tracefs prints them, for the generator and the tests
 * that write traces of their own.
 */

/* The fields every event begins with, and the blank line after them. */
#define SP_TEST_COMMON_FIELDS \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n" \
	"\n"

/* The kernel's ftrace:print: the text from offset 16 to the record's end. */
#define SP_TEST_PRINT_ID	5
#define SP_TEST_PRINT_FORMAT \
	"name: print\n" \
	"ID: 5\n" \
	"format:\n" \
	SP_TEST_COMMON_FIELDS \
	"\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n" \
	"\tfield:char buf[];\toffset:16;\tsize:0;\tsigned:0;\n" \
	"\n" \
	"print fmt: \"%ps: %s\", (void *)REC->ip, REC->buf\n"

#endif /* SP_TEST_FORMATS_H */
