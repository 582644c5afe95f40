//! The board as an SVG picture: White at the bottom, the last move's squares marked, files
//! and ranks named at the edge. The pieces are the Unicode chess symbols in DejaVu Sans (the
//! solid ones for both sides: White's filled white with a black outline, Black's black), so
//! the page needs no image file.

use crate::position::Position;
use chess::{Color, Piece, Square};
use std::fmt::Write as _;

/// Side of a square in the picture's units.
const SQUARE: usize = 60;
/// Room for the file letters and rank numbers.
const EDGE: usize = 24;
const LIGHT: &str = "#eeeed2";
const DARK: &str = "#8ca2ad";
/// The last move's squares: Okabe–Ito yellow, half covering the square's colour.
const MARK: &str = "#F0E442";

fn glyph(piece: Piece) -> &'static str {
    // The solid symbols, each followed by VARIATION SELECTOR-15 (text, not emoji, style).
    match piece {
        Piece::King => "\u{265A}\u{FE0E}",
        Piece::Queen => "\u{265B}\u{FE0E}",
        Piece::Rook => "\u{265C}\u{FE0E}",
        Piece::Bishop => "\u{265D}\u{FE0E}",
        Piece::Knight => "\u{265E}\u{FE0E}",
        Piece::Pawn => "\u{265F}\u{FE0E}",
    }
}

/// The picture of `pos`, with `last` (from, to) marked.
pub fn svg(pos: &Position, last: Option<(Square, Square)>) -> String {
    let size = 8 * SQUARE + EDGE;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"board\" viewBox=\"0 0 {size} {size}\" role=\"img\" aria-label=\"the board\">"
    );
    let board = pos.board();
    for rank in 0..8usize {
        for file in 0..8usize {
            let x = EDGE + file * SQUARE;
            let y = (7 - rank) * SQUARE;
            let colour = if (rank + file) % 2 == 0 { DARK } else { LIGHT };
            let _ = write!(
                out,
                "<rect x=\"{x}\" y=\"{y}\" width=\"{SQUARE}\" height=\"{SQUARE}\" fill=\"{colour}\"/>"
            );
            let sq =
                Square::make_square(chess::Rank::from_index(rank), chess::File::from_index(file));
            if last.is_some_and(|(a, b)| a == sq || b == sq) {
                let _ = write!(
                    out,
                    "<rect class=\"last\" x=\"{x}\" y=\"{y}\" width=\"{SQUARE}\" height=\"{SQUARE}\" fill=\"{MARK}\" fill-opacity=\"0.6\"/>"
                );
            }
            if let (Some(piece), Some(side)) = (board.piece_on(sq), board.color_on(sq)) {
                let (fill, stroke) = match side {
                    Color::White => ("#ffffff", "#000000"),
                    Color::Black => ("#000000", "#000000"),
                };
                let _ = write!(
                    out,
                    "<text class=\"piece\" x=\"{}\" y=\"{}\" font-size=\"50\" text-anchor=\"middle\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"1.6\" paint-order=\"stroke\" font-family=\"'DejaVu Sans',sans-serif\">{}</text>",
                    x + SQUARE / 2,
                    y + SQUARE - 12,
                    glyph(piece)
                );
            }
        }
    }
    for i in 0..8usize {
        let _ = write!(
            out,
            "<text x=\"{}\" y=\"{}\" font-size=\"20\" text-anchor=\"middle\" fill=\"#000\" font-family=\"'DejaVu Sans',sans-serif\">{}</text>",
            EDGE + i * SQUARE + SQUARE / 2,
            8 * SQUARE + 19,
            (b'a' + i as u8) as char
        );
        let _ = write!(
            out,
            "<text x=\"{}\" y=\"{}\" font-size=\"20\" text-anchor=\"middle\" fill=\"#000\" font-family=\"'DejaVu Sans',sans-serif\">{}</text>",
            EDGE / 2,
            (7 - i) * SQUARE + SQUARE / 2 + 7,
            i + 1
        );
    }
    out.push_str("</svg>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_has_64_squares_and_32_men() {
        let pic = svg(&Position::startpos(), None);
        assert_eq!(pic.matches("<rect ").count(), 64);
        assert_eq!(pic.matches("class=\"piece\"").count(), 32);
        assert_eq!(pic.matches("\u{265F}").count(), 16);
        assert!(!pic.contains("class=\"last\""));
    }

    #[test]
    fn the_last_move_is_marked() {
        let mut pos = Position::startpos();
        let Ok(crate::position::UciMove::Move(m)) = pos.parse_move("e2e4") else {
            panic!("e2e4 is legal")
        };
        pos.make_move(m);
        let pic = svg(&pos, Some((m.get_source(), m.get_dest())));
        assert_eq!(pic.matches("class=\"last\"").count(), 2);
        // e4 is on the fifth row from the top of the picture, the fifth file.
        assert!(pic.contains(&format!(
            "<rect class=\"last\" x=\"{}\" y=\"{}\"",
            EDGE + 4 * SQUARE,
            4 * SQUARE
        )));
    }
}
