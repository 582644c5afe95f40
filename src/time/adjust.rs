//! Search-side adjustments: scale the soft budget between iterations.
//!
//! The base budget says how long an *average* move may take; the search itself knows
//! whether this move is average. Between iterations the iterative-deepening loop fills
//! a [`Progress`] and multiplies the soft budget by [`soft_scale`] (use [`scaled_soft_ms`],
//! which also keeps the result within hard). Five switchable rules, all common practice
//! (Stockfish's `bestMoveInstability` and `fallingEval`, the typ.dev article's
//! "Adjustment" section, <https://typ.dev/time-management>, and Ethereal's node factor):
//!
//! * single reply — only one legal move: play it at once (scale 0, so the soft stop fires
//!   after the first completed iteration). This is the one rule outside the cap below.
//! * instability — the best move changed in recent iterations: think longer,
//!   `1 + 0.5 × changes` (changes decayed by half every iteration), at most ×2.
//! * stability — the same best move for several iterations: think less,
//!   `1 − 0.08 × stable iterations`, at least ×0.6.
//! * score drop — the score is falling: think longer, `1 + 0.005 × drop in centipawns`,
//!   the drop counted up to 120 cp (so at most ×1.6).
//! * best-move nodes ("node-based time management") — the share f of this move's search
//!   (all iterations so far, main thread) spent below the current best move: a move that
//!   took nearly all the effort is clear, one that took little is contested. With MultiPV
//!   only the first line's searches count, the ones that choose among all the moves: the
//!   later lines search the other moves by design.
//!   `max(0.5, 2·(1 − f) + 0.4)`: f = 0.9 → ×0.6, f = 0.7 → ×1, f = 0.2 → ×2.
//!   Source: Ethereal, `src/timeman.c`, `tm_finished` ("Scale time between 50% and 240%,
//!   based on where nodes have been spent"; AndyGrant/Ethereal commit 60f4d5c5, "Rewrite the
//!   Time Managment using old ideas and a new one", read at 0e47e9b6). Read from depth
//!   [`NODE_FRACTION_MIN_DEPTH`] on, as Ethereal does. Other published forms: Koivisto
//!   PR #115 `(110 − min(pct, 90))/100`, Weiss `0.52 + 3.73·(1 − f)`, Stockfish's
//!   `nodesEffort` (an interpolation clamped to [0.693, 0.838]).
//!
//! The product is kept within [`MIN_SCALE`, `MAX_SCALE`] = [0.5, 2.5]; with
//! `hard = 3 × soft` the scaled soft budget stays below hard unless hard was capped,
//! and [`scaled_soft_ms`] enforces it anyway.

use super::finite_or;

/// Soft-budget multiplier when there is only one legal move.
pub const SINGLE_REPLY_SCALE: f64 = 0.0;
/// Extra time per (decayed) best-move change.
pub const INSTABILITY_PER_CHANGE: f64 = 0.5;
/// Largest instability multiplier.
pub const INSTABILITY_MAX: f64 = 2.0;
/// Suggested decay of the best-move-change count per iteration.
pub const BEST_MOVE_CHANGE_DECAY: f64 = 0.5;
/// Time saved per iteration with an unchanged best move.
pub const STABILITY_STEP: f64 = 0.08;
/// Smallest stability multiplier.
pub const STABILITY_MIN: f64 = 0.6;
/// Extra time per centipawn of score drop.
pub const SCORE_DROP_PER_CP: f64 = 0.005;
/// Largest drop that still adds time.
pub const SCORE_DROP_MAX_CP: i32 = 120;
/// Ethereal's node factor `max(NODE_FACTOR_MIN, NODE_FACTOR_SLOPE·(1 − f) + NODE_FACTOR_BASE)`.
pub const NODE_FACTOR_SLOPE: f64 = 2.0;
pub const NODE_FACTOR_BASE: f64 = 0.4;
pub const NODE_FACTOR_MIN: f64 = 0.5;
/// The node share is read from this completed depth on (Ethereal: "don't terminate early
/// at very low depths", `completed < 4`); shallower searches are too small to tell.
pub const NODE_FRACTION_MIN_DEPTH: u32 = 4;
/// Bounds on the combined multiplier (single reply excepted).
pub const MIN_SCALE: f64 = 0.5;
pub const MAX_SCALE: f64 = 2.5;

/// Which adjustments are switched on (all by default).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Adjustments {
    pub single_reply: bool,
    pub instability: bool,
    pub stability: bool,
    pub score_drop: bool,
    pub node_fraction: bool,
}

impl Default for Adjustments {
    fn default() -> Adjustments {
        Adjustments {
            single_reply: true,
            instability: true,
            stability: true,
            score_drop: true,
            node_fraction: true,
        }
    }
}

/// What the search has seen so far in this move.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Progress {
    /// Legal moves at the root.
    pub legal_moves: usize,
    /// Best-move changes, decayed (e.g. halved) every iteration.
    pub best_move_changes: f64,
    /// Iterations in a row that kept the same best move.
    pub stable_iterations: u32,
    /// Previous iteration's best score − this one's, in centipawns; positive = falling.
    pub score_drop_cp: i32,
    /// Share of the main thread's nodes in this search (the first MultiPV line's) spent on
    /// the current best move (0..=1); None until [`NODE_FRACTION_MIN_DEPTH`].
    pub best_move_nodes: Option<f64>,
}

/// Ethereal's node factor for best-move node share `f` (see the module doc).
pub fn node_factor(f: f64) -> f64 {
    let f = finite_or(f, 0.0).clamp(0.0, 1.0);
    (NODE_FACTOR_SLOPE * (1.0 - f) + NODE_FACTOR_BASE).max(NODE_FACTOR_MIN)
}

/// The separate factors: (instability, stability, score drop, best-move nodes); 1.0 when
/// switched off.
fn factors(adj: &Adjustments, p: &Progress) -> (f64, f64, f64, f64) {
    let instability = if adj.instability {
        let changes = finite_or(p.best_move_changes, 0.0).max(0.0);
        (1.0 + INSTABILITY_PER_CHANGE * changes).min(INSTABILITY_MAX)
    } else {
        1.0
    };
    let stability = if adj.stability {
        (1.0 - STABILITY_STEP * f64::from(p.stable_iterations)).max(STABILITY_MIN)
    } else {
        1.0
    };
    let drop = if adj.score_drop {
        1.0 + SCORE_DROP_PER_CP * f64::from(p.score_drop_cp.clamp(0, SCORE_DROP_MAX_CP))
    } else {
        1.0
    };
    let nodes = match p.best_move_nodes {
        Some(f) if adj.node_fraction => node_factor(f),
        _ => 1.0,
    };
    (instability, stability, drop, nodes)
}

fn single_reply(adj: &Adjustments, p: &Progress) -> bool {
    adj.single_reply && p.legal_moves == 1
}

/// The multiplier for the soft budget.
pub fn soft_scale(adj: &Adjustments, p: &Progress) -> f64 {
    if single_reply(adj, p) {
        return SINGLE_REPLY_SCALE;
    }
    let (a, b, c, d) = factors(adj, p);
    (a * b * c * d).clamp(MIN_SCALE, MAX_SCALE)
}

/// The soft budget after scaling, never beyond hard.
pub fn scaled_soft_ms(soft_ms: u64, hard_ms: u64, scale: f64) -> u64 {
    let scale = finite_or(scale, 1.0).max(0.0);
    let scaled = (soft_ms as f64 * scale).min(hard_ms as f64);
    scaled.max(0.0).floor() as u64
}

/// One short line naming every factor that scaled the budget, e.g.
/// "unstable ×1.50 · stable ×0.84 · drop 40 cp ×1.20 · best-move nodes 85% ×0.70 → ×1.06".
pub fn reason(adj: &Adjustments, p: &Progress) -> String {
    if single_reply(adj, p) {
        return "single reply → move now".to_string();
    }
    let (a, b, c, d) = factors(adj, p);
    let mut parts = Vec::new();
    if a != 1.0 {
        parts.push(format!("unstable ×{a:.2}"));
    }
    if b != 1.0 {
        parts.push(format!("stable ×{b:.2}"));
    }
    if c != 1.0 {
        parts.push(format!(
            "drop {} cp ×{c:.2}",
            p.score_drop_cp.clamp(0, SCORE_DROP_MAX_CP)
        ));
    }
    if d != 1.0 {
        let share = finite_or(p.best_move_nodes.unwrap_or(0.0), 0.0).clamp(0.0, 1.0);
        parts.push(format!("best-move nodes {:.0}% ×{d:.2}", share * 100.0));
    }
    if parts.is_empty() {
        return "no adjustment".to_string();
    }
    let total = soft_scale(adj, p);
    let clamped = if (total - a * b * c * d).abs() > 1e-12 {
        " (clamped)"
    } else {
        ""
    };
    format!("{} → ×{total:.2}{clamped}", parts.join(" · "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn progress(legal: usize, changes: f64, stable: u32, drop: i32) -> Progress {
        Progress {
            legal_moves: legal,
            best_move_changes: changes,
            stable_iterations: stable,
            score_drop_cp: drop,
            best_move_nodes: None,
        }
    }

    #[test]
    fn node_factor_matches_ethereal() {
        // Ethereal's comment: "Scale time between 50% and 240%".
        assert!((node_factor(0.0) - 2.4).abs() < 1e-12);
        assert!((node_factor(0.9) - 0.6).abs() < 1e-12);
        assert!((node_factor(0.7) - 1.0).abs() < 1e-12);
        assert!((node_factor(0.95) - 0.5).abs() < 1e-12);
        assert_eq!(node_factor(1.0), 0.5);
        assert_eq!(node_factor(f64::NAN), 2.4);
        assert_eq!(node_factor(7.0), 0.5);
        let adj = Adjustments::default();
        let p = Progress {
            best_move_nodes: Some(0.85),
            ..progress(20, 0.0, 0, 0)
        };
        assert!((soft_scale(&adj, &p) - 0.7).abs() < 1e-12);
        assert_eq!(reason(&adj, &p), "best-move nodes 85% ×0.70 → ×0.70");
        let off = Adjustments {
            node_fraction: false,
            ..adj
        };
        assert_eq!(soft_scale(&off, &p), 1.0);
        // Unknown before NODE_FRACTION_MIN_DEPTH: no factor.
        assert_eq!(soft_scale(&adj, &progress(20, 0.0, 0, 0)), 1.0);
    }

    #[test]
    fn neutral_progress_is_one() {
        let adj = Adjustments::default();
        assert_eq!(soft_scale(&adj, &progress(20, 0.0, 0, 0)), 1.0);
        assert_eq!(reason(&adj, &progress(20, 0.0, 0, -50)), "no adjustment");
    }

    #[test]
    fn single_reply_moves_at_once() {
        let adj = Adjustments::default();
        assert_eq!(soft_scale(&adj, &progress(1, 3.0, 0, 200)), 0.0);
        assert_eq!(scaled_soft_ms(1000, 3000, 0.0), 0);
        assert_eq!(
            reason(&adj, &progress(1, 0.0, 0, 0)),
            "single reply → move now"
        );
        let off = Adjustments {
            single_reply: false,
            ..adj
        };
        assert_eq!(soft_scale(&off, &progress(1, 0.0, 0, 0)), 1.0);
    }

    #[test]
    fn each_rule() {
        let adj = Adjustments::default();
        assert!((soft_scale(&adj, &progress(20, 1.0, 0, 0)) - 1.5).abs() < 1e-12);
        assert!((soft_scale(&adj, &progress(20, 10.0, 0, 0)) - INSTABILITY_MAX).abs() < 1e-12);
        assert!((soft_scale(&adj, &progress(20, 0.0, 2, 0)) - 0.84).abs() < 1e-12);
        assert!((soft_scale(&adj, &progress(20, 0.0, 50, 0)) - STABILITY_MIN).abs() < 1e-12);
        assert!((soft_scale(&adj, &progress(20, 0.0, 0, 40)) - 1.2).abs() < 1e-12);
        assert!((soft_scale(&adj, &progress(20, 0.0, 0, 10_000)) - 1.6).abs() < 1e-12);
        assert_eq!(soft_scale(&adj, &progress(20, 0.0, 0, -500)), 1.0);
    }

    #[test]
    fn total_is_capped_and_never_beyond_hard() {
        let adj = Adjustments::default();
        let wild = progress(20, 100.0, 0, i32::MAX);
        assert_eq!(soft_scale(&adj, &wild), MAX_SCALE);
        assert!(reason(&adj, &wild).ends_with("(clamped)"));
        for p in [
            progress(0, f64::NAN, u32::MAX, i32::MIN),
            progress(usize::MAX, f64::INFINITY, 0, i32::MAX),
            progress(20, -5.0, 3, 0),
        ] {
            let s = soft_scale(&adj, &p);
            assert!((MIN_SCALE..=MAX_SCALE).contains(&s), "{p:?}: {s}");
        }
        assert_eq!(scaled_soft_ms(1000, 1800, 2.5), 1800);
        assert_eq!(scaled_soft_ms(1000, 3000, f64::NAN), 1000);
        assert_eq!(scaled_soft_ms(u64::MAX, u64::MAX, 2.5), u64::MAX);
    }

    #[test]
    fn switches_turn_rules_off() {
        let none = Adjustments {
            single_reply: false,
            instability: false,
            stability: false,
            score_drop: false,
            node_fraction: false,
        };
        assert_eq!(soft_scale(&none, &progress(1, 5.0, 9, 300)), 1.0);
        let p = progress(20, 1.0, 2, 40);
        assert_eq!(
            reason(&Adjustments::default(), &p),
            "unstable ×1.50 · stable ×0.84 · drop 40 cp ×1.20 → ×1.51"
        );
    }
}
