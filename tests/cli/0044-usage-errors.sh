#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Usage errors: one message (one "schedplot:" line, then the "Try" line)
# for an option refused, exit 2 for every usage error, and an abbreviation
# only ever names an option the command takes.
. "$(dirname "$0")/../lib/lib.sh"

f=$TRACES/messaging.dat

# usage_error WHAT REGEX CMD...: exit 2, stderr is "schedplot: REGEX" and the Try line
usage_error() {
	local what=$1 re=$2
	shift 2
	run "$@"
	expect_status 2 "$what"
	if [ "$(wc -l <"$ERR")" -eq 2 ] && head -1 "$ERR" | grep -Eq -- "^schedplot: $re\$" &&
	   sed -n 2p "$ERR" | grep -Eq "^Try 'schedplot [a-z-]+ --help'\.\$"; then
		ok "$what: one message and the Try line"
	else
		not_ok "$what: stderr was: $(head -c 300 "$ERR")"
	fi
	check "$what: nothing on stdout" test ! -s "$OUT"
}

for cmd in datagraph running-waiting overview stats record; do
	usage_error "$cmd --bogus" "unknown option '--bogus'" "$SCHEDPLOT" $cmd --bogus "$f"
	usage_error "$cmd -Z" "unknown option '-Z'" "$SCHEDPLOT" $cmd -Z "$f"
	usage_error "$cmd --bogus=1" "unknown option '--bogus'" "$SCHEDPLOT" $cmd --bogus=1 "$f"
	usage_error "$cmd --help=1" "option '--help' takes no value" "$SCHEDPLOT" $cmd --help=1
done
for cmd in datagraph running-waiting overview; do
	usage_error "$cmd --min at the end" "option '--min' needs a value" "$SCHEDPLOT" $cmd --min
	usage_error "$cmd -o at the end" "option '-o' needs a value" "$SCHEDPLOT" $cmd "$f" -o
	usage_error "$cmd --t" "option '--t' is ambiguous \(.*--time.*\)" "$SCHEDPLOT" $cmd --t 1 "$f"
done
usage_error "stats --top at the end" "option '--top' needs a value" "$SCHEDPLOT" stats "$f" --top
usage_error "record -d at the end" "option '-d' needs a value" "$SCHEDPLOT" record -d

# an option of another view is said not to apply; its abbreviation is unknown
usage_error "datagraph --csv" "--csv does not apply to datagraph" \
	"$SCHEDPLOT" datagraph --csv x.csv "$f"
usage_error "datagraph --cs (an abbreviation of --csv, which it rejects)" "unknown option '--cs'" \
	"$SCHEDPLOT" datagraph --cs x.csv "$f"
usage_error "datagraph --no-s (of --no-shade, which it rejects)" "unknown option '--no-s'" \
	"$SCHEDPLOT" datagraph --no-s "$f"
usage_error "running-waiting --cpu-o (of --cpu-order, which it rejects)" \
	"unknown option '--cpu-o'" "$SCHEDPLOT" running-waiting --cpu-o numeric "$f"
# ... while an abbreviation of an option it takes works
run "$SCHEDPLOT" running-waiting -q --no-s --cs "$TMP/rw.csv" -o "$TMP/rw.png" "$f"
expect_status 0 "running-waiting --no-s --cs: abbreviations of its own options"
check "running-waiting --cs: the CSV written" test -s "$TMP/rw.csv"

# usage errors found after the options are read: exit 2 as well
run "$SCHEDPLOT" running-waiting -q --csv - -o - --format png "$f"
expect_status 2 "running-waiting --csv - -o -"
expect_grep "$ERR" "^schedplot: --csv - and -o - both write to standard output" \
	"running-waiting --csv - -o -: says why"
run "$SCHEDPLOT" overview -q --csv - -o - --format png "$f"
expect_status 2 "overview --csv - -o -"
run "$SCHEDPLOT" running-waiting -q --csv "$TMP/same.png" -o "$TMP/same.png" "$f"
expect_status 2 "running-waiting --csv and -o the same file"
check "no output left" test ! -e "$TMP/same.png"
