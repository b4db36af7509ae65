#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# stats --json agrees with an independent reading of `trace-cmd report`
# (tests/oracle/report-stats.py) on every bundled and shared trace,
# traces/compare, ink and partial included.
. "$(dirname "$0")/../lib/lib.sh"

if ! command -v trace-cmd >/dev/null || ! command -v python3 >/dev/null; then
	skip "trace-cmd or python3 missing: cannot cross-check against trace-cmd report"
	exit 0
fi
set -- "$TRACES"/*.dat "$TRACES"/compare/*.dat "$TRACES"/ink/*.dat "$TRACES"/partial/*.dat
for f in aarch64-6cpu-v6.dat i686-4cpu-v6.dat x86_64-8cpu-v7-zstd.dat; do
	if [ -f "$SHARED/$f" ]; then
		set -- "$@" "$SHARED/$f"
	else
		skip "$f: ../shared/traces not here"
	fi
done
for f in "$@"; do
	name=$(basename "$f")
	run "$SCHEDPLOT" stats -q --json "$f"
	expect_status 0 "$name: stats --json"
	cp "$OUT" "$TMP/ours.json"
	if ! python3 "$SRCDIR/tests/oracle/report-stats.py" "$f" >"$TMP/oracle.json" 2>"$TMP/oracle.err"; then
		not_ok "$name: oracle failed: $(head -c 300 "$TMP/oracle.err")"
		continue
	fi
	python3 "$SRCDIR/tests/oracle/compare.py" "$TMP/ours.json" "$TMP/oracle.json" "$name"
done

# trace-cmd 3.1 prints a run's timestamps raw ("41404337131:") now and
# then where a file's trace-clock option is empty (tests/lib/
# tracecmd_report.py says why): the oracle must read that form the same.
# A trace-cmd that always prints it stands in for the unlucky run.
cat >"$TMP/trace-cmd-raw" <<'SH'
#!/bin/sh
trace-cmd "$@" | sed -E 's/^(.*-[0-9]+ +(\[[0-9]+\]|[0-9]+[^0-9 ][^ ]*) +)([0-9]+)\.([0-9]{9}):/\1\3\4:/'
SH
chmod +x "$TMP/trace-cmd-raw"
f=$TRACES/overload.dat
python3 "$SRCDIR/tests/oracle/report-stats.py" --runs "$f" >"$TMP/runs.s" 2>&1
python3 "$SRCDIR/tests/oracle/report-stats.py" --runs --trace-cmd "$TMP/trace-cmd-raw" "$f" \
	>"$TMP/runs.raw" 2>&1
if "$TMP/trace-cmd-raw" report -t "$f" | grep -q '^ *record.sh-[0-9]* *\[000\] *[0-9]*: ' &&
	[ -s "$TMP/runs.s" ] && cmp -s "$TMP/runs.s" "$TMP/runs.raw"; then
	ok "oracle: trace-cmd's raw timestamps read as its seconds ($(wc -l <"$TMP/runs.s") runs)"
else
	not_ok "oracle: raw timestamps read otherwise: $(diff "$TMP/runs.s" "$TMP/runs.raw" | head -3 | tr '\n' ' ')"
fi

# The zlib file cannot be read by Debian's trace-cmd (built without zlib),
# so there is no oracle: check it opens and its numbers hang together.
f=$SHARED/x86_64-1cpu-v7-zlib.dat
if [ -f "$f" ]; then
	run "$SCHEDPLOT" stats -q --json "$f"
	expect_status 0 "zlib-compressed v7 file"
	check "zlib file: 57374 records, 2364 switches on CPU 0" \
		python3 -c 'import json,sys; d=json.load(open(sys.argv[1]));
sys.exit(not (d["records"] == 57374 and d["cpu_switches"]["0"] == 2364 and
 0 < d["cpu_busy_ns"]["0"] <= d["end_ns"] - d["start_ns"]["0"]))' "$OUT"
else
	skip "x86_64-1cpu-v7-zlib.dat: ../shared/traces not here"
fi
