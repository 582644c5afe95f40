//! Fitting: the sigmoid scale K, the mean squared error, and Adam over the weights.

use super::samples::Sample;
use super::TuneArgs;
use crate::eval::layout;

/// Game results say who won from a position only with much noise (one game, decided many
/// moves later); the search score of the game's engine says it with less noise but with
/// the engine's own bias. Fitting a blend of the two is common practice for hand-written
/// evaluations (and the usual label for NNUE training data): `λ · result + (1 − λ) · σ(score)`.
pub(super) fn blend_targets(samples: Vec<Sample>, lambda: f64, k: f64) -> Vec<Sample> {
    samples
        .into_iter()
        .map(|mut s| {
            if let Some(score) = s.score {
                s.result = lambda * s.result + (1.0 - lambda) * sigmoid(k, score);
            }
            s
        })
        .collect()
}

pub(super) fn sigmoid(k: f64, eval: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * eval / 400.0))
}

pub(super) fn mse(samples: &[Sample], weights: &[(f64, f64)], k: f64) -> f64 {
    if samples.is_empty() {
        return f64::NAN;
    }
    let total: f64 = samples
        .iter()
        .map(|s| (sigmoid(k, s.trace.evaluate(weights)) - s.result).powi(2))
        .sum();
    total / samples.len() as f64
}

/// The `K` that minimises the error with the given weights: a coarse scan, then
/// ever finer ones around the best value.
pub(super) fn fit_k(samples: &[Sample], weights: &[(f64, f64)]) -> f64 {
    let evals: Vec<(f64, f64)> = samples
        .iter()
        .map(|s| (s.trace.evaluate(weights), s.result))
        .collect();
    let error = |k: f64| {
        evals
            .iter()
            .map(|&(e, r)| (sigmoid(k, e) - r).powi(2))
            .sum::<f64>()
    };
    let (mut best, mut step) = (1.0, 0.1);
    for _ in 0..5 {
        let centre = best;
        for i in -10..=10 {
            let k = centre + f64::from(i) * step;
            if k > 0.0 && error(k) < error(best) {
                best = k;
            }
        }
        step /= 10.0;
    }
    best
}

pub(super) fn frozen_mask(names: &[String]) -> Vec<bool> {
    let mut frozen = vec![false; layout::COUNT];
    for g in layout::GROUPS {
        if names.iter().any(|n| n == g.name) {
            frozen[g.offset..g.offset + g.values.len()].fill(true);
        }
    }
    frozen
}

/// `value`, or 0 if it has the opposite sign of a non-zero `start`.
pub(super) fn keep_sign(value: f64, start: f64) -> f64 {
    if value * start < 0.0 {
        0.0
    } else {
        value
    }
}

/// Full-batch Adam on mean squared error + `l2`·Σ(w − w₀)².
pub(super) fn adam(
    train: &[Sample],
    valid: &[Sample],
    start: &[(f64, f64)],
    frozen: &[bool],
    k: f64,
    args: &TuneArgs,
) -> Vec<(f64, f64)> {
    const BETA1: f64 = 0.9;
    const BETA2: f64 = 0.999;
    const EPSILON: f64 = 1e-8;
    let n = start.len();
    let mut w = start.to_vec();
    let mut m = vec![(0.0, 0.0); n];
    let mut v = vec![(0.0, 0.0); n];
    let mut grad = vec![(0.0, 0.0); n];
    let mut sign_locked = vec![!args.free_signs; n];
    for g in layout::GROUPS.iter().filter(|g| g.name.ends_with("_PSQT")) {
        sign_locked[g.offset..g.offset + g.values.len()].fill(false);
    }
    let scale = 2.0 * std::f64::consts::LN_10 * k / 400.0 / train.len() as f64;
    for epoch in 1..=args.epochs {
        grad.fill((0.0, 0.0));
        for s in train {
            let (mg, eg) = s.trace.sums(&w);
            let (fm, fe) = s.trace.shape.blend_factors(eg);
            let p = sigmoid(k, mg * fm + eg * fe);
            // d(error)/d(eval), up to the common factor `scale`.
            let d = (p - s.result) * p * (1.0 - p);
            for &(i, count) in &s.trace.features {
                let g = &mut grad[usize::from(i)];
                let c = d * f64::from(count);
                g.0 += c * fm;
                g.1 += c * fe;
            }
        }
        // Halve the step for the last quarter and again for the last eighth.
        let lr = if epoch > args.epochs * 7 / 8 {
            args.lr / 4.0
        } else if epoch > args.epochs * 3 / 4 {
            args.lr / 2.0
        } else {
            args.lr
        };
        let (c1, c2) = (
            1.0 - BETA1.powi(epoch as i32),
            1.0 - BETA2.powi(epoch as i32),
        );
        for i in 0..n {
            if frozen[i] {
                continue;
            }
            let g = (
                grad[i].0 * scale + 2.0 * args.l2 * (w[i].0 - start[i].0),
                grad[i].1 * scale + 2.0 * args.l2 * (w[i].1 - start[i].1),
            );
            m[i] = (
                BETA1 * m[i].0 + (1.0 - BETA1) * g.0,
                BETA1 * m[i].1 + (1.0 - BETA1) * g.1,
            );
            v[i] = (
                BETA2 * v[i].0 + (1.0 - BETA2) * g.0 * g.0,
                BETA2 * v[i].1 + (1.0 - BETA2) * g.1 * g.1,
            );
            w[i].0 -= lr * (m[i].0 / c1) / ((v[i].0 / c2).sqrt() + EPSILON);
            w[i].1 -= lr * (m[i].1 / c1) / ((v[i].1 / c2).sqrt() + EPSILON);
            if sign_locked[i] {
                w[i].0 = keep_sign(w[i].0, start[i].0);
                w[i].1 = keep_sign(w[i].1, start[i].1);
            }
        }
        if epoch % 100 == 0 || epoch == args.epochs {
            if valid.is_empty() {
                println!("epoch {epoch:5}: train {:.6}", mse(train, &w, k));
            } else {
                let (t, v) = (mse(train, &w, k), mse(valid, &w, k));
                println!("epoch {epoch:5}: train {t:.6}, validation {v:.6}");
            }
        }
    }
    w
}
