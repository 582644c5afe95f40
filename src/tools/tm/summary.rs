//! The tester's summary of how a file of games spent its clocks: per time control, per player
//! and overall.

use super::clocks::{GameRecord, PlayerRecord};
use super::svg::wrap;
use super::{secs, TimeControl};
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
    /// Sides of games with a clock record: a player's games, or for everyone both sides of
    /// each game.
    pub sides: usize,
    pub moves: usize,
    /// (move, mean clock left after it in ms, sides that reached it).
    pub at: Vec<(u32, Option<f64>, usize)>,
    /// Mean clock left after the player's last move.
    pub end_ms: Option<f64>,
    pub share_by: u32,
    /// Mean over the sides that reached `share_by` of: time spent in moves 1…share_by ÷
    /// (the clock before the first timed move + every increment and refill received by then).
    pub share: Option<f64>,
    pub share_sides: usize,
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
    sides: usize,
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
            sides: 0,
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
        self.sides += 1;
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
            sides: self.sides,
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
            share_sides: self.shares.1,
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

/// Most players listed one by one; beyond this only the "all players" row is shown.
pub const MAX_PLAYER_ROWS: usize = 12;
/// Most time controls summarised apart; games of any further control share one last block.
pub const MAX_CONTROLS: usize = 40;

/// What a block of the summary is keyed by: games are averaged together only when they were
/// played at one time control, since a mean over 60+0 and 900+0 clocks describes neither.
#[derive(Clone, Debug, PartialEq)]
enum Control {
    /// The periods read from the TimeControl tag (two spellings of one control meet here).
    Read(Vec<TimeControl>),
    /// A tag that could not be read, kept as written ("" when missing).
    Unread(String),
    /// Everything past [`MAX_CONTROLS`].
    Other,
}

impl Control {
    /// Shorter controls first, as a reader scans from bullet to classical; unread tags and
    /// the overflow last.
    fn order(&self) -> (u8, i64, i64, u32, usize) {
        match self {
            Control::Read(p) => {
                let first = p.first();
                (
                    0,
                    first.map_or(0, |t| t.base_ms),
                    first.map_or(0, |t| t.increment_ms),
                    first.and_then(|t| t.moves).unwrap_or(0),
                    p.len(),
                )
            }
            Control::Unread(_) => (1, 0, 0, 0, 0),
            Control::Other => (2, 0, 0, 0, 0),
        }
    }
}

/// The summary of the games played at one time control.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    /// The TimeControl tag as first written, "no TimeControl tag", or "other time controls".
    pub control: String,
    /// Games with a clock record (the chosen player's, when one is chosen).
    pub games: usize,
    /// One per player per game with a clock record for that player: what the "all players"
    /// row averages over, so up to twice the games.
    pub sides: usize,
    /// Players with at least one such side.
    pub players: usize,
    pub rows: Vec<Summary>,
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

impl Block {
    /// "300+3: 11 games, 22 player-sides, 22 players": the counts the rows below it stand on.
    pub fn heading(&self) -> String {
        format!(
            "{}: {}, {}, {}",
            self.control,
            plural(self.games, "game", "games"),
            plural(self.sides, "player-side", "player-sides"),
            plural(self.players, "player", "players")
        )
    }
}

/// The running totals of one time control.
#[derive(Clone, Debug)]
struct Group {
    control: Control,
    label: String,
    games: usize,
    names: HashSet<String>,
    per: Vec<Accumulator>,
    all: Accumulator,
}

/// The summary of a file, fed one game at a time: a block per time control, each with one
/// row per player while the file has few players (or only the chosen player's), then one for
/// all of them.
#[derive(Clone, Debug)]
pub struct Summaries {
    only: Option<String>,
    /// Every player of the file, in order of appearance, while there are at most
    /// [`MAX_PLAYER_ROWS`] (the rest are only counted in `names`).
    listed: Vec<String>,
    names: HashSet<String>,
    groups: Vec<Group>,
}

impl Summaries {
    pub fn new(only: Option<&str>) -> Summaries {
        Summaries {
            only: only.map(str::to_string),
            listed: Vec::new(),
            names: HashSet::new(),
            groups: Vec::new(),
        }
    }

    fn group(&mut self, game: &GameRecord) -> &mut Group {
        let mut control = match &game.periods {
            Some(p) => Control::Read(p.clone()),
            None => Control::Unread(game.tc_text.trim().to_string()),
        };
        let known = self.groups.iter().any(|g| g.control == control);
        if !known && self.groups.len() + 1 >= MAX_CONTROLS {
            control = Control::Other;
        }
        let i = match self.groups.iter().position(|g| g.control == control) {
            Some(i) => i,
            None => {
                let label = match &control {
                    Control::Other => "other time controls".to_string(),
                    _ if game.tc_text.trim().is_empty() => "no TimeControl tag".to_string(),
                    _ => game.tc_text.trim().to_string(),
                };
                self.groups.push(Group {
                    control,
                    label,
                    games: 0,
                    names: HashSet::new(),
                    per: Vec::new(),
                    all: Accumulator::new("all players", &CHECKPOINTS, SHARE_BY),
                });
                self.groups.len() - 1
            }
        };
        &mut self.groups[i]
    }

    pub fn add(&mut self, game: &GameRecord) {
        let only = self.only.clone();
        let sides: Vec<&PlayerRecord> = game
            .players
            .iter()
            .filter(|p| !p.moves.is_empty())
            .filter(|p| only.as_deref().is_none_or(|o| o == p.name))
            .collect();
        if sides.is_empty() {
            return;
        }
        for p in &sides {
            if self.names.insert(p.name.clone()) && self.listed.len() < MAX_PLAYER_ROWS {
                self.listed.push(p.name.clone());
            }
        }
        let group = self.group(game);
        group.games += 1;
        for p in sides {
            group.all.add(game, p);
            group.names.insert(p.name.clone());
            match group.per.iter().position(|a| a.name == p.name) {
                Some(i) => group.per[i].add(game, p),
                None if group.per.len() < MAX_PLAYER_ROWS => {
                    let mut acc = Accumulator::new(&p.name, &CHECKPOINTS, SHARE_BY);
                    acc.add(game, p);
                    group.per.push(acc);
                }
                None => {}
            }
        }
    }

    /// The players given rows of their own: the chosen one, or everyone while the file has
    /// at most [`MAX_PLAYER_ROWS`]; empty otherwise.
    pub fn players(&self) -> Vec<String> {
        if self.only.is_some() || self.names.len() <= MAX_PLAYER_ROWS {
            self.listed.clone()
        } else {
            Vec::new()
        }
    }

    /// One block per time control, shortest first.
    pub fn blocks(&self) -> Vec<Block> {
        let per_player = self.only.is_some() || self.names.len() <= MAX_PLAYER_ROWS;
        let mut groups: Vec<&Group> = self.groups.iter().collect();
        groups.sort_by_key(|g| g.control.order());
        groups
            .into_iter()
            .map(|g| {
                let mut rows = Vec::new();
                if per_player {
                    rows.extend(g.per.iter().map(Accumulator::finish));
                }
                if self.only.is_none() {
                    rows.push(g.all.finish());
                }
                Block {
                    control: g.label.clone(),
                    games: g.games,
                    sides: g.all.sides,
                    players: g.names.len(),
                    rows,
                }
            })
            .collect()
    }
}

/// Cells of one summary row, as text (shared by the terminal table and the HTML page).
pub fn cells(s: &Summary) -> Vec<String> {
    let mut out = vec![s.name.clone(), s.sides.to_string(), s.moves.to_string()];
    for &(_, v, n) in &s.at {
        out.push(v.map_or("–".to_string(), |ms| format!("{} ({n})", secs(ms))));
    }
    out.push(s.end_ms.map_or("–".to_string(), secs));
    out.push(s.share.map_or("–".to_string(), |v| {
        format!("{:.0} % ({})", 100.0 * v, s.share_sides)
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
    let mut out = vec!["player".to_string(), "player-sides".into(), "moves".into()];
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

/// What the columns mean, one sentence each (shared by the terminal and the HTML page).
pub const NOTES: [&str; 6] = [
    "Each time control is summarised apart: a mean over clocks of different sizes describes none of them.",
    "player-sides: one for each player with a clock record in a game, so a player's row counts their games and \"all players\" counts both sides of every game.",
    "clock @N: mean clock left after move N (increment included), over the player-sides that reached it (count).",
    "used by N: time spent in moves 1..N / (starting clock + increments and refills by then), mean over the player-sides that reached N (count).",
    "lowest: the lowest clock at the moment of moving, before the increment; moves <1 s: moves that left under 1 s.",
    "lost on time: from the Termination tag (the flagging move itself is not in the game score).",
];

/// The summary as text: one aligned table, a heading line above each time control's rows
/// (the columns line up across controls, so they can be compared down the page).
pub fn table(blocks: &[Block]) -> String {
    let Some(first) = blocks.iter().flat_map(|b| b.rows.first()).next() else {
        return "(no game with a clock record)\n".to_string();
    };
    let head = headings(first);
    let cols = head.len();
    let body: Vec<Vec<Vec<String>>> = blocks
        .iter()
        .map(|b| {
            b.rows
                .iter()
                .map(|r| {
                    let mut c = cells(r);
                    c[0] = format!("  {}", c[0]);
                    c
                })
                .collect()
        })
        .collect();
    let width: Vec<usize> = (0..cols)
        .map(|c| {
            std::iter::once(&head)
                .chain(body.iter().flatten())
                .map(|r| r[c].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |out: &mut String, row: &[String]| {
        for (c, cell) in row.iter().enumerate() {
            let pad = width[c] - cell.chars().count();
            if c == 0 {
                let _ = write!(out, "{cell}{}", " ".repeat(pad));
            } else {
                let _ = write!(out, "  {}{cell}", " ".repeat(pad));
            }
        }
        out.push('\n');
    };
    let mut out = String::new();
    line(&mut out, &head);
    for (block, rows) in blocks.iter().zip(&body) {
        let _ = writeln!(out, "{}", block.heading());
        for row in rows {
            line(&mut out, row);
        }
    }
    for note in NOTES {
        for l in wrap(note, 110) {
            let _ = writeln!(out, "{l}");
        }
    }
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
        assert_eq!((a.sides, a.moves), (2, 4));
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
        assert_eq!((a.share, a.share_sides), (Some(0.125), 1));
        assert_eq!(a.lowest, Some((300, "game 2 move 1...".to_string())));
        assert_eq!(a.under_1s, 1);

        let b = summarise("B", pairs("B"), &[1, 2, 3], 2);
        assert_eq!((b.sides, b.moves), (2, 5));
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
        assert_eq!(b.share_sides, 2);
        assert_eq!(b.lowest, Some((1300, "game 1 move 3...".to_string())));
        assert_eq!(b.under_1s, 0);
        assert_eq!((a.flags, b.flags), (0, 0));

        // The streaming rows agree, and the defaults (moves 20/40/60) show "–".
        let mut all = Summaries::new(None);
        for r in &records {
            all.add(r);
        }
        let blocks = all.blocks();
        assert_eq!(blocks.len(), 1);
        assert_eq!(
            blocks[0].heading(),
            "10+1: 2 games, 4 player-sides, 2 players"
        );
        let rows = &blocks[0].rows;
        assert_eq!(rows.len(), 3);
        assert_eq!(rows[2].name, "all players");
        assert_eq!((rows[2].sides, rows[2].moves, rows[2].under_1s), (4, 9, 1));
        assert_eq!(
            rows[2].end_ms,
            Some((8500.0 + 1300.0 + 2300.0 + 7900.0) / 4.0)
        );
        let text = table(&blocks);
        assert!(text.contains("0.30 (game 2 move 1...)"), "{text}");
        assert_eq!(cells(&rows[0])[3], "–");
    }

    /// A 60+0 game added to hand.pgn's two 10+1 games gets a block of its own: the 10+1
    /// numbers stay what they were by hand, and the counts say games and player-sides apart
    /// (the file's summary once read "all 199 players" over 100 games of 18 controls).
    #[test]
    fn each_time_control_is_summarised_apart() {
        let blitz = "[White \"A\"]\n[Black \"C\"]\n[TimeControl \"60+0\"]\n\
            1. e4 {+0.10/5 1000ms 59000ms} e5 {-0.10/5 2000ms 58000ms} 1/2-1/2\n";
        let hand = include_str!("../../../tests/data/tm/hand.pgn");
        // The 60+0 game first: blocks come shortest control first, not in file order.
        let games = parse_str(&format!("{blitz}\n{hand}"));
        let mut all = Summaries::new(None);
        for g in &games {
            all.add(&read_game(g));
        }
        let blocks = all.blocks();
        let headings: Vec<String> = blocks.iter().map(Block::heading).collect();
        assert_eq!(
            headings,
            [
                "10+1: 2 games, 4 player-sides, 2 players",
                "60+0: 1 game, 2 player-sides, 2 players"
            ]
        );
        let names = |b: &Block| b.rows.iter().map(|r| r.name.clone()).collect::<Vec<_>>();
        assert_eq!(names(&blocks[0]), ["A", "B", "all players"]);
        assert_eq!(names(&blocks[1]), ["A", "C", "all players"]);
        let ends = |b: &Block| b.rows.last().and_then(|r| r.end_ms);
        assert_eq!(
            ends(&blocks[0]),
            Some((8500.0 + 1300.0 + 2300.0 + 7900.0) / 4.0)
        );
        assert_eq!(ends(&blocks[1]), Some((59_000.0 + 58_000.0) / 2.0));
        assert_eq!(all.players(), ["A", "C", "B"]);
        let text = table(&blocks);
        let at = |needle: &str| text.find(needle).unwrap_or(usize::MAX);
        assert!(at("10+1: 2 games") < at("60+0: 1 game"), "{text}");

        // One player chosen: that player's row under each control, no "all players".
        let mut one = Summaries::new(Some("C"));
        for g in &games {
            one.add(&read_game(g));
        }
        let blocks = one.blocks();
        assert_eq!(blocks.len(), 1);
        assert_eq!(blocks[0].heading(), "60+0: 1 game, 1 player-side, 1 player");
        assert_eq!(names(&blocks[0]), ["C"]);
    }
}
