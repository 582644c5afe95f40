//! Time management: how long may Sandglass think about the next move?
//!
//! This is the one place that explains it; the search, the stopper and the README point
//! here. Everything in this module is pure: plain data in, plain data out, no clock reads,
//! no I/O, so every formula is unit-tested and the `sandglass tm` classroom tool runs the
//! very code the engine runs.
//!
//! # From `go` to `bestmove`
//!
//! ```text
//! go wtime … ──► decide(go, side to move, game, settings) ──► Mode { time, depth, nodes, mate, answer }
//!                     │ (a clock)                                   │
//!                     ▼                                             ▼
//!     allocate: Inputs ─► strategy plan ─► × allowance ─► clamps ─► Budget { soft, hard, why }
//!                                                                   │
//!   search: after each iteration, soft budget × adjustments; stop_before_next_depth? (soft)
//!           inside the tree, every POLL_INTERVAL nodes: elapsed ≥ hard? (hard)
//! ```
//!
//! * **Allocation** ([`allocate`], [`settings`], [`strategies`]): the selected strategy
//!   proposes how long an average move should take. The default, `expositor`, divides the
//!   clock by the expected number of moves left (Ahle's fit of log-normal game lengths). The
//!   soft limit is that plan × [`SOFT_STOP_ALLOWANCE`], scaled by Slow Mover, and the shared
//!   clamps of [`budget`] keep it safe; hard = [`HARD_FACTOR`] × soft within its own cap.
//!   The clock is sanitised, and the Move Overhead reserved, in [`inputs`].
//! * **Soft stop** ([`soft`]): between iterations. The next depth costs about
//!   [`NEXT_DEPTH_FACTOR`] = 2 times the last, so depth d+1 starts only while
//!   `elapsed + 2 × last iteration < soft`. Before the check the search scales the soft
//!   budget by the search-side adjustments of [`adjust`] (single reply, an unstable or stable
//!   best move, a falling score), never beyond hard.
//! * **Hard stop**: inside the tree. The searcher counts nodes and every `POLL_INTERVAL` =
//!   1024 nodes (`search::stopper`) reads the clock and the stop flag; past hard it unwinds at
//!   once and plays the last completed iteration's move (or a root move the unfinished
//!   iteration already proved better). At the one to one and a half million nodes per second
//!   Sandglass searches on a 2-core machine, 1024 nodes take about a millisecond, so a stop is
//!   noticed within one, while the clock read costs well under 0.01 % of the search.
//!   (`tools/latency.py` measures the whole `stop` → `bestmove` path; MEASUREMENTS.md has the
//!   figures.)
//!
//! `movetime` bypasses allocation (soft = hard = movetime, no soft stop); `depth`, `nodes`,
//! `mate` and `infinite` have no time limit unless a clock comes with them; `go ponder`
//! starts the clock at `ponderhit`. [`Mode`] is the type that says which. A `go` whose limits
//! cannot be read is bounded by [`mode::UNREADABLE_GO_MOVETIME_MS`]; only a plain `go` and
//! `go infinite` search until `stop`.
//!
//! With `TimeLog` (or `debug on`) the engine prints, for every `go`, the clock, the strategy,
//! the soft and hard budgets and the `why` line built here, and at `bestmove` the time used,
//! the depth reached and which check stopped the search.

pub mod adjust;
pub mod budget;
pub mod inputs;
pub mod mode;
pub mod settings;
pub mod soft;
pub mod strategies;

pub use budget::{
    hard_share, movetime_budget, soft_share, Budget, HARD_FACTOR, HARD_MAX_SHARE, LAST_MOVE_SHARE,
    MAX_BUDGET_MS, MIN_THINK_MS, SOFT_MAX_SHARE, SOFT_STOP_ALLOWANCE,
};
pub use inputs::{
    Clock, Game, Inputs, DEFAULT_MOVE_OVERHEAD_MS, MIN_ROUND_TRIP_MS, PER_MOVE_RESERVE_MAX_MOVES,
    PER_MOVE_RESERVE_MAX_SHARE, SUDDEN_DEATH_RESERVE_MOVES,
};
pub use mode::{decide, Answer, GoLimits, Mode, TimeLimit};
pub use settings::{allocate, Settings};
pub use soft::{stop_before_next_depth, NEXT_DEPTH_FACTOR};
pub use strategies::{spread, Plan, Strategy, Style};

/// "7.4 s", "350 ms", "2.1 h": a duration for humans.
pub fn fmt_ms(ms: f64) -> String {
    let ms = finite_or(ms, 0.0);
    let abs = ms.abs();
    if abs < 1000.0 {
        format!("{ms:.0} ms")
    } else if abs < 100_000.0 {
        format!("{:.1} s", ms / 1000.0)
    } else if abs < 10_800_000.0 {
        format!("{:.0} s", ms / 1000.0)
    } else {
        format!("{:.1} h", ms / 3_600_000.0)
    }
}

/// `x` if it is a finite number, else `fallback`.
pub fn finite_or(x: f64, fallback: f64) -> f64 {
    if x.is_finite() {
        x
    } else {
        fallback
    }
}

#[cfg(test)]
mod tests;
