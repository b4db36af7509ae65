#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The examples are true: every command the README quotes on the bundled
# traces runs, and prints what the README says it prints (its quoted
# output, or the line a "prints `...`" names); the man pages' examples on
# the bundled traces run, and the others (on a trace.dat of the reader's)
# use only options the command has (tests/tools/doc-examples).
. "$(dirname "$0")/../lib/lib.sh"

if ! command -v jq >/dev/null 2>&1; then
	skip "jq not installed (Debian package jq): the README's examples not run"
	exit 0
fi
# a directory like the source tree's top: traces/, contrib/ and ./schedplot
work=$TMP/work
mkdir "$work"
cp -rs "$TRACES" "$work/traces"
cp -rs "$SRCDIR/contrib" "$work/contrib"
ln -s "$SCHEDPLOT" "$work/schedplot"
python3 "$SRCDIR/tests/tools/doc-examples" "$SRCDIR/README" "$work"
python3 "$SRCDIR/tests/tools/doc-examples" --man "$SRCDIR"/man/*.1 "$work"
