# SPDX-License-Identifier: BSD-2-Clause
# covers: valgrind memcheck over a representative subset: each tier, command
# mode, -z, -x and the display.  Any error, definite or possible leak fails
# (pv's memory tests count both): valgrind exits 99 then, and each run's
# status is kept, since most run inside a pipeline.
. "$(dirname "$0")/lib.sh"
need valgrind
[ "${TACH_SANITIZE:-OFF}" = ON ] && skip "the sanitizer build cannot run under valgrind"

data=$WORK/data
out=$WORK/out
random "$data" 3000007
gzip -c <"$data" >"$data.gz"
vg() {
	valgrind -q --error-exitcode=99 --leak-check=full \
	    --errors-for-leak-kinds=definite,possible --trace-children=no "$TACH" "$@"
	echo $? >"$WORK/status"
}
# clean NAME [STATUS]: the last run exited STATUS (0), not valgrind's 99
clean() {
	check "memcheck $1: valgrind found nothing (status $(cat "$WORK/status"))" \
	    [ "$(cat "$WORK/status")" -eq "${2:-0}" ]
}

cat "$data" | vg -q | cat >"$out"
check "memcheck pipe->pipe" cmp -s "$data" "$out"
clean "pipe->pipe"
cat "$data" | vg -q --no-splice -b 4097 | cat >"$out"
check "memcheck read/write" cmp -s "$data" "$out"
clean "read/write"
cat "$data" | vg -q -b 8M | cat >"$out"
check "memcheck -b's buffer (a thread)" cmp -s "$data" "$out"
clean "-b's buffer"
vg -q <"$data" >"$out"
check "memcheck file->file" cmp -s "$data" "$out"
clean "file->file"
vg -q -f "$data" cat >"$out"
check "memcheck command mode" cmp -s "$data" "$out"
clean "command mode"
vg -q -zf "$data.gz" cat >"$out"
check "memcheck -z" cmp -s "$data" "$out"
clean "-z"
vg -q -x process <"$data" >"$out"
check "memcheck -x process" cmp -s "$data" "$out"
clean "-x process"
cat "$data.gz" | vg -q -z >"$out"
check "memcheck -z from a pipe" cmp -s "$data" "$out"
clean "-z from a pipe"
cat "$data" | TERM=xterm vg --force -i 0.01 -p 'x: ' 2>"$WORK/err" >"$out"
check "memcheck display" cmp -s "$data" "$out"
clean "display"
vg -b abc </dev/null 2>"$WORK/err"
clean "bad option exits 1" 1

done_testing
