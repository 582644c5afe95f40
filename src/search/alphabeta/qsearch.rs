//! Quiescence search: only captures and queen promotions (all evasions in check), so that
//! the static evaluation is only ever taken in a quiet position.

use super::{Searcher, TT_CUTOFF_HALFMOVE_LIMIT};
use crate::position::gives_check;
use crate::score::{is_decisive, DRAW, MATE, MATE_BOUND};
use crate::search::ordering::{is_noisy, MovePicker, MAX_PLY};
use crate::search::params;
use crate::search::see;
use crate::tt::{Bound, Entry};

/// A backstop: deeper than this, quiescence returns the static evaluation (a draw when in
/// check, as at `MAX_PLY`).
const QS_MAX_DEPTH: i32 = 32;

impl Searcher<'_> {
    /// Quiescence: only captures and queen promotions (all evasions in check), so that the
    /// static evaluation is only ever taken in a quiet position. `qdepth` counts the plies
    /// since the main search ended.
    ///
    /// Why it is bounded the way it is: SEE and delta pruning alone leave every even trade in
    /// the tree, and a position where many pieces attack each other (a dozen queens a side, or
    /// eight pawns a side promoting) has an exponential number of even-trade orders, and depth
    /// 1 never finished. Results are stored in the table so that orders transpose, and the
    /// width is capped by move-count pruning and recapture-only deep quiescence
    /// ([`params::qs_captures`], [`params::qs_recapture_depth`]); `QS_MAX_DEPTH` is only a
    /// backstop. Node counts in docs/measurements/search.md.
    pub fn quiescence(&mut self, mut alpha: i32, beta: i32, ply: usize, qdepth: i32) -> i32 {
        self.pv_len[ply] = ply;
        if !self.stop.tick() {
            return DRAW;
        }
        self.seldepth = self.seldepth.max(ply);
        if self.pos.is_draw_in_search() {
            return DRAW;
        }
        let in_check = self.pos.in_check();
        if ply >= MAX_PLY || qdepth >= QS_MAX_DEPTH {
            return if in_check {
                DRAW
            } else {
                self.corrected(self.correction_keys(), self.evaluate(ply))
            };
        }
        let key = self.pos.key();
        let hit = self.tt.probe(key, ply, self.pos.halfmove_clock());
        // Near the fifty-move limit a stored score may be one the draw would overrule, as in
        // the main search.
        let score_trusted = self.pos.halfmove_clock() < TT_CUTOFF_HALFMOVE_LIMIT;
        if let Some(h) = hit.filter(|_| score_trusted) {
            let usable = match h.bound {
                Bound::Exact => true,
                Bound::Lower => h.score >= beta,
                Bound::Upper => h.score <= alpha,
            };
            if usable && beta - alpha == 1 {
                return h.score;
            }
        }
        let raw_eval = if in_check {
            None
        } else {
            Some(
                hit.and_then(|h| h.eval)
                    .unwrap_or_else(|| self.evaluate(ply)),
            )
        };
        let mut stand_pat = match raw_eval {
            None => -MATE + ply as i32,
            Some(e) => self.corrected(self.correction_keys(), e),
        };
        // The table's score is a better stand-pat than the evaluation where its bound says the
        // truth lies beyond it (Stockfish 11's qsearch); not a mate or tablebase score, which
        // a bound cannot prove here.
        if let Some(h) = hit
            .filter(|h| self.feat.qs_tt_move && !in_check && score_trusted && !is_decisive(h.score))
        {
            let beyond = match h.bound {
                Bound::Lower => h.score > stand_pat,
                Bound::Upper => h.score < stand_pat,
                Bound::Exact => true,
            };
            if beyond {
                stand_pat = h.score;
            }
        }
        if stand_pat >= beta {
            return stand_pat;
        }
        let original_alpha = alpha;
        alpha = alpha.max(stand_pat);
        let mut best = stand_pat;
        let mut best_move = None;
        let buffer = std::mem::take(&mut self.lists[ply]);
        let tt_move = hit.and_then(|h| h.mv).filter(|_| self.feat.qs_tt_move);
        let mut picker = MovePicker::noisy(
            self.pos.board(),
            self.feat.capture_history.then_some(&*self.heur),
            tt_move,
            buffer,
        );
        if in_check && picker.is_empty() {
            self.lists[ply] = picker.into_buffer();
            return -MATE + ply as i32;
        }
        let recapture_square = self.moves[ply].map(|m| m.get_dest());
        let mut captures = 0;
        while let Some((m, order)) = picker.next_move() {
            if in_check {
                // Once one evasion is known not to be mated, the quiet evasions and those that
                // lose material are left out: the mate question is answered, and in a melee
                // every capture checks, so searching every evasion multiplies the tree.
                if best > -MATE_BOUND
                    && (!is_noisy(self.pos.board(), m) || MovePicker::is_bad_capture(order))
                {
                    continue;
                }
            } else {
                // Captures that lose material by exchange, or cannot reach alpha even if the
                // victim comes free (delta pruning), are not worth a node.
                if MovePicker::is_bad_capture(order) {
                    continue;
                }
                // Move-count pruning: past the first few captures, and deep into
                // quiescence, only recaptures.
                if self.feat.qs_move_count && Some(m.get_dest()) != recapture_square {
                    if captures >= params::qs_captures() || qdepth >= params::qs_recapture_depth() {
                        continue;
                    }
                    captures += 1;
                }
                // A capture that gives check is spared: it may mate, which no material count
                // foresees (WAC.001's 2.Nxg6# is a pawn capture a queen down).
                if stand_pat + see::gain(self.pos.board(), m) + params::qs_delta_margin() <= alpha
                    && !gives_check(self.pos.board(), m)
                {
                    continue;
                }
            }
            self.make(ply, m);
            let score = -self.quiescence(-beta, -alpha, ply + 1, qdepth + 1);
            self.pos.unmake();
            if self.stop.is_stopped() {
                return DRAW;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(m);
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.lists[ply] = picker.into_buffer();
        let bound = if best >= beta {
            Bound::Lower
        } else if alpha > original_alpha && best_move.is_some() {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let entry = Entry {
            mv: best_move,
            score: best,
            eval: raw_eval,
            depth: 0,
            bound,
        };
        self.tt.store(key, ply, entry);
        best
    }
}

#[cfg(test)]
mod tests {
    use crate::position::Position;
    use crate::score::{INFINITY, MATE};
    use crate::search::alphabeta::tests::with_searcher;
    use crate::tt::{Bound, Entry, TranspositionTable};

    fn quiescence_of(fen: &str) -> i32 {
        let pos = Position::from_fen(fen).expect("fen");
        let tt = TranspositionTable::new(1);
        with_searcher(&pos, &tt, |s| s.quiescence(-INFINITY, INFINITY, 0, 0))
    }

    /// With no capture to try, quiescence returns its stand-pat: the table's score where the
    /// stored bound says the truth lies beyond the evaluation, and the evaluation otherwise
    /// (and always with the switch off).
    #[test]
    fn the_table_score_refines_the_stand_pat() {
        let pos = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").expect("fen");
        for (bound, score, on, expected) in [
            (Bound::Lower, 350, true, 350),
            (Bound::Upper, -250, true, -250),
            (Bound::Exact, 120, true, 120),
            (Bound::Lower, -250, true, 50),
            (Bound::Upper, 350, true, 50),
            (Bound::Lower, 350, false, 50),
            (Bound::Lower, MATE - 30, true, 50),
        ] {
            let tt = TranspositionTable::new(1);
            let entry = Entry {
                mv: None,
                score,
                eval: Some(50),
                depth: 0,
                bound,
            };
            tt.store(pos.key(), 0, entry);
            let got = with_searcher(&pos, &tt, |s| {
                s.feat.qs_tt_move = on;
                s.quiescence(-INFINITY, INFINITY, 0, 0)
            });
            assert_eq!(got, expected, "{bound:?} {score}, switch {on}");
        }
    }

    /// Black, in check from Re1, is about level after Kd7 or Ne7; Ne5 loses the knight to
    /// Rxe5+. Quiescence searches one quiet evasion, and that one must not be the block
    /// that hangs: before the evasions were ordered it scored the position about −420.
    #[test]
    fn a_hanging_block_does_not_stand_for_the_evasions() {
        let score = quiescence_of("4k3/pp3ppp/2n5/8/8/8/5PPP/4R1K1 b - - 0 1");
        assert!(score > -200, "{score}");
    }
}
