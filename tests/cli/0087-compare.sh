#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# schedplot compare: identical groups show no difference, the statistics
# match published values, every run's numbers match stats, the figure is
# written, and bad input fails with one clear line and nothing written.
. "$(dirname "$0")/../lib/lib.sh"

ov=$TRACES/overload.dat
ov6=$TRACES/overload-v6.dat
msg=$TRACES/messaging.dat

# json_check WHAT PYTHON-EXPRESSION: true for the JSON in $OUT (as d)
json_check() {
	if ! command -v python3 >/dev/null; then
		skip "$1: no python3"
		return
	fi
	if python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if eval(sys.argv[2]) else 1)' "$OUT" "$2" 2>"$TMP/py.err"; then
		ok "$1"
	else
		not_ok "$1: $2 is false ($(head -c 300 "$TMP/py.err"))"
	fi
}

# ---- the same recording in two formats: no difference at all ----

run "$SCHEDPLOT" compare --json -q "$ov" --vs "$ov6"
expect_status 0 "one run against the same run"
json_check "identical runs: every change 0, p 1, nothing significant" \
	'all(m["change"] == 0 and m["p_value"] == 1 and not m["significant"] for m in d["metrics"])'
json_check "identical runs: names from the files" \
	'[g["name"] for g in d["groups"]] == ["overload", "overload-v6"]'
json_check "identical runs: one metric per number of a run" \
	'[m["name"] for m in d["metrics"]] == ["duration", "running_avg", "waiting_avg", "idle_while_waiting", "lost_fraction", "wakeup_p50", "wakeup_p99", "migrations_per_s"]'
json_check "identical runs: no interval of the median from one run" \
	'all(m[g]["ci_low"] is None and m[g]["n"] == 1 for m in d["metrics"] for g in "ab")'
json_check "identical runs: the shift function is flat" \
	'len(d["shift"]) == 9 and all(s["diff"] == 0 and not s["significant"] for s in d["shift"])'

run "$SCHEDPLOT" compare "$ov" --vs "$ov6"
expect_status 0 "text table"
if [ "$(grep -cE '^[a-z_0-9]+ .* ~ +0\.50 +\(p=1\.000 n=1\+1\)$' "$OUT")" = 8 ]; then
	ok "text table: eight metrics, each ~ with p=1.000 n=1+1"
else
	not_ok "text table: expected eight lines with ~ (p=1.000 n=1+1): $(head -c 600 "$OUT")"
fi
expect_grep "$OUT" "^checks of the samples:" "the checks above the table"
expect_grep "$OUT" "^  too few: 1 and 1 runs: p cannot go below 1, so no difference can be shown" \
	"one run per group: said once, above the table, that no difference can be shown"
expect_grep "$OUT" "no interval of the shift function below 5 runs a group" \
	"few runs: said that the shift function has no intervals"
check "the checks are not repeated on standard error" bash -c "! grep -q 'too few\|few_runs' '$ERR'"
expect_grep "$OUT" "^  repairs: 248 repairs in 2 runs of 2: overload.dat 124, overload-v6.dat 124 " \
	"repairs: 124 a run (traces/README), named once"
run "$SCHEDPLOT" compare --json "$ov" --vs "$ov6"
json_check "JSON: the checks, each kind once" \
	'[k["check"] for k in d["checks"]] == ["few_runs", "repairs"]'
json_check "JSON: a run's repairs, lost and censored waits" \
	'all(r["repairs"] == 124 and r["lost_events"] == 0 and r["lost_events_exact"] for g in d["groups"] for r in g["runs"])'
expect_grep "$ERR" "warning: few_runs: 1 and 1 runs: p cannot go below 1" \
	"--json: the checks are warnings too, as no table is printed"

# contradicted waits: duty.dat has 12 (stats counts them; tests/oracle/report-why.py
# finds them in trace-cmd report), listed once with the runs like the repairs
duty=$TRACES/ink/duty.dat
run "$SCHEDPLOT" stats --json -q "$duty"
json_check "contradicted waits: stats counts 12 in duty.dat" 'd["contradicted_waits"]["count"] == 12'
run "$SCHEDPLOT" compare -q --no-shift "$duty" "$duty" --vs "$duty"
expect_grep "$OUT" "^  contradicted waits: 36 waits contradicted in 3 runs of 3: duty.dat 12, duty.dat 12," \
	"contradicted waits: 12 a run, as stats counts them, above the table"
check "contradicted waits: listed once" test "$(grep -c contradicted "$OUT")" = 1
run "$SCHEDPLOT" compare --json -q --no-shift "$duty" "$duty" --vs "$duty"
json_check "contradicted waits: in the JSON, a check and each run's count" \
	"'contradicted_waits' in [k['check'] for k in d['checks']] and [r['contradicted_waits'] for g in d['groups'] for r in g['runs']] == [12] * 3"
run "$SCHEDPLOT" compare --json "$ov" --vs "$ov6"
json_check "contradicted waits: none in overload.dat: no check, 0 a run" \
	"'contradicted_waits' not in [k['check'] for k in d['checks']] and all(r['contradicted_waits'] == 0 for g in d['groups'] for r in g['runs'])"

# lost events: overflow.dat lost 7422 on CPU 1 and an unknown count on CPU 0
# (trace-cmd report: "[7422 EVENTS DROPPED]" and "[EVENTS DROPPED]")
run "$SCHEDPLOT" compare -q "$TRACES/overflow.dat" --vs "$ov"
expect_grep "$OUT" "^  lost events: 7423 or more events lost in 1 run of 2: overflow.dat 7423 " \
	"lost events: named, with the run"
expect_grep "$OUT" "^  repairs: 131 repairs in 2 runs of 2: overflow.dat 7, overload.dat 124 " \
	"repairs: 7 and 124 (traces/README)"
expect_grep "$OUT" '^-: no interval, no significance: fewer than 5 runs in a group .1 and 1.' \
	"few runs: the table says why the shift function has no intervals"

# six runs a side: an interval of the median, runs resampled whole
run "$SCHEDPLOT" compare --json -q --names before,after "$ov" "$ov6" "$ov" "$ov6" "$ov" "$ov6" \
	--vs "$ov6" "$ov" "$ov6" "$ov" "$ov6" "$ov"
expect_status 0 "six identical runs a side"
json_check "six runs: --names" '[g["name"] for g in d["groups"]] == ["before", "after"]'
json_check "six runs: an interval of the median, of width 0" \
	'all(m[g]["ci_low"] == m[g]["median"] == m[g]["ci_high"] for m in d["metrics"] for g in "ab")'
json_check "six runs: U = 18 (all ties), p = 1" \
	'all(m["u"] == 18 and m["p_value"] == 1 for m in d["metrics"])'
json_check "six runs: whole runs resampled" 'd["shift_resample"] == "runs"'
if grep -q "warning" "$ERR"; then
	not_ok "six runs: no warning expected: $(head -c 300 "$ERR")"
else
	ok "six runs: no warning"
fi

run "$SCHEDPLOT" compare --json -q --no-shift "$ov" --vs "$ov6"
json_check "--no-shift: none" 'd["shift"] == []'

# ---- a run's numbers are those of stats ----

run "$SCHEDPLOT" stats --json -q "$msg"
cp "$OUT" "$TMP/stats.json"
run "$SCHEDPLOT" compare --json -q "$msg" --vs "$ov"
expect_status 0 "two different recordings"
json_check "a run's numbers are those of stats --json" '(lambda s, r: abs(r["running_avg"] - s["running_avg"]) < 1e-6 and abs(r["waiting_avg"] - s["waiting_avg"]) < 1e-6 and abs(r["lost_fraction"] - s["lost_fraction"]) < 1e-8 and r["wakeup_p50_ns"] == s["wakeup_latency_ns"]["p50"] and r["wakeup_p99_ns"] == s["wakeup_latency_ns"]["p99"] and abs(r["duration_s"] - (s["window_ns"][1] - s["window_ns"][0]) / 1e9) < 1e-9 and abs(r["idle_while_waiting"] - s["idle_while_waiting_ns"] / (s["window_ns"][1] - s["window_ns"][0])) < 1e-9)(json.load(open(sys.argv[1].replace("stdout", "stats.json"))), d["groups"][0]["runs"][0])'

run "$SCHEDPLOT" compare --json -q --target barrier "$ov" --vs "$ov6"
expect_status 0 "--target"
json_check "--target: the duration spans the target's runs" \
	'0.73 < d["groups"][0]["runs"][0]["duration_s"] < 0.75 and d["metrics"][0]["change"] == 0'

# ---- files of numbers: SciPy's example and a clear difference ----

printf '19\n22\n16\n29\n24\n' >"$TMP/a.txt"
printf '# run times\n20\n11\n\n17\n12\n' >"$TMP/b.txt"
run "$SCHEDPLOT" compare --json --values "$TMP/a.txt" --vs "$TMP/b.txt"
expect_status 0 "--values"
json_check "--values: U = 17, exact p = 1/9 (scipy.stats.mannwhitneyu)" \
	'd["metrics"][0]["u"] == 17 and d["metrics"][0]["p_value"] == 0.1111111111111111'
json_check "--values: one metric named value, no shift function" \
	'[m["name"] for m in d["metrics"]] == ["value"] and d["shift"] == []'
json_check "--values: summaries" \
	'd["metrics"][0]["a"]["median"] == 22 and d["metrics"][0]["b"]["median"] == 14.5 and d["metrics"][0]["b"]["n"] == 4 and d["metrics"][0]["a"]["min"] == 16 and d["metrics"][0]["a"]["max"] == 29'

run "$SCHEDPLOT" compare --values "$TMP/a.txt" --vs "$TMP/b.txt"
expect_grep "$OUT" '^value +22 ± ∞ +14\.5 ± ∞ +~ +0\.15 \[0\.00, 0\.42\] +\(p=0\.111 n=5\+4\)$' "--values: text line"

printf 'run,ops,note\n1,19,a\n2,22,b\n3,16,\n4,29,c\n5,24,d\n' >"$TMP/a.csv"
printf 'run,ops\n1,20\n2,11\n3,17\n4,12\n' >"$TMP/b.csv"
run "$SCHEDPLOT" compare --json --values --column ops "$TMP/a.csv" --vs "$TMP/b.csv"
expect_status 0 "--column"
json_check "--column: the same numbers as one per line" \
	'd["metrics"][0]["u"] == 17 and d["metrics"][0]["p_value"] == 0.1111111111111111'

seq 1 6 >"$TMP/lo.txt"
seq 7 12 >"$TMP/hi.txt"
run "$SCHEDPLOT" compare --json --values --shift "$TMP/lo.txt" --vs "$TMP/hi.txt"
expect_status 0 "--values --shift"
json_check "separated groups: U = 0, p = 2/924, significant, change +171%" \
	'abs(d["metrics"][0]["p_value"] - 2 / 924) < 1e-15 and d["metrics"][0]["u"] == 0 and d["metrics"][0]["significant"] and abs(d["metrics"][0]["change"] - 6 / 3.5) < 1e-12'
json_check "separated groups: interval [x(1), x(6)] with six values" \
	'd["metrics"][0]["a"]["ci_low"] == 1 and d["metrics"][0]["a"]["ci_high"] == 6'
json_check "separated groups: the shift function is +6 everywhere" \
	'len(d["shift"]) == 9 and all(abs(s["diff"] - 6) < 1e-9 for s in d["shift"])'
cp "$OUT" "$TMP/seed1.json"
run "$SCHEDPLOT" compare --json --values --shift --seed 1 "$TMP/lo.txt" --vs "$TMP/hi.txt"
check "--seed 1 is the default: the same output" cmp -s "$OUT" "$TMP/seed1.json"
run "$SCHEDPLOT" compare --values --alpha 0.001 "$TMP/lo.txt" --vs "$TMP/hi.txt"
expect_grep "$OUT" '^value .* ~ +1\.00 +\(p=0\.002 n=6\+6\)$' "--alpha 0.001: p = 0.002 is no difference"
expect_grep "$OUT" "^  too few: 6 and 6 values: p cannot go below 0.00216, so no difference can be shown at 0.001" \
	"--alpha below the least p: said"

# tiny groups: the bootstrap of 1 to 3 values has 1 to 10 distinct resamples;
# no decile gets an interval or a star (a decile q needs n values a group
# with 1 - q^n - (1-q)^n >= 0.95: 6 for the median, as benchstat's n >= 6)
for n in 1 2 3; do
	seq 1 "$n" >"$TMP/t$n-a.txt"
	seq 5 $((n + 4)) >"$TMP/t$n-b.txt"
	run "$SCHEDPLOT" compare --json -q --values --shift "$TMP/t$n-a.txt" --vs "$TMP/t$n-b.txt"
	expect_status 0 "$n against $n values"
	json_check "$n against $n values: no decile significant, no interval, no p, each says why" \
		'all(not s["significant"] and s["p_value"] is None and s["ci_low"] is None and s["ci_high"] is None and "values a group" in s["withheld"] for s in d["shift"]) and not d["metrics"][0]["significant"]'
	run "$SCHEDPLOT" compare -q --values --shift "$TMP/t$n-a.txt" --vs "$TMP/t$n-b.txt"
	if grep -q '\*$' "$OUT"; then
		not_ok "$n against $n values: a star in the table: $(grep '\*$' "$OUT" | head -2)"
	else
		ok "$n against $n values: no star in the table"
	fi
	expect_grep "$OUT" "^-: no interval, no significance: the smaller group has $n value" \
		"$n against $n values: the table says why"
done
# the CV check: 1 2 3 has CV 50%, 5 6 7 has 16.7%
run "$SCHEDPLOT" compare --json -q --values "$TMP/t3-a.txt" --vs "$TMP/t3-b.txt"
json_check "unstable: both groups' CV above 10%, with their values" \
	'(lambda k: "CV 50.0%" in k["message"] and "CV 16.7%" in k["message"])(next(k for k in d["checks"] if k["check"] == "unstable"))'
seq 1000 1005 >"$TMP/stable.txt"
run "$SCHEDPLOT" compare --json -q --values "$TMP/stable.txt" --vs "$TMP/stable.txt"
json_check "six stable values a side: no check at all" 'd["checks"] == []'

# ten apart by 100: the middle deciles are significant, 0.1, 0.2, 0.8 and 0.9 withheld
seq 1 10 >"$TMP/ten-a.txt"
seq 101 110 >"$TMP/ten-b.txt"
run "$SCHEDPLOT" compare --json -q --values --shift "$TMP/ten-a.txt" --vs "$TMP/ten-b.txt"
json_check "10 against 10 values: deciles 0.3 to 0.7 significant, the others withheld" \
	'[s["significant"] for s in d["shift"]] == [False, False, True, True, True, True, True, False, False] and [s["withheld"] is None for s in d["shift"]] == [False, False, True, True, True, True, True, False, False]'

# ---- effect size, noise threshold, --fail-on ----

# statpsych's ci.mann example: P(B > A) = 0.795 (Sen's interval: see
# tests/unit/test-compare.c for its standard error)
printf '%s\n' 32 39 26 35 43 27 40 37 34 29 >"$TMP/y1.txt"
printf '%s\n' 36 44 47 42 49 39 46 31 33 48 >"$TMP/y2.txt"
run "$SCHEDPLOT" compare --json -q --values "$TMP/y1.txt" --vs "$TMP/y2.txt"
json_check "P(B > A) = 0.795 (statpsych ci.mann), interval around it" \
	'(lambda s: abs(s["p"] - 0.795) < 1e-12 and s["ci_low"] < 0.795 < s["ci_high"] <= 1)(d["metrics"][0]["superiority"])'
json_check "threshold 1% by default" 'd["threshold"] == 0.01'

# B above A by +1% less a hair: significant (p = 2/924), but noise at 1%
printf '%s\n' 1000 1001 1002 1003 1004 1005 >"$TMP/n-a.txt"
printf '%s\n' 1010 1011 1012 1013 1014 1015 >"$TMP/n-b.txt"
run "$SCHEDPLOT" compare --json -q --values --fail-on regression "$TMP/n-a.txt" --vs "$TMP/n-b.txt"
expect_status 0 "a significant +0.998% is noise under the 1% threshold: --fail-on does not fail"
json_check "+0.998%: significant, verdict noise" \
	'd["metrics"][0]["significant"] and d["metrics"][0]["verdict"] == "noise"'
run "$SCHEDPLOT" compare -q --values "$TMP/n-a.txt" --vs "$TMP/n-b.txt"
expect_grep "$OUT" '^value .* ≈ ' "noise: ≈ in the table"
expect_grep "$OUT" "^≈: p <= 0.05, but the change's 95% interval is not wholly beyond the noise threshold \\(±1%\\)" \
	"noise: explained"
run "$SCHEDPLOT" compare --json -q --values --threshold 0.5% --fail-on regression \
	"$TMP/n-a.txt" --vs "$TMP/n-b.txt"
expect_status 3 "--threshold 0.5%: +0.998% is a regression, --fail-on regression exits 3"
cp "$OUT" "$TMP/fail.json"
json_check "--threshold 0.5%: verdict worse" 'd["metrics"][0]["verdict"] == "worse" and d["threshold"] == 0.005'
run "$SCHEDPLOT" compare --json -q --values --threshold 0.005 "$TMP/n-a.txt" --vs "$TMP/n-b.txt"
expect_status 0 "without --fail-on: exit 0"
check "--fail-on leaves the JSON as it was" cmp -s "$OUT" "$TMP/fail.json"
run "$SCHEDPLOT" compare -q --values --threshold 0.5% --fail-on regression \
	"$TMP/n-b.txt" --vs "$TMP/n-a.txt"
expect_status 0 "lower values (times): an improvement is no regression"
run "$SCHEDPLOT" compare -q --values --threshold 0.5% --fail-on change \
	"$TMP/n-b.txt" --vs "$TMP/n-a.txt"
expect_status 3 "--fail-on change: an improvement fails too"
run "$SCHEDPLOT" compare -q --values --fail-on change "$TMP/y1.txt" --vs "$TMP/y1.txt"
expect_status 0 "--fail-on change: identical groups pass"
# criterion's rule: the interval, not the median, is weighed against the
# threshold.  10..15 against 16..21: the median +48%, the interval of the
# shift [3, 9] (k = 6 of the 36 differences, R's wilcox.test(conf.int =
# TRUE); enumerated in Python) over the median 12.5: [+24%, +72%]
printf '%s\n' 10 11 12 13 14 15 >"$TMP/c-a.txt"
printf '%s\n' 16 17 18 19 20 21 >"$TMP/c-b.txt"
run "$SCHEDPLOT" compare --json -q --values --threshold 30% --fail-on regression \
	"$TMP/c-a.txt" --vs "$TMP/c-b.txt"
expect_status 0 "--threshold 30%: +48% of the median, but the interval reaches +24%: noise, no failure"
json_check "--threshold 30%: the change's interval [0.24, 0.72], verdict noise" \
	'(lambda m: abs(m["change"] - 0.48) < 1e-12 and abs(m["change_ci"][0] - 0.24) < 1e-12 and abs(m["change_ci"][1] - 0.72) < 1e-12 and m["significant"] and m["verdict"] == "noise")(d["metrics"][0])'
run "$SCHEDPLOT" compare --json -q --values --threshold 20% --fail-on regression \
	"$TMP/c-a.txt" --vs "$TMP/c-b.txt"
expect_status 3 "--threshold 20%: the whole interval above +20%: a regression"
json_check "--threshold 20%: verdict worse" 'd["metrics"][0]["verdict"] == "worse"'
run "$SCHEDPLOT" compare --json -q --values --threshold 30% "$TMP/c-b.txt" --vs "$TMP/c-a.txt"
json_check "the other way round: the interval [-9, -3] over 18.5, noise at 30% too" \
	'(lambda m: abs(m["change_ci"][0] + 9 / 18.5) < 1e-12 and abs(m["change_ci"][1] + 3 / 18.5) < 1e-12 and m["verdict"] == "noise")(d["metrics"][0])'
run "$SCHEDPLOT" compare --json -q --values "$TMP/y1.txt" --vs "$TMP/y1.txt"
json_check "no difference shown: verdict same, the interval around 0" \
	'(lambda m: m["verdict"] == "same" and m["change_ci"][0] <= 0 <= m["change_ci"][1])(d["metrics"][0])'

for bad in 1 abc 200% -1%; do
	run "$SCHEDPLOT" compare -q --values --threshold "$bad" "$TMP/y1.txt" --vs "$TMP/y2.txt"
	expect_status 2 "--threshold $bad: a usage error"
done
run "$SCHEDPLOT" compare -q --values --fail-on worse "$TMP/y1.txt" --vs "$TMP/y2.txt"
expect_status 2 "--fail-on worse: a usage error"
expect_grep "$ERR" "fail-on: regression or change, not 'worse'" "--fail-on worse: said"

cp "$TMP/a.txt" "$TMP/-a.txt"
run bash -c 'cd "$1" && "$2" compare --json --values b.txt --vs -- -a.txt' sh "$TMP" "$SCHEDPLOT"
expect_status 0 "a file after --"
json_check "a file after --: in the second group, U of the first" \
	'd["groups"][1]["runs"][0]["file"] == "-a.txt" and d["metrics"][0]["u"] == 3'

# ---- figures ----

for ext in png svg pdf; do
	run "$SCHEDPLOT" compare -q "$ov" "$msg" --vs "$ov6" "$msg" -o "$TMP/cmp.$ext" \
		--metric wakeup_p99 --title "compare test"
	expect_status 0 "figure .$ext"
done
run "$SCHEDPLOT" compare -q "$ov" "$msg" --vs "$ov6" "$msg" -o "$TMP/again.png" \
	--metric wakeup_p99 --title "compare test"
check "the same input gives the same PNG, byte for byte" cmp -s "$TMP/cmp.png" "$TMP/again.png"
check "PNG signature" bash -c "head -c 8 '$TMP/cmp.png' | od -An -tx1 | grep -q '89 50 4e 47 0d 0a 1a 0a'"
expect_grep "$TMP/cmp.svg" '</svg>' "SVG complete"
expect_grep "$TMP/cmp.pdf" '%%EOF' "PDF complete"
run "$SCHEDPLOT" compare --values --shift "$TMP/lo.txt" --vs "$TMP/hi.txt" -o - --format png
expect_status 0 "-o - writes the image to standard output"
check "-o -: only the image on standard output" \
	bash -c "head -c 8 '$OUT' | od -An -tx1 | grep -q '89 50 4e 47'"

# the runs panel: each group on its own side, in its own colour
if command -v python3 >/dev/null; then
	cat >"$TMP/probe.py" <<'PY'
import struct, sys, zlib

def read_png(path):
    data = open(path, 'rb').read()
    assert data[:8] == b'\x89PNG\r\n\x1a\n'
    pos, idat = 8, b''
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b'IHDR':
            w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
        elif kind == b'IDAT':
            idat += body
        pos += 12 + n
    assert depth == 8 and ctype in (2, 6)
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
# the runs panel: A's colour (palette 0) only left of every pixel of B's (palette 1)
colors = {'a': (0xe6, 0x9f, 0x00), 'b': (0x56, 0xb4, 0xe9)}
xs = {'a': [], 'b': []}
for y in range(h):
    for x in range(w):
        px = tuple(rows[y][x * bpp:x * bpp + 3])
        for g, c in colors.items():
            if px == c:
                xs[g].append(x)
ok = len(xs['a']) > 20 and len(xs['b']) > 20 and max(xs['a']) < min(xs['b'])
sys.exit(0 if ok else 1)
PY
	run "$SCHEDPLOT" compare --values "$TMP/lo.txt" --vs "$TMP/hi.txt" -o "$TMP/runs.png" \
		--width 400 --height 300
	check "runs panel: A's runs in A's colour, left of B's in B's" python3 "$TMP/probe.py" "$TMP/runs.png"
else
	skip "runs panel pixels: no python3"
fi

# ---- different machines: allowed, noted ----

if [ -x "$SRCDIR/build/tests/gen-trace" ]; then
	"$SRCDIR/build/tests/gen-trace" -c 4 -e 3000 -o "$TMP/four.dat" >/dev/null 2>&1
	run "$SCHEDPLOT" compare "$ov" --vs "$TMP/four.dat"
	expect_status 0 "2 CPUs against 4"
	expect_grep "$ERR" "^schedplot: note: .*overload.dat has 2 CPUs, .*four.dat has 4" \
		"2 CPUs against 4: noted"
else
	skip "build/tests/gen-trace not built: different CPU counts not checked"
fi

# ---- bad input: one clear line, the right status, nothing written ----

run "$SCHEDPLOT" compare "$ov" --vs
expect_status 2 "second group empty"
expect_grep "$ERR" "^schedplot: the second group is empty" "second group empty: said"
run "$SCHEDPLOT" compare --vs "$ov"
expect_status 2 "first group empty"
run "$SCHEDPLOT" compare "$ov" "$ov6"
expect_status 2 "no --vs"
expect_grep "$ERR" "Try 'schedplot compare --help'" "no --vs: points to --help"
run "$SCHEDPLOT" compare "$ov" --vs "$ov6" --vs "$ov"
expect_status 2 "--vs twice"
run "$SCHEDPLOT" compare --metric bogus "$ov" --vs "$ov6" -o "$TMP/x.png"
expect_status 2 "unknown --metric"
run "$SCHEDPLOT" compare --column x "$ov" --vs "$ov6"
expect_status 2 "--column without --values"
run "$SCHEDPLOT" compare --names onlyone "$ov" --vs "$ov6"
expect_status 2 "--names with one name"
run "$SCHEDPLOT" compare --alpha 2 "$ov" --vs "$ov6"
expect_status 2 "--alpha out of range"

printf 'not a trace\n' >"$TMP/text.dat"
run "$SCHEDPLOT" compare "$ov" --vs "$TMP/text.dat" -o "$TMP/bad.png"
expect_status 1 "a file that is not a trace"
expect_stderr_line "^schedplot: .*text.dat: .*not a trace-cmd" "a file that is not a trace"
check "a file that is not a trace: no image left" test ! -e "$TMP/bad.png"
check "a file that is not a trace: nothing on standard output" test ! -s "$OUT"

printf '# nothing yet\n\n' >"$TMP/none.txt"
run "$SCHEDPLOT" compare --values "$TMP/a.txt" --vs "$TMP/none.txt"
expect_status 1 "a file without numbers"
expect_stderr_line "^schedplot: .*none.txt: no numbers in it$" "a file without numbers"
printf '1\n2\nabc\n' >"$TMP/abc.txt"
run "$SCHEDPLOT" compare --values "$TMP/abc.txt" --vs "$TMP/a.txt"
expect_status 1 "a line that is no number"
expect_stderr_line "^schedplot: .*abc.txt: line 3: 'abc' is not a number$" "a line that is no number"
run "$SCHEDPLOT" compare --values --column nope "$TMP/a.csv" --vs "$TMP/b.csv"
expect_status 1 "a missing column"
expect_stderr_line "^schedplot: .*a.csv: no column 'nope'" "a missing column"

run "$SCHEDPLOT" compare -q --target no-such-task "$ov" --vs "$ov6" -o "$TMP/bad.png"
expect_status 1 "--target matching nothing"
expect_stderr_line "^schedplot: .*overload.dat: no task matching --target 'no-such-task' ran" \
	"--target matching nothing"
check "--target matching nothing: no image left" test ! -e "$TMP/bad.png"

cp "$TMP/a.txt" "$TMP/in.png"
run "$SCHEDPLOT" compare --values "$TMP/in.png" --vs "$TMP/b.txt" -o "$TMP/in.png"
expect_status 2 "the output is an input"
check "the output is an input: the input is intact" cmp -s "$TMP/in.png" "$TMP/a.txt"

run "$SCHEDPLOT" compare "$ov" --vs "$ov6" -o "$TMP/no-such-dir/x.png"
expect_status 1 "an output in a missing directory"
expect_stderr_line "^schedplot: .*no-such-dir/x.png: cannot create output" \
	"an output in a missing directory: fails before reading the traces"
