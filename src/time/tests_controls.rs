//! Every strategy at the controls where rating lists and testers play (issue 41): 40/2 and
//! 40/15 repeating, 1+0.01, 2+1 and 10+0.1, each played out over a whole game with the
//! pure functions of this module: the clock the GUI would send, the budget, and the spend
//! the soft stop leads to on average ([`EXPECTED_SOFT_USE`] of soft, never beyond hard),
//! with the refill after every 40 moves at repeating controls.

use super::*;

/// One control: base, increment, moves per period (None: one period for the game).
#[derive(Clone, Copy, Debug)]
struct Control {
    name: &'static str,
    base_ms: f64,
    increment_ms: f64,
    moves: Option<u32>,
}

const CONTROLS: [Control; 5] = [
    Control {
        name: "40/2",
        base_ms: 2000.0,
        increment_ms: 0.0,
        moves: Some(40),
    },
    Control {
        name: "40/15",
        base_ms: 900_000.0,
        increment_ms: 0.0,
        moves: Some(40),
    },
    Control {
        name: "1+0.01",
        base_ms: 1000.0,
        increment_ms: 10.0,
        moves: None,
    },
    Control {
        name: "2+1",
        base_ms: 2000.0,
        increment_ms: 1000.0,
        moves: None,
    },
    Control {
        name: "10+0.1",
        base_ms: 10_000.0,
        increment_ms: 100.0,
        moves: None,
    },
];

/// Our moves in the simulated game: two periods and a half at 40 moves.
const MOVES: u32 = 100;

/// One move of a simulated game.
#[derive(Clone, Debug)]
struct Move {
    number: u32,
    clock_ms: f64,
    moves_to_go: Option<u32>,
    /// What the strategy means to spend: its plan × its soft-stop allowance × the expected
    /// use of soft (for all but `smooth`, exactly the plan `TimeLog` shows).
    plan_ms: f64,
    budget: Budget,
    /// What the soft stop then spends on average.
    spend_ms: f64,
}

/// Plays `MOVES` moves of `control` with every move costing its expected spend plus `lag`.
fn play(settings: &mut Settings, control: &Control, lag_ms: f64) -> Vec<Move> {
    let mut clock = control.base_ms;
    let mut moves = Vec::new();
    for k in 0..MOVES {
        let moves_to_go = control.moves.map(|m| m - k % m);
        let c = Clock {
            time_left_ms: clock.floor() as i64,
            increment_ms: control.increment_ms as i64,
            moves_to_go,
            overhead_ms: settings.move_overhead_ms,
        };
        let game = Game {
            plies_played: 2 * k,
            men: 32u32.saturating_sub(k / 3).max(6),
        };
        let strategy = settings.strategy();
        let plan = strategy.plan(&Inputs::new(&c, &game));
        let plan_ms = plan.soft_ms * strategy.soft_stop_allowance() * EXPECTED_SOFT_USE;
        let budget = allocate(settings, &c, &game);
        let spend_ms = (budget.soft_ms as f64 * EXPECTED_SOFT_USE).min(budget.hard_ms as f64);
        moves.push(Move {
            number: k + 1,
            clock_ms: clock,
            moves_to_go,
            plan_ms,
            budget: budget.clone(),
            spend_ms,
        });
        settings.record(spend_ms as u64, budget.soft_ms);
        clock += control.increment_ms - spend_ms - lag_ms;
        if moves_to_go == Some(1) {
            clock += control.base_ms;
        }
    }
    moves
}

/// The clock left just before each refill of a repeating control.
fn left_at_refills(control: &Control, game: &[Move]) -> Vec<f64> {
    game.iter()
        .filter(|m| m.moves_to_go == Some(1))
        .map(|m| m.clock_ms + control.increment_ms - m.spend_ms)
        .collect()
}

#[test]
fn every_strategy_plans_a_sane_budget_at_every_control() {
    for control in &CONTROLS {
        for mut settings in Settings::each_strategy() {
            let name = settings.strategy().name();
            let game = play(&mut settings, control, 0.0);
            for m in &game {
                let at = format!("{name} at {} move {}: {m:?}", control.name, m.number);
                assert!(m.clock_ms > 0.0, "flag: {at}");
                if m.clock_ms >= 1000.0 {
                    // None below a few ms while the clock holds seconds.
                    assert!(m.plan_ms >= 5.0 && m.spend_ms >= 5.0, "starved: {at}");
                }
                // The plan is what the move will spend, within a factor of 1.5…
                let ratio = m.spend_ms / m.plan_ms;
                let honest = (1.0 / 1.5..=1.5).contains(&ratio);
                // …or a clamp moved soft, and `why` says what the move will spend instead.
                let reported = format!("expected spend {}", fmt_ms(m.spend_ms));
                assert!(
                    honest || m.budget.why.ends_with(&reported),
                    "{ratio:.2}: {at}"
                );
            }
            // At a repeating control the period is spent, not half of it: the clock left
            // at each refill is at most a tenth of the period (the baseline's per-move overhead
            // reserve left more than half of it in this simulation).
            for left in left_at_refills(control, &game) {
                assert!(
                    left <= 0.1 * control.base_ms,
                    "{name} at {}: {left}",
                    control.name
                );
            }
        }
    }
}

#[test]
fn with_the_round_trip_the_reserve_assumes_no_clock_falls_below_the_overhead() {
    // Every move also loses ROUND_TRIP_MS to the GUI: the lowest clock after any move
    // still holds the Move Overhead, at every control, with every strategy.
    for control in &CONTROLS {
        for mut settings in Settings::each_strategy() {
            let name = settings.strategy().name();
            let overhead = settings.move_overhead_ms as f64;
            let game = play(&mut settings, control, ROUND_TRIP_MS);
            let lowest = game
                .iter()
                .map(|m| m.clock_ms + control.increment_ms - m.spend_ms - ROUND_TRIP_MS)
                .fold(f64::INFINITY, f64::min);
            assert!(lowest >= overhead, "{name} at {}: {lowest}", control.name);
        }
    }
}

/// Under `movestogo` no rule meant for sudden death may act: the horizon is the moves to go,
/// whatever the clock. Such a rule shows as a budget that stops scaling with the clock, e.g.
/// Stockfish's horizon shrink below one second, which under `movestogo 3` plans for 45
/// moves at 900 ms but for 3 at 3.6 s. So with no overhead to keep (a fixed reserve would
/// not scale), each strategy's share of the clock must be the same at t and 4t, below a
/// second and above it, at every point of a period.
#[test]
fn no_sudden_death_rule_under_movestogo() {
    for settings in Settings::each_strategy() {
        let name = settings.strategy().name();
        for moves_to_go in [1, 2, 3, 5, 10, 25, 40] {
            for t in [250, 500, 900] {
                let share = |t: i64| {
                    let c = Clock {
                        time_left_ms: t,
                        increment_ms: 0,
                        moves_to_go: Some(moves_to_go),
                        overhead_ms: 0,
                    };
                    let game = Game {
                        plies_played: 60,
                        men: 24,
                    };
                    let b = allocate(&settings, &c, &game);
                    (b.soft_ms as f64 / t as f64, b)
                };
                let ((small, b1), (large, b4)) = (share(t), share(4 * t));
                let ratio = small / large;
                assert!(
                    (0.8..=1.25).contains(&ratio),
                    "{name}, movestogo {moves_to_go}: {b1} at {t} ms vs {b4} at {} ms",
                    4 * t
                );
            }
        }
    }
}
