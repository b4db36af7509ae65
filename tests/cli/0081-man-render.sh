#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The man pages render clean as man(1) shows them: no warning from
# "MANWIDTH=80 man --warnings", and no words run together, as the
# alternating font macros (.BR, .IR, ...) do to prose given them as
# arguments: ".BR schedplot-stats (1)), and say" renders "(1)),andsay".
. "$(dirname "$0")/../lib/lib.sh"

MAN=$SRCDIR/man

for page in "$MAN"/*.1; do
	name=$(basename "$page")
	if command -v man >/dev/null 2>&1; then
		MANWIDTH=80 man --warnings -l "$page" >"$OUT" 2>"$ERR"
		if [ -s "$ERR" ]; then
			not_ok "man --warnings $name: $(head -c 300 "$ERR")"
		elif [ ! -s "$OUT" ]; then
			not_ok "man --warnings $name: nothing rendered"
		else
			ok "man --warnings $name: no warning"
		fi
		# a reference or a closing parenthesis glued to the next word
		if grep -nE '\([1-8]\)\)*[,;.:]?[A-Za-z]|[a-z]\)[,;]?[a-z]{3,}' "$OUT" >"$TMP/glued"; then
			not_ok "$name renders words run together: $(head -3 "$TMP/glued")"
		else
			ok "$name renders no words run together"
		fi
	else
		skip "man not installed (Debian package man-db): $name not rendered"
	fi
	# the source: prose (two plain words in a row) handed to an alternating
	# macro is glued into one word
	if python3 - "$page" >"$TMP/prose" <<'PY'
import re, shlex, sys
bad = []
for i, line in enumerate(open(sys.argv[1]), 1):
    m = re.match(r'^\.(BR|RB|BI|IB|IR|RI)\s+(.*)$', line)
    if not m:
        continue
    try:
        args = shlex.split(m.group(2).replace('\\', '\\\\'))
    except ValueError:
        args = m.group(2).split()
    plain = [re.fullmatch(r'[A-Za-z]+[,;.]?', a) is not None for a in args]
    if any(a and b for a, b in zip(plain, plain[1:])):
        bad.append(f"line {i}: {line.strip()}")
print("; ".join(bad[:3]))
sys.exit(1 if bad else 0)
PY
	then
		ok "$name: no prose in the arguments of an alternating font macro"
	else
		not_ok "$name: prose glued by an alternating font macro: $(cat "$TMP/prose")"
	fi
done
