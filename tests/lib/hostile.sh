# SPDX-License-Identifier: GPL-2.0-only
# Helpers for the tests that feed schedplot hostile or broken files
# (0091-fuzz-regressions.sh, 0095-broken.sh); source after lib.sh.
#
# hostile NAME FILE [EXPECT]: run `stats`, `datagraph` and `running-waiting`
# on FILE under `timeout 20`.  Each must exit 0 (and write its image) or 1
# with one line `schedplot: FILE: ...` on stderr and no image or temporary
# file left; never a signal, a hang or a sanitizer report.  EXPECT 0 or 1
# requires that status of every command; "any" (the default) takes either.
# running-waiting is left out with EXPECT 1 (it opens the file as the
# others do) and in the SANITIZE=1 run (drawing under ASan is slow; the
# reader and model it shares with datagraph are still checked there).
# Prints one ok/not ok line per command.  Images go to $TMP/out-NAME/.

HOSTILE_TIMEOUT=${HOSTILE_TIMEOUT:-20}
# full stacks for LeakSanitizer: the libraries have no frame pointers, and
# tests/tools/lsan.supp names their functions
export LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}fast_unwind_on_malloc=0:print_suppressions=0

# hostile_one NAME FILE EXPECT OUTPUT CMD...: one command, one line of result
hostile_one() {
	local name=$1 file=$2 expect=$3 output=$4 dir
	shift 4
	dir=$(dirname "$output")
	set +e
	timeout -k 5 "$HOSTILE_TIMEOUT" "$@" >"$OUT" 2>"$ERR"
	STATUS=$?
	set -e
	local what="$name: $*"
	what=${what//$TMP\//}
	what=${what//$SCHEDPLOT/schedplot}
	what=${what//$SRCDIR\//}
	if grep -Eq 'AddressSanitizer|LeakSanitizer|runtime error:|UndefinedBehaviorSanitizer' "$ERR"; then
		not_ok "$what: sanitizer report: $(grep -m3 -E 'ERROR|runtime error|#[0-3] ' "$ERR" | tr '\n' ' ' | head -c 600)"
		return
	fi
	case $STATUS in
	124|137) not_ok "$what: hung (killed after ${HOSTILE_TIMEOUT}s)"; return ;;
	0|1) ;;
	*) not_ok "$what: exit $STATUS (signal?): $(head -c 300 "$ERR")"; return ;;
	esac
	if [ "$expect" != any ] && [ "$expect" != "$STATUS" ]; then
		not_ok "$what: exit $STATUS, expected $expect: $(head -c 300 "$ERR")"
		return
	fi
	if [ "$STATUS" = 1 ]; then
		if [ "$(wc -l <"$ERR")" != 1 ] || ! grep -Fq "schedplot: $file: " "$ERR"; then
			not_ok "$what: exit 1 without one line 'schedplot: FILE: ...': $(head -c 300 "$ERR")"
			return
		fi
		if [ "$output" != - ] && [ -n "$(ls -A "$dir")" ]; then
			not_ok "$what: exit 1 left files behind: $(ls -A "$dir" | tr '\n' ' ')"
			return
		fi
		ok "$what: exit 1: $(cut -c1-120 "$ERR" | sed "s|$TMP/||g")"
	else
		if [ "$output" != - ] && [ ! -s "$output" ]; then
			not_ok "$what: exit 0 but no image"
			return
		fi
		if [ "$output" != - ] && [ "$(ls -A "$dir" | wc -l)" != 1 ]; then
			not_ok "$what: temporary files left: $(ls -A "$dir" | tr '\n' ' ')"
			return
		fi
		ok "$what: exit 0"
	fi
}

hostile() {
	local name=$1 file=$2 expect=${3:-any} d
	d=$TMP/out-$name
	rm -rf "$d"
	mkdir -p "$d"
	hostile_one "$name" "$file" "$expect" - "$SCHEDPLOT" stats "$file"
	hostile_one "$name" "$file" "$expect" "$d/dg.png" "$SCHEDPLOT" datagraph "$file" -o "$d/dg.png"
	rm -f "$d"/*
	[ "$expect" = 1 ] || [ "${BUILD:-build}" = build-san ] || hostile_one "$name" "$file" "$expect" "$d/rw.png" \
		"$SCHEDPLOT" running-waiting "$file" -o "$d/rw.png"
	rm -rf "$d"
}
