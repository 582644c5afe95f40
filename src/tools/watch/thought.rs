//! What a player's search gave for a move, the turn it was asked for, and why a move did
//! not come: what the referee ([`super::game`]) and both kinds of player
//! ([`super::in_process`], [`super::engine_process`]) pass between them.

use crate::position::{move_to_san, Position};
use crate::search::ScoreBound;
use crate::time::GoLimits;
use chess::ChessMove;

/// What a search gave.
#[derive(Clone, Debug, PartialEq)]
pub struct Thought {
    pub best: ChessMove,
    /// Wall time from `go` to the answer, as the referee measured it.
    pub spent_ms: i64,
    /// Mover's view, centipawns (mates as `score.rs` writes them); None if not said.
    pub score: Option<i32>,
    /// Whether `score` is exact or a bound (a move the unfinished iteration proved better is
    /// played with the lower bound that proved it).
    pub bound: ScoreBound,
    pub depth: u32,
    pub reason: String,
    pub detail: String,
    pub adjust: String,
    pub final_soft_ms: Option<u64>,
    pub timelog: String,
    /// The learned model's probability at the last soft-stop check (Sandglass only).
    pub p_change: Option<f64>,
}

impl Thought {
    /// The score as the page shows it, a bound marked: "≥+3.12" is at least +3.12.
    pub fn score_shown(&self) -> String {
        let mark = match self.bound {
            ScoreBound::Exact => "",
            ScoreBound::Lower => "≥",
            ScoreBound::Upper => "≤",
        };
        self.score.map_or(String::new(), |s| {
            format!("{mark}{}", crate::tools::selfplay::score_text(s))
        })
    }
}

/// Why a move did not come.
#[derive(Clone, Debug, PartialEq)]
pub enum Failure {
    /// The clock ran out before the answer.
    Flagged,
    /// The program ended or closed its output; what it said last.
    Crashed(String),
    /// The answer is not a legal move here.
    Illegal(String),
    /// Ctrl-C.
    Interrupted,
}

/// The game as a player needs it for one move.
pub struct Turn<'a> {
    /// The start position and the moves since, in UCI notation (for `position`).
    pub start: &'a Position,
    pub moves: &'a [String],
    /// The position to move in.
    pub pos: &'a Position,
    pub go: GoLimits,
    /// The mover's clock: past it the move is lost on time.
    pub clock_ms: i64,
}

/// Up to this many moves of a principal variation are shown.
const PV_SHOWN: usize = 6;

/// The first moves of `pv` in SAN, from `pos`; stops at a move that is not legal.
pub fn pv_san(pos: &Position, pv: &[ChessMove]) -> String {
    let mut p = pos.clone();
    let mut out = Vec::new();
    for &m in pv.iter().take(PV_SHOWN) {
        if !p.is_legal(m) {
            break;
        }
        out.push(move_to_san(p.board(), m));
        p.make_move(m);
    }
    out.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    /// A bound is shown as one, so that a lower bound is not read as the move's score.
    #[test]
    fn a_bound_is_marked() {
        let thought = |score, bound| Thought {
            best: ChessMove::from_str("e2e4").unwrap_or_default(),
            spent_ms: 0,
            score,
            bound,
            depth: 9,
            reason: String::new(),
            detail: String::new(),
            adjust: String::new(),
            final_soft_ms: None,
            timelog: String::new(),
            p_change: None,
        };
        assert_eq!(thought(Some(312), ScoreBound::Exact).score_shown(), "+3.12");
        assert_eq!(
            thought(Some(312), ScoreBound::Lower).score_shown(),
            "≥+3.12"
        );
        assert_eq!(
            thought(Some(-40), ScoreBound::Upper).score_shown(),
            "≤-0.40"
        );
        assert_eq!(thought(None, ScoreBound::Lower).score_shown(), "");
    }
}
