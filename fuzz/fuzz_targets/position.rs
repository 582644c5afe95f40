//! Fuzz FEN parsing, FEN writing and move making.
//!
//! Input: any bytes, read with `String::from_utf8_lossy`. The first line is the FEN; the rest
//! of the input, split on whitespace, is a list of UCI moves played one after the other.
//! Checks (nothing may panic anywhere):
//! * `Position::from_fen` either refuses the text or gives a position whose `fen()` parses
//!   back to the same `fen()` and the same `key()`;
//! * each move token goes through `play_uci`; a refused move leaves the position unchanged,
//!   and after a played move `fen()` round-trips again, `legal_moves()` works and the draw
//!   queries (`is_threefold`, `is_fifty_move_draw`, `is_insufficient_material`,
//!   `is_repetition`) answer; `trim_history` keeps the position and the threefold answer;
//! * at the end every legal move is made and unmade once, which must restore the position.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sandglass::position::Position;

/// `fen()` parses back to a position with the same FEN and the same key.
/// `context` describes the input; it is only built when a check fails.
fn check_round_trip(pos: &Position, context: impl Fn() -> String) {
    let fen = pos.fen();
    let back = match Position::from_fen(&fen) {
        Ok(back) => back,
        Err(e) => panic!(
            "fen() output {fen:?} refused by from_fen ({e}); {}",
            context()
        ),
    };
    assert!(
        back.fen() == fen,
        "FEN changed on a round trip: {fen:?} became {:?}; {}",
        back.fen(),
        context()
    );
    assert!(
        back.key() == pos.key(),
        "key changed on a round trip of {fen:?}; {}",
        context()
    );
}

/// Queries that must answer on any reachable position.
fn check_queries(pos: &Position) {
    let _ = pos.legal_moves().len();
    let _ = pos.is_threefold();
    let _ = pos.is_fifty_move_draw();
    let _ = pos.is_insufficient_material();
    let _ = pos.is_repetition();
    let _ = pos.is_draw_in_search();
    let _ = pos.men();
    let _ = pos.fullmove_number();
    // Dropping the history must keep everything the draw rules use.
    let mut trimmed = pos.clone();
    trimmed.trim_history();
    assert_eq!(trimmed.fen(), pos.fen(), "trim_history changed the FEN");
    assert_eq!(trimmed.key(), pos.key(), "trim_history changed the key");
    assert_eq!(
        trimmed.is_threefold(),
        pos.is_threefold(),
        "trim_history changed the threefold answer for {}",
        pos.fen()
    );
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (fen_text, move_text) = match text.split_once('\n') {
        Some((fen, rest)) => (fen, rest),
        None => (&*text, ""),
    };

    let Ok(mut pos) = Position::from_fen(fen_text) else {
        return;
    };
    check_round_trip(&pos, || format!("input FEN {fen_text:?}"));
    check_queries(&pos);

    let mut played: Vec<&str> = Vec::new();
    for token in move_text.split_whitespace() {
        let before_fen = pos.fen();
        let before_key = pos.key();
        let before_ply = pos.game_ply();
        match pos.play_uci(token) {
            Ok(()) => {
                played.push(token);
                let context = || format!("input FEN {fen_text:?}, moves {played:?}");
                assert!(
                    pos.game_ply() == before_ply + 1,
                    "game ply did not advance by one; {}",
                    context()
                );
                check_round_trip(&pos, context);
                check_queries(&pos);
            }
            Err(e) => {
                assert!(!e.reason.is_empty());
                assert!(e.text.chars().count() <= 16, "echoed move text too long");
                assert_eq!(
                    pos.fen(),
                    before_fen,
                    "refused move {token:?} changed the FEN"
                );
                assert_eq!(
                    pos.key(),
                    before_key,
                    "refused move {token:?} changed the key"
                );
            }
        }
    }

    // Make and unmake every legal move once: each must give a valid position and unmake must
    // restore the one before.
    let fen = pos.fen();
    let key = pos.key();
    let moves: Vec<_> = pos.legal_moves().collect();
    for m in moves {
        assert!(pos.is_legal(m), "generated move {m} is not legal in {fen}");
        pos.make_move(m);
        let after = pos.fen();
        if let Err(e) = Position::from_fen(&after) {
            panic!("after {m} from {fen}: fen() output {after:?} refused ({e})");
        }
        let _ = pos.legal_moves().len();
        let _ = pos.is_draw_in_search();
        pos.unmake();
        assert_eq!(pos.fen(), fen, "unmake of {m} did not restore the FEN");
        assert_eq!(pos.key(), key, "unmake of {m} did not restore the key");
    }
});
