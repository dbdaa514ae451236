# SPDX-License-Identifier: BSD-2-Clause
# covers: steady lines: no field changes its width as its number crosses a
# unit, so nothing on the line moves.  pv's own two tests for Debian bug
# 586763 (the byte count and the rate passing 1 MiB), adapted: the bursts
# come when the previous one has been drawn, not after a sleep; then the
# same for the default bar, and for line mode's SI steps.
. "$(dirname "$0")/lib.sh"

mkfifo "$WORK/in"

# bursts FORMAT WORD...: tach --force -F FORMAT -l 1500k reads bursts of
# zeros (999k, 1k, 3 bytes, 500k), each sent once the log shows WORD for
# the one before.  The frames, without trailing blanks, in $WORK/frames.
bursts() {
	_fmt=$1
	shift
	rm -f "$WORK/log"
	"$TACH" --force -F "$_fmt" -l 1500k -i 0.05 <"$WORK/in" >/dev/null \
	    2>"$WORK/log" &
	_meter=$!
	exec 4>"$WORK/in"
	# the first frame (at the first tick) before the first burst
	wait_until 60 test -s "$WORK/log"
	for _burst in 999k 1k 3 500k; do
		case $_burst in
		*k) head -c $((${_burst%k} * 1024)) /dev/zero >&4 ;;
		*) head -c "$_burst" /dev/zero >&4 ;;
		esac
		[ $# -gt 0 ] || continue
		check "$_fmt: drawn at $1" wait_until 60 grep -q -- "$1" "$WORK/log"
		shift
	done
	exec 4>&-
	wait $_meter
	sed 's/ *$//' "$WORK/log" | grep -v '^$' >"$WORK/frames"
}
# lengths FILE: how many different line lengths FILE has
lengths() {
	LC_ALL=C.UTF-8 awk '{ print length($0) }' "$1" | sort -u | wc -l
}

# pv -btIf -s 1500k: 999 KiB, 1000 KiB, 1.46 MiB
bursts '%b %t %I' " 999 KiB" "1000 KiB" "1000 KiB" "1.46 MiB"
check "bytes: one line length ($(sort -u "$WORK/frames" | tr '\n' '|'))" \
    [ "$(lengths "$WORK/frames")" -eq 1 ]
# pv -rtIf -s 1500k: the rate goes from B/s to MiB/s and back (the count
# at the end tells when each burst was drawn)
bursts '%r %t %I %b' " 999 KiB" "1000 KiB" "1000 KiB" "1.46 MiB"
check "rate: one line length ($(sort -u "$WORK/frames" | tr '\n' '|'))" \
    [ "$(lengths "$WORK/frames")" -eq 1 ]
check "rate: more than one unit seen" [ "$(grep -o '[KMG]\?i\?B/s' \
    "$WORK/frames" | sort -u | wc -l)" -gt 1 ]
bursts '%a|%b|%e|%t|%T|%r' " 999 KiB" "1000 KiB" "1000 KiB" "1.46 MiB"
check "every number: one line length" [ "$(lengths "$WORK/frames")" -eq 1 ]

# The default bar: every field starts where it started (the bar keeps
# its cells), frame after frame, until the last.
: >"$WORK/log"
"$TACH" --force -l 1500k -w 100 -i 0.05 <"$WORK/in" >/dev/null 2>"$WORK/log" &
meter=$!
exec 4>"$WORK/in"
# each burst once the one before is drawn: its count is on the log
set -- " 999 KiB" "1000 KiB" "1.46 MiB"
for burst in 999 1 500; do
	head -c $((burst * 1024)) /dev/zero >&4
	check "bar: drawn at $1" wait_until 60 grep -q -- "$1" "$WORK/log"
	shift
done
exec 4>&-
wait $meter
# the bar's cells (U+2588 to U+258F, three bytes each) as one '#', so
# that awk's byte positions are columns
sed '$d' "$WORK/log" | grep -v '^$' |
    LC_ALL=C sed 's/\xe2\x96[\x88-\x8f]/#/g' >"$WORK/frames"
check "bar: frames drawn" [ -s "$WORK/frames" ]
check "bar: avg at one column" [ "$(awk '{ print index($0, "avg") }' \
    "$WORK/frames" | sort -u | wc -l)" -eq 1 ]
check "bar: ] at one column" [ "$(awk '{ print index($0, "]") }' \
    "$WORK/frames" | sort -u | wc -l)" -eq 1 ]

# Line mode: 999 lines, then 1.00k and up, the same width.
"$TACH" --force --line-mode -F '%b|%r|%a' -i 0.05 <"$WORK/in" >/dev/null \
    2>"$WORK/log" &
meter=$!
exec 4>"$WORK/in"
yes | head -n 999 >&4
check "lines: drawn at 999" wait_until 60 grep -q "  999 lines|" "$WORK/log"
yes | head -n 200001 >&4
check "lines: drawn at 200k" wait_until 60 grep -q " 201k lines|" "$WORK/log"
exec 4>&-
wait $meter
sed 's/ *$//' "$WORK/log" | grep -v '^$' >"$WORK/frames"
check "lines: one line length ($(cut -c1-12 "$WORK/frames" | sort -u | tr '\n' '|'))" \
    [ "$(lengths "$WORK/frames")" -eq 1 ]

# Times: the time left falls from days to seconds (-L 4k over 2 GB, then
# -R -L 1g) and keeps its width, so "ETA" and the bar's end stay put.
head -c 2000000000 /dev/zero | "$TACH" --force -l 2000000000 -L 4k -w 100 \
    -i 0.05 >/dev/null 2>"$WORK/log" &
meter=$!
check "times: the copy listens" wait_until 60 listening $meter
check "times: the time left in days" wait_until 60 grep -Eq "ETA +[0-9]d " "$WORK/log"
"$TACH" -R $meter -L 1g
check "times: the time left in seconds" wait_until 60 grep -Eq "ETA +0:00:0" "$WORK/log"
# (a copy the -R missed would take days at 4k/s: it is ended then)
check "times: the copy ends" wait_until 60 sh -c "! kill -0 $meter 2>/dev/null"
kill $meter 2>/dev/null
wait $meter
# the frames from the first one in days, the bar's cells as one '#'
sed -n '/ETA  *[0-9]d /,$p' "$WORK/log" | grep ETA |
    LC_ALL=C sed 's/\xe2\x96[\x88-\x8f]/#/g' >"$WORK/frames"
check "times: ETA at one column ($(wc -l <"$WORK/frames") frames)" \
    [ "$(awk '{ print index($0, "ETA") }' "$WORK/frames" | sort -u | wc -l)" -eq 1 ]
check "times: ] at one column" [ "$(awk '{ print index($0, "]") }' \
    "$WORK/frames" | sort -u | wc -l)" -eq 1 ]

done_testing
