//! Upcoming repetitions, found without generating a move: Marcel van Kervinck's cuckoo tables
//! ("Detecting upcoming repetitions in O(1)", 2013), as Stockfish has used them since 2018
//! (`Position::has_game_cycle`).
//!
//! A reversible move changes the key by exactly its piece's key on the two squares and the
//! side to move's key. If the key of the position now and that of an earlier one with the
//! other side to move differ by such a move's change, one move joins them. The table holds
//! the change of every move a knight, bishop, rook, queen or king of either colour can make on
//! an empty board (3,668 entries, each serving a move and its reverse), so one lookup tells
//! whether a difference is a move, and the squares between its ends tell whether it can be
//! played now. The table is built at its first use, in under a millisecond.
//!
//! The keys are the `chess` crate's, which keeps its Zobrist table to itself: a move's key
//! change is read as the difference between the keys of two boards that differ by that move
//! alone.

use chess::{
    get_bishop_rays, get_king_moves, get_knight_moves, get_rook_rays, BitBoard, Board,
    BoardBuilder, Color, Piece, Square, ALL_SQUARES, EMPTY,
};
use once_cell::sync::Lazy;

/// Slots: a power of two, as both hash functions take 13 bits of the key.
const SIZE: usize = 8192;

/// Every reversible move of a non-pawn piece on an empty board, one direction each.
#[cfg(test)]
const MOVES: usize = 3668;

/// The two places a key may sit.
fn h1(key: u64) -> usize {
    (key & 0x1fff) as usize
}

fn h2(key: u64) -> usize {
    ((key >> 16) & 0x1fff) as usize
}

/// The table: key changes and the two squares of the move that makes each.
pub(super) struct Cuckoo {
    keys: Vec<u64>,
    squares: Vec<Option<(Square, Square)>>,
    /// How many moves were placed (all [`MOVES`] unless the crate's keys collide).
    pub(super) placed: usize,
}

static TABLE: Lazy<Cuckoo> = Lazy::new(Cuckoo::build);

/// The squares of the move whose key change is `diff`, if a reversible piece move's is.
#[inline]
pub(super) fn lookup(diff: u64) -> Option<(Square, Square)> {
    let t = &*TABLE;
    [h1(diff), h2(diff)]
        .into_iter()
        .find(|&i| t.keys[i] == diff)
        .and_then(|i| t.squares[i])
}

/// The table itself, for its tests.
#[cfg(test)]
pub(super) fn table() -> &'static Cuckoo {
    &TABLE
}

/// The crate's key of a board with `piece` of `color` on `square` and the kings it needs
/// (both, or the other side's when the piece is a king) on the first squares at least two
/// steps from `away` and from each other; the piece's side is not to move, so that a check
/// it gives leaves the board legal. None if the crate refuses the board.
fn key_with(piece: Piece, color: Color, square: Square, away: [Square; 2]) -> Option<u64> {
    // Two steps or more apart: neither the same square nor a king's step away.
    let apart =
        |a: Square, b: Square| a != b && get_king_moves(a) & BitBoard::from_square(b) == EMPTY;
    let mut builder = BoardBuilder::new();
    builder.piece(square, piece, color).side_to_move(!color);
    let mut taken = away.to_vec();
    for king in [Color::White, Color::Black] {
        if piece == Piece::King && king == color {
            continue;
        }
        let spot = ALL_SQUARES
            .iter()
            .copied()
            .find(|&sq| taken.iter().all(|&t| apart(sq, t)))?;
        builder.piece(spot, Piece::King, king);
        taken.push(spot);
    }
    Board::try_from(&builder).ok().map(|b| b.get_hash())
}

/// The change a move of `piece` of `color` between `a` and `b` makes to the crate's key,
/// less the side to move's: the piece's key on the two squares.
fn move_key(piece: Piece, color: Color, a: Square, b: Square) -> Option<u64> {
    Some(key_with(piece, color, a, [a, b])? ^ key_with(piece, color, b, [a, b])?)
}

/// The crate's key for the side to move: bare kings with either side to move.
fn side_key() -> Option<u64> {
    let kings = |side: Color| {
        let mut builder = BoardBuilder::new();
        builder
            .piece(Square::A1, Piece::King, Color::White)
            .piece(Square::H8, Piece::King, Color::Black)
            .side_to_move(side);
        Board::try_from(&builder).ok().map(|b| b.get_hash())
    };
    Some(kings(Color::White)? ^ kings(Color::Black)?)
}

impl Cuckoo {
    fn build() -> Cuckoo {
        let mut table = Cuckoo {
            keys: vec![0; SIZE],
            squares: vec![None; SIZE],
            placed: 0,
        };
        let Some(side) = side_key() else {
            return table;
        };
        let reach = |piece: Piece, from: Square| match piece {
            Piece::Knight => get_knight_moves(from),
            Piece::Bishop => get_bishop_rays(from),
            Piece::Rook => get_rook_rays(from),
            Piece::Queen => get_bishop_rays(from) | get_rook_rays(from),
            _ => get_king_moves(from),
        };
        for color in [Color::White, Color::Black] {
            for piece in [
                Piece::Knight,
                Piece::Bishop,
                Piece::Rook,
                Piece::Queen,
                Piece::King,
            ] {
                for (i, &a) in ALL_SQUARES.iter().enumerate() {
                    for &b in &ALL_SQUARES[i + 1..] {
                        if reach(piece, a) & BitBoard::from_square(b) == EMPTY {
                            continue;
                        }
                        let Some(key) = move_key(piece, color, a, b) else {
                            continue;
                        };
                        if table.insert(key ^ side, (a, b)) {
                            table.placed += 1;
                        }
                    }
                }
            }
        }
        table
    }

    /// Cuckoo insertion: a key displaced from one of its two slots moves to its other one.
    /// Gives up (false) after a bounded number of moves, which a table this sparse (under
    /// half full) does not reach.
    fn insert(&mut self, mut key: u64, squares: (Square, Square)) -> bool {
        let mut squares = Some(squares);
        let mut i = h1(key);
        for _ in 0..SIZE {
            std::mem::swap(&mut self.keys[i], &mut key);
            std::mem::swap(&mut self.squares[i], &mut squares);
            if squares.is_none() {
                return true;
            }
            i = if i == h1(key) { h2(key) } else { h1(key) };
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::super::Position;
    use super::*;

    /// All 3,668 moves find a place, as in Stockfish's table (its `assert(count == 3668)`).
    #[test]
    fn the_table_holds_every_reversible_piece_move() {
        assert_eq!(table().placed, MOVES);
    }

    /// The key change of every quiet knight, bishop, rook, queen and king move that keeps the
    /// castling rights is in the table, under that move's squares: the keys read from bare
    /// boards are the ones the positions are hashed with.
    #[test]
    fn every_quiet_piece_move_is_found_by_its_key_change() {
        let mut checked = 0;
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w - - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b - - 0 1",
            "4k3/8/8/3q4/8/2N5/8/4K2R w - - 0 1",
        ] {
            let pos = Position::from_fen(fen).expect("fen");
            let board = *pos.board();
            for m in pos.legal_moves() {
                let quiet_piece = !matches!(board.piece_on(m.get_source()), Some(Piece::Pawn))
                    && board.piece_on(m.get_dest()).is_none();
                if !quiet_piece {
                    continue;
                }
                let mut after = Position::from_fen(fen).expect("fen");
                after.make_move(m);
                let (a, b) = lookup(pos.key() ^ after.key()).expect("in the table");
                let (from, to) = (m.get_source(), m.get_dest());
                assert!((a, b) == (from, to) || (a, b) == (to, from), "{m} in {fen}");
                checked += 1;
            }
        }
        assert!(checked > 60, "{checked}");
        // A pawn move, or two moves at once, is no entry.
        let start = Position::startpos();
        let mut after = Position::startpos();
        after.play_uci("e2e4").expect("legal");
        assert_eq!(lookup(start.key() ^ after.key()), None);
        after.play_uci("g8f6").expect("legal");
        after.play_uci("g1f3").expect("legal");
        let mut knights = Position::startpos();
        knights.play_uci("g1f3").expect("legal");
        assert_eq!(lookup(knights.key() ^ after.key()), None);
    }

    /// `moves` played from `fen` after its search root, then whether the position is one move
    /// from a repetition.
    fn upcoming_after(fen: &str, moves: &[&str]) -> bool {
        let mut pos = Position::from_fen(fen).expect("fen");
        pos.set_search_root();
        for m in moves {
            pos.play_uci(m).expect("legal");
        }
        pos.has_upcoming_repetition()
    }

    /// The rook went a1–b1–b5–a5: it can go back to a1 at once, unless a piece stands between.
    #[test]
    fn a_repetition_one_move_away_is_seen_unless_the_path_is_blocked() {
        let moves = [
            "e1e2", "d8c8", "a1b1", "c8d8", "b1b5", "d8c8", "b5a5", "c8d8",
        ];
        assert!(upcoming_after(
            "3k4/8/8/8/8/8/8/R3K3 w - - 0 1",
            &moves[..7]
        ));
        assert!(!upcoming_after(
            "3k4/8/8/8/8/N7/8/R3K3 w - - 0 1",
            &moves[..7]
        ));
        // Four plies after the rook's last move, White to move: Black's king could also
        // step back to c8, which repeats the position after b5a5.
        assert!(upcoming_after("3k4/8/8/8/8/N7/8/R3K3 w - - 0 1", &moves));
        // Before it left b5 there was nothing to repeat.
        assert!(!upcoming_after(
            "3k4/8/8/8/8/8/8/R3K3 w - - 0 1",
            &moves[..5]
        ));
    }

    /// A position at or before the search root does not count: the root occurring once
    /// more is no draw yet. Knights out and back: g8 can return after three plies, which
    /// reaches back to the root itself, and is seen once the root lies one move earlier.
    #[test]
    fn the_root_and_earlier_positions_do_not_count() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert!(!upcoming_after(start, &["g1f3", "g8f6", "f3g1"]));
        assert!(upcoming_after(
            start,
            &["b1c3", "b8c6", "g1f3", "g8f6", "f3g1"]
        ));
    }
}
