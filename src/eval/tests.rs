use std::str::FromStr;

use chess::{Board, MoveGen};

use super::*;

fn board(fen: &str) -> Board {
    Board::from_str(fen).unwrap_or_else(|e| panic!("bad test FEN {fen}: {e:?}"))
}

/// The same position with colours swapped and the board mirrored top to bottom.
fn colour_flip(b: &Board) -> Board {
    let fen = b.to_string();
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let swap_case = |ch: char| {
        if ch.is_ascii_uppercase() {
            ch.to_ascii_lowercase()
        } else {
            ch.to_ascii_uppercase()
        }
    };
    let placement: Vec<String> = fields[0]
        .split('/')
        .rev()
        .map(|rank| rank.chars().map(swap_case).collect())
        .collect();
    let side = if fields[1] == "w" { "b" } else { "w" };
    let mut castling: Vec<char> = fields[2].chars().map(swap_case).collect();
    castling.sort_by_key(|ch| "KQkq-".find(*ch));
    let castling: String = castling.into_iter().collect();
    let ep = match fields[3].as_bytes() {
        [f, r] => format!("{}{}", *f as char, (b'1' + b'8' - r) as char),
        _ => "-".to_string(),
    };
    board(&format!(
        "{} {side} {castling} {ep} 0 1",
        placement.join("/")
    ))
}

/// Positions from random games: varied openings, middlegames and endgames.
fn random_positions(games: usize, seed: u64) -> Vec<Board> {
    let mut rng = crate::rng::Rng::new(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut b = Board::default();
        for _ in 0..200 {
            let moves: Vec<_> = MoveGen::new_legal(&b).collect();
            if moves.is_empty() {
                break;
            }
            // Prefer captures now and then so games reach endgames.
            let captures: Vec<_> = moves
                .iter()
                .filter(|m| b.piece_on(m.get_dest()).is_some())
                .collect();
            let m = if !captures.is_empty() && rng.next_u64().is_multiple_of(3) {
                *captures[(rng.next_u64() % captures.len() as u64) as usize]
            } else {
                moves[(rng.next_u64() % moves.len() as u64) as usize]
            };
            b = b.make_move_new(m);
            out.push(b);
        }
    }
    out
}

const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1",
    "8/8/4k3/8/8/8/4K3/1B6 w - - 0 1",
    "8/5k2/8/3P4/8/8/8/4K3 w - - 0 1",
    "2r3k1/pp3pp1/4p2p/3pP3/1q1P4/1P3N2/P4PPP/2RQ2K1 b - - 3 24",
    "8/8/8/3k4/8/3K4/2B5/3b4 w - - 0 1",
    "8/p7/1p6/2p5/3k4/8/5K2/8 b - - 0 1",
    "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1",
    "r1b1k2r/ppq2ppp/2n1pn2/3p4/1bPP4/2N1PN2/PP1B1PPP/R2QKB1R w KQkq - 2 8",
];

#[test]
fn colour_flip_is_symmetric() {
    let mut positions: Vec<Board> = FENS.iter().map(|f| board(f)).collect();
    positions.extend(random_positions(20, 0x9E37_79B9_7F4A_7C15));
    for b in &positions {
        let flipped = colour_flip(b);
        assert_eq!(
            colour_flip(&flipped),
            *b,
            "flip is not an involution for {b}"
        );
        assert_eq!(
            evaluate(b),
            evaluate(&flipped),
            "asymmetric: {b} vs {flipped}"
        );
    }
}

#[test]
fn start_position_is_tempo_only() {
    assert_eq!(evaluate(&Board::default()), params::TEMPO.mg());
    let after_e4 = board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    assert!(evaluate(&after_e4).abs() < 100);
}

#[test]
fn material_advantage_has_the_right_sign() {
    let cases = [
        // White is a queen up (Black's queen removed).
        (
            "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            700,
        ),
        // White is a knight up.
        (
            "r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            200,
        ),
        // White is a rook up in an endgame.
        ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 300),
        // White is a pawn up in a king and pawn ending.
        ("8/5k2/8/3P4/8/8/8/4K3 w - - 0 1", 50),
    ];
    for (fen, at_least) in cases {
        let b = board(fen);
        assert!(evaluate(&b) >= at_least, "{fen}: {}", evaluate(&b));
        // The same position with Black to move is as bad for Black.
        let black_to_move = board(&fen.replace(" w ", " b "));
        assert!(
            evaluate(&black_to_move) <= -at_least / 2,
            "{fen} (black to move)"
        );
    }
}

#[test]
fn insufficient_material_is_a_draw() {
    for fen in [
        "8/8/4k3/8/8/8/4K3/1B6 w - - 0 1",  // KB v K
        "8/8/4k3/8/2N5/8/4K3/8 b - - 0 1",  // KN v K
        "8/8/4k3/8/8/8/4K3/8 w - - 0 1",    // K v K
        "8/8/4k3/8/1NN5/8/4K3/8 w - - 0 1", // KNN v K
        "8/8/4kn2/8/8/8/4K3/1B6 w - - 0 1", // KB v KN
    ] {
        assert_eq!(evaluate(&board(fen)), 0, "{fen}");
    }
    // A lone bishop cannot win even against pawns; its side's edge is cut away.
    let kb_kp = board("8/8/4k3/8/8/8/4K2p/1B6 w - - 0 1");
    assert!(evaluate(&kb_kp) < 50, "{}", evaluate(&kb_kp));
    // KR v KB is drawish: far less than a rook's worth.
    let kr_kb = board("1b6/8/4k3/8/8/8/4K3/7R w - - 0 1");
    let kr_k = board("8/8/4k3/8/8/8/4K3/7R w - - 0 1");
    assert!(
        evaluate(&kr_kb) > 0 && evaluate(&kr_kb) < 150,
        "{}",
        evaluate(&kr_kb)
    );
    assert!(evaluate(&kr_k) > 400);
}

#[test]
fn passed_pawn_on_seventh_beats_second() {
    let seventh = board("4k3/P7/8/8/8/8/8/4K3 b - - 0 1");
    let second = board("4k3/8/8/8/8/8/P7/4K3 b - - 0 1");
    assert!(evaluate(&seventh) < evaluate(&second) - 100);
    let advanced = board("6k1/8/1P6/8/8/8/8/6K1 w - - 0 1");
    let home = board("6k1/8/8/8/8/8/1P6/6K1 w - - 0 1");
    assert!(evaluate(&advanced) > evaluate(&home));
}

#[test]
fn pawn_structure_and_king_safety_point_the_right_way() {
    // Doubled isolated pawns are worse than healthy ones.
    let healthy = board("4k3/8/8/8/8/8/2PP4/4K3 w - - 0 1");
    let doubled = board("4k3/8/8/8/8/2P5/2P5/4K3 w - - 0 1");
    assert!(evaluate(&healthy) > evaluate(&doubled));
    // Losing the pawn in front of the castled king hurts more than losing the a-pawn.
    let no_g_pawn = board("r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPP2P1P/R1BQ1RK1 w - - 0 1");
    let no_a_pawn = board("r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2NP1N2/1PP2PPP/R1BQ1RK1 w - - 0 1");
    assert!(evaluate(&no_g_pawn) < evaluate(&no_a_pawn));
    // Pieces aimed at the king zone count for the attacker.
    let queen_home = board("r1b2rk1/ppp2ppp/2n5/4p1N1/8/2N5/PPP2PPP/R1BQ1RK1 w - - 0 1");
    let queen_h5 = board("r1b2rk1/ppp2ppp/2n5/4p1NQ/8/2N5/PPP2PPP/R1B2RK1 w - - 0 1");
    assert!(evaluate(&queen_h5) > evaluate(&queen_home) + 20);
}

#[test]
fn trace_reproduces_evaluate() {
    let weights: Vec<(f64, f64)> = layout::current_weights()
        .iter()
        .map(|&(m, e)| (f64::from(m), f64::from(e)))
        .collect();
    let mut positions: Vec<Board> = FENS.iter().map(|f| board(f)).collect();
    positions.extend(random_positions(10, 12345));
    for b in &positions {
        let t = trace(b);
        let white = if b.side_to_move() == chess::Color::White {
            evaluate(b)
        } else {
            -evaluate(b)
        };
        let model = t.evaluate(&weights);
        assert!(
            (model - f64::from(white)).abs() <= 2.0,
            "{b}: trace {model} vs eval {white}"
        );
    }
}

#[test]
fn evaluations_stay_bounded() {
    for b in random_positions(10, 777) {
        assert!(evaluate(&b).abs() < EVAL_LIMIT);
    }
    let queens = board("QQQ5/QQQ5/8/8/7k/8/8/4K3 w - - 0 1");
    assert!(evaluate(&queens) <= EVAL_LIMIT);
}

/// `cargo test --release eval::tests::speed -- --ignored --nocapture`
#[test]
#[ignore]
fn speed() {
    let positions = random_positions(40, 42);
    let mut times = Vec::new();
    for _ in 0..3 {
        let start = std::time::Instant::now();
        let mut sum = 0i64;
        for _ in 0..50 {
            for b in &positions {
                sum += i64::from(evaluate(std::hint::black_box(b)));
            }
        }
        let ns = start.elapsed().as_nanos() as f64 / (50 * positions.len()) as f64;
        std::hint::black_box(sum);
        times.push(ns);
    }
    times.sort_by(f64::total_cmp);
    println!(
        "{} positions, ns/eval over 3 runs: {times:?}; median {:.1}",
        positions.len(),
        times[1]
    );
}
