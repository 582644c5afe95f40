"""Tests of tools/release_check.sh, the checks `make release` runs on its binaries: a level
this processor lacks is skipped with a message (not run into a crash), a level it has must
give the native build's bench node count, and a dynamically linked binary, a v2 binary with AVX,
a stripped binary, whose instructions cannot be counted, and a Windows binary that imports a
DLL of its own are refused. The release binaries take minutes to build, so these use the
native build of `make test` in the place of a release binary (it is dynamic: the static check
must fail on it). `make test` runs them with the venv's Python:

    target/venv/bin/python3 -m unittest discover -s tools -p 'test_*.py'
"""

import os
import shutil
import subprocess
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "tools", "release_check.sh")
NATIVE = os.path.join(ROOT, "target", "release", "sandglass")

V2 = "cx16 lahf_lm popcnt pni ssse3 sse4_1 sse4_2"
V3 = "avx avx2 bmi1 bmi2 f16c fma abm movbe xsave"


def check(flags, *args):
    """Run the check script on a processor with these /proc/cpuinfo flags."""
    with tempfile.NamedTemporaryFile("w", suffix=".cpuinfo") as cpuinfo:
        cpuinfo.write(f"processor\t: 0\nflags\t\t: fpu {flags} sse2\n")
        cpuinfo.flush()
        env = dict(os.environ, RELEASE_CHECK_CPUINFO=cpuinfo.name)
        return subprocess.run(
            ["bash", SCRIPT, *args], capture_output=True, text=True, env=env
        )


@unittest.skipUnless(
    os.access(NATIVE, os.X_OK) and shutil.which("readelf") and shutil.which("objdump"),
    "needs the release build (cargo build --release) and binutils",
)
class ReleaseCheck(unittest.TestCase):
    def test_a_level_the_processor_lacks_is_skipped_not_run(self):
        run = check(V2, NATIVE, f"linux-x86_64-v3={NATIVE}")
        self.assertIn(
            "bench: skipped, this processor lacks x86-64-v3 "
            "(avx avx2 bmi1 bmi2 f16c fma abm movbe xsave)",
            run.stdout,
        )
        self.assertNotIn("as native", run.stdout)

    def test_a_level_the_processor_has_must_match_the_native_node_count(self):
        run = check(f"{V2} {V3}", NATIVE, f"linux-x86_64-v3={NATIVE}")
        nodes = [line for line in run.stdout.splitlines() if line.startswith("native bench:")]
        self.assertEqual(len(nodes), 1, run.stdout + run.stderr)
        count = nodes[0].split()[2]
        self.assertIn(f"bench: {count} nodes, as native", run.stdout)

    def test_a_dynamic_binary_fails(self):
        run = check(V2, NATIVE, f"linux-x86_64-v2={NATIVE}")
        self.assertNotEqual(run.returncode, 0)
        self.assertIn("has a program interpreter", run.stderr)

    def test_a_stripped_binary_cannot_be_checked_and_fails(self):
        """Stripped, the engine's functions have no names, and a count of their instructions
        would be zero whatever they are: the check must say so and fail, not pass."""
        if not shutil.which("strip"):
            self.skipTest("needs binutils' strip")
        with tempfile.TemporaryDirectory() as tmp:
            stripped = os.path.join(tmp, "sandglass")
            subprocess.run(["strip", "-o", stripped, NATIVE], check=True)
            run = check(V2, NATIVE, f"linux-x86_64-v3={stripped}")
        self.assertNotEqual(run.returncode, 0)
        self.assertIn("has no symbol of the sandglass crate", run.stderr)
        unstripped = check(V2, NATIVE, f"linux-x86_64-v3={NATIVE}")
        self.assertNotIn("has no symbol", unstripped.stderr)

    def test_avx_in_a_v2_binary_fails(self):
        """The native build of a processor with AVX has ymm instructions: as v2 it must fail."""
        run = check(V2, NATIVE, f"linux-x86_64-v2={NATIVE}")
        native = [line for line in run.stdout.splitlines() if "engine's code:" in line][0]
        if native.split()[2] == "0":
            self.skipTest("the native build has no AVX instruction on this processor")
        self.assertNotEqual(run.returncode, 0)
        self.assertIn("has AVX or BMI instructions in the engine's code", run.stderr)

    @unittest.skipUnless(shutil.which("x86_64-w64-mingw32-gcc"), "needs mingw-w64's gcc")
    def test_a_windows_binary_that_needs_a_dll_of_its_own_fails(self):
        """A .exe that imports a DLL Windows does not have (as libgcc_s_seh-1.dll would be)
        cannot start on a player's machine without it: refused by name."""
        with tempfile.TemporaryDirectory() as tmp:
            gcc = "x86_64-w64-mingw32-gcc"
            with open(os.path.join(tmp, "helper.c"), "w") as c:
                c.write("__declspec(dllexport) int helper(void) { return 7; }\n")
            with open(os.path.join(tmp, "main.c"), "w") as c:
                c.write("int helper(void);\nint main(void) { return helper(); }\n")
            subprocess.run(
                [gcc, "-shared", "-o", "helper.dll", "helper.c", "-Wl,--out-implib,libhelper.a"],
                cwd=tmp, check=True,
            )
            subprocess.run([gcc, "-o", "main.exe", "main.c", "-L.", "-lhelper"], cwd=tmp, check=True)
            run = check(f"{V2} {V3}", NATIVE, f"windows-x86_64-v3={os.path.join(tmp, 'main.exe')}")
        self.assertNotEqual(run.returncode, 0)
        self.assertIn("imports DLLs that are not Windows' own: helper.dll", run.stderr)

    def test_a_name_dist_does_not_use_is_refused(self):
        run = check(V2, NATIVE, f"v3={NATIVE}")
        self.assertNotEqual(run.returncode, 0)
        self.assertIn("the name must be linux-x86_64-v2", run.stderr)

    def test_can_run_names_what_is_missing(self):
        self.assertEqual(check(f"{V2} {V3}", "--can-run", "v3").returncode, 0)
        lacking = check(V2.replace("popcnt ", ""), "--can-run", "v2")
        self.assertEqual(lacking.returncode, 1)
        self.assertIn("lacks popcnt", lacking.stderr)
        self.assertEqual(check(V2, "--can-run", "v3").returncode, 1)


if __name__ == "__main__":
    unittest.main()
