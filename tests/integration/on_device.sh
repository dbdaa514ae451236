# SPDX-License-Identifier: BSD-2-Clause
# covers: what the disk itself has: with a block device as the output
# (or a file on one) tach reads the disk's own counters and shows
# "disk wrote N" beside what it handed over (JSON "on_device"); the run ends
# when the disk has it all, the last flush drawn ("flushing"), and
# --no-flush keeps the old end; a failed flush fails the run; -d shows
# the same for a process writing a disk.  A loop device over a file, in
# a mount namespace of the test's own with a /dev of its own.
. "$(dirname "$0")/lib.sh"
[ "$(uname)" = Linux ] || skip "the disk's counters are read from sysfs (Linux)"
[ "$(id -u)" -eq 0 ] || skip "not root: no loop device can be made"
need losetup unshare
unshare -m true 2>/dev/null || skip "no mount namespace here"

if [ "${1:-}" != inside ]; then
	exec unshare -m --propagation private sh "$0" inside
fi
# from here on, in the namespace: /dev is ours, and goes with it
mount -t tmpfs tmpfs /dev
mknod /dev/loop-control c 10 237
mknod -m 666 /dev/null c 1 3
mknod -m 666 /dev/full c 1 7
mknod -m 666 /dev/zero c 1 5
mknod -m 666 /dev/urandom c 1 9
ln -s /proc/self/fd /dev/fd
ln -s /proc/self/fd/0 /dev/stdin
free=$(losetup -f) || skip "no free loop device"
mknod "$free" b 7 "${free#/dev/loop}"
truncate -s 64M "$WORK/disk"
losetup "$free" "$WORK/disk" || skip "losetup refused"
dev=$free
trap 'losetup -d "$dev"; rm -rf "$WORK"' EXIT
trap 'exit 1' INT TERM

random "$WORK/data" 40000000
# field FILE NAME: the last number NAME has in FILE's objects
field() { grep -o "\"$2\":[0-9]*" "$1" | tail -n 1 | sed 's/.*://'; }

# A disk as the output: the run ends when the disk has every byte.
"$TACH" --format json -f "$WORK/data" -o "$dev" 2>"$WORK/json"
check "to a disk: exit 0 ($?)" [ $? -eq 0 ]
check "to a disk: every byte there" cmp -n 40000000 "$WORK/data" "$dev"
check "to a disk: the last object has on_device" \
    grep -q '"on_device":[0-9]*,.*"final":true,"result":"complete"' \
    "$WORK/json"
check "on_device reached the bytes copied before the end ($(field "$WORK/json" on_device))" \
    [ "$(field "$WORK/json" on_device)" -ge 40000000 ]
check "and grew: some object before the last had less" sh -c \
    "grep -o '\"on_device\":[0-9]*' '$WORK/json' | sed 's/.*://' | sort -un | head -n 1 | grep -qv '^4[0-9]\{7\}'"

# The last flush is drawn; --no-flush leaves it out; -Y's is its own.
"$TACH" --force -w 120 -f "$WORK/data" -o "$dev" 2>"$WORK/lines"
check "the last flush is drawn" grep -q 'flushing' "$WORK/lines"
check "beside what the disk says it wrote" grep -q 'disk wrote' "$WORK/lines"
# at 80 columns too: the flush outranks the fields that can go, and no
# ETA of -:--:-- makes it look hung (a flush held up 1 s to be drawn)
if command -v strace >/dev/null; then
	for w in 79 50; do
		strace -f -o /dev/null -e trace=fdatasync \
		    -e inject=fdatasync:delay_enter=1000000 "$TACH" --force \
		    -w $w -f "$WORK/data" -o "$dev" 2>"$WORK/lines"
		check "-w $w: the last flush is drawn" \
		    grep -q 'flushing' "$WORK/lines"
		lacks "…with no ETA beside it" "$WORK/lines" \
		    'flushing.*ETA|ETA.*flushing'
	done
fi
"$TACH" --force -w 120 --no-flush -f "$WORK/data" -o "$dev" 2>"$WORK/lines"
check "--no-flush: no flush drawn" sh -c "! grep -q flushing '$WORK/lines'"
"$TACH" --force -w 120 -Y -f "$WORK/data" -o "$dev" 2>"$WORK/lines"
check "-Y: its flush drawn" grep -q 'flushing' "$WORK/lines"
# The count is since tach started, not since boot: the device has taken
# three copies already, and this one's on_device is its own 40 MB.
"$TACH" --format json -f "$WORK/data" -o "$dev" 2>"$WORK/json"
n=$(field "$WORK/json" on_device)
check "on a device written before: on_device is this copy's ($n)" \
    [ "${n:-0}" -ge 40000000 -a "${n:-0}" -le 48000000 ]
check "--no-flush with -Y refused" sh -c \
    "! '$TACH' --no-flush -Y -f '$WORK/data' -o /dev/null 2>/dev/null"

# A flush that fails fails the run, and says so.
if command -v strace >/dev/null; then
	strace -f -o /dev/null -e trace=fdatasync -e inject=fdatasync:error=EIO \
	    "$TACH" -q -f "$WORK/data" -o "$dev" 2>"$WORK/err"
	check "a failed flush: exit 1 ($?)" [ $? -eq 1 ]
	check "a failed flush: said" grep -q "$dev: Input/output error" \
	    "$WORK/err"
	strace -f -o /dev/null -e trace=fdatasync \
	    -e inject=fdatasync:error=EIO "$TACH" -q --no-flush \
	    -f "$WORK/data" -o "$dev" 2>"$WORK/err"
	check "--no-flush: no flush to fail ($?)" [ $? -eq 0 ]
fi

# A disk among several outputs, or behind --hash (the fanout): its end is
# flushed as the one output's is, drawn, its failure its own.
if command -v strace >/dev/null; then
	# syncs FILE: how many fdatasync calls strace's FILE shows
	syncs() { grep -c 'fdatasync(' "$1"; }
	strace -f -o "$WORK/trace" -e trace=fdatasync "$TACH" -q \
	    -f "$WORK/data" -o "$dev" -o "$WORK/copy"
	check "a disk and a file: exit 0 ($?)" [ $? -eq 0 ]
	check "a disk and a file: the disk exact" \
	    cmp -n 40000000 "$WORK/data" "$dev"
	check "a disk and a file: the file exact" cmp "$WORK/data" "$WORK/copy"
	check "a disk and a file: the disk flushed, the file not ($(syncs "$WORK/trace"))" \
	    [ "$(syncs "$WORK/trace")" -eq 1 ]
	strace -f -o "$WORK/trace" -e trace=fdatasync "$TACH" -q \
	    --hash sha256 -f "$WORK/data" -o "$dev" >/dev/null 2>&1
	check "--hash to a disk: flushed ($(syncs "$WORK/trace"))" \
	    [ "$(syncs "$WORK/trace")" -eq 1 ]
	strace -f -o "$WORK/trace" -e trace=fdatasync "$TACH" -q --no-flush \
	    -f "$WORK/data" -o "$dev" -o "$WORK/copy"
	check "several, --no-flush: no flush ($(syncs "$WORK/trace"))" \
	    [ "$(syncs "$WORK/trace")" -eq 0 ]
	# a flush held up 2 s: the wait is drawn, and outlasts no stall
	strace -f -o /dev/null -e trace=fdatasync \
	    -e inject=fdatasync:delay_enter=2000000 "$TACH" --force -w 120 \
	    --stall-timeout 1 -f "$WORK/data" -o "$dev" -o "$WORK/copy" \
	    2>"$WORK/lines"
	check "several: a slow flush is no stall ($?)" [ $? -eq 0 ]
	check "several: the flush drawn" grep -q flushing "$WORK/lines"
	strace -f -o /dev/null -e trace=fdatasync \
	    -e inject=fdatasync:error=EIO "$TACH" -q -f "$WORK/data" \
	    -o "$dev" -o "$WORK/copy" 2>"$WORK/err"
	check "several: the disk's failed flush, exit 1 ($?)" [ $? -eq 1 ]
	check "several: the disk named" \
	    grep -q "writing $dev: Input/output error" "$WORK/err"
	check "several: the file still exact" cmp "$WORK/data" "$WORK/copy"
fi

# -d on a process writing the disk: the disk's count since tach first saw
# the file (what it wrote before is not told apart from others' writes).
mkfifo "$WORK/feed"
dd if="$WORK/feed" of="$dev" bs=64k oflag=dsync 2>/dev/null &
writer=$!
exec 4>"$WORK/feed"
head -c 1000000 "$WORK/data" >&4
"$TACH" -d "$writer" --format json -i 0.05 2>"$WORK/json" 4>&- &
watcher=$!
on_device_at_least() {
	grep "\"path\":\"$dev\"" "$WORK/json" >"$WORK/dd.json"
	[ "$(field "$WORK/dd.json" on_device)" -ge "$1" ] 2>/dev/null
}
check "-d: the file written is seen, with the disk's count" \
    wait_until 60 on_device_at_least 0
head -c 3000000 "$WORK/data" >&4
check "-d: what the disk wrote since (dd's dsync: as dd writes)" \
    wait_until 60 on_device_at_least 3000000
head -c 2000000 "$WORK/data" >&4
check "-d: and it grows" wait_until 60 on_device_at_least 5000000
exec 4>&-
wait "$writer"
wait "$watcher"

# A file on the disk: its counters too.
if command -v mkfs.ext2 >/dev/null && mkfs.ext2 -q "$dev" 2>/dev/null; then
	mkdir "$WORK/mnt"
	mount "$dev" "$WORK/mnt"
	"$TACH" --format json -f "$WORK/data" -o "$WORK/mnt/copy" \
	    2>"$WORK/json"
	check "a file on a disk: on_device" grep -q '"on_device":[0-9]*,.*"final":true' \
	    "$WORK/json"
	check "a file is not flushed unless asked (-Y)" \
	    sh -c "! '$TACH' --force -w 120 -f '$WORK/data' -o '$WORK/mnt/copy' 2>&1 | grep -q flushing"
	umount "$WORK/mnt"
else
	echo "skipped: a file on a disk (no mkfs.ext2, or it failed)" >&2
fi

# No disk (a pipe, a tmpfs file): no count claimed.
"$TACH" --format json -f "$WORK/data" -o "$WORK/copy" 2>"$WORK/json"
if [ "$(stat -f -c %T "$WORK")" = tmpfs ]; then
	check "a file in memory: no on_device" sh -c \
	    "! grep -q on_device '$WORK/json'"
fi
"$TACH" --format json -f "$WORK/data" 2>"$WORK/json" | cat >/dev/null
check "a pipe: no on_device" sh -c "! grep -q on_device '$WORK/json'"

done_testing
