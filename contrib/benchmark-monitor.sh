#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# A command's two sides metered: tach -M both against pv | cmd | pv, and
# its input alone (tach FILE cmd, as progress(1) runs) against pv | cmd,
# for a compressor slower than its pipes (xz -0) and a faster one (gzip
# -1), the candidates' order rotated round by round; the meters' own CPU
# time sampled with perf(1), by process name, medians reported
# (doc/PERFORMANCE.md, "Where it costs").
#
#   contrib/benchmark-monitor.sh [-r ROUNDS] [-g GIB] [-o FILE] [-B BEFORE] [TACH]
#
# The input is GIB/16 GiB (64 MiB by default) of base64 text, which the
# compressors take to about 75% (xz -0: about 7 MB/s out of it here).
# Needs perf and the right to sample a command (root, or
# kernel.perf_event_paranoid <= 1).
set -eu

rounds=3
gib=1
needs="perf pv xz gzip base64"
. "$(dirname "$0")/benchmark-lib.sh"

data=$work/data
head -c $((gib * 48 * 1048576)) /dev/urandom | base64 -w 76 |
    head -c $((gib * 64 * 1048576)) >"$data"
cat "$data" >/dev/null	# into the page cache
# a copy named apart, so that its samples are told from tach's
[ -z "$before" ] || { cp "$before" "$work/before"; before=$work/before; }

names=(tach-both pv-both tach-in pv-in)
[ -z "$before" ] || names+=(before-both)

# command_of NAME CMD: the pipeline, and the process name it is metered by.
command_of() {
	case $1 in
	tach-both) echo "tach $tach -q -M both -f $data $2 >/dev/null" ;;
	pv-both) echo "pv pv -q $data | $2 | pv -q >/dev/null" ;;
	tach-in) echo "tach $tach -q -f $data $2 >/dev/null" ;;
	pv-in) echo "pv pv -q $data | $2 >/dev/null" ;;
	before-both) echo "before $before -q -M both -f $data $2 >/dev/null" ;;
	esac
}

for round in $(seq "$rounds"); do
	k=$(( (round - 1) % ${#names[@]} ))
	for cmd in "xz -0" "gzip -1"; do
		for name in "${names[@]:k}" "${names[@]:0:k}"; do
			read -r comm line <<<"$(command_of "$name" "$cmd")"
			perf record -q -F 4000 -o "$work/perf.data" -- \
			    sh -c "$line" 2>/dev/null
			# samples of the meters' own processes, 4000 a CPU second
			samples=$(perf report -i "$work/perf.data" --stdio \
			    --sort comm -F sample,comm 2>/dev/null |
			    awk -v c="$comm" '$2 == c { n += $1 } END { print n + 0 }')
			echo "${cmd// /} $name $samples" >>"$results"
		done
	done
done

{
	echo "# $(date -u +%Y-%m-%d) $(uname -srm), $(nproc) cores, $rounds rounds of $((gib * 64)) MiB; $(pv --version | head -n 1); $(xz --version | head -n 1)"
	echo
	echo "| command | candidate | meters' CPU ms | min–max ms | vs pv on both sides |"
	echo "| --- | --- | ---: | ---: | ---: |"
	awk "$awk_median$awk_keep"'
	{
		key = $1 SUBSEP $2
		keep(key, $3 / 4)
		v[key] = v[key] " " $3 / 4
	}
	END {
		for (i = 1; i <= count; i++) med[order[i]] = median(v[order[i]])
		for (i = 1; i <= count; i++) {
			split(order[i], k, SUBSEP)
			m = med[order[i]]
			pv = med[k[1] SUBSEP "pv-both"]
			printf "| %s | %s | %.1f | %.1f–%.1f | %.2f× |\n", k[1], k[2],
			    m, lo[order[i]], hi[order[i]], (pv > 0 ? m / pv : 0)
		}
	}' "$results"
} >&4
