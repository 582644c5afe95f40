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

/// A decided game whose distance the table cannot vouch for: a stored mate or tablebase win
/// farther from the probing node than the fifty-move rule leaves room for (Stockfish's
/// `value_from_tt`). It stays decisive, so no pruning rule measures a margin against it and
/// quiescence never stands pat on it (demoted to the edge of the ordinary scores, it became a
/// stand-pat and exact root scores of 28,999 followed, issue 106). It lies below every
/// tablebase win the search can see (at most `MAX_PLY` plies from the root, and at most
/// [`FIFTY_MOVE_PLIES`] more from a stored one), so a win of known distance is preferred, and
/// [`score_to_tt`] stores it at most `MAX_PLY` above itself, which [`score_from_tt`] reads
/// back as this value again: it can neither drift out of the band nor turn into a distance.
pub const UNKNOWN_DISTANCE_WIN: i32 = TB_WIN - 500;
/// Plies from a zeroing move to the fifty-move draw.
pub const FIFTY_MOVE_PLIES: i32 = 100;

/// Mate and tablebase scores in the table count from the stored node, not from the root.
/// The result stays in its band: a mate as a mate, anything else decisive short of one.
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    if score >= MATE_BOUND {
        (score + ply).min(MATE)
    } else if score >= TB_BOUND {
        (score + ply).min(MATE_BOUND - 1)
    } else if score <= -MATE_BOUND {
        (score - ply).max(-MATE)
    } else if score <= -TB_BOUND {
        (score - ply).max(-MATE_BOUND + 1)
    } else {
        score
    }
}

/// A stored score as seen from `ply` plies below the root, at a node whose fifty-move counter
/// is `halfmove_clock`. A mate or tablebase win stored farther from the node than the plies
/// the fifty-move rule leaves may be one the draw overrules, or a bound that grew round a
/// repetition cycle (each pass adds plies to a stored mate bound): it is read as
/// [`UNKNOWN_DISTANCE_WIN`], a win of unknown distance, never as a distance. Losses likewise.
pub fn score_from_tt(score: i32, ply: usize, halfmove_clock: u32) -> i32 {
    if !is_decisive(score) {
        return score;
    }
    let ply = ply as i32;
    let room = FIFTY_MOVE_PLIES - halfmove_clock.min(FIFTY_MOVE_PLIES as u32) as i32;
    let from_node = if is_mate(score) {
        MATE - score.abs()
    } else {
        TB_WIN - score.abs()
    };
    let value = if from_node > room {
        UNKNOWN_DISTANCE_WIN
    } else {
        score.abs() - ply
    };
    value * score.signum()
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
        // Scores as the search finds them 9 plies from the root: nothing decided nearer.
        for s in [
            MATE - 15,
            -(MATE - 17),
            100,
            -3,
            TB_WIN - 14,
            -(TB_WIN - 16),
        ] {
            assert_eq!(score_from_tt(score_to_tt(s, 9), 9, 0), s);
        }
        // A tablebase win stored at ply 3 is read back as many plies from a new root.
        assert_eq!(score_from_tt(score_to_tt(TB_WIN - 3, 3), 5, 0), TB_WIN - 5);
    }

    /// A stored mate or tablebase win is trusted only as far as the fifty-move rule reaches
    /// from the probing node; beyond, it is a win of unknown distance, still decisive.
    #[test]
    fn the_fifty_move_rule_caps_a_stored_distance() {
        // Mate in 10 plies stored at ply 4 (MATE - 14 from the root): 10 plies from the node.
        let stored = score_to_tt(MATE - 14, 4);
        assert_eq!(stored, MATE - 10);
        assert_eq!(score_from_tt(stored, 6, 90), MATE - 16); // exactly the room left
        assert_eq!(score_from_tt(stored, 6, 91), UNKNOWN_DISTANCE_WIN);
        assert_eq!(score_from_tt(-stored, 6, 91), -UNKNOWN_DISTANCE_WIN);
        assert_eq!(score_from_tt(-stored, 6, 0), -(MATE - 16));
        // A bound grown round repetition cycles, 146 moves from the node: never a mate.
        assert_eq!(score_from_tt(MATE - 291, 2, 0), UNKNOWN_DISTANCE_WIN);
        // Tablebase wins count their distance from the node the same way.
        assert_eq!(score_from_tt(TB_WIN - 30, 5, 70), TB_WIN - 35);
        assert_eq!(score_from_tt(TB_WIN - 31, 5, 70), UNKNOWN_DISTANCE_WIN);
        assert_eq!(score_from_tt(-(TB_WIN - 31), 5, 70), -UNKNOWN_DISTANCE_WIN);
        // Past the counter's end nothing decided is trusted but a mate on the board.
        assert_eq!(score_from_tt(-MATE, 3, 120), -(MATE - 3));
        assert_eq!(score_from_tt(MATE - 1, 3, 120), UNKNOWN_DISTANCE_WIN);
        assert!(is_decisive(UNKNOWN_DISTANCE_WIN) && !is_mate(UNKNOWN_DISTANCE_WIN));
    }

    /// The win of unknown distance stays itself through the table at any ply, and no stored
    /// score leaves its band.
    #[test]
    fn no_stored_score_drifts_out_of_its_band() {
        for ply in [0, 1, 64, 128] {
            for probe_ply in [0, 1, 64, 128] {
                for clock in [0, 50, 99, 100] {
                    for sign in [1, -1] {
                        let stored = score_to_tt(sign * UNKNOWN_DISTANCE_WIN, ply);
                        let read = score_from_tt(stored, probe_ply, clock);
                        assert_eq!(read, sign * UNKNOWN_DISTANCE_WIN, "{ply} {probe_ply}");
                        for s in [MATE - 1, MATE - 128, TB_WIN, TB_WIN - 128] {
                            let read = score_from_tt(score_to_tt(sign * s, ply), probe_ply, clock);
                            assert_eq!(
                                is_mate(read),
                                is_mate(s) && read != sign * UNKNOWN_DISTANCE_WIN
                            );
                            assert!(is_decisive(read) && read.signum() == sign, "{s} {read}");
                        }
                    }
                }
            }
        }
        // Nothing the search can store reaches past the mate or falls out of the band.
        assert_eq!(score_to_tt(MATE, 5), MATE);
        assert_eq!(score_to_tt(MATE_BOUND - 1, 128), MATE_BOUND - 1);
        assert_eq!(score_to_tt(-(MATE_BOUND - 1), 128), -(MATE_BOUND - 1));
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
