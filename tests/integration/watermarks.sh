# SPDX-License-Identifier: BSD-2-Clause
# covers: --write-at and --read-at, mbuffer's -P and -p: a buffer that
# starts writing only once it is that full (and again each time it ran
# empty), and once full reads again only when it is down to a share, so that
# a tape streams instead of stopping and starting.  At the input's end it
# drains whatever its fill.
. "$(dirname "$0")/lib.sh"

random "$WORK/data" 20000000
out=$WORK/out
mkfifo "$WORK/in"
mib=1048576

# The writer waits for half of 8 MiB: 3 MiB read are held, not written.
exec 5<>"$WORK/in"
"$TACH" -b 8M --write-at 50 --format json -i 0.05 <"$WORK/in" >"$out" \
    2>"$WORK/json" 5<&- &
copy=$!
# (the ring takes it all: the FIFO's writes do not wait)
head -c $((3 * mib)) "$WORK/data" >&5
check "below --write-at: all read" wait_until 60 \
    grep -q "\"read\":$((3 * mib))," "$WORK/json"
ticks=$(wc -l <"$WORK/json")
wait_until 60 sh -c "[ \$(wc -l <'$WORK/json') -ge $((ticks + 3)) ]"
check "…and none of it written" [ ! -s "$out" ]
# 1 MiB more makes 4 of 8: it writes them all, until empty
tail -c +$((3 * mib + 1)) "$WORK/data" | head -c $mib >&5
check "at --write-at: written" wait_until 60 sh -c \
    "[ \$(wc -c <'$out') -eq $((4 * mib)) ]"
# emptied, it waits for half again: 1 MiB more stays held
tail -c +$((4 * mib + 1)) "$WORK/data" | head -c $mib >&5
check "emptied, then below --write-at again: read" wait_until 60 \
    grep -q "\"read\":$((5 * mib)),\"buffered\":$mib," "$WORK/json"
ticks=$(wc -l <"$WORK/json")
wait_until 60 sh -c "[ \$(wc -l <'$WORK/json') -ge $((ticks + 3)) ]"
check "…and held" [ "$(wc -c <"$out")" -eq $((4 * mib)) ]
# the input's end: drained whatever the fill
exec 5<&-
wait $copy
check "at the end: exit 0 ($?)" [ $? -eq 0 ]
check "…every byte, in order" sh -c \
    "head -c $((5 * mib)) '$WORK/data' | cmp -s - '$out'"

# A short input never reaches the mark: all of it still goes out.
head -c 100000 "$WORK/data" >"$WORK/short"
"$TACH" -q -b 8M --write-at 100 <"$WORK/short" >"$out"
check "--write-at 100, a short input: exit 0 ($?)" [ $? -eq 0 ]
check "…exact" cmp -s "$WORK/short" "$out"

# --read-at 25: once full, the fill goes down to a quarter before it is
# read into again; without it, the reader tops it up at once.  The output
# is drained by the test, a step at a time (dd reads exact blocks from the
# FIFO), so each fill is waited for, not sampled in passing.
cat "$WORK/data" "$WORK/data" >"$WORK/data2"
mkfifo "$WORK/o"
# last NAME: the NAME field of the last JSON object
last() {
	tail -n 1 "$WORK/json" | sed -n "s/.*\"$1\":\([0-9]*\),.*/\1/p"
}
# held_at_least|held_below MiB: the last object's fill against MiB
held_at_least() { [ "$(last buffered)" -ge $(($1 * mib)) ] 2>/dev/null; }
held_below() { [ "$(last buffered)" -lt $(($1 * mib)) ] 2>/dev/null; }
read_past() { [ "$(last read)" -gt "$1" ] 2>/dev/null; }
# drain MiB: that many MiB taken from the output, appended to $out
drain() {
	dd bs=$mib count="$1" iflag=fullblock <&6 >>"$out" 2>/dev/null
}
ticks_pass() {
	ticks=$(wc -l <"$WORK/json")
	wait_until 60 sh -c "[ \$(wc -l <'$WORK/json') -ge $((ticks + 3)) ]"
}
for mark in 25 ""; do
	: >"$out"
	: >"$WORK/json"
	"$TACH" -b 16M ${mark:+--read-at $mark} --format json -i 0.05 \
	    <"$WORK/data2" >"$WORK/o" 2>"$WORK/json" &
	copy=$!
	exec 6<"$WORK/o"
	check "--read-at ${mark:-unset}: full" wait_until 60 held_at_least 15
	read1=$(last read)
	drain 8
	wait_until 60 held_below 9
	if [ -n "$mark" ]; then
		ticks_pass
		check "…half drained, above the mark: nothing read" \
		    [ "$(last read)" -eq "$read1" ]
		drain 5
		check "…below the mark: read again" \
		    wait_until 60 read_past "$read1"
		# (the ring's pipes, half drained, may keep a few MiB unused)
		check "…filled again" wait_until 60 held_at_least 12
	else
		check "…topped up at once" \
		    wait_until 60 read_past "$read1"
	fi
	cat <&6 >>"$out"
	exec 6<&-
	wait $copy
	check "…exit 0 ($?)" [ $? -eq 0 ]
	check "…exact" cmp -s "$WORK/data2" "$out"
done

# The stall is the input's while the output waits for the mark.
exec 5<>"$WORK/in"
printf abc >&5
"$TACH" -q -b 8M --write-at 50 --stall-timeout 0.5 <"$WORK/in" >"$out" \
    2>"$WORK/err"
check "waiting for the mark, the input stalled: exit 1 ($?)" [ $? -eq 1 ]
check "…the input named" grep -q \
    '^tach: reading stdin: stalled, nothing came for 0.5 s' "$WORK/err"
exec 5<&-

# Refused: without a buffer, or out of range
"$TACH" --write-at 50 </dev/null 2>"$WORK/err"
check "--write-at without a buffer: refused ($?)" [ $? -eq 1 ]
check "…said" grep -qx \
    'tach: --write-at needs a buffer: -b of 4 MiB or more' "$WORK/err"
"$TACH" -b 8M --read-at 101 </dev/null 2>"$WORK/err"
check "--read-at 101: refused ($?)" [ $? -eq 1 ]
check "…said" grep -qx \
    "tach: --read-at \`101': not a percentage from 0 to 100" "$WORK/err"
"$TACH" -b 8M --write-at 80% --read-at 0 <"$WORK/short" >"$out"
check "80% and 0 are percentages ($?)" cmp -s "$WORK/short" "$out"

done_testing
