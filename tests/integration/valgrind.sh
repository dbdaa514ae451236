# valgrind memcheck over a representative subset: each tier, command mode,
# -z, and the display.  Any error or definite leak fails.
. "$(dirname "$0")/lib.sh"
need valgrind
[ "${TACH_SANITIZE:-OFF}" = ON ] && skip "the sanitizer build cannot run under valgrind"

data=$WORK/data
out=$WORK/out
random "$data" 3000007
gzip -c <"$data" >"$data.gz"
vg() {
	valgrind -q --error-exitcode=99 --leak-check=full \
	    --errors-for-leak-kinds=definite --trace-children=no "$TACH" "$@"
}

cat "$data" | vg -q | cat >"$out"
check "memcheck pipe->pipe" cmp -s "$data" "$out"
cat "$data" | vg -q --no-splice -b 4097 | cat >"$out"
check "memcheck read/write" cmp -s "$data" "$out"
vg -q <"$data" >"$out"
check "memcheck file->file" cmp -s "$data" "$out"
vg -q -f "$data" cat >"$out"
check "memcheck command mode" cmp -s "$data" "$out"
vg -q -zf "$data.gz" cat >"$out"
check "memcheck -z" cmp -s "$data" "$out"
cat "$data.gz" | vg -q -z >"$out"
check "memcheck -z from a pipe" cmp -s "$data" "$out"
cat "$data" | TERM=xterm vg --force -i 0.01 -p 'x: ' 2>"$WORK/err" >"$out"
check "memcheck display" cmp -s "$data" "$out"
vg -b abc </dev/null 2>"$WORK/err"
check "memcheck bad option exits 1" [ $? -eq 1 ]

done_testing
