//! ProbCut (Buro, "ProbCut: An Effective Selective Extension of the Alpha-Beta Algorithm",
//! ICCA Journal 18(2), 1995), in the form chess engines use it since Stockfish: a capture that
//! wins enough material for a shallow search to beat beta by a margin
//! ([`params::probcut_margin`]) almost surely beats `beta` at full depth, so the node is cut
//! without searching the rest.

use super::Searcher;
use crate::score::{is_decisive, DRAW};
use crate::search::ordering::MovePicker;
use crate::search::params;
use crate::search::see;
use crate::tt::{Bound, Entry};

/// What [`Searcher::probcut`] needs of the node it may cut (a non-PV node, not in check, not a
/// singular-extension search).
pub(super) struct ProbcutNode {
    pub depth: i32,
    pub beta: i32,
    pub ply: usize,
    pub key: u64,
    pub static_eval: i32,
    pub raw_eval: i32,
    pub hit: Option<Entry>,
    pub cut_node: bool,
}

impl Searcher<'_> {
    /// The node's score when a capture proves it fails high (a lower bound, stored in the
    /// table), or None when the node must be searched. Each capture whose exchange alone gains
    /// what the margin asks over the static evaluation is checked first by quiescence and,
    /// only if that holds, by a search [`params::probcut_reduction`] plies shallower.
    pub(super) fn probcut(&mut self, n: ProbcutNode) -> Option<i32> {
        let probcut_beta = n.beta + params::probcut_margin();
        let reduction = params::probcut_reduction();
        let searched_depth = n.depth - reduction + 1;
        // A table entry as deep as the shallow search that says the node stays below the
        // ProbCut beta: the shallow searches would only confirm it.
        let table_says_no = n
            .hit
            .is_some_and(|h| h.depth >= searched_depth && h.score < probcut_beta);
        // `go mate` and the position after a quiet rook or queen sacrifice are left to the
        // full search, as null-move pruning and reverse futility leave them: taking the
        // sacrificed piece passes every test here while the threat behind it is unseen. The
        // sacrifice test (an exchange evaluation) comes last, after the cheap tests that turn
        // most nodes away.
        if !self.feat.probcut
            || self.mate_search
            || n.depth < params::probcut_depth()
            || is_decisive(n.beta)
            || is_decisive(probcut_beta)
            || table_says_no
            || (self.feat.rfp_sacrifice_guard && self.after_quiet_sacrifice(n.ply))
        {
            return None;
        }
        let ply = n.ply;
        let buffer = std::mem::take(&mut self.lists[ply]);
        let captures = self.feat.capture_history.then_some(&*self.heur);
        let mut picker = MovePicker::noisy(self.pos.board(), captures, None, buffer);
        let mut result = None;
        while let Some((m, _)) = picker.next_move() {
            if !see::see_ge(self.pos.board(), m, probcut_beta - n.static_eval) {
                continue;
            }
            self.make(ply, m);
            let mut score = -self.quiescence(-probcut_beta, -probcut_beta + 1, ply + 1, 0);
            if score >= probcut_beta {
                score = -self.negamax(
                    n.depth - reduction,
                    -probcut_beta,
                    -probcut_beta + 1,
                    ply + 1,
                    !n.cut_node,
                );
            }
            self.pos.unmake();
            if self.stop.is_stopped() {
                result = Some(DRAW);
                break;
            }
            if score >= probcut_beta {
                let entry = Entry {
                    mv: Some(m),
                    score,
                    eval: Some(n.raw_eval),
                    depth: searched_depth,
                    bound: Bound::Lower,
                };
                self.tt.store(n.key, ply, entry);
                result = Some(score);
                break;
            }
        }
        self.lists[ply] = picker.into_buffer();
        result
    }
}
