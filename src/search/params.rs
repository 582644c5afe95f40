//! The search's tunable constants, in one table: each margin, depth limit and weight the
//! search reads, with its default, the range a tuner may move it in and the step it should
//! try (issue 107).
//!
//! A normal build reads each one through a function that returns its default, which the
//! compiler folds into a constant: the table costs the search nothing and `bench` is what it
//! was with the numbers written inline. A `--features tune` build reads them from relaxed
//! atomics instead, and the engine offers each as a UCI spin option of the same name
//! (`uci::options`), so that a tuner sets them with ordinary `setoption` lines. Relaxed loads
//! are plain loads on the machines we build for; a `setoption` is never sent during a search.
//!
//! `sandglass tune --spsa-params` prints the table for OpenBench or `tools/tm_spsa.py`
//! (docs/tuning.md). Every default is the value the search used before the table; a tuned
//! value replaces the default here, with the match that measured it.
//!
//! Not here, on purpose: bounds of the data structures (`MAX_PLY`, table sizes), the
//! ordering's sentinels (table move, killers), the rules that keep results right rather than
//! strong (the fifty-move trust limit, quiescence's depth backstop), the switches of
//! `features` and the strength limit's own numbers.

#[cfg(feature = "tune")]
use std::sync::atomic::{AtomicI32, Ordering};

/// One tunable constant, as a tuner sees it.
#[derive(Debug)]
pub struct Tunable {
    /// The UCI option's name in a `tune` build, and the parameter's name for the tuner.
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    /// SPSA's perturbation at the end of a run (OpenBench's and fishtest's `c_end`), in the
    /// constant's own units: about a twentieth of the range, and at least 0.5, the smallest
    /// OpenBench takes for an integer (a smaller one would round to no change at all).
    pub step: f64,
    #[cfg(feature = "tune")]
    value: &'static AtomicI32,
}

#[cfg(feature = "tune")]
impl Tunable {
    /// The value searches read now.
    pub fn value(&self) -> i32 {
        self.value.load(Ordering::Relaxed)
    }

    /// Set the value searches read from now on; the caller has checked it against
    /// `min..=max` (`uci::options` does, with its usual error).
    pub fn set(&self, value: i32) {
        self.value.store(value, Ordering::Relaxed);
    }
}

/// SPSA's learning rate at the end of a run (`r_end`), the same for every parameter: fishtest's
/// and OpenBench's usual 0.002.
pub const R_END: f64 = 0.002;

/// Declares the table: for each row, an accessor function (the default itself in a normal
/// build, a relaxed atomic load in a `tune` build) and an entry of [`TUNABLES`].
macro_rules! tunables {
    ($(
        $(#[doc = $doc:literal])*
        $get:ident $name:literal = $default:literal, $min:literal..=$max:literal, step $step:literal;
    )*) => {
        $(
            $(#[doc = $doc])*
            #[cfg(not(feature = "tune"))]
            #[inline(always)]
            pub const fn $get() -> i32 {
                $default
            }

            $(#[doc = $doc])*
            #[cfg(feature = "tune")]
            #[inline(always)]
            pub fn $get() -> i32 {
                values::$get.load(Ordering::Relaxed)
            }
        )*

        /// The values a `tune` build's searches read, one per row.
        #[cfg(feature = "tune")]
        #[allow(non_upper_case_globals)]
        mod values {
            use std::sync::atomic::AtomicI32;
            $(pub static $get: AtomicI32 = AtomicI32::new($default);)*
        }

        /// Every tunable constant, in the order the tuner lists them.
        pub static TUNABLES: &[Tunable] = &[$(
            Tunable {
                name: $name,
                default: $default,
                min: $min,
                max: $max,
                step: $step,
                #[cfg(feature = "tune")]
                value: &values::$get,
            },
        )*];
    };
}

tunables! {
    // Late-move reductions.

    /// The constant of the late-move reduction table, in hundredths of a ply: the reduction
    /// is (LmrBase + 100·ln(depth)·ln(move number)/LmrDivisor)/100 plies, truncated, the
    /// log·log shape most engines derive from (Ethereal and Stockfish use tables of this kind).
    lmr_base "LmrBase" = 75, 0..=200, step 10.0;
    /// The divisor of the late-move reduction table, in hundredths (2.25).
    lmr_divisor "LmrDivisor" = 225, 150..=400, step 12.0;
    /// Late-move reductions start at this depth, at the root and below.
    lmr_min_depth "LmrMinDepth" = 3, 2..=5, step 0.5;
    /// Moves searched before the first one reduced, one more in a PV node (the root is one).
    lmr_min_moves "LmrMinMoves" = 2, 1..=5, step 0.5;
    /// A ply less or more per this much history of the reduced quiet move (Ethereal 12's term).
    lmr_history_divisor "LmrHistoryDivisor" = 5_000, 2_000..=16_000, step 500.0;
    /// At most this many plies either way from history.
    lmr_history_max "LmrHistoryMax" = 2, 0..=4, step 0.5;

    // Pruning before the moves.

    /// Reverse futility: a node whose estimate is this much per ply of depth above beta is
    /// taken to hold.
    rfp_margin "RfpMargin" = 75, 30..=150, step 6.0;
    /// Reverse futility's margin is this much smaller when the side to move is improving.
    rfp_improving "RfpImproving" = 60, 0..=120, step 6.0;
    /// Reverse futility up to this depth.
    rfp_depth "RfpDepth" = 8, 4..=12, step 0.5;
    /// Razoring: up to this depth, a node whose estimate is more than RazorMargin × depth
    /// below alpha is left to quiescence. Stockfish 11 razors at depth 1 by 531 of its units
    /// (about 2.6 pawns); Viridithas 10 up to depth 4 by roughly 400 + 290 × depth
    /// centipawns; the default is a round value between the two.
    razor_depth "RazorDepth" = 3, 1..=6, step 0.5;
    /// Razoring's margin per ply of depth, in centipawns.
    razor_margin "RazorMargin" = 300, 100..=600, step 25.0;
    /// Null-move pruning from this depth on.
    nmp_min_depth "NmpMinDepth" = 3, 2..=5, step 0.5;
    /// The null move's reduction: NmpBase + depth/NmpDepthDivisor + min((eval − beta) /
    /// NmpEvalDivisor, NmpEvalMax) plies.
    nmp_base "NmpBase" = 3, 1..=5, step 0.5;
    nmp_depth_divisor "NmpDepthDivisor" = 4, 2..=8, step 0.5;
    nmp_eval_divisor "NmpEvalDivisor" = 200, 80..=400, step 15.0;
    nmp_eval_max "NmpEvalMax" = 3, 0..=6, step 0.5;
    /// Internal iterative reduction: a PV or cut node without a table move is searched a
    /// ply shallower from this depth on.
    iir_depth "IirDepth" = 4, 2..=8, step 0.5;
    /// ProbCut: how far above beta the shallow search must land. The default is
    /// conservative (Ethereal uses 100 cp; Stockfish's margin is smaller still).
    probcut_margin "ProbcutMargin" = 200, 50..=400, step 15.0;
    /// The shallowest node where ProbCut is tried.
    probcut_depth "ProbcutDepth" = 5, 3..=10, step 0.5;
    /// ProbCut's confirming search is this much shallower than the node; with the capture
    /// before it, its result counts as a search of depth − ProbcutReduction + 1 (Stockfish's
    /// `probCutDepth = depth − 4`, stored at one more).
    probcut_reduction "ProbcutReduction" = 4, 2..=6, step 0.5;

    // Singular extensions.

    /// Singular extensions from this depth on.
    se_depth "SeDepth" = 8, 4..=12, step 0.5;
    /// The table entry must be at most this much shallower than the node.
    se_tt_depth_margin "SeTtDepthMargin" = 3, 1..=6, step 0.5;
    /// The singular beta lies this much per ply of depth below the table's score.
    se_beta_scale "SeBetaScale" = 2, 1..=6, step 0.5;
    /// How far below the singular beta the search without the table move must fail for a
    /// double extension (Stockfish's shape; the default is a round value for this engine's
    /// scale).
    double_ext_margin "DoubleExtMargin" = 20, 0..=60, step 3.0;
    /// Double extensions a line from the root may take: each one deepens the whole line
    /// below it.
    double_ext_limit "DoubleExtLimit" = 6, 0..=16, step 1.0;

    // Pruning among the moves.

    /// Late-move pruning: up to LmpDepth, a quiet move after (LmpBase + depth²) quiet moves
    /// (half as many when not improving) is not searched.
    lmp_base "LmpBase" = 3, 0..=10, step 0.5;
    lmp_depth "LmpDepth" = 6, 2..=10, step 0.5;
    /// Futility pruning: up to FutilityDepth plies (after the move's late-move reduction), a
    /// quiet move is not searched when the estimate plus FutilityBase + FutilityMargin ×
    /// depth does not reach alpha.
    futility_depth "FutilityDepth" = 6, 2..=10, step 0.5;
    futility_base "FutilityBase" = 100, 0..=250, step 10.0;
    futility_margin "FutilityMargin" = 90, 30..=180, step 7.0;
    /// Futility spares a quiet move whose ordering score (its from-to and continuation
    /// histories, or a killer's, the counter-move's or the table move's far larger score)
    /// reaches this: Stockfish 11 spares one whose histories sum to 25,000 of its units; here,
    /// where each of the three tables holds ±16,384, a round value of the same kind.
    futility_history_limit "FutilityHistoryLimit" = 20_000, 5_000..=40_000, step 1_500.0;
    /// Up to this reduced depth, a quiet move that loses more than SeeQuietMargin per ply by
    /// exchange is not searched (Ethereal's margin: 64 per ply).
    see_quiet_depth "SeeQuietDepth" = 8, 2..=12, step 0.5;
    see_quiet_margin "SeeQuietMargin" = 64, 16..=150, step 5.0;
    /// Up to this depth, a losing capture that loses more than SeeNoisyMargin per ply is not
    /// searched.
    see_noisy_depth "SeeNoisyDepth" = 6, 2..=10, step 0.5;
    see_noisy_margin "SeeNoisyMargin" = 90, 30..=200, step 7.0;
    /// History pruning: up to this depth, a quiet move whose history (the sum of plain and
    /// continuation histories, each within ±16,384) is below −HistPruneMargin × depth is
    /// not searched (Stockfish's shape).
    hist_prune_depth "HistPruneDepth" = 4, 1..=8, step 0.5;
    /// Four times the 2,000 that docs/measurements/search.md ("search bundle 2") measured with
    /// bonuses of min(8·depth², 1,200): the bonus is now Ethereal's 32·min(depth², 400), four
    /// times as large at the depths that prune, so the same share of quiet moves falls below.
    hist_prune_margin "HistPruneMargin" = 8_000, 2_000..=16_000, step 500.0;

    // Quiescence.

    /// Delta pruning: a capture whose exchange gain, plus this, cannot lift the stand-pat to
    /// alpha is not searched.
    qs_delta_margin "QsDeltaMargin" = 200, 0..=500, step 20.0;
    /// Quiescence move-count pruning: at most this many captures that are not recaptures per
    /// node (Stockfish's qsearch, `if (moveCount > 2) continue;`). Unlike Stockfish, checking
    /// captures and promotions are not exempt: in the hostile positions of
    /// `tests/quiescence.rs` nearly every capture checks, and eight promotions a side exploded.
    qs_captures "QsCaptures" = 2, 1..=4, step 0.5;
    /// From this many plies into quiescence on, only recaptures on the square of the last
    /// move: Stockfish's `DEPTH_QS_RECAPTURES = -5` (Stockfish 11 and earlier, quiescence
    /// starting at depth 0).
    qs_recapture_depth "QsRecaptureDepth" = 5, 2..=8, step 0.5;

    // Aspiration windows.

    /// The window's first half-width, in centipawns (Ethereal 12's WindowSize 14).
    asp_delta "AspDelta" = 14, 5..=50, step 2.0;
    /// After each fail the half-width grows by this percentage of itself (at least 1 cp):
    /// Ethereal 12's `delta += delta / 2`.
    asp_growth "AspGrowth" = 50, 20..=200, step 8.0;
    /// From this depth on the window is narrow (shallow scores jump too much).
    asp_min_depth "AspMinDepth" = 5, 1..=10, step 0.5;

    // Histories.

    /// What a cutoff at depth d adds to the history of the move that caused it:
    /// min(HistBonusMul·d², HistBonusMax), Ethereal 12's 32·min(d², 400) (history.c, with
    /// HistoryMultiplier 32, HistoryMax 400 and HistoryDivisor 512). The cap stays within
    /// the tables' bound (16,384), which history gravity needs to keep every entry within it.
    hist_bonus_mul "HistBonusMul" = 32, 8..=64, step 3.0;
    hist_bonus_max "HistBonusMax" = 12_800, 4_000..=16_384, step 600.0;
    /// What a cutoff takes from the moves tried before it, and what a quiet table move loses
    /// when its bound fails low: min(HistMalusMul·d², HistMalusMax), the bonus's size by
    /// default.
    hist_malus_mul "HistMalusMul" = 32, 8..=64, step 3.0;
    hist_malus_max "HistMalusMax" = 12_800, 4_000..=16_384, step 600.0;
    /// A capture's order within its class: CaptVictimScale × the victim's value plus its
    /// capture history / CaptHistoryDivisor (Stockfish weighs 7 × the victim's value plus the
    /// history); the history term can lift a pawn capture that keeps working above a knight
    /// capture that keeps failing, which is the point of learning it.
    capt_victim_scale "CaptVictimScale" = 16, 4..=32, step 1.5;
    capt_history_divisor "CaptHistoryDivisor" = 2, 1..=8, step 0.5;

    // Correction history.

    /// The pawn table's weight in a correction, in 256ths.
    corr_pawn_weight "CorrPawnWeight" = 256, 0..=512, step 20.0;
    /// Each non-pawn table's weight, in 256ths: half the pawn table's, since there are two.
    corr_non_pawn_weight "CorrNonPawnWeight" = 128, 0..=512, step 20.0;
    /// A new observation's weight is min(d² + 2d + 1, CorrMaxWeight)/256 (Alexandria's
    /// update, at most 128/256 for the deepest searches).
    corr_max_weight "CorrMaxWeight" = 128, 32..=256, step 10.0;
    /// The most one entry may correct, in centipawns; a single observation counts up to four
    /// times as much.
    corr_limit "CorrLimit" = 32, 8..=64, step 3.0;
}

/// The row named `name` (case-insensitively, as UCI option names are matched).
pub fn find(name: &str) -> Option<&'static Tunable> {
    TUNABLES.iter().find(|t| t.name.eq_ignore_ascii_case(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each row is one a tuner can start from: the default inside the range, a step OpenBench
    /// takes for an integer, a name that is unique and can stand in a `setoption` line.
    #[test]
    fn every_row_is_well_formed() {
        assert!(!TUNABLES.is_empty());
        for t in TUNABLES {
            assert!(t.min <= t.default && t.default <= t.max, "{t:?}");
            assert!(t.min < t.max, "{t:?}: nothing to tune");
            assert!(
                t.step >= 0.5,
                "{t:?}: OpenBench needs c_end >= 0.5 for an int"
            );
            assert!(
                t.step <= f64::from(t.max - t.min) / 2.0,
                "{t:?}: a step past half the range"
            );
            // UCI reads `setoption name <id> value <x>` up to the word `value`; ASCII letters
            // and digits keep a name clear of that and of every GUI's quoting.
            assert!(
                t.name.starts_with(|c: char| c.is_ascii_uppercase())
                    && t.name.chars().all(|c| c.is_ascii_alphanumeric()),
                "{t:?}: not a plain option name"
            );
            let same = TUNABLES
                .iter()
                .filter(|u| u.name.eq_ignore_ascii_case(t.name))
                .count();
            assert_eq!(same, 1, "{} is not unique", t.name);
            assert!(std::ptr::eq(find(t.name).expect("found"), t));
        }
        assert!(find("NoSuchParam").is_none());
        assert_eq!(find("rfpmargin").map(|t| t.default), Some(rfp_margin()));
    }

    /// A normal build's accessors are the table's defaults.
    #[cfg(not(feature = "tune"))]
    #[test]
    fn the_accessors_return_the_defaults() {
        let read: [(&str, i32); 4] = [
            ("LmrBase", lmr_base()),
            ("RazorMargin", razor_margin()),
            ("AspDelta", asp_delta()),
            ("CorrLimit", corr_limit()),
        ];
        for (name, value) in read {
            assert_eq!(find(name).map(|t| t.default), Some(value), "{name}");
        }
    }
}
