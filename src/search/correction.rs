//! Static-evaluation correction history: the evaluation's recent error, learnt by pawn
//! structure, added back to it.
//!
//! An evaluation is wrong in patterns. A network trained on a few million positions misjudges
//! whole families of pawn structures, and it misjudges them the same way at every node that
//! shares one. After each search of a node, the difference between what the search found and
//! what the static evaluation said is folded into a table slot chosen by the side to move and
//! the pawn structure (a hash of the pawns alone). Later static evaluations in that structure
//! are moved by the slot's value before the pruning rules see them.
//!
//! The idea is Caissa's, brought to Stockfish by Vizvezdenec (official-stockfish/Stockfish
//! pull request #4950, "Introduce static evaluation correction history", December 2023): a
//! table by side to move and pawn hash, updated by a depth-weighted share of the difference
//! between the search's best score and the static evaluation, bounded so that no structure
//! moves the evaluation by more than a fixed amount. This module keeps the table as an
//! exponential moving average in fixed point (`GRAIN` units per centipawn), as Integral and
//! Reckless do, which makes the bound (`LIMIT / GRAIN` centipawns) explicit.
//! Only searches whose result says something about the evaluation are samples: not in check,
//! not with a capture or promotion as the best move (the evaluation cannot see material about
//! to change hands), and not when the bound points the wrong way (a fail-high whose score is
//! below the evaluation says nothing about how far above it the truth lies).

use chess::{Board, Color};

/// Slots per side to move. Pawn structures collide freely; the table is an average, not a
/// cache, and 16 K slots (128 KiB) per side stay in L2.
const SLOTS: usize = 16_384;
/// Fixed-point units per centipawn, so that small depth-weighted updates do not round away.
const GRAIN: i32 = 256;
/// The largest correction, in grains: 64 centipawns.
const LIMIT: i32 = 64 * GRAIN;
/// Update weights are `min(depth + 1, 16)` out of `WEIGHT_SCALE`.
const WEIGHT_SCALE: i32 = 256;

/// One search thread's correction table.
pub struct Correction {
    table: Vec<i32>,
}

impl Default for Correction {
    fn default() -> Self {
        Correction {
            table: vec![0; 2 * SLOTS],
        }
    }
}

impl Correction {
    fn slot(board: &Board) -> usize {
        let side = usize::from(board.side_to_move() == Color::Black);
        side * SLOTS + (board.get_pawn_hash() as usize & (SLOTS - 1))
    }

    /// The correction for the position, in centipawns.
    #[inline]
    pub fn get(&self, board: &Board) -> i32 {
        self.table[Self::slot(board)] / GRAIN
    }

    /// Fold one sample in: a search of `depth` found `searched` where the uncorrected static
    /// evaluation said `raw`.
    pub fn update(&mut self, board: &Board, depth: i32, raw: i32, searched: i32) {
        let entry = &mut self.table[Self::slot(board)];
        let error = (searched - raw).clamp(-LIMIT / GRAIN, LIMIT / GRAIN) * GRAIN;
        let weight = (depth + 1).clamp(1, 16);
        let blended = (*entry * (WEIGHT_SCALE - weight) + error * weight) / WEIGHT_SCALE;
        *entry = blended.clamp(-LIMIT, LIMIT);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    #[test]
    fn learns_an_error_and_stays_within_its_limit() {
        let board = Board::default();
        let mut c = Correction::default();
        assert_eq!(c.get(&board), 0);
        // A deep search that keeps finding +40 over the evaluation pulls the slot toward 40.
        for _ in 0..200 {
            c.update(&board, 15, 10, 50);
        }
        assert!((38..=40).contains(&c.get(&board)), "{}", c.get(&board));
        // Errors beyond the limit count as the limit, which the average approaches from
        // below (integer division rounds its last steps away).
        for _ in 0..500 {
            c.update(&board, 15, 0, 10_000);
        }
        assert!((60..=LIMIT / GRAIN).contains(&c.get(&board)), "{}", c.get(&board));
        for _ in 0..500 {
            c.update(&board, 15, 0, -10_000);
        }
        assert!((-LIMIT / GRAIN..=-60).contains(&c.get(&board)), "{}", c.get(&board));
        // A shallow sample moves it less than a deep one.
        let mut shallow = Correction::default();
        let mut deep = Correction::default();
        shallow.update(&board, 0, 0, 50);
        deep.update(&board, 15, 0, 50);
        assert!(shallow.table[Correction::slot(&board)] < deep.table[Correction::slot(&board)]);
    }

    #[test]
    fn the_side_to_move_and_the_pawns_choose_the_slot() {
        let white = Board::default();
        let black = Board::from_str("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1")
            .expect("valid FEN");
        // Same pieces but a knight moved: same pawn structure, same slot.
        let knight = Board::from_str("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 1")
            .expect("valid FEN");
        let mut c = Correction::default();
        c.update(&white, 10, 0, 30);
        assert!(c.get(&white) > 0);
        assert_eq!(c.get(&knight), c.get(&white));
        assert_eq!(c.get(&black), 0);
    }
}
