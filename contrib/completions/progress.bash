# SPDX-License-Identifier: BSD-2-Clause
# bash completion for progress(1) as tach provides it: progress's options
# only, then the command and its own completion.  Needs bash-completion.
_progress()
{
	local cur prev words cword i
	_init_completion || return

	case $prev in
	-f)
		_filedir
		return ;;
	-b|-l|-p)
		return ;;
	esac
	for ((i = 1; i < cword; i++)); do
		case ${words[i]} in
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
