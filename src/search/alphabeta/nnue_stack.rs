//! The network's accumulators beside the position stack: one per search ply, each computed
//! from its parent's when a move is made, so unmaking a move costs nothing.

use super::Searcher;
use crate::eval::nnue::{Accumulator, Delta, Network, EVAL_LIMIT_NNUE};
use crate::eval::{evaluate, mopup};
use crate::search::ordering::MAX_PLY;
use chess::Board;
use std::sync::Arc;

pub struct NnueStack {
    net: Arc<Network>,
    accs: Vec<Accumulator>,
}

impl NnueStack {
    fn new(net: Arc<Network>, root: &Board) -> NnueStack {
        let mut accs = vec![Accumulator::default(); MAX_PLY + 2];
        accs[0] = net.refresh(root);
        NnueStack { net, accs }
    }

    /// The accumulator of ply + 1: ply's changed by `delta`, the move made there, which led
    /// to `board`.
    #[inline]
    pub fn apply(&mut self, ply: usize, delta: &Delta, board: &Board) {
        let (done, next) = self.accs.split_at_mut(ply + 1);
        next[0].apply(&done[ply], &self.net, delta, board);
    }

    pub fn make_null(&mut self, ply: usize) {
        self.accs[ply + 1] = self.accs[ply];
    }
}

impl Searcher<'_> {
    /// Use the network for this searcher's evaluations (None keeps the hand-written one).
    pub(super) fn with_network(mut self, net: Option<Arc<Network>>) -> Self {
        self.nnue = net.map(|n| NnueStack::new(n, self.pos.board()));
        self
    }

    /// Static evaluation of the position at `ply`, for the side to move.
    #[inline]
    pub(super) fn evaluate(&self, ply: usize) -> i32 {
        let board = self.pos.board();
        // A bare king against mating material has an evaluation of its own (`eval::mopup`),
        // which the network's is not computed for.
        let eval = mopup::evaluate(board).unwrap_or_else(|| self.evaluate_board(board, ply));
        // A strength limit's fixed error for this position (`search::strength`).
        match &self.blur {
            None => eval,
            Some(blur) => blur
                .apply(self.pos.key(), eval)
                .clamp(-EVAL_LIMIT_NNUE, EVAL_LIMIT_NNUE),
        }
    }

    /// The network's evaluation of `board` at `ply` (the hand-written one without a network),
    /// for the side to move.
    #[inline]
    fn evaluate_board(&self, board: &chess::Board, ply: usize) -> i32 {
        match &self.nnue {
            // In the library's unit tests, every incrementally kept accumulator the search
            // reads must equal one computed from the board: this is what checks the search's
            // own bookkeeping (make, null moves, the board passed after the move).
            #[cfg(test)]
            Some(n) if n.accs[ply] != n.net.refresh(board) => {
                panic!("stale accumulator at ply {ply} in {board}")
            }
            Some(n) => n
                .net
                .evaluate(
                    &n.accs[ply],
                    board.side_to_move(),
                    board.combined().popcnt(),
                )
                .clamp(-EVAL_LIMIT_NNUE, EVAL_LIMIT_NNUE),
            None => evaluate(board),
        }
    }
}
