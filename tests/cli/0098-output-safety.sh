#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Output safety: absurd image sizes are refused; an output that is the
# input trace under another name (symlink, hard link) is refused and the
# trace is untouched; a process killed by a signal while it writes its
# image leaves no temporary file; a file size limit (ulimit -f) is a clear
# error.  As root, on real file systems: a full disk (a 16 KiB tmpfs) and a
# read-only mount make every command exit 1 with one line naming the
# output, leave neither an output nor a temporary file, and leave an older
# output intact.  What stands at an output path stays what it is: a
# (scratch) character device and a FIFO are written in place, a symlink
# stays a link and its target gets the image, also when it dangles.
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

# ---- a signal while writing ----

# Non-interactive shells start background jobs with SIGINT ignored; give
# the command the default actions back, as a terminal would.
defsig=(env --default-signal=INT,TERM,HUP,QUIT)

# nap SECONDS: a pause that starts no process (a read timing out on a FIFO
# nobody writes), so that the watch below still looks every few
# milliseconds on a machine too loaded to start processes that often
mkfifo "$TMP/nap"
nap() {
	read -r -t "$1" _ <>"$TMP/nap" || true
}

# image_written DIR IMAGE: a temporary file of DIR/IMAGE holds data
image_written() {
	local t

	for t in "$1/.$2".*.tmp; do
		[ -s "$t" ] && return 0
	done
	return 1
}

# signal_mid_write NAME SIG DIR IMAGE CMD...: start CMD, which writes
# DIR/IMAGE, wait until the image's temporary file holds data (the pass and
# the drawing are over, a part of the image is on disk), send SIG; CMD must
# die of SIG and leave nothing in DIR.  The watch uses builtins only and a
# large image takes some tenths of a second to encode, so the signal lands
# while the image is written; a command that still ended first (it was not
# seen in time) is run again, twice at most.
signal_mid_write() {
	local name=$1 sig=$2 dir=$3 image=$4 pid status try end
	shift 4
	for try in 1 2 3; do
		mkdir -p "$dir"
		"${defsig[@]}" "$@" >/dev/null 2>"$ERR" &
		pid=$!
		end=$((SECONDS + 300))
		while ! image_written "$dir" "$image" && kill -0 "$pid" 2>/dev/null &&
			[ "$SECONDS" -lt "$end" ]; do
			nap 0.01
		done
		image_written "$dir" "$image" && break
		if kill -0 "$pid" 2>/dev/null; then
			kill -s KILL "$pid"
			wait "$pid" 2>/dev/null || true
			not_ok "$name: no part of the image written after 300 s"
			rm -rf "$dir"
			return
		fi
		status=0
		wait "$pid" || status=$?
		rm -rf "$dir"
		if [ "$status" != 0 ]; then
			not_ok "$name: exit $status before any part of the image was written: $(head -c 300 "$ERR")"
			return
		fi
		if [ "$try" = 3 ]; then
			not_ok "$name: ended 3 times before its image was seen being written"
			return
		fi
	done
	kill -s "$sig" "$pid"
	status=0
	{ wait "$pid"; } 2>/dev/null || status=$?
	if [ "$status" = $((128 + $(kill -l "$sig"))) ]; then
		ok "$name: died of SIG$sig while its image was written"
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

signal_mid_write "datagraph PNG, SIGINT" INT "$TMP/sig" big.png \
	"$SCHEDPLOT" datagraph -q "$big" -o "$TMP/sig/big.png" --width 6000 --height 3000
signal_mid_write "overview PNG and CSV, SIGTERM" TERM "$TMP/sig" ov.png \
	"$SCHEDPLOT" overview -q "$big" -o "$TMP/sig/ov.png" --csv "$TMP/sig/ov.csv" \
	--width 6000 --height 3000
signal_mid_write "running-waiting PNG and CSV, SIGHUP" HUP "$TMP/sig" rw.png \
	"$SCHEDPLOT" running-waiting -q "$big" -o "$TMP/sig/rw.png" --csv "$TMP/sig/rw.csv" \
	--width 6000 --height 3000

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

# ---- what stands at the output path stays: devices, FIFOs, symlinks ----

GEN=${GEN_TRACE:-$SRCDIR/${BUILD:-build}/tests/gen-trace}
PNG_SIG=89504e470d0a1a0a

# png_sig FILE: the first 8 bytes of FILE in hex
png_sig() {
	head -c 8 "$1" | od -An -tx1 | tr -d ' \n'
}

mkdir "$TMP/kinds" "$TMP/other"
# A scratch null device, never the real /dev/null (a bug would replace it).
if [ "$(id -u)" != 0 ]; then
	skip "character device outputs: needs root to make a scratch null device"
elif ! mknod "$TMP/kinds/null" c 1 3 2>"$TMP/mknod.err"; then
	skip "character device outputs: mknod: $(head -1 "$TMP/mknod.err")"
else
	for cmd in datagraph running-waiting; do
		run "$SCHEDPLOT" "$cmd" -q "$f" -o "$TMP/kinds/null" --format png
		expect_status 0 "$cmd -o a character device --format png"
		check "$cmd -o a character device: still a character device" \
			test -c "$TMP/kinds/null"
	done
	run "$SCHEDPLOT" running-waiting -q "$f" -o "$TMP/other/rw.png" --csv "$TMP/kinds/null"
	expect_status 0 "running-waiting --csv a character device"
	check "running-waiting --csv a character device: still a character device" \
		test -c "$TMP/kinds/null"
	if [ ! -c "$TMP/kinds/null" ]; then
		rm -f "$TMP/kinds/null"
		mknod "$TMP/kinds/null" c 1 3
	fi
	rm -f "$TMP/other/rw.png"
	if [ -x "$GEN" ]; then
		run "$GEN" --cpus 4 --events 2000 --truth "$TMP/other/t.json" \
			--topology "$TMP/other/t.lscpu" -o "$TMP/kinds/null"
		expect_status 0 "a trace written to a character device"
		check "a trace written to a character device: still a character device" \
			test -c "$TMP/kinds/null"
		rm -f "$TMP/other/t.json" "$TMP/other/t.lscpu"
	else
		skip "a trace written to a character device: gen-trace not built ($GEN)"
	fi
	no_temp "$TMP/kinds" "outputs to a character device"
	rm -f "$TMP/kinds/null"
fi

# a FIFO gets the whole image, written in place
mkfifo "$TMP/kinds/fifo"
cat "$TMP/kinds/fifo" >"$TMP/other/from-fifo.png" &
reader=$!
run timeout 60 "$SCHEDPLOT" datagraph -q "$f" -o "$TMP/kinds/fifo" --format png
expect_status 0 "datagraph -o a FIFO"
# a command that never opened the FIFO leaves the reader waiting for a writer
[ "$STATUS" = 0 ] || kill "$reader" 2>/dev/null || true
wait "$reader" || true
check "datagraph -o a FIFO: the reader got a PNG" test "$(png_sig "$TMP/other/from-fifo.png")" = $PNG_SIG
run "$SCHEDPLOT" datagraph -q "$f" -o "$TMP/other/plain.png"
check "datagraph -o a FIFO: the reader got the whole image" \
	cmp -s "$TMP/other/plain.png" "$TMP/other/from-fifo.png"
check "datagraph -o a FIFO: still a FIFO" test -p "$TMP/kinds/fifo"
rm -f "$TMP/kinds/fifo" "$TMP/other/from-fifo.png" "$TMP/other/plain.png"

# a symlink to a file in another directory: the link stays, its target is replaced
echo "older image" >"$TMP/other/target.png"
ln -s ../other/target.png "$TMP/kinds/link.png"
for cmd in datagraph running-waiting; do
	run "$SCHEDPLOT" "$cmd" -q "$f" -o "$TMP/kinds/link.png"
	expect_status 0 "$cmd -o a symlink"
	check "$cmd -o a symlink: still a symlink" test -L "$TMP/kinds/link.png"
	check "$cmd -o a symlink: its target holds the new image" \
		test "$(png_sig "$TMP/other/target.png")" = $PNG_SIG
	echo "older image" >"$TMP/other/target.png"
done
# a dangling one: its target is created
ln -s ../other/new.png "$TMP/kinds/dangling.png"
run "$SCHEDPLOT" datagraph -q "$f" -o "$TMP/kinds/dangling.png"
expect_status 0 "datagraph -o a dangling symlink"
check "datagraph -o a dangling symlink: still a symlink" test -L "$TMP/kinds/dangling.png"
check "datagraph -o a dangling symlink: its target holds the image" \
	test "$(png_sig "$TMP/other/new.png")" = $PNG_SIG
# a symlink to standard output (the way /dev/stdout leads), here a pipe
ln -s /proc/self/fd/1 "$TMP/kinds/stdout.png"
set +e
"$SCHEDPLOT" datagraph -q "$f" -o "$TMP/kinds/stdout.png" 2>"$ERR" | cat >"$TMP/other/piped.png"
STATUS=${PIPESTATUS[0]}
set -e
expect_status 0 "datagraph -o a symlink to standard output (a pipe)"
check "datagraph -o a symlink to standard output: the pipe got a PNG" \
	test "$(png_sig "$TMP/other/piped.png")" = $PNG_SIG
check "datagraph -o a symlink to standard output: still a symlink" \
	test -L "$TMP/kinds/stdout.png"
if [ "$(ls -A "$TMP/kinds" | sort | tr '\n' ' ')" = "dangling.png link.png stdout.png " ]; then
	ok "symlinks: nothing else in their directory"
else
	not_ok "symlinks: files left beside them: $(ls -A "$TMP/kinds" | tr '\n' ' ')"
fi
no_temp "$TMP/other" "symlink targets"
rm -rf "$TMP/kinds" "$TMP/other"

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
