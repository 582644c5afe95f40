//! `curve`: Lc0's legacy time curve — more time around the early middlegame.
//!
//! Idea: take all the time we will have until the control or for the next 50 moves —
//! the clock plus the future increments, `t + inc·(moves − 1)` — and split it among those
//! moves in proportion to a weight that depends on the ply of each move:
//!
//! ```text
//! weight(ply) = sech²((ply − peak) / (width · 1.518651485)),
//! width = right width if ply > peak, else left width
//! this move = total · weight(ply) / (weight(ply) + Σ_{i=1}^{moves−1} weight(ply + 2i))
//! ```
//!
//! The scaler 1.518651485 ≈ 2/ln(2+√3) puts the inflection points at peak ± width,
//! where the weight is 2/3 of its maximum. Lc0's defaults: peak 26.2 plies, left width 82,
//! right width 74, 50 moves when no `movestogo` is given, "slowmover" 1.0 (it was 1.5 in
//! the first lc0 of May 2018); here slowmover is the shared `Settings::slow_mover`.
//!
//! Lc0 also carried "spared time" from move to move; that, and its 200 ms smart-pruning
//! tolerance, are left out (they belong to MCTS). The ratio of weights is computed from
//! ln cosh so that far-away plies cannot overflow.
//!
//! Source: lc0 `src/engine.cc` (2018–2019): `ComputeMoveWeight` and
//! `EngineController::PopulateSearchLimits`, options `time-curve-peak`,
//! `time-curve-left-width`, `time-curve-right-width`, `slowmover`.

use super::{finite_or, fmt_ms, Inputs, Plan, Strategy, Style};

/// Lc0 "time-curve-peak" (ply).
pub const LC0_PEAK: f64 = 26.2;
/// Lc0 "time-curve-left-width" (plies).
pub const LC0_LEFT_WIDTH: f64 = 82.0;
/// Lc0 "time-curve-right-width" (plies).
pub const LC0_RIGHT_WIDTH: f64 = 74.0;
/// Lc0's constant, "2 / log(2 + sqrt(3))" (the exact value is 1.518651435…).
pub const WIDTH_SCALER: f64 = 1.518_651_485;
/// Moves in the horizon when no `movestogo` is given.
pub const DEFAULT_MOVES: u32 = 50;
/// Longest horizon we sum over (an absurd `movestogo` must not loop for ever).
pub const MAX_MOVES: u32 = 1000;

/// The curve's parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shape {
    pub peak: f64,
    pub left_width: f64,
    pub right_width: f64,
}

impl Default for Shape {
    fn default() -> Shape {
        Shape {
            peak: LC0_PEAK,
            left_width: LC0_LEFT_WIDTH,
            right_width: LC0_RIGHT_WIDTH,
        }
    }
}

impl Shape {
    /// A shape; unusable values (NaN, widths ≤ 0) fall back to Lc0's defaults.
    pub fn new(peak: f64, left_width: f64, right_width: f64) -> Shape {
        let width = |w: f64, default: f64| if w.is_finite() && w > 0.0 { w } else { default };
        Shape {
            peak: finite_or(peak, LC0_PEAK),
            left_width: width(left_width, LC0_LEFT_WIDTH),
            right_width: width(right_width, LC0_RIGHT_WIDTH),
        }
    }

    fn x(&self, ply: f64) -> f64 {
        let width = if ply > self.peak {
            self.right_width
        } else {
            self.left_width
        };
        (ply - self.peak) / width / WIDTH_SCALER
    }

    /// Lc0's `ComputeMoveWeight`: sech² of the scaled distance from the peak.
    pub fn weight(&self, ply: f64) -> f64 {
        let c = self.x(ply).cosh();
        1.0 / (c * c)
    }
}

/// ln cosh x without overflow.
fn ln_cosh(x: f64) -> f64 {
    let a = x.abs();
    a + (-2.0 * a).exp().ln_1p() - std::f64::consts::LN_2
}

/// This move's share of the time for `moves` moves starting at `ply`.
pub fn this_move_share(ply: f64, moves: u32, shape: &Shape) -> f64 {
    let here = ln_cosh(shape.x(ply));
    let others: f64 = (1..moves.clamp(1, MAX_MOVES))
        .map(|i| (2.0 * (here - ln_cosh(shape.x(ply + 2.0 * f64::from(i))))).exp())
        .sum();
    1.0 / (1.0 + others)
}

pub fn plan(inputs: &Inputs, shape: &Shape) -> Plan {
    let moves = inputs
        .moves_to_go
        .unwrap_or(DEFAULT_MOVES)
        .clamp(1, MAX_MOVES);
    let total = inputs.usable_ms + inputs.increment_ms * f64::from(moves - 1);
    let share = this_move_share(f64::from(inputs.plies_played), moves, shape);
    let soft = total * share;
    Plan {
        soft_ms: soft,
        hard_ms: None,
        note: format!(
            "ply {} weight share {:.2}% of {moves} moves' {} = {}",
            inputs.plies_played,
            share * 100.0,
            fmt_ms(total),
            fmt_ms(soft)
        ),
    }
}

/// Lc0's time curve (see the module doc).
#[derive(Clone, Debug, Default)]
pub struct Curve {
    pub shape: Shape,
}

impl Strategy for Curve {
    fn name(&self) -> &'static str {
        "curve"
    }
    fn style(&self) -> Style {
        Style {
            symbol: 'V',
            colour: "#CC79A7",
            dash: "8 5",
        }
    }
    fn plan(&self, inputs: &Inputs) -> Plan {
        plan(inputs, &self.shape)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scaler_is_two_over_ln_two_plus_root_three() {
        let exact = 2.0 / (2.0 + 3.0_f64.sqrt()).ln();
        assert!((WIDTH_SCALER - exact).abs() < 1e-7);
    }

    #[test]
    fn two_thirds_at_peak_plus_minus_width() {
        // The source's comment: inflection points at peak ± width, weight 2/3 there.
        let s = Shape::default();
        assert!((s.weight(LC0_PEAK) - 1.0).abs() < 1e-12);
        assert!((s.weight(LC0_PEAK + LC0_RIGHT_WIDTH) - 2.0 / 3.0).abs() < 1e-7);
        assert!((s.weight(LC0_PEAK - LC0_LEFT_WIDTH) - 2.0 / 3.0).abs() < 1e-7);
    }

    #[test]
    fn share_matches_direct_sum() {
        let s = Shape::default();
        for ply in [0.0, 20.0, 40.0, 80.0] {
            let direct =
                s.weight(ply) / (0..50).map(|i| s.weight(ply + 2.0 * i as f64)).sum::<f64>();
            assert!((this_move_share(ply, 50, &s) - direct).abs() < 1e-12);
        }
        // About 2.1 % of the 50-move total at the first move.
        assert!((this_move_share(0.0, 50, &s) - 0.021_07).abs() < 1e-4);
        assert_eq!(this_move_share(10.0, 1, &s), 1.0);
    }

    #[test]
    fn far_plies_do_not_overflow() {
        let s = Shape::default();
        for ply in [1e6, 4.3e9, -1e9] {
            let share = this_move_share(ply, 50, &s);
            assert!(
                share.is_finite() && (0.0..=1.0).contains(&share),
                "{ply}: {share}"
            );
        }
        let odd = Shape::new(f64::NAN, -1.0, 0.0);
        assert_eq!(odd, Shape::default());
    }
}
