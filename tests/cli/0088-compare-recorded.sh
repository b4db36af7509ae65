#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# schedplot compare on real recordings: five runs of the barrier workload
# with 2 threads per CPU against five with 3 (traces/compare, see
# traces/README).  Every run's numbers are checked against trace-cmd
# report (tests/oracle), the group with more threads per CPU waits longer
# and migrates more, and the shift function's bootstrap stays cheap.
. "$(dirname "$0")/../lib/lib.sh"

a=("$TRACES"/compare/t2-{1,2,3,4,5}.dat)
b=("$TRACES"/compare/t3-{1,2,3,4,5}.dat)

if ! command -v python3 >/dev/null; then
	skip "compare on recordings: no python3 to read the JSON"
	exit 0
fi

# json_check WHAT PYTHON-EXPRESSION: true for the JSON in $OUT (as d)
json_check() {
	if python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if eval(sys.argv[2]) else 1)' "$OUT" "$2" 2>"$TMP/py.err"; then
		ok "$1"
	else
		not_ok "$1: $2 is false ($(head -c 300 "$TMP/py.err"))"
	fi
}

# oracle_agrees WHAT: an oracle wrote nothing to $TMP/oracle.out (what differs, else)
oracle_agrees() {
	if [ -s "$TMP/oracle.out" ]; then
		not_ok "$1: $(head -c 400 "$TMP/oracle.out")"
	else
		ok "$1"
	fi
}

# 2000 resamples of whole runs of unequal length: a fraction of a second
# of CPU since the Harrell-Davis weights are computed once per size (11 s
# when they were computed per resample); the limit guards that.
run bash -c 'ulimit -t 6 && exec "$0" "$@"' "$SCHEDPLOT" compare --json \
	--names 2-per-cpu,3-per-cpu "${a[@]}" --vs "${b[@]}"
expect_status 0 "5 runs against 5, with the shift function, within 6 s of CPU"
cp "$OUT" "$TMP/cmp.json"
json_check "groups named, five runs each, in the order given" \
	'[g["name"] for g in d["groups"]] == ["2-per-cpu", "3-per-cpu"] and [r["file"].split("/")[-1] for g in d["groups"] for r in g["runs"]] == ["t%d-%d.dat" % (t, i) for t in (2, 3) for i in range(1, 6)]'
json_check "n = 5 + 5 for every metric, no interval of the median below 6 runs" \
	'all(m["a"]["n"] == 5 and m["b"]["n"] == 5 and m["a"]["ci_low"] is None for m in d["metrics"])'
json_check "whole runs resampled" 'd["shift_resample"] == "runs" and len(d["shift"]) == 9'
json_check "more threads per CPU: more tasks waiting (median of waiting_avg)" \
	'(lambda m: m["b"]["median"] > m["a"]["median"] and m["change"] > 0)(next(m for m in d["metrics"] if m["name"] == "waiting_avg"))'
json_check "more threads per CPU: more migrations, significant at 5% (U = 2 of 25)" \
	'(lambda m: m["significant"] and m["u"] == 2 and abs(m["p_value"] - 8 / 252) < 1e-12)(next(m for m in d["metrics"] if m["name"] == "migrations_per_s"))'
json_check "more threads per CPU: the short wakeup latencies are longer (shift at 0.1 and 0.2)" \
	'all(s["diff"] > 0 and s["ci_low"] > 0 and s["significant"] for s in d["shift"][:2])'
json_check "no significant difference claimed where the p value is above alpha" \
	'all(m["significant"] == (m["p_value"] <= d["alpha"]) for m in d["metrics"])'

# the checks of the samples, once: the repairs per run are those
# traces/README counts with trace-cmd report (missed switches)
json_check "checks: each run's repairs as traces/README counts them" \
	'[r["repairs"] for g in d["groups"] for r in g["runs"]] == [26, 5, 3, 18, 1, 8, 1, 6, 22, 15]'
json_check "checks: no lost events (none in these recordings)" \
	'all(r["lost_events"] == 0 for g in d["groups"] for r in g["runs"]) and "lost_events" not in [k["check"] for k in d["checks"]]'
json_check "checks: five runs give no interval of a median; both groups vary by more than 10%" \
	'(lambda k: "no 95% interval of a median below 6 runs" in k["few_runs"] and "p cannot" not in k["few_runs"] and "2-per-cpu" in k["unstable"] and "3-per-cpu" in k["unstable"])({c["check"]: c["message"] for c in d["checks"]})'

# warm-up: a real recording with a cold start (traces/README): the waiting
# tasks fall to the benchmark's steady level at 1.08 s, window 23 of 50
cold=$TRACES/warmup/cold-start.dat
run "$SCHEDPLOT" compare --json -q "$cold" --vs "$cold"
json_check "cold start: settled at window 23 (1.0838 s), by the waiting tasks" \
	'(lambda r: r["warmup_ns"] == 1083846229 and r["warmup_by"] == "waiting" and r["skipped_ns"] == 0)(d["groups"][0]["runs"][0])'
json_check "cold start: the warm-up is a check" \
	'"cold-start.dat 1.08s of 2.36s (waiting)" in next(k["message"] for k in d["checks"] if k["check"] == "warmup")'
run "$SCHEDPLOT" compare --json -q --skip-warmup auto "$cold" --vs "$cold"
expect_status 0 "--skip-warmup auto"
cp "$OUT" "$TMP/auto.json"
json_check "--skip-warmup auto: the numbers of stats --time from 1.0838 s on" \
	'(lambda r: r["skipped_ns"] == 1083846229 and abs(r["waiting_avg"] - 14.5274291) < 5e-8 and r["wakeup_p50_ns"] == 1092 and abs(r["duration_s"] - (2.356187455 - 1.083846229)) < 1e-9)(d["groups"][0]["runs"][0])'
s0=$((14133675759920 + 1083846229))
run "$SCHEDPLOT" stats --json -q --time "$((s0 / 1000000000)).$(printf %09d $((s0 % 1000000000))),14136.031947375" "$cold"
json_check "stats --time over the steady state: waiting_avg 14.5274291, p50 1092 ns" \
	'abs(d["waiting_avg"] - 14.5274291) < 5e-8 and d["wakeup_latency_ns"]["p50"] == 1092'
run "$SCHEDPLOT" compare --json -q --skip-warmup 1083846229ns "$cold" --vs "$cold"
json_check "--skip-warmup TIME: the same numbers as auto where the times agree" \
	'(lambda r, a: r["waiting_avg"] == a["waiting_avg"] and r["wakeup_p50_ns"] == a["wakeup_p50_ns"] and r["skipped_ns"] == 1083846229)(d["groups"][0]["runs"][0], json.load(open(sys.argv[1].replace("stdout", "auto.json")))["groups"][0]["runs"][0])'
run "$SCHEDPLOT" compare -q --skip-warmup 5s "$cold" --vs "$cold"
expect_status 1 "--skip-warmup longer than the run: an error"
expect_grep "$ERR" "skips the whole run \\(2\\.356187 s\\)$" "--skip-warmup too long: said, with the run's length"
run "$SCHEDPLOT" compare -q --skip-warmup soon "$cold" --vs "$cold"
expect_status 2 "--skip-warmup soon: a usage error"
run "$SCHEDPLOT" compare -q --no-shift --view running-waiting "$cold" --vs "$cold" -o "$TMP/cold.png"
expect_status 0 "the per-run panels with the warm-up marked"
if command -v python3 >/dev/null; then
	# the dashed line: a column of the first panel dark over about half its
	# height (the frame's are dark all along), 1.0838 s of 2.356 s along
	check "the warm-up's dashed line is drawn where the run settled" python3 -c '
import sys
sys.path.insert(0, sys.argv[2])
import png
w, h, px = png.read(sys.argv[1])
dark = lambda x: sum(1 for y in range(25, 415) if sum(px(x, y)) < 200)
cols = [x for x in range(w) if 120 < dark(x) < 300]
sys.exit(0 if cols and all(0.44 * w < x < 0.52 * w for x in cols) else 1)' \
		"$TMP/cold.png" "$(dirname "$0")/../lib"
fi

# noise per run: six runs of barrier pinned to CPU 1, with a busy loop
# ("disturber", nice -10) pinned there too in runs 2, 4 and 6 (traces/README);
# what else ran is counted while barrier ran (its targets_ns)
nz=("$TRACES"/noise/run-{1,2,3,4,5,6}.dat)
run "$SCHEDPLOT" compare --json -q --target barrier "${nz[@]}" --vs "${nz[0]}"
expect_status 0 "noise: six runs, --target barrier"
cp "$OUT" "$TMP/noise.json"
json_check "noise: the disturbed runs had the disturber on CPU 1 while barrier ran, as trace-cmd report times it (tests/oracle/report-noise.py: 188.2, 163.1, 143.8 ms; 1%)" \
	'(lambda t: all(abs(t[i] - r) < 0.01 * r for i, r in ((1, 188178604), (3, 163106162), (5, 143823799))) and t[0] == t[2] == t[4] == 0)([sum(o["ns"] for o in r["other_tasks"] if o["command"] == "disturber" and o["cpu"] == 1) for r in d["groups"][0]["runs"]])'
json_check "noise: the slow runs are named with the disturber first" \
	'(lambda k: "in run the slow half of the runs against the fast half had all the disturber time on CPU 1 (165ms against none a run" in k and "Spearman 0.88" in k)(next(c["message"] for c in d["checks"] if c["check"] == "noise"))'
json_check "noise: no irq or power events in these recordings: interrupts and frequency null" \
	'all(r["interrupts"] is None and r["frequency"] is None for g in d["groups"] for r in g["runs"])'
run "$SCHEDPLOT" compare -q --target barrier "${nz[@]}" --vs "${nz[0]}"
expect_grep "$OUT" "^  noise: " "noise: a check above the table"
run "$SCHEDPLOT" compare --json -q "${nz[@]}" --vs "${nz[0]}"
json_check "noise: only with --target (what else ran needs to know what the benchmark is)" \
	'"noise" not in [c["check"] for c in d["checks"]]'
json_check "noise: without --target the keys are there, null: every run has the same keys" \
	'all(r[k] is None for g in d["groups"] for r in g["runs"] for k in ("targets_ns", "target_cpus", "other_tasks", "interrupts", "frequency"))'
cp "$OUT" "$TMP/untargeted.json"
run "$SCHEDPLOT" compare --json -q --target barrier "${nz[@]}" --vs "${nz[0]}"
python3 - "$TMP/untargeted.json" "$OUT" >"$TMP/oracle.out" 2>&1 <<'PY' ||
import json, sys
runs = [r for f in sys.argv[1:] for g in json.load(open(f))["groups"] for r in g["runs"]]
keys = [list(r) for r in runs]
if any(k != keys[0] for k in keys):
    sys.exit("keys differ: %s" % [k for k in keys if k != keys[0]][:1])
PY
	echo "(exit $?)" >>"$TMP/oracle.out"
oracle_agrees "noise: every run has the same keys in the same order, with --target or without"
run "$SCHEDPLOT" compare --json -q --target '*' "${nz[0]}" --vs "${nz[0]}"
json_check "noise: with every task a target no other task ran: other_tasks [], not left out" \
	'all(r["other_tasks"] == [] and r["target_cpus"] == [0, 1] for g in d["groups"] for r in g["runs"])'

# noise per run, interrupts: six runs of barrier pinned to CPU 1 recorded
# with the irq events, three of them (2, 4, 6) while three dd readers with
# O_DIRECT on CPU 0 made the disk's interrupts (virtio1-req.0, whose
# affinity is CPU 1) and their BLOCK softirqs land on CPU 1 (traces/README)
ni=("$TRACES"/noise-irq/run-{1,2,3,4,5,6}.dat)
run "$SCHEDPLOT" compare --json -q --no-shift --target barrier "${ni[@]}" --vs "${ni[0]}"
expect_status 0 "interrupts: six runs, --target barrier"
cp "$OUT" "$TMP/irq.json"
json_check "interrupts: the disturbed runs had the disk's softirq and interrupt on CPU 1, the others next to none" \
	'(lambda t: all(t[i] > 10e6 for i in (1, 3, 5)) and all(t[i] < 0.1e6 for i in (0, 2, 4)))([sum(o["ns"] for o in r["interrupts"] if o["cpu"] == 1 and o["name"] in ("BLOCK", "virtio1-req.0")) for r in d["groups"][0]["runs"]])'
json_check "interrupts: the slow runs are named with the disk's softirq first (p 0.0056: not significant after Hochberg over 48 sources, whose least p of 6 runs is 2/720)" \
	'(lambda k: "in run the slow half of the runs against the fast half had over 100x the softirq BLOCK time on CPU 1 (16.2ms against 4.34µs a run, Spearman 0.99 with the duration, p 0.0056)" in k and "Hochberg over 48 sources" in k)(next(c["message"] for c in d["checks"] if c["check"] == "noise"))'
json_check "interrupts: this machine has no cpufreq: no frequency" \
	'all(r["frequency"] is None for r in d["groups"][0]["runs"])'
if command -v trace-cmd >/dev/null; then
	# each run's interrupt time against trace-cmd report over the window
	# the JSON gives, exactly; the disturber's time within 1% (the oracle
	# does not repair missed switches, which move time between tasks)
	for j in "$TMP/irq.json" "$TMP/noise.json"; do
		python3 - "$j" "$(dirname "$0")/../oracle/report-noise.py" >"$TMP/oracle.out" 2>&1 <<'PY' ||
import json, subprocess, sys
d = json.load(open(sys.argv[1]))
for r in d["groups"][0]["runs"]:
    out = subprocess.run([sys.executable, sys.argv[2], "--cpus", "1", "--window",
                          "%d,%d" % tuple(r["targets_ns"]), r["file"]], check=True,
                         capture_output=True, text=True).stdout.split("\n")
    want = {(k, n): int(ns) for k, n, c, ns in (l.split() for l in out if l)}
    irq = {(o["kind"], o["name"]): o["ns"] for o in r["interrupts"] or []}
    if irq != {k: v for k, v in want.items() if k[0] != "task"}:
        sys.exit("%s: interrupts %s, trace-cmd report %s" % (r["file"], irq, want))
    for o in r["other_tasks"]:
        w = want.get(("task", o["command"]), 0)
        if o["command"] == "disturber" and abs(o["ns"] - w) > 0.01 * w:
            sys.exit("%s: %s %d ns, trace-cmd report %d" % (r["file"], o["command"], o["ns"], w))
PY
			echo "(exit $?)" >>"$TMP/oracle.out"
		oracle_agrees "noise: $(basename "$j" .json): interrupts (and the disturber) as trace-cmd report times them"
	done
else
	skip "noise: no trace-cmd: no oracle for the interrupt time"
fi

# noise per run, frequency spread: this machine has no cpufreq, so the
# frequency is tried on generated runs (gen-trace --power: three whose
# frequency stands still, three longer ones whose policies change it every
# tenth of the run) and on a real trace of another machine
if [ -x "$SRCDIR/build/tests/gen-trace" ]; then
	secs=(0 0.2 0.4 0.25 0.45 0.3 0.5)
	for n in 1 2 3 4 5 6; do
		"$SRCDIR/build/tests/gen-trace" --cpus 4 --power --seed "$n" --events 100000 \
			--seconds "${secs[$n]}" --frequencies $((n % 2 ? 1 : 4)) \
			-o "$TMP/gen-$n.dat" >/dev/null
	done
	run "$SCHEDPLOT" compare --json -q --no-shift --target 'hpc-*' "$TMP"/gen-{1,2,3,4,5,6}.dat \
		--vs "$TMP/gen-1.dat"
	expect_status 0 "frequency: six generated runs, --target 'hpc-*'"
	json_check "frequency: a frequency that stands still has spread 0, one that changes more" \
		'(lambda f: [x["spread"] == 0 for x in f] == [True, False] * 3 and all(f[i]["spread"] > 0.2 for i in (1, 3, 5)) and f[0]["mean_khz"] == 800000)([r["frequency"] for r in d["groups"][0]["runs"]])'
	json_check "frequency: the slow runs are named with the spread (Spearman 0.94, exact p 0.017)" \
		'(lambda k: "in gen the slow half of the runs against the fast half had a frequency spread of 35% against 0%" in k and "Spearman 0.94 with the duration, p 0.017, significant" in k and "interrupt" not in k)(next(c["message"] for c in d["checks"] if c["check"] == "noise"))'
	json_check "frequency: no irq events in generated traces" \
		'all(r["interrupts"] is None for r in d["groups"][0]["runs"])'
	cp "$OUT" "$TMP/gen.json"
else
	skip "frequency: build/tests/gen-trace not built"
fi
# a real trace with power:cpu_frequency (../shared/traces/README.md):
# bash ran on CPUs 2 and 3, whose frequency changed while it ran
arm=$SHARED/aarch64-6cpu-v6.dat
if [ -f "$arm" ]; then
	run "$SCHEDPLOT" compare --json -q --no-shift --target bash "$arm" "$arm" "$arm" "$arm" \
		--vs "$arm"
	expect_status 0 "frequency: a real trace with power events"
	json_check "frequency: bash on CPUs 2 and 3, whose frequency changed while it ran" \
		'(lambda r: r["target_cpus"] == [2, 3] and r["frequency"]["spread"] > 0.2)(d["groups"][0]["runs"][0])'
	cp "$OUT" "$TMP/arm.json"
else
	skip "frequency: ../shared/traces/aarch64-6cpu-v6.dat not here"
fi
# each run's frequency against trace-cmd report over the targets' CPUs and time
if command -v trace-cmd >/dev/null; then
	for j in "$TMP/gen.json" "$TMP/arm.json"; do
		[ -f "$j" ] || continue
		python3 - "$j" "$(dirname "$0")/../oracle/report-noise.py" >"$TMP/oracle.out" 2>&1 <<'PY' ||
import json, subprocess, sys
for r in json.load(open(sys.argv[1]))["groups"][0]["runs"]:
    out = subprocess.run([sys.executable, sys.argv[2], "--cpus",
                          ",".join(map(str, r["target_cpus"])), "--window",
                          "%d,%d" % tuple(r["targets_ns"]), r["file"]], check=True,
                         capture_output=True, text=True).stdout.split("\n")
    _, mean, spread = next(l for l in out if l.startswith("frequency ")).split()
    f = r["frequency"]
    if abs(f["mean_khz"] - float(mean)) > 1e-3 or abs(f["spread"] - float(spread)) > 1e-9:
        sys.exit("%s: schedplot %s, trace-cmd report %s %s" % (r["file"], f, mean, spread))
PY
			echo "(exit $?)" >>"$TMP/oracle.out"
		oracle_agrees "frequency: $(basename "$j" .json): mean and spread as trace-cmd report gives them"
	done
else
	skip "frequency: no trace-cmd: no oracle for the frequency"
fi

# for CI: more migrations with 3 threads per CPU is a regression (+65%)
run "$SCHEDPLOT" compare -q --fail-on regression "${a[@]}" --vs "${b[@]}"
expect_status 3 "--fail-on regression: migrations_per_s +65% (p = 0.032) exits 3"
run "$SCHEDPLOT" compare -q --fail-on regression "${b[@]}" --vs "${a[@]}"
expect_status 0 "--fail-on regression: the other way round it is an improvement"
# the other way round the median falls by 39%, and the interval of the
# change (criterion's rule weighs it, not the median) reaches -0.89%
run "$SCHEDPLOT" compare --json -q --fail-on change "${b[@]}" --vs "${a[@]}"
expect_status 0 "--fail-on change: -39% of the median, but the interval reaches -0.89%: noise at 1%"
json_check "the interval of the change of migrations_per_s: its upper end above -1%" \
	'(lambda m: m["significant"] and -0.01 < m["change_ci"][1] < -0.0085 and m["verdict"] == "noise")(next(m for m in d["metrics"] if m["name"] == "migrations_per_s"))'
run "$SCHEDPLOT" compare -q --fail-on change --threshold 0.5% "${b[@]}" --vs "${a[@]}"
expect_status 3 "--fail-on change --threshold 0.5%: an improvement is a change"
run "$SCHEDPLOT" compare -q --fail-on change --threshold 70% "${b[@]}" --vs "${a[@]}"
expect_status 0 "--fail-on change --threshold 70%: -39% is noise then"

# three runs against three: Mann-Whitney cannot go below p = 0.1, so every
# metric reads ~; the shift function must not star what the table cannot
run "$SCHEDPLOT" compare --json -q "${a[@]:0:3}" --vs "${b[@]:0:3}"
expect_status 0 "3 runs against 3"
json_check "3 runs against 3: no metric significant (p >= 0.1)" \
	'all(not m["significant"] and m["p_value"] >= 0.1 for m in d["metrics"])'
json_check "3 runs against 3: no decile significant, none with an interval, each says why" \
	'len(d["shift"]) == 9 and all(not s["significant"] and s["ci_low"] is None and s["p_value"] is None and "fewer than 5 runs" in s["withheld"] for s in d["shift"])'
run "$SCHEDPLOT" compare -q "${a[@]:0:3}" --vs "${b[@]:0:3}"
if grep -q '\*$' "$OUT"; then
	not_ok "3 runs against 3: a star in the table: $(grep '\*$' "$OUT" | head -2)"
else
	ok "3 runs against 3: no star in the table"
fi
run "$SCHEDPLOT" compare --json --names 2-per-cpu,3-per-cpu "${a[@]}" --vs "${b[@]}"
check "the same inputs give the same bytes" cmp -s "$OUT" "$TMP/cmp.json"

# Every run's numbers against trace-cmd report, read independently.
for f in "${a[@]}" "${b[@]}"; do
	name=compare/$(basename "$f")
	if ! python3 "$SRCDIR/tests/oracle/report-stats.py" --latencies "$f" >"$TMP/oracle.json" \
		2>"$TMP/oracle.err"; then
		not_ok "$name: oracle failed: $(head -c 300 "$TMP/oracle.err")"
		continue
	fi
	check "$name: duration, running, waiting, migrations and wakeup latency as trace-cmd report" \
		python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
o = json.load(open(sys.argv[2]))
r = next(r for g in d["groups"] for r in g["runs"] if r["file"] == sys.argv[3])
w = (o["window_ns"][1] - o["window_ns"][0]) / 1e9
sys.exit(not (abs(r["duration_s"] - w) < 1e-9 and
	abs(r["running_avg"] - o["running_avg"]) < 1e-9 and
	abs(r["waiting_avg"] - o["waiting_avg"]) < 1e-9 and
	abs(r["migrations_per_s"] - o["migrations"] / w) < 1e-6 and
	r["wakeup_p50_ns"] == o["wakeup_latency_ns"]["p50"] and
	r["wakeup_p99_ns"] == o["wakeup_latency_ns"]["p99"] and
	r["nr_cpus"] == len(o["cpus"])))' "$TMP/cmp.json" "$TMP/oracle.json" "$f"
	cp "$TMP/oracle.json" "$TMP/oracle-$(basename "$f" .dat).json"
done

# Where the pooled CDFs cross, from trace-cmd report's latencies: D = F_a -
# F_b at every value between the pooled 5% and 95% quantiles; a side holds
# at |D| >= 0.02; a crossing is at the first value after the last on the
# old side.  Within 1% (t3-5's repair, above, moves one wait).
check "CDF crossings as trace-cmd report's latencies give them" python3 -c 'import bisect, json, math, sys
d = json.load(open(sys.argv[1]))
lat = [sorted(v for i in range(1, 6) for v in json.load(open("%s/oracle-t%d-%d.json" % (sys.argv[2], t, i)))["wakeup_latencies_ns"]) for t in (2, 3)]
a, b = lat
pool = sorted(a + b)
q = lambda p: pool[max(1, math.ceil(p * len(pool))) - 1]
side, left, out = 0, None, []
for t in sorted(set(x for x in pool if q(0.05) <= x <= q(0.95))):
    D = bisect.bisect_right(a, t) / len(a) - bisect.bisect_right(b, t) / len(b)
    if side and D * side > 0:
        left = None
    elif side and left is None:
        left = t
    if abs(D) >= 0.02 and (1 if D > 0 else -1) != side:
        if side:
            out.append((left, "a" if side > 0 else "b"))
        side = 1 if D > 0 else -1
got = [(c["at_ns"], c["below"]) for c in d["crossings"]]
sys.exit(not (out and len(out) == len(got) and all(abs(x[0] - y[0]) <= 0.01 * x[0] and x[1] == y[1] for x, y in zip(out, got))))' "$TMP/cmp.json" "$TMP"

# the table reads the same numbers
run "$SCHEDPLOT" compare -q --names 2-per-cpu,3-per-cpu "${a[@]}" --vs "${b[@]}"
expect_status 0 "text table"
expect_grep "$OUT" '^migrations_per_s +41\.75/s ± ∞ +68\.96/s ± ∞ +\+65\.18% +0\.92 \[0\.74, 1\.00\] +\(p=0\.032 n=5\+5\)$' \
	"text table: migrations per second, change and p"
expect_grep "$OUT" '^waiting_avg +5\.648 ± ∞ +6\.675 ± ∞ +~ +0\.76 \[0\.44, 1\.00\] +\(p=0\.222 n=5\+5\)$' \
	"text table: waiting tasks, no difference shown at 5 runs"
expect_grep "$OUT" '^0\.1 .* \*$' "text table: the shift at 0.1 is significant"
expect_grep "$OUT" '^wakeup latency CDFs \(runs pooled\) cross 2 times:$' "text: the CDFs cross twice"
expect_grep "$OUT" '^  below [0-9.]+µs 2-per-cpu is faster$' "text: below the first crossing, the fewer threads faster"
expect_grep "$OUT" '^  above [0-9.]+ms 2-per-cpu is faster$' "text: above the last, again"

# ---- bad input among real runs ----

run "$SCHEDPLOT" compare -q --target barrier "${a[@]}" --vs "${b[@]:0:4}" "$TRACES/messaging.dat" \
	-o "$TMP/bad.png"
expect_status 1 "--target matching nothing in one run of ten"
expect_stderr_line "^schedplot: .*messaging.dat: no task matching --target 'barrier' ran" \
	"--target matching nothing in one run: names that run"
check "--target matching nothing in one run: no image left" test ! -e "$TMP/bad.png"
check "--target matching nothing in one run: nothing on standard output" test ! -s "$OUT"

run "$SCHEDPLOT" compare -q "${a[@]}" --vs "$TRACES/unusable/no-sched.dat" -o "$TMP/bad.png"
expect_status 1 "a trace without scheduler events"
expect_stderr_line "^schedplot: .*no-sched.dat: no scheduler events" \
	"a trace without scheduler events: said"
check "a trace without scheduler events: no image left" test ! -e "$TMP/bad.png"

run "$SCHEDPLOT" compare --json -q "${a[@]}" --vs
expect_status 2 "the second group empty after five runs"
expect_grep "$ERR" "^schedplot: the second group is empty" "the second group empty: said"
check "the second group empty: nothing on standard output" test ! -s "$OUT"

# ---- --view: each panel alone, and the ridgeline ----

for v in runs cdf shift ridgeline; do
	for ext in png svg pdf; do
		run "$SCHEDPLOT" compare -q --no-shift --view "$v" "${a[@]:0:2}" --vs "${b[@]:0:2}" \
			-o "$TMP/$v.$ext"
		if [ "$v" = shift ]; then
			expect_status 2 "--view shift with --no-shift: a usage error"
			check "--view shift with --no-shift: nothing written" test ! -e "$TMP/$v.$ext"
			break
		fi
		expect_status 0 "--view $v, .$ext"
	done
done
expect_grep "$TMP/ridgeline.svg" '</svg>' "--view ridgeline: SVG complete"
expect_grep "$TMP/ridgeline.pdf" '%%EOF' "--view ridgeline: PDF complete"
run "$SCHEDPLOT" compare -q --view shift --seed 3 "${a[@]}" --vs "${b[@]}" -o "$TMP/shift.png"
expect_status 0 "--view shift"
run "$SCHEDPLOT" compare -q --view shift --seed 3 "${a[@]}" --vs "${b[@]}" -o "$TMP/shift2.png"
check "--view shift: the same input gives the same bytes" cmp -s "$TMP/shift.png" "$TMP/shift2.png"
check "--view runs, cdf, shift and ridgeline differ from each other" bash -c \
	'[ "$(md5sum "$1"/{runs,cdf,shift,ridgeline}.png | cut -d" " -f1 | sort -u | wc -l)" = 4 ]' sh "$TMP"
run "$SCHEDPLOT" compare -q --no-shift --view ridgeline "${a[@]}" --vs "${b[@]}" -o "$TMP/r2.png"
run "$SCHEDPLOT" compare -q --no-shift --view ridgeline "${a[@]}" --vs "${b[@]}" -o "$TMP/r3.png"
check "--view ridgeline: the same input gives the same bytes" cmp -s "$TMP/r2.png" "$TMP/r3.png"

# the ridgeline: ten rows, A's five (orange) all above B's five (blue)
cat >"$TMP/ridge.py" <<'PY'
import struct, sys, zlib

def read_png(path):
    data = open(path, 'rb').read()
    pos, idat = 8, b''
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b'IHDR':
            w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
        elif kind == b'IDAT':
            idat += body
        pos += 12 + n
    bpp = 3 if ctype == 2 else 4
    raw, stride, rows, prev = zlib.decompress(idat), w * bpp, [], bytearray(w * bpp)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return w, h, bpp, rows

w, h, bpp, rows = read_png(sys.argv[1])
orange, blue = [], []
for y in range(h):
    for x in range(w):
        r, g, b = rows[y][x * bpp:x * bpp + 3]
        if r > 200 and b < 120 and g > 120:
            orange.append(y)
        elif b > 200 and r < 140:
            blue.append(y)
sys.exit(0 if len(orange) > 500 and len(blue) > 500 and max(orange) < min(blue) else 1)
PY
check "--view ridgeline: the first group's rows (orange) above the second's (blue)" \
	python3 "$TMP/ridge.py" "$TMP/r2.png"

run "$SCHEDPLOT" compare --view bogus "${a[@]:0:1}" --vs "${b[@]:0:1}" -o "$TMP/x.png"
expect_status 2 "--view bogus"
expect_grep "$ERR" "^schedplot: --view: runs, cdf, shift, ridgeline, datagraph or running-waiting, not 'bogus'" "--view bogus: said"
run "$SCHEDPLOT" compare --view runs "${a[@]:0:1}" --vs "${b[@]:0:1}"
expect_status 2 "--view without -o"
printf '1\n2\n3\n' >"$TMP/v.txt"
run "$SCHEDPLOT" compare --values --view ridgeline "$TMP/v.txt" --vs "$TMP/v.txt" -o "$TMP/x.png"
expect_status 2 "--view ridgeline with --values"
check "--view ridgeline with --values: nothing written" test ! -e "$TMP/x.png"

# ---- --view datagraph: every run's datagraph, one time scale ----

for ext in png svg pdf; do
	run "$SCHEDPLOT" compare -q --no-shift --view datagraph "${a[@]}" --vs "${b[@]}" \
		-o "$TMP/dg.$ext"
	expect_status 0 "--view datagraph, .$ext"
done
expect_grep "$TMP/dg.svg" '</svg>' "--view datagraph: SVG complete"
expect_grep "$TMP/dg.pdf" '%%EOF' "--view datagraph: PDF complete"
run "$SCHEDPLOT" compare -q --no-shift --view datagraph "${a[@]}" --vs "${b[@]}" -o "$TMP/dg2.png"
check "--view datagraph: the same input gives the same bytes" cmp -s "$TMP/dg.png" "$TMP/dg2.png"
# the charts are gathered in the pass that gives the numbers: one pass a
# trace, so its repairs are told once
run "$SCHEDPLOT" compare --no-shift --view datagraph "${a[0]}" --vs "${b[0]}" -o "$TMP/dg3.png"
expect_status 0 "--view datagraph without -q"
check "--view datagraph: one pass a trace, its repairs told once" \
	test "$(grep -c "t2-1.dat: repaired 26 inconsistencies" "$ERR")" = 1
run "$SCHEDPLOT" compare --no-shift --skip-warmup auto "${a[0]}" --vs "${b[0]}"
check "--skip-warmup auto: the second pass over a trace does not tell its repairs again" \
	test "$(grep -c "t2-1.dat: repaired 26 inconsistencies" "$ERR")" = 1

# bands: runs of image rows mostly covered by a chart (not white)
cat >"$TMP/bands.py" <<'PY'
import sys
exec(open(sys.argv[1]).read().split("w, h, bpp, rows = read_png")[0])
w, h, bpp, rows = read_png(sys.argv[2])

def white(px):
    return px[0] > 245 and px[1] > 245 and px[2] > 245

bands, start = [], None
for y in range(h + 1):
    full = y < h and sum(not white(rows[y][x * bpp:x * bpp + 3]) for x in range(w)) > w // 2
    if full and start is None:
        start = y
    elif not full and start is not None:
        bands.append((start, y))
        start = None
want = int(sys.argv[3])
if len(bands) != want:
    sys.exit("%d bands, expected %d: %s" % (len(bands), want, bands))
if sys.argv[4] == "same":
    (a0, a1), (b0, b1) = bands
    sys.exit(0 if a1 - a0 == b1 - b0 and rows[a0:a1] == rows[b0:b1] else "the charts differ")
# "shorter": the second run is shorter: the right tenth of its chart is
# no data (grey hatching), the first's is not
def grey(y0, y1):
    n = 0
    for y in range(y0 + 2, y1 - 2):
        for x in range(w * 85 // 100, w * 95 // 100):
            r, g, b = rows[y][x * bpp:x * bpp + 3]
            n += abs(r - g) < 8 and abs(g - b) < 8 and 150 < r < 235
    return n / ((y1 - y0 - 4) * (w // 10))
sys.exit(0 if grey(*bands[0]) < 0.1 and grey(*bands[1]) > 0.5 else
         "grey: %.2f and %.2f" % (grey(*bands[0]), grey(*bands[1])))
PY
run "$SCHEDPLOT" compare -q --no-shift --view datagraph "${a[0]}" --vs "${a[0]}" -o "$TMP/same.png" \
	--width 500 --height 400
check "--view datagraph: one trace in both groups gives two identical charts (colours by command)" \
	python3 "$TMP/bands.py" "$TMP/ridge.py" "$TMP/same.png" 2 same
# t2-1 lasted 794 ms, t2-5 475 ms: on one time scale t2-5 ends at 60%
run "$SCHEDPLOT" compare -q --no-shift --view datagraph "${a[0]}" --vs "${a[4]}" -o "$TMP/short.png" \
	--width 500 --height 400
check "--view datagraph: one time scale, the shorter run's chart ends early (no data after)" \
	python3 "$TMP/bands.py" "$TMP/ridge.py" "$TMP/short.png" 2 shorter
run "$SCHEDPLOT" compare --values --view datagraph "$TMP/v.txt" --vs "$TMP/v.txt" -o "$TMP/x.png"
expect_status 2 "--view datagraph with --values"

# ---- --view running-waiting: every run's graph, one time and one y scale ----

for ext in png svg pdf; do
	run "$SCHEDPLOT" compare -q --no-shift --view running-waiting "${a[@]}" --vs "${b[@]}" \
		-o "$TMP/rw.$ext"
	expect_status 0 "--view running-waiting, .$ext"
done
expect_grep "$TMP/rw.svg" '</svg>' "--view running-waiting: SVG complete"
expect_grep "$TMP/rw.pdf" '%%EOF' "--view running-waiting: PDF complete"
run "$SCHEDPLOT" compare -q --no-shift --view running-waiting "${a[@]}" --vs "${b[@]}" -o "$TMP/rw2.png"
check "--view running-waiting: the same input gives the same bytes" cmp -s "$TMP/rw.png" "$TMP/rw2.png"

# the waiting line (red) of each panel: the shorter run's ends at about 60%
# of the longer's on the common time scale (t2-5 lasted 475 ms, t2-1 794 ms)
cat >"$TMP/rwends.py" <<'PY'
import sys
exec(open(sys.argv[1]).read().split("w, h, bpp, rows = read_png")[0])
w, h, bpp, rows = read_png(sys.argv[2])

def red(px):
    return px[0] > 200 and px[1] < 120 and px[2] < 120

ys = [y for y in range(h) if any(red(rows[y][x * bpp:x * bpp + 3]) for x in range(w))]
# two panels: the red rows fall into two groups, split at the largest gap
gaps = max(range(1, len(ys)), key=lambda i: ys[i] - ys[i - 1])
top, bottom = ys[:gaps], ys[gaps:]
def right(rs):
    return max(x for y in rs for x in range(w) if red(rows[y][x * bpp:x * bpp + 3]))
def left(rs):
    return min(x for y in rs for x in range(w) if red(rows[y][x * bpp:x * bpp + 3]))
l, r1, r2 = left(top), right(top), right(bottom)
frac = (r2 - l) / (r1 - l)
sys.exit(0 if abs(frac - 475.2 / 794.2) < 0.03 else "the shorter run ends at %.3f" % frac)
PY
run "$SCHEDPLOT" compare -q --no-shift --view running-waiting "${a[0]}" --vs "${a[4]}" \
	-o "$TMP/rwshort.png" --width 600 --height 400
check "--view running-waiting: one time scale, the shorter run's graph ends at its end" \
	python3 "$TMP/rwends.py" "$TMP/ridge.py" "$TMP/rwshort.png"
run "$SCHEDPLOT" compare --values --view running-waiting "$TMP/v.txt" --vs "$TMP/v.txt" -o "$TMP/x.png"
expect_status 2 "--view running-waiting with --values"
