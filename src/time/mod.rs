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
//!     allocate: Inputs ─► strategy plan ─► × allowance × slow mover × ponder ─► clamps ─► Budget { soft, hard, why }
//!                         (and the strategy's own hard, if any) ──────────────────┘
//!
//!   search: after each iteration, soft budget × adjustments; soft::decide: next depth? (soft)
//!           inside the tree, every POLL_INTERVAL nodes: elapsed ≥ hard? (hard)
//! ```
//!
//! * **Allocation** ([`allocate`], [`settings`], [`strategies`]): the selected strategy
//!   proposes how long an average move should take. The default, `expositor`, divides the
//!   clock by the expected number of moves left (Ahle's fit of log-normal game lengths). The
//!   soft limit is that plan × [`SOFT_STOP_ALLOWANCE`], scaled by Slow Mover and, with the
//!   Ponder option on, by [`PONDER_BONUS`] (see "Pondering" below); the shared clamps of
//!   [`budget`] keep it safe; hard = [`HARD_FACTOR`] × soft within its own cap, unless the
//!   strategy sets its own hard limit (`stockfish` uses Stockfish's maximum time), which the
//!   same clamps bound. The clock is sanitised, and the Move Overhead reserved, in [`inputs`].
//! * **Soft stop** ([`soft`]): between iterations, may depth d+1 start? Before the check the
//!   search scales the soft budget by the search-side adjustments of [`adjust`] (single
//!   reply, an unstable or stable best move, a falling score, and the share of the nodes
//!   spent on the best move), never beyond hard; `TimeLog` names every factor. Then the rule
//!   chosen with the `Soft Stop` option decides:
//!   - `2x` (default): the next depth costs F times the last (F = `Soft Stop Factor`/100,
//!     default [`NEXT_DEPTH_FACTOR`] = 2), so it starts only while
//!     `elapsed + F × last iteration < soft`;
//!   - `predicted`: the next depth's end is predicted from the growth of the time to depth
//!     in this search (Expositor's geometric mean of the last ratios, outlier dropped), and
//!     the search stops when the predicted overshoot past soft would exceed the time left
//!     unused by stopping now.
//!
//!   `TimeLog` prints the rule, its F and the numbers it compared.
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
//! `mate` and `infinite` have no time limit unless a clock comes with them. [`Mode`] is the
//! type that says which. A `go` whose limits cannot be read is bounded by
//! [`mode::UNREADABLE_GO_MOVETIME_MS`]; only a plain `go` and `go infinite` search until
//! `stop`.
//!
//! # Pondering
//!
//! During `go ponder` no limit applies. What happens at `ponderhit` follows Stockfish:
//!
//! * the **hard** limit counts from `ponderhit`: it protects our clock, which only starts
//!   running then;
//! * the **soft** stop counts from the `go`, pondering included: the time spent on this
//!   position is search done, whoever's clock paid for it. While pondering the soft stop is
//!   evaluated after every iteration as usual; when it says "stop", the search goes on
//!   pondering but is marked, and `ponderhit` then ends it within one poll (Stockfish's
//!   `stopOnPonderhit`), rather than after the iteration in flight, which may be much deeper
//!   than the budget allows. The move played is the last completed iteration's (or a root
//!   move the unfinished one proved better).
//! * So a ponder hit often costs almost nothing of our clock. With the Ponder option on,
//!   every soft budget gets [`PONDER_BONUS`] (+25 %, Stockfish's `optimumTime / 4`) to
//!   spend those savings.
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
pub use settings::{allocate, Settings, PONDER_BONUS};
pub use soft::{stop_before_next_depth, SoftRule, NEXT_DEPTH_FACTOR};
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
