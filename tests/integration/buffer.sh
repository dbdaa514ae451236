# SPDX-License-Identifier: BSD-2-Clause
# covers: -b of 4 MiB or more is a buffer: it holds up to that many bytes
# between the input and the output, each side at its own pace, and every
# byte it reads is delivered, or the run fails saying how many were not.
. "$(dirname "$0")/lib.sh"

random "$WORK/data" 20000003
out=$WORK/out

# Exact on every kind of end: file, pipe, several -f, a command, -z.
# A copy that does not end (a miscounted fill: the writer spins on bytes
# that are not there, deaf to SIGTERM) fails here within two minutes, and
# the rest, which would hang as it does, is not run.
timeout -k 10 120 "$TACH" -q -b 8M <"$WORK/data" >"$out"
rc=$?
check "file to file: ends ($rc)" [ $rc -eq 0 ]
[ $rc -eq 0 ] || done_testing
check "file to file, exact" cmp -s "$WORK/data" "$out"
cat "$WORK/data" | "$TACH" -q -b 8M | cat >"$out"
check "pipe to pipe, exact" cmp -s "$WORK/data" "$out"
"$TACH" -q -b 5M -f "$WORK/data" -f "$WORK/data" >"$out"
check "two -f, exact" sh -c "cat '$WORK/data' '$WORK/data' | cmp -s - '$out'"
"$TACH" -q -b 8M -f "$WORK/data" cat >"$out"
check "command mode, exact" cmp -s "$WORK/data" "$out"
gzip -c <"$WORK/data" >"$WORK/data.gz"
"$TACH" -q -b 8M -zf "$WORK/data.gz" >"$out"
check "-z, exact" cmp -s "$WORK/data" "$out"
"$TACH" -q -b 8M -S -l 1000001 <"$WORK/data" >"$out"
check "-S: the size exactly" [ "$(wc -c <"$out")" -eq 1000001 ]
check "-S: its bytes" sh -c "head -c 1000001 '$WORK/data' | cmp -s - '$out'"
lines=$(wc -l <"$WORK/data")
"$TACH" --line-mode --format json -b 8M <"$WORK/data" 2>"$WORK/json" >"$out"
check "line mode: every line counted ($lines)" \
    grep -q "\"lines\":$lines,.*\"final\":true" "$WORK/json"
check "line mode: exact" cmp -s "$WORK/data" "$out"

# The buffer holds while the reader does not read: the writer is done
# before the reader takes a byte.  Without one, the writer would wait
# (up to the test's timeout) for a reader that waits for it.
rm -f "$WORK/released" "$WORK/verdict" "$WORK/json"
{ head -c 16777216 "$WORK/data"; : >"$WORK/released"; } |
    "$TACH" -b 16M --format json -i 0.05 2>"$WORK/json" |
    { wait_until 60 test -e "$WORK/released" && echo held >"$WORK/verdict"
    # and, before a byte is taken, a tick that shows all of it read
    wait_until 60 grep -q '"read":16777216,' "$WORK/json"; cat >"$out"; }
check "the writer released before the reader read a byte" \
    [ "$(cat "$WORK/verdict" 2>/dev/null)" = held ]
check "…and every byte then delivered" \
    sh -c "head -c 16777216 '$WORK/data' | cmp -s - '$out'"
# (but what the output pipe took)
check "JSON: all read, nearly all of it held at once" \
    grep -Eq '"read":16777216,"buffered":1[5-6][0-9]{6},' "$WORK/json"
check "JSON: the last object, all read, none held" grep -q \
    '"bytes":16777216,"read":16777216,"buffered":0,.*"final":true' \
    "$WORK/json"

# %T is the buffer's fill, up to 100%: 20 MB fill the ring and the pipes
# while the reader waits for the gauge
"$TACH" -b 16M --force -F 'fill %T' -i 0.05 <"$WORK/data" 2>"$WORK/log" |
    { wait_until 60 grep -q 'fill 100%' "$WORK/log"; cat >/dev/null; }
check "%T: 100% when full" grep -q 'fill 100%' "$WORK/log"
check "%T: 0% once drained" sh -c "tr '\\r' '\\n' <'$WORK/log' |
    grep . | tail -n 1 | grep -Eq 'fill +0%'"
# the same in line mode, which counts lines but fills the buffer in bytes:
# 8 MB of 16 MiB held, steady after the input's end (its queue then is 0)
ticks() { wc -l <"$WORK/log"; }
more_ticks() { [ "$(ticks)" -ge "$1" ]; }
last_fill() { tail -n 1 "$WORK/log" | grep -Eqx '[2-5][0-9]'; }
rm -f "$WORK/verdict"
head -c 8000000 "$WORK/data" | "$TACH" --line-mode -b 16M -n -F '%T' \
    -i 0.05 2>"$WORK/log" | { wait_until 60 last_fill
    wait_until 60 more_ticks $(($(ticks) + 5))
    last_fill && echo held >"$WORK/verdict"; cat >/dev/null; }
check "%T in line mode: the buffer's fill" \
    [ "$(cat "$WORK/verdict" 2>/dev/null)" = held ]

# The line shows the two sides apart and the fill, as mbuffer does; JSON
# has the input's rate (in bytes, so not in line mode)
"$TACH" -b 16M --force -w 120 -i 0.05 <"$WORK/data" 2>"$WORK/log" | { wait_until 60 grep -q 'buf 100%' "$WORK/log"
    cat >/dev/null; }
check "the line: both rates and the fill" grep -Eq \
    ' in +[0-9.]+ [KMG]?i?B/s out +[0-9.]+ [KMG]?i?B/s buf 100% ' \
    "$WORK/log"
check "JSON: the input's rate" grep -Eq '"rate_in":[0-9]+\.[0-9],"rate":' \
    "$WORK/json"
"$TACH" --line-mode --format json -b 8M <"$WORK/data" 2>"$WORK/json" \
    >/dev/null
lacks "JSON in line mode: no input rate in bytes" "$WORK/json" rate_in

# --read-limit paces the input apart from the output: never ahead of it
# by more than a second's worth (half a second of credit, a 50 ms step)
head -c 3000000 "$WORK/data" >"$WORK/three"
"$TACH" -b 8M --read-limit 1m --format json -i 0.05 <"$WORK/three" \
    2>"$WORK/json" >"$out"
check "--read-limit: exact" cmp -s "$WORK/three" "$out"
sed -n 's/.*"elapsed":\([0-9.]*\),.*"read":\([0-9]*\),.*/\1 \2/p' \
    "$WORK/json" >"$WORK/reads"
# (each count against the next object's time: it was read before that
# clock was, however late its own object was written on a loaded machine)
check "--read-limit: the input paced" awk '
    NR > 1 && read > 1048576 * ($1 + 1) { bad = 1 } { read = $2 }
    END { exit bad || NR < 10 }' "$WORK/reads"
"$TACH" --read-limit 1m <"$WORK/three" >"$out" 2>"$WORK/err"
check "--read-limit without a buffer: refused ($?)" [ $? -eq 1 ]
check "…said" grep -qx \
    'tach: --read-limit needs a buffer: -b of 4 MiB or more' "$WORK/err"

# --stats: the highest fill, and the time full and empty
head -c 16777216 "$WORK/data" | "$TACH" -q --stats -b 16M 2>"$WORK/err" |
    cat >/dev/null
check "--stats: the buffer's highest fill" grep -Eq \
    '^tach: buffer: at most [0-9.]+ [KM]iB of 16.0 MiB \([0-9]+%\), full [0-9.]+ s, empty [0-9.]+ s$' \
    "$WORK/err"

# The output fails with bytes held: said, with the count not delivered.
"$TACH" -q -b 8M <"$WORK/data" >/dev/full 2>"$WORK/err"
check "output fails: exit 1 ($?)" [ $? -eq 1 ]
check "output fails: what was delivered and what was not" grep -Eq \
    '^tach: writing stdout: No space left on device \(0 bytes delivered; [1-9][0-9]* read and not delivered\)$' \
    "$WORK/err"

# A second reader of the input can take what poll saw, leaving the
# buffer's read waiting for bytes that may never come; the output failing
# meanwhile still ends the run.  poll is made to say "ready" with nothing
# there (strace), as that reader would leave it.
if command -v strace >/dev/null; then
	# (the writer holds the input open until tach has ended)
	rm -f "$WORK/st"
	{ printf abc; wait_until 120 test -e "$WORK/st"; } |
	    { env ASAN_OPTIONS=detect_leaks=0 timeout 60 strace -f -qq \
	    -o /dev/null -e inject=poll:retval=1 "$TACH" -q -b 8M \
	    >/dev/full 2>"$WORK/err"; echo $? >"$WORK/st"; }
	check "a read left waiting, the output failed: exit 1, no hang \
($(cat "$WORK/st"))" [ "$(cat "$WORK/st")" -eq 1 ]
	check "…said, with the bytes not delivered" grep -q \
	    '(0 bytes delivered; 3 read and not delivered)$' \
	    "$WORK/err"
fi

# A trickle (400 writes of 64 bytes, one a millisecond) is gathered: the
# output gets fewer writes than the input's, by half at least, and every
# byte.  A lone write goes on at once, while its input is still open.
if command -v strace >/dev/null; then
	"$HELPER" trickle 400 64 | env ASAN_OPTIONS=detect_leaks=0 strace -f \
	    -qq -o "$WORK/trace" -e trace=write,splice "$TACH" -q -b 8M \
	    >"$WORK/out"
	check "trickle: every byte" [ "$(wc -c <"$WORK/out")" -eq 25600 ]
	outs=$(grep -cE '(write\(1,|splice\([0-9]+, NULL, 1,)' "$WORK/trace")
	check "trickle: gathered ($outs writes out for 400 in)" \
	    [ "$((outs >= 1 && outs <= 200))" = 1 ]
fi
close_gate
(printf lone; eval "$GATED") | "$TACH" -q -b 8M >"$WORK/out" &
check "trickle: a lone write is not held" wait_until 60 test -s "$WORK/out"
open_gate
wait

rm -f "$WORK/released"
mkfifo "$WORK/fifo"
{ head -c 8000000 "$WORK/data"; : >"$WORK/released"; } |
    "$TACH" -q -b 16M >"$WORK/fifo" &
copy=$!
exec 6<"$WORK/fifo"
wait_until 60 test -e "$WORK/released"
wait_until 60 caught $copy TERM
kill -TERM $copy
wait $copy
check "SIGTERM with bytes held: dies of it ($?)" [ $? -eq 143 ]
exec 6<&-

# The buffer is in pipes where splice works (Linux), as many as the
# user's pipe allowance and an eighth of the descriptors allow; the rest
# in memory.  With 64 descriptors, 4 pipes (of 1 MiB, or 8 as root): 40
# MiB of 50 MB held in both at once, while the reader waits for a tick
# that shows them, then delivered in order.
random "$WORK/big" 50000000
# (each run's objects are new: a reader that saw the last run's would
# read early)
held_then_read() {
	wait_until 60 grep -q '"buffered":41943040,' "$WORK/json"
	cat >"$out"
}
rm -f "$WORK/json"
(ulimit -n 64; exec "$TACH" -b 40M --format json -i 0.05) \
    <"$WORK/big" 2>"$WORK/json" | held_then_read
check "pipes and memory: all 40 MiB held at once" \
    grep -q '"buffered":41943040,' "$WORK/json"
check "…and every byte delivered in order" cmp -s "$WORK/big" "$out"
# A silent input reads 0 within a second of its silence, as mbuffer's
# does, not the last two seconds' rate
close_gate
rm -f "$WORK/json"
(head -c 20000000 /dev/zero; eval "$GATED"; head -c 100 /dev/zero) |
    "$TACH" -b 64M --format json -i 0.1 2>"$WORK/json" >/dev/null &
copy=$!
check "an input gone silent: its rate first seen" wait_until 60 \
    grep -q '"rate_in":[1-9]' "$WORK/json"
silent() { tail -n 1 "$WORK/json" | grep -q '"rate_in":0.0,'; }
check "…then 0 while it is silent" wait_until 60 silent
open_gate
wait $copy
check "…and the copy ends 0 ($?)" [ $? -eq 0 ]
# (by the copy's own clock: no frame 1.2 s or more after the input's last
# move shows it moving)
awk -F'[:,]' '/"final":false/ { t = $2; r = $6; v = $10
	if (r > last) { last = r; moved = t }
	else if (t - moved >= 1.2 && v > 0) { print t; exit 1 } }' \
    "$WORK/json" >"$WORK/late"
check "…within a second of the silence ($(cat "$WORK/late"))" empty "$WORK/late"

# The reader goes away with bytes held: said, with what was delivered
# and what was lost, then tach dies of SIGPIPE as cat does; with SIGPIPE
# ignored, exit 1, the same words.
held_then_quit() {
	wait_until 60 grep -q '"buffered":[1-9][0-9]\{6,\},' "$WORK/json"
	head -c 1000 >/dev/null
}
lost='Broken pipe \([0-9]+ bytes delivered; [1-9][0-9]* read and not delivered\)'
rm -f "$WORK/json"
{ "$TACH" -b 40M --format json -i 0.05 <"$WORK/big" 2>"$WORK/json"
    echo $? >"$WORK/rc"; } | held_then_quit
check "reader gone with bytes held: dies of SIGPIPE ($(cat "$WORK/rc"))" \
    [ "$(cat "$WORK/rc")" -eq 141 ]
check "…saying what was lost" grep -Eq "\"message\":\"writing stdout: $lost\"" \
    "$WORK/json"
rm -f "$WORK/json"
(trap '' PIPE; { "$TACH" -b 40M --format json -i 0.05 <"$WORK/big" \
    2>"$WORK/json"; echo $? >"$WORK/rc"; } | held_then_quit)
check "…SIGPIPE ignored: exit 1 ($(cat "$WORK/rc"))" [ "$(cat "$WORK/rc")" -eq 1 ]
check "…saying what was lost" grep -Eq "\"message\":\"writing stdout: $lost\"" \
    "$WORK/json"
# pipes that hold part pages (the producer splices 1000-byte pieces of a
# file): each fills before its size, and the next is taken
rm -f "$WORK/json"
"$TACH" -q -b 1000 -f "$WORK/big" |
    (ulimit -n 64; exec "$TACH" -b 40M --format json -i 0.05) \
    2>"$WORK/json" | held_then_read
check "part pages: all 40 MiB held at once" \
    grep -q '"buffered":41943040,' "$WORK/json"
check "…and every byte delivered in order" cmp -s "$WORK/big" "$out"
# pipes that small writes leave part-filled give way to memory, so that
# what is held takes little more than its size: after the first such
# pipe, stdin is read into memory (no ulimit here: pipes would be had)
if command -v strace >/dev/null && [ "$TACH_ZEROCOPY" = 1 ]; then
	rm -f "$WORK/json"
	"$TACH" -q -b 1000 -f "$WORK/big" |
	    strace -f -qq -o "$WORK/trace" -e trace=read,splice \
	    "$TACH" -b 40M --format json -i 0.05 2>"$WORK/json" | held_then_read
	check "part pages, pipes to spare: all 40 MiB held" \
	    grep -q '"buffered":41943040,' "$WORK/json"
	check "…exact" cmp -s "$WORK/big" "$out"
	check "…the rest held in memory, read into" \
	    grep -Eq '^[0-9]+ +read\(0, .* = [1-9]' "$WORK/trace"
	slots=$(sed -n 's/.*splice(0, NULL, \([0-9]*\), NULL.*/\1/p' "$WORK/trace" |
	    sort -u | wc -l)
	check "…after one pipe that filled part-full ($slots pipes)" [ "$slots" -le 1 ]
fi
# a root without CAP_SYS_RESOURCE (a container's) has the user's pipe
# allowance: a quarter of it, 16 pipes of a megabyte by default, not all
if [ "$(id -u)" -eq 0 ] && [ "$TACH_ZEROCOPY" = 1 ] &&
    command -v strace >/dev/null && command -v setpriv >/dev/null &&
    [ "$(cat /proc/sys/fs/pipe-user-pages-soft 2>/dev/null)" = 16384 ]; then
	# (17 for the ring and its own; root's other pipes, counted against
	# the same allowance, may end the making sooner, never later)
	setpriv --bounding-set=-sys_resource,-sys_admin \
	    strace -f -qq -o "$WORK/trace" -e trace=pipe,pipe2 \
	    "$TACH" -q -b 64M <"$WORK/data" >"$out"
	pipes=$(grep -c 'pipe2\?(' "$WORK/trace")
	check "root without CAP_SYS_RESOURCE: exact" cmp -s "$WORK/data" "$out"
	check "…its pipes within its allowance's quarter ($pipes made)" \
	    [ "$pipes" -le 20 ]
fi
# memory only (--no-splice): the writer's chunk, half sent when the
# output stops taking, is not read into again until it is empty, and the
# buffer still holds its whole size
rm -f "$WORK/json"
"$TACH" -q -b 1000 -f "$WORK/big" |
    "$TACH" --no-splice -b 40M --format json -i 0.05 2>"$WORK/json" |
    held_then_read
check "memory only: all 40 MiB held at once" \
    grep -q '"buffered":41943040,' "$WORK/json"
check "…and every byte delivered in order" cmp -s "$WORK/big" "$out"
# a socket for input, a file opened to append (which takes no splice) for
# output: the pipes' bytes are copied out, and then memory is used
"$HELPER" socket-in "$WORK/big" "$TACH" -q -b 24M >"$out"
check "socket in: exact" cmp -s "$WORK/big" "$out"
: >"$out"
"$TACH" -q -b 24M <"$WORK/big" >>"$out"
check "output that takes no splice (O_APPEND): exact" cmp -s "$WORK/big" "$out"
if [ "$TACH_ZEROCOPY" = 1 ] && command -v strace >/dev/null; then
	# (a producer slower than the consumer: the fill stays in the pipes)
	"$TACH" -q -L 20m <"$WORK/data" | strace -f -qq -o "$WORK/trace" \
	    -e trace=splice,read,write "$TACH" -q -b 24M | cat >"$out"
	check "pipe to pipe through the buffer: exact" cmp -s "$WORK/data" "$out"
	check "…spliced in" grep -Eq "splice\\(0, NULL, [0-9]+, NULL" "$WORK/trace"
	check "…and out" grep -Eq "splice\\([0-9]+, NULL, 1, NULL" "$WORK/trace"
	reads=$(grep -Eac "read\\(0, .* = [1-9]" "$WORK/trace")
	check "…with no copy through a read of stdin ($reads)" [ "$reads" -eq 0 ]
	lacks "…nor a write to stdout" "$WORK/trace" 'write\(1, '
	# an input that refuses splice: read(2) from then on, nothing lost
	cat "$WORK/big" | strace -f -qq -o "$WORK/trace" -e trace=splice,read \
	    -e inject=splice:error=EINVAL:when=1 "$TACH" -q -b 24M >"$out"
	check "input refuses splice: exact" cmp -s "$WORK/big" "$out"
	check "…read instead" grep -Eaq "read\\(0, .* = [1-9]" "$WORK/trace"
	check "…and splice not tried again" \
	    [ "$(grep -c 'splice(0, ' "$WORK/trace")" -eq 1 ]
fi

# Refused before a byte moves: what reads ahead cannot go with a buffer,
# and a size that cannot be had
"$TACH" -b 8M -E <"$WORK/data" >"$out" 2>"$WORK/err"
check "-E with a buffer: refused ($?)" [ $? -eq 1 ]
check "…saying why" grep -qF -- "-b of 4 MiB or more is a buffer, which reads ahead: not with -E" "$WORK/err"
check "…nothing written" [ ! -s "$out" ]
"$TACH" -b 8M --line-mode -S -l 5 <"$WORK/data" >"$out" 2>"$WORK/err"
check "-S in line mode with a buffer: refused ($?)" [ $? -eq 1 ]
# (more than any machine's address space: 64-bit or 32-bit, it fails;
# AddressSanitizer's allocator is told to fail as libc's does)
env ASAN_OPTIONS="allocator_may_return_null=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
    "$TACH" -b 1000000000000000000 <"$WORK/data" >"$out" 2>"$WORK/err"
check "-b 10^18: refused ($?)" [ $? -eq 1 ]
check "…naming the size and why" grep -Eq -- \
    "^tach: -b: a buffer of 1000000000000000000 bytes: (more than the .* of (physical memory|its memory cgroup's limit): a smaller -b, or --buffer-file|more than this system can address)$" \
    "$WORK/err"
check "…nothing written" [ ! -s "$out" ]

done_testing
