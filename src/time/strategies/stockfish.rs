//! `stockfish`: Stockfish's allocation, transplanted formula for formula.
//!
//! Source: official-stockfish/Stockfish, `src/timeman.cpp`, `TimeManagement::init`, as of
//! master commit 762dd1da9a5db458180b2c5db6c53dc40ec61e1a (the file last changed in
//! dd3e1c4a50fd358c8bf8051c9ef73219669ff6c0, "Consistent Integer Types"; the formulas in
//! 82908e0fd68a3a717e6152f66a297ecc97d9a6e9, "Simplify mtg in time management", and
//! add173263d12ea1b2ec7d6a6ebf2566894b2402c, "VVLTC Tune"). With t the clock, inc the
//! increment, o the Move Overhead and ply the game ply (all in ms):
//!
//! ```text
//! mtg       = min(movestogo, 50), or 50 without movestogo
//!             (t < 1 s: mtg = ⌊0.05·t⌋, the horizon shrinks with the clock)
//! timeLeft  = max(1, t + inc·(mtg − 1) − o·(2 + mtg))      overhead charged per move
//!
//! sudden death / increment:
//!   timeAdjust = 0.3272·log10(timeLeft) − 0.4141            once per game, at its first move
//!   optConst   = min(0.0029869 + 0.00033554·log10(t/1000), 0.004905)
//!   maxConst   = max(3.3744 + 3.0608·log10(t/1000), 3.1441)
//!   optScale   = min(0.012112 + (ply + 3.22713)^0.46866 · optConst, 0.19404·t/timeLeft)
//!                · timeAdjust
//!   maxScale   = min(6.873, maxConst + ply/12.352)
//! movestogo:
//!   optScale   = min((0.88 + ply/116.4)/mtg, 0.88·t/timeLeft)
//!   maxScale   = 1.3 + 0.11·mtg
//!
//! optimum   = ⌊max(1, optScale·timeLeft)⌋
//! maximum   = ⌊max(optimum, min(0.8097·t − o, maxScale·optimum))⌋
//! ```
//!
//! How it fits Sandglass:
//!
//! * soft = optimum × the soft-stop allowance ([`crate::time::SOFT_STOP_ALLOWANCE`]).
//!   Stockfish's optimum is already a soft target, but of another stop rule: Stockfish
//!   stops once an iteration *ends* past optimum × its adjustments, so it spends at least
//!   the optimum and often more; Sandglass never starts an iteration it expects to end past
//!   soft, so it spends less than soft. The allowance, which every strategy but `smooth`
//!   shares, covers that difference; without it this strategy would spend about a quarter
//!   less than Stockfish's plan.
//! * hard = maximum (the strategy's own hard limit, [`super::Plan::hard_ms`]), within the
//!   shared clamps (hard ≤ half the usable clock, hard ≥ soft), which are stricter than
//!   Stockfish's 0.8097·t − o.
//! * The overhead is charged Stockfish's way (`o·(2 + mtg)`) from the raw clock
//!   ([`Inputs::time_left_ms`]); Sandglass's own reserve still bounds the result through
//!   the clamps. Stockfish's default overhead is 10 ms, Sandglass's 50 ms.
//! * Stockfish's +25 % optimum with pondering on is Sandglass's shared ponder bonus
//!   (`settings::PONDER_BONUS`), applied to every strategy, so it is not repeated here.
//! * `nodestime` (nodes as time) is not transplanted.
//!
//! The one state: `timeAdjust` is computed from the first clock of a game and kept
//! (Stockfish's `originalTimeAdjust`, reset by `ucinewgame`), so a clock that runs low late
//! in the game does not also shrink the share. `plan` takes `&self`, so it is kept in a
//! `OnceLock` that the first plan of a game fills and [`Strategy::new_game`] empties.

use super::{finite_or, fmt_ms, Inputs, Plan, Strategy, Style};
use std::sync::OnceLock;

/// Longest horizon in moves.
pub const MAX_MTG: u32 = 50;

/// Stockfish's numbers for one move (all in ms, as `f64`; optimum and maximum are whole
/// milliseconds like Stockfish's `TimePoint`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Times {
    pub mtg: i64,
    pub time_left: f64,
    /// The per-game `originalTimeAdjust` used (1.0 with movestogo, where it is not used).
    pub time_adjust: f64,
    pub opt_scale: f64,
    pub max_scale: f64,
    pub optimum: f64,
    pub maximum: f64,
}

/// `originalTimeAdjust` for a game whose first move saw `time_left` (Stockfish's
/// `timeLeft`, not the clock).
pub fn time_adjust(time_left: f64) -> f64 {
    0.3272 * time_left.max(1.0).log10() - 0.4141
}

/// Stockfish's `TimeManagement::init` for clock `t`, increment `inc`, `movestogo`, game
/// `ply` and `overhead` (ms). `adjust` is the game's `originalTimeAdjust`, None at the
/// first move of a game (it is then computed from this move, as Stockfish does).
pub fn times(
    t: f64,
    inc: f64,
    movestogo: Option<u32>,
    ply: u32,
    overhead: f64,
    adjust: Option<f64>,
) -> Times {
    // Stockfish returns before any of this when the clock is 0; at t ≥ 1 every logarithm
    // below is finite.
    let t = finite_or(t, 0.0).max(1.0);
    let inc = finite_or(inc, 0.0).max(0.0);
    let overhead = finite_or(overhead, 0.0).max(0.0);
    let ply = f64::from(ply);
    let mut mtg = i64::from(movestogo.filter(|&m| m > 0).map_or(MAX_MTG, |m| m.min(MAX_MTG)));
    if t < 1000.0 {
        mtg = (t * 0.05) as i64;
    }
    let m = mtg as f64;
    let time_left = (t + inc * (m - 1.0) - overhead * (2.0 + m)).floor().max(1.0);
    let (opt_scale, max_scale, time_adjust) = match movestogo.filter(|&m| m > 0) {
        None => {
            let adjust = adjust.map_or_else(|| time_adjust(time_left), |a| finite_or(a, 1.0));
            let log_time_s = (t / 1000.0).log10();
            let opt_constant = (0.0029869 + 0.00033554 * log_time_s).min(0.004905);
            let max_constant = (3.3744 + 3.0608 * log_time_s).max(3.1441);
            let opt_scale = (0.012112 + (ply + 3.22713).powf(0.46866) * opt_constant)
                .min(0.19404 * t / time_left)
                * adjust;
            let max_scale = (max_constant + ply / 12.352).min(6.873);
            (opt_scale, max_scale, adjust)
        }
        Some(_) => {
            // mtg may be 0 under one second: Stockfish then divides by zero (infinity),
            // and the second term of the min decides.
            let per_move = if mtg > 0 {
                (0.88 + ply / 116.4) / m
            } else {
                f64::INFINITY
            };
            (per_move.min(0.88 * t / time_left), 1.3 + 0.11 * m, 1.0)
        }
    };
    let optimum = (opt_scale * time_left).max(1.0).floor();
    let maximum = optimum
        .max((0.8097 * t - overhead).min(max_scale * optimum))
        .floor();
    Times {
        mtg,
        time_left,
        time_adjust,
        opt_scale,
        max_scale,
        optimum: finite_or(optimum, 1.0),
        maximum: finite_or(maximum, 1.0),
    }
}

/// Stockfish's allocation (see the module doc).
#[derive(Clone, Debug, Default)]
pub struct Stockfish {
    /// This game's `originalTimeAdjust`, once its first move has been planned.
    original_time_adjust: OnceLock<f64>,
}

impl Strategy for Stockfish {
    fn name(&self) -> &'static str {
        "stockfish"
    }
    fn style(&self) -> Style {
        Style {
            symbol: 'F',
            colour: "#F0E442",
            dash: "12 3 2 3 2 3",
        }
    }
    fn plan(&self, inputs: &Inputs) -> Plan {
        if inputs.time_left_ms <= 0.0 {
            // Stockfish does no time management on an empty clock; the clamps give zero.
            return Plan {
                soft_ms: 0.0,
                hard_ms: Some(0.0),
                note: "empty clock".into(),
            };
        }
        let x = times(
            inputs.time_left_ms,
            inputs.increment_ms,
            inputs.moves_to_go,
            inputs.plies_played,
            inputs.overhead_ms,
            self.original_time_adjust.get().copied(),
        );
        if inputs.moves_to_go.is_none() {
            let _ = self.original_time_adjust.set(x.time_adjust);
        }
        let adjust = if inputs.moves_to_go.is_none() {
            format!(" ×adjust {:.3}", x.time_adjust)
        } else {
            String::new()
        };
        Plan {
            soft_ms: x.optimum,
            hard_ms: Some(x.maximum),
            note: format!(
                "mtg {} → timeLeft {}; optScale {:.5}{adjust} → optimum {}; maxScale {:.2} → maximum {}",
                x.mtg,
                fmt_ms(x.time_left),
                x.opt_scale,
                fmt_ms(x.optimum),
                x.max_scale,
                fmt_ms(x.maximum),
            ),
        }
    }
    fn new_game(&mut self) {
        self.original_time_adjust = OnceLock::new();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::{allocate, Clock, Game, Settings, SOFT_STOP_ALLOWANCE};

    // Expected values computed by hand from the source formula (Python, double precision,
    // Stockfish's integer truncations), written out here.

    #[test]
    fn ten_plus_tenth_at_the_first_move() {
        // 10+0.1, ply 0, Stockfish's default overhead 10 ms:
        // timeLeft = 10000 + 100·49 − 10·52 = 14380; timeAdjust = 0.94632;
        // optScale = 0.0169063; optimum = 243; maxScale = 6.4352; maximum = 1563.
        let x = times(10_000.0, 100.0, None, 0, 10.0, None);
        assert_eq!(x.mtg, 50);
        assert_eq!(x.time_left, 14_380.0);
        assert!((x.time_adjust - 0.946_318_7).abs() < 1e-6);
        assert!((x.opt_scale - 0.016_906_29).abs() < 1e-7);
        assert!((x.max_scale - 6.4352).abs() < 1e-9);
        assert_eq!((x.optimum, x.maximum), (243.0, 1563.0));
    }

    #[test]
    fn one_minute_plus_one_later_in_the_game_keeps_the_first_adjust() {
        // 60+1 game: the first move saw timeLeft 60000 + 1000·49 − 10·52 = 108480, so
        // timeAdjust = 1.23347. At ply 40 with 45 s left: timeLeft 93480, optimum 3782,
        // maximum 25993 (maxScale capped at 6.873).
        let first = times(60_000.0, 1000.0, None, 0, 10.0, None);
        assert!((first.time_adjust - 1.233_466_4).abs() < 1e-6);
        let x = times(45_000.0, 1000.0, None, 40, 10.0, Some(first.time_adjust));
        assert_eq!(x.time_left, 93_480.0);
        assert!((x.max_scale - 6.873).abs() < 1e-12);
        assert_eq!((x.optimum, x.maximum), (3782.0, 25_993.0));
        // Had the adjust been recomputed from this move it would be 1.21232 → 3717.
        let fresh = times(45_000.0, 1000.0, None, 40, 10.0, None);
        assert_eq!(fresh.optimum, 3717.0);
    }

    #[test]
    fn forty_moves_in_five_minutes() {
        // movestogo 40, 300 s, ply 20: timeLeft = 300000 − 10·42 = 299580;
        // optScale = (0.88 + 20/116.4)/40 = 0.0262955; optimum 7877; maxScale 5.7 → 44898.
        let x = times(300_000.0, 0.0, Some(40), 20, 10.0, None);
        assert_eq!((x.mtg, x.time_left), (40, 299_580.0));
        assert!((x.opt_scale - 0.026_295_53).abs() < 1e-7);
        assert_eq!((x.optimum, x.maximum), (7877.0, 44_898.0));
        // movestogo above 50 is read as 50.
        assert_eq!(times(300_000.0, 0.0, Some(80), 20, 10.0, None).mtg, 50);
    }

    #[test]
    fn under_one_second_the_horizon_shrinks() {
        // 800 ms: mtg = ⌊0.05·800⌋ = 40; timeLeft = 800 − 10·42 = 380; with a game adjust of
        // 0.9 at ply 60: optimum 11, maximum 75.
        let x = times(800.0, 0.0, None, 60, 10.0, Some(0.9));
        assert_eq!((x.mtg, x.time_left), (40, 380.0));
        assert_eq!((x.optimum, x.maximum), (11.0, 75.0));
        // 32 ms with movestogo 1: mtg 1, timeLeft 2, optimum and maximum 1 ms.
        let x = times(32.0, 0.0, Some(1), 0, 10.0, None);
        assert_eq!((x.mtg, x.time_left, x.optimum, x.maximum), (1, 2.0, 1.0, 1.0));
        // Under 20 ms the horizon is 0 moves; nothing divides by zero.
        let x = times(15.0, 0.0, Some(3), 0, 10.0, None);
        assert_eq!(x.mtg, 0);
        assert!(x.optimum >= 1.0 && x.maximum >= x.optimum);
    }

    #[test]
    fn allocation_keeps_the_first_adjust_until_a_new_game() {
        let mut s = Settings::with_strategy("stockfish").expect("registered");
        s.move_overhead_ms = 10;
        let clock = |t| Clock {
            time_left_ms: t,
            increment_ms: 1000,
            moves_to_go: None,
            overhead_ms: 10,
        };
        let late = Game {
            plies_played: 40,
            men: 20,
        };
        let _ = allocate(&s, &clock(60_000), &Game::default());
        let b = allocate(&s, &clock(45_000), &late);
        // soft = 3782 × the allowance; hard = the maximum, within the shared caps.
        assert_eq!(b.soft_ms, (3782.0_f64 * SOFT_STOP_ALLOWANCE).floor() as u64);
        assert!(b.why.starts_with("stockfish: mtg 50 → timeLeft 93.5 s"), "{}", b.why);
        assert!(b.why.contains("maximum 26.0 s"), "{}", b.why);
        // Half the usable clock (45000 − 10 overhead) caps the maximum of 25993.
        assert_eq!(b.hard_ms, 22_495, "{b}");
        s.new_game();
        let b = allocate(&s, &clock(45_000), &late);
        assert_eq!(b.soft_ms, (3717.0_f64 * SOFT_STOP_ALLOWANCE).floor() as u64);
    }
}
