#!/usr/bin/env bash
# The checks `make release` runs on the binaries it is about to put in dist/, before any of
# them is copied there:
#
#   tools/release_check.sh NATIVE NAME=BINARY [NAME=BINARY ...]
#     NAME: linux-x86_64-v2, linux-x86_64-v3, windows-x86_64-v2, windows-x86_64-v3 or
#           linux-aarch64, as the binary is named in dist/
#   tools/release_check.sh --can-run LEVEL      (succeeds if this processor runs x86-64-LEVEL)
#
# 1. Self-contained. A Linux binary is static: no program interpreter and no shared library
#    needed, so it runs on any Linux whatever its C library. A Windows binary imports only
#    Windows' own DLLs (no libgcc_s_seh-1.dll or libwinpthread-1.dll beside it).
# 2. No instruction above its level in the engine's own code (x86-64 only): RUSTFLAGS
#    replaces .cargo/config.toml's target-cpu=native rather than adding to it, and this is
#    what proves it. A v2 binary has no AVX register (ymm, zmm) and no BMI1, BMI2, LZCNT or
#    MOVBE instruction (pext and the like); a v3 binary no AVX-512 register (zmm).
#    Only functions of the sandglass crate are counted: static glibc carries AVX2 and AVX-512
#    copies of memcpy and friends that it picks at run time, as dependencies may, and those
#    are safe on any processor. An ARM binary must be an aarch64 one.
# 3. Same search: each binary's `bench` node count equals NATIVE's, as a build with other
#    instructions must search the same tree; a Windows binary runs under Wine and an ARM one
#    under qemu-aarch64 (tools/cross/run.sh). A level this processor lacks cannot be run
#    here: its bench is skipped with a message, not crashed into.
#
# Exits non-zero if any check fails.
set -euo pipefail

if [ $# -lt 2 ]; then
  echo "usage: $0 NATIVE NAME=BINARY [NAME=BINARY ...] | --can-run LEVEL" >&2
  exit 2
fi
failed=0

fail() {
  echo "FAIL: $*" >&2
  failed=1
}

run=$(dirname "$0")/cross/run.sh

# The last line of `bench` is `<nodes> nodes <nps> nps`; a binary that crashes prints none.
bench_nodes() {
  { "$run" "$1" bench 2>/dev/null || true; } | tail -n 1 | awk '$2 == "nodes" { print $1 }'
}

# Windows' own DLLs, the only ones a Windows binary may import (lower case). api-ms-win-*
# are the API sets every Windows from 7 on resolves; bcryptprimitives.dll is Windows 10's.
windows_dlls=" advapi32.dll bcryptprimitives.dll kernel32.dll msvcrt.dll ntdll.dll \
userenv.dll ws2_32.dll "

# The DLLs a PE file imports, one a line, in lower case.
imported_dlls() {
  objdump -p "$1" | awk '/DLL Name:/ { print tolower($3) }' | sort -u
}

# "<functions> <ymm> <zmm> <bmi>" in the sandglass crate's functions: how many there are, and
# instructions naming AVX or AVX-512 registers, and BMI1, BMI2, LZCNT and MOVBE instructions
# (v3's, none of them v2's). Not tzcnt: LLVM writes trailing_zeros as `rep bsf` at every
# level, which objdump shows as tzcnt and a processor without BMI1 runs as bsf. The functions
# are found by their symbols, so a stripped binary has none and cannot be checked: that fails.
level_instructions() {
  objdump -d --no-show-raw-insn "$1" | awk '
    /^[0-9a-f]+ <.*>:$/ { own = ($0 ~ /9sandglass/); functions += own; next }
    !own { next }
    /%ymm/ { ymm++ }
    /%zmm/ { zmm++ }
    $2 ~ /^(andn|bextr|blsi|blsmsk|blsr|bzhi|mulx|pdep|pext|rorx|sarx|shlx|shrx)$/ { bmi++ }
    $2 ~ /^(lzcnt|movbe)$/ { bmi++ }
    END { print functions + 0, ymm + 0, zmm + 0, bmi + 0 }'
}

# The /proc/cpuinfo flags each level needs (the x86-64 psABI's levels; pni is SSE3, abm
# includes LZCNT).
v2_flags="cx16 lahf_lm popcnt pni ssse3 sse4_1 sse4_2"
v3_flags="$v2_flags avx avx2 bmi1 bmi2 f16c fma abm movbe xsave"
# RELEASE_CHECK_CPUINFO stands in for /proc/cpuinfo in tools/test_release_check.py, which
# plays a processor without v3 on any machine.
cpu_flags=$(grep -m 1 '^flags' "${RELEASE_CHECK_CPUINFO:-/proc/cpuinfo}" 2>/dev/null || true)

# The flags of LEVEL this processor lacks; empty if it can run LEVEL.
missing_flags() {
  local wanted missing=""
  case $1 in
    v2) wanted=$v2_flags ;;
    v3) wanted=$v3_flags ;;
    *) echo "(no such level: v2 or v3)"; return ;;
  esac
  for flag in $wanted; do
    case " ${cpu_flags#*:} " in
      *" $flag "*) ;;
      *) missing="$missing $flag" ;;
    esac
  done
  echo "${missing# }"
}

if [ "$1" = --can-run ]; then
  missing=$(missing_flags "$2")
  if [ -n "$missing" ]; then
    echo "this processor cannot run x86-64-$2: it lacks $missing" >&2
    exit 1
  fi
  exit 0
fi
native=$1
shift

# What the same count finds in the native build shows that it sees what target-cpu=native
# brings, on a processor that has AVX2 or AVX-512.
read -r _ ymm zmm bmi < <(level_instructions "$native")
echo "native $native:"
echo "  engine's code: $ymm ymm, $zmm zmm, $bmi BMI/LZCNT/MOVBE instructions (tzcnt aside)"
native_nodes=$(bench_nodes "$native")
if [ -z "$native_nodes" ]; then
  fail "$native bench printed no node count"
  exit 1
fi
echo "native bench: $native_nodes nodes"

for pair in "$@"; do
  name=${pair%%=*}
  bin=${pair#*=}
  case $name in
    linux-x86_64-v2 | linux-x86_64-v3 | windows-x86_64-v2 | windows-x86_64-v3)
      level=${name##*-}
      ;;
    linux-aarch64) level= ;;
    *)
      fail "$pair: the name must be linux-x86_64-v2, linux-x86_64-v3, windows-x86_64-v2, windows-x86_64-v3 or linux-aarch64"
      continue
      ;;
  esac
  echo "$name $bin:"
  if [ ! -f "$bin" ]; then
    fail "$name: no such file: $bin"
    continue
  fi

  kind=$(file -b "$bin")
  echo "  file: $kind"
  case $name in
    windows-*)
      if [[ $kind != PE32+*x86-64* ]]; then
        fail "$name: $bin is not a Windows x86-64 program"
      fi
      foreign=""
      for dll in $(imported_dlls "$bin"); do
        case "$windows_dlls" in
          *" $dll "*) ;;
          *) [[ $dll == api-ms-win-* ]] || foreign="$foreign $dll" ;;
        esac
      done
      if [ -n "$foreign" ]; then
        fail "$name: $bin imports DLLs that are not Windows' own:$foreign"
      else
        echo "  imports Windows' own DLLs only: $(imported_dlls "$bin" | paste -sd ' ')"
      fi
      ;;
    *)
      if [ "$name" = linux-aarch64 ] && [[ $kind != *"ARM aarch64"* ]]; then
        fail "$name: $bin is not an aarch64 program"
      fi
      # Read whole before grep: `grep -q` leaving a pipe early would fail it under pipefail.
      program_headers=$(readelf -lW "$bin")
      needed=$(readelf -dW "$bin" | grep '(NEEDED)' || true)
      if grep -q 'INTERP' <<<"$program_headers"; then
        fail "$name: $bin has a program interpreter (it is dynamically linked)"
      elif [ -n "$needed" ]; then
        fail "$name: $bin needs shared libraries: $needed"
      else
        echo "  static: no program interpreter, no shared library needed"
      fi
      ;;
  esac

  if [ -n "$level" ]; then
    read -r functions ymm zmm bmi < <(level_instructions "$bin")
    echo "  engine's code: $ymm ymm, $zmm zmm, $bmi BMI/LZCNT/MOVBE instructions (tzcnt aside)"
    if [ "$functions" -eq 0 ]; then
      fail "$name: $bin has no symbol of the sandglass crate, so its instructions cannot be checked (stripped before the check?)"
    fi
    if [ "$level" = v2 ] && [ $((ymm + zmm + bmi)) -ne 0 ]; then
      fail "$name: $bin has AVX or BMI instructions in the engine's code (target-cpu above x86-64-v2?)"
    fi
    if [ "$zmm" -ne 0 ]; then
      fail "$name: $bin uses AVX-512 registers in the engine's code (target-cpu=native?)"
    fi
    missing=$(missing_flags "$level")
    if [ -n "$missing" ]; then
      echo "  bench: skipped, this processor lacks x86-64-$level ($missing)"
      continue
    fi
  fi
  nodes=$(bench_nodes "$bin")
  if [ "$nodes" = "$native_nodes" ]; then
    echo "  bench: $nodes nodes, as native"
  else
    fail "$name: bench gave '$nodes' nodes, native $native_nodes"
  fi
done

exit $failed
