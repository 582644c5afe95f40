//! `geometric`: spend a fixed fraction 1/α of the clock on every move.
//!
//! Idea: if every move takes 1/α of what is on the clock, the clock after n moves is
//! `t_n = t_0 · (1 − 1/α)^n`, so it never reaches zero. To end N moves from now with a
//! reserve r, solve `r = t_0 (1 − 1/α)^N`:
//!
//! ```text
//! α = 1 / (1 − (r/t_0)^(1/N))
//! ```
//!
//! The move after those N gets r/α; asking that it still be s long gives r = α·s, and
//! α becomes the fixed point of `α = 1 / (1 − (α·s/t_0)^(1/N))`. Equivalently α is a root
//! of `h(α) = α·(1 − (α·s/t_0)^(1/N)) = 1`. h is concave, rises from h(1) < 1 to a peak
//! at `α* = (N/(N+1))^N · t_0/s` and falls to 0 at t_0/s, so we take the smaller root by
//! bisection on [1, α*]. If `h(α*) < 1` there is no root: the clock is too short to keep
//! N moves of at least s. That happens exactly when `t_0/s < (N+1)·((N+1)/N)^N`
//! (≈ e·(N+1)), and at that boundary the root is α* = N+1, so we fall back to α = N+1
//! and the budget stays continuous.
//!
//! In play we plan afresh each move ("sliding horizon"): t_0 is the usable clock now,
//! N = the horizon (or `movestogo`), and the budget is `t/α + inc` (each move's increment is
//! simply passed on). This strategy front-loads time: about t/10 on the first move of 10
//! minutes.
//!
//! Source: Kade, "An introduction to time management", <https://typ.dev/time-management>,
//! section "Base Value → Geometric", including the α values tested below.

use super::{fmt_ms, Inputs, Plan, Strategy, Style};

/// Planning horizon N in moves.
pub const DEFAULT_MOVES: u32 = 40;
/// Shortest move s at the end of the horizon.
pub const DEFAULT_SHORTEST_MS: i64 = 1000;

/// h(α) = α·(1 − (α/ratio)^(1/N)), written with expm1 to stay exact for large N.
fn h(alpha: f64, ratio: f64, n: f64) -> f64 {
    -alpha * ((alpha / ratio).ln() / n).exp_m1()
}

/// The smallest fixed point α of `α = 1/(1 − (α·s/t0)^(1/N))`, or None if there is none.
/// `t0` and `shortest` in the same unit.
pub fn alpha(t0: f64, shortest: f64, moves: u32) -> Option<f64> {
    if !(t0.is_finite() && shortest.is_finite() && t0 > 0.0 && shortest > 0.0) {
        return None;
    }
    let n = f64::from(moves.max(1));
    let ratio = t0 / shortest;
    let peak = (n / (n + 1.0)).powf(n) * ratio;
    if !peak.is_finite() || peak < 1.0 || h(peak, ratio, n) < 1.0 {
        return None;
    }
    // Bisection on a log scale (the bracket can span hundreds of orders of magnitude).
    let (mut lo, mut hi) = (1.0_f64, peak);
    for _ in 0..200 {
        let mid = (0.5 * (lo.ln() + hi.ln())).exp();
        if h(mid, ratio, n) < 1.0 {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo <= 1e-12 * hi {
            break;
        }
    }
    Some((0.5 * (lo.ln() + hi.ln())).exp())
}

pub fn plan(inputs: &Inputs, moves: u32, shortest_ms: i64) -> Plan {
    let horizon = inputs.moves_to_go.unwrap_or(moves).max(1);
    let shortest = shortest_ms.max(1) as f64;
    let t = inputs.usable_ms;
    let (a, how) = match alpha(t, shortest, horizon) {
        Some(a) => (a, format!("α={a:.1}")),
        None => {
            let a = f64::from(horizon) + 1.0;
            (a, format!("no fixed point, α=N+1={a:.0}"))
        }
    };
    let soft = t / a + inputs.increment_ms;
    Plan {
        soft_ms: soft,
        hard_ms: None,
        note: format!(
            "{how} (N={horizon}, s={}); t/α+inc = {}",
            fmt_ms(shortest),
            fmt_ms(soft)
        ),
    }
}

/// A fixed fraction of the clock per move (see the module doc).
#[derive(Clone, Debug)]
pub struct Geometric {
    /// Planning horizon N in moves.
    pub moves: u32,
    /// The shortest move s we accept at the end of the horizon.
    pub shortest_ms: i64,
}

impl Default for Geometric {
    fn default() -> Geometric {
        Geometric {
            moves: DEFAULT_MOVES,
            shortest_ms: DEFAULT_SHORTEST_MS,
        }
    }
}

impl Strategy for Geometric {
    fn name(&self) -> &'static str {
        "geometric"
    }
    fn style(&self) -> Style {
        Style {
            symbol: 'G',
            colour: "#009E73",
            dash: "3 5",
        }
    }
    fn plan(&self, inputs: &Inputs) -> Plan {
        plan(inputs, self.moves, self.shortest_ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_alphas_for_one_second() {
        for (t0, want) in [(600.0, 10.4), (300.0, 13.4), (180.0, 17.8)] {
            let a = alpha(t0, 1.0, 40).unwrap_or(0.0);
            assert!((a - want).abs() < 0.05, "t0={t0}: {a}");
        }
    }

    #[test]
    fn sources_alphas_for_a_tenth_of_a_second() {
        for (t0, want) in [(60.0, 10.4), (30.0, 13.4), (15.0, 20.7)] {
            let a = alpha(t0, 0.1, 40).unwrap_or(0.0);
            assert!((a - want).abs() < 0.05, "t0={t0}: {a}");
        }
    }

    #[test]
    fn alpha_is_a_fixed_point() {
        let (t0, s) = (300.0, 1.0);
        let a = alpha(t0, s, 40).unwrap_or(0.0);
        let f = 1.0 / (1.0 - (a * s / t0).powf(1.0 / 40.0));
        assert!((a - f).abs() < 1e-6);
    }

    #[test]
    fn boundary_is_continuous() {
        // No root below t0/s = (N+1)((N+1)/N)^N; just above it α → N+1.
        let n = 40.0_f64;
        let boundary = (n + 1.0) * ((n + 1.0) / n).powf(n);
        assert!(alpha(boundary * 0.999, 1.0, 40).is_none());
        let a = alpha(boundary * 1.000_001, 1.0, 40).unwrap_or(0.0);
        assert!((a - 41.0).abs() < 0.1, "{a}");
    }

    #[test]
    fn degenerate_inputs() {
        assert!(alpha(0.0, 1.0, 40).is_none());
        assert!(alpha(-1.0, 1.0, 40).is_none());
        assert!(alpha(f64::NAN, 1.0, 40).is_none());
        assert!(alpha(f64::MAX, 1e-300, 0).is_none());
        assert!(alpha(1e300, 1.0, u32::MAX).is_some_and(|a| a.is_finite()));
    }
}
