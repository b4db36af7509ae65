#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The datagraph's power layers (--freq, --freq merged, --idle-states) and
# stats' mean frequencies, against trace-cmd report on a real trace that
# holds power:cpu_frequency and power:cpu_idle records; the options'
# spellings, their use in overview, and traces without the events.
. "$(dirname "$0")/../lib/lib.sh"

export SOURCE_DATE_EPOCH=1700000000
fails() { ! "$@"; }

# colorbar STEPS NR_ROWS TRACE NAME [DATAGRAPH OPTIONS]: the color bar of
# --freq, --freq merged, in color and grey, against the rows' colors
colorbar() {
	local steps=$1 nr=$2 trace=$3 name=$4 mode pal ext args
	shift 4
	for mode in rows merged; do
		for pal in default grey; do
			for ext in png svg; do
				run "$SCHEDPLOT" datagraph -q --freq $mode --palette $pal \
					--cpu-order numeric --title '' --height 400 "$@" \
					-o "$TMP/$name-$mode-$pal.$ext" "$trace"
				expect_status 0 "$name: datagraph --freq $mode --palette $pal to $ext"
			done
			args=()
			[ $mode = merged ] && args+=(--merged)
			[ $pal = grey ] && args+=(--grey)
			python3 "$SRCDIR/tests/oracle/check-power-pixels.py" --colorbar "${args[@]}" \
				"$steps" "$nr" "$TMP/$name-$mode-$pal.png" \
				"$TMP/$name-$mode-$pal.svg" ||
				not_ok "$name: --freq $mode --palette $pal: the color bar"
		done
	done
}
plain=$TRACES/overload.dat
f=$SHARED/aarch64-6cpu-v6.dat

# ---- a trace without power events: a warning, unknown frequency, white idle ----
run "$SCHEDPLOT" datagraph --freq --idle-states -o "$TMP/none.png" "$plain"
expect_status 0 "--freq on a trace without power events"
expect_grep "$ERR" "no power:cpu_frequency events: the frequency is unknown everywhere" \
	"a warning says the frequency is unknown"
expect_grep "$ERR" "no power:cpu_idle events" "a warning says the idle states are unknown"
run "$SCHEDPLOT" datagraph -q --freq -o "$TMP/none.png" "$plain"
check "-q: no warning" test ! -s "$ERR"
run "$SCHEDPLOT" stats -q "$plain"
check "stats: no frequency table without the events" fails grep -q "mean frequency" "$OUT"
run "$SCHEDPLOT" stats -q --json "$plain"
check "stats --json: no frequency keys without the events" fails grep -q "cpu_freq" "$OUT"

# ---- spellings ----
for spelling in "--freq" "--freq=rows" "--freq rows" "--freq=merged" "--freq merged"; do
	# shellcheck disable=SC2086
	run "$SCHEDPLOT" datagraph -q $spelling -o "$TMP/s.png" "$plain"
	expect_status 0 "datagraph $spelling TRACE"
done
run "$SCHEDPLOT" datagraph -q -o "$TMP/s.png" "$plain" --freq
expect_status 0 "--freq after the trace"
run "$SCHEDPLOT" datagraph -q --freq=hot -o "$TMP/s.png" "$plain"
expect_status 2 "--freq=hot"
expect_grep "$ERR" "--freq takes rows or merged, not 'hot'" "--freq=hot names the modes"
run "$SCHEDPLOT" running-waiting -q --freq "$plain"
expect_status 2 "--freq does not apply to running-waiting"

# ---- a generated trace with power records, its truth and trace-cmd report ----
GEN=${GEN_TRACE:-$SRCDIR/${BUILD:-build}/tests/gen-trace}
g=$TMP/gen.dat
if [ -x "$GEN" ] && "$GEN" --cpus 8 --sockets 2 --power --seed 2 --events 20000 -o "$g" >/dev/null
then
	run "$SCHEDPLOT" stats -q --json "$g"
	expect_status 0 "stats --json on a generated trace with power records"
	python3 - "$OUT" "$g.json" <<'PY' && ok "generated: each CPU's mean frequency and known time equal the generator's truth" || not_ok "generated: mean frequencies differ from the truth"
import json, sys
ours, truth = (json.load(open(p)) for p in sys.argv[1:3])
assert ours["cpu_freq_known_ns"] == truth["cpu_freq_known_ns"], (ours["cpu_freq_known_ns"], truth)
assert len(truth["cpu_freq_known_ns"]) == 8
for c, v in truth["cpu_freq_mean_khz"].items():
    assert abs(ours["cpu_freq_mean_khz"][c] - v) < 2e-3, (c, ours["cpu_freq_mean_khz"][c], v)
assert ours["records"] == truth["records"]
PY
	if command -v trace-cmd >/dev/null; then
		python3 "$SRCDIR/tests/oracle/report-stats.py" --power-steps "$g" >"$TMP/gsteps"
		for mode in plain "--freq" "--freq merged" "--idle-states"; do
			name=g$(echo "$mode" | tr -d ' -')
			# shellcheck disable=SC2086
			run "$SCHEDPLOT" datagraph -q --no-legend --title '' --height 400 \
				--cpu-order numeric $( [ "$mode" = plain ] || echo $mode ) \
				-o "$TMP/$name.png" "$g"
			expect_status 0 "generated: datagraph $mode"
		done
		python3 "$SRCDIR/tests/oracle/check-power-pixels.py" "$TMP/gsteps" 8 \
			"$TMP/gplain.png" "$TMP/gfreq.png" "$TMP/gfreqmerged.png" \
			"$TMP/gidlestates.png" || not_ok "generated: power-layer pixels"
		# 4 ms around a frequency change: idle stretches many columns wide
		for mode in plain "--freq" "--freq merged" "--idle-states"; do
			name=gz$(echo "$mode" | tr -d ' -')
			# shellcheck disable=SC2086
			run "$SCHEDPLOT" datagraph -q --no-legend --title '' --height 400 \
				--cpu-order numeric --time 1.298,1.302 \
				$( [ "$mode" = plain ] || echo $mode ) -o "$TMP/$name.png" "$g"
			expect_status 0 "generated, zoomed: datagraph $mode"
		done
		awk '$1 == "span" { print "span 1298000000 1302000000"; next } { print }' \
			"$TMP/gsteps" >"$TMP/gzsteps"
		python3 "$SRCDIR/tests/oracle/check-power-pixels.py" "$TMP/gzsteps" 8 \
			"$TMP/gzplain.png" "$TMP/gzfreq.png" "$TMP/gzfreqmerged.png" \
			"$TMP/gzidlestates.png" || not_ok "generated, zoomed: power-layer pixels"
		# the color bar: at the PNG's width the SVG has the PNG's ticks
		colorbar "$TMP/gsteps" 8 "$g" gbar --width 1600
		colorbar "$TMP/gsteps" 8 "$g" gbar800 --width 800
		run "$SCHEDPLOT" datagraph -q --freq -o "$TMP/gbar.svg" "$g"
		expect_grep "$TMP/gbar.svg" "<linearGradient" "SVG: the color bar is a vector gradient"
	fi
else
	skip "gen-trace not built ($GEN): no generated trace with power records"
fi

if [ ! -f "$f" ]; then
	skip "aarch64-6cpu-v6.dat: ../shared/traces not here"
	exit 0
fi
if ! command -v trace-cmd >/dev/null || ! command -v python3 >/dev/null; then
	skip "trace-cmd or python3 missing: cannot cross-check against trace-cmd report"
	exit 0
fi

# ---- every layer and mark at once: the legend holds 64 tasks, the power
# keys and every mark's entry (its buffer once overflowed) ----
if [ -x "$GEN" ] && "$GEN" --cpus 64 --sockets 2 --power --topology-markers --events 200000 \
	-o "$TMP/wide.dat" >/dev/null; then
	run "$SCHEDPLOT" datagraph -q --freq merged --idle-states --migrations --wakeups \
		--placement --events power:cpu_idle -o "$TMP/wide.png" "$TMP/wide.dat"
	expect_status 0 "64 CPUs, every layer and mark: a full legend"
	check "64 CPUs, every layer and mark: a PNG" test -s "$TMP/wide.png"
else
	skip "gen-trace missing: no 64-CPU trace with every layer"
fi

# ---- stats: per-CPU time-weighted mean frequency ----
run "$SCHEDPLOT" stats -q --json "$f"
expect_status 0 "stats --json on the aarch64 trace"
cp "$OUT" "$TMP/ours.json"
python3 "$SRCDIR/tests/oracle/report-stats.py" "$f" >"$TMP/oracle.json"
python3 - "$TMP/ours.json" "$TMP/oracle.json" <<'PY' && ok "stats --json: each CPU's mean frequency and known time equal trace-cmd report's" || not_ok "stats --json: mean frequencies differ from trace-cmd report"
import json, sys
ours, want = (json.load(open(p)) for p in sys.argv[1:3])
assert ours["cpu_freq_known_ns"] == want["cpu_freq_known_ns"], (ours, want)
assert sorted(ours["cpu_freq_mean_khz"]) == sorted(want["cpu_freq_mean_khz"]) == list("012345")
for c, v in want["cpu_freq_mean_khz"].items():
    assert abs(ours["cpu_freq_mean_khz"][c] - v) < 1e-3, (c, ours["cpu_freq_mean_khz"][c], v)
PY
run "$SCHEDPLOT" stats -q "$f"
expect_grep "$OUT" "^ +1 +511\.4 MHz +230\.544 ms" "stats: CPU 1's mean frequency in the text"
run "$SCHEDPLOT" stats -q --cpus 1 --min 0.3 --json "$f"
python3 - "$OUT" <<'PY' && ok "stats --min 0.3: 450 MHz over the window's end (the last frequency of CPU 1)" || not_ok "stats --min 0.3: mean frequency wrong"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["cpu_freq_mean_khz"]["1"] == 450000, d["cpu_freq_mean_khz"]
PY

# ---- the layers' pixels, against the report ----
python3 "$SRCDIR/tests/oracle/report-stats.py" --power-steps "$f" >"$TMP/steps"
for mode in plain "--freq" "--freq merged" "--idle-states"; do
	name=$(echo "$mode" | tr -d ' -')
	# shellcheck disable=SC2086
	run "$SCHEDPLOT" datagraph -q --no-legend --title '' --height 400 --cpu-order numeric \
		$( [ "$mode" = plain ] || echo $mode ) -o "$TMP/$name.png" "$f"
	expect_status 0 "datagraph $mode"
done
python3 "$SRCDIR/tests/oracle/check-power-pixels.py" "$TMP/steps" 6 "$TMP/plain.png" \
	"$TMP/freq.png" "$TMP/freqmerged.png" "$TMP/idlestates.png" ||
	not_ok "power-layer pixels"

# zoomed: the same checks on a window of 80 ms
for mode in plain "--freq" "--freq merged" "--idle-states"; do
	name=z$(echo "$mode" | tr -d ' -')
	# shellcheck disable=SC2086
	run "$SCHEDPLOT" datagraph -q --no-legend --title '' --height 400 --cpu-order numeric \
		--time 2084.17,2084.25 $( [ "$mode" = plain ] || echo $mode ) -o "$TMP/$name.png" "$f"
	expect_status 0 "zoomed datagraph $mode"
done
awk '$1 == "span" { print "span 2084170000000 2084250000000"; next } { print }' "$TMP/steps" \
	>"$TMP/zsteps"
python3 "$SRCDIR/tests/oracle/check-power-pixels.py" "$TMP/zsteps" 6 "$TMP/zplain.png" \
	"$TMP/zfreq.png" "$TMP/zfreqmerged.png" "$TMP/zidlestates.png" ||
	not_ok "zoomed power-layer pixels"
colorbar "$TMP/steps" 6 "$f" abar --width 1600
colorbar "$TMP/steps" 6 "$f" abar800 --width 800

# ---- every format, reproducible; overview; grey ----
for ext in png pdf svg; do
	run "$SCHEDPLOT" datagraph -q --freq merged --idle-states -o "$TMP/a.$ext" "$f"
	expect_status 0 "--freq merged --idle-states to $ext"
	run "$SCHEDPLOT" datagraph -q --freq merged --idle-states -o "$TMP/b.$ext" "$f"
	check "$ext: byte-identical on a second run" cmp -s "$TMP/a.$ext" "$TMP/b.$ext"
done
if command -v xmllint >/dev/null; then
	check "the SVG parses" xmllint --noout "$TMP/a.svg"
fi
run "$SCHEDPLOT" overview -q --freq merged --idle-states -o "$TMP/ov.png" "$f"
expect_status 0 "overview --freq merged --idle-states"
run "$SCHEDPLOT" overview -q -o "$TMP/ov-plain.png" "$f"
check "overview: the layers change the image" fails cmp -s "$TMP/ov.png" "$TMP/ov-plain.png"
run "$SCHEDPLOT" overview -q --csv "$TMP/plain.csv" -o "$TMP/ov-plain.png" "$f"
run "$SCHEDPLOT" overview -q --freq --idle-states --csv "$TMP/layers.csv" -o "$TMP/ov.png" "$f"
check "overview: the layers leave the running/waiting steps alone (same --csv)" \
	cmp -s "$TMP/plain.csv" "$TMP/layers.csv"
run "$SCHEDPLOT" datagraph -q --freq --palette grey --no-legend --title '' --height 400 \
	-o "$TMP/grey.png" "$f"
expect_status 0 "--freq --palette grey"
python3 - "$TMP/grey.png" "$SRCDIR/tests/oracle/check-power-pixels.py" <<'PY' && ok "--palette grey: the frequency rows are grey" || not_ok "--palette grey: colored frequency rows"
import sys
src = open(sys.argv[2]).read()
ns = {"__file__": sys.argv[2], "__name__": "check_power_pixels"}
exec(compile(src, sys.argv[2], "exec"), ns)
w, h, px = ns["png"].read(sys.argv[1])
top, bottom, x0, x1 = ns["frame"](w, h, px)
colored = sum(1 for y in range(top + 2, bottom - 1, 3) for x in range(x0 + 2, x1 - 1, 3)
              if max(px(x, y)) - min(px(x, y)) > 8)
sys.exit(colored != 0)
PY
