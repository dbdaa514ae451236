# SPDX-License-Identifier: BSD-2-Clause
# covers: every option that --help lists is in the bash, zsh and fish
# completions.
. "$(dirname "$0")/lib.sh"

c=$SOURCE_DIR/contrib/completions
"$TACH" --help >"$WORK/help"
longs=$(grep -o -- '--[a-z][a-z-]*' "$WORK/help" | sort -u)
# a letter is defined as "-X, --long", at a line's start or after "; "
shorts=$(grep -o -- '-[a-zA-Z0-9], --' "$WORK/help" | cut -c2 | sort -u)
check "--help lists options" [ -n "$longs" -a -n "$shorts" ]
for o in $longs; do
	name=${o#--}
	check "bash completes $o" grep -qE -- "(^|[ '|(])$o([ '|)]|$)" "$c/tach.bash"
	check "zsh completes $o" grep -qE -- "$o(=|\[|[,}])" "$c/_tach"
	check "fish completes $o" grep -qE -- "-l $name( |$)" "$c/tach.fish"
done
# the usage printed on a bad option names every option of tach(1)'s
# SYNOPSIS, letters and long names alike
"$TACH" --no-such-option 2>"$WORK/usage"
sed -n '/^\.Sh SYNOPSIS/,/^\.Sh /p' "$SOURCE_DIR/doc/tach.1" |
    grep -v '^\.Nm progress' | sed '/^\.Nm progress/,$d' >"$WORK/synopsis"
for o in $(grep -o '\\-[a-z][a-z\\-]*' "$WORK/synopsis" | sed 's/\\//g; s/^/-/' |
    sort -u); do
	check "usage names $o, as the SYNOPSIS does" grep -qF -- "$o" "$WORK/usage"
done
for l in $(grep -o 'Fl [0-9A-Za-z]*' "$WORK/synopsis" | sed 's/Fl //' |
    grep -o . | sort -u); do
	check "usage names -$l, as the SYNOPSIS does" grep -qE -- \
	    "(-$l\\b|\\[-[0-9A-Za-z]*$l[0-9A-Za-z]*\\])" "$WORK/usage"
done
for s in $shorts; do
	check "bash completes -$s" grep -qE -- "(^|[ '|(])-$s([ '|)]|$)" "$c/tach.bash"
	check "zsh completes -$s" grep -qE -- "\{-$s[+,]" "$c/_tach"
	check "fish completes -$s" grep -qE -- "-s $s( |$)" "$c/tach.fish"
done

# progress completes progress(1)'s options, and only those
for f in progress.bash _progress progress.fish; do
	for s in b e f l p z; do
		case $f in
		*.fish) pat="-s $s( |\$)" ;;
		_progress) pat="'-$s[+[]" ;;
		*) pat="(^|[ '|(])-$s([ '|)]|\$)" ;;
		esac
		check "$f completes -$s" grep -qE -- "$pat" "$c/$f"
	done
	# (fish's own helper takes a long option of its own)
	grep -v __fish_complete_subcommand "$c/$f" >"$WORK/$f"
	lacks "$f offers no long option" "$WORK/$f" '(^|[ '"'"'|(])--[a-z]|^complete .*-l [a-z]'
	[ "$f" = progress.bash ] && continue	# its word list, below
	for s in $shorts; do
		case $s in b|e|f|l|p|z) continue ;; esac
		case $f in
		*.fish) pat="-s $s( |\$)" ;;
		*) pat="'-$s[+[]" ;;
		esac
		lacks "$f does not offer tach's -$s" "$c/$f" "$pat"
	done
done
check "progress.bash offers exactly progress's options" \
    grep -qF "compgen -W '-b -e -f -l -p -z'" "$c/progress.bash"
check "the zsh completion for tach is not used for another progress" \
    grep -qx '#compdef tach' "$c/_tach"

# The completions as a user meets them: the real bash, zsh and fish,
# driven through tmux (bash, zsh) and fish's own `complete -C`.
mkdir -p "$WORK/ct/dir"
: >"$WORK/ct/sp ace.txt"
# completes LINE TEXT: typing LINE, Tab and # shows TEXT# (TEXT ends in a
# space where the completion added one).  The line is then commented out
# and entered, so nothing runs.
prompt_back() { tmx capture-pane -p | grep . | tail -n 1 | grep -qx '\$'; }
completes() {
	tmx send-keys -l "$1"
	tmx send-keys Tab
	tmx send-keys -l '#'
	wait_for "\$ $2#" 30
	_c_ok=$?
	tmx send-keys C-a '#' Enter
	wait_until 30 prompt_back
	return $_c_ok
}
# in_shell: the checks every shell passes
in_shell() {
	check "$1: -f completes a name with a space" \
	    completes "tach -f sp" 'tach -f sp\ ace.txt '
	check "$1: --file= completes a name" \
	    completes "tach --file=sp" 'tach --file=sp\ ace.txt '
	check "$1: -f completes a directory with /" completes "tach -f di" "tach -f dir/"
	check "$1: --format= offers json" completes "tach --format=j" "tach --format=json "
	check "$1: --monitor= offers the sides" \
	    completes "tach --monitor=bo" "tach --monitor=both "
	check "$1: -M consumes its side; gzi completes to gzip" \
	    completes "tach -M out gzi" "tach -M out gzip "
	check "$1: -N consumes its argument; gzi completes to gzip" \
	    completes "tach -N foo gzi" "tach -N foo gzip "
	check "$1: a command after options" completes "tach -q gzi" "tach -q gzip "
	check "$1: after the command, the command's own options" \
	    completes "tach -q gzip --fa" "tach -q gzip --fast "
	check "$1: -P completes a name with a space" \
	    completes "tach -P sp" 'tach -P sp\ ace.txt '
	check "$1: -R consumes its argument; gzi is no command after it" \
	    completes "tach -R 1 -N foo gzi" "tach -R 1 -N foo gzip "
	check "$1: progress -f completes a name with a space" \
	    completes "progress -f sp" 'progress -f sp\ ace.txt '
	check "$1: progress completes a command after options" \
	    completes "progress -e gzi" "progress -e gzip "
}
if command -v gzip >/dev/null && [ -r /usr/share/bash-completion/bash_completion ] &&
    [ -r /usr/share/bash-completion/completions/gzip ]; then
	tmux_session bash --norc --noprofile
	run ". /usr/share/bash-completion/bash_completion; . '$c/tach.bash'; . '$c/progress.bash'; cd '$WORK/ct'; clear"
	wait_until 30 prompt_back
	in_shell bash
	check "bash: --form completes to --format= with no space" \
	    completes "tach --form" "tach --format="
	tmx kill-server
	# -d and -R offer process ids: the function, called as readline
	# calls it
	for opt in -d -R; do
		pids=$(bash -c '. /usr/share/bash-completion/bash_completion
		    . "$0"; COMP_LINE="tach $1 "; COMP_POINT=${#COMP_LINE}
		    COMP_WORDS=(tach "$1" ""); COMP_CWORD=2
		    _tach; printf "%s\n" "${COMPREPLY[@]}"' "$c/tach.bash" "$opt")
		check "bash: $opt offers process ids, this one among them" \
		    sh -c 'echo "$1" | grep -qx "$2"' sh "$pids" "$$"
	done
else
	echo "skipped: bash with bash-completion and gzip" >&2
fi
if command -v zsh >/dev/null && command -v gzip >/dev/null; then
	tmux_session zsh -f
	run "fpath=('$c' \$fpath); autoload -U compinit; compinit -u -D; cd '$WORK/ct'; clear"
	wait_until 30 prompt_back
	in_shell zsh
	check "zsh: -F offers json alone" completes "tach -F " "tach -F json "
	tmx kill-server
else
	echo "skipped: zsh" >&2
fi
if command -v fish >/dev/null && command -v gzip >/dev/null; then
	fish_complete() {
		(cd "$WORK/ct" && HOME=$WORK fish -c "source '$c/tach.fish'
		    source '$c/progress.fish'; complete -C '$1'" | cut -f1)
	}
	check "fish: -f completes a name with a space" \
	    sh -c '[ "$1" = "sp ace.txt" ]' sh "$(fish_complete 'tach -f sp')"
	check "fish: a command after options" \
	    sh -c '[ "$1" = gzip ]' sh "$(fish_complete 'tach -q gzi')"
	check "fish: -N consumes its argument" \
	    sh -c '[ "$1" = gzip ]' sh "$(fish_complete 'tach -N foo gzi')"
	check "fish: -P completes a name with a space" \
	    sh -c '[ "$1" = "sp ace.txt" ]' sh "$(fish_complete 'tach -P sp')"
	check "fish: -R offers process ids" sh -c \
	    'echo "$1" | grep -qx "$2"' sh "$(fish_complete 'tach -R ')" "$$"
	check "fish: run-together -qN consumes its argument" \
	    sh -c '[ "$1" = gzip ]' sh "$(fish_complete 'tach -qN foo gzi')"
	fish_complete 'tach gzip -' >"$WORK/words"
	check "fish: tach gzip - offers gzip's options" grep -qx -- -9 "$WORK/words"
	lacks "fish: …and not tach's (which gzip lacks)" "$WORK/words" \
	    '^-(D|E|W|w|Y)$|^--(cursor|line-mode|no-splice)$'
	fish_complete 'tach -' >"$WORK/words"
	check "fish: tach - offers tach's options" grep -qx -- -q "$WORK/words"
	check "fish: --format offers json" \
	    sh -c '[ "$1" = json ]' sh "$(fish_complete 'tach --format ')"
	fish_complete 'progress -' >"$WORK/words"
	check "fish: progress offers its six options" \
	    [ "$(sort "$WORK/words" | tr '\n' ' ')" = "-b -e -f -l -p -z " ]
	check "fish: progress completes a command after options" \
	    sh -c '[ "$1" = gzip ]' sh "$(fish_complete 'progress -e gzi')"
	fish_complete 'progress gzip -' >"$WORK/words"
	lacks "fish: progress gzip - offers no progress option" "$WORK/words" '^-(b|e|p)$'
else
	echo "skipped: fish" >&2
fi

done_testing
