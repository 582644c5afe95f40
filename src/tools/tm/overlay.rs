//! What a strategy would have planned at each move of a real game, given the clock the
//! player really had. This file holds the tool's only call of [`crate::time::allocate`] for
//! recorded games, so a change of its signature touches one place.

use super::clocks::{MoveTime, PlayerRecord};
use super::men_schedule;
use crate::time::{allocate, Budget, Clock, Game, History, Settings};

/// The budget `settings` would give before move `m`, with `history` of the moves so far.
pub fn plan(settings: &Settings, m: &MoveTime, history: &History, overhead_ms: i64) -> Budget {
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
        history,
    )
}

/// One budget per recorded move of `player`. The history fed to the strategy is what the
/// player really spent against what the strategy planned (only `smooth` reads it).
pub fn overlay(settings: &Settings, player: &PlayerRecord, overhead_ms: i64) -> Vec<Budget> {
    let mut history = History::new();
    player
        .moves
        .iter()
        .map(|m| {
            let budget = plan(settings, m, &history, overhead_ms);
            history.record(u64::try_from(m.spent_ms).unwrap_or(0), budget.soft_ms);
            budget
        })
        .collect()
}
