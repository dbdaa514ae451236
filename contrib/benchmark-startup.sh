#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Start-up: tach against pv, cat and dd on an empty input and on 1 MB, in
# one run, the candidates' order rotated round by round; each round is a
# hyperfine run of each (doc/PERFORMANCE.md, "Where it costs").
#
#   contrib/benchmark-startup.sh [-r ROUNDS] [-o FILE] [-B BEFORE] [TACH]
#
# empty: T </dev/null >/dev/null (hyperfine's own stdin and stdout)
# 1mb:   T <1 MB file >/dev/null, through sh -c (sh's start is in every
#        candidate's time, so the ratios understate the differences)
# For each: the median over rounds of hyperfine's mean, and its ratio to
# pv's in the same run.
set -eu

rounds=5
gib=1
needs="hyperfine pv dd"
. "$(dirname "$0")/benchmark-lib.sh"

head -c 1000000 /dev/urandom >"$work/mb"
names=(tach pv cat dd)
[ -z "$before" ] || names+=(tach-before)

# command NAME: the candidate's command line.
command_of() {
	case $1 in
	tach) echo "$tach -q" ;;
	tach-before) echo "$before -q" ;;
	pv) echo "pv -q" ;;
	cat) echo "cat" ;;
	dd) echo "dd status=none" ;;
	esac
}

for round in $(seq "$rounds"); do
	k=$(( (round - 1) % ${#names[@]} ))
	for name in "${names[@]:k}" "${names[@]:0:k}"; do
		cmd=$(command_of "$name")
		hyperfine -N --warmup 50 -r 300 --export-json "$work/e.json" \
		    "$cmd" >/dev/null 2>&1
		echo "empty $name $(sed -n 's/.*"mean": *\([0-9.e-]*\).*/\1/p' \
		    "$work/e.json" | head -1)" >>"$results"
		hyperfine -N --warmup 20 -r 200 --export-json "$work/m.json" \
		    "sh -c '$cmd <$work/mb >/dev/null'" >/dev/null 2>&1
		echo "1mb $name $(sed -n 's/.*"mean": *\([0-9.e-]*\).*/\1/p' \
		    "$work/m.json" | head -1)" >>"$results"
	done
done

{
	echo "| input | command | median ms | min–max ms | vs pv |"
	echo "| --- | --- | ---: | ---: | ---: |"
	awk "$awk_median $awk_keep"'
	{ key = $1 " " $2; v[key] = v[key] " " $3 * 1000; keep(key, $3 * 1000) }
	END {
		for (i = 1; i <= count; i++) {
			k = order[i]; split(k, p, " ")
			m[k] = median(v[k])
		}
		for (i = 1; i <= count; i++) {
			k = order[i]; split(k, p, " ")
			printf "| %s | %s | %.3f | %.3f–%.3f | %.2f× |\n", p[1], p[2],
			    m[k], lo[k], hi[k], m[k] / m[p[1] " pv"]
		}
	}' "$results" | sort -t'|' -k2,2 -s
} >&4
