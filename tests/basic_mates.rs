//! The basic mates against a perfect defender, played in process (issue 106): at 20,000
//! nodes a move, with no tables and the default network, the engine mates a lone king with
//! queen, rook, two bishops and bishop and knight before the fifty-move rule or a repetition
//! can save it. The defender plays the shipped tables' most stubborn move (the longest
//! distance to zeroing, which in these endings is the distance to mate). Every score the
//! search reports on the way, bounds included, is true: an evaluation within its range, or a
//! mate no shorter than the tables' distance and reachable before the fifty-move rule.
//!
//! The positions are a few of `data/epd/basic_mates.epd`, among the longest of each kind;
//! `tools/basic_mates.py run` plays the whole suite (docs/measuring.md).

use sandglass::eval::EVAL_LIMIT;
use sandglass::position::Position;
use sandglass::score::{is_decisive, is_mate, uci, MATE};
use sandglass::search::{self, Info, Limits, Memory, Signals};
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

/// Why `score`, reported for White to move in a won position `dtz` plies from mate with
/// `halfmove_clock` plies since the last capture, is no true score; None when it is one.
fn untrue(score: i32, dtz: i32, halfmove_clock: u32) -> Option<String> {
    let room = 100 - halfmove_clock as i32;
    if !is_decisive(score) {
        return (score.abs() > EVAL_LIMIT).then(|| "beyond the evaluation's range".to_string());
    }
    if !is_mate(score) || score < 0 {
        return Some("decided, but no mate for White".to_string());
    }
    let plies = MATE - score;
    if plies < dtz {
        return Some(format!(
            "a mate in {plies} plies, where the tables need {dtz}"
        ));
    }
    (plies > room).then(|| format!("a mate in {plies} plies, past the fifty-move rule in {room}"))
}

/// How a game from `fen` ends: `Ok(plies)` when Black is mated, else why not.
fn play(fen: &str, tables: &Tablebases) -> Result<u32, String> {
    let mut pos = Position::from_fen(fen).expect("suite FEN");
    // As the engine plays a game: one table and one set of histories for all its moves.
    let tt = TranspositionTable::new(16);
    let mut memory = Memory::new();
    let limits = Limits {
        mode: Mode::nodes(NODES),
        ..Limits::default()
    };
    for plies in 0..200 {
        let (moves, dtz) = match tables.probe_root(&pos) {
            Some(Root::Mated) if plies % 2 == 1 => return Ok(plies),
            Some(Root::Moves { moves, dtz, .. }) => (moves, dtz),
            other => return Err(format!("{other:?} after {plies} plies at {}", pos.fen())),
        };
        if pos.is_threefold() || pos.is_fifty_move_draw() {
            return Err(format!("drawn after {plies} plies at {}", pos.fen()));
        }
        let mv = if plies % 2 == 0 {
            let mut reports: Vec<(i32, String)> = Vec::new();
            let mut report = |info: &Info| reports.push((info.score, format!("{:?}", info.bound)));
            let signals = Signals::new(false);
            let outcome = search::search_then(
                &pos,
                &limits,
                &tt,
                &mut memory,
                &signals,
                &mut report,
                &mut |_| {},
            );
            reports.push((outcome.score, "the outcome".to_string()));
            for (score, bound) in reports {
                if let Some(why) = untrue(score, dtz, pos.halfmove_clock()) {
                    return Err(format!(
                        "ply {plies}: {} ({bound}) at {}: {why}",
                        uci(score),
                        pos.fen()
                    ));
                }
            }
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

/// The check above refuses the scores issue 106 saw, and passes true ones.
#[test]
fn the_score_check_knows_a_true_score() {
    // `mate 66` where the tables mate in 17 plies: too long to reach before the fifty-move rule.
    assert!(untrue(MATE - 131, 17, 0).is_some());
    // `cp 20913`, internal 30,913: a tablebase-band score with no tables.
    assert!(untrue(30_913, 17, 0).is_some());
    assert!(untrue(EVAL_LIMIT + 1, 17, 0).is_some());
    assert!(untrue(-(MATE - 4), 17, 0).is_some());
    // A mate quicker than the tables allow.
    assert!(untrue(MATE - 15, 17, 0).is_some());
    // A mate the fifty-move rule leaves no room for.
    assert!(untrue(MATE - 41, 17, 70).is_some());
    assert_eq!(untrue(MATE - 17, 17, 0), None);
    assert_eq!(untrue(MATE - 29, 17, 71), None);
    assert_eq!(untrue(812, 17, 0), None);
    assert_eq!(untrue(-EVAL_LIMIT, 17, 0), None);
}
