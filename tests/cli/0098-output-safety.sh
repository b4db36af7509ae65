#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Output safety: absurd image sizes are refused; an output that is the
# input trace under another name (symlink, hard link) is refused and the
# trace is untouched; a process stopped by a signal while drawing leaves no
# temporary file; a file size limit (ulimit -f) is a clear error.  As root,
# on real file systems: a full disk (a 16 KiB tmpfs) and a read-only mount
# make every command exit 1 with one line naming the output, leave neither
# an output nor a temporary file, and leave an older output intact.
. "$(dirname "$0")/../lib/lib.sh"

f=$TRACES/overload.dat
big=$TRACES/messaging.dat
mnt_full=$TMP/full
mnt_ro=$TMP/ro
mounted=()

cleanup() {
	for m in "${mounted[@]}"; do
		umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true
	done
	rm -rf "$TMP"
}
trap cleanup EXIT

# empty_dir DIR WHAT: DIR holds no file at all (no output, no temporary file)
empty_dir() {
	if [ -z "$(ls -A "$1")" ]; then
		ok "$2: nothing left in $(basename "$1")/"
	else
		not_ok "$2: files left in $(basename "$1")/: $(ls -A "$1" | tr '\n' ' ')"
	fi
}

# no_temp DIR WHAT: no temporary file (.NAME.PID.N.tmp) in DIR
no_temp() {
	local left
	left=$(ls -A "$1" | grep '\.tmp$' || true)
	if [ -z "$left" ]; then
		ok "$2: no temporary file left"
	else
		not_ok "$2: temporary files left: $(echo "$left" | tr '\n' ' ')"
	fi
}

# ---- image sizes: refused as bad usage before anything is read ----

mkdir "$TMP/size"
for cmd in datagraph running-waiting overview; do
	run "$SCHEDPLOT" "$cmd" -q "$f" -o "$TMP/size/x.png" --width 100000000
	expect_status 2 "$cmd --width 100000000"
	expect_grep "$ERR" "width 100000000 is out of range" "$cmd --width 100000000: the limit is named"
	run "$SCHEDPLOT" "$cmd" -q "$f" -o "$TMP/size/x.png" --height 0
	expect_status 2 "$cmd --height 0"
	expect_grep "$ERR" "height 0 is out of range" "$cmd --height 0: the limit is named"
done
empty_dir "$TMP/size" "absurd sizes"

# ---- the output is the input trace under another name ----

mkdir "$TMP/in"
cp "$f" "$TMP/in/trace.dat"
ln -s trace.dat "$TMP/in/alias.png"
ln "$TMP/in/trace.dat" "$TMP/in/hard.png"
ln -s "$TMP/in/trace.dat" "$TMP/in/alias.csv"
# datagraph calls this bad usage (2), the other views a failure (1)
for cmd in datagraph running-waiting overview; do
	for o in alias.png hard.png; do
		run "$SCHEDPLOT" "$cmd" -q "$TMP/in/trace.dat" -o "$TMP/in/$o"
		case $STATUS in
		1|2) ok "$cmd -o $o (the input): refused with exit $STATUS" ;;
		*) not_ok "$cmd -o $o (the input): exit $STATUS, expected 1 or 2" ;;
		esac
		expect_stderr_line "^schedplot: .*$o: refusing to write the image over the input" \
			"$cmd -o $o (the input)"
		check "$cmd -o $o: the trace is untouched" cmp -s "$f" "$TMP/in/trace.dat"
	done
done
for cmd in running-waiting overview; do
	run "$SCHEDPLOT" "$cmd" -q "$TMP/in/trace.dat" -o "$TMP/in/x.png" --csv "$TMP/in/alias.csv"
	expect_status 2 "$cmd --csv through a symlink to the input"
	expect_stderr_line "^schedplot: .*alias.csv: refusing to write the CSV over the input" \
		"$cmd --csv through a symlink to the input"
	check "$cmd --csv alias.csv: the trace is untouched" cmp -s "$f" "$TMP/in/trace.dat"
done
# standard output redirected onto the trace
set +e
"$SCHEDPLOT" datagraph -q "$TMP/in/trace.dat" -o - --format png 1<>"$TMP/in/alias.png" 2>"$ERR"
STATUS=$?
set -e
check "datagraph -o - onto the input trace: refused" test "$STATUS" != 0
check "datagraph -o - onto the input trace: the trace is untouched" cmp -s "$f" "$TMP/in/trace.dat"
if [ "$(ls -A "$TMP/in" | sort | tr '\n' ' ')" = "alias.csv alias.png hard.png trace.dat " ]; then
	ok "refused outputs: nothing else in the directory"
else
	not_ok "refused outputs left files: $(ls -A "$TMP/in" | tr '\n' ' ')"
fi

# ---- a signal while drawing ----

# Non-interactive shells start background jobs with SIGINT ignored; give
# the command the default actions back, as a terminal would.
defsig=(env --default-signal=INT,TERM,HUP,QUIT)

# signal_mid_write NAME SIG DIR CMD...: start CMD, wait for its temporary
# file, send SIG; it must die of SIG and leave nothing in DIR.
signal_mid_write() {
	local name=$1 sig=$2 dir=$3 pid i status
	shift 3
	mkdir -p "$dir"
	"${defsig[@]}" "$@" >/dev/null 2>"$ERR" &
	pid=$!
	for i in $(seq 500); do
		ls -A "$dir" | grep -q '\.tmp$' && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.02
	done
	if ! ls -A "$dir" | grep -q '\.tmp$'; then
		status=0
		wait "$pid" || status=$?
		# finished between two looks: nothing to interrupt; failed: say so
		if [ "$status" = 0 ]; then
			skip "$name: the command ended before its temporary file was seen"
		else
			not_ok "$name: exit $status before any temporary file: $(head -c 300 "$ERR")"
		fi
		rm -rf "$dir"
		return
	fi
	kill -s "$sig" "$pid"
	status=0
	{ wait "$pid"; } 2>/dev/null || status=$?
	if [ "$status" = $((128 + $(kill -l "$sig"))) ]; then
		ok "$name: died of SIG$sig"
	else
		not_ok "$name: exit $status after SIG$sig, expected death by the signal: $(head -c 300 "$ERR")"
	fi
	# Only a temporary file would be wrong: the rename is atomic, so an
	# output present is a complete one, committed just before the signal.
	if [ -n "$(ls -A "$dir" | grep -v '\.tmp$' || true)" ]; then
		no_temp "$dir" "$name (committed before the signal)"
	else
		empty_dir "$dir" "$name"
	fi
	rm -rf "$dir"
}

signal_mid_write "datagraph PNG, SIGINT" INT "$TMP/sig" \
	"$SCHEDPLOT" datagraph -q "$big" -o "$TMP/sig/big.png" --width 8000 --height 4000
signal_mid_write "overview PNG and CSV, SIGTERM" TERM "$TMP/sig" \
	"$SCHEDPLOT" overview -q "$big" -o "$TMP/sig/ov.png" --csv "$TMP/sig/ov.csv" \
	--width 8000 --height 4000
signal_mid_write "running-waiting PNG and CSV, SIGHUP" HUP "$TMP/sig" \
	"$SCHEDPLOT" running-waiting -q "$big" -o "$TMP/sig/rw.png" --csv "$TMP/sig/rw.csv" \
	--width 8000 --height 4000

# the same at fixed delays (whatever the command was doing then)
mkdir "$TMP/sig2"
for delay in 0.05 0.2 0.5 1; do
	set +e
	"${defsig[@]}" timeout -s INT "$delay" "$SCHEDPLOT" overview -q "$big" -o "$TMP/sig2/ov.png" \
		--csv "$TMP/sig2/ov.csv" --width 8000 >/dev/null 2>&1
	set -e
	no_temp "$TMP/sig2" "overview stopped by timeout -s INT $delay"
done
rm -rf "$TMP/sig2"

# ---- a file size limit: an error, not a SIGXFSZ death ----

mkdir "$TMP/fsize"
set +e
(ulimit -f 16; exec "$SCHEDPLOT" datagraph -q "$big" -o "$TMP/fsize/big.png" --width 8000 \
	--height 4000) >"$OUT" 2>"$ERR"
STATUS=$?
set -e
expect_status 1 "datagraph under ulimit -f 16"
expect_stderr_line "^schedplot: .*big.png: .*File too large" "datagraph under ulimit -f 16"
empty_dir "$TMP/fsize" "datagraph under ulimit -f 16"

# ---- a full disk and a read-only file system (root only) ----

if [ "$(id -u)" != 0 ]; then
	skip "full disk and read-only mount: needs root to mount a small tmpfs"
	exit 0
fi
mkdir "$mnt_full" "$mnt_ro" "$TMP/img"
if ! mount -t tmpfs -o size=16k,mode=0755 none "$mnt_full" 2>"$TMP/mount.err"; then
	skip "full disk: cannot mount a tmpfs: $(head -1 "$TMP/mount.err")"
	exit 0
fi
mounted+=("$mnt_full")
if mount -t tmpfs -o ro,mode=0755 none "$mnt_ro" 2>"$TMP/mount.err"; then
	mounted+=("$mnt_ro")
else
	skip "read-only mount: $(head -1 "$TMP/mount.err")"
fi

# each image format, none of which fits in 16 KiB
for ext in png svg pdf; do
	run "$SCHEDPLOT" datagraph -q "$big" -o "$mnt_full/dg.$ext" --width 8000 --height 4000
	expect_status 1 "disk full: datagraph .$ext"
	expect_stderr_line "^schedplot: .*full/dg\\.$ext: cannot write .*: No space left on device$" \
		"disk full: datagraph .$ext"
	empty_dir "$mnt_full" "disk full: datagraph .$ext"
done

# an existing output survives a failed rewrite
echo "older image" >"$mnt_full/old.png"
run "$SCHEDPLOT" running-waiting -q "$big" -o "$mnt_full/old.png" --width 8000 --height 4000
expect_status 1 "disk full: rewriting an existing image"
expect_stderr_line "^schedplot: .*old\\.png: .*No space left on device$" \
	"disk full: rewriting an existing image"
check "disk full: the older image is intact" test "$(cat "$mnt_full/old.png")" = "older image"
no_temp "$mnt_full" "disk full: rewriting an existing image"
rm -f "$mnt_full/old.png"

# the CSV does not fit; the image (elsewhere) must not be left either
for cmd in running-waiting overview; do
	echo "older csv" >"$mnt_full/$cmd.csv"
	run "$SCHEDPLOT" "$cmd" -q "$big" -o "$TMP/img/$cmd.png" --csv "$mnt_full/$cmd.csv"
	expect_status 1 "disk full: $cmd --csv"
	expect_stderr_line "^schedplot: .*full/$cmd\\.csv: .*No space left on device$" \
		"disk full: $cmd --csv"
	check "disk full: $cmd --csv: the older CSV is intact" \
		test "$(cat "$mnt_full/$cmd.csv")" = "older csv"
	no_temp "$mnt_full" "disk full: $cmd --csv"
	empty_dir "$TMP/img" "disk full: $cmd --csv: the image"
	rm -f "$mnt_full/$cmd.csv"
done

# something small still fits: the failures above were the disk, not the mount
run "$SCHEDPLOT" datagraph -q "$f" -o "$mnt_full/small.png" --width 400 --height 200
if [ "$STATUS" = 0 ] && [ -s "$mnt_full/small.png" ]; then
	ok "disk full: a small image still fits on the same file system"
else
	skip "disk full: even a small image does not fit in 16 KiB (exit $STATUS)"
fi
rm -f "$mnt_full/small.png"

if [ "${#mounted[@]}" = 2 ]; then
	run "$SCHEDPLOT" datagraph -q "$f" -o "$mnt_ro/dg.png"
	expect_status 1 "read-only file system: datagraph"
	expect_stderr_line "^schedplot: .*ro/dg\\.png: cannot create output in .*: Read-only file system$" \
		"read-only file system: datagraph"
	for cmd in running-waiting overview; do
		run "$SCHEDPLOT" "$cmd" -q "$f" -o "$mnt_ro/$cmd.png"
		expect_status 1 "read-only file system: $cmd"
		expect_stderr_line "^schedplot: .*ro/$cmd\\.png: .*Read-only file system$" \
			"read-only file system: $cmd"
		run "$SCHEDPLOT" "$cmd" -q "$f" -o "$TMP/img/$cmd.png" --csv "$mnt_ro/$cmd.csv"
		expect_status 1 "read-only file system: $cmd --csv"
		expect_stderr_line "^schedplot: .*ro/$cmd\\.csv: .*Read-only file system$" \
			"read-only file system: $cmd --csv"
		empty_dir "$TMP/img" "read-only file system: $cmd --csv: the image"
	done
	empty_dir "$mnt_ro" "read-only file system"
fi
