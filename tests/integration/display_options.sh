# SPDX-License-Identifier: BSD-2-Clause
# covers: pv's display options: -k (--si) shows bytes in powers of 1000 and
# reads the sizes after it so; -u (--bar-style) fills the bar with blocks,
# "=>" or shades; -g (--gauge) draws the rate against the highest seen when
# no size is known.  The bytes pass as they are, whatever is drawn.
. "$(dirname "$0")/lib.sh"

random "$WORK/data" 5000000
out=$WORK/out
last() { tr '\r' '\n' <"$WORK/err" | grep . | tail -n 1; }

LC_ALL=C "$TACH" --force -k -l 5m <"$WORK/data" >"$out" 2>"$WORK/err"
check "-k: exact" cmp -s "$WORK/data" "$out"
check "…-l 5m after it is 5000000 bytes: 100% ($(last))" \
    sh -c 'tr "\r" "\n" <"$1" | grep . | tail -n 1 | grep -q "^100% .* 5.00 MB "' \
    sh "$WORK/err"
LC_ALL=C "$TACH" --force -l 5m -k <"$WORK/data" >"$out" 2>"$WORK/err"
check "…-l 5m before it is 5 MiB: 95% ($(last))" \
    sh -c 'tr "\r" "\n" <"$1" | grep . | tail -n 1 | grep -q "^ 95% .* 5.00 MB "' \
    sh "$WORK/err"
LC_ALL=C "$TACH" --force -l 5000000 <"$WORK/data" >/dev/null 2>"$WORK/err"
check "without it, MiB ($(last))" sh -c 'last=$(tr "\r" "\n" <"$1" |
    grep . | tail -n 1); case $last in *"4.77 MiB"*) ;; *) exit 1;; esac' \
    sh "$WORK/err"
"$TACH" -q -k -b 8M --stats <"$WORK/data" >"$out" 2>"$WORK/err"
check "-k --stats: the buffer's size in MB" \
    grep -q "buffer: at most .* of 8.00 MB" "$WORK/err"
check "…exact" cmp -s "$WORK/data" "$out"
"$TACH" -k -L 1M -q </dev/null 2>"$WORK/err"
check "-k with -L: taken ($?)" [ $? -eq 0 ]

# -u: on a UTF-8 terminal, blocks by default, "=>" with plain, shades
draw() {
	LC_ALL=C.UTF-8 "$TACH" --force -l 6m "$@" <"$WORK/data" >"$out" \
	    2>"$WORK/err"
}
# the last line's bar: whole blocks, then an eighth of one (a multibyte
# bracket expression: GNU grep in a UTF-8 locale, not the shell's case)
eighths() {
	tr '\r' '\n' <"$1" | grep . | tail -n 1 |
	    LC_ALL=C.UTF-8 grep -q '█[▏▎▍▌▋▊▉] *\]'
}
draw
check "block (the default): whole and eighth blocks" \
    eighths "$WORK/err"
draw -u plain
check "-u plain: \"=>\" ($(last))" \
    sh -c 'last=$(tr "\r" "\n" <"$1" | grep . | tail -n 1);
    case $last in *"=>"*"]"*) ;; *) exit 1;; esac
    case $last in *"█"*) exit 1;; esac' sh "$WORK/err"
check "…exact" cmp -s "$WORK/data" "$out"
draw -u shaded
check "-u shaded: blocks and a shade ($(last))" \
    sh -c 'last=$(tr "\r" "\n" <"$1" | grep . | tail -n 1);
    case $last in *"█▒"*) ;; *) exit 1;; esac' sh "$WORK/err"
draw --bar-style granular
check "-u granular: block's eighths" \
    eighths "$WORK/err"
LC_ALL=C "$TACH" --force -l 6m -u shaded <"$WORK/data" >/dev/null \
    2>"$WORK/err"
check "-u shaded without UTF-8: \"=>\"" \
    sh -c 'tr "\r" "\n" <"$1" | grep . | tail -n 1 | grep -q "=>"' \
    sh "$WORK/err"
"$TACH" -u round </dev/null >/dev/null 2>"$WORK/err"
check "-u round: refused ($?)" [ $? -eq 1 ]
check "…saying why" grep -qx \
    "tach: -u \`round': not plain, block, granular or shaded" "$WORK/err"

# -g: no size; the live lines carry a bar and a percentage of the top
# rate, which ends in an activity indicator's place without it
"$TACH" -q -L 4M <"$WORK/data" |
    LC_ALL=C "$TACH" --force -g -i 0.05 >"$out" 2>"$WORK/err"
check "-g: exact" cmp -s "$WORK/data" "$out"
check "…live lines with a percentage and a bar" \
    sh -c 'tr "\r" "\n" <"$1" | grep -q "^ *[0-9]*% \[=*>* *\] "' \
    sh "$WORK/err"
check "…no activity indicator" \
    sh -c '! tr "\r" "\n" <"$1" | grep -q "<=>"' sh "$WORK/err"
"$TACH" -q -L 4M <"$WORK/data" |
    LC_ALL=C "$TACH" --force -i 0.05 >"$out" 2>"$WORK/err"
check "without -g: the activity indicator" \
    sh -c 'tr "\r" "\n" <"$1" | grep -q "<=>"' sh "$WORK/err"

# -g with -d: a file being written has no size known, so a gauge
"$TACH" -q -L 1M -f "$WORK/data" -o "$WORK/written" &
writer=$!
wait_until 60 test -s "$WORK/written"
"$TACH" -d $writer:1 -g --force -w 100 -i 0.05 2>"$WORK/bar" &
watcher=$!
gauged() { tr '\r' '\n' <"$WORK/bar" | grep -q "% \[=*>* *\] "; }
check "-d -g: a written file's line has the gauge" wait_until 60 gauged
kill $watcher $writer
wait $watcher $writer
check "…no activity indicator" \
    sh -c '! tr "\r" "\n" <"$1" | grep -q "<=>"' sh "$WORK/bar"

# -m: the average of the last seconds while live, the run's at the end
# (2 MB at 8 MiB/s, then 2 MB at 1 MiB/s: over the last second about
# 1 MiB/s, over the run about 1.8)
head -c 4000000 /dev/zero >"$WORK/zeros"
average() { grep -v '"final":true' "$WORK/json" | tail -n 1 |
    sed 's/.*"average":\([0-9]*\).*/\1/'; }
final_average() { grep '"final":true' "$WORK/json" |
    sed 's/.*"average":\([0-9]*\).*/\1/'; }
fast_then_slow() {
	(head -c 2000000 | "$TACH" -q -L 8M; "$TACH" -q -L 1M) <"$WORK/zeros" |
	    "$TACH" --format json -i 0.1 "$@" >"$out" 2>"$WORK/json"
}
fast_then_slow -m 1
live=$(average)
end=$(final_average)
check "-m 1: the last live average of the last second ($live)" \
    [ "$live" -lt 1300000 ]
check "…the closing line's of the run ($end)" [ "$end" -gt 1500000 ]
check "…exact" cmp -s "$WORK/zeros" "$out"
fast_then_slow
live=$(average)
check "without it, the live average of the run ($live)" \
    [ "$live" -gt 1400000 ]

# progress(1) has none of them
ln -s "$TACH" "$WORK/progress"
for opt in -k -g "-u plain" "-m 5"; do
	# shellcheck disable=SC2086
	"$WORK/progress" $opt cat </dev/null >/dev/null 2>&1
	check "progress $opt: refused ($?)" [ $? -eq 1 ]
done

done_testing
