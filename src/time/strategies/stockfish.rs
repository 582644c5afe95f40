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
//! Stockfish's own numbers, with its default Move Overhead of 10 ms (`src/engine.cpp`,
//! `options.add("Move Overhead", Option(10, 0, 5000))`), which the tests below reproduce:
//! 40/2 at the first move, timeLeft 1580, optimum 34 ms, maximum 193 ms; 1+0.01, timeLeft
//! 970, timeAdjust 0.563, optimum 9 ms, maximum 30 ms; 2+1, optimum 436 ms, maximum
//! 1609 ms; 10+0.1, optimum 243 ms, maximum 1563 ms; `go wtime 4000 movestogo 1`,
//! optimum = maximum = 3493 ms (0.88 of timeLeft 3970).
//!
//! # Move Overhead: Stockfish's semantics, not Sandglass's value
//!
//! Stockfish's `o` is charged 2 + mtg times: it is a *per-move* cost, and Stockfish's
//! formulas were tuned with 10 ms there. Sandglass's Move Overhead option means the worst
//! lag of *one* move and defaults to 50 ms ([`crate::time::inputs`]); fed into `o·(2+mtg)`
//! it takes 50 × 42 = 2.1 s at 40/2 — more than the whole period — and Stockfish's own
//! formula then gives `timeLeft 1 ms`, `optimum 1 ms`, and at 1+0.01 a negative
//! `timeAdjust` (−0.41, from log10(1)). That was a broken transplant (issue 41: it reached
//! each 40/2 refill with 46 % of the period unused). So the formula gets what Stockfish's
//! `o` stands for, a per-move round trip: [`STOCKFISH_MOVE_OVERHEAD_MS`], Stockfish's own
//! default, or the option if that is smaller (0 means no lag at all); the rest of the
//! option, the once-per-move worst lag, is kept by the shared clamps (hard ≤ a share of
//! the clock minus the Move Overhead, and a margin). `t` is the clock as the GUI sent it,
//! as in the source.
//!
//! # Under movestogo the horizon does not shrink (the one change to the formulas)
//!
//! Stockfish shrinks the horizon below one second, `mtg = ⌊0.05·t⌋`, also when `movestogo`
//! is given: with 900 ms and 3 moves to the control it plans for 45 moves (optimum 8 ms,
//! most of the clock carried to the refill), and with 500 ms and 30 moves to go for 25 (it
//! spends faster than the moves left allow). The shrink is a sudden-death rule: it guesses a
//! horizon that `movestogo` states. Issue 41 cites Stockfish pull request #7117 for what such
//! a rule cost under movestogo (−48.7 Elo, 557 time losses in 1,984 games at 40/1). Here the
//! shrink applies only without `movestogo`; with it, mtg = min(movestogo, 50) always (900 ms
//! and 3 to go: optimum 249 ms, maximum 405 ms). Everything else is the source's.
//!
//! How it fits Sandglass:
//!
//! * soft = optimum × the soft-stop allowance ([`crate::time::SOFT_STOP_ALLOWANCE`]).
//!   Stockfish's optimum is already a soft target, but of another stop rule: Stockfish
//!   stops once an iteration *ends* past optimum × its adjustments, so it spends at least
//!   the optimum and often more; Sandglass never starts an iteration it expects to end past
//!   soft, so it spends less than soft. The allowance, which every strategy but `smooth`
//!   shares, covers that difference, so the expected spend is about the optimum.
//! * hard = maximum (the strategy's own hard limit, [`super::Plan::hard_ms`]), within the
//!   shared clamps (hard ≤ half the usable clock, hard ≥ soft), which are stricter than
//!   Stockfish's 0.8097·t − o.
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
/// Stockfish's default Move Overhead (`src/engine.cpp`), the per-move charge its formulas
/// were tuned with (see the module doc).
pub const STOCKFISH_MOVE_OVERHEAD_MS: f64 = 10.0;

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
/// `ply` and Stockfish's per-move `overhead` (ms), the horizon shrink only without
/// movestogo. `adjust` is the game's `originalTimeAdjust`, None at the
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
    let movestogo = movestogo.filter(|&m| m > 0);
    let mut mtg = i64::from(movestogo.map_or(MAX_MTG, |m| m.min(MAX_MTG)));
    // The horizon shrink is a sudden-death rule: not under movestogo (see the module doc).
    if t < 1000.0 && movestogo.is_none() {
        mtg = (t * 0.05) as i64;
    }
    let m = mtg as f64;
    let time_left = (t + inc * (m - 1.0) - overhead * (2.0 + m)).floor().max(1.0);
    let (opt_scale, max_scale, time_adjust) = match movestogo {
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
            let per_move = (0.88 + ply / 116.4) / m.max(1.0);
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
            // Okabe–Ito's yellow (#F0E442) darkened to the same hue: the original is 1.3:1
            // on white and the thin dash-dot line nearly vanished; this is 3.9:1.
            colour: "#9E7E00",
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
            inputs.overhead_ms.min(STOCKFISH_MOVE_OVERHEAD_MS),
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
        let x = times(15.0, 0.0, None, 0, 10.0, Some(0.5));
        assert_eq!(x.mtg, 0);
        assert!(x.optimum >= 1.0 && x.maximum >= x.optimum);
        let x = times(15.0, 0.0, Some(3), 0, 10.0, None);
        assert_eq!(x.mtg, 3);
        assert!(x.optimum >= 1.0 && x.maximum >= x.optimum);
    }

    #[test]
    fn under_movestogo_the_horizon_is_the_moves_to_go() {
        // Stockfish itself would shrink it to ⌊0.05·900⌋ = 45 moves (optimum 8 ms, maximum
        // 50 ms); the known 3 moves give timeLeft 900 − 10·5 = 850, optScale 0.88/3,
        // optimum 249, maxScale 1.63 → maximum 405.
        let x = times(900.0, 0.0, Some(3), 0, 10.0, None);
        assert_eq!((x.mtg, x.time_left), (3, 850.0));
        assert_eq!((x.optimum, x.maximum), (249.0, 405.0));
        // 500 ms with 30 to go: 30 moves, not 25 (timeLeft 500 − 10·32 = 180; ply 60:
        // optScale (0.88 + 60/116.4)/30 = 0.046515 → optimum 8, maximum 36).
        let x = times(500.0, 0.0, Some(30), 60, 10.0, None);
        assert_eq!((x.mtg, x.time_left, x.optimum, x.maximum), (30, 180.0, 8.0, 36.0));
    }

    #[test]
    fn stockfish_numbers_at_rating_list_controls() {
        // Python, from the source formula with Stockfish's default 10 ms overhead, first move.
        // 40/2: timeLeft 2000 − 10·42 = 1580; optScale 0.88/40 = 0.022 → 34; ×5.7 → 193.
        let x = times(2000.0, 0.0, Some(40), 0, 10.0, None);
        assert_eq!((x.time_left, x.optimum, x.maximum), (1580.0, 34.0, 193.0));
        // 1+0.01: timeLeft 1000 + 10·49 − 10·52 = 970; timeAdjust 0.563172 (positive);
        // optScale 0.0097340 → 9; maxScale 3.3744 → 30.
        let x = times(1000.0, 10.0, None, 0, 10.0, None);
        assert_eq!(x.time_left, 970.0);
        assert!((x.time_adjust - 0.563_171_7).abs() < 1e-6);
        assert!((x.opt_scale - 0.009_734_02).abs() < 1e-7);
        assert_eq!((x.optimum, x.maximum), (9.0, 30.0));
        // 2+1: timeLeft 50480; timeAdjust 1.12476 → optimum 436, maximum 1609 (0.8097·t − o).
        let x = times(2000.0, 1000.0, None, 0, 10.0, None);
        assert_eq!((x.time_left, x.optimum, x.maximum), (50_480.0, 436.0, 1609.0));
        // movestogo 1 with 4 s: optScale 0.88 → optimum 3493 = maximum.
        let x = times(4000.0, 0.0, Some(1), 0, 10.0, None);
        assert_eq!((x.time_left, x.optimum, x.maximum), (3970.0, 3493.0, 3493.0));
        // Sandglass's 50 ms in Stockfish's per-move slot is the broken transplant: 40/2
        // leaves timeLeft 1 ms, 1+0.01 a negative timeAdjust.
        assert_eq!(times(2000.0, 0.0, Some(40), 0, 50.0, None).optimum, 1.0);
        assert!(times(1000.0, 10.0, None, 0, 50.0, None).time_adjust < 0.0);
    }

    #[test]
    fn sandglass_move_overhead_is_not_charged_per_move() {
        // The default Move Overhead (50 ms) plans like Stockfish with its own 10 ms.
        let s = Settings::with_strategy("stockfish").expect("registered");
        let clock = |t, inc, mtg| Clock {
            time_left_ms: t,
            increment_ms: inc,
            moves_to_go: mtg,
            overhead_ms: s.move_overhead_ms,
        };
        let b = allocate(&s, &clock(2000, 0, Some(40)), &Game::default());
        assert_eq!(b.soft_ms, (34.0 * SOFT_STOP_ALLOWANCE) as u64, "{b}");
        assert_eq!(b.hard_ms, 193, "{b}");
        let b = allocate(&s, &clock(1000, 10, None), &Game::default());
        assert_eq!(b.soft_ms, (9.0 * SOFT_STOP_ALLOWANCE) as u64, "{b}");
        assert!(b.why.contains("×adjust 0.563"), "{b}");
        // An overhead below Stockfish's default is used as it is.
        let x = times(2000.0, 0.0, Some(40), 0, 0.0, None);
        let mut zero = Settings::with_strategy("stockfish").expect("registered");
        zero.move_overhead_ms = 0;
        let c = Clock {
            overhead_ms: 0,
            ..clock(2000, 0, Some(40))
        };
        let b = allocate(&zero, &c, &Game::default());
        assert_eq!(b.soft_ms, (x.optimum * SOFT_STOP_ALLOWANCE) as u64, "{b}");
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
