//! Static evaluation: how good a position is, in centipawns, without searching.
//!
//! # The model
//! Each term gives a (midgame, endgame) pair of weights times a count, e.g. "two
//! isolated pawns" adds `2 × ISOLATED_PAWN`. The terms are
//! - material and piece-square tables,
//! - mobility: safe squares each knight, bishop, rook and queen attacks,
//! - pawn structure: passed (by rank, with king distances), connected, isolated,
//!   doubled and backward pawns,
//! - pieces: bishop pair, rooks on open and semi-open files, outposts, threats,
//! - king safety: how many enemy pieces aim at the king zone and how hard, the pawn
//!   shield and open files next to the king,
//! - a small bonus for the side to move (tempo).
//!
//! White's sum minus Black's gives a midgame score `mg` and an endgame score `eg`.
//! They are blended by the game phase, which counts the non-pawn material left
//! (knight and bishop 1, rook 2, queen 4; 24 at the start):
//! `(mg × phase + eg × (24 − phase)) / 24`. Before that, `eg` is scaled down for
//! endings the stronger side can hardly win (see [`Shape`]).
//!
//! All weights live in `params.rs` and are fitted to game results by the Texel
//! tuner (`sandglass tune`), which uses [`trace`] to see the counts. Material and
//! piece-square tables start from the published PeSTO values (Ronald
//! Friederich's Texel-tuned tables); the other terms from hand-picked values,
//! since tuned on the sample games.
//!
//! [`evaluate`] is deterministic, allocation-free and thread-safe (a pure
//! function of the board). It returns exactly 0 when neither side has mating
//! material, and never more than [`EVAL_LIMIT`] in absolute value, so mate
//! scores chosen by the search (above 20000) cannot collide with it.

pub mod layout;
pub mod nnue;
#[rustfmt::skip]
pub mod params;
pub mod mgeg;
pub mod mopup;

mod bits;
mod terms;
#[cfg(test)]
mod tests;

use chess::{Board, Color, Piece};

use terms::{NoTrace, Tracer};

/// Phase of a position with all pieces on the board.
pub const PHASE_MAX: i32 = 24;
/// Endgame scale factor that leaves the endgame score unchanged.
pub const SCALE_NORMAL: i32 = 64;
/// No evaluation is larger than this in absolute value (mate scores are the search's).
pub const EVAL_LIMIT: i32 = 15_000;

/// Static evaluation in centipawns from the side to move's point of view.
pub fn evaluate(board: &Board) -> i32 {
    let shape = Shape::of(board);
    if shape.is_dead_draw() {
        return 0;
    }
    let score = terms::white_minus_black(board, &mut NoTrace);
    let white = shape
        .taper(score.mg(), score.eg())
        .clamp(-EVAL_LIMIT, EVAL_LIMIT);
    if board.side_to_move() == Color::White {
        white
    } else {
        -white
    }
}

/// The parts of the evaluation that do not depend on the weights: the game phase
/// and the endgame scale factors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// 0 (pawns and kings only) ..= [`PHASE_MAX`].
    pub phase: i32,
    /// `scale[c]` (out of [`SCALE_NORMAL`]) multiplies the endgame score when it
    /// favours colour `c` (0 = White). Lowered when `c` has no pawns and too little
    /// extra material to win, and for opposite-coloured bishops.
    pub scale: [i32; 2],
}

impl Shape {
    /// Phase and scale factors of a position (from its material alone).
    pub fn of(board: &Board) -> Shape {
        let white = board.color_combined(Color::White).0;
        let count = |p: Piece| {
            let b = board.pieces(p).0;
            [
                (b & white).count_ones() as i32,
                (b & !white).count_ones() as i32,
            ]
        };
        let (pawns, knights, bishops) = (
            count(Piece::Pawn),
            count(Piece::Knight),
            count(Piece::Bishop),
        );
        let (rooks, queens) = (count(Piece::Rook), count(Piece::Queen));
        let minors = [knights[0] + bishops[0], knights[1] + bishops[1]];
        let phase = minors[0] + minors[1] + 2 * (rooks[0] + rooks[1]) + 4 * (queens[0] + queens[1]);
        // Rough non-pawn material in pawns, only to judge winning chances.
        let heavy = |c: usize| 3 * minors[c] + 5 * rooks[c] + 9 * queens[c];

        let mut scale = [SCALE_NORMAL; 2];
        for c in 0..2 {
            let them = 1 - c;
            if pawns[c] > 0 {
                continue;
            }
            if heavy(c) <= 3 {
                // A bare king or a lone minor cannot mate.
                scale[c] = 0;
            } else if heavy(c) == 6 && knights[c] == 2 && pawns[them] == 0 {
                // Two knights cannot force mate against a bare king.
                scale[c] = 0;
            } else if heavy(c) - heavy(them) <= 3 {
                // No pawns and at most a minor piece up, e.g. KR v KB, KRB v KR.
                scale[c] = 16;
            }
        }
        let only_bishops = knights == [0, 0] && rooks == [0, 0] && queens == [0, 0];
        if only_bishops && bishops == [1, 1] {
            const LIGHT: u64 = 0x55AA_55AA_55AA_55AA;
            let b = board.pieces(Piece::Bishop).0;
            if (b & LIGHT).count_ones() == 1 {
                // Opposite-coloured bishops: many pawns up is often still a draw.
                scale = [scale[0].min(32), scale[1].min(32)];
            }
        }
        Shape {
            phase: phase.min(PHASE_MAX),
            scale,
        }
    }

    /// Neither side can win: the evaluation is 0 whatever the weights.
    pub fn is_dead_draw(&self) -> bool {
        self.scale == [0, 0]
    }

    /// Blends a White-relative (midgame, endgame) score into centipawns.
    #[inline(always)]
    pub fn taper(&self, mg: i32, eg: i32) -> i32 {
        let scale = if eg > 0 { self.scale[0] } else { self.scale[1] };
        let eg = eg * scale / SCALE_NORMAL;
        (mg * self.phase + eg * (PHASE_MAX - self.phase)) / PHASE_MAX
    }

    /// The factors `(fm, fe)` with which the tuner's real-valued model blends a
    /// White-relative score: `value = mg·fm + eg·fe`. They depend on the sign of
    /// `eg` because the scale factor belongs to the side the endgame score favours.
    pub fn blend_factors(&self, eg: f64) -> (f64, f64) {
        if self.is_dead_draw() {
            return (0.0, 0.0);
        }
        let scale = if eg > 0.0 {
            self.scale[0]
        } else {
            self.scale[1]
        };
        let phase = f64::from(self.phase) / f64::from(PHASE_MAX);
        (
            phase,
            (1.0 - phase) * f64::from(scale) / f64::from(SCALE_NORMAL),
        )
    }
}

/// A position as the tuner sees it: the counts of every feature (White's count
/// minus Black's) and the [`Shape`]. With weights `w`, the White-relative
/// evaluation is `Σ count·w.mg` and `Σ count·w.eg`, blended by
/// [`Shape::blend_factors`]; it matches [`evaluate`] up to integer rounding.
#[derive(Clone, Debug)]
pub struct Trace {
    /// (weight index as in [`layout`], White count minus Black count), non-zero only.
    pub features: Vec<(u16, i16)>,
    pub shape: Shape,
}

impl Trace {
    /// White-relative evaluation with real-valued weights (indexed as in [`layout`]).
    pub fn evaluate(&self, weights: &[(f64, f64)]) -> f64 {
        let (mg, eg) = self.sums(weights);
        let (fm, fe) = self.shape.blend_factors(eg);
        mg * fm + eg * fe
    }

    /// The unblended (midgame, endgame) sums for real-valued weights.
    pub fn sums(&self, weights: &[(f64, f64)]) -> (f64, f64) {
        let (mut mg, mut eg) = (0.0, 0.0);
        for &(i, n) in &self.features {
            let (m, e) = weights[usize::from(i)];
            mg += m * f64::from(n);
            eg += e * f64::from(n);
        }
        (mg, eg)
    }
}

struct Counter(Vec<i32>);

impl Tracer for Counter {
    fn add(&mut self, index: usize, colour: usize, count: i32) {
        self.0[index] += if colour == 0 { count } else { -count };
    }
}

/// The feature counts of a position, for the tuner. Slow; not for the search.
pub fn trace(board: &Board) -> Trace {
    let mut counter = Counter(vec![0; layout::COUNT]);
    terms::white_minus_black(board, &mut counter);
    let features = counter
        .0
        .iter()
        .enumerate()
        .filter(|&(_, &n)| n != 0)
        .map(|(i, &n)| (i as u16, n.clamp(i16::MIN.into(), i16::MAX.into()) as i16))
        .collect();
    Trace {
        features,
        shape: Shape::of(board),
    }
}
