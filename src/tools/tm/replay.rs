//! `sandglass tm --pgn FILE`: how real games spent their clocks, beside the strategies.

use super::clocks::{read_game, GameRecord, Notation, PlayerRecord};
use super::figures::{self, Overlay};
use super::summary::{self, Block, Summaries};
use super::{secs, svg};
use crate::time::Settings;
use crate::tools::pgn::Reader;
use std::fmt::Write as _;
use std::io::BufRead;

/// Problems kept word for word; the rest are only counted.
const MAX_PROBLEMS: usize = 200;
/// Games kept for detail (tables, pictures) when no single game is chosen.
pub const MAX_KEPT: usize = 100;

/// Which games and what to draw.
#[derive(Clone, Debug)]
pub struct Choice {
    pub game: Option<usize>,
    pub player: Option<String>,
    pub strategies: Vec<Settings>,
    pub overhead_ms: i64,
}

/// Everything read from a file.
#[derive(Clone, Debug)]
pub struct Replay {
    pub file: String,
    pub games: usize,
    /// Games with a clock record (of the chosen player's games).
    pub with_clock: usize,
    /// " of NAME's" when a player was chosen, for the header.
    pub scope: String,
    pub notations: Vec<(Notation, usize)>,
    pub problems: Vec<String>,
    pub problem_count: usize,
    /// Games with no moves, abandoned before the first: their labels (the first
    /// `MAX_PROBLEMS`, as for problems) and their count. A note, not a problem with the file.
    pub empty: Vec<String>,
    pub empty_count: usize,
    /// One block per time control.
    pub summary: Vec<Block>,
    /// The players given rows of their own in the summary (none when there are many).
    pub players: Vec<String>,
    /// The chosen game, or the first games with a clock record (the chosen player's).
    pub kept: Vec<GameRecord>,
}

fn involves(record: &GameRecord, player: Option<&str>) -> bool {
    player.is_none_or(|name| record.players.iter().any(|p| p.name == name))
}

/// Read every game from `input`, keeping only what the summary and the chosen detail need.
///
/// A read error (a folder, a failing disk; not bad text, which the reader takes) is an
/// error even after some games: a summary of part of a file, with a note easily missed and
/// a status of success, would pass for the whole file's.
pub fn load<R: BufRead>(input: R, file: &str, choice: &Choice) -> Result<Replay, String> {
    let player = choice.player.as_deref();
    let mut summaries = Summaries::new(player);
    let mut rep = Replay {
        file: file.to_string(),
        games: 0,
        with_clock: 0,
        scope: player.map_or(String::new(), |p| format!(" of {p}'s")),
        notations: Vec::new(),
        problems: Vec::new(),
        problem_count: 0,
        empty: Vec::new(),
        empty_count: 0,
        summary: Vec::new(),
        players: Vec::new(),
        kept: Vec::new(),
    };
    for item in Reader::new(input) {
        let raw = item.map_err(|e| format!("cannot read {file}: {e}"))?;
        rep.games += 1;
        let record = read_game(&raw);
        // The summary and the problems cover the whole file (the chosen player's games);
        // --game only chooses the detail.
        if !involves(&record, player) {
            continue;
        }
        rep.problem_count += record.problems.len();
        for p in &record.problems {
            if rep.problems.len() < MAX_PROBLEMS {
                rep.problems.push(p.clone());
            }
        }
        if record.plies == 0 {
            rep.empty_count += 1;
            if rep.empty.len() < MAX_PROBLEMS {
                rep.empty.push(record.label.clone());
            }
        }
        if !record.has_clock() {
            continue;
        }
        rep.with_clock += 1;
        if let Some(n) = record.notation {
            match rep.notations.iter_mut().find(|(k, _)| *k == n) {
                Some(entry) => entry.1 += 1,
                None => rep.notations.push((n, 1)),
            }
        }
        summaries.add(&record);
        if choice.game.is_none_or(|n| n == record.index) && rep.kept.len() < MAX_KEPT {
            rep.kept.push(record);
        }
    }
    rep.summary = summaries.blocks();
    rep.players = summaries.players();
    Ok(rep)
}

/// The side whose clock the strategies are laid over: the chosen player's, else White's
/// (Black's if White has no record).
pub fn overlay_side(record: &GameRecord, player: Option<&str>) -> usize {
    if let Some(name) = player {
        if let Some(i) = record.players.iter().position(|p| p.name == name) {
            return i;
        }
    }
    usize::from(record.players[0].moves.is_empty())
}

pub fn overlays(player: &PlayerRecord, choice: &Choice) -> Vec<Overlay> {
    choice
        .strategies
        .iter()
        .map(|settings| Overlay {
            strategy: settings.strategy().name(),
            style: settings.strategy().style(),
            budgets: super::overlay::overlay(settings, player, choice.overhead_ms),
        })
        .collect()
}

/// One line under each game's picture.
pub fn caption(record: &GameRecord, choice: &Choice) -> String {
    let from = record.notation.map_or("?", Notation::describe);
    let mut out = format!("Clock from {from}.");
    if let Some(side) = record.lost_on_time {
        let colour = if side == 0 { "White" } else { "Black" };
        out.push_str(&format!(
            " {colour} lost on time (the flagging move is not in the record)."
        ));
    }
    if !choice.strategies.is_empty() {
        out.push_str(&format!(
            " Plans: each strategy's budget on the recorded clock before the move; overhead {} ms.",
            choice.overhead_ms
        ));
    }
    out
}

/// The picture of one game.
pub fn figure(record: &GameRecord, choice: &Choice) -> String {
    let side = overlay_side(record, choice.player.as_deref());
    let o = overlays(&record.players[side], choice);
    svg::render(&figures::game(record, side, &o, &caption(record, choice)))
}

/// One player's moves as a text table, with each strategy's plan.
pub fn detail(record: &GameRecord, side: usize, choice: &Choice) -> String {
    let p = &record.players[side];
    let o = overlays(p, choice);
    let mut out = String::new();
    let colour = if p.white { "White" } else { "Black" };
    let _ = writeln!(
        out,
        "{} — {colour} {} ({} timed moves, TimeControl '{}')",
        record.label,
        p.name,
        p.moves.len(),
        record.tc_text
    );
    let mtg = p.moves.iter().any(|m| m.moves_to_go.is_some());
    let _ = write!(out, "{:>5} {:>4}", "move", "men");
    if mtg {
        let _ = write!(out, " {:>4}", "mtg");
    }
    let _ = write!(out, " {:>9} {:>8} {:>9}", "before s", "spent s", "after s");
    for ov in &o {
        let _ = write!(out, " {:>17}", format!("{} soft/hard", ov.strategy));
    }
    out.push('\n');
    for (i, m) in p.moves.iter().enumerate() {
        let men = m.men.map_or("?".to_string(), |n| n.to_string());
        let _ = write!(out, "{:>5} {men:>4}", m.number);
        if mtg {
            let _ = write!(out, " {:>4}", m.moves_to_go.unwrap_or(0));
        }
        let _ = write!(
            out,
            " {:>9} {:>8} {:>9}",
            secs(m.clock_before_ms as f64),
            secs(m.spent_ms as f64),
            secs(m.clock_after_ms as f64)
        );
        for ov in &o {
            if let Some(b) = ov.budgets.get(i) {
                let cell = format!("{}/{}", secs(b.soft_ms as f64), secs(b.hard_ms as f64));
                let _ = write!(out, " {cell:>17}");
            }
        }
        out.push('\n');
    }
    out
}

/// The header lines: what was read and how.
pub fn header(rep: &Replay) -> String {
    let mut out = format!(
        "tm --pgn {}: {} games, {}{} with a clock record",
        rep.file, rep.games, rep.with_clock, rep.scope
    );
    if !rep.notations.is_empty() {
        let kinds: Vec<String> = rep
            .notations
            .iter()
            .map(|(n, c)| format!("{} ×{c}", n.describe()))
            .collect();
        let _ = write!(out, " ({})", kinds.join("; "));
    }
    out.push('\n');
    out
}

/// The games skipped for having no moves, named (the first few), or None when there are none.
pub fn empty_note(rep: &Replay) -> Option<String> {
    if rep.empty_count == 0 {
        return None;
    }
    let games = if rep.empty_count == 1 {
        "game"
    } else {
        "games"
    };
    let mut out = format!(
        "{} {games} with no moves, skipped: {}",
        rep.empty_count,
        rep.empty
            .iter()
            .take(5)
            .cloned()
            .collect::<Vec<_>>()
            .join(", ")
    );
    if rep.empty_count > 5 {
        let _ = write!(out, ", … and {} more", rep.empty_count - 5);
    }
    Some(out)
}

/// Everything `tm --pgn` prints.
pub fn text(rep: &Replay, choice: &Choice) -> String {
    let mut out = header(rep);
    if let Some(note) = empty_note(rep) {
        let _ = writeln!(out, "{note}");
    }
    if rep.problem_count > 0 {
        let _ = writeln!(out, "\n{} problem(s):", rep.problem_count);
        for p in rep.problems.iter().take(20) {
            let _ = writeln!(out, "  {p}");
        }
        if rep.problem_count > 20 {
            let _ = writeln!(out, "  … and {} more", rep.problem_count - 20);
        }
    }
    out.push('\n');
    out.push_str(&summary::table(&rep.summary));
    if choice.game.is_some() || choice.player.is_some() {
        for record in rep.kept.iter().take(3) {
            out.push('\n');
            match choice.player.as_deref() {
                Some(_) => {
                    let side = overlay_side(record, choice.player.as_deref());
                    out.push_str(&detail(record, side, choice));
                }
                None => {
                    for side in 0..2 {
                        if !record.players[side].moves.is_empty() {
                            out.push_str(&detail(record, side, choice));
                        }
                    }
                }
            }
        }
        if rep.kept.len() > 3 {
            let _ = writeln!(
                out,
                "\n(detail shown for 3 of {} games; choose one with --game N)",
                rep.kept.len()
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn choice() -> Choice {
        Choice {
            game: None,
            player: None,
            strategies: vec![Settings::default()],
            overhead_ms: 50,
        }
    }

    const TWO: &str = "[White \"A\"]\n[Black \"B\"]\n[TimeControl \"10+0.1\"]\n\
        1. e4 {+0.31/14 105ms 9895ms} e5 {-0.1/3 5ms 9995ms} 1-0\n\n\
        [White \"B\"]\n[Black \"A\"]\n[TimeControl \"10+0.1\"]\n1. d4 d5 *\n";

    #[test]
    fn load_counts_and_keeps() {
        let rep = load(TWO.as_bytes(), "two.pgn", &choice()).expect("read");
        assert_eq!((rep.games, rep.with_clock, rep.kept.len()), (2, 1, 1));
        assert_eq!(rep.problem_count, 1);
        assert!(rep.problems[0].contains("game 2 (B vs A): no clock record"));
        let text = text(&rep, &choice());
        assert!(
            text.contains("10+0.1: 1 game, 2 player-sides, 2 players"),
            "{text}"
        );
        let mut one = choice();
        one.game = Some(1);
        one.strategies = Settings::each_strategy();
        let rep = load(TWO.as_bytes(), "two.pgn", &one).expect("read");
        let t = super::text(&rep, &one);
        assert!(t.contains("material soft/hard"), "{t}");
        let picture = figure(&rep.kept[0], &one);
        assert!(picture.contains("expositor (default)"));
    }

    /// Input that fails as a folder does when read.
    struct Unreadable;

    impl std::io::Read for Unreadable {
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("Is a directory"))
        }
    }

    /// A read error used to end the report with "stopped early" on stdout and a status of
    /// success, even when not one game had been read.
    #[test]
    fn a_read_error_is_an_error_even_after_some_games() {
        for before in ["", TWO] {
            let input =
                std::io::BufReader::new(std::io::Read::chain(before.as_bytes(), Unreadable));
            match load(input, "x.pgn", &choice()) {
                Err(e) => assert!(
                    e.contains("cannot read x.pgn") && e.contains("Is a directory"),
                    "{e}"
                ),
                Ok(rep) => panic!("{} games read, the error dropped", rep.games),
            }
        }
    }
}
