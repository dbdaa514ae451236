# SPDX-License-Identifier: BSD-2-Clause
# covers: -Y/--sync: the output file's unwritten pages stay within two
# windows (8 MiB each) while copying, the last flush is part of the run and
# the bar says so, and a device's error at any flush fails the run.
. "$(dirname "$0")/lib.sh"
need strace

out=$WORK/out
err=$WORK/err
random "$WORK/data" 41000000		# five windows and a piece
window=8388608

# the last flush runs on a thread of its own (the bar goes on meanwhile):
# strace follows threads, and each line's thread id is cut off
traced() {
	strace -f -qq -o "$WORK/trace.f" "$@"
	st=$?
	sed 's/^[0-9]* *//' "$WORK/trace.f" >"$WORK/trace"
	return $st
}

for opts in "" --no-splice; do
	# shellcheck disable=SC2086
	traced -e trace=sync_file_range,fdatasync \
	    "$TACH" -q -Y $opts -f "$WORK/data" >"$out" 2>"$err"
	status=$?
	check "-Y $opts to a file: exit 0 (got $status)" [ $status -eq 0 ]
	check "-Y $opts to a file: exact" cmp -s "$WORK/data" "$out"
	check "-Y $opts: one last fdatasync" \
	    [ "$(grep -c '^fdatasync(1)' "$WORK/trace")" -eq 1 ]
	check "-Y $opts: the last call is the flush" \
	    sh -c 'tail -n 1 "$1" | grep -q "^fdatasync(1) *= 0"' sh "$WORK/trace"
	# each window is started, then waited for after the next is started:
	# the waits cover the file from its start, one window behind
	awk -v w=$window '
	    /SYNC_FILE_RANGE_WAIT_AFTER/ {
		split($0, a, /[(,]/); off = a[3] + 0; len = a[4] + 0
		if (off != done || len < w || len > 2 * w) bad = 1
		done = off + len; waits++ }
	    END { exit bad || waits < 3 }' "$WORK/trace"
	check "-Y $opts: the waits run a window behind, from the start" \
	    [ $? -eq 0 ]
done

# appending: the windows start at the file's end
head -c 1000 /dev/urandom >"$WORK/appended"
cp "$WORK/appended" "$WORK/want"
cat "$WORK/data" >>"$WORK/want"
traced -e trace=sync_file_range "$TACH" -q -Y \
    -f "$WORK/data" >>"$WORK/appended"
check "-Y appending: exact" cmp -s "$WORK/want" "$WORK/appended"
check "-Y appending: the first window starts at the old end" \
    grep -q '^sync_file_range(1, 1000, ' "$WORK/trace"

# a pipe or a terminal has nothing to flush
traced -e trace=sync_file_range,fdatasync \
    "$TACH" -q -Y -f "$WORK/data" | cat >"$out"
check "-Y to a pipe: exact" cmp -s "$WORK/data" "$out"
check "-Y to a pipe: no flush" empty "$WORK/trace"

# a file system without ranges: fdatasync at each window instead
traced -e trace=sync_file_range,fdatasync \
    -e inject=sync_file_range:error=EINVAL "$TACH" -q -Y -f "$WORK/data" \
    >"$out" 2>"$err"
status=$?
check "-Y without ranges: exit 0 (got $status)" [ $status -eq 0 ]
check "-Y without ranges: exact" cmp -s "$WORK/data" "$out"
check "-Y without ranges: fdatasync at each window" \
    [ "$(grep -c '^fdatasync(1) *= 0' "$WORK/trace")" -ge 5 ]

# the device's errors: at a window, and at the last flush
for fault in "a window:sync_file_range:error=EIO:when=3" \
    "the last flush:fdatasync:error=EIO"; do
	where=${fault%%:*}
	strace -f -qq -o /dev/null -e inject="${fault#*:}" \
	    "$TACH" -q -Y -f "$WORK/data" >"$out" 2>"$err"
	status=$?
	check "-Y, EIO at $where: exit 1 (got $status)" [ $status -eq 1 ]
	check "-Y, EIO at $where: says so" \
	    grep -qF "writing stdout: Input/output error" "$err"
done
strace -f -qq -o /dev/null -e inject=fdatasync:error=ENOSPC \
    "$TACH" -q -Y -f "$WORK/data" cat >/dev/null 2>"$err"
check "-Y into a command: nothing to flush, exit 0" [ $? -eq 0 ]

# the bar says it is flushing before the flush, and not at the end
"$TACH" -Y --force -w 100 -f "$WORK/data" >"$out" 2>"$err"
tr '\r' '\n' <"$err" | grep -F '%' >"$WORK/frames"
check "-Y: a frame says flushing" grep -qF "flushing" "$WORK/frames"
check "-Y: the flushing frame is at 100%" grep -q "100%.*flushing" \
    "$WORK/frames"
check "-Y: the last frame is complete" \
    sh -c 'tail -n 1 "$1" | grep -q "100%"' sh "$WORK/frames"
tail -n 1 "$WORK/frames" >"$WORK/last"
lacks "-Y: the final line drops the note" "$WORK/last" flushing
# the flush is part of the run: the elapsed time includes it
"$TACH" -Y --format json -f "$WORK/data" >"$out" 2>"$err"
check "-Y --format json: complete" grep -q '"result":"complete"' "$err"

done_testing
