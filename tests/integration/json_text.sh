# SPDX-License-Identifier: BSD-2-Clause
# covers: one output layer: every JSON object parses (python3's json
# module), with a name that is not UTF-8, in a comma-decimal locale, and for
# a watched path with ESC, a newline and a bidi override; no such byte
# reaches stderr raw in --stats, SIGUSR1 or a message.
. "$(dirname "$0")/lib.sh"
need python3
random "$WORK/in" 300000

# json_ok FILE [PYTHON-CHECK]: every line of FILE is a JSON object, the
# last one final, and PYTHON-CHECK (on the list of objects, o) holds
json_ok() {
	python3 - "$1" "${2:-True}" <<-'EOT'
	import json, sys
	o = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
	assert o and all(isinstance(x, dict) for x in o), o
	assert o[-1]["final"] is True, o[-1]
	assert eval(sys.argv[2]), o[-1]
	EOT
}

# a -N name with an invalid byte, ESC and a right-to-left override
name=$(printf 'n\377\033[2J\342\200\256x')
"$TACH" --format json -N "$name" <"$WORK/in" >"$WORK/out" 2>"$WORK/json"
check "copy exact with a hostile -N" cmp -s "$WORK/in" "$WORK/out"
check "JSON parses, invalid byte replaced, controls escaped" json_ok \
    "$WORK/json" 'o[-1]["name"] == "n\ufffd\x1b[2J\u202ex"'
lacks "…no raw ESC in the JSON" "$WORK/json" "$(printf '\033')"
lacks "…no raw override in the JSON" "$WORK/json" "$(printf '\342\200\256')"

# A comma-decimal locale, made for the test (LOCPATH), must be in force
# (its decimal point a comma), yet -i 0.5 parses and the JSON keeps points.
mkdir -p "$WORK/locale"
if command -v localedef >/dev/null &&
    localedef -i de_DE -f UTF-8 "$WORK/locale/de_DE.UTF-8" 2>/dev/null; then
	export LOCPATH="$WORK/locale"
	check "the locale's decimal point is a comma" \
	    [ "$(LC_ALL=de_DE.UTF-8 locale decimal_point 2>/dev/null)" = "," ]
	LC_ALL=de_DE.UTF-8 "$TACH" --format json -i 0.5 -l 300000 \
	    <"$WORK/in" >"$WORK/out" 2>"$WORK/json"
	check "de_DE: -i 0.5 is accepted ($?)" [ $? -eq 0 ]
	check "de_DE: JSON parses, numbers with points" json_ok "$WORK/json" \
	    'o[-1]["percent"] == 100.0 and isinstance(o[-1]["elapsed"], float)'
	LC_ALL=de_DE.UTF-8 "$TACH" -q --stats <"$WORK/in" >/dev/null 2>"$WORK/stats"
	check "de_DE: --stats writes points" grep -q '[0-9]\.[0-9][0-9][0-9] s' "$WORK/stats"
	unset LOCPATH
else
	echo "skipped: no de_DE locale can be made (the locales package)" >&2
fi

# A watched file renamed, once open, to a name with ESC, a title sequence,
# a newline and a bidi override: /proc shows the new name.
if [ "$(uname)" = Linux ]; then
	hostile=$WORK/$(printf 'a\033]0;owned\007\nb\342\200\256c')
	cp "$WORK/in" "$WORK/plain"
	start_reader
	say "open $WORK/plain"
	fd=$(answer)
	mv "$WORK/plain" "$hostile"
	"$TACH" -d "$reader" --format json -i 0.05 2>"$WORK/json" 3>&- &
	watcher=$!
	has_path() { grep -q '"path"' "$WORK/json" 2>/dev/null; }
	check "the watch reports the file" wait_until 60 has_path
	say "close $fd"
	exec 3>&-
	wait $watcher
	check "watch JSON parses, the path exact" json_ok "$WORK/json" \
	    "any(x['path'] == '$WORK/' + 'a\x1b]0;owned\x07\nb\u202ec' for x in o)"
	lacks "…no raw ESC" "$WORK/json" "$(printf '\033')"

	# --stats and SIGUSR1 name the file escaped, on one line each
	cp "$WORK/in" "$WORK/plain"
	start_reader
	say "open $WORK/plain"
	fd=$(answer)
	mv "$WORK/plain" "$hostile"
	"$TACH" -d "$reader" -n --stats -i 0.05 2>"$WORK/err" 3>&- &
	watcher=$!
	wait_until 60 caught $watcher USR1
	kill -USR1 $watcher
	at_info() { grep -q ': at 0 of 300000 bytes' "$WORK/err"; }
	check "SIGUSR1 names the file" wait_until 60 at_info
	say "close $fd"
	exec 3>&-
	wait $watcher
	check "SIGUSR1's line has the name escaped" \
	    grep -qF 'a\x1b]0;owned\x07\x0ab\xe2\x80\xaec): at 0 of 300000 bytes' "$WORK/err"
	check "--stats's line has it escaped" \
	    grep -qF 'a\x1b]0;owned\x07\x0ab\xe2\x80\xaec): 0 bytes in' "$WORK/err"
	lacks "…no raw ESC on stderr" "$WORK/err" "$(printf '\033')"
	lacks "…no raw BEL on stderr" "$WORK/err" "$(printf '\007')"
fi

# A message naming such a file: escaped too.
"$TACH" -f "$WORK/no$(printf '\033[2J')such" -q 2>"$WORK/err" >/dev/null
check "a missing hostile -f file: exit 1 ($?)" [ $? -eq 1 ]
check "…named escaped" grep -qF 'no\x1b[2Jsuch: No such file or directory' "$WORK/err"
lacks "…no raw ESC" "$WORK/err" "$(printf '\033')"

# Each number keeps one form for the run, whatever its value: jq and a
# strict schema see the same type and precision in every object, from the
# first at 0 to the last.  A failed run with --stats: every line JSON.
head -c 3000000 /dev/zero | "$TACH" --format json --stats -i 0.05 -L 6m \
    -l 2000000 2>"$WORK/err" >/dev/null
head -c 3000000 /dev/zero | "$TACH" --format json --stats -i 0.05 \
    2>>"$WORK/err" >/dev/full
forms() {
	grep -o "\"$1\":[^,}]*" "$WORK/err" | sed "s/^\"$1\"://" |
	    grep -Evx "$2" | grep -vx null
}
for field in 'elapsed [0-9]+\.[0-9]{3}' 'rate [0-9]+\.[0-9]' \
    'average [0-9]+\.[0-9]' 'percent [0-9]+\.[0-9]{2}' 'eta [0-9]+\.[0-9]' \
    'bytes [0-9]+' 'size [0-9]+'; do
	name=${field% *}
	odd=$(forms "$name" "${field#* }" | head -n 3 | tr '\n' ' ')
	check "json: \"$name\" in one form (${odd:-all})" [ -z "$odd" ]
done
check "json: objects at 0 and past it seen" sh -c \
    "grep -q '\"bytes\":0,' '$WORK/err' && grep -q '\"bytes\":[1-9]' '$WORK/err'"
check "json: every line on stderr is an object, the error too" sh -c \
    "! grep -qv '^{.*}\$' '$WORK/err'"
check "json: the error among them" grep -qxF \
    '{"message":"writing stdout: No space left on device"}' "$WORK/err"

done_testing
