#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# debian/ builds a Debian package with dpkg-buildpackage, from a clean copy
# of the git tree: the last commit plus the working tree's version of every
# tracked file (untracked files stay out, so a file that was never added
# breaks this build as it would break a clone's).  The .deb holds the
# program in /usr/bin, every man page and the bash completion; its version
# is the VERSION file's and it depends on cairo and a font.  Nothing is
# installed: the package is only unpacked into the temporary directory.
. "$(dirname "$0")/../lib/lib.sh"

version=$(cat "$SRCDIR/VERSION")

# The package does not depend on the binary under test: build it once, in
# the plain run of make check-all, not again under the sanitizers.
case $(basename "$(dirname "$SCHEDPLOT")") in
build-san | build-tsan)
	skip "Debian package: built by the run without sanitizers"
	exit 0
	;;
esac

missing=
for tool in git dpkg-buildpackage dpkg-deb dpkg-checkbuilddeps dh; do
	command -v "$tool" >/dev/null 2>&1 || missing="$missing $tool"
done
if [ -n "$missing" ]; then
	skip "Debian package: no$missing (apt-get install dpkg-dev debhelper)"
	exit 0
fi
if [ "$(git -C "$SRCDIR" rev-parse --show-toplevel 2>/dev/null)" != "$SRCDIR" ] ||
	! git -C "$SRCDIR" rev-parse -q --verify HEAD >/dev/null; then
	skip "Debian package: $SRCDIR is not a git checkout with a commit"
	exit 0
fi

# The source tree: HEAD, then the working tree's tracked files over it,
# without the tracked files deleted since.  debian/ is taken whole (minus
# what its .gitignore names) so the packaging can be tried before it is
# committed.
src=$TMP/schedplot-$version
mkdir "$src"
git -C "$SRCDIR" archive HEAD | tar -x -C "$src"
(
	cd "$SRCDIR" || exit
	{
		git ls-files -z
		git ls-files -z --others --exclude-standard -- debian
	} | tar --null -T - --ignore-failed-read -cf - 2>/dev/null
) | tar -x -C "$src"
(cd "$SRCDIR" && git ls-files -z --deleted) | (cd "$src" && xargs -0r rm -f --)

if [ ! -f "$src/debian/control" ]; then
	not_ok "Debian package: no debian/control in the tree"
	exit 0
fi
run sh -c "cd '$src' && dpkg-checkbuilddeps -Pnocheck"
if [ "$STATUS" != 0 ]; then
	skip "Debian package: $(tail -n 1 "$ERR")"
	exit 0
fi

# The unit tests are the suite's own; the package build skips them.  noopt
# (-O0, half the compile time) and nopgo (0086-pgo.sh checks the
# profile-guided build): this checks the packaging, and every other
# run of the suite compiles the code optimised; -Werror=format-security and
# the other hardening flags stay.
start=$(date +%s)
run sh -c "cd '$src' && DEB_BUILD_OPTIONS='nocheck nopgo noopt noautodbgsym parallel=$(nproc)' \
	timeout 600 dpkg-buildpackage -us -uc -b -Pnocheck"
if [ "$STATUS" != 0 ]; then
	why=$(grep -hE -m 5 ' error: |undefined reference|\*\*\* ' "$OUT" "$ERR")
	[ -n "$why" ] || why=$(tail -q -n 10 "$OUT" "$ERR")
	not_ok "dpkg-buildpackage -us -uc -b: exit $STATUS: $(echo "$why" | tr '\n' ' ' | head -c 1500)"
	exit 0
fi
ok "dpkg-buildpackage -us -uc -b built the package in $(($(date +%s) - start)) s"

debs=("$TMP"/schedplot_"$version"_*.deb)
deb=${debs[0]}
if [ ! -f "$deb" ]; then
	not_ok "no schedplot_${version}_*.deb next to the source: $(cd "$TMP" && echo *)"
	exit 0
fi
ok "built $(basename "$deb")"

# The file list.
dpkg-deb -c "$deb" >"$TMP/contents"
# has_file MODE PATH WHAT: the package holds PATH (mode prefix MODE)
has_file() {
	if grep -Eq -- "^$1[^ ]* .* \\./${2#/}\$" "$TMP/contents"; then
		ok "$3"
	else
		not_ok "$3: no $2 in the package: $(awk '{print $NF}' "$TMP/contents" | tr '\n' ' ')"
	fi
}
has_file -rwx /usr/bin/schedplot "the package installs /usr/bin/schedplot"
for page in "$src"/man/*.1; do
	name=$(basename "$page")
	has_file -rw- "/usr/share/man/man1/$name.gz" "the package installs the man page $name"
done
has_file -rw- /usr/share/bash-completion/completions/schedplot \
	"the package installs the bash completion"
has_file -rw- /usr/share/zsh/vendor-completions/_schedplot \
	"the package installs the zsh completion"
has_file -rw- /usr/share/doc/schedplot/copyright "the package has its copyright file"
if grep -Eq ' \./usr/local(/|$)' "$TMP/contents"; then
	not_ok "the package puts files under /usr/local"
else
	ok "nothing under /usr/local"
fi

# The control fields.
field() { dpkg-deb -f "$deb" "$1"; }
pkg=$(field Package)
if [ "$pkg" = schedplot ]; then
	ok "Package: schedplot"
else
	not_ok "Package: '$pkg', expected schedplot"
fi
pkgversion=$(field Version)
if [ "$pkgversion" = "$version" ]; then
	ok "Version: $version (VERSION file)"
else
	not_ok "Version: '$pkgversion', the VERSION file says $version"
fi
depends=$(field Depends)
for dep in libcairo2 libtracecmd1 fonts-dejavu-core; do
	if echo ", $depends," | grep -Eq "[, ]${dep}[ ,]"; then
		ok "Depends names $dep"
	else
		not_ok "Depends does not name $dep: $depends"
	fi
done

# The packaged program runs (unpacked here, not installed).
dpkg-deb -x "$deb" "$TMP/root"
run "$TMP/root/usr/bin/schedplot" --version
expect_status 0 "the packaged schedplot --version"
expect_grep "$OUT" "^schedplot $version\$" "the packaged schedplot prints version $version"

if command -v lintian >/dev/null 2>&1; then
	changes=("$TMP"/schedplot_"$version"_*.changes)
	run lintian --fail-on error "${changes[0]}"
	if [ "$STATUS" = 0 ]; then
		ok "lintian: no errors ($(grep -c '^W: ' "$OUT") warnings)"
	else
		not_ok "lintian: $(grep -E '^[EW]: ' "$OUT" | head -10 | tr '\n' ' ')"
	fi
else
	skip "lintian is not installed"
fi
