//! What a base-budget strategy proposes for a move. It sits apart from the strategies
//! (`strategies/`) and the clamps that finish it (`budget.rs`), which both read it, so that
//! neither of those two needs the other.

/// A strategy's proposal for this move, before the soft-stop allowance and the clamps.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    pub soft_ms: f64,
    /// The strategy's own hard limit, for a strategy whose source sets one (`stockfish`'s
    /// maximum time). None: hard = [`HARD_FACTOR`](super::HARD_FACTOR) × soft. Either way
    /// the shared clamps apply, and hard is never below soft.
    pub hard_ms: Option<f64>,
    /// Short explanation, e.g. "REM(12)=80.1 plies → 40.1 moves left; … = 7.4 s".
    pub note: String,
}
