# SPDX-License-Identifier: BSD-2-Clause
# covers: the layers of src/ as the linker sees them: no object calls one
# that calls it back (directly or round a circle), and no folder calls a
# layer above it (doc/ARCHITECTURE.md, "The folders"); and as the compiler
# sees them: no folder's file includes a header of a layer above it, its
# headers' own includes counted
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

# What a layer's files include, header by header (a header's own includes
# too): a header belongs to the layer of the file that implements it
# (X.c, or X_*.c), and one with none (types only) to none.
import re
include = re.compile(r'^#include "(?:tach/)?([a-z_0-9]+\.h)"', re.M)
owner = {}
for c in sorted(glob.glob(os.path.join(source, "src", "**", "*.c"),
                        recursive=True)):
    rel = os.path.relpath(c, source)
    base = os.path.basename(c)[:-2]
    for h in (base, base.split("_")[0]):
        owner.setdefault(h + ".h", layer(rel))
def header_path(h, near):
    for d in (os.path.join(source, "include", "tach"), near):
        if os.path.exists(os.path.join(d, h)):
            return os.path.join(d, h)
    return None
def included(path, seen):
    with open(path) as f:
        for h in include.findall(f.read()):
            hp = header_path(h, os.path.dirname(path))
            if hp is not None and h not in seen:
                seen.add(h)
                included(hp, seen)
    return seen
files = 0
for c in sorted(glob.glob(os.path.join(source, "src", "*", "*.c"))):
    rel = os.path.relpath(c, source)
    files += 1
    a = layer(rel)
    for h in sorted(included(c, set())):
        b = owner.get(h)
        if b is not None and b != a and b not in may[a]:
            print("includes", rel, "->", h, "(" + b + ")")
print("included", files)
PY
check "the objects were read ($(head -n 1 "$WORK/found"))" \
    [ "$(awk '/^objects/ { print ($2 >= 30) }' "$WORK/found")" = 1 ]
lacks "no layer calls one above it" "$WORK/found" '^up '
lacks "no object is in a circle of calls" "$WORK/found" '^circle '
check "the layers' files were read ($(grep '^included' "$WORK/found"))" \
    [ "$(awk '/^included/ { print ($2 >= 30) }' "$WORK/found")" = 1 ]
lacks "no layer includes a header of one above it (options.h above all)" \
    "$WORK/found" '^includes '

done_testing
