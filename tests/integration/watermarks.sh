# SPDX-License-Identifier: BSD-2-Clause
# --write-at and --read-at, mbuffer's -P and -p: a buffer that starts
# writing only once it is that full (and again each time it ran empty),
# and once full reads again only when it is down to a share, so that a
# tape streams instead of stopping and starting.  At the input's end it
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
# read into again (without it, a fast input keeps it nearly full); a
# slow reader (-L) drains it a megabyte, a sixteenth, at a time
cat "$WORK/data" "$WORK/data" >"$WORK/data2"
"$TACH" -b 16M --read-at 25 --format json -i 0.05 <"$WORK/data2" \
    2>"$WORK/json" | "$TACH" -q -L 8m >"$out"
check "--read-at: exact" cmp -s "$WORK/data2" "$out"
# the fills in order while the input lasts, as a share of 16 MiB
fills() {
	sed -n 's/.*"read":\([0-9]*\),"buffered":\([0-9]*\),.*/\1 \2/p' \
	    "$WORK/json" | awk -v size=$((16 * mib)) -v all=40000000 \
	    '$1 < all { print int($2 * 100 / size) }' >"$WORK/fills"
}
fills
# (a sample may miss the last step or two to the top, or above the
# quarter: the writer drains in chunks, a megabyte or less)
check "--read-at: full" awk '$1 >= 95 { f = 1 } END { exit !f }' \
    "$WORK/fills"
# (splicing into the buffer's pipes fills it before the first tick: the
# first sample may be on the way down)
check "…then down near a quarter, then full again" awk '
    $1 >= 80 { high = 1 }
    high && !low && $1 <= 40 { low = 1; next }
    low && $1 >= 95 { again = 1 }
    END { exit !again }' "$WORK/fills"
"$TACH" -b 16M --format json -i 0.05 <"$WORK/data2" 2>"$WORK/json" |
    "$TACH" -q -L 8m >/dev/null
fills
# (above half, though it stays near 94%: a reader thread starved under
# load must not fail it)
check "without --read-at: it stays nearly full" awk '
    $1 >= 95 { full = 1; next } full && $1 < 50 { low = 1 }
    END { exit !(full && !low) }' "$WORK/fills"

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
