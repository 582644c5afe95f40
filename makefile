# OpenBench builds with `make EXE=path`; the default target is that release binary.
EXE ?= sandglass

.PHONY: all test python-deps clean

all:
	cargo build --release
	cp target/release/sandglass $(EXE)

# The test command of the README and of .ci/run: everything in release (the perft suites and
# the engine tests need the speed), then the FEN tests again in debug, where overflow checks
# are on.
test: python-deps
	cargo test --release
	cargo test --test fen

# python-chess drives the engine as a real client in tests/uci_python.rs.
python-deps:
	@python3 -c "import chess" 2>/dev/null || python3 -m pip install --quiet chess

clean:
	cargo clean
