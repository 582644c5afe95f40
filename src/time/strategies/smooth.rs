//! `smooth`: Lc0's smooth time manager, adapted to alpha-beta.
//!
//! Idea: a search rarely uses its whole budget (here the soft stop, which will not start an
//! iteration the rest of the budget cannot pay for, ends most moves early), so a plain "clock ÷ moves left" leaves time on the clock at the
//! end of the game. Keep a running estimate of the *time-use factor* — time used ÷ budget —
//! and divide the next budget by it, so that what we actually spend matches the plan:
//!
//! ```text
//! moves left  = lc0 estimate, or movestogo if given
//! total       = t + inc·(moves left − 1)
//! budget      = (total / moves left) / time_use,   at most 0.3 of the clock
//! ```
//!
//! The estimate follows each move with exponential decay, "halfway after N moves"
//! (N = 10): a move moves it by `1 − 0.5^(w/N)` of the way, where the weight w is how long
//! the move took relative to the average move. A short move (say a single reply) barely
//! counts; a long one counts more. Per unit weight that is α = 1 − 0.5^(1/N).
//! Lc0's other two estimates (nodes per second, tree reuse) have no alpha-beta meaning and
//! are left out. Differences from Lc0: the factor is kept within [0.3, 1.0] (Lc0 only
//! has the lower bound); with `movestogo m` we plan for m moves, not min(estimate, m)
//! (see the module doc: the estimate below drops under 8 moves around move 60, which
//! starves the moves before a control); and when the clock refills within m moves the
//! 0.3 cap is relaxed like the shared caps (`LAST_MOVE_SHARE / m`).
//!
//! Moves left come from Lc0's "mle-legacy" estimator (midpoint 51.5 moves, steepness 7):
//! the median residual life of a log-logistic game length,
//! `midpoint · (1 + 2·(move/midpoint)^steepness)^(1/steepness) − move`, move = ply/2.
//!
//! Source: lc0 `src/mcts/stoppers/smooth.cc` (`ExponentialDecay`, `SmoothTimeManager`,
//! defaults init-timeuse 0.7, min-timeuse 0.3, timeuse-update-rate 10, max-move-budget
//! 0.3) and `src/mcts/stoppers/legacy.cc` (`ComputeEstimatedMovesToGo`).

use super::{finite_or, fmt_ms, Inputs, Plan, Strategy, Style, HARD_FACTOR, LAST_MOVE_SHARE};

/// Moves for the time-use estimate to move halfway (lc0 "timeuse-update-rate").
pub const HALF_LIFE_MOVES: f64 = 10.0;
/// Time-use factor of a fresh game (lc0 "init-timeuse").
pub const INITIAL_TIME_USE: f64 = 0.7;
/// Lowest time-use factor (lc0 "min-timeuse").
pub const MIN_TIME_USE: f64 = 0.3;
/// Highest time-use factor: never plan *below* the plain average.
pub const MAX_TIME_USE: f64 = 1.0;
/// Largest share of the clock for one move (lc0 "max-move-budget").
pub const MAX_MOVE_SHARE: f64 = 0.3;
/// Largest weight one move can have in the update.
pub const MAX_UPDATE_WEIGHT: f64 = 4.0;
/// lc0 mle-legacy midpoint (moves).
pub const MLE_MIDPOINT: f64 = 51.5;
/// lc0 mle-legacy steepness.
pub const MLE_STEEPNESS: f64 = 7.0;

/// Lc0's `ExponentialDecay`: move `from` towards `to` by as many halvings as `value` has
/// `step`s. value = step → halfway; value = 2·step → ¾ of the way; value = 0 → `from`.
pub fn exponential_decay(from: f64, to: f64, step: f64, value: f64) -> f64 {
    to - (to - from) * 0.5_f64.powf(value / step)
}

/// Lc0's `ComputeEstimatedMovesToGo` with the mle-legacy defaults.
pub fn estimated_moves_to_go(plies_played: u32) -> f64 {
    let mv = f64::from(plies_played) / 2.0;
    let (mid, steep) = (MLE_MIDPOINT, MLE_STEEPNESS);
    mid * (1.0 + 2.0 * (mv / mid).powf(steep)).powf(1.0 / steep) - mv
}

pub fn plan(inputs: &Inputs, history: &TimeUse) -> Plan {
    let moves = inputs.moves_left(estimated_moves_to_go(inputs.plies_played));
    let total = inputs.usable_ms + inputs.increment_ms * (moves - 1.0);
    let average = total / moves;
    let use_factor =
        finite_or(history.time_use, INITIAL_TIME_USE).clamp(MIN_TIME_USE, MAX_TIME_USE);
    let share = match inputs.moves_to_go {
        Some(m) => MAX_MOVE_SHARE.max(LAST_MOVE_SHARE / f64::from(m)),
        None => MAX_MOVE_SHARE,
    };
    let cap = share * inputs.usable_ms;
    let wanted = average / use_factor;
    let soft = wanted.min(cap);
    Plan {
        soft_ms: soft,
        hard_ms: None,
        note: format!(
            "{moves:.1} moves left; average {} ÷ time-use {use_factor:.2} = {}{}",
            fmt_ms(average),
            fmt_ms(wanted),
            if wanted > cap {
                format!(", capped at {:.0}% of t = {}", share * 100.0, fmt_ms(cap))
            } else {
                String::new()
            }
        ),
    }
}

/// What earlier moves of this game spent compared with their soft budgets: the state this
/// strategy learns from. `TimeUse::default()` is a fresh game.
#[derive(Clone, Debug, PartialEq)]
pub struct TimeUse {
    moves: u32,
    time_use: f64,
    average_spent_ms: f64,
}

impl Default for TimeUse {
    fn default() -> TimeUse {
        TimeUse {
            moves: 0,
            time_use: INITIAL_TIME_USE,
            average_spent_ms: 0.0,
        }
    }
}

impl TimeUse {
    /// A fresh game.
    pub fn new() -> TimeUse {
        TimeUse::default()
    }

    /// Moves recorded so far.
    pub fn moves(&self) -> u32 {
        self.moves
    }

    /// Running estimate of time spent ÷ soft budget.
    pub fn time_use(&self) -> f64 {
        self.time_use
    }

    /// Running (exponentially decayed) average of the time spent per move.
    pub fn average_spent_ms(&self) -> f64 {
        self.average_spent_ms
    }

    /// Record one finished move: how long it took and the soft budget it had. A move with a
    /// zero budget carries no information and is ignored.
    pub fn record(&mut self, spent_ms: u64, soft_budget_ms: u64) {
        let h = self;
        if soft_budget_ms == 0 {
            return;
        }
        let spent = spent_ms as f64;
        let ratio = (spent / soft_budget_ms as f64).clamp(0.0, HARD_FACTOR);
        let weight = if h.average_spent_ms > 0.0 {
            (spent / h.average_spent_ms).clamp(0.0, MAX_UPDATE_WEIGHT)
        } else {
            1.0
        };
        let old = finite_or(h.time_use, INITIAL_TIME_USE);
        h.time_use =
            exponential_decay(old, ratio, HALF_LIFE_MOVES, weight).clamp(MIN_TIME_USE, MAX_TIME_USE);
        h.average_spent_ms = if h.moves == 0 {
            spent
        } else {
            exponential_decay(h.average_spent_ms, spent, HALF_LIFE_MOVES, 1.0)
        };
        h.moves = h.moves.saturating_add(1);
    }
}

/// Lc0's smooth manager (see the module doc); the only strategy with a state.
#[derive(Clone, Debug, Default)]
pub struct Smooth {
    pub time_use: TimeUse,
}

impl Strategy for Smooth {
    fn name(&self) -> &'static str {
        "smooth"
    }
    fn style(&self) -> Style {
        Style {
            symbol: 'S',
            colour: "#56B4E9",
            dash: "24 6",
        }
    }
    fn plan(&self, inputs: &Inputs) -> Plan {
        plan(inputs, &self.time_use)
    }
    /// It measures its own time use and corrects for it, so no extra allowance.
    fn soft_stop_allowance(&self) -> f64 {
        1.0
    }
    fn record(&mut self, spent_ms: u64, soft_budget_ms: u64) {
        self.time_use.record(spent_ms, soft_budget_ms);
    }
    fn new_game(&mut self) {
        self.time_use = TimeUse::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::{Clock, Game};

    #[test]
    fn decay_is_halfway_after_one_step_and_three_quarters_after_two() {
        assert!((exponential_decay(0.0, 1.0, 10.0, 10.0) - 0.5).abs() < 1e-12);
        assert!((exponential_decay(0.0, 1.0, 10.0, 20.0) - 0.75).abs() < 1e-12);
        // The source's third example: (1·from + 7·to)/8 after three steps.
        assert!((exponential_decay(2.0, 10.0, 4.0, 12.0) - (2.0 + 70.0) / 8.0).abs() < 1e-12);
        assert!((exponential_decay(0.3, 0.9, 10.0, 0.0) - 0.3).abs() < 1e-12);
        // Per unit weight: α = 1 − 0.5^(1/N).
        let alpha = 1.0 - 0.5_f64.powf(1.0 / HALF_LIFE_MOVES);
        assert!((exponential_decay(0.0, 1.0, HALF_LIFE_MOVES, 1.0) - alpha).abs() < 1e-12);
    }

    #[test]
    fn lc0_moves_to_go() {
        // At ply 0 the estimate is the midpoint.
        assert!((estimated_moves_to_go(0) - 51.5).abs() < 1e-12);
        // At the midpoint move (ply 103): 51.5·3^(1/7) − 51.5.
        let at_mid = 51.5 * 3.0_f64.powf(1.0 / 7.0) - 51.5;
        assert!((estimated_moves_to_go(103) - at_mid).abs() < 1e-9);
        assert!(estimated_moves_to_go(u32::MAX).is_finite());
    }

    #[test]
    fn history_learns_the_time_use() {
        let mut h = TimeUse::new();
        assert_eq!(h.time_use(), INITIAL_TIME_USE);
        // Ten average moves at 40 % use: halfway from 0.7 to 0.4.
        for _ in 0..10 {
            h.record(400, 1000);
        }
        assert!((h.time_use() - 0.55).abs() < 1e-9, "{}", h.time_use());
        assert_eq!(h.moves(), 10);
        // A near-instant move hardly counts.
        let before = h.time_use();
        h.record(1, 1000);
        assert!((h.time_use() - before).abs() < 0.001);
        // Zero budgets are ignored; the factor stays within its bounds.
        h.record(5000, 0);
        assert_eq!(h.moves(), 11);
        for _ in 0..200 {
            h.record(u64::MAX, 1);
        }
        assert_eq!(h.time_use(), MAX_TIME_USE);
    }

    #[test]
    fn budget_divides_by_time_use_and_caps() {
        let c = Clock {
            time_left_ms: 300_000,
            increment_ms: 0,
            moves_to_go: None,
            overhead_ms: 0,
        };
        let inputs = Inputs::new(&c, &Game::default());
        let p = plan(&inputs, &TimeUse::new());
        assert!((p.soft_ms - 300_000.0 / 51.5 / 0.7).abs() < 1e-6);
        let c = Clock {
            time_left_ms: 10_000,
            increment_ms: 60_000,
            ..c
        };
        let p = plan(&Inputs::new(&c, &Game::default()), &TimeUse::new());
        assert!((p.soft_ms - 3000.0).abs() < 1e-9, "{}", p.note);
    }
}
