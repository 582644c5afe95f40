//! Standard algebraic notation (SAN), as found in PGN files and EPD `bm`/`am` operations.
//!
//! Like UCI move text, a SAN move is accepted only by matching it against the legal moves.

use super::castling::{self, Castle, Wing};
use super::Position;
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

impl Position {
    /// The legal move a SAN string stands for here, Chess960 castling included (`O-O` is the
    /// castling with the rook on the h-side of the king, wherever king and rook stand).
    pub fn parse_san(&self, san: &str) -> Option<ChessMove> {
        let bare = san.trim_end_matches(['+', '#', '!', '?']);
        let wing = match bare {
            "O-O" | "0-0" => Wing::H,
            "O-O-O" | "0-0-0" => Wing::A,
            _ => return san_to_move(self.board(), san),
        };
        self.legal_moves()
            .find(|&m| Castle::of(self.board(), m).is_some_and(|c| c.wing == wing))
    }
}

fn piece_letter(p: Piece) -> &'static str {
    match p {
        Piece::Pawn => "",
        Piece::Knight => "N",
        Piece::Bishop => "B",
        Piece::Rook => "R",
        Piece::Queen => "Q",
        Piece::King => "K",
    }
}

/// The SAN text of the legal move `m` in `board` (for writing PGN): the piece letter, the
/// least disambiguation that makes it unique (file, then rank, then both), `x` for captures,
/// `=Q` for promotions and `+`/`#` for check and mate.
pub fn move_to_san(board: &Board, m: ChessMove) -> String {
    let source = m.get_source();
    let dest = m.get_dest();
    let piece = board.piece_on(source).unwrap_or(Piece::Pawn);
    let castle = Castle::of(board, m);
    let mut text = String::new();
    if let Some(c) = castle {
        text.push_str(if c.wing == Wing::H { "O-O" } else { "O-O-O" });
    } else {
        let capture = board.piece_on(dest).is_some()
            || (piece == Piece::Pawn && source.get_file() != dest.get_file());
        text.push_str(piece_letter(piece));
        if piece == Piece::Pawn {
            if capture {
                text.push((b'a' + source.get_file().to_index() as u8) as char);
            }
        } else {
            let rivals: Vec<Square> = MoveGen::new_legal(board)
                .filter(|o| {
                    o.get_dest() == dest
                        && o.get_source() != source
                        && board.piece_on(o.get_source()) == Some(piece)
                })
                .map(|o| o.get_source())
                .collect();
            if !rivals.is_empty() {
                let file_unique = rivals.iter().all(|r| r.get_file() != source.get_file());
                let rank_unique = rivals.iter().all(|r| r.get_rank() != source.get_rank());
                let name = source.to_string();
                if file_unique {
                    text.push_str(&name[..1]);
                } else if rank_unique {
                    text.push_str(&name[1..]);
                } else {
                    text.push_str(&name);
                }
            }
        }
        if capture {
            text.push('x');
        }
        text.push_str(&dest.to_string());
        if let Some(p) = m.get_promotion() {
            text.push('=');
            text.push_str(piece_letter(p));
        }
    }
    let after = match castle.filter(|c| c.is_own(m)) {
        Some(c) => castling::apply(board, &c).unwrap_or(*board),
        None => board.make_move_new(m),
    };
    if *after.checkers() != chess::EMPTY {
        let mated = MoveGen::new_legal(&after).len() == 0;
        text.push(if mated { '#' } else { '+' });
    }
    text
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

    #[test]
    fn san_written_round_trips() {
        let fens = [
            "r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1",
            "4k3/8/8/8/8/2N3N1/8/2N1K3 w - - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        ];
        for fen in fens {
            let b = Board::from_str(fen).unwrap_or_default();
            for m in MoveGen::new_legal(&b) {
                let san = move_to_san(&b, m);
                assert_eq!(san_to_move(&b, &san), Some(m), "{fen}: {san}");
            }
        }
        let b = Board::from_str("4k3/8/8/8/8/2N3N1/8/2N1K3 w - - 0 1").unwrap_or_default();
        let m = ChessMove::new(Square::C3, Square::E2, None);
        assert_eq!(move_to_san(&b, m), "Nc3e2");
        let m = ChessMove::new(Square::G3, Square::E2, None);
        assert_eq!(move_to_san(&b, m), "Nge2");
        let ep = Board::from_str(fens[3]).unwrap_or_default();
        assert_eq!(
            move_to_san(&ep, ChessMove::new(Square::E5, Square::F6, None)),
            "exf6"
        );
        let mate = Board::from_str("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap_or_default();
        assert_eq!(
            move_to_san(&mate, ChessMove::new(Square::A1, Square::A8, None)),
            "Ra8#"
        );
        let castle = Board::from_str(fens[0]).unwrap_or_default();
        assert_eq!(
            move_to_san(&castle, ChessMove::new(Square::E1, Square::C1, None)),
            "O-O-O"
        );
    }
}
