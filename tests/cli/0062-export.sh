#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# schedplot export: the SQLite database holds what stats --json and runs
# say, summed and counted with SQL (tests/oracle/export-agrees.py: also
# who each wait waited behind, the sleeps by state and their wakers), for
# every bundled and shared trace, in one file with --append; the keys of
# spans and the labels of marks as trace-cmd report shows them; the
# schema's version, and a database of another version refused; the
# example queries of the man page; and the failures that must leave the
# database as it was: a bad trace, a trace that fails in the middle of its
# pass, a file that is not a database, a full disk, a killed export.
. "$(dirname "$0")/../lib/lib.sh"

command -v python3 >/dev/null || { skip "python3 is needed to read the database"; exit 0; }
python3 -c 'import sqlite3' 2>/dev/null || { skip "python3 has no sqlite3 module"; exit 0; }

# sql DB QUERY: the rows, '|' between columns (python3's sqlite3; opening a
# database after a crash rolls its journal back, as any client does)
sql() {
	python3 - "$1" "$2" <<'EOF'
import sqlite3, sys
db = sqlite3.connect("file:%s?mode=rw" % sys.argv[1], uri=True)
for row in db.execute(sys.argv[2]):
    print("|".join("" if v is None else str(v) for v in row))
EOF
}

# marks_of TRACE: its ftrace:print records, as trace-cmd report counts them
marks_of() {
	if command -v trace-cmd >/dev/null 2>&1; then
		trace-cmd report "$1" 2>/dev/null | grep -c ' print: ' || true
	fi
}

sum() { sha256sum "$1" | cut -d' ' -f1; }

traces=()
for f in "$TRACES"/*.dat "$TRACES"/*/*.dat "$SHARED"/*.dat; do
	case $f in */unusable/*) continue ;; esac
	[ -f "$f" ] && traces+=("$f")
done

# ---- every trace: one database, the first two new, the rest appended ----
db=$TMP/all.db
run "$SCHEDPLOT" export -q -o "$db" "${traces[0]}" "${traces[1]}"
expect_status 0 "export of two traces to a new database"
check "nothing on stdout or stderr" test ! -s "$OUT" -a ! -s "$ERR"
run "$SCHEDPLOT" export -q --append -o "$db" "${traces[@]:2}"
expect_status 0 "export --append of the other ${#traces[@]} traces"
id=0
for f in "${traces[@]}"; do
	id=$((id + 1))
	"$SCHEDPLOT" stats -q --json "$f" >"$TMP/stats.json"
	"$SCHEDPLOT" runs -q --json "$f" >"$TMP/runs.json"
	got=$(sql "$db" "SELECT file FROM traces WHERE trace_id = $id")
	check "trace_id $id is $(basename "$f")" test "$got" = "$f"
	python3 "$SRCDIR/tests/oracle/export-agrees.py" "$db" "$id" "$TMP/stats.json" \
		"$TMP/runs.json" $(marks_of "$f")
done
check "one row per trace" test "$(sql "$db" "SELECT count(*) FROM traces")" = "${#traces[@]}"

# the idle task's runs with --idle, as runs --idle writes them
f=$TRACES/overload.dat
run "$SCHEDPLOT" export -q --idle -o "$TMP/idle.db" "$f"
expect_status 0 "export --idle"
"$SCHEDPLOT" stats -q --json "$f" >"$TMP/stats.json"
"$SCHEDPLOT" runs -q --idle "$f" >"$TMP/runs.csv"
python3 "$SRCDIR/tests/oracle/export-agrees.py" "$TMP/idle.db" 1 "$TMP/stats.json" "$TMP/runs.csv"

# ---- sleeps: the same rule on the runs trace-cmd report shows ----
# (tests/oracle/report-stats.py --runs: every run from the report's text;
# a sleep from a run's switch-out in a state other than runnable to the
# start of the wait before the task's next run, in the order runs end)
if command -v trace-cmd >/dev/null 2>&1; then
	for name in overload messaging; do
		f=$TRACES/$name.dat
		id=$(sql "$db" "SELECT trace_id FROM traces WHERE file = '$f'")
		python3 "$SRCDIR/tests/oracle/report-stats.py" --runs "$f" 2>/dev/null >"$TMP/oracle.runs"
		python3 - "$TMP/oracle.runs" >"$TMP/oracle.sleeps" <<'EOF'
import sys
runs = {}
for line in open(sys.argv[1]):
    f = line.split()
    if f[0] == "open" or f[1] == "0":
        continue
    pid, start, end, how, wait = int(f[1]), int(f[2]), int(f[3]), f[4], int(f[5])
    runs.setdefault(pid, []).append((end, start, how, wait))
for pid, rs in runs.items():
    rs.sort()
    for (end, _, how, _), (_, start, _, wait) in zip(rs, rs[1:]):
        if how not in ("R", "R+", "repair", "end") and start - min(wait, start) >= end:
            print(pid, end, start - min(wait, start), how)
EOF
		sql "$db" "SELECT pid, start_ns, end_ns, state FROM sleeps WHERE trace_id = $id" |
			tr '|' ' ' | sort >"$TMP/sql.sleeps"
		sort -o "$TMP/oracle.sleeps" "$TMP/oracle.sleeps"
		if [ -s "$TMP/oracle.sleeps" ] && cmp -s "$TMP/oracle.sleeps" "$TMP/sql.sleeps"; then
			ok "$name.dat: the $(wc -l <"$TMP/sql.sleeps") sleeps are those of trace-cmd report's runs"
		else
			not_ok "$name.dat: sleeps differ from trace-cmd report's: $(diff "$TMP/oracle.sleeps" \
				"$TMP/sql.sleeps" | head -5)"
		fi
	done
else
	skip "no trace-cmd: sleeps not compared with its report"
fi

# ---- a generated trace: sched_waking as the wakeup (the pass made twice,
# the rows of the first dropped) and power events ----
gen=${GEN_TRACE:-$(dirname "$SCHEDPLOT")/tests/gen-trace}
if [ -x "$gen" ] && "$gen" --cpus 4 --events 50000 --waking --power --seed 5 \
	-o "$TMP/waking.dat" >/dev/null 2>&1; then
	run "$SCHEDPLOT" export -q -o "$TMP/waking.db" "$TMP/waking.dat"
	expect_status 0 "export of a trace read twice (sched_waking) with power events"
	"$SCHEDPLOT" stats -q --json "$TMP/waking.dat" >"$TMP/stats.json"
	"$SCHEDPLOT" runs -q "$TMP/waking.dat" >"$TMP/runs.csv"
	expect_grep "$TMP/stats.json" '"wakeup_event": "sched_waking"' "the generated trace's wakeup is sched_waking"
	python3 "$SRCDIR/tests/oracle/export-agrees.py" "$TMP/waking.db" 1 "$TMP/stats.json" \
		"$TMP/runs.csv"
else
	skip "no trace generator ($gen): the trace read twice"
fi

# ---- --mark and --span: their rows give stats' counts, totals, p99 ----
defs=(--mark 'sched:sched_process_exec' --mark 'sched:sched_waking/prio < 100/ label=comm'
      --span 'sched:sched_waking..sched:sched_wakeup key=pid,comm name=waking')
f=$TRACES/overload.dat
run "$SCHEDPLOT" export -q "${defs[@]}" -o "$TMP/spans.db" "$f"
expect_status 0 "export with --mark and --span"
"$SCHEDPLOT" stats -q --json "${defs[@]}" "$f" >"$TMP/stats.json"
python3 - "$TMP/spans.db" "$TMP/stats.json" <<'EOF'
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
st = json.load(open(sys.argv[2]))
def check(what, got, want):
    print("%s - %s: %s%s" % ("ok" if got == want else "not ok", what, got,
                             "" if got == want else ", stats says %s" % want))
for m in st["marks"]:
    check("marks named %s" % m["name"],
          db.execute("SELECT count(*) FROM marks WHERE name = ?", (m["name"],)).fetchone()[0],
          m["count"])
for s in st["spans"]:
    n, total, mx = db.execute("SELECT count(*), sum(dur_ns), max(dur_ns) FROM spans "
                              "WHERE name = ?", (s["name"],)).fetchone()
    p99 = db.execute("SELECT max(dur_ns) FROM (SELECT dur_ns, row_number() OVER "
                     "(ORDER BY dur_ns) AS rk FROM spans WHERE name = ?) "
                     "WHERE rk <= (99 * ? + 99) / 100", (s["name"], n)).fetchone()[0]
    check("spans named %s: count, total, p99, max" % s["name"], [n, total, p99, mx],
          [s["count"], s["total_ns"], s["p99_ns"], s["max_ns"]])
check("marks of trace_marker: none in this trace",
      db.execute("SELECT count(*) FROM marks WHERE name = 'trace_marker'").fetchone()[0], 0)
EOF
# each row's label and key: those of trace-cmd report's records
if command -v trace-cmd >/dev/null 2>&1; then
	python3 "$SRCDIR/tests/oracle/report-spans.py" --rows "$f" "${defs[@]:2}" \
		>"$TMP/oracle.rows" 2>"$TMP/oracle.err" || not_ok "report-spans.py: $(head -c 300 "$TMP/oracle.err")"
	grep '^mark-row ' "$TMP/oracle.rows" | cut -d' ' -f2- | sort >"$TMP/want.marks"
	sql "$TMP/spans.db" "SELECT ts_ns, text FROM marks WHERE name LIKE 'sched_waking:%'" |
		tr '|' ' ' | sort >"$TMP/got.marks"
	check "marks: the label=comm of each record is trace-cmd report's ($(wc -l <"$TMP/got.marks") rows)" \
		cmp -s "$TMP/want.marks" "$TMP/got.marks"
	grep '^span-row ' "$TMP/oracle.rows" | cut -d' ' -f2- | sort >"$TMP/want.spans"
	sql "$TMP/spans.db" "SELECT start_ns, end_ns, key1, key2 FROM spans WHERE name = 'waking'" |
		tr '|' ' ' | sort >"$TMP/got.spans"
	check "spans: each span's key (pid, comm) is trace-cmd report's ($(wc -l <"$TMP/got.spans") rows)" \
		cmp -s "$TMP/want.spans" "$TMP/got.spans"
	check "spans: key1 is an integer, key2 text" \
		test "$(sql "$TMP/spans.db" "SELECT DISTINCT typeof(key1), typeof(key2) FROM spans")" = "integer|text"
else
	skip "no trace-cmd: the labels and keys not compared with its report"
fi
run "$SCHEDPLOT" export -q --mark 'nosuch:event' -o "$TMP/nosuch.db" "$f"
expect_status 1 "--mark of an event the trace lacks"
check "no database is left" test ! -e "$TMP/nosuch.db"

# ---- the file says what it is ----
check "PRAGMA user_version is the schema version" \
	test "$(sql "$db" "PRAGMA user_version")" = 2
check "PRAGMA application_id says schedplot ('SPLT')" \
	test "$(sql "$db" "PRAGMA application_id")" = $((0x53504c54))
check "meta table: schema_version" \
	test "$(sql "$db" "SELECT value FROM meta WHERE key = 'schema_version'")" = 2
expect_grep <(sql "$db" "SELECT value FROM meta WHERE key = 'generator'") '^schedplot [0-9]' \
	"meta table: the version of schedplot that wrote it"
expect_grep <(sql "$db" "SELECT kernel, clock FROM traces WHERE file LIKE '%/overload.dat'") \
	'^6\.18\.44-fc-v782\|local$' "traces: the kernel and clock of the file's options"
expect_grep <(sql "$db" "EXPLAIN QUERY PLAN SELECT * FROM runs WHERE trace_id = 2 AND pid = 6868") \
	'USING INDEX runs_task' "runs of a task are found by the index runs_task"

# ---- the man page's example queries run, and agree with stats ----
page=$SRCDIR/man/schedplot-export.1
# example NAME: the SQL of the example after the line '.\" example: NAME'
# in the page (what stands between the double quotes of its command)
example() {
	sed -n "/^\\.\\\\\" example: $1\$/,/^\\.EE/p" "$page" | sed '1,3d;$d' |
		sed 's/\\-/-/g; s/\\(aq/'"'"'/g; s/\\(dq/"/g' | sed '1s/^[^"]*"//; $s/"$//'
}
p99=$(example p99)
if [ -z "$p99" ]; then
	not_ok "the man page has no 'p99' example query"
else
	if command -v sqlite3 >/dev/null 2>&1; then
		sqlite3 "$db" "$p99" >"$TMP/p99.cli" 2>"$ERR"
		check "the p99 example runs in the sqlite3 shell" test -s "$TMP/p99.cli" -a ! -s "$ERR"
	else
		skip "no sqlite3 shell (Debian package sqlite3)"
	fi
	# on one trace the p99 wakeup latency of all its tasks is stats'
	sql "$TMP/idle.db" "$(example p99-trace)" >"$TMP/p99"
	want=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["wakeup_latency_ns"]["p99"])' \
		"$TMP/stats.json")
	check "the p99-trace example gives stats' p99 wakeup latency ($want)" \
		grep -qx "1|$want" "$TMP/p99"
	sql "$db" "$p99" >"$TMP/p99"
	check "the p99 example: a row per command" test "$(wc -l <"$TMP/p99")" -gt 10
fi
# who held the CPU a command waited for: on one trace, what runs --json
# says of each run's wait (behind, behind_ns) and stats --by command of
# each command's waits (waited_behind)
f=$TRACES/warmup/cold-start.dat
"$SCHEDPLOT" export -q -o "$TMP/one.db" "$f"
"$SCHEDPLOT" runs -q --json "$f" >"$TMP/runs.json"
"$SCHEDPLOT" stats -q --json "$f" >"$TMP/stats.json"
"$SCHEDPLOT" stats -q --json --by command "$f" >"$TMP/stats-cmd.json"
for name in behind waited-behind sleeps-d; do
	if [ -z "$(example "$name")" ]; then
		not_ok "the man page has no '$name' example query"
	elif command -v sqlite3 >/dev/null 2>&1; then
		sqlite3 "$db" "$(example "$name")" >"$TMP/ex.cli" 2>"$ERR"
		check "the $name example runs in the sqlite3 shell" test -s "$TMP/ex.cli" -a ! -s "$ERR"
	fi
	sql "$TMP/one.db" "$(example "$name")" >"$TMP/ex.$name"
done
python3 - "$TMP/runs.json" "$TMP/stats.json" "$TMP/stats-cmd.json" "$TMP/ex.behind" \
	"$TMP/ex.waited-behind" "$TMP/ex.sleeps-d" "$TMP/one.db" <<'EOF'
import collections, json, sqlite3, sys
lines = open(sys.argv[1]).read().splitlines()
base = json.loads(lines[0])["start_ns"]
runs = [json.loads(line) for line in lines[1:]]
st = json.load(open(sys.argv[2]))
by_cmd = json.load(open(sys.argv[3]))
rows = lambda path: [line.split("|") for line in open(path).read().splitlines()]
def check(what, got, want):
    print("%s - %s%s" % ("ok" if got == want else "not ok", what,
                         "" if got == want else ": SQL gives %s, expected %s" % (got, want)))
# a wait is named as its task was named when it ended (the run's name,
# which runs --json does not write), its antagonist by its last name
comm = {t["pid"]: t["comm"] for t in st["tasks"]}
named = {(p, s): c for p, s, c in sqlite3.connect(sys.argv[7]).execute(
    "SELECT pid, start_ns, comm FROM runs")}
n, ns = collections.Counter(), collections.Counter()
for r in runs:
    if r["behind"] >= 0:
        k = (named[(r["pid"], base + r["start_ns"])], comm[r["behind"]])
        n[k] += 1
        ns[k] += r["behind_ns"]
top = {}
for (c, b) in sorted(n, key=lambda k: (k[0], -n[k], k[1])):
    top.setdefault(c, [c, b, str(n[(c, b)]), str(ns[(c, b)])])
check("the behind example: each command's most frequent antagonist, as runs --json says",
      sorted(rows(sys.argv[4])), sorted(top.values()))
got = collections.defaultdict(list)
for c, b, v in rows(sys.argv[5]):
    got[c].append({"comm": b, "ns": int(v)})
check("the waited-behind example: each command's five longest, as stats --by command says",
      {c["comm"]: got[c["comm"]][:5] for c in by_cmd["commands"]},
      {c["comm"]: c["waited_behind"]["top"] for c in by_cmd["commands"]})
# (a sleep is named as its task was when it began, stats' tasks by their
# last name: the sums over all commands are compared)
d = rows(sys.argv[6])
check("the sleeps-d example: D sleeps over its %d commands, count and time, as stats says"
      % len(d), [sum(int(r[1]) for r in d), sum(int(r[2]) for r in d)],
      [sum(t["sleeps"]["D"][k] for t in st["tasks"]) for k in ("count", "ns")])
EOF

# ---- refusals that leave the file as it was ----
before=$(sum "$db")
run "$SCHEDPLOT" export -q -o "$db" "$f"
expect_status 1 "export to an existing file without --append"
expect_stderr_line "all\.db: exists already: --append adds" "an existing file is named"
check "the database is unchanged" test "$(sum "$db")" = "$before"

echo 'not a database, just notes' >"$TMP/notes.db"
cp "$TMP/notes.db" "$TMP/notes.orig"
run "$SCHEDPLOT" export -q --append -o "$TMP/notes.db" "$f"
expect_status 1 "export --append to a file that is not a database"
expect_grep "$ERR" "notes\.db: not a SQLite database" "the message says it is not a database"
check "that file is unchanged" cmp -s "$TMP/notes.db" "$TMP/notes.orig"

python3 -c 'import sqlite3,sys; d=sqlite3.connect(sys.argv[1]); d.execute("CREATE TABLE runs (x)"); d.commit()' \
	"$TMP/other.db"
before=$(sum "$TMP/other.db")
run "$SCHEDPLOT" export -q --append -o "$TMP/other.db" "$f"
expect_status 1 "export --append to another program's database"
expect_grep "$ERR" "other\.db: a SQLite database schedplot did not write" "the message says whose it is not"
check "that database is unchanged" test "$(sum "$TMP/other.db")" = "$before"

# a database of schema version 1 (before the antagonists, sleeps' classes
# and span keys), and one of a newer version: refused, unchanged
for v in 1 3; do
	python3 - "$TMP/v$v.db" "$v" <<'EOF'
import sqlite3, sys
d = sqlite3.connect(sys.argv[1])
d.executescript("PRAGMA application_id = %d; PRAGMA user_version = %d;"
                "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;"
                "INSERT INTO meta VALUES ('schema_version', '%s');"
                "CREATE TABLE traces (trace_id INTEGER PRIMARY KEY, file TEXT, path TEXT);"
                % (0x53504c54, int(sys.argv[2]), sys.argv[2]))
d.commit()
EOF
	before=$(sum "$TMP/v$v.db")
	run "$SCHEDPLOT" export -q --append -o "$TMP/v$v.db" "$f"
	expect_status 1 "export --append to a database of schema version $v"
	check "that database is unchanged" test "$(sum "$TMP/v$v.db")" = "$before"
done
expect_grep "$ERR" "v3\.db: a database of schema version 3, made by a newer schedplot; this one writes version 2: add to it with that schedplot" \
	"version 3: the message says a newer schedplot made it"
run "$SCHEDPLOT" export -q --append -o "$TMP/v1.db" "$f"
expect_stderr_line "v1\.db: a database of schema version 1, made by an older schedplot; this one writes version 2 and does not mix them: export to a new file \\(the traces in this one: SELECT path FROM traces\\)" \
	"version 1: the message says what to do"

: >"$TMP/empty.db"
run "$SCHEDPLOT" export -q --append -o "$TMP/empty.db" "$f"
expect_status 0 "export --append to an empty file makes the database in it"

run "$SCHEDPLOT" export -q --append -o "$f" "$f"
expect_status 2 "the database would be the trace"
run "$SCHEDPLOT" export -q "$f"
expect_status 2 "no -o"
run "$SCHEDPLOT" export -q -o - "$f"
expect_status 2 "-o - (a database is a file)"

# ---- a bad trace: nothing of it, the traces before it kept ----
before=$(sum "$db")
nr=$(sql "$db" "SELECT count(*) FROM traces")
run "$SCHEDPLOT" export -q --append -o "$db" "$TRACES/unusable/no-sched.dat"
expect_status 1 "a trace without sched events fails at the end of its pass"
check "the database is unchanged after it" test "$(sum "$db")" = "$before"
run "$SCHEDPLOT" export -q -o "$TMP/new.db" "$f" "$TRACES/unusable/no-sched.dat"
expect_status 1 "a new database with a bad trace among good ones"
check "no file is left, and no temporary one" test -z "$(ls -A "$TMP" | grep 'new\.db')"

# every broken trace of tests/tools/broken.py that fails: the database as it was
mkdir -p "$TMP/broken"
python3 "$SRCDIR/tests/tools/broken.py" "$TRACES/overload-v6.dat" "$TRACES/overload.dat" \
	"$TMP/broken" >"$TMP/broken.list" 2>/dev/null
nr_failed=0 nr_changed=0
while read -r name expect _; do
	[ "$expect" = 1 ] || continue
	"$SCHEDPLOT" export -q --append -o "$db" "$TMP/broken/$name.dat" >/dev/null 2>"$ERR" &&
		continue
	nr_failed=$((nr_failed + 1))
	[ "$(sum "$db")" = "$before" ] || nr_changed=$((nr_changed + 1))
	[ "$(wc -l <"$ERR")" -le 2 ] || not_ok "broken $name: more than two lines: $(head -c 300 "$ERR")"
done <"$TMP/broken.list"
check "$nr_failed broken traces refused, the database unchanged by each ($nr_changed changed)" \
	test "$nr_failed" -gt 10 -a "$nr_changed" = 0
check "the traces before are still there" test "$(sql "$db" "SELECT count(*) FROM traces")" = "$nr"

# ---- a full disk: a small tmpfs ----
mnt=$TMP/full
mkdir -p "$mnt"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=1m tmpfs "$mnt" 2>/dev/null; then
	"$SCHEDPLOT" export -q -o "$mnt/a.db" "$TRACES/overflow.dat"
	before=$(sum "$mnt/a.db")
	run "$SCHEDPLOT" export -q --append -o "$mnt/a.db" "$TRACES/messaging.dat"
	expect_status 1 "--append on a full disk"
	expect_grep "$ERR" "a\.db: cannot add '.*messaging\.dat': database or disk is full" \
		"the message says the disk is full"
	check "the database is unchanged" test "$(sum "$mnt/a.db")" = "$before"
	check "no journal is left" test ! -e "$mnt/a.db-journal"
	run "$SCHEDPLOT" export -q -o "$mnt/b.db" "$TRACES/messaging.dat"
	expect_status 1 "a new database on a full disk"
	check "nothing of it is left" test "$(ls -A "$mnt")" = a.db
	umount "$mnt"
else
	skip "cannot mount a small tmpfs here (needs root): the full-disk checks"
fi

# ---- killed while it adds a trace: the database as it was ----
big=$TMP/big.dat
gen=${GEN_TRACE:-$(dirname "$SCHEDPLOT")/tests/gen-trace}
if [ -x "$gen" ] && "$gen" --cpus 4 --events 400000 --seconds 4 -o "$big" >/dev/null 2>&1; then
	cp "$TMP/idle.db" "$TMP/kill.db"
	before=$(sum "$TMP/kill.db")
	"$SCHEDPLOT" export -q --append -o "$TMP/kill.db" "$big" &
	pid=$!
	# kill it once the transaction is under way (its journal exists)
	for _ in $(seq 200); do
		[ -e "$TMP/kill.db-journal" ] && break
		sleep 0.01
	done
	kill -9 "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	check "killed in the middle of the trace (its journal was there)" test -e "$TMP/kill.db-journal"
	check "killed: the database still holds its one trace" \
		test "$(sql "$TMP/kill.db" "SELECT count(*) FROM traces")" = 1
	check "killed: integrity_check ok" test "$(sql "$TMP/kill.db" "PRAGMA integrity_check")" = ok
	check "killed: the runs of the trace that was being added are not there" \
		test "$(sql "$TMP/kill.db" "SELECT count(DISTINCT trace_id) FROM runs")" = 1
	run "$SCHEDPLOT" export -q --append -o "$TMP/kill.db" "$big"
	expect_status 0 "the same trace added after the kill"
	check "it is trace_id 2" test "$(sql "$TMP/kill.db" "SELECT max(trace_id) FROM traces")" = 2
else
	skip "no trace generator ($gen): the kill check"
fi
