#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# stats takes the views' scope (--min/--max/--time, --cpus, --target): its
# averages, idle-while-waiting and lost capacity are then over that window
# (within the complete window) and equal the integral of running-waiting's
# --csv over the same window with the same CPUs and tasks.
. "$(dirname "$0")/../lib/lib.sh"

GEN=${GEN_TRACE:-$SRCDIR/${BUILD:-build}/tests/gen-trace}

# json_num FILE KEY: a number of the stats JSON's top level
json_num() {
	sed -n "s/^  \"$2\": \([0-9.e+-]*\),\$/\1/p" "$1"
}

# same_as_csv NAME TRACE SCOPE...: stats with SCOPE equals the integral of
# running-waiting's CSV with SCOPE
same_as_csv() {
	local name=$1 trace=$2 t0 t1 n want got
	shift 2
	run "$SCHEDPLOT" stats -q --json "$@" "$trace"
	expect_status 0 "$name: stats $*"
	cp "$OUT" "$TMP/$name.json"
	run "$SCHEDPLOT" running-waiting -q "$@" -o "$TMP/$name.png" --csv "$TMP/$name.csv" "$trace"
	expect_status 0 "$name: running-waiting $*"
	read -r t0 t1 n < <(sed -n 's/^  "scope": {"window_ns": \[\([0-9]*\), \([0-9]*\)\], "nr_cpus": \([0-9]*\),.*/\1 \2 \3/p' \
		"$TMP/$name.json") || true
	if [ -z "$n" ]; then
		not_ok "$name: stats --json has no scope: $(head -c 300 "$TMP/$name.json")"
		return
	fi
	# the step functions of the CSV, integrated over [t0, t1]
	want=$(awk -F, -v t0="$t0" -v t1="$t1" -v n="$n" '
		function add(from, to) {
			if (from < t0) from = t0
			if (to > t1) to = t1
			if (to <= from) return
			d = to - from
			ra += d * r; wa += d * w; lost += d * l
			if (w >= 1 && r < n) iww += d
		}
		NR == 1 { sub(/^# start_ns=/, ""); origin = $1; next }
		NR == 2 { next }
		NR > 3 { add(ts, origin + $1) }
		{ ts = origin + $1; r = $2; w = $3; l = $4 }
		END {
			add(ts, t1)
			printf "%.0f %.0f %.9g %.9g\n", lost, iww, ra / (t1 - t0), wa / (t1 - t0)
		}' "$TMP/$name.csv")
	got="$(json_num "$TMP/$name.json" lost_cpu_ns) $(json_num "$TMP/$name.json" idle_while_waiting_ns) $(json_num "$TMP/$name.json" running_avg) $(json_num "$TMP/$name.json" waiting_avg)"
	if [ "$want" = "$got" ]; then
		ok "$name: lost, idle while waiting, running and waiting averages ($got) are the CSV's integral"
	else
		# the averages are printed to 9 digits: allow their last one
		if awk -v a="$want" -v b="$got" 'BEGIN {
			split(a, x, " "); split(b, y, " ")
			if (x[1] != y[1] || x[2] != y[2]) exit 1
			for (i = 3; i <= 4; i++) {
				d = x[i] - y[i]; if (d < 0) d = -d
				if (d > 1e-8 * (x[i] < 0 ? -x[i] : x[i]) + 1e-12) exit 1
			}
		}'; then
			ok "$name: lost, idle while waiting, averages ($got) are the CSV's integral ($want)"
		else
			not_ok "$name: stats says $got, the CSV's integral is $want"
		fi
	fi
}

f=$TRACES/messaging.dat
same_as_csv window "$f" --min 0.5 --max 1.5
same_as_csv units "$f" --min 250ms --max 2s
same_as_csv time-abs "$f" --time 437.5,438.25
same_as_csv to-end "$f" --min 2.5
same_as_csv target "$f" --min 1 --max 2 --target 'sched-mess*'
same_as_csv overload "$TRACES/overload.dat" --min 0.1 --max 0.6 --cpus 1

if [ -x "$GEN" ]; then
	"$GEN" --cpus 8 --events 20000 --truth "$TMP/g.json" --topology "$TMP/g.lscpu" \
		-o "$TMP/g.dat" >/dev/null
	same_as_csv gen-cpus "$TMP/g.dat" --min 0.2 --max 0.7 --cpus 0-2,5
	same_as_csv gen-target "$TMP/g.dat" --cpus 0-3 --target 'hpc-[0-3]'
	same_as_csv gen-all "$TMP/g.dat" --min 0.1
else
	skip "generated traces: gen-trace not built ($GEN)"
fi

# without a scope, nothing changes: no scope in the JSON
run "$SCHEDPLOT" stats -q --json "$f"
check "stats without a scope: no scope key" test -z "$(grep '"scope"' "$OUT")"

# the window's own numbers differ from the whole trace's
a=$("$SCHEDPLOT" stats -q --json "$f" | json_num /dev/stdin lost_cpu_ns)
b=$("$SCHEDPLOT" stats -q --json --min 0.5 --max 1.5 "$f" | json_num /dev/stdin lost_cpu_ns)
check "stats --min/--max: the lost capacity is the window's ($b), not the trace's ($a)" \
	test "$a" != "$b"

# the text says what it counted
run "$SCHEDPLOT" stats -q --min 0.5 --max 1.5 --cpus 1 --target 'sched-mess*' "$f"
expect_status 0 "stats text with a scope"
expect_grep "$OUT" "^counted     1.000 s, from \+0.500000 to \+1.500000 s, CPUs 1, tasks sched-mess\*$" \
	"stats text: the counted line"
expect_grep "$OUT" "^running .* on 1 CPUs$" "stats text: N is the CPUs counted"
check "stats text --cpus 1: no row for CPU 0" test -z "$(grep -E '^    0  ' "$OUT")"

# scope errors are usage errors
for args in "--cpus 7" "--min 100" "--time 1,2" "--min 2 --max 1" "--time 0,1 --min 1" "--cpus x"; do
	# shellcheck disable=SC2086 # the arguments are split on purpose
	run "$SCHEDPLOT" stats -q $args "$f"
	expect_status 2 "stats $args"
done
