# Every option that --help lists is in the bash, zsh and fish completions.
. "$(dirname "$0")/lib.sh"

c=$SOURCE_DIR/contrib/completions
"$TACH" --help >"$WORK/help"
longs=$(grep -o -- '--[a-z][a-z-]*' "$WORK/help" | sort -u)
shorts=$(sed -n 's/^  -\([a-zA-Z0-9]\),.*/\1/p' "$WORK/help")
check "--help lists options" [ -n "$longs" -a -n "$shorts" ]
for o in $longs; do
	name=${o#--}
	check "bash completes $o" grep -qE -- "(^|[ '|(])$o([ '|)]|$)" "$c/tach.bash"
	check "zsh completes $o" grep -qE -- "$o(=|\[|[,}])" "$c/_tach"
	check "fish completes $o" grep -qE -- "-l $name( |$)" "$c/tach.fish"
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
	lacks "$f offers no long option" "$c/$f" '(^|[ '"'"'|(])--[a-z]|-l [a-z]'
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

# bash: options that take an argument consume it, so the word after
# "-N foo" completes command names; --format offers json.
if command -v bash >/dev/null && [ -r /usr/share/bash-completion/bash_completion ]; then
	complete_words() {
		bash -c '. /usr/share/bash-completion/bash_completion
		    . "$0"; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		    _tach; printf "%s\n" "${COMPREPLY[@]}"' "$c/tach.bash" "$@"
	}
	complete_words tach --format "" >"$WORK/words"
	check "bash: --format offers json" grep -qx json "$WORK/words"
	complete_words tach -d "" >"$WORK/words"
	check "bash: -d offers process ids, this one among them" \
	    grep -qx "$$" "$WORK/words"
	complete_words tach -d 1 gzi >"$WORK/words"
	check "bash: -d consumes its argument" grep -qx gzip "$WORK/words"
	complete_words tach -N foo gzi >"$WORK/words"
	check "bash: -N consumes its argument; gzi completes to gzip" \
	    grep -qx gzip "$WORK/words"
	progress_words() {
		bash -c '. /usr/share/bash-completion/bash_completion
		    . "$0"; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		    _progress; printf "%s\n" "${COMPREPLY[@]}"' \
		    "$c/progress.bash" "$@"
	}
	progress_words progress - >"$WORK/words"
	check "bash: progress offers its six options" \
	    [ "$(sort "$WORK/words" | tr '\n' ' ')" = "-b -e -f -l -p -z " ]
	progress_words progress -p x gzi >"$WORK/words"
	check "bash: progress -p consumes its argument" grep -qx gzip "$WORK/words"
fi

done_testing
