//! What the time manager is told: the clock of the side to move and where we are in the game,
//! and [`Inputs`], the sanitised view every strategy plans from.
//!
//! # Move Overhead: reserved once, plus a round trip per move until new time arrives
//!
//! "Move Overhead" is the longest lag the GUI, the operating system or the network may add
//! to one move. Two ways to honour it:
//!
//! * per move to come: plan as if every remaining move loses the whole overhead
//!   (Stockfish's `timeLeft = time + inc·(mtg−1) − overhead·(2+mtg)`, `src/timeman.cpp`);
//! * once: take it off the clock a single time and make sure *this* move cannot flag
//!   (Lc0's time managers: `time + inc·(movestogo−1) − move_overhead`, lc0
//!   `src/mcts/stoppers/legacy.cc`; lc0 pull request #306, "Proper implementation of the UCI
//!   option MoveOverhead"; Ethereal pull request #147; Caissa).
//!
//! We reserve it **once**: `usable = time − overhead`, and every limit a move may reach is a
//! share of `usable` ([`super::budget`]: hard ≤ share × usable and hard ≤ usable −
//! [`super::budget::HARD_MARGIN_MS`]), so `hard + lag ≤ time` whenever the lag is within
//! the overhead. Charging the *worst* lag to every guessed future move double-counts it:
//! whatever lag really happened is already in the clock the GUI sends next. At 40/2 with the
//! 50 ms default it took 50 × 42 ms, more than the whole 2 s period, before any strategy
//! planned (issue 41: the side with Move Overhead 10 beat the one with 50 by +43 ± 30 in
//! 300 games at 40/2, no time loss).
//!
//! What a move costs at the least is not the overhead but a round trip through the GUI,
//! which comes out of the clock whatever the engine thinks: [`ROUND_TRIP_MS`] (or the
//! overhead if that is smaller: Move Overhead 0 says there is no lag). It is kept per move
//! still to be made before new time arrives, less what the increment pays:
//!
//! * with `movestogo m`: for each of the other m − 1 moves (at most
//!   [`PER_MOVE_RESERVE_MAX_MOVES`]). Without it the lag of 40 moves comes out of the last
//!   ones, which then answer at depth 1 or flag;
//! * without `movestogo`: for [`SUDDEN_DEATH_RESERVE_MOVES`] future moves, `round trip −
//!   increment` each, so in sudden death (no increment) the clock keeps what the round trips
//!   of a long endgame will take, and with an increment at least as large (1+0.01 and up)
//!   nothing more is kept.
//!
//! At 40/2 the default therefore keeps 50 + 39 × 10 = 440 ms at the first move (the old
//! per-move overhead kept 1,025 ms), at 1+0.01 it keeps 50 ms (was 525), at 2+0 450 ms
//! (was 650). If the clock cannot hold even the round trips, nothing is usable and the
//! engine answers at once.
//!
//! How the reserve plays out at repeating controls is explained in the parent module
//! ("Repeating controls").

use super::finite_or;

/// The least a move costs on the clock as the GUI measures it, even one the engine answers
/// at once: a round trip through the GUI (capped by the Move Overhead), kept for every move
/// still to be made before new time arrives that the increment does not pay for.
///
/// 10 ms is the per-move reserve with which Sandglass played 300 self-play games at 40/2
/// without a time loss, reaching each refill with 4 % of the period left (issue 41, the
/// "Move Overhead 10" side, whose old per-move reserve was exactly 10 ms per move to come);
/// it is also Stockfish's default Move Overhead, which Stockfish charges per move to come.
pub const ROUND_TRIP_MS: f64 = 10.0;
/// With `movestogo m`, the round trip is kept for at most this many of the other moves (an
/// absurd `movestogo` must not empty the clock).
pub const PER_MOVE_RESERVE_MAX_MOVES: u32 = 100;
/// Without `movestogo`, the round trip an increment does not pay (all of it in sudden death)
/// is kept for this many future moves: that lag comes out of the clock for good on every
/// move. 40 moves: the sudden-death reserve that ended the 2+0 time losses (docs/measurements/reliability.md,
/// "Sudden death without increment reserves…").
pub const SUDDEN_DEATH_RESERVE_MOVES: u32 = 40;
/// Default of the engine's "Move Overhead" option.
///
/// 50 ms, not the 10 ms Stockfish uses: with an increment smaller than a match runner's
/// per-move lag the clock settles just above the overhead, where one lag spike larger than
/// the overhead loses on time, and spikes of 35–64 ms were seen with two games at once on two
/// cores (docs/measurements/time-management.md). It is reserved once (see the module doc), so with an increment it
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
    /// from an engine that does its own per-move accounting (`stockfish`); the others plan
    /// from `usable_ms`.
    pub time_left_ms: f64,
    /// Time left minus the Move Overhead (once) and the round trips of the moves still to be
    /// made before new time arrives (see the module doc), never negative, in ms.
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
        // Future moves to keep a round trip for, and what an increment pays towards each: the
        // other moves before a known refill, or a fixed number of future moves without one
        // (see the module doc).
        let (moves, paid) = match moves_to_go {
            Some(m) => ((m - 1).min(PER_MOVE_RESERVE_MAX_MOVES), 0.0),
            None => (SUDDEN_DEATH_RESERVE_MOVES, increment),
        };
        let round_trip = (ROUND_TRIP_MS.min(overhead) - paid).max(0.0);
        let reserve = round_trip * f64::from(moves);
        Inputs {
            time_left_ms: time,
            usable_ms: (once - reserve).max(0.0),
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
