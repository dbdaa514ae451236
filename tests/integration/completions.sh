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
	complete_words tach -N foo gzi >"$WORK/words"
	check "bash: -N consumes its argument; gzi completes to gzip" \
	    grep -qx gzip "$WORK/words"
fi

done_testing
