//! Time management: how long may Sandglass think about the next move?
//!
//! The engine calls [`allocate`] once per `go` that carries a clock (`wtime`/`btime`,
//! maybe `winc`/`binc` and `movestogo`). It gets back a [`Budget`]:
//!
//! * `soft_ms` — the iterative-deepening loop does not *start* depth d+1 once
//!   `elapsed + NEXT_DEPTH_FACTOR × (time of depth d) ≥ soft` (see
//!   [`stop_before_next_depth`]): the next iteration costs about twice the last, and an
//!   iteration that cannot finish within the budget is wasted work;
//! * `hard_ms` — the search is aborted, mid-iteration, when `elapsed ≥ hard`;
//! * `why` — one human line, for `info string` logs and for teaching.
//!
//! Everything here is pure: plain data in, plain data out, no clock reads, no I/O.
//!
//! # The pipeline
//!
//! 1. [`Inputs::new`] sanitises the clock: negative times become zero, `movestogo 0`
//!    (not allowed by UCI) is ignored, and the Move Overhead is taken off the clock once
//!    (before a known refill, once per move; see below).
//! 2. A [`Strategy`] (one short file each, each citing its source) proposes how long an
//!    average move should take.
//! 3. [`SOFT_STOP_ALLOWANCE`] turns that average into a soft limit (the soft stop ends most
//!    moves well before the limit), `slow_mover` scales it, and the shared clamps in
//!    [`finish`] make it safe.
//!
//! Search-side adjustments (single reply, instability, …) live in [`adjust`]; they scale
//! the soft budget between iterations and never go beyond `hard`.
//!
//! # Move Overhead: reserved once (plus per move until a known refill)
//!
//! "Move Overhead" is the longest lag the GUI, the operating system or the network may add
//! to one move. Two ways to honour it:
//!
//! * per move: plan as if every remaining move loses the overhead
//!   (Stockfish's `time + inc·(mtg−1) − overhead·(2+mtg)`);
//! * once: take it off the clock a single time and make sure *this* move cannot flag
//!   (Lc0's time managers: `time + inc·(movestogo−1) − move_overhead`, lc0
//!   `src/mcts/stoppers/legacy.cc`; see also lc0 pull request #306, "Proper implementation
//!   of the UCI option MoveOverhead", and Ethereal pull request #147).
//!
//! We reserve it **once**. Safety comes from the per-move cap: `hard ≤ share × (time −
//! overhead)` with share < 1, so `hard + lag ≤ time` whenever the lag is within the
//! overhead. Whatever lag really happened is already in the clock the GUI sends next time,
//! so charging the maximum lag for every *guessed* future move would double-count it and
//! cost a lot with large overheads (1 s × 43 expected moves = 43 s of a 3+0 game), while
//! in sudden death no strategy plans to empty the clock anyway (each spends a fraction of
//! what is left) and an increment pays for the lag.
//!
//! Two exceptions:
//!
//! * with `movestogo m` the horizon is *known* and all m moves must be made before new time
//!   arrives, so the overhead is also reserved for each of the other m − 1 moves (at most
//!   [`PER_MOVE_RESERVE_MAX_MOVES`] of them; capped as below). Without it a 40/2 game with a
//!   10 ms lag on every move flags on the last move before the control (try
//!   `tm --tc 40/2 --lag 10 --use 1 --strategy curve` with this reserve removed);
//! * without `movestogo`, when the increment is smaller than the overhead (sudden death is
//!   the case of no increment at all), the part of the overhead the increment does not pay,
//!   `overhead − increment`, is reserved for [`SUDDEN_DEATH_RESERVE_MOVES`] future moves
//!   (same cap). Each move's round trip through the GUI costs time whatever the engine
//!   spends, so the clock drains by that much per move however little the engine thinks. In
//!   the reliability gauntlet at 2+0, long endgames drained it until 12 of 80 games were lost
//!   on time; at 1+0.01 the runner's lag (about 10 ms a move) ate the whole increment and
//!   clocks ran down to 0 ms. The reserve keeps those milliseconds for the moves that still
//!   need them.
//!
//! Both reserves are capped at half the clock so that an overhead set far above the real lag
//! does not make every move instant, but never below [`MIN_ROUND_TRIP_MS`] (less the
//! increment) per move still to be made: near the end of a period the cap would otherwise
//! hand out the milliseconds that the last moves' round trips need.
//!
//! # Repeating controls (`movestogo`)
//!
//! With `movestogo m` the strategies plan for exactly the m moves until the refill
//! ([`Inputs::moves_left`]), not `min(game-length estimate, m)` as Lc0 does: the risk is
//! lopsided. If the game ends before the control we merely leave time unused; if an
//! estimate that is too short is trusted and the game goes on, the moves before the
//! control starve (Lc0's own estimator predicts under 8 moves left around move 60).
//! The strategies still differ in how they share those m moves' time, and the caps are
//! shared: while the clock refills within `m` moves, the caps are relaxed
//! to `LAST_MOVE_SHARE / m` of the usable clock, so the moves just before the control do
//! not collapse to a tiny budget (the known failure: `go wtime 32 btime 32 movestogo 1`
//! answered at depth 1). With `movestogo 1` a move may use 85 % of what is left after the
//! overhead; the remaining 15 % is the reserve.

pub mod adjust;
pub mod classic;
pub mod curve;
pub mod expositor;
pub mod geometric;
pub mod lognormal;
pub mod material;
pub mod smooth;

use std::fmt;
use std::str::FromStr;

/// Soft-stop factor F: the iterative-deepening loop stops before depth d+1 when
/// `elapsed + F × (time of depth d) ≥ soft`, i.e. when the rest of the budget does not cover
/// a next iteration F times as long as the last.
pub const NEXT_DEPTH_FACTOR: f64 = 2.0;
/// The soft limit is the strategy's planned move time × this (except for `smooth`, which
/// measures its own time use and corrects for it).
///
/// The soft stop never starts an iteration it cannot pay for, so a move ends somewhere
/// between about half the soft limit and all of it; with the plan used as the limit directly,
/// Sandglass finished 10+0.1 games with a third of its clock unused (3.3–3.9 s of 10 s left
/// on average, over 120 self-play games). Measured in self-play at 10+0.1 (100 games, MEASUREMENTS.md): 1.3
/// against 1.0 scored +17 ± 50 Elo, 209 against 191 ms per move, 2.1 s instead of 3.4 s left
/// at the end. The clamps below still bound the result.
pub const SOFT_STOP_ALLOWANCE: f64 = 1.3;
/// Soft never exceeds this share of the usable clock (time left − overhead), unless the
/// clock refills within a few moves (see [`LAST_MOVE_SHARE`]).
pub const SOFT_MAX_SHARE: f64 = 0.25;
/// hard = HARD_FACTOR × soft, before its own cap.
pub const HARD_FACTOR: f64 = 3.0;
/// Hard never exceeds this share of the usable clock (unless the clock refills soon).
pub const HARD_MAX_SHARE: f64 = 0.5;
/// With `movestogo m`, soft and hard may reach `LAST_MOVE_SHARE / m` of the usable clock;
/// `1 − LAST_MOVE_SHARE` is the reserve kept at the control.
pub const LAST_MOVE_SHARE: f64 = 0.85;
/// Minimum think time, applied when the clock allows it (the caps win over it).
pub const MIN_THINK_MS: f64 = 5.0;
/// Largest budget ever returned (about 35 years), so `Instant + budget` cannot overflow.
pub const MAX_BUDGET_MS: u64 = 1 << 40;
/// With `movestogo m`, the overhead is reserved for at most this many of the other moves…
pub const PER_MOVE_RESERVE_MAX_MOVES: u32 = 100;
/// …and that extra reserve takes at most this share of the clock after the first overhead,
/// so an overhead much larger than the real lag does not make every move instant…
pub const PER_MOVE_RESERVE_MAX_SHARE: f64 = 0.5;
/// …except that it always keeps this much per move still to be made (less the increment):
/// the smallest cost of a move as the GUI measures it, even one the engine answers at once.
///
/// Measured in the reliability gauntlet (two games at once on two cores, Python runner):
/// moves Sandglass answered with next to no search still cost 8–25 ms on the runner's clock.
/// Without this floor the share cap let the last moves before a 40/2 control, and the long
/// tail of a 1+0.01 game, run the clock down to 2 ms and 0 ms.
pub const MIN_ROUND_TRIP_MS: f64 = 20.0;
/// Without `movestogo`, the lag an increment does not pay (`overhead − increment`, all of
/// the overhead in sudden death) is also reserved for this many future moves (within the
/// same share cap): that lag comes out of the clock for good on every move. 12 × the 50 ms
/// default = 600 ms of a 2+0 clock (it was 40 × 10 ms
/// = 400 ms when the gauntlet's 2+0 games stopped flagging, lowest clock 149 ms).
pub const SUDDEN_DEATH_RESERVE_MOVES: u32 = 12;
/// Suggested default for the engine's "Move Overhead" option.
///
/// 50 ms, not the 10 ms Stockfish uses. With an increment smaller than the runner's per-move
/// lag (1+0.01 in the gauntlet: about 10 ms of lag per move) the clock settles just above the
/// overhead, where the engine spends almost nothing and the increment pays for the lag; one
/// lag spike larger than the overhead then loses on time. Spikes seen with two games at once
/// on two cores: about 35 ms in an idle session, up to 64 ms while a build shared the cores.
/// With 10 ms a 1+0.01 move left the clock at 0 ms; with 30 ms one left 2 ms. 50 ms covers
/// the spikes of an otherwise idle machine; it is reserved once (see the module doc), so
/// with an increment it costs 50 ms of the whole clock.
pub const DEFAULT_MOVE_OVERHEAD_MS: i64 = 50;

/// The clock of the side to move, as given by `go`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// `wtime` or `btime`; may be negative (some GUIs send that after a flag).
    pub time_left_ms: i64,
    /// `winc` or `binc`.
    pub increment_ms: i64,
    /// `movestogo`: our moves until the next time control (None = no repeating control).
    pub moves_to_go: Option<u32>,
    /// The engine's "Move Overhead" option.
    pub overhead_ms: i64,
}

/// Where we are in the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Game {
    /// Plies played since the start of the game (both sides).
    pub plies_played: u32,
    /// Men on the board: all pieces including kings and pawns (32 at the start).
    pub men: u32,
}

impl Default for Game {
    fn default() -> Game {
        Game {
            plies_played: 0,
            men: 32,
        }
    }
}

/// What earlier moves of this game spent compared with their soft budgets.
/// Only [`Strategy::Smooth`] reads it; `History::default()` is a fresh game.
#[derive(Clone, Debug, PartialEq)]
pub struct History {
    moves: u32,
    time_use: f64,
    average_spent_ms: f64,
}

impl Default for History {
    fn default() -> History {
        History {
            moves: 0,
            time_use: smooth::INITIAL_TIME_USE,
            average_spent_ms: 0.0,
        }
    }
}

impl History {
    /// A fresh game.
    pub fn new() -> History {
        History::default()
    }

    /// Record one finished move: how long it took and the soft budget it had.
    /// A move with a zero budget carries no information and is ignored.
    pub fn record(&mut self, spent_ms: u64, soft_budget_ms: u64) {
        smooth::record(self, spent_ms, soft_budget_ms);
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
}

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

/// The base-budget strategies, one file each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Strategy {
    #[default]
    Expositor,
    LogNormal,
    Geometric,
    Classic,
    Curve,
    Smooth,
    Material,
}

impl Strategy {
    /// Every strategy, in menu order.
    pub const ALL: [Strategy; 7] = [
        Strategy::Expositor,
        Strategy::LogNormal,
        Strategy::Geometric,
        Strategy::Classic,
        Strategy::Curve,
        Strategy::Smooth,
        Strategy::Material,
    ];

    /// The lower-case name used by options, the tool and `why`.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Expositor => "expositor",
            Strategy::LogNormal => "lognormal",
            Strategy::Geometric => "geometric",
            Strategy::Classic => "classic",
            Strategy::Curve => "curve",
            Strategy::Smooth => "smooth",
            Strategy::Material => "material",
        }
    }

    /// All names, in menu order (for a UCI combo option).
    pub fn names() -> [&'static str; 7] {
        Strategy::ALL.map(Strategy::name)
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Strategy {
    type Err = String;

    /// Case-insensitive; surrounding spaces are ignored.
    fn from_str(s: &str) -> Result<Strategy, String> {
        let wanted = s.trim();
        Strategy::ALL
            .into_iter()
            .find(|st| st.name().eq_ignore_ascii_case(wanted))
            .ok_or_else(|| {
                format!(
                    "unknown time strategy '{wanted}' (expected one of: {})",
                    Strategy::names().join(", ")
                )
            })
    }
}

/// The strategy and its parameters. Out-of-range values are tolerated: every strategy
/// falls back to its default for a value it cannot use.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    pub strategy: Strategy,
    /// Multiplies every strategy's soft budget before the clamps (Lc0 "slowmover",
    /// old Stockfish "Slow Mover" / 100). 1.0 = as the strategy says.
    pub slow_mover: f64,
    /// classic: share of the increment added to time/40 (Mediocre: 1/2; variant 3/4).
    pub classic_inc_fraction: f64,
    /// curve: Lc0 "time-curve-peak" (ply).
    pub curve_peak: f64,
    /// curve: Lc0 "time-curve-left-width" (plies).
    pub curve_left_width: f64,
    /// curve: Lc0 "time-curve-right-width" (plies).
    pub curve_right_width: f64,
    /// geometric: planning horizon N in moves.
    pub geometric_moves: u32,
    /// geometric: the shortest move s we accept at the end of the horizon.
    pub geometric_shortest_ms: i64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings::new(Strategy::default())
    }
}

impl Settings {
    /// Default parameters for the given strategy.
    pub fn new(strategy: Strategy) -> Settings {
        Settings {
            strategy,
            slow_mover: 1.0,
            classic_inc_fraction: classic::MEDIOCRE_INC_FRACTION,
            curve_peak: curve::LC0_PEAK,
            curve_left_width: curve::LC0_LEFT_WIDTH,
            curve_right_width: curve::LC0_RIGHT_WIDTH,
            geometric_moves: geometric::DEFAULT_MOVES,
            geometric_shortest_ms: geometric::DEFAULT_SHORTEST_MS,
        }
    }
}

/// The sanitised view of clock and game that every strategy works from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Inputs {
    /// Time left minus the Move Overhead (reserved once, and per move until a known
    /// refill), never negative, in ms.
    pub usable_ms: f64,
    /// Increment, never negative, in ms.
    pub increment_ms: f64,
    /// Move Overhead, never negative, in ms.
    pub overhead_ms: f64,
    /// Moves until the clock refills; None without a repeating control (or `movestogo 0`).
    pub moves_to_go: Option<u32>,
    pub plies_played: u32,
    /// Men on the board, clamped to 2..=32.
    pub men: u32,
}

impl Inputs {
    pub fn new(clock: &Clock, game: &Game) -> Inputs {
        let time = clock.time_left_ms.max(0) as f64;
        let overhead = clock.overhead_ms.max(0) as f64;
        let moves_to_go = clock.moves_to_go.filter(|&m| m > 0);
        let once = (time - overhead).max(0.0);
        let increment = clock.increment_ms.max(0) as f64;
        // Future moves to reserve lag for, and what an increment pays towards each: the other
        // moves before a known refill (the whole lag each), or a fixed number of future moves
        // without one (the lag beyond the increment; see the module doc).
        let (moves, paid) = match moves_to_go {
            Some(m) => ((m - 1).min(PER_MOVE_RESERVE_MAX_MOVES), 0.0),
            None => (SUDDEN_DEATH_RESERVE_MOVES, increment),
        };
        let per_move = |lag: f64| (lag - paid).max(0.0) * f64::from(moves);
        let (extra, floor) = (per_move(overhead), per_move(MIN_ROUND_TRIP_MS));
        let extra = extra.min((PER_MOVE_RESERVE_MAX_SHARE * once).max(floor));
        Inputs {
            usable_ms: (once - extra).max(0.0),
            increment_ms: increment,
            overhead_ms: overhead,
            moves_to_go,
            plies_played: game.plies_played,
            men: game.men.clamp(2, 32),
        }
    }

    /// Moves to plan for: the strategy's estimate of the moves left in the game (at least
    /// one) — or, with a repeating control, exactly the m moves until the refill.
    pub fn moves_left(&self, estimate: f64) -> f64 {
        match self.moves_to_go {
            Some(m) => f64::from(m),
            None => finite_or(estimate, 1.0).max(1.0),
        }
    }
}

/// A strategy's proposal, before the shared clamps.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    pub soft_ms: f64,
    /// Short explanation, e.g. "REM(12)=80.1 plies → 40.1 moves left; … = 7.4 s".
    pub note: String,
}

/// The budget for the next move. Pure, total: never panics, whatever the input.
pub fn allocate(settings: &Settings, clock: &Clock, game: &Game, history: &History) -> Budget {
    let inputs = Inputs::new(clock, game);
    let plan = match settings.strategy {
        Strategy::Expositor => expositor::plan(&inputs),
        Strategy::LogNormal => lognormal::plan(&inputs),
        Strategy::Geometric => geometric::plan(
            &inputs,
            settings.geometric_moves,
            settings.geometric_shortest_ms,
        ),
        Strategy::Classic => classic::plan(&inputs, settings.classic_inc_fraction),
        Strategy::Curve => curve::plan(
            &inputs,
            &curve::Shape::new(
                settings.curve_peak,
                settings.curve_left_width,
                settings.curve_right_width,
            ),
        ),
        Strategy::Smooth => smooth::plan(&inputs, history),
        Strategy::Material => material::plan(&inputs),
    };
    let slow = settings.slow_mover;
    let slow = if slow.is_finite() && slow > 0.0 {
        slow.min(100.0)
    } else {
        1.0
    };
    let allowance = match settings.strategy {
        Strategy::Smooth => 1.0,
        _ => SOFT_STOP_ALLOWANCE,
    };
    let mut note = plan.note;
    if allowance != 1.0 {
        note.push_str(&format!(" ×soft-stop allowance {allowance:.2}"));
    }
    if slow != 1.0 {
        note.push_str(&format!(" ×slow-mover {slow:.2}"));
    }
    finish(
        settings.strategy.name(),
        Plan {
            soft_ms: plan.soft_ms * allowance * slow,
            note,
        },
        &inputs,
    )
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

/// The shared clamps, applied to every strategy's plan.
pub fn finish(name: &str, plan: Plan, inputs: &Inputs) -> Budget {
    let mut clamps: Vec<&str> = Vec::new();
    let mut soft = finite_or(plan.soft_ms, 0.0).max(0.0);
    if soft < MIN_THINK_MS {
        soft = MIN_THINK_MS;
        clamps.push("min think");
    }
    let soft_cap = soft_share(inputs.moves_to_go) * inputs.usable_ms;
    if soft > soft_cap {
        soft = soft_cap;
        clamps.push(if soft_cap < MIN_THINK_MS {
            "clock nearly empty"
        } else {
            "soft cap"
        });
    }
    let mut hard = soft * HARD_FACTOR;
    let hard_cap = hard_share(inputs.moves_to_go) * inputs.usable_ms;
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

/// The soft-stop rule: true when the next iteration should not be started, because what is
/// left of the soft budget does not cover `NEXT_DEPTH_FACTOR` times the last iteration.
///
/// An earlier version stopped when `elapsed × F ≥ soft`, which assumes every iteration costs
/// as much as all before it together (a growth of 2 per depth). With LMR and pruning the
/// measured growth is about 1.35 per depth (geometric mean of 42 successive iterations over
/// four positions at movetime 4 s; single steps range from 0.3 to 9), so that rule stopped
/// early and left about a third of a 10+0.1 clock unused at the end of the game. The factor
/// stays 2 because single steps vary that much: an iteration cut off by the hard stop is
/// wasted time.
pub fn stop_before_next_depth(elapsed_ms: u64, last_iteration_ms: u64, soft_ms: u64) -> bool {
    elapsed_ms as f64 + last_iteration_ms as f64 * NEXT_DEPTH_FACTOR >= soft_ms as f64
}

/// The increment-aware split used by several strategies: keep back one increment, spread
/// the rest over `moves` moves, add the increment back: `(t − inc)/moves + inc`.
pub fn spread(usable_ms: f64, increment_ms: f64, moves: f64) -> f64 {
    let moves = finite_or(moves, 1.0).max(1.0);
    (usable_ms - increment_ms) / moves + increment_ms
}

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

/// Whole milliseconds, rounded down, within 0..=MAX_BUDGET_MS.
fn to_ms(x: f64) -> u64 {
    let x = finite_or(x, 0.0).clamp(0.0, MAX_BUDGET_MS as f64);
    x.floor() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sudden_death_reserves_overhead_for_future_moves() {
        let game = Game::default();
        // 2+0 at 600 ms left, 10 ms overhead: 590 usable once, minus 12 × 10 = 120.
        let inputs = Inputs::new(&clock(600, 0, None, 10), &game);
        assert_eq!(inputs.usable_ms, 470.0);
        // With 50 ms: 550 usable once, minus 12 × 50 = 600 capped at half of 550.
        let inputs = Inputs::new(&clock(600, 0, None, 50), &game);
        assert_eq!(inputs.usable_ms, 275.0);
        let inputs = Inputs::new(&clock(60_000, 0, None, 10), &game);
        assert_eq!(inputs.usable_ms, 60_000.0 - 10.0 - 120.0);
        // An increment pays for the lag: reserved once only.
        let inputs = Inputs::new(&clock(600, 10, None, 10), &game);
        assert_eq!(inputs.usable_ms, 590.0);
        // A smaller one pays for part of it: 1+0.01 with 50 ms reserves (50 − 10) × 12,
        // within half the clock…
        let inputs = Inputs::new(&clock(1000, 10, None, 50), &game);
        assert_eq!(inputs.usable_ms, 950.0 - 475.0);
        // …and never less than (20 − 10) × 12 for the round trips of the next moves.
        let inputs = Inputs::new(&clock(150, 10, None, 50), &game);
        assert_eq!(inputs.usable_ms, 0.0);
        // Every strategy then spends less with the reserve than without it.
        for strategy in Strategy::ALL {
            let settings = Settings::new(strategy);
            let sd = allocate(
                &settings,
                &clock(600, 0, None, 10),
                &game,
                &History::default(),
            );
            let inc = allocate(
                &settings,
                &clock(600, 1, None, 10),
                &game,
                &History::default(),
            );
            assert!(sd.hard_ms <= inc.hard_ms, "{strategy}: {sd:?} vs {inc:?}");
        }
    }

    fn clock(t: i64, inc: i64, mtg: Option<u32>, overhead: i64) -> Clock {
        Clock {
            time_left_ms: t,
            increment_ms: inc,
            moves_to_go: mtg,
            overhead_ms: overhead,
        }
    }

    fn all_budgets(c: &Clock, g: &Game) -> Vec<Budget> {
        let mut h = History::new();
        h.record(900, 1000);
        Strategy::ALL
            .iter()
            .flat_map(|&s| {
                let st = Settings::new(s);
                [
                    allocate(&st, c, g, &History::new()),
                    allocate(&st, c, g, &h),
                ]
            })
            .collect()
    }

    /// The invariants every budget must keep.
    fn check(c: &Clock, g: &Game) {
        let usable = (c.time_left_ms.max(0) as f64 - c.overhead_ms.max(0) as f64).max(0.0);
        for b in all_budgets(c, g) {
            assert!(b.soft_ms <= b.hard_ms, "{c:?} {b}");
            assert!(
                b.hard_ms as f64 <= hard_share(c.moves_to_go) * usable + 1e-9,
                "{c:?} {b}"
            );
            assert!(
                b.soft_ms as f64 <= soft_share(c.moves_to_go) * usable + 1e-9,
                "{c:?} {b}"
            );
            assert!(b.hard_ms <= MAX_BUDGET_MS);
            assert!(!b.why.is_empty());
        }
    }

    #[test]
    fn names_round_trip() {
        for s in Strategy::ALL {
            assert_eq!(s.to_string().parse::<Strategy>(), Ok(s));
            assert_eq!(s.name().to_uppercase().parse::<Strategy>(), Ok(s));
        }
        assert_eq!(
            Strategy::names(),
            [
                "expositor",
                "lognormal",
                "geometric",
                "classic",
                "curve",
                "smooth",
                "material"
            ]
        );
        assert!(" Smooth ".parse::<Strategy>().is_ok());
        assert!("fast".parse::<Strategy>().is_err());
        assert_eq!(Settings::default().strategy, Strategy::Expositor);
    }

    #[test]
    fn tiny_and_odd_clocks_never_panic_and_stay_safe() {
        let huge = i64::MAX / 4;
        let cases = [
            clock(1, 0, None, 0),
            clock(1, 0, None, 10),
            clock(30, 0, Some(1), 0),
            clock(30, 0, Some(1), 10),
            clock(32, 0, Some(1), 10),
            clock(100, 5000, None, 10),
            clock(-5000, 1000, None, 10),
            clock(-1, -1, Some(0), -1),
            clock(0, 0, None, 0),
            clock(huge, huge, None, 10),
            clock(huge, 0, Some(u32::MAX), huge / 2),
            clock(i64::MAX, i64::MAX, Some(1), i64::MIN),
            clock(i64::MIN, i64::MIN, Some(3), i64::MAX),
            clock(60_000, 0, Some(1), 100_000),
        ];
        let games = [
            Game::default(),
            Game {
                plies_played: 300,
                men: 3,
            },
            Game {
                plies_played: u32::MAX,
                men: 0,
            },
            Game {
                plies_played: 7,
                men: u32::MAX,
            },
        ];
        for c in &cases {
            for g in &games {
                check(c, g);
            }
        }
    }

    #[test]
    fn movestogo_one_spends_most_of_the_clock() {
        // The known failure: `go wtime 32 btime 32 movestogo 1`.
        let c = clock(32, 0, Some(1), 10);
        for b in all_budgets(&c, &Game::default()) {
            // 85 % of the 22 ms left after the overhead.
            assert_eq!(b.hard_ms, 18, "{b}");
            assert!(b.soft_ms >= 5, "{b}");
        }
        let c = clock(60_000, 0, Some(1), 10);
        for b in all_budgets(&c, &Game::default()) {
            assert!(b.soft_ms >= 17_000, "{b}");
            assert!(b.hard_ms <= 50_991, "{b}");
        }
    }

    #[test]
    fn negative_and_zero_clocks_give_zero() {
        for t in [-100_000, -1, 0] {
            for b in all_budgets(&clock(t, 2000, None, 10), &Game::default()) {
                assert_eq!((b.soft_ms, b.hard_ms), (0, 0), "{b}");
            }
        }
    }

    #[test]
    fn increment_larger_than_clock() {
        let c = clock(200, 3000, None, 10);
        for b in all_budgets(&c, &Game::default()) {
            assert!(b.hard_ms <= 95, "{b}");
            assert!(b.soft_ms >= 5, "{b}");
        }
    }

    #[test]
    fn huge_clock_is_capped_without_overflow() {
        let huge = i64::MAX / 4;
        for b in all_budgets(&clock(huge, huge, None, 0), &Game::default()) {
            assert!(b.hard_ms <= MAX_BUDGET_MS, "{b}");
            assert!(b.soft_ms > 0, "{b}");
        }
    }

    #[test]
    fn min_think_time_applies_when_the_clock_allows() {
        // A 1 s clock with a tiny 1-move horizon would still get at least MIN_THINK_MS.
        let b = finish(
            "test",
            Plan {
                soft_ms: 0.3,
                note: String::new(),
            },
            &Inputs::new(&clock(1000, 0, None, 0), &Game::default()),
        );
        assert_eq!(b.soft_ms, MIN_THINK_MS as u64);
        assert!(b.why.contains("min think"));
        // NaN and negative plans are treated as zero.
        let b = finish(
            "test",
            Plan {
                soft_ms: f64::NAN,
                note: String::new(),
            },
            &Inputs::new(&clock(1000, 0, None, 0), &Game::default()),
        );
        assert_eq!(b.soft_ms, MIN_THINK_MS as u64);
    }

    #[test]
    fn hard_is_a_multiple_of_soft_when_uncapped() {
        let c = clock(300_000, 3000, None, 10);
        let b = allocate(&Settings::default(), &c, &Game::default(), &History::new());
        let three = b.soft_ms * HARD_FACTOR as u64;
        assert!(b.hard_ms >= three && b.hard_ms <= three + 2, "{b}");
        assert!(
            b.why.starts_with("expositor: REM(0)=86.8 plies"),
            "{}",
            b.why
        );
        assert!(b.why.ends_with("clamps: none"), "{}", b.why);
    }

    #[test]
    fn overhead_is_reserved_once_when_an_increment_pays_for_lag() {
        // The increment covers the 1 s overhead: only this move's overhead is kept back.
        let with = allocate(
            &Settings::default(),
            &clock(60_000, 1000, None, 1000),
            &Game::default(),
            &History::new(),
        );
        let without = allocate(
            &Settings::default(),
            &clock(59_000, 1000, None, 0),
            &Game::default(),
            &History::new(),
        );
        assert_eq!(with.soft_ms, without.soft_ms);
    }

    #[test]
    fn overhead_is_also_reserved_per_move_until_a_known_refill() {
        let inputs = Inputs::new(&clock(2000, 0, Some(40), 10), &Game::default());
        assert_eq!(inputs.usable_ms, 2000.0 - 10.0 - 39.0 * 10.0);
        let inputs = Inputs::new(&clock(2000, 0, Some(1), 10), &Game::default());
        assert_eq!(inputs.usable_ms, 1990.0);
        // Bounded: an absurd overhead never takes more than half the clock…
        let inputs = Inputs::new(&clock(20_000, 0, Some(40), 1000), &Game::default());
        assert_eq!(inputs.usable_ms, 9500.0);
        // …unless the moves still to be made need more even at their smallest real cost:
        // 5 moves before the control with 150 ms left keep 4 × 20 ms, not half of 100.
        let inputs = Inputs::new(&clock(150, 0, Some(5), 50), &Game::default());
        assert_eq!(inputs.usable_ms, 20.0);
        // An absurd movestogo counts as 100 moves.
        let inputs = Inputs::new(&clock(2000, 0, Some(u32::MAX), 10), &Game::default());
        assert_eq!(inputs.usable_ms, 990.0);
    }

    #[test]
    fn slow_mover_scales_and_is_sanitised() {
        let c = clock(300_000, 0, None, 0);
        let base = allocate(&Settings::default(), &c, &Game::default(), &History::new());
        let mut s = Settings {
            slow_mover: 1.5,
            ..Settings::default()
        };
        let slow = allocate(&s, &c, &Game::default(), &History::new());
        assert!((slow.soft_ms as f64 / base.soft_ms as f64 - 1.5).abs() < 0.01);
        s.slow_mover = f64::NAN;
        assert_eq!(
            allocate(&s, &c, &Game::default(), &History::new()).soft_ms,
            base.soft_ms
        );
    }

    #[test]
    fn movetime_helper() {
        assert_eq!(movetime_budget(1000).hard_ms, 1000);
        assert_eq!(movetime_budget(1000).soft_ms, 1000);
        assert_eq!(movetime_budget(5).hard_ms, 5);
        assert_eq!(movetime_budget(-5).hard_ms, 0);
        assert_eq!(movetime_budget(i64::MAX).hard_ms, MAX_BUDGET_MS);
    }

    #[test]
    fn soft_stop_rule() {
        // 600 ms spent, the last depth took 200: a next depth of ~400 fits a 1 s budget...
        assert!(!stop_before_next_depth(599, 200, 1000));
        assert!(stop_before_next_depth(600, 200, 1000));
        // ...but not when the last depth took 300.
        assert!(stop_before_next_depth(500, 300, 1000));
        // Branching factor 2 (last = half the elapsed time) gives the old elapsed × 2 rule.
        assert!(!stop_before_next_depth(499, 249, 1000));
        assert!(stop_before_next_depth(500, 250, 1000));
        assert!(stop_before_next_depth(0, 0, 0));
    }

    #[test]
    fn formatting() {
        assert_eq!(fmt_ms(350.0), "350 ms");
        assert_eq!(fmt_ms(7400.0), "7.4 s");
        assert_eq!(fmt_ms(f64::NAN), "0 ms");
    }
}
