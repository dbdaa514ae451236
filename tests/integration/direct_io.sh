# SPDX-License-Identifier: BSD-2-Clause
# covers: -K, --direct-io (pv 1.7): files and disks are read and written
# past the page cache (O_DIRECT), through tach's aligned buffer; the last,
# short block and any other the system will not take direct go through the
# cache, exact; a file system that refuses is named, and the copy goes on;
# standard input and output are left as tach found them.
. "$(dirname "$0")/lib.sh"
need strace

random "$WORK/data" 5000123		# not a whole number of blocks
out=$WORK/out

strace -f -e trace=/^fcntl,write -o "$WORK/trace" \
    "$TACH" -q -K -f "$WORK/data" -o "$out"
check "files: exact ($?)" cmp -s "$WORK/data" "$out"
check "…the input read direct" \
    grep -Eq 'fcntl(64)?\([0-9]+, F_SETFL, O_RDONLY\|O_DIRECT' "$WORK/trace"
check "…the output written direct" \
    grep -Eq 'fcntl(64)?\(1, F_SETFL, O_WRONLY\|O_DIRECT' "$WORK/trace"
check "…the short block refused direct, then written" \
    grep -q 'write(1, .*= -1 EINVAL' "$WORK/trace"
check "…as the only one" [ "$(grep -c '= -1 EINVAL' "$WORK/trace")" -eq 1 ]
head -c 8388608 /dev/urandom >"$WORK/whole"
strace -f -e trace=write -o "$WORK/trace" \
    "$TACH" -q -K -f "$WORK/whole" -o "$out"
check "whole blocks: exact ($?)" cmp -s "$WORK/whole" "$out"
lacks "…every write direct" "$WORK/trace" EINVAL

# Pipes are left alone: on Linux O_DIRECT makes a pipe carry packets
strace -f -e trace=/^fcntl -o "$WORK/trace" sh -c \
    'cat "$1" | "$2" -q -K | cat >"$3"' sh "$WORK/data" "$TACH" "$out"
check "pipes: exact ($?)" cmp -s "$WORK/data" "$out"
lacks "…neither set direct" "$WORK/trace" O_DIRECT
cat "$WORK/data" | "$TACH" -q -K >"$out"
check "a pipe into a file: exact ($?)" cmp -s "$WORK/data" "$out"
"$TACH" -q -K -b 8M <"$WORK/data" >"$out"
check "with a buffer: exact ($?)" cmp -s "$WORK/data" "$out"
"$TACH" -q -K --line-mode -L 2000 <"$WORK/data" >"$out"
check "in line mode, paced: exact ($?)" cmp -s "$WORK/data" "$out"
"$TACH" -q -K -S -l 1000001 <"$WORK/data" >"$out"
check "-S at an odd size: exact ($?)" cmp -s -n 1000001 "$WORK/data" "$out"
check "…and no more" [ "$(stat -c %s "$out")" -eq 1000001 ]
# pv's own cases: paced in bytes, and one file twice
"$TACH" -q -K -L 8M -f "$WORK/data" -o "$out"
check "-L: exact ($?)" cmp -s "$WORK/data" "$out"
"$TACH" -q -K -f "$WORK/data" -f "$WORK/data" -o "$out"
cat "$WORK/data" "$WORK/data" >"$WORK/twice"
check "one file twice: exact ($?)" cmp -s "$WORK/twice" "$out"
"$TACH" -q -K -X -f "$WORK/data" 2>"$WORK/err"
check "-X: read direct, nothing said ($?)" empty "$WORK/err"

# Standard input and output are the shell's: after tach, the next reads
# and writes go on from where it stopped, in sizes no direct read or
# write could take
# (1 MiB: tach's own reads and writes stay whole blocks, and direct)
{ "$TACH" -q -K -S -l 1048576 >/dev/null; dd bs=1000 status=none; } \
    <"$WORK/data" >"$out" 2>"$WORK/err"
tail -c +1048577 "$WORK/data" >"$WORK/rest"
check "stdin put back as it was ($?)" cmp -s "$WORK/rest" "$out"
check "…nothing said" empty "$WORK/err"
{ "$TACH" -q -K -S -l 1048576 <"$WORK/data"; echo end; } >"$out" \
    2>"$WORK/err"
{ head -c 1048576 "$WORK/data"; echo end; } >"$WORK/head"
check "stdout put back as it was ($?)" cmp -s "$WORK/head" "$out"
check "…nothing said" empty "$WORK/err"
{ "$TACH" -q -K -S -l 1000001; cat; } <"$WORK/data" >"$out" 2>"$WORK/err"
check "both, at an odd size ($?)" cmp -s "$WORK/data" "$out"

# A file system without direct I/O (ramfs): said, and the copy goes on
if unshare -rm true 2>/dev/null; then
	mkdir "$WORK/mnt"
	unshare -rm sh -c 'mount -t ramfs none "$1" && cp "$2" "$1/data" &&
	    "$3" -q -K -f "$1/data" -o "$1/out"; echo $? >"$1/rc";
	    cmp "$1/data" "$1/out" >"$1/cmp" 2>&1; cp "$1/rc" "$1/cmp" "$4"' \
	    sh "$WORK/mnt" "$WORK/data" "$TACH" "$WORK" 2>"$WORK/err"
	check "refused: exit 0 ($(cat "$WORK/rc" 2>/dev/null))" \
	    [ "$(cat "$WORK/rc" 2>/dev/null)" = 0 ]
	check "…exact" empty "$WORK/cmp"
	check "…naming the input" grep -qx "tach: -K: $WORK/mnt/data: no direct \
I/O here (Invalid argument): through the page cache" "$WORK/err"
	check "…and the output" grep -qx "tach: -K: $WORK/mnt/out: no direct \
I/O here (Invalid argument): through the page cache" "$WORK/err"
else
	echo "SKIP: no user namespace to mount ramfs in" >&2
fi

# -E's rescue reads a failed span again block by block: a block direct
# I/O refuses (EINVAL, injected on the disk's first pread) is read again
# through the cache, not sent as zeros
if [ -n "${BADBLOCKS:-}" ] && command -v python3 >/dev/null; then
	# (the shim preloaded in tach only: a sanitizer's cannot load in strace)
	TACH_BAD_FILE=$WORK/data TACH_BAD_RANGES=1114112-1118208 \
	    strace -f -o /dev/null -E LD_PRELOAD="$BADBLOCKS" \
	    -P "$WORK/data" -e trace=pread64 \
	    -e inject=pread64:error=EINVAL:when=1 \
	    "$TACH" -K -E -q -f "$WORK/data" >"$out" 2>"$WORK/err"
	python3 - "$WORK/data" "$WORK/want" <<-'PY'
	import sys
	data = bytearray(open(sys.argv[1], "rb").read())
	data[1114112:1118208] = bytes(4096)
	open(sys.argv[2], "wb").write(data)
	PY
	check "-E: only the bad range lost" cmp -s "$WORK/want" "$out"
	check "…and said" grep -qx "tach: $WORK/data: unreadable, sent as \
zeros: bytes 1114112-1118207 (4096)" "$WORK/err"
fi

# A standard output shared with the shell (or with stderr: >f 2>&1,
# nohup, cron) keeps its own open file description untouched: tach
# writes direct through a description of its own, and the shell's goes
# on from where tach stopped.  (O_DIRECT is 040000 in fdinfo's flags.)
direct_flag() { awk '/^flags:/ { print (substr($2, length($2) - 4, 1) >= 4) }' \
    "/proc/$1/fdinfo/$2"; }
strace -f -e trace=openat,/^fcntl -o "$WORK/trace" \
    "$TACH" -q -K -f "$WORK/data" >"$out"
check "stdout: a description of tach's own opened" \
    grep -q 'openat(.*"/proc/self/fd/1", O_WRONLY' "$WORK/trace"
check "…and written direct" \
    grep -Eq 'fcntl(64)?\(1, F_SETFL, O_WRONLY\|O_DIRECT' "$WORK/trace"
check "…exact" cmp -s "$WORK/data" "$out"
# paced_copy WHAT PID FD REDIRECTIONS: a paced -K copy, its descriptors
# as REDIRECTIONS say; once it has written a megabyte, PID's FD (the
# shell's $$, or the copy's own: copy) is not direct; the copy exact
paced_copy() {
	eval "'$TACH' -q -K -L 4M -f '$WORK/data' $4 &"
	copy=$!
	wait_until 60 size_at_least "$out" 1048576
	check "$1: that description not direct" \
	    [ "$(direct_flag "$([ "$2" = copy ] && echo $copy || echo "$2")" "$3")" = 0 ]
	wait $copy
	check "…exact ($?)" cmp -s "$WORK/data" "$out"
}
exec 7>"$out"
paced_copy "stdout shared with the shell" $$ 7 ">&7 2>'$WORK/err'"
echo end >&7
exec 7>&-
check "…the shell's next write after tach's last" \
    sh -c "{ cat '$WORK/data'; echo end; } | cmp -s - '$out'"
check "…nothing said" empty "$WORK/err"
paced_copy ">f 2>&1: stderr's" copy 2 ">'$out' 2>&1"

"$TACH" -q -K -l 5 -d 1 2>"$WORK/err"
check "-K with -d: refused ($?)" [ $? -eq 1 ]

done_testing
