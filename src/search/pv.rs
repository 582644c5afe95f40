//! Completing a principal variation from the transposition table.
//!
//! The search collects its PV in the triangular table, which holds only the moves of nodes
//! searched with an open window: a line that ends in a table cutoff, or in quiescence (where
//! mates in a few checks are often found), stops there. A mate in 3 could thus be shown as
//! two plies. The table usually still holds the rest: from the last position of the PV, each
//! entry's move leads on. This is the classic way to extend a PV (e.g. Stockfish took the
//! ponder move from the table the same way when its PV had one move).
//!
//! Only moves legal in the position are taken, a move that would return to a position of the
//! line ends it (a cycle of entries could go on for ever), a position that is a draw by the
//! rules, the game's earlier positions included, ends it (the game is over there: GUIs and
//! fastchess flag a PV that plays on after a threefold repetition), and the line grows at most
//! to the mate's length, or to the iteration's depth for other scores.

use super::ordering::MAX_PLY;
use crate::position::Position;
use crate::score::{is_mate, MATE};
use crate::tt::TranspositionTable;
use chess::ChessMove;

/// `pv` from `root`, completed from `tt` up to the length `score` and `depth` call for. A
/// move of `pv` that is not legal (never expected) cuts the line there.
pub fn complete(
    root: &Position,
    tt: &TranspositionTable,
    mut pv: Vec<ChessMove>,
    score: i32,
    depth: u32,
) -> Vec<ChessMove> {
    let wanted = if is_mate(score) {
        (MATE - score.abs()) as usize
    } else {
        depth as usize
    }
    .min(MAX_PLY);
    if pv.len() >= wanted {
        return pv;
    }
    let mut pos = root.clone();
    let mut seen = vec![pos.key()];
    for (i, &m) in pv.iter().enumerate() {
        if !pos.is_legal(m) {
            pv.truncate(i);
            return pv;
        }
        pos.make_move(m);
        seen.push(pos.key());
    }
    while pv.len() < wanted && !pos.is_draw_in_search() {
        let Some(m) = tt
            .probe(pos.key(), pv.len(), pos.halfmove_clock())
            .and_then(|e| e.mv)
        else {
            break;
        };
        if !pos.is_legal(m) {
            break;
        }
        pos.make_move(m);
        if seen.contains(&pos.key()) {
            break;
        }
        seen.push(pos.key());
        pv.push(m);
    }
    pv
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tt::{Bound, Entry};
    use std::str::FromStr;

    fn mv(text: &str) -> ChessMove {
        ChessMove::from_str(text).expect("test move")
    }

    fn store(tt: &TranspositionTable, pos: &Position, m: ChessMove) {
        let entry = Entry {
            mv: Some(m),
            score: 0,
            eval: Some(0),
            depth: 5,
            bound: Bound::Exact,
        };
        tt.store(pos.key(), 0, entry);
    }

    /// A line of table moves: g1f3 g8f6 f3g1 f6g8 would return to the start.
    fn knight_shuffle(tt: &TranspositionTable) -> Position {
        let start = Position::startpos();
        let mut pos = start.clone();
        for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            store(tt, &pos, mv(m));
            pos.make_move(mv(m));
        }
        start
    }

    #[test]
    fn the_table_completes_a_short_line_up_to_the_depth() {
        let tt = TranspositionTable::new(1);
        let start = knight_shuffle(&tt);
        let pv = complete(&start, &tt, vec![mv("g1f3")], 10, 3);
        assert_eq!(pv, vec![mv("g1f3"), mv("g8f6"), mv("f3g1")]);
    }

    #[test]
    fn a_cycle_ends_the_line() {
        let tt = TranspositionTable::new(1);
        let start = knight_shuffle(&tt);
        let pv = complete(&start, &tt, vec![mv("g1f3")], 10, 20);
        assert_eq!(pv, vec![mv("g1f3"), mv("g8f6"), mv("f3g1")]);
    }

    /// Played after the same shuffle in the game, the shuffle repeats the start position a
    /// third time: the game is drawn there, and the line ends although the table goes on.
    #[test]
    fn a_draw_by_repetition_ends_the_line() {
        let tt = TranspositionTable::new(1);
        let start = knight_shuffle(&tt);
        store(&tt, &start, mv("e2e4"));
        let mut root = start.clone();
        for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            root.play_uci(m).expect("legal");
        }
        let shuffle: Vec<ChessMove> = ["g1f3", "g8f6", "f3g1", "f6g8"].map(mv).to_vec();
        let pv = complete(&root, &tt, shuffle.clone(), 10, 10);
        assert_eq!(pv, shuffle);
    }

    #[test]
    fn an_illegal_table_move_ends_the_line() {
        let tt = TranspositionTable::new(1);
        let mut pos = Position::startpos();
        pos.make_move(mv("e2e4"));
        // The same key cannot hold an illegal move by accident; a collision can.
        store(&tt, &pos, mv("e2e4"));
        let pv = complete(&Position::startpos(), &tt, vec![mv("e2e4")], 10, 5);
        assert_eq!(pv, vec![mv("e2e4")]);
    }

    /// A mate in 3 (5 plies) found by a search is shown whole: the line grows to the mate,
    /// not to the search's depth, and ends in checkmate.
    #[test]
    fn a_mate_score_gets_the_line_to_the_mate() {
        use crate::search::{search, Limits, Signals};
        let fen = "r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1";
        let root = Position::from_fen(fen).expect("test FEN");
        let tt = TranspositionTable::new(4);
        let limits = Limits {
            mode: crate::time::Mode::depth(1),
            ..Limits::default()
        };
        let mut shown = Vec::new();
        search(&root, &limits, &tt, &Signals::new(false), &mut |i| {
            shown.push((i.score, i.pv.clone()))
        });
        let (score, pv) = shown.last().cloned().expect("an info line");
        assert_eq!(score, MATE - 5);
        assert_eq!(pv.len(), 5, "{pv:?}");
        let mut pos = root.clone();
        for m in pv {
            assert!(pos.is_legal(m));
            pos.make_move(m);
        }
        assert!(pos.in_check() && pos.legal_moves().is_empty());
    }
}
