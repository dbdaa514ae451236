# SPDX-License-Identifier: BSD-2-Clause
# covers: numbers and ends a user acts on: -F %T stays a percentage, -z
# keeps one descriptor a file, a child's crash is not dumped as tach's core,
# a decompressor that fails is named, the magic is read whole, and a stray
# SIGALRM does not kill a copy.
. "$(dirname "$0")/lib.sh"
random "$WORK/data" 3000000

# %T: the input waiting, as a share of the buffer, 0 to 100 for a file
# (whose FIONREAD is all that is left of it) and for a pipe.
"$TACH" --force -F '%T' -b 64k -i 0.01 -f "$WORK/data" 2>"$WORK/err" >/dev/null
tr '\r' '\n' <"$WORK/err" | grep -o '[0-9-]*%' >"$WORK/pct"
check "%T from a file: drawn" [ -s "$WORK/pct" ]
lacks "%T from a file: 0 to 100" "$WORK/pct" '^(-|[0-9]{4,}|[2-9][0-9][0-9]|1[1-9][0-9]|10[1-9])'
"$TACH" --force -F '%T' -b 64k -i 0.01 <"$WORK/data" 2>"$WORK/err" >/dev/null
tr '\r' '\n' <"$WORK/err" | grep -o '[0-9-]*%' >"$WORK/pct"
lacks "%T from a redirected file: 0 to 100" "$WORK/pct" '^(-|[0-9]{4,}|[2-9][0-9][0-9]|1[1-9][0-9]|10[1-9])'

# JSON for an empty file: its size, 0, is known from the first object.
: >"$WORK/empty"
"$TACH" --format json -f "$WORK/empty" 2>"$WORK/json" >/dev/null
check "JSON, empty file: objects written" [ -s "$WORK/json" ]
lacks "JSON, empty file: never a null size" "$WORK/json" '"size":null'
check "JSON, empty file: the last is 100%" sh -c \
    "tail -n 1 '$WORK/json' | grep -q '\"size\":0,\"percent\":100.00'"

# -n: the last line is the real percentage and never above 100 (dialog
# --gauge reads it), even past a -l that was too small.
head -c 100 "$WORK/data" | "$TACH" -n -l 50 2>"$WORK/n" >/dev/null
check "-n past -l: ends at 100" [ "$(tail -n 1 "$WORK/n")" = 100 ]
lacks "-n past -l: never above 100" "$WORK/n" '^([2-9][0-9][0-9]|1[0-9][1-9]|1[1-9][0-9]|[0-9]{4,})$'
head -c 100 "$WORK/data" | "$TACH" -n -l 200 2>"$WORK/n" >/dev/null
check "-n short input: ends at its real 50" [ "$(tail -n 1 "$WORK/n")" = 50 ]

# -z over many files: each compressed file is closed when its
# decompressor is done, so 100 files fit in 40 descriptors.
if command -v gzip >/dev/null; then
	i=0
	set --
	while [ $i -lt 100 ]; do
		printf 'file %d\n' $i | gzip -c >"$WORK/z$i.gz"
		set -- "$@" -f "$WORK/z$i.gz"
		i=$((i + 1))
	done
	(ulimit -n 40 && "$TACH" -q -z "$@" >"$WORK/out" 2>"$WORK/err")
	check "-z, 100 files under ulimit -n 40: exit 0" [ $? -eq 0 ]
	check "-z, 100 files: every one decompressed" \
	    [ "$(wc -l <"$WORK/out")" -eq 100 ]
	check "-z, 100 files: in order" sh -c \
	    "tail -n 1 '$WORK/out' | grep -qx 'file 99'"
	empty "$WORK/err" || fail "-z, 100 files: a message ($(head -n 1 "$WORK/err"))"

	# a decompressor that fails is named with its status
	head -c 1000 "$WORK/data" | gzip -c | head -c 500 >"$WORK/cut.gz"
	"$TACH" -q -z -f "$WORK/cut.gz" >/dev/null 2>"$WORK/err"
	check "failing decompressor: exit 1 ($?)" [ $? -eq 1 ]
	check "failing decompressor: named, with its status" grep -qF \
	    "tach: gzip -dc (reading $WORK/cut.gz) exited with status 1" "$WORK/err"
fi
if command -v lz4 >/dev/null; then
	# lz4 fails on trailing bytes without a word of its own
	{ printf x | lz4 -c; printf 'trailing'; } >"$WORK/t.lz4" 2>/dev/null
	"$TACH" -q -z -f "$WORK/t.lz4" >/dev/null 2>"$WORK/err"
	status=$?
	if [ $status -ne 0 ]; then
		check "silent lz4: named" grep -q "tach: lz4 -dc .* exited with status $status" "$WORK/err"
	fi
fi

# The magic is read until it is whole: an EINTR on its read is retried.
if command -v xz >/dev/null && command -v strace >/dev/null; then
	xz -c <"$WORK/data" >"$WORK/data.xz"
	strace -qq -o "$WORK/trace" -e trace=pread64 "$TACH" -q -z \
	    <"$WORK/data.xz" >/dev/null
	n=$(awk '/, 6, 0\) += 6$/ { print NR; exit }' "$WORK/trace")
	strace -qq -o /dev/null -e inject=pread64:error=EINTR:when=${n:-1} \
	    "$TACH" -q -z <"$WORK/data.xz" >"$WORK/out" 2>"$WORK/err"
	check "magic read interrupted: exit 0 ($?)" [ $? -eq 0 ]
	check "magic read interrupted: xz still chosen, exact" \
	    cmp -s "$WORK/data" "$WORK/out"
fi

# A command that dies of SIGSEGV: tach dies of it too, without dumping
# a core of its own (RLIMIT_CORE set to 0 first).
if command -v strace >/dev/null; then
	# (in a shell of its own, whose "Segmentation fault" is not ours)
	sh -c 'ASAN_OPTIONS=detect_leaks=0 strace -qq -f -o "$1" -e trace=prlimit64,setrlimit \
	    -e signal=none "$2" -q sh -c "kill -SEGV \$\$" </dev/null
	    echo $? >"$1.status"' sh "$WORK/trace" "$TACH" 2>/dev/null
	check "child's SIGSEGV: tach dies of it" \
	    [ "$(cat "$WORK/trace.status")" -eq 139 ]
	check "child's SIGSEGV: no core of tach's own" grep -q \
	    'RLIMIT_CORE, *{rlim_cur=0, rlim_max=0}' "$WORK/trace"
fi

# SIGALRM from outside, with nothing drawn: the copy goes on.
close_gate
(head -c 1000000 "$WORK/data"; gated; tail -c +1000001 "$WORK/data") |
    "$TACH" -q >"$WORK/out" 2>"$WORK/err" &
wait_until 60 pgrep -f -- "$TACH -q\$" >/dev/null
pid=$(pgrep -n -f -- "$TACH -q\$")
check "SIGALRM: caught" wait_until 60 caught "$pid" ALRM
kill -ALRM "$pid"
open_gate
wait $!
check "SIGALRM: exit 0 ($?)" [ $? -eq 0 ]
check "SIGALRM: exact" cmp -s "$WORK/data" "$WORK/out"

[ "$(uname)" = Linux ] || done_testing
# Watch mode (-d) on Linux, against the helper's stepped reader.
objects() { grep -c "$1" "$WORK/json" 2>/dev/null || true; }
has() { [ "$(objects "$1")" -ge 1 ]; }

# A file that grows while it is read has no known end: position and rate.
random "$WORK/grow" 1000000
start_reader
say "open $WORK/grow"
fd=$(answer)
say "read $fd 500000"
: >"$WORK/json"
"$TACH" -d "$reader" --format json -i 0.05 2>"$WORK/json" 3>&- &
watcher=$!
check "growing: 50% while it keeps its size" wait_until 60 has '"percent":50.00'
head -c 1000000 "$WORK/data" >>"$WORK/grow"
check "growing: then no known end" wait_until 60 has '"size":null'
say "read $fd 100"
check "growing: and no percentage after" wait_until 60 sh -c \
    "tail -n 1 '$WORK/json' | grep -q '\"bytes\":500100.*\"percent\":null'"
exec 3>&-
wait "$watcher"
wait "$reader"

# A file seen in one sample only, then read whole and closed before the
# next: --stats and JSON say it was not measured, not "0 bytes".
random "$WORK/quick" 1000000
start_reader
: >"$WORK/json"
"$TACH" -d "$reader" --stats --format json -i 5 2>"$WORK/json" 3>&- &
watcher=$!
say "open $WORK/quick"
fd=$(answer)
check "between samples: seen once" wait_until 60 has "quick"
say "read $fd 1000000"
say "close $fd"
check "between samples: --stats says so" wait_until 60 grep -q \
    "^{\"message\":\"fd $fd ($WORK/quick): read between samples, at 0 when seen: not measured\"}$" "$WORK/json"
check "between samples: the JSON says so" wait_until 60 has '"between_samples":true'
lacks "between samples: no \"0 bytes in\" line for it" "$WORK/json" "quick.*: 0 bytes in"
exec 3>&-
wait "$watcher"
wait "$reader"

# The last line of a copy that ends is within 1% of the truth: sampling
# speeds up near the end.  The copy: tach itself, paced, in small steps.
random "$WORK/ten" 10000000
"$TACH" -q -L 4m -b 16k -f "$WORK/ten" >/dev/null &
copier=$!
wait_until 60 sh -c "ls -l /proc/$copier/fd 2>/dev/null | grep -q '$WORK/ten'"
"$TACH" -d "$copier" --format json -i 0.5 2>"$WORK/json"
check "near the end: the watch ends with the copy ($?)" [ $? -eq 0 ]
wait "$copier"
last=$(grep '"path":"'"$WORK"'/ten"' "$WORK/json" | tail -n 1 |
    sed 's/.*"bytes":\([0-9]*\).*/\1/')
check "near the end: the last line at ${last:-?} of 10000000 (>= 99%)" \
    [ "${last:-0}" -ge 9900000 ]

# A process with no regular file or disk open says so, and is waited on.
sleep 600 </dev/null >/dev/null 2>&1 &
sleeper=$!
"$TACH" -d "$sleeper" --force -i 0.05 2>"$WORK/err" &
watcher=$!
check "no files: says so" wait_until 60 grep -q \
    "^tach: process $sleeper has no regular file or disk open: waiting for one$" "$WORK/err"
check "no files: keeps waiting" kill -0 "$watcher"
kill "$sleeper"
wait "$watcher"
check "no files: ends with the process (0)" [ $? -eq 0 ]
check "no files: said once" [ "$(grep -c 'has no regular file' "$WORK/err")" -eq 1 ]

# A PID that is reused: the watch ends with the process it watched, and
# never shows the newcomer's files.  In a PID namespace of its own,
# ns_last_pid makes the reuse happen at once; the watch is held stopped
# meanwhile so that it cannot see the PID free.  Then again with every
# start time the same (tests/procshim.c), as when the newcomer starts in
# the same clock tick: the start time cannot tell them apart there.
cat >"$WORK/reuse.sh" <<'EOF'
cd "$1" || exit 2
rm -f json	# the last run's would say "grow" before this watch does
sh -c 'exec 3<grow; exec sleep 600' & a=$!
until ls -l /proc/$a/fd 2>/dev/null | grep -q grow; do sleep 0.05; done
LD_PRELOAD=$2 PROCSHIM=same-tick "$TACH" -d $a --format json -i 0.05 2>json & w=$!
until grep -q grow json 2>/dev/null; do sleep 0.05; done
sh "$3" $w $a
kill $a; wait $a
echo $((a - 1)) >/proc/sys/kernel/ns_last_pid
sh -c 'exec 4<quick; exec sleep 600' & b=$!
until ls -l /proc/$b/fd 2>/dev/null | grep -q quick; do sleep 0.05; done
[ "$b" = "$a" ] || { echo "not reused: $a $b"; exit 3; }
kill -CONT $w
# a watch that took the newcomer for its process would wait on it
i=0
while kill -0 $w 2>/dev/null && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
kill $b
wait $w; echo "watch=$?"
EOF
reused() {
	TACH=$TACH unshare --pid --fork --mount-proc sh "$WORK/reuse.sh" \
	    "$WORK" "$2" "$(dirname "$0")/stop-between-looks" \
	    >"$WORK/reuse" 2>&1
	check "PID reuse$1: the PID was reused ($(cat "$WORK/reuse"))" \
	    grep -q "^watch=" "$WORK/reuse"
	check "PID reuse$1: the watch ends, 0" grep -qx "watch=0" "$WORK/reuse"
	check "PID reuse$1: as exited" sh -c \
	    "tail -n 1 '$WORK/json' | grep -q '\"result\":\"exited\"'"
	lacks "PID reuse$1: never the newcomer's file" "$WORK/json" quick
}
if command -v unshare >/dev/null &&
    unshare --pid --fork --mount-proc true 2>/dev/null; then
	reused "" ""
	if [ -n "${PROCSHIM_LIB:-}" ]; then
		reused " in one tick" "$PROCSHIM_LIB"
	fi
else
	echo "skipped: PID reuse (no PID namespace: unshare needs root)" >&2
fi

# Refused as root (a process in another namespace, say): the message
# names the system's rules, not another user.
if [ "$(id -u)" -eq 0 ] && command -v timeout >/dev/null; then
	timeout -s INT 2 "$TACH" -d 1 --format json -i 0.05 \
	    >/dev/null 2>"$WORK/err"
	if grep -q "may not be inspected" "$WORK/err"; then
		check "refused as root: not blamed on another user" grep -q \
		    "though tach may signal it: the system's rules forbid it" \
		    "$WORK/err"
	fi
fi

done_testing
