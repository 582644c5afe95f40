//! PGN reading for the tuner: each game's result, its moves, and the search score that
//! self-play writes in each move's comment.

/// A game from a PGN file: its result (White's score) and its moves in SAN.
#[derive(Debug, Clone, PartialEq)]
pub struct PgnGame {
    /// 1.0, 0.5 or 0.0 for a finished game; `None` for `*` or no result.
    pub result: Option<f64>,
    /// The FEN tag, for games that do not start from the initial position.
    pub fen: Option<String>,
    /// Moves of the main line, in SAN as written.
    pub moves: Vec<String>,
    /// For each move, the engine's score for it from a `{+0.35/9 …}` comment (centipawns,
    /// from the mover's side), as engines and `sandglass selfplay` write them.
    pub scores: Vec<Option<i32>>,
}

pub(super) fn result_value(text: &str) -> Option<f64> {
    match text {
        "1-0" => Some(1.0),
        "0-1" => Some(0.0),
        "1/2-1/2" => Some(0.5),
        _ => None,
    }
}

/// Reads every game of a PGN text (with the project's one PGN reader, [`crate::tools::pgn`]).
/// Tolerant: whatever it cannot understand in the move text is skipped, and a game's moves
/// stop at the first bad one later (when they are played through `san_to_move`).
pub fn parse_pgn(text: &str) -> Vec<PgnGame> {
    crate::tools::pgn::parse_str(text)
        .into_iter()
        .map(|game| PgnGame {
            result: game
                .tag("Result")
                .and_then(result_value)
                .or_else(|| game.termination.as_deref().and_then(result_value)),
            fen: game.tag("FEN").map(str::to_string),
            scores: game
                .moves
                .iter()
                .map(|m| comment_score(&m.comment))
                .collect(),
            moves: game.moves.into_iter().map(|m| m.san).collect(),
        })
        .collect()
}

/// An engine score at the start of a comment: `+0.35/9`, `-1.20/12 0.5s`; mate scores
/// (`+M5`), bounds (`+0.35/9 lowerbound`, as `selfplay` marks a move proved by an unfinished
/// iteration: no evaluation of the position) and anything else give `None`.
pub fn comment_score(comment: &str) -> Option<i32> {
    let mut words = comment.split_whitespace();
    let first = words.next()?;
    if words.any(|w| w == "lowerbound" || w == "upperbound") {
        return None;
    }
    let (value, depth) = first.split_once('/')?;
    depth.parse::<u32>().ok()?;
    if !value.contains('.') {
        return None;
    }
    let pawns: f64 = value.parse().ok()?;
    if !pawns.is_finite() || pawns.abs() > 200.0 {
        return None;
    }
    Some((pawns * 100.0).round() as i32)
}
