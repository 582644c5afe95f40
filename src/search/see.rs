//! Static exchange evaluation: the material balance of the capture sequence on one square,
//! each side recapturing with its least valuable attacker and free to stop (the "swap" method
//! described on the Chess Programming Wiki).

use chess::{
    get_bishop_moves, get_king_moves, get_knight_moves, get_pawn_attacks, get_rook_moves, BitBoard,
    Board, ChessMove, Color, Piece, Square, ALL_PIECES, EMPTY,
};

/// Piece values for exchanges and move ordering (pawn = 100).
pub const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 900, 20_000];

pub fn value(piece: Piece) -> i32 {
    SEE_VALUE[piece.to_index()]
}

/// Material the move wins immediately: the captured piece (a pawn for en passant) plus the
/// promotion gain.
pub fn gain(board: &Board, m: ChessMove) -> i32 {
    let captured = match board.piece_on(m.get_dest()) {
        Some(p) => value(p),
        None if is_en_passant(board, m) => value(Piece::Pawn),
        None => 0,
    };
    captured
        + m.get_promotion()
            .map_or(0, |p| value(p) - value(Piece::Pawn))
}

/// A pawn's diagonal step onto an empty square. Tested with bitboards rather than
/// `piece_on`, whose search through the piece sets is a chain of branches: the move picker
/// asks this of every quiet move.
#[inline]
pub fn is_en_passant(board: &Board, m: ChessMove) -> bool {
    let (from, to) = (m.get_source(), m.get_dest());
    *board.pieces(Piece::Pawn) & BitBoard::from_square(from) != EMPTY
        && from.get_file() != to.get_file()
        && *board.combined() & BitBoard::from_square(to) == EMPTY
}

fn attackers(board: &Board, sq: Square, occupied: BitBoard) -> BitBoard {
    let diagonal = *board.pieces(Piece::Bishop) | *board.pieces(Piece::Queen);
    let straight = *board.pieces(Piece::Rook) | *board.pieces(Piece::Queen);
    let pawns = *board.pieces(Piece::Pawn);
    (get_pawn_attacks(
        sq,
        Color::White,
        pawns & *board.color_combined(Color::Black),
    ) | get_pawn_attacks(
        sq,
        Color::Black,
        pawns & *board.color_combined(Color::White),
    ) | (get_knight_moves(sq) & *board.pieces(Piece::Knight))
        | (get_king_moves(sq) & *board.pieces(Piece::King))
        | (get_bishop_moves(sq, occupied) & diagonal)
        | (get_rook_moves(sq, occupied) & straight))
        & occupied
}

/// Does the move win at least `threshold` centipawns of material by exchanges?
pub fn see_ge(board: &Board, m: ChessMove, threshold: i32) -> bool {
    let from = m.get_source();
    let to = m.get_dest();
    let Some(mut moving) = board.piece_on(from) else {
        return false;
    };
    if let Some(p) = m.get_promotion() {
        moving = p;
    }
    // What we win if the opponent does not recapture, minus the threshold.
    let mut balance = gain(board, m) - threshold;
    if balance < 0 {
        return false;
    }
    // What we lose if they recapture the piece now on `to` and we stop.
    balance -= value(moving);
    if balance >= 0 {
        return true;
    }
    let mut occupied = *board.combined() ^ BitBoard::from_square(from) | BitBoard::from_square(to);
    if is_en_passant(board, m) {
        let victim = Square::make_square(from.get_rank(), to.get_file());
        occupied ^= BitBoard::from_square(victim);
    }
    let diagonal = *board.pieces(Piece::Bishop) | *board.pieces(Piece::Queen);
    let straight = *board.pieces(Piece::Rook) | *board.pieces(Piece::Queen);
    let mut all = attackers(board, to, occupied);
    let mut side = !board.side_to_move();
    loop {
        let ours = all & *board.color_combined(side) & occupied;
        if ours == EMPTY {
            break;
        }
        // Least valuable attacker.
        let mut piece = Piece::King;
        let mut from_bb = EMPTY;
        for p in ALL_PIECES {
            let bb = ours & *board.pieces(p);
            if bb != EMPTY {
                piece = p;
                from_bb = BitBoard::from_square(bb.to_square());
                break;
            }
        }
        side = !side;
        // Capturing with the king into a defended square is illegal: the other side wins.
        balance = -balance - 1 - value(piece);
        if balance >= 0 {
            if piece == Piece::King && (all & *board.color_combined(side) & occupied) != EMPTY {
                side = !side;
            }
            break;
        }
        occupied ^= from_bb;
        // Sliders behind the piece that just captured join in (x-rays).
        if matches!(piece, Piece::Pawn | Piece::Bishop | Piece::Queen) {
            all |= get_bishop_moves(to, occupied) & diagonal;
        }
        if matches!(piece, Piece::Rook | Piece::Queen) {
            all |= get_rook_moves(to, occupied) & straight;
        }
        all &= occupied;
    }
    // The side to move at the end is the one that could not (profitably) continue: it lost.
    side != board.side_to_move()
}

/// Can the side to move win material by capturing on `sq`, its least valuable attacker
/// first? (Pins are ignored, as everywhere in exchange evaluation.)
pub fn wins_material_on(board: &Board, sq: Square) -> bool {
    if board.piece_on(sq).is_none() {
        return false;
    }
    let us = board.side_to_move();
    let ours = attackers(board, sq, *board.combined()) & *board.color_combined(us);
    let Some(piece) = ALL_PIECES
        .into_iter()
        .find(|&p| ours & *board.pieces(p) != EMPTY)
    else {
        return false;
    };
    let from = (ours & *board.pieces(piece)).to_square();
    let last_rank = matches!(sq.get_rank(), chess::Rank::First | chess::Rank::Eighth);
    let promotion = (piece == Piece::Pawn && last_rank).then_some(Piece::Queen);
    see_ge(board, ChessMove::new(from, sq, promotion), 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn see(fen: &str, mv: &str, threshold: i32) -> bool {
        let board = Board::from_str(fen).unwrap();
        see_ge(&board, ChessMove::from_str(mv).unwrap(), threshold)
    }

    #[test]
    fn material_to_win_on_a_square() {
        // WAC.001 after 1.Qg6: f7xg6 wins the queen (Ne5xg6 only gets a pawn back).
        let fen = "2rr3k/pp3pp1/1nnqbNQp/3pN3/2pP4/2P5/PPB4P/R4RK1 b - - 1 1";
        let board = Board::from_str(fen).unwrap();
        assert!(wins_material_on(&board, Square::G6));
        // A knight defended by a pawn, attacked only by a rook: nothing to win.
        let fen = "4k3/8/4p3/3n4/8/8/8/3RK3 w - - 0 1";
        let board = Board::from_str(fen).unwrap();
        assert!(!wins_material_on(&board, Square::D5));
        // The same knight undefended: the rook wins it. An empty square: nothing.
        let fen = "4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1";
        let board = Board::from_str(fen).unwrap();
        assert!(wins_material_on(&board, Square::D5));
        assert!(!wins_material_on(&board, Square::D4));
    }

    #[test]
    fn exchanges() {
        // Pawn takes undefended knight.
        let fen = "4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1";
        assert!(see(fen, "e4d5", 320));
        assert!(!see(fen, "e4d5", 321));
        // Queen takes a pawn defended by a pawn: loses the queen for a pawn.
        let fen = "4k3/2p5/3p4/8/8/8/8/3QK3 w - - 0 1";
        assert!(!see(fen, "d1d6", 0));
        // Rook takes rook defended by rook, with our second rook behind (x-ray): wins a rook
        // for a rook, net zero or better.
        let fen = "3rk3/3r4/8/8/8/8/3R4/3RK3 w - - 0 1";
        assert!(see(fen, "d2d7", 0));
        assert!(!see(fen, "d2d7", 1));
        // A knight moving to a square a pawn attacks loses it; to a safe square it does not.
        let fen = "4k3/8/8/2p5/8/8/4N3/4K3 w - - 0 1";
        assert!(!see(fen, "e2d4", 0));
        assert!(see(fen, "e2f4", 0));
        // En passant wins a pawn.
        let fen = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1";
        assert!(see(fen, "e5d6", 100));
        // The king may not recapture a defended piece.
        let fen = "4k3/8/8/8/8/8/4p3/3rK3 w - - 0 1";
        assert!(!see(fen, "e1d1", 1));
    }
}
