#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Every input the fuzzer (tests/fuzz/) once crashed on, through the CLI:
# exit 0 or 1 with one clear line, never a signal, hang or sanitizer report.
. "$(dirname "$0")/../lib/lib.sh"
. "$SRCDIR/tests/lib/hostile.sh"

n=0
for f in "$SRCDIR"/tests/fuzz/regressions/*.dat; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	hostile "$(basename "$f" .dat)" "$f"
done
[ "$n" -gt 0 ] || not_ok "no inputs in tests/fuzz/regressions/"
