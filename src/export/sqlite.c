// SPDX-License-Identifier: GPL-2.0-only
/*
 * export/sqlite: the traces as a SQLite database.  One consumer of the
 * pass turns what the model tells into rows as it is told (runs with the
 * waits they ended, task names, migrations, power states, trace_marker
 * texts); what the model knows only at the end (CPUs, tasks, repairs,
 * lost events, the totals) follows the pass.  Waits and sleeps are views
 * of the runs.  Every row carries its trace's trace_id, so any
 * number of traces share a file.  schedplot-export(1) documents the
 * schema; SCHEMA below is the one place it is written.
 *
 * Each trace is one transaction.  Rows are inserted with statements
 * prepared once; the indices of a new database are made after its rows,
 * which is several times faster than keeping them up row by row.  SQLite
 * holds at most its page cache in memory, so memory does not grow with
 * the trace.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <sqlite3.h>

#include "schedplot/analysis/antagonist.h"
#include "schedplot/analysis/latency.h"
#include "schedplot/analysis/marks.h"
#include "schedplot/analysis/migrations.h"
#include "schedplot/analysis/spans.h"
#include "schedplot/analysis/stats.h"
#include "schedplot/base/alloc.h"
#include "schedplot/base/error.h"
#include "schedplot/export/sqlite.h"
#include "schedplot/model/model.h"
#include "schedplot/model/power.h"
#include "schedplot/model/scope.h"
#include "schedplot/model/topology.h"
#include "schedplot/model/trace.h"
#include "schedplot/trace/container.h"
#include "schedplot/trace/reader.h"

/*
 * The schema.  Times are the trace's own timestamps in ns (integers);
 * a trace's first_ns is its t0.  Columns are only ever added at the end
 * of a table, with SP_EXPORT_SCHEMA_VERSION raised.
 */
static const char SCHEMA[] =
	"CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;\n"
	"CREATE TABLE traces (\n"
	"  trace_id INTEGER PRIMARY KEY,\n"
	"  file TEXT NOT NULL, path TEXT, size_bytes INTEGER, mtime_ns INTEGER,\n"
	"  uname TEXT, hostname TEXT, kernel TEXT, machine TEXT, clock TEXT,\n"
	"  file_version INTEGER, compression TEXT,\n"
	"  nr_cpus INTEGER NOT NULL, first_ns INTEGER, window_start_ns INTEGER,\n"
	"  end_ns INTEGER, records INTEGER, sched_records INTEGER, wakeup_event TEXT,\n"
	"  topology TEXT, repairs INTEGER, lost_events INTEGER, waits_open INTEGER,\n"
	"  running_avg REAL, waiting_avg REAL, running_max INTEGER, waiting_max INTEGER,\n"
	"  idle_while_waiting_ns INTEGER, lost_cpu_ns INTEGER, idle_runs INTEGER);\n"
	"CREATE TABLE cpus (\n"
	"  trace_id INTEGER NOT NULL REFERENCES traces, cpu INTEGER NOT NULL,\n"
	"  first_ns INTEGER, last_ns INTEGER, start_ns INTEGER, lossless INTEGER,\n"
	"  busy_ns INTEGER, records INTEGER, switches INTEGER, lost_events INTEGER,\n"
	"  lost_exact INTEGER, socket INTEGER, core INTEGER, node INTEGER,\n"
	"  PRIMARY KEY (trace_id, cpu)) WITHOUT ROWID;\n"
	"CREATE TABLE tasks (\n"
	"  trace_id INTEGER NOT NULL REFERENCES traces, pid INTEGER NOT NULL,\n"
	"  tgid INTEGER, ppid INTEGER, comm TEXT, run_ns INTEGER, wait_ns INTEGER,\n"
	"  wakeups INTEGER, migrations INTEGER,\n"
	"  PRIMARY KEY (trace_id, pid)) WITHOUT ROWID;\n"
	"CREATE TABLE task_names (\n"
	"  trace_id INTEGER NOT NULL REFERENCES traces, pid INTEGER NOT NULL,\n"
	"  comm TEXT NOT NULL, first_ns INTEGER NOT NULL);\n"
	"CREATE TABLE runs (\n"
	"  trace_id INTEGER NOT NULL REFERENCES traces, cpu INTEGER NOT NULL,\n"
	"  pid INTEGER NOT NULL, comm TEXT, start_ns INTEGER NOT NULL,\n"
	"  end_ns INTEGER NOT NULL, end_state TEXT, wait_ns INTEGER NOT NULL,\n"
	"  waker_pid INTEGER, waker_irq TEXT, prev_cpu INTEGER, placement TEXT,\n"
	"  wait_start_ns INTEGER, waker_cpu INTEGER, target_cpu INTEGER, prev_idle INTEGER,\n"
	"  behind_pid INTEGER, behind_ns INTEGER, contradicted INTEGER);\n"
	/*
	 * Who held the CPUs a task waited for (doc/design.md "Antagonists"),
	 * summed over its waits: stats' "waited behind", a row per pair of
	 * tasks.  (A row per wait and antagonist would be tens per wait when
	 * many tasks wait; each wait's longest is in its run's row.)
	 */
	"CREATE TABLE antagonists (\n"
	"  trace_id INTEGER NOT NULL REFERENCES traces, pid INTEGER NOT NULL,\n"
	"  behind_pid INTEGER NOT NULL, ns INTEGER NOT NULL);\n"
	"CREATE TABLE migrations (\n"
	"  trace_id INTEGER NOT NULL REFERENCES traces, ts_ns INTEGER NOT NULL,\n"
	"  pid INTEGER NOT NULL, comm TEXT, from_cpu INTEGER, to_cpu INTEGER,\n"
	"  class TEXT NOT NULL, cross_socket INTEGER NOT NULL);\n"
	"CREATE TABLE repairs (\n"
	"  trace_id INTEGER NOT NULL REFERENCES traces, kind TEXT NOT NULL, cpu INTEGER,\n"
	"  ts_ns INTEGER NOT NULL, pid INTEGER);\n"
	"CREATE TABLE lost_events (\n"
	"  trace_id INTEGER NOT NULL REFERENCES traces, cpu INTEGER NOT NULL,\n"
	"  ts_ns INTEGER NOT NULL, count INTEGER);\n"
	"CREATE TABLE power (\n"
	"  trace_id INTEGER NOT NULL REFERENCES traces, cpu INTEGER NOT NULL,\n"
	"  kind TEXT NOT NULL, start_ns INTEGER NOT NULL, end_ns INTEGER NOT NULL,\n"
	"  value INTEGER NOT NULL);\n"
	"CREATE TABLE marks (\n"
	"  trace_id INTEGER NOT NULL REFERENCES traces, ts_ns INTEGER NOT NULL,\n"
	"  cpu INTEGER NOT NULL, pid INTEGER NOT NULL, text TEXT, name TEXT NOT NULL);\n"
	"CREATE TABLE spans (\n"
	"  trace_id INTEGER NOT NULL REFERENCES traces, name TEXT NOT NULL,\n"
	"  start_ns INTEGER NOT NULL, end_ns INTEGER NOT NULL, dur_ns INTEGER NOT NULL,\n"
	"  cpu INTEGER, pid INTEGER, key1, key2);\n"
	/*
	 * A wait: what the run it ended with says of it.  A wait ends as a
	 * run begins, so its columns are in the run's row (placement not
	 * NULL): half the rows to write, and no index of its own.
	 */
	"CREATE VIEW waits AS\n"
	"  SELECT trace_id, pid, comm,\n"
	"    coalesce(wait_start_ns, start_ns - wait_ns) AS start_ns,\n"
	"    coalesce(wait_start_ns, start_ns - wait_ns) + wait_ns AS end_ns, wait_ns AS dur_ns,\n"
	"    CASE placement WHEN 'preempted' THEN 'preempt' ELSE 'wakeup' END AS class,\n"
	"    cpu, prev_cpu, target_cpu, waker_pid, waker_irq, waker_cpu, prev_idle, placement,\n"
	"    behind_pid, (SELECT t.comm FROM tasks t WHERE t.trace_id = runs.trace_id\n"
	"                 AND t.pid = runs.behind_pid) AS behind_comm,\n"
	"    behind_ns, contradicted\n"
	"  FROM runs WHERE placement IS NOT NULL;\n"
	/*
	 * A sleep (doc/design.md "Sleeps", analysis/sleeps.c): from a run's
	 * switch-out in a state other than runnable (R, R+) to the moment
	 * the task became runnable again, the start of the wait that ended
	 * as its next run began (that run's start when none did); its class
	 * S, D or other, and the waker of that wait.  Rows of a view, so
	 * that they cost nothing to write; it reads the runs of a task in
	 * the order they ended (rowid), which runs_task gives.
	 */
	"CREATE VIEW sleeps AS\n"
	"  SELECT trace_id, pid, comm, start_ns, end_ns, end_ns - start_ns AS dur_ns, state,\n"
	"    CASE substr(state, 1, 1) WHEN 'S' THEN 'S' WHEN 'D' THEN 'D' ELSE 'other' END\n"
	"      AS class,\n"
	"    cpu, waker_pid, waker_irq\n"
	"  FROM (SELECT trace_id, pid, comm, cpu, end_ns AS start_ns, end_state AS state,\n"
	"          lead(start_ns - min(wait_ns, start_ns)) OVER w AS end_ns,\n"
	"          lead(waker_pid) OVER w AS waker_pid, lead(waker_irq) OVER w AS waker_irq\n"
	"        FROM runs WHERE pid != 0\n"
	"        WINDOW w AS (PARTITION BY trace_id, pid ORDER BY rowid))\n"
	"  WHERE state NOT IN ('R', 'R+', 'repair', 'end') AND end_ns >= start_ns;\n";

/*
 * The indices for the usual joins and lookups: by trace and task.  The
 * runs of a task come in the order they ended (rowid) from runs_task.
 */
static const char INDICES[] =
	"CREATE INDEX IF NOT EXISTS runs_task ON runs (trace_id, pid);\n"
	"CREATE INDEX IF NOT EXISTS antagonists_task ON antagonists (trace_id, pid);\n"
	"CREATE INDEX IF NOT EXISTS migrations_task ON migrations (trace_id, pid, ts_ns);\n"
	"CREATE INDEX IF NOT EXISTS task_names_task ON task_names (trace_id, pid, first_ns);\n"
	"CREATE INDEX IF NOT EXISTS repairs_trace ON repairs (trace_id, ts_ns);\n"
	"CREATE INDEX IF NOT EXISTS lost_events_trace ON lost_events (trace_id, cpu, ts_ns);\n"
	"CREATE INDEX IF NOT EXISTS power_cpu ON power (trace_id, cpu, kind, start_ns);\n"
	"CREATE INDEX IF NOT EXISTS marks_trace ON marks (trace_id, ts_ns);\n"
	"CREATE INDEX IF NOT EXISTS spans_trace ON spans (trace_id, name, start_ns);\n";

/* The page size of a new database: large pages make bulk inserts cheaper. */
#define PAGE_SIZE "16384"

/* The tables with rows per trace, for a pass made again. */
static const char *const ROW_TABLES[] = {
	"task_names", "runs", "migrations", "power", "marks", "spans",
};

/*
 * Runs are inserted RUN_BATCH at a time, with one statement of as many
 * rows: a statement's fixed cost (cursors, its transaction's checks) is
 * then paid once for them all.
 */
#define RUN_COLUMNS	19
#define RUN_VALUES	"(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
#define RUN_BATCH	64

enum stmt {
	ST_TRACE, ST_TRACE_END, ST_CPU, ST_TASK, ST_NAME, ST_RUN, ST_RUNS, ST_BEHIND,
	ST_MIGRATION, ST_REPAIR, ST_LOST, ST_POWER, ST_MARK, ST_SPAN, ST_NR,
};

static const char *const STMT_SQL[ST_NR] = {
	[ST_TRACE] = "INSERT INTO traces (file, path, size_bytes, mtime_ns, uname, hostname, "
		     "kernel, machine, clock, file_version, compression, nr_cpus, first_ns, "
		     "window_start_ns, end_ns, topology, idle_runs) "
		     "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
	[ST_TRACE_END] = "UPDATE traces SET records = ?, sched_records = ?, wakeup_event = ?, "
			 "repairs = ?, lost_events = ?, waits_open = ?, running_avg = ?, "
			 "waiting_avg = ?, running_max = ?, waiting_max = ?, "
			 "idle_while_waiting_ns = ?, lost_cpu_ns = ? WHERE trace_id = ?",
	[ST_CPU] = "INSERT INTO cpus VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
	[ST_TASK] = "INSERT INTO tasks VALUES (?,?,?,?,?,?,?,?,?)",
	[ST_NAME] = "INSERT INTO task_names VALUES (?,?,?,?)",
	[ST_RUN] = "INSERT INTO runs VALUES " RUN_VALUES,
	[ST_RUNS] = NULL,	/* RUN_BATCH rows at once: made by sp_export_open() */
	[ST_BEHIND] = "INSERT INTO antagonists VALUES (?,?,?,?)",
	[ST_MIGRATION] = "INSERT INTO migrations VALUES (?,?,?,?,?,?,?,?)",
	[ST_REPAIR] = "INSERT INTO repairs VALUES (?,?,?,?,?)",
	[ST_LOST] = "INSERT INTO lost_events VALUES (?,?,?,?)",
	[ST_POWER] = "INSERT INTO power VALUES (?,?,?,?,?,?)",
	[ST_MARK] = "INSERT INTO marks VALUES (?,?,?,?,?,?)",
	[ST_SPAN] = "INSERT INTO spans VALUES (?,?,?,?,?,?,?,?,?)",
};

/*
 * A run waiting in the batch, with the wait it ended (has_wait) and that
 * wait's longest antagonist (behind.pid -1: none).
 */
struct run_row {
	struct sp_run run;
	struct sp_wait wait;
	bool has_wait;
	struct sp_behind behind;
	char comm[32];
};


/* What is kept per task of the model (by its index in the task table). */
struct task_row {
	uint32_t comm;		/* the name of its last run, a string id; 0: none yet */
	/* the wait told last, for the run it ended with (told later) */
	bool has_wait;
	struct sp_wait wait;
};

/*
 * Waits told before the run of a wait of the same task told earlier (a
 * run of no length a repair ends is told once the repair is known, after
 * the task's next wait may have been): few, and kept until their run.
 */
#define WAITS_EARLIER	64

/* A power state of one CPU, until the next event about it. */
struct power_now {
	uint64_t since_ns;	/* SP_NO_TS: not known yet */
	int64_t value;
};

struct sp_export {
	sqlite3 *db;
	bool create;		/* a new file, no journal: indices made at the close */
	bool in_trace;		/* a transaction is open */
	bool idle;		/* the runs of the idle task (pid 0) too */
	sqlite3_stmt *st[ST_NR];
	int error;		/* sticky, from the pass's callbacks */
	char error_msg[256];
	int64_t trace_id;
	/* the trace of the transaction */
	struct sp_trace *t;
	struct sp_scope scope;	/* names tasks as the other commands do */
	struct sp_marks marks;	/* migration classes (the pass's migration callback) */
	struct sp_stats stats;	/* the step functions' totals */
	struct task_row *tasks;
	size_t alloc_tasks;
	/* power: per CPU and kind, the state until the next event */
	struct power_now *power[SP_POWER_NR_KINDS];
	int power_req[SP_POWER_NR_KINDS];
	int print_req;		/* ftrace:print's request, -1: none */
	struct sp_spans *spans;	/* --mark and --span: their records and spans, or NULL */
	struct run_row batch[RUN_BATCH];
	int nr_batch;
	/* who held the CPUs the tasks waited for: the pass's, or NULL */
	struct sp_waited_behind *behind;
	struct sp_wait earlier[WAITS_EARLIER];	/* oldest first */
	int nr_earlier;
};

/*
 * Record SQLite's failure as an error: its code mapped to an errno, and
 * @what (what failed) before SQLite's message, or that message alone
 */
static int db_error(struct sp_export *x, struct sp_error *err, int rc, const char *what)
{
	const char *msg;
	int code;

	switch (rc & 0xff) {
	case SQLITE_FULL:
		code = -ENOSPC;
		break;
	case SQLITE_NOMEM:
		code = -ENOMEM;
		break;
	case SQLITE_NOTADB:
		return sp_error_set(err, -EINVAL, -1,
				    "not a SQLite database (export adds only to a database it "
				    "wrote; name a new file)");
	case SQLITE_READONLY:
	case SQLITE_PERM:
		code = -EACCES;
		break;
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		code = -EBUSY;
		break;
	default:
		code = -EIO;
		break;
	}
	msg = x && x->db ? sqlite3_errmsg(x->db) : sqlite3_errstr(rc);
	if (!what)
		return sp_error_set(err, code, -1, "%s", msg);
	return sp_error_set(err, code, -1, "%s: %s", what, msg);
}

static int exec(struct sp_export *x, const char *sql, struct sp_error *err, const char *what)
{
	int rc = sqlite3_exec(x->db, sql, NULL, NULL, NULL);

	return rc == SQLITE_OK ? 0 : db_error(x, err, rc, what);
}

/* An integer a query of one row and column gives; -1 when it gives none. */
static int query_int(struct sp_export *x, const char *sql, int64_t *v, struct sp_error *err)
{
	sqlite3_stmt *st;
	int rc;

	rc = sqlite3_prepare_v2(x->db, sql, -1, &st, NULL);
	if (rc != SQLITE_OK)
		return db_error(x, err, rc, "cannot read the database");
	rc = sqlite3_step(st);
	*v = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		db_error(x, err, rc, "cannot read the database");
		sqlite3_finalize(st);
		return err ? err->code : -EIO;
	}
	sqlite3_finalize(st);
	return 0;
}

/* The schema, in a transaction of its own, in a database with no tables. */
static int make_schema(struct sp_export *x, struct sp_error *err)
{
	char sql[256];
	int ret;

	ret = exec(x, "BEGIN IMMEDIATE", err, NULL);
	if (ret)
		return ret;
	ret = exec(x, SCHEMA, err, "cannot make the tables");
	if (!ret && !x->create)
		ret = exec(x, INDICES, err, "cannot make the indices");
	snprintf(sql, sizeof(sql),
		 "INSERT INTO meta VALUES ('schema_version', '%d'), ('generator', 'schedplot %s');"
		 "PRAGMA application_id = %d; PRAGMA user_version = %d;",
		 SP_EXPORT_SCHEMA_VERSION, SP_VERSION, SP_EXPORT_APPLICATION_ID,
		 SP_EXPORT_SCHEMA_VERSION);
	if (!ret)
		ret = exec(x, sql, err, "cannot make the tables");
	if (!ret)
		ret = exec(x, "COMMIT", err, NULL);
	if (ret)
		sqlite3_exec(x->db, "ROLLBACK", NULL, NULL, NULL);
	return ret;
}

/* Whether an existing file is a database to add to; makes the schema in an empty one. */
static int check_existing(struct sp_export *x, struct sp_error *err)
{
	int64_t app, version, nr_tables;
	int ret;

	ret = query_int(x, "PRAGMA application_id", &app, err);
	if (!ret)
		ret = query_int(x, "PRAGMA user_version", &version, err);
	if (!ret)
		ret = query_int(x, "SELECT count(*) FROM sqlite_master", &nr_tables, err);
	if (ret)
		return ret;
	/*
	 * Rows of two versions do not go in one file: the columns a version
	 * added would be NULL in the rows of the traces before, where NULL
	 * says "none" (no wait, no antagonist).
	 */
	if (app == SP_EXPORT_APPLICATION_ID) {
		if (version < SP_EXPORT_SCHEMA_VERSION)
			return sp_error_set(err, -EPROTONOSUPPORT, -1,
					    "a database of schema version %lld, made by an older "
					    "schedplot; this one writes version %d and does not mix "
					    "them: export to a new file (the traces in this one: "
					    "SELECT path FROM traces)",
					    (long long)version, SP_EXPORT_SCHEMA_VERSION);
		if (version > SP_EXPORT_SCHEMA_VERSION)
			return sp_error_set(err, -EPROTONOSUPPORT, -1,
					    "a database of schema version %lld, made by a newer "
					    "schedplot; this one writes version %d: add to it with "
					    "that schedplot, or export to a new file",
					    (long long)version, SP_EXPORT_SCHEMA_VERSION);
		return 0;
	}
	if (app == 0 && nr_tables == 0)
		return make_schema(x, err);
	return sp_error_set(err, -EEXIST, -1,
			    "a SQLite database schedplot did not write (export adds only to "
			    "its own; name a new file)");
}

/* "INSERT INTO @table VALUES " and @nr times @values, into @buf (large enough). */
static const char *batch_sql(char *buf, const char *table, const char *values, int nr)
{
	char *p = buf + sprintf(buf, "INSERT INTO %s VALUES ", table);
	int i;

	for (i = 0; i < nr; i++)
		p += sprintf(p, "%s%s", i ? "," : "", values);
	return buf;
}

int sp_export_open(struct sp_export **out, const char *path, bool create, bool idle,
		   struct sp_error *err)
{
	char runs_sql[32 + RUN_BATCH * sizeof(RUN_VALUES)];
	struct sp_export *x;
	const char *text;
	char sql[128];
	int rc, ret, i;

	*out = NULL;
	batch_sql(runs_sql, "runs", RUN_VALUES, RUN_BATCH);
	x = calloc(1, sizeof(*x));
	if (!x)
		return sp_error_set(err, -ENOMEM, -1, "out of memory");
	x->create = create;
	x->idle = idle;
	x->print_req = -1;
	/*
	 * One connection, used by one thread: no locking inside SQLite
	 * (a tenth of the time of a bulk insert), and no counting of its
	 * memory.  Refused, harmlessly, once SQLite is set up already.
	 */
	sqlite3_config(SQLITE_CONFIG_MULTITHREAD);
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
	rc = sqlite3_open_v2(path, &x->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK) {
		ret = db_error(x, err, rc, "cannot open the database");
		goto fail;
	}
	sqlite3_extended_result_codes(x->db, 1);
	/* another writer: wait for its transaction rather than fail at once */
	sqlite3_busy_timeout(x->db, 10000);
	snprintf(sql, sizeof(sql), "PRAGMA cache_size = -%d", SP_EXPORT_CACHE_KB);
	ret = exec(x, sql, err, "cannot set up the database");
	/*
	 * A new file is the caller's temporary file, thrown away on any
	 * failure: no journal and no syncing but the caller's at the end.
	 */
	if (!ret && create)
		ret = exec(x, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; "
			   "PRAGMA page_size = " PAGE_SIZE, err, "cannot set up the database");
	if (!ret)
		ret = create ? make_schema(x, err) : check_existing(x, err);
	for (i = 0; !ret && i < ST_NR; i++) {
		text = i == ST_RUNS ? runs_sql : STMT_SQL[i];
		rc = sqlite3_prepare_v3(x->db, text, -1, SQLITE_PREPARE_PERSISTENT, &x->st[i],
					NULL);
		if (rc != SQLITE_OK)
			ret = db_error(x, err, rc, "cannot prepare the statements");
	}
	if (ret)
		goto fail;
	*out = x;
	return 0;
fail:
	for (i = 0; i < ST_NR; i++)
		sqlite3_finalize(x->st[i]);
	sqlite3_close(x->db);
	free(x);
	return ret;
}

int64_t sp_export_trace_id(const struct sp_export *x)
{
	return x->trace_id;
}

/* ---- rows ---- */

/* Run a statement whose values are bound; errors stick in x->error. */
static void step(struct sp_export *x, sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	if (rc != SQLITE_DONE && !x->error) {
		struct sp_error e;

		sp_error_clear(&e);
		x->error = db_error(x, &e, rc, NULL);
		snprintf(x->error_msg, sizeof(x->error_msg), "%s", e.msg);
	}
}

static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, i);
}

/* An int, NULL when negative (not known). */
static void bind_known(sqlite3_stmt *st, int i, int64_t v)
{
	if (v < 0)
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_int64(st, i, v);
}

/* A timestamp, NULL for SP_NO_TS. */
static void bind_ts(sqlite3_stmt *st, int i, uint64_t ts)
{
	if (ts == SP_NO_TS || ts > INT64_MAX)
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_int64(st, i, (int64_t)ts);
}

/* The waker as two columns: the task's pid, or the interrupt it was. */
static void bind_waker(sqlite3_stmt *st, int i, int waker)
{
	bind_known(st, i, waker);
	bind_text(st, i + 1, waker == SP_WAKER_IRQ ? "irq" :
			     waker == SP_WAKER_SOFTIRQ ? "softirq" : NULL);
}

/* The per-task row of @pid, NULL when out of memory (then the error sticks). */
static struct task_row *task_row(struct sp_export *x, int pid)
{
	const struct sp_model *m = &x->t->model;
	struct sp_task *task = sp_model_task(m, pid);
	size_t i, n;

	if (!task)
		return NULL;
	i = (size_t)(task - m->tasks.v);
	if (i >= x->alloc_tasks) {
		n = m->tasks.alloc > i ? m->tasks.alloc : i + 1;
		if (sp_grow_array(&x->tasks, &x->alloc_tasks, n, sizeof(*x->tasks))) {
			if (!x->error) {
				x->error = -ENOMEM;
				snprintf(x->error_msg, sizeof(x->error_msg), "out of memory");
			}
			return NULL;
		}
	}
	return &x->tasks[i];
}

/*
 * A wait ended: kept for the run it ended with (told later, as that run
 * ends), whose row gets its columns.
 */
static void on_wait(void *data, const struct sp_wait *w)
{
	struct sp_export *x = data;
	struct task_row *row;

	if (x->error)
		return;
	row = task_row(x, w->pid);
	if (!row)
		return;
	if (row->has_wait) {
		/* its run is still to come: kept apart, the oldest dropped when full */
		if (x->nr_earlier == WAITS_EARLIER)
			memmove(x->earlier, x->earlier + 1, --x->nr_earlier * sizeof(*x->earlier));
		x->earlier[x->nr_earlier++] = row->wait;
	}
	row->wait = *w;
	row->has_wait = true;
}

/*
 * Whether @w is the wait that ended as @r began: on its CPU, its end in
 * the run (a task current since a CPU's start[c] began its run at
 * start[c], before the record that made it current ended its wait)
 */
static bool wait_of_run(const struct sp_wait *w, const struct sp_run *r)
{
	return w->pid == r->pid && w->cpu == r->cpu && w->start_ns + w->dur_ns >= r->start_ns &&
	       w->start_ns + w->dur_ns <= r->end_ns;
}

/*
 * The columns of the wait @w that ended as run @r began (NULL: none):
 * its placement, its start unless it is the run's start less wait_ns,
 * the waker's CPU, the CPU the wakeup chose, whether the task's previous
 * CPU was idle.
 */
static void bind_wait(sqlite3_stmt *st, int i, const struct sp_run *r, const struct sp_wait *w)
{
	bool wakeup = w && w->wait_class == SP_WAIT_WAKEUP;
	int k;

	if (!w) {
		for (k = 0; k < 5; k++)
			sqlite3_bind_null(st, i + k);
		return;
	}
	sqlite3_bind_text(st, i, sp_placement_name(sp_placement_of(w)), -1, SQLITE_STATIC);
	bind_ts(st, i + 1, w->start_ns + r->wait_ns == r->start_ns ? SP_NO_TS : w->start_ns);
	bind_known(st, i + 2, wakeup ? w->waker_cpu : -1);
	bind_known(st, i + 3, w->target_cpu);
	if (wakeup && w->prev_cpu >= 0)
		sqlite3_bind_int64(st, i + 4, w->prev_idle);
	else
		sqlite3_bind_null(st, i + 4);
}

/* The columns of a run, from @i on. */
static void bind_run(struct sp_export *x, sqlite3_stmt *st, int i, const struct run_row *row)
{
	const struct sp_run *r = &row->run;
	const char *state;

	state = sp_run_end_name(r);
	sqlite3_bind_int64(st, i, x->trace_id);
	sqlite3_bind_int64(st, i + 1, r->cpu);
	sqlite3_bind_int64(st, i + 2, r->pid);
	bind_text(st, i + 3, row->comm);
	bind_ts(st, i + 4, r->start_ns);
	bind_ts(st, i + 5, r->end_ns);
	sqlite3_bind_text(st, i + 6, state, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, i + 7, (int64_t)r->wait_ns);
	bind_waker(st, i + 8, r->waker);
	bind_known(st, i + 10, r->prev_cpu);
	bind_wait(st, i + 11, r, row->has_wait ? &row->wait : NULL);
	/* the wait's longest antagonist: NULL without a wait, pid NULL when none ran */
	bind_known(st, i + 16, row->has_wait ? row->behind.pid : -1);
	bind_known(st, i + 17, row->has_wait && x->behind ? (int64_t)row->behind.ns : -1);
	bind_known(st, i + 18, row->has_wait ? row->wait.contradicted : -1);
}

/* Insert the runs of the batch: at once when it is full, else one by one. */
static void flush_runs(struct sp_export *x)
{
	sqlite3_stmt *st = x->st[ST_RUNS];
	int i;

	if (x->nr_batch == RUN_BATCH && !x->error) {
		for (i = 0; i < RUN_BATCH; i++)
			bind_run(x, st, 1 + i * RUN_COLUMNS, &x->batch[i]);
		step(x, st);
	} else {
		st = x->st[ST_RUN];
		for (i = 0; i < x->nr_batch && !x->error; i++) {
			bind_run(x, st, 1, &x->batch[i]);
			step(x, st);
		}
	}
	x->nr_batch = 0;
}

/*
 * The longest antagonist of the wait of @b, for the run's row: asked of
 * the pass's history of runs as the run the wait ended with is told,
 * when every run of that CPU before it has been told (and none after).
 */
static void wait_behind(struct sp_export *x, struct run_row *b)
{
	uint64_t total_ns;
	size_t nr;

	if (!x->behind)
		return;
	sp_antagonists_of_wait(x->behind->hist, &b->wait, &b->behind, 1, &nr, &total_ns);
	if (x->behind->hist->error && !x->error) {
		x->error = -ENOMEM;
		snprintf(x->error_msg, sizeof(x->error_msg),
			 "out of memory keeping who the tasks waited behind");
	}
}

/*
 * A run: into the batch, with the wait it ended; and the task's name
 * when it changed (task_names).
 */
static void on_run(void *data, const struct sp_run *r)
{
	struct sp_export *x = data;
	const struct sp_model *m = &x->t->model;
	struct run_row *b = &x->batch[x->nr_batch];
	struct task_row *row = NULL;

	if (x->error || (r->pid == 0 && !x->idle))
		return;
	b->run = *r;	/* end_state is the decoder's: valid while the reader is open */
	snprintf(b->comm, sizeof(b->comm), "%s", r->start_comm ? sp_model_str(m, r->start_comm) :
		 sp_scope_comm(&x->scope, r->pid));
	b->has_wait = false;
	if (r->pid != 0)
		row = task_row(x, r->pid);
	if (row && r->start_comm && row->comm != r->start_comm) {
		sqlite3_stmt *st = x->st[ST_NAME];

		row->comm = r->start_comm;
		sqlite3_bind_int64(st, 1, x->trace_id);
		sqlite3_bind_int64(st, 2, r->pid);
		bind_text(st, 3, b->comm);
		bind_ts(st, 4, r->start_ns);
		step(x, st);
	}
	/* the wait that ended as it began: the task's last, or one before */
	b->behind = (struct sp_behind){ -1, 0 };
	if (row && row->has_wait && wait_of_run(&row->wait, r)) {
		b->wait = row->wait;
		b->has_wait = true;
		row->has_wait = false;
	}
	for (int i = 0; row && !b->has_wait && i < x->nr_earlier; i++) {
		if (!wait_of_run(&x->earlier[i], r))
			continue;
		b->wait = x->earlier[i];
		b->has_wait = true;
		memmove(x->earlier + i, x->earlier + i + 1,
			(size_t)(--x->nr_earlier - i) * sizeof(*x->earlier));
	}
	if (b->has_wait)
		wait_behind(x, b);
	if (++x->nr_batch == RUN_BATCH)
		flush_runs(x);
}

static void on_steps(void *data, const struct sp_step *steps, size_t n)
{
	struct sp_export *x = data;

	sp_stats_steps(&x->stats, steps, n);
}

static void on_migration(void *data, uint64_t ts_ns, int pid, int from_cpu, int to_cpu)
{
	struct sp_export *x = data;
	sqlite3_stmt *st = x->st[ST_MIGRATION];
	enum sp_mig_class c;
	bool cross = false;

	c = sp_migrations_add(&x->marks.mig, ts_ns, pid, from_cpu, to_cpu, &cross);
	if (x->error)
		return;
	sqlite3_bind_int64(st, 1, x->trace_id);
	bind_ts(st, 2, ts_ns);
	sqlite3_bind_int64(st, 3, pid);
	bind_text(st, 4, sp_scope_comm(&x->scope, pid));
	bind_known(st, 5, from_cpu);
	bind_known(st, 6, to_cpu);
	sqlite3_bind_text(st, 7, sp_mig_class_name(c), -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 8, cross);
	step(x, st);
}

static const char *const POWER_KIND[SP_POWER_NR_KINDS] = {
	[SP_POWER_FREQ] = "freq",
	[SP_POWER_IDLE] = "idle",
};

/* A CPU's power state held over [since, @end_ns): its row. */
static void power_row(struct sp_export *x, int kind, int cpu, uint64_t end_ns)
{
	struct power_now *p = &x->power[kind][cpu];
	sqlite3_stmt *st = x->st[ST_POWER];

	if (p->since_ns == SP_NO_TS || x->error)
		return;
	sqlite3_bind_int64(st, 1, x->trace_id);
	sqlite3_bind_int64(st, 2, cpu);
	sqlite3_bind_text(st, 3, POWER_KIND[kind], -1, SQLITE_STATIC);
	bind_ts(st, 4, p->since_ns);
	bind_ts(st, 5, end_ns);
	sqlite3_bind_int64(st, 6, p->value);
	step(x, st);
}

/*
 * The events asked for by name: the power events (state, cpu_id; the
 * CPU they name, which need not be the one they fired on, model/power.h),
 * trace_marker texts, and the NUMA balancing records the migration
 * classes need.
 */
static void on_extra(void *data, const struct sp_event *ev)
{
	struct sp_export *x = data;
	int k;

	sp_migrations_extra(&x->marks.mig, ev);
	for (k = 0; k < SP_POWER_NR_KINDS; k++) {
		uint64_t cpu, state;

		if (x->power_req[k] < 0 || ev->extra != x->power_req[k])
			continue;
		state = ev->values[0].u64;
		cpu = ev->values[1].u64;
		if (cpu >= (uint64_t)x->t->nr_cpus)
			return;
		power_row(x, k, (int)cpu, ev->ts_ns);
		x->power[k][cpu].since_ns = ev->ts_ns;
		x->power[k][cpu].value = k == SP_POWER_IDLE && state == SP_POWER_IDLE_EXIT ?
					 -1 : (int64_t)state;
		return;
	}
	if (x->print_req >= 0 && ev->extra == x->print_req && ev->values[0].str && !x->error) {
		sqlite3_stmt *st = x->st[ST_MARK];
		const char *text = ev->values[0].str;
		size_t len = strlen(text);

		while (len && (text[len - 1] == '\n' || text[len - 1] == ' '))
			len--;
		sqlite3_bind_int64(st, 1, x->trace_id);
		bind_ts(st, 2, ev->ts_ns);
		sqlite3_bind_int64(st, 3, ev->cpu);
		sqlite3_bind_int64(st, 4, ev->common_pid);
		sqlite3_bind_text(st, 5, text, (int)len, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 6, "trace_marker", -1, SQLITE_STATIC);
		step(x, st);
	}
}

static void power_forget(struct sp_export *x)
{
	int k, c;

	for (k = 0; k < SP_POWER_NR_KINDS; k++)
		for (c = 0; x->power[k] && c < x->t->nr_cpus; c++)
			x->power[k][c].since_ns = SP_NO_TS;
}

static void tasks_forget(struct sp_export *x)
{
	size_t i;

	for (i = 0; i < x->alloc_tasks; i++) {
		x->tasks[i].comm = 0;
		x->tasks[i].has_wait = false;
	}
	x->nr_earlier = 0;
}

/* The pass starts again: the rows of the first go. */
static void on_reset(void *data)
{
	struct sp_export *x = data;
	char sql[96];
	size_t i;

	x->nr_batch = 0;
	sp_stats_reset(&x->stats);
	sp_migrations_reset(&x->marks.mig);
	power_forget(x);
	tasks_forget(x);
	for (i = 0; i < sizeof(ROW_TABLES) / sizeof(ROW_TABLES[0]) && !x->error; i++) {
		snprintf(sql, sizeof(sql), "DELETE FROM %s WHERE trace_id = %lld", ROW_TABLES[i],
			 (long long)x->trace_id);
		if (sqlite3_exec(x->db, sql, NULL, NULL, NULL) != SQLITE_OK) {
			x->error = -EIO;
			snprintf(x->error_msg, sizeof(x->error_msg),
				 "cannot start the trace's rows again: %s", sqlite3_errmsg(x->db));
		}
	}
}

/* A field's value of a watched record: text, or an integer (as trace-cmd report prints it). */
static void bind_value(sqlite3_stmt *st, int i, const union sp_value *v, int kind)
{
	if (kind == SP_VALUE_STR)
		sqlite3_bind_text(st, i, v->str ? v->str : "", -1, SQLITE_TRANSIENT);
	else if (kind == SP_VALUE_S64)
		sqlite3_bind_int64(st, i, v->s64);
	else if (v->u64 > INT64_MAX)
		sqlite3_bind_double(st, i, (double)v->u64);
	else
		sqlite3_bind_int64(st, i, (int64_t)v->u64);
}

/*
 * A record of a --mark: a row of marks, named as the definition is, with
 * the value of its label=FIELD as its text.
 */
static void on_mark(void *data, int mark, const struct sp_event *ev)
{
	struct sp_export *x = data;
	const struct sp_span_mark *mk = &x->spans->marks[mark];
	sqlite3_stmt *st = x->st[ST_MARK];

	if (x->error)
		return;
	sqlite3_bind_int64(st, 1, x->trace_id);
	bind_ts(st, 2, ev->ts_ns);
	sqlite3_bind_int64(st, 3, ev->cpu);
	sqlite3_bind_int64(st, 4, ev->common_pid);
	if (mk->has_label)
		bind_value(st, 5, &ev->watch_values[mk->watch][0], mk->label_kind);
	else
		sqlite3_bind_null(st, 5);
	bind_text(st, 6, mk->name);
	step(x, st);
}

/* A span of a --span that ended, with the values of its key. */
static void on_span(void *data, int kind, uint64_t t0_ns, uint64_t t1_ns, int cpu, int pid,
		    const union sp_value *key)
{
	struct sp_export *x = data;
	const struct sp_span_kind *k = &x->spans->kinds[kind];
	sqlite3_stmt *st = x->st[ST_SPAN];
	int i;

	if (x->error)
		return;
	sqlite3_bind_int64(st, 1, x->trace_id);
	bind_text(st, 2, k->name);
	bind_ts(st, 3, t0_ns);
	bind_ts(st, 4, t1_ns);
	sqlite3_bind_int64(st, 5, (int64_t)(t1_ns - t0_ns));
	bind_known(st, 6, cpu);
	bind_known(st, 7, pid);
	for (i = 0; i < SP_SPANS_MAX_KEYS; i++) {
		if (i < k->nr_keys)
			bind_value(st, 8 + i, &key[i], k->end_kind[i]);
		else
			sqlite3_bind_null(st, 8 + i);
	}
	step(x, st);
}

void sp_export_observer(struct sp_export *x, struct sp_model_observer *obs)
{
	*obs = SP_MODEL_OBSERVER(x, .run_info = on_run, .wait = on_wait, .steps = on_steps,
				 .migration = on_migration, .extra = on_extra, .reset = on_reset);
}

/* ---- one trace ---- */

/* Field @n (from 0) of a uname, "sysname nodename release machine", into @buf. */
static const char *uname_field(const char *uname, int n, char *buf, size_t size)
{
	const char *p = uname;
	size_t len;

	while (n--) {
		p += strcspn(p, " ");
		p += strspn(p, " ");
	}
	len = strcspn(p, " ");
	if (!len)
		return NULL;
	if (len >= size)
		len = size - 1;
	memcpy(buf, p, len);
	buf[len] = '\0';
	return buf;
}

static void release_trace(struct sp_export *x)
{
	int k;

	sp_marks_release(&x->marks);
	sp_stats_release(&x->stats);
	for (k = 0; k < SP_POWER_NR_KINDS; k++) {
		free(x->power[k]);
		x->power[k] = NULL;
	}
	free(x->tasks);
	x->tasks = NULL;
	x->alloc_tasks = 0;
	x->t = NULL;
	x->spans = NULL;
	x->behind = NULL;
}

/* Ask for the power and trace_marker events, where the trace has them. */
static int request_events(struct sp_export *x, struct sp_trace *t, struct sp_error *err)
{
	static const char *const print_fields[] = { "buf" };
	struct sp_power p;
	struct sp_error e;
	int k, ret;

	memset(&p, 0, sizeof(p));
	ret = sp_power_init(&p, t->nr_cpus, 0, 0);
	if (!ret)
		ret = sp_power_request(&p, t->reader, true, true, err);
	for (k = 0; k < SP_POWER_NR_KINDS; k++) {
		x->power_req[k] = ret ? -1 : p.request[k];
		if (x->power_req[k] < 0)
			continue;
		x->power[k] = calloc((size_t)t->nr_cpus, sizeof(*x->power[k]));
		if (!x->power[k])
			ret = -ENOMEM;
	}
	sp_power_release(&p);
	if (ret)
		return ret == -ENOMEM ? sp_error_set(err, -ENOMEM, -1, "out of memory") : ret;
	power_forget(x);
	/* not an error when the trace has none */
	sp_error_clear(&e);
	x->print_req = sp_reader_request_event(t->reader, "ftrace:print", print_fields, 1, &e);
	return 0;
}

int sp_export_begin(struct sp_export *x, struct sp_trace *t, const char *name,
		    struct sp_waited_behind *behind, struct sp_spans *spans, struct sp_error *err)
{
	sqlite3_stmt *st = x->st[ST_TRACE];
	const char *uname = sp_reader_uname(t->reader);
	char host[128], kernel[128], machine[64], clock[64], *path;
	const struct sp_container_info *info = sp_reader_file_info(t->reader);
	struct sp_scope all;
	struct stat sb;
	int ret;

	x->error = 0;
	x->nr_batch = 0;
	x->nr_earlier = 0;
	x->t = t;
	x->behind = behind;
	x->spans = spans;
	if (spans) {
		spans->on_span = on_span;
		spans->on_mark = on_mark;
		spans->hook_data = x;
	}
	/* every repair and gap, for the repairs and lost_events tables */
	t->keep_notes = SIZE_MAX;
	sp_scope_init(&all, 0, UINT64_MAX);
	all.model = &t->model;
	all.reader = t->reader;
	x->scope = all;
	sp_stats_init(&x->stats, t->window_start_ns, t->end_ns, t->nr_cpus);
	ret = sp_marks_init(&x->marks, t, t->has_topology ? &t->topology : NULL, &all);
	if (ret) {
		sp_error_set(err, ret, -1, "out of memory");
		goto fail;
	}
	ret = request_events(x, t, err);
	if (ret)
		goto fail;
	ret = exec(x, x->create ? "BEGIN" : "BEGIN IMMEDIATE", err, NULL);
	if (ret)
		goto fail;
	x->in_trace = true;

	path = realpath(t->path, NULL);
	sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
	bind_text(st, 2, path);
	if (!stat(t->path, &sb)) {
		sqlite3_bind_int64(st, 3, sb.st_size);
		sqlite3_bind_int64(st, 4, (int64_t)sb.st_mtim.tv_sec * 1000000000 +
				   sb.st_mtim.tv_nsec);
	} else {
		sqlite3_bind_null(st, 3);
		sqlite3_bind_null(st, 4);
	}
	bind_text(st, 5, *uname ? uname : NULL);
	bind_text(st, 6, uname_field(uname, 1, host, sizeof(host)));
	bind_text(st, 7, uname_field(uname, 2, kernel, sizeof(kernel)));
	bind_text(st, 8, uname_field(uname, 3, machine, sizeof(machine)));
	sp_reader_clock(t->reader, clock, sizeof(clock));
	bind_text(st, 9, *clock ? clock : NULL);
	bind_known(st, 10, info->version ? info->version : -1);
	bind_text(st, 11, info->compression[0] ? info->compression : NULL);
	sqlite3_bind_int64(st, 12, t->nr_cpus);
	bind_ts(st, 13, t->first_ns);
	bind_ts(st, 14, t->window_start_ns);
	bind_ts(st, 15, t->end_ns);
	bind_text(st, 16, t->has_topology ? "schedplot record" : NULL);
	sqlite3_bind_int64(st, 17, x->idle);
	step(x, st);
	free(path);
	if (x->error) {
		ret = sp_error_set(err, x->error, -1, "%s", x->error_msg);
		goto fail;
	}
	x->trace_id = sqlite3_last_insert_rowid(x->db);
	return 0;
fail:
	sp_export_abort(x);
	return ret;
}

static void insert_cpus(struct sp_export *x)
{
	const struct sp_trace *t = x->t;
	const struct sp_model *m = &t->model;
	sqlite3_stmt *st = x->st[ST_CPU];
	uint64_t first, last;
	int c;

	for (c = 0; c < t->nr_cpus && !x->error; c++) {
		bool has = !sp_reader_cpu_span(t->reader, c, &first, &last);

		sqlite3_bind_int64(st, 1, x->trace_id);
		sqlite3_bind_int64(st, 2, c);
		bind_ts(st, 3, has ? first : SP_NO_TS);
		bind_ts(st, 4, has ? last : SP_NO_TS);
		bind_ts(st, 5, t->start_ns[c]);
		sqlite3_bind_int64(st, 6, sp_reader_cpu_lossless(t->reader, c));
		sqlite3_bind_int64(st, 7, (int64_t)m->cpus[c].busy_ns);
		sqlite3_bind_int64(st, 8, (int64_t)m->cpus[c].nr_records);
		sqlite3_bind_int64(st, 9, (int64_t)m->cpus[c].nr_switches);
		sqlite3_bind_int64(st, 10, (int64_t)sp_reader_lost_events(t->reader, c));
		sqlite3_bind_int64(st, 11, sp_reader_lost_exact(t->reader, c));
		bind_known(st, 12, t->has_topology ? sp_topology_socket(&t->topology, c) : -1);
		bind_known(st, 13, t->has_topology && c < t->topology.nr_cpus ?
				   t->topology.core[c] : -1);
		bind_known(st, 14, t->has_topology && c < t->topology.nr_cpus ?
				   t->topology.node[c] : -1);
		step(x, st);
	}
}

static void insert_tasks(struct sp_export *x)
{
	const struct sp_model *m = &x->t->model;
	sqlite3_stmt *st = x->st[ST_TASK];
	size_t i;

	for (i = 0; i < m->tasks.nr && !x->error; i++) {
		const struct sp_task *task = &m->tasks.v[i];

		sqlite3_bind_int64(st, 1, x->trace_id);
		sqlite3_bind_int64(st, 2, task->pid);
		sqlite3_bind_int64(st, 3, sp_model_tgid(m, task->pid));
		bind_known(st, 4, task->ppid);
		bind_text(st, 5, sp_scope_comm(&x->scope, task->pid));
		sqlite3_bind_int64(st, 6, (int64_t)task->run_ns);
		sqlite3_bind_int64(st, 7, (int64_t)task->wait_ns);
		sqlite3_bind_int64(st, 8, (int64_t)task->wakeups);
		sqlite3_bind_int64(st, 9, (int64_t)task->migrations);
		step(x, st);
	}
}

static void insert_repairs_lost(struct sp_export *x)
{
	const struct sp_model *m = &x->t->model;
	const struct sp_lost_note *lost;
	sqlite3_stmt *st = x->st[ST_REPAIR];
	uint64_t nr_gaps;
	size_t i, nr;

	for (i = 0; i < m->nr_repair_notes && !x->error; i++) {
		const struct sp_repair_note *n = &m->repair_notes[i];

		sqlite3_bind_int64(st, 1, x->trace_id);
		sqlite3_bind_text(st, 2, sp_repair_name(n->kind), -1, SQLITE_STATIC);
		bind_known(st, 3, n->cpu);
		bind_ts(st, 4, n->ts_ns);
		bind_known(st, 5, n->pid);
		step(x, st);
	}
	st = x->st[ST_LOST];
	lost = sp_reader_lost_notes(x->t->reader, &nr, &nr_gaps);
	for (i = 0; lost && i < nr && !x->error; i++) {
		sqlite3_bind_int64(st, 1, x->trace_id);
		sqlite3_bind_int64(st, 2, lost[i].cpu);
		bind_ts(st, 3, lost[i].ts_ns);
		bind_known(st, 4, lost[i].count);
		step(x, st);
	}
}

/* A sum of the table of waited_behind: a row of antagonists (not a waiter's total). */
static void behind_row(void *data, int waiter, int antagonist, uint64_t ns)
{
	struct sp_export *x = data;
	sqlite3_stmt *st = x->st[ST_BEHIND];

	if (antagonist == SP_BEHIND_TOTAL || x->error)
		return;
	sqlite3_bind_int64(st, 1, x->trace_id);
	sqlite3_bind_int64(st, 2, waiter);
	sqlite3_bind_int64(st, 3, antagonist);
	sqlite3_bind_int64(st, 4, (int64_t)ns);
	step(x, st);
}

static void insert_behind(struct sp_export *x)
{
	if (!x->behind || x->error)
		return;
	if (x->behind->table.error || x->behind->hist->error) {
		x->error = -ENOMEM;
		snprintf(x->error_msg, sizeof(x->error_msg),
			 "out of memory keeping who the tasks waited behind");
		return;
	}
	sp_behind_table_each(&x->behind->table, behind_row, x);
}

static void update_trace(struct sp_export *x)
{
	const struct sp_trace *t = x->t;
	const struct sp_model *m = &t->model;
	const struct sp_stats *s = &x->stats;
	sqlite3_stmt *st = x->st[ST_TRACE_END];
	uint64_t lost = 0;
	int c;

	for (c = 0; c < t->nr_cpus; c++)
		lost += sp_reader_lost_events(t->reader, c);
	sqlite3_bind_int64(st, 1, (int64_t)m->nr_records);
	sqlite3_bind_int64(st, 2, (int64_t)m->nr_sched_records);
	sqlite3_bind_text(st, 3, m->wakeup_from_waking ? "sched_waking" : "sched_wakeup", -1,
			  SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, (int64_t)sp_model_nr_repairs(m));
	sqlite3_bind_int64(st, 5, (int64_t)lost);
	sqlite3_bind_int64(st, 6, (int64_t)m->nr_waits_open);
	sqlite3_bind_double(st, 7, sp_stats_running_avg(s));
	sqlite3_bind_double(st, 8, sp_stats_waiting_avg(s));
	sqlite3_bind_int64(st, 9, s->running_max);
	sqlite3_bind_int64(st, 10, s->waiting_max);
	sqlite3_bind_int64(st, 11, (int64_t)s->idle_while_waiting_ns);
	sqlite3_bind_int64(st, 12, (int64_t)s->lost_cpu_ns);
	sqlite3_bind_int64(st, 13, x->trace_id);
	step(x, st);
}

int sp_export_end(struct sp_export *x, struct sp_error *err)
{
	int k, c, ret;

	if (!x->in_trace)
		return sp_error_set(err, -EINVAL, -1, "no trace begun");
	flush_runs(x);
	sp_stats_finish(&x->stats);
	/* the last power states hold until the end of the trace */
	for (k = 0; k < SP_POWER_NR_KINDS; k++)
		for (c = 0; x->power[k] && c < x->t->nr_cpus; c++)
			power_row(x, k, c, x->t->end_ns);
	insert_cpus(x);
	insert_tasks(x);
	insert_repairs_lost(x);
	insert_behind(x);
	update_trace(x);
	if (x->error) {
		ret = sp_error_set(err, x->error, -1, "%s", x->error_msg);
		sp_export_abort(x);
		return ret;
	}
	ret = exec(x, "COMMIT", err, NULL);
	if (ret) {
		sp_export_abort(x);
		return ret;
	}
	x->in_trace = false;
	release_trace(x);
	return 0;
}

void sp_export_abort(struct sp_export *x)
{
	if (x->in_trace)
		sqlite3_exec(x->db, "ROLLBACK", NULL, NULL, NULL);
	x->in_trace = false;
	if (x->t)
		release_trace(x);
}

int sp_export_close(struct sp_export *x, bool ok, struct sp_error *err)
{
	int ret = 0, rc, i;

	if (!x)
		return 0;
	sp_export_abort(x);
	if (ok && x->create)
		ret = exec(x, INDICES, err, "cannot make the indices");
	if (ok && !ret)
		ret = exec(x, "PRAGMA optimize", err, NULL);
	for (i = 0; i < ST_NR; i++)
		sqlite3_finalize(x->st[i]);
	rc = sqlite3_close(x->db);
	if (rc != SQLITE_OK && !ret)
		ret = sp_error_set(err, -EIO, -1, "cannot close the database: %s",
				   sqlite3_errstr(rc));
	free(x);
	return ret;
}
