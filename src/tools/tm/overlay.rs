//! What a strategy would have planned at each move of a real game, given the clock the
//! player really had. This file holds the tool's only call of [`crate::time::allocate`] for
//! recorded games, so a change of its signature touches one place.

use super::clocks::{MoveTime, PlayerRecord};
use super::men_schedule;
use crate::time::{allocate, Budget, Clock, Game, Settings};

/// The budget `settings` (with what its strategy learnt from the moves so far) would give
/// before move `m`.
pub fn plan(settings: &Settings, m: &MoveTime, overhead_ms: i64) -> Budget {
    // Without a replayable game score, fall back to the simulation's men schedule.
    let men = m.men.unwrap_or_else(|| men_schedule(m.ply, m.ply.max(160)));
    allocate(
        settings,
        &Clock {
            time_left_ms: m.clock_before_ms,
            increment_ms: m.increment_ms,
            moves_to_go: m.moves_to_go,
            overhead_ms,
        },
        &Game {
            plies_played: m.ply,
            men,
        },
    )
}

/// One budget per recorded move of `player`. A strategy that learns is told what the player
/// really spent against what the strategy planned (only `smooth` learns).
pub fn overlay(settings: &Settings, player: &PlayerRecord, overhead_ms: i64) -> Vec<Budget> {
    let mut settings = settings.clone();
    settings.new_game();
    player
        .moves
        .iter()
        .map(|m| {
            let budget = plan(&settings, m, overhead_ms);
            settings.record(u64::try_from(m.spent_ms).unwrap_or(0), budget.soft_ms);
            budget
        })
        .collect()
}
