# SPDX-License-Identifier: GPL-2.0-only
# bash completion for schedplot(1).
#
# The commands and their options are read from the program itself
# ("schedplot --help", "schedplot COMMAND --help") each time, so the
# completion stays right as commands and options are added.

# _schedplot_commands PROG: the commands listed under "Commands:" in --help
_schedplot_commands()
{
	"$1" --help 2>/dev/null | awk '
		/^Commands:/ { on = 1; next }
		on && /^[^ ]/ { exit }
		on && /^  [a-z]/ { print $1 }
		on && /^$/ { exit }'
}

# _schedplot_options PROG CMD: the long options CMD's --help mentions
_schedplot_options()
{
	"$1" "$2" --help 2>/dev/null |
		grep -oE -- '--[a-z][a-z0-9-]*' | sort -u
}

# _schedplot_takes_arg PROG CMD OPT: OPT is shown as "OPT VALUE" in CMD's --help
_schedplot_takes_arg()
{
	case $3 in
	-i|--input|-o|--output|--format|--min|--max|--time|--cpus|--target|--target-process|\
	--width|--height|\
	--title|--font-size|--color-by|--palette|--cpu-order|--topology|--csv|-n|--top|-b|--by|\
	--class|--slowest|--events|--min-at|--mark|--span)
		return 0 ;;
	--*)
		"$1" "$2" --help 2>/dev/null |
			grep -qE -- "(^|[ ,])$3[ =][A-Z]" && return 0 ;;
	esac
	return 1
}

# _schedplot_palettes PROG CMD: palette names, from the program when it says
_schedplot_palettes()
{
	local known
	known=$("$1" "$2" --palette '?' 2>&1 >/dev/null |
		sed -n 's/.*(known: \(.*\)).*/\1/p' | tr -d ',')
	echo "${known:-default colorblind grey}"
}

_schedplot_files()
{
	# $1: a pattern like '*.dat' or '' for any file
	if declare -F _filedir >/dev/null; then
		if [ -n "$1" ]; then
			_filedir "${1#\*.}"
		else
			_filedir
		fi
		return
	fi
	local IFS=$'\n' extglob
	extglob=$(shopt -p extglob)
	shopt -s extglob
	if [ -n "$1" ]; then
		COMPREPLY=($(compgen -d -- "$cur") $(compgen -f -X "!$1" -- "$cur"))
	else
		COMPREPLY=($(compgen -f -- "$cur"))
	fi
	eval "$extglob"
	compopt -o filenames 2>/dev/null
}

_schedplot()
{
	local cur prev prog cmd i
	COMPREPLY=()
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD - 1]}
	prog=${COMP_WORDS[0]}
	# the program as typed, so ./schedplot completes its own options
	prog=${prog/#\~/$HOME}
	command -v "$prog" >/dev/null 2>&1 || prog=schedplot

	# the command is the first word after the program that is not an option
	cmd=
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; break ;;
		esac
	done

	if [ -z "$cmd" ]; then
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W '--help --version' -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$(_schedplot_commands "$prog") help" -- "$cur"))
		fi
		return
	fi
	if [ "$cmd" = help ]; then
		[ "$i" -eq $((COMP_CWORD - 1)) ] &&
			COMPREPLY=($(compgen -W "$(_schedplot_commands "$prog")" -- "$cur"))
		return
	fi

	# --opt=value: bash splits it into "--opt" "=" "value"
	if [ "$cur" = = ]; then
		cur=
	elif [ "$prev" = = ] && [ "$COMP_CWORD" -ge 2 ]; then
		prev=${COMP_WORDS[COMP_CWORD - 2]}
	elif [[ $cur == --*=* ]]; then
		prev=${cur%%=*}
		cur=${cur#*=}
	fi
	# --freq takes its mode in the same word (--freq=merged) or the next
	if [ "$prev" = --freq ]; then
		[[ $cur == -* ]] || _schedplot_files '*.dat'
		COMPREPLY+=($(compgen -W 'rows merged' -- "$cur"))
		return
	fi
	if [[ $prev != -* ]] || ! _schedplot_takes_arg "$prog" "$cmd" "$prev"; then
		prev=
	fi

	case $prev in
	--color-by)
		COMPREPLY=($(compgen -W 'pid command process parent' -- "$cur")); return ;;
	--palette)
		COMPREPLY=($(compgen -W "$(_schedplot_palettes "$prog" "$cmd")" -- "$cur")); return ;;
	--cpu-order)
		COMPREPLY=($(compgen -W 'numeric socket' -- "$cur")); return ;;
	-b|--by)
		case $cmd in
		stats) COMPREPLY=($(compgen -W 'task command' -- "$cur")) ;;
		*) COMPREPLY=($(compgen -W 'class command pid cpu placement socket waker antagonist' -- "$cur")) ;;
		esac
		return ;;
	--class)
		COMPREPLY=($(compgen -W 'wakeup preempt' -- "$cur")); return ;;
	--sort)
		COMPREPLY=($(compgen -W 'run wait pid start' -- "$cur")); return ;;
	--what)
		COMPREPLY=($(compgen -W 'placement wait migration idle-while-waiting' -- "$cur"))
		return ;;
	--events|--min-at)
		# events often worth a mark; any SYSTEM:EVENT of the trace will do
		COMPREPLY=($(compgen -W 'ftrace:print power:cpu_idle power:cpu_frequency
			sched:sched_move_numa sched:sched_swap_numa irq:irq_handler_entry
			workqueue:workqueue_execute_start' -- "$cur"))
		return ;;
	--format)
		COMPREPLY=($(compgen -W 'png pdf svg' -- "$cur")); return ;;
	--metric)
		COMPREPLY=($(compgen -W 'duration running_avg waiting_avg idle_while_waiting
			lost_fraction wakeup_p50 wakeup_p99 migrations_per_s value' -- "$cur"))
		return ;;
	--view)
		case $cmd in
		compare) COMPREPLY=($(compgen -W 'runs cdf shift ridgeline datagraph running-waiting' -- "$cur")) ;;
		*) _schedplot_files '*.view' ;;
		esac
		return ;;
	--fail-on)
		COMPREPLY=($(compgen -W 'regression change' -- "$cur")); return ;;
	--skip-warmup)
		COMPREPLY=($(compgen -W 'auto' -- "$cur")); return ;;
	-o|--output)
		case $cmd in
		runs) _schedplot_files '' ;;	# CSV or JSON lines: any name
		export) _schedplot_files '*.@(db|sqlite|sqlite3)' ;;
		*) _schedplot_files '*.@(png|pdf|svg)' ;;
		esac
		return ;;
	-i|--input)
		_schedplot_files '*.dat'; return ;;
	--topology|--csv)
		_schedplot_files ''; return ;;
	?*)
		return ;;	# a number, a name or a list: nothing to offer
	esac

	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_schedplot_options "$prog" "$cmd")" -- "$cur"))
		return
	fi
	# compare --values reads files of numbers, whatever their names
	if [ "$cmd" = compare ] && [[ " ${COMP_WORDS[*]} " == *" --values "* ]]; then
		_schedplot_files ''
		return
	fi
	_schedplot_files '*.dat'
}

complete -F _schedplot schedplot
