# SPDX-License-Identifier: BSD-2-Clause
# covers: -o FILE (pv 1.8): write to FILE, as the shell's > would, so that
# `sudo tach -f disk.img -o /dev/sdX` needs no redirection; a file that
# is also an input is refused before it is emptied.  -X (pv 1.8): read
# and count, and write nothing.
. "$(dirname "$0")/lib.sh"

random "$WORK/data" 5000000
out=$WORK/out

"$TACH" -q -f "$WORK/data" -o "$out"
check "-o: a new file, exact ($?)" cmp -s "$WORK/data" "$out"
head -c 9000000 /dev/zero >"$out"
cat "$WORK/data" | "$TACH" -q -o "$out" >"$WORK/stdout"
check "-o: a longer file emptied first, then exact" cmp -s "$WORK/data" "$out"
check "…stdout untouched" empty "$WORK/stdout"
"$TACH" -q -Y -o "$out" <"$WORK/data"
check "-o with -Y: exact" cmp -s "$WORK/data" "$out"
"$TACH" -q -b 8M -o "$out" <"$WORK/data"
check "-o with a buffer: exact" cmp -s "$WORK/data" "$out"
mkfifo "$WORK/fifo"
cat "$WORK/fifo" >"$out" &
reader=$!
"$TACH" -q -f "$WORK/data" -o "$WORK/fifo"
wait $reader
check "-o to a FIFO: exact" cmp -s "$WORK/data" "$out"
ln -s "$out" "$WORK/link"
"$TACH" -q -f "$WORK/data" -o "$WORK/link"
check "-o to a symlink: written where it points, as > would" \
    cmp -s "$WORK/data" "$out"

# An output that is an input: refused before it is emptied
cp "$WORK/data" "$WORK/same"
"$TACH" -q -f "$WORK/data" -f "$WORK/same" -o "$WORK/same" 2>"$WORK/err"
check "-o an -f: refused ($?)" [ $? -eq 1 ]
check "…saying why" grep -qx "tach: $WORK/same: input file is output file" \
    "$WORK/err"
check "…the file kept" cmp -s "$WORK/data" "$WORK/same"
"$TACH" -q -o "$WORK/same" <"$WORK/same" 2>"$WORK/err"
check "-o stdin's file: refused ($?)" [ $? -eq 1 ]
check "…the file kept" cmp -s "$WORK/data" "$WORK/same"
"$TACH" -q -o "$WORK/none/file" <"$WORK/data" 2>"$WORK/err"
check "-o in a missing directory: refused ($?)" [ $? -eq 1 ]
check "…saying why" grep -qx \
    "tach: -o $WORK/none/file: No such file or directory" "$WORK/err"
"$TACH" -q -o "$WORK" <"$WORK/data" 2>"$WORK/err"
check "-o a directory: refused ($?)" [ $? -eq 1 ]
"$TACH" -q -o "$out" cat <"$WORK/data" >"$WORK/stdout"
check "-o with a command: a copy of its input ($?)" cmp -s "$WORK/data" "$out"
check "…and its input exact" cmp -s "$WORK/data" "$WORK/stdout"
"$TACH" -q -o "" <"$WORK/data" 2>"$WORK/err"
check "-o with no name: refused ($?)" [ $? -eq 1 ]

# -X: counted, and nothing written
"$TACH" -X --format json <"$WORK/data" >"$out" 2>"$WORK/json"
check "-X: exit 0 ($?)" [ $? -eq 0 ]
check "…all of it counted" grep -q '"bytes":5000000,.*"final":true' \
    "$WORK/json"
check "…nothing on stdout" empty "$out"
cat "$WORK/data" | "$TACH" -X --line-mode --format json >"$out" \
    2>"$WORK/json"
check "-X in line mode: every line counted" grep -q \
    "\"lines\":$(wc -l <"$WORK/data"),.*\"final\":true" "$WORK/json"
check "…nothing on stdout" empty "$out"
"$TACH" -X -o "$out" <"$WORK/data" 2>"$WORK/err"
check "-X with -o: refused ($?)" [ $? -eq 1 ]
"$TACH" -X cat <"$WORK/data" 2>"$WORK/err"
check "-X with a command: refused ($?)" [ $? -eq 1 ]
"$TACH" -X -d $$ 2>"$WORK/err"
check "-X with -d: refused ($?)" [ $? -eq 1 ]
# progress(1) has neither
ln -s "$TACH" "$WORK/progress"
"$WORK/progress" -o "$out" cat </dev/null >/dev/null 2>&1
check "progress -o: refused ($?)" [ $? -ne 0 ]

done_testing
