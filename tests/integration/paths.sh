# SPDX-License-Identifier: BSD-2-Clause
# covers: every path operand (-P, -o, --log, -U, --buffer-file, -l @)
# checked by identity against the inputs, the output, stderr and each
# other, through every alias, before anything is made, replaced or
# removed; a second -o refused; the input pipe refused as the output.
. "$(dirname "$0")/lib.sh"

random "$WORK/data" 100000
cd "$WORK" || exit 1

# fresh: a, b and f hold the data again; nothing else is left
fresh() {
	rm -rf "$WORK/t"
	mkdir "$WORK/t"
	for n in a b f; do cp "$WORK/data" "$WORK/t/$n"; done
}
# refused WHAT MESSAGE TACH-ARGS...: exit 1, the message, every file kept
refused() {
	what=$1 message=$2
	shift 2
	(cd "$WORK/t" && "$TACH" -q "$@") 2>"$WORK/err" </dev/null
	status=$?
	check "$what: refused ($status)" [ $status -eq 1 ]
	check "…saying why" grep -qxF "tach: $message" "$WORK/err"
	for n in a b f; do
		check "…$n kept" cmp -s "$WORK/data" "$WORK/t/$n"
	done
}

fresh
refused "-P an -f" "-P f: is f, which it would replace" -P f -f f -o out
check "…no output made" [ ! -e "$WORK/t/out" ]
refused "-P the second -f" "-P b: is b, which it would replace" \
    -P b -f a -f b -o out
refused "-P -l @'s file" "-P f: is -l @f, which it would replace" \
    -P f -l @f -f a -o out
refused "-P the output" "-P out: is out, which it would replace" \
    -P out -f a -o out
ln "$WORK/t/f" "$WORK/t/hl"
refused "-P a hard link to an -f" "-P hl: is f, which it would replace" \
    -P hl -f f -o out
check "…the link kept" cmp -s "$WORK/data" "$WORK/t/hl"
ln -s f "$WORK/t/sl"
refused "-P an -f through a symlink" \
    "-P f: is sl, which it would replace" -P f -f sl -o out
exec 5<"$WORK/t/f"
refused "-P an -f through /dev/fd" \
    "-P f: is /dev/fd/5, which it would replace" -P f -f /dev/fd/5 -o out
exec 5<&-

# stdin, stdout and stderr are files too
(cd t && "$TACH" -q -P f <f >out 2>"$WORK/err")
check "-P stdin's file: refused ($?)" [ $? -eq 1 ]
check "…saying why" grep -qx "tach: -P f: is stdin, which it would replace" \
    "$WORK/err"
check "…f kept" cmp -s "$WORK/data" t/f
(cd t && "$TACH" -q -P f -f a >f 2>"$WORK/err")
check "-P stdout's file: refused ($?)" [ $? -eq 1 ]
check "…saying why" grep -qx "tach: -P f: is stdout, which it would replace" \
    "$WORK/err"
check "…nothing left in it" empty t/f
check "…the file there still" [ -f t/f ]
fresh
(cd t && "$TACH" -q -P f -f a -o out 2>f)
check "-P stderr's file: refused ($?)" [ $? -eq 1 ]
check "…saying why in it" grep -qx \
    "tach: -P f: is stderr, which it would replace" t/f
(cd t && "$TACH" -q -P f cat <a 2>"$WORK/err" >f)
check "-P cmd's stdout: refused ($?)" [ $? -eq 1 ]
check "…saying why" grep -qx "tach: -P f: is stdout, which it would replace" \
    "$WORK/err"
fresh

# names not made yet, made twice
refused "-P and -o, both new" "-P n: is n, which it would replace" \
    -P n -f a -o n
check "…neither made" [ ! -e t/n ]
ln -s ghost t/dangling
refused "-P and -o through a dangling symlink" \
    "-P ghost: is dangling, which it would replace" \
    -P ghost -f a -o dangling
check "…nothing made" [ ! -e t/ghost ]
refused "-U and --log" "-U n: is --log n too: give each a file of its own" \
    -U n --log n -f a -o out
refused "--buffer-file and -U" \
    "--buffer-file n: is -U n too: give each a file of its own" \
    -b 8M --buffer-file n -U n -f a -o out
refused "--log an -f" "--log b: is b, which it would corrupt" \
    --log b -f b -o out
refused "--log -l @'s file" "--log a: is -l @a, which it would corrupt" \
    --log a -l @a -f b -o out
refused "-o -l @'s file" "-o a: is -l @a too: give each a file of its own" \
    -o a -l @a -f b
check "…no store, log or buffer file made" [ ! -e t/n ]

# taken: one file read twice, /dev/null and a terminal shared, -U's
# directory and -l @'s
(cd t && "$TACH" -q -f a -f a -o out 2>"$WORK/err")
check "one -f twice: taken ($?)" [ $? -eq 0 ]
check "…exact" sh -c "cat '$WORK/data' '$WORK/data' | cmp -s - t/out"
"$TACH" -q -P "$WORK/t/pid" -f /dev/null -o /dev/null 2>"$WORK/err" \
    --log /dev/null
check "/dev/null as input, output and log: taken ($?)" [ $? -eq 0 ]
mkdir t/dir
"$TACH" -q -l @"$WORK/t/dir" -b 8M --buffer-file "$WORK/t/dir" -f t/a \
    -o t/out2
check "one directory for -l @ and --buffer-file: taken ($?)" [ $? -eq 0 ]
check "…exact" cmp -s "$WORK/data" t/out2

# -o given twice: two outputs, each checked as the one is (see
# stream_tools.sh); one of them an input refused before either is made
(cd t && "$TACH" -q -o x -o a -f a 2>"$WORK/err")
check "-o twice, the second an input: refused ($?)" [ $? -eq 1 ]
check "…saying why" grep -qx "tach: a: input file is output file" \
    "$WORK/err"
check "…neither made nor emptied" sh -c "[ ! -e t/x ] && [ -s t/a ]"

# the input pipe as the output: refused, never written into itself
head -c 1000 "$WORK/data" | { timeout 20 "$TACH" -q -o /dev/stdin \
    2>"$WORK/err"; echo $? >"$WORK/rc"; }
check "-o /dev/stdin on a pipe: refused ($(cat "$WORK/rc"))" \
    [ "$(cat "$WORK/rc")" -eq 1 ]
check "…saying why" grep -qx "tach: stdin: input file is output file" \
    "$WORK/err"
mkfifo t/fifo
exec 6<>t/fifo
timeout 20 "$TACH" -q -f t/fifo -o t/fifo 2>"$WORK/err"
check "-f and -o one FIFO: refused ($?)" [ $? -eq 1 ]
check "…saying why" grep -qx "tach: t/fifo: input file is output file" \
    "$WORK/err"
exec 6<&-

# -d and -P: the PID file still checked against stdout and stderr
(cd t && "$TACH" -d $$ --once -P f 2>"$WORK/err" >f)
check "-d -P stdout's file: refused ($?)" [ $? -eq 1 ]

done_testing
