# SPDX-License-Identifier: BSD-2-Clause
# covers: contrib/tach-sweep: the statistics against worked examples, and a
# small sweep with its table and plots.
. "$(dirname "$0")/lib.sh"
sweep=$SOURCE_DIR/contrib/tach-sweep

# 1..5 against 6..10: means 3 and 8, both s = sqrt(2.5) = 1.5811388, so the
# pooled s is 1.58114; t(8 df, 95%) = 2.306 and sqrt(1/5 + 1/5) = 0.632456
# make the interval 2.306 * 1.58114 * 0.632456 = 2.306: 5 +/- 2.306, and
# relative to 3, 166.667% +/- 76.8667%.
printf '%s\n' 1 2 3 4 5 >"$WORK/a"
printf '%s\n' 6 7 8 9 10 >"$WORK/b"
printf '%s\n' 3 4 5 6 7 >"$WORK/c"
"$sweep" -x "$WORK/a" "$WORK/b" >"$WORK/out"
check "t-test: significant" grep -qx "Difference at 95.0% confidence" "$WORK/out"
check "t-test: 5 +/- 2.306" grep -q "^	5 +/- 2.306$" "$WORK/out"
check "t-test: percent" grep -q "^	166.667% +/- 76.8667%$" "$WORK/out"
check "t-test: pooled s" grep -q "pooled s = 1.58114)" "$WORK/out"
check "t-test: summary row" grep -Eq "^x +5 +1 +5 +3 +3 +1.5811388$" "$WORK/out"
# 1..5 against 3..7: a difference of 2 is inside +/- 2.306.
"$sweep" -x "$WORK/a" "$WORK/c" >"$WORK/out"
check "t-test: not significant" grep -qx "No difference proven at 95.0% confidence" "$WORK/out"

# A small sweep: three sizes, a row each, and both plots.
"$sweep" -n 2 -s 16 -f 64k -u 256k -T "$TACH" -o "$WORK/plot.svg" \
    -g "$WORK/plot.gp" >"$WORK/out"
rows=$(grep -Ec "^ +(64K|128K|256K) +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+$" "$WORK/out")
check "sweep: a row for each size ($rows)" [ "$rows" -eq 3 ]
check "sweep: SVG with a point for each size" \
    [ "$(grep -c '<circle' "$WORK/plot.svg")" -eq 3 ]
check "sweep: SVG closed" grep -q '^</svg>$' "$WORK/plot.svg"
check "sweep: gnuplot data" [ "$(wc -l <"$WORK/plot.gp.dat")" -eq 3 ]

# Comparing two configurations.
"$sweep" -n 2 -s 16 -T "$TACH" -c "-b 64k" -c "-b 1m" >"$WORK/out"
check "compare: names both" grep -qx "x: -b 64k" "$WORK/out"
check "compare: a verdict" grep -Eq "^(Difference at|No difference proven at) 95.0% confidence$" "$WORK/out"

# -l: a --log file over time, a buffer's fill beside the rate
head -c 3000000 /dev/zero | "$TACH" -q -b 8M -L 2M -i 0.2 \
    --log "$WORK/log.csv" >/dev/null
"$sweep" -l "$WORK/log.csv" -o "$WORK/log.svg" -g "$WORK/log.gp" \
    >"$WORK/out"
rows=$(($(grep -c ',0$' "$WORK/log.csv")))
check "-l: its intervals counted ($rows)" \
    grep -Eq "^$rows intervals over [0-9.]+ s, 3000000 bytes, average [0-9.]+ MiB/s$" \
    "$WORK/out"
check "-l: the rate's median" \
    grep -Eq '^rate MiB/s: median [0-9.]+, min [0-9.]+, max [0-9.]+, stddev [0-9.]+$' \
    "$WORK/out"
check "-l: the rate and the fill drawn" \
    [ "$(grep -c '<polyline' "$WORK/log.svg")" -eq 2 ]
check "-l: SVG closed" grep -q '^</svg>$' "$WORK/log.svg"
check "-l: gnuplot reads the log" grep -q "^plot \"$WORK/log.csv\"" \
    "$WORK/log.gp"
"$sweep" -l "$WORK/out" 2>"$WORK/err"
check "-l: not a log, refused ($?)" [ $? -eq 1 ]

done_testing
