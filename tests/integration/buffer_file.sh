# SPDX-License-Identifier: BSD-2-Clause
# covers: --buffer-file PATH, mbuffer's -T: the buffer's memory is a file of
# its size, mapped, so that it can hold more than memory does.  The file is
# tach's own: made new at PATH, or nameless in directory PATH, its name
# removed at once; anything already at PATH is refused and left as it is.
. "$(dirname "$0")/lib.sh"

random "$WORK/data" 50000000
out=$WORK/out
dir=$WORK/dir
mkdir "$dir"
mib=1048576

# In a directory, the reader waiting: all 40 MiB held in a file of no name
# (--no-splice: none of it in pipes), then delivered in order; the
# directory never shows it.
maps_then_read() {
	wait_until 60 grep -q "\"buffered\":$((40 * mib))," "$WORK/json"
	grep ' (deleted)$' /proc/"$(cat "$WORK/pid")"/maps >"$WORK/maps"
	ls -A "$dir" >"$WORK/ls"
	cat >"$out"
}
sh -c 'echo $$ >"$1"; exec "$2" -b 40M --buffer-file "$3" --no-splice \
    --format json -i 0.05' sh "$WORK/pid" "$TACH" "$dir" <"$WORK/data" \
    2>"$WORK/json" | maps_then_read
check "a directory: all 40 MiB held" \
    grep -q "\"buffered\":$((40 * mib))," "$WORK/json"
check "…in a mapping of a removed file there" \
    grep -q " $dir/tach\\.[A-Za-z0-9]* (deleted)\$" "$WORK/maps"
check "…which the directory never listed" empty "$WORK/ls"
check "…and delivered in order" cmp -s "$WORK/data" "$out"
check "…leaving the directory empty" [ -z "$(ls -A "$dir")" ]

# a new name: made, used, removed; splicing as usual for what pipes hold
"$TACH" -q -b 24M --buffer-file "$dir/new" <"$WORK/data" >"$out"
check "a new name: exact ($?)" cmp -s "$WORK/data" "$out"
check "…and gone" [ ! -e "$dir/new" ] && [ ! -L "$dir/new" ]
# the same through a pipe, with line mode (memory only, so the file)
cat "$WORK/data" | "$TACH" --line-mode --format json -b 8M \
    --buffer-file "$dir" 2>"$WORK/json" | cat >"$out"
check "line mode through it: exact" cmp -s "$WORK/data" "$out"
check "…every line counted" grep -q \
    "\"lines\":$(wc -l <"$WORK/data"),.*\"final\":true" "$WORK/json"

# Anything already there is refused before a byte moves, and untouched.
empty_dir() { [ -z "$(ls -A "$1")" ]; }
printf keep >"$WORK/file"
refused() {
	what=$1
	shift
	"$TACH" -b 8M "$@" <"$WORK/data" >"$out" 2>"$WORK/err"
	check "$what: refused ($?)" [ $? -eq 1 ]
	check "…nothing written" [ ! -s "$out" ]
}
refused "an existing file" --buffer-file "$WORK/file"
check "…saying why" grep -qx "tach: --buffer-file $WORK/file: File exists" \
    "$WORK/err"
check "…its bytes kept" [ "$(cat "$WORK/file")" = keep ]
ln -s "$WORK/file" "$WORK/link"
refused "a symlink to a file" --buffer-file "$WORK/link"
check "…the file it names kept" [ "$(cat "$WORK/file")" = keep ]
ln -s "$WORK/nowhere" "$WORK/dangling"
refused "a dangling symlink" --buffer-file "$WORK/dangling"
check "…nothing made where it points" [ ! -e "$WORK/nowhere" ]
mkdir "$WORK/linked"
ln -s "$WORK/linked" "$WORK/dirlink"
refused "a symlink to a directory" --buffer-file "$WORK/dirlink"
check "…saying why" grep -qx "tach: --buffer-file $WORK/dirlink: a symbolic link, not followed: give a directory or a new file" "$WORK/err"
check "…nothing made in the directory" empty_dir "$WORK/linked"
mkfifo "$WORK/fifo"
refused "a FIFO" --buffer-file "$WORK/fifo"
check "…still a FIFO" [ -p "$WORK/fifo" ]
refused "a missing directory" --buffer-file "$WORK/none/file"
check "…saying why" grep -qx \
    "tach: --buffer-file $WORK/none/file: No such file or directory" \
    "$WORK/err"
refused "no -b of 4 MiB or more" --buffer-file "$dir" -b 1M
check "…saying why" grep -qx \
    "tach: --buffer-file needs a buffer: -b of 4 MiB or more" "$WORK/err"
refused "an empty path" --buffer-file ""
check "…the directory still empty" [ -z "$(ls -A "$dir")" ]

# A file system without room for it: refused, naming the size, and
# nothing left (root: a 4 MiB tmpfs in a mount namespace of its own).
if [ "$(id -u)" -eq 0 ] && unshare -m true 2>/dev/null; then
	unshare -m sh -c 'mount -t tmpfs -o size=4m none "$1" &&
	    "$2" -q -b 8M --buffer-file "$1" <"$3" >"$4" 2>"$5"
	    echo $? >"$6"; ls -A "$1" >"$7"' sh "$dir" "$TACH" "$WORK/data" \
	    "$out" "$WORK/err" "$WORK/rc" "$WORK/ls"
	check "no room: refused ($(cat "$WORK/rc"))" [ "$(cat "$WORK/rc")" -eq 1 ]
	check "…naming the size and why" grep -qx "tach: --buffer-file $dir: \
9437184 bytes: No space left on device" "$WORK/err"
	check "…nothing written" [ ! -s "$out" ]
	check "…nothing left there" empty "$WORK/ls"
else
	echo "skipped: a full file system (needs root and unshare -m)" >&2
fi

# progress(1) has no such option
ln -s "$TACH" "$WORK/progress"
"$WORK/progress" -b 8M --buffer-file "$dir" cat </dev/null >/dev/null \
    2>"$WORK/err"
check "progress: refused ($?)" [ $? -ne 0 ]

# In a directory on tmpfs (root: a tmpfs of its own in a mount namespace
# of its own): nothing reserved ahead, the buffer is memory taken as it
# fills, as without --buffer-file; exact all the same
if [ "$(id -u)" -eq 0 ] && unshare -m true 2>/dev/null; then
	mkdir "$WORK/shm"
	cat >"$WORK/shm.sh" <<-'EOF'
	mount -t tmpfs -o size=2g none "$1" || exit 77
	(printf x; until [ -e "$4" ]; do sleep 0.05; done; cat "$5") |
	    "$2" -q -b 1G --buffer-file "$1" >"$3" &
	until [ -s "$3" ]; do sleep 0.05; done
	df -k --output=used "$1" | tail -n 1 >"$6"
	: >"$4"
	wait $!
	EOF
	unshare -m sh "$WORK/shm.sh" "$WORK/shm" "$TACH" "$out" "$WORK/go" \
	    "$WORK/data" "$WORK/used"
	status=$?
	if [ $status -ne 77 ]; then
		check "tmpfs: exit 0 ($status)" [ $status -eq 0 ]
		check "…exact" sh -c "{ printf x; cat '$WORK/data'; } | cmp -s - '$out'"
		check "…not a gigabyte reserved for a byte ($(cat "$WORK/used") KiB)" \
		    [ "$(cat "$WORK/used")" -lt 102400 ]
	fi
fi

# A memory cgroup's limit (root, with cgroup v1's or v2's memory
# controller): -b in memory beyond it refused before a byte moves; with
# --buffer-file, what pipes hold beside the file stays small (16 MiB), so
# the buffer holds more than the limit and delivers it exact.
cg=
if [ "$(id -u)" -eq 0 ] && [ -w /sys/fs/cgroup/memory ]; then
	cg=/sys/fs/cgroup/memory/tach-test-$$ limit=memory.limit_in_bytes
elif [ "$(id -u)" -eq 0 ] &&
    grep -qw memory /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
	cg=/sys/fs/cgroup/tach-test-$$ limit=memory.max
fi
if [ -n "$cg" ] && mkdir "$cg" 2>/dev/null &&
    echo $((128 * mib)) >"$cg/$limit"; then
	incg() { sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' \
	    sh "$cg" "$@"; }
	incg "$TACH" -q -b 256M <"$WORK/data" >"$out" 2>"$WORK/err"
	check "memory cgroup: -b past its limit refused ($?)" [ $? -eq 1 ]
	check "…saying why" grep -q "^tach: -b: a buffer of 268435456 bytes: more than the 128 MiB of its memory cgroup's limit" "$WORK/err"
	check "…nothing written" [ ! -s "$out" ]
	incg "$TACH" -q -b 80M <"$WORK/data" >"$out" 2>"$WORK/err"
	check "…past half of it: taken ($?)" [ $? -eq 0 ]
	check "…said" grep -qx "tach: -b: a buffer of 83886080 bytes: more than half the 128 MiB of its memory cgroup's limit" "$WORK/err"
	check "…exact" cmp -s "$WORK/data" "$out"
	head -c 200000000 /dev/urandom >"$WORK/big"
	held() { grep -q '"buffered":[0-9]\{9\},' "$WORK/json"; }
	pipes() { ls -l /proc/"$(cat "$WORK/pid")"/fd | grep -c 'pipe:'; }
	(ulimit -n 20000; incg sh -c 'echo $$ >"$1"; exec "$2" -b 256M \
	    --buffer-file "$3" --format json -i 0.05' sh "$WORK/pid" "$TACH" \
	    "$dir" <"$WORK/big" 2>"$WORK/json" |
	    { wait_until 120 held; pipes >"$WORK/pipes"; cat >"$out"; })
	check "…with --buffer-file: more than the limit held" held
	# (the ring's pipes, 1 MiB or more each, and a few of its own)
	check "…at most 16 MiB of it in pipes ($(cat "$WORK/pipes") pipe ends)" \
	    [ "$(cat "$WORK/pipes")" -le 40 ]
	check "…delivered exact, not killed" cmp -s "$WORK/big" "$out"
	rm -f "$WORK/big"
	rmdir "$cg" 2>/dev/null || :
else
	echo "SKIP: a memory cgroup (needs root and the memory controller)" >&2
fi

done_testing
