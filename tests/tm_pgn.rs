//! `sandglass tm --pgn`: the project's lichess and TCEC samples (`data/pgn/`), fastchess- and
//! cutechess-style samples, the SVG and HTML outputs, and garbage (a clear message, never a panic).

mod common;

use common::tools::{accepted, tool, Scratch};
use std::path::PathBuf;
use std::process::Output;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/tm")
        .join(name)
}

/// The real-game samples the project ships (`data/SOURCES.md`). A missing file fails the
/// test: a reader that is never run is not tested.
fn sample(name: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("data/pgn")
        .join(name);
    assert!(path.is_file(), "{} is missing", path.display());
    path
}

fn tm(args: &[&str]) -> Output {
    tool(&[&["tm"], args].concat())
}

/// The stdout of `sandglass tm args`, which must succeed.
fn ok(args: &[&str]) -> String {
    accepted(&[&["tm"], args].concat())
}

#[test]
fn lichess_sample() {
    let path = sample("lichess_sample.pgn");
    let p = path.to_string_lossy();
    let text = ok(&["--pgn", &p]);
    assert!(
        text.contains("102 games, 100 with a clock record"),
        "{text}"
    );
    // The two games abandoned before a move are a note, not problems with the file: the
    // shipped sample reads without a problem.
    assert!(
        text.contains(
            "2 games with no moves, skipped: game 101 (msffla vs navalonorecargado), game 102"
        ),
        "{text}"
    );
    assert!(!text.contains("problem"), "{text}");
    // One block per time control, games and player-sides counted apart: the summary once
    // read "all 199 players" over 199 sides of 100 games, averaging 60+0 with 1200+0.
    assert!(!text.contains("all 199"), "{text}");
    for block in [
        "15+0: 1 game, 2 player-sides, 2 players",
        "60+0: 31 games, 62 player-sides, 62 players",
        "180+5: 4 games, 7 player-sides, 7 players",
        "1200+0: 1 game, 2 player-sides, 2 players",
    ] {
        assert!(text.contains(block), "{block}: {text}");
    }
    assert_eq!(text.matches("\n  all players ").count(), 16, "{text}");
    let at = |needle: &str| text.find(needle).unwrap_or(usize::MAX);
    assert!(at("\n15+0:") < at("\n60+0:") && at("\n900+0:") < at("\n1200+0:"));
    let dir = Scratch::new("tm-lichess-report");
    let html = dir.join("report.html");
    ok(&["--pgn", &p, "--html", &html.to_string_lossy()]);
    let page = std::fs::read_to_string(&html).expect("html written");
    assert!(
        page.contains(">60+0: 31 games, 62 player-sides, 62 players</th></tr>"),
        "{page}"
    );
    assert_eq!(page.matches("<tr class=\"tc\">").count(), 16);
    assert!(!page.contains("all 199"));
    let one = ok(&["--pgn", &p, "--game", "1", "--strategy", "all"]);
    assert!(one.contains("White alanbrito4") && one.contains("smooth soft/hard"));
    // Black's last move, 21... Qg2#, at 0:00:52 after 0:00:57: 8 s with the 3 s increment.
    assert!(
        one.contains("   21   22      57.0     8.00      52.0"),
        "{one}"
    );
}

#[test]
fn tcec_sample() {
    let path = sample("tcec_sample.pgn");
    let p = path.to_string_lossy();
    let text = ok(&["--pgn", &p, "--player", "Stockfish dev-20260101-28844fc6"]);
    assert!(text.contains("TCEC mt=/tl= (ms) ×2"), "{text}");
    assert!(
        text.contains("1800+3: 2 games, 2 player-sides, 1 player"),
        "{text}"
    );
    let all = ok(&["--pgn", &p]);
    assert!(
        all.contains("1800+3: 2 games, 4 player-sides, 2 players"),
        "{all}"
    );
    // Game 1, Stockfish (Black) after book moves: 6... g6 used 127756 ms of 1800 s + 3 s.
    assert!(
        text.contains("    6   32      1800    127.8      1675"),
        "{text}"
    );

    // The pictures' titles were cut at 72 characters, the result with them ("1800+3 (1/2-1…"):
    // now they keep every word, wrapped onto a second line where needed.
    let dir = Scratch::new("tm-tcec-pictures");
    let (svg, html) = (dir.join("game.svg"), dir.join("report.html"));
    let (svg_arg, html_arg) = (svg.to_string_lossy(), html.to_string_lossy());
    ok(&["--pgn", &p, "--svg", &svg_arg, "--html", &html_arg]);
    let game1 = "Game 1: LCZero 0.33-dev-7499292-BT4-6147500-it332 vs \
                 Stockfish dev-20260101-28844fc6, 1800+3 (1/2-1/2)";
    let game2 = "Game 2: Stockfish dev-20260101-28844fc6 vs \
                 LCZero 0.33-dev-7499292-BT4-6147500-it332, 1800+3 (1/2-1/2)";
    let picture = std::fs::read_to_string(&svg).expect("svg written");
    assert_eq!(titles(&picture), [game1]);
    let page = std::fs::read_to_string(&html).expect("html written");
    let overview = "LCZero 0.33-dev-7499292-BT4-6147500-it332 and Stockfish dev-20260101-28844fc6";
    assert_eq!(titles(&page), [overview, game1, game1, game2]);
}

/// The title of each picture in `text`, its lines joined: a title may wrap.
fn titles(text: &str) -> Vec<String> {
    text.split("<svg")
        .skip(1)
        .map(|svg| {
            let lines: Vec<&str> = svg
                .split("<text class=\"title\"")
                .skip(1)
                .filter_map(|t| t.split('>').nth(1)?.split('<').next())
                .collect();
            lines.join(" ")
        })
        .collect()
}

#[test]
fn fastchess_and_cutechess_samples() {
    let fc = data("fastchess.pgn");
    let text = ok(&["--pgn", &fc.to_string_lossy(), "--game", "2"]);
    assert!(text.contains("fastchess time used and tl="), "{text}");
    // FEN start at move 2, book moves skipped: 3. Bb5 used 0.5 s of 20 s.
    assert!(
        text.contains("    3   32   40      20.0     0.50      19.5"),
        "{text}"
    );
    let cc = data("cutechess.pgn");
    let text = ok(&["--pgn", &cc.to_string_lossy(), "--player", "engineA"]);
    assert!(text.contains("cutechess time used"), "{text}");
    // Rebuilt from 40/60: 2. c4 1.23 s, then 3. Nc3 1.5 s.
    assert!(
        text.contains("    2   32   40      60.0     1.23      58.8"),
        "{text}"
    );
    assert!(
        text.contains("    3   32   39      58.8     1.50      57.3"),
        "{text}"
    );
}

#[test]
fn pictures_and_report() {
    let dir = Scratch::new("tm-pictures");
    let svg = dir.join("game.svg");
    let html = dir.join("report.html");
    let hand = data("hand.pgn");
    ok(&[
        "--pgn",
        &hand.to_string_lossy(),
        "--strategy",
        "all",
        "--svg",
        &svg.to_string_lossy(),
        "--html",
        &html.to_string_lossy(),
    ]);
    let picture = std::fs::read_to_string(&svg).expect("svg written");
    assert!(picture.starts_with("<svg") && picture.trim_end().ends_with("</svg>"));
    assert!(picture.contains("expositor (default)"));
    let page = std::fs::read_to_string(&html).expect("html written");
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert_eq!(
        page.matches("<svg").count(),
        4,
        "overview, main picture, two games"
    );
    assert_eq!(page.matches("<details>").count(), 2);
    assert_eq!(
        page.matches("Clock left in every game").count(),
        1,
        "the overview's title is printed once"
    );
    assert_eq!(page.matches("</details>").count(), 2);
}

#[test]
fn bad_input_gets_a_message_not_a_panic() {
    let dir = Scratch::new("tm-garbage");
    let garbage = dir.join("garbage.pgn");
    let mut bytes: Vec<u8> = b"[Event \"x\"]\n1. e4 {[%clk 9:99:zz]} ( e5 {".to_vec();
    let mut rng = sandglass::rng::Rng::new(7);
    for _ in 0..20_000 {
        bytes.push(rng.next_u64() as u8);
    }
    std::fs::write(&garbage, &bytes).expect("write garbage");
    let g = garbage.to_string_lossy().into_owned();
    for args in [
        vec!["--pgn", g.as_str()],
        vec!["--pgn", g.as_str(), "--game", "1"],
        vec!["--pgn", g.as_str(), "--game", "999999"],
        vec!["--pgn", g.as_str(), "--player", "nobody"],
        vec!["--pgn", "/no/such/file.pgn"],
        vec!["--pgn", g.as_str(), "--strategy", "fastest"],
    ] {
        let out = tm(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(out.status.code().is_some(), "{args:?}");
        if !out.status.success() {
            assert!(
                !stderr.trim().is_empty(),
                "{args:?}: failed without a message"
            );
        }
    }
}
