//! The order in which the root's moves are searched.
//!
//! The root reduces its quiet moves by their place in the list, from the fourth on, so the
//! order decides which moves get the full depth. In the generator's order (a2a3, a2a4, b2b3,
//! …) d2d4 and g1f3 were reduced in the opening because the crate lists them late. So the
//! first iteration orders the root as an inner node orders its moves (the table move, the
//! captures that do not lose material, then quiet moves by history), and every later one by
//! the nodes each move's searches have taken so far, Crafty's order: a move that took many
//! nodes to refute is the likeliest to become the best. The lines just found go first all
//! the same (`iterate`).

use super::Searcher;
use crate::search::ordering::{MovePicker, NO_CONTINUATIONS};
use chess::ChessMove;
use std::cmp::Reverse;

impl Searcher<'_> {
    /// Order `moves` (the root's, or those of `searchmoves`) as an inner node would try them.
    /// Moves the ordering cannot tell apart keep their order.
    pub fn order_root_moves_first(&self, moves: &mut [ChessMove]) {
        if !self.feat.root_order {
            return;
        }
        let tt_move = self
            .tt
            .probe(self.pos.key(), 0, self.pos.halfmove_clock())
            .and_then(|h| h.mv);
        let mut picker = MovePicker::all(
            self.pos.board(),
            self.pos.castles(),
            tt_move,
            &*self.heur,
            0,
            None,
            &NO_CONTINUATIONS,
            self.feat.capture_history,
            Vec::new(),
        );
        let ranked: Vec<ChessMove> = std::iter::from_fn(|| picker.next_move())
            .map(|(m, _)| m)
            .collect();
        moves.sort_by_cached_key(|m| ranked.iter().position(|r| r == m).unwrap_or(usize::MAX));
    }

    /// Order `moves` by the nodes their searches have taken in this search, most first.
    pub fn order_root_moves_by_nodes(&self, moves: &mut [ChessMove]) {
        if self.feat.root_order {
            moves.sort_by_cached_key(|&m| Reverse(self.root_move_nodes(m)));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::position::Position;
    use crate::score::INFINITY;
    use crate::search::alphabeta::tests::with_searcher;
    use crate::tt::{Bound, Entry, TranspositionTable};
    use chess::ChessMove;

    /// At the start the captures that win material come first and the table's move before
    /// them; after a search, the move whose searches took the most nodes leads.
    #[test]
    fn the_root_is_ordered_by_the_inner_order_then_by_nodes() {
        let pos = Position::from_fen("4k3/8/8/3q4/8/2N5/8/4K2R w K - 0 1").expect("fen");
        let tt = TranspositionTable::new(1);
        with_searcher(&pos, &tt, |s| {
            let mut moves: Vec<ChessMove> = pos.legal_moves().collect();
            s.order_root_moves_first(&mut moves);
            assert_eq!(moves[0].to_string(), "c3d5", "the free queen first");
            s.search_root(&moves, 4, -INFINITY, INFINITY);
            let most = *moves
                .iter()
                .max_by_key(|&&m| s.root_move_nodes(m))
                .expect("moves");
            s.order_root_moves_by_nodes(&mut moves);
            assert_eq!(moves[0], most);
            let nodes: Vec<u64> = moves.iter().map(|&m| s.root_move_nodes(m)).collect();
            assert!(nodes.windows(2).all(|w| w[0] >= w[1]), "{nodes:?}");
            // A table move (an earlier search passed through this position) leads the inner
            // order, even a quiet one.
            let quiet = *moves
                .iter()
                .find(|m| m.to_string() == "h1h7")
                .expect("legal");
            let entry = Entry {
                mv: Some(quiet),
                score: 0,
                eval: Some(0),
                depth: 3,
                bound: Bound::Exact,
            };
            tt.store(pos.key(), 0, entry);
            s.order_root_moves_first(&mut moves);
            assert_eq!(moves[0], quiet);
            assert_eq!(moves[1].to_string(), "c3d5");
        });
    }
}
