#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A short bounded run of the libFuzzer harness (tests/fuzz/fuzz-trace.c):
# any crash, leak, timeout or out-of-memory on the bundled traces and their
# mutations fails.  Needs clang and libFuzzer (tests/tools/install-deps); the
# harness is built with ASan/UBSan itself, so the SANITIZE=1 run of the
# suite leaves it to the plain one.  FUZZ_CI_TIME sets the seconds: 20, a
# smoke test with a fixed seed that the regressions and the seeds of
# tests/fuzz/ make worth having; `make fuzz` (60 s, FUZZ_TIME) searches.
. "$(dirname "$0")/../lib/lib.sh"

secs=${FUZZ_CI_TIME:-20}
if [ "${BUILD:-build}" = build-san ]; then
	skip "fuzzing: the plain run of the suite does it (the harness has its own sanitizers)"
	exit 0
fi
if ! command -v "${FUZZ_CC:-clang}" >/dev/null 2>&1; then
	skip "fuzzing: no clang (install clang and libclang-rt-dev, or run tests/tools/install-deps)"
	exit 0
fi
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n);\n%s\n' \
	'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }' >"$TMP/probe.c"
if ! "${FUZZ_CC:-clang}" -fsanitize=fuzzer "$TMP/probe.c" -o "$TMP/probe" 2>"$TMP/probe.err"; then
	skip "fuzzing: clang has no libFuzzer runtime (install libclang-rt-dev)"
	exit 0
fi

if env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -j"$(nproc)" -C "$SRCDIR" --no-print-directory \
	fuzz-build >"$TMP/build.log" 2>&1; then
	ok "make fuzz-build"
else
	not_ok "make fuzz-build: $(tail -5 "$TMP/build.log")"
	exit 0
fi

mkdir -p "$TMP/artifacts"
set +e
FUZZ_SEED=${FUZZ_SEED:-1} FUZZ_CORPUS=$TMP/corpus FUZZ_ARTIFACTS=$TMP/artifacts/ \
	timeout -k 10 $((secs + 60)) "$SRCDIR/tests/fuzz/run" "$secs" >"$TMP/fuzz.log" 2>&1
status=$?
set -e
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$TMP/fuzz.log")
if [ "$status" = 0 ]; then
	ok "fuzzed ${secs}s: ${runs:-?} inputs, no crash, leak or timeout"
else
	keep=$SRCDIR/build-fuzz/ci-artifacts
	mkdir -p "$keep"
	cp "$TMP"/artifacts/* "$keep"/ 2>/dev/null
	not_ok "fuzzing found a problem (exit $status; input kept in build-fuzz/ci-artifacts/): $(grep -m1 -E 'ERROR|SUMMARY|Test unit written' "$TMP/fuzz.log")"
	grep -E -m12 'ERROR|#[0-9]+ 0x|SUMMARY' "$TMP/fuzz.log" | sed 's/^/# /'
fi
