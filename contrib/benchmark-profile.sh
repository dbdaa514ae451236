#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Where the CPU of `dd | dd` and `dd | tach -q | dd` goes, by process and by
# kind of kernel work, sampled with perf(1) across all cores.
#
#   contrib/benchmark-profile.sh [-r ROUNDS] [-g GIB] [-b BLOCK] [-o FILE] [TACH]
#
# For each pipeline, the median over the rounds of the CPU seconds per GiB
# of the writing dd, tach and the reading dd, split into: copying bytes,
# allocating and freeing pages (with their memory-cgroup accounting),
# waiting for a pipe's lock, switching and waking tasks, entering and
# leaving system calls, and the rest (mostly the pipe's own code).
# Needs perf and the right to sample the whole system (root, or
# kernel.perf_event_paranoid <= 0).
set -eu

rounds=3
gib=1
block=4K
period=1000000		# a sample per millisecond of CPU, in ns
needs="perf"
args=()
while [ $# -gt 0 ]; do
	case $1 in
	-b) block=$2; shift 2 ;;
	*) args+=("$1"); shift ;;
	esac
done
set -- "${args[@]}"
. "$(dirname "$0")/benchmark-lib.sh"
count=$((gib * 1073741824 / $(numfmt --from=iec "$block")))

# classify: reads `perf script -F comm,pid,ip,sym` (call chains, leaf
# first) and prints "role kind samples" for every process of the pipeline;
# the writing dd is the one that reads /dev/zero.
classify='
function kind(stack, leaf) {
	if (stack ~ / [a-z0-9_.]*(alloc_pages|alloc_frozen_pages|folio_put|free_unref|free_frozen|free_pages|put_page|release_pages|charge|memcg|page_counter)[a-z0-9_.]* /)
		return "pages"
	if (leaf ~ /mutex|osq_lock/)
		return "pipe-lock"
	if (leaf ~ /copy_(from|to)_iter|copy_page|read_zero|clear_user|memcpy|memset/)
		return "copy"
	if (stack ~ / (schedule|__schedule|finish_task_switch[.a-z]*|try_to_wake_up|hrtimer_[a-z_]*|do_nanosleep) /)
		return "switch-wake"
	if (leaf ~ /^(do_syscall_64|entry_SYSCALL.*|vfs_(read|write)|rw_verify_area|fdget.*|security_.*|bpf_lsm_.*|ksys_.*|__x64_sys_.*|read|write|__GI___libc_(read|write)|\[unknown\])$/)
		return "syscall"
	return "other"
}
function flush() {
	if (comm == "dd" || comm == "tach") {
		n[pid SUBSEP kind(stack " ", leaf)]++
		name[pid] = comm
	}
	if (stack ~ / read_zero /)
		writer[pid] = 1
	comm = ""
}
/^[^ \t]/ { flush(); comm = $1; pid = $2; stack = ""; leaf = ""; next }
/^[ \t]/ { if (leaf == "") leaf = $2; stack = stack " " $2; next }
/^$/ { flush() }
END {
	flush()
	for (key in n) {
		split(key, k, SUBSEP)
		role = name[k[1]] == "tach" ? "tach" : k[1] in writer ? "writer" : "reader"
		print role, k[2], n[key]
	}
}'

# profile RUN PIPELINE: appends "RUN role kind samples" to the results.
profile() {
	perf record -q -e cpu-clock -c "$period" -a -g -o "$work/perf.data" -- \
	    bash -c "$2" 2>/dev/null
	perf script -i "$work/perf.data" -F comm,pid,ip,sym 2>/dev/null |
	    awk "$classify" | sed "s/^/$1 /" >>"$results"
}

for round in $(seq "$rounds"); do
	if [ $((round % 2)) = 1 ]; then order="bare tach"; else order="tach bare"; fi
	for name in $order; do
		case $name in
		bare) profile "bare-$round" "dd if=/dev/zero bs=$block count=$count 2>/dev/null | dd of=/dev/null bs=$block 2>/dev/null" ;;
		tach) profile "tach-$round" "dd if=/dev/zero bs=$block count=$count 2>/dev/null | $tach -q | dd of=/dev/null bs=$block 2>/dev/null" ;;
		esac
	done
done

{
	echo "# $(date -u +%Y-%m-%d) $(uname -srm), $(nproc) cores, $rounds rounds of $gib GiB, dd bs=$block"
	echo
	echo "CPU seconds per GiB (median of the rounds), by process and kind of work:"
	echo
	echo "| pipeline | process | copy | pages | pipe lock | switch, wake | system call | other | total |"
	echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
	awk -v gib="$gib" -v period="$period" "$awk_median"'
	{
		split($1, p, "-")
		key = p[1] SUBSEP $2
		sum[$1 SUBSEP $2 SUBSEP $3] += $4
		runs[$1] = p[1]
		seen[key] = 1
	}
	END {
		kinds = "copy pages pipe-lock switch-wake syscall other"
		nk = split(kinds, kind, " ")
		split("bare tach", pipes, " ")
		split("writer tach reader", roles, " ")
		for (i = 1; i <= 2; i++)
			for (j = 1; j <= 3; j++) {
				if (!((pipes[i] SUBSEP roles[j]) in seen))
					continue
				line = "| " pipes[i] " | " roles[j]
				for (m = 1; m <= nk + 1; m++) {
					list = ""
					for (run in runs) {
						if (runs[run] != pipes[i])
							continue
						s = 0
						for (q = 1; q <= nk; q++)
							if (m > nk || q == m)
								s += sum[run SUBSEP roles[j] SUBSEP kind[q]]
						list = list " " s * period / 1e9 / gib
					}
					line = line sprintf(" | %.3f", median(list))
				}
				print line " |"
			}
	}' "$results"
} >&4
