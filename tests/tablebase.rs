//! Syzygy tables through UCI: a won KQ v KR stays won and a drawn KR v KB stays drawn at a
//! short move time, with the tables' score and `tbhits`; tables behind the path's first folder
//! are found; a path without tables, and table files cut short or garbled, get
//! `info string error` lines while the engine plays on with whatever is usable; and the tables
//! change no search where they cannot apply.
//!
//! The tables are the 3- and 4-man set shipped in `data/syzygy` (`data/SOURCES.md`). Each
//! result is checked with `sandglass probe` (itself checked against python-chess in
//! `tests/tablebase_python.rs`).

mod common;

use common::{Engine, BIN, LIVE};
use sandglass::position::Position;
use sandglass::tablebase::PATH_SEPARATOR;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const TABLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/syzygy");

/// A long KQ v KR win (57 plies to the capture with best play), White to move.
const KQ_KR_WIN: &str = "K7/2r5/8/8/4k3/8/1Q6/8 w - - 0 1";
/// A KR v KB draw in which 15 of Black's 17 moves lose.
const KR_KB_DRAW: &str = "8/2bR4/8/5K2/8/8/1k6/8 b - - 0 1";

/// `sandglass probe`'s line for `fen`: `<wdl> <dtz>` or `none`.
fn probe(fen: &str) -> String {
    let mut child = Command::new(BIN)
        .args(["probe", "--syzygy-path", TABLES])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start sandglass probe");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().expect("stdin");
        writeln!(stdin, "{fen}").expect("write the FEN");
    }
    let out = child.wait_with_output().expect("sandglass probe");
    assert!(out.status.success(), "{out:?}");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// The WDL `probe` gives for `fen`, for its side to move.
fn wdl(fen: &str) -> i32 {
    let line = probe(fen);
    line.split_whitespace()
        .next()
        .and_then(|w| w.parse().ok())
        .unwrap_or_else(|| panic!("no WDL for {fen}: {line:?}"))
}

/// Set `SyzygyPath` to `path`, which must open all 70 shipped table files without a word of
/// error.
fn open_all_tables(engine: &mut Engine, path: &str) {
    engine.send(&format!("setoption name SyzygyPath value {path}"));
    let said = engine.sync();
    assert!(!said.iter().any(|l| l.is_error()), "{said:?}");
    assert!(
        said.iter()
            .any(|l| l.starts("info string SyzygyPath: 70 table files, up to 4 men")),
        "{said:?}"
    );
}

/// The last `info` line of a search that gives a score.
fn last_scored(lines: &[common::Line]) -> &common::Line {
    lines
        .iter()
        .rev()
        .find(|l| l.field("score").is_some())
        .expect("an info line with a score")
}

/// Let the engine play `plies` moves of both sides from `fen` at 150 ms a move, and return
/// the FEN after each of its moves, with the last `info` line before each `bestmove`.
fn play(fen: &str, plies: usize) -> Vec<(String, common::Line)> {
    let mut engine = Engine::ready();
    open_all_tables(&mut engine, TABLES);
    let mut pos = Position::from_fen(fen).expect("test FEN");
    let mut moves: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for _ in 0..plies {
        if moves.is_empty() {
            engine.send(&format!("position fen {fen}"));
        } else {
            engine.send(&format!("position fen {fen} moves {}", moves.join(" ")));
        }
        engine.send("go movetime 150");
        let lines = engine.until_bestmove(LIVE);
        let best = lines.last().expect("bestmove").best().to_string();
        let info = last_scored(&lines).clone();
        pos.play_uci(&best).expect("a legal move");
        moves.push(best);
        out.push((pos.fen(), info));
    }
    engine.finish();
    out
}

#[test]
fn a_won_kq_v_kr_stays_won_with_the_tables_score() {
    assert_eq!(wdl(KQ_KR_WIN), 2);
    let played = play(KQ_KR_WIN, 6);
    // White's moves (plies 1, 3, 5) each leave Black lost; Black's leave White winning.
    for (i, (fen, info)) in played.iter().enumerate() {
        let expected = if i % 2 == 0 { -2 } else { 2 };
        assert_eq!(wdl(fen), expected, "ply {}: {fen} after {info:?}", i + 1);
        assert!(info.num("tbhits").is_some_and(|n| n > 0), "{info:?}");
    }
    // White's score is the tables' win (cp 20000) or a mate the search found; Black's the
    // loss.
    let white = played[0].1.score().expect("score");
    assert!(white == "cp 20000" || white.starts_with("mate "), "{white}");
    let black = played[1].1.score().expect("score");
    assert!(
        black == "cp -20000" || black.starts_with("mate -"),
        "{black}"
    );
}

#[test]
fn a_drawn_kr_v_kb_is_held() {
    assert_eq!(wdl(KR_KB_DRAW), 0);
    let played = play(KR_KB_DRAW, 6);
    for (i, (fen, info)) in played.iter().enumerate() {
        // Black's moves leave White no win, and White's keep the draw too.
        assert_eq!(wdl(fen), 0, "ply {}: {fen} after {info:?}", i + 1);
        assert!(info.num("tbhits").is_some_and(|n| n > 0), "{info:?}");
        assert_eq!(info.score().as_deref(), Some("cp 0"), "{info:?}");
    }
}

/// A scratch folder of table files, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("sandglass-tb-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch folder");
        Scratch(dir)
    }

    fn copy(&self, file: &str) {
        std::fs::copy(Path::new(TABLES).join(file), self.0.join(file)).expect("copy a table");
    }

    /// `file`'s first `len` bytes, as an interrupted download leaves it.
    fn truncated(&self, file: &str, len: usize) {
        let data = std::fs::read(Path::new(TABLES).join(file)).expect("read a table");
        std::fs::write(self.0.join(file), &data[..len.min(data.len())]).expect("write");
    }

    fn path(&self) -> &str {
        self.0.to_str().expect("a UTF-8 temp path")
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn a_path_without_tables_is_answered_and_the_engine_plays_on() {
    let empty = Scratch::new("empty");
    let mut engine = Engine::ready();
    for path in ["/no/such/folder", empty.path()] {
        // The last search is joined first, so that the option is not deferred to its end.
        engine.send("ucinewgame");
        engine.send(&format!("setoption name SyzygyPath value {path}"));
        let said = engine.sync();
        // One line a mistake (issue 106): a folder that cannot be read is not also said to
        // hold no tables.
        let errors: Vec<_> = said.iter().filter(|l| l.is_error()).collect();
        assert!(
            errors.len() == 1 && errors[0].text.contains("SyzygyPath"),
            "{path}: {said:?}"
        );
        engine.send(&format!("position fen {KQ_KR_WIN}"));
        engine.send("go movetime 50");
        let lines = engine.until_bestmove(LIVE);
        // No tables, so no tbhits.
        assert!(
            !lines.iter().any(|l| l.field("tbhits").is_some()),
            "{lines:?}"
        );
    }
    // An empty value switches the tables off without a word.
    engine.send("ucinewgame");
    engine.send("setoption name SyzygyPath value <empty>");
    let said = engine.sync();
    assert!(!said.iter().any(|l| l.is_error()), "{said:?}");
    engine.finish();
}

#[test]
fn tables_in_a_later_folder_of_the_path_are_probed() {
    // The engine's file checks and the prober each split the path: both must find the
    // tables behind the first folder (issue 105).
    let empty = Scratch::new("first");
    let sep = PATH_SEPARATOR;
    let mut engine = Engine::ready();
    open_all_tables(&mut engine, &format!("{}{sep}{TABLES}", empty.path()));
    engine.send(&format!("position fen {KQ_KR_WIN}"));
    engine.send("go depth 4");
    let lines = engine.until_bestmove(LIVE);
    let last = last_scored(&lines);
    assert!(last.num("tbhits").is_some_and(|n| n > 0), "{last:?}");
    let score = last.score().expect("score");
    assert!(score == "cp 20000" || score.starts_with("mate "), "{score}");
    engine.finish();
}

#[test]
fn cut_and_garbled_files_are_refused_and_the_rest_used() {
    let dir = Scratch::new("bad");
    for file in ["KQvK.rtbw", "KQvK.rtbz", "KRvK.rtbw", "KRvK.rtbz"] {
        dir.copy(file);
    }
    // KQvKR.rtbw cut in half; KQvKR.rtbz cut at 64 × 64 + 16 bytes, a length whose size
    // check passes (the layout check must catch it).
    let half = std::fs::metadata(Path::new(TABLES).join("KQvKR.rtbw"))
        .expect("table")
        .len() as usize
        / 2;
    dir.truncated("KQvKR.rtbw", half);
    dir.truncated("KQvKR.rtbz", 64 * 64 + 16);
    // KRvKB.rtbw: a file of the right length and the wrong bytes.
    let len = std::fs::metadata(Path::new(TABLES).join("KRvKB.rtbw"))
        .expect("table")
        .len() as usize;
    std::fs::write(dir.0.join("KRvKB.rtbw"), vec![0x5a; len]).expect("write");

    let mut engine = Engine::ready();
    engine.send(&format!("setoption name SyzygyPath value {}", dir.path()));
    let said = engine.sync();
    for bad in ["KQvKR.rtbw", "KQvKR.rtbz", "KRvKB.rtbw"] {
        assert!(
            said.iter().any(|l| l.is_error() && l.text.contains(bad)),
            "{bad}: {said:?}"
        );
    }
    assert!(
        said.iter()
            .any(|l| l.starts("info string SyzygyPath: 4 table files, up to 3 men")),
        "{said:?}"
    );
    // The refused tables are never probed: the KQ v KR root is searched without them (its
    // score is the evaluation's, not the tables' win), the captures into KQ v K and KR v K
    // still probe.
    engine.send(&format!("position fen {KQ_KR_WIN}"));
    engine.send("go movetime 100");
    let lines = engine.until_bestmove(LIVE);
    assert!(
        lines
            .iter()
            .all(|l| l.score().is_none_or(|s| s != "cp 20000")),
        "{lines:?}"
    );
    // The good ones are: KQ v K is won by the tables.
    engine.send("position fen 8/8/8/3k4/8/8/1Q6/K7 w - - 0 1");
    engine.send("go movetime 100");
    let lines = engine.until_bestmove(LIVE);
    let last = last_scored(&lines);
    assert!(last.num("tbhits").is_some_and(|n| n > 0), "{last:?}");
    engine.finish();
}

/// Bench's node count per position, at `depth`, with and without the tables.
fn bench(depth: &str, tables: bool) -> Vec<(u64, String)> {
    let mut args = vec!["bench", depth];
    if tables {
        args.extend(["--syzygy-path", TABLES]);
    }
    let out = Command::new(BIN).args(&args).output().expect("bench");
    assert!(out.status.success(), "{out:?}");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            let mut f = l.split_whitespace();
            let _index = f.next()?;
            let nodes = f.next()?.parse().ok()?;
            Some((nodes, f.collect::<Vec<_>>().join(" ")))
        })
        .collect()
}

/// Where no capture can bring a position down to the tables' men, the tables change
/// nothing: the same nodes with them as without (the bench's last line is `Bench:` with no
/// tables, 886051 at depth 9 when this was written).
#[test]
fn tables_change_no_search_they_cannot_reach() {
    let without = bench("5", false);
    let with = bench("5", true);
    assert_eq!(without.len(), 50);
    assert_eq!(with.len(), 50);
    for ((n0, fen), (n1, _)) in without.iter().zip(&with) {
        let men = Position::from_fen(fen).expect("bench FEN").men();
        if men >= 10 {
            assert_eq!(n0, n1, "{fen}");
        }
    }
}

/// `probe` reads the shipped EPD file of table positions: one answer for each of its 60
/// lines, its operations skipped, and each answer the result its `c0` names.
#[test]
fn probe_reads_the_shipped_epd_file() {
    let epd = concat!(env!("CARGO_MANIFEST_DIR"), "/data/epd/tablebase.epd");
    let out = Command::new(BIN)
        .args(["probe", "--syzygy-path", TABLES, epd])
        .output()
        .expect("sandglass probe");
    assert!(out.status.success(), "{out:?}");
    let answers: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(answers.len(), 60, "{answers:?}");
    let text = std::fs::read_to_string(epd).expect("read the EPD file");
    for (line, answer) in text.lines().zip(&answers) {
        let wdl = match line.split("c0 \"").nth(1).and_then(|r| r.split('"').next()) {
            Some("win") => "2",
            Some("draw") => "0",
            Some("loss") => "-2",
            other => panic!("unexpected c0 {other:?} in {line}"),
        };
        assert_eq!(
            answer.split_whitespace().next(),
            Some(wdl),
            "{line}: {answer}"
        );
    }
}
