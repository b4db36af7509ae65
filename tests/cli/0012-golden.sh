#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Golden outputs: every image (PNG, PDF, SVG), CSV and stats text/JSON of
# the bundled, shared and generated traces is byte-identical to what the
# version that wrote tests/golden/ produced.  stats output is compared as
# text (tests/golden/expected/), the rest by checksum (tests/golden/SUMS).
# A change meant to alter an output updates these files in the same commit:
#   SCHEDPLOT=... GEN_TRACE=... tests/golden/render DIR, then copy DIR's
#   *.stats.* to expected/ and 'sha256sum' the rest into SUMS.
. "$(dirname "$0")/../lib/lib.sh"

GEN=${GEN_TRACE:-$SRCDIR/${BUILD:-build}/tests/gen-trace}
golden=$SRCDIR/tests/golden
GEN_TRACE=$GEN "$golden/render" "$TMP/g" >/dev/null 2>&1

for want in "$golden"/expected/*; do
	name=$(basename "$want")
	got=$TMP/g/$name
	if [ ! -f "$got" ]; then
		skip "$name: its trace is not here"
	elif cmp -s "$want" "$got"; then
		ok "$name unchanged"
	else
		not_ok "$name differs: $(diff "$want" "$got" | head -5 | tr '\n' ' ')"
	fi
done

while read -r sum name; do
	got=$TMP/g/$name
	if [ ! -f "$got" ]; then
		skip "$name: its trace is not here"
	elif [ "$(sha256sum <"$got" | cut -d' ' -f1)" = "$sum" ]; then
		ok "$name unchanged"
	else
		not_ok "$name differs from the golden output"
	fi
done <"$golden/SUMS"
