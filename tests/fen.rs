//! FEN validation, FEN round trips and move-text errors. Runs in debug and in release
//! (`make test` runs both) so that no malformed input can hide behind an overflow check.

use sandglass::position::{FenError, Position, UciMove};

/// A malformed FEN, a test of its error, and words its message must contain.
type Case = (&'static str, fn(&FenError) -> bool, &'static str);

fn err(fen: &str) -> FenError {
    match Position::from_fen(fen) {
        Ok(pos) => panic!("accepted malformed FEN {fen:?} as {}", pos.fen()),
        Err(e) => e,
    }
}

/// Each malformed FEN is refused for the reason named beside it; the message must name the rule.
#[test]
fn malformed_fens_are_refused_with_the_right_error() {
    use FenError as E;
    let cases: &[Case] = &[
        ("", |e| *e == E::Empty, "empty"),
        ("   \t  ", |e| *e == E::Empty, "empty"),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
            |e| *e == E::MissingField("side-to-move"),
            "side",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w",
            |e| *e == E::MissingField("castling"),
            "castling",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq",
            |e| *e == E::MissingField("en-passant"),
            "en-passant",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
            |e| *e == E::TooManyFields(7),
            "at most 6",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            |e| *e == E::RankCount(7),
            "exactly 8",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            |e| *e == E::RankCount(9),
            "exactly 8",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1",
            |e| *e == E::RankCount(9),
            "ranks",
        ),
        (
            "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            |e| {
                matches!(
                    e,
                    E::RankLength {
                        rank: 7,
                        squares: 7
                    }
                )
            },
            "squares",
        ),
        (
            "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            |e| *e == E::BadPieceChar('9'),
            "piece letter",
        ),
        (
            "rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            |e| *e == E::AdjacentDigits { rank: 6 },
            "two digits in a row",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1",
            |e| matches!(e, E::RankLength { rank: 1, .. }),
            "squares",
        ),
        (
            "rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            |e| {
                matches!(
                    e,
                    E::RankLength {
                        rank: 6,
                        squares: 7
                    }
                )
            },
            "squares",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1",
            |e| {
                matches!(
                    e,
                    E::RankLength {
                        rank: 1,
                        squares: 7
                    }
                )
            },
            "squares",
        ),
        (
            "rnbqkbnr/pppppppp/8/3x4/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            |e| *e == E::BadPieceChar('x'),
            "piece letter",
        ),
        (
            "rnbqkbnr/pppppppp/8/3é4/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            |e| *e == E::BadPieceChar('é'),
            "piece letter",
        ),
        (
            "rnbqkbnr/pppppppp/8/0/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            |e| *e == E::BadPieceChar('0'),
            "piece letter",
        ),
        (
            "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
            |e| matches!(e, E::KingCount { count: 0, .. }),
            "kings",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR b kq - 0 1",
            |e| matches!(e, E::KingCount { count: 0, .. }),
            "kings",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w kq - 0 1",
            |e| matches!(e, E::KingCount { count: 2, .. }),
            "kings",
        ),
        (
            "8/8/8/8/8/8/8/8 w - - 0 1",
            |e| matches!(e, E::KingCount { count: 0, .. }),
            "kings",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ".trim(),
            |_| false,
            "(valid: placeholder replaced below)",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/N7/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            |e| matches!(e, E::TooManyPieces { count: 17, .. }),
            "at most 16",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/QQQQQQQQ/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            |e| matches!(e, E::TooManyPieces { count: 24, .. }),
            "at most 16",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/P7/PPPPPPP1/RNBQKBNR w KQkq - 0 1"
                .replace("PPPPPPP1", "PPPPPPPP")
                .leak(),
            |e| matches!(e, E::TooManyPieces { .. } | E::TooManyPawns { .. }),
            "at most",
        ),
        (
            "4k3/8/8/8/8/PPPPPPPP/P7/4K3 w - - 0 1",
            |e| matches!(e, E::TooManyPawns { count: 9, .. }),
            "at most 8 are allowed",
        ),
        (
            "4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1",
            |e| matches!(e, E::TooManyPawns { count: 9, .. }),
            "pawns",
        ),
        (
            "P3k3/8/8/8/8/8/8/4K3 w - - 0 1",
            |e| matches!(e, E::PawnOnBackRank(_)),
            "rank 1 or 8",
        ),
        (
            "4k3/8/8/8/8/8/8/p3K3 w - - 0 1",
            |e| matches!(e, E::PawnOnBackRank(_)),
            "rank 1 or 8",
        ),
        (
            "4k3/8/8/8/8/8/8/4K2P w - - 0 1",
            |e| matches!(e, E::PawnOnBackRank(_)),
            "rank 1 or 8",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            |e| matches!(e, E::BadSide(_)),
            "'w' or 'b'",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR W KQkq - 0 1",
            |e| matches!(e, E::BadSide(_)),
            "'w' or 'b'",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR white KQkq - 0 1",
            |e| matches!(e, E::BadSide(_)),
            "side to move",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1",
            |e| matches!(e, E::BadCastling(_)),
            "castling",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKkq - 0 1",
            |e| matches!(e, E::BadCastling(_)),
            "castling",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w K-kq - 0 1",
            |e| matches!(e, E::BadCastling(_)),
            "castling",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w AHah - 0 1",
            |e| matches!(e, E::BadCastling(_)),
            "castling",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e4 0 1",
            |e| matches!(e, E::BadEnPassant(_)),
            "rank 3 or 6",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq i6 0 1",
            |e| matches!(e, E::BadEnPassant(_)),
            "en-passant",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e66 0 1",
            |e| matches!(e, E::BadEnPassant(_)),
            "en-passant",
        ),
        (
            "rnbqkbnr/pppp1ppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 3",
            |e| matches!(e, E::EnPassantRank { .. }),
            "wrong rank for white",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e6 0 1",
            |e| matches!(e, E::EnPassantRank { .. }),
            "wrong rank for black",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
            |e| matches!(e, E::BadHalfmove(_)),
            "halfmove",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1",
            |e| matches!(e, E::BadHalfmove(_)),
            "halfmove",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 1.5 1",
            |e| matches!(e, E::BadHalfmove(_)),
            "halfmove",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 99999999999999999999 1",
            |e| matches!(e, E::BadHalfmove(_)),
            "halfmove",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 one",
            |e| matches!(e, E::BadFullmove(_)),
            "fullmove",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 +1",
            |e| matches!(e, E::BadFullmove(_)),
            "fullmove",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 4294967296",
            |e| matches!(e, E::BadFullmove(_)),
            "fullmove",
        ),
        (
            "8/8/8/3kK3/8/8/8/8 w - - 0 1",
            |e| *e == E::KingsAdjacent,
            "next to each other",
        ),
        (
            "4k3/8/8/8/8/8/8/4K2R w - - 0 1".replace("4k3", "7k").leak(),
            |e| *e == E::OpponentInCheck,
            "not to move is in check",
        ),
        (
            "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1",
            |e| *e == E::OpponentInCheck,
            "not to move",
        ),
        (
            "4k3/8/8/8/8/5n2/4r3/r3K3 w - - 0 1",
            |e| *e == E::TooManyCheckers(3),
            "by 3 pieces",
        ),
    ];
    let mut checked = 0;
    for (fen, is_right, words) in cases {
        if words.starts_with("(valid") {
            assert!(Position::from_fen(fen).is_ok());
            continue;
        }
        let e = err(fen);
        assert!(is_right(&e), "{fen:?}: wrong error {e:?}");
        let message = e.to_string();
        assert!(
            message.contains(words),
            "{fen:?}: message {message:?} lacks {words:?}"
        );
        checked += 1;
    }
    assert!(checked >= 40, "only {checked} malformed FENs");
}

/// Random mutations of valid FENs never panic, in debug or release.
#[test]
fn mutated_fens_never_panic() {
    let seeds = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkb1r/ppppp1pp/7n/4Pp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    ];
    let alphabet: Vec<char> = "pnbrqkPNBRQK12345678/ wb-KQkqa3e6 0x\t".chars().collect();
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut accepted = 0;
    for i in 0..20_000 {
        let mut chars: Vec<char> = seeds[i % seeds.len()].chars().collect();
        for _ in 0..1 + next() % 4 {
            let at = (next() as usize) % chars.len().max(1);
            let c = alphabet[(next() as usize) % alphabet.len()];
            match next() % 3 {
                0 if !chars.is_empty() => chars[at] = c,
                1 => chars.insert(at, c),
                _ if !chars.is_empty() => {
                    chars.remove(at);
                }
                _ => {}
            }
        }
        let fen: String = chars.into_iter().collect();
        if let Ok(mut pos) = Position::from_fen(&fen) {
            accepted += 1;
            // Whatever was accepted must be playable: every legal move, to depth 2.
            let moves: Vec<_> = pos.legal_moves().collect();
            for m in moves {
                pos.make_move(m);
                let _ = pos.fen();
                let _ = pos.legal_moves().len();
                pos.unmake();
            }
            // And it must write a FEN that reads back to the same position.
            let again = Position::from_fen(&pos.fen()).expect("own FEN refused");
            assert_eq!(again.fen(), pos.fen());
            assert_eq!(again.key(), pos.key());
        }
    }
    assert!(
        accepted > 100,
        "mutations too destructive: {accepted} accepted"
    );
}

#[test]
fn fen_round_trips_keep_counters_and_en_passant() {
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkb1r/ppppp1pp/7n/4Pp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "rnbqkbnr/ppp1pppp/8/8/2Pp4/5N2/PP1PPPPP/RNBQKB1R b KQkq c3 0 3",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 17 42",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 99 120",
        "4k3/8/8/8/8/8/8/R3K2R b KQ - 3 77",
        "r3k3/8/8/8/8/8/8/4K3 w q - 0 1",
    ] {
        let pos = Position::from_fen(fen).expect(fen);
        assert_eq!(pos.fen(), fen);
    }
}

#[test]
fn fen_normalisation() {
    // Any whitespace between fields, missing counters, fullmove 0.
    let pos = Position::from_fen("  4k3/8/8/8/8/8/8/4K3 \t b   -  -   ").unwrap();
    assert_eq!(pos.fen(), "4k3/8/8/8/8/8/8/4K3 b - - 0 1");
    let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 5 0").unwrap();
    assert_eq!(pos.fen(), "4k3/8/8/8/8/8/8/4K3 w - - 5 1");
    // Castling rights that do not match king and rook squares are dropped, not refused.
    let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w KQkq - 0 1").unwrap();
    assert_eq!(pos.fen(), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    // An en-passant square with no capturing pawn is dropped; so is one whose capture is
    // illegal (the c4 pawn is pinned along the rank), which keeps hashes canonical.
    let pos =
        Position::from_fen("rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 2").unwrap();
    assert!(pos.fen().contains(" - 0 2"));
    let pinned = Position::from_fen("8/8/8/8/k1pP3R/8/8/4K3 b - d3 0 1").unwrap();
    assert_eq!(pinned.fen(), "8/8/8/8/k1pP3R/8/8/4K3 b - - 0 1");
}

#[test]
fn en_passant_hash_is_canonical() {
    // d2d4 next to a pinned black pawn: the crate records an en-passant square, we do not.
    let mut a = Position::from_fen(
        "4k3/8/8/8/k1p4R/8/3P4/4K3 w - - 0 1"
            .replace("4k3/", "8/")
            .leak(),
    )
    .unwrap();
    a.play_uci("d2d4").unwrap();
    let b = Position::from_fen("8/8/8/8/k1pP3R/8/8/4K3 b - - 0 1").unwrap();
    assert_eq!(a.fen(), b.fen());
    assert_eq!(a.key(), b.key());
}

#[test]
fn counters_at_their_limits_still_round_trip() {
    // Found by the `position` fuzz target: counters grown past the parser's limit made `fen()`
    // write a FEN that `from_fen` refused.
    for (fen, mv) in [
        ("4k3/8/8/8/8/8/8/4K3 w - - 4294967295 1", "e1e2"),
        ("4k3/8/8/8/8/8/8/4K3 b - - 0 2147483648", "e8e7"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 100000 1", "e1e2"),
    ] {
        let mut pos = Position::from_fen(fen).unwrap();
        pos.play_uci(mv).unwrap();
        let again = Position::from_fen(&pos.fen()).expect("own FEN refused");
        assert_eq!(again.fen(), pos.fen());
    }
}

#[test]
fn counters_advance_and_reset() {
    let mut pos = Position::startpos();
    for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
        pos.play_uci(m).unwrap();
    }
    assert_eq!(pos.halfmove_clock(), 4);
    assert_eq!(pos.fullmove_number(), 3);
    assert_eq!(pos.game_ply(), 4);
    pos.play_uci("e2e4").unwrap();
    assert_eq!(pos.halfmove_clock(), 0);
    assert_eq!(
        pos.fen(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3"
    );
}

#[test]
fn move_text_errors_name_the_move_and_position() {
    let mut pos = Position::startpos();
    for (text, reason) in [
        ("e2e5", "is illegal"),
        ("e7e5", "is illegal"),
        ("e1g1", "is illegal"),
        ("e2", "is not UCI move notation"),
        ("e2e4e", "is not UCI move notation"),
        ("E2E4", "is not UCI move notation"),
        ("i2i4", "is not UCI move notation"),
        ("e2e4qq", "is not UCI move notation"),
        ("", "is not UCI move notation"),
        ("\0\0\0\0", "is not UCI move notation"),
    ] {
        let e = pos.play_uci(text).unwrap_err();
        assert_eq!(e.reason, reason, "{text:?}");
        let msg = e.to_string();
        assert!(msg.contains(pos.fen().as_str()), "{msg}");
    }
    let long = "x".repeat(10_000);
    let e = pos.play_uci(&long).unwrap_err();
    assert!(e.to_string().len() < 200, "garbage echoed in full");
    // A FEN field that is garbage is echoed cut short too, in both castling modes.
    let fields = [
        format!("4k3/8/8/8/8/8/8/4K3 {long} - - 0 1"),
        format!("4k3/8/8/8/8/8/8/4K3 w {long} - 0 1"),
        format!("4k3/8/8/8/8/8/8/4K3 w - {long} 0 1"),
        format!("4k3/8/8/8/8/8/8/4K3 w - - {long} 1"),
        format!("4k3/8/8/8/8/8/8/4K3 w - - 0 {long}"),
    ];
    for fen in &fields {
        for chess960 in [false, true] {
            let e = Position::from_fen_in(fen, chess960)
                .unwrap_err()
                .to_string();
            assert!(
                e.len() < 200,
                "a FEN field echoed in full: {} bytes",
                e.len()
            );
            assert!(e.contains("xxxxxxxxxxxxxxxx…"), "{e}");
        }
    }
    assert_eq!(
        pos.fen(),
        Position::startpos().fen(),
        "errors changed the position"
    );
}

#[test]
fn promotion_letters_and_null_moves() {
    let mut pos = Position::from_fen("8/P7/8/8/8/8/8/k6K w - - 0 1").unwrap();
    assert!(matches!(pos.parse_move("a7a8Q"), Ok(UciMove::Move(_))));
    assert!(matches!(pos.parse_move("a7a8n"), Ok(UciMove::Move(_))));
    assert!(pos.parse_move("a7a8").is_err(), "promotion without a piece");
    assert!(pos.parse_move("a7a8k").is_err());
    pos.play_uci("0000").unwrap();
    assert_eq!(pos.fen(), "8/P7/8/8/8/8/8/k6K b - - 1 1");
    let check = Position::from_fen("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1").unwrap();
    assert!(check.parse_move("0000").is_err(), "null move in check");
}

#[test]
fn fifty_move_rule() {
    let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w - - 99 80").unwrap();
    assert!(!pos.is_fifty_move_draw());
    let mut pos = pos;
    pos.play_uci("h1h2").unwrap();
    assert!(pos.is_fifty_move_draw());
    // A mate on the hundredth ply wins.
    let mut mate = Position::from_fen("k7/8/1K6/8/8/8/8/7R w - - 99 80").unwrap();
    mate.play_uci("h1h8").unwrap();
    assert_eq!(mate.halfmove_clock(), 100);
    assert!(!mate.is_fifty_move_draw());
}

#[test]
fn threefold_repetition_in_the_game_and_twofold_in_search() {
    let mut pos = Position::startpos();
    let cycle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    for m in cycle {
        pos.play_uci(m).unwrap();
    }
    // Startpos has occurred twice: not yet threefold.
    assert!(!pos.is_threefold());
    // From a root before the cycle, a twofold repetition inside the search is already a draw.
    let mut search = Position::startpos();
    search.set_search_root();
    for m in cycle {
        search.play_uci(m).unwrap();
    }
    assert!(search.is_repetition());
    // From a root after the first occurrence but with the repeat in the game history only,
    // twofold is not enough.
    pos.set_search_root();
    assert!(!pos.is_repetition());
    for m in cycle {
        pos.play_uci(m).unwrap();
    }
    assert!(pos.is_threefold());
    assert!(pos.is_repetition());
    // A pawn move cuts the history.
    pos.play_uci("e2e4").unwrap();
    assert!(!pos.is_threefold());
}

/// A null move passes the turn without a move: a position from before it was not reached by
/// moves from the position after it, so it cannot be repeated (the search's null-move
/// pruning passes, and a pass must not read as the opponent repeating).
#[test]
fn a_repetition_does_not_reach_back_across_a_null_move() {
    let mut pos = Position::startpos();
    pos.set_search_root();
    pos.play_uci("g1f3").unwrap();
    assert!(pos.make_null_move());
    pos.play_uci("f3g1").unwrap();
    assert!(pos.make_null_move());
    // The start position again, White to move, the fifty-move count at 4: but two passes lie
    // between, and neither side repeated anything.
    assert_eq!(
        pos.fen(),
        Position::startpos().fen().replace(" 0 1", " 4 3")
    );
    assert!(!pos.is_repetition());
    // Moves after the pass repeat as usual.
    for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
        pos.play_uci(m).unwrap();
    }
    assert!(pos.is_repetition());
    // And a null move made and taken back leaves the record as it was.
    assert!(pos.make_null_move());
    pos.unmake();
    assert!(pos.is_repetition());
}

#[test]
fn insufficient_material() {
    for (fen, dead) in [
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", true),
        ("4k3/8/8/8/8/8/8/4KN2 w - - 0 1", true),
        ("4k3/8/8/8/8/8/8/4KB2 b - - 0 1", true),
        ("4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", true), // both bishops on light... c1 dark, f8 dark
        ("4k1b1/8/8/8/8/8/8/2B1K3 w - - 0 1", false), // g8 light, c1 dark
        ("4k3/8/8/8/8/8/8/3NKN2 w - - 0 1", false),
        ("4k3/8/8/8/8/8/8/4KBN1 w - - 0 1", false),
        ("4k3/8/8/8/8/8/P7/4K3 w - - 0 1", false),
        ("4k3/8/8/8/8/8/8/4K2R w - - 0 1", false),
    ] {
        let pos = Position::from_fen(fen).unwrap();
        assert_eq!(pos.is_insufficient_material(), dead, "{fen}");
    }
}

#[test]
fn trimming_history_keeps_draw_detection() {
    let mut pos = Position::startpos();
    for _ in 0..3 {
        for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            pos.play_uci(m).unwrap();
        }
    }
    pos.trim_record();
    assert!(pos.is_threefold());
    assert_eq!(pos.game_ply(), 12);
}
