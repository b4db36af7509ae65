#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# View files (--view FILE, @FILE): the ready views of contrib/views count
# on real recordings what trace-cmd report -F counts with the same
# definitions (tests/oracle/report-spans.py), and draw their spans; a
# view file's words are quoted as in a shell, and a broken one is one
# line naming the file, exit 2.
. "$(dirname "$0")/../lib/lib.sh"

views=$SRCDIR/contrib/views
t=$TRACES/views/phases.dat

# the definitions a view file holds, as the oracle takes them
defs() {
	python3 -c 'import shlex, sys; print("\0".join(shlex.split(open(sys.argv[1]).read(),
	            comments=True)), end="")' "$1"
}

if ! command -v trace-cmd >/dev/null || ! command -v python3 >/dev/null; then
	skip "trace-cmd or python3 missing: the views not checked against trace-cmd report"
else
	for v in interrupts futex block-io; do
		for f in "$t" "$TRACES/views/phases-lost.dat"; do
			name="$v.view on $(basename "$f")"
			run "$SCHEDPLOT" stats -q --json --view "$views/$v.view" "$f"
			expect_status 0 "$name: stats"
			cp "$OUT" "$TMP/stats.json"
			mapfile -d '' args < <(defs "$views/$v.view")
			if ! python3 "$SRCDIR/tests/oracle/report-spans.py" "$f" "${args[@]}" \
				>"$TMP/oracle" 2>"$TMP/oracle.err"; then
				not_ok "$name: report-spans.py failed: $(head -c 300 "$TMP/oracle.err")"
				continue
			fi
			if msg=$(python3 - "$TMP/stats.json" "$TMP/oracle" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
o = open(sys.argv[2]).read().split()
j = s["spans"][0]
keys = ["count", "total_ns", "p50_ns", "p99_ns", "max_ns", "unmatched_start",
        "unmatched_end", "across_lost"]
mine = [str(j[k]) if j[k] is not None else "-" for k in keys]
if mine != o[2:]:
    sys.exit("schedplot %s, trace-cmd report %s" % (mine, o[2:]))
print("%s spans, %s unmatched ends" % (j["count"], j["unmatched_end"]))
PY
			); then
				ok "$name: equals trace-cmd report -F: $msg"
			else
				not_ok "$name: $msg"
			fi
		done
	done

	# phases: from one "phase" marker to the next, read from the report's text
	# (trace-cmd report -F cannot filter the text of ftrace:print)
	want=$(trace-cmd report -R -t "$t" 2>/dev/null | python3 -c '
import re, sys
ts = [int(m.group(1)) * 10**9 + int(m.group(2))
      for m in (re.search(r"(\d+)\.(\d{9}): print: .*buf=phase", l) for l in sys.stdin) if m]
d = [b - a for a, b in zip(ts, ts[1:])]
print(len(ts), len(d), sum(d), max(d))')
	run "$SCHEDPLOT" stats -q --json @"$views/phases.view" "$t"
	expect_status 0 "phases.view: stats"
	got=$(python3 -c 'import json, sys; s = json.load(open(sys.argv[1]))
j = s["spans"][0]; print(s["marks"][0]["count"], j["count"], j["total_ns"], j["max_ns"])' "$OUT")
	if [ "$got" = "$want" ]; then
		ok "phases.view: markers, phases, their total and longest as the report's text: $got"
	else
		not_ok "phases.view: schedplot $got, trace-cmd report's text $want"
	fi
	check "phases.view: the last phase, which no marker ends, is one unmatched start" \
		python3 -c 'import json, sys; j = json.load(open(sys.argv[1]))["spans"][0]
sys.exit(not (j["unmatched_start"] == 1 and j["unmatched_end"] == 0))' "$OUT"
fi

# the views draw: bars of the first span's color (25,25,25) where futex calls
# were (without them, only some pixels of the title's text have it)
for v in interrupts futex block-io phases; do
	run "$SCHEDPLOT" datagraph -q --no-legend --view "$views/$v.view" -o "$TMP/$v.png" "$t"
	expect_status 0 "datagraph --view $v.view"
done
run "$SCHEDPLOT" datagraph -q --no-legend -o "$TMP/none.png" "$t"
count_bar() {
	python3 -c 'import sys; sys.path.insert(0, sys.argv[2]); import png
w, h, px = png.read(sys.argv[1])
print(sum(px(x, y) == (25, 25, 25) for y in range(h) for x in range(w)))' "$1" "$SRCDIR/tests/lib"
}
bars=$(count_bar "$TMP/futex.png")
none=$(count_bar "$TMP/none.png")
check "datagraph --view futex.view: its bars are drawn ($bars pixels of their color, $none without)" \
	test "$bars" -gt $((none + 2000))

# the tasks chart draws them on the row of the task that began each
run "$SCHEDPLOT" tasks -q --no-legend --view "$views/futex.view" --target phases \
	-o "$TMP/tasks-futex.png" "$t"
expect_status 0 "tasks --view futex.view"
run "$SCHEDPLOT" tasks -q --no-legend --target phases -o "$TMP/tasks-none.png" "$t"
bars=$(count_bar "$TMP/tasks-futex.png")
none=$(count_bar "$TMP/tasks-none.png")
check "tasks --view futex.view: the threads' futex calls are drawn ($bars pixels of their color, $none without)" \
	test "$bars" -gt $((none + 500))

# view files: quoting, comments, nesting, errors
cat >"$TMP/a.view" <<'V'
# a comment, then an option whose value holds spaces and quotes
--mark "sched:sched_waking/prio < 100 && comm != \"x y\"/"   # trailing comment
@B
V
printf '%s\n' "--span 'irq:irq_handler_entry..irq:irq_handler_exit key=irq'" >"$TMP/B"
(cd "$TMP" && "$SCHEDPLOT" stats -q --json @a.view "$t") >"$OUT" 2>"$ERR"
STATUS=$?
expect_status 0 "@FILE naming another @FILE"
check "@FILE: the mark and the span of both files are counted" \
	python3 -c 'import json, sys; s = json.load(open(sys.argv[1]))
sys.exit(not (len(s["marks"]) == 1 and len(s["spans"]) == 1 and s["spans"][0]["count"] > 0))' "$OUT"
run "$SCHEDPLOT" stats @"$TMP/nonexistent.view" "$t"
expect_status 2 "@FILE that does not exist"
expect_stderr_line "nonexistent.view: cannot read the view file" "@FILE that does not exist"
printf -- "--title 'left open\n" >"$TMP/open.view"
run "$SCHEDPLOT" datagraph --view "$TMP/open.view" -o "$TMP/x.png" "$t"
expect_status 2 "a view file with a quote not closed"
expect_stderr_line "open.view: line 1: a single quote is not closed" \
	"a view file with a quote not closed: names the file and line"
echo "@$TMP/loop.view" >"$TMP/loop.view"
run "$SCHEDPLOT" stats @"$TMP/loop.view" "$t"
expect_status 2 "a view file that names itself"
