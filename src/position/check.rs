//! Does a legal move give check? Answered before the move is made, so that the search can
//! spare checking moves from pruning without paying for a make/unmake.
//!
//! The test looks at the board as it will be after the move: the occupancy with the mover
//! lifted from its square and put on its destination (an en-passant victim removed, a castling
//! rook moved too). Then the enemy king is in check exactly when
//! - the piece now on the destination (the promoted piece for a promotion, the rook for
//!   castling) attacks the king as a knight or pawn, or
//! - one of our bishops, rooks or queens, as placed after the move, sees the king through
//!   the new occupancy. This one test covers direct slider checks, discovered checks, the
//!   rook of a castling move and the rank opened by an en-passant capture.
//!
//! Two magic lookups and a few bit operations: far cheaper than copying the board.

use super::Castle;
use chess::{
    get_bishop_moves, get_knight_moves, get_pawn_attacks, get_rook_moves, BitBoard, Board,
    ChessMove, Piece, Square, EMPTY,
};

/// Whether the legal move `m` puts the opponent in check. `m` must be legal in `board`.
pub fn gives_check(board: &Board, m: ChessMove) -> bool {
    let us = board.side_to_move();
    let them_king = board.king_square(!us);
    let from = m.get_source();
    let to = m.get_dest();
    let Some(mover) = board.piece_on(from) else {
        return false;
    };
    let placed = m.get_promotion().unwrap_or(mover);
    let from_bb = BitBoard::from_square(from);
    let to_bb = BitBoard::from_square(to);
    let mut occupied = (*board.combined() & !from_bb) | to_bb;
    let ours = *board.color_combined(us);
    let mut diagonal = (*board.pieces(Piece::Bishop) | *board.pieces(Piece::Queen)) & ours;
    let mut straight = (*board.pieces(Piece::Rook) | *board.pieces(Piece::Queen)) & ours;
    diagonal &= !from_bb;
    straight &= !from_bb;
    match placed {
        Piece::Bishop => diagonal |= to_bb,
        Piece::Rook => straight |= to_bb,
        Piece::Queen => {
            diagonal |= to_bb;
            straight |= to_bb;
        }
        Piece::Knight => {
            if get_knight_moves(to) & BitBoard::from_square(them_king) != EMPTY {
                return true;
            }
        }
        Piece::Pawn => {
            if get_pawn_attacks(to, us, BitBoard::from_square(them_king)) != EMPTY {
                return true;
            }
            if from.get_file() != to.get_file() && board.piece_on(to).is_none() {
                // En passant: the captured pawn stands beside the mover's origin.
                let victim = Square::make_square(from.get_rank(), to.get_file());
                occupied &= !BitBoard::from_square(victim);
            }
        }
        Piece::King => {
            if let Some(c) = Castle::of(board, m) {
                // The rook jumps to the square beside the king's; in Chess960 the king may
                // "move" onto its own rook's square, so the occupancy is rebuilt from scratch.
                let rook_from = BitBoard::from_square(c.rook_from);
                let rook_to = BitBoard::from_square(c.rook_to);
                occupied = (*board.combined() & !from_bb & !rook_from)
                    | BitBoard::from_square(c.king_to)
                    | rook_to;
                straight = (straight & !rook_from) | rook_to;
            }
        }
    }
    get_bishop_moves(them_king, occupied) & diagonal != EMPTY
        || get_rook_moves(them_king, occupied) & straight != EMPTY
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;
    use chess::MoveGen;

    /// Compare with the crate's own answer (make the move, read the checkers) on every legal
    /// move of the position and of the positions two plies on.
    fn compare_tree(board: &Board, depth: u32, checked: &mut usize) {
        for m in MoveGen::new_legal(board) {
            let after = board.make_move_new(m);
            let expected = *after.checkers() != EMPTY;
            assert_eq!(
                gives_check(board, m),
                expected,
                "move {m} in {board} (expected {expected})"
            );
            *checked += 1;
            if depth > 1 {
                compare_tree(&after, depth - 1, checked);
            }
        }
    }

    #[test]
    fn agrees_with_make_move_on_the_perft_suites() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/perft");
        let mut checked = 0;
        let mut positions = 0;
        for name in [
            "standard.epd",
            "tricky.epd",
            "double-checks.epd",
            "classic6.epd",
        ] {
            let text = std::fs::read_to_string(format!("{dir}/{name}")).expect("suite file");
            for line in text.lines() {
                let Some(fen) = line.split(';').next().map(str::trim) else {
                    continue;
                };
                let Ok(pos) = Position::from_fen(fen) else {
                    continue;
                };
                positions += 1;
                compare_tree(pos.board(), 2, &mut checked);
            }
        }
        assert!(positions > 50, "only {positions} positions read");
        assert!(checked > 10_000, "only {checked} moves compared");
    }

    #[test]
    fn special_moves() {
        let cases = [
            // Castling: the rook gives check from its new square.
            ("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", true),
            ("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1", true),
            ("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1", false),
            // En passant opening the rank to the king.
            ("8/8/8/k2pP2R/8/8/8/4K3 w - d6 0 1", "e5d6", true),
            // En passant clearing the victim's square from a bishop's diagonal.
            ("6k1/8/8/3pP3/8/8/B7/4K3 w - d6 0 1", "e5d6", true),
            // Promotion to a knight that checks, and to a queen that does not.
            ("2k5/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8n", false),
            ("7k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8q", true),
            ("8/4P1k1/8/8/8/8/8/4K3 w - - 0 1", "e7e8n", true),
            // Discovered check by moving a piece off the line.
            ("4k3/8/8/4N3/8/8/8/4R1K1 w - - 0 1", "e5c6", true),
        ];
        for (fen, uci, expected) in cases {
            let pos = Position::from_fen(fen).expect("test FEN");
            let m = MoveGen::new_legal(pos.board())
                .find(|m| m.to_string() == uci)
                .expect("legal test move");
            let actual = *pos.board().make_move_new(m).checkers() != EMPTY;
            assert_eq!(actual, expected, "test case {fen} {uci} is wrong");
            assert_eq!(gives_check(pos.board(), m), expected, "{fen} {uci}");
        }
    }

    /// Chess960 castling, which the crate cannot make: compare with `Position::make_move` on
    /// every move two plies deep from the Chess960 suite's positions.
    #[test]
    fn agrees_with_make_move_on_chess960_castling() {
        fn walk(pos: &mut Position, depth: u32, castles: &mut usize) {
            for m in pos.legal_moves() {
                let board = *pos.board();
                let own = crate::position::Castle::of(&board, m).is_some_and(|c| c.is_own(m));
                *castles += usize::from(own);
                pos.make_move(m);
                assert_eq!(gives_check(&board, m), pos.in_check(), "{m} in {board}");
                if depth > 1 {
                    walk(pos, depth - 1, castles);
                }
                pos.unmake();
            }
        }
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/perft/chess960.epd");
        let text = std::fs::read_to_string(path).expect("suite file");
        let mut castles = 0;
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let fen = line.split(';').next().unwrap_or("").trim();
            let mut pos = Position::from_any_fen(fen).expect("suite FEN");
            walk(&mut pos, 2, &mut castles);
        }
        assert!(castles > 100, "only {castles} Chess960 castling moves seen");
    }
}
