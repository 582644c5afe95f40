//! Turning UCI move text into moves.
//!
//! A move is accepted only if it matches an entry of the legal move list, so the crate never
//! makes a move it has not generated itself (it corrupts its board on illegal moves).

use super::{Castle, Position};
use chess::ChessMove;
use std::fmt;

/// A move text that does not name a legal move of the position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveError {
    pub text: String,
    pub fen: String,
    pub reason: &'static str,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "move {:?} {} in position {}",
            self.text, self.reason, self.fen
        )
    }
}

impl std::error::Error for MoveError {}

/// What a UCI move text stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UciMove {
    Move(ChessMove),
    /// `0000`: pass the move; only where legal (not in check).
    Null,
}

impl Position {
    /// Read a move in UCI notation (`e2e4`, `e7e8q`, also `e7e8Q`, and `0000` for a null move).
    pub fn parse_move(&self, text: &str) -> Result<UciMove, MoveError> {
        let error = |reason| MoveError {
            text: super::echo(text),
            fen: self.fen(),
            reason,
        };
        if text == "0000" {
            return if self.in_check() {
                Err(error("is a null move, which is illegal in check"))
            } else {
                Ok(UciMove::Null)
            };
        }
        let b = text.as_bytes();
        let well_formed = (b.len() == 4 || b.len() == 5)
            && (b'a'..=b'h').contains(&b[0])
            && (b'1'..=b'8').contains(&b[1])
            && (b'a'..=b'h').contains(&b[2])
            && (b'1'..=b'8').contains(&b[3])
            && (b.len() == 4 || b"nbrqNBRQ".contains(&b[4]));
        if !well_formed {
            return Err(error("is not UCI move notation"));
        }
        let wanted = text.to_ascii_lowercase();
        // In Chess960 notation castling is king-takes-own-rook (`e1h1`); the king's two-square
        // move of a standard-shaped castling is accepted there too (no other move has that
        // text). Standard notation stays as it was: `e1h1` is no move there.
        self.legal_moves()
            .find(|&m| {
                m.to_string() == wanted
                    || self.is_chess960()
                        && Castle::of(self.board(), m)
                            .is_some_and(|c| c.king_takes_rook() == wanted)
            })
            .map(UciMove::Move)
            .ok_or_else(|| error("is illegal"))
    }

    /// The UCI text of a legal move: castling as the king's two-square move in standard
    /// notation, as king-takes-own-rook (`e1h1`) in Chess960 notation.
    pub fn move_text(&self, m: ChessMove) -> String {
        if self.is_chess960() {
            if let Some(c) = Castle::of(self.board(), m) {
                return c.king_takes_rook();
            }
        }
        m.to_string()
    }

    /// The UCI text of a line of moves starting here (a principal variation), each in the
    /// notation of the position it is played in. Stops at a move that is not legal.
    pub fn line_text(&self, line: &[ChessMove]) -> Vec<String> {
        if !self.is_chess960() {
            return line.iter().map(|m| m.to_string()).collect();
        }
        let mut pos = self.clone();
        let mut out = Vec::with_capacity(line.len());
        for &m in line {
            if !pos.is_legal(m) {
                break;
            }
            out.push(pos.move_text(m));
            pos.make_move(m);
        }
        out
    }

    /// Parse and play a move; on error the position is unchanged.
    pub fn play_uci(&mut self, text: &str) -> Result<(), MoveError> {
        match self.parse_move(text)? {
            UciMove::Move(m) => self.make_move(m),
            UciMove::Null => {
                self.make_null_move();
            }
        }
        Ok(())
    }
}
