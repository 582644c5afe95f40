//! Chess960 castling, which the `chess` crate does not know.
//!
//! The crate castles only with the king on the e-file and the rooks on the a- and h-files. A
//! right of that shape is left to the crate in every mode (its rules are the Chess960 rules
//! for those squares). Any other right is kept here, in [`Rights`], outside the crate's board:
//! its moves are generated, checked and made by this file. Such a castling move is written
//! as the king taking its own rook (`b1a1`), which the crate never generates, so it cannot be
//! confused with any other move; the UCI convention for Chess960 writes it that way too.
//!
//! The rules follow the FIDE Laws (Appendix: Chess960): the king and the rook end where they
//! would in standard chess (king g/c, rook f/d); every square either crosses or lands on is
//! empty but for the two of them; the king is not in check, crosses no attacked square and
//! does not land on one. The attack tests copy python-chess (`_generate_castling_moves`),
//! the reference the perft suite `perft/chess960.epd` is counted with.

use chess::{
    between, get_bishop_moves, get_king_moves, get_knight_moves, get_pawn_attacks, get_rook_moves,
    BitBoard, Board, BoardBuilder, CastleRights, ChessMove, Color, File, Piece, Rank, Square,
    EMPTY,
};

/// The side of the king a castling rook stands on: toward the h-file (castling ends on g/f,
/// `O-O`) or toward the a-file (c/d, `O-O-O`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wing {
    H,
    A,
}

impl Wing {
    pub const BOTH: [Wing; 2] = [Wing::H, Wing::A];

    /// Files the king and the rook end on.
    fn destinations(self) -> (File, File) {
        match self {
            Wing::H => (File::G, File::F),
            Wing::A => (File::C, File::D),
        }
    }
}

/// The first rank of a colour, where its king and rooks castle.
pub fn back_rank(color: Color) -> Rank {
    match color {
        Color::White => Rank::First,
        Color::Black => Rank::Eighth,
    }
}

/// Castling rights the crate cannot hold: for each colour and wing, the castling rook's file
/// or nothing. One byte each (0 = no right, else 1 + file index), so that copying the rights
/// with every move costs one word and "none" tests as zero.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rights(u32);

impl Rights {
    pub const NONE: Rights = Rights(0);

    fn shift(color: Color, wing: Wing) -> u32 {
        (color.to_index() as u32 * 2 + u32::from(wing == Wing::A)) * 8
    }

    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The square of the castling rook of `color` on `wing`, if that right exists.
    pub fn rook(self, color: Color, wing: Wing) -> Option<Square> {
        let byte = (self.0 >> Rights::shift(color, wing)) & 0xFF;
        (byte != 0)
            .then(|| Square::make_square(back_rank(color), File::from_index(byte as usize - 1)))
    }

    /// These rights plus a right for `color` on `wing` with its rook on `file`.
    pub fn with(self, color: Color, wing: Wing, file: File) -> Rights {
        let shift = Rights::shift(color, wing);
        let byte = (file.to_index() as u32 + 1) << shift;
        Rights((self.0 & !(0xFF << shift)) | byte)
    }

    fn without(self, color: Color, wing: Wing) -> Rights {
        Rights(self.0 & !(0xFF << Rights::shift(color, wing)))
    }

    /// The rights left after the legal move `m` in `board`: a colour loses both when its king
    /// moves (castling included), and one when that rook moves or is captured.
    pub fn after(self, board: &Board, m: ChessMove) -> Rights {
        let mut rights = self;
        for color in [Color::White, Color::Black] {
            let king = board.king_square(color);
            for wing in Wing::BOTH {
                if let Some(rook) = self.rook(color, wing) {
                    let from = m.get_source();
                    if from == king || from == rook || m.get_dest() == rook {
                        rights = rights.without(color, wing);
                    }
                }
            }
        }
        rights
    }

    /// What these rights add to the position's hash: 0 for none, so that standard positions
    /// keep the crate's key. SplitMix64's finaliser (Steele, Lea and Flood, "Fast splittable
    /// pseudorandom number generators", OOPSLA 2014) is a bijection of u64, so distinct rights
    /// give distinct, well-mixed values, and only "none" gives 0.
    #[inline]
    pub fn key(self) -> u64 {
        if self.0 == 0 {
            return 0;
        }
        let mut z = u64::from(self.0).wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// The squares of a castling move: the crate's (king two files) or ours (king onto own rook).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Castle {
    pub king_from: Square,
    pub king_to: Square,
    pub rook_from: Square,
    pub rook_to: Square,
    pub wing: Wing,
}

impl Castle {
    /// The castling that the legal move `m` of `board` is, if it is one.
    pub fn of(board: &Board, m: ChessMove) -> Option<Castle> {
        let from = m.get_source();
        let to = m.get_dest();
        if board.piece_on(from) != Some(Piece::King) {
            return None;
        }
        let us = board.side_to_move();
        let rank = from.get_rank();
        let (wing, rook_from) = if board.color_on(to) == Some(us) {
            let wing = if to.get_file() > from.get_file() {
                Wing::H
            } else {
                Wing::A
            };
            (wing, to)
        } else if from
            .get_file()
            .to_index()
            .abs_diff(to.get_file().to_index())
            == 2
        {
            if to.get_file() > from.get_file() {
                (Wing::H, Square::make_square(rank, File::H))
            } else {
                (Wing::A, Square::make_square(rank, File::A))
            }
        } else {
            return None;
        };
        let (king_file, rook_file) = wing.destinations();
        Some(Castle {
            king_from: from,
            king_to: Square::make_square(rank, king_file),
            rook_from,
            rook_to: Square::make_square(rank, rook_file),
            wing,
        })
    }

    /// Is this our own castling (king onto its rook) rather than the crate's?
    pub fn is_own(&self, m: ChessMove) -> bool {
        m.get_dest() == self.rook_from
    }

    /// The move as king-takes-own-rook text (`e1h1`), the UCI form for Chess960.
    pub fn king_takes_rook(&self) -> String {
        format!("{}{}", self.king_from, self.rook_from)
    }
}

/// The castling moves of our own rights that are legal in `board`: at most one per wing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Castles {
    moves: [Option<ChessMove>; 2],
    next: usize,
}

impl Castles {
    pub fn generate(board: &Board, rights: Rights) -> Castles {
        let mut castles = Castles::default();
        if rights.is_empty() || *board.checkers() != EMPTY {
            return castles;
        }
        let us = board.side_to_move();
        let king = board.king_square(us);
        let mut n = 0;
        for wing in Wing::BOTH {
            if let Some(rook) = rights.rook(us, wing) {
                if legal(board, king, rook, wing) {
                    castles.moves[n] = Some(ChessMove::new(king, rook, None));
                    n += 1;
                }
            }
        }
        castles
    }

    pub fn contains(&self, m: ChessMove) -> bool {
        self.moves.contains(&Some(m))
    }

    /// Moves not yet handed out.
    pub fn len(&self) -> usize {
        self.moves[self.next.min(2)..].iter().flatten().count()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Iterator for Castles {
    type Item = ChessMove;

    #[inline]
    fn next(&mut self) -> Option<ChessMove> {
        let m = *self.moves.get(self.next)?;
        self.next += 1;
        m
    }
}

/// May the king on `king` castle with the rook on `rook` (our right on `wing`)? The king is
/// not in check (tested by the caller).
fn legal(board: &Board, king: Square, rook: Square, wing: Wing) -> bool {
    let us = board.side_to_move();
    let rank = king.get_rank();
    let (king_file, rook_file) = wing.destinations();
    let king_to = Square::make_square(rank, king_file);
    let rook_to = Square::make_square(rank, rook_file);
    let (king_bb, rook_bb) = (BitBoard::from_square(king), BitBoard::from_square(rook));
    let (king_to_bb, rook_to_bb) = (
        BitBoard::from_square(king_to),
        BitBoard::from_square(rook_to),
    );
    let occupied = *board.combined();
    let king_path = between(king, king_to);
    let must_be_empty = king_path | between(rook, rook_to) | king_to_bb | rook_to_bb;
    if (occupied ^ king_bb ^ rook_bb) & must_be_empty != EMPTY {
        return false;
    }
    let without_king = occupied ^ king_bb;
    if (king_path | king_bb)
        .into_iter()
        .any(|sq| attacked(board, sq, without_king, !us))
    {
        return false;
    }
    // The king's last square as the board will be: the rook moved (it may shield the king, or
    // have shielded it where it stood).
    let after = occupied ^ king_bb ^ rook_bb ^ rook_to_bb;
    !attacked(board, king_to, after, !us)
}

/// Does colour `by` attack `sq` when the board's occupancy is `occupied`?
fn attacked(board: &Board, sq: Square, occupied: BitBoard, by: Color) -> bool {
    let theirs = *board.color_combined(by);
    let queens = *board.pieces(Piece::Queen);
    let straight = (*board.pieces(Piece::Rook) | queens) & theirs;
    let diagonal = (*board.pieces(Piece::Bishop) | queens) & theirs;
    get_rook_moves(sq, occupied) & straight != EMPTY
        || get_bishop_moves(sq, occupied) & diagonal != EMPTY
        || get_knight_moves(sq) & *board.pieces(Piece::Knight) & theirs != EMPTY
        || get_king_moves(sq) & *board.pieces(Piece::King) & theirs != EMPTY
        || get_pawn_attacks(sq, !by, *board.pieces(Piece::Pawn) & theirs) != EMPTY
}

/// The board after our own castling `c`, rebuilt through the crate's builder (castling is
/// rare enough in a search that a rebuild costs nothing measurable). The mover's crate rights
/// go too: its king has moved.
pub fn apply(board: &Board, c: &Castle) -> Option<Board> {
    let us = board.side_to_move();
    let mut builder = BoardBuilder::from(*board);
    builder
        .clear_square(c.king_from)
        .clear_square(c.rook_from)
        .piece(c.king_to, Piece::King, us)
        .piece(c.rook_to, Piece::Rook, us)
        .side_to_move(!us)
        .en_passant(None)
        .castle_rights(us, CastleRights::NoRights);
    Board::try_from(builder).ok()
}

/// The Chess960 starting position number `n` (0–959, Scharnagl's numbering; 518 is the
/// standard one) as its back rank, White's pieces from a to h. Scharnagl's scheme: n mod 4
/// places the light-squared bishop (b, d, f, h), the next digit mod 4 the dark-squared one
/// (a, c, e, g), the next mod 6 the queen on the free squares, and the last (0–9) picks the
/// knights' pair among the ten; king and rooks fill the rest as R K R.
pub fn chess960_back_rank(n: u32) -> Option<[Piece; 8]> {
    if n >= 960 {
        return None;
    }
    let mut rank: [Option<Piece>; 8] = [None; 8];
    let mut n = n as usize;
    rank[n % 4 * 2 + 1] = Some(Piece::Bishop);
    n /= 4;
    rank[n % 4 * 2] = Some(Piece::Bishop);
    n /= 4;
    let queen = n % 6;
    n /= 6;
    let knights: [(usize, usize); 10] = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let put = |rank: &mut [Option<Piece>; 8], nth: usize, piece: Piece| {
        if let Some(i) = (0..8).filter(|&i| rank[i].is_none()).nth(nth) {
            rank[i] = Some(piece);
        }
    };
    put(&mut rank, queen, Piece::Queen);
    let (k1, k2) = knights[n];
    // Place the second knight first, so the first one's index still counts the same squares.
    put(&mut rank, k2, Piece::Knight);
    put(&mut rank, k1, Piece::Knight);
    for piece in [Piece::Rook, Piece::King, Piece::Rook] {
        put(&mut rank, 0, piece);
    }
    let mut out = [Piece::Pawn; 8];
    for (slot, piece) in out.iter_mut().zip(rank) {
        *slot = piece?;
    }
    Some(out)
}

/// The Shredder-FEN of Chess960 starting position `n` (see `chess960_back_rank`).
pub fn chess960_fen(n: u32) -> Option<String> {
    let rank = chess960_back_rank(n)?;
    let white: String = rank.iter().map(|p| p.to_string(Color::White)).collect();
    let black = white.to_ascii_lowercase();
    let rooks: Vec<usize> = (0..8).filter(|&i| rank[i] == Piece::Rook).collect();
    let letter = |i: usize| char::from(b'A' + i as u8);
    let (a, h) = (letter(*rooks.first()?), letter(*rooks.last()?));
    Some(format!(
        "{black}/pppppppp/8/8/8/8/PPPPPPPP/{white} w {h}{a}{}{} - 0 1",
        h.to_ascii_lowercase(),
        a.to_ascii_lowercase()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scharnagl_numbers_match_the_published_examples() {
        // Scharnagl's table: 518 is the standard array, 0 is BBQNNRKR, 959 RKRNNQBB.
        let text = |n| {
            chess960_back_rank(n).map(|r| {
                r.iter()
                    .map(|p| p.to_string(Color::White))
                    .collect::<String>()
            })
        };
        assert_eq!(text(518).as_deref(), Some("RNBQKBNR"));
        assert_eq!(text(0).as_deref(), Some("BBQNNRKR"));
        assert_eq!(text(959).as_deref(), Some("RKRNNQBB"));
        assert_eq!(text(960), None);
        assert_eq!(
            chess960_fen(518).as_deref(),
            Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1")
        );
    }

    #[test]
    fn rights_keys_differ_and_none_is_zero() {
        let a = Rights::NONE.with(Color::White, Wing::H, File::G);
        let b = Rights::NONE.with(Color::White, Wing::A, File::G);
        assert_eq!(Rights::NONE.key(), 0);
        assert_ne!(a.key(), 0);
        assert_ne!(a.key(), b.key());
        assert_eq!(a.rook(Color::White, Wing::H), Some(Square::G1));
        assert_eq!(a.rook(Color::Black, Wing::H), None);
    }
}
