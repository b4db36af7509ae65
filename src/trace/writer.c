// SPDX-License-Identifier: GPL-2.0-only
/*
 * writer: records -> trace-cmd data file (version 6 or 7).
 *
 * Each CPU fills ring-buffer pages in the kernel's format; ten pages make
 * a chunk, which is compressed (version 7 with zstd) and appended to an
 * unlinked spool file as soon as it is full.  At close every size is
 * known, so the file is laid out in one go and written front to back:
 *
 *   v7: header | headers, ftrace, events, kallsyms, printk, cmdlines sections
 *       | options (metadata offsets, clock, uname, CPU count; DONE -> next)
 *       | buffer section (per-CPU data, page aligned) | options (BUFFER; DONE 0)
 *       | strings section
 *   v6: header | header_page ... cmdlines | CPU count | "options  " options
 *       | "flyrecord" CPU table, clock | per-CPU data, page aligned
 *
 * An event in a page (little endian, as kernel/trace/ring_buffer.c lays it;
 * big-endian files hold type_len in the high bits and time_delta below):
 *
 *   31          5 4     0
 *   +------------+-------+----------------------------+
 *   | time_delta |type_len| [length] | payload, 4-aligned
 *   +------------+-------+----------------------------+
 *   type_len 1..28: payload of type_len * 4 bytes follows the header
 *   type_len 0:     a 4-byte length (payload + 4) follows, then the payload
 *   type_len 30:    time extend: delta = next 4 bytes << 27 | time_delta
 *
 * The first event of a page has delta 0 from the page timestamp; a delta
 * that does not fit 27 bits is carried by a time extend, and the event
 * after it has delta 0.
 */
#define _GNU_SOURCE	/* asprintf */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "schedplot/base/alloc.h"
#include "schedplot/base/error.h"
#include "schedplot/base/tempfile.h"
#include "schedplot/trace/datfile.h"
#include "schedplot/trace/event.h"
#include "schedplot/trace/writer.h"
#include "writer-internal.h"

/* ------------------------------------------------------------------ */
/* The built-in sched formats                                          */

#define COMMON_FIELDS \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

#define STATE_MASK "((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | " \
	"0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) - 1)"
#define STATE_PREEMPT "(((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | " \
	"0x00000010 | 0x00000020 | 0x00000040) + 1) << 1)"

#define WAKEUP_FORMAT(name, id) \
	"name: " name "\nID: " id "\nformat:\n" COMMON_FIELDS \
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n" \
	"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n" \
	"\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n" \
	"\tfield:int target_cpu;\toffset:32;\tsize:4;\tsigned:1;\n\n" \
	"print fmt: \"comm=%s pid=%d prio=%d target_cpu=%03d\", REC->comm, REC->pid, " \
	"REC->prio, REC->target_cpu\n"

#define STR(x) #x
#define XSTR(x) STR(x)

static const char *const sched_formats[] = {
	"name: sched_switch\nID: " XSTR(316) "\nformat:\n" COMMON_FIELDS
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
	"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s "
	"next_pid=%d next_prio=%d\", REC->prev_comm, REC->prev_pid, REC->prev_prio, "
	"(REC->prev_state & " STATE_MASK ") ? __print_flags(REC->prev_state & " STATE_MASK
	", \"|\", { 0x00000001, \"S\" }, { 0x00000002, \"D\" }, { 0x00000004, \"T\" }, "
	"{ 0x00000008, \"t\" }, { 0x00000010, \"X\" }, { 0x00000020, \"Z\" }, "
	"{ 0x00000040, \"P\" }, { 0x00000080, \"I\" }) : \"R\", REC->prev_state & "
	STATE_PREEMPT " ? \"+\" : \"\", REC->next_comm, REC->next_pid, REC->next_prio\n",

	WAKEUP_FORMAT("sched_wakeup", XSTR(317)),
	WAKEUP_FORMAT("sched_wakeup_new", XSTR(318)),
	WAKEUP_FORMAT("sched_waking", XSTR(319)),

	"name: sched_migrate_task\nID: " XSTR(320) "\nformat:\n" COMMON_FIELDS
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:int orig_cpu;\toffset:32;\tsize:4;\tsigned:1;\n"
	"\tfield:int dest_cpu;\toffset:36;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"comm=%s pid=%d prio=%d orig_cpu=%d dest_cpu=%d\", REC->comm, REC->pid, "
	"REC->prio, REC->orig_cpu, REC->dest_cpu\n",

	"name: sched_process_fork\nID: " XSTR(321) "\nformat:\n" COMMON_FIELDS
	"\tfield:char parent_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t parent_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:char child_comm[16];\toffset:28;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t child_pid;\toffset:44;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"comm=%s pid=%d child_comm=%s child_pid=%d\", REC->parent_comm, "
	"REC->parent_pid, REC->child_comm, REC->child_pid\n",

	"name: sched_process_exec\nID: " XSTR(322) "\nformat:\n" COMMON_FIELDS
	"\tfield:__data_loc char[] filename;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:pid_t old_pid;\toffset:16;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"filename=%s pid=%d old_pid=%d\", __get_str(filename), REC->pid, "
	"REC->old_pid\n",

	"name: sched_process_exit\nID: " XSTR(323) "\nformat:\n" COMMON_FIELDS
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"comm=%s pid=%d prio=%d\", REC->comm, REC->pid, REC->prio\n",
};

_Static_assert(SP_WRITER_ID_SWITCH == 316 && SP_WRITER_ID_EXIT == 323,
	       "the format texts spell out these ids");

static const char default_header_event[] =
	"# compressed entry header\n"
	"\ttype_len    :    5 bits\n"
	"\ttime_delta  :   27 bits\n"
	"\tarray       :   32 bits\n"
	"\n"
	"\tpadding     : type == 29\n"
	"\ttime_extend : type == 30\n"
	"\ttime_stamp : type == 31\n"
	"\tdata max type_len  == 28\n";

/* ------------------------------------------------------------------ */
/* Setup                                                               */

static int valid_page_size(unsigned int n)
{
	return n >= 4096 && n <= (1u << 20) && !(n & (n - 1));
}

struct sp_writer *sp_writer_open(const char *path, const struct sp_writer_options *opts,
				 struct sp_error *err)
{
	struct sp_writer *w;
	struct utsname u;
	char hp[512];

	if (opts->file_version && opts->file_version != 6 && opts->file_version != 7) {
		sp_error_set(err, -EINVAL, -1, "file version %d is not 6 or 7", opts->file_version);
		return NULL;
	}
	if (opts->nr_cpus < 1 || opts->nr_cpus > SP_WRITER_MAX_CPUS) {
		sp_error_set(err, -EINVAL, -1, "CPU count %d is not in 1..%d", opts->nr_cpus,
			     SP_WRITER_MAX_CPUS);
		return NULL;
	}
	if (opts->page_size && !valid_page_size(opts->page_size)) {
		sp_error_set(err, -EINVAL, -1, "page size %u is not a power of two from 4 KiB to 1 MiB",
			     opts->page_size);
		return NULL;
	}
	if (opts->compression && strcmp(opts->compression, "zstd") &&
	    strcmp(opts->compression, "none")) {
		sp_error_set(err, -EINVAL, -1, "unknown compression \"%s\" (zstd or none)",
			     opts->compression);
		return NULL;
	}
	if (opts->file_version == 6 && opts->compression && !strcmp(opts->compression, "zstd")) {
		sp_error_set(err, -EINVAL, -1, "file version 6 cannot be compressed");
		return NULL;
	}

	w = calloc(1, sizeof(*w));
	if (!w) {
		sp_error_set(err, -ENOMEM, -1, "out of memory");
		return NULL;
	}
	w->pages.spool_fd = -1;
	w->version = opts->file_version ? opts->file_version : 7;
	w->pages.compress = w->version == 7 &&
			    (!opts->compression || !strcmp(opts->compression, "zstd"));
	w->pages.level = opts->compression_level ? opts->compression_level : 1;
	w->pages.nr_cpus = opts->nr_cpus;
	w->pages.big_endian = opts->big_endian;
	w->pages.page_size = opts->page_size ? opts->page_size : 4096;
	w->trace_id = opts->trace_id;
	w->clock = strdup(opts->clock ? opts->clock : "local");
	if (opts->uname) {
		w->uname = strdup(opts->uname);
	} else if (!uname(&u)) {
		if (asprintf(&w->uname, "%s %s %s %s", u.sysname, u.nodename, u.release,
			     u.machine) < 0)
			w->uname = NULL;
	} else {
		w->uname = strdup("Linux");
	}
	snprintf(hp, sizeof(hp),
		 "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
		 "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
		 "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
		 "\tfield: char data;\toffset:16;\tsize:%u;\tsigned:0;\n",
		 w->pages.page_size - PAGE_HDR_SIZE);
	w->header_page = strdup(opts->header_page ? opts->header_page : hp);
	w->header_event = strdup(opts->header_event ? opts->header_event : default_header_event);
	if (!w->clock || !w->uname || !w->header_page || !w->header_event) {
		sp_error_set(err, -ENOMEM, -1, "out of memory");
		goto fail;
	}
	if (sp_tempfile_open(&w->out, path, O_WRONLY | SP_TEMPFILE_DEFER, err) ||
	    sp_pages_open(&w->pages, w->out.direct ? NULL : sp_tempfile_path(&w->out), err))
		goto fail;
	return w;
fail:
	sp_writer_abort(w);
	return NULL;
}

int sp_writer_add_format(struct sp_writer *w, const char *system, const char *format,
			 size_t len, struct sp_error *err)
{
	struct wr_format *f;

	if (sp_grow_array(&w->formats, &w->alloc_formats, w->nr_formats + 1, sizeof(*f)))
		return sp_error_set(err, -ENOMEM, -1, "out of memory");
	f = &w->formats[w->nr_formats];
	f->system = strdup(system);
	f->text = malloc(len ? len : 1);
	if (!f->system || !f->text) {
		free(f->system);
		free(f->text);
		return sp_error_set(err, -ENOMEM, -1, "out of memory");
	}
	memcpy(f->text, format, len);
	f->len = len;
	w->nr_formats++;
	return 0;
}

int sp_writer_add_sched_formats(struct sp_writer *w, struct sp_error *err)
{
	size_t i;
	int ret;

	if (w->sched_formats)
		return 0;
	for (i = 0; i < sizeof(sched_formats) / sizeof(sched_formats[0]); i++) {
		ret = sp_writer_add_format(w, "sched", sched_formats[i], strlen(sched_formats[i]),
					   err);
		if (ret)
			return ret;
	}
	w->sched_formats = true;
	return 0;
}

int sp_writer_add_cmdline(struct sp_writer *w, int pid, const char *comm, struct sp_error *err)
{
	char line[64];
	int n;

	n = snprintf(line, sizeof(line), "%d %.15s\n", pid, comm ? comm : "");
	buf_bytes(&w->cmdlines, line, n);
	return w->cmdlines.failed ? sp_error_set(err, -ENOMEM, -1, "out of memory") : 0;
}

int sp_writer_add_cmdlines_text(struct sp_writer *w, const char *text, size_t len,
				struct sp_error *err)
{
	buf_bytes(&w->cmdlines, text, len);
	if (len && text[len - 1] != '\n')
		buf_bytes(&w->cmdlines, "\n", 1);
	return w->cmdlines.failed ? sp_error_set(err, -ENOMEM, -1, "out of memory") : 0;
}

int sp_writer_add_kallsyms_text(struct sp_writer *w, const char *text, size_t len,
				struct sp_error *err)
{
	buf_bytes(&w->kallsyms, text, len);
	return w->kallsyms.failed ? sp_error_set(err, -ENOMEM, -1, "out of memory") : 0;
}

int sp_writer_add_option(struct sp_writer *w, unsigned int id, const void *data, size_t len,
			 struct sp_error *err)
{
	struct wr_option *o;

	if (id == SP_DAT_ID_DONE || id == SP_DAT_OPT_BUFFER || id == SP_DAT_OPT_TRACECLOCK ||
	    id == SP_DAT_OPT_UNAME || id == SP_DAT_OPT_CPUCOUNT || id == SP_DAT_OPT_TRACEID ||
	    id >= SP_DAT_SEC_STRINGS || len > UINT32_MAX / 2)
		return sp_error_set(err, -EINVAL, -1, "option %u is written by the writer itself",
				    id);
	if (sp_grow_array(&w->options, &w->alloc_options, w->nr_options + 1, sizeof(*o)))
		return sp_error_set(err, -ENOMEM, -1, "out of memory");
	o = &w->options[w->nr_options];
	o->data = malloc(len ? len : 1);
	if (!o->data)
		return sp_error_set(err, -ENOMEM, -1, "out of memory");
	memcpy(o->data, data, len);
	o->id = id;
	o->len = len;
	w->nr_options++;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Records, into the pages                                             */

int sp_writer_write_raw(struct sp_writer *w, int cpu, uint64_t ts_ns, const void *payload,
			size_t len, struct sp_error *err)
{
	return sp_pages_record(&w->pages, cpu, ts_ns, payload, len, err);
}

int sp_writer_write_page(struct sp_writer *w, int cpu, const void *page, size_t len,
			 struct sp_error *err)
{
	return sp_pages_page(&w->pages, cpu, page, len, err);
}

int sp_writer_lost(struct sp_writer *w, int cpu, uint64_t count)
{
	return sp_pages_lost(&w->pages, cpu, count);
}

uint64_t sp_writer_nr_records(const struct sp_writer *w, int cpu)
{
	return sp_pages_nr_records(&w->pages, cpu);
}

/* ------------------------------------------------------------------ */
/* Sched events                                                        */

#define COMM_LEN	16

/* A task as the sched formats lay it out: char comm[16], then pid_t pid. */
static void put_task(const struct sp_writer *w, unsigned char *p, const char *comm, int pid)
{
	size_t n = comm ? strnlen(comm, COMM_LEN - 1) : 0;

	memset(p, 0, COMM_LEN);
	if (n)
		memcpy(p, comm, n);
	put_num(p + COMM_LEN, (uint32_t)pid, 4, w->pages.big_endian);
}

static void put_u32(const struct sp_writer *w, unsigned char *p, uint32_t v)
{
	put_num(p, v, 4, w->pages.big_endian);
}

/* Every task in the built-in formats has the default priority. */
#define PRIO	120

/* The built-in format, by its id, that writes each type of sched record. */
static const uint16_t format_id[SP_EV_NR_TYPES] = {
	[SP_EV_SWITCH] = SP_WRITER_ID_SWITCH,
	[SP_EV_WAKEUP] = SP_WRITER_ID_WAKEUP,
	[SP_EV_WAKEUP_NEW] = SP_WRITER_ID_WAKEUP_NEW,
	[SP_EV_WAKING] = SP_WRITER_ID_WAKING,
	[SP_EV_MIGRATE] = SP_WRITER_ID_MIGRATE,
	[SP_EV_FORK] = SP_WRITER_ID_FORK,
	[SP_EV_EXEC] = SP_WRITER_ID_EXEC,
	[SP_EV_EXIT] = SP_WRITER_ID_EXIT,
};

int sp_writer_write_event(struct sp_writer *w, const struct sp_event *ev, struct sp_error *err)
{
	unsigned char *p = w->scratch;
	size_t len, n;

	if (!w->sched_formats)
		return sp_error_set(err, -EINVAL, -1, "the sched formats were not added");
	if (ev->type >= SP_EV_NR_TYPES || !format_id[ev->type])
		return sp_error_set(err, -EINVAL, -1, "event type %d has no built-in format",
				    ev->type);
	memset(p, 0, 64);
	put_num(p, format_id[ev->type], 2, w->pages.big_endian);
	put_u32(w, p + 4, (uint32_t)ev->common_pid);
	switch (ev->type) {
	case SP_EV_SWITCH:
		put_task(w, p + 8, ev->comm, ev->pid);
		put_u32(w, p + 28, PRIO);
		put_num(p + 32, ev->prev_runnable ? 0 : 1, 8, w->pages.big_endian);
		put_task(w, p + 40, ev->other_comm, ev->other_pid);
		put_u32(w, p + 60, PRIO);
		len = 64;
		break;
	case SP_EV_WAKEUP:
	case SP_EV_WAKEUP_NEW:
	case SP_EV_WAKING:
		put_task(w, p + 8, ev->comm, ev->pid);
		put_u32(w, p + 28, PRIO);
		put_u32(w, p + 32, (uint32_t)ev->target_cpu);
		len = 36;
		break;
	case SP_EV_MIGRATE:
		put_task(w, p + 8, ev->comm, ev->pid);
		put_u32(w, p + 28, PRIO);
		put_u32(w, p + 32, (uint32_t)ev->orig_cpu);
		put_u32(w, p + 36, (uint32_t)ev->target_cpu);
		len = 40;
		break;
	case SP_EV_FORK:
		put_task(w, p + 8, ev->comm, ev->pid);
		put_task(w, p + 28, ev->other_comm, ev->other_pid);
		len = 48;
		break;
	case SP_EV_EXEC:
		n = ev->comm ? strnlen(ev->comm, 255) : 0;
		/* __data_loc: length << 16 | offset */
		put_u32(w, p + 8, 20 | (uint32_t)(n + 1) << 16);
		put_u32(w, p + 12, (uint32_t)ev->pid);
		put_u32(w, p + 16, (uint32_t)ev->pid);
		if (n)
			memcpy(p + 20, ev->comm, n);
		p[20 + n] = '\0';
		len = 21 + n;
		break;
	case SP_EV_EXIT:
	default:		/* format_id admits no other */
		put_task(w, p + 8, ev->comm, ev->pid);
		put_u32(w, p + 28, PRIO);
		len = 32;
		break;
	}
	return sp_writer_write_raw(w, ev->cpu, ev->ts_ns, p, len, err);
}

int sp_writer_close(struct sp_writer *w, struct sp_error *err)
{
	int ret;

	ret = sp_pages_flush(&w->pages, err);
	if (!ret)
		ret = sp_tempfile_ready(&w->out, err);
	if (!ret)
		ret = sp_writer_layout_write(w, w->out.fd, err);
	if (!ret)
		ret = sp_tempfile_commit(&w->out, err);
	sp_writer_abort(w);
	return ret;
}

void sp_writer_abort(struct sp_writer *w)
{
	size_t i;

	if (!w)
		return;
	sp_tempfile_discard(&w->out);
	sp_pages_release(&w->pages);
	for (i = 0; i < w->nr_formats; i++) {
		free(w->formats[i].system);
		free(w->formats[i].text);
	}
	for (i = 0; i < w->nr_options; i++)
		free(w->options[i].data);
	buf_release(&w->cmdlines);
	buf_release(&w->kallsyms);
	free(w->formats);
	free(w->options);
	free(w->clock);
	free(w->uname);
	free(w->header_page);
	free(w->header_event);
	free(w);
}
