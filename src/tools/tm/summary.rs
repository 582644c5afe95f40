//! The tester's summary of how a file of games spent its clocks, per player and overall.

use super::clocks::{GameRecord, PlayerRecord};
use super::secs;
use std::collections::HashSet;
use std::fmt::Write as _;

/// Moves at which the mean clock left is reported.
pub const CHECKPOINTS: [u32; 3] = [20, 40, 60];
/// The share of base plus increments used is reported at this move.
pub const SHARE_BY: u32 = 60;
/// A move that left the clock below this (before the increment) counts as played in time
/// trouble.
pub const TROUBLE_MS: i64 = 1000;

/// How one player (or everyone) spent the clock over a set of games.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    pub name: String,
    /// Games with a clock record for this player.
    pub games: usize,
    pub moves: usize,
    /// (move, mean clock left after it in ms, games that reached it).
    pub at: Vec<(u32, Option<f64>, usize)>,
    /// Mean clock left after the player's last move.
    pub end_ms: Option<f64>,
    pub share_by: u32,
    /// Mean over the games that reached `share_by` of: time spent in moves 1…share_by ÷
    /// (the clock before the first timed move + every increment and refill received by then).
    pub share: Option<f64>,
    pub share_games: usize,
    /// Lowest clock at the moment of moving (before the increment), and where.
    pub lowest: Option<(i64, String)>,
    /// Moves that left the clock below [`TROUBLE_MS`] before the increment.
    pub under_1s: usize,
    /// Games lost on time (from the Termination tag: the flagging move is not in the score).
    pub flags: usize,
}

/// Running totals for one [`Summary`], fed one (game, player) record at a time so that a
/// file of any size is summarised without holding its games.
#[derive(Clone, Debug)]
pub struct Accumulator {
    name: String,
    checkpoints: Vec<u32>,
    share_by: u32,
    at: Vec<(f64, usize)>,
    ends: (f64, usize),
    shares: (f64, usize),
    lowest: Option<(i64, String)>,
    games: usize,
    moves: usize,
    under_1s: usize,
    flags: usize,
}

fn mean((sum, n): (f64, usize)) -> Option<f64> {
    (n > 0).then(|| sum / n as f64)
}

impl Accumulator {
    pub fn new(name: &str, checkpoints: &[u32], share_by: u32) -> Accumulator {
        Accumulator {
            name: name.to_string(),
            checkpoints: checkpoints.to_vec(),
            share_by,
            at: vec![(0.0, 0); checkpoints.len()],
            ends: (0.0, 0),
            shares: (0.0, 0),
            lowest: None,
            games: 0,
            moves: 0,
            under_1s: 0,
            flags: 0,
        }
    }

    pub fn add(&mut self, game: &GameRecord, player: &PlayerRecord) {
        let (Some(first), Some(last)) = (player.moves.first(), player.moves.last()) else {
            return;
        };
        let game_index = game.index;
        self.flags += usize::from(game.flagged(player));
        self.games += 1;
        self.moves += player.moves.len();
        for (slot, &n) in self.at.iter_mut().zip(&self.checkpoints) {
            if let Some(m) = player.moves.iter().find(|m| m.number == n) {
                slot.0 += m.clock_after_ms as f64;
                slot.1 += 1;
            }
        }
        self.ends.0 += last.clock_after_ms as f64;
        self.ends.1 += 1;
        if last.number >= self.share_by {
            let by = player.moves.iter().filter(|m| m.number <= self.share_by);
            let (spent, added) = by.fold((0i64, 0i64), |(s, a), m| {
                (s.saturating_add(m.spent_ms), a.saturating_add(m.added_ms()))
            });
            let available = first.clock_before_ms.saturating_add(added);
            if available > 0 {
                self.shares.0 += spent as f64 / available as f64;
                self.shares.1 += 1;
            }
        }
        for m in &player.moves {
            if m.low_ms() < TROUBLE_MS {
                self.under_1s += 1;
            }
            if self
                .lowest
                .as_ref()
                .is_none_or(|(low, _)| m.low_ms() < *low)
            {
                let dots = if player.white { "." } else { "..." };
                let at = format!("game {game_index} move {}{dots}", m.number);
                self.lowest = Some((m.low_ms(), at));
            }
        }
    }

    pub fn finish(&self) -> Summary {
        Summary {
            name: self.name.clone(),
            games: self.games,
            moves: self.moves,
            at: self
                .checkpoints
                .iter()
                .zip(&self.at)
                .map(|(&n, &v)| (n, mean(v), v.1))
                .collect(),
            end_ms: mean(self.ends),
            share_by: self.share_by,
            share: mean(self.shares),
            share_games: self.shares.1,
            lowest: self.lowest.clone(),
            under_1s: self.under_1s,
            flags: self.flags,
        }
    }
}

/// Summarise the given (game, player) records under `name`.
pub fn summarise<'a>(
    name: &str,
    records: impl IntoIterator<Item = (&'a GameRecord, &'a PlayerRecord)>,
    checkpoints: &[u32],
    share_by: u32,
) -> Summary {
    let mut acc = Accumulator::new(name, checkpoints, share_by);
    for (game, player) in records {
        acc.add(game, player);
    }
    acc.finish()
}

/// Most players listed one by one; beyond this only the "all" row is shown.
pub const MAX_PLAYER_ROWS: usize = 12;

/// The summary rows of a file, fed one game at a time: one row per player while there are
/// few (or only the chosen player's), then one for everyone.
#[derive(Clone, Debug)]
pub struct Summaries {
    only: Option<String>,
    per: Vec<Accumulator>,
    names: HashSet<String>,
    all: Accumulator,
}

impl Summaries {
    pub fn new(only: Option<&str>) -> Summaries {
        Summaries {
            only: only.map(str::to_string),
            per: Vec::new(),
            names: HashSet::new(),
            all: Accumulator::new("all players", &CHECKPOINTS, SHARE_BY),
        }
    }

    pub fn add(&mut self, game: &GameRecord) {
        for p in game.players.iter().filter(|p| !p.moves.is_empty()) {
            if self.only.as_deref().is_some_and(|o| o != p.name) {
                continue;
            }
            self.all.add(game, p);
            match self.per.iter_mut().find(|a| a.name == p.name) {
                Some(acc) => acc.add(game, p),
                None => {
                    if self.names.insert(p.name.clone()) && self.per.len() <= MAX_PLAYER_ROWS {
                        let mut acc = Accumulator::new(&p.name, &CHECKPOINTS, SHARE_BY);
                        acc.add(game, p);
                        self.per.push(acc);
                    }
                }
            }
        }
    }

    pub fn rows(&self) -> Vec<Summary> {
        if self.only.is_some() {
            return self.per.iter().map(Accumulator::finish).collect();
        }
        let mut rows = Vec::new();
        if self.names.len() <= MAX_PLAYER_ROWS {
            rows.extend(self.per.iter().map(Accumulator::finish));
        }
        let mut all = self.all.finish();
        all.name = format!("all {} players", self.names.len());
        rows.push(all);
        rows
    }
}

/// Cells of one summary row, as text (shared by the terminal table and the HTML page).
pub fn cells(s: &Summary) -> Vec<String> {
    let mut out = vec![s.name.clone(), s.games.to_string(), s.moves.to_string()];
    for &(_, v, n) in &s.at {
        out.push(v.map_or("–".to_string(), |ms| format!("{} ({n})", secs(ms))));
    }
    out.push(s.end_ms.map_or("–".to_string(), secs));
    out.push(s.share.map_or("–".to_string(), |v| {
        format!("{:.0} % ({})", 100.0 * v, s.share_games)
    }));
    out.push(s.lowest.as_ref().map_or("–".to_string(), |(ms, at)| {
        format!("{} ({at})", secs(*ms as f64))
    }));
    out.push(s.under_1s.to_string());
    out.push(s.flags.to_string());
    out
}

/// Column headings matching [`cells`].
pub fn headings(s: &Summary) -> Vec<String> {
    let mut out = vec!["player".to_string(), "games".into(), "moves".into()];
    for &(n, _, _) in &s.at {
        out.push(format!("clock s @{n}"));
    }
    out.push("clock s @end".into());
    out.push(format!("used by {}", s.share_by));
    out.push("lowest s".into());
    out.push("moves <1 s".into());
    out.push("lost on time".into());
    out
}

/// The summary as an aligned text table.
pub fn table(rows: &[Summary]) -> String {
    let Some(first) = rows.first() else {
        return "(no game with a clock record)\n".to_string();
    };
    let mut grid = vec![headings(first)];
    grid.extend(rows.iter().map(cells));
    let cols = grid[0].len();
    let width: Vec<usize> = (0..cols)
        .map(|c| grid.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for row in &grid {
        for (c, cell) in row.iter().enumerate() {
            let pad = width[c] - cell.chars().count();
            if c == 0 {
                let _ = write!(out, "{cell}{}", " ".repeat(pad));
            } else {
                let _ = write!(out, "  {}{cell}", " ".repeat(pad));
            }
        }
        out.push('\n');
    }
    out.push_str(
        "games: games with a clock record for the player (the \"all\" row counts each player's side of a game);\n\
         clock @N: mean clock left after move N (increment included), over the games that reached it (count);\n\
         used by N: time spent in moves 1..N / (starting clock + increments and refills by then);\n\
         lowest: the lowest clock at the moment of moving, before the increment; moves <1 s: moves that left under 1 s;\n\
         lost on time: from the Termination tag (the flagging move itself is not in the game score).\n",
    );
    out
}

#[cfg(test)]
mod tests {
    use super::super::clocks::read_game;
    use super::*;
    use crate::tools::pgn::parse_str;

    /// tests/data/tm/hand.pgn, worked out by hand (match.py notation, 10+1):
    ///
    /// A, game 1 (White): before/spent/after 10.0/0.5/10.5, 10.5/1.0/10.5, 10.5/3.0/8.5;
    /// A, game 2 (Black): 10.0/9.7/1.3 (the clock was at 0.3 s when it moved).
    /// B, game 1 (Black): 10.0/2.0/9.0, 9.0/7.5/2.5, 2.5/1.2/2.3;
    /// B, game 2 (White): 10.0/4.0/7.0, 7.0/0.1/7.9.
    #[test]
    fn summary_matches_the_hand_computed_numbers() {
        let games = parse_str(include_str!("../../../tests/data/tm/hand.pgn"));
        let records: Vec<GameRecord> = games.iter().map(read_game).collect();
        let pairs = |name: &'static str| {
            records
                .iter()
                .flat_map(move |g| g.players.iter().map(move |p| (g, p)))
                .filter(move |(_, p)| p.name == name)
        };
        let a = summarise("A", pairs("A"), &[1, 2, 3], 2);
        assert_eq!((a.games, a.moves), (2, 4));
        // Move 1: (10.5 + 1.3) / 2; move 2 and 3: game 1 only.
        assert_eq!(
            a.at,
            [
                (1, Some(5900.0), 2),
                (2, Some(10_500.0), 1),
                (3, Some(8500.0), 1)
            ]
        );
        assert_eq!(a.end_ms, Some(4900.0));
        // By move 2 of game 1: spent 1.5 of 10 + 2 × 1 = 12 s. Game 2 ended before move 2.
        assert_eq!((a.share, a.share_games), (Some(0.125), 1));
        assert_eq!(a.lowest, Some((300, "game 2 move 1...".to_string())));
        assert_eq!(a.under_1s, 1);

        let b = summarise("B", pairs("B"), &[1, 2, 3], 2);
        assert_eq!((b.games, b.moves), (2, 5));
        assert_eq!(
            b.at,
            [
                (1, Some(8000.0), 2),
                (2, Some(5200.0), 2),
                (3, Some(2300.0), 1)
            ]
        );
        assert_eq!(b.end_ms, Some(5100.0));
        // (9.5 / 12 + 4.1 / 12) / 2
        let share = b.share.unwrap_or(0.0);
        assert!((share - 13.6 / 24.0).abs() < 1e-12, "{share}");
        assert_eq!(b.share_games, 2);
        assert_eq!(b.lowest, Some((1300, "game 1 move 3...".to_string())));
        assert_eq!(b.under_1s, 0);
        assert_eq!((a.flags, b.flags), (0, 0));

        // The streaming rows agree, and the defaults (moves 20/40/60) show "–".
        let mut all = Summaries::new(None);
        for r in &records {
            all.add(r);
        }
        let rows = all.rows();
        assert_eq!(rows.len(), 3);
        assert_eq!(rows[2].name, "all 2 players");
        assert_eq!((rows[2].games, rows[2].moves, rows[2].under_1s), (4, 9, 1));
        assert_eq!(
            rows[2].end_ms,
            Some((8500.0 + 1300.0 + 2300.0 + 7900.0) / 4.0)
        );
        let text = table(&rows);
        assert!(text.contains("0.30 (game 2 move 1...)"), "{text}");
        assert_eq!(cells(&rows[0])[3], "–");
    }
}
