#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# -d --pipeline's bottleneck over many looks (doc/PERFORMANCE.md, "A
# pipeline's slow stage"): four pipelines whose slow stage is known, each
# watched from its middle stage with --format json -i 0.5 for LOOKS looks
# once the shares are known; prints how many named the slow stage, and
# the slow stage's median working share (xz -T2's threads counted).
#
#   contrib/pipeline-trials.sh [-n LOOKS] [TACH]
#   (under ../shared/tools/busy for a loaded machine)
set -eu

looks=10
while getopts n: opt; do
	case $opt in
	n) looks=$OPTARG ;;
	*) echo "usage: $0 [-n LOOKS] [TACH]" >&2; exit 2 ;;
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

# PID: the three stages under it (a job may be a subshell of its own)
three() {
	local p=$1 k
	for _ in 1 2 3; do
		k=$(echo $(cat "/proc/$p/task/$p/children" 2>/dev/null))
		case $(echo $k | wc -w) in
		3) echo "$k"; return 0 ;;
		1) p=$k ;;
		*) return 1 ;;
		esac
	done
	return 1
}

# NAME SLOW PIPELINE
trial() {
	local name=$1 slow=$2 runner kids json=$work/json
	bash -c "$3" &
	runner=$!
	until kids=$(three "$runner"); do
		sleep 0.05
	done
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
named = named[:looks]
print(f"{name:<34} {sum(s == slow for s in named):>2} of {len(named)}"
      f"   working {statistics.median(work[:looks]):.2f}")
PY
}

printf '%-34s %s\n' pipeline "slow stage named"
trial "cat | xz -6 -T1 | cat" 1 \
    "cat '$work/big' | xz -6 -T1 | cat >/dev/null"
trial "xz -6 -T2 as the slow stage" 1 \
    "cat '$work/big' | xz -6 -T2 | cat >/dev/null"
trial "producer at 20 MB/s | gzip -1 | cat" 0 \
    "pv -qL 20m '$work/big' | gzip -1 | cat >/dev/null"
trial "cat | gzip -1 | reader at 20 MB/s" 2 \
    "cat '$work/big' | gzip -1 | pv -qL 20m >/dev/null"
