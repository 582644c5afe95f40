# OpenBench builds with `make EXE=path`; the default target is that release binary.
# FEATURES=tune builds the SPSA build (docs/tuning.md); a tuning branch sets it here.
EXE ?= sandglass
FEATURES ?=

# python-chess, for tests/uci_python.rs, lives in a virtual environment inside target/:
# Debian and Ubuntu refuse `pip install` into the system Python (PEP 668), and `cargo clean`
# removes it with everything else the build made.
VENV := target/venv
PYTHON := $(abspath $(VENV))/bin/python3

.PHONY: all test python-deps browser-test windows-check release clean

all:
	cargo build --release $(if $(FEATURES),--features $(FEATURES))
	cp target/release/sandglass $(EXE)

# The test command of the README and of .ci/run: everything in release (the perft suites and
# the engine tests need the speed), then the unit tests and the FEN tests again in debug,
# where overflow checks and the standard library's checks of unsafe preconditions are on
# (they caught the chess crate reading past a table on a board without a king), then the
# match tools' own tests (tools/test_*.py: statistics and fastchess output, no games).
# SANDGLASS_PYTHON tells tests/uci_python.rs which Python to run.
test: python-deps
	SANDGLASS_PYTHON=$(PYTHON) cargo test --release
	cargo test --lib --test fen
	$(PYTHON) -m unittest discover -s tools -p 'test_*.py'

# A venv left without pip (python3-venv was missing when it was made) is made again.
python-deps:
	@test -x $(VENV)/bin/pip || { rm -rf $(VENV) && python3 -m venv $(VENV); } || { \
		echo "error: python3 -m venv failed; on Debian/Ubuntu: sudo apt install python3-venv" >&2; \
		rm -rf $(VENV); exit 1; }
	@$(PYTHON) -c "import chess" 2>/dev/null || $(PYTHON) -m pip install --quiet chess

# `sandglass watch` in headless Chromium (Debian's chromium and chromium-driver), driven by
# Selenium, which is installed into the same venv: it plays three moves of a 60+0.6 game,
# checks the clocks, the bars and the reasons, pauses, saves, loses the server, and leaves
# its screenshots in target/browser-test/ (tools/watch_browser.py says what it checks).
# A new machine may have neither: as root they are installed from Debian's packages here,
# otherwise one line says what to install.
browser-test: python-deps
	@test -x /usr/bin/chromedriver || { [ "$$(id -u)" = 0 ] && apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null; } || { \
		echo "error: make browser-test needs Debian's chromium and chromium-driver: sudo apt-get install chromium chromium-driver" >&2; \
		exit 1; }
	@$(PYTHON) -c "import selenium" 2>/dev/null || $(PYTHON) -m pip install --quiet selenium
	cargo build --release
	$(PYTHON) tools/watch_browser.py target/release/sandglass --out target/browser-test

# The Windows x86-64-v3 binary of `make release`, built and checked under Wine as .ci/run does:
# tools/cross/toolchain.sh installs what it needs from Debian's packages (mingw-w64, Wine),
# release_check.sh compares its imports, its instructions and its bench with the native
# build's, and windows_uci_check.py plays a Windows GUI at it (CRLF lines, Threads 2, EvalFile
# and SyzygyPath with drive letters, `;` and spaces). About 5 minutes on two cores.
WINDOWS_EXE := target/windows-x86_64-v3/x86_64-pc-windows-gnu/release/sandglass.exe
windows-check:
	cargo build --release
	tools/cross/toolchain.sh
	tools/cross/build.sh x86_64-pc-windows-gnu x86-64-v3 target/windows-x86_64-v3
	tools/release_check.sh target/release/sandglass windows-x86_64-v3=$(WINDOWS_EXE)
	python3 tools/cross/windows_uci_check.py $(WINDOWS_EXE)

# The release binaries, with SHA256SUMS, in dist/: static Linux x86-64-v2 and x86-64-v3,
# Windows x86-64-v2 and x86-64-v3, static aarch64 Linux; each is checked (self-contained, no
# instruction above its level, the native build's bench node count, under Wine or
# qemu-aarch64 where it is not native) before dist/ is written. The scripts say why they build
# as they do. `make release PGO=1` builds the Linux x86-64 ones profile-guided (needs rustup's
# llvm-tools and a processor that runs v3).
PGO ?= 0
release:
	PGO=$(PGO) tools/release.sh

clean:
	cargo clean
