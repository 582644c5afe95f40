//! The basic mates against a perfect defender, played in process (issue 106): at 20,000
//! nodes a move, with no tables and the default network, the engine mates a lone king with
//! queen, rook, two bishops and bishop and knight before the fifty-move rule or a repetition
//! can save it. The defender plays the shipped tables' most stubborn move (the longest
//! distance to zeroing, which in these endings is the distance to mate).
//!
//! The positions are a few of `data/epd/basic_mates.epd`, among the longest of each kind;
//! `tools/basic_mates.py run` plays the whole suite (docs/measuring.md).

use sandglass::position::Position;
use sandglass::search::{self, Limits, Signals};
use sandglass::tablebase::{Root, Tablebases};
use sandglass::time::Mode;
use sandglass::tt::TranspositionTable;

const TABLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/syzygy");
const NODES: u64 = 20_000;

/// (suite id, position, plies to mate with best play on both sides).
const POSITIONS: [(&str, &str, u32); 6] = [
    ("KQvK.1", "1Q6/8/8/8/K5k1/8/8/8 w - - 0 1", 17),
    ("KRvK.1", "2K5/8/8/6R1/4k3/8/8/8 w - - 0 1", 27),
    ("KBBvK.2", "4K3/8/4B3/8/7B/8/4k3/8 w - - 0 1", 30),
    ("KBBvK.4", "1K1kB2B/8/8/8/8/8/8/8 w - - 0 1", 28),
    ("KBNvK.1", "5N2/8/1B3k2/8/K7/8/8/8 w - - 0 1", 58),
    ("KBNvK.8", "3k4/8/8/7N/8/8/8/5B1K w - - 0 1", 56),
];

/// How a game from `fen` ends: `Ok(plies)` when Black is mated, else why not.
fn play(fen: &str, tables: &Tablebases) -> Result<u32, String> {
    let mut pos = Position::from_fen(fen).expect("suite FEN");
    let tt = TranspositionTable::new(16);
    let limits = Limits {
        mode: Mode::nodes(NODES),
        ..Limits::default()
    };
    for plies in 0..200 {
        let moves = match tables.probe_root(&pos) {
            Some(Root::Mated) if plies % 2 == 1 => return Ok(plies),
            Some(Root::Moves { moves, .. }) => moves,
            other => return Err(format!("{other:?} after {plies} plies at {}", pos.fen())),
        };
        if pos.is_threefold() || pos.is_fifty_move_draw() {
            return Err(format!("drawn after {plies} plies at {}", pos.fen()));
        }
        let mv = if plies % 2 == 0 {
            let outcome = search::search(&pos, &limits, &tt, &Signals::new(false), &mut |_| {});
            outcome.best.expect("a move")
        } else {
            // The defender: its best result, then the longest way to zeroing.
            moves
                .iter()
                .max_by_key(|m| (m.wdl, -m.dtz))
                .expect("a legal move")
                .mv
        };
        pos.make_move(mv);
    }
    Err("no end after 200 plies".to_string())
}

#[test]
fn every_basic_mate_is_won_at_twenty_thousand_nodes() {
    let tables = Tablebases::open(TABLES)
        .expect("open the tables")
        .tables
        .expect("the shipped tables");
    let mut failed = Vec::new();
    for (id, fen, best) in POSITIONS {
        match play(fen, &tables) {
            Ok(plies) => assert!(
                plies >= best,
                "{id}: mated in {plies} plies, faster than {best}"
            ),
            Err(why) => failed.push(format!("{id} ({fen}): {why}")),
        }
    }
    assert!(failed.is_empty(), "not mated:\n{}", failed.join("\n"));
}
