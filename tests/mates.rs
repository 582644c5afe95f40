//! Short mates that pruning once hid: no pruning rule skips a move that gives check, so a
//! search from a fresh table finds these mates (issue 15).

use sandglass::position::Position;
use sandglass::score::MATE;
use sandglass::search::{self, Limits, Signals};
use sandglass::time::Mode;
use sandglass::tt::TranspositionTable;

/// Score and best move of a search to `depth` from a fresh table.
fn search_to(fen: &str, depth: u32) -> (i32, String) {
    let pos = Position::from_fen(fen).expect("test FEN");
    let tt = TranspositionTable::new(16);
    let signals = Signals::new(false);
    let limits = Limits {
        mode: Mode::depth(depth),
        ..Limits::default()
    };
    let outcome = search::search(&pos, &limits, &tt, &signals, &mut |_| {});
    let best = outcome.best.map_or_else(String::new, |m| m.to_string());
    (outcome.score, best)
}

#[test]
fn rook_mate_against_black_seen_by_depth_four() {
    // 1...Kb8 2.Rh8#: every Black move loses to a quiet rook check that late-move pruning
    // used to skip (seen only at depth 6 before).
    for depth in 2..=4 {
        let (score, _) = search_to("k7/8/1K6/8/8/8/8/7R b - - 0 1", depth);
        assert_eq!(score, -(MATE - 2), "depth {depth}");
    }
}

/// WAC.001 as in the shared EPD: 1.Qg6 and mate next move (2.Nxg6# after 1...fxg6, 2.Qh7#
/// otherwise). Black's node after the queen sacrifice is a queen up on the board, so reverse
/// futility used to cut it; it is not applied right after a quiet move that leaves a rook or
/// queen to be taken. The search finds the mate late: Qg6 is a late quiet root move, reduced,
/// and below it Black's null move, a queen up, drops straight into quiescence, which cannot
/// see the quiet mate Qh7#. Only a search whose Black node is too shallow for the null move
/// sees it, which happened at depth 3 before root reductions and at depth 15 now (1.5 × 10^5
/// nodes). Without the guard it is seen only from depth 18 (1.5 × 10^6 nodes), so this test
/// fails (`SANDGLASS_ABLATE=rfpguard`).
#[test]
fn wac_001_mate_in_two_seen_by_depth_fifteen() {
    let fen = "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1";
    for depth in 15..=17 {
        let (score, best) = search_to(fen, depth);
        assert_eq!(score, MATE - 3, "depth {depth}");
        assert_eq!(best, "g3g6", "depth {depth}");
    }
}
