# SPDX-License-Identifier: BSD-2-Clause
# bash completion for tach(1): tach's options until the command, then the
# command's own completion.  Needs bash-completion's helpers.
_tach()
{
	local cur prev words cword split i
	_init_completion -s || return

	case $prev in
	-f|--file|-P|--pidfile|--buffer-file|-U|--store-and-forward|-o|--output|--log)
		_filedir
		return ;;
	-F|--format)
		COMPREPLY=($(compgen -W 'json' -- "$cur"))
		return ;;
	--hash)
		COMPREPLY=($(compgen -W 'sha256 sha512 sha1 md5 blake2b' -- "$cur"))
		return ;;
	-u|--bar-style)
		COMPREPLY=($(compgen -W 'block plain granular shaded' -- "$cur"))
		return ;;
	-M|--monitor)
		COMPREPLY=($(compgen -W 'in out both' -- "$cur"))
		return ;;
	-x|--extra-display)
		COMPREPLY=($(compgen -W 'window process window,process' -- "$cur"))
		return ;;
	-d|--watchfd|-R|--remote|-Q|--query)
		_pids
		return ;;
	-A|--last-written|-b|--buffer-size|-D|--delay-start|-i|--interval|-m|--average-rate-window|-L|--rate-limit|-l|--size|-N|--name|-p|--prefix|-w|--width|--stall-timeout|--write-at|--read-at|--read-limit|--output-block)
		return ;;
	esac
	$split && return

	# after the first operand, complete the command and its arguments
	for ((i = 1; i < cword; i++)); do
		case ${words[i]} in
		-f|-A|-b|-D|-d|-F|-i|-L|-l|-M|-m|-N|-o|-P|-p|-Q|-R|-U|-u|-w|-x|--monitor|--average-rate-window|--bar-style|--extra-display|--file|--buffer-size|--delay-start|--watchfd|--interval|--rate-limit|--size|--name|--pidfile|--prefix|--remote|--width|--format|--stall-timeout|--write-at|--read-at|--read-limit|--buffer-file|--store-and-forward|--output|--log|--query|--last-written|--hash|--output-block)
			((i++)) ;;
		-*) ;;
		*)
			_command_offset $i
			return ;;
		esac
	done
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W '-0 -8 -A -b -c -D -d -E -e -F -f -g -i -K -k -L -l -M -m -N -n
		    -O -o -P -p -Q -q -R -S -U -u -W -w -X -x -Y -z --null --bits --buffer-size= --cursor
		    --delay-start= --watchfd= --pidfile= --remote=
		    --skip-errors --stderr --file= --sync --line-mode
		    --interval= --rate-limit= --size= --name= --numeric --prefix=
		    --quiet --stop-at-size --wait --width= --decompress --force
		    --format= --no-splice --stall-timeout= --write-at= --read-at=
		    --read-limit= --buffer-file= --store-and-forward=
		    --output= --discard --sparse --direct-io --extra-display= --query= --last-written= --si --bar-style= --gauge
		    --average-rate-window= --log= --hash= --output-block= --pad
		    --stats --wait-for --once --monitor= --no-flush
		    --reading --writing --pipeline
		    --help --version' \
		    -- "$cur"))
		[[ ${COMPREPLY-} == *= ]] && compopt -o nospace
	else
		COMPREPLY=($(compgen -c -- "$cur"))
	fi
}
complete -F _tach tach
