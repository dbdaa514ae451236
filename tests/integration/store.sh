# SPDX-License-Identifier: BSD-2-Clause
# covers: -U FILE, --store-and-forward FILE (pv 1.9): all of the input is
# read into FILE first, drawn as a run of its own, and then sent on with its
# size known.  FILE is tach's own, new (kept once whole, removed if the
# store fails), or "-" for a file of no name in $TMPDIR.
. "$(dirname "$0")/lib.sh"

random "$WORK/data" 20000000
out=$WORK/out
store=$WORK/store

# Exact, the store kept and whole; each run drawn: the store's named
# "storing", with no size, then the sending's with the size known.
cat "$WORK/data" | "$TACH" -U "$store" --format json -i 0.05 \
    2>"$WORK/json" | cat >"$out"
check "a pipe: exact ($?)" cmp -s "$WORK/data" "$out"
check "…the store kept, whole" cmp -s "$WORK/data" "$store"
check "…the store's run, named, its size unknown" grep -q \
    '^{"name":"storing",.*"bytes":20000000,.*"size":null,.*"final":true,"result":"complete"' \
    "$WORK/json"
check "…then the sending's, its size known" grep -q \
    '^{"elapsed":.*"bytes":20000000,.*"size":20000000,"percent":100.00,.*"final":true,"result":"complete"' \
    "$WORK/json"
check "…in that order" sh -c "grep -n final.:true '$WORK/json' |
    head -n 1 | grep -q storing"

# "-": a file of no name in $TMPDIR, which never lists it.  The sending
# waits on a FIFO's reader: the store is there, open and removed.
mkdir "$WORK/tmp"
mkfifo "$WORK/fifo"
cat "$WORK/data" | TMPDIR=$WORK/tmp "$TACH" -q -U - >"$WORK/fifo" &
copy=$!
exec 6<"$WORK/fifo"
wait_until 60 sh -c "ls -l /proc/$copy/fd | grep -q '$WORK/tmp/tach\\..* (deleted)'"
check "-: the store, a removed file in \$TMPDIR" \
    sh -c "ls -l /proc/$copy/fd | grep -q '$WORK/tmp/tach\\..* (deleted)'"
check "…which the directory does not list" [ -z "$(ls -A "$WORK/tmp")" ]
cat <&6 >"$out"
exec 6<&-
wait $copy
check "…exact ($?)" cmp -s "$WORK/data" "$out"

# cmd starts only once all of the input is stored
mkfifo "$WORK/in"
exec 5<>"$WORK/in"
head -c 1000 "$WORK/data" >&5
"$TACH" -q -U - -f "$WORK/in" sh -c ": >'$WORK/started'; cat >'$out'" 5<&- &
copy=$!
wait_until 60 sh -c "ls -l /proc/$copy/fd 2>/dev/null | grep -q '(deleted)'"
ticks=0
while [ $ticks -lt 10 ] && [ ! -e "$WORK/started" ]; do
	sleep 0.1
	ticks=$((ticks + 1))
done
check "command mode: cmd not started while the input lasts" \
    [ ! -e "$WORK/started" ]
tail -c +1001 "$WORK/data" >&5
exec 5<&-
wait $copy
check "…then started, and given all of it ($?)" cmp -s "$WORK/data" "$out"

# What the input's side does happens in the store: -z, several -f (one
# missing: said, the rest sent, exit 1), -S, line mode (its size in lines)
gzip -c <"$WORK/data" >"$WORK/data.gz"
"$TACH" -q -U - -zf "$WORK/data.gz" >"$out"
check "-z: the decompressed bytes sent ($?)" cmp -s "$WORK/data" "$out"
"$TACH" -q -U - -f "$WORK/data" -f "$WORK/missing" -f "$WORK/data" \
    >"$out" 2>"$WORK/err"
check "several -f, one missing: exit 1 ($?)" [ $? -eq 1 ]
check "…said" grep -q "missing: No such file or directory" "$WORK/err"
check "…the others sent" sh -c "cat '$WORK/data' '$WORK/data' |
    cmp -s - '$out'"
"$TACH" -q -U - -S -l 1000001 <"$WORK/data" >"$out"
check "-S: exit 0 ($?)" [ $? -eq 0 ]
check "…the size's bytes exactly" sh -c "head -c 1000001 '$WORK/data' |
    cmp -s - '$out'"
lines=$(wc -l <"$WORK/data")
"$TACH" -U - --line-mode --format json <"$WORK/data" 2>"$WORK/json" >"$out"
check "line mode: exact" cmp -s "$WORK/data" "$out"
check "…sent with its size in lines" grep -q \
    "^{\"elapsed\":.*\"lines\":$lines,.*\"size\":$lines,\"percent\":100.00,.*\"final\":true" \
    "$WORK/json"

# A store that fails ends tach before a byte is sent, and is removed:
# an input that cannot be read, a file system without room (root: a
# 4 MiB tmpfs in a mount namespace of its own), SIGTERM
"$TACH" -q -U "$store.2" -f "$WORK" >"$out" 2>"$WORK/err"
check "an unreadable input: exit 1 ($?)" [ $? -eq 1 ]
check "…said" grep -q "reading $WORK: Is a directory" "$WORK/err"
check "…nothing sent" [ ! -s "$out" ]
check "…the store removed" [ ! -e "$store.2" ]
if [ "$(id -u)" -eq 0 ] && unshare -m true 2>/dev/null; then
	mkdir "$WORK/small"
	unshare -m sh -c 'mount -t tmpfs -o size=4m none "$1" &&
	    "$2" -q -U "$1/store" <"$3" >"$4" 2>"$5"
	    echo $? >"$6"; ls -A "$1" >"$7"' sh "$WORK/small" "$TACH" \
	    "$WORK/data" "$out" "$WORK/err" "$WORK/rc" "$WORK/ls"
	check "no room: exit 1 ($(cat "$WORK/rc"))" [ "$(cat "$WORK/rc")" -eq 1 ]
	check "…said" grep -qx \
	    "tach: writing $WORK/small/store: No space left on device" \
	    "$WORK/err"
	check "…nothing sent" [ ! -s "$out" ]
	check "…the store removed" empty "$WORK/ls"
else
	echo "skipped: a full file system (needs root and unshare -m)" >&2
fi
exec 5<>"$WORK/in"
printf abc >&5
"$TACH" -q -U "$store.3" <"$WORK/in" >"$out" 5<&- &
copy=$!
# made under a name of its own beside FILE, put at FILE only when whole
made() { for f in "$WORK"/.store.3.??????; do [ -s "$f" ] && return; done; false; }
wait_until 60 made
check "a store being made: not at FILE yet" [ ! -e "$store.3" ]
wait_until 60 caught $copy TERM
kill -TERM $copy
wait $copy
check "SIGTERM while storing: dies of it ($?)" [ $? -eq 143 ]
check "…nothing sent" [ ! -s "$out" ]
check "…the store removed" [ ! -e "$store.3" ]
check "…and the name it was made under" [ -z "$(ls -A "$WORK" | grep '^\.store')" ]
# killed for good (kill -9, the OOM killer): nothing stands at FILE
"$TACH" -q -U "$store.4" <"$WORK/in" >"$out" 5<&- &
copy=$!
wait_until 60 sh -c "ls -A '$WORK' | grep -q '^\.store\.4\.'"
kill -KILL $copy
wait $copy
check "SIGKILL while storing: nothing at FILE" [ ! -e "$store.4" ]
check "…nothing sent" [ ! -s "$out" ]
rm -f "$WORK"/.store.4.*
exec 5<&-
# a name taken while the store is made: the store kept whole, said, exit 1
exec 5<>"$WORK/in"
printf abc >&5
"$TACH" -q -U "$store.5" <"$WORK/in" >"$out" 2>"$WORK/err" 5<&- &
copy=$!
wait_until 60 sh -c "ls -A '$WORK' | grep -q '^\.store\.5\.'"
printf other >"$store.5"
exec 5<&-
wait $copy
check "FILE taken meanwhile: exit 1 ($?)" [ $? -eq 1 ]
check "…FILE untouched" [ "$(cat "$store.5")" = other ]
check "…the store kept whole, named" grep -q \
    "^tach: -U $store.5: not put in place, kept whole as $WORK/.store.5.*: File exists" "$WORK/err"
check "…nothing sent" [ ! -s "$out" ]

# Anything already there is refused, and untouched
printf keep >"$WORK/file"
refused() {
	what=$1
	shift
	"$TACH" -q -U "$@" <"$WORK/data" >"$out" 2>"$WORK/err"
	check "$what: refused ($?)" [ $? -eq 1 ]
	check "…nothing sent" [ ! -s "$out" ]
}
refused "an existing file" "$WORK/file"
check "…saying why" grep -qx "tach: -U $WORK/file: File exists" "$WORK/err"
check "…its bytes kept" [ "$(cat "$WORK/file")" = keep ]
ln -s "$WORK/file" "$WORK/link"
refused "a symlink" "$WORK/link"
check "…the file it names kept" [ "$(cat "$WORK/file")" = keep ]
refused "a FIFO" "$WORK/fifo"
refused "a directory" "$WORK/tmp"
refused "a missing directory" "$WORK/none/store"
refused "an empty name" ""
"$TACH" -U - -E <"$WORK/data" >"$out" 2>"$WORK/err"
check "-E: refused ($?)" [ $? -eq 1 ]
check "…saying why" grep -q "^tach: -U stores the input before sending it: not with -E" "$WORK/err"
"$TACH" -U - -d $$ >"$out" 2>"$WORK/err"
check "-d: refused ($?)" [ $? -eq 1 ]

done_testing
