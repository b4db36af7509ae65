#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# memcheck on the CLI over a bundled trace: no invalid reads or writes, no
# use of uninitialised values, no definite leaks (tests/tools/valgrind.supp holds
# what libraries keep for the life of the process).  Only on the plain
# build: valgrind cannot run a program built with ASan or TSan.
. "$(dirname "$0")/../lib/lib.sh"

if [ "${BUILD:-build}" = build-san ] || [ "${BUILD:-build}" = build-tsan ]; then
	skip "valgrind: the plain build's run does it (sanitizer builds do not run under it)"
	exit 0
fi
if ! command -v valgrind >/dev/null 2>&1; then
	skip "valgrind: not installed (apt-get install valgrind, or run tests/tools/install-deps)"
	exit 0
fi

vg() {
	valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
		--show-leak-kinds=definite --suppressions="$SRCDIR/tests/tools/valgrind.supp" \
		--log-file="$TMP/vg.log" "$@"
}

f=$TRACES/overload.dat
run vg "$SCHEDPLOT" stats -q "$f"
if [ "$STATUS" = 0 ]; then
	ok "valgrind: schedplot stats overload.dat"
else
	not_ok "valgrind: schedplot stats overload.dat: exit $STATUS: $(head -c 600 "$TMP/vg.log")"
fi
run vg "$SCHEDPLOT" datagraph -q "$f" -o "$TMP/x.png"
if [ "$STATUS" = 0 ]; then
	ok "valgrind: schedplot datagraph -o x.png overload.dat"
else
	not_ok "valgrind: schedplot datagraph overload.dat: exit $STATUS: $(head -c 600 "$TMP/vg.log")"
fi
# a failure path too: a damaged file must not leak what was opened
run vg "$SCHEDPLOT" stats -q "$SRCDIR/tests/fuzz/regressions/header-page-damaged.dat"
if [ "$STATUS" = 1 ]; then
	ok "valgrind: schedplot stats on a damaged file"
else
	not_ok "valgrind: schedplot stats on a damaged file: exit $STATUS: $(head -c 600 "$TMP/vg.log")"
fi
