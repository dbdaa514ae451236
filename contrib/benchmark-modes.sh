#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Line mode and --sync against pv, in one run, alternating the candidates
# round by round, reporting medians.
#
#   contrib/benchmark-modes.sh [-r ROUNDS] [-g GIB] [-o FILE] [TACH]
#
# Lines:  seq 1 50000000 | T | wc -l         T = none, pv -l -q, tach --line-mode -q
#         cat FILE | T | wc -l               (the same 50M lines from the page cache)
# Sync:   GIB of random bytes, from the page cache to a file in $TMPDIR:
#         tach -q, tach -q then sync FILE, tach -Y -q, pv -q then sync FILE,
#         dd bs=1M oflag=direct, dd bs=1M conv=fdatasync
# For each: the median wall time, the middle process's own CPU seconds, and
# for the writes the peak of Dirty+Writeback in /proc/meminfo while it ran.
set -eu

rounds=5
gib=2
needs="pv /usr/bin/time"
. "$(dirname "$0")/benchmark-lib.sh"
timed="/usr/bin/time -f '%U %S' -o $work/time"

# the peak of Dirty+Writeback, in MiB, until $work/stop appears
sample_dirty() {
	local peak=0 kb
	while [ ! -e "$work/stop" ]; do
		kb=$(awk '/^(Dirty|Writeback):/ { n += $2 } END { print n }' \
		    /proc/meminfo)
		[ "$kb" -gt "$peak" ] && peak=$kb
		sleep 0.02
	done
	echo $((peak / 1024)) >"$work/dirty"
}

# measure GROUP NAME COMMAND: appends "GROUP NAME ns cpu dirty".
measure() {
	local start end user=0 sys=0 dirty=-
	echo "0 0" >"$work/time"
	rm -f "$work/stop" "$work/dirty"
	case $1 in sync) sync; sample_dirty & ;; esac
	start=$(date +%s%N)
	bash -c "$3"
	end=$(date +%s%N)
	case $1 in sync)
		: >"$work/stop"; wait; dirty=$(cat "$work/dirty")
		rm -f "$work/out" ;;
	esac
	read -r user sys <"$work/time"
	echo "$1 $2 $((end - start)) $(echo "$user + $sys" | bc) $dirty" \
	    >>"$results"
}

seq 1 50000000 >"$work/lines"
head -c $((gib * 1073741824)) /dev/urandom >"$work/src"
cat "$work/src" "$work/lines" >/dev/null	# into the page cache

lines=(bare pv tach)
writes=(tach tach-sync-after tach-Y pv-sync-after dd-direct dd-fdatasync)
for round in $(seq "$rounds"); do
	k=$(( (round - 1) % ${#lines[@]} ))
	for name in "${lines[@]:k}" "${lines[@]:0:k}"; do
		case $name in
		bare) mid= ;;
		pv) mid="| $timed pv -l -q" ;;
		tach) mid="| $timed $tach --line-mode -q" ;;
		esac
		measure seq "$name" "seq 1 50000000 $mid | wc -l >/dev/null"
		measure file "$name" "cat $work/lines $mid | wc -l >/dev/null"
	done
	k=$(( (round - 1) % ${#writes[@]} ))
	for name in "${writes[@]:k}" "${writes[@]:0:k}"; do
		case $name in
		tach) cmd="$timed $tach -q <$work/src >$work/out" ;;
		tach-sync-after) cmd="$timed $tach -q <$work/src >$work/out && sync $work/out" ;;
		tach-Y) cmd="$timed $tach -q -Y <$work/src >$work/out" ;;
		pv-sync-after) cmd="$timed pv -q <$work/src >$work/out && sync $work/out" ;;
		dd-direct) cmd="$timed dd if=$work/src of=$work/out bs=1M oflag=direct 2>/dev/null" ;;
		dd-fdatasync) cmd="$timed dd if=$work/src of=$work/out bs=1M conv=fdatasync 2>/dev/null" ;;
		esac
		measure sync "$name" "$cmd"
	done
done

{
	echo "# $(date -u +%Y-%m-%d) $(uname -srm), $(nproc) cores, $rounds rounds; writes of $gib GiB to $(df --output=source "$work" | tail -n 1)"
	echo "# pv: $(pv --version | head -n 1)"
	echo
	echo "| run | candidate | median s | min–max s | vs pv | own CPU s | peak dirty MiB |"
	echo "| --- | --- | ---: | ---: | ---: | ---: | ---: |"
	awk "$awk_median"'
	{
		key = $1 SUBSEP $2
		if (!(key in seen)) { seen[key] = 1; order[++count] = key }
		s = $3 / 1e9
		times[key] = times[key] " " s
		cpus[key] = cpus[key] " " $4
		dirt[key] = dirt[key] " " $5
		if (!(key in lo) || s < lo[key]) lo[key] = s
		if (!(key in hi) || s > hi[key]) hi[key] = s
	}
	END {
		for (i = 1; i <= count; i++) med[order[i]] = median(times[order[i]])
		for (i = 1; i <= count; i++) {
			split(order[i], k, SUBSEP)
			pvkey = k[1] SUBSEP (k[1] == "sync" ? "pv-sync-after" : "pv")
			vs = pvkey in med && k[2] != "bare" ? sprintf("%.2f×", med[pvkey] / med[order[i]]) : ""
			cpu = k[2] == "bare" ? "" : sprintf("%.2f", median(cpus[order[i]]))
			d = k[1] == "sync" ? sprintf("%d", median(dirt[order[i]])) : ""
			printf "| %s | %s | %.2f | %.2f–%.2f | %s | %s | %s |\n",
			    k[1], k[2], med[order[i]], lo[order[i]], hi[order[i]], vs, cpu, d
		}
	}' "$results"
} >&4
