# SPDX-License-Identifier: BSD-2-Clause
# covers: the stream's own tools: -o repeated (every byte to each output,
# -o - for stdout, beside a command's input; one failing named with its
# count while the others end exact), --hash (each algorithm equal to
# coreutils', ALG:HEX verified both ways, SIGUSR1 so far, JSON), and
# --output-block with --pad (every write's size under strace), -b N%;
# and the refusals of what cannot be had.
. "$(dirname "$0")/lib.sh"
need sha256sum md5sum sha1sum sha512sum b2sum

random "$WORK/data" 3000001
d=$WORK/data
same3() { cmp -s "$d" "$1" && cmp -s "$d" "$2" && cmp -s "$d" "$3"; }

# Several outputs, exact, by every way in
for way in "" --no-splice "-b 8M" "--line-mode" "-L 100M"; do
	rm -f "$WORK/a" "$WORK/b"
	# shellcheck disable=SC2086
	"$TACH" -q $way -o "$WORK/a" -o - -o "$WORK/b" <"$d" >"$WORK/c"
	check "-o a -o - -o b ${way:-(file in)}: exit 0 ($?)" [ $? -eq 0 ]
	check "…each exact" same3 "$WORK/a" "$WORK/b" "$WORK/c"
	# shellcheck disable=SC2086
	cat "$d" | "$TACH" -q $way -o - -o "$WORK/a" -o "$WORK/b" >"$WORK/c"
	check "…from a pipe: each exact" same3 "$WORK/a" "$WORK/b" "$WORK/c"
done
"$HELPER" socket-out "$WORK/c" "$TACH" -q -f "$d" -o - -o "$WORK/a"
check "stdout a socket and a file: both exact" same3 "$WORK/a" "$WORK/c" "$d"
"$HELPER" nonblock "$TACH" -q -f "$d" -o - -o "$WORK/a" | cat >"$WORK/c"
check "stdout a non-blocking pipe and a file: both exact" \
    same3 "$WORK/a" "$WORK/c" "$d"
mkfifo "$WORK/fifo"
cat "$WORK/fifo" >"$WORK/f" &
reader=$!
"$TACH" -q -f "$d" -o "$WORK/fifo" -o "$WORK/a" | cat >"$WORK/c"
wait $reader
check "-o a FIFO and a file: both exact, stdout untouched" \
    same3 "$WORK/f" "$WORK/a" "$d"
check "…stdout untouched" empty "$WORK/c"
"$TACH" -q -o "$WORK/a" -o "$WORK/b" gzip -c <"$d" >"$WORK/gz"
check "-o with a command: exit 0 ($?)" [ $? -eq 0 ]
gzip -dc "$WORK/gz" >"$WORK/c"
check "…the command's input and each file exact" \
    same3 "$WORK/a" "$WORK/b" "$WORK/c"
"$TACH" -q -o "$WORK/a" head -c 10 <"$d" >"$WORK/c"
check "…a command that stops reading early: its status ($?)" [ $? -eq 0 ]
check "…and the file still exact" cmp -s "$d" "$WORK/a"

# With a buffer, each output at its own pace: a fast one has all of it
# while a slow one's reader has read nothing yet
random "$WORK/d12" 12000000
mkfifo "$WORK/slow"
close_gate
(exec 5<"$WORK/slow"; gated; cat <&5 >"$WORK/slowout") &
reader=$!
"$TACH" -q -b 16M -o "$WORK/slow" -o "$WORK/fast" <"$WORK/d12" &
copy=$!
check "-b 16M: a fast output has all while a slow one took nothing" \
    wait_until 60 size_at_least "$WORK/fast" 12000000
open_gate
wait $copy
check "…exit 0 ($?)" [ $? -eq 0 ]
wait $reader
check "…both exact" sh -c 'cmp -s "$1" "$2" && cmp -s "$1" "$3"' sh \
    "$WORK/d12" "$WORK/fast" "$WORK/slowout"

# One output failing among good ones: named with its count, the others
# exact, exit 1
"$TACH" -q -o "$WORK/a" -o /dev/full -o "$WORK/b" --stats <"$d" \
    2>"$WORK/err" >/dev/null
check "-o /dev/full among good ones: exit 1 ($?)" [ $? -eq 1 ]
check "…the others exact" cmp -s "$d" "$WORK/a"
check "…the others exact" cmp -s "$d" "$WORK/b"
check "…named, with its count" grep -qx \
    "tach: writing /dev/full: No space left on device (0 bytes written)" \
    "$WORK/err"
check "…--stats gives each output's bytes" grep -q \
    "^tach: $WORK/b: 3000001 bytes in " "$WORK/err"
(trap '' PIPE; "$TACH" -q -o "$WORK/a" -o - -o "$WORK/b" <"$d" \
    2>"$WORK/err" | head -c 1000 >/dev/null)
check "a reader gone (SIGPIPE ignored): the others exact" \
    cmp -s "$d" "$WORK/a"
check "…the others exact" cmp -s "$d" "$WORK/b"
check "…the reader named, with its count" grep -Eq \
    "^tach: writing stdout: Broken pipe \\([0-9]+ bytes written\\)$" \
    "$WORK/err"
"$TACH" -q -o /dev/full -o /dev/full <"$d" 2>"$WORK/err"
check "every output failing: exit 1 ($?)" [ $? -eq 1 ]
check "…said" grep -qx "tach: every output failed" "$WORK/err"
"$TACH" -q --format json -o "$WORK/a" -o /dev/full <"$d" 2>"$WORK/json" \
    >/dev/null
check "JSON: each output's bytes, its error" grep -q "\"outputs\":\\[{\"name\":\"$WORK/a\",\"bytes\":3000001,.*{\"name\":\"/dev/full\",\"bytes\":0,\"rate\":0.0,\"error\":\"No space left on device\"}\\],\"final\":true" \
    "$WORK/json"
if unshare -m true 2>/dev/null; then
	# a disk that fills partway: a 1 MiB tmpfs, in a namespace of its own
	mkdir "$WORK/small"
	unshare -m sh -c 'mount -t tmpfs -o size=1m tmpfs "$1/small" &&
	    exec "$2" -q -o "$1/small/f" -o "$1/a" <"$1/data" 2>"$1/err"' \
	    sh "$WORK" "$TACH"
	check "a disk filling partway: exit 1 ($?)" [ $? -eq 1 ]
	check "…the other exact" cmp -s "$d" "$WORK/a"
	check "…named, with what it took" grep -Eq "^tach: writing $WORK/small/f: No space left on device \\(10[0-9]{5} bytes written\\)$" \
	    "$WORK/err"
fi

# An output that takes nothing: a signal and --stall-timeout still end tach
mkfifo "$WORK/stuck"
exec 5<>"$WORK/stuck"	# a reader that never reads
rm -f "$WORK/a"
"$TACH" -q -o "$WORK/stuck" -o "$WORK/a" <"$d" 2>/dev/null &
pid=$!
wait_until 60 size_at_least "$WORK/a" 65536
kill -TERM $pid
wait $pid
check "SIGTERM with an output that takes nothing: tach ends of it ($?)" \
    [ $? -eq 143 ]
"$TACH" -q --stall-timeout 1 -o "$WORK/stuck" -o "$WORK/a" <"$d" \
    2>"$WORK/err"
check "--stall-timeout with an output that takes nothing: exit 1 ($?)" \
    [ $? -eq 1 ]
check "…that output named" grep -q \
    "^tach: writing $WORK/stuck: stalled, nothing taken" "$WORK/err"
# the same once the relay is done and a buffer's queue holds the rest
rm -f "$WORK/a"
"$TACH" -q -b 16M -o "$WORK/stuck" -o "$WORK/a" <"$d" 2>/dev/null &
pid=$!
wait_until 60 size_at_least "$WORK/a" 3000001
kill -TERM $pid
wait $pid
check "SIGTERM while a queue waits for its output: tach ends of it ($?)" \
    [ $? -eq 143 ]
"$TACH" -q -b 16M --stall-timeout 1 -o "$WORK/a" -o "$WORK/stuck" <"$d" \
    2>"$WORK/err"
check "--stall-timeout while a queue waits for its output: exit 1 ($?)" \
    [ $? -eq 1 ]
check "…the stalled output named" grep -q \
    "^tach: writing $WORK/stuck: stalled, nothing taken for 1 s" "$WORK/err"
check "…the other exact" cmp -s "$d" "$WORK/a"
exec 5<&-

# --hash: each algorithm as coreutils computes it
for alg in sha256 md5 sha1 sha512 blake2b; do
	tool=${alg}sum
	[ $alg = blake2b ] && tool=b2sum
	want=$($tool <"$d")
	"$TACH" -q --hash $alg <"$d" >"$WORK/c" 2>"$WORK/err"
	check "--hash $alg: exit 0 ($?)" [ $? -eq 0 ]
	check "…as $tool prints it" grep -qxF "$want" "$WORK/err"
	check "…the data exact" cmp -s "$d" "$WORK/c"
done
"$TACH" -q --hash sha256,md5 -f "$d" -o "$WORK/a" 2>"$WORK/err"
check "--hash sha256,md5 -f: one line each, in order, named for the file" \
    [ "$(cat "$WORK/err")" = "$(sha256sum "$d")
$(md5sum "$d")" ]
check "…the copy exact" cmp -s "$d" "$WORK/a"
sum=$(sha256sum <"$d" | cut -c1-64)
"$TACH" -q --hash "sha256:$sum" <"$d" >"$WORK/c" 2>"$WORK/err"
check "--hash ALG:HEX matching: exit 0 ($?)" [ $? -eq 0 ]
upper=$(echo "$sum" | tr a-f A-F)
"$TACH" -q --hash "sha256:$upper" <"$d" >/dev/null 2>"$WORK/err"
check "…in capitals too ($?)" [ $? -eq 0 ]
bad=$(echo "$sum" | tr 0-9a-f 1-9a-f0)
"$TACH" -q --hash "sha256:$bad" <"$d" >"$WORK/c" 2>"$WORK/err"
check "--hash ALG:HEX not matching: exit 1 ($?)" [ $? -eq 1 ]
check "…the data still delivered" cmp -s "$d" "$WORK/c"
check "…saying both" grep -qx \
    "tach: --hash sha256: the stream's digest is $sum, not $bad" "$WORK/err"
# A library that refuses an update (tests/failcrypto.c): no digest but
# the stream's is ever printed; said, and exit 1, the data delivered
if [ -n "${FAILCRYPTO:-}" ]; then
	LD_LIBRARY_PATH=$FAILCRYPTO "$TACH" -q --hash sha256 -f "$d" \
	    -o "$WORK/c" 2>"$WORK/err"
	check "--hash, the library failing: exit 1 ($?)" [ $? -eq 1 ]
	check "…said" grep -qx \
	    "tach: --hash sha256: the crypto library failed to make the digest" \
	    "$WORK/err"
	lacks "…no digest printed" "$WORK/err" "^[0-9a-f]+  "
	check "…the data delivered" cmp -s "$d" "$WORK/c"
	LD_LIBRARY_PATH=$FAILCRYPTO "$TACH" --format json --hash md5 <"$d" \
	    2>"$WORK/json" >/dev/null
	check "…JSON's digest null" grep -q '"hash":{"md5":null},"final":true' \
	    "$WORK/json"
fi
"$TACH" --format json --hash md5 <"$d" 2>"$WORK/json" >/dev/null
check "JSON's last object: the digest" grep -q \
    "\"hash\":{\"md5\":\"$(md5sum <"$d" | cut -c1-32)\"},\"final\":true" \
    "$WORK/json"
lacks "…and no line of sha256sum's form" "$WORK/json" "^[0-9a-f]+  -$"
(trap '' PIPE; "$TACH" -q --hash md5 <"$d" 2>"$WORK/err" | head -c 10 \
    >/dev/null)
lacks "a stream cut short: no digest" "$WORK/err" "^[0-9a-f]{32}  -$"
head -c 1048576 "$d" >"$WORK/first"
close_gate
rm -f "$WORK/c"		# an old one would be taken for the copy's
(cat "$WORK/first"; gated; tail -c +1048577 "$d") |
    "$TACH" -q --hash sha256 >"$WORK/c" 2>"$WORK/err" &
copy=$!
wait_until 60 size_at_least "$WORK/c" 1048576
kill -USR1 $copy
wait_until 60 grep -q "so far" "$WORK/err"
check "SIGUSR1: the digest so far" grep -qx \
    "tach: sha256 so far: $(sha256sum <"$WORK/first" | cut -c1-64)" \
    "$WORK/err"
open_gate
wait $copy
check "…and the whole one at the end" grep -qxF "$(sha256sum <"$d")" \
    "$WORK/err"

# --output-block: every write exactly its size, the last short or padded
if command -v strace >/dev/null; then
	for way in "" "-b 8M --write-at 50" "-o - -o $WORK/a"; do
		# shellcheck disable=SC2086
		rm -f "$WORK"/st.*
		strace -ff -qq -e trace=write -e signal=none -o "$WORK/st" \
		    "$TACH" -q --output-block 100000 $way <"$d" >"$WORK/c"
		sizes=$(cat "$WORK"/st.* | awk '/^write\(1,/ { print $NF }' | sort |
		    uniq -c | awk '{ print $2 "x" $1 }' | sort | tr '\n' ' ')
		check "--output-block 100000 ${way:-alone}: 30 blocks and 1 byte ($sizes)" \
		    [ "$sizes" = "100000x30 1x1 " ]
		check "…exact" cmp -s "$d" "$WORK/c"
	done
	rm -f "$WORK"/st.*
	strace -ff -qq -e trace=write -e signal=none -o "$WORK/st" \
	    "$TACH" -q --output-block 100000 --pad <"$d" >"$WORK/c"
	sizes=$(cat "$WORK"/st.* | awk '/^write\(1,/ { print $NF }' | sort -u)
	check "--pad: every write 100000 bytes ($sizes)" [ "$sizes" = 100000 ]
fi
"$TACH" -q --output-block 100000 --pad <"$d" >"$WORK/c"
check "--pad: 31 whole blocks" [ "$(wc -c <"$WORK/c")" -eq 3100000 ]
head -c 3000001 "$WORK/c" >"$WORK/head"
check "…the data first" cmp -s "$d" "$WORK/head"
check "…then zeros" [ "$(tail -c 99999 "$WORK/c" | tr -d '\0' | wc -c)" -eq 0 ]

# -b N%: that share of the memory
"$TACH" -q --stats -b 1% <"$d" 2>"$WORK/err" >"$WORK/c"
check "-b 1%: exit 0, exact ($?)" cmp -s "$d" "$WORK/c"
check "…a buffer" grep -q "buffer: at most .* of " "$WORK/err"
if [ "${TACH_POINTER_BYTES:-8}" -eq 4 ] &&
    [ "$(awk '/^MemTotal/ { print $2 }' /proc/meminfo)" -gt 9000000 ]; then
	"$TACH" -q -b 50% <"$d" 2>"$WORK/err" >/dev/null
	check "-b 50% past what 32 bits address: refused ($?)" [ $? -eq 1 ]
	check "…saying so" grep -q "more than this system can address" \
	    "$WORK/err"
fi

# What cannot be had is refused, before a byte moves
refused() {
	want=$1
	shift
	"$TACH" -q "$@" <"$d" >"$WORK/c" 2>"$WORK/err"
	check "$* refused ($?)" [ $? -eq 1 ]
	check "…saying: $want" grep -qxF "tach: $want" "$WORK/err"
}
refused "-b 0%: a buffer of 1% to 90% of the memory (the rest is the system's)" -b 0%
refused "-b 95%: a buffer of 1% to 90% of the memory (the rest is the system's)" -b 95%
refused "--pad fills the last block: it needs --output-block" --pad
refused "output block 0 is less than 1" --output-block 0
refused "output block 68157440 is greater than 67108864" --output-block 65M
refused "--hash sha3-999: not an algorithm this crypto library has (sha256, sha512, sha1, md5, blake2b)" --hash sha3-999
refused "--hash sha256: the digest to match has 3 hex digits, not 64" --hash sha256:abc
refused "--hash md5: the digest to match is not hexadecimal" --hash md5:zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz
refused "--hash given twice: name every algorithm in one, as sha256,md5" --hash md5 --hash sha1
refused "-o - given twice: stdout is one output" -o - -o -
refused "-o $WORK/a: is $WORK/a too: give each a file of its own" -o "$WORK/a" -o "$WORK/a"
refused "-o $WORK/new: is $WORK/new too: give each a file of its own" -o "$WORK/new" -o "$WORK/new"
refused "$d: input file is output file" -f "$d" -o "$WORK/a" -o "$d"
refused "-P $WORK/pid: is $WORK/pid, which it would replace" -o "$WORK/a" -o "$WORK/pid" -P "$WORK/pid"
refused "--log $WORK/b: is $WORK/b, which it would corrupt" -o "$WORK/a" -o "$WORK/b" --log "$WORK/b"
refused "-o -: stdout is the command's output" -o "$WORK/a" -o - cat
for opt in -O -K -Y -W; do
	refused "$opt acts on the one output tach writes: not with several -o, --hash or --output-block" -o "$WORK/a" -o "$WORK/b" $opt
done
refused "-Y acts on the one output tach writes: not with several -o, --hash or --output-block" --hash md5 -Y
set --
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17; do
	set -- "$@" -o "$WORK/o$i"
done
refused "-o: at most 16 outputs" "$@"
check "…none of them made" [ ! -e "$WORK/o1" ]

done_testing
