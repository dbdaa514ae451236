#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Installs what tach needs to build (and, with --test, to run its tests and
# benchmark) with the system's package manager: apt, dnf, pacman, FreeBSD
# pkg, pkgin or brew.  Run it as root, or as a user who may use sudo.
set -eu

tests=no
[ "${1:-}" = --test ] && tests=yes

as_root() {
	if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

if command -v apt-get >/dev/null 2>&1; then
	build="build-essential cmake pkg-config libbsd-dev libncurses-dev libssl-dev"
	# python3: release-checksums, JSON checks, Zig from PyPI (venv);
	# pacman: makepkg calls it even with --nodeps; bmake: contrib/bsd;
	# mbuffer, buffer: contrib/benchmark-buffer.sh; openssl: the --hash
	# benchmark; mount (losetup), e2fsprogs: a loop device and a file
	# system on it
	test="clang libclang-rt-dev libcmocka-dev strace tmux valgrind mandoc
	    pv time gzip bzip2 xz-utils zstd lz4 debhelper dpkg-dev fakeroot
	    bash-completion lintian file rpm makepkg pacman-package-manager
	    libarchive-tools ruby python3 python3-venv procps git zsh fish
	    locales bmake mbuffer buffer openssl util-linux mount e2fsprogs"
	# the 32-bit variant of the suite (tests/run-all), on amd64: gcc -m32
	# against Debian's multiarch i386 libraries
	if [ $tests = yes ] && [ "$(dpkg --print-architecture)" = amd64 ]; then
		if ! dpkg --print-foreign-architectures | grep -qx i386; then
			as_root dpkg --add-architecture i386
			stale=yes
		fi
		# libc6-dbg:i386: valgrind needs it for a 32-bit program
		test="$test gcc-multilib libc6-dev:i386 libbsd-dev:i386
		    libncurses-dev:i386 libcmocka-dev:i386 libc6-dbg:i386
		    libssl-dev:i386"
	fi
	missing=
	for p in $build $([ $tests = yes ] && echo $test); do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
		    grep -q "ok installed" || missing="$missing $p"
	done
	if [ -n "$missing" ] || [ "${stale:-}" = yes ]; then
		as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
		# shellcheck disable=SC2086
		as_root env DEBIAN_FRONTEND=noninteractive apt-get install \
		    -y -qq --no-install-recommends $missing >/dev/null
	fi
elif command -v dnf >/dev/null 2>&1; then
	as_root dnf install -y cmake make gcc pkgconf-pkg-config libbsd-devel \
	    ncurses-devel openssl-devel
	[ $tests = no ] || as_root dnf install -y clang libcmocka-devel \
	    strace tmux valgrind mandoc pv procps-ng gzip bzip2 xz zstd lz4
elif command -v pacman >/dev/null 2>&1; then
	as_root pacman -S --needed --noconfirm cmake make gcc pkgconf libbsd \
	    ncurses openssl
	[ $tests = no ] || as_root pacman -S --needed --noconfirm clang cmocka \
	    strace tmux valgrind mandoc pv procps-ng gzip bzip2 xz zstd lz4
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
