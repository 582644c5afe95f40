#!/usr/bin/env bash
# Runs a Sandglass binary of another system here: a Windows .exe under Wine, an ARM Linux
# binary under qemu-aarch64, anything else as it is. Standard input and output pass
# through, so a match runner can take this script as the engine's command:
#
#   tools/cross/run.sh BINARY [ARGUMENTS ...]
#
# Wine gets the prefix of its own that tools/cross/toolchain.sh made in
# target/cross/wine/prefix, with the stand-in bcryptprimitives.dll in its system32
# (bcryptprimitives.c says why), so the .exe's folder stays as dist/ ships it; and quiet
# logging.
set -euo pipefail

if [ $# -lt 1 ]; then
  echo "usage: $0 BINARY [ARGUMENTS ...]" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/../.." && pwd)
binary=$1
shift
if [ ! -f "$binary" ]; then
  echo "error: no such binary: $binary" >&2
  exit 2
fi

case $(file -b "$binary" 2>/dev/null || true) in
  PE32+*)
    export WINEPREFIX=$root/target/cross/wine/prefix
    if [ ! -f "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll" ]; then
      echo "error: no Wine prefix with bcryptprimitives.dll: run tools/cross/toolchain.sh" >&2
      exit 1
    fi
    export WINEDEBUG=${WINEDEBUG:--all}
    exec wine "$binary" "$@"
    ;;
  *"ARM aarch64"*)
    exec qemu-aarch64 "$binary" "$@"
    ;;
  *)
    exec "$binary" "$@"
    ;;
esac
