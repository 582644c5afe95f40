//! Static evaluation (interim: material and centralisation until the tuned evaluation lands).

use chess::{Board, Color, Piece, ALL_PIECES};

const VALUE: [i32; 6] = [100, 320, 330, 500, 900, 0];

/// Centipawns from the side to move's point of view.
pub fn evaluate(board: &Board) -> i32 {
    let mut score = 0;
    for piece in ALL_PIECES {
        for color in [Color::White, Color::Black] {
            let sign = if color == Color::White { 1 } else { -1 };
            for sq in *board.pieces(piece) & *board.color_combined(color) {
                let file = sq.get_file().to_index() as i32;
                let rank = sq.get_rank().to_index() as i32;
                let center = 6 - ((2 * file - 7).abs() + (2 * rank - 7).abs()) / 2;
                let bonus = if piece == Piece::King { 0 } else { center * 2 };
                score += sign * (VALUE[piece.to_index()] + bonus);
            }
        }
    }
    if board.side_to_move() == Color::White {
        score + 10
    } else {
        -score + 10
    }
}
