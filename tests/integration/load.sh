# SPDX-License-Identifier: BSD-2-Clause
# covers: load: eight pipelines of 1 GiB at once with exact checksums, and
# one long run whose count is checked at the end, with no descriptor or
# memory growth along the way.
. "$(dirname "$0")/lib.sh"

random "$WORK/block" 67108864
stream() {
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do cat "$WORK/block"; done
}
want=$(stream | cksum)

pids=
for i in 1 2 3 4 5 6 7 8; do
	case $i in
	[1-4]) opts= ;;
	*) opts=--no-splice ;;
	esac
	( stream | "$TACH" -q $opts | cksum >"$WORK/sum$i" ) &
	pids="$pids $!"
done
wait $pids
for i in 1 2 3 4 5 6 7 8; do
	check "pipeline $i of 8: 1 GiB exact" [ "$(cat "$WORK/sum$i")" = "$want" ]
done

# The long run: 32 GiB through one tach.
gib=32
mkfifo "$WORK/in" "$WORK/out"
dd if=/dev/zero bs=1M count=$((gib * 1024)) of="$WORK/in" 2>/dev/null &
"$TACH" -q --stats <"$WORK/in" >"$WORK/out" 2>"$WORK/err" &
pid=$!
dd if="$WORK/out" of=/dev/null bs=1M 2>/dev/null &
# probe: descriptors and resident kilobytes of tach now.
probe() {
	echo "$(ls /proc/$pid/fd 2>/dev/null | wc -l)" \
	    "$(awk '/^VmRSS/ { print $2 }' /proc/$pid/status 2>/dev/null)"
}
# steady state: a SIGUSR1 report of 256 MiB moved
moved() {
	kill -USR1 $pid
	n=$(sed -n 's/^tach: \([0-9]*\) bytes (.*/\1/p' "$WORK/err" | tail -n 1)
	[ "${n:-0}" -ge 268435456 ]
}
check "long run: handlers installed" wait_until 600 caught $pid USR1
check "long run: under way" wait_until 600 moved
first=$(probe)
last=$first
most=${first% *}
while kill -0 $pid 2>/dev/null; do
	now=$(probe)
	# a probe as tach exits sees it closing descriptors, or none at all
	if [ -n "${now#* }" ]; then
		last=$now
		[ "${now% *}" -gt "$most" ] && most=${now% *}
	fi
	sleep 0.5
done
wait $pid
status=$?
wait
check "long run: exit 0" [ $status -eq 0 ]
check "long run: count exact" \
    grep -q "^tach: $((gib * 1073741824)) bytes in " "$WORK/err"
check "long run: descriptors never grew (${first% *}, at most $most)" \
    [ "$most" -eq "${first% *}" ]
# ASan's own allocator and shadow memory grow as it runs: only the plain
# builds can show that tach's memory stays put.
if [ "${TACH_SANITIZE:-OFF}" != ON ]; then
	check "long run: memory steady ($first -> $last kB)" \
	    [ "${last#* }" -le $((${first#* } + 1024)) ]
fi

done_testing
