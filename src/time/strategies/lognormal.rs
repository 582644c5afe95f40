//! `lognormal`: the exact expected remaining game length under a log-normal model.
//!
//! Idea: model the game length X (in plies) as log-normal, ln X ~ N(μ, σ²) with
//! μ = 4.2485 and σ = 0.5627 (median e^μ ≈ 70 plies, mode e^(μ−σ²) ≈ 51 plies). Having
//! played k plies, the expected number still to come is E[X | X > k] − k, and for a
//! log-normal that has a closed form. With z = (ln k − μ)/σ and Φ the standard normal CDF:
//!
//! ```text
//! E[X·1(X>k)] = e^(μ+σ²/2) · Φ(σ − z)        P(X > k) = Φ(−z)
//! E[X | X>k]  = e^(μ+σ²/2) · Φ(σ − z) / Φ(−z)
//! ```
//!
//! (The first line: substitute x = e^y and complete the square, y−μ−σ² ~ N(0, σ²).)
//! The budget then is the same split as `expositor`: `(t − inc)/(remaining/2) + inc`.
//!
//! Φ is computed from erfc with the Chebyshev-fitted formula of Numerical Recipes
//! (Press, Teukolsky, Vetterling, Flannery, *Numerical Recipes in C*, 2nd ed., §6.2,
//! function `erfcc`): `erfc(z) ≈ t·exp(−z² + P(t))`, t = 1/(1 + z/2), P a polynomial of
//! degree 9, fractional error below 1.2·10⁻⁷ everywhere. Because it is of the form
//! t·exp(…) we can take its logarithm exactly, so the ratio of two tiny tail
//! probabilities (late in very long games) is computed without underflow.
//!
//! How close is Ahle's fit (used by `expositor`)? The exact log-normal gives about 4.8
//! plies *less* at the start (82.0 vs 86.8), the two agree within 2 plies from k = 60 to
//! k = 150 and cross near k = 120; beyond k ≈ 200 they part (at k = 200: 54.4 vs 50.5),
//! because the log-normal's mean residual life keeps growing while Ahle's fit levels off
//! at 59.3. See the test `close_to_ahles_fit`.
//!
//! Source of the parameters and the comparison: Kade, "An introduction to time
//! management", <https://typ.dev/time-management> (the log-normal model behind Ahle's fit).

use super::{expositor, fmt_ms, spread, Inputs, Plan, Strategy, Style};

/// μ of ln(game length in plies).
pub const MU: f64 = 4.2485;
/// σ of ln(game length in plies).
pub const SIGMA: f64 = 0.5627;

/// Numerical Recipes `erfcc` coefficients of P(t), constant term first.
const ERFC_POLY: [f64; 10] = [
    -1.265_512_23,
    1.000_023_68,
    0.374_091_96,
    0.096_784_18,
    -0.186_288_06,
    0.278_868_07,
    -1.135_203_98,
    1.488_515_87,
    -0.822_152_23,
    0.170_872_77,
];

/// ln erfc(z) for z ≥ 0 (no underflow, however large z is).
fn ln_erfc_nonneg(z: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = ERFC_POLY.iter().rev().fold(0.0, |acc, &c| acc * t + c);
    t.ln() - z * z + poly
}

/// The complementary error function, fractional error < 1.2·10⁻⁷.
pub fn erfc(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x >= 0.0 {
        ln_erfc_nonneg(x).exp()
    } else {
        2.0 - ln_erfc_nonneg(-x).exp()
    }
}

/// The standard normal CDF Φ(x) = erfc(−x/√2)/2.
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// ln Φ(x), accurate far into the lower tail.
fn ln_normal_cdf(x: f64) -> f64 {
    let z = -x / std::f64::consts::SQRT_2;
    if z >= 0.0 {
        ln_erfc_nonneg(z) - std::f64::consts::LN_2
    } else {
        (-0.5 * ln_erfc_nonneg(-z).exp()).ln_1p()
    }
}

/// E[X | X > k] − k: expected plies still to come after `plies_played` plies.
pub fn expected_plies_remaining(plies_played: f64) -> f64 {
    let mean = (MU + SIGMA * SIGMA / 2.0).exp();
    if plies_played.is_nan() || plies_played <= 0.0 {
        return mean;
    }
    let k = plies_played.min(f64::MAX);
    let z = (k.ln() - MU) / SIGMA;
    let log_conditional_mean =
        MU + SIGMA * SIGMA / 2.0 + ln_normal_cdf(SIGMA - z) - ln_normal_cdf(-z);
    let rest = log_conditional_mean.exp() - k;
    if rest.is_finite() {
        rest.max(0.0)
    } else {
        0.0
    }
}

pub fn plan(inputs: &Inputs) -> Plan {
    let k = inputs.plies_played;
    let rem = expected_plies_remaining(f64::from(k));
    let moves = inputs.moves_left(rem / 2.0);
    let soft = spread(inputs.usable_ms, inputs.increment_ms, moves);
    Plan {
        soft_ms: soft,
        hard_ms: None,
        note: format!(
            "E[X|X>{k}]−{k}={rem:.1} plies → {moves:.1} moves left; (t−inc)/{moves:.1}+inc = {}",
            fmt_ms(soft)
        ),
    }
}

/// Ahle's fit beside the exact value, for the `tm --rem` table: (Ahle, log-normal).
pub fn compare_with_ahle(plies_played: u32) -> (f64, f64) {
    (
        expositor::expected_plies_remaining(plies_played),
        expected_plies_remaining(f64::from(plies_played)),
    )
}

/// Expected plies left from the exact log-normal (see the module doc).
#[derive(Clone, Debug, Default)]
pub struct LogNormal;

impl Strategy for LogNormal {
    fn name(&self) -> &'static str {
        "lognormal"
    }
    fn style(&self) -> Style {
        Style {
            symbol: 'L',
            colour: "#E69F00",
            dash: "14 7",
        }
    }
    fn plan(&self, inputs: &Inputs) -> Plan {
        plan(inputs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_give_the_sources_median_and_mode() {
        assert!((MU.exp() - 70.0).abs() < 0.01);
        assert!(((MU - SIGMA * SIGMA).exp() - 51.0).abs() < 0.01);
    }

    #[test]
    fn erfc_and_phi_against_tabulated_values() {
        let table = [
            (0.0, 1.0),
            (0.5, 0.479_500_122_186_953_5),
            (1.0, 0.157_299_207_050_285_1),
            (2.0, 0.004_677_734_981_047_266),
            (3.0, 2.209_049_699_858_544e-5),
            (5.0, 1.537_459_794_428_035e-12),
            (10.0, 2.088_487_583_762_545e-45),
        ];
        for (x, want) in table {
            assert!((erfc(x) / want - 1.0).abs() < 1.2e-7, "erfc({x})");
            assert!((erfc(-x) - (2.0 - want)).abs() < 2.4e-7, "erfc(-{x})");
        }
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-7);
        assert!((normal_cdf(1.96) - 0.975_002_104_851_780).abs() < 1e-7);
        assert!((normal_cdf(-1.0) - 0.158_655_253_931_457).abs() < 1e-7);
        // Deep tail, in log space: Φ(−40) ≈ 3.655893540915e-350 underflows f64.
        assert!((ln_normal_cdf(-40.0) - (-804.608_442_013_754)).abs() < 1e-5);
        assert!(erfc(f64::NAN).is_nan());
    }

    #[test]
    fn closed_form_matches_numerical_integration() {
        // E[X | X > k] by Simpson's rule in y = ln x.
        let conditional_mean = |k: f64| {
            let (a, b, n) = (k.ln(), MU + 12.0 * SIGMA, 20_000);
            let h = (b - a) / n as f64;
            let (mut top, mut bottom) = (0.0, 0.0);
            for i in 0..=n {
                let y = a + h * i as f64;
                let w = if i == 0 || i == n {
                    1.0
                } else if i % 2 == 1 {
                    4.0
                } else {
                    2.0
                };
                let density = (-0.5 * ((y - MU) / SIGMA).powi(2)).exp();
                top += w * y.exp() * density;
                bottom += w * density;
            }
            top / bottom
        };
        for k in [1.0, 20.0, 51.0, 80.0, 150.0, 300.0] {
            let exact = conditional_mean(k) - k;
            assert!(
                (expected_plies_remaining(k) - exact).abs() < 1e-3,
                "k={k}: {} vs {exact}",
                expected_plies_remaining(k)
            );
        }
    }

    #[test]
    fn close_to_ahles_fit() {
        // k, Ahle, log-normal (each to 0.05 plies), as printed by `tm --rem`.
        let rows = [
            (0, 86.85, 82.01),
            (20, 67.39, 62.87),
            (40, 54.91, 51.80),
            (60, 49.51, 47.73),
            (80, 47.76, 46.69),
            (100, 47.56, 47.02),
            (120, 47.97, 48.01),
            (150, 48.92, 50.13),
            (200, 50.49, 54.38),
        ];
        for (k, ahle, lognormal) in rows {
            let (a, l) = compare_with_ahle(k);
            assert!(
                (a - ahle).abs() < 0.05 && (l - lognormal).abs() < 0.05,
                "k={k}"
            );
        }
        // Within 5 plies everywhere up to k = 150, within 2 plies from 60 to 150.
        for k in 0..=150 {
            let (a, l) = compare_with_ahle(k);
            assert!((a - l).abs() < 5.0, "k={k}");
            if k >= 60 {
                assert!((a - l).abs() < 2.0, "k={k}");
            }
        }
    }

    #[test]
    fn no_nan_for_any_ply_count() {
        for k in [0.0, -3.0, f64::NAN, 1e6, 4.3e9, f64::MAX, f64::INFINITY] {
            let r = expected_plies_remaining(k);
            assert!(r.is_finite() && r >= 0.0, "k={k}: {r}");
        }
        assert!(expected_plies_remaining(1e6) > 1e4);
    }
}
