//! The soft stop: may the iterative-deepening loop start depth d+1? (The parent module
//! explains where it sits between allocation and the hard stop.)
//!
//! An iteration that the hard stop cuts off is mostly wasted, and one not started leaves
//! time unused, so the question is how long the next iteration will take. Two rules, chosen
//! with the `Soft Stop` option:
//!
//! * `2x` (the default, the classroom rule): the next depth costs F times the last one,
//!   F = `Soft Stop Factor` / 100 (default [`NEXT_DEPTH_FACTOR`] = 2). Stop when
//!   `elapsed + F × last ≥ soft`.
//! * `predicted`: predict when the next depth would end from how the time to reach each
//!   depth has been growing in *this* search. With T the time to complete the current depth
//!   (cumulative, since `go`) and r the ratios T(d)/T(d−1) of the last four depths, drop the
//!   ratio farthest from their mean and take the geometric mean G of the other three; the
//!   next depth should end at E = T·G. Then, with target S = the soft limit:
//!
//!   ```text
//!   T ≥ S                          → stop (the soft limit is spent)
//!   E > hard and best move stable  → stop (the next depth would be cut off)
//!   E − S > S − T                  → stop (the predicted overshoot past S exceeds the
//!                                          undershoot of stopping now)
//!   ```
//!
//!   The last line stops whenever the next depth would end nearer to `S + (S − T)` than to
//!   the time left unused: on average the spend then centres on S. The ratios start at 1.5
//!   and are read from depth [`PREDICT_MIN_DEPTH`] on (shallower iterations take
//!   microseconds and their ratios are noise); before it only `T ≥ S` applies.
//!
//!   Source: Expositor (Kade), `src/search.rs`, iterative deepening "Part 3. Check time
//!   management" (`time_ratios`, "Remove the outlier", "Take the geometric mean",
//!   `overshoot > undershoot`), expo-dev/expositor commit a4afc62f119c83b4a0f8cf099eca06a54727d9c6;
//!   the same estimator drives its node-limited search in `src/datagen.rs`.
//!
//! * `learned` (issue 88): stop when what the next depth is expected to gain is worth less
//!   than the time it costs. After each iteration from depth [`LEARNED_MIN_DEPTH`], a
//!   logistic model ([`change_probability`], fitted by `tools/searchlog_fit.py` on
//!   `sandglass searchlog` records of Sandglass's own deep searches, docs/searchlog.md) gives
//!   the probability p that the next iteration plays another move, from what the search
//!   knows ([`Signs`]: its nodes, best-move changes and stable run, the best move's node
//!   share, the score's drop and trend, the legal moves, the phase, the score). A change is
//!   worth [`LEARNED_WORTH_CP`] on average, so the next depth is expected to gain
//!   `p × worth` centipawns. It costs F × the last iteration (the `2x` prediction), priced
//!   against the plan (the strategy's expected spend, soft ÷ [`super::SOFT_STOP_ALLOWANCE`]):
//!   spending a whole plan is worth κ centipawns, κ = `Soft Stop Learned Scale`. So:
//!
//!   ```text
//!   p × worth < κ × F × last ÷ plan                   → stop (not worth its time)
//!   elapsed + F × last ≥ min(MAX_SCALE × soft, hard)  → stop (as far as any adjustment reaches)
//!   ```
//!
//!   The model reads what the adjustments read (changes, stability, score drop, node share)
//!   and more, so it takes their place: the rule uses the unadjusted soft limit, and a
//!   single reply moves at once whatever `TM SingleReply` says (the `TM` switches belong to
//!   the adjustments). A decided score (a mate or a tablebase result) is outside what the
//!   model was fitted on (`tools/searchlog_fit.py` leaves mates out, and the log has no
//!   tables): there the rule falls back to the `2x` rule on the unadjusted soft limit,
//!   `elapsed + F × last ≥ soft`.
//!
//! F = 2 is not the measured growth: the time per depth grows about 1.35× on average, but
//! single steps range from 0.3 to 9 (docs/measurements/time-management.md), so the 2x rule is deliberately
//! cautious; `predicted` instead follows the growth actually seen in this search, which
//! is why it needs no factor.

use super::finite_or;

/// Soft-stop factor F of the `2x` rule: the next iteration is assumed to cost F times the last.
pub const NEXT_DEPTH_FACTOR: f64 = 2.0;
/// The `predicted` rule reads growth ratios from this depth on (Expositor's `MINIMUM_DEPTH`).
pub const PREDICT_MIN_DEPTH: u32 = 4;
/// Growth ratio assumed before any is measured (Expositor's initial `time_ratios`).
pub const INITIAL_GROWTH: f64 = 1.5;

/// The `learned` rule decides from this depth on (the model was fitted from depth 4; shallower
/// iterations take microseconds).
pub const LEARNED_MIN_DEPTH: u32 = 4;
/// κ of the `learned` rule by default, in centipawns: what spending a whole plan is worth.
/// Chosen so that, replayed on the held-out logged searches at a plan of 300,000 nodes (about
/// a move's plan at 10+0.1), the rule spends what the `2x` rule with its adjustments spends
/// (κ = 5.04 there, 5.5 at 100,000 nodes; docs/searchlog.md); tuning by games is step 4.
pub const LEARNED_SCALE_CP: f64 = 5.0;
/// What a change of move at the next depth is worth on average where one happens, in
/// centipawns (the fit's mean, docs/searchlog.md).
pub const LEARNED_WORTH_CP: f64 = 38.9;
/// The model's coefficients: the intercept, then one per feature of [`Signs::features`], in
/// that order (`tools/searchlog_fit.py`, target `next`; the fit report is in
/// docs/searchlog.md).
pub const LEARNED_COEFFICIENTS: [f64; 10] = [
    0.21650, -0.03180, 0.18961, -0.13659, -2.56583, 0.17129, 0.00712, -0.13238, 0.52723, 0.02350,
];

/// Which soft-stop rule is in force.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SoftRule {
    /// `elapsed + F × last iteration ≥ soft`, with F the value.
    Factor(f64),
    /// Expositor's prediction from the growth of the time to depth.
    Predicted,
    /// The expected gain of the next depth against its price, with κ in centipawns.
    Learned(f64),
}

/// What the `learned` rule reads of a search after an iteration: the features of
/// `tools/searchlog_fit.py`, as `sandglass searchlog` records them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Signs {
    /// Nodes searched so far (all threads).
    pub nodes: u64,
    /// Best-move changes, decayed as the adjustments read them.
    pub best_move_changes: f64,
    /// Iterations in a row with the same best move.
    pub stable_iterations: u32,
    /// The best move's share of the first line's nodes, 0..=1.
    pub node_share: f64,
    /// The score's drop from the last iteration, in centipawns (positive: falling).
    pub score_drop_cp: i32,
    /// The score's change over the last three iterations, if there were three.
    pub trend3_cp: Option<i32>,
    pub legal_moves: usize,
    /// The evaluation's game phase, 0 (pawns and kings) to 24 (every piece).
    pub phase: i32,
    /// The score, centipawns from the side to move.
    pub score_cp: i32,
    /// The score is a mate or a tablebase result (the search's `score::is_decisive`), which
    /// the model never saw.
    pub decided: bool,
}

impl Signs {
    /// The model's inputs, in the order of [`LEARNED_COEFFICIENTS`] after the intercept,
    /// clamped as `tools/searchlog_fit.py`'s `FEATURES` clamps them.
    pub fn features(&self) -> [f64; 9] {
        let cp = |v: i32| f64::from(v) / 100.0;
        [
            (self.nodes.max(1) as f64).log2(),
            finite_or(self.best_move_changes, 0.0).clamp(0.0, 8.0),
            f64::from(self.stable_iterations.min(12)),
            finite_or(self.node_share, 0.0).clamp(0.0, 1.0),
            cp(self.score_drop_cp).clamp(-3.0, 3.0),
            cp(self.trend3_cp.unwrap_or(0).saturating_abs().min(300)),
            (self.legal_moves.max(1) as f64).ln(),
            f64::from(self.phase.clamp(0, 24)) / 24.0,
            cp(self.score_cp.saturating_abs().min(1000)),
        ]
    }
}

/// The probability that the next iteration plays another move, by the fitted model.
pub fn change_probability(signs: &Signs) -> f64 {
    let [intercept, weights @ ..] = LEARNED_COEFFICIENTS;
    let z = intercept
        + weights
            .iter()
            .zip(signs.features())
            .map(|(w, x)| w * x)
            .sum::<f64>();
    1.0 / (1.0 + (-z).exp())
}

impl Default for SoftRule {
    fn default() -> SoftRule {
        SoftRule::Factor(NEXT_DEPTH_FACTOR)
    }
}

impl SoftRule {
    /// The `Soft Stop` option's names, in menu order (the first is the default).
    pub const NAMES: [&'static str; 3] = ["2x", "predicted", "learned"];

    /// The rule the `Soft Stop`, `Soft Stop Factor` and `Soft Stop Learned Scale` options
    /// select.
    pub fn from_options(
        name: &str,
        factor_percent: i64,
        learned_scale_cp: i64,
    ) -> Result<SoftRule, String> {
        match name.trim().to_ascii_lowercase().as_str() {
            "2x" => Ok(SoftRule::Factor(factor_percent as f64 / 100.0)),
            "predicted" => Ok(SoftRule::Predicted),
            "learned" => Ok(SoftRule::Learned(learned_scale_cp as f64)),
            other => Err(format!("unknown soft stop rule '{other}'")),
        }
    }
}

/// Times to depth seen so far in one search, for the `predicted` rule.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Growth {
    /// The last four ratios T(d)/T(d−1), newest first.
    ratios: [f64; 4],
    previous_ms: f64,
}

impl Default for Growth {
    fn default() -> Growth {
        Growth {
            ratios: [INITIAL_GROWTH; 4],
            previous_ms: 0.0,
        }
    }
}

impl Growth {
    /// Depth `depth` was completed `time_to_depth_ms` after the search started.
    pub fn record(&mut self, depth: u32, time_to_depth_ms: f64) {
        let t = finite_or(time_to_depth_ms, 0.0).max(0.0);
        if depth < PREDICT_MIN_DEPTH {
            return;
        }
        if self.previous_ms > 0.0 {
            self.ratios = [
                t / self.previous_ms,
                self.ratios[0],
                self.ratios[1],
                self.ratios[2],
            ];
        }
        self.previous_ms = t;
    }

    /// The geometric mean of the last four ratios without the one farthest from their
    /// arithmetic mean (the last such one on ties, as in the source).
    pub fn growth(&self) -> f64 {
        let r = self.ratios;
        let mean = r.iter().sum::<f64>() / 4.0;
        let mut outlier = 0;
        for i in 1..4 {
            if (r[i] - mean).abs() >= (r[outlier] - mean).abs() {
                outlier = i;
            }
        }
        let product: f64 = (0..4).filter(|&i| i != outlier).map(|i| r[i]).product();
        finite_or(product.cbrt(), INITIAL_GROWTH)
    }
}

/// What the soft stop looks at after a completed iteration.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Check {
    pub depth: u32,
    /// Time since the search started (pondering included; see the parent module).
    pub elapsed_ms: f64,
    pub last_iteration_ms: f64,
    /// The soft limit after the search-side adjustments.
    pub soft_ms: f64,
    /// The soft limit before them (the `learned` rule's own scale).
    pub base_soft_ms: f64,
    pub hard_ms: f64,
    /// The best move was the same in the last two iterations.
    pub best_move_stable: bool,
    /// What the `learned` rule reads.
    pub signs: Signs,
}

/// The soft stop's answer, and the line `TimeLog` prints for it.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    pub stop: bool,
    pub why: String,
}

/// Should the search stop before the next depth? `growth` must already hold this
/// iteration ([`Growth::record`]).
pub fn decide(rule: SoftRule, growth: &Growth, c: &Check) -> Verdict {
    let (t, s) = (c.elapsed_ms, c.soft_ms);
    match rule {
        SoftRule::Factor(f) => factor_rule(f, t, c.last_iteration_ms, s),
        SoftRule::Learned(kappa) => learned(kappa, c),
        SoftRule::Predicted => {
            if t >= s {
                return Verdict {
                    stop: true,
                    why: format!("rule predicted: elapsed {t:.0} ≥ soft {s:.0} ms"),
                };
            }
            if c.depth < PREDICT_MIN_DEPTH {
                return Verdict {
                    stop: false,
                    why: format!("rule predicted: depth {} too shallow to predict", c.depth),
                };
            }
            let g = growth.growth();
            let estimate = t * g;
            let head = format!("rule predicted: next depth ends ≈ {estimate:.0} ms (×{g:.2})");
            if estimate > c.hard_ms && c.best_move_stable {
                return Verdict {
                    stop: true,
                    why: format!("{head} > hard {:.0} ms, best move stable", c.hard_ms),
                };
            }
            let (over, under) = (estimate - s, s - t);
            Verdict {
                stop: over > under,
                why: format!(
                    "{head}: overshoot {over:.0} {} undershoot {under:.0} of soft {s:.0} ms",
                    if over > under { ">" } else { "≤" }
                ),
            }
        }
    }
}

/// The `2x` rule with factor `f`: stop when `elapsed + f × last ≥ soft`.
fn factor_rule(f: f64, elapsed: f64, last: f64, soft: f64) -> Verdict {
    let f = finite_or(f, NEXT_DEPTH_FACTOR).max(0.0);
    let next = elapsed + f * last;
    Verdict {
        stop: next >= soft,
        why: format!(
            "rule 2x with F = {f:.2}: elapsed {elapsed:.0} + {f:.2} × last {last:.0} = {next:.0} {} soft {soft:.0} ms",
            if next >= soft { "≥" } else { "<" }
        ),
    }
}

/// The `learned` rule (the module doc explains it).
fn learned(kappa: f64, c: &Check) -> Verdict {
    let t = c.elapsed_ms;
    let base = finite_or(c.base_soft_ms, 0.0).max(0.0);
    if c.signs.legal_moves == 1 {
        return Verdict {
            stop: true,
            why: "rule learned: single reply".to_string(),
        };
    }
    if c.depth < LEARNED_MIN_DEPTH {
        return Verdict {
            stop: t >= base,
            why: format!(
                "rule learned: depth {} too shallow to judge; elapsed {t:.0} {} soft {base:.0} ms",
                c.depth,
                if t >= base { "≥" } else { "<" }
            ),
        };
    }
    let last = finite_or(c.last_iteration_ms, 0.0).max(0.0);
    let cost = NEXT_DEPTH_FACTOR * last;
    if c.signs.decided {
        let as_2x = factor_rule(NEXT_DEPTH_FACTOR, t, last, base);
        return Verdict {
            stop: as_2x.stop,
            why: format!(
                "rule learned: a decided score, which the model was not fitted on; as {}",
                as_2x.why
            ),
        };
    }
    let p = change_probability(&c.signs);
    let gain = p * LEARNED_WORTH_CP;
    // As far as the adjustments may scale soft, and like them never past hard.
    let ceiling = (super::adjust::MAX_SCALE * base).min(finite_or(c.hard_ms, base));
    if t + cost >= ceiling {
        return Verdict {
            stop: true,
            why: format!(
                "rule learned: P(move changes) {:.0}%, gain {gain:.1} cp; next depth ends ≈ \
                 {:.0} ≥ {:.0} ms, the most any adjustment allows",
                100.0 * p,
                t + cost,
                ceiling
            ),
        };
    }
    let plan = (base / super::SOFT_STOP_ALLOWANCE).max(1.0);
    let price = finite_or(kappa, LEARNED_SCALE_CP).max(0.0) * cost / plan;
    let stop = gain < price;
    Verdict {
        stop,
        why: format!(
            "rule learned: P(move changes) {:.0}% × {LEARNED_WORTH_CP:.0} cp = {gain:.1} cp {} \
             price {price:.1} cp (κ {kappa:.0} cp × next ≈ {cost:.0} ms ÷ plan {plan:.0} ms)",
            100.0 * p,
            if stop { "<" } else { "≥" }
        ),
    }
}

/// The `2x` rule with F = [`NEXT_DEPTH_FACTOR`]: true when what is left of the soft budget
/// does not cover F × the last iteration, `elapsed + F × last ≥ soft`.
///
/// An earlier rule, `elapsed × F ≥ soft`, assumed every iteration costs as much as all the
/// ones before it together; it stopped early and left a third of the clock unused.
pub fn stop_before_next_depth(elapsed_ms: u64, last_iteration_ms: u64, soft_ms: u64) -> bool {
    elapsed_ms as f64 + last_iteration_ms as f64 * NEXT_DEPTH_FACTOR >= soft_ms as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(depth: u32, elapsed: f64, last: f64, soft: f64, stable: bool) -> Check {
        Check {
            depth,
            elapsed_ms: elapsed,
            last_iteration_ms: last,
            soft_ms: soft,
            base_soft_ms: soft,
            hard_ms: 3.0 * soft,
            best_move_stable: stable,
            signs: Signs {
                legal_moves: 30,
                ..Signs::default()
            },
        }
    }

    #[test]
    fn factor_rule_says_its_factor() {
        let c = check(8, 600.0, 200.0, 1000.0, false);
        let v = decide(SoftRule::Factor(2.0), &Growth::default(), &c);
        assert!(v.stop);
        assert_eq!(
            v.why,
            "rule 2x with F = 2.00: elapsed 600 + 2.00 × last 200 = 1000 ≥ soft 1000 ms"
        );
        assert!(!decide(SoftRule::Factor(1.5), &Growth::default(), &c).stop);
        assert_eq!(
            SoftRule::from_options("2X", 150, 5),
            Ok(SoftRule::Factor(1.5))
        );
        assert_eq!(
            SoftRule::from_options(" predicted", 150, 5),
            Ok(SoftRule::Predicted)
        );
        assert_eq!(
            SoftRule::from_options("Learned", 150, 7),
            Ok(SoftRule::Learned(7.0))
        );
        assert!(SoftRule::from_options("3x", 150, 5).is_err());
    }

    #[test]
    fn growth_drops_the_outlier_like_expositor() {
        // Fresh: all four ratios 1.5, so G = 1.5.
        assert!((Growth::default().growth() - 1.5).abs() < 1e-12);
        let mut g = Growth::default();
        // Shallow depths are not recorded.
        g.record(2, 0.01);
        g.record(3, 0.02);
        assert_eq!(g, Growth::default());
        // Times to depth 4..8: 10, 20, 40, 320, 640 → ratios 2, 2, 8, 2 (newest first:
        // 2, 8, 2, 2). Mean 3.5; 8 is the outlier; G = cbrt(2·2·2) = 2.
        for (d, t) in [(4, 10.0), (5, 20.0), (6, 40.0), (7, 320.0), (8, 640.0)] {
            g.record(d, t);
        }
        assert!((g.growth() - 2.0).abs() < 1e-12);
        // With two ratios measured (2, 3) and two initial (1.5, 1.5): mean 2, and 3 is the
        // farthest; G = cbrt(2·1.5·1.5) = 1.651.
        let mut g = Growth::default();
        for (d, t) in [(4, 10.0), (5, 20.0), (6, 60.0)] {
            g.record(d, t);
        }
        assert!((g.growth() - (2.0_f64 * 1.5 * 1.5).cbrt()).abs() < 1e-12);
        // Ties go to the last index, as in the source's `d >= dev`.
        let g = Growth {
            ratios: [1.0, 3.0, 1.0, 3.0],
            previous_ms: 1.0,
        };
        assert!((g.growth() - 3.0_f64.cbrt()).abs() < 1e-12);
    }

    #[test]
    fn predicted_rule_compares_overshoot_and_undershoot() {
        let g = Growth::default(); // G = 1.5
                                   // T = 300, S = 1000: E = 450 < S, keep going.
        let v = decide(
            SoftRule::Predicted,
            &g,
            &check(9, 300.0, 100.0, 1000.0, false),
        );
        assert!(!v.stop, "{}", v.why);
        // T = 700: E = 1050; overshoot 50 ≤ undershoot 300: keep going (2x would stop).
        let c = check(9, 700.0, 300.0, 1000.0, false);
        assert!(!decide(SoftRule::Predicted, &g, &c).stop);
        assert!(decide(SoftRule::Factor(2.0), &g, &c).stop);
        // T = 820: E = 1230; overshoot 230 > undershoot 180: stop.
        let v = decide(
            SoftRule::Predicted,
            &g,
            &check(9, 820.0, 300.0, 1000.0, false),
        );
        assert!(v.stop);
        assert_eq!(
            v.why,
            "rule predicted: next depth ends ≈ 1230 ms (×1.50): overshoot 230 > undershoot 180 of soft 1000 ms"
        );
        // Soft already spent, at any depth.
        assert!(decide(SoftRule::Predicted, &g, &check(1, 5.0, 5.0, 0.0, false)).stop);
        // Too shallow to predict.
        assert!(
            !decide(
                SoftRule::Predicted,
                &g,
                &check(3, 820.0, 300.0, 1000.0, false)
            )
            .stop
        );
        // Past hard with a stable best move: stop even when the undershoot is larger.
        let c = Check {
            hard_ms: 500.0,
            ..check(9, 400.0, 100.0, 1000.0, true)
        };
        assert!(decide(SoftRule::Predicted, &g, &c).stop);
        let c = Check {
            best_move_stable: false,
            ..c
        };
        assert!(!decide(SoftRule::Predicted, &g, &c).stop);
    }

    /// The model from its coefficients, on features read as `tools/searchlog_fit.py` reads
    /// them (`tools/test_searchlog_fit.py` reads the same row to the same vector).
    #[test]
    fn change_probability_is_the_fitted_logistic() {
        let signs = Signs {
            nodes: 65_536,
            best_move_changes: 1.0,
            stable_iterations: 2,
            node_share: 0.5,
            score_drop_cp: 20,
            trend3_cp: Some(-40),
            legal_moves: 30,
            phase: 12,
            score_cp: -150,
            decided: false,
        };
        let x = [16.0, 1.0, 2.0, 0.5, 0.2, 0.4, 30f64.ln(), 0.5, 1.5];
        assert_eq!(signs.features(), x);
        let z = LEARNED_COEFFICIENTS[0]
            + (0..9)
                .map(|i| LEARNED_COEFFICIENTS[i + 1] * x[i])
                .sum::<f64>();
        assert!((change_probability(&signs) - 1.0 / (1.0 + (-z).exp())).abs() < 1e-12);
        // Clamps: a huge score or trend reads as the largest the fit saw.
        let wild = Signs {
            score_cp: 30_000,
            trend3_cp: Some(i32::MIN),
            node_share: f64::NAN,
            ..signs
        };
        let f = wild.features();
        assert_eq!((f[3], f[5], f[8]), (0.0, 3.0, 10.0));
    }

    #[test]
    fn learned_rule_prices_the_next_depth() {
        let kappa = LEARNED_SCALE_CP;
        // Soft 1430 ms: plan 1000 ms. Depth 9, 300 ms in, last iteration 100 ms: the next
        // costs 200 ms, priced κ × 0.2 = 1 cp.
        let c = check(9, 300.0, 100.0, 1430.0, false);
        let p = change_probability(&c.signs);
        let v = decide(SoftRule::Learned(kappa), &Growth::default(), &c);
        assert_eq!(v.stop, p * LEARNED_WORTH_CP < kappa * 0.2, "{}", v.why);
        // A settled search (many stable iterations, the best move owning the tree) is worth
        // less than an unsettled one, so it stops at a price the unsettled one pays.
        let settled = Signs {
            stable_iterations: 10,
            node_share: 0.95,
            ..c.signs
        };
        let unsettled = Signs {
            best_move_changes: 2.0,
            node_share: 0.2,
            ..c.signs
        };
        assert!(change_probability(&settled) < change_probability(&unsettled));
        let price = |s: Signs| LEARNED_WORTH_CP * change_probability(&s) / 0.2 * 0.999;
        let between = (price(settled) + price(unsettled)) / 2.0;
        let at = |signs| {
            decide(
                SoftRule::Learned(between),
                &Growth::default(),
                &Check { signs, ..c },
            )
        };
        assert!(at(settled).stop);
        assert!(!at(unsettled).stop);
        // The ceiling: never past what the largest adjustment would allow.
        let late = check(9, 3000.0, 300.0, 1430.0, false);
        let v = decide(SoftRule::Learned(0.0), &Growth::default(), &late);
        assert!(v.stop, "{}", v.why);
        assert!(
            v.why.contains("the most any adjustment allows"),
            "{}",
            v.why
        );
        // The rule reads the soft limit before the adjustments, and stops short of hard:
        // base 1430, adjusted 700, hard 2000. At 1000 ms with 300 ms last, the next depth
        // would end at 1600, past the adjusted soft (ignored) but short of the ceiling, 2000
        // (2.5 × 1430 = 3575 capped by hard); at 1500 it would end at 2100, past hard.
        let split = Check {
            soft_ms: 700.0,
            base_soft_ms: 1430.0,
            hard_ms: 2000.0,
            ..check(9, 1000.0, 300.0, 1430.0, false)
        };
        assert!(!decide(SoftRule::Learned(0.0), &Growth::default(), &split).stop);
        let past_hard = Check {
            elapsed_ms: 1500.0,
            ..split
        };
        let v = decide(SoftRule::Learned(0.0), &Growth::default(), &past_hard);
        assert!(v.stop, "{}", v.why);
        assert!(v.why.contains("≥ 2000 ms"), "{}", v.why);
        // Too shallow to judge: only a spent soft limit stops.
        assert!(
            !decide(
                SoftRule::Learned(1e9),
                &Growth::default(),
                &check(3, 10.0, 5.0, 1430.0, false)
            )
            .stop
        );
        assert!(
            decide(
                SoftRule::Learned(0.0),
                &Growth::default(),
                &check(3, 1500.0, 5.0, 1430.0, false)
            )
            .stop
        );
        // A single reply moves at once.
        let single = Check {
            signs: Signs {
                legal_moves: 1,
                ..c.signs
            },
            ..c
        };
        assert!(decide(SoftRule::Learned(0.0), &Growth::default(), &single).stop);
    }

    /// A mate or tablebase score is outside the fit: the rule falls back to the 2x rule on
    /// the unadjusted soft limit, and says so, whatever κ asks.
    #[test]
    fn learned_rule_leaves_decided_scores_to_the_2x_rule() {
        let decided = |elapsed, last| Check {
            signs: Signs {
                score_cp: 31_990,
                decided: true,
                legal_moves: 30,
                ..Signs::default()
            },
            ..check(9, elapsed, last, 1000.0, false)
        };
        for kappa in [0.0, LEARNED_SCALE_CP, 1e6] {
            let go_on = decide(
                SoftRule::Learned(kappa),
                &Growth::default(),
                &decided(300.0, 100.0),
            );
            assert!(!go_on.stop, "{}", go_on.why);
            assert!(go_on.why.contains("a decided score"), "{}", go_on.why);
            let stop = decide(
                SoftRule::Learned(kappa),
                &Growth::default(),
                &decided(600.0, 200.0),
            );
            assert!(stop.stop, "{}", stop.why);
            assert!(
                stop.why
                    .ends_with("600 + 2.00 × last 200 = 1000 ≥ soft 1000 ms"),
                "{}",
                stop.why
            );
        }
    }
}
