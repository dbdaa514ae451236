#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# covers: one distribution's package built from the release tarball the
# way that distribution builds it, its check (ctest -L quick) included,
# packaging exactly what `cmake --install` lays out:
#
#   build.sh rpm|arch|alpine|deb
#
# A test of its own for each (package_rpm, …: tests/CMakeLists.txt), so
# that CTest runs them side by side and none takes long.  They use the
# system compiler, whatever the build under test is: run-all's sanitizer,
# portable and 32-bit-on-64 builds leave them to the default one.
. "$(dirname "$0")/../integration/lib.sh"
. "$(dirname "$0")/common.sh"
distro=${1:?build.sh: which distribution}
if [ "${TACH_SANITIZE:-OFF}" = ON ] || [ "$TACH_ZEROCOPY" != 1 ] ||
    [ "$((${TACH_POINTER_BYTES:-8} * 8))" -ne "$(getconf LONG_BIT)" ]; then
	skip "the distributions' packages are built by the default build only"
fi
command -v git >/dev/null && git -C "$SOURCE_DIR" rev-parse HEAD >/dev/null 2>&1 ||
    skip "not a git clone: there is no release tarball to build"

# installed TREE: the files under TREE/usr, as layout prints them
installed() {
	(cd "$1/usr" && find . \( -type f -o -type l \) | sed 's|^\./||' | sort)
}


# build_rpm TARBALL RECIPES: rpmbuild -ba, with Fedora's cmake macros supplied
# (Debian's rpm has none) and without the BuildRequires check (its
# database is empty)
build_rpm() {
	recipes=$2
	command -v rpmbuild >/dev/null || skip "no rpmbuild: the RPM is not built"
	rpm_layout=$(rpm_layout)
	mkdir -p "$WORK/rpm/SOURCES"
	cp "$1" "$WORK/rpm/SOURCES/"
	rpmbuild -ba --nodeps --define "_topdir $WORK/rpm" \
	    --load "$SOURCE_DIR/tests/packaging/cmake.macros" \
	    "$recipes/rpm/tach.spec" >"$WORK/rpm.log" 2>&1
	check "rpmbuild -ba succeeds, %check included" [ $? -eq 0 ] ||
	    { grep -E 'Failed|FAIL|error' "$WORK/rpm.log" | head -n 20
	      tail -n 20 "$WORK/rpm.log"; } >&2
	check "rpmbuild ran the quick tests" \
	    grep -q 'tests passed, 0 tests failed' "$WORK/rpm.log"
	rpm=$(ls "$WORK"/rpm/RPMS/*/tach-0.1.0-*.rpm 2>/dev/null | head -n 1)
	check "rpmbuild made the source package" \
	    sh -c 'ls "$1"/rpm/SRPMS/tach-0.1.0-*.src.rpm >/dev/null' sh "$WORK"
	if [ -n "$rpm" ]; then
		# less the build-id links rpm adds by itself, and its
		# directories
		rpm -qlvp "$rpm" >"$WORK/rpm.list" 2>/dev/null
		same "RPM package" "$rpm_layout" \
		    "$(awk '$1 !~ /^d/ { print $(NF - 1) == "->" ? $(NF - 2) : $NF }' "$WORK/rpm.list" |
		    sed -e 's|^/usr/||' -e 's/\.gz$//' |
		    grep -v '^lib/\.build-id' | sort)"
		check "RPM: the package owns its doc directory" \
		    grep -q '^d.* /usr/share/doc/tach$' "$WORK/rpm.list"
	fi
}

# build_arch TARBALL RECIPES: makepkg, which will not run as root; pacman's
# database is empty here, so the dependencies are not checked
build_arch() {
	recipes=$2
	makepkg_usable || { [ "$failures" -eq 0 ] || done_testing
	    skip "no makepkg and pacman: the Arch package is not built"; }
	arch=$(mktemp -d /tmp/tach-makepkg.XXXXXX)
	cp "$recipes/arch/PKGBUILD" "$1" "$arch/"
	if [ "$(id -u)" -eq 0 ]; then
		chown -R nobody "$arch"
		as_builder="runuser -u nobody --"
	else
		as_builder=
	fi
	(cd "$arch" && $as_builder env HOME="$arch" makepkg --nodeps \
	    --noconfirm >"$WORK/makepkg.log" 2>&1)
	check "makepkg verifies the checksum and builds, check() included" \
	    [ $? -eq 0 ] ||
	    tail -n 20 "$WORK/makepkg.log" >&2
	check "makepkg ran the quick tests" \
	    grep -q 'tests passed, 0 tests failed' "$WORK/makepkg.log"
	# plus the licence where Arch keeps licences
	same "Arch package" "$( { echo "$usr_layout"
	    echo share/licenses/tach/LICENSE; } | sort)" \
	    "$(installed "$arch/pkg/tach" | sed 's/\.gz$//')"
	rm -rf "$arch"
}

# build_alpine TARBALL RECIPES: no abuild off Alpine, so its phases run as
# abuild runs them (in builddir, with srcdir and pkgdir set), here against
# glibc; the musl build itself is tests/cross-build's x86_64-linux-musl
# target
build_alpine() {
	recipes=$2
	alpine=$WORK/alpine
	mkdir -p "$alpine/src" "$alpine/pkg"
	tar xzf "$1" -C "$alpine/src"
	(startdir=$recipes/alpine srcdir=$alpine/src pkgdir=$alpine/pkg/tach
	    . "$recipes/alpine/APKBUILD" &&
	    echo "$sha512sums" | grep . | (cd "$(dirname "$1")" && sha512sum -c) &&
	    cd "${builddir:-$srcdir/$pkgname-$pkgver}" &&
	    build && check && package) >"$WORK/apk.log" 2>&1
	check "the APKBUILD builds, checks and packages" [ $? -eq 0 ] ||
	    tail -n 20 "$WORK/apk.log" >&2
	same "Alpine package" "$usr_layout" "$(installed "$alpine/pkg/tach")"
	check "Alpine: libbsd, as in the musl cross build" \
	    grep -q '^makedepends=".*libbsd-dev' "$recipes/alpine/APKBUILD"
}

# build_deb TARBALL RECIPES: the release tarball as the orig tarball of a 3.0
# (quilt) source package; the quick tests run in the build
build_deb() {
	recipes=$2
	command -v dpkg-buildpackage >/dev/null && command -v dh >/dev/null ||
	    skip "no dpkg-buildpackage: the .deb is not built"
	mkdir -p "$WORK/deb"
	cp "$1" "$WORK/deb/tach_0.1.0.orig.tar.gz"
	tar xzf "$1" -C "$WORK/deb"
	cp -r "$recipes/debian" "$WORK/deb/tach-0.1.0/debian"
	(cd "$WORK/deb/tach-0.1.0" && dpkg-buildpackage -us -uc \
	    >"$WORK/deb.log" 2>&1)
	check "dpkg-buildpackage (source and binary) succeeds" [ $? -eq 0 ] ||
	    tail -n 20 "$WORK/deb.log" >&2
	check "dpkg-buildpackage ran the quick tests" \
	    grep -q 'tests passed, 0 tests failed' "$WORK/deb.log"
	check "the source package is built, with its orig tarball" sh -c \
	    'ls "$1"/deb/tach_0.1.0-1.dsc "$1"/deb/tach_0.1.0-1.debian.tar.* >/dev/null' \
	    sh "$WORK"
	deb=$(ls "$WORK"/deb/tach_*.deb 2>/dev/null | head -n 1)
	if [ -n "$deb" ]; then
		got=$(dpkg-deb -c "$deb" | awk '$1 !~ /^d/ { print $6 }' |
		    sed -e 's|^\./usr/||' -e 's/\.gz$//' |
		    grep -v -e '^share/doc/tach/changelog' \
		    -e '^share/doc/tach/copyright' \
		    -e '^share/lintian/overrides/tach$' | sort)
		# the licence is in the copyright file; zsh's own directory
		want=$(echo "$usr_layout" |
		    grep -vx 'share/doc/tach/LICENSE' |
		    sed 's|^share/zsh/site-functions/|share/zsh/vendor-completions/|' |
		    sort)
		same Debian "$want" "$got"
	fi
	if command -v lintian >/dev/null; then
		lintian --pedantic "$WORK"/deb/tach_*.changes >"$WORK/lintian" 2>&1
		# a lintian older than the current policy knows no newer one
		standards=$(sed -n 's/^Standards-Version: //p' "$recipes/debian/control")
		grep -q "\"$standards" /usr/share/lintian/data/debian-policy/releases.json 2>/dev/null ||
		    sed -i "/newer-standards-version $standards/d" "$WORK/lintian"
		lacks "lintian --pedantic: no error or warning" "$WORK/lintian" \
		    '^[EW]: '
	fi
}

release_tarball "$WORK/rel" || { fail "release-checksums"; done_testing; }
usr_layout=$(layout /usr share/man OFF)
case $distro in
rpm|arch|alpine|deb) "build_$distro" "$WORK/rel.dist/tach-0.1.0.tar.gz" \
    "$WORK/rel/contrib" ;;
*) echo "build.sh: $distro: not rpm, arch, alpine or deb" >&2; exit 2 ;;
esac
done_testing
