# SPDX-License-Identifier: BSD-2-Clause
# covers: the docs agree with each other and with the program: --help
# within 60 lines of 80 columns; --help, tach(1)'s option lists (in the
# same order: by task), its SYNOPSIS and the usage on a bad option name
# the same options; README.md's option table names only real ones;
# tach(1) renders to at most 800 lines, lint-clean, with its sections
# and at least 12 examples; README.md within 250 lines, none past 200
# characters outside code, a section a task, each with an example.
. "$(dirname "$0")/lib.sh"
need python3 mandoc

man=$SOURCE_DIR/doc/tach.1
readme=$SOURCE_DIR/README.md
"$TACH" --help >"$WORK/help"
"$TACH" --no-such-option 2>&1 | sed -n '/^usage:/,$p' >"$WORK/usage"

check "--help: at most 60 lines ($(wc -l <"$WORK/help"))" \
    [ "$(wc -l <"$WORK/help")" -le 60 ]
lacks "--help: no line over 80 columns" "$WORK/help" '^.{81}'
lacks "the usage: no line over 80 columns" "$WORK/usage" '^.{81}'

# opts KIND FILE: the options FILE names, a long name a line (a letter
# without one as -X), in the order they are first defined there
opts() {
	python3 - "$1" "$2" <<-'PY'
	import re, sys
	kind, path = sys.argv[1], sys.argv[2]
	text = open(path, encoding="utf-8").read()
	seen = []
	def add(name):
	    if name not in seen:
	        seen.append(name)
	pairs = {}
	# letters to long names, from the manual's own list
	for m in re.finditer(r"^\.It Fl (\w)\b.*?, Fl \\-([a-z\\-]+)",
	        open(sys.argv[2] if kind == "man" else
	        __import__("os").environ["MAN"]).read(), re.M):
	    pairs[m.group(1)] = m.group(2).replace("\\", "")
	def name(letter):
	    return pairs.get(letter, "-" + letter)
	if kind == "help":
	    # a definition opens a line, or follows "; "
	    for m in re.finditer(r"(?:^ {2,}|;  )(?:-(\w), )?--([a-z][a-z-]*)",
	            text, re.M):
	        add(m.group(2))
	elif kind == "man":
	    body = text.split(".Sh DESCRIPTION", 1)[1]
	    for line in re.findall(r"^\.It Fl .*", body, re.M):
	        longs = re.findall(r"Fl \\-([a-z\\-]+)", line)
	        for n in longs or [name(l) for l in
	                re.findall(r"Fl (\w)\b", line)]:
	            add(n.replace("\\", ""))
	elif kind == "synopsis":
	    syn = text.split(".Sh SYNOPSIS", 1)[1].split(".Nm progress", 1)[0]
	    for m in re.finditer(r"Fl ([0-9A-Za-z]+)\b", syn):
	        for letter in m.group(1):
	            add(name(letter))
	    for m in re.finditer(r"\\-([a-z][a-z\\-]*)", syn):
	        add(m.group(1).replace("\\", ""))
	elif kind == "usage":
	    for m in re.finditer(r"\[-([0-9A-Za-z]+)\]|(?<![\w-])-(\w)\b", text):
	        for letter in m.group(1) or m.group(2):
	            add(name(letter))
	    for m in re.finditer(r"--([a-z][a-z-]*)", text):
	        add(m.group(1))
	elif kind == "readme":
	    for line in text.splitlines():
	        if line.startswith("| `-"):
	            cell = line.split("|")[1]
	            for m in re.finditer(r"`-(\w)\b|--([a-z][a-z-]*)", cell):
	                add(m.group(2) or name(m.group(1)))
	for n in seen:
	    print(n)
	PY
}
export MAN="$man"
opts help "$WORK/help" >"$WORK/help.opts"
opts man "$man" >"$WORK/man.opts"
opts synopsis "$man" | sort >"$WORK/synopsis.opts"
opts usage "$WORK/usage" | sort >"$WORK/usage.opts"
opts readme "$readme" | sort >"$WORK/readme.opts"
grep -vx -e help -e version "$WORK/help.opts" | sort >"$WORK/help.sorted"

check "options found in each ($(wc -l <"$WORK/help.opts") in --help)" \
    [ "$(wc -l <"$WORK/help.opts")" -ge 50 ]
# sameset A B: the same names, or the difference shown
sameset() {
	if diff "$2" "$3" >"$WORK/diff"; then pass
	else fail "$1: $(grep '^[<>]' "$WORK/diff" | tr '\n' ' ')"; fi
}
sameset "--help and tach(1)'s lists, in the same order" \
    "$WORK/help.opts" "$WORK/man.opts"
sameset "--help and the SYNOPSIS name the same options" \
    "$WORK/help.sorted" "$WORK/synopsis.opts"
sameset "the usage and the SYNOPSIS name the same options" \
    "$WORK/usage.opts" "$WORK/synopsis.opts"
check "README.md's table: only options tach has" sh -c \
    "sort '$WORK/help.opts' | comm -23 '$WORK/readme.opts' - | grep -q . && exit 1 || exit 0"
check "README.md's table: at least 20 options" \
    [ "$(wc -l <"$WORK/readme.opts")" -ge 20 ]

# tach(1): short enough to read, lint-clean, its sections, its examples
lines=$(mandoc -Tascii "$man" | wc -l)
check "tach(1) renders to at most 800 lines ($lines)" [ "$lines" -le 800 ]
mandoc -Tlint "$man" 2>&1 | grep -v -e 'mandoc.db' \
    -e 'referenced manual not found' >"$WORK/lint"
check "tach(1) lint-clean: $(head -n 3 "$WORK/lint" | tr '\n' ' ')" \
    [ ! -s "$WORK/lint" ]
for section in "THE BUFFER" WATCHING "REMOTE CONTROL" COMPATIBILITY EXAMPLES; do
	check "tach(1) has $section" grep -qx ".Sh $section" "$man"
done
examples=$(sed -n '/^\.Sh EXAMPLES/,/^\.Sh /p' "$man" | grep -c '^\.Dl ')
check "tach(1): at least 12 examples ($examples)" [ "$examples" -ge 12 ]

# README.md: by task, each section with something to run
check "README.md: at most 250 lines ($(wc -l <"$readme"))" \
    [ "$(wc -l <"$readme")" -le 250 ]
awk '/^```/ { code = !code; next } !code && length > 200' "$readme" \
    >"$WORK/long"
check "README.md: no line past 200 characters outside code" \
    [ ! -s "$WORK/long" ]
awk '/^## / { if (name != "" && !ex) print name; name = $0; ex = 0 }
    /^```sh/ { ex = 1 }
    END { if (name != "" && !ex) print name }' "$readme" |
    grep -v -e '^## Options' -e '^## Licence' -e '^## More' >"$WORK/noex"
check "README.md: each task's section has an example: $(tr '\n' ' ' <"$WORK/noex")" \
    [ ! -s "$WORK/noex" ]
for task in "Meter a pipe" "Copy a file or a disk" "Feed a command" \
    "Buffer a bursty sender" "Watch a copy already running" \
    "Change or query a running copy" "Machine output" "Install and package" \
    "Test"; do
	check "README.md has a section: $task" grep -q "^## $task" "$readme"
done

done_testing
