#!/bin/sh
# The Debian package (cpack -G DEB): its control fields (version of
# project(), dependencies from dpkg-shlibdeps), its file list (dpkg-deb -c:
# the program, every case file of both tiers, spec/, generators/, headers,
# CMake package, pkg-config file, man pages, completion, examples), its
# description (every operation named), its pkg-config file (/usr/include,
# not a path through share/pkgconfig), and the extracted program (dpkg-deb
# -x into a scratch folder, not installed) run from an unrelated folder: it
# finds its cases beside itself and passes.
# usage: package.sh BUILD_DIR SOURCE_DIR WORK CPACK
set -u
build=$1 src=$2 work=$3 cpack=$4
. "$(dirname "$0")/expect.sh"
rm -rf "$work" && mkdir -p "$work/elsewhere"

"$cpack" -G DEB --config "$build/CPackConfig.cmake" -B "$work" >"$work/cpack.log" 2>&1
expect "cpack -G DEB (see $work/cpack.log)" test $? -eq 0
deb=$(ls "$work"/movconf_*.deb 2>/dev/null | head -1)
expect "a movconf_*.deb was written" test -n "$deb"
[ -n "$deb" ] || { expect_report; exit 1; }

version=$("$build/movconf" --version | sed -n 's/^movconf //p')
expect "package version $version (movconf --version)" test "$(dpkg-deb -f "$deb" Version)" = "$version"
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
expect "depends on libcjson1" sh -c 'echo "$1" | grep -qE "(^|, )libcjson1( |,|$)"' - "$depends"
expect "depends on libssl3" sh -c 'echo "$1" | grep -qE "(^|, )libssl3( |,|$)"' - "$depends"
expect "depends on libc6" sh -c 'echo "$1" | grep -qE "(^|, )libc6( |,|$)"' - "$depends"

# The description names every operation of movconf help operations.
dpkg-deb -f "$deb" Description >"$work/description.txt"
"$build/movconf" help operations | cut -f 1 >"$work/operations.txt"
expect "movconf help operations lists operations" test -s "$work/operations.txt"
while read -r op; do
  has "$work/description.txt" "$op"
done <"$work/operations.txt"

dpkg-deb -c "$deb" | awk '{print $NF}' | sed 's|^\./|/|' >"$work/files.txt"
for f in /usr/bin/movconf /usr/include/movconf/plugin.h /usr/include/movconf/version.h \
  /usr/lib/cmake/movconf/movconfConfig.cmake /usr/lib/libmovconf_optimized.a /usr/share/pkgconfig/movconf-plugin.pc \
  /usr/share/man/man1/movconf.1 /usr/share/man/man1/movconf-run.1 \
  /usr/share/bash-completion/completions/movconf /usr/share/movconf/spec/plugin-abi.md \
  /usr/share/doc/movconf/README.md /usr/share/doc/movconf/copyright \
  /usr/share/doc/movconf/examples/plugin_abi_example.c \
  /usr/share/doc/movconf/examples/adapters/common/movconf_adapter.py; do
  expect "the package has $f" grep -qx -- "$f" "$work/files.txt"
done
# Whole folders: every file of the source tree's data folders is packaged.
(cd "$src" && find conformance conformance-large generators spec -type f ! -name '*.pyc' |
  sed 's|^|/usr/share/movconf/|' | sort) >"$work/data-source.txt"
missing=$(sort "$work/files.txt" | comm -23 "$work/data-source.txt" - | head -5 | tr '\n' ' ')
expect "every file of conformance/, conformance-large/, generators/, spec/ (missing: $missing)" \
  test -z "$missing"

dpkg-deb -x "$deb" "$work/root"
# Depends comes from dpkg-shlibdeps over the program alone
# (cmake/MovconfShlibdeps.cmake): it must be the only dynamically linked file.
linked=$(find "$work/root" -type f -exec file {} + | grep 'ELF.*dynamically linked' | cut -d: -f1 |
  sed "s|^$work/root||" | tr '\n' ' ')
expect "the program is the package's one dynamically linked file ($linked)" \
  test "$linked" = "/usr/bin/movconf "
# Installed at /usr, pkg-config names /usr/include (or nothing: it drops
# a system folder), not a path through share/pkgconfig/../...
has "$work/root/usr/share/pkgconfig/movconf-plugin.pc" '^prefix=/usr$'
cflags=$(PKG_CONFIG_PATH="$work/root/usr/share/pkgconfig" pkg-config --cflags movconf-plugin |
  sed 's/ *$//')
expect "pkg-config --cflags movconf-plugin is -I/usr/include or nothing, not '$cflags'" \
  sh -c 'test -z "$1" || test "$1" = -I/usr/include' - "$cflags"
cd "$work/elsewhere" || exit 1
"$work/root/usr/bin/movconf" --version >"$work/version.txt" 2>&1
has "$work/version.txt" "^data folder: $work/root/usr/share/movconf (installed beside the program)$"
"$work/root/usr/bin/movconf" run --quiet >"$work/run.txt" 2>&1
expect "the extracted movconf run exits 0 (see $work/run.txt)" test $? -eq 0
has "$work/run.txt" "^[1-9][0-9]* passed, 0 failed"
expect_report
