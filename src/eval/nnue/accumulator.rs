//! The feature transformer's sums for both perspectives, and the change a move makes to them.

use super::{feature, Network, Row, View, HIDDEN};
use chess::{Board, ChessMove, Color, File, Piece, Square};

/// `values[0]` is White's perspective, `values[1]` Black's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Accumulator {
    pub values: [Row; 2],
    /// How each perspective read the board when it was computed (from its king's square): a
    /// move that changes a perspective's view cannot be applied to it incrementally.
    pub views: [View; 2],
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator {
            values: [Row::ZERO; 2],
            views: [View::default(); 2],
        }
    }
}

/// The pieces a move takes off and puts on the board: at most two of each (castling moves
/// king and rook; a capture-promotion removes the pawn and the victim and adds one piece).
#[derive(Clone, Copy, Debug, Default)]
pub struct Delta {
    pub removed: [Option<(Color, Piece, Square)>; 2],
    pub added: [Option<(Color, Piece, Square)>; 2],
}

impl Delta {
    /// The change a legal move makes, computed before the move is made.
    pub fn of(board: &Board, m: ChessMove) -> Delta {
        let us = board.side_to_move();
        let (from, to) = (m.get_source(), m.get_dest());
        let mut delta = Delta::default();
        let Some(mover) = board.piece_on(from) else {
            return delta;
        };
        delta.removed[0] = Some((us, mover, from));
        delta.added[0] = Some((us, m.get_promotion().unwrap_or(mover), to));
        if mover == Piece::King {
            // Castling: the king two files over (standard chess) or onto its own rook (our
            // Chess960 moves); either way king and rook end on g/f or c/d.
            let onto_own = board.color_on(to) == Some(us);
            let (from_file, to_file) = (from.get_file(), to.get_file());
            if onto_own || from_file.to_index().abs_diff(to_file.to_index()) == 2 {
                let rank = from.get_rank();
                let h_side = to_file > from_file;
                let (king_to, rook_to, corner) = if h_side {
                    (File::G, File::F, File::H)
                } else {
                    (File::C, File::D, File::A)
                };
                let rook_from = if onto_own {
                    to
                } else {
                    Square::make_square(rank, corner)
                };
                delta.added[0] = Some((us, Piece::King, Square::make_square(rank, king_to)));
                delta.removed[1] = Some((us, Piece::Rook, rook_from));
                delta.added[1] = Some((us, Piece::Rook, Square::make_square(rank, rook_to)));
                return delta;
            }
        }
        if let Some(victim) = board.piece_on(to) {
            delta.removed[1] = Some((!us, victim, to));
        } else if mover == Piece::Pawn && from.get_file() != to.get_file() {
            let square = Square::make_square(from.get_rank(), to.get_file());
            delta.removed[1] = Some((!us, Piece::Pawn, square));
        }
        delta
    }
}

impl Accumulator {
    /// This accumulator is `parent` after the move described by `delta`, which led to
    /// `board`: one pass that copies and updates together. A perspective whose view changed
    /// (its king crossed the board's middle in a king-mirrored network, or entered another
    /// king bucket) is computed from `board` instead.
    pub fn apply(&mut self, parent: &Accumulator, net: &Network, delta: &Delta, board: &Board) {
        // Only a king move can change a view, and only its own side's.
        let king_mover = match delta.removed[0] {
            Some((colour, Piece::King, _)) => Some(colour),
            _ => None,
        };
        for (p, perspective) in [Color::White, Color::Black].into_iter().enumerate() {
            let view = if king_mover == Some(perspective) {
                net.view(board, perspective)
            } else {
                parent.views[p]
            };
            if view != parent.views[p] {
                net.refresh_perspective(self, board, perspective);
                continue;
            }
            self.views[p] = view;
            let rows = |list: &[Option<(Color, Piece, Square)>; 2]| {
                list.map(|e| {
                    e.map(|(c, pc, sq)| &net.ft_weights[feature(perspective, view, c, pc, sq)])
                })
            };
            let (added, removed) = (rows(&delta.added), rows(&delta.removed));
            let (out, from) = (&mut self.values[p], &parent.values[p]);
            // The two shapes nearly every move has, a quiet move and a capture, in one pass
            // each, so that the sums stay in vector registers from the parent's load to the
            // store; castling and the rest take the general path.
            match (added, removed) {
                ([Some(a), None], [Some(r), None]) => {
                    for i in 0..HIDDEN {
                        out[i] = from[i].wrapping_add(a[i]).wrapping_sub(r[i]);
                    }
                }
                ([Some(a), None], [Some(r), Some(c)]) => {
                    for i in 0..HIDDEN {
                        out[i] = from[i]
                            .wrapping_add(a[i])
                            .wrapping_sub(r[i])
                            .wrapping_sub(c[i]);
                    }
                }
                _ => {
                    *out = *from;
                    for row in added.into_iter().flatten() {
                        add_row(out, row);
                    }
                    for row in removed.into_iter().flatten() {
                        for (v, w) in out.iter_mut().zip(row) {
                            *v = v.wrapping_sub(*w);
                        }
                    }
                }
            }
        }
    }
}

/// Add one input's weights to a perspective's sums: the one addition both the incremental
/// update and a refresh make.
#[inline]
pub(super) fn add_row(values: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (v, w) in values.iter_mut().zip(row) {
        *v = v.wrapping_add(*w);
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{layouts, random_network, random_network_with};
    use super::super::Inputs;
    use super::*;
    use chess::MoveGen;
    use std::str::FromStr;

    /// Incremental updates must equal a refresh after every legal move, two plies deep, on
    /// positions with castling, en passant and promotions, and with kings on both sides of
    /// the board's middle, for both input layouts and every named king-bucket layout.
    #[test]
    fn incremental_update_matches_refresh() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "8/1p6/3k4/4p3/3P4/4K3/6P1/8 w - - 0 1",
        ];
        for (inputs, king_buckets) in layouts() {
            let mut net = random_network_with(11, king_buckets);
            net.inputs = inputs;
            for fen in fens {
                let board = Board::from_str(fen).expect("test FEN");
                let root = net.refresh(&board);
                for m in MoveGen::new_legal(&board) {
                    let after = board.make_move_new(m);
                    let mut acc = Accumulator::default();
                    acc.apply(&root, &net, &Delta::of(&board, m), &after);
                    assert_eq!(
                        acc,
                        net.refresh(&after),
                        "{inputs:?} {king_buckets:?} {fen} {m}"
                    );
                    for m2 in MoveGen::new_legal(&after) {
                        let next = after.make_move_new(m2);
                        let mut acc2 = Accumulator::default();
                        acc2.apply(&acc, &net, &Delta::of(&after, m2), &next);
                        assert_eq!(
                            acc2,
                            net.refresh(&next),
                            "{inputs:?} {king_buckets:?} {fen} {m} {m2}"
                        );
                    }
                }
            }
        }
    }

    /// King mirroring folds a position onto its left-right reflection: with the kings
    /// mirrored too, both perspectives see the same inputs, so the score is the same; a
    /// plain network tells the two apart.
    #[test]
    fn a_king_mirrored_network_scores_a_reflection_alike() {
        let a = Board::from_str("r4rk1/pp3ppp/2n5/3q4/8/2N2N2/PP3PPP/R2Q1RK1 w - - 0 1")
            .expect("test FEN");
        let b = Board::from_str("1kr4r/ppp3pp/5n2/4q3/8/2N2N2/PPP3PP/1KR1Q2R w - - 0 1")
            .expect("test FEN");
        let mut net = random_network(5);
        assert_ne!(net.evaluate_board(&a), net.evaluate_board(&b));
        net.inputs = Inputs::KingMirrored;
        assert_eq!(net.evaluate_board(&a), net.evaluate_board(&b));
        let flips = |board: &Board| net.refresh(board).views.map(|v| v.flip);
        assert_eq!(flips(&a), [7, 7]);
        assert_eq!(flips(&b), [0, 0]);
        // Each perspective follows its own king: White's on g1 (flipped), Black's on b8 not.
        let apart = Board::from_str("1k6/8/8/8/8/8/8/6K1 w - - 0 1").expect("test FEN");
        assert_eq!(flips(&apart), [7, 0]);
        // Black's view of a white pawn on e2, flipped: the other side's pawns (384), e7 seen
        // from Black (52), then d7 (51).
        assert_eq!(
            feature(
                Color::Black,
                View { flip: 7, bucket: 0 },
                Color::White,
                Piece::Pawn,
                Square::E2
            ),
            435
        );
    }

    /// Chess960 castling as the position module writes it, the king taking its own rook: the
    /// king and the rook end on c1 and d1 (built by hand, since the crate cannot make it).
    #[test]
    fn chess960_castling_moves_king_and_rook() {
        // Every layout: under mirrored inputs the king crossing the middle (e1 to c1) makes
        // White's perspective be computed afresh, and Black's is still updated step by step.
        // The second case is the king already on g1 castling with h1: only the rook moves.
        let cases = [
            (
                "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w - - 0 1",
                Square::E1,
                Square::B1,
                "1r2k1r1/8/8/8/8/8/8/2KR2R1 b - - 1 1",
            ),
            (
                "6k1/8/8/8/8/8/8/R5KR w - - 0 1",
                Square::G1,
                Square::H1,
                "6k1/8/8/8/8/8/8/R4RK1 b - - 1 1",
            ),
        ];
        for (inputs, king_buckets) in layouts() {
            let mut net = random_network_with(7, king_buckets);
            net.inputs = inputs;
            for (before, from, to, after) in cases {
                let board = Board::from_str(before).expect("FEN");
                let after = Board::from_str(after).expect("FEN");
                let m = ChessMove::new(from, to, None);
                let mut acc = Accumulator::default();
                acc.apply(&net.refresh(&board), &net, &Delta::of(&board, m), &after);
                assert_eq!(
                    acc,
                    net.refresh(&after),
                    "{inputs:?} {king_buckets:?} {before} {m}"
                );
            }
        }
    }
}
