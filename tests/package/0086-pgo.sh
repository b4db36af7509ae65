#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# make PGO=1 (the build make bench measures): the training run leaves its
# counts next to the objects, every object is compiled again after it, and
# the binary prints the same numbers and draws the same pictures as the
# plain build.  A compiler other than GCC is refused with a message.  Only
# on the plain run of the suite: the SANITIZE=1 run would build the same.
. "$(dirname "$0")/../lib/lib.sh"

if [ "${BUILD:-build}" = build-san ]; then
	skip "make PGO=1: the plain run of the suite checks it"
	exit 0
fi

build=$TMP/build-pgo
run make --no-print-directory -s -j2 -C "$SRCDIR" PGO=1 BUILD="$build" "$build/schedplot"
expect_status 0 "make PGO=1"
pgo=$build/schedplot

# The objects lie in one folder per layer (build-pgo/trace/reader.o), each
# with its counts beside it (build-pgo/trace/reader.gcda).
nr_objs=0 nr_counts=0
for o in "$build"/*/*.o; do
	[ -f "$o" ] || continue
	nr_objs=$((nr_objs + 1))
	[ -f "${o%.o}.gcda" ] && nr_counts=$((nr_counts + 1))
done
if [ "$nr_counts" -gt 0 ] && [ "$nr_counts" = "$nr_objs" ]; then
	ok "the training run counted in every object ($nr_counts)"
else
	not_ok "$nr_counts count files for $nr_objs objects"
fi
stale=$(find "$build" -mindepth 2 -maxdepth 2 -name '*.o' ! -newer "$build/pgo-profile" | wc -l)
if [ -f "$build/pgo-profile" ] && [ "$stale" = 0 ]; then
	ok "every object compiled after the training run"
else
	not_ok "$stale objects older than the training run"
fi

for f in "$TRACES"/*.dat; do
	name=$(basename "$f")
	"$SCHEDPLOT" stats -q --json "$f" >"$TMP/plain.json" 2>&1
	"$pgo" stats -q --json "$f" >"$TMP/pgo.json" 2>&1
	"$SCHEDPLOT" datagraph -q -o "$TMP/plain.png" "$f"
	"$pgo" datagraph -q -o "$TMP/pgo.png" "$f"
	"$SCHEDPLOT" running-waiting -q -o "$TMP/plain-rw.png" "$f"
	"$pgo" running-waiting -q -o "$TMP/pgo-rw.png" "$f"
	if cmp -s "$TMP/plain.json" "$TMP/pgo.json" && cmp -s "$TMP/plain.png" "$TMP/pgo.png" &&
	   cmp -s "$TMP/plain-rw.png" "$TMP/pgo-rw.png"; then
		ok "$name: the same stats --json, datagraph and running-waiting as the plain build"
	else
		not_ok "$name: the PGO build's output differs from the plain build's"
	fi
done

run make --no-print-directory -s -C "$SRCDIR" PGO=1 CC=true BUILD="$TMP/build-true" \
	"$TMP/build-true/schedplot"
if [ "$STATUS" != 0 ] && grep -q "PGO=1 needs GCC" "$ERR"; then
	ok "make PGO=1 with a compiler other than GCC: refused, saying why"
else
	not_ok "make PGO=1 CC=true: exit $STATUS: $(head -c 300 "$ERR")"
fi

# The build users get: make (and make install, the Debian package) builds
# with the profile where GCC compiles, into build-pgo/; PGO=0 opts out, and
# another compiler builds plainly.  Dry runs: the commands only.
dry() { make -n --no-print-directory -C "$SRCDIR" BUILD="$TMP/dry" "$@" 2>&1; }
if dry | grep -q -- '-fprofile-generate' && dry | grep -q -- 'pgo-train' &&
	dry install DESTDIR="$TMP/root" | grep -q -- '-fprofile-use'; then
	ok "make and make install build with GCC's profile by default"
else
	not_ok "make does not build with the profile by default: $(dry | head -c 300)"
fi
if ! dry PGO=0 | grep -q -- '-fprofile' && dry PGO=0 | grep -q -- ' -c '; then
	ok "make PGO=0 builds plainly"
else
	not_ok "make PGO=0 still builds with a profile"
fi
if ! dry CC=true | grep -q -- '-fprofile'; then
	ok "make with a compiler other than GCC builds plainly"
else
	not_ok "make CC=true tries a profile-guided build"
fi
if ! dry check | grep -q -- '-fprofile'; then
	ok "make check builds plainly (no training run in the suite)"
else
	not_ok "make check trains a profile"
fi
