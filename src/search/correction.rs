//! Correction history: what the searches of this game found the static evaluation gets wrong,
//! kept by pawn structure and by each side's other pieces, and added to the evaluation.
//!
//! A network trained on a few million positions misjudges whole families of positions the
//! same way: a pawn structure it over-rates, a piece set-up it under-rates. When a search
//! below a node ends with an exact score, or a bound on the right side, away from the node's
//! static evaluation, the difference is a lesson about that structure (any difference: a
//! small one moves the entry a little). The tables average
//! these differences per structure (a running mean that weighs deep searches more), and every
//! later evaluation of a position with the same structure is moved by them. The searches then
//! prune with a better estimate: reverse futility, null move and futility all read it.
//!
//! The shape is the one measured in other engines: a pawn table (Stockfish, Alexandria #430)
//! and one non-pawn table per colour, keyed by that colour's pieces other than pawns
//! (Stormphrax #163 and #189, Clockwork #165 and #172: +10 to +40 Elo together). Each table is
//! indexed by the side to move as well, since the error of an evaluation depends on who moves.
//! The update is Alexandria's: the entry moves towards the new difference with a weight of
//! min(d² + 2d + 1, 128)/256, in units of 1/256 cp, clamped to ±32 cp per table.

use super::params;
use crate::rng::splitmix64;
use crate::score::MATE_BOUND;
use chess::{Board, Color, Piece};

/// Entries per table and side to move (a power of two: the key's low bits index it).
const SIZE: usize = 16_384;
/// Entries are kept in 1/GRAIN centipawns, so small corrections still add up.
const GRAIN: i32 = 256;
/// Weights (of an observation, of a table in a correction) are in 256ths; the largest are
/// tunables ([`params::corr_max_weight`] and the rest).
const WEIGHT_SCALE: i32 = 256;

/// The tables, per search thread (`search::memory`).
pub struct Correction {
    /// [side to move][pawn key]
    pawn: Box<[[i32; SIZE]; 2]>,
    /// [side to move][colour of the pieces][that colour's non-pawn key]
    non_pawn: Box<[[[i32; SIZE]; 2]; 2]>,
}

impl Default for Correction {
    fn default() -> Self {
        Correction {
            pawn: Box::new([[0; SIZE]; 2]),
            non_pawn: Box::new([[[0; SIZE]; 2]; 2]),
        }
    }
}

/// Where a position's structure sits in each table: computed once per node and used both to
/// correct its evaluation and to learn from its search.
#[derive(Clone, Copy)]
pub struct Keys {
    us: usize,
    pawn: usize,
    non_pawn: [usize; 2],
}

impl Keys {
    /// The crate keeps no pawn hash (`Board::get_pawn_hash` returns 0), so the keys are
    /// mixed here from the bitboards: a bijective mixer (SplitMix64's finaliser) per piece
    /// set, so different structures collide only by chance.
    pub fn of(board: &Board) -> Keys {
        let pawns = board.pieces(Piece::Pawn);
        let white = board.color_combined(Color::White);
        let black = board.color_combined(Color::Black);
        let pawn = splitmix64((pawns & white).0) ^ splitmix64((pawns & black).0 ^ 0x5bd1_e995);
        let non_pawn = [Color::White, Color::Black].map(|c| {
            let ours = *board.color_combined(c);
            let mut h = c.to_index() as u64;
            for piece in [
                Piece::Knight,
                Piece::Bishop,
                Piece::Rook,
                Piece::Queen,
                Piece::King,
            ] {
                h = splitmix64(h ^ (board.pieces(piece) & ours).0);
            }
            h as usize % SIZE
        });
        Keys {
            us: board.side_to_move().to_index(),
            pawn: pawn as usize % SIZE,
            non_pawn,
        }
    }
}

impl Correction {
    /// The static evaluation `raw` of the position with keys `k`, corrected; never a mate
    /// score. By default the pawn table counts whole and each non-pawn table half.
    #[inline]
    pub fn correct(&self, k: Keys, raw: i32) -> i32 {
        let pawn = self.pawn[k.us][k.pawn] * params::corr_pawn_weight() / WEIGHT_SCALE;
        let non_pawn =
            self.non_pawn[k.us][0][k.non_pawn[0]] + self.non_pawn[k.us][1][k.non_pawn[1]];
        let non_pawn = non_pawn * params::corr_non_pawn_weight() / WEIGHT_SCALE;
        (raw + (pawn + non_pawn) / GRAIN).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// A search of `depth` plies found `score` where the corrected static evaluation said
    /// `eval`: move the entries of this structure towards the difference.
    pub fn update(&mut self, k: Keys, depth: i32, eval: i32, score: i32) {
        let limit_cp = params::corr_limit();
        let limit = limit_cp * GRAIN;
        let diff = (score - eval).clamp(-limit_cp * 4, limit_cp * 4) * GRAIN;
        let weight = (depth * depth + 2 * depth + 1).min(params::corr_max_weight());
        let nudge = |entry: &mut i32| {
            *entry = ((*entry * (WEIGHT_SCALE - weight) + diff * weight) / WEIGHT_SCALE)
                .clamp(-limit, limit);
        };
        nudge(&mut self.pawn[k.us][k.pawn]);
        nudge(&mut self.non_pawn[k.us][0][k.non_pawn[0]]);
        nudge(&mut self.non_pawn[k.us][1][k.non_pawn[1]]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    /// A lesson about one structure moves that structure's evaluation, by a bounded amount,
    /// and leaves a different structure alone.
    #[test]
    fn a_lesson_moves_its_structure_and_no_other() {
        let mut c = Correction::default();
        let pos = Position::from_fen("4k3/pp3ppp/8/8/8/8/PP3PPP/4K3 w - - 0 1").expect("fen");
        let other = Position::from_fen("4k3/p4ppp/8/8/8/8/PP3PPP/4K3 w - - 0 1").expect("fen");
        assert_eq!(c.correct(Keys::of(pos.board()), 10), 10);
        for _ in 0..50 {
            c.update(Keys::of(pos.board()), 10, 10, 110);
        }
        // Every table is at its limit (32 cp), and the non-pawn pair counts half each.
        assert_eq!(c.correct(Keys::of(pos.board()), 10), 10 + 32 + 32);
        assert_eq!(
            c.correct(Keys::of(other.board()), 10),
            10 + 32,
            "same pieces, other pawns"
        );
        // One shallow search moves an entry by (1+2+1)/256 of the difference.
        let mut fresh = Correction::default();
        fresh.update(Keys::of(pos.board()), 1, 0, 64);
        assert_eq!(
            fresh.pawn.iter().flatten().sum::<i32>(),
            64 * GRAIN * 4 / 256
        );
    }

    /// With the tunables' defaults a correction is the pawn entry plus half the non-pawn
    /// pair, truncated as before the weights were tunable, odd and negative sums included.
    #[test]
    fn the_default_weights_are_whole_and_half() {
        let mut c = Correction::default();
        let k = Keys::of(Position::startpos().board());
        for (pawn, white, black) in [
            (257, -2, -1),
            (-300, 513, 0),
            (8_191, -8_191, 3),
            (1, 1, 0),
            (-1, 0, -1),
        ] {
            c.pawn[k.us][k.pawn] = pawn;
            c.non_pawn[k.us][0][k.non_pawn[0]] = white;
            c.non_pawn[k.us][1][k.non_pawn[1]] = black;
            let before = 7 + (pawn + (white + black) / 2) / GRAIN;
            assert_eq!(c.correct(k, 7), before, "{pawn} {white} {black}");
        }
    }
}
