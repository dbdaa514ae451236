# SPDX-License-Identifier: BSD-2-Clause
# covers: -M in|out|both (--monitor): in command mode tach meters cmd's
# input, its output (read from cmd's stdout and passed on to tach's own),
# or both, as two lines; JSON's "side"; %{ratio}; cmd's exit status still
# wins; a stdout that fails or leaves; a signal while cmd finishes.
. "$(dirname "$0")/lib.sh"
need gzip
# (gzip -n: no time in the header, which a pipe's would change)

random "$WORK/raw" 3000000
# compressible: a third random, the rest repeated text
{ head -c 1000000 "$WORK/raw"; yes 'the same line, again and again' |
    head -c 2000000; } >"$WORK/in"
gzip -nc <"$WORK/in" >"$WORK/want.gz"
in=$(wc -c <"$WORK/in" | tr -d ' ')
gz=$(wc -c <"$WORK/want.gz" | tr -d ' ')
last() { grep "\"side\":\"$2\"" "$1" | tail -n 1; }

# -M both on gzip: two objects a tick; the out side's bytes are the
# compressed file's, the in side's the input's.
"$TACH" -M both --format json -i 0.05 gzip -nc <"$WORK/in" \
    >"$WORK/out.gz" 2>"$WORK/json"
check "-M both: exit 0 ($?)" [ $? -eq 0 ]
check "-M both: the output is gzip's, exact" cmp "$WORK/out.gz" "$WORK/want.gz"
check "-M both: the out side's bytes are the compressed file's ($gz)" sh -c \
    "grep '\"side\":\"out\"' '$WORK/json' | tail -n 1 | grep -q '\"bytes\":$gz,.*\"final\":true,\"result\":\"complete\"'"
check "-M both: the in side's are the input's ($in)" sh -c \
    "grep '\"side\":\"in\"' '$WORK/json' | tail -n 1 | grep -q '\"bytes\":$in,.*\"percent\":100.00,.*\"final\":true'"
check "-M both: each tick has both sides" [ \
    "$(grep -c '"side":"in"' "$WORK/json")" -eq \
    "$(grep -c '"side":"out"' "$WORK/json")" ]

# -M out: the output's line alone; -M in: today's, named.
"$TACH" -M out --format json gzip -nc <"$WORK/in" >"$WORK/out.gz" \
    2>"$WORK/json"
check "-M out: exact" cmp "$WORK/out.gz" "$WORK/want.gz"
check "-M out: the out side only" sh -c \
    "! grep -q '\"side\":\"in\"' '$WORK/json' && grep -q '\"side\":\"out\",.*\"bytes\":$gz,.*\"final\":true' '$WORK/json'"
"$TACH" -M in --format json gzip -nc <"$WORK/in" >"$WORK/out.gz" \
    2>"$WORK/json"
check "-M in: cmd's output untouched, its input metered" sh -c \
    "cmp '$WORK/out.gz' '$WORK/want.gz' && ! grep -q '\"side\":\"out\"' '$WORK/json' && grep -q '\"side\":\"in\",.*\"bytes\":$in,.*\"final\":true' '$WORK/json'"

# %{ratio}: out over in, live and at the end.
"$TACH" -M both -n -F '%{ratio}' gzip -nc <"$WORK/in" >/dev/null \
    2>"$WORK/numbers"
want=$(awk -v o="$gz" -v i="$in" 'BEGIN { printf "%.6f", o / i }')
check "%{ratio}: the last is the compressed over the input ($want)" \
    [ "$(tail -n 1 "$WORK/numbers")" = "$want" ]
"$TACH" -M out -F 'r %{ratio}' --force -w 40 -f "$WORK/in" gzip -nc \
    >/dev/null 2>"$WORK/lines"
check "%{ratio} on the line" grep -q "^r $(awk -v o="$gz" -v i="$in" \
    'BEGIN { printf "%5.3f", o / i }')" "$WORK/lines"

# -M both on a line: two, in and out.
"$TACH" -M both --force -w 60 -i 0.05 gzip -nc <"$WORK/in" >/dev/null \
    2>"$WORK/lines"
check "-M both: an in line" grep -q '^in ' "$WORK/lines"
check "-M both: an out line under it" sh -c \
    "grep -A1 '^in ' '$WORK/lines' | grep -q '^out '"
check "-M both: the bar goes to stderr, stdout is data" \
    cmp "$WORK/out.gz" "$WORK/want.gz"

# cmd goes on after its input ends: its output is waited for.
"$TACH" -M out --format json sh -c 'cat >/dev/null; printf late' \
    <"$WORK/in" >"$WORK/late" 2>"$WORK/json"
check "output after the input's end, waited for" \
    [ "$(cat "$WORK/late")" = late ]
check "and counted" grep -q '"side":"out",.*"bytes":4,.*"final":true' \
    "$WORK/json"

# cmd's exit status wins, with its output whole.
"$TACH" -M both -q sh -c 'cat; exit 3' <"$WORK/in" >"$WORK/copy"
check "cmd's status wins ($?)" [ $? -eq 3 ]
check "its output whole" cmp "$WORK/copy" "$WORK/in"

# stdout full: tach's write error; cmd is cut off.
"$TACH" -M out -q cat <"$WORK/in" >/dev/full 2>"$WORK/err"
check "stdout full: exit 1 ($?)" [ $? -eq 1 ]
check "stdout full: said" grep -q 'writing stdout: No space left on device' \
    "$WORK/err"
# stdout's reader gone: cmd dies of it, as in a pipeline, and its status
# is tach's; no hang
mkfifo "$WORK/pipe"
"$TACH" -M out -q cat <"$WORK/in" >"$WORK/pipe" 2>"$WORK/err" &
tach=$!
head -c 10 <"$WORK/pipe" >/dev/null
wait "$tach"
check "reader gone: cmd's SIGPIPE is tach's status ($?)" [ $? -eq 141 ]

# A signal while cmd finishes: tach stops, and cmd with it.
rm -f "$WORK/json"
"$TACH" -M out --format json -i 0.05 sh -c \
    'cat >/dev/null; echo $$ >"$0"; exec sleep 600' "$WORK/pid" \
    <"$WORK/in" >/dev/null 2>"$WORK/json" &
tach=$!
check "cmd still running after its input" wait_until 60 test -s "$WORK/pid"
cmd=$(cat "$WORK/pid")
kill -TERM "$tach"
check "SIGTERM ends cmd" wait_until 60 sh -c "! kill -0 $cmd 2>/dev/null"
kill -KILL "$cmd" 2>/dev/null || :	# a cmd left running: no hang here
wait "$tach"
check "and tach, by it ($?)" [ $? -eq 143 ]

# Refused: -M without a command, a side not known, %{ratio} without out.
check "-M without a command" sh -c \
    "! '$TACH' -M out <'$WORK/in' >/dev/null 2>'$WORK/err' && grep -q 'needs a command' '$WORK/err'"
check "-M sideways" sh -c \
    "! '$TACH' -M sideways cat </dev/null 2>'$WORK/err' && grep -q 'in, out or both' '$WORK/err'"
check "%{ratio} without -M out" sh -c \
    "! '$TACH' -F '%{ratio}' cat </dev/null 2>'$WORK/err' && grep -q 'give -M out' '$WORK/err'"
check "-M with -d" sh -c "! '$TACH' -M out -d 1 2>/dev/null"

done_testing
