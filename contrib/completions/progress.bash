# bash completion for progress(1) as tach provides it: progress's options
# only, then the command and its own completion.
_progress()
{
	local cur prev i
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD-1]}
	case $prev in
	-f)
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	-b|-l|-p)
		return ;;
	esac
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-b|-f|-l|-p) ((i++)) ;;
		-*) ;;
		*)
			_command_offset $i
			return ;;
		esac
	done
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W '-b -e -f -l -p -z' -- "$cur"))
	else
		COMPREPLY=($(compgen -c -- "$cur"))
	fi
}
complete -F _progress progress
