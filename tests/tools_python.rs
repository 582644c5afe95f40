//! The Python tools' own checks: `tools/tm_spsa.py selftest` verifies the SPSA schedule
//! against its defining end values and the direction of an update. It needs only the
//! standard library, so any `python3` runs it (`SANDGLASS_PYTHON` if set).

use std::process::Command;

const SPSA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tools/tm_spsa.py");

#[test]
fn spsa_tuner_selftest() {
    let python = std::env::var("SANDGLASS_PYTHON")
        .ok()
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| "python3".to_string());
    let out = Command::new(&python)
        .args([SPSA, "selftest"])
        .output()
        .unwrap_or_else(|e| panic!("cannot run {python}: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("selftest ok"),
        "tm_spsa.py selftest failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
