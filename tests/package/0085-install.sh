#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# make install puts the program, every man page, the bash and zsh completions
# and the views of contrib/views where PREFIX, DESTDIR, BINDIR, MANDIR and
# ZSHCOMPDIR say, and the installed program finds a view by its name; make
# uninstall removes them;
# --version prints the version of the VERSION file.
. "$(dirname "$0")/../lib/lib.sh"

version=$(cat "$SRCDIR/VERSION")

run "$SCHEDPLOT" --version
expect_status 0 "schedplot --version"
if [ "$(head -1 "$OUT")" = "schedplot $version" ]; then
	ok "--version prints 'schedplot $version' (VERSION file)"
else
	not_ok "--version first line is '$(head -1 "$OUT")', expected 'schedplot $version'"
fi

# Install the binary under test: the build directory it lives in, built
# the same way (never recompile a sanitizer build without the sanitizers,
# nor a plain one with the profile make install would otherwise build).
make_args=(--no-print-directory -s -C "$SRCDIR")
bindir=$(cd "$(dirname "$SCHEDPLOT")" && pwd)
case $bindir in
"$SRCDIR"/build-san) make_args+=(BUILD=build-san SANITIZE=1) ;;
"$SRCDIR"/build-tsan) make_args+=(BUILD=build-tsan SANITIZE=thread) ;;
"$SRCDIR"/*)
	make_args+=(BUILD="${bindir#"$SRCDIR"/}")
	if [ -f "$bindir/pgo-profile" ]; then make_args+=(PGO=1); else make_args+=(PGO=0); fi
	;;
esac

# make_run WHAT ARGS...: run make, keep its output in $OUT
make_run() {
	local what=$1
	shift
	run make "${make_args[@]}" "$@"
	if [ "$STATUS" = 0 ]; then
		ok "$what"
	else
		not_ok "$what: exit $STATUS: $(tail -n 5 "$OUT" "$ERR" | tr '\n' ' ')"
	fi
}

# check_installed ROOT BIN MAN COMP: every file is in place
check_installed() {
	local root=$1 bin=$1$2 man=$1$3 comp=$1$4 page missing=

	if [ -x "$bin/schedplot" ]; then
		ok "installed $2/schedplot"
	else
		not_ok "no executable $2/schedplot under DESTDIR"
	fi
	for page in "$SRCDIR"/man/*.1; do
		cmp -s "$page" "$man/man1/$(basename "$page")" || missing="$missing $(basename "$page")"
	done
	if [ -z "$missing" ]; then
		ok "installed every man page in $3/man1"
	else
		not_ok "man pages missing or different in $3/man1:$missing"
	fi
	if [ -f "$SRCDIR/contrib/schedplot.bash" ]; then
		if cmp -s "$SRCDIR/contrib/schedplot.bash" "$comp/schedplot"; then
			ok "installed the bash completion as $4/schedplot"
		else
			not_ok "bash completion missing or different in $4"
		fi
	else
		not_ok "contrib/schedplot.bash is missing"
	fi
	if cmp -s "$SRCDIR/contrib/_schedplot" "$1$5/_schedplot"; then
		ok "installed the zsh completion as $5/_schedplot"
	else
		not_ok "zsh completion missing or different in $5"
	fi
	run "$bin/schedplot" --version
	expect_status 0 "installed schedplot --version"
	expect_grep "$OUT" "^schedplot $version\$" "installed schedplot prints version $version"
	missing=
	for page in "$SRCDIR"/contrib/views/*.view; do
		cmp -s "$page" "$root/$6/$(basename "$page")" || missing="$missing $(basename "$page")"
	done
	if [ -z "$missing" ]; then
		ok "installed every view of contrib/views in $6"
	else
		not_ok "views missing or different in $6:$missing"
	fi
	# by name, from anywhere: the installed program finds its views
	run env -C "$TMP" "$bin/schedplot" stats -q --json --view futex \
		--view interrupts.view "$SRCDIR/traces/views/phases.dat"
	expect_status 0 "installed schedplot stats --view futex --view interrupts.view"
	expect_grep "$OUT" '"name": "futex calls"' "--view futex: the installed view's span"
	expect_grep "$OUT" '"name": "irq handlers"' "--view interrupts.view: the installed view's span"
	run env -C "$TMP" "$bin/schedplot" stats --view futexes "$SRCDIR/traces/views/phases.dat"
	expect_status 2 "installed schedplot --view of a name no view has"
	expect_stderr_line "futexes: no such view file, nor an installed view of that name \\(installed: block-io, futex, interrupts, phases\\)" \
		"--view of an unknown name: lists the installed views"
}

# check_uninstalled ROOT: no file is left
check_uninstalled() {
	local left
	left=$(find "$1" -type f -o -type l)
	if [ -z "$left" ]; then
		ok "make uninstall removed every file"
	else
		not_ok "make uninstall left: $(echo $left)"
	fi
}

root=$TMP/root
make_run "make install DESTDIR=... PREFIX=/usr" install DESTDIR="$root" PREFIX=/usr
check_installed "$root" /usr/bin /usr/share/man /usr/share/bash-completion/completions \
	/usr/share/zsh/site-functions /usr/share/schedplot/views
make_run "make uninstall DESTDIR=... PREFIX=/usr" uninstall DESTDIR="$root" PREFIX=/usr
check_uninstalled "$root"

root=$TMP/root2
make_run "make install with BINDIR, MANDIR and ZSHCOMPDIR" install DESTDIR="$root" \
	PREFIX=/opt/sp BINDIR=/opt/sp/sbin MANDIR=/opt/sp/man ZSHCOMPDIR=/opt/sp/zsh
check_installed "$root" /opt/sp/sbin /opt/sp/man /opt/sp/share/bash-completion/completions \
	/opt/sp/zsh /opt/sp/share/schedplot/views
make_run "make uninstall with BINDIR, MANDIR and ZSHCOMPDIR" uninstall DESTDIR="$root" \
	PREFIX=/opt/sp BINDIR=/opt/sp/sbin MANDIR=/opt/sp/man ZSHCOMPDIR=/opt/sp/zsh
check_uninstalled "$root"
