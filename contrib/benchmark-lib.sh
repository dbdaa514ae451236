# SPDX-License-Identifier: BSD-2-Clause
# Sourced by contrib/benchmark*.sh: their shared command line, tools and
# scratch directory, and the median the reports are made of.
#
# Set rounds and gib (the defaults) and needs (the tools) before sourcing;
# afterwards tach, work and results are set, and fd 4 takes the report;
# -B names an earlier tach (before), for those that run it beside.
before=
while getopts r:g:o:B: opt; do
	case $opt in
	r) rounds=$OPTARG ;;
	g) gib=$OPTARG ;;
	o) report=$OPTARG ;;
	B) before=$(realpath "$OPTARG") ;;
	*) echo "usage: $0 [-r rounds] [-g GiB] [-o file] [-B tach] [tach]" >&2; exit 1 ;;
	esac
done
shift $((OPTIND - 1))
# the report on fd 4: stdout itself, not reopened (a reopened
# /dev/stdout that is a file would be truncated, losing what was before)
if [ -n "${report:-}" ]; then exec 4>"$report"; else exec 4>&1; fi
tach=$(realpath "${1:-build/tach}")
for tool in $needs; do
	command -v "$tool" >/dev/null || { echo "$0: needs $tool" >&2; exit 1; }
done

work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || :; rm -rf "$work"' EXIT
results=$work/results

# An awk function: the median of the numbers in a blank-separated list.
awk_median='
function median(list,   n, a, i, j, t) {
	n = split(list, a, " ")
	for (i = 1; i <= n; i++)
		for (j = i + 1; j <= n; j++)
			if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}'

# An awk function: keeps key's first place in order[] (count of them) and
# the lowest and highest of its values v, in lo[] and hi[].
awk_keep='
function keep(key, v) {
	if (!(key in seen)) { seen[key] = 1; order[++count] = key }
	if (!(key in lo) || v < lo[key]) lo[key] = v
	if (!(key in hi) || v > hi[key]) hi[key] = v
}'
