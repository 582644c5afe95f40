//! The training-data format written by `sandglass datagen` and read by `sandglass train`.
//!
//! One record is 32 bytes, little-endian, after marlinformat's idea (occupancy plus packed
//! pieces) so that a million positions take 32 MB:
//!
//! | bytes  | field | meaning |
//! |--------|-------|---------|
//! | 0..8   | occupancy | u64, bit i set when square i (a1 = 0, h8 = 63) holds a piece |
//! | 8..24  | pieces | one nibble per occupied square, in increasing square order, low nibble first: colour × 8 + piece (pawn 0 … king 5; colour 0 White) |
//! | 24..26 | score | i16, search score in centipawns from **White's** view (never a mate score) |
//! | 26     | result | u8, game result from White's view: 0 loss, 1 draw, 2 win |
//! | 27     | stm | u8, side to move: 0 White, 1 Black |
//! | 28..30 | fullmove | u16, the FEN fullmove number |
//! | 30..32 | reserved | zero |
//!
//! Castling rights, en passant and the halfmove clock are not stored: the network does not
//! see them. A shard file is a plain sequence of records; a file whose length is not a
//! multiple of 32 ends in a partial record, which readers ignore and writers cut off.

use chess::{BitBoard, Board, Color, Piece, Square, ALL_PIECES, ALL_SQUARES};

pub const RECORD_BYTES: usize = 32;

/// One position as training needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Packed {
    pub occupancy: u64,
    pub pieces: [u8; 16],
    /// Centipawns, White's view.
    pub score: i16,
    /// 0 = White lost, 1 = draw, 2 = White won.
    pub result: u8,
    pub stm: Color,
    pub fullmove: u16,
}

impl Packed {
    /// Pack a board with its White-relative score and result.
    pub fn new(board: &Board, score: i16, result: u8, fullmove: u16) -> Packed {
        let occ = *board.combined();
        let mut pieces = [0u8; 16];
        for (i, sq) in occ.into_iter().enumerate().take(32) {
            let piece = board.piece_on(sq).map_or(0, |p| p.to_index() as u8);
            let colour = u8::from(board.color_on(sq) == Some(Color::Black));
            let code = colour * 8 + piece;
            pieces[i / 2] |= code << (4 * (i % 2));
        }
        Packed {
            occupancy: occ.0,
            pieces,
            score,
            result,
            stm: board.side_to_move(),
            fullmove,
        }
    }

    pub fn to_bytes(&self) -> [u8; RECORD_BYTES] {
        let mut out = [0u8; RECORD_BYTES];
        out[0..8].copy_from_slice(&self.occupancy.to_le_bytes());
        out[8..24].copy_from_slice(&self.pieces);
        out[24..26].copy_from_slice(&self.score.to_le_bytes());
        out[26] = self.result;
        out[27] = u8::from(self.stm == Color::Black);
        out[28..30].copy_from_slice(&self.fullmove.to_le_bytes());
        out
    }

    /// Decode one record; None when it is not a record datagen could have written (a corrupt
    /// or foreign file): a field out of range, reserved bytes not zero, a pawn on a back rank,
    /// or a board the chess crate refuses (which also needs exactly one king a side). A file
    /// of zeros or random bytes would otherwise pass as positions and be trained on.
    pub fn from_bytes(bytes: &[u8; RECORD_BYTES]) -> Option<Packed> {
        let mut occ = [0u8; 8];
        occ.copy_from_slice(&bytes[0..8]);
        let occupancy = u64::from_le_bytes(occ);
        let mut pieces = [0u8; 16];
        pieces.copy_from_slice(&bytes[8..24]);
        let packed = Packed {
            occupancy,
            pieces,
            score: i16::from_le_bytes([bytes[24], bytes[25]]),
            result: bytes[26],
            stm: if bytes[27] == 0 {
                Color::White
            } else {
                Color::Black
            },
            fullmove: u16::from_le_bytes([bytes[28], bytes[29]]),
        };
        let sane = occupancy.count_ones() <= 32
            && packed.result <= 2
            && bytes[27] <= 1
            && bytes[30..32] == [0, 0]
            && packed
                .pieces_iter()
                .all(|(sq, c, p)| c <= 1 && p <= 5 && (p != 0 || (8..56).contains(&sq)))
            && packed.board().is_some();
        sane.then_some(packed)
    }

    /// (square, colour 0/1, piece 0..=5) of every piece, raw codes as stored.
    fn pieces_iter(&self) -> impl Iterator<Item = (u8, u8, u8)> + '_ {
        BitBoard(self.occupancy)
            .into_iter()
            .enumerate()
            .map(|(i, sq)| {
                let code = (self.pieces[i / 2] >> (4 * (i % 2))) & 0xF;
                (sq.to_index() as u8, code >> 3, code & 7)
            })
    }

    /// Every piece as (square, colour, piece).
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Color, Piece)> + '_ {
        self.pieces_iter().map(|(sq, c, p)| {
            let square = ALL_SQUARES[usize::from(sq & 63)];
            let colour = if c == 0 { Color::White } else { Color::Black };
            (square, colour, ALL_PIECES[usize::from(p.min(5))])
        })
    }

    /// The board (no castling rights or en passant; they are not stored), or None if the
    /// pieces do not make a legal position.
    pub fn board(&self) -> Option<Board> {
        // The crate's own check looks up each king's attacks before it counts the kings, and
        // without one that lookup reads past its table (undefined behaviour; a debug build
        // stops on it). So the kings are counted first.
        for colour in [Color::White, Color::Black] {
            let kings = self
                .pieces()
                .filter(|&(_, c, p)| c == colour && p == Piece::King)
                .count();
            if kings != 1 {
                return None;
            }
        }
        let mut builder = chess::BoardBuilder::new();
        for (sq, colour, piece) in self.pieces() {
            builder.piece(sq, piece, colour);
        }
        builder.side_to_move(self.stm);
        Board::try_from(builder).ok()
    }

    /// Game result as a score for White: 0, 0.5 or 1.
    pub fn white_result(&self) -> f32 {
        f32::from(self.result) / 2.0
    }
}

/// Decode a whole shard, ignoring a trailing partial record; Err names the first bad record.
pub fn decode_all(bytes: &[u8]) -> Result<Vec<Packed>, String> {
    let mut out = Vec::with_capacity(bytes.len() / RECORD_BYTES);
    for (i, chunk) in bytes.chunks_exact(RECORD_BYTES).enumerate() {
        let mut record = [0u8; RECORD_BYTES];
        record.copy_from_slice(chunk);
        out.push(Packed::from_bytes(&record).ok_or_else(|| format!("record {i} is corrupt"))?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    #[test]
    fn round_trip_keeps_every_piece() {
        let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1";
        let board = Board::from_str(fen).expect("test FEN");
        let packed = Packed::new(&board, -123, 2, 17);
        let back = Packed::from_bytes(&packed.to_bytes()).expect("decodes");
        assert_eq!(back, packed);
        assert_eq!(back.stm, Color::Black);
        let mut count = 0;
        for (sq, colour, piece) in back.pieces() {
            assert_eq!(board.piece_on(sq), Some(piece));
            assert_eq!(board.color_on(sq), Some(colour));
            count += 1;
        }
        assert_eq!(count, board.combined().popcnt());
        let rebuilt = back.board().expect("legal board");
        assert_eq!(rebuilt.combined(), board.combined());
        assert_eq!(rebuilt.side_to_move(), Color::Black);
    }

    #[test]
    fn corrupt_records_are_rejected() {
        let mut bytes = [0u8; RECORD_BYTES];
        bytes[26] = 7;
        assert!(Packed::from_bytes(&bytes).is_none());
        assert!(decode_all(&bytes).is_err());
        assert_eq!(decode_all(&bytes[..31]).map(|v| v.len()), Ok(0));
    }

    /// Records that decoded before although datagen never writes them: all zeros (200 empty
    /// boards were trained on), a missing or extra king, a pawn on the back rank, the side
    /// not to move in check, reserved bytes set.
    #[test]
    fn records_datagen_cannot_write_are_rejected() {
        let record = |fen: &str| {
            let board = Board::from_str(fen).expect("test FEN");
            Packed::new(&board, 0, 1, 1).to_bytes()
        };
        // Pieces in square order: e1 K, h1 R (byte 8), e2 P, e8 k (byte 9).
        let good = record("4k3/8/8/8/8/8/4P3/4K2R w - - 0 1");
        assert_eq!(good[8..10], [0x35, 0xD0]);
        assert!(Packed::from_bytes(&good).is_some());
        let with = |at: usize, byte: u8| {
            let mut bytes = good;
            bytes[at] = byte;
            bytes
        };
        let mut black_in_check = record("4k2R/8/8/8/8/8/4P3/4K3 b - - 0 1");
        assert!(Packed::from_bytes(&black_in_check).is_some());
        black_in_check[27] = 0;
        let bad = [
            ("zeros", [0u8; RECORD_BYTES]),
            ("reserved byte", with(31, 1)),
            ("no white king", with(8, 0x34)),
            ("two white kings", with(9, 0xD5)),
            ("pawn on h1", with(8, 0x05)),
            ("White to move, Black in check", black_in_check),
        ];
        let accepted: Vec<&str> = bad
            .iter()
            .filter(|(_, bytes)| Packed::from_bytes(bytes).is_some())
            .map(|(what, _)| *what)
            .collect();
        assert!(accepted.is_empty(), "accepted: {accepted:?}");
    }
}
