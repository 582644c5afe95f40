//! `material`: moves left from the ply *and* the material on the board.
//!
//! Idea: games with lots of material still on the board have a long way to go, whatever
//! the move number. A linear fit to TCEC games (season 19 on, 30–120 moves long) gives
//!
//! ```text
//! plies remaining ≈ 29 − 0.2·ply + 3·men      (men = pieces and pawns, kings excluded)
//! ```
//!
//! with a coefficient of determination of about 0.48 and a mean absolute deviation of
//! about 27 plies — rough, but it reacts to early simplification. Our `Game::men` counts
//! the kings too, so we subtract 2. The estimate can go to zero or below late in a game,
//! so moves left is floored as the source does: at least 24 moves without increment, 8
//! with one (an increment counts if it exceeds 10 ms + the overhead). Then, like the
//! source: no increment → `t / moves`; increment → `(t − inc)/moves + inc`.
//! With `movestogo m`, moves left = m, as in the source.
//!
//! Source: the Expositor engine (Kade), `src/limits.rs`, `linear_model` and
//! `calculate_limits`, <https://github.com/expo-dev/expositor>.

use super::{fmt_ms, spread, Inputs, Plan, Strategy, Style};

/// Floor on moves left without an increment.
pub const MIN_MOVES_NO_INC: f64 = 24.0;
/// Floor on moves left with an increment.
pub const MIN_MOVES_WITH_INC: f64 = 8.0;
/// An increment at or below this (plus the overhead) counts as none.
pub const NEGLIGIBLE_INC_MS: f64 = 10.0;

/// Expositor's linear model; `men` counts kings, as `Game::men` does.
pub fn expected_plies_remaining(plies_played: u32, men: u32) -> f64 {
    let without_kings = f64::from(men.saturating_sub(2));
    29.0 - 0.2 * f64::from(plies_played) + 3.0 * without_kings
}

pub fn plan(inputs: &Inputs) -> Plan {
    let rem = expected_plies_remaining(inputs.plies_played, inputs.men);
    let no_inc = inputs.increment_ms <= NEGLIGIBLE_INC_MS + inputs.overhead_ms;
    let floor = if no_inc {
        MIN_MOVES_NO_INC
    } else {
        MIN_MOVES_WITH_INC
    };
    let moves = inputs.moves_left((rem / 2.0).max(floor));
    let (soft, how) = if no_inc {
        (inputs.usable_ms / moves, "t")
    } else {
        (
            spread(inputs.usable_ms, inputs.increment_ms, moves),
            "(t−inc)",
        )
    };
    Plan {
        soft_ms: soft,
        hard_ms: None,
        note: format!(
            "29−0.2·{}+3·{} = {rem:.0} plies → {moves:.1} moves left; {how}/{moves:.1}{} = {}",
            inputs.plies_played,
            inputs.men.saturating_sub(2),
            if no_inc { "" } else { "+inc" },
            fmt_ms(soft)
        ),
    }
}

/// Moves left from ply and material (see the module doc).
#[derive(Clone, Debug, Default)]
pub struct Material;

impl Strategy for Material {
    fn name(&self) -> &'static str {
        "material"
    }
    fn style(&self) -> Style {
        Style {
            symbol: 'M',
            colour: "#000000",
            dash: "4 4 12 4",
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
    fn linear_model() {
        // Start: 29 + 3·30 = 119 plies.
        assert!((expected_plies_remaining(0, 32) - 119.0).abs() < 1e-12);
        // Move 40 (ply 80) with 20 men: 29 − 16 + 54 = 67.
        assert!((expected_plies_remaining(80, 20) - 67.0).abs() < 1e-12);
        // Bare kings: no underflow.
        assert!((expected_plies_remaining(0, 0) - 29.0).abs() < 1e-12);
    }

    #[test]
    fn floors() {
        let game = Game {
            plies_played: 200,
            men: 4,
        };
        let c = Clock {
            time_left_ms: 24_000,
            increment_ms: 0,
            moves_to_go: None,
            overhead_ms: 0,
        };
        assert!((plan(&Inputs::new(&c, &game)).soft_ms - 1000.0).abs() < 1e-9);
        let c = Clock {
            increment_ms: 1000,
            ..c
        };
        assert!((plan(&Inputs::new(&c, &game)).soft_ms - (23_000.0 / 8.0 + 1000.0)).abs() < 1e-9);
    }
}
