#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# -d --pipeline's bottleneck over many looks (doc/PERFORMANCE.md, "A
# pipeline's slow stage"): four pipelines whose slow stage is known, each
# watched from its middle stage with --format json -i 0.5 for LOOKS looks
# once the shares are known; prints how many named the slow stage, and
# the slow stage's median working share (xz -T2's threads counted).  Then
# a pipe-fed xz's percentage against its first stage's offset over the
# file's size, and what watching five stages costs tach (its CPU a second
# of watching, drawing plain lines as on a terminal, over SECONDS).
#
#   contrib/pipeline-trials.sh [-n LOOKS] [-r RATE] [-s SECONDS] [TACH]
#   (under ../shared/tools/busy for a loaded machine)
#
# RATE (pv's -L, 20m unless told) holds the first and the last stage back:
# it must be below what gzip -1 does with the CPU it gets, or gzip is the
# slow stage (on two busy cores, gzip -1 did 15-20 MB/s).
set -eu

looks=10 rate=20m seconds=20
while getopts n:r:s: opt; do
	case $opt in
	n) looks=$OPTARG ;;
	r) rate=$OPTARG ;;
	s) seconds=$OPTARG ;;
	*) echo "usage: $0 [-n LOOKS] [-r RATE] [-s SECONDS] [TACH]" >&2
	   exit 2 ;;
	esac
done
shift $((OPTIND - 1))
tach=$(realpath "${1:-build/tach}")
for tool in xz gzip pv python3; do
	command -v "$tool" >/dev/null || { echo "$0: $tool is needed" >&2; exit 1; }
done
work=$(mktemp -d "${TMPDIR:-/var/tmp}/tach-pipes.XXXXXX")
trap 'rm -rf "$work"' EXIT
head -c 400M /dev/urandom >"$work/big"

# PID [N]: the N (3) stages under it (a job may be a subshell of its own)
three() {
	local p=$1 n=${2:-3} k
	for _ in 1 2 3; do
		k=$(echo $(cat "/proc/$p/task/$p/children" 2>/dev/null))
		case $(echo $k | wc -w) in
		"$n")	# each become its command: until then it may not
			# hold its pipes
			for c in $k; do
				[ "$(cat "/proc/$c/comm" 2>/dev/null)" != bash ] ||
				    return 1
			done
			echo "$k"; return 0 ;;
		1) p=$k ;;
		*) return 1 ;;
		esac
	done
	return 1
}

# PIPELINE N: PIPELINE run by bash, its pid in runner once its N stages
# have started, theirs in kids
start() {
	bash -c "$1" &
	runner=$!
	until kids=$(three "$runner" "$2"); do
		sleep 0.05
	done
}

# NAME SLOW PIPELINE
trial() {
	local name=$1 slow=$2 runner kids json=$work/json
	start "$3" 3
	set -- $kids
	"$tach" -d "$2" --pipeline --format json -i 0.5 2>"$json" &
	local watcher=$!
	until [ "$(grep -c '^{"stage":0,.*"bottleneck":[tf]' "$json")" -ge "$looks" ]; do
		sleep 0.2
	done
	kill "$1" "$2" "$3" 2>/dev/null || true
	wait "$runner" 2>/dev/null || true
	wait "$watcher" || true
	python3 - "$json" "$slow" "$looks" "$name" <<'PY'
import json, statistics, sys
path, slow, looks, name = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
named, work = [], []
for line in open(path):
    o = json.loads(line)
    if o.get("stage") is None or o["bottleneck"] is None or o["final"]:
        continue
    if o["bottleneck"]:
        named.append(o["stage"])
    if o["stage"] == slow:
        work.append(o["working"])
if not named:	# no look named a stage: show what the watch said
    sys.stderr.write("".join(open(path).readlines()[:4]))
named = named[:looks]
share = f"{statistics.median(work[:looks]):.2f}" if work else "-"
print(f"{name:<34} {sum(s == slow for s in named):>2} of {len(named)}"
      f"   working {share}   named {''.join(map(str, named))}")
PY
}

printf '%-34s %s\n' pipeline "slow stage named"
trial "cat | xz -6 -T1 | cat" 1 \
    "cat '$work/big' | xz -6 -T1 | cat >/dev/null"
trial "xz -6 -T2 as the slow stage" 1 \
    "cat '$work/big' | xz -6 -T2 | cat >/dev/null"
trial "producer at $rate/s | gzip -1 | cat" 0 \
    "pv -qL $rate '$work/big' | gzip -1 | cat >/dev/null"
trial "cat | gzip -1 | reader at $rate/s" 2 \
    "cat '$work/big' | gzip -1 | pv -qL $rate >/dev/null"

# A pipe-fed xz: its percentage (the watch's, from the pipeline's first
# file) against cat's offset in that file, read as each line comes.
start "cat '$work/big' | xz -1 -T1 >/dev/null" 2
set -- $kids
size=$(stat -c %s "$work/big")
worst=0
for fd in /proc/"$1"/fd/*; do
	[ "$(readlink "$fd")" = "$work/big" ] && break
done
while read -r line; do
	pos=$(awk '$1 == "pos:" { print $2 }' "/proc/$1/fdinfo/${fd##*/}" \
	    2>/dev/null) || break
	[ -n "$pos" ] || break
	worst=$(python3 -c 'import json, sys
o = json.loads(sys.argv[1]); p = o.get("percent")
d = abs(p - 100 * int(sys.argv[2]) / int(sys.argv[3])) if p is not None else 0
print(max(d, float(sys.argv[4])))' "$line" "$pos" "$size" "$worst")
done < <(timeout "$seconds" "$tach" -d "$2" --format json -i 0.5 2>&1 >/dev/null)
kill "$1" "$2" 2>/dev/null || true
wait "$runner" 2>/dev/null || true
printf "pipe-fed xz: percentage at most %.2f points from cat's offset\n" "$worst"

# Five stages watched for SECONDS: tach's CPU (utime + stime) a second.
start "cat '$work/big' | gzip -1 | cat | xz -0 -T1 | cat >/dev/null" 5
set -- $kids
"$tach" -d "$3" --pipeline --force -w 120 2>/dev/null &
watcher=$!
sleep "$seconds"
ticks=$(awk '{ print $14 + $15 }' "/proc/$watcher/stat")
kill "$watcher" "$@" 2>/dev/null || true
wait "$runner" "$watcher" 2>/dev/null || true
echo "five stages: tach $(python3 -c "print(round($ticks * 1000 / $(getconf CLK_TCK) / $seconds, 2))") ms of CPU a second"
