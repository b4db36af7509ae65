#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The documentation keeps up with the program: every man page is lint clean,
# every long option a command accepts is in the command's man page and in
# its --help, and nothing either describes is unknown to the parser;
# schedplot(1) names every command, and the bash completion offers the
# commands, options and values the program has.
. "$(dirname "$0")/../lib/lib.sh"

MAN=$SRCDIR/man
# Pages still being written: a missing one is skipped, not failed.  Remove
# a command from this list once its page is in man/.
PENDING_PAGES="datagraph running-waiting overview"

# ---- lint ----

if command -v mandoc >/dev/null 2>&1; then
	for page in "$MAN"/*.1; do
		lint=$(mandoc -Tlint "$page" 2>&1)
		if [ -z "$lint" ]; then
			ok "mandoc -Tlint $(basename "$page")"
		else
			not_ok "mandoc -Tlint $(basename "$page"): $(echo "$lint" | head -5)"
		fi
	done
else
	skip "mandoc not installed (Debian package mandoc): man pages not linted"
fi

if command -v groff >/dev/null 2>&1; then
	for page in "$MAN"/*.1; do
		macros=-man
		grep -q '^\.Dd' "$page" && macros=-mdoc
		lint=$(groff "$macros" -ww -z "$page" 2>&1)
		if [ -z "$lint" ]; then
			ok "groff -ww $(basename "$page")"
		else
			not_ok "groff -ww $(basename "$page"): $(echo "$lint" | head -5)"
		fi
	done
else
	skip "groff not installed (Debian package groff-base): man pages not checked with groff"
fi

# render PAGE: the page as plain text on one long line per paragraph, so an
# option is never broken at a hyphen (overstrike bold removed)
render() {
	if command -v mandoc >/dev/null 2>&1; then
		mandoc -Tascii -Owidth=1000 "$1" | sed 's/.\x08//g'
	elif command -v groff >/dev/null 2>&1; then
		groff -mandoc -Tascii -P-cbou -rLL=1000n "$1" 2>/dev/null
	else
		sed 's/\\-/-/g; s/\\f[BIRP]//g; s/\\f([A-Z][A-Z]//g' "$1"
	fi
}

# has_option FILE NAME: FILE mentions --NAME as a whole option
has_option() {
	grep -Eq -- "--$2([^a-z0-9-]|\$)" "$1"
}

# ---- commands and their options ----

commands=$("$SCHEDPLOT" --help | awk '
	/^Commands:/ { on = 1; next }
	on && /^$/ { exit }
	on && /^  [a-z]/ { print $1 }')
if [ -n "$commands" ]; then
	ok "schedplot --help lists commands: $(echo $commands)"
else
	not_ok "schedplot --help lists no commands under 'Commands:'"
fi

# table_options FILE...: "name has_arg" for every option the tables in FILE
# declare: struct sp_opt entries { "name", KEY, has_arg, ... } and getopt_long's
# struct option entries { "name", has_arg, NULL, KEY }
table_options() {
	grep -ohE '\{ *"[a-z][a-z0-9-]*",( *[^,"]+,)? *(no|required|optional)_argument' "$@" |
		sed -E 's/\{ *"([^"]*)",( *[^,"]+,)? *([a-z]*)_argument/\1 \3/' | sort -u
}

# options_of CMD: every option declared anywhere in src/cli, each probed
# against CMD (a command takes shared options and its own)
options_of() {
	table_options "$SRCDIR"/src/cli/*.c
}

# help_options FILE: the options FILE (a --help) lists, one per line of its own
help_options() {
	grep -oE -- '^(  -[a-zA-Z], |      )--[a-z][a-z0-9-]*' "$1" | grep -oE -- '--[a-z0-9-]+' |
		sed 's/^--//' | sort -u
}

# page_options FILE: the options a rendered man page describes under OPTIONS
page_options() {
	awk '/^OPTIONS/ { on = 1; next } /^[A-Z]/ { on = 0 }
	     on && /^       -/ {
		for (i = 1; i <= NF; i++) {
			w = $i; sub(/,$/, "", w)
			if (w ~ /^--[a-z]/) { sub(/[[=].*/, "", w); print substr(w, 3) }
			else if (w !~ /^-[a-zA-Z]$/ && w !~ /^[A-Z[|]/) break
		}
	     }' "$1" | sort -u
}

if [ -n "$(table_options "$SRCDIR"/src/*/*.c)" ]; then
	ok "option tables found in src/"
else
	not_ok "no getopt_long option tables found in src/*/*.c"
fi

# a value that parses for OPTION, so the probe reaches --help
probe_value() {
	case $1 in
	format) echo png ;;
	color-by) echo pid ;;
	palette) echo default ;;
	cpu-order) echo numeric ;;
	output) echo "$TMP/probe.png" ;;
	csv) echo "$TMP/probe.csv" ;;
	topology) echo "$TMP/probe.topology" ;;
	time) echo 0,1 ;;
	cpus) echo 0 ;;
	target) echo probe ;;
	title) echo probe ;;
	min) echo 0 ;;
	*) echo 100 ;;
	esac
}

# accepts CMD NAME ARG: CMD takes --NAME (a rejected value still counts as
# taken; an unknown or inapplicable option does not).  Returns 2 when the
# probe itself went wrong (a crash, a missing binary).
accepts() {
	local args=("$1" "--$2") status
	[ "$3" = no ] || args+=("$(probe_value "$2")")
	"$SCHEDPLOT" "${args[@]}" --help >/dev/null 2>"$ERR"
	status=$?
	case $status in
	0) return 0 ;;
	2) ! grep -Eq "unrecognized option|unknown option|does not apply to" "$ERR" ;;
	*) return 2 ;;
	esac
}

help_txt=$TMP/help.txt
page_txt=$TMP/page.txt
for cmd in $commands; do
	"$SCHEDPLOT" "$cmd" --help >"$help_txt" 2>&1
	documented=$(help_options "$help_txt")
	accepted=
	while read -r name arg; do
		accepts "$cmd" "$name" "$arg"
		case $? in
		0) ;;
		2) not_ok "$cmd --$name --help: unexpected exit: $(head -c 300 "$ERR")"; continue ;;
		*) continue ;;
		esac
		# getopt_long takes --top for --topology: an abbreviation of an
		# option the command documents is that option, not one of its own
		if ! grep -qx -- "$name" <<<"$documented" &&
		   grep -q -- "^$name-\?" <<<"$documented"; then
			continue
		fi
		accepted="$accepted $name"
	done < <(options_of "$cmd")
	if [ -z "$accepted" ]; then
		not_ok "$cmd: accepts none of the options in src/ (not even --help)"
		continue
	fi

	missing=
	for name in $accepted; do
		has_option "$help_txt" "$name" || missing="$missing --$name"
	done
	if [ -z "$missing" ]; then
		ok "$cmd --help mentions all its options:$(printf ' --%s' $accepted)"
	else
		not_ok "$cmd --help does not mention:$missing"
	fi
	unknown=
	for name in $documented; do
		case " $accepted " in *" $name "*) ;; *) unknown="$unknown --$name" ;; esac
	done
	if [ -z "$unknown" ]; then
		ok "$cmd: every option its --help lists is one the parser takes"
	else
		not_ok "$cmd --help lists options the parser does not take:$unknown"
	fi

	page=$MAN/schedplot-$cmd.1
	if [ ! -f "$page" ]; then
		case " $PENDING_PAGES " in
		*" $cmd "*) skip "man/schedplot-$cmd.1 is not written yet" ;;
		*) not_ok "man/schedplot-$cmd.1 is missing" ;;
		esac
		continue
	fi
	render "$page" >"$page_txt"
	missing=
	for name in $accepted; do
		has_option "$page_txt" "$name" || missing="$missing --$name"
	done
	if [ -z "$missing" ]; then
		ok "schedplot-$cmd.1 documents all its options"
	else
		not_ok "schedplot-$cmd.1 does not document:$missing"
	fi
	unknown=
	for name in $(page_options "$page_txt"); do
		case " $accepted " in *" $name "*) ;; *) unknown="$unknown --$name" ;; esac
	done
	if [ -z "$unknown" ]; then
		ok "schedplot-$cmd.1: every option under OPTIONS is one the parser takes"
	else
		not_ok "schedplot-$cmd.1 describes options the parser does not take:$unknown"
	fi
done

render "$MAN/schedplot.1" >"$page_txt"
for cmd in $commands; do
	if grep -Eq "^ +$cmd( |\$)|schedplot-$cmd\(1\)" "$page_txt"; then
		ok "schedplot.1 describes $cmd"
	else
		not_ok "schedplot.1 does not describe the command $cmd"
	fi
done

# ---- bash completion ----

comp=$SRCDIR/contrib/schedplot.bash
# complete WORD...: what the completion offers for the last WORD
complete_words() {
	bash -c '
		. "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=()
		_schedplot
		printf "%s\n" "${COMPREPLY[@]}"' complete "$comp" "$SCHEDPLOT" "$@" | sort
}

# expect_completion "WORDS" EXPECTED...: WORDS is quoted as in the shell
expect_completion() {
	local words=$1 got want
	local -a argv
	shift
	eval "argv=($words)"
	got=$(cd "$SRCDIR" && complete_words "${argv[@]}" | tr '\n' ' ')
	want=$(printf '%s\n' "$@" | sort | tr '\n' ' ')
	if [ "$got" = "$want" ]; then
		ok "completion of 'schedplot $words': $want"
	else
		not_ok "completion of 'schedplot $words': got '$got', expected '$want'"
	fi
}

if [ -f "$comp" ]; then
	if bash -n "$comp"; then
		ok "contrib/schedplot.bash parses"
	else
		not_ok "contrib/schedplot.bash has a syntax error"
	fi
	# shellcheck disable=SC2086
	expect_completion "''" $commands help
	for cmd in $commands; do
		# shellcheck disable=SC2046
		expect_completion "$cmd --" $(grep -oE -- '--[a-z][a-z0-9-]*' <("$SCHEDPLOT" "$cmd" --help) | sort -u)
	done
	expect_completion "stats --color-by ''" pid command process parent
	expect_completion "stats --cpu-order ''" numeric socket
	expect_completion "stats --format ''" png pdf svg
	expect_completion "stats --by ''" task command
	expect_completion "stats -b ''" task command
	expect_completion "tasks --sort ''" run wait pid start
	expect_completion "explain --what ''" placement wait migration idle-while-waiting
	expect_completion "datagraph -i traces/m" traces/messaging.dat
	expect_completion "datagraph --freq=mer" merged
	expect_completion "datagraph --freq traces/m" traces/messaging.dat
	expect_completion "overview --freq r" rows
	# the palettes of src/draw/palette.c, from the program when a command takes
	# --palette, else from the completion's own list
	palettes=$(sed -n '/^const char \*sp_palette_names/,/^}/s/.*return "\(.*\)";.*/\1/p' \
		"$SRCDIR/src/draw/palette.c" | tr -d ,)
	# shellcheck disable=SC2086
	expect_completion "stats --palette ''" $palettes
	for cmd in $commands; do
		if accepts "$cmd" palette required 2>/dev/null; then
			# shellcheck disable=SC2086
			expect_completion "$cmd --palette ''" $palettes
		fi
	done
	# the trace argument: .dat files and directories
	# shellcheck disable=SC2046
	expect_completion "stats traces/" \
		$(cd "$SRCDIR" && find traces -mindepth 1 -maxdepth 1 \( -type d -o -name '*.dat' \))
else
	not_ok "contrib/schedplot.bash is missing"
fi

# ---- zsh completion ----

zcomp=$SRCDIR/contrib/_schedplot
if [ ! -f "$zcomp" ]; then
	not_ok "contrib/_schedplot is missing"
elif ! command -v zsh >/dev/null 2>&1; then
	skip "zsh completion: no zsh here (Debian package zsh)"
else
	if zsh -n "$zcomp"; then
		ok "contrib/_schedplot parses"
	else
		not_ok "contrib/_schedplot has a syntax error"
	fi
	# zsh_specs FUNCTION ARGS...: run a function of the completion with
	# the completion system's calls replaced: _call_program runs its
	# command, _arguments and _describe print what they were given
	zsh_specs() {
		zsh -f -c '
			_call_program() { shift; "$@" }
			_arguments() { print -rl -- "$@" }
			_describe() { print -rl -- ${(P)3} }
			zcomp=$1; shift
			source $zcomp >/dev/null 2>&1
			"$@"' zsh "$zcomp" "$@"
	}
	got=$(zsh_specs _schedplot_commands "$SCHEDPLOT" | cut -d: -f1 | sort | tr '\n' ' ')
	want=$(printf '%s\n' $commands | sort | tr '\n' ' ')
	if [ "$got" = "$want" ]; then
		ok "zsh completion lists the commands: $want"
	else
		not_ok "zsh completion lists '$got', expected '$want'"
	fi
	if zsh_specs _schedplot_commands "$SCHEDPLOT" | grep -q '^datagraph:draw '; then
		ok "zsh completion describes the commands from --help"
	else
		not_ok "zsh completion has no description for datagraph"
	fi
	for cmd in $commands; do
		zsh_specs _schedplot_command_args "$SCHEDPLOT" "$cmd" >"$TMP/zspecs"
		missing=
		for opt in $(grep -oE -- '--[a-z][a-z0-9-]*' <("$SCHEDPLOT" "$cmd" --help) | sort -u); do
			grep -qE -- "^$opt(=?\\[)" "$TMP/zspecs" || missing="$missing $opt"
		done
		if [ -z "$missing" ]; then
			ok "zsh completion offers every option of $cmd"
		else
			not_ok "zsh completion of $cmd lacks:$missing"
		fi
	done
	zsh_specs _schedplot_command_args "$SCHEDPLOT" datagraph >"$TMP/zspecs"
	expect_grep "$TMP/zspecs" '^--color-by=\[.*\]:grouping:\(pid command process parent\)$' \
		"zsh completion: --color-by values"
	expect_grep "$TMP/zspecs" '^--palette=\[.*\]:palette:\(default colorblind grey\)$' \
		"zsh completion: --palette values"
	expect_grep "$TMP/zspecs" "^\\*:trace:_files -g '\\*\\.dat" "zsh completion: traces are .dat files"
	expect_grep "$TMP/zspecs" '^--min=\[start ' "zsh completion: descriptions from --help"
fi

# ---- recording examples ----

# Every man page's trace-cmd record example records the README's events.
want=$(sed -n '/^    trace-cmd record -e/,/-o trace.dat/p' "$SRCDIR/README" |
	grep -oE 'sched:[a-z_]+' | sort -u | tr '\n' ' ')
for page in "$MAN"/*.1; do
	grep -q 'trace\\-cmd record \\-e sched:' "$page" || continue
	got=$(sed -n '/^trace\\-cmd record \\-e sched:/,/\\-\\- /p' "$page" |
		grep -oE 'sched:[a-z_]+' | sort -u | tr '\n' ' ')
	if [ -n "$want" ] && [ "$got" = "$want" ]; then
		ok "$(basename "$page"): its trace-cmd record example records the README's events"
	else
		not_ok "$(basename "$page"): trace-cmd record example records '$got', README '$want'"
	fi
done
