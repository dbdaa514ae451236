# bash completion for tach(1)
_tach()
{
	local cur prev
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD-1]}
	case $prev in
	-f|--file)
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	-F|--format)
		COMPREPLY=($(compgen -W 'json' -- "$cur"))
		return ;;
	-d|--watchfd)
		COMPREPLY=($(compgen -W "$(ps -e -o pid= 2>/dev/null)" -- "$cur"))
		return ;;
	-b|--buffer-size|-D|--delay-start|-i|--interval|-L|--rate-limit|-l|--size|-N|--name|-p|--prefix|-w|--width)
		return ;;
	esac
	# after the first operand, complete the command and its arguments
	local i
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-f|-b|-D|-d|-F|-i|-L|-l|-N|-p|-w|--file|--buffer-size|--delay-start|--watchfd|--interval|--rate-limit|--size|--name|--prefix|--width|--format)
			((i++)) ;;
		-*) ;;
		*)
			_command_offset $i
			return ;;
		esac
	done
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W '-0 -b -c -D -d -E -e -F -f -i -L -l -N -n -p
		    -q -S -W -w -Y -z --null --buffer-size --cursor --delay-start
		    --watchfd
		    --skip-errors --stderr --file --sync --line-mode
		    --interval --rate-limit --size --name --numeric --prefix --quiet
		    --stop-at-size --wait --width --decompress --force --format
		    --no-splice --stats --help --version' \
		    -- "$cur"))
	else
		COMPREPLY=($(compgen -c -- "$cur"))
	fi
}
complete -F _tach tach
