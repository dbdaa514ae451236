# SPDX-License-Identifier: BSD-2-Clause
# covers: -d on a process holding many files: the looks grow with the
# files that move, not with those that sit (each file named once, a still
# one looked at again less and less often), and none is lost for it: a
# still file that starts to move, a descriptor closed and reused for
# another file, a file opened late, and the exact end, all followed.
. "$(dirname "$0")/lib.sh"
[ "$(uname)" = Linux ] || skip "the watch test reads /proc (Linux)"
need strace

files=100
mkdir "$WORK/many"
for i in $(seq $files); do echo "file $i" >"$WORK/many/f$i"; done
random "$WORK/late" 500000

start_reader
for i in $(seq $files); do say "open $WORK/many/f$i"; done
first=$(head -n 1 "$WORK/ack")
last=$(answer)
(exec 3>&-; strace -f -qq -e trace=readlink,openat -o "$WORK/trace" \
    "$TACH" -d "$reader" --format json -i 0.1 2>"$WORK/json") &
watcher=$!
# objects FD: how many ticks showed fd FD
objects() { grep -c "^{\"pid\":$reader,\"fd\":$1,\"path\"" "$WORK/json"; }
at() {
	grep -q "^{\"pid\":$reader,\"fd\":$1,\"path\":\"$2\",\"elapsed\":[0-9.]*,\"bytes\":$3," \
	    "$WORK/json"
}
check "every file is seen" wait_until 60 at "$last" "$WORK/many/f$files" 0
# some seconds of ticks: still files looked at less and less often
ticks() { [ "$(objects "$first")" -ge "$1" ]; }
check "the ticks go on" wait_until 120 ticks 30

# a file that stood still starts to move: followed
say "read $first 4"
check "a still file that moves is followed" \
    wait_until 60 at "$first" "$WORK/many/f1" 4
# a descriptor closed and given to another file: the new one is seen
say "close $last"
say "open $WORK/late"
check "…the descriptor's new file seen" wait_until 60 at "$last" "$WORK/late" 0
say "read $last 500000"
check "…and followed to its end" wait_until 60 at "$last" "$WORK/late" 500000
# a file opened on a new descriptor: found by the next listing
say "open $WORK/many/f2"
more=$(answer)
check "a file opened late is seen" wait_until 60 at "$more" "$WORK/many/f2" 0
exec 3>&-
wait "$watcher"
check "the process's exit ends the watch with 0 ($?)" [ $? -eq 0 ]
wait "$reader"

# (the reader's own files, and the late one: each named once)
named=$(grep -c "readlink(\"/proc/$reader/fd/" "$WORK/trace")
check "each file named once, not at every tick ($named names)" \
    [ "$named" -le $((files + 10)) ]
looks=$(grep -c "openat(.*\"/proc/$reader/fdinfo/" "$WORK/trace")
ticks=$(objects "$first")
# (every file at every tick would be files × ticks)
check "still files looked at less than once in four ticks ($looks looks, $ticks ticks)" \
    [ "$looks" -lt $((files * ticks / 4)) ]

done_testing
