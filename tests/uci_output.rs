//! Black-box tests of what the engine prints in a search (issue 38): each `info` line once, a
//! whole depth 1 however small the node limit, a mate score with its whole line, switches
//! named in `SANDGLASS_ABLATE` confirmed or refused, and a clean stop when stdout is gone.
//! The harness is in `common/mod.rs`; the tests of this file run one at a time.

mod common;

use common::*;

const KIWIPETE: &str =
    "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// 4.Qxf7# mates at once (the scholar's mate).
const SCHOLARS_MATE: &str =
    "position fen r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4";

/// What an info line says, without the counters that change from one print to the next
/// (nodes, nps, time, hashfull): depth, seldepth, multipv, score with its bound, pv.
fn gist(l: &Line) -> Option<String> {
    l.num("depth")?;
    let pv = l.text.split(" pv ").nth(1).unwrap_or("");
    Some(format!(
        "depth {:?} multipv {:?} score {:?}{} pv {pv}",
        l.field("depth"),
        l.field("multipv"),
        l.score(),
        if l.text.contains("lowerbound") {
            " lowerbound"
        } else if l.text.contains("upperbound") {
            " upperbound"
        } else {
            ""
        }
    ))
}

/// No `info` line is followed by the same line again (the last one used to be printed twice,
/// with only the nps changed), however the search ends: depth, nodes, time, mate, MultiPV.
#[test]
fn no_info_line_is_printed_twice_in_a_row() {
    let _s = serial();
    let mut e = Engine::ready();
    for (multipv, position, go) in [
        (1, "position startpos", "go depth 3"),
        (1, KIWIPETE, "go depth 6"),
        (1, KIWIPETE, "go nodes 20000"),
        (1, KIWIPETE, "go movetime 100"),
        (1, SCHOLARS_MATE, "go mate 1"),
        (3, KIWIPETE, "go depth 5"),
    ] {
        e.send(&format!("setoption name MultiPV value {multipv}"));
        e.send(position);
        e.send(go);
        let lines = e.until_bestmove(LIVE);
        let gists: Vec<(String, String)> = lines
            .iter()
            .filter_map(|l| Some((gist(l)?, l.text.clone())))
            .collect();
        for pair in gists.windows(2) {
            if pair[0].0 == pair[1].0 {
                e.fail(&format!(
                    "`{go}` (MultiPV {multipv}) printed one line twice:\n{}\n{}",
                    pair[0].1, pair[1].1
                ));
            }
        }
    }
    e.finish();
}
