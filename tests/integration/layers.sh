# SPDX-License-Identifier: BSD-2-Clause
# covers: the layers of src/ as the linker sees them: no object calls one
# that calls it back (directly or round a circle), and no folder calls a
# layer above it (doc/ARCHITECTURE.md, "The folders")
. "$(dirname "$0")/lib.sh"
need python3 nm

objects=$(dirname "$TACH")/CMakeFiles
[ -d "$objects/tach.dir" ] || skip "no CMake object files beside $TACH"

python3 - "$objects" "$SOURCE_DIR" >"$WORK/found" <<'PY'
import glob, os, subprocess, sys

objects, source = sys.argv[1], sys.argv[2]
# what each layer may call besides itself; src/'s top may call anything
may = {
    "base": {"compat"},
    "compat": {"base"},
    "engine": {"base", "compat"},
    "screen": {"base", "compat"},
    "watch": {"screen", "base", "compat"},
    "control": {"screen", "base", "compat"},
}
defined, wanted = {}, {}
for target in ("tach.dir", "tachcore.dir"):
    for o in glob.glob(os.path.join(objects, target, "src", "**", "*.c.o"),
                       recursive=True):
        name = os.path.relpath(o, os.path.join(objects, target))[:-2]
        if not os.path.exists(os.path.join(source, name)):
            continue        # left by a build before a file moved
        wanted[name] = set()
        for line in subprocess.run(["nm", "-P", o], capture_output=True,
                                   text=True, check=True).stdout.splitlines():
            sym, kind = line.split()[:2]
            if kind == "U":
                wanted[name].add(sym)
            elif kind in "TDBRC":
                defined[sym] = name
calls = {n: {defined[s] for s in w if s in defined and defined[s] != n}
         for n, w in wanted.items()}
print("objects", len(calls))

def layer(name):
    parts = name.split("/")
    return parts[1] if len(parts) > 2 else "top"

for n in sorted(calls):
    for m in sorted(calls[n]):
        a, b = layer(n), layer(m)
        if a != "top" and a != b and b not in may[a]:
            print("up", n, "->", m)

# a circle: a call path from an object back to itself
def reaches(start):
    seen, todo = set(), list(calls[start])
    while todo:
        m = todo.pop()
        if m == start:
            return True
        if m not in seen:
            seen.add(m)
            todo.extend(calls.get(m, ()))
    return False
for n in sorted(calls):
    if reaches(n):
        print("circle", n)
PY
check "the objects were read ($(head -n 1 "$WORK/found"))" \
    [ "$(awk '/^objects/ { print ($2 >= 30) }' "$WORK/found")" = 1 ]
lacks "no layer calls one above it" "$WORK/found" '^up '
lacks "no object is in a circle of calls" "$WORK/found" '^circle '

done_testing
