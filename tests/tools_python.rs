//! The Python tools' own checks: `tools/tm_spsa.py selftest` verifies the SPSA schedule
//! against its defining end values and the direction of an update, and the match tools'
//! engine check reads the real engine's refusal of a file that is not a network. They need
//! only the standard library, so any `python3` runs them (`SANDGLASS_PYTHON` if set).

use std::process::Command;

const SPSA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tools/tm_spsa.py");

/// `SANDGLASS_PYTHON` when set (`make test` sets its virtual environment's), else `python3`.
fn python() -> String {
    std::env::var("SANDGLASS_PYTHON")
        .ok()
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| "python3".to_string())
}

#[test]
fn spsa_tuner_selftest() {
    let python = python();
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

/// The match tools start each engine with its options before any game
/// (`tools/fastchess_run.py`, `check_options`): the real engine must say, in a line they read,
/// that a file is not a network, and say nothing of the kind about a real one. Otherwise a
/// match would pit the embedded network against itself and look valid.
#[test]
fn match_tools_see_the_engine_refuse_a_file_that_is_not_a_network() {
    let python = python();
    let root = env!("CARGO_MANIFEST_DIR");
    let script = "import sys; sys.path.insert(0, sys.argv[1]); import fastchess_run as fr; \
                  print(fr.check_options(fr.Engine('s', sys.argv[2], ['EvalFile=' + sys.argv[3], 'Hash=16'])))";
    let check = |file: &str| {
        let out = Command::new(&python)
            .args([
                "-c",
                script,
                &format!("{root}/tools"),
                env!("CARGO_BIN_EXE_sandglass"),
            ])
            .arg(format!("{root}/{file}"))
            .output()
            .unwrap_or_else(|e| panic!("cannot run {python}: {e}"));
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    };
    let refused = check("Cargo.toml");
    assert!(refused.contains("not a Sandglass network"), "{refused}");
    assert_eq!(check("data/nets/net8-candidate.nnue"), "[]");
}
