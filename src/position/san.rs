//! Standard algebraic notation (SAN), as found in PGN files and EPD `bm`/`am` operations.
//!
//! Like UCI move text, a SAN move is accepted only by matching it against the legal moves.

use chess::{Board, ChessMove, File, MoveGen, Piece, Rank, Square};
use std::str::FromStr;

fn piece_from_letter(c: char) -> Option<Piece> {
    match c {
        'N' => Some(Piece::Knight),
        'B' => Some(Piece::Bishop),
        'R' => Some(Piece::Rook),
        'Q' => Some(Piece::Queen),
        'K' => Some(Piece::King),
        _ => None,
    }
}

/// The legal move that a SAN string (e.g. `Nbd7`, `exd8=Q+`, `O-O`) stands for in
/// `board`, or `None` if there is no such move or more than one.
pub fn san_to_move(board: &Board, san: &str) -> Option<ChessMove> {
    let san = san.trim_end_matches(['+', '#', '!', '?']);
    let legal = MoveGen::new_legal(board);
    let king = board.king_square(board.side_to_move());
    match san {
        "O-O" | "0-0" | "O-O-O" | "0-0-0" => {
            let file = if san.len() == 3 { File::G } else { File::C };
            let dest = Square::make_square(king.get_rank(), file);
            return legal.into_iter().find(|m| {
                m.get_source() == king && m.get_dest() == dest && king.get_file() == File::E
            });
        }
        _ => {}
    }
    let mut chars = san.chars();
    let first = chars.next()?;
    let (piece, rest) = match piece_from_letter(first) {
        Some(p) => (p, chars.as_str()),
        None => (Piece::Pawn, san),
    };
    let (body, promotion) = match rest.split_once('=') {
        Some((body, promo)) => (body, Some(piece_from_letter(promo.chars().next()?)?)),
        None => match rest.chars().last().and_then(piece_from_letter) {
            Some(p) if piece == Piece::Pawn => (&rest[..rest.len() - 1], Some(p)),
            _ => (rest, None),
        },
    };
    let body: Vec<char> = body
        .chars()
        .filter(|&c| c != 'x' && c != '-' && c != ':')
        .collect();
    if body.len() < 2 {
        return None;
    }
    let dest_text: String = body[body.len() - 2..].iter().collect();
    let dest = Square::from_str(&dest_text).ok()?;
    let mut from_file = None;
    let mut from_rank = None;
    for &c in &body[..body.len() - 2] {
        match c {
            'a'..='h' => from_file = Some(File::from_index(c as usize - 'a' as usize)),
            '1'..='8' => from_rank = Some(Rank::from_index(c as usize - '1' as usize)),
            _ => return None,
        }
    }
    let mut found = None;
    for m in legal {
        let source = m.get_source();
        if m.get_dest() == dest
            && board.piece_on(source) == Some(piece)
            && m.get_promotion() == promotion
            && from_file.is_none_or(|f| source.get_file() == f)
            && from_rank.is_none_or(|r| source.get_rank() == r)
        {
            if found.is_some() {
                return None;
            }
            found = Some(m);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_moves() {
        let start = Board::default();
        assert_eq!(
            san_to_move(&start, "e4").map(|m| m.to_string()),
            Some("e2e4".into())
        );
        assert_eq!(
            san_to_move(&start, "Nf3!?").map(|m| m.to_string()),
            Some("g1f3".into())
        );
        assert_eq!(san_to_move(&start, "Nd2"), None, "occupied destination");
        assert_eq!(san_to_move(&start, "Qh5"), None);
        assert_eq!(san_to_move(&start, ""), None);
        assert_eq!(san_to_move(&start, "x"), None);
    }

    #[test]
    fn san_handles_promotion_disambiguation_and_castling() {
        let b = Board::from_str("r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap_or_default();
        assert_eq!(
            san_to_move(&b, "b8=Q").map(|m| m.to_string()),
            Some("b7b8q".to_string())
        );
        assert_eq!(
            san_to_move(&b, "bxa8=N+").map(|m| m.to_string()),
            Some("b7a8n".to_string())
        );
        assert_eq!(
            san_to_move(&b, "O-O").map(|m| m.to_string()),
            Some("e1g1".to_string())
        );
        assert_eq!(
            san_to_move(&b, "O-O-O").map(|m| m.to_string()),
            Some("e1c1".to_string())
        );
        assert_eq!(
            san_to_move(&b, "Rab1").map(|m| m.to_string()),
            Some("a1b1".to_string())
        );
        assert_eq!(
            san_to_move(&b, "Rb1").map(|m| m.to_string()),
            Some("a1b1".to_string())
        );
        assert_eq!(san_to_move(&b, "Nf3"), None, "no knight");
        let knights = Board::from_str("4k3/8/8/8/8/2N3N1/8/2N1K3 w - - 0 1").unwrap_or_default();
        assert_eq!(san_to_move(&knights, "Ne2"), None, "ambiguous");
        assert_eq!(san_to_move(&knights, "N3e2"), None, "still ambiguous");
        assert_eq!(
            san_to_move(&knights, "Nc3e2").map(|m| m.to_string()),
            Some("c3e2".to_string())
        );
        assert_eq!(
            san_to_move(&knights, "Nge2").map(|m| m.to_string()),
            Some("g3e2".to_string())
        );
    }
}
