# SPDX-License-Identifier: BSD-2-Clause
# covers: watch by name, as the coreutils viewer does: -d NAME watches every
# process of that command name, a block each, -d alone the usual copy
# tools, --wait-for picks up new ones until ^C; --reading and --writing
# keep only the files open that way; JSON and -n say whose each line is.
. "$(dirname "$0")/lib.sh"

# the test reads /proc (and Linux's 15-byte names); tach itself does not
[ "$(uname)" = Linux ] || skip "this test reads Linux's /proc"
# A command name of this test's own: a copy of sleep.
name=tws$$
cp "$(command -v sleep)" "$WORK/$name"
printf 'a%.0s' $(seq 1 1000) >"$WORK/a"
: >"$WORK/b"
: >"$WORK/c"

# holding PIDVAR REDIRECTIONS: a process named $name holding the files.
holding() {
	sh -c "cd '$WORK' && exec $2 && exec './$name' 600" &
	_pid=$!
	eval "$1=$_pid"
	wait_until 60 sh -c "ls -l /proc/$_pid/fd 2>/dev/null | grep -q '$WORK/a'"
}
holding one '3<a 4>b 5<>c'
holding two '3<a'

: >"$WORK/json"
"$TACH" -d "$name" --format json -i 0.05 2>"$WORK/json" &
watcher=$!
check "both processes seen" wait_until 60 sh -c \
    "grep -q '\"pid\":$one,\"command\":\"$name\",\"fd\":3,\"path\":\"$WORK/a\"' '$WORK/json' &&
    grep -q '\"pid\":$two,\"command\":\"$name\",\"fd\":3,\"path\":\"$WORK/a\"' '$WORK/json'"
kill $one
wait $one
check "one exits: its lines end as exited" wait_until 60 grep -q \
    "\"pid\":$one,.*\"final\":true,\"result\":\"exited\"" "$WORK/json"
check "the watch goes on with the other" kill -0 $watcher
kill $two
wait $two
wait $watcher
check "the last exits: the watch ends, 0 ($?)" [ $? -eq 0 ]
check "the other's last line" grep -q \
    "\"pid\":$two,.*\"final\":true,\"result\":\"exited\"" "$WORK/json"

# A process of the name with no file open (rsync's helpers): nothing is
# said of it, while the one with a file is drawn.
holding one '3<a'
# every descriptor above 2 closed first (ctest's log would be inherited)
bash -c 'for fd in /proc/$$/fd/*; do fd=${fd##*/}
	[ "$fd" -gt 2 ] && eval "exec $fd>&-"; done; exec "$0" 600' \
    "$WORK/$name" </dev/null >/dev/null 2>&1 &
bare=$!
check "no file: the bare process runs" wait_until 60 sh -c \
    "[ \"\$(cat /proc/$bare/comm 2>/dev/null)\" = '$name' ]"
: >"$WORK/lines"
"$TACH" -d "$name" --force -w 200 -i 0.05 2>"$WORK/lines" &
watcher=$!
check "no file: the one with a file is drawn" \
    wait_until 60 grep -q "^$name $one: $WORK/a " "$WORK/lines"
lacks "no file: nothing said of the one without" "$WORK/lines" \
    "process $bare has no regular file"
kill $one $bare
wait $one $bare $watcher

# --reading and --writing, -n with the PID before the descriptor, and the
# plain lines naming the process.
holding one '3<a 4>b 5<>c'
for mode in "--reading 3 5 4" "--writing 4 5 3"; do
	set -- $mode
	"$TACH" -d "$name" "$1" -n -i 0.05 2>"$WORK/n" &
	watcher=$!
	check "$1: fds $2 and $3" wait_until 60 sh -c \
	    "grep -q '^$one $2 ' '$WORK/n' && grep -q '^$one $3 ' '$WORK/n'"
	kill -TERM $watcher
	wait $watcher
	lacks "$1: not fd $4" "$WORK/n" "^$one $4 "
done
: >"$WORK/lines"
"$TACH" -d "$name" --force -w 200 -i 0.05 2>"$WORK/lines" &
watcher=$!
check "the line names the process: $name PID: path" wait_until 60 \
    grep -q "^$name $one: $WORK/a " "$WORK/lines"
kill -TERM $watcher
wait $watcher
kill $one
wait $one

# No such process: exit 1 and says so; --wait-for waits, picks up a new
# one, outlives it, and ends on a signal (^C; a background job here, so
# SIGTERM).
"$TACH" -d "$name" 2>"$WORK/err"
check "none running: exit 1 ($?)" [ $? -eq 1 ]
check "none running: says so" grep -qF "tach: -d $name: no process of that name is running (--wait-for waits for one)" "$WORK/err"
: >"$WORK/json"
"$TACH" -d "$name" --wait-for --format json -i 0.05 2>"$WORK/json" &
watcher=$!
check "--wait-for: says it waits" wait_until 60 grep -qF \
    "{\"message\":\"-d: waiting for a process named $name\"}" "$WORK/json"
holding one '3<a'
check "--wait-for: the new one is picked up" wait_until 60 grep -q \
    "\"pid\":$one,\"command\":\"$name\",\"fd\":3" "$WORK/json"
kill $one
wait $one
check "--wait-for: its end is told" wait_until 60 grep -q \
    "\"pid\":$one,.*\"result\":\"exited\"" "$WORK/json"
check "--wait-for: and the watch goes on" kill -0 $watcher
holding two '3<a'
check "--wait-for: another is picked up" wait_until 60 grep -q \
    "\"pid\":$two,\"command\":\"$name\"" "$WORK/json"
wait_until 60 caught $watcher TERM
kill -TERM $watcher
wait $watcher
check "--wait-for: a signal ends it (143: $?)" [ $? -eq 143 ]
kill $two
wait $two

# -d alone: the usual copy tools, a cp among them.
mkdir "$WORK/bin"
cp "$(command -v sleep)" "$WORK/bin/cp"
sh -c "cd '$WORK' && exec 3<a && exec ./bin/cp 600" &
cpid=$!
wait_until 60 sh -c "ls -l /proc/$cpid/fd 2>/dev/null | grep -q '$WORK/a'"
: >"$WORK/json"
"$TACH" -d --format json -i 0.05 2>"$WORK/json" &
watcher=$!
check "-d alone: a cp is watched" wait_until 60 grep -q \
    "\"pid\":$cpid,\"command\":\"cp\",\"fd\":3,\"path\":\"$WORK/a\"" "$WORK/json"
# …but an empty word, as `-d $(pgrep -nx cp)' gives once cp has ended,
# watches nothing: refused, as pv and progress refuse it (the cp that
# runs is not taken for it)
for arg in "" "--watchfd="; do
	if [ -z "$arg" ]; then
		"$TACH" -d "" --once 2>"$WORK/err" >/dev/null
	else
		"$TACH" "$arg" --once 2>"$WORK/err" >/dev/null
	fi
	check "-d '' ($arg): refused ($?)" [ $? -eq 1 ]
	check "…saying why" grep -qx \
	    "tach: -d: an empty process id or name (a process that has ended?)" \
	    "$WORK/err"
done
kill -TERM $watcher
wait $watcher
kill $cpid
wait $cpid
# a name longer than Linux keeps (15 bytes) still matches
long=tws$$-a-long-name
cp "$(command -v sleep)" "$WORK/$long"
sh -c "cd '$WORK' && exec 3<a && exec './$long' 600" &
lpid=$!
wait_until 60 sh -c "ls -l /proc/$lpid/fd 2>/dev/null | grep -q '$WORK/a'"
: >"$WORK/json"
"$TACH" -d "$long" --format json -i 0.05 2>"$WORK/json" &
watcher=$!
check "a long name: matched" wait_until 60 grep -q "\"pid\":$lpid," "$WORK/json"
kill -TERM $watcher
wait $watcher
kill $lpid
wait $lpid
# the options that do not go with it
"$TACH" --wait-for 2>"$WORK/err"
check "--wait-for without -d: refused" grep -qF "tach: --wait-for goes with -d" "$WORK/err"
"$TACH" -d 1 --wait-for 2>"$WORK/err"
check "--wait-for with a PID: refused" grep -qF "tach: --wait-for waits for processes by name" "$WORK/err"

done_testing
