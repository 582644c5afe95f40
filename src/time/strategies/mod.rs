//! The base-budget strategies: how long should an average move take?
//!
//! Each strategy lives in one file of this folder, cites its source, and owns everything that
//! is only its own: its parameters (and the UCI options that set them), its state across the
//! moves of a game, and how the classroom plots draw it. The rest of the time manager, the
//! clamps and the soft and hard stop, is shared (see the parent module).
//!
//! # Adding a strategy
//!
//! Write `strategies/<name>.rs` with a type that implements [`Strategy`] and `Default`, then
//! add `<name>::<Type>` to the one `registry!` line at the end of this file. The
//! `TimeManager` option, `sandglass tm --strategy all` and the tests of every strategy's
//! invariants pick it up from there.

use super::budget::SOFT_STOP_ALLOWANCE;
pub use super::plan::Plan;
use super::{finite_or, fmt_ms, Inputs, HARD_FACTOR, LAST_MOVE_SHARE};
use std::fmt;

/// How the classroom plots draw a strategy: a letter for the terminal chart, a colour from
/// the Okabe–Ito palette (safe for colour-blind readers) and an SVG dash pattern, so that no
/// two strategies are told apart by colour alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Style {
    pub symbol: char,
    pub colour: &'static str,
    /// SVG `stroke-dasharray`; empty for a solid line.
    pub dash: &'static str,
}

/// A UCI option that sets one of a strategy's parameters (an integer spin).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Param {
    pub name: &'static str,
    pub default: i64,
    pub min: i64,
    pub max: i64,
}

/// A base-budget strategy.
pub trait Strategy: StrategyClone + fmt::Debug + Send + Sync {
    /// The lower-case name used by the `TimeManager` option, the `tm` tool and `why`.
    fn name(&self) -> &'static str;
    /// How the plots draw it.
    fn style(&self) -> Style;
    /// How long an average move should take now.
    fn plan(&self, inputs: &Inputs) -> Plan;
    /// The soft limit is the plan × this (see [`SOFT_STOP_ALLOWANCE`]). A strategy that
    /// measures its own time use and corrects for it returns 1.
    fn soft_stop_allowance(&self) -> f64 {
        SOFT_STOP_ALLOWANCE
    }
    /// Learn from a finished move that took `spent_ms` of a `soft_budget_ms` budget.
    fn record(&mut self, _spent_ms: u64, _soft_budget_ms: u64) {}
    /// Forget what was learnt in the last game.
    fn new_game(&mut self) {}
    /// The UCI options of this strategy's parameters.
    fn params(&self) -> Vec<Param> {
        Vec::new()
    }
    /// Set the parameter of option `name` (already checked against its range). False if the
    /// option is not this strategy's.
    fn set_param(&mut self, _name: &str, _value: i64) -> bool {
        false
    }
}

/// Lets a `Box<dyn Strategy>` be cloned (the engine copies its options when one changes).
pub trait StrategyClone {
    fn clone_box(&self) -> Box<dyn Strategy>;
}

impl<T: Strategy + Clone + 'static> StrategyClone for T {
    fn clone_box(&self) -> Box<dyn Strategy> {
        Box::new(self.clone())
    }
}

impl Clone for Box<dyn Strategy> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// The increment-aware split used by several strategies: keep back one increment, spread
/// the rest over `moves` moves, add the increment back: `(t − inc)/moves + inc`.
pub fn spread(usable_ms: f64, increment_ms: f64, moves: f64) -> f64 {
    let moves = finite_or(moves, 1.0).max(1.0);
    (usable_ms - increment_ms) / moves + increment_ms
}

/// Declares the strategy modules and lists them, in menu order, in [`all`].
macro_rules! registry {
    ($($module:ident :: $strategy:ident),* $(,)?) => {
        $(pub mod $module;)*

        /// A fresh instance of every strategy, in menu order (the first is the default).
        pub fn all() -> Vec<Box<dyn Strategy>> {
            vec![$(Box::new($module::$strategy::default())),*]
        }
    };
}

registry!(
    expositor::Expositor,
    lognormal::LogNormal,
    geometric::Geometric,
    classic::Classic,
    curve::Curve,
    smooth::Smooth,
    material::Material,
    stockfish::Stockfish,
);

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// WCAG 2 contrast ratio of an `#rrggbb` colour against white.
    fn contrast_on_white(colour: &str) -> f64 {
        let channel = |i: usize| {
            let c = u8::from_str_radix(&colour[i..i + 2], 16).unwrap_or(255) as f64 / 255.0;
            if c <= 0.03928 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        let l = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
        1.05 / (l + 0.05)
    }

    #[test]
    fn every_line_stands_out_on_white() {
        // Okabe–Ito's yellow (#F0E442) is 1.3:1 on white and nearly vanished as a thin
        // dash-dot line; every strategy's colour must reach at least 2:1 (the palette's
        // orange and sky blue are 2.2–2.3:1).
        assert!(contrast_on_white("#F0E442") < 1.5);
        for s in all() {
            let c = contrast_on_white(s.style().colour);
            assert!(
                c >= 2.0,
                "{}: {} is {c:.2}:1 on white",
                s.name(),
                s.style().colour
            );
        }
    }

    #[test]
    fn every_strategy_has_its_own_name_symbol_and_look() {
        let all = all();
        assert_eq!(all[0].name(), "expositor", "the default comes first");
        let names: HashSet<_> = all.iter().map(|s| s.name()).collect();
        let symbols: HashSet<_> = all.iter().map(|s| s.style().symbol).collect();
        let looks: HashSet<_> = all
            .iter()
            .map(|s| (s.style().colour, s.style().dash))
            .collect();
        assert_eq!(names.len(), all.len());
        assert_eq!(symbols.len(), all.len());
        assert_eq!(looks.len(), all.len());
        for s in &all {
            assert_eq!(s.name(), s.name().to_lowercase());
        }
    }
}
