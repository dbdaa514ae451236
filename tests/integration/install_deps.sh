# SPDX-License-Identifier: BSD-2-Clause
# covers: contrib/deps.sh when a package index cannot be had: apt-get
# update failing is a warning, the install decides; the packages the build
# and tests need are installed or named; the 32-bit variant's are apart
# and optional.  All in a private apt configuration and dpkg database
# (APT_CONFIG, DPKG_ADMINDIR) with apt only simulating: the machine's own
# are never changed.
. "$(dirname "$0")/lib.sh"
: "${SOURCE_DIR:?SOURCE_DIR must name the source tree}"
deps=$SOURCE_DIR/contrib/deps.sh

command -v apt-get >/dev/null && command -v dpkg-query >/dev/null ||
    { echo "skipped: not Debian" >&2; exit 77; }
[ "$(id -u)" -eq 0 ] || { echo "skipped: not root" >&2; exit 77; }
# deps.sh is the same whatever the build: the default build runs it
if [ "${TACH_SANITIZE:-OFF}" = ON ] || [ "$TACH_ZEROCOPY" != 1 ] ||
    [ "$((${TACH_POINTER_BYTES:-8} * 8))" -ne "$(getconf LONG_BIT)" ]; then
	echo "skipped: the default build runs it" >&2
	exit 77
fi
mirror=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
    awk '$1 == "URIs:" && $2 !~ /security/ { print $2; exit }')
[ -n "$mirror" ] || mirror=$(cat /etc/apt/sources.list 2>/dev/null |
    awk '$1 == "deb" && $2 !~ /security/ { print $2; exit }')
[ -n "$mirror" ] || { echo "skipped: no Debian mirror in /etc/apt" >&2; exit 77; }
suite=$(. /etc/os-release && echo "$VERSION_CODENAME")
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
apt=$WORK/apt
# Two sources that cannot be had: nothing listens on the loopback's
# discard port (apt says W: and exits 0), and an index whose size is not
# the one its Release names, as a mirror's mid-sync (E:, exit 100).
down="deb [trusted=yes] http://127.0.0.1:9/debian $suite main"
broken="deb [trusted=yes] file:$apt/broken ./"
mkdir -p "$apt/broken"
printf 'Package: tach-none\nVersion: 1\nArchitecture: all\n' \
    >"$apt/broken/Packages"
printf 'Origin: tach-test\nDate: Sun, 06 Dec 2026 00:00:00 UTC\nSHA256:\n %s %d Packages\n' \
    "$(printf '%064d' 0)" "$(($(wc -c <"$apt/broken/Packages") + 4))" \
    >"$apt/broken/Release"
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/parts" \
    "$apt/dpkg/updates" "$apt/dpkg/info"
# an empty dpkg database: every package is missing, so all are asked for
: >"$apt/dpkg/status"
# the machine's lists as a start, so that the mirror is not fetched anew
cp /var/lib/apt/lists/*_* "$apt/lists/" 2>/dev/null || :
cat >"$apt/apt.conf" <<EOT
Dir::Etc::sourcelist "$apt/sources.list";
Dir::Etc::sourceparts "$apt/parts";
Dir::State::lists "$apt/lists";
Dir::State::status "$apt/dpkg/status";
Dir::Cache "$apt/cache";
APT::Sandbox::User "root";
Acquire::Retries "0";
EOT
APT_CONFIG=$apt/apt.conf DPKG_ADMINDIR=$apt/dpkg
export APT_CONFIG DPKG_ADMINDIR

# machine: the machine's own apt configuration and dpkg architectures
machine() {
	ls -l /etc/apt /etc/apt/sources.list.d /var/lib/dpkg/arch 2>&1
	env -u DPKG_ADMINDIR dpkg --print-foreign-architectures
}
machine_before=$(machine)

# sources LINE...: the private configuration's sources, one a line
sources() { printf '%s\n' "$@" >"$apt/sources.list"; }

# The mirror, and beside it the two that fail: apt-get update fails,
# and deps.sh goes on to install (simulated) all it needs.
sources "deb [signed-by=$keyring] $mirror $suite main" "$down" "$broken"
"$deps" --test --dry-run >"$WORK/out" 2>"$WORK/err"
check "one source down: deps.sh exits 0 ($?)" [ $? -eq 0 ] || cat "$WORK/err" >&2
check "…warning that apt-get update failed" \
    grep -q '^deps.sh: warning: apt-get update failed' "$WORK/err"
check "…naming the sources" sh -c \
    'grep -q "127.0.0.1" "$1" && grep -q "broken.*Hash Sum mismatch" "$1"' \
    sh "$WORK/err"
lacks "…and nothing it needs is left out" "$WORK/err" 'cannot install'

# The mirror without its i386 packages (as when its i386 index fails):
# the build's and tests' packages are installed, the 32-bit variant's are
# named, and deps.sh still exits 0.
if [ "$(dpkg --print-architecture)" = amd64 ]; then
	sources "deb [arch=amd64 signed-by=$keyring] $mirror $suite main" "$down" "$broken"
	"$deps" --test --dry-run >"$WORK/out" 2>"$WORK/err"
	check "no i386 packages: deps.sh exits 0 ($?)" [ $? -eq 0 ] ||
	    cat "$WORK/err" >&2
	check "…naming the 32-bit variant's packages" grep -q \
	    "32-bit variant's packages cannot be installed here:.* libc6-dev:i386" \
	    "$WORK/err"
	lacks "…and only those" "$WORK/err" '^deps.sh: cannot install'
	check "--i386-missing names what run-all's skip line names" sh -c \
	    '"$1" --i386-missing | grep -q " libc6-dev:i386 .*libssl-dev:i386"' \
	    sh "$deps"
fi

# Only the sources that fail: nothing can be installed, and deps.sh
# fails naming the packages.
sources "$down" "$broken"
"$deps" --test --dry-run >"$WORK/out" 2>"$WORK/err"
check "no source up: deps.sh fails ($?)" [ $? -ne 0 ]
check "…naming what it cannot install" \
    grep -q '^deps.sh: cannot install:.* cmake .*libbsd-dev.* strace' "$WORK/err"
"$deps" --dry-run >"$WORK/out" 2>"$WORK/err"
check "…and, without --test, only what the build needs" sh -c \
    'grep -q "^deps.sh: cannot install: build-essential cmake pkg-config libbsd-dev libncurses-dev libssl-dev\$" "$1"' \
    sh "$WORK/err"

check "the machine's apt and dpkg are as they were" \
    [ "$machine_before" = "$(machine)" ]
done_testing
