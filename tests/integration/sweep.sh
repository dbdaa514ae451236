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
# each interval row, and the last partial interval up to the final row
rows=$(($(grep -c ',0$' "$WORK/log.csv") + 1))
check "-l: its intervals counted ($rows)" \
    grep -Eq "^$rows intervals over [0-9.]+ s, 3000000 bytes, average [0-9.]+ MiB/s$" \
    "$WORK/out"
check "-l: the rate's median" \
    grep -Eq '^rate MiB/s: median [0-9.]+, min [0-9.]+, max [0-9.]+, stddev [0-9.]+$' \
    "$WORK/out"
check "-l: the rate and the fill drawn" \
    [ "$(grep -c '<polyline' "$WORK/log.svg")" -eq 2 ]
check "-l: SVG closed" grep -q '^</svg>$' "$WORK/log.svg"
check "-l: gnuplot reads the intervals it is given" sh -c "
    grep -q '^plot \"log.gp.dat\"' '$WORK/log.gp' &&
    [ \$(grep -c . '$WORK/log.gp.dat') -eq \$(($rows * 2)) ]"
"$sweep" -l "$WORK/out" 2>"$WORK/err"
check "-l: not a log, refused ($?)" [ $? -eq 1 ]

head="elapsed,bytes,lines,rate,average,size,percent,eta,buffered,rate_in,final"
# xs SVG CLASS: the x of every point of the polylines of CLASS, in order
xs() {
	grep "<polyline class=\"$2\"" "$1" | sed 's/.*points="//; s/".*//' |
	    tr ' ' '\n' | grep , | cut -d, -f1
}

# Past 2 GiB: totals whole (mawk's %d stops at 2147483647), round ticks,
# and the last interval, from 2 s to the final row's 2.5 s, drawn.
printf '%s\n' "$head" "1.000,3000000000,,1,1,,,,,,0" \
    "2.000,6000000000,,1,1,,,,,,0" "2.500,7500000000,,1,1,,,,,,1" \
    >"$WORK/big.csv"
"$sweep" -l "$WORK/big.csv" -o "$WORK/big.svg" >"$WORK/out"
check "-l past 2 GiB: the total whole" \
    grep -qx "3 intervals over 2.5 s, 7500000000 bytes, average 2861.0 MiB/s" \
    "$WORK/out"
check "-l past 2 GiB: each interval's rate from its bytes" \
    grep -qx "rate MiB/s: median 2861.0, min 2861.0, max 2861.0, stddev 0.0" \
    "$WORK/out"
check "-l: the rate axis in round steps" sh -c "
    grep 'text-anchor=\"end\"' '$WORK/big.svg' | sed 's/<[^>]*>//g' |
    tr '\n' ' ' | grep -qx '0 1000 2000 3000 '"
check "-l: the time axis in round steps" sh -c "
    grep 'text-anchor=\"middle\">[0-9.]*<' '$WORK/big.svg' |
    sed 's/<[^>]*>//g' | tr '\n' ' ' | grep -qx '0 0.5 1 1.5 2 2.5 '"
check "-l: the axes named, with units" sh -c "
    grep -q '>seconds since the start<' '$WORK/big.svg' &&
    grep -q '>rate (MiB/s)<' '$WORK/big.svg'"
check "-l: the last interval drawn to the final row" \
    [ "$(xs "$WORK/big.svg" rate | tail -n 1)" = 650.0 ]

# A stall: 2 intervals of 12.5 MiB in 0.2 s, then 13 moving nothing while
# the smoothed rate column still says something moves.
{
	echo "$head"
	echo "0.200,13107200,,65536000,65536000,,,,,,0"
	echo "0.400,26214400,,65536000,65536000,,,,,,0"
	i=3
	while [ $i -le 15 ]; do
		echo "$(awk -v i=$i 'BEGIN { printf "%.3f", i * 0.2 }'),26214400,,$((40000000 / i)),1,,,,,,0"
		i=$((i + 1))
	done
	echo "3.000,26214400,,1,1,,,,,,1"
} >"$WORK/stall.csv"
"$sweep" -l "$WORK/stall.csv" >"$WORK/out"
check "-l, a stall: every interval that moved nothing counted" \
    grep -qx "stalled intervals (no byte moved): 13 of 15" "$WORK/out"
check "-l, a stall: the median from the bytes, not the smoothed rate" \
    grep -q "^rate MiB/s: median 0.0, min 0.0, max 62.5," "$WORK/out"

# -U's log: the store, then the send, each from 0 s: two parts, drawn one
# after the other, never back in time.
printf '%s\n' "$head" "0.500,1000000,,1,1,,,,,,0" "1.000,2000000,,1,1,,,,,,1" \
    "0.500,500000,,1,1,2000000,25,1,,,0" "1.000,1500000,,1,1,2000000,75,1,,,0" \
    "1.200,2000000,,1,1,2000000,100,,,,1" >"$WORK/u.csv"
"$sweep" -l "$WORK/u.csv" -o "$WORK/u.svg" -g "$WORK/u.gp" >"$WORK/out"
check "-U's log: the store's part" grep -qx \
    "part 1 of 2: 2 intervals over 1.0 s, 2000000 bytes, average 1.9 MiB/s" \
    "$WORK/out"
check "-U's log: the send's part" grep -qx \
    "part 2 of 2: 3 intervals over 1.2 s, 2000000 bytes, average 1.6 MiB/s" \
    "$WORK/out"
check "-U's log: two lines drawn" \
    [ "$(grep -c '<polyline class="rate"' "$WORK/u.svg")" -eq 2 ]
check "-U's log: never back in time" sh -c "
    grep '<polyline class=\"rate\"' '$WORK/u.svg' |
    sed 's/.*points=\"//; s/\".*//' | tr ' ' '\n' | grep , | cut -d, -f1 |
    awk 'NR > 1 && \$1 < last { exit 1 } { last = \$1 }'"
check "-U's log: gnuplot's data in two blocks" \
    [ "$(grep -c '^$' "$WORK/u.gp.dat")" -eq 2 ]

done_testing
