//! Score conventions shared by the search and the transposition table: centipawns from the
//! side to move, mates as distance from the root, tablebase wins below them, and how both
//! are stored in the table and written in UCI.
//!
//! It sits below both `tt` and `search`, so the table can convert mate scores without
//! knowing anything about the search.

/// Score of being mated at the root; a mate found n plies from the root scores `MATE - n`.
pub const MATE: i32 = 32_000;
/// Scores beyond this (in absolute value) are mates.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// Larger than any score: the initial window.
pub const INFINITY: i32 = 32_500;
pub const DRAW: i32 = 0;

/// Score of a tablebase win at the root; one found n plies from the root scores
/// `TB_WIN - n`. Far below any mate and far above any evaluation (at most
/// `eval::EVAL_LIMIT`, 15,000), so neither is ever taken for one (Stockfish's `VALUE_TB`
/// sits the same way, just below its mates).
pub const TB_WIN: i32 = 30_000;
/// Scores beyond this (in absolute value) are tablebase wins or mates: decided games. The
/// search reaches at most `search::ordering::MAX_PLY` (128) plies, well within the 1,000.
pub const TB_BOUND: i32 = TB_WIN - 1_000;
/// How UCI shows a tablebase win: `cp 20000` at the root, one less for each ply to the
/// position the tables decided (Stockfish's convention; UCI has no tablebase score).
const TB_CP: i32 = 20_000;

pub fn is_mate(score: i32) -> bool {
    score.abs() >= MATE_BOUND
}

/// A mate or a tablebase win, for either side: a decided game, whose score no margin of
/// the pruning rules may be measured against.
pub fn is_decisive(score: i32) -> bool {
    score.abs() >= TB_BOUND
}

/// Is `score` a mate for the side to move in at most `moves` moves (`go mate`), that is
/// in at most `2 × moves − 1` plies? Counted in 64 bits: a GUI may ask for any `u32`, and
/// `MATE - (2 × moves − 1)` in `i32` turned a large request into a threshold below
/// ordinary scores.
pub fn mates_within(score: i32, moves: u32) -> bool {
    score >= MATE_BOUND && i64::from(MATE - score) < 2 * i64::from(moves)
}

/// Mate and tablebase scores in the table count from the stored node, not from the root.
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    if score >= TB_BOUND {
        score + ply
    } else if score <= -TB_BOUND {
        score - ply
    } else {
        score
    }
}

pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    if score >= TB_BOUND {
        score - ply
    } else if score <= -TB_BOUND {
        score + ply
    } else {
        score
    }
}

/// UCI form: `cp 34` or `mate 3` / `mate -2`, mates counted in moves, not plies; a
/// tablebase win `cp 19990` (see `TB_CP`).
pub fn uci(score: i32) -> String {
    if score >= MATE_BOUND {
        format!("mate {}", (MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        format!("mate -{}", (MATE + score) / 2)
    } else if score >= TB_BOUND {
        format!("cp {}", TB_CP - (TB_WIN - score))
    } else if score <= -TB_BOUND {
        format!("cp {}", -TB_CP + (TB_WIN + score))
    } else {
        format!("cp {score}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mates_within_counts_moves_and_takes_any_request() {
        assert!(mates_within(MATE - 1, 1));
        assert!(!mates_within(MATE - 3, 1));
        assert!(mates_within(MATE - 3, 2));
        assert!(!mates_within(MATE - 1, 0));
        // A request far past any mate the search can find: ordinary scores are not mates.
        for moves in [20_000, 1 << 30, u32::MAX] {
            assert!(!mates_within(3, moves), "{moves}");
            assert!(!mates_within(-(MATE - 2), moves), "{moves}");
            assert!(mates_within(MATE - 40, moves), "{moves}");
        }
    }

    #[test]
    fn mate_in_moves_not_plies() {
        assert_eq!(uci(MATE - 1), "mate 1"); // we mate with our next move
        assert_eq!(uci(MATE - 3), "mate 2");
        assert_eq!(uci(-(MATE - 2)), "mate -1"); // mated by their reply to our move
        assert_eq!(uci(-(MATE - 4)), "mate -2");
        assert_eq!(uci(17), "cp 17");
    }

    #[test]
    fn tt_round_trip() {
        for s in [MATE - 5, -(MATE - 7), 100, -3, TB_WIN - 4, -(TB_WIN - 6)] {
            assert_eq!(score_from_tt(score_to_tt(s, 9), 9), s);
        }
        // A tablebase win stored at ply 3 is read back as many plies from a new root.
        assert_eq!(score_from_tt(score_to_tt(TB_WIN - 3, 3), 5), TB_WIN - 5);
    }

    /// Tablebase wins read as large centipawn scores, never as mates, and are decisive.
    #[test]
    fn tablebase_wins_are_below_mates_and_shown_in_centipawns() {
        assert_eq!(uci(TB_WIN), "cp 20000");
        assert_eq!(uci(TB_WIN - 7), "cp 19993");
        assert_eq!(uci(-(TB_WIN - 7)), "cp -19993");
        assert!(!is_mate(TB_WIN) && is_decisive(TB_WIN - 128) && is_decisive(-TB_WIN));
        assert!(is_decisive(MATE - 1) && !is_decisive(crate::eval::EVAL_LIMIT));
        const { assert!(TB_WIN < MATE_BOUND) };
    }
}
