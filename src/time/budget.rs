//! The budget for one move, `{soft, hard}` with a reason, and the shared clamps that make
//! every strategy's plan safe: never negative, never beyond a share of the clock, never
//! more than the clock can pay for with the Move Overhead reserved and a margin kept.

use super::plan::Plan;
use super::{finite_or, fmt_ms, Inputs};
use std::fmt;

/// The soft limit is the strategy's planned move time × this (a strategy that corrects its
/// own time use may opt out).
///
/// The soft stop never starts an iteration it cannot pay for, so a move ends somewhere
/// between about half the soft limit and all of it; with the plan used as the limit directly
/// Sandglass finished 10+0.1 games with a third of its clock unused. The value is chosen by
/// self-play matches against the previous one (docs/measurements/time-management.md, issues 4 and 14). The clamps
/// below still bound the result.
pub const SOFT_STOP_ALLOWANCE: f64 = 1.43;
/// Soft never exceeds this share of the usable clock (time left − overhead), unless the
/// clock refills within a few moves (see [`LAST_MOVE_SHARE`]).
pub const SOFT_MAX_SHARE: f64 = 0.25;
/// hard = HARD_FACTOR × soft, before its own cap.
pub const HARD_FACTOR: f64 = 3.0;
/// Hard never exceeds this share of the usable clock (unless the clock refills soon).
pub const HARD_MAX_SHARE: f64 = 0.5;
/// With `movestogo m`, soft and hard may reach `LAST_MOVE_SHARE / m` of the usable clock, so
/// the moves just before the control do not collapse to a tiny budget (the known failure:
/// `go wtime 32 btime 32 movestogo 1` answered at depth 1); `1 − LAST_MOVE_SHARE` is the
/// reserve kept at the control.
pub const LAST_MOVE_SHARE: f64 = 0.85;
/// Soft and hard never come closer than this to the usable clock (time − Move Overhead − the
/// round-trip reserve): after the hard stop the engine still has to notice it, unwind and
/// print `bestmove`, and on a loaded machine that took up to 5 ms (Threads 1–2, quiet) and
/// 14–27 ms (load 8) beyond a `movetime` (docs/measurements/speed.md, "Stop latency and movetime").
/// So a move that runs to its hard limit leaves at least Move Overhead + this on the clock,
/// however small the clock: at `go wtime 32 movestogo 1` with a 10 ms overhead, hard is
/// 12 ms rather than 85 % of 22.
pub const HARD_MARGIN_MS: f64 = 10.0;
/// What the default `2x` soft stop spends of the soft limit on a typical move: it never starts
/// an iteration it expects to end past soft, so a move ends between about half the soft limit
/// and all of it, about 1/[`SOFT_STOP_ALLOWANCE`] on average (that is how the allowance was
/// measured). A strategy's plan is this expected spend; `why` states it when a clamp moves
/// soft away from plan × allowance.
pub const EXPECTED_SOFT_USE: f64 = 1.0 / SOFT_STOP_ALLOWANCE;
/// Minimum think time, applied when the clock allows it (the caps win over it).
pub const MIN_THINK_MS: f64 = 5.0;
/// Largest budget ever returned (about 35 years), so `Instant + budget` cannot overflow.
pub const MAX_BUDGET_MS: u64 = 1 << 40;

/// The answer: how long to think.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Budget {
    pub soft_ms: u64,
    pub hard_ms: u64,
    /// One short human line explaining the numbers.
    pub why: String,
}

impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "soft {}, hard {} — {}",
            fmt_ms(self.soft_ms as f64),
            fmt_ms(self.hard_ms as f64),
            self.why
        )
    }
}

/// Soft cap as a share of the usable clock: [`SOFT_MAX_SHARE`], relaxed to
/// `LAST_MOVE_SHARE / m` when the clock refills within `m` moves.
pub fn soft_share(moves_to_go: Option<u32>) -> f64 {
    match moves_to_go {
        Some(m) if m > 0 => SOFT_MAX_SHARE.max(LAST_MOVE_SHARE / f64::from(m)),
        _ => SOFT_MAX_SHARE,
    }
}

/// Hard cap as a share of the usable clock (never below the soft cap).
pub fn hard_share(moves_to_go: Option<u32>) -> f64 {
    HARD_MAX_SHARE.max(soft_share(moves_to_go))
}

/// The shared clamps, applied to every strategy's plan (and to its own hard limit, if it
/// has one).
pub fn finish(name: &str, plan: Plan, inputs: &Inputs) -> Budget {
    let mut clamps: Vec<&str> = Vec::new();
    let mut soft = finite_or(plan.soft_ms, 0.0).max(0.0);
    let wanted = soft;
    if soft < MIN_THINK_MS {
        soft = MIN_THINK_MS;
        clamps.push("min think");
    }
    let margin_cap = (inputs.usable_ms - HARD_MARGIN_MS).max(0.0);
    let soft_cap = (soft_share(inputs.moves_to_go) * inputs.usable_ms).min(margin_cap);
    if soft > soft_cap {
        soft = soft_cap;
        clamps.push(if soft_cap < MIN_THINK_MS {
            "clock nearly empty"
        } else {
            "soft cap"
        });
    }
    // A strategy's own hard limit replaces HARD_FACTOR × soft, but never undercuts soft.
    let mut hard = match plan.hard_ms {
        Some(h) => finite_or(h, 0.0).max(soft),
        None => soft * HARD_FACTOR,
    };
    let hard_cap = (hard_share(inputs.moves_to_go) * inputs.usable_ms).min(margin_cap);
    if hard > hard_cap {
        hard = hard_cap.max(soft);
        clamps.push("hard cap");
    }
    let limit = MAX_BUDGET_MS as f64;
    if hard > limit {
        hard = limit;
        soft = soft.min(limit);
        clamps.push("max budget");
    }
    let clamps = if clamps.is_empty() {
        "none".to_string()
    } else if soft != wanted {
        // The plan no longer says what the move will spend: say it.
        format!(
            "{} → expected spend {}",
            clamps.join(", "),
            fmt_ms(to_ms(soft) as f64 * EXPECTED_SOFT_USE)
        )
    } else {
        clamps.join(", ")
    };
    Budget {
        soft_ms: to_ms(soft),
        hard_ms: to_ms(hard),
        why: format!("{name}: {}; clamps: {clamps}", plan.note),
    }
}

/// For `go movetime`: think exactly `movetime` (never negative). soft = hard; the engine
/// searches until hard and ignores the soft stop.
///
/// Move Overhead is not taken off: `movetime` is a per-move allowance that the GUI measures
/// itself (match runners grant some slack beyond it), and UCI asks for exactly that time, so
/// `go movetime 500` must not answer at 490 ms. A clock, in contrast, is ours to lose, which
/// is why `allocate` reserves the overhead.
pub fn movetime_budget(movetime_ms: i64) -> Budget {
    let ms = (movetime_ms.max(0) as u64).min(MAX_BUDGET_MS);
    Budget {
        soft_ms: ms,
        hard_ms: ms,
        why: format!("movetime {}", fmt_ms(ms as f64)),
    }
}

/// Whole milliseconds, rounded down, within 0..=MAX_BUDGET_MS.
fn to_ms(x: f64) -> u64 {
    let x = finite_or(x, 0.0).clamp(0.0, MAX_BUDGET_MS as f64);
    x.floor() as u64
}
