# SPDX-License-Identifier: BSD-2-Clause
# covers: -Q PID, --query PID (pv 1.10): a running copy's progress drawn
# from another shell, through its control socket (this user's only, as -R),
# each time the copy draws, until its closing state; the querier's exit
# status is the copy's outcome.  Producers wait at a gate the test opens.
. "$(dirname "$0")/lib.sh"

# copy ARGS...: a tach reading 1000000 bytes, then the gate, then
# 1000000 more, in the background: its pid in $copy.  The queriers' files
# go first: a querier started in the background makes its file when it
# runs, and the test must not read the last case's meanwhile.
copy() {
	close_gate
	rm -f "$WORK/q1" "$WORK/q2"
	(head -c 1000000 /dev/zero; gated; head -c 1000000 /dev/zero) |
	    "$TACH" "$@" >"$WORK/out" 2>"$WORK/copy.err" &
	copy=$!
	wait_until 60 listening $copy || fail "the copy does not listen"
}
has() { grep -q -- "$1" "$2" 2>/dev/null; }

copy -q -N disk -l 2000000
: >"$WORK/q1"
"$TACH" -Q $copy --force -w 80 2>"$WORK/q1" &
q1=$!
: >"$WORK/q2"
"$TACH" -Q $copy --format json 2>"$WORK/q2" &
q2=$!
check "the bar, drawn here at 50%" wait_until 60 has "disk:  50% \[" "$WORK/q1"
check "…a second querier at once: JSON" wait_until 60 has \
    '"name":"disk","elapsed":[0-9.]*,"bytes":1000000,' "$WORK/q2"
open_gate
wait $q1
check "the copy completed: exit 0 ($?)" [ $? -eq 0 ]
wait $q2
check "…the JSON querier too ($?)" [ $? -eq 0 ]
wait $copy
check "…the copy's own data exact" [ "$(wc -c <"$WORK/out")" -eq 2000000 ]
check "the closing line" has "disk: 100% \[.*avg" "$WORK/q1"
check "the closing object" grep -q \
    '"bytes":2000000,.*"final":true,"result":"complete"' "$WORK/q2"
check "every JSON line an object" [ "$(grep -vc '^{.*}$' "$WORK/q2")" -eq 0 ]

# -n; -N and -p here name it; line mode's lines
copy -q --line-mode
: >"$WORK/q1"
"$TACH" -Q $copy -n 2>"$WORK/q1" &
q1=$!
: >"$WORK/q2"
"$TACH" -Q $copy --force -N here -p 'at ' -w 80 2>"$WORK/q2" &
q2=$!
check "-n: a number a line" wait_until 60 has '^[0-9][0-9]*$' "$WORK/q1"
check "-N and -p here" wait_until 60 has '^here: at  *0 lines' "$WORK/q2"
check "line mode: lines" wait_until 60 has 'lines' "$WORK/q2"
open_gate
wait $q1 $q2 $copy

# A copy that fails (its reader goes): exit 1, saying so
close_gate
mkfifo "$WORK/fifo"
rm -f "$WORK/q1"
{ head -c 1000 >/dev/null; gated; } <"$WORK/fifo" &
(head -c 1000000 /dev/zero; gated; head -c 9000000 /dev/zero) |
    "$TACH" -q >"$WORK/fifo" 2>/dev/null &
copy=$!
wait_until 60 listening $copy || fail "the copy does not listen"
: >"$WORK/q1"
"$TACH" -Q $copy --format json 2>"$WORK/q1" &
q1=$!
wait_until 60 has bytes "$WORK/q1"
open_gate
wait $q1
check "a failed copy: exit 1 ($?)" [ $? -eq 1 ]
check "…saying so" grep -qx '{"message":"-Q '$copy': the copy ended: failed"}' \
    "$WORK/q1"
wait $copy

# A copy killed: no closing state
copy -q
: >"$WORK/q1"
"$TACH" -Q $copy --format json 2>"$WORK/q1" &
q1=$!
wait_until 60 has bytes "$WORK/q1"
kill -9 $copy
wait $q1
check "a copy killed: exit 1 ($?)" [ $? -eq 1 ]
check "…saying so" grep -q -- \
    "-Q $copy: the copy ended without its closing state (killed?)" \
    "$WORK/q1" || tail -n 2 "$WORK/q1" >&2
open_gate

# -U: the store, then the sending, then the end: the whole copy's
copy -q -U -
: >"$WORK/q1"
"$TACH" -Q $copy --format json 2>"$WORK/q1" &
q1=$!
check "-U: the store is shown" wait_until 60 has '"name":"storing"' "$WORK/q1"
open_gate
wait $q1
check "…and then the sending, to its end ($?)" grep -q \
    '"bytes":2000000,.*"result":"complete"' "$WORK/q1"
lacks "…the store's end not taken for the copy's" "$WORK/q1" \
    '"name":"storing".*"final":true'
wait $copy

# A signal that ends the querier (TERM here: a background job of sh
# starts with ^C's SIGINT ignored, and tach keeps it so) ends it alone
copy -q
: >"$WORK/q1"
"$TACH" -Q $copy --format json 2>"$WORK/q1" &
q1=$!
wait_until 60 has bytes "$WORK/q1"
kill -TERM $q1
wait $q1
check "SIGTERM: the querier ends ($?)" [ $? -eq 143 ]
check "…the copy goes on" kill -0 $copy
open_gate
wait $copy
check "…and completes ($?)" [ $? -eq 0 ]

# What -Q refuses
"$TACH" -Q 999999999 2>"$WORK/err"
check "-Q a PID with no copy: exit 1 ($?)" [ $? -eq 1 ]
check "…saying why" grep -q "^tach: -Q 999999999: no copy of this user's" \
    "$WORK/err"
for bad in "-L 1m" "-f $WORK/out" "-i 1" "-R 1" "-d 1" "--stats" "-l 5"; do
	# shellcheck disable=SC2086
	"$TACH" -Q 1 $bad </dev/null 2>"$WORK/err"
	check "-Q with $bad: refused ($?)" [ $? -eq 1 ]
done
"$TACH" -Q 1 cat </dev/null 2>"$WORK/err"
check "-Q with a command: refused" grep -qx \
    "tach: -Q shows a running copy: a command does not apply" "$WORK/err"
"$TACH" -Q x 2>"$WORK/err"
check "-Q x: refused" grep -qx "tach: -Q \`x': not a process id" "$WORK/err"

done_testing
