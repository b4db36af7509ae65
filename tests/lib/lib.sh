# SPDX-License-Identifier: GPL-2.0-only
# Helpers for the shell tests in tests/cli/.  Each check prints one line,
# "ok - what" or "not ok - what" with the reason; tests/run counts them.

: "${SCHEDPLOT:?set SCHEDPLOT to the binary under test}"
SRCDIR=$(cd "$(dirname "$0")/../.." && pwd)
TRACES=$SRCDIR/traces
SHARED=$SRCDIR/../shared/traces
TMP=$(mktemp -d "${TMPDIR:-/tmp}/schedplot-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
OUT=$TMP/stdout
ERR=$TMP/stderr

# tracefs_alone: hold the machine's tracing to this test until it exits.
# tests/run runs files at once; two live recordings at the same time load
# each other's ring buffers and can lose what a check looks for.
tracefs_alone() {
	command -v flock >/dev/null || return 0
	exec 9>"${TMPDIR:-/tmp}/schedplot-tests-tracefs.lock"
	flock 9
}

ok() { echo "ok - $*"; }
not_ok() { echo "not ok - $*"; }
skip() { echo "skip - $*"; }

# run CMD...: run it, keep stdout in $OUT, stderr in $ERR, status in $STATUS
run() {
	set +e
	"$@" >"$OUT" 2>"$ERR"
	STATUS=$?
	set -e
}

# expect_status N WHAT: the last run exited with N
expect_status() {
	if [ "$STATUS" = "$1" ]; then
		ok "$2: exit $1"
	else
		not_ok "$2: exit $STATUS, expected $1 (stderr: $(head -c 300 "$ERR"))"
	fi
}

# expect_stderr_line REGEX WHAT: stderr is one line matching REGEX
expect_stderr_line() {
	if [ "$(wc -l <"$ERR")" -eq 1 ] && grep -Eq -- "$1" "$ERR"; then
		ok "$2: one line on stderr matching /$1/"
	else
		not_ok "$2: stderr should be one line matching /$1/, was: $(head -c 300 "$ERR")"
	fi
}

# expect_grep FILE REGEX WHAT
expect_grep() {
	if grep -Eq -- "$2" "$1"; then
		ok "$3"
	else
		not_ok "$3: /$2/ not found in $(basename "$1"): $(head -c 300 "$1")"
	fi
}

# check WHAT CMD...: the command succeeds
check() {
	what=$1
	shift
	if "$@"; then
		ok "$what"
	else
		not_ok "$what"
	fi
}
