#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# The stream's own tools against tee, mbuffer, sha256sum, openssl and cp,
# in one run, alternating the candidates round by round, reporting
# medians (doc/PERFORMANCE.md, "Several outputs, a hash, tape blocks").
#
#   contrib/benchmark-stream.sh [-r ROUNDS] [-g GIB] [-o FILE] [-B BEFORE] [TACH]
#
# outputs: dd if=FILE bs=1M | T | dd of=/dev/null bs=1M, T = none,
#          tach -q (one output), tach -q -o /dev/null -o - (two),
#          tee /dev/null, mbuffer -q -m 64M -o /dev/null -o -, and four
#          outputs: tach -q -o /dev/null x3 -o -, tee /dev/null x3; with
#          -B, the earlier build's two and four beside them
# hash:    FILE (GIB of random bytes, in the page cache):
#          tach -q -f FILE --hash sha256 -o /dev/null, openssl dgst -sha256,
#          sha256sum; a copy with a hash: tach -f FILE --hash sha256 -o COPY
#          against cp FILE COPY && sha256sum COPY
# blocks:  cat FILE | T >/dev/null, T = tach -q --output-block 256k,
#          mbuffer -q -s 256k -m 64M, dd ibs=1M obs=256k, and tach and mbuffer
#          with a second output
# For each: the median wall time and the middle process's own CPU seconds.
set -eu

rounds=5
gib=1
needs="mbuffer openssl sha256sum tee /usr/bin/time bc"
. "$(dirname "$0")/benchmark-lib.sh"
timed="/usr/bin/time -f '%U %S' -o $work/time"

# measure GROUP NAME COMMAND: appends "GROUP NAME ns cpu".
measure() {
	local start end user=0 sys=0
	echo "0 0" >"$work/time"
	start=$(date +%s%N)
	bash -c "$3"
	end=$(date +%s%N)
	read -r user sys <"$work/time"
	echo "$1 $2 $((end - start)) $(echo "$user + $sys" | bc)" >>"$results"
	rm -f "$work/copy"
}

src=$work/src
head -c $((gib * 1073741824)) /dev/urandom >"$src"
cat "$src" >/dev/null	# into the page cache
feed="dd if=$src bs=1M status=none"
four="-o /dev/null -o /dev/null -o /dev/null -o -"
drain="dd of=/dev/null bs=1M status=none"

outputs=(bare tach-one tach-two tee mbuffer-two tach-four tee-four)
[ -z "$before" ] || outputs+=(before-two before-four)
hashes=(tach-hash openssl sha256sum tach-copy-hash cp-then-sha256sum)
blocks=(tach-block mbuffer-block dd-block tach-block-two mbuffer-block-two)
for round in $(seq "$rounds"); do
	k=$(( (round - 1) % ${#outputs[@]} ))
	for name in "${outputs[@]:k}" "${outputs[@]:0:k}"; do
		case $name in
		bare) mid= ;;
		tach-one) mid="| $timed $tach -q" ;;
		tach-two) mid="| $timed $tach -q -o /dev/null -o -" ;;
		tee) mid="| $timed tee /dev/null" ;;
		mbuffer-two) mid="| $timed mbuffer -q -m 64M -o /dev/null -o -" ;;
		tach-four) mid="| $timed $tach -q $four" ;;
		tee-four) mid="| $timed tee /dev/null /dev/null /dev/null" ;;
		before-two) mid="| $timed $before -q -o /dev/null -o -" ;;
		before-four) mid="| $timed $before -q $four" ;;
		esac
		measure outputs "$name" "$feed $mid | $drain"
	done
	k=$(( (round - 1) % ${#hashes[@]} ))
	for name in "${hashes[@]:k}" "${hashes[@]:0:k}"; do
		case $name in
		tach-hash) cmd="$timed $tach -q -f $src --hash sha256 -o /dev/null 2>/dev/null" ;;
		openssl) cmd="$timed openssl dgst -sha256 $src >/dev/null" ;;
		sha256sum) cmd="$timed sha256sum $src >/dev/null" ;;
		tach-copy-hash) cmd="$timed $tach -q -f $src --hash sha256 -o $work/copy 2>/dev/null" ;;
		cp-then-sha256sum) cmd="$timed sh -c 'cp $src $work/copy && sha256sum $work/copy >/dev/null'" ;;
		esac
		measure hash "$name" "$cmd"
	done
	k=$(( (round - 1) % ${#blocks[@]} ))
	for name in "${blocks[@]:k}" "${blocks[@]:0:k}"; do
		case $name in
		tach-block) mid="$timed $tach -q --output-block 256k" ;;
		mbuffer-block) mid="$timed mbuffer -q -s 256k -m 64M" ;;
		dd-block) mid="$timed dd ibs=1M obs=256k status=none" ;;
		tach-block-two) mid="$timed $tach -q --output-block 256k -o /dev/null -o -" ;;
		mbuffer-block-two) mid="$timed mbuffer -q -s 256k -m 64M -o /dev/null -o -" ;;
		esac
		measure blocks "$name" "cat $src | $mid >/dev/null"
	done
done

{
	echo "# $(date -u +%Y-%m-%d) $(uname -srm), $(nproc) cores, $rounds rounds of $gib GiB; $(mbuffer -V 2>&1 | head -n 1); $(openssl version)"
	echo
	echo "| run | candidate | median s | min–max s | vs first | own CPU s | CPU s/GiB |"
	echo "| --- | --- | ---: | ---: | ---: | ---: | ---: |"
	awk -v gib="$gib" "$awk_median$awk_keep"'
	{
		key = $1 SUBSEP $2
		keep(key, $3 / 1e9)
		if (!($1 in first)) first[$1] = key
		times[key] = times[key] " " $3 / 1e9
		cpus[key] = cpus[key] " " $4
	}
	END {
		for (i = 1; i <= count; i++) med[order[i]] = median(times[order[i]])
		for (i = 1; i <= count; i++) {
			split(order[i], k, SUBSEP)
			cpu = median(cpus[order[i]])
			printf "| %s | %s | %.2f | %.2f–%.2f | %.2f× | %s | %s |\n",
			    k[1], k[2], med[order[i]], lo[order[i]], hi[order[i]],
			    med[order[i]] / med[first[k[1]]],
			    k[2] == "bare" ? "" : sprintf("%.2f", cpu),
			    k[2] == "bare" ? "" : sprintf("%.2f", cpu / gib)
		}
	}' "$results"
} >&4
