# SPDX-License-Identifier: BSD-2-Clause
# covers: -d PID --pipeline: the stages joined to PID by pipes, upstream
# first, in JSON and on a line each; their bytes, their shares of time,
# the one that holds the others back named (xz's CPU, a producer and a
# reader held to a rate, tach itself among the stages), the first
# stage's file giving every stage its percentage; --once; each stage's
# last object as it ends; a stage that joins later (xargs's child);
# another user's process never followed; a PID reused by a new process
# not taken for the stage that had it; what is refused.
. "$(dirname "$0")/lib.sh"
[ "$(uname)" = Linux ] || skip "--pipeline reads /proc (Linux)"
need xz gzip

random "$WORK/big" 30000000

three() { execd "$1" 3; }
# known FILE N: N looks (per stage 0) with the bottleneck known
known() { [ "$(grep -c '^{"stage":0,.*"bottleneck":[tf]' "$1")" -ge "$2" ]; }
# named FILE STAGE: how many of the first 10 known looks name STAGE
named() {
	grep '"bottleneck":true' "$1" | head -n 10 |
	    grep -c "^{\"stage\":$2,"
}

# run NAME SLOW PIPELINE: the pipeline run by sh, watched from its middle
# stage; the bottleneck named STAGE SLOW in at least 9 of 10 looks
run() {
	name=$1 slow=$2
	sh -c "$3" &
	runner=$!
	wait_until 60 three "$runner"
	set -- $(stages "$runner")
	first=$1 middle=$2 last=$3
	: >"$WORK/json"
	"$TACH" -d "$middle" --pipeline --format json -i 0.2 2>"$WORK/json" &
	watcher=$!
	check "$name: ten looks with the bottleneck known" \
	    wait_until 120 known "$WORK/json" 10
	check "$name: the stages in order, upstream first" sh -c \
	    'grep -q "^{\"stage\":0,\"pid\":$2," "$1" &&
	     grep -q "^{\"stage\":1,\"pid\":$3," "$1" &&
	     grep -q "^{\"stage\":2,\"pid\":$4," "$1"' \
	    sh "$WORK/json" "$first" "$middle" "$last"
	n=$(named "$WORK/json" "$slow")
	check "$name: stage $slow named the bottleneck in $n of 10 looks" \
	    [ "$n" -ge 9 ]
	check "$name: one bottleneck a look" sh -c \
	    '[ "$(grep -c "\"bottleneck\":true" "$1")" -eq \
	       "$(grep -c "^{\"stage\":0,.*\"bottleneck\":[tf]" "$1")" ]' \
	    sh "$WORK/json"
	kill "$first" "$middle" "$last" 2>/dev/null
	wait "$runner" 2>/dev/null
	wait "$watcher"
	check "$name: the watch ends with the stages, 0 ($?)" [ $? -eq 0 ]
	for stage in 0 1 2; do
		check "$name: stage $stage's last object says it exited" \
		    grep -q "^{\"stage\":$stage,.*\"final\":true,\"result\":\"exited\"}" \
		    "$WORK/json"
	done
}

run "xz at work" 1 "cat '$WORK/big' | xz -6 -T1 | cat >/dev/null"
check "the first stage's file: every stage's percentage" grep -q \
    '^{"stage":2,.*"size":30000000,"percent":[0-9.]*,' "$WORK/json"
check "…its bytes in and out, and their ratio" grep -q \
    '^{"stage":1,.*"bytes_in":[1-9][0-9]*,"bytes_out":[1-9][0-9]*,.*"ratio":[0-9.]*,"working":[0-9.]*' \
    "$WORK/json"
run "a producer held to 4 MB/s (tach itself)" 0 \
    "'$TACH' -q -L 4m <'$WORK/big' | gzip -1 | cat >/dev/null"
run "a reader held to 4 MB/s" 2 \
    "cat '$WORK/big' | gzip -1 | '$TACH' -q -L 4m >/dev/null"

# --once: one look at the stages, their bytes; shares need a window
sh -c "cat '$WORK/big' | xz -6 -T1 | cat >/dev/null" &
runner=$!
wait_until 60 three "$runner"
set -- $(stages "$runner")
"$TACH" -d "$2" --pipeline --once --format json 2>"$WORK/json"
check "--once: exit 0 ($?)" [ $? -eq 0 ]
check "--once: a line a stage" [ "$(grep -c '^{"stage":[012],' "$WORK/json")" -eq 3 ]
check "--once: no bottleneck from one look" grep -q \
    '^{"stage":1,.*"working":null,.*"bottleneck":null' "$WORK/json"
"$TACH" -d "$2" --pipeline --once --force -w 200 2>"$WORK/tty"
check "--once on a line: each stage named, with its PID" sh -c \
    'grep -q "0 cat $2 " "$1" && grep -q "1 xz $3 " "$1" && grep -q "2 cat $4 " "$1"' \
    sh "$WORK/tty" "$1" "$2" "$3"
kill "$1" "$2" "$3" 2>/dev/null
wait "$runner" 2>/dev/null

# -d on a command fed by a pipe and reading no file (cat f | xz): its
# line is the file the pipeline's first process reads, fd 0 its pipe.
sh -c "cat '$WORK/big' | xz -6 -T1 >/dev/null" &
runner=$!
two() { execd "$1" 2; }
wait_until 60 two "$runner"
set -- $(stages "$runner")
moved() {
	"$TACH" -d "$2" --once --format json 2>"$WORK/json"
	grep -q "^{\"pid\":$2,\"fd\":0,\"path\":\"$WORK/big\",\"fed_by\":$1,.*\"bytes\":[1-9][0-9]*,.*\"size\":30000000,\"percent\":[0-9.]*," \
	    "$WORK/json"
}
check "a pipe-fed command: the pipeline's file, its size and percentage" \
    wait_until 60 moved "$1" "$2"
"$TACH" -d "$2" --once --force -w 200 2>"$WORK/tty"
check "…on its line, whose stdin it is" grep -q \
    "stdin from $1: $WORK/big .*%" "$WORK/tty"
kill "$1" "$2" 2>/dev/null
wait "$runner" 2>/dev/null

# A stage that joins later: xargs's child writes into the same pipe as
# xargs, and is followed as a stage of its own.
# comms SH COMMANDS: sh's children are these commands now
comms() {
	sh=$1
	shift
	[ "$(for pid in $(stages "$sh"); do cat "/proc/$pid/comm"; done |
	    tr '\n' ' ')" = "$* " ]
}
close_gate
sh -c "($GATED; echo '$WORK/big') | xargs cat | gzip -1 | cat >/dev/null" &
runner=$!
wait_until 60 comms "$runner" sh xargs gzip cat
set -- $(stages "$runner")
"$TACH" -d "$3" --pipeline --format json -i 0.2 2>"$WORK/json" &
watcher=$!
wait_until 60 grep -q "^{\"stage\":[0-9]*,\"pid\":$2,\"command\":\"xargs\"" \
    "$WORK/json"
open_gate
# xargs's child: cat, its parent xargs
joined() {
	for pid in $(cat "/proc/$2/task/$2/children" 2>/dev/null); do
		grep -q "^{\"stage\":[0-9]*,\"pid\":$pid,\"command\":\"cat\"" \
		    "$1" && return 0
	done
	return 1
}
check "a stage that joins (xargs's child): followed" \
    wait_until 60 joined "$WORK/json" "$2"
pkill -P "$2" 2>/dev/null
kill "$1" "$2" "$3" "$4" 2>/dev/null
wait "$runner" 2>/dev/null
wait "$watcher"

# Another user's process is never followed, nor anything beyond it.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null &&
    id nobody >/dev/null 2>&1; then
	sh -c "cat '$WORK/big' | setpriv --reuid=nobody --regid=nogroup \
	    --clear-groups gzip -1 | cat >/dev/null" &
	runner=$!
	wait_until 60 comms "$runner" cat gzip cat
	set -- $(stages "$runner")
	check "another user's stage: it is nobody's" \
	    [ "$(stat -c %U "/proc/$2")" = nobody ]
	"$TACH" -d "$1" --pipeline --once --format json 2>"$WORK/json"
	check "another user's stage: not followed" sh -c \
	    '! grep -q -e "\"pid\":$2," -e "\"pid\":$3," "$1" &&
	     grep -q "^{\"stage\":0,\"pid\":$4," "$1"' sh "$WORK/json" \
	    "$2" "$3" "$1"
	kill "$1" "$2" "$3" 2>/dev/null
	wait "$runner" 2>/dev/null
fi

# A PID reused: the stage that had it ends, and a new process of the same
# name gets it between two looks; the watch says the old one exited and
# follows the new one as a stage of its own.  In a PID namespace of its
# own, where ns_last_pid can be set without touching the machine's.
if [ "$(id -u)" -eq 0 ] &&
    unshare --pid --fork --mount-proc true 2>/dev/null; then
	mkfifo "$WORK/f1" "$WORK/f2" "$WORK/f3"
	cat >"$WORK/reuse.sh" <<'EOS'
# In a PID namespace of its own: stage x (cat) ends while the watch is
# stopped, and a new cat of the same pipeline is given x's PID
# (ns_last_pid) before the watch looks again.  Builtins only where a
# fork would take that PID.  $3: tests/integration/stop-between-looks.
T=$1 W=$2
sh -c "(cat '$W/f1'; read x <'$W/f2'; cat '$W/f3'; true) | gzip -1 | cat >/dev/null" &
until read -r top </proc/$!/task/$!/children; [ -n "$top" ]; do :; done
sub=${top%% *}
until read -r x </proc/$sub/task/$sub/children; [ -n "$x" ]; do :; done
x=${x% }
# cat, not yet the subshell's copy: seen before its exec, the stage would
# be the shell's, and end as it became cat
until read -r c </proc/$x/comm; [ "$c" = cat ]; do :; done
echo "$x" >"$W/x"
"$T" -d "$x" --pipeline --format json -i 0.1 2>"$W/json" &
watch=$!
until grep -q "^{\"stage\":[0-9]*,\"pid\":$x,\"command\":\"cat\"" \
    "$W/json"; do
	sleep 0.05
done
sh "$3" $watch $x
echo end >"$W/f1"
while [ -e /proc/$x ]; do :; done
echo $((x - 1)) >/proc/sys/kernel/ns_last_pid
echo go >"$W/f2"
until read -r y </proc/$sub/task/$sub/children; [ -n "$y" ]; do :; done
[ "${y% }" = "$x" ] || { echo "reuse: the new cat is ${y% }, not $x"; exit 1; }
# cat already: its fork, still the shell, would end the stage by its name
until read -r c </proc/$x/comm; [ "$c" = cat ]; do :; done
kill -CONT $watch
until grep -q "\"pid\":$x,.*\"final\":true,\"result\":\"exited\"}" "$W/json"; do
	sleep 0.05
done
# the new cat seen as a stage after the old one's end
until sed -n "/\"pid\":$x,.*\"result\":\"exited\"}/,\$p" "$W/json" |
    grep -q "\"pid\":$x,\"command\":\"cat\",.*\"final\":false"; do
	sleep 0.05
done
echo data >"$W/f3"
wait $watch
EOS
	timeout -s KILL 120 unshare --kill-child --pid --fork --mount-proc \
	    sh "$WORK/reuse.sh" "$TACH" "$WORK" \
	    "$(dirname "$0")/stop-between-looks" >"$WORK/out" 2>&1
	rc=$?
	check "a PID reused: the run ($rc): $(cat "$WORK/out")" [ $rc -eq 0 ]
	x=$(cat "$WORK/x" 2>/dev/null)
	check "…the old stage exited, the new one's end told apart" [ \
	    "$(grep -c "^{\"stage\":[0-9]*,\"pid\":${x:-0},\"command\":\"cat\",.*\"final\":true,\"result\":\"exited\"}" \
	    "$WORK/json")" -eq 2 ]
fi

# What is refused.
refused() {
	"$TACH" "$@" 2>"$WORK/err" </dev/null
	[ $? -eq 1 ] && grep -q -e "$EXPECT" "$WORK/err"
}
EXPECT="follows the pipes of one process: -d PID"
check "--pipeline without -d PID" refused -d cp --pipeline
check "--pipeline with two -d" refused -d 1 -d 2 --pipeline
check "--pipeline with -d PID:FD" refused -d "$$:1" --pipeline
EXPECT="--pipeline goes with -d"
check "--pipeline alone" refused --pipeline
EXPECT="not with --wait-for"
check "--pipeline --wait-for" refused -d 1 --pipeline --wait-for
EXPECT="no such process"
check "--pipeline on a process gone" refused -d 999999999 --pipeline

done_testing
