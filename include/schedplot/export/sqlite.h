/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SP_EXPORT_SQLITE_H
#define SP_EXPORT_SQLITE_H

#include <stdbool.h>
#include <stdint.h>

struct sp_error;
struct sp_export;
struct sp_model_observer;
struct sp_spans;
struct sp_trace;
struct sp_waited_behind;

/*
 * The traces as a SQLite database (schedplot-export(1) documents the
 * schema): what the model finds in a pass, streamed into tables as it is
 * told, one transaction per trace, with prepared statements.  Memory does
 * not grow with the records: rows go to SQLite as they come, and SQLite
 * keeps a bounded page cache (SP_EXPORT_CACHE_KB).
 *
 *	sp_export_open(&x, path, new, &err);
 *	for each trace:
 *		(the consumers of antagonist.h, hist and behind, on the pass)
 *		sp_export_begin(x, t, name, &behind, spans, &err);  (BEGIN, the trace's row)
 *		sp_export_observer(x, &obs); sp_pass_add(&pass, &obs);
 *		sp_trace_run(t, &pass, NULL, &err);
 *		sp_export_end(x, &err);			(the totals, COMMIT)
 *		  or sp_export_abort(x);		(ROLLBACK: nothing of it stays)
 *	sp_export_close(x, ok, &err);
 *
 * A new database (@create) is written without a journal: the caller
 * writes it to a temporary file and renames it into place only when all
 * went well, so a failure leaves nothing.  An existing one is written in
 * SQLite's rollback-journal transactions: a trace that fails, a full disk
 * or a crash leaves it as it was before that trace.
 */

/* PRAGMA user_version of the databases this code writes. */
#define SP_EXPORT_SCHEMA_VERSION	2
/* PRAGMA application_id: "SPLT", what tells a schedplot database from others */
#define SP_EXPORT_APPLICATION_ID	0x53504c54
/* SQLite's page cache, in KiB: what bounds the memory of a large export */
#define SP_EXPORT_CACHE_KB		8192

/**
 * sp_export_open - open the database the traces go to
 * @out: set to the export (NULL on failure)
 * @path: the database file; for @create a new, empty file (a temporary
 *	  file the caller renames), else one that exists
 * @create: make the schema in a new file, without a journal
 * @idle: write the runs of the idle task (pid 0) too
 * @err: filled in on failure
 *
 * An existing file must be a database this code wrote (its
 * application_id, and the schema version SP_EXPORT_SCHEMA_VERSION), or
 * empty (a file of no bytes, or a SQLite database with no tables yet):
 * anything else is refused before a byte is written.
 *
 * Return: 0, or a negative code with @err set: -EINVAL for a file that is
 * not a SQLite database, -EEXIST for a database of something else,
 * -EPROTONOSUPPORT for another schema version, -EIO (or -ENOSPC, -ENOMEM)
 * when SQLite fails.
 */
int sp_export_open(struct sp_export **out, const char *path, bool create, bool idle,
		   struct sp_error *err);

/**
 * sp_export_begin - start a trace's transaction
 * @x: the export
 * @t: the trace, open (sp_trace_open()), before its pass
 * @name: the file's name as given, for the traces table
 * @behind: who the tasks waited behind, summed over every wait of the
 *	    trace, and the runs of each CPU it asks (behind->hist): both
 *	    consumers of the same pass (sp_waited_behind_observer(),
 *	    sp_antagonists_observer()); its table becomes the rows of
 *	    antagonists, and each wait's longest antagonist is asked of its
 *	    history (runs.behind_pid).  NULL: not known (those columns NULL,
 *	    the table empty)
 * @spans: the --mark and --span definitions planned for @t, whose records
 *	   and spans become rows of marks and spans (its consumer is the
 *	   caller's to register, and to finish); NULL: none
 * @err: filled in on failure
 *
 * Asks the reader for the extra events the tables hold where the trace
 * has them (power:cpu_frequency, power:cpu_idle, ftrace:print, the NUMA
 * balancing events) and keeps every repair and gap noted
 * (t->keep_notes).
 *
 * Return: 0, or a negative code with @err set (nothing is left begun).
 */
int sp_export_begin(struct sp_export *x, struct sp_trace *t, const char *name,
		    struct sp_waited_behind *behind, struct sp_spans *spans, struct sp_error *err);

/**
 * sp_export_observer - the consumer of the pass that fills the tables
 * @x: the export, begun
 * @obs: filled in (run_info, wait, steps, migration, extra, reset)
 */
void sp_export_observer(struct sp_export *x, struct sp_model_observer *obs);

/**
 * sp_export_end - the trace's totals, and its transaction committed
 * @x: the export, after a pass that succeeded
 * @err: filled in on failure (the transaction is then rolled back)
 *
 * Return: 0, or a negative code with @err set.
 */
int sp_export_end(struct sp_export *x, struct sp_error *err);

/**
 * sp_export_abort - roll the trace's transaction back
 * @x: the export, begun (or not: nothing happens)
 */
void sp_export_abort(struct sp_export *x);

/**
 * sp_export_trace_id - the trace_id of the trace begun last
 * @x: the export
 *
 * Return: the id, 0 before the first.
 */
int64_t sp_export_trace_id(const struct sp_export *x);

/**
 * sp_export_close - finish and close the database
 * @x: the export (NULL: nothing)
 * @ok: everything went well; for a new database the indices are then
 *	made (after the rows: faster than keeping them up row by row)
 * @err: filled in on failure
 *
 * Return: 0, or a negative code with @err set.
 */
int sp_export_close(struct sp_export *x, bool ok, struct sp_error *err);

#endif /* SP_EXPORT_SQLITE_H */
