# SPDX-License-Identifier: BSD-2-Clause
# covers: -E rescues everything that can be read: a failed read is split
# into logical blocks (512 bytes on a file), only what fails is sent as
# zeros, exactly those ranges are listed, with the rescued and lost counts.
# The failing disk is a preloaded shim (tests/badblocks.c) that fails reads
# touching given ranges, whole, as FUSE does; a read that fails once
# (strace) is retried and loses nothing.
. "$(dirname "$0")/lib.sh"
[ -n "${BADBLOCKS:-}" ] || skip "no failing-disk shim on this system"
random "$WORK/disk" 2000000	# its last 512-byte block is 128 bytes

# bad RANGES OUT: tach -E reads the disk failing at RANGES into a pipe,
# then OUT; its status in $status
bad() {
	{ LD_PRELOAD=$BADBLOCKS TACH_BAD_FILE=$WORK/disk TACH_BAD_RANGES=$1 \
	    "$TACH" -E -q -f "$WORK/disk" 2>"$WORK/err"; echo $? >"$WORK/st"; } |
	    cat >"$2"
	status=$(cat "$WORK/st")
}
# expect START-END...: the disk with those ranges (END excluded) as zeros
expect() {
	python3 - "$WORK/disk" "$WORK/want" "$@" <<-'PY'
	import sys
	data = bytearray(open(sys.argv[1], "rb").read())
	for r in sys.argv[3:]:
	    a, b = map(int, r.split("-"))
	    data[a:b] = bytes(b - a)
	open(sys.argv[2], "wb").write(data)
	PY
}
need python3

# one bad 4 KiB block at 1 MiB + 64 KiB, inside a 1 MiB read
bad 1114112-1118208 "$WORK/out"
check "one bad block: exit 1 ($status)" [ "$status" -eq 1 ]
expect 1114112-1118208
check "one bad block: only it is zeros" cmp -s "$WORK/want" "$WORK/out"
check "one bad block: listed exactly" grep -qx \
    "tach: $WORK/disk: unreadable, sent as zeros: bytes 1114112-1118207 (4096)" "$WORK/err"
check "one bad block: one range" [ "$(grep -c 'unreadable, sent as zeros: bytes' "$WORK/err")" -eq 1 ]
check "one bad block: rescued and lost counted" grep -qx \
    "tach: rescued 1995904 of 2000000 bytes; 4096 unreadable, sent as zeros" "$WORK/err"

# two ranges, one not block-aligned at its start: 512-byte pieces
bad 100000-104096,1500160-1510400 "$WORK/out"
# the shim fails whole 512-byte pieces that touch a range
expect 99840-104448 1500160-1510400
check "two ranges: only those pieces are zeros" cmp -s "$WORK/want" "$WORK/out"
check "two ranges: the first listed" grep -qx \
    "tach: $WORK/disk: unreadable, sent as zeros: bytes 99840-104447 (4608)" "$WORK/err"
check "two ranges: the second listed" grep -qx \
    "tach: $WORK/disk: unreadable, sent as zeros: bytes 1500160-1510399 (10240)" "$WORK/err"
check "two ranges: counted" grep -qx \
    "tach: rescued 1985152 of 2000000 bytes; 14848 unreadable, sent as zeros" "$WORK/err"

# a bad last partial block: 128 bytes, and the copy ends at the size
bad 1999900-2000000 "$WORK/out"
expect 1999872-2000000
check "last partial block: exact" cmp -s "$WORK/want" "$WORK/out"
check "last partial block: listed to the end" grep -qx \
    "tach: $WORK/disk: unreadable, sent as zeros: bytes 1999872-1999999 (128)" "$WORK/err"

# into a file, where copy_file_range would be used: the same
LD_PRELOAD=$BADBLOCKS TACH_BAD_FILE=$WORK/disk TACH_BAD_RANGES=1114112-1118208 \
    "$TACH" -E -q -f "$WORK/disk" >"$WORK/out" 2>"$WORK/err"
check "into a file: exit 1 ($?)" [ $? -eq 1 ]
expect 1114112-1118208
check "into a file: only the bad block is zeros" cmp -s "$WORK/want" "$WORK/out"

# a read that fails once: the retry reads it all, nothing is lost
if command -v strace >/dev/null; then
	strace -qq -o "$WORK/trace" -e trace=read "$TACH" -E -q --no-splice -b 256k \
	    -f "$WORK/disk" >/dev/null
	n=$(awk '/, 262144\) += 262144$/ { print NR; exit }' "$WORK/trace")
	strace -qq -o /dev/null -e inject=read:error=EIO:when=${n:-1} \
	    "$TACH" -E -q --no-splice -b 256k -f "$WORK/disk" >"$WORK/out" 2>"$WORK/err"
	check "EIO once: exit 0 ($?)" [ $? -eq 0 ]
	check "EIO once: exact" cmp -s "$WORK/disk" "$WORK/out"
	empty "$WORK/err" || fail "EIO once: a message ($(head -n 1 "$WORK/err"))"
fi

done_testing
