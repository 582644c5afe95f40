//! `sandglass tune --spsa-params` prints the search's tunable constants as OpenBench's SPSA
//! input, one well-formed line each, in any build; a `--features tune` build offers each as
//! a UCI spin option with the range the line gives, and refuses a value outside it.

mod common;

use common::tools::{accepted, tool};

/// One parsed line: name, default, min, max, c_end, r_end.
type Row = (String, i64, i64, i64, f64, f64);

/// `NAME, int, DEFAULT, MIN, MAX, C_END, R_END`, as OpenBench's tune form checks it.
fn parse(line: &str) -> Row {
    let fields: Vec<&str> = line.split(", ").collect();
    assert_eq!(fields.len(), 7, "{line:?}: not seven fields");
    assert!(
        fields.iter().all(|f| f.trim() == *f && !f.is_empty()),
        "{line:?}"
    );
    assert_eq!(fields[1], "int", "{line:?}");
    let int = |i: usize| -> i64 {
        fields[i]
            .parse()
            .unwrap_or_else(|_| panic!("{line:?}: field {} is not an integer", i + 1))
    };
    let float = |i: usize| -> f64 {
        fields[i]
            .parse()
            .unwrap_or_else(|_| panic!("{line:?}: field {} is not a number", i + 1))
    };
    (
        fields[0].to_string(),
        int(2),
        int(3),
        int(4),
        float(5),
        float(6),
    )
}

fn rows() -> Vec<Row> {
    accepted(&["tune", "--spsa-params"])
        .lines()
        .map(parse)
        .collect()
}

#[test]
fn every_line_is_openbench_spsa_input() {
    let rows = rows();
    assert!(rows.len() >= 40, "only {} parameters", rows.len());
    let mut names: Vec<&str> = Vec::new();
    for (name, default, min, max, c_end, r_end) in &rows {
        assert!(
            name.chars().all(|c| c.is_ascii_alphanumeric()),
            "{name}: not a plain option name"
        );
        assert!(!names.contains(&name.as_str()), "{name} twice");
        names.push(name);
        assert!(
            min <= default && default <= max,
            "{name}: {min} {default} {max}"
        );
        assert!(
            *c_end >= 0.5,
            "{name}: c_end {c_end} below OpenBench's 0.5 for an int"
        );
        assert_eq!(*r_end, 0.002, "{name}");
    }
    for expected in [
        "LmrBase",
        "LmrDivisor",
        "RfpMargin",
        "DoubleExtMargin",
        "AspDelta",
    ] {
        assert!(names.contains(&expected), "no {expected}");
    }
}

#[test]
fn spsa_params_and_a_texel_run_are_not_asked_together() {
    let both = tool(&["tune", "--spsa-params", "--pgn", "games.pgn"]);
    assert!(!both.status.success());
    let neither = tool(&["tune"]);
    assert!(!neither.status.success());
    assert!(String::from_utf8_lossy(&neither.stderr).contains("--pgn"));
    let help = accepted(&["tune", "--help"]);
    assert!(
        help.contains("--spsa-params") && help.contains("--features tune"),
        "{help}"
    );
}

/// The options a `tune` build declares are the printed lines, and one set outside its range
/// is refused with an error line while the engine plays on.
#[cfg(feature = "tune")]
#[test]
fn a_tune_build_offers_every_parameter_as_a_spin_option() {
    use common::{Engine, LIVE};
    let mut e = Engine::start();
    e.send("uci");
    let declared: Vec<String> = e
        .collect_until(|l| l.is("uciok"), LIVE, "uciok")
        .into_iter()
        .map(|l| l.text)
        .collect();
    for (name, default, min, max, _, _) in rows() {
        let line = format!("option name {name} type spin default {default} min {min} max {max}");
        assert!(declared.contains(&line), "not declared: {line}");
    }
    e.send("setoption name RfpMargin value 80");
    assert!(e.sync().iter().all(|l| !l.is_error()), "80 refused");
    e.send("setoption name RfpMargin value 100000");
    let lines = e.sync();
    assert!(
        lines
            .iter()
            .any(|l| l.is_error() && l.text.contains("RfpMargin")),
        "an out-of-range value was taken: {lines:?}"
    );
    e.send("position startpos");
    e.send("go depth 4");
    e.until_bestmove(LIVE);
    e.finish();
}
