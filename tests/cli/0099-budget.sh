#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Time and memory budgets: the largest synthetic trace of the suite (512
# CPUs, a million records) is read and drawn in bounded memory, and huge
# damaged files (sparse files claiming gigabytes of CPU data, all zeros)
# fail at once instead of reading for minutes.  The time limits are hang
# guards, far above what a healthy run takes; speed itself is measured by
# make bench, not here.
. "$(dirname "$0")/../lib/lib.sh"

GEN=${GEN_TRACE:-$SRCDIR/${BUILD:-build}/tests/gen-trace}
if [ ! -x "$GEN" ]; then
	not_ok "gen-trace not built ($GEN); run make check"
	exit 0
fi
if [ ! -x /usr/bin/time ]; then
	skip "budgets: no /usr/bin/time to measure them (Debian package time)"
	exit 0
fi
san=false
[ "${BUILD:-build}" = build-san ] && san=true

# budget NAME SECONDS MAX_KB EXPECT CMD...: CMD exits EXPECT within SECONDS
# (a hang guard) and stays under MAX_KB resident (not under the sanitizers,
# whose shadow memory would count)
budget() {
	local name=$1 secs=$2 max_kb=$3 expect=$4 status e rss
	shift 4
	set +e
	/usr/bin/time -f '%e %M' -o "$TMP/usage" timeout -k 5 "$secs" "$@" >/dev/null 2>"$ERR"
	status=$?
	set -e
	read -r e rss <<<"$(tail -1 "$TMP/usage")"
	if [ "$status" != "$expect" ]; then
		not_ok "$name: exit $status (expected $expect, $secs s at most): $(head -c 300 "$ERR")"
	elif ! $san && [ "${rss:-0}" -gt "$max_kb" ]; then
		not_ok "$name: ${rss} KiB resident, more than $max_kb"
	else
		ok "$name: exit $status in ${e}s, ${rss} KiB resident"
	fi
}

big=$TMP/gen-512.dat
if "$GEN" --cpus 512 --events 1000000 --seconds 5 -o "$big" >/dev/null 2>"$ERR"; then
	budget "512 CPUs, 1M records: stats" 120 200000 0 "$SCHEDPLOT" stats -q --json "$big"
	budget "512 CPUs, 1M records: datagraph" 120 200000 0 \
		"$SCHEDPLOT" datagraph -q "$big" -o "$TMP/dg.png"
	budget "512 CPUs, 1M records: running-waiting" 120 200000 0 \
		"$SCHEDPLOT" running-waiting -q "$big" -o "$TMP/rw.svg"
	budget "512 CPUs, 1M records: tasks, every task's line" 120 200000 0 \
		"$SCHEDPLOT" tasks -q "$big" -o "$TMP/tasks.svg"
	budget "512 CPUs, 1M records: export to a database" 120 200000 0 \
		"$SCHEDPLOT" export -q -o "$TMP/big.db" "$big"
else
	not_ok "gen-trace --cpus 512 failed: $(head -c 300 "$ERR")"
fi

# thousands of tasks: the tasks chart keeps a line for each of them
many=$TMP/gen-512-messaging.dat
if "$GEN" --cpus 512 --workload messaging --events 1000000 --seconds 5 -o "$many" >/dev/null \
	2>"$ERR"; then
	budget "512 CPUs, 4096 tasks: tasks" 120 200000 0 "$SCHEDPLOT" tasks -q "$many" \
		-o "$TMP/many.png"
else
	not_ok "gen-trace --workload messaging failed: $(head -c 300 "$ERR")"
fi

if ! command -v python3 >/dev/null 2>&1; then
	skip "huge damaged files: no python3 to make them"
	exit 0
fi

# A version 6 file whose CPU 1 claims 8 GiB of data: the file is extended
# with a hole, so the claim holds but every page is zero.
huge=$TMP/huge-v6.dat
if ! python3 - "$TRACES/overload-v6.dat" "$huge" <<'EOF' 2>"$ERR"; then
import os, struct, sys
src, dst = sys.argv[1], sys.argv[2]
d = bytearray(open(src, "rb").read())
i = d.index(b"flyrecord\0") + len("flyrecord\0")
off, _ = struct.unpack_from("<QQ", d, i + 16)
struct.pack_into("<QQ", d, i + 16, off, 8 << 30)
open(dst, "wb").write(d)
os.truncate(dst, off + (8 << 30))
EOF
	not_ok "could not make a sparse 8 GiB file here: $(head -c 300 "$ERR")"
	exit 0
fi
for view in stats datagraph running-waiting; do
	out=()
	[ $view = stats ] || out=(-o "$TMP/huge-$view.png")
	budget "v6 file claiming 8 GiB of zero pages: $view" 20 200000 1 \
		"$SCHEDPLOT" $view "$huge" "${out[@]}"
	expect_grep "$ERR" "all zeros" "v6 file claiming 8 GiB of zero pages: $view names the zero page"
done
if [ -e "$TMP/huge-datagraph.png" ] || [ -e "$TMP/huge-running-waiting.png" ]; then
	not_ok "huge damaged file: an image was left behind"
else
	ok "huge damaged file: no image left behind"
fi

# A version 7 zstd file whose last CPU claims a billion chunks, the file
# extended by a hole: past its real chunks, every header says 0 bytes.
huge7=$TMP/huge-v7.dat
if ! python3 - "$TRACES/overload.dat" "$huge7" <<'EOF' 2>"$ERR"; then
import os, struct, sys
src, dst = sys.argv[1], sys.argv[2]
d = bytearray(open(src, "rb").read())
size = len(d)
# a CPU's data: a 4-byte chunk count, then chunks of an 8-byte header and
# a zstd frame (magic 28 b5 2f fd); the last CPU's data ends the file
counts = [p for p in range(0, size - 16)
          if 0 < struct.unpack_from("<I", d, p)[0] < 1000
          and struct.unpack_from("<I", d, p + 8)[0] == 40960
          and d[p + 12:p + 16] == b"\x28\xb5\x2f\xfd"]
if not counts:
    sys.exit("no zstd chunk found")
struct.pack_into("<I", d, counts[-1], 1 << 30)
open(dst, "wb").write(d)
os.truncate(dst, size + (8 << 30))
EOF
	not_ok "could not make a sparse v7 file here: $(head -c 300 "$ERR")"
	exit 0
fi
budget "v7 file claiming a billion chunks in a hole: stats" 20 200000 1 "$SCHEDPLOT" stats "$huge7"
expect_grep "$ERR" "is empty|damaged" "v7 file claiming a billion chunks: says the file is damaged"
