//! Chess960: FEN in both castling notations, move text in both modes, rights lost by moving
//! or losing a rook, rights in the hash, malformed Chess960 FEN refused with a reason.

use sandglass::position::{chess960_fen, gives_check, Castle, Position, UciMove};

fn pos960(fen: &str) -> Position {
    Position::from_fen_in(fen, true).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn play(pos: &mut Position, moves: &[&str]) {
    for m in moves {
        pos.play_uci(m).unwrap_or_else(|e| panic!("{e}"));
    }
}

#[test]
fn shredder_fen_round_trips() {
    for fen in [
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
        "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1",
        // Double Fischer Random: each side its own set-up.
        "nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFgb - 0 1",
        // Standard-shaped and Chess960 rights mixed on one side.
        "1r2k2r/P7/8/8/8/8/8/R3K1R1 w GAhb - 0 1",
        "r5kr/pppppppp/8/8/8/8/PPPPPPPP/R5KR b Hh - 3 9",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
    ] {
        assert_eq!(pos960(fen).fen(), fen);
    }
    for n in [0, 1, 518, 959] {
        let fen = chess960_fen(n).expect("a start position");
        assert_eq!(pos960(&fen).fen(), fen);
    }
}

#[test]
fn x_fen_reads_outermost_rooks_and_inner_file_letters() {
    // KQkq: the outermost rook on each side of the king.
    let p = pos960("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1");
    assert_eq!(
        p.fen(),
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"
    );
    // Two rooks on each side: Q is a1, the letter G names the inner h-side rook.
    let p = pos960("rr2k1rr/8/8/8/8/8/8/RR2K1RR w GQgq - 0 1");
    assert_eq!(p.fen(), "rr2k1rr/8/8/8/8/8/8/RR2K1RR w GAga - 0 1");
    // Standard notation keeps writing KQkq and standard FEN is read as today.
    let p = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").expect("standard");
    assert_eq!(p.fen(), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert!(Position::from_fen("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1").is_err());
}

#[test]
fn move_text_in_both_modes() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let standard = Position::from_fen(fen).expect("standard");
    let chess960 = pos960(fen);
    let castle = match standard.parse_move("e1g1") {
        Ok(UciMove::Move(m)) => m,
        other => panic!("{other:?}"),
    };
    assert_eq!(standard.move_text(castle), "e1g1");
    assert_eq!(chess960.move_text(castle), "e1h1");
    // King-takes-rook is castling in Chess960 notation only; there the king's two-square
    // move of a standard-shaped castling is accepted too.
    assert!(standard.parse_move("e1h1").is_err());
    assert_eq!(chess960.parse_move("e1h1"), Ok(UciMove::Move(castle)));
    assert_eq!(chess960.parse_move("e1g1"), Ok(UciMove::Move(castle)));
    // Our own castling: king b1 takes its rook on a1; the king ends on c1, the rook on d1.
    let mut p = pos960("rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1");
    let m = match p.parse_move("b1a1") {
        Ok(UciMove::Move(m)) => m,
        other => panic!("{other:?}"),
    };
    assert_eq!(p.move_text(m), "b1a1");
    p.make_move(m);
    assert_eq!(p.fen(), "rk5r/pppppppp/8/8/8/8/PPPPPPPP/2KR3R b ha - 1 1");
    assert!(p.parse_move("b8a8").is_ok());
    // The king on g1 castles h-side without moving: g1h1 puts the rook on f1.
    let mut p = pos960("r5kr/pppppppp/8/8/8/8/PPPPPPPP/R5KR w HAha - 0 1");
    play(&mut p, &["g1h1"]);
    assert_eq!(p.fen(), "r5kr/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 b ha - 1 1");
}

#[test]
fn rights_go_with_the_rook_that_moves_or_is_captured() {
    // The knight takes the rook on b8: Black keeps only the h-side right.
    let mut p = pos960("1r2k2r/8/2N5/8/8/8/8/1R2K2R w HBhb - 0 1");
    play(&mut p, &["c6b8"]);
    assert_eq!(p.fen(), "1N2k2r/8/8/8/8/8/8/1R2K2R b HBh - 0 1");
    assert!(
        p.parse_move("e8b8").is_err(),
        "no right left with the b8 rook gone"
    );
    // A rook that moves and comes back has lost its right.
    let mut p = pos960("1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1");
    play(&mut p, &["g1h1", "g8h8", "h1g1", "h8g8"]);
    assert_eq!(
        p.fen(),
        "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w Bb - 4 3"
    );
    assert!(p.parse_move("e1g1").is_err());
    assert!(p.parse_move("e1b1").is_ok());
}

#[test]
fn rights_are_part_of_the_hash() {
    let all = pos960("1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1");
    let fewer = pos960("1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w Bb - 0 1");
    let other = pos960("1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w Gg - 0 1");
    let none = pos960("1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w - - 0 1");
    let keys = [all.key(), fewer.key(), other.key(), none.key()];
    for i in 0..keys.len() {
        for j in i + 1..keys.len() {
            assert_ne!(keys[i], keys[j], "positions {i} and {j} share a key");
        }
    }
    // The same position reached by moves and read from FEN has the same key (repetitions).
    let mut p = all.clone();
    play(&mut p, &["g1h1", "g8h8", "h1g1", "h8g8"]);
    assert_eq!(p.key(), pos960(&p.fen()).key());
    assert_ne!(p.key(), all.key());
    let mut castled = all.clone();
    play(&mut castled, &["e1b1"]);
    assert_eq!(castled.key(), pos960(&castled.fen()).key());
}

#[test]
fn malformed_chess960_fen_is_refused_with_a_reason() {
    for (fen, says) in [
        (
            "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgbZ - 0 1",
            "Chess960 castling field",
        ),
        (
            "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GG - 0 1",
            "at most one right",
        ),
        (
            "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBg1 - 0 1",
            "Chess960 castling field",
        ),
        ("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w C - 0 1", "no rook"),
        ("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w E - 0 1", "no rook"),
        (
            "1r2k1r1/8/8/8/8/8/4K3/1R4R1 w G - 0 1",
            "king is not on its first rank",
        ),
    ] {
        match Position::from_fen_in(fen, true) {
            Ok(p) => panic!("{fen} accepted as {}", p.fen()),
            Err(e) => assert!(e.to_string().contains(says), "{fen}: {e}"),
        }
    }
}

/// The shipped book (written by python-chess) and our own Scharnagl numbering agree.
#[test]
fn the_book_holds_the_960_start_positions_in_scharnagl_order() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/books/chess960.epd");
    let text = std::fs::read_to_string(path).expect("data/books/chess960.epd");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 960);
    for (n, line) in lines.iter().enumerate() {
        assert_eq!(
            chess960_fen(n as u32).as_deref(),
            Some(*line),
            "position {n}"
        );
    }
}

/// The key a position keeps on its record (`Position::key`) is the key of the same position
/// read afresh from its FEN, after every move (castling in both modes among them), null move
/// and take-back of random games: a move that wrote a board without its key fails here.
#[test]
fn kept_keys_are_the_keys_of_the_positions_read_afresh() {
    use sandglass::rng::Rng;
    let starts = [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            false,
        ),
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            false,
        ),
        (
            "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1",
            true,
        ),
        ("rk4rq/pppppppp/8/8/8/8/PPPPPPPP/RK4RQ w GAga - 0 1", true),
    ];
    let afresh = |p: &Position| {
        Position::from_fen_in(&p.fen(), p.is_chess960())
            .unwrap_or_else(|e| panic!("{}: {e}", p.fen()))
            .key()
    };
    for (seed, (fen, chess960)) in starts.into_iter().enumerate() {
        let mut rng = Rng::new(seed as u64 + 1);
        let mut pos = Position::from_fen_in(fen, chess960).expect("start FEN");
        let mut keys = vec![pos.key()];
        let mut castled = 0;
        for _ in 0..80 {
            let moves: Vec<_> = pos.legal_moves().collect();
            if moves.is_empty() {
                break;
            }
            if rng.chance(8) && pos.make_null_move() {
                assert_eq!(pos.key(), afresh(&pos), "after a null move: {}", pos.fen());
                pos.unmake();
                assert_eq!(
                    pos.key(),
                    *keys.last().expect("start"),
                    "null move taken back"
                );
            }
            // A castling move, when there is one, is played half the time: the king two
            // files over or onto its own rook.
            let castle = moves
                .iter()
                .copied()
                .find(|&m| Castle::of(pos.board(), m).is_some());
            let m = match castle {
                Some(c) if rng.chance(2) => c,
                _ => moves[rng.below(moves.len())],
            };
            castled += usize::from(Some(m) == castle);
            pos.make_move(m);
            assert_eq!(pos.key(), afresh(&pos), "after {m}: {}", pos.fen());
            keys.push(pos.key());
        }
        assert!(castled > 0, "no castling move played from {fen}");
        while keys.len() > 1 {
            keys.pop();
            pos.unmake();
            assert_eq!(Some(&pos.key()), keys.last(), "taken back: {}", pos.fen());
        }
    }
}

/// Random games from every one of the 960 starting positions, castling whenever a coin says
/// so: after each move the kept key is the key of the position read afresh, the network's
/// accumulator updated move by move equals one computed from the board, `gives_check` says
/// what the move did, the legal moves are those of the position read afresh, and each move's
/// text names that move again (issue 107).
#[test]
fn random_games_from_every_start_position_stay_in_step() {
    use sandglass::eval::nnue::{select::embedded, Accumulator, Delta};
    use sandglass::rng::Rng;
    let net = embedded().expect("the embedded network");
    let mut castled = [0usize; 2];
    for n in 0..960 {
        let fen = chess960_fen(n).expect("a start position");
        let mut pos = pos960(&fen);
        let mut rng = Rng::new(u64::from(n) + 107);
        let mut acc = net.refresh(pos.board());
        for _ in 0..60 {
            let moves: Vec<_> = pos.legal_moves().collect();
            if moves.is_empty() {
                break;
            }
            let castles: Vec<_> = moves
                .iter()
                .copied()
                .filter(|&m| Castle::of(pos.board(), m).is_some())
                .collect();
            let m = if !castles.is_empty() && rng.chance(2) {
                castles[rng.below(castles.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            let text = pos.move_text(m);
            assert_eq!(
                pos.parse_move(&text),
                Ok(UciMove::Move(m)),
                "{text} in {}",
                pos.fen()
            );
            if let Some(c) = Castle::of(pos.board(), m) {
                castled[usize::from(c.is_own(m))] += 1;
            }
            let delta = Delta::of(pos.board(), m);
            let checks = gives_check(pos.board(), m);
            pos.make_move(m);
            assert_eq!(checks, pos.in_check(), "{text} gives check: {}", pos.fen());
            let mut next = Accumulator::default();
            next.apply(&acc, &net, &delta, pos.board());
            acc = next;
            assert_eq!(acc, net.refresh(pos.board()), "after {text}: {}", pos.fen());
            let afresh = pos960(&pos.fen());
            assert_eq!(pos.key(), afresh.key(), "after {text}: {}", pos.fen());
            let mut ours: Vec<_> = pos.legal_moves().map(|m| pos.move_text(m)).collect();
            let mut theirs: Vec<_> = afresh.legal_moves().map(|m| afresh.move_text(m)).collect();
            ours.sort();
            theirs.sort();
            assert_eq!(ours, theirs, "after {text}: {}", pos.fen());
        }
    }
    // Both kinds of castling were played: the crate's (king on e, rook on a or h) and ours.
    assert!(castled[0] > 0 && castled[1] > 100, "{castled:?}");
}
