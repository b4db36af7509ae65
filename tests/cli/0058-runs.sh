#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# schedplot runs: every run equals an independent reading of `trace-cmd
# report` (tests/oracle/report-stats.py --runs: CPU, start, end, pid, how
# it ended, the wait before it, its waker, the previous CPU); per task, the run lengths add up to
# stats' run_ns and the waits to stats' wait_ns (tasks whose last wait is
# still open at the end left out); the options, -o and the errors.
. "$(dirname "$0")/../lib/lib.sh"

# runs CSV on stdin -> "cpu pid start end state wait waker prev_cpu" (absolute ns), sorted
to_lines() {
	python3 -c '
import csv, sys
lines = sys.stdin.read().splitlines()
assert lines[0].startswith("# start_ns="), lines[0]
base = int(lines[0].split("=")[1])
for r in csv.DictReader(lines[1:]):
    print(r["cpu"], r["pid"], base + int(r["start_ns"]), base + int(r["end_ns"]),
          r["end_state"], r["wait_ns"], r["woken_by"], r["prev_cpu"])
' | LC_ALL=C sort
}

# the sums per task of a runs CSV agree with stats --json
sums_agree() {
	python3 - "$1" "$2" "$3" <<'EOF'
import csv, json, sys
runs, stats, oracle = sys.argv[1:]
lines = open(runs).read().splitlines()
run_ns, wait_ns = {}, {}
for r in csv.DictReader(lines[1:]):
    pid = int(r["pid"])
    run_ns[pid] = run_ns.get(pid, 0) + int(r["end_ns"]) - int(r["start_ns"])
    wait_ns[pid] = wait_ns.get(pid, 0) + int(r["wait_ns"])
open_pids = {int(l.split()[1]) for l in open(oracle) if l.startswith("open ")}
bad = []
for t in json.load(open(stats))["tasks"]:
    pid = t["pid"]
    if t["run_ns"] != run_ns.get(pid, 0):
        bad.append("pid %d run_ns %d != %d" % (pid, t["run_ns"], run_ns.get(pid, 0)))
    if pid not in open_pids and t["wait_ns"] != wait_ns.get(pid, 0):
        bad.append("pid %d wait_ns %d != %d" % (pid, t["wait_ns"], wait_ns.get(pid, 0)))
    run_ns.pop(pid, None)
bad += ["pid %d ran but is not in stats" % p for p, v in run_ns.items() if v]
if bad:
    print("; ".join(bad[:5]), file=sys.stderr)
    sys.exit(1)
EOF
}

if ! command -v trace-cmd >/dev/null || ! command -v python3 >/dev/null; then
	skip "trace-cmd or python3 missing: cannot cross-check against trace-cmd report"
	exit 0
fi
set -- "$TRACES"/*.dat "$TRACES"/compare/*.dat
for f in aarch64-6cpu-v6.dat i686-4cpu-v6.dat x86_64-8cpu-v7-zstd.dat; do
	if [ -f "$SHARED/$f" ]; then
		set -- "$@" "$SHARED/$f"
	else
		skip "$f: ../shared/traces not here"
	fi
done
for f in "$@"; do
	name=$(basename "$f")
	run "$SCHEDPLOT" runs -q --idle "$f"
	expect_status 0 "$name: runs --idle"
	to_lines <"$OUT" >"$TMP/ours"
	if ! python3 "$SRCDIR/tests/oracle/report-stats.py" --runs "$f" >"$TMP/oracle" \
			2>"$TMP/oracle.err"; then
		not_ok "$name: oracle failed: $(head -c 300 "$TMP/oracle.err")"
		continue
	fi
	grep -v '^open ' "$TMP/oracle" | LC_ALL=C sort >"$TMP/theirs"
	if [ -s "$TMP/ours" ] && cmp -s "$TMP/ours" "$TMP/theirs"; then
		ok "$name: $(wc -l <"$TMP/ours") runs equal trace-cmd report's (cpu, pid, start, end, end state, wait, waker, previous CPU)"
	else
		not_ok "$name: runs differ from trace-cmd report's: $(diff "$TMP/ours" "$TMP/theirs" | head -4 | tr '\n' ' ')"
	fi

	run "$SCHEDPLOT" runs -q "$f"
	cp "$OUT" "$TMP/runs.csv"
	if grep -q '^[0-9]*,[0-9]*,[0-9]*,0,' "$TMP/runs.csv"; then
		not_ok "$name: pid 0 runs without --idle"
	else
		ok "$name: no pid 0 runs without --idle"
	fi
	run "$SCHEDPLOT" stats -q --json "$f"
	cp "$OUT" "$TMP/stats.json"
	check "$name: run_ns and wait_ns per task add up to stats --json's" \
		sums_agree "$TMP/runs.csv" "$TMP/stats.json" "$TMP/oracle"

	run "$SCHEDPLOT" runs -q --json "$f"
	check "$name: --json gives the same runs as CSV, one JSON object a line" \
		python3 -c '
import csv, json, sys
j = open(sys.argv[1]).read().splitlines()
c = open(sys.argv[2]).read().splitlines()
head = json.loads(j[0])
assert "# start_ns=%d" % head["start_ns"] == c[0]
rows = [json.loads(l) for l in j[1:]]
# woken_by: a pid as a number, an interrupt ("irq", "softirq") as a string
want = [{k: (v if k in ("comm", "end_state") or not v.lstrip("-").isdigit() else int(v))
         for k, v in r.items()} for r in csv.DictReader(c[1:])]
sys.exit(rows != want)' "$OUT" "$TMP/runs.csv"
done

f=$TRACES/overload.dat
run "$SCHEDPLOT" runs -q "$f"
cp "$OUT" "$TMP/all.csv"

# ---- the window, --cpus, --target ----
run "$SCHEDPLOT" runs -q --min 0.2 --max 0.3 --cpus 1 --target 'barr*' "$f"
expect_status 0 "window, --cpus and --target"
check "runs overlapping the window, whole, on CPU 1, of barrier only" \
	python3 -c '
import csv, sys
sel = list(csv.DictReader(open(sys.argv[1]).read().splitlines()[1:]))
every = list(csv.DictReader(open(sys.argv[2]).read().splitlines()[1:]))
want = [r for r in every if int(r["start_ns"]) < 300000000 and int(r["end_ns"]) > 200000000
        and r["cpu"] == "1" and r["comm"].startswith("barr")]
sys.exit(not want or sel != want)' "$OUT" "$TMP/all.csv"

t0=$(head -1 "$TMP/all.csv" | cut -d= -f2)
run "$SCHEDPLOT" runs -q --time "$(python3 -c "print('%.9f,%.9f' % (($t0 + 2e8) / 1e9, ($t0 + 3e8) / 1e9))")" \
	--cpus 1 --target 'barr*' "$f"
cp "$OUT" "$TMP/time.csv"
run "$SCHEDPLOT" runs -q --min 0.2 --max 0.3 --cpus 1 --target 'barr*' "$f"
check "--time in the trace's timestamps selects what --min/--max select" \
	cmp -s "$OUT" "$TMP/time.csv"

# ---- -o: written whole, never over the input ----
run "$SCHEDPLOT" runs -q -o "$TMP/out.csv" "$f"
expect_status 0 "-o FILE"
check "-o FILE holds what stdout gets, and stdout nothing" \
	bash -c 'cmp -s "$1" "$2" && [ ! -s "$3" ]' _ "$TMP/out.csv" "$TMP/all.csv" "$OUT"
cp "$f" "$TMP/in.dat"
run "$SCHEDPLOT" runs -q -o "$TMP/in.dat" "$TMP/in.dat"
expect_status 1 "-o naming the input trace"
check "the input trace is left as it was" cmp -s "$f" "$TMP/in.dat"
run "$SCHEDPLOT" runs -q -o "$TMP/no/such/dir/out.csv" "$f"
expect_status 1 "-o in a missing directory"
if ls "$TMP/no" >/dev/null 2>&1 || ls "$TMP"/*.tmp >/dev/null 2>&1; then
	not_ok "a failed -o left files behind"
else
	ok "a failed -o leaves nothing behind"
fi

# ---- usage errors ----
run "$SCHEDPLOT" runs --width 3 "$f"
expect_status 2 "an option of the views that runs does not take"
run "$SCHEDPLOT" runs "$f" "$f"
expect_status 2 "two traces"
expect_grep "$ERR" "one trace file at a time" "two traces: says one at a time"
run "$SCHEDPLOT" runs --cpus 7 "$f"
expect_status 2 "--cpus naming a CPU the trace lacks"
run "$SCHEDPLOT" runs
expect_status 2 "no trace"
run "$SCHEDPLOT" runs -h
expect_status 0 "--help"
expect_grep "$OUT" "--idle" "--help lists --idle"

# ---- sched_waking standing in for sched_wakeup: the trace is read twice ----
gen=$SRCDIR/build/tests/gen-trace
if [ -x "$gen" ] && "$gen" --help 2>&1 | grep -q -- --waking; then
	"$gen" -c 4 -e 20000 --waking -o "$TMP/waking.dat" >/dev/null
	f=$TMP/waking.dat
	run "$SCHEDPLOT" runs -q --idle "$f"
	expect_status 0 "sched_waking only: runs to standard output"
	cp "$OUT" "$TMP/pipe.csv"
	"$SCHEDPLOT" runs -q --idle "$f" | cat >"$TMP/piped.csv"
	run "$SCHEDPLOT" runs -q --idle -o "$TMP/file.csv" "$f"
	check "sched_waking only: a pipe, a redirection and -o get the same lines, once" \
		bash -c 'cmp -s "$1" "$2" && cmp -s "$1" "$3" && [ "$(grep -c "^#" "$1")" = 1 ]' _ \
		"$TMP/pipe.csv" "$TMP/piped.csv" "$TMP/file.csv"
	to_lines <"$TMP/pipe.csv" >"$TMP/ours"
	python3 "$SRCDIR/tests/oracle/report-stats.py" --runs "$f" 2>/dev/null >"$TMP/oracle"
	grep -v '^open ' "$TMP/oracle" | LC_ALL=C sort >"$TMP/theirs"
	if [ -s "$TMP/ours" ] && cmp -s "$TMP/ours" "$TMP/theirs"; then
		ok "sched_waking only: $(wc -l <"$TMP/ours") runs, their waits and wakers equal trace-cmd report's"
	else
		not_ok "sched_waking only: runs differ from trace-cmd report's: $(diff "$TMP/ours" "$TMP/theirs" | head -4 | tr '\n' ' ')"
	fi
else
	skip "build/tests/gen-trace (with --waking) not built: no sched_waking-only trace"
fi

# ---- streamed: memory does not grow with the trace ----
# (not under the sanitizers: their shadow memory and redzones grow with the
# allocations, as in 0099-budget; the plain suite checks the bound)
if [ "${BUILD:-build}" = build-san ]; then
	skip "streamed memory: not measured under ASan, whose allocator's memory would count"
elif [ -x "$gen" ] && [ -x /usr/bin/time ]; then
	"$gen" -c 8 -s 4 -e 20000 -o "$TMP/small.dat" >/dev/null
	"$gen" -c 8 -s 40 -e 500000 -o "$TMP/large.dat" >/dev/null
	for n in small large; do
		/usr/bin/time -f '%M' -o "$TMP/$n.rss" "$SCHEDPLOT" runs -q --idle "$TMP/$n.dat" |
			wc -l >"$TMP/$n.lines"
	done
	small=$(tail -1 "$TMP/small.rss") large=$(tail -1 "$TMP/large.rss")
	if [ "$(cat "$TMP/large.lines")" -gt $((10 * $(cat "$TMP/small.lines"))) ] &&
	   [ "$large" -le $((small * 3 / 2 + 4096)) ]; then
		ok "streamed: $(cat "$TMP/large.lines") runs in $large KB, $(cat "$TMP/small.lines") in $small KB"
	else
		not_ok "memory grows with the runs: $(cat "$TMP/large.lines") runs in $large KB, $(cat "$TMP/small.lines") in $small KB"
	fi
else
	skip "build/tests/gen-trace or /usr/bin/time missing: memory not measured"
fi
