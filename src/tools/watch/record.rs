//! The game as a record: PGN with a clock comment after every move, and from that PGN the
//! pictures of the game so far, drawn by `tm --pgn`'s own code. The page's pictures are
//! therefore what `sandglass tm --pgn GAME.pgn --player NAME --strategy S --svg …` draws
//! from the PGN written at the end, figure for figure.
//!
//! The clock comment is fastchess's, `{+0.31/12 0.357s, tl=9.843s}`: the score and depth,
//! the time spent and the clock after the move (increment and any refill included), both to
//! the millisecond, so the replay finds the clocks exactly as the referee kept them. A
//! Sandglass move adds `pchange=0.23`: the learned model's probability, at the last
//! soft-stop check, that the next depth would have played another move (other readers skip
//! a `key=value` they do not know; `tm --pgn` draws it along the game).

use super::state::Ending;
use crate::position::Position;
use crate::time::Settings;
use crate::tools::selfplay::score_text;
use crate::tools::tm::replay::{self, Choice};
use crate::tools::tm::{trim_number, TimeControl};
use std::fmt::Write as _;

/// One move of the record.
#[derive(Clone, Debug, PartialEq)]
pub struct Move {
    pub san: String,
    pub spent_ms: i64,
    pub clock_after_ms: i64,
    /// Mover's view; None if the player did not say.
    pub score: Option<i32>,
    pub depth: u32,
    /// The learned model's probability at the last soft-stop check (Sandglass only).
    pub p_change: Option<f64>,
}

/// The tags of the record.
#[derive(Clone, Debug)]
pub struct Header {
    pub white: String,
    pub black: String,
    pub tc: TimeControl,
    pub start: Position,
}

/// A time control as PGN's TimeControl tag writes it (seconds): `60+0.6`, `40/30`.
pub fn tc_tag(tc: &TimeControl) -> String {
    let mut out = String::new();
    if let Some(m) = tc.moves {
        let _ = write!(out, "{m}/");
    }
    out.push_str(&trim_number(tc.base_ms as f64 / 1000.0));
    if tc.increment_ms > 0 || tc.moves.is_none() {
        let _ = write!(out, "+{}", trim_number(tc.increment_ms as f64 / 1000.0));
    }
    out
}

/// Seconds to the millisecond, as the clock comment writes them.
fn seconds(ms: i64) -> String {
    format!("{:.3}s", ms as f64 / 1000.0)
}

/// The game in PGN: the seven standard tags, the start position when it is not the usual
/// one, the time control, the termination, and a clock comment after every move.
pub fn pgn(h: &Header, moves: &[Move], ending: &Ending) -> String {
    let mut text = format!(
        "[Event \"Sandglass watch\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"1\"]\n\
         [White \"{}\"]\n[Black \"{}\"]\n[Result \"{}\"]\n",
        tag_value(&h.white),
        tag_value(&h.black),
        ending.result
    );
    let fen = h.start.fen();
    if fen != Position::startpos().fen() || h.start.is_chess960() {
        if h.start.is_chess960() {
            text.push_str("[Variant \"Chess960\"]\n");
        }
        let _ = writeln!(text, "[FEN \"{fen}\"]\n[SetUp \"1\"]");
    }
    let _ = writeln!(
        text,
        "[TimeControl \"{}\"]\n[Termination \"{}\"]\n",
        tc_tag(&h.tc),
        ending.termination
    );
    let mut number = h.start.fullmove_number();
    let mut white = h.start.side_to_move() == chess::Color::White;
    let mut words: Vec<String> = Vec::new();
    for m in moves {
        let score = m
            .score
            .map_or(String::new(), |s| format!("{}/{} ", score_text(s), m.depth));
        let p_change = m
            .p_change
            .filter(|p| p.is_finite())
            .map_or(String::new(), |p| {
                format!(", pchange={:.3}", p.clamp(0.0, 1.0))
            });
        let comment = format!(
            "{{{score}{}, tl={}{p_change}}}",
            seconds(m.spent_ms),
            seconds(m.clock_after_ms)
        );
        // Every move has a comment, so Black's moves repeat their number.
        let dots = if white { "." } else { "..." };
        words.push(format!("{number}{dots} {} {comment}", m.san));
        if !white {
            number += 1;
        }
        white = !white;
    }
    words.push(ending.result.clone());
    text.push_str(&crate::tools::pgn::wrap_movetext(words));
    text.push_str("\n\n");
    text
}

/// A tag value with its quotes and backslashes escaped, as PGN requires.
fn tag_value(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The pictures of the game so far as `tm --pgn` draws them from `pgn`: one per Sandglass
/// player (its time spent against its own strategy's plans, and both clocks), named and with
/// the time settings in `overlays`; with no Sandglass player, one picture of both players'
/// time. None before the first move.
pub fn figures(pgn: &str, overlays: &[(String, Settings)]) -> Vec<String> {
    let plain = Choice {
        game: None,
        player: None,
        strategies: Vec::new(),
        overhead_ms: crate::time::DEFAULT_MOVE_OVERHEAD_MS,
    };
    let Ok(rep) = replay::load(pgn.as_bytes(), "the game", &plain) else {
        return Vec::new();
    };
    let Some(record) = rep.kept.first() else {
        return Vec::new();
    };
    if overlays.is_empty() {
        return vec![replay::figure(record, &plain)];
    }
    overlays
        .iter()
        .map(|(name, settings)| {
            replay::figure(
                record,
                &Choice {
                    game: None,
                    player: Some(name.clone()),
                    strategies: vec![settings.clone()],
                    overhead_ms: settings.move_overhead_ms,
                },
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::pgn::parse_str;
    use crate::tools::tm::clocks::read_game;
    use crate::tools::tm::parse_tc;

    fn header(tc: &str, fen: Option<&str>) -> Header {
        Header {
            white: "Sandglass (expositor)".into(),
            black: "Other \"quoted\"".into(),
            tc: parse_tc(tc).unwrap_or_else(|e| panic!("{e}")),
            start: fen.map_or_else(Position::startpos, |f| {
                Position::from_fen(f).unwrap_or_else(|e| panic!("{e}"))
            }),
        }
    }

    fn ending() -> Ending {
        Ending {
            result: "*".into(),
            termination: "unterminated".into(),
            words: String::new(),
        }
    }

    #[test]
    fn time_control_tags_read_back() {
        for (tc, tag) in [
            ("60+0.6", "60+0.6"),
            ("40/30", "40/30"),
            ("180", "180+0"),
            ("40/300+5", "40/300+5"),
        ] {
            let parsed = parse_tc(tc).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(tc_tag(&parsed), tag);
            assert_eq!(parse_tc(tag), Ok(parsed));
        }
    }

    /// The clocks come back from the comments exactly as they were written, Black's first
    /// move after a FEN start included.
    #[test]
    fn the_replay_reads_the_clocks_written() {
        let moves = vec![
            Move {
                san: "Kh1".into(),
                spent_ms: 357,
                clock_after_ms: 9743,
                score: Some(31),
                depth: 12,
                p_change: Some(0.25),
            },
            Move {
                san: "Kg7".into(),
                spent_ms: 1,
                clock_after_ms: 10_099,
                score: None,
                depth: 0,
                p_change: None,
            },
            Move {
                san: "Kg1".into(),
                spent_ms: 2000,
                clock_after_ms: 7843,
                score: Some(-32_000 + 2),
                depth: 3,
                p_change: Some(0.0312),
            },
        ];
        let h = header("10+0.1", Some("6k1/8/8/8/8/8/8/6K1 w - - 0 30"));
        let text = pgn(&h, &moves, &ending());
        assert!(
            text.contains("[FEN \"6k1/8/8/8/8/8/8/6K1 w - - 0 30\"]"),
            "{text}"
        );
        assert!(text.contains("Other \\\"quoted\\\""));
        assert!(
            text.replace('\n', " ").contains(
                "30. Kh1 {+0.31/12 0.357s, tl=9.743s, pchange=0.250} 30... Kg7 {0.001s, tl=10.099s}"
            ),
            "{text}"
        );
        let games = parse_str(&text);
        assert_eq!(games.len(), 1);
        let record = read_game(&games[0]);
        assert!(record.problems.is_empty(), "{:?}", record.problems);
        let white: Vec<(i64, i64, i64)> = record.players[0]
            .moves
            .iter()
            .map(|m| (m.clock_before_ms, m.spent_ms, m.clock_after_ms))
            .collect();
        assert_eq!(white, [(10_000, 357, 9743), (9743, 2000, 7843)]);
        let odds: Vec<Option<f64>> = record.players[0].moves.iter().map(|m| m.p_change).collect();
        assert_eq!(odds, [Some(0.25), Some(0.031)]);
        assert_eq!(record.players[1].moves[0].p_change, None);
        let black = &record.players[1].moves[0];
        assert_eq!(
            (black.clock_before_ms, black.spent_ms, black.clock_after_ms),
            (10_000, 1, 10_099)
        );
    }

    #[test]
    fn pictures_of_the_game_so_far() {
        let h = header("40/30", None);
        assert!(figures(&pgn(&h, &[], &ending()), &[]).is_empty());
        let moves = vec![Move {
            san: "e4".into(),
            spent_ms: 500,
            clock_after_ms: 29_500,
            score: Some(20),
            depth: 9,
            p_change: None,
        }];
        let text = pgn(&h, &moves, &ending());
        let plain = figures(&text, &[]);
        assert_eq!(plain.len(), 1);
        assert!(plain[0].starts_with("<svg"));
        let named = figures(&text, &[(h.white.clone(), Settings::default())]);
        assert_eq!(named.len(), 1);
        assert!(named[0].contains("expositor (default)"), "{}", named[0]);
        let odds = "P(one more depth changes the move)";
        assert!(
            !named[0].contains(odds),
            "no odds recorded, no panel for them"
        );
        let with_odds = [Move {
            p_change: Some(0.4),
            ..moves[0].clone()
        }];
        let text = pgn(&h, &with_odds, &ending());
        let named = figures(&text, &[(h.white.clone(), Settings::default())]);
        assert!(named[0].contains(odds), "{}", named[0]);
    }
}
