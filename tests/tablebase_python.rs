//! The engine's Syzygy probes against an independent prober: python-chess's `chess.syzygy`
//! (a Python port of Ronald de Man's probing code) reads the shipped 3- and 4-man tables
//! itself, and on 1,050 random legal positions, 30 of each of the 35 materials, its WDL and
//! DTZ must equal what `sandglass probe` prints (`tests/python/tablebase_crosscheck.py`).
//!
//! The Python is found as in `tests/uci_python.rs`: `SANDGLASS_PYTHON` (which `make test`
//! sets to its virtual environment's), else `target/venv`, else `python3`. Without
//! python-chess the test fails; it is never skipped silently.

use std::path::Path;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_sandglass");
const SCRIPT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/python/tablebase_crosscheck.py"
);
const TABLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/syzygy");
const VENV_PYTHON: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/target/venv/bin/python3");

fn python() -> String {
    match std::env::var("SANDGLASS_PYTHON") {
        Ok(p) if !p.is_empty() => p,
        _ if Path::new(VENV_PYTHON).exists() => VENV_PYTHON.to_string(),
        _ => "python3".to_string(),
    }
}

#[test]
fn probes_agree_with_python_chess_on_every_material() {
    let python = python();
    let out = Command::new(&python)
        .args([SCRIPT, BIN, TABLES, "30", "85"])
        .output()
        .unwrap_or_else(|e| {
            panic!("cannot run {python}: {e}; run `make test`, which installs python-chess")
        });
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("checked 1050 positions over 35 material sets, 0 disagree"),
        "{stdout}"
    );
}
