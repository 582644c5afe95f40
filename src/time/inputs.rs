//! What the time manager is told: the clock of the side to move and where we are in the game,
//! and [`Inputs`], the sanitised view every strategy plans from.
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
//!   spends, so the clock drains by that much per move however little the engine thinks.
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

use super::finite_or;

/// With `movestogo m`, the overhead is reserved for at most this many of the other moves…
pub const PER_MOVE_RESERVE_MAX_MOVES: u32 = 100;
/// …and that extra reserve takes at most this share of the clock after the first overhead,
/// so an overhead much larger than the real lag does not make every move instant…
pub const PER_MOVE_RESERVE_MAX_SHARE: f64 = 0.5;
/// …except that it always keeps this much per move still to be made (less the increment):
/// the smallest cost of a move as the GUI measures it, even one the engine answers at once
/// (a match runner's round trip; MEASUREMENTS.md has the gauntlet that set it).
pub const MIN_ROUND_TRIP_MS: f64 = 20.0;
/// Without `movestogo`, the lag an increment does not pay (`overhead − increment`, all of
/// the overhead in sudden death) is also reserved for this many future moves (within the
/// same share cap): that lag comes out of the clock for good on every move.
pub const SUDDEN_DEATH_RESERVE_MOVES: u32 = 12;
/// Default of the engine's "Move Overhead" option.
///
/// 50 ms, not the 10 ms Stockfish uses: with an increment smaller than a match runner's
/// per-move lag the clock settles just above the overhead, where one lag spike larger than
/// the overhead loses on time, and spikes of 35–64 ms were seen with two games at once on two
/// cores (MEASUREMENTS.md). It is reserved once (see the module doc), so with an increment it
/// costs 50 ms of the whole clock.
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

/// The sanitised view of clock and game that every strategy works from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Inputs {
    /// The clock as the GUI sent it, never negative, in ms: for a strategy transplanted
    /// from an engine that does its own overhead accounting (`stockfish`); the others plan
    /// from `usable_ms`.
    pub time_left_ms: f64,
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
    /// Negative times become zero, `movestogo 0` (not allowed by UCI) is ignored, and the
    /// overhead is reserved as the module doc explains.
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
            time_left_ms: time,
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
