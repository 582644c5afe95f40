#!/usr/bin/env bash
# Builds Sandglass for Windows or ARM Linux with the toolchain tools/cross/toolchain.sh made
# ready (run that first), and prints the binary's path as its last line:
#
#   tools/cross/build.sh TARGET CPU DIR
#     TARGET  x86_64-pc-windows-gnu or aarch64-unknown-linux-gnu
#     CPU     the target-cpu: x86-64-v2 or x86-64-v3 for Windows, generic for ARM (ARMv8-A,
#             the Raspberry Pi 3 on; the 64-bit Pi 4 and 5 too)
#     DIR     cargo's target dir, e.g. target/windows-x86_64-v3
#
# Why it builds as it does:
# - `--target`: the target's standard library and linker. Cargo then keeps RUSTFLAGS from
#   the build scripts, which run here. But the chess crate's build script writes its BMI2
#   tables only when it is itself compiled with BMI2 (#[cfg(target_feature = "bmi2")]), and
#   the crate's BMI2 code then fails without them (E0425, ROOK_BMI_MASK). So the build scripts
#   get the same CPU level through `[host] rustflags` (-Zhost-config, with
#   -Ztarget-applies-to-host so that RUSTFLAGS stays the target's alone). Those flags are
#   unstable: RUSTC_BOOTSTRAP=1 lets the stable compiler take them.
# - Windows: mingw-w64's gcc links (x86_64-pc-windows-gnu). The binary imports Windows' own
#   DLLs only: libgcc and winpthreads are linked in statically by Rust's windows-gnu target.
# - ARM: static, as the Linux x86-64 binaries are, so that it runs on any aarch64 Linux
#   whatever its C library (crt-static may go in RUSTFLAGS here: with `--target` it reaches
#   neither build scripts nor proc-macros).
# - With Debian's compiler (toolchain.sh), `-Zbuild-std` builds the standard library from its
#   sources, about a minute more.
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ $# -ne 3 ]; then
  echo "usage: $0 TARGET CPU DIR" >&2
  exit 2
fi
target=$1
cpu=$2
dir=$3
env_file=target/cross/rust.env
if [ ! -f "$env_file" ]; then
  echo "error: $env_file is missing: run tools/cross/toolchain.sh first" >&2
  exit 1
fi
# shellcheck source=/dev/null
. "$env_file"

flags="-C target-cpu=$cpu"
host_cpu=$cpu
case $target in
  x86_64-pc-windows-gnu)
    export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc
    ;;
  aarch64-unknown-linux-gnu)
    export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
    flags="$flags -C target-feature=+crt-static"
    # The build scripts run on this x86-64 machine: no ARM CPU for them.
    host_cpu=x86-64
    ;;
  *)
    echo "error: TARGET must be x86_64-pc-windows-gnu or aarch64-unknown-linux-gnu, not '$target'" >&2
    exit 2
    ;;
esac

build_std=()
if [ "$CROSS_BUILD_STD" = 1 ]; then
  build_std=(-Zbuild-std=std,panic_abort)
  export PATH=$CROSS_PATH:$PATH
  export LD_LIBRARY_PATH=$CROSS_LD_LIBRARY_PATH${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi

RUSTC_BOOTSTRAP=1 RUSTFLAGS="$flags" cargo build --release --bin sandglass \
  --target "$target" --target-dir "$dir" "${build_std[@]}" \
  -Zhost-config -Ztarget-applies-to-host --config 'target-applies-to-host=false' \
  --config "host.rustflags=[\"-C\",\"target-cpu=$host_cpu\"]" >&2

case $target in
  *windows*) echo "$dir/$target/release/sandglass.exe" ;;
  *) echo "$dir/$target/release/sandglass" ;;
esac
