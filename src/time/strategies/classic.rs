//! `classic`: time/40 + inc/2, the textbook rule.
//!
//! Idea: pretend there are always 40 moves left (`movestogo` if given), give
//! each an equal slice of the clock, and spend half of the increment on top. The rest
//! of the increment accumulates as a cushion. A variant spends 3/4 of the increment.
//!
//! The original caps the result below the time left and puts a floor under it; here
//! those are the shared clamps of [`crate::time::budget::finish`] (soft ≤ 25 % of the
//! usable clock, hard ≤ 50 %, a minimum think time), so this file is only the formula.
//!
//! Source: the Mediocre chess engine (Jonatan Pettersson, 2007), whose time management
//! guide popularised `timeLeft/40 + increment/2`; the 3/4 variant and the example
//! "180 s with a 2 s increment → 180/40 + 3·2/4 = 6 s" are from Kade, "An introduction
//! to time management", <https://typ.dev/time-management>.

use super::{finite_or, fmt_ms, Inputs, Plan, Param, Strategy, Style};

/// Assumed moves left when no `movestogo` is given.
pub const MOVES: f64 = 40.0;
/// Mediocre's share of the increment.
pub const MEDIOCRE_INC_FRACTION: f64 = 0.5;
/// The common variant.
pub const THREE_QUARTERS_INC_FRACTION: f64 = 0.75;

pub fn plan(inputs: &Inputs, inc_fraction: f64) -> Plan {
    let fraction = finite_or(inc_fraction, MEDIOCRE_INC_FRACTION).clamp(0.0, 1.0);
    let moves = inputs.moves_left(MOVES);
    let soft = inputs.usable_ms / moves + fraction * inputs.increment_ms;
    Plan {
        soft_ms: soft,
        hard_ms: None,
        note: format!(
            "t/{moves:.0} + inc·{fraction:.2} = {} + {} = {}",
            fmt_ms(inputs.usable_ms / moves),
            fmt_ms(fraction * inputs.increment_ms),
            fmt_ms(soft)
        ),
    }
}

/// time/40 + a share of the increment (see the module doc).
#[derive(Clone, Debug)]
pub struct Classic {
    /// Share of the increment added to time/40 (Mediocre: 1/2; variant 3/4).
    pub inc_fraction: f64,
}

impl Default for Classic {
    fn default() -> Classic {
        Classic {
            inc_fraction: MEDIOCRE_INC_FRACTION,
        }
    }
}

/// The UCI option that sets [`Classic::inc_fraction`], in percent.
pub const INC_PERCENT_OPTION: &str = "Classic Increment %";

impl Strategy for Classic {
    fn name(&self) -> &'static str {
        "classic"
    }
    fn style(&self) -> Style {
        Style {
            symbol: 'C',
            colour: "#D55E00",
            dash: "16 5 4 5",
        }
    }
    fn plan(&self, inputs: &Inputs) -> Plan {
        plan(inputs, self.inc_fraction)
    }
    fn params(&self) -> Vec<Param> {
        vec![Param {
            name: INC_PERCENT_OPTION,
            default: 50,
            min: 0,
            max: 100,
        }]
    }
    fn set_param(&mut self, name: &str, value: i64) -> bool {
        if name.eq_ignore_ascii_case(INC_PERCENT_OPTION) {
            self.inc_fraction = value as f64 / 100.0;
            return true;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::{allocate, Clock, Game, Settings, SOFT_STOP_ALLOWANCE};

    fn clock(t: i64, inc: i64, mtg: Option<u32>) -> Clock {
        Clock {
            time_left_ms: t,
            increment_ms: inc,
            moves_to_go: mtg,
            overhead_ms: 0,
        }
    }

    #[test]
    fn sources_example_three_quarters() {
        let inputs = Inputs::new(&clock(180_000, 2000, None), &Game::default());
        let p = plan(&inputs, THREE_QUARTERS_INC_FRACTION);
        assert!((p.soft_ms - 6000.0).abs() < 1e-9);
        // The soft-stop allowance scales it; the shared clamps leave it alone.
        let mut s = Settings::with_strategy("classic").expect("classic is registered");
        assert!(s.set_param(INC_PERCENT_OPTION, 75));
        let b = allocate(&s, &clock(180_000, 2000, None), &Game::default());
        assert_eq!(b.soft_ms, (6000.0 * SOFT_STOP_ALLOWANCE) as u64);
        assert!(b.why.ends_with("clamps: none"), "{}", b.why);
    }

    #[test]
    fn mediocre_half_increment() {
        let inputs = Inputs::new(&clock(180_000, 2000, None), &Game::default());
        assert!((plan(&inputs, MEDIOCRE_INC_FRACTION).soft_ms - 5500.0).abs() < 1e-9);
        // A nonsense fraction falls back to 1/2.
        assert!((plan(&inputs, f64::NAN).soft_ms - 5500.0).abs() < 1e-9);
    }

    #[test]
    fn movestogo_shortens_the_horizon() {
        let inputs = Inputs::new(&clock(100_000, 0, Some(10)), &Game::default());
        assert!((plan(&inputs, 0.5).soft_ms - 10_000.0).abs() < 1e-9);
    }
}
