/* A stand-in for Windows' bcryptprimitives.dll, for running Sandglass under Wine only: it
 * is never shipped. Rust's standard library (1.78 on) takes its random numbers (the hash
 * maps' keys) from ProcessPrng in bcryptprimitives.dll, which Windows 10 and 11 have and
 * Wine has only from 8.13; Debian 12's Wine 8.0 refuses to start the program without it
 * (exit code 53). This ProcessPrng fills the buffer from advapi32's SystemFunction036
 * (RtlGenRandom), which every Wine has. tools/cross/toolchain.sh builds it with mingw-w64. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
  while (length > 0) {
    ULONG chunk = length > 0x10000000 ? 0x10000000 : (ULONG)length;
    if (!SystemFunction036(data, chunk)) {
      return FALSE;
    }
    data += chunk;
    length -= chunk;
  }
  return TRUE;
}
