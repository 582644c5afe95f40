#!/usr/bin/env bash
# `make release`: the binaries for players and testers, with their checksums, in dist/:
#
#   dist/sandglass-VERSION-linux-x86_64-v2      x86-64-v2: SSE4.2 and POPCNT (Intel from
#   dist/sandglass-VERSION-windows-x86_64-v2.exe  Nehalem, 2008, AMD from Bulldozer, 2011)
#   dist/sandglass-VERSION-linux-x86_64-v3      x86-64-v3: AVX2, BMI2 and FMA (Intel Core
#   dist/sandglass-VERSION-windows-x86_64-v3.exe  from Haswell, AMD from Zen)
#   dist/sandglass-VERSION-linux-aarch64        64-bit ARM Linux (ARMv8-A: Raspberry Pi 3
#                                               on with a 64-bit system, ARM servers)
#   dist/SHA256SUMS                             `sha256sum -c SHA256SUMS` checks a download
#
#   tools/release.sh            (PGO=1 in the environment: profile-guided, see below)
#
# The Linux x86-64 binaries are built here as described next; the Windows and ARM ones by
# tools/cross/build.sh, with the toolchain tools/cross/toolchain.sh makes ready (mingw-w64,
# Wine, qemu-aarch64, and the target's standard library from rustup or, where rustup cannot
# add it, from Debian's rustc-web unpacked into target/cross/): those scripts say why they
# build as they do. tools/release_check.sh runs every binary, the Windows ones under Wine and
# the ARM one under qemu-aarch64, before anything is written to dist/. PGO applies to the
# Linux x86-64 binaries only.
#
# Testers cannot use the ordinary build, made for the processor of the machine that builds it
# (.cargo/config.toml). RUSTFLAGS replaces that config's target-cpu=native rather than adding
# to it, so nothing of this machine's processor gets in; tools/release_check.sh proves it,
# with the other checks, before anything is written to dist/.
#
# The binaries are static (glibc linked in, static-pie) so that they run on any x86-64 Linux
# whatever its C library. Not with `--target`, which would keep RUSTFLAGS from the build
# scripts: the chess crate's build script writes its BMI2 tables only when it is itself built
# with BMI2, so the v3 build would fail. Without `--target`, crt-static cannot go in RUSTFLAGS
# (proc-macros such as clap_derive cannot be built with it), so `cargo rustc` gives it to the
# final link alone. Each level builds in a target dir of its own, target/x86-64-LEVEL, to leave
# the native build in target/release as it was. dist/'s copies are stripped of their symbols
# (by each target's own binutils `strip`): a tester runs the binary and never debugs it, and
# the download is smaller; a panic still prints its message. Only the copies:
# release_check.sh finds the engine's own functions by their symbols, so it checks the
# binaries before they are stripped.
#
# PGO=1 builds each level twice: instrumented, whose `bench` writes a profile, then optimised
# with that profile (each level's own: the chess crate compiles other code for BMI2). On the
# development machine that gave about 3 % more bench nodes per CPU second for v3 and 6 % for
# v2, with the same node count. Not the default: it doubles the build time, needs
# llvm-profdata from rustc's own LLVM (`rustup component add llvm-tools`), and a processor
# that runs every level. The final binaries go to target/x86-64-LEVEL-pgo.
set -euo pipefail
cd "$(dirname "$0")/.."

levels=(v2 v3)
pgo=${PGO:-0}
version=$(cargo pkgid | sed 's/.*[#@]//')
target=$PWD/target

if [ "$pgo" = 1 ]; then
  host=$(rustc -vV | sed -n 's/^host: //p')
  profdata=$(rustc --print sysroot)/lib/rustlib/$host/bin/llvm-profdata
  if [ ! -x "$profdata" ]; then
    echo "error: PGO=1 needs $profdata: rustup component add llvm-tools" >&2
    exit 1
  fi
  for level in "${levels[@]}"; do
    # The instrumented binary has to run here to write its profile.
    tools/release_check.sh --can-run "$level"
  done
fi

cargo build --release

checks=()
for level in "${levels[@]}"; do
  flags="-C target-cpu=x86-64-$level"
  dir=target/x86-64-$level
  if [ "$pgo" = 1 ]; then
    profile=$target/pgo-x86-64-$level
    rm -rf "$profile"
    RUSTFLAGS="$flags -C profile-generate=$profile/raw" \
      cargo build --release --target-dir "$dir-instrumented"
    # Build scripts and proc-macros ran instrumented during the build: only bench's profile.
    rm -rf "$profile/raw"
    "$dir-instrumented/release/sandglass" bench >/dev/null
    "$profdata" merge -o "$profile/bench.profdata" "$profile/raw"
    flags="$flags -C profile-use=$profile/bench.profdata"
    dir=$dir-pgo
  fi
  RUSTFLAGS="$flags" cargo rustc --release --bin sandglass --target-dir "$dir" \
    -- -C target-feature=+crt-static
  checks+=("linux-x86_64-$level=$dir/release/sandglass")
done

tools/cross/toolchain.sh
for level in "${levels[@]}"; do
  exe=$(tools/cross/build.sh x86_64-pc-windows-gnu "x86-64-$level" "target/windows-x86_64-$level" | tail -n 1)
  checks+=("windows-x86_64-$level=$exe")
done
arm=$(tools/cross/build.sh aarch64-unknown-linux-gnu generic target/linux-aarch64 | tail -n 1)
checks+=("linux-aarch64=$arm")

tools/release_check.sh target/release/sandglass "${checks[@]}"

rm -rf dist
mkdir dist
names=()
for check in "${checks[@]}"; do
  kind=${check%%=*}
  case $kind in
    windows-*) name=sandglass-$version-$kind.exe strip=x86_64-w64-mingw32-strip ;;
    linux-aarch64) name=sandglass-$version-$kind strip=aarch64-linux-gnu-strip ;;
    *) name=sandglass-$version-$kind strip=strip ;;
  esac
  "$strip" -o "dist/$name" "${check#*=}"
  names+=("$name")
done
(cd dist && sha256sum "${names[@]}" >SHA256SUMS)
echo "dist/:"
cat dist/SHA256SUMS
