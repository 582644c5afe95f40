//! Issue 12, defect 3: `go depth 1` must finish on any legal position, however many pieces
//! can capture each other. Before quiescence was bounded, none of these positions finished
//! depth 1 within 1,000,000 nodes (an analysis GUI sending `go depth 1` waited for ever);
//! now each takes a few thousand. The bound is on nodes, which is deterministic, not time.
//!
//! The positions are legal by the FEN validator (at most 16 pieces a side), built to make
//! every capture possible at once: checkerboards of queens or rooks, fifteen queens a side,
//! queens and rooks, minor-piece melees, and eight pawns a side on the verge of promoting.

use sandglass::position::Position;
use sandglass::search::{self, Limits, Signals};
use sandglass::time::Mode;
use sandglass::tt::TranspositionTable;

/// Far above what bounded quiescence needs (at most about 25,000 nodes on these), far below
/// what the unbounded one spent.
const NODE_BOUND: u64 = 200_000;

const HOSTILE: &[(&str, &str)] = &[
    (
        "queen-checkerboard",
        "8/8/qQqQqQ2/QqQqQqQq/qQqQqQqQ/QqQqQqQq/8/K2k4 w - - 0 1",
    ),
    (
        "rook-checkerboard",
        "8/8/rRrRrR2/RrRrRrRr/rRrRrRrR/RrRrRrRr/8/K2k4 w - - 0 1",
    ),
    (
        "promotions",
        "1r1r1r2/PPPPPPPP/Q1Q1Q1Q1/1K6/3k4/q1q1q1q1/pppppppp/1R1R1R2 w - - 0 1",
    ),
    (
        "minors",
        "nBBNB3/2NN3N/K1Bbn1n1/2N1bb1k/N1B1n3/bb1B1n1B/5Nb1/1nn2Nbn w - - 0 1",
    ),
    (
        "minors",
        "bB3N1b/2b1n3/N1n1B2N/nN1n2NN/nBnBn1Nk/2NBBbn1/4bB2/4b1Kb w - - 0 1",
    ),
    (
        "mixed",
        "1Bb2B1q/nb1R1R1n/1b1QQ3/k3BKNq/N2Rr1r1/r1bq4/1Q3BnQ/r1R1N1q1 w - - 0 1",
    ),
    (
        "mixed",
        "bbR1bq2/1Qq3r1/1r1NBBnr/Bn2Rr2/2nk4/BR4N1/NbQ4Q/2RKQq1q w - - 0 1",
    ),
    (
        "promo",
        "2Qr1Q2/PPPPPPPP/2r5/8/1qk2KQR/1r1q1Q1q/pppppppp/R2q2R1 w - - 0 1",
    ),
    (
        "promo",
        "4K3/PPPPPPPP/1q2Q3/3RR2R/qQ3Q1r/r1r1Qq2/pppppppp/1kq5 w - - 0 1",
    ),
    (
        "queens15",
        "Q1KQ4/2Q3Q1/1QQQ4/5QQ1/q1q2Qqq/qqq1Qqq1/q1q2Q1q/QqQQq1qk w - - 0 1",
    ),
    (
        "queens15",
        "QQqQ3Q/qQ1qQ3/1qQq1q2/k2q3q/q1Qq2Qq/qQKQ2Q1/3Q2q1/q2Q2Qq w - - 0 1",
    ),
    (
        "queens8rooks7",
        "r3R3/q6r/1R2q1qk/Q5qr/q2RQRQ1/1QQr2qQ/1Qrrqq2/2RRrQRK w - - 0 1",
    ),
    (
        "queens8rooks7",
        "1q3rQK/QQ2QR2/rRQ2r1R/1qq2krr/RqQq4/1rq3q1/1rRR1qQ1/2Q1R3 w - - 0 1",
    ),
    (
        "rooks",
        "r3r3/2kr2rr/R1r1R1rR/2rr2r1/1R2RRrR/1K1RrRRr/3r1RR1/R2rR1R1 w - - 0 1",
    ),
    (
        "rooks",
        "Rr2R1R1/rrrRRrRr/rrR2r1k/r3r1r1/4RRRr/2R1KR2/1R2R1Rr/5r2 w - - 0 1",
    ),
];

#[test]
fn depth_one_finishes_within_a_node_bound_on_hostile_positions() {
    let tt = TranspositionTable::new(16);
    let mut failures = Vec::new();
    for (name, fen) in HOSTILE {
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{name}: {fen}: {e}"));
        tt.clear();
        let limits = Limits {
            mode: Mode {
                depth: Some(1),
                nodes: Some(NODE_BOUND),
                ..Mode::default()
            },
            ..Limits::default()
        };
        let outcome = search::search(&pos, &limits, &tt, &Signals::new(false), &mut |_| {});
        println!(
            "{name}: depth {} in {} nodes  {fen}",
            outcome.depth, outcome.nodes
        );
        let legal = outcome
            .best
            .is_some_and(|m| pos.legal_moves().any(|l| l == m));
        if outcome.depth < 1 || outcome.nodes >= NODE_BOUND || !legal {
            failures.push(format!(
                "{name}: depth {} after {} nodes, best {:?}: {fen}",
                outcome.depth, outcome.nodes, outcome.best
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "depth 1 did not finish within {NODE_BOUND} nodes:\n{}",
        failures.join("\n")
    );
}
