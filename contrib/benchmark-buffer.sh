#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tach -b as a pipeline buffer, beside the bare pipe, mbuffer, buffer(1)
# and pv -B, in one run, the candidates alternated round by round, medians
# reported (doc/PERFORMANCE.md, "A buffer between a bursty producer and a
# stalling consumer").
#
#   contrib/benchmark-buffer.sh [-r ROUNDS] [-o FILE] [TACH]
#
# burst:  4 bursts of 64 MiB, 1 s apart, into a reader that takes 64 MiB/s
#         and never makes up a stall: the wall time
# stall:  a 200 MiB/s writer of 256 MiB into a reader that stalls 1 s
#         every 64 MiB: when the writer is released; stall-256M: the same
#         with -b/-m/-B 256M, a buffer that holds all of it
# held:   a writer flat out into a reader asleep for 3 s, -b/-m 256M: how
#         much the writer got rid of by 2.5 s, and tach's resident size
# cpu:    dd bs=1M (4 GiB) | T | dd bs=1M: T's own CPU seconds per GiB
#         (bare: cat); and the throughput of dd | T | dd at 64K and 1M,
#         tach -b 256M against plain tach, in MiB/s
set -eu

rounds=3
gib=4
needs="mbuffer buffer pv python3 dd pgrep /usr/bin/time"
. "$(dirname "$0")/benchmark-lib.sh"

# the buffers, by name; each reads stdin and writes stdout
declare -A tool=(
	[bare]="cat"
	[mbuffer]="mbuffer -q -m 80M"
	[buffer]="buffer -m 80m -s 512k"
	[pv]="pv -q -B 80M"
	[tach]="$tach -q -b 64M"
)
names="bare mbuffer buffer pv tach"
declare -A big=(
	[bare]="cat"
	[mbuffer]="mbuffer -q -m 256M"
	[buffer]="buffer -m 256m -s 512k"
	[pv]="pv -q -B 256M"
	[tach]="$tach -q -b 256M"
)

# a reader at RATE bytes a second that never makes up for waiting: after
# each read it sleeps for that read's share of a second
paced_reader='
import os, sys, time
rate = float(sys.argv[1]); stall = int(sys.argv[2]); pause = float(sys.argv[3])
got = since = 0
while True:
    b = os.read(0, 1 << 20)
    if not b:
        break
    got += len(b); since += len(b)
    time.sleep(len(b) / rate)
    if stall and since >= stall:
        since -= stall
        time.sleep(pause)
'
now() { date +%s.%N; }

burst() {
	local t0
	t0=$(now)
	{ for i in 1 2 3 4; do head -c 64M /dev/zero; sleep 1; done; } |
	    ${tool[$1]} | python3 -c "$paced_reader" 67108864 0 0
	awk -v a="$(now)" -v b="$t0" 'BEGIN { printf "%.2f\n", a - b }'
}

stall() {
	local t0 cmd=${2:-${tool[$1]}}
	t0=$(now)
	{ head -c 256M /dev/zero | pv -q -L 200m; now >"$work/released"; } |
	    $cmd | python3 -c "$paced_reader" 1e12 67108864 1
	awk -v a="$(cat "$work/released")" -v b="$t0" \
	    'BEGIN { printf "%.2f\n", a - b }'
}

# MiB the writer got rid of by 2.5 s (its wchar), and, for tach, its
# resident size then
held() {
	local pid rss=- wrote
	head -c 1G /dev/zero | ${big[$1]} | { sleep 3; cat >/dev/null; } &
	sleep 2.5
	wrote=$(awk '/^wchar/ { print int($2 / 1048576) }' \
	    /proc/"$(pgrep -n -x head)"/io)
	if [ "$1" = tach ] && pid=$(pgrep -n -f -- "-q -b 256M"); then
		rss=$(awk '/^VmRSS/ { print int($2 / 1024) }' \
		    /proc/"$pid"/status)
	fi
	echo "$wrote $rss"
	wait
}

# the middle tool's own CPU seconds a GiB
cpu() {
	dd if=/dev/zero bs=1M count=$((gib * 1024)) status=none |
	    /usr/bin/time -f '%U %S' -o "$work/time" $1 |
	    dd of=/dev/null bs=1M status=none
	awk -v g="$gib" '{ printf "%.3f\n", ($1 + $2) / g }' "$work/time"
}

# throughput in MiB/s of dd bs=BS | T | dd bs=BS
through() {
	local t0 t1 count=$((gib * 1073741824 / $1))
	t0=$(now)
	dd if=/dev/zero bs="$1" count="$count" status=none | $2 |
	    dd of=/dev/null bs="$1" status=none
	t1=$(now)
	awk -v g="$gib" -v a="$t1" -v b="$t0" \
	    'BEGIN { printf "%.0f\n", g * 1024 / (a - b) }'
}

for round in $(seq "$rounds"); do
	for n in $names; do
		echo "burst $n $(burst "$n")" >>"$results"
		echo "stall $n $(stall "$n")" >>"$results"
		echo "stall-256M $n $(stall "$n" "${big[$n]}")" >>"$results"
	done
	for n in bare mbuffer tach; do
		# the tool alone: time's own children are the pipeline
		echo "cpu $n $(cpu "${tool[$n]}")" >>"$results"
	done
	for bs in 65536 1048576; do
		echo "through-$bs tach $(through $bs "$tach -q")" >>"$results"
		echo "through-$bs tach-b $(through $bs "$tach -q -b 256M")" \
		    >>"$results"
	done
done
for n in $names; do
	echo "held $n $(held "$n")" >>"$results"
done

awk "$awk_median"'
{ key = $1 " " $2; v[key] = v[key] " " $3; if ($4 != "" && $4 != "-") r[key] = $4 }
END {
	for (k in v) {
		m = median(v[k])
		printf "%-22s %10.2f%s\n", k, m, (k in r) ? "  rss " r[k] " MiB" : ""
	}
}' "$results" | sort >&4
