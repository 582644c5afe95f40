//! The strength limit (`UCI_LimitStrength`, `UCI_Elo`, `Skill Level`) and `UCI_ShowWDL`
//! through the engine's UCI loop: limited play differs from full play, is the same for the
//! same position and settings under a node budget, looks human on a clock, and leaves the
//! engine exactly as it was when off; bad values are refused; `wdl` triples sum to 1000
//! and follow the score.

mod common;

use common::{serial, Engine, Line, LIVE};
use std::time::{Duration, Instant};

/// Middlegame and endgame positions with several sensible moves each.
const POSITIONS: [&str; 8] = [
    "position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6",
    "position fen r1bq1rk1/pp2bppp/2n1pn2/2pp4/3P4/2PBPN2/PP1N1PPP/R1BQ1RK1 w - - 2 8",
    "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "position fen 2r2rk1/pp1bqppp/2n1pn2/3p4/3P4/2PB1N2/PP1NQPPP/R4RK1 b - - 5 14",
    "position fen 8/5pk1/6p1/3R4/7P/5PK1/r7/8 b - - 3 41",
    "position fen r1b2rk1/2q1bppp/p2ppn2/1p6/3BPP2/2N2B2/PPPQ2PP/2KR3R w - - 0 13",
    "position fen 4r1k1/1pq2ppp/p1n5/2b1p3/4P3/2N1BN2/PPQ2PPP/3R2K1 w - - 0 20",
    "position fen 6k1/pp3ppp/2p5/8/3P4/2P2N2/P4PPP/6K1 w - - 0 30",
];

/// A search line without the figures that depend on the clock.
fn timeless(l: &Line) -> String {
    let mut out = Vec::new();
    let mut tokens = l.text.split_whitespace();
    while let Some(t) = tokens.next() {
        if t == "time" || t == "nps" {
            tokens.next();
        } else {
            out.push(t);
        }
    }
    out.join(" ")
}

/// Each position's search from a new game: the lines without the clock's figures and the
/// bestmove.
fn searches(e: &mut Engine, options: &[&str], go: &str) -> Vec<(Vec<String>, String)> {
    for o in options {
        e.send(o);
    }
    let setup = e.sync();
    if let Some(err) = setup.iter().find(|l| l.is_error()) {
        e.fail(&format!("an option was refused: {}", err.text));
    }
    POSITIONS
        .iter()
        .map(|p| {
            e.send("ucinewgame");
            e.send(p);
            e.send(go);
            let lines = e.until_bestmove(LIVE);
            let best = lines
                .last()
                .map(|l| l.best().to_string())
                .unwrap_or_default();
            (lines.iter().map(timeless).collect(), best)
        })
        .collect()
}

#[test]
fn the_options_are_declared_and_checked() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.collect_until(|l| l.is("uciok"), LIVE, "uciok");
    for want in [
        "option name Skill Level type spin default 20 min 0 max 20",
        "option name UCI_LimitStrength type check default false",
        "option name UCI_Elo type spin default 1350 min 1350 max 2850",
        "option name UCI_ShowWDL type check default false",
    ] {
        if !lines.iter().any(|l| l.is(want)) {
            e.fail(&format!("no `{want}`"));
        }
    }
    for bad in [
        "setoption name UCI_Elo value 1349",
        "setoption name UCI_Elo value 2851",
        "setoption name UCI_Elo value strong",
        "setoption name UCI_Elo",
        "setoption name Skill Level value 21",
        "setoption name Skill Level value -1",
        "setoption name UCI_LimitStrength value yes",
        "setoption name UCI_ShowWDL value 1",
    ] {
        e.send(bad);
        let said = e.sync();
        if !said.iter().any(|l| l.is_error()) {
            e.fail(&format!("`{bad}` was taken without an error"));
        }
    }
    // The engine still plays, at full strength: the bad values changed nothing.
    e.send("position startpos");
    e.send("go depth 6");
    let lines = e.until_bestmove(LIVE);
    if !lines.iter().any(|l| l.field("depth") == Some("6")) {
        e.fail("a refused option left the engine unable to search to depth 6");
    }
    e.finish();
}

/// Off (the default, or switched on and off again, or at Skill Level 20), the engine
/// searches and prints exactly what it did without the options: the same lines, nodes and
/// moves at the same depth.
#[test]
fn with_the_limit_off_the_search_is_unchanged() {
    let _s = serial();
    let mut fresh = Engine::ready();
    let plain = searches(&mut fresh, &[], "go depth 9");
    fresh.finish();
    let mut toggled = Engine::ready();
    let off = searches(
        &mut toggled,
        &[
            "setoption name UCI_LimitStrength value true",
            "setoption name UCI_Elo value 2000",
            "setoption name Skill Level value 3",
            "setoption name UCI_LimitStrength value false",
            "setoption name Skill Level value 20",
            "setoption name UCI_ShowWDL value false",
        ],
        "go depth 9",
    );
    if plain != off {
        toggled.fail(&format!("the search changed:\n{plain:?}\n{off:?}"));
    }
    toggled.finish();
}

/// At the lowest setting the engine plays other moves than at full strength on the same
/// budget, and shows only the line the GUI asked for although it searches four.
#[test]
fn limited_play_differs_from_full_play() {
    let _s = serial();
    let mut e = Engine::ready();
    let full = searches(&mut e, &[], "go nodes 20000");
    let weak = searches(
        &mut e,
        &[
            "setoption name UCI_LimitStrength value true",
            "setoption name UCI_Elo value 1350",
        ],
        "go nodes 20000",
    );
    let differ = full.iter().zip(&weak).filter(|(f, w)| f.1 != w.1).count();
    if differ < 3 {
        e.fail(&format!(
            "only {differ} of {} moves differ from full strength",
            POSITIONS.len()
        ));
    }
    for (lines, _) in &weak {
        if let Some(l) = lines.iter().find(|l| l.contains("multipv 2")) {
            e.fail(&format!("a line the GUI did not ask for was shown: {l}"));
        }
    }
    let nodes = |runs: &[(Vec<String>, String)]| -> u64 {
        runs.iter()
            .filter_map(|(lines, _)| {
                let last = lines.iter().rev().find(|l| l.contains(" nodes "))?;
                let mut t = last.split_whitespace().skip_while(|t| *t != "nodes");
                t.nth(1)?.parse::<u64>().ok()
            })
            .sum()
    };
    if nodes(&weak) * 4 >= nodes(&full) {
        e.fail("the weakest setting searched as deep as full strength");
    }
    e.finish();
}

/// The same position with the same settings and a fixed node budget gives the same move
/// and the same search, in another process: every choice comes from the position's key.
#[test]
fn the_same_position_and_settings_give_the_same_move() {
    let _s = serial();
    for options in [
        &[
            "setoption name UCI_LimitStrength value true",
            "setoption name UCI_Elo value 1800",
        ][..],
        &["setoption name Skill Level value 2"][..],
    ] {
        let mut a = Engine::ready();
        let first = searches(&mut a, options, "go nodes 5000");
        a.finish();
        let mut b = Engine::ready();
        let second = searches(&mut b, options, "go nodes 5000");
        if first != second {
            b.fail(&format!(
                "{options:?}: two runs differ:\n{first:?}\n{second:?}"
            ));
        }
        b.finish();
    }
}

/// On a clock a limited engine neither answers at once nor uses its whole budget, and
/// `stop` ends its wait at once.
#[test]
fn a_limited_engine_takes_a_human_time() {
    let _s = serial();
    let mut e = Engine::ready();
    e.send("setoption name UCI_LimitStrength value true");
    e.send("setoption name UCI_Elo value 1350");
    e.sync();
    e.send("position startpos moves e2e4");
    let go = e.send("go wtime 10000 btime 10000 winc 100 binc 100");
    let lines = e.until_bestmove(LIVE);
    let took = lines.last().map(|l| l.at - go).unwrap_or_default();
    // The soft budget is about 360 ms here; a quarter of it at least is waited out.
    if took < Duration::from_millis(80) {
        e.fail(&format!("answered in {} ms", took.as_millis()));
    }
    // A move time of 20 s: the search ends at its node budget within milliseconds, the
    // wait is seconds long, and `stop` ends it.
    e.send("position startpos moves e2e4 e7e5");
    e.send("go movetime 20000");
    e.collect_for(Duration::from_millis(200));
    let stop = Instant::now();
    e.send("stop");
    let lines = e.until_bestmove(LIVE);
    let waited = lines.last().map(|l| l.at - stop).unwrap_or_default();
    if waited > Duration::from_millis(1_000) {
        e.fail(&format!("`stop` took {} ms", waited.as_millis()));
    }
    e.finish();
}

/// `UCI_ShowWDL`: every line with a score carries a triple summing to 1000 (the harness
/// checks the sum of every line), the side ahead has the better odds, and a mate is
/// certain.
#[test]
fn wdl_triples_follow_the_score() {
    let _s = serial();
    let mut e = Engine::ready();
    e.send("setoption name UCI_ShowWDL value true");
    e.sync();
    let wdl = |l: &Line| -> Option<(i64, i64, i64, String)> {
        let t: Vec<&str> = l.text.split_whitespace().collect();
        let i = t.iter().position(|x| *x == "wdl")?;
        let n = |k: usize| t.get(i + k).and_then(|x| x.parse().ok());
        Some((n(1)?, n(2)?, n(3)?, l.score()?))
    };
    for (position, ahead) in [
        // White to move a queen up, then Black to move a queen down, then an even position.
        (
            "position fen 4k3/8/8/8/8/8/3QPPP1/4K3 w - - 0 1",
            Some(true),
        ),
        (
            "position fen 4k3/8/8/8/8/8/3QPPP1/4K3 b - - 0 1",
            Some(false),
        ),
        ("position startpos", None),
    ] {
        e.send(position);
        e.send("go depth 8");
        let lines = e.until_bestmove(LIVE);
        let scored: Vec<_> = lines.iter().filter(|l| l.score().is_some()).collect();
        if scored.is_empty() {
            e.fail("no score line");
        }
        for l in scored {
            let Some((w, d, lo, score)) = wdl(l) else {
                e.fail(&format!("a score without wdl: {}", l.text));
            };
            let ok = match ahead {
                Some(true) => w > 900 && lo < 10,
                Some(false) => lo > 900 && w < 10,
                // About even: mostly drawn, and the side the score favours the likelier
                // winner.
                None => {
                    let cp: i64 = score
                        .strip_prefix("cp ")
                        .and_then(|c| c.parse().ok())
                        .unwrap_or(0);
                    d > 300 && (cp == 0 || (w > lo) == (cp > 0))
                }
            };
            if !ok {
                e.fail(&format!("wdl {w} {d} {lo} for {score} in `{position}`"));
            }
        }
    }
    e.send("position fen 6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1");
    e.send("go depth 4");
    let lines = e.until_bestmove(LIVE);
    let mate = lines
        .iter()
        .rev()
        .find(|l| l.score().is_some_and(|s| s.starts_with("mate")));
    match mate.and_then(wdl) {
        Some((1000, 0, 0, _)) => {}
        other => e.fail(&format!("a mate reads {other:?}")),
    }
    e.finish();
}

/// A limited search leaves blurred evaluations in the table: switched off without a
/// `ucinewgame`, the next search still starts from an empty table and prints exactly what a
/// fresh engine prints.
#[test]
fn switching_the_limit_off_mid_game_leaves_nothing_behind() {
    let _s = serial();
    let run = |e: &mut Engine| -> Vec<String> {
        e.send(POSITIONS[1]);
        e.send("go depth 9");
        e.until_bestmove(LIVE).iter().map(timeless).collect()
    };
    let mut fresh = Engine::ready();
    let plain = run(&mut fresh);
    fresh.finish();
    let mut e = Engine::ready();
    e.send("setoption name UCI_LimitStrength value true");
    e.send("setoption name UCI_Elo value 1500");
    e.sync();
    e.send(POSITIONS[1]);
    e.send("go nodes 3000");
    e.until_bestmove(LIVE);
    e.send("setoption name UCI_LimitStrength value false");
    e.sync();
    let after = run(&mut e);
    if plain != after {
        e.fail(&format!(
            "full strength after a limited search differs:\n{plain:?}\n{after:?}"
        ));
    }
    e.finish();
}
