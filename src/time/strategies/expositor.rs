//! `expositor` (the default): divide the clock by the expected number of moves left.
//!
//! Idea: a game that has lasted k plies is expected to last REM(k) more plies, so we have
//! REM(k)/2 more moves to make. Keep back one increment, share the rest equally among
//! those moves and add the increment back: `budget = (t − inc) / (REM/2) + inc`.
//!
//! REM is Thomas Ahle's fit of the expected remaining game length to a log-normal model
//! of game lengths, k = plies played:
//!
//! ```text
//! REM(k) = 59.3 + (72830 − 2330·k) / (k² + 10·k + 2644)
//! ```
//!
//! REM(0) ≈ 86.8 plies; it dips to about 47.5 plies near k = 100 and creeps back towards
//! 59.3 for very long games, so it never needs a floor.
//!
//! Source: Kade (author of the Expositor engine), "An introduction to time management",
//! <https://typ.dev/time-management>, section "Base Value", which quotes Ahle's fit and
//! the `(t − inc)/moves + inc` split. The exact log-normal version of the same idea is in
//! [`super::lognormal`]. With `movestogo m`, moves left = m (see the module doc).

use super::{fmt_ms, spread, Inputs, Plan, Strategy, Style};

/// Ahle's fit: expected plies remaining after `plies_played` plies.
pub fn expected_plies_remaining(plies_played: u32) -> f64 {
    let k = f64::from(plies_played);
    59.3 + (72830.0 - 2330.0 * k) / (k * k + 10.0 * k + 2644.0)
}

pub fn plan(inputs: &Inputs) -> Plan {
    let rem = expected_plies_remaining(inputs.plies_played);
    let moves = inputs.moves_left(rem / 2.0);
    let soft = spread(inputs.usable_ms, inputs.increment_ms, moves);
    Plan {
        soft_ms: soft,
        hard_ms: None,
        note: format!(
            "REM({})={rem:.1} plies → {moves:.1} moves left; (t−inc)/{moves:.1}+inc = {}",
            inputs.plies_played,
            fmt_ms(soft)
        ),
    }
}

/// The default strategy (see the module doc).
#[derive(Clone, Debug, Default)]
pub struct Expositor;

impl Strategy for Expositor {
    fn name(&self) -> &'static str {
        "expositor"
    }
    fn style(&self) -> Style {
        Style {
            symbol: 'E',
            colour: "#0072B2",
            dash: "",
        }
    }
    fn plan(&self, inputs: &Inputs) -> Plan {
        plan(inputs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::{Clock, Game};

    #[test]
    fn rem_zero_is_the_sources_86_8() {
        assert!((expected_plies_remaining(0) - 86.8).abs() < 0.05);
        // 59.3 + 72830/2644 = 86.845…
        assert!((expected_plies_remaining(0) - 86.845_386).abs() < 1e-5);
    }

    #[test]
    fn rem_shape() {
        // Falls to about 47.5 plies around k = 100, then creeps back towards 59.3.
        assert!((expected_plies_remaining(100) - 47.56).abs() < 0.01);
        assert!(expected_plies_remaining(u32::MAX) < 59.3);
        assert!(expected_plies_remaining(u32::MAX) > 59.2);
        for k in 0..2000 {
            assert!(expected_plies_remaining(k) > 47.0);
        }
    }

    #[test]
    fn budget_formula() {
        let c = Clock {
            time_left_ms: 300_000,
            increment_ms: 3000,
            moves_to_go: None,
            overhead_ms: 0,
        };
        let p = plan(&Inputs::new(&c, &Game::default()));
        let moves = expected_plies_remaining(0) / 2.0;
        assert!((p.soft_ms - ((300_000.0 - 3000.0) / moves + 3000.0)).abs() < 1e-6);
        assert!(
            p.note.starts_with("REM(0)=86.8 plies → 43.4 moves left"),
            "{}",
            p.note
        );
        // movestogo limits the moves left.
        let c = Clock {
            moves_to_go: Some(10),
            ..c
        };
        let p = plan(&Inputs::new(&c, &Game::default()));
        assert!((p.soft_ms - (297_000.0 / 10.0 + 3000.0)).abs() < 1e-6);
    }
}
