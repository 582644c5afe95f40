//! What an observer of a search is shown: the soft-stop check after each completed iteration
//! under a clock, and each completed iteration whatever bounds the search. The iterations
//! (`iterate.rs`) make them; the signals (`stopper.rs`) hand them to the observers a tool
//! registered (`TimeLog`, `sandglass searchlog`). Neither of those two files reads the other.

use crate::time::{adjust, soft};
use chess::ChessMove;

/// One soft-stop check, as the time manager made it after a completed iteration: what an
/// observer of the search ([`super::Signals::observed_by`]) is shown. These are the values
/// `TimeLog` reports for the last check only.
#[derive(Debug)]
pub struct SoftCheck<'a> {
    /// The soft limit before the adjustments (the budget's), in ms.
    pub base_soft_ms: u64,
    /// The adjustments' multiplier and its reason (`time::adjust::reason`).
    pub scale: f64,
    pub adjust_reason: &'a str,
    /// What the rule compared: the depth, elapsed, the last iteration, the adjusted soft limit.
    pub check: &'a soft::Check,
    /// The rule's answer, in `TimeLog`'s words.
    pub verdict: &'a soft::Verdict,
}

/// One completed iteration of the main thread, whatever bounds the search (a clock, nodes,
/// a move time, a depth): what an observer of iterations
/// ([`super::Signals::iterations_seen_by`]) is shown. `sandglass searchlog` records these to
/// learn when another iteration is worth its time; the soft-stop check ([`SoftCheck`]) is
/// made only under a clock, and says nothing of the move or the score.
#[derive(Debug)]
pub struct Completed<'a> {
    pub depth: u32,
    pub seldepth: usize,
    /// Since `go`, and this iteration's own time.
    pub elapsed: std::time::Duration,
    pub iteration: std::time::Duration,
    /// Nodes of all threads so far.
    pub nodes: u64,
    /// The iteration's best move and its score (side to move's view).
    pub best: ChessMove,
    pub score: i32,
    /// What the adjustments read: best-move changes, stable iterations, the score drop, the
    /// legal moves, and the best move's node share from `adjust::NODE_FRACTION_MIN_DEPTH` on.
    pub progress: &'a adjust::Progress,
    /// The best move's share of the first line's nodes so far, read at every depth (the
    /// adjustments read it only from `NODE_FRACTION_MIN_DEPTH` on, where it means something
    /// for play; a model may learn from the shallower ones too).
    pub best_move_share: f64,
}
