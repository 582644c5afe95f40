//! Win, draw and loss odds of a score, for `UCI_ShowWDL`.
//!
//! The model is Stockfish's `win_rate_model` (src/uci.cpp from Stockfish 16 on; the fit is
//! the repository github.com/official-stockfish/WDL_model): for a score v in centipawns from
//! the side to move and the material on the board,
//!
//! ```text
//! win  = 1 / (1 + exp((a − v) / b))
//! loss = 1 / (1 + exp((a + v) / b))
//! draw = 1 − win − loss
//! ```
//!
//! where a and b are cubic polynomials in m = clamp(material, 17, 78) / 58, the material
//! counting pawns 1, knights and bishops 3, rooks 5, queens 9 for both sides. a is the score
//! at which the side to move wins half its games; b says how quickly the odds change.
//!
//! [`SANDGLASS`]'s constants were fitted by maximum likelihood on Sandglass's own games at
//! 10+0.1 (self-play and matches against engines near its strength) by `tools/wdl_fit.py`,
//! which also checks the model on held-out games; docs/measurements/strength-limit.md has
//! the report and the command. Mates and tablebase results are certain: 1000 0 0 or
//! 0 0 1000.
//! Triples are per mille from the side to move and always sum to 1000.

use crate::score::is_decisive;
use chess::{Board, Piece};

/// One win-rate model: a's and b's coefficients, highest power first (Stockfish's order).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Model {
    pub a: [f64; 4],
    pub b: [f64; 4],
}

/// Sandglass's model, fitted by `tools/wdl_fit.py` on 800 games at 10+0.1 of the shipped
/// network (400 in self-play, 400 against Carp 3.0.1, Ethereal 12, Stockfish 11 and
/// Viridithas 10.0.0): 640 games (66,307 positions) for the fit, every fifth game (160
/// games, 17,303 positions) held out. On the held-out games the Brier score of the expected
/// score is 0.0519, the constant model's 0.0906, and the log-loss 0.568 per position
/// against 0.925. The side to move wins half its games at a = 69 cp with all the material
/// on the board, 79 cp at material 58 and 210 cp at 17 (docs/measurements/strength-limit.md
/// has the report).
pub const SANDGLASS: Model = Model {
    a: [-356.73718370, 1087.21491243, -1098.21401358, 447.18242982],
    b: [-29.10092212, 98.46024468, -83.03248684, 67.45520798],
};

/// Stockfish 17's model (src/uci.cpp, `win_rate_params`), kept to check this code against
/// the source's own numbers.
pub const STOCKFISH_17: Model = Model {
    a: [-37.45051876, 121.19101539, -132.78783573, 420.70576692],
    b: [90.26261072, -137.26549898, 71.10130540, 51.35259597],
};

/// The material range the model was fitted on, and where m = 1 (Stockfish's).
const MATERIAL_LO: u32 = 17;
const MATERIAL_HI: u32 = 78;
const MATERIAL_ANCHOR: f64 = 58.0;
/// Scores beyond this are read as this (`tools/wdl_fit.py` fits clamped scores).
const SCORE_CLAMP: f64 = 2000.0;

/// Stockfish's material count of `board`: pawns 1, knights and bishops 3, rooks 5, queens 9,
/// both sides together.
pub fn material(board: &Board) -> u32 {
    let count = |p: Piece| board.pieces(p).popcnt();
    count(Piece::Pawn)
        + 3 * (count(Piece::Knight) + count(Piece::Bishop))
        + 5 * count(Piece::Rook)
        + 9 * count(Piece::Queen)
}

impl Model {
    /// a and b (centipawns) at `material`.
    pub fn params(&self, material: u32) -> (f64, f64) {
        let m = f64::from(material.clamp(MATERIAL_LO, MATERIAL_HI)) / MATERIAL_ANCHOR;
        let horner = |c: &[f64; 4]| c.iter().fold(0.0, |acc, &x| acc * m + x);
        (horner(&self.a), horner(&self.b))
    }

    /// The side to move's chance to win, in per mille rounded to the nearest (Stockfish's
    /// `int(0.5 + 1000 / (1 + exp((a − v) / b)))`).
    pub fn win_per_mille(&self, score: i32, material: u32) -> u32 {
        let (a, b) = self.params(material);
        let v = f64::from(score).clamp(-SCORE_CLAMP, SCORE_CLAMP);
        (0.5 + 1000.0 / (1.0 + ((a - v) / b).exp())) as u32
    }

    /// (win, draw, loss) per mille from the side to move, summing to 1000; a mate or a
    /// tablebase result is certain.
    pub fn wdl(&self, score: i32, material: u32) -> (u32, u32, u32) {
        if is_decisive(score) {
            return if score > 0 {
                (1000, 0, 0)
            } else {
                (0, 0, 1000)
            };
        }
        let w = self.win_per_mille(score, material);
        let l = self.win_per_mille(-score, material);
        // w + l ≤ 1000 as long as a > 0 (the fit's domain); kept safe regardless.
        let l = l.min(1000 - w.min(1000));
        (w, 1000 - w - l, l)
    }
}

/// `wdl W D L` for an `info` line.
pub fn uci(score: i32, board: &Board) -> String {
    let (w, d, l) = SANDGLASS.wdl(score, material(board));
    format!("wdl {w} {d} {l}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::{MATE, TB_WIN};
    use std::str::FromStr;

    /// Stockfish 17 scales its centipawns so that 100 cp is a 50 % chance to win at
    /// material 58 (its `to_cp` is 100 · v / a): there a = the sum of a's coefficients,
    /// 371.66, and the model gives 500 ‰ at v = a.
    #[test]
    fn the_model_is_stockfishs() {
        let (a, b) = STOCKFISH_17.params(58);
        assert!((a - 371.658).abs() < 0.01, "{a}");
        assert!((b - STOCKFISH_17.b.iter().sum::<f64>()).abs() < 1e-9);
        // 372 is 100 cp by Stockfish's `to_cp` (round(100 · 372 / 371.66)).
        assert!((499..=501).contains(&STOCKFISH_17.win_per_mille(372, 58)));
        assert_eq!(STOCKFISH_17.win_per_mille(0, 58), 7);
        // Material outside the fitted range is clamped, as Stockfish clamps it.
        assert_eq!(STOCKFISH_17.params(5), STOCKFISH_17.params(17));
        assert_eq!(STOCKFISH_17.params(90), STOCKFISH_17.params(78));
    }

    #[test]
    fn material_counts_both_sides() {
        assert_eq!(material(&Board::default()), 78);
        let b = Board::from_str("4k3/8/8/8/8/8/4P3/R3K3 w - - 0 1").expect("FEN");
        assert_eq!(material(&b), 6);
    }

    /// Triples sum to 1000, the win rate rises and the loss rate falls with the score, the
    /// odds are symmetric, and decided scores are certain.
    #[test]
    fn triples_sum_to_1000_and_follow_the_score() {
        for material in [10, 17, 30, 58, 78] {
            let mut last = (0, 0, 1000);
            for score in (-3000..=3000).step_by(25) {
                let (w, d, l) = SANDGLASS.wdl(score, material);
                assert_eq!(w + d + l, 1000, "{score} {material}");
                assert!(w >= last.0 && l <= last.2, "{score} {material}");
                let (w2, d2, l2) = SANDGLASS.wdl(-score, material);
                assert_eq!((w, d, l), (l2, d2, w2), "{score} {material}");
                last = (w, d, l);
            }
            let (w, d, l) = SANDGLASS.wdl(0, material);
            assert_eq!(w, l);
            assert!(
                d > w,
                "a draw is the likeliest result of an even score: {w} {d} {l}"
            );
        }
        assert_eq!(SANDGLASS.wdl(MATE - 3, 40), (1000, 0, 0));
        assert_eq!(SANDGLASS.wdl(-(TB_WIN - 9), 40), (0, 0, 1000));
    }

    /// The fitted model's a and b are positive over the whole material range (draws are
    /// then never negative) and the win rate reaches half at a score between a pawn's
    /// fraction and a few pawns.
    #[test]
    fn the_fitted_constants_are_in_their_domain() {
        for material in MATERIAL_LO..=MATERIAL_HI {
            let (a, b) = SANDGLASS.params(material);
            assert!(a > 20.0 && a < 400.0, "{material}: a = {a}");
            assert!(b > 10.0 && b < 200.0, "{material}: b = {b}");
        }
    }
}
