#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Lost time as SchedViz measures it (doc/design.md "Lost time"): wall, per
# CPU and per thread.  The worked example of SchedViz's walkthrough
# (github.com/google/schedviz, doc/walkthrough.md, "Zoombrush and
# Metrics": two CPUs overloaded for 1 s, one with one waiting thread and
# one with two, and four idle CPUs give wall 1 s, per-CPU 2 s, per-thread
# 3 s; with only two idle CPUs, per-CPU 2 s and per-thread 2 s; with one
# CPU filtered in, all 0), hand-computed small traces written with the
# test generator, and the bundled and shared traces against an independent
# reading of trace-cmd report (tests/oracle/report-why.py --lost).
. "$(dirname "$0")/../lib/lib.sh"

GEN=${GEN_TRACE:-$SRCDIR/${BUILD:-build}/tests/gen-trace}
if [ ! -x "$GEN" ]; then
	not_ok "gen-trace not built ($GEN); run make check"
	exit 0
fi
if ! command -v python3 >/dev/null; then
	skip "python3 missing: cannot read stats --json"
	exit 0
fi

# script NAME: write $TMP/NAME.dat from the records on stdin
script() {
	cat >"$TMP/$1.txt"
	run "$GEN" --script "$TMP/$1.txt" -o "$TMP/$1.dat"
	expect_status 0 "gen-trace --script $1"
}

# lost WHAT WALL PER_CPU PER_THREAD STATS-ARGS...: stats --json says these (ns)
lost() {
	local what=$1 want="$2 $3 $4" got
	shift 4
	run "$SCHEDPLOT" stats -q --json "$@"
	got=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))["lost_time_ns"]
print(d["wall"], d["per_cpu"], d["per_thread"])' "$OUT" 2>&1)
	if [ "$STATUS" = 0 ] && [ "$got" = "$want" ]; then
		ok "$what: wall, per CPU, per thread $want ns"
	else
		not_ok "$what: wall, per CPU, per thread '$got' (exit $STATUS), expected $want" \
			"$(head -c 300 "$ERR")"
	fi
}

# SchedViz's example: from 1 s to 2 s, A runs on CPU 0 with B waiting (A
# preempted it), C on CPU 1 with D and E waiting (woken onto it), CPUs 2
# to 5 idle; at 2 s each wait ends on the CPU it waited for.
walkthrough() {
	echo "cpus $1"
	cat <<'EOF'
task 101 A
task 102 B
task 103 C
task 104 D
task 105 E
1000000000 0 102 switch 102 R 101
1000000000 1 103 wakeup 104 1
1000000000 1 103 wakeup 105 1
2000000000 0 101 switch 101 S 102
2000000000 1 103 switch 103 S 104
2000000000 1 104 switch 104 S 105
EOF
	for ((c = 2; c < $1; c++)); do
		echo "1000000000 $c $((200 + c)) switch $((200 + c)) S 0"
	done
}
walkthrough 6 | sort -n -s -k1,1 | script walkthrough
lost "SchedViz's example" 1000000000 2000000000 3000000000 "$TMP/walkthrough.dat"
expect_grep "$TMP/stdout" '"idle_while_waiting_ns": 1000000000,' \
	"SchedViz's example: idle while waiting 1 s as well"
run "$SCHEDPLOT" stats -q "$TMP/walkthrough.dat"
expect_grep "$OUT" '^lost time +wall 1\.000 s, per CPU 2\.000 s, per thread 3\.000 s ' \
	"SchedViz's example: stats prints the three"
walkthrough 4 | sort -n -s -k1,1 | script walkthrough4
lost "SchedViz's example with two idle CPUs" 1000000000 2000000000 2000000000 \
	"$TMP/walkthrough4.dat"
lost "SchedViz's example, one CPU filtered in" 0 0 0 --cpus 0 "$TMP/walkthrough.dat"
lost "SchedViz's example, the overloaded CPUs only" 0 0 0 --cpus 0-1 "$TMP/walkthrough.dat"
# CPUs 0, 1 and 2: I 1, O 2, W 3
lost "SchedViz's example, one idle CPU" 1000000000 1000000000 1000000000 --cpus 0-2 \
	"$TMP/walkthrough.dat"
# only D's wait: CPU 1 overloaded by one thread, CPU 0 neither (B not counted)
lost "SchedViz's example, --target D" 1000000000 1000000000 1000000000 --target 104 \
	"$TMP/walkthrough.dat"
# the middle half of the second
lost "SchedViz's example, --min 0.25 --max 0.75" 500000000 1000000000 1500000000 \
	--min 0.25 --max 0.75 "$TMP/walkthrough.dat"

# A CPU overloaded while the other idles with a task woken onto it (the
# scheduler is about to run it there): neither CPU counts, so nothing is
# lost, though a task waited while a CPU idled for the whole second.
script busy-and-waking <<'EOF'
cpus 2
task 101 A
task 102 B
task 103 E
1000000000 0 102 switch 102 R 101
1000000000 1 104 switch 104 S 0
1000000000 1 0 wakeup 103 1
2000000000 0 101 switch 101 S 102
2000000000 1 0 switch 0 R 103
EOF
lost "overloaded, no CPU idle without a task waiting for it" 0 0 0 "$TMP/busy-and-waking.dat"
expect_grep "$OUT" '"idle_while_waiting_ns": 1000000000,' \
	"overloaded, no CPU idle: idle while waiting is 1 s all the same"

# All waits on one CPU: A runs on CPU 0 from 1 s to 1.5 s with B, C and D
# woken onto it; CPUs 1 and 2 idle.  I 2, O 1, W 3 for 0.5 s.
script one-cpu <<'EOF'
cpus 3
task 101 A
task 102 B
task 103 C
task 104 D
1000000000 0 101 wakeup 102 0
1000000000 0 101 wakeup 103 0
1000000000 0 101 wakeup 104 0
1000000000 1 105 switch 105 S 0
1000000000 2 106 switch 106 S 0
1500000000 0 101 switch 101 S 102
1500000000 0 102 switch 102 S 103
1500000000 0 103 switch 103 S 104
EOF
lost "waits on one CPU only" 500000000 500000000 1000000000 "$TMP/one-cpu.dat"

# The bundled and shared traces: equal to trace-cmd report's reading, over
# the trace and over a scope (a window, half the CPUs, the task that waited
# longest).
if ! command -v trace-cmd >/dev/null; then
	skip "trace-cmd missing: cannot cross-check against trace-cmd report"
	exit 0
fi
traces=("$TRACES"/*.dat "$TRACES"/ink/duty.dat)
for f in "$SHARED"/*.dat; do
	[ -f "$f" ] && traces+=("$f")
done
for f in "${traces[@]}"; do
	name=$(basename "$f")
	case $name in *zlib*)
		skip "$name: this trace-cmd cannot read zlib version 7 files"
		continue ;;
	esac
	run "$SCHEDPLOT" stats -q --json "$f"
	if [ "$STATUS" != 0 ]; then
		not_ok "$name: stats --json: exit $STATUS"
		continue
	fi
	# the whole trace; a window and some CPUs; the task that waited longest:
	# "STATS-ARGS|ORACLE-SCOPE", each line
	python3 - "$OUT" >"$TMP/scopes" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t0, t1 = d["window_ns"]
first = min(d["start_ns"].values())
lo, hi = t0 + (t1 - t0) // 4, t0 + (t1 - t0) * 3 // 4
n = d["nr_cpus"] if d["nr_cpus"] < 4 else d["nr_cpus"] // 2
pid = max(d["tasks"], key=lambda t: (t["wait_ns"], -t["pid"]))["pid"]
print("|%d:%d::" % (t0, t1))
print("--min %dns --max %dns --cpus 0-%d|%d:%d:%s:"
      % (lo - first, hi - first, n - 1, lo, hi, ",".join(str(c) for c in range(n))))
print("--target %d|%d:%d::%d" % (pid, t0, t1, pid))
PY
	# shellcheck disable=SC2046
	if ! python3 "$SRCDIR/tests/oracle/report-why.py" $(sed 's/.*|/--lost /' "$TMP/scopes") \
		"$f" >"$TMP/oracle" 2>"$TMP/oracle.err"; then
		not_ok "$name: report-why.py --lost failed: $(head -c 300 "$TMP/oracle.err")"
		continue
	fi
	while IFS='|' read -r ours _ && read -r want <&3; do
		# shellcheck disable=SC2086
		lost "$name ${ours:-(whole trace)} against trace-cmd report" $want $ours "$f"
	done <"$TMP/scopes" 3<"$TMP/oracle"
done
