#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# What watching costs (doc/PERFORMANCE.md, "Watching a process"): a
# process holds N files open, reads one of them at about 6 MB/s and lets
# the rest sit, for S seconds; each watcher (tach -d, Xfennec's progress
# -m, pv -d) follows it on a terminal of its own.  Measured: the watcher's
# CPU a second of watching (wait4's rusage), its peak RSS (VmHWM), and how long
# it ran on after the process ended.  Candidates alternated round by
# round, medians reported.
#
#   contrib/benchmark-watch.sh [-r ROUNDS] [-o FILE] [-B EARLIER-TACH] [TACH]
#   (FILES="1 10 100 1000" and SECONDS_EACH=6 in the environment)
set -eu

rounds=3
needs="progress pv python3"
. "$(dirname "$0")/benchmark-lib.sh"

files=${FILES:-1 10 100 1000}
seconds=${SECONDS_EACH:-6}

# N S DIR WATCHER...: "cpu_ms_per_s rss_kib end_ms"
measure='
import os, pty, subprocess, sys, threading, time, fcntl, termios, struct
n, secs, d, watcher = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3], sys.argv[4:]
holder = subprocess.Popen([sys.executable, "-c", """
import os, sys, time
n, secs, d = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
fds = [os.open(f"{d}/f{i}", os.O_RDONLY) for i in range(n - 1)]
big = os.open(f"{d}/big", os.O_RDONLY)
end = time.monotonic() + secs
while time.monotonic() < end:
    os.read(big, 65536)
    time.sleep(0.01)
""", str(n), str(secs), d])
master, slave = pty.openpty()
fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 160, 0, 0))
def drain():
    try:
        while os.read(master, 65536):
            pass
    except OSError:
        pass
threading.Thread(target=drain, daemon=True).start()
time.sleep(0.3)		# the holder has its files open
args = [a.replace("PID", str(holder.pid)) for a in watcher]
w = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=slave,
    stderr=slave, env=dict(os.environ, TERM="xterm"))
start = time.monotonic()
hwm = 0
while holder.poll() is None:	# its peak RSS: the rusage counts the fork too
    try:
        with open(f"/proc/{w.pid}/status") as f:
            hwm = max([hwm] + [int(l.split()[1]) for l in f
                if l.startswith("VmHWM:")])
    except OSError:
        pass
    time.sleep(0.05)
ended = time.monotonic()
_, status, ru = os.wait4(w.pid, 0)
after = time.monotonic()
cpu = (ru.ru_utime + ru.ru_stime) * 1000 / (ended - start)
print(f"{cpu:.2f} {hwm} {(after - ended) * 1000:.1f}")
'

echo "# contrib/benchmark-watch.sh: $(date -u +%Y-%m-%d), $(nproc) cores," \
    "load $(cut -d' ' -f1 /proc/loadavg), ${seconds} s a run, $rounds rounds" >&4
for n in $files; do
	d=$work/files$n
	mkdir -p "$d"
	for i in $(seq 0 $((n - 2))); do echo "file $i" >"$d/f$i"; done
	truncate -s 1G "$d/big"
done
for r in $(seq "$rounds"); do
	for n in $files; do
		for tool in tach ${before:+before} progress pv; do
			case $tool in
			tach) cmd="$tach -d PID" ;;
			before) cmd="$before -d PID" ;;
			progress) cmd="progress -m -p PID" ;;
			pv) cmd="pv -d PID" ;;
			esac
			# shellcheck disable=SC2086
			echo "$n $tool $(python3 -c "$measure" "$n" "$seconds" \
			    "$work/files$n" $cmd)" >>"$results"
		done
	done
done
awk "$awk_median"'
{ key = $1 " " $2; cpu[key] = cpu[key] " " $3; rss[key] = rss[key] " " $4
  end[key] = end[key] " " $5; if (!(key in seen)) { seen[key] = 1; order[++k] = key } }
END {
	printf "%-6s %-9s %12s %10s %10s\n", "files", "watcher", "CPU ms/s", "RSS KiB", "end ms"
	for (i = 1; i <= k; i++) {
		split(order[i], f, " ")
		printf "%-6s %-9s %12.2f %10d %10.1f\n", f[1], f[2], median(cpu[order[i]]),
		    median(rss[order[i]]), median(end[order[i]])
	}
}' "$results" >&4
