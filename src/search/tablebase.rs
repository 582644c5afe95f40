//! The tablebases at the root: rank the legal moves by the tables, keep only those that hold
//! the result, and say what score the root has.
//!
//! The classes are Stockfish's (`Tablebases::root_probe` in its `syzygy/tbprobe.cpp`). With
//! DTZ, each move's class comes from the plies it leaves to the next capture or pawn move
//! (its DTZ `v`, counting the move) and the fifty-move counter `c` of the root:
//!
//! - a win (`v > 0`) that is still a win under the fifty-move rule (`v + c <= 99`) ranks top,
//!   the shorter `v` the better (`MAX - v`); a win the rule spoils ranks below every such
//!   win, again the shorter the better (`MAX - (v + c)`);
//! - a draw ranks 0;
//! - a loss that the fifty-move rule may still save (`2·|v| + c >= 100`) ranks above the
//!   other losses, the longer the better (`-MAX + (|v| + c)`); the other losses rank alike,
//!   the longest first.
//!
//! Only the moves of the best rank are searched: when winning, those of the shortest DTZ.
//! Stockfish ranks every win within the rule alike and lets the search choose; measured on
//! this project's suite (docs/syzygy.md), that drifted until the counter left no slack and a
//! DTZ off by one (the tables round) or a repetition then drew 2 of 36 wins. With the
//! shortest DTZ every move makes progress: a won position is converted, a drawn one keeps
//! only drawing moves, and a lost one resists longest. The search still chooses among moves
//! of equal rank, and a mate it proves is shown. Without DTZ tables the moves are ranked by
//! WDL alone, which holds the result but does not force progress.
//!
//! The search inside the tree then needs the tables no more (every root move holds the
//! result), except, as in Stockfish, when only WDL tables ranked a winning root: there the
//! probes after captures and pawn moves still guide it.

use crate::position::Position;
use crate::score::{DRAW, TB_WIN};
use crate::tablebase::{Probing, Root, Wdl};
use chess::ChessMove;

/// A rank above any other: Stockfish's `MAX_DTZ`.
const MAX_RANK: i32 = 1 << 18;

/// What the tables said of the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootVerdict {
    /// The root's score as the tables give it, reported in place of the search's (unless
    /// the search proves a mate).
    pub score: i32,
    /// Whether the search should still probe inside the tree.
    pub probe_in_tree: bool,
    /// Probes made (the root and each move), for `tbhits`.
    pub probes: u64,
}

/// Rank `moves` (the root's legal moves, or those `searchmoves` left) by the tables and keep
/// only those of the best rank, best first. None, and `moves` untouched, when the tables do
/// not cover the root.
pub fn rank_root_moves(
    root: &Position,
    moves: &mut Vec<ChessMove>,
    probing: &Probing,
) -> Option<RootVerdict> {
    if root.men() > probing.men() {
        return None;
    }
    let ranked = match probing.tables.probe_root(root) {
        Some(Root::Moves { moves: tb, .. }) => by_dtz(root, &tb, probing.rule50),
        Some(_) => return None,
        None => by_wdl(root, probing)?,
    };
    let probes = ranked.moves.len() as u64 + 1;
    let mut kept: Vec<(ChessMove, i32, i32)> = ranked
        .moves
        .iter()
        .copied()
        .filter(|(m, _, _)| moves.contains(m))
        .collect();
    let best = kept.iter().map(|&(_, rank, _)| rank).max()?;
    kept.retain(|&(_, rank, _)| rank == best);
    // The quickest progress first when winning, the longest resistance first when losing.
    kept.sort_by_key(|&(_, _, order)| order);
    *moves = kept.into_iter().map(|(m, _, _)| m).collect();
    let winning = best >= ranked.win_from;
    Some(RootVerdict {
        score: score_of(best, ranked.win_from),
        probe_in_tree: !ranked.by_dtz && winning,
        probes,
    })
}

/// Each move with its rank and its place among equal ranks.
struct Ranked {
    moves: Vec<(ChessMove, i32, i32)>,
    /// Ranks from this one up are wins (lower ones above 0 are wins the fifty-move rule
    /// spoils, when the rule is on).
    win_from: i32,
    by_dtz: bool,
}

/// Stockfish's ranks from the DTZ of each move (see the module doc).
fn by_dtz(root: &Position, tb: &[crate::tablebase::RootMove], rule50: bool) -> Ranked {
    // With the rule off, the counter spoils nothing.
    let c = if rule50 {
        root.halfmove_clock() as i32
    } else {
        0
    };
    // A win within the rule ranks from `MAX - 99` up, a spoilt one below (module doc).
    let within = MAX_RANK - 99;
    let moves = tb
        .iter()
        .map(|m| {
            let v = m.dtz;
            let rank = if v > 0 {
                if v + c <= 99 || !rule50 {
                    MAX_RANK - v
                } else {
                    MAX_RANK - (v + c)
                }
            } else if v < 0 {
                if -v * 2 + c < 100 {
                    -MAX_RANK
                } else {
                    -MAX_RANK + (-v + c)
                }
            } else {
                0
            };
            // Among losses of equal rank the longest resistance first.
            let order = if v > 0 { v } else { -v.abs() };
            (m.mv, rank, order)
        })
        .collect();
    Ranked {
        moves,
        win_from: if rule50 { within } else { 1 },
        by_dtz: true,
    }
}

/// Ranks from each move's WDL alone, when the DTZ tables are missing.
fn by_wdl(root: &Position, probing: &Probing) -> Option<Ranked> {
    let moves = probing.tables.probe_root_wdl(root)?;
    let rank = |wdl: Wdl| match (wdl, probing.rule50) {
        (Wdl::CursedWin, false) => Wdl::Win.value(),
        (Wdl::BlessedLoss, false) => Wdl::Loss.value(),
        (w, _) => w.value(),
    };
    let scale = MAX_RANK / 2;
    Some(Ranked {
        moves: moves
            .into_iter()
            .map(|(m, wdl)| (m, rank(wdl) * scale, 0))
            .collect(),
        win_from: MAX_RANK,
        by_dtz: false,
    })
}

/// The root's score from its best rank: a win or loss within the fifty-move rule is a
/// tablebase win or loss; one the rule spoils scores a little above or below a draw, more
/// the nearer it is to a real result (Stockfish's scale, in centipawns).
fn score_of(rank: i32, win_from: i32) -> i32 {
    if rank >= win_from {
        TB_WIN
    } else if rank > 0 {
        ((rank - (MAX_RANK - 200)).max(3) * 100) / 200
    } else if rank == 0 {
        DRAW
    } else if rank > -win_from {
        ((rank + (MAX_RANK - 200)).min(-3) * 100) / 200
    } else {
        -TB_WIN
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_follow_the_rank() {
        let within = MAX_RANK - 99;
        assert_eq!(score_of(MAX_RANK - 1, within), TB_WIN);
        assert_eq!(score_of(MAX_RANK - 99, within), TB_WIN);
        assert_eq!(score_of(-MAX_RANK, within), -TB_WIN);
        assert_eq!(score_of(0, within), DRAW);
        // A win the fifty-move rule spoils: above a draw, below any tablebase win.
        let cursed = score_of(MAX_RANK - 150, within);
        assert!(cursed > DRAW && cursed < 100, "{cursed}");
        let blessed = score_of(-MAX_RANK + 150, within);
        assert!(blessed < DRAW && blessed > -100, "{blessed}");
        // With the rule off every win is a win.
        assert_eq!(score_of(MAX_RANK - 150, 1), TB_WIN);
    }
}
