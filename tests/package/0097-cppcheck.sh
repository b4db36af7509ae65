#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# cppcheck clean on src/ (warning and portability checks).  Suppressed, each
# a false positive:
#   uninitvar in container.c: c.info points at `local`, memset right after
#   duplicateAssignExpression in layout.c: x0 and y0 both start at the margin
# Only in the plain run of the suite: the result does not depend on the build.
. "$(dirname "$0")/../lib/lib.sh"

if [ "${BUILD:-build}" = build-san ]; then
	skip "cppcheck: the plain run of the suite does it"
	exit 0
fi
if ! command -v cppcheck >/dev/null 2>&1; then
	skip "cppcheck: not installed (apt-get install cppcheck, or run tests/tools/install-deps)"
	exit 0
fi
cd "$SRCDIR"
# -j: one file per core (it only turns off unusedFunction, not asked for)
run cppcheck -j "$(nproc)" --enable=warning,portability --error-exitcode=1 -q -Iinclude \
	--suppress=uninitvar:src/trace/container.c --suppress=duplicateAssignExpression:src/draw/layout.c \
	--template='{file}:{line}: {severity}: {id}: {message}' src/
if [ "$STATUS" = 0 ]; then
	ok "cppcheck: src/ is clean"
else
	not_ok "cppcheck: $(grep -E '^src/' "$ERR" | head -10 | tr '\n' ';')"
fi
