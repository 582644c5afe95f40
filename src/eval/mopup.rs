//! Mop-up: the evaluation of a lone king against mating material.
//!
//! The network scores king and queen (or rook, two bishops, bishop and knight) against a bare
//! king as a flat win: the same few pawns wherever the kings stand, and in king and rook
//! against king a little more with the lone king in the centre than on the edge. A search
//! guided by that finds a mate only when the mate is within its horizon, so at a few thousand
//! nodes a move it shuffles into a repetition or the fifty-move rule (issue 106: 13 of 30
//! basic mates at 20,000 nodes). Every mate of a lone king is on the edge, with the other
//! king near, so the evaluation here pays for exactly that progress:
//! - the lone king's distance from the centre (Manhattan; the same as its closeness to the
//!   nearest corner), since bishops mate only in a corner and the rest on an edge;
//! - with bishop and knight, also its closeness to a corner of the bishop's colour, the only
//!   corners where they can mate, so it is driven along the edge out of the wrong one;
//! - the kings' closeness, since the attacking king takes the squares next to the lone one.
//!
//! It replaces the network's score rather than adding to it. Added to it, the term won every
//! basic mate at 20,000 nodes a move, but at 100,000 and 300,000 the network's own differences
//! between queen or knight squares (tens of centipawns, with no meaning here) outweighed a
//! king's step often enough to lose 2 and then 5 of the 30 to the fifty-move rule: a deeper
//! search compares more such leaves. Alone, the term has no noise to drown in.
//!
//! It applies only while one side has a bare king and the other a queen, a rook, bishops of
//! both colours, or bishop and knight: anywhere else the evaluation is untouched, so ordinary
//! play (and `bench`) hardly notices it. The search uses it in place of either evaluation,
//! network or hand-written (`search::alphabeta`), and a strength limit plays such a root
//! straight (`search::strength`): the evaluation is what a won ending is won by, not a place
//! to err.

use super::EVAL_LIMIT;
use chess::{BitBoard, Board, Color, Piece, Square};

/// The floor of a lone-king ending's evaluation: above what the network gives any position
/// that can be traded into it (about +8 pawns for king and queen against king), so the trade
/// is taken, and far below a mate.
const KNOWN_WIN: i32 = 1_000;
/// Centipawns for each step of the lone king away from the centre (0 to 6 steps).
const EDGE: i32 = 50;
/// With bishop and knight: centipawns for each step nearer a corner of the bishop's colour
/// (on top of the edge's), so that a step along the edge toward it outweighs one away.
const BISHOP_CORNER: i32 = 100;
/// Centipawns for each step the kings close in (Manhattan distance, 14 at most).
const CLOSE: i32 = 20;

/// The light squares (b1, a2, …): a bishop on one of these mates in a8 or h1.
const LIGHT: u64 = 0x55AA_55AA_55AA_55AA;

/// The colour that has mating material against a bare king, if the position is such an
/// ending.
pub fn attacker(board: &Board) -> Option<Color> {
    let white = board.color_combined(Color::White);
    let black = board.color_combined(Color::Black);
    let strong = match (white.popcnt(), black.popcnt()) {
        (n, 1) if n > 1 => Color::White,
        (1, n) if n > 1 => Color::Black,
        _ => return None,
    };
    mates_alone(board, strong).then_some(strong)
}

/// Whether `side`'s pieces can force mate on their own: a queen, a rook, bishops on both
/// colours, or a bishop and a knight (pawns are left to the evaluation, which knows them).
fn mates_alone(board: &Board, side: Color) -> bool {
    let own = *board.color_combined(side);
    let has = |p: Piece| *board.pieces(p) & own;
    if (has(Piece::Queen) | has(Piece::Rook)) != BitBoard(0) {
        return true;
    }
    let bishops = has(Piece::Bishop).0;
    let light = bishops & LIGHT != 0;
    let dark = bishops & !LIGHT != 0;
    (light && dark) || (bishops != 0 && has(Piece::Knight) != BitBoard(0))
}

/// In a lone-king ending, its evaluation (centipawns for the side to move): a known win, the
/// attacker's material and the term below, within [`EVAL_LIMIT`]; None anywhere else.
#[inline]
pub fn evaluate(board: &Board) -> Option<i32> {
    let strong = attacker(board)?;
    let score = (KNOWN_WIN + material(board, strong) + bonus(board, strong)).min(EVAL_LIMIT);
    Some(if board.side_to_move() == strong {
        score
    } else {
        -score
    })
}

/// The attacker's pieces at their usual values, so that keeping more of them, or trading
/// into such an ending, is still worth something.
fn material(board: &Board, strong: Color) -> i32 {
    let own = *board.color_combined(strong);
    let count = |p: Piece| (*board.pieces(p) & own).popcnt() as i32;
    900 * count(Piece::Queen)
        + 500 * count(Piece::Rook)
        + 330 * count(Piece::Bishop)
        + 320 * count(Piece::Knight)
}

/// The term for `strong`, which has mating material against a bare king.
pub fn bonus(board: &Board, strong: Color) -> i32 {
    let closeness = 14 - manhattan(board.king_square(!strong), board.king_square(strong));
    drive(board, strong) + CLOSE * closeness
}

/// Where the lone king stands: on the edge, and with bishop and knight near a corner of the
/// bishop's colour.
fn drive(board: &Board, strong: Color) -> i32 {
    let lone = board.king_square(!strong);
    let own_pieces = *board.color_combined(strong);
    let bishops = (*board.pieces(Piece::Bishop) & own_pieces).0;
    let knights = *board.pieces(Piece::Knight) & own_pieces;
    let heavy = (*board.pieces(Piece::Queen) | *board.pieces(Piece::Rook)) & own_pieces;
    let bishop_and_knight = heavy == BitBoard(0)
        && knights != BitBoard(0)
        && (bishops & LIGHT == 0 || bishops & !LIGHT == 0);
    let edge = EDGE * centre_distance(lone);
    if !bishop_and_knight {
        return edge;
    }
    let corners = if bishops & LIGHT != 0 {
        [Square::A8, Square::H1]
    } else {
        [Square::A1, Square::H8]
    };
    let near = corners
        .iter()
        .map(|&c| manhattan(lone, c))
        .min()
        .unwrap_or(0);
    edge + BISHOP_CORNER * (7 - near)
}

fn manhattan(a: Square, b: Square) -> i32 {
    let (fa, ra) = coords(a);
    let (fb, rb) = coords(b);
    (fa - fb).abs() + (ra - rb).abs()
}

/// Steps from the nearest of the four centre squares: 0 there, 6 in a corner.
fn centre_distance(s: Square) -> i32 {
    let (f, r) = coords(s);
    (3 - f).max(f - 4) + (3 - r).max(r - 4)
}

fn coords(s: Square) -> (i32, i32) {
    (
        s.get_file().to_index() as i32,
        s.get_rank().to_index() as i32,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn board(fen: &str) -> Board {
        Board::from_str(fen).expect("test FEN")
    }

    #[test]
    fn only_a_bare_king_against_mating_material() {
        let cases = [
            ("8/8/8/3k4/8/8/8/K5Q1 w - - 0 1", Some(Color::White)),
            ("8/8/8/3k4/8/8/8/K6R b - - 0 1", Some(Color::White)),
            ("8/8/8/3K4/8/8/2b5/k1n5 w - - 0 1", Some(Color::Black)),
            // Two bishops on one colour, a lone minor, two knights, a pawn: no forced mate.
            ("8/8/8/3k4/8/8/8/K1B1B3 w - - 0 1", None),
            ("8/8/8/3k4/8/8/8/K1B5 w - - 0 1", None),
            ("8/8/8/3k4/8/8/8/K1NN4 w - - 0 1", None),
            ("8/8/8/3k4/8/8/P7/K7 w - - 0 1", None),
            // The defender has more than its king.
            ("8/8/8/3k4/8/8/p7/K5Q1 w - - 0 1", None),
            ("8/8/8/3k4/8/8/8/KBB5 w - - 0 1", Some(Color::White)),
        ];
        for (fen, expected) in cases {
            assert_eq!(attacker(&board(fen)), expected, "{fen}");
        }
        let start = board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert_eq!(evaluate(&start), None);
    }

    /// The lone king is worth more on the edge and in the corner, and with the kings close;
    /// the side to move sees the term with its own sign.
    #[test]
    fn the_term_rewards_the_edge_and_the_kings_closing_in() {
        let centre = bonus(&board("8/8/8/3k4/8/8/8/K6R w - - 0 1"), Color::White);
        let edge = bonus(&board("3k4/8/8/8/8/8/8/K6R w - - 0 1"), Color::White);
        let corner = bonus(&board("k7/8/8/8/8/8/8/K6R w - - 0 1"), Color::White);
        let near = bonus(&board("k7/8/2K5/8/8/8/8/7R w - - 0 1"), Color::White);
        assert!(
            centre < edge && edge < corner && corner < near,
            "{centre} {edge} {corner} {near}"
        );
        let white = board("k7/8/2K5/8/8/8/8/7R w - - 0 1");
        let black = board("k7/8/2K5/8/8/8/8/7R b - - 0 1");
        let whole = KNOWN_WIN + 500 + near;
        assert_eq!(evaluate(&white), Some(whole));
        assert_eq!(evaluate(&black), Some(-whole));
    }

    /// With bishop and knight the corner of the bishop's colour is the goal: any edge beats
    /// the centre, and along the edge from the wrong corner to the right one every step rises.
    #[test]
    fn bishop_and_knight_drive_to_the_bishops_corner() {
        // A dark-squared bishop (h2): mate in a1 or h8.
        let at = |lone: &str| {
            let mut b = chess::BoardBuilder::new();
            for (sq, piece) in [
                ("e1", Piece::King),
                ("h2", Piece::Bishop),
                ("g1", Piece::Knight),
            ] {
                b.piece(Square::from_str(sq).expect("square"), piece, Color::White);
            }
            b.piece(
                Square::from_str(lone).expect("square"),
                Piece::King,
                Color::Black,
            );
            drive(&Board::try_from(&b).expect("a legal board"), Color::White)
        };
        let centre = at("d4");
        let edge: Vec<i32> = ["a8", "a7", "a6", "a5", "a4", "a3", "a2", "a1"]
            .iter()
            .map(|s| at(s))
            .collect();
        assert!(centre < edge[0], "{centre} {edge:?}");
        assert!(edge.windows(2).all(|w| w[0] < w[1]), "{edge:?}");
    }
}
