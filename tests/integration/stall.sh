# SPDX-License-Identifier: BSD-2-Clause
# covers: --stall-timeout SEC: when nothing has been read or written for SEC
# seconds, tach fails, naming the side that held the copy up, with every
# byte either delivered or counted as not; a copy that moves, however
# slowly, is left alone.
. "$(dirname "$0")/lib.sh"

random "$WORK/data" 3000000
out=$WORK/out
mkfifo "$WORK/in" "$WORK/out.fifo"

# An input that stays open and sends nothing (the FIFO held open here).
exec 5<>"$WORK/in"
printf abc >&5
"$TACH" --stall-timeout 0.5 --format json <"$WORK/in" >"$out" 2>"$WORK/err"
check "input stalled: exit 1 ($?)" [ $? -eq 1 ]
check "…what came was delivered" [ "$(cat "$out")" = abc ]
check "…the input named" grep -qx \
    '{"message":"reading stdin: stalled, nothing came for 0.5 s"}' "$WORK/err"
check "…JSON's reason says it" grep -q \
    '"result":"failed","reason":"reading stdin: stalled, nothing came for 0.5 s"' \
    "$WORK/err"
# the same through the buffer, which reads on its own thread
"$TACH" -q -b 8M --stall-timeout 0.5 <"$WORK/in" >"$out" 2>"$WORK/err"
check "input stalled, with a buffer: exit 1 ($?)" [ $? -eq 1 ]
check "…the input named" grep -qx \
    'tach: reading stdin: stalled, nothing came for 0.5 s' "$WORK/err"

# An output that stays open and takes nothing (no one reads the FIFO).
exec 6<>"$WORK/out.fifo"
"$TACH" -q --stall-timeout 0.5 <"$WORK/data" >"$WORK/out.fifo" \
    2>"$WORK/err"
check "output stalled: exit 1 ($?)" [ $? -eq 1 ]
check "…the output named" grep -qx \
    'tach: writing stdout: stalled, nothing taken for 0.5 s' "$WORK/err"
exec 6<&-
# with a buffer, the bytes it holds are said to be lost
exec 6<>"$WORK/out.fifo"
"$TACH" -q -b 8M --stall-timeout 0.5 <"$WORK/data" >"$WORK/out.fifo" \
    2>"$WORK/err"
check "output stalled, with a buffer: exit 1 ($?)" [ $? -eq 1 ]
check "…what was held and not delivered" grep -Eq \
    '^tach: writing stdout: stalled, nothing taken for 0.5 s \([0-9]+ bytes delivered; [1-9][0-9]* read and not delivered\)$' \
    "$WORK/err"
exec 6<&-

# A command that reads nothing is ended (as timeout(1) ends one), so tach
# does not wait for it forever.
"$TACH" -q --stall-timeout 0.5 -f "$WORK/data" sleep 600 2>"$WORK/err"
check "command stalled: exit 1 ($?)" [ $? -eq 1 ]
check "…named" grep -qx \
    'tach: writing sleep: stalled, nothing taken for 0.5 s' "$WORK/err"
# A command whose input stalled is ended before it sees its end of input.
if command -v strace >/dev/null; then
	strace -qq -y -o "$WORK/trace" -e trace=kill,close "$TACH" -q \
	    --stall-timeout 0.5 sh -c "$NOTE_INPUT" sh "$WORK/pipe" \
	    <"$WORK/in" 2>"$WORK/err"
	check "command's input stalled: exit 1 ($?)" [ $? -eq 1 ]
	check "…the input named" grep -qx \
	    'tach: reading stdin: stalled, nothing came for 0.5 s' "$WORK/err"
	check "…cmd ended before its input is closed" \
	    ended_before_closed "$WORK/trace" "$WORK/pipe" SIGTERM
else
	echo "SKIP: strace: the order of tach's kill and close"
fi

# A copy that moves, slowly: -L paces 60 kB in 6 s, a step each 50 ms.
head -c 60000 "$WORK/data" >"$WORK/small"
"$TACH" -q -L 10000 --stall-timeout 3 <"$WORK/small" >"$out" 2>"$WORK/err"
check "slow but moving: exit 0 ($?)" [ $? -eq 0 ]
check "…exact" cmp -s "$WORK/small" "$out"
check "…not a word" [ ! -s "$WORK/err" ]

# Stopped is not stalled: anyone's SIGSTOP does not count (nor does ^Z's,
# through the same SIGCONT; but a test under ctest may run in an orphaned
# process group, where the kernel drops the SIGTSTP tach raises on itself).
for stop in STOP; do
	printf def >&5
	# (5 s: far more than the shell takes from "def" to the stop, even
	# under load; a stall then would be right)
	"$TACH" --format json -i 0.05 --stall-timeout 5 <"$WORK/in" \
	    >"$out" 2>"$WORK/json" &
	copy=$!
	wait_until 60 sh -c "[ \"\$(cat '$out')\" = def ]"
	kill -$stop $copy
	wait_until 60 sh -c "grep -q '^State:.*T' /proc/$copy/status"
	# stopped for longer than the timeout
	since=$(date +%s)
	wait_until 60 sh -c "[ \$((\$(date +%s) - $since)) -ge 7 ]"
	ticks=$(wc -l <"$WORK/json")
	kill -CONT $copy
	# three ticks after it, or its end
	wait_until 60 sh -c "[ \$(wc -l <'$WORK/json') -ge $((ticks + 3)) ] ||
	    ! kill -0 $copy 2>/dev/null"
	check "SIG$stop for longer than the timeout: not a stall" \
	    kill -0 $copy
	printf ghi >&5
	wait_until 60 sh -c "[ \"\$(cat '$out')\" = defghi ]"
	check "…the copy goes on" [ "$(cat "$out")" = defghi ]
	kill -TERM $copy
	wait $copy
done
exec 5<&-

# Out of place: -d watches, it moves nothing
"$TACH" -d $$ --stall-timeout 1 2>"$WORK/err"
check "-d: refused ($?)" [ $? -eq 1 ]
check "…said" grep -q -- "--stall-timeout does not apply" "$WORK/err"
"$TACH" --stall-timeout 0 </dev/null 2>"$WORK/err"
check "0 s: refused ($?)" [ $? -eq 1 ]

done_testing
