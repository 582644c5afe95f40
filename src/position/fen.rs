//! Reading and writing FEN.
//!
//! The crate's own parser reads out of bounds on some malformed input (no king for the side to
//! move), overflows its move list with more than 16 pieces a side, ignores the counters and
//! writes the en-passant square wrong. So FEN is tokenised and validated here, and the crate
//! only ever receives a board built from checked parts.

use super::castling::{back_rank, Rights, Wing};
use super::{Position, State};
use chess::{
    get_bishop_moves, get_king_moves, get_knight_moves, get_pawn_attacks, get_rook_moves, BitBoard,
    Board, BoardBuilder, CastleRights, Color, File, Piece, Rank, Square, ALL_SQUARES, EMPTY,
};
use std::fmt;

/// Why a FEN was refused. Each message names the rule that was broken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    Empty,
    MissingField(&'static str),
    TooManyFields(usize),
    RankCount(usize),
    RankLength {
        rank: usize,
        squares: usize,
    },
    AdjacentDigits {
        rank: usize,
    },
    BadPieceChar(char),
    KingCount {
        color: Color,
        count: u32,
    },
    TooManyPieces {
        color: Color,
        count: u32,
    },
    TooManyPawns {
        color: Color,
        count: u32,
    },
    PawnOnBackRank(Square),
    BadSide(String),
    BadCastling(String),
    /// A Chess960 castling field that is not Shredder-FEN or X-FEN.
    BadCastling960(String),
    /// A Chess960 castling right whose king or rook is not where the letter says.
    CastlingPieces {
        letter: char,
        reason: &'static str,
    },
    BadEnPassant(String),
    EnPassantRank {
        square: String,
        side: Color,
    },
    BadHalfmove(String),
    BadFullmove(String),
    KingsAdjacent,
    OpponentInCheck,
    TooManyCheckers(u32),
    /// The crate refused a board that passed every rule above (should not happen).
    Rejected,
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use FenError::*;
        match self {
            Empty => write!(f, "empty FEN"),
            MissingField(field) => write!(f, "FEN has no {field} field"),
            TooManyFields(n) => write!(f, "FEN has {n} fields, at most 6 are allowed"),
            RankCount(n) => write!(f, "FEN board has {n} ranks, it needs exactly 8"),
            RankLength { rank, squares } => write!(
                f,
                "FEN rank {rank} describes {squares} squares, it needs exactly 8"
            ),
            AdjacentDigits { rank } => write!(
                f,
                "FEN rank {rank} has two digits in a row, empty squares must be one digit"
            ),
            BadPieceChar(c) => write!(f, "FEN board has an unknown piece letter {c:?}"),
            KingCount { color, count } => write!(
                f,
                "{} has {count} kings, exactly one is required",
                color_name(*color)
            ),
            TooManyPieces { color, count } => write!(
                f,
                "{} has {count} pieces, at most 16 are allowed",
                color_name(*color)
            ),
            TooManyPawns { color, count } => write!(
                f,
                "{} has {count} pawns, at most 8 are allowed",
                color_name(*color)
            ),
            PawnOnBackRank(sq) => write!(f, "pawn on {sq}: no pawn may stand on rank 1 or 8"),
            BadSide(s) => write!(f, "side to move must be 'w' or 'b', got {s:?}"),
            BadCastling(s) => write!(
                f,
                "castling field must be '-' or letters from 'KQkq', got {s:?}"
            ),
            BadCastling960(s) => write!(
                f,
                "Chess960 castling field must be '-', rook files ('HAha', Shredder-FEN) or 'KQkq' with file letters (X-FEN), at most one right per side of each king, got {s:?}"
            ),
            CastlingPieces { letter, reason } => {
                write!(f, "castling right {letter:?} is impossible: {reason}")
            }
            BadEnPassant(s) => write!(
                f,
                "en-passant field must be '-' or a square on rank 3 or 6, got {s:?}"
            ),
            EnPassantRank { square, side } => write!(
                f,
                "en-passant square {square} is on the wrong rank for {} to move",
                color_name(*side)
            ),
            BadHalfmove(s) => write!(
                f,
                "halfmove clock must be a non-negative integer, got {s:?}"
            ),
            BadFullmove(s) => write!(f, "fullmove number must be a positive integer, got {s:?}"),
            KingsAdjacent => write!(f, "the kings stand next to each other"),
            OpponentInCheck => write!(f, "the side not to move is in check"),
            TooManyCheckers(n) => write!(f, "the side to move is in check by {n} pieces"),
            Rejected => write!(f, "the move generator rejected the position"),
        }
    }
}

impl std::error::Error for FenError {}

/// Largest accepted fullmove number: the game ply, `2 × (fullmove − 1) + 1`, must fit in a
/// u32. The halfmove clock may be any u32. Moves saturate both counters (see
/// `Position::make_move`), so every FEN that `write` produces is accepted again.
const MAX_FULLMOVE: u32 = 1 << 31;

/// The piece placement as a plain 64-square array, indexed like `chess::Square`.
type Placement = [Option<(Piece, Color)>; 64];

fn piece_from_char(c: char) -> Option<(Piece, Color)> {
    let color = if c.is_ascii_uppercase() {
        Color::White
    } else {
        Color::Black
    };
    let piece = match c.to_ascii_lowercase() {
        'p' => Piece::Pawn,
        'n' => Piece::Knight,
        'b' => Piece::Bishop,
        'r' => Piece::Rook,
        'q' => Piece::Queen,
        'k' => Piece::King,
        _ => return None,
    };
    Some((piece, color))
}

fn parse_placement(field: &str) -> Result<Placement, FenError> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::RankCount(ranks.len()));
    }
    let mut placement: Placement = [None; 64];
    for (i, text) in ranks.iter().enumerate() {
        let rank = 7 - i; // FEN lists rank 8 first
        let mut file = 0usize;
        let mut after_digit = false;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10) {
                if d == 0 || d > 8 {
                    return Err(FenError::BadPieceChar(c));
                }
                if after_digit {
                    return Err(FenError::AdjacentDigits { rank: rank + 1 });
                }
                after_digit = true;
                file += d as usize;
            } else {
                after_digit = false;
                let piece = piece_from_char(c).ok_or(FenError::BadPieceChar(c))?;
                if file < 8 {
                    placement[rank * 8 + file] = Some(piece);
                }
                file += 1;
            }
            if file > 8 {
                break;
            }
        }
        if file != 8 {
            return Err(FenError::RankLength {
                rank: rank + 1,
                squares: file,
            });
        }
    }
    Ok(placement)
}

fn count(placement: &Placement, piece: Option<Piece>, color: Color) -> u32 {
    placement
        .iter()
        .flatten()
        .filter(|(p, c)| *c == color && piece.is_none_or(|want| want == *p))
        .count() as u32
}

fn check_material(placement: &Placement) -> Result<(), FenError> {
    for color in [Color::White, Color::Black] {
        let kings = count(placement, Some(Piece::King), color);
        if kings != 1 {
            return Err(FenError::KingCount {
                color,
                count: kings,
            });
        }
        let all = count(placement, None, color);
        if all > 16 {
            return Err(FenError::TooManyPieces { color, count: all });
        }
        let pawns = count(placement, Some(Piece::Pawn), color);
        if pawns > 8 {
            return Err(FenError::TooManyPawns {
                color,
                count: pawns,
            });
        }
    }
    for (i, sq) in ALL_SQUARES.iter().enumerate() {
        let back_rank = !(8..56).contains(&i);
        if back_rank && matches!(placement[i], Some((Piece::Pawn, _))) {
            return Err(FenError::PawnOnBackRank(*sq));
        }
    }
    Ok(())
}

fn bitboard(placement: &Placement, piece: Option<Piece>, color: Option<Color>) -> BitBoard {
    let mut bb = EMPTY;
    for (i, sq) in placement.iter().enumerate() {
        if let Some((p, c)) = sq {
            if piece.is_none_or(|want| want == *p) && color.is_none_or(|want| want == *c) {
                bb |= BitBoard(1u64 << i);
            }
        }
    }
    bb
}

fn king_square(placement: &Placement, color: Color) -> Square {
    bitboard(placement, Some(Piece::King), Some(color)).to_square()
}

/// Pieces of colour `by` that attack `target`.
fn attackers(placement: &Placement, target: Square, by: Color) -> BitBoard {
    let occupied = bitboard(placement, None, None);
    let theirs = |p: Piece| bitboard(placement, Some(p), Some(by));
    let diagonal = theirs(Piece::Bishop) | theirs(Piece::Queen);
    let straight = theirs(Piece::Rook) | theirs(Piece::Queen);
    // A pawn of colour `by` attacks `target` iff a pawn of the other colour on `target` would
    // attack the pawn's square.
    (get_pawn_attacks(target, !by, theirs(Piece::Pawn)))
        | (get_knight_moves(target) & theirs(Piece::Knight))
        | (get_king_moves(target) & theirs(Piece::King))
        | (get_bishop_moves(target, occupied) & diagonal)
        | (get_rook_moves(target, occupied) & straight)
}

fn check_kings(placement: &Placement, side: Color) -> Result<(), FenError> {
    let ours = king_square(placement, side);
    let theirs = king_square(placement, !side);
    if get_king_moves(ours) & BitBoard::from_square(theirs) != EMPTY {
        return Err(FenError::KingsAdjacent);
    }
    if attackers(placement, theirs, side) != EMPTY {
        return Err(FenError::OpponentInCheck);
    }
    let checkers = attackers(placement, ours, !side).popcnt();
    if checkers > 2 {
        return Err(FenError::TooManyCheckers(checkers));
    }
    Ok(())
}

/// Castling rights from the field, keeping only those whose king and rook still stand on
/// their original squares (the rest are dropped, not refused: GUIs and books often send them).
fn parse_castling(field: &str, placement: &Placement) -> Result<[CastleRights; 2], FenError> {
    let bad = || FenError::BadCastling(super::echo(field));
    let mut flags = [false; 4]; // K Q k q
    if field != "-" {
        for c in field.chars() {
            let i = "KQkq".find(c).ok_or_else(bad)?;
            if flags[i] {
                return Err(bad());
            }
            flags[i] = true;
        }
    }
    let at = |sq: usize, piece: Piece, color: Color| placement[sq] == Some((piece, color));
    let mut rights = [CastleRights::NoRights; 2];
    for (ci, color) in [Color::White, Color::Black].into_iter().enumerate() {
        let base = if color == Color::White { 0 } else { 56 };
        let king_home = at(base + 4, Piece::King, color);
        let short = flags[ci * 2] && king_home && at(base + 7, Piece::Rook, color);
        let long = flags[ci * 2 + 1] && king_home && at(base, Piece::Rook, color);
        rights[ci] = match (short, long) {
            (true, true) => CastleRights::Both,
            (true, false) => CastleRights::KingSide,
            (false, true) => CastleRights::QueenSide,
            (false, false) => CastleRights::NoRights,
        };
    }
    Ok(rights)
}

/// Chess960 castling rights (Shredder-FEN or X-FEN): the crate's rights for those of the
/// standard shape (king on e, rook on a or h), our own for the rest. `K`/`Q` name the
/// outermost rook on that side of the king and are dropped, as in standard chess, when there
/// is none; a file letter must name a rook beside a king on its first rank.
fn parse_castling_960(
    field: &str,
    placement: &Placement,
) -> Result<([CastleRights; 2], Rights), FenError> {
    let bad = || FenError::BadCastling960(super::echo(field));
    let mut crate_rights = [CastleRights::NoRights; 2];
    let mut own = Rights::NONE;
    if field == "-" {
        return Ok((crate_rights, own));
    }
    let mut seen = [[false; 2]; 2];
    for letter in field.chars() {
        if !letter.is_ascii_alphabetic() {
            return Err(bad());
        }
        let color = if letter.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let rank = back_rank(color).to_index();
        let rook_at = |file: usize| placement[rank * 8 + file] == Some((Piece::Rook, color));
        let king_file = (0..8).find(|&f| placement[rank * 8 + f] == Some((Piece::King, color)));
        let (wing, rook_file) = match letter.to_ascii_lowercase() {
            'k' | 'q' => {
                let wing = if letter.eq_ignore_ascii_case(&'k') {
                    Wing::H
                } else {
                    Wing::A
                };
                let outermost = king_file.and_then(|k| match wing {
                    Wing::H => (k + 1..8).rev().find(|&f| rook_at(f)),
                    Wing::A => (0..k).find(|&f| rook_at(f)),
                });
                match outermost {
                    Some(file) => (wing, file),
                    None => continue,
                }
            }
            f @ 'a'..='h' => {
                let file = (f as u8 - b'a') as usize;
                let Some(king) = king_file else {
                    return Err(FenError::CastlingPieces {
                        letter,
                        reason: "the king is not on its first rank",
                    });
                };
                if !rook_at(file) {
                    return Err(FenError::CastlingPieces {
                        letter,
                        reason: "no rook of that colour stands on that file of its first rank",
                    });
                }
                let wing = match file.cmp(&king) {
                    std::cmp::Ordering::Greater => Wing::H,
                    std::cmp::Ordering::Less => Wing::A,
                    std::cmp::Ordering::Equal => return Err(bad()),
                };
                (wing, file)
            }
            _ => return Err(bad()),
        };
        let (ci, wi) = (color.to_index(), usize::from(wing == Wing::A));
        if seen[ci][wi] {
            return Err(bad());
        }
        seen[ci][wi] = true;
        let standard_shape =
            king_file == Some(4) && rook_file == if wing == Wing::H { 7 } else { 0 };
        if standard_shape {
            let add = if wing == Wing::H {
                CastleRights::KingSide
            } else {
                CastleRights::QueenSide
            };
            crate_rights[ci] = crate_rights[ci].add(add);
        } else {
            own = own.with(color, wing, File::from_index(rook_file));
        }
    }
    Ok((crate_rights, own))
}

/// The en-passant file, if the field names a square on the right rank. A square behind which
/// no enemy pawn just arrived is dropped; whether a capture is legal is settled later.
fn parse_en_passant(
    field: &str,
    side: Color,
    placement: &Placement,
) -> Result<Option<File>, FenError> {
    if field == "-" {
        return Ok(None);
    }
    let bytes = field.as_bytes();
    let valid = bytes.len() == 2
        && (b'a'..=b'h').contains(&bytes[0])
        && (bytes[1] == b'3' || bytes[1] == b'6');
    if !valid {
        return Err(FenError::BadEnPassant(super::echo(field)));
    }
    let file = (bytes[0] - b'a') as usize;
    let rank_digit = bytes[1];
    let expected = if side == Color::White { b'6' } else { b'3' };
    if rank_digit != expected {
        return Err(FenError::EnPassantRank {
            square: field.to_string(),
            side,
        });
    }
    // White to move: target on rank 6, the black pawn on rank 5, rank 7 behind it empty.
    let (target, pawn, origin) = if side == Color::White {
        (40 + file, 32 + file, 48 + file)
    } else {
        (16 + file, 24 + file, 8 + file)
    };
    let plausible = placement[pawn] == Some((Piece::Pawn, !side))
        && placement[target].is_none()
        && placement[origin].is_none();
    Ok(plausible.then(|| File::from_index(file)))
}

fn parse_counter(field: Option<&str>, fullmove: bool) -> Result<u32, FenError> {
    let Some(text) = field else {
        return Ok(if fullmove { 1 } else { 0 });
    };
    let err = || {
        if fullmove {
            FenError::BadFullmove(super::echo(text))
        } else {
            FenError::BadHalfmove(super::echo(text))
        }
    };
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(err());
    }
    let value: u32 = text.parse().map_err(|_| err())?;
    if fullmove && value > MAX_FULLMOVE {
        return Err(err());
    }
    // Fullmove 0 is common in the wild ("... 0 0") and harmless: read it as 1.
    Ok(if fullmove { value.max(1) } else { value })
}

/// Parse and validate a FEN. Fields may be separated by any amount of whitespace; the two
/// counters are optional.
pub(super) fn parse(text: &str, chess960: bool) -> Result<Position, FenError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.is_empty() {
        return Err(FenError::Empty);
    }
    if fields.len() > 6 {
        return Err(FenError::TooManyFields(fields.len()));
    }
    let placement = parse_placement(fields[0])?;
    let side = match fields.get(1).copied() {
        None => return Err(FenError::MissingField("side-to-move")),
        Some("w") => Color::White,
        Some("b") => Color::Black,
        Some(other) => return Err(FenError::BadSide(super::echo(other))),
    };
    let castling = fields.get(2).ok_or(FenError::MissingField("castling"))?;
    let en_passant = fields.get(3).ok_or(FenError::MissingField("en-passant"))?;
    let halfmove = parse_counter(fields.get(4).copied(), false)?;
    let fullmove = parse_counter(fields.get(5).copied(), true)?;

    check_material(&placement)?;
    check_kings(&placement, side)?;
    let (rights, own) = if chess960 {
        parse_castling_960(castling, &placement)?
    } else {
        (parse_castling(castling, &placement)?, Rights::NONE)
    };
    let ep_file = parse_en_passant(en_passant, side, &placement)?;

    let mut builder = BoardBuilder::new();
    for (i, sq) in ALL_SQUARES.iter().enumerate() {
        if let Some((piece, color)) = placement[i] {
            builder.piece(*sq, piece, color);
        }
    }
    builder
        .side_to_move(side)
        .castle_rights(Color::White, rights[0])
        .castle_rights(Color::Black, rights[1])
        .en_passant(ep_file);
    let board = Board::try_from(builder).map_err(|_| FenError::Rejected)?;
    let game_ply = (fullmove - 1) * 2 + u32::from(side == Color::Black);
    let mut pos = Position::from_parts(board, own, halfmove, game_ply);
    pos.set_chess960(chess960);
    Ok(pos)
}

/// Why a valid position could never arise in a game, if it is one of the cases we can tell:
/// two sliders checking along the same line. Such positions are accepted (their move
/// generation is well defined and perft suites use them) but tools report them.
pub fn unreachable_reason(board: &Board) -> Option<&'static str> {
    let checkers = *board.checkers();
    if checkers.popcnt() != 2 {
        return None;
    }
    let king = board.king_square(board.side_to_move());
    let mut squares = checkers.into_iter();
    let (a, b) = (squares.next()?, squares.next()?);
    let line = chess::line(a, b);
    if line & BitBoard::from_square(king) != EMPTY {
        Some("double check by two pieces on one line through the king")
    } else {
        None
    }
}

/// The Shredder-FEN castling field: the castling rooks' files, White's in capitals, each
/// colour's h-side rook first (as python-chess writes it).
fn shredder_castling(board: &Board, own: Rights) -> String {
    let mut out = String::new();
    for color in [Color::White, Color::Black] {
        let crate_rights = board.castle_rights(color);
        for wing in Wing::BOTH {
            let file = match wing {
                Wing::H if crate_rights.has_kingside() => Some(File::H),
                Wing::A if crate_rights.has_queenside() => Some(File::A),
                _ => own.rook(color, wing).map(|sq| sq.get_file()),
            };
            if let Some(file) = file {
                let letter = char::from(b'a' + file.to_index() as u8);
                out.push(if color == Color::White {
                    letter.to_ascii_uppercase()
                } else {
                    letter
                });
            }
        }
    }
    out
}

/// Write the position as FEN. The en-passant square is written only when an en-passant capture
/// is legal (as Stockfish does), since that is the only case in which it changes the position.
pub(super) fn write(pos: &Position) -> String {
    let state: &State = pos.top();
    let board = &state.board;
    let mut out = String::with_capacity(90);
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            let sq = Square::make_square(Rank::from_index(rank), File::from_index(file));
            match board.piece_on(sq) {
                None => empty += 1,
                Some(piece) => {
                    if empty > 0 {
                        out.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    let color = board.color_on(sq).unwrap_or(Color::White);
                    out.push_str(&piece.to_string(color));
                }
            }
        }
        if empty > 0 {
            out.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out.push_str(if board.side_to_move() == Color::White {
        " w "
    } else {
        " b "
    });
    let castling = if pos.is_chess960() {
        shredder_castling(board, state.rights)
    } else {
        let mut castling = String::new();
        for (color, k, q) in [(Color::White, "K", "Q"), (Color::Black, "k", "q")] {
            let rights = board.castle_rights(color);
            if rights.has_kingside() {
                castling.push_str(k);
            }
            if rights.has_queenside() {
                castling.push_str(q);
            }
        }
        castling
    };
    out.push_str(if castling.is_empty() { "-" } else { &castling });
    out.push(' ');
    match board.en_passant() {
        // The crate stores the square of the pawn that moved; FEN wants the square behind it.
        Some(pushed) => {
            let target = match board.side_to_move() {
                Color::White => pushed.up(),
                Color::Black => pushed.down(),
            };
            match target {
                Some(t) => out.push_str(&t.to_string()),
                None => out.push('-'),
            }
        }
        None => out.push('-'),
    }
    out.push_str(&format!(" {} {}", state.halfmove, pos.fullmove_number()));
    out
}
