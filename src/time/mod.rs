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
//! go wtime … ──► decide(go, side to move, game, settings) ──► Mode { time, depth, nodes, soft_nodes, mate, answer }
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
//!     unused by stopping now;
//!   - `learned`: a model fitted on Sandglass's own deep searches gives the chance that the
//!     next depth changes the move; the search stops when that chance times what a change
//!     is worth falls below the next depth's price, its time as a share of the plan times
//!     `Soft Stop Learned Scale` centipawns. It reads what the adjustments read, so it uses
//!     the soft limit before them.
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
//! # The plan is the expected spend
//!
//! What a strategy plans is what the move should cost on average, and `TimeLog` shows it
//! before "×soft-stop allowance". The soft limit is larger (× [`SOFT_STOP_ALLOWANCE`])
//! because the `2x` soft stop never starts an iteration it expects to end past soft, so it
//! ends a move at about [`EXPECTED_SOFT_USE`] = 1/1.43 of soft; the two cancel and the
//! expected spend is the plan. When a clamp moves soft (the share caps near a control or on
//! a short clock, the minimum think time), the plan no longer says what the move will
//! spend, and `why` ends with "→ expected spend X" instead. `tests_controls` checks at 40/2,
//! 40/15, 1+0.01, 2+1 and 10+0.1, over whole games, that every strategy's plan and expected
//! spend agree within a factor 1.5, or that `why` reports the spend.
//!
//! # Move Overhead and small clocks
//!
//! [`inputs`] explains it: the Move Overhead (the worst lag of one move) is reserved once,
//! and each move still to be made before new time arrives keeps only a round trip
//! ([`ROUND_TRIP_MS`], 10 ms) that the increment does not pay. Every limit is a share of
//! what remains, and hard stays [`HARD_MARGIN_MS`] below it, so a move that runs to its hard
//! limit leaves at least Move Overhead + 10 ms on the clock, however small the clock. (Until
//! issue 41 the whole overhead was reserved per move to come: 50 ms × 39 at 40/2, half the
//! period before any strategy planned, and a `stockfish` plan of 1 ms.)
//!
//! # Repeating controls (`movestogo`)
//!
//! With `movestogo m`, m moves must be made before the clock refills, and what is left then
//! is carried over into the next period. So:
//!
//! * **The horizon is m.** Every strategy plans for exactly the m moves until the refill
//!   ([`Inputs::moves_left`]), not `min(game-length estimate, m)` as Lc0 does: if the game
//!   ends before the control we merely leave time unused; if an estimate that is too short
//!   is trusted and the game goes on, the moves before the control starve (Lc0's estimator
//!   predicts under 8 moves left around move 60). `curve` and `smooth` sum the increments of
//!   those m moves; `geometric` front-loads inside the period (each move takes a fixed share
//!   of what is left, solved for the m moves to the control); `stockfish` uses Stockfish's
//!   `(0.88 + ply/116.4)/mtg` with mtg = min(m, 50).
//! * **No sudden-death rule acts under movestogo.** A rule that guesses how many moves are
//!   left (a game-length estimate, a floor on moves left, Stockfish's horizon shrink below
//!   one second, the sudden-death round-trip reserve) must not replace the m that the GUI
//!   states: Stockfish's shrink planned for 45 moves with 3 to go, or for 25 with 30 to go
//!   (issue 41 cites Stockfish PR #7117: such a rule cost −48.7 Elo and 557 time losses in
//!   1,984 games at 40/1). The test `no_sudden_death_rule_under_movestogo` checks that every
//!   strategy's share of the clock under movestogo is the same below one second as above.
//! * **The last moves of a period.** As m falls, the caps rise to `LAST_MOVE_SHARE / m` of
//!   the usable clock ([`LAST_MOVE_SHARE`] = 0.85), so the moves before the control do not
//!   collapse to depth 1 (Stockfish issue #4000: `go wtime 32 btime 32 movestogo 1`), and the
//!   round trips of the moves still to come are released one by one. The last move may
//!   think up to 85 % of what is left after the overhead (and always leaves the overhead
//!   and [`HARD_MARGIN_MS`]); the soft stop still ends it at a completed depth.
//!   `go wtime 4000 btime 4000 movestogo 1` therefore gets soft = hard = 3.36 s (85 % of
//!   the 3.95 s after the overhead; Stockfish's optimum there is 0.88 of its timeLeft), and
//!   the search stops at a completed depth when the next one would not fit: 1.7 to 2.6 s on
//!   the start position, depending on where the depths fall.
//!   That is deliberate: what is left is not lost but carried into the next period, where
//!   it is spread over its 40 moves, and a second buys less on one move that already has
//!   seconds than on forty moves that have 50 ms each. Spending it all would also leave
//!   nothing for a lag spike at the control.
//!
//! `tm --tc 40/120` simulates the refills and marks each period boundary in its pictures;
//! `tm --pgn` reads repeating-control games (the clock jumps up at each control).
//!
//! # Other limits
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
pub mod plan;
pub mod settings;
pub mod soft;
pub mod strategies;

pub use budget::{
    hard_share, movetime_budget, soft_share, Budget, EXPECTED_SOFT_USE, HARD_FACTOR,
    HARD_MARGIN_MS, HARD_MAX_SHARE, LAST_MOVE_SHARE, MAX_BUDGET_MS, MIN_THINK_MS, SOFT_MAX_SHARE,
    SOFT_STOP_ALLOWANCE,
};
pub use inputs::{
    Clock, Game, Inputs, DEFAULT_MOVE_OVERHEAD_MS, PER_MOVE_RESERVE_MAX_MOVES, ROUND_TRIP_MS,
    SUDDEN_DEATH_RESERVE_MOVES,
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
#[cfg(test)]
mod tests_controls;
