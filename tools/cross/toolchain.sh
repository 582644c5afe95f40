#!/usr/bin/env bash
# Makes ready what the Windows and ARM builds of `make release` (and .ci/run's Windows check)
# need, and writes target/cross/rust.env, which tools/cross/build.sh reads:
#
#   tools/cross/toolchain.sh          SANDGLASS_CROSS_RUST=rustup or =debian forces a way
#
# From Debian's packages, installed with apt-get when missing (they are linkers, emulators
# and C libraries, not another Rust):
#   gcc-mingw-w64-x86-64            the Windows linker, with the C runtime it links in
#   wine64, wine                    run the .exe here, for its bench and its games
#   gcc-aarch64-linux-gnu           the ARM linker, and libc6-dev-arm64-cross for a static
#   libc6-dev-arm64-cross           glibc
#   qemu-user                       qemu-aarch64 runs the ARM binary here
#
# The Rust standard library for the two targets comes one of two ways:
# - rustup: `rustup target add` gives it prebuilt, for the machine's own compiler. Taken
#   whenever rustup can add both targets.
# - Debian: where rustup cannot reach its servers, only Debian's packages can be had. Their
#   own Rust (1.63 in bookworm) is older than Cargo.toml's rust-version, but the security
#   archive carries the compiler Debian builds its browsers with (packages rustc-web,
#   cargo-web, rust-web-src: 1.96 as this is written), with the library's sources that match
#   that compiler exactly. Cargo then builds the standard library for the target itself
#   (`-Zbuild-std`; a library's sources from any other compiler fail to build in `core`).
#   The packages are unpacked into target/cross/debian/, never installed: the system's
#   compilers and rustup's stay as they were. Their names come from apt-cache, as they
#   change with each security update.
# Either way, `-Zhost-config` needs RUSTC_BOOTSTRAP=1: build.sh says why.
#
# Last, a Wine prefix of the project's own, target/cross/wine/prefix, for run.sh, made once
# here (about 15 s) so that two engines started at once do not both make it; and in its
# system32 the stand-in bcryptprimitives.dll that Wine 8.0 lacks (bcryptprimitives.c says
# why), built with mingw-w64. Never in dist/.
#
# A missing package that cannot be installed fails with one line naming it. Runs again in
# seconds once everything is there.
set -euo pipefail
cd "$(dirname "$0")/../.."

cross=$PWD/target/cross
targets=(x86_64-pc-windows-gnu aarch64-unknown-linux-gnu)
mkdir -p "$cross"

# The Debian packages by the command each gives.
declare -A package_of=(
  [x86_64-w64-mingw32-gcc]=gcc-mingw-w64-x86-64
  [wine]="wine64 wine"
  [aarch64-linux-gnu-gcc]=gcc-aarch64-linux-gnu
  [qemu-aarch64]=qemu-user
)
missing=()
for command in "${!package_of[@]}"; do
  # shellcheck disable=SC2206 # a value may name two packages
  command -v "$command" >/dev/null || missing+=(${package_of[$command]})
done
[ -f /usr/aarch64-linux-gnu/lib/libc.a ] || missing+=(libc6-dev-arm64-cross)
if [ ${#missing[@]} -gt 0 ]; then
  echo "cross toolchain: installing ${missing[*]} (Debian's packages)"
  if [ "$(id -u)" != 0 ]; then
    echo "error: the Windows and ARM builds need: sudo apt-get install ${missing[*]}" >&2
    exit 1
  fi
  if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    "${missing[@]}"; } >"$cross/apt.log" 2>&1; then
    echo "error: apt-get could not install ${missing[*]} (target/cross/apt.log)" >&2
    exit 1
  fi
fi

# A rustup that cannot reach its servers may wait long before it gives up.
rustup_adds_targets() {
  command -v rustup >/dev/null &&
    timeout 300 rustup target add "${targets[@]}" >"$cross/rustup.log" 2>&1
}

rustup_rust() {
  cat >"$cross/rust.env" <<EOF
# Written by tools/cross/toolchain.sh: rustup's targets, for the machine's own compiler.
CROSS_RUST=rustup
CROSS_PATH=
CROSS_LD_LIBRARY_PATH=
CROSS_BUILD_STD=0
EOF
}

# Debian packages to unpack: the compiler's and cargo's dependencies, first alternative of
# each, that the system lacks.
declare -A seen=()
wanted=()
first_alternatives() {
  apt-cache depends --important "$1" | awk '
    $1 ~ /Depends:$/ { alt = ($1 ~ /^\|/); if (!skip && $2 !~ /^</) print $2; skip = alt }'
}
want() {
  local p
  for p in "$@"; do
    [ -n "${seen[$p]:-}" ] && continue
    seen[$p]=1
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' && continue
    wanted+=("$p")
    # shellcheck disable=SC2046 # one package name a word
    want $(first_alternatives "$p")
  done
}

debian_rust() {
  local root=$cross/debian
  if [ ! -x "$root/usr/bin/cargo" ]; then
    echo "cross toolchain: unpacking Debian's rustc-web into target/cross/debian"
    [ -n "$(apt-cache policy rustc-web 2>/dev/null)" ] || apt-get update -qq || true
    want rustc-web cargo-web rust-web-src
    rm -rf "$cross/debs" "$root"
    mkdir -p "$cross/debs" "$root"
    if ! (cd "$cross/debs" && apt-get download "${wanted[@]}") >"$cross/apt-download.log" 2>&1; then
      echo "error: apt-get download ${wanted[*]} failed (target/cross/apt-download.log)" >&2
      exit 1
    fi
    for deb in "$cross"/debs/*.deb; do
      dpkg-deb -x "$deb" "$root"
    done
  fi
  local libs=$root/usr/lib/x86_64-linux-gnu
  if ! PATH=$root/usr/bin:$PATH LD_LIBRARY_PATH=$libs cargo -V >/dev/null 2>&1; then
    echo "error: Debian's cargo-web in target/cross/debian does not run (a library missing?)" >&2
    exit 1
  fi
  cat >"$cross/rust.env" <<EOF
# Written by tools/cross/toolchain.sh: Debian's rustc-web, unpacked here.
CROSS_RUST=debian
CROSS_PATH=$root/usr/bin
CROSS_LD_LIBRARY_PATH=$libs
CROSS_BUILD_STD=1
EOF
}

case ${SANDGLASS_CROSS_RUST:-auto} in
  rustup)
    if ! rustup_adds_targets; then
      echo "error: rustup cannot add ${targets[*]} (target/cross/rustup.log)" >&2
      exit 1
    fi
    rustup_rust
    ;;
  debian) debian_rust ;;
  auto)
    if rustup_adds_targets; then
      rustup_rust
    else
      echo "cross toolchain: rustup cannot add the targets; Debian's rustc-web instead"
      debian_rust
    fi
    ;;
  *)
    echo "error: SANDGLASS_CROSS_RUST must be rustup or debian, not '$SANDGLASS_CROSS_RUST'" >&2
    exit 1
    ;;
esac

prefix=$cross/wine/prefix
dll=$prefix/drive_c/windows/system32/bcryptprimitives.dll
if [ ! -f "$dll" ] || [ tools/cross/bcryptprimitives.c -nt "$dll" ]; then
  mkdir -p "$cross/wine"
  # Wine's first start says on stderr that 32-bit Wine is missing: 64-bit is all it needs.
  WINEPREFIX=$prefix WINEDEBUG=-all wineboot --init >"$cross/wine/wineboot.log" 2>&1
  if [ ! -d "$(dirname "$dll")" ]; then
    echo "error: wineboot made no prefix in target/cross/wine/prefix (target/cross/wine/wineboot.log)" >&2
    exit 1
  fi
  x86_64-w64-mingw32-gcc -O2 -shared -o "$dll" \
    tools/cross/bcryptprimitives.c tools/cross/bcryptprimitives.def -ladvapi32
fi
echo "cross toolchain: $(sed -n 's/^CROSS_RUST=//p' "$cross/rust.env")'s Rust, mingw-w64, Wine, qemu-aarch64"
