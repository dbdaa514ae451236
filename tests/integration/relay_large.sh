# SPDX-License-Identifier: BSD-2-Clause
# covers: counts past 4 GiB: a sparse 5 GiB file through tach, the count
# checked.
. "$(dirname "$0")/lib.sh"

big=$WORK/sparse
truncate -s 5368709123 "$big" 2>/dev/null || skip "no sparse files here"
[ "$(du -k "$big" | cut -f1)" -lt 1024 ] || skip "the filesystem filled the file"
printf 'end' | dd of="$big" bs=1 seek=5368709120 conv=notrunc 2>/dev/null

for opts in "" --no-splice; do
	n=$("$TACH" -q $opts <"$big" | wc -c)
	check "5 GiB + 3 through a pipe ($opts): $n bytes" [ "$n" -eq 5368709123 ]
	tail=$("$TACH" -q $opts <"$big" | tail -c 3)
	check "last bytes intact ($opts)" [ "$tail" = end ]
done
# The count tach reports (SIGUSR1's report is exact in bytes).
mkfifo "$WORK/fifo"
"$TACH" -q <"$big" >"$WORK/fifo" 2>"$WORK/err" &
pid=$!
{
	dd bs=1M count=4200 iflag=fullblock 2>/dev/null >/dev/null
	kill -USR1 $pid
	cat >/dev/null
} <"$WORK/fifo"
wait $pid
check "still exit 0 after SIGUSR1" [ $? -eq 0 ]
n=$(sed -n 's/.*: \([0-9]*\) bytes .*/\1/p' "$WORK/err" | head -n 1)
check "SIGUSR1 reports a count past 4 GiB (${n:-none})" \
    [ "${n:-0}" -gt 4294967296 ]

done_testing
