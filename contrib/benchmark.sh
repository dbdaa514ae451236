#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Throughput benchmark: tach against the bare pipe, cat and pv, in one run,
# alternating the candidates round by round, reporting medians.
#
#   contrib/benchmark.sh [-r ROUNDS] [-g GIB] [-o FILE] [-B BEFORE] [TACH]
#
# Pipelines (X = 512, 4K, 64K, 1M):
#   dd if=/dev/zero bs=X | T | dd of=/dev/null bs=X   T = none, cat, pv -q, tach -q,
#                                                     tach -q --no-splice, and
#                                                     relay (contrib/splice-relay.c:
#                                                     splice and nothing else)
#   T <file >/dev/null, T <file | dd of=/dev/null bs=1M
#   the display on (in a pty) against tach -q
#   with -B, an earlier build (tach-before -q) in every round beside them,
#   so that a change's cost on the data's path is measured in one run
# For each: median throughput, its spread, the middle process's own CPU
# seconds per GiB (user+sys), the whole pipeline's CPU seconds per GiB and
# how many cores that kept busy, and the middle process's peak RSS.  Writes
# a Markdown report.
set -eu

rounds=7
gib=1
needs="pv script /usr/bin/time cc"
. "$(dirname "$0")/benchmark-lib.sh"
bytes=$((gib * 1073741824))

# filter NAME: the command line of a middle stage, or nothing.
filter() {
	case $1 in
	bare) ;;
	cat) echo "cat" ;;
	pv) echo "pv -q" ;;
	tach) echo "$tach -q" ;;
	tach-copy) echo "$tach -q --no-splice" ;;
	tach-display) echo "$tach" ;;
	tach-before) echo "$before -q" ;;
	relay) echo "$work/relay" ;;
	esac
}

# measure GROUP NAME PIPELINE: runs PIPELINE (with MIDDLE standing for the
# timed filter) and appends "GROUP NAME ns user sys rss all" to the
# results, all being the CPU seconds of every process in the pipeline.
measure() {
	local group=$1 name=$2 pipeline=$3 middle start end user sys rss all
	middle=$(filter "$name")
	if [ -n "$middle" ]; then
		middle="/usr/bin/time -f '%U %S %M' -o $work/time $middle"
	else
		echo "0 0 0" >"$work/time"
	fi
	[ "$name" = bare ] && pipeline=${pipeline//| MIDDLE |/|}
	pipeline=${pipeline//MIDDLE/$middle}
	start=$(date +%s%N)
	case $group in
	display-*)	# both candidates in a pty, so only the bar differs
		script -qec "$pipeline" /dev/null >/dev/null
		all=- ;;
	*)	# a shell's children's times include the pipeline's processes
		/usr/bin/time -f '%U %S' -o "$work/all" bash -c "$pipeline"
		all=$(awk '{ print $1 + $2 }' "$work/all") ;;
	esac
	end=$(date +%s%N)
	read -r user sys rss <"$work/time"
	echo "$group $name $(( end - start )) $user $sys $rss $all" >>"$results"
}

dd_count() {
	case $1 in 512) echo $((bytes / 512)) ;; 4K) echo $((bytes / 4096)) ;;
	64K) echo $((bytes / 65536)) ;; 1M) echo $((bytes / 1048576)) ;; esac
}

head -c "$bytes" /dev/urandom >"$work/file"
cat "$work/file" >/dev/null	# into the page cache

cc -O2 -o "$work/relay" "$(dirname "$0")/splice-relay.c"
names=(bare cat pv tach tach-copy relay)
[ -n "$before" ] && names+=(tach-before)
for round in $(seq "$rounds"); do
	# rotate the order each round, so no candidate always goes first
	k=$(( (round - 1) % ${#names[@]} ))
	order=("${names[@]:k}" "${names[@]:0:k}")
	for x in 512 4K 64K 1M; do
		for name in "${order[@]}"; do
			measure "zero-$x" "$name" "dd if=/dev/zero bs=$x count=$(dd_count $x) 2>/dev/null | MIDDLE | dd of=/dev/null bs=$x 2>/dev/null"
		done
	done
	for name in "${order[@]}"; do
		[ "$name" = bare ] || [ "$name" = relay ] && continue
		measure file-null "$name" "MIDDLE <$work/file >/dev/null"
		measure file-pipe "$name" "MIDDLE <$work/file | dd of=/dev/null bs=1M 2>/dev/null"
	done
	pair=(tach tach-display)
	for x in 4K 64K 1M; do
		for name in "${pair[@]:round % 2}" "${pair[@]:0:round % 2}"; do
			measure "display-$x" "$name" "dd if=/dev/zero bs=$x count=$(dd_count $x) 2>/dev/null | MIDDLE | dd of=/dev/null bs=$x 2>/dev/null"
		done
	done
done

{
	echo "# $(date -u +%Y-%m-%d) $(uname -srm), $(nproc) cores, $rounds rounds of $gib GiB"
	echo "# pv: $(pv --version | head -n 1)"
	echo
	echo "| pipeline | filter | median GiB/s | min–max GiB/s | vs pv | vs bare | CPU s/GiB | all CPU s/GiB | cores busy | peak RSS MiB |"
	echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
	awk -v gib="$gib" "$awk_median"'
	{
		key = $1 SUBSEP $2
		if (!(key in seen)) { seen[key] = 1; order[++count] = key }
		rate = gib * 1e9 / $3
		rates[key] = rates[key] " " rate
		cpus[key] = cpus[key] " " ($4 + $5) / gib
		rsss[key] = rsss[key] " " $6 / 1024
		if ($7 != "-") {
			alls[key] = alls[key] " " $7 / gib
			busy[key] = busy[key] " " $7 * 1e9 / $3
		}
		if (!(key in lo) || rate < lo[key]) lo[key] = rate
		if (!(key in hi) || rate > hi[key]) hi[key] = rate
	}
	END {
		for (i = 1; i <= count; i++) med[order[i]] = median(rates[order[i]])
		for (i = 1; i <= count; i++) {
			split(order[i], k, SUBSEP)
			pv = (k[1] SUBSEP "pv") in med ? sprintf("%.2f×", med[order[i]] / med[k[1] SUBSEP "pv"]) : ""
			bare = (k[1] SUBSEP "bare") in med ? sprintf("%.2f×", med[order[i]] / med[k[1] SUBSEP "bare"]) : ""
			if (k[2] == "tach-display")
				pv = sprintf("%.1f%% of -q", 100 * med[order[i]] / med[k[1] SUBSEP "tach"])
			cpu = k[2] == "bare" ? "" : sprintf("%.3f", median(cpus[order[i]]))
			rss = k[2] == "bare" ? "" : sprintf("%.1f", median(rsss[order[i]]))
			all = order[i] in alls ? sprintf("%.3f", median(alls[order[i]])) : ""
			cores = order[i] in busy ? sprintf("%.2f", median(busy[order[i]])) : ""
			printf "| %s | %s | %.2f | %.2f–%.2f | %s | %s | %s | %s | %s | %s |\n",
			    k[1], k[2], med[order[i]], lo[order[i]], hi[order[i]], pv, bare, cpu, all, cores, rss
		}
	}' "$results"
} >&4
