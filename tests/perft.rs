//! Every shipped perft suite, to the depths that keep this file near a minute in release on two
//! cores (debug builds check the small entries only).

use sandglass::tools::perft::{parse_suite_line, run_suite, SuiteOptions};

const MAX_NODES: u64 = if cfg!(debug_assertions) {
    100_000
} else {
    150_000_000
};

fn check(name: &str, expect_unreachable: usize) {
    let path = format!("{}/perft/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("suite file");
    let mut problems = Vec::new();
    let options = SuiteOptions {
        max_nodes: Some(MAX_NODES),
        ..SuiteOptions::default()
    };
    let report = run_suite(&text, options, |line| problems.push(line));
    let mismatches: Vec<_> = problems.iter().filter(|l| !l.contains("note:")).collect();
    assert!(mismatches.is_empty(), "{name}: {mismatches:#?}");
    assert_eq!(report.failures, 0);
    assert_eq!(report.invalid, 0);
    assert_eq!(report.unreachable, expect_unreachable, "{name}");
    assert!(report.checks > 0);
    eprintln!("{name}: {}", report.summary());
}

#[test]
fn classic6() {
    check("classic6.epd", 0);
}

#[test]
fn standard() {
    // Line 51 is the impossible double check B6b/8/8/8/2K5/5k2/8/b6B: accepted and reported.
    check("standard.epd", 1);
}

#[test]
fn tricky() {
    check("tricky.epd", 1);
}

/// Chess960 start positions and hand-made castling cases, counted by python-chess
/// (tools/chess960_perft.py); read as Chess960 from their Shredder-FEN castling letters.
#[test]
fn chess960() {
    check("chess960.epd", 0);
}

#[test]
fn double_checks() {
    check("double-checks.epd", 0);
}

#[test]
fn suite_lines_in_every_spelling() {
    for line in [
        "8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 3 ;D2 9",
        "8/8/8/8/8/8/8/K6k w - - 0 1; D1 3; D2 9",
        "8/8/8/8/8/8/8/K6k w - -  0 1;  D1  3 ;D2 9\r",
        "8/8/8/8/8/8/8/K6k w - - 0 1; D1 3; D2 9\0",
    ] {
        let (fen, entries) = parse_suite_line(line).unwrap().unwrap();
        assert!(fen.starts_with("8/8/8/8/8/8/8/K6k w - -"));
        assert_eq!(entries, vec![(1, 3), (2, 9)], "{line:?}");
    }
    assert!(parse_suite_line("   \r").is_none());
    assert!(parse_suite_line("8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 three")
        .unwrap()
        .is_err());
    // A wrong count is reported as a mismatch with FEN, depth, expected and got.
    let mut lines = Vec::new();
    let report = run_suite(
        "8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 4\n",
        SuiteOptions::default(),
        |l| lines.push(l),
    );
    assert_eq!(report.failures, 1);
    assert!(lines[0].contains("K6k") && lines[0].contains("depth 1: expected 4, got 3"));
}
