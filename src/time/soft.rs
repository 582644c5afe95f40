//! The soft stop: may the iterative-deepening loop start depth d+1? (The parent module
//! explains where it sits between allocation and the hard stop.)

/// Soft-stop factor F: the next iteration is assumed to cost F times the last.
///
/// The measured growth per depth is about 1.35, but single steps range from 0.3 to 9
/// (MEASUREMENTS.md), and an iteration cut off by the hard stop is wasted time, so F stays 2:
/// the classroom's "the next depth costs about twice the last".
pub const NEXT_DEPTH_FACTOR: f64 = 2.0;

/// True when the next iteration should not be started: what is left of the soft budget does
/// not cover `NEXT_DEPTH_FACTOR` × the last iteration, `elapsed + F × last ≥ soft`.
///
/// An earlier rule, `elapsed × F ≥ soft`, assumed every iteration costs as much as all the
/// ones before it together; it stopped early and left a third of the clock unused.
pub fn stop_before_next_depth(elapsed_ms: u64, last_iteration_ms: u64, soft_ms: u64) -> bool {
    elapsed_ms as f64 + last_iteration_ms as f64 * NEXT_DEPTH_FACTOR >= soft_ms as f64
}
