//! Bad input to the command-line tools, from an audit of binary 31d3306: each case is now
//! refused with a message and a failing status, or counted as documented, where it used to
//! crash, be ignored, or give a wrong answer with a status of success.

mod common;

use common::tools::{accepted, arg, tool, Scratch};
use std::path::PathBuf;

/// Runs `sandglass args`, which must exit (not crash) with a failing status and say on stderr
/// something containing `why`; returns its stderr.
fn refused(args: &[&str], why: &str) -> String {
    let out = tool(args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        matches!(out.status.code(), Some(1 | 2)),
        "{args:?} ended with {} instead of an error\nstdout: {stdout}\nstderr: {stderr}",
        out.status
    );
    assert!(
        stderr.contains(why) && !stderr.contains("panicked"),
        "{args:?}: expected {why:?} on stderr, got: {stderr}"
    );
    stderr
}

const CHESS960: &str = "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1";
const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// `perft 0 --baseline` overflowed the stack (the chess crate's loop takes `depth - 1` at
/// depth 0) and died with SIGABRT, from the command line and from a suite's `;D0 1`.
#[test]
fn perft_depth_zero_with_the_baseline_counts_the_root() {
    let out = accepted(&["perft", "0", "--baseline"]);
    assert!(out.contains("perft 0: 1 nodes"), "{out}");
    let dir = Scratch::new("perft-zero");
    let suite = dir.file("s0.epd", format!("{STARTPOS} ;D0 1 ;D1 20\n"));
    let out = accepted(&["perft", "--baseline", "--suite", &suite.to_string_lossy()]);
    assert!(out.contains("checks 2, failures 0, invalid 0"), "{out}");
}

/// `perft 0 --divide` printed each root move with 1 and a total of 20; the count at depth 0
/// is the root alone, with no moves below it.
#[test]
fn perft_depth_zero_divides_into_nothing() {
    let out = accepted(&["perft", "0", "--divide"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1, "{out}");
    assert!(lines[0].starts_with("perft 0: 1 nodes"), "{out}");
}

/// `--baseline` counts standard chess, so on a Chess960 position it gave 23 where the tree
/// has 25, and a suite run reported a false MISMATCH.
#[test]
fn perft_baseline_refuses_chess960() {
    refused(
        &["perft", "1", "--fen", CHESS960, "--baseline"],
        "--baseline counts standard chess only",
    );
    refused(&["perft", "1", "--chess960", "--baseline"], "--chess960");
    let dir = Scratch::new("perft-960");
    let suite = dir.file("c960.epd", format!("{CHESS960} ;D1 25\n"));
    let out = tool(&["perft", "--baseline", "--suite", &suite.to_string_lossy()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("line 1: --baseline counts standard chess only")
            && stdout.contains("invalid 1")
            && !stdout.contains("MISMATCH"),
        "{stdout}"
    );
}

/// `perft 3 --fen garbage --divide --suite FILE` ran the suite and ignored the rest, the bad
/// FEN included; the suite-only limits were ignored without one.
#[test]
fn perft_suite_refuses_what_it_would_ignore() {
    let dir = Scratch::new("perft-suite");
    let suite = dir.file("one.epd", "8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 3\n");
    let s = suite.to_string_lossy().into_owned();
    for args in [
        &["perft", "3", "--suite", &s][..],
        &["perft", "--fen", "garbage", "--suite", &s][..],
        &["perft", "--divide", "--suite", &s][..],
    ] {
        refused(args, "cannot be used with");
    }
    refused(&["perft", "1", "--max-depth", "2"], "cannot be used with");
    refused(
        &["perft", "--fen", STARTPOS, "--max-nodes", "2"],
        "cannot be used with",
    );
    refused(&["perft", "--max-depth", "2"], "--suite");
    accepted(&["perft", "--suite", &s, "--max-depth", "1"]);
}

/// `--hash 0`, `--hash 40000` and `--hash 18446744073709551615` were replaced by a 1 MB table
/// without a word, in `epd` and in `selfplay`.
#[test]
fn epd_and_selfplay_refuse_a_table_they_cannot_have() {
    let epd = concat!(env!("CARGO_MANIFEST_DIR"), "/data/epd/wac.epd");
    let dir = Scratch::new("hash");
    let out = dir.file("games.pgn", "");
    let out = out.to_string_lossy();
    for hash in ["0", "40000", "18446744073709551615"] {
        let stderr = refused(
            &["epd", epd, "--nodes", "100", "--limit", "1", "--hash", hash],
            "--hash",
        );
        assert!(stderr.contains(&format!("Hash {hash} MB")), "{stderr}");
        refused(
            &[
                "selfplay",
                "--chess960",
                "--games",
                "1",
                "--nodes",
                "50",
                "--out",
                &out,
                "--hash",
                hash,
            ],
            &format!("--hash: Hash {hash} MB"),
        );
    }
}

/// `tm --pgn` ignored the simulation's options (`--tc garbage --plies 0 --use NaN` ran), and
/// `tm --tc` the replay's (`--html X.html` wrote nothing, with a status of success).
#[test]
fn tm_refuses_options_it_would_ignore() {
    let pgn = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/tm/hand.pgn");
    for args in [
        &["tm", "--pgn", pgn, "--tc", "garbage"][..],
        &["tm", "--pgn", pgn, "--plies", "0"][..],
        &["tm", "--pgn", pgn, "--use", "NaN"][..],
        &["tm", "--pgn", pgn, "--lag=-5"][..],
        &["tm", "--pgn", pgn, "--rem"][..],
    ] {
        refused(args, "cannot be used with");
    }
    let dir = Scratch::new("tm-options");
    let html = dir.file("x.html", "");
    let html = html.to_string_lossy();
    for args in [
        &["tm", "--tc", "300+3", "--html", &html][..],
        &["tm", "--tc", "300+3", "--game", "5"][..],
        &["tm", "--tc", "300+3", "--player", "nobody"][..],
        &["tm", "--rem", "--html", &html][..],
    ] {
        refused(args, "cannot be used with");
    }
    refused(&["tm", "--html", &html], "--pgn");
    refused(&["tm", "--game", "1"], "--pgn");
    accepted(&["tm", "--pgn", pgn, "--strategy", "all", "--overhead", "20"]);
}

/// `tm --pgn FOLDER` printed "stopped early: read error … Is a directory" on stdout and
/// exited with success.
#[test]
fn tm_pgn_that_cannot_be_read_is_an_error() {
    let dir = Scratch::new("tm-folder");
    refused(&["tm", "--pgn", arg(dir.path())], "cannot read");
}

/// `selfplay --book /nonexistent --chess960` played Chess960 games and never looked at the
/// book.
#[test]
fn selfplay_refuses_a_book_with_chess960() {
    let dir = Scratch::new("book-960");
    let out = dir.file("games.pgn", "");
    refused(
        &[
            "selfplay",
            "--book",
            "/nonexistent",
            "--chess960",
            "--games",
            "1",
            "--nodes",
            "50",
            "--out",
            &out.to_string_lossy(),
        ],
        "exclude each other",
    );
}

/// A book's unreadable lines (a line of words, a board without kings) were dropped without a
/// word; each is now named on stderr, and the game is played from what is left.
#[test]
fn selfplay_names_the_book_lines_it_refuses() {
    let dir = Scratch::new("book-lines");
    let book = dir.file(
        "mixed.epd",
        "garbage line here\n6k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 3 40\n8/8/8/8/8/8/8/8 w - - 0 1\n",
    );
    let out = book.with_file_name("games.pgn");
    let selfplay = |book: &PathBuf| {
        tool(&[
            "selfplay",
            "--book",
            &book.to_string_lossy(),
            "--games",
            "1",
            "--nodes",
            "50",
            "--out",
            &out.to_string_lossy(),
        ])
    };
    let run = selfplay(&book);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    assert!(
        stderr.contains("mixed.epd: line 1: fewer than four FEN fields")
            && stderr.contains("mixed.epd: line 3: bad FEN"),
        "{stderr}"
    );
    let games = std::fs::read_to_string(&out).expect("games written");
    assert!(
        games.contains("6k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 3 40"),
        "{games}"
    );
    // More refused lines than are worth reading: the first twenty, then a count.
    let many = "garbage\n".repeat(25) + "6k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 3 40\n";
    let book = dir.file("many.epd", &many);
    let run = selfplay(&book);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    assert_eq!(stderr.matches("many.epd: line ").count(), 20, "{stderr}");
    assert!(stderr.contains("… and 5 more lines refused"), "{stderr}");
}

/// `selfplay --nodes 0` played at one node a move, as `epd --nodes 0` does not.
#[test]
fn selfplay_refuses_zero_nodes_and_threads() {
    let dir = Scratch::new("zero");
    let out = dir.file("games.pgn", "");
    let out = out.to_string_lossy();
    for bad in [
        ["--nodes", "0", "--threads", "1"],
        ["--nodes", "50", "--threads", "0"],
        ["--nodes", "50", "--threads", "257"],
    ] {
        let mut args = vec!["selfplay", "--chess960", "--games", "1", "--out", &out];
        args.extend(bad);
        refused(
            &args,
            if bad[1] == "0" {
                "--nodes"
            } else {
                "--threads"
            },
        );
    }
}

/// A suite with nothing to search printed "solved 0/0" with a status of success, whether every
/// line was refused or the file was empty.
#[test]
fn epd_without_a_position_to_search_is_an_error() {
    let dir = Scratch::new("epd-empty");
    let refused_lines = dir.file(
        "refused.epd",
        "garbage line\n8/8/8/8/8/8/8/8 w - - bm e4;\n",
    );
    let empty = dir.file("empty.epd", "");
    for file in [&refused_lines, &empty] {
        refused(
            &["epd", &file.to_string_lossy(), "--nodes", "100"],
            "no position to search",
        );
    }
}

/// A network file that is missing and one that is not a network are refused alike by every
/// tool that reads one (`--eval-file`, `train --start-from`): one line on stderr naming the
/// option, and exit code 2, before anything is written. The engine cannot exit: it answers
/// each with one `info string error` line and keeps its network.
#[test]
fn a_missing_network_and_a_file_that_is_not_one_are_refused_alike() {
    let dir = Scratch::new("network-file");
    let missing = dir.join("missing.nnue");
    let not_a_network = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
    let book = dir.file(
        "book.epd",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n",
    );
    let wac = concat!(env!("CARGO_MANIFEST_DIR"), "/data/epd/wac.epd");
    let (out, data) = (dir.join("out"), dir.join("data"));
    std::fs::create_dir(&data).expect("data folder");
    for (file, why) in [
        (arg(&missing), "cannot read the file"),
        (not_a_network, "not a Sandglass network"),
    ] {
        let eval = ["--eval-file", file];
        let runs: [(&str, Vec<&str>); 5] = [
            ("--eval-file", [&["bench", "1"][..], &eval].concat()),
            (
                "--eval-file",
                [&["epd", wac, "--nodes", "10"][..], &eval].concat(),
            ),
            (
                "--eval-file",
                [
                    &["selfplay", "--book", arg(&book), "--games", "1"][..],
                    &eval,
                ]
                .concat(),
            ),
            (
                "--eval-file",
                [
                    &["datagen", "--book", arg(&book), "--out", arg(&out)][..],
                    &eval,
                ]
                .concat(),
            ),
            (
                "--start-from",
                vec![
                    "train",
                    arg(&data),
                    "--out",
                    arg(&out),
                    "--start-from",
                    file,
                ],
            ),
        ];
        for (option, args) in runs {
            let done = tool(&args);
            let stderr = String::from_utf8_lossy(&done.stderr);
            assert_eq!(done.status.code(), Some(2), "{args:?}: {stderr}");
            assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
            assert!(
                stderr.contains(&format!("{option} {file}: {why}")),
                "{args:?}: {stderr}"
            );
            assert!(!out.exists(), "{args:?} wrote {}", out.display());
        }
    }
    let mut e = common::Engine::ready();
    for file in [arg(&missing), not_a_network] {
        e.send(&format!("setoption name EvalFile value {file}"));
        let said = e.sync();
        assert_eq!(said.len(), 1, "{file}");
        assert!(said[0].is_error(), "{}", said[0].text);
    }
    e.finish();
}

/// `--syzygy-path /nonexistent` printed three lines for one mistake (issue 106): the folder,
/// then "no usable Syzygy tables", then "no usable tables". A tool says what is wrong once.
#[test]
fn a_tablebase_folder_that_cannot_be_read_is_one_line() {
    for args in [
        &["bench", "1", "--syzygy-path", "/nonexistent"][..],
        &["probe", "--syzygy-path", "/nonexistent"][..],
    ] {
        let stderr = refused(args, "cannot read folder /nonexistent");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    }
    let empty = Scratch::new("no-tables");
    let stderr = refused(
        &["probe", "--syzygy-path", arg(empty.path())],
        "no usable Syzygy tables in",
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}
