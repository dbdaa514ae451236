#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Installs what tach needs to build (and, with --test, to run its tests and
# benchmark) with the system's package manager: apt, dnf, pacman, FreeBSD
# pkg, pkgin or brew.  Run it as root, or as a user who may use sudo.
set -eu

tests=no dry_run=no i386_missing=no
for arg; do
	case $arg in
	--test) tests=yes ;;
	# the 32-bit variant's packages not installed here, on one line
	--i386-missing) tests=yes i386_missing=yes ;;
	--dry-run) dry_run=yes ;;
	*) echo "usage: deps.sh [--test] [--dry-run] [--i386-missing]" >&2
	   exit 2 ;;
	esac
done

as_root() {
	if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# missing PACKAGE...: those of PACKAGE... that dpkg has not installed
missing() {
	for _m_p; do
		dpkg-query -W -f='${Status}' "$_m_p" 2>/dev/null |
		    grep -q "ok installed" || printf ' %s' "$_m_p"
	done
}

# apt_update: fresh package lists.  One index that cannot be had (a
# mirror mid-sync, a source that is down) is a warning, tried once more:
# the install that follows decides, from the lists there are.
apt_update() {
	[ $updated = no ] || return 0
	updated=yes
	# a source that cannot be reached is only a W: line to apt, exit 0
	for _u_try in 1 2; do
		as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq \
		    >"$log" 2>&1 && ! grep -q '^[EW]: Failed to fetch' "$log" &&
		    return 0
	done
	echo "deps.sh: warning: apt-get update failed; going on with the" \
	    "package lists there are:" >&2
	grep -E '^[EW]: ' "$log" | head -n 5 >&2
}

# apt_install "PACKAGE...": installs those not yet installed
apt_install() {
	# shellcheck disable=SC2086
	_i_want=$(missing $1)
	[ -n "$_i_want" ] || return 0
	apt_update
	# shellcheck disable=SC2086
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install $simulate \
	    $arch -y -qq --no-install-recommends $_i_want >"$log" 2>&1 &&
	    return 0
	grep -E '^(E:| .* : Depends)' "$log" | head -n 5 >&2
	return 1
}

if command -v apt-get >/dev/null 2>&1; then
	log=$(mktemp /tmp/tach-deps.XXXXXX)
	trap 'rm -f "$log"' EXIT
	build="build-essential cmake pkg-config libbsd-dev libncurses-dev libssl-dev"
	# python3: release-checksums, JSON checks, Zig from PyPI (venv);
	# pacman: makepkg calls it even with --nodeps; bmake: contrib/bsd;
	# mbuffer, buffer: contrib/benchmark-buffer.sh; openssl: the --hash
	# benchmark; mount (losetup), e2fsprogs: a loop device and a file
	# system on it; rsync: -d on rsync's copy
	test="clang libclang-rt-dev libcmocka-dev strace tmux valgrind mandoc
	    pv time gzip bzip2 xz-utils zstd lz4 debhelper dpkg-dev fakeroot
	    bash-completion lintian file rpm makepkg pacman-package-manager
	    libarchive-tools ruby python3 python3-venv procps git zsh fish
	    locales bmake mbuffer buffer openssl util-linux mount e2fsprogs
	    rsync"
	[ $tests = yes ] || test=
	# the 32-bit variant of the suite (tests/run-all), on amd64: gcc -m32
	# against Debian's multiarch i386 libraries; libc6-dbg:i386: valgrind
	# needs it for a 32-bit program.  Only that variant needs them, so
	# they are installed apart and may be missing (run-all says so).
	i386="gcc-multilib libc6-dev:i386 libbsd-dev:i386 libncurses-dev:i386
	    libcmocka-dev:i386 libc6-dbg:i386 libssl-dev:i386"
	if [ $tests = no ] || [ "$(dpkg --print-architecture)" != amd64 ]; then
		i386=
	fi
	[ $i386_missing = no ] || { missing $i386; exit 0; }

	# A dry run (for tests/integration/install_deps.sh) lets apt only
	# simulate, and names i386 for this run instead of adding it to dpkg.
	simulate= arch=
	if [ $dry_run = yes ]; then
		simulate=-s
		[ -z "$i386" ] || arch="-o APT::Architectures::=amd64 -o APT::Architectures::=i386"
	elif [ -n "$i386" ] && ! dpkg --print-foreign-architectures | grep -qx i386; then
		as_root dpkg --add-architecture i386
		stale=yes
	fi
	updated=no
	# shellcheck disable=SC2086
	if [ -n "$(missing $build $test $i386)" ] || [ "${stale:-}" = yes ]; then
		apt_update
	fi
	# shellcheck disable=SC2086
	apt_install "$build $test" || {
		echo "deps.sh: cannot install:$(missing $build $test)" >&2
		exit 1
	}
	# shellcheck disable=SC2086
	apt_install "$i386" ||
	    echo "deps.sh: the 32-bit variant's packages cannot be installed" \
	    "here:$(missing $i386); tests/run-all skips that variant" >&2
elif command -v dnf >/dev/null 2>&1; then
	as_root dnf install -y cmake make gcc pkgconf-pkg-config libbsd-devel \
	    ncurses-devel openssl-devel
	[ $tests = no ] || as_root dnf install -y clang libcmocka-devel \
	    strace tmux valgrind mandoc pv procps-ng gzip bzip2 xz zstd lz4 \
	    rsync
elif command -v pacman >/dev/null 2>&1; then
	as_root pacman -S --needed --noconfirm cmake make gcc pkgconf libbsd \
	    ncurses openssl
	[ $tests = no ] || as_root pacman -S --needed --noconfirm clang cmocka \
	    strace tmux valgrind mandoc pv procps-ng gzip bzip2 xz zstd lz4 \
	    rsync
elif command -v pkg >/dev/null 2>&1 && [ "$(uname)" = FreeBSD ]; then
	as_root pkg install -y cmake pkgconf ncurses
	[ $tests = no ] || as_root pkg install -y cmocka tmux mandoc pv zstd lz4
elif command -v pkgin >/dev/null 2>&1; then
	as_root pkgin -y install cmake pkgconf ncurses
	[ $tests = no ] || as_root pkgin -y install cmocka tmux pv zstd lz4
elif command -v brew >/dev/null 2>&1; then
	brew install cmake pkgconf libbsd ncurses openssl@3
	[ $tests = no ] || brew install cmocka tmux pv zstd lz4 xz
else
	echo "deps.sh: no known package manager; install cmake, a C compiler," \
	    "pkg-config, libbsd and ncurses by hand" >&2
	exit 1
fi
