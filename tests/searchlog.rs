//! `sandglass searchlog` on tiny inputs: the log's columns, one line per completed iteration,
//! and the outcome's meaning (a forced move never changes; a shallow search that picks
//! another move than the deep one is marked, with what the change gained), and bad input
//! refused in one line with exit code 2.

mod common;

use common::tools::{accepted, arg, tool, Scratch};
use std::collections::HashMap;

/// The header the log must start with (`tools::searchlog::record::COLUMNS`, spelled out:
/// a fit reads these names).
const HEADER: &str = "pos,origin,fen,ply,phase,men,legal_moves,depth,seldepth,elapsed_ms,\
iteration_ms,nodes,best,score,score_drop,score_trend3,best_move_changes,changes_so_far,\
stable_iterations,node_share,adjust_scale,end_2x_ms,end_predicted_ms,next_end_ms,next_nodes,\
final_depth,final_move,final_score,changed,gain_cp";

/// Only one legal move: White's king must take the rook.
const FORCED: &str = "k7/8/8/8/8/8/1r6/K6r w - - 0 1";
/// Depth 1 checks with the rook (f4f1); the deep search pushes the pawn (c3c2) and wins.
const DEEPER_CHANGES: &str = "8/8/8/5PR1/2k2r2/1pp5/8/3K4 b - - 1 50";

/// The log's lines as maps from column to field, after checking the header and the width.
fn log(args: &[&str]) -> Vec<HashMap<String, String>> {
    parse(&accepted(args))
}

fn parse(out: &str) -> Vec<HashMap<String, String>> {
    let mut lines = out.lines();
    assert_eq!(lines.next(), Some(HEADER));
    let names: Vec<&str> = HEADER.split(',').collect();
    lines
        .map(|line| {
            let fields: Vec<&str> = line.split(',').collect();
            assert_eq!(fields.len(), names.len(), "{line}");
            names
                .iter()
                .zip(fields)
                .map(|(n, f)| (n.to_string(), f.to_string()))
                .collect()
        })
        .collect()
}

fn num(row: &HashMap<String, String>, column: &str) -> f64 {
    row[column]
        .parse()
        .unwrap_or_else(|_| panic!("{column} = {:?} is not a number", row[column]))
}

/// Each position's lines are its iterations 1, 2, … up to the final depth, and the
/// features say what they claim.
fn check_iterations(rows: &[HashMap<String, String>]) {
    let mut by_pos: HashMap<&str, Vec<&HashMap<String, String>>> = HashMap::new();
    for row in rows {
        by_pos.entry(&row["pos"]).or_default().push(row);
    }
    for lines in by_pos.values() {
        let last = lines[lines.len() - 1];
        for (i, row) in lines.iter().enumerate() {
            assert_eq!(num(row, "depth") as usize, i + 1);
            assert_eq!(row["final_depth"], last["depth"]);
            assert_eq!(row["final_move"], last["best"]);
            assert_eq!(row["final_score"], last["score"]);
            let changed = row["best"] != row["final_move"];
            assert_eq!(row["changed"], if changed { "1" } else { "0" });
            if !changed {
                assert_eq!(row["gain_cp"], "0");
            }
            let predicted = num(row, "elapsed_ms") + 2.0 * num(row, "iteration_ms");
            assert!((num(row, "end_2x_ms") - predicted).abs() < 0.01, "{row:?}");
            let share = num(row, "node_share");
            assert!((0.0..=1.0).contains(&share), "{row:?}");
            let is_last = i + 1 == lines.len();
            assert_eq!(row["next_end_ms"].is_empty(), is_last, "{row:?}");
            if !is_last {
                assert_eq!(row["next_nodes"], lines[i + 1]["nodes"]);
            }
        }
    }
}

#[test]
fn a_forced_move_never_changes() {
    let dir = Scratch::new("searchlog-forced");
    let epd = dir.file("one.epd", format!("{FORCED}\n"));
    let rows = log(&["searchlog", "--positions", arg(&epd), "--nodes", "3000"]);
    assert!(rows.len() > 1, "{rows:?}");
    check_iterations(&rows);
    for row in &rows {
        assert_eq!(row["legal_moves"], "1");
        assert_eq!(row["best"], "a1b2");
        assert_eq!(
            (row["changed"].as_str(), row["gain_cp"].as_str()),
            ("0", "0")
        );
        assert_eq!(row["fen"], FORCED);
        assert_eq!(row["origin"], "1");
    }
}

#[test]
fn a_move_the_deeper_search_overturns_is_marked_with_its_gain() {
    let dir = Scratch::new("searchlog-changes");
    let epd = dir.file("two.epd", format!("{FORCED}\n{DEEPER_CHANGES}\n"));
    let out = dir.join("log.csv");
    let args = ["--positions", arg(&epd), "--nodes", "20000", "--seed", "3"];
    let run = tool(&[&["searchlog", "--out", arg(&out)], &args[..]].concat());
    assert!(run.status.success(), "{run:?}");
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.contains("2 positions") && stderr.contains("iterations a second"),
        "{stderr}"
    );
    let text = std::fs::read_to_string(&out).expect("the log was written");
    let rows = parse(&text);
    check_iterations(&rows);
    let deep: Vec<_> = rows.iter().filter(|r| r["fen"] == DEEPER_CHANGES).collect();
    let first = deep[0];
    assert_eq!(first["depth"], "1");
    assert_ne!(first["best"], first["final_move"], "{first:?}");
    assert_eq!(first["changed"], "1");
    assert!(num(first, "gain_cp") > 100.0, "{first:?}");
    assert!(num(first, "final_depth") > 1.0);
    // Two threads search the positions at once and write the same log, in the same order.
    let two = log(&[&["searchlog", "--threads", "2"], &args[..]].concat());
    let timeless = |r: &HashMap<String, String>| {
        let mut r = r.clone();
        for c in [
            "elapsed_ms",
            "iteration_ms",
            "end_2x_ms",
            "end_predicted_ms",
            "next_end_ms",
        ] {
            r.remove(c);
        }
        r
    };
    let a: Vec<_> = rows.iter().map(timeless).collect();
    let b: Vec<_> = two.iter().map(timeless).collect();
    assert_eq!(a, b);
}

#[test]
fn pgn_positions_are_sampled_by_the_seed() {
    let dir = Scratch::new("searchlog-pgn");
    let pgn = dir.file("g.pgn", "[Event \"t\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 *\n");
    let run = |limit: &str, skip: &str| {
        let rows = log(&[
            "searchlog",
            "--positions",
            arg(&pgn),
            "--nodes",
            "2000",
            "--limit",
            limit,
            "--seed",
            "9",
            "--skip",
            skip,
        ]);
        check_iterations(&rows);
        let mut origins: Vec<String> = rows
            .iter()
            .map(|r| format!("{} {}", r["pos"], r["origin"]))
            .collect();
        origins.dedup();
        origins
    };
    let two = run("2", "0");
    let all = run("10", "0");
    let rest = run("10", "2");
    assert_eq!(two.len(), 2);
    assert_eq!(all.len(), 5, "{all:?}");
    assert_eq!(two[..], all[..2], "a larger sample begins with the smaller");
    assert_eq!(
        [two, rest].concat(),
        all,
        "a part that skips what an earlier part searched completes it, numbered as one log"
    );
    assert!(all
        .iter()
        .all(|o| o.split(' ').nth(1).is_some_and(|g| g.starts_with("1/"))));
}

/// Runs `searchlog` with `args`, which must fail with exit code 2 and say `why` in one line.
fn refused(args: &[&str], why: &str) {
    let out = tool(&[&["searchlog"], args].concat());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(
        stderr.contains(why) && !stderr.contains("panicked"),
        "{args:?}: {stderr}"
    );
    assert!(out.stdout.is_empty() || !String::from_utf8_lossy(&out.stdout).contains(','));
}

#[test]
fn bad_input_is_refused_in_one_line() {
    let dir = Scratch::new("searchlog-bad");
    let missing = dir.join("missing.epd");
    refused(
        &["--positions", arg(&missing), "--nodes", "100"],
        "cannot read",
    );
    let bad = dir.file("bad.epd", format!("{FORCED}\nnot/a/fen w - -\n"));
    let out = tool(&["searchlog", "--positions", arg(&bad), "--nodes", "100"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("line 2: bad FEN"), "{stderr}");
    let good = dir.file("good.epd", format!("{FORCED}\n"));
    let good = arg(&good);
    refused(&["--positions", good, "--nodes", "0"], "--nodes");
    refused(&["--positions", good, "--nodes", "many"], "--nodes");
    refused(&["--positions", good, "--movetime", "-5"], "--movetime");
    refused(&["--positions", good], "--nodes");
    refused(
        &["--positions", good, "--nodes", "9", "--movetime", "9"],
        "cannot be used with",
    );
    refused(
        &["--positions", good, "--nodes", "9", "--limit", "x"],
        "--limit",
    );
    refused(
        &["--positions", good, "--nodes", "9", "--skip", "x"],
        "--skip",
    );
    refused(
        &["--positions", good, "--nodes", "9", "--skip", "1"],
        "--skip 1: the sample has only 1 position",
    );
    let empty = dir.file("empty.epd", "# nothing\n");
    refused(&["--positions", arg(&empty), "--nodes", "9"], "no position");
    let pgn = dir.file("bad.pgn", "[Event \"t\"]\n\n1. e4 e5 2. Qh5 Ke3 *\n");
    refused(&["--positions", arg(&pgn), "--nodes", "9"], "ply 4");
}
