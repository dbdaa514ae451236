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
	-b|--buffer-size|-i|--interval|-l|--size|-p|--prefix|-w|--width)
		return ;;
	esac
	# after the first operand, complete the command and its arguments
	local i
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-f|-b|-i|-l|-p|-w|--file|--buffer-size|--interval|--size|--prefix|--width)
			((i++)) ;;
		-*) ;;
		*)
			_command_offset $i
			return ;;
		esac
	done
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W '-b -e -f -i -l -p -q -w -z --buffer-size
		    --stderr --file --interval --size --prefix --quiet --width
		    --decompress --force --no-splice --help --version' -- "$cur"))
	else
		COMPREPLY=($(compgen -c -- "$cur"))
	fi
}
complete -F _tach tach
