//! Texel tuning: fit the evaluation weights to the results of real games.
//!
//! The idea (Peter Österlund's, named after his engine Texel): a good evaluation
//! predicts who wins. Map an evaluation `e` (centipawns, White's view) to an
//! expected score with `σ(e) = 1 / (1 + 10^(−K·e/400))`, and compare it with the
//! result of the game the position came from (1, ½ or 0 for White). The mean
//! squared error over many quiet positions is what we minimise.
//!
//! Steps:
//! 1. Read PGN games with a small reader written here: tags, then SAN moves
//!    matched against the legal moves of the `chess` crate; comments `{…}` and
//!    `;…`, variations `(…)`, NAGs `$n` and move numbers are skipped.
//! 2. Sample positions: skip the opening plies and positions in check, then play
//!    out captures with a small quiescence search and keep the quiet position at
//!    the end of its principal variation. Each keeps its game's result.
//! 3. The evaluation is linear in its weights, so [`crate::eval::trace`] turns each
//!    position into feature counts once; after that an evaluation is a short dot
//!    product and a whole pass over the data takes milliseconds.
//! 4. Fit `K` with the starting weights, then fit the weights with Adam on the
//!    mean squared error plus a small L2 pull towards the starting weights (with
//!    a few hundred games there are far more weights than the data can pin down).
//!    Every `--holdout`-th game is kept out of training to measure overfitting.
//! 5. Round the weights, check they are sane (piece values in order), and write
//!    them as a new `params.rs`.
//!
//! Outside the piece-square tables a weight may not change sign (a bonus stays a
//! bonus; `--free-signs` lifts this), and `--freeze` keeps whole groups fixed.
//! Results alone are a noisy target for this many weights; `--lambda` < 1 blends in the
//! search score each self-play move records. The commands that produced the committed
//! weights are in docs/training.md, and what they gave is in docs/measurements/evaluation.md.
//!
//! `--spsa-params` does something else: it prints the search's tunable constants for an SPSA
//! tuner ([`spsa`]), which plays games rather than fitting positions.

mod fit;
mod pgn;
mod samples;
pub mod spsa;
mod write;

pub use pgn::{comment_score, parse_pgn, PgnGame};

use crate::eval::layout;
use fit::{adam, blend_targets, fit_k, frozen_mask, mse};
use samples::{collect_positions, Sample, SampleStats};
use std::path::PathBuf;
use std::time::Instant;
use write::{check_sane, render_params};

/// Arguments of `sandglass tune`.
#[derive(clap::Args, Debug, Clone)]
pub struct TuneArgs {
    /// PGN file with finished games; repeat the option for several files.
    #[arg(long, required_unless_present = "spsa_params")]
    pub pgn: Vec<PathBuf>,
    /// Print the search's tunable constants in OpenBench's SPSA input format (`NAME, int,
    /// DEFAULT, MIN, MAX, C_END, R_END`, one a line) and exit. The engine takes them as UCI
    /// options only when built with `--features tune` (docs/tuning.md).
    #[arg(long, conflicts_with = "pgn")]
    pub spsa_params: bool,
    /// Use at most this many positions (an even, deterministic sample).
    #[arg(long)]
    pub positions: Option<usize>,
    /// Passes of gradient descent over all positions.
    #[arg(long, default_value_t = 1500)]
    pub epochs: usize,
    /// Where to write the tuned weights as Rust source (a complete params.rs).
    #[arg(long, default_value = "params_tuned.rs")]
    pub out: PathBuf,
    /// Adam step size, in centipawns.
    #[arg(long, default_value_t = 1.0)]
    pub lr: f64,
    /// Strength of the pull towards the starting weights (per centipawn squared).
    #[arg(long, default_value_t = 3e-7)]
    pub l2: f64,
    /// Plies at the start of each game from which no position is taken.
    #[arg(long, default_value_t = 8)]
    pub skip_plies: usize,
    /// Every n-th game is held out to measure overfitting (0: none).
    #[arg(long, default_value_t = 10)]
    pub holdout: usize,
    /// Weight of the game result in the target; the rest is the search score recorded in the
    /// PGN's move comments (1: results only).
    #[arg(long, default_value_t = 1.0, value_parser = parse_lambda)]
    pub lambda: f64,
    /// Which of the `--holdout` folds is held out (0 ..= holdout − 1); the default is the last.
    #[arg(long)]
    pub fold: Option<usize>,
    /// Let weights outside the piece-square tables change sign (by default a term
    /// may grow or shrink but not turn from a bonus into a penalty).
    #[arg(long)]
    pub free_signs: bool,
    /// Weight groups to keep unchanged, by name (e.g. MATERIAL,KING_PSQT).
    #[arg(long, value_delimiter = ',')]
    pub freeze: Vec<String>,
}

fn parse_lambda(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(v) if (0.0..=1.0).contains(&v) => Ok(v),
        _ => Err(format!("{text}: must be a number from 0 to 1")),
    }
}

/// Runs the tuner; see the module documentation.
pub fn run(args: &TuneArgs) -> Result<(), String> {
    if args.spsa_params {
        for line in spsa::lines() {
            println!("{line}");
        }
        return Ok(());
    }
    let started = Instant::now();
    for name in &args.freeze {
        if !layout::GROUPS.iter().any(|g| g.name == name.as_str()) {
            return Err(format!("--freeze: no weight group named {name}"));
        }
    }

    // 1-2. Games and positions.
    let mut games = Vec::new();
    for path in &args.pgn {
        let bytes =
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let found = parse_pgn(&String::from_utf8_lossy(&bytes));
        println!("{}: {} games", path.display(), found.len());
        games.extend(found);
    }
    let mut samples = Vec::new();
    let mut stats = SampleStats::default();
    for (index, game) in games.iter().enumerate() {
        collect_positions(game, index, args.skip_plies, &mut samples, &mut stats);
    }
    println!(
        "{} games with a result ({} without, {} stopped early at an unreadable move); {} positions",
        stats.games_used,
        stats.games_without_result,
        stats.games_with_bad_moves,
        samples.len()
    );
    if let Some(limit) = args.positions {
        if limit < samples.len() {
            let step = samples.len() as f64 / limit as f64;
            samples = (0..limit)
                .map(|i| samples[(i as f64 * step) as usize].clone())
                .collect();
        }
    }
    if samples.len() < 100_000 {
        println!(
            "note: only {} positions; 100k or more would pin the weights down better",
            samples.len()
        );
    }
    let fold = args.fold.unwrap_or(args.holdout.saturating_sub(1));
    if args.holdout > 0 && fold >= args.holdout {
        return Err(format!("--fold must be below --holdout ({})", args.holdout));
    }
    let is_holdout = |s: &Sample| args.holdout > 0 && s.game % args.holdout == fold;
    let (valid, train): (Vec<Sample>, Vec<Sample>) = samples.into_iter().partition(is_holdout);
    if train.is_empty() {
        return Err("no positions to tune on".to_string());
    }
    println!(
        "training on {} positions, validating on {}",
        train.len(),
        valid.len()
    );

    // 4. K, then the weights.
    let start: Vec<(f64, f64)> = layout::current_weights()
        .iter()
        .map(|&(m, e)| (f64::from(m), f64::from(e)))
        .collect();
    let k = fit_k(&train, &start);
    let (train, valid) = if args.lambda < 1.0 {
        let lambda = args.lambda;
        let with_scores = train.iter().filter(|s| s.score.is_some()).count();
        println!(
            "target = {lambda} × result + {:.2} × σ(search score) for the {with_scores} positions with a score",
            1.0 - lambda
        );
        (
            blend_targets(train, lambda, k),
            blend_targets(valid, lambda, k),
        )
    } else {
        (train, valid)
    };
    let before = (mse(&train, &start, k), mse(&valid, &start, k));
    let show = |(t, v): (f64, f64)| {
        if valid.is_empty() {
            format!("train {t:.6}")
        } else {
            format!("train {t:.6}, validation {v:.6}")
        }
    };
    println!("K = {k:.3}; MSE before: {}", show(before));

    let frozen = frozen_mask(&args.freeze);
    let tuned = adam(&train, &valid, &start, &frozen, k, args);
    let rounded: Vec<(f64, f64)> = tuned.iter().map(|&(m, e)| (m.round(), e.round())).collect();
    let after = (mse(&train, &rounded, k), mse(&valid, &rounded, k));
    println!("MSE after (rounded weights): {}", show(after));

    // 5. Sanity, then write.
    let ints: Vec<(i32, i32)> = rounded.iter().map(|&(m, e)| (m as i32, e as i32)).collect();
    check_sane(&ints)?;
    let validation = if valid.is_empty() {
        String::new()
    } else {
        format!(", validation {:.6} -> {:.6}", before.1, after.1)
    };
    let frozen_names = if args.freeze.is_empty() {
        "none".to_string()
    } else {
        args.freeze.join(",")
    };
    let summary = format!(
        "{} positions from {} games, K = {k:.3}, {} epochs, l2 = {:e}, lambda = {},\n\
         //! frozen: {frozen_names};\n//! MSE train {:.6} -> {:.6}{validation}",
        train.len(),
        stats.games_used,
        args.epochs,
        args.l2,
        args.lambda,
        before.0,
        after.0,
    );
    let source = render_params(&ints, &summary);
    std::fs::write(&args.out, source)
        .map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
    println!(
        "wrote {} in {:.1} s",
        args.out.display(),
        started.elapsed().as_secs_f64()
    );
    if !valid.is_empty() && after.1 > before.1 {
        println!("warning: the validation error did not improve; the new weights overfit");
    }
    Ok(())
}

#[cfg(test)]
mod tests;
