//! The time manager's settings across a game: which strategy allocates, every strategy with
//! its own parameters and state, the Slow Mover factor, the Move Overhead and whether the
//! GUI lets us ponder; and [`allocate`], which turns a clock into a [`Budget`] with them.

use super::budget::{finish, Budget};
use super::inputs::{Clock, Game, Inputs, DEFAULT_MOVE_OVERHEAD_MS};
use super::strategies::{self, Param, Plan, Strategy};

/// Every strategy is kept (not only the selected one), so that a parameter set while another
/// strategy is selected is not lost, and a stateful strategy keeps learning from every move.
#[derive(Clone, Debug)]
pub struct Settings {
    strategies: Vec<Box<dyn Strategy>>,
    active: usize,
    /// Multiplies every strategy's soft budget before the clamps (Lc0 "slowmover",
    /// old Stockfish "Slow Mover" / 100). 1.0 = as the strategy says.
    pub slow_mover: f64,
    /// The engine's "Move Overhead" option, in ms.
    pub move_overhead_ms: i64,
    /// The engine's "Ponder" option: the soft budget gets [`PONDER_BONUS`].
    pub ponder: bool,
}

/// With pondering on, the soft budget is × this (Stockfish `src/timeman.cpp`,
/// `if (options["Ponder"]) optimumTime += optimumTime / 4;`).
///
/// Why: time spent pondering counts towards the soft limit (not the hard one) once the
/// opponent plays the expected move (see `crate::time`, "Pondering"), so a ponder hit often
/// ends the move at once and saves our clock; the bonus spends some of those savings on the
/// moves that were not a hit. The hard limit gets no bonus.
pub const PONDER_BONUS: f64 = 1.25;

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            strategies: strategies::all(),
            active: 0,
            slow_mover: 1.0,
            move_overhead_ms: DEFAULT_MOVE_OVERHEAD_MS,
            ponder: false,
        }
    }
}

impl Settings {
    /// Default settings with the strategy called `name` (case-insensitive).
    pub fn with_strategy(name: &str) -> Result<Settings, String> {
        let mut s = Settings::default();
        s.select(name)?;
        Ok(s)
    }

    /// Default settings for each strategy, in menu order.
    pub fn each_strategy() -> Vec<Settings> {
        (0..strategies::all().len())
            .map(|active| Settings {
                active,
                ..Settings::default()
            })
            .collect()
    }

    /// Every strategy's name, in menu order (the first is the default).
    pub fn names() -> Vec<&'static str> {
        strategies::all().iter().map(|s| s.name()).collect()
    }

    /// Select the strategy called `name` (case-insensitive; spaces around it are ignored).
    pub fn select(&mut self, name: &str) -> Result<(), String> {
        let wanted = name.trim();
        match self
            .strategies
            .iter()
            .position(|s| s.name().eq_ignore_ascii_case(wanted))
        {
            Some(i) => {
                self.active = i;
                Ok(())
            }
            None => Err(format!(
                "unknown time strategy '{wanted}' (expected one of: {})",
                Settings::names().join(", ")
            )),
        }
    }

    /// The selected strategy.
    pub fn strategy(&self) -> &dyn Strategy {
        self.strategies[self.active].as_ref()
    }

    /// The UCI options of every strategy's parameters.
    pub fn params() -> Vec<Param> {
        strategies::all().iter().flat_map(|s| s.params()).collect()
    }

    /// Set a strategy parameter by its option name; false if no strategy owns it.
    pub fn set_param(&mut self, name: &str, value: i64) -> bool {
        let mut found = false;
        for s in &mut self.strategies {
            found |= s.set_param(name, value);
        }
        found
    }

    /// A move of this game is finished: every strategy may learn from it.
    pub fn record(&mut self, spent_ms: u64, soft_budget_ms: u64) {
        for s in &mut self.strategies {
            s.record(spent_ms, soft_budget_ms);
        }
    }

    /// A new game starts: forget what the last one taught.
    pub fn new_game(&mut self) {
        for s in &mut self.strategies {
            s.new_game();
        }
    }
}

/// The budget for the next move. Pure and total: never panics, whatever the input.
///
/// The pipeline: [`Inputs::new`] sanitises the clock and reserves the overhead; the selected
/// strategy plans an average move (and may set its own hard limit); its soft-stop allowance,
/// Slow Mover and the ponder bonus scale the soft plan; [`finish`] applies the shared clamps.
pub fn allocate(settings: &Settings, clock: &Clock, game: &Game) -> Budget {
    let inputs = Inputs::new(clock, game);
    let strategy = settings.strategy();
    let plan = strategy.plan(&inputs);
    let slow = settings.slow_mover;
    let slow = if slow.is_finite() && slow > 0.0 {
        slow.min(100.0)
    } else {
        1.0
    };
    let allowance = strategy.soft_stop_allowance();
    let ponder = if settings.ponder { PONDER_BONUS } else { 1.0 };
    let mut note = plan.note;
    if allowance != 1.0 {
        note.push_str(&format!(" ×soft-stop allowance {allowance:.2}"));
    }
    if slow != 1.0 {
        note.push_str(&format!(" ×slow-mover {slow:.2}"));
    }
    if ponder != 1.0 {
        note.push_str(&format!(" ×ponder {ponder:.2}"));
    }
    finish(
        strategy.name(),
        Plan {
            soft_ms: plan.soft_ms * allowance * slow * ponder,
            hard_ms: plan.hard_ms,
            note,
        },
        &inputs,
    )
}
