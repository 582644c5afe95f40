//! From a game's move comments to each player's clock, move by move.
//!
//! Every program writes the clock its own way, and they differ in what "clock left" means:
//!
//! | writer | comment | meaning |
//! |---|---|---|
//! | lichess | `[%clk 0:04:58]` | clock after the move, increment included |
//! | TCEC | `mt=12345, tl=1700995` (ms) | time used; clock after the move, increment included |
//! | fastchess (`-pgnout timeleft=true`) | `+0.31/12 0.357s, tl=9.843s` | time used; clock after, increment (and `M/B` refill) included |
//! | cutechess-cli | `+0.31/12 0.36s` | time used only: the clock is rebuilt from `[TimeControl]` |
//! | `match.py` | `+0.31/14 105ms 9895ms` | time used; clock after the move *before* increment and refill |
//!
//! Lichess does not run the clock for each side's first move (it shows the base time and
//! gives no increment), so a first `[%clk]` equal to the clock before it counts as 0 s spent.
//! Moves marked `book` are untimed.

use super::{parse_tc, TimeControl};
use crate::position::Position;
use crate::tools::pgn::RawGame;

/// How a game's clock was written (the first notation found in its comments).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    /// lichess and most servers: `[%clk h:mm:ss]`.
    Clk,
    /// TCEC: `mt=` and `tl=` in ms.
    MtTl,
    /// fastchess: `0.357s, tl=9.843s`.
    Fastchess,
    /// cutechess-cli: `0.36s`, no clock.
    Cutechess,
    /// `[%emt h:mm:ss]`: elapsed time only.
    Emt,
    /// match.py: `105ms 9895ms`.
    MatchPy,
}

impl Notation {
    pub fn describe(self) -> &'static str {
        match self {
            Notation::Clk => "[%clk] (clock after each move)",
            Notation::MtTl => "TCEC mt=/tl= (ms)",
            Notation::Fastchess => "fastchess time used and tl=",
            Notation::Cutechess => "cutechess time used; clock rebuilt from the TimeControl tag",
            Notation::Emt => "[%emt] time used; clock rebuilt from the TimeControl tag",
            Notation::MatchPy => "match.py time used and clock left",
        }
    }
}

/// The clock around one timed move of one player.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveTime {
    /// Fullmove number (1, 2, …) as in the game score.
    pub number: u32,
    /// Plies played in the game before this move.
    pub ply: u32,
    /// Men on the board before the move, when the moves could be replayed.
    pub men: Option<u32>,
    /// Moves to the next time control, for `M/B` controls.
    pub moves_to_go: Option<u32>,
    /// The increment of the period this move belongs to.
    pub increment_ms: i64,
    pub clock_before_ms: i64,
    pub spent_ms: i64,
    /// When the player's next move starts: increment and refill included.
    pub clock_after_ms: i64,
    /// `pchange=` of the comment (Sandglass's `watch` writes it): the learned soft-stop
    /// model's probability, at the last check, that the next depth would change the move.
    pub p_change: Option<f64>,
}

impl MoveTime {
    /// The lowest the clock got: at the moment of moving, before the increment.
    pub fn low_ms(&self) -> i64 {
        self.clock_before_ms.saturating_sub(self.spent_ms)
    }

    /// Time the clock received after this move (increment plus any refill).
    pub fn added_ms(&self) -> i64 {
        self.clock_after_ms
            .saturating_sub(self.clock_before_ms)
            .saturating_add(self.spent_ms)
    }
}

/// One player's side of one game.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerRecord {
    pub name: String,
    pub white: bool,
    pub moves: Vec<MoveTime>,
}

/// One game's clock record.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    pub index: usize,
    pub label: String,
    pub result: String,
    /// The `[TimeControl]` tag as written ("" if missing).
    pub tc_text: String,
    /// Its periods, when it could be read.
    pub periods: Option<Vec<TimeControl>>,
    pub notation: Option<Notation>,
    /// White, then Black.
    pub players: [PlayerRecord; 2],
    /// Everything that could not be read, each naming the game and move.
    pub problems: Vec<String>,
    pub plies: usize,
    /// The side (0 = White) that lost on time, from the Termination tag and the result.
    pub lost_on_time: Option<usize>,
}

impl GameRecord {
    pub fn has_clock(&self) -> bool {
        self.players.iter().any(|p| !p.moves.is_empty())
    }

    /// Did this player lose the game on time?
    pub fn flagged(&self, player: &PlayerRecord) -> bool {
        self.lost_on_time == Some(usize::from(!player.white))
    }
}

/// Which side lost on time: `Termination` says "time forfeit" (lichess, match.py,
/// fastchess) and the result names the loser.
fn lost_on_time(game: &RawGame) -> Option<usize> {
    let termination = game.tag("Termination")?.to_ascii_lowercase();
    if !termination.contains("time forfeit") {
        return None;
    }
    match game.tag("Result")? {
        "1-0" => Some(1),
        "0-1" => Some(0),
        _ => None,
    }
}

/// Parse a PGN `[TimeControl]` value: `300+3`, `40/9000`, `40/9000:300`, `40/5400+30:1800+30`
/// (periods separated by `:`, the last repeating when it has a move count). `Err` says why
/// not (`?`, `-`, `*180` sandclock and `0.1/move` have no clock to replay).
pub fn parse_control(tag: &str) -> Result<Vec<TimeControl>, String> {
    let t = tag.trim();
    match t {
        "" | "?" => return Err("the time control is unknown".to_string()),
        "-" => return Err("the game had no time control".to_string()),
        _ => {}
    }
    if t.starts_with('*') {
        return Err(format!("sandclock control '{t}' is not supported"));
    }
    if t.ends_with("/move") {
        return Err(format!(
            "'{t}' is a fixed time per move: there is no clock to replay"
        ));
    }
    t.split(':').map(parse_tc).collect()
}

/// Increment, moves to go and refill for a player's n-th timed move (1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    pub increment_ms: i64,
    pub moves_to_go: Option<u32>,
    /// Base time of the next period, added after this move when it completes a period.
    pub refill_ms: i64,
}

/// Where the n-th move (1-based) falls in the periods.
pub fn step(periods: &[TimeControl], n: u32) -> Step {
    let mut left = n.max(1);
    let mut i = 0;
    while let Some(p) = periods.get(i) {
        match p.moves {
            Some(m) if m > 0 => {
                if i + 1 == periods.len() {
                    // The last period repeats: the move's place in it at once, not one
                    // period at a time (`1/1` over a long game was quadratic).
                    left = (left - 1) % m + 1;
                }
                if left <= m {
                    let next = periods.get(i + 1).unwrap_or(p);
                    return Step {
                        increment_ms: p.increment_ms,
                        moves_to_go: Some(m - left + 1),
                        refill_ms: if left == m { next.base_ms } else { 0 },
                    };
                }
                left -= m;
                i += 1;
            }
            _ => {
                return Step {
                    increment_ms: p.increment_ms,
                    moves_to_go: None,
                    refill_ms: 0,
                };
            }
        }
    }
    Step {
        increment_ms: 0,
        moves_to_go: None,
        refill_ms: 0,
    }
}

/// What one move's comment says about the clock.
#[derive(Clone, Debug, Default, PartialEq)]
struct Reading {
    book: bool,
    clk_ms: Option<i64>,
    emt_ms: Option<i64>,
    mt_ms: Option<i64>,
    tl_ms: Option<i64>,
    tl_s_ms: Option<i64>,
    used_s_ms: Option<i64>,
    ms_tokens: Vec<i64>,
}

impl Reading {
    fn notation(&self) -> Option<Notation> {
        if self.clk_ms.is_some() {
            Some(Notation::Clk)
        } else if self.mt_ms.is_some() && self.tl_ms.is_some() {
            Some(Notation::MtTl)
        } else if self.tl_s_ms.is_some() && self.used_s_ms.is_some() {
            Some(Notation::Fastchess)
        } else if self.ms_tokens.len() >= 2 {
            Some(Notation::MatchPy)
        } else if self.used_s_ms.is_some() {
            Some(Notation::Cutechess)
        } else if self.emt_ms.is_some() {
            Some(Notation::Emt)
        } else {
            None
        }
    }
}

/// `h:mm:ss`, `m:ss` or `ss`, each part maybe with decimals, to ms.
fn parse_hms(text: &str) -> Option<i64> {
    let mut total = 0.0;
    for part in text.split(':') {
        let v: f64 = part.parse().ok()?;
        if !(v.is_finite() && v >= 0.0) {
            return None;
        }
        total = total * 60.0 + v;
    }
    (total < 1e12).then(|| (total * 1000.0).round() as i64)
}

/// A plain number (ms or s), non-negative and finite.
fn parse_number(text: &str, scale: f64) -> Option<i64> {
    let v: f64 = text.parse().ok()?;
    (0.0..1e12).contains(&v).then(|| (v * scale).round() as i64)
}

/// Read one move's comment; `Err` names the piece that looks like a clock but is not one.
fn read_comment(comment: &str) -> Result<Reading, String> {
    let mut r = Reading::default();
    let mut rest = comment;
    // Commands first: [%clk …] [%emt …].
    while let Some(start) = rest.find("[%") {
        let after = &rest[start + 2..];
        let end = after.find(']').unwrap_or(after.len());
        let body = &after[..end];
        let mut words = body.split_whitespace();
        let cmd = words.next().unwrap_or("");
        let value = words.next().unwrap_or("");
        match cmd {
            "clk" => {
                r.clk_ms = Some(parse_hms(value).ok_or_else(|| format!("bad [%clk {value}]"))?)
            }
            "emt" => {
                r.emt_ms = Some(parse_hms(value).ok_or_else(|| format!("bad [%emt {value}]"))?)
            }
            _ => {}
        }
        rest = after.get(end + 1..).unwrap_or("");
    }
    if r.clk_ms.is_some() || r.emt_ms.is_some() {
        return Ok(r);
    }
    for word in comment.split(|c: char| c.is_whitespace() || c == ',') {
        if word.is_empty() {
            continue;
        }
        if word.eq_ignore_ascii_case("book") {
            r.book = true;
        } else if let Some(v) = word.strip_prefix("mt=") {
            r.mt_ms = Some(parse_number(v, 1.0).ok_or_else(|| format!("bad mt={v}"))?);
        } else if let Some(v) = word.strip_prefix("tl=") {
            match v.strip_suffix('s') {
                Some(secs) => {
                    let ms = parse_number(secs, 1000.0).ok_or_else(|| format!("bad tl={v}"))?;
                    r.tl_s_ms = Some(ms);
                }
                None => r.tl_ms = Some(parse_number(v, 1.0).ok_or_else(|| format!("bad tl={v}"))?),
            }
        } else if word.contains('=') {
            continue;
        } else if let Some(v) = word.strip_suffix("ms") {
            if let Some(ms) = parse_number(v, 1.0) {
                r.ms_tokens.push(ms);
            }
        } else if let Some(v) = word.strip_suffix('s') {
            if r.used_s_ms.is_none() {
                r.used_s_ms = parse_number(v, 1000.0);
            }
        }
    }
    Ok(r)
}

/// `pchange=P` anywhere in a comment, with P a probability.
fn read_p_change(comment: &str) -> Result<Option<f64>, String> {
    let Some(v) = comment
        .split(|c: char| c.is_whitespace() || c == ',' || c == ']')
        .find_map(|word| word.strip_prefix("pchange="))
    else {
        return Ok(None);
    };
    match v.parse::<f64>() {
        Ok(p) if (0.0..=1.0).contains(&p) => Ok(Some(p)),
        _ => Err(format!("bad pchange={v} (a probability, 0 to 1)")),
    }
}

/// The clock of one player, followed through the game.
struct Follow {
    clock: Option<i64>,
    timed: u32,
    stopped: bool,
}

/// Read a game's clock record. Never fails: problems are listed in the record.
pub fn read_game(game: &RawGame) -> GameRecord {
    let label = game.label();
    let mut problems: Vec<String> = game.warnings.clone();
    let tc_text = game.tag("TimeControl").unwrap_or("").to_string();
    let periods = parse_control(&tc_text).ok();
    let mut pos = match game.start_position() {
        Ok(p) => Some(p),
        Err(e) => {
            problems.push(format!(
                "{label}: bad FEN tag ({e}); men on the board unknown"
            ));
            None
        }
    };
    let first_black = pos
        .as_ref()
        .is_some_and(|p| p.side_to_move() == chess::Color::Black);
    let start_ply = pos.as_ref().map_or(0, Position::game_ply);
    let mut players = [
        PlayerRecord {
            name: game.tag("White").unwrap_or("White").to_string(),
            white: true,
            moves: Vec::new(),
        },
        PlayerRecord {
            name: game.tag("Black").unwrap_or("Black").to_string(),
            white: false,
            moves: Vec::new(),
        },
    ];
    let mut follow = [
        Follow {
            clock: None,
            timed: 0,
            stopped: false,
        },
        Follow {
            clock: None,
            timed: 0,
            stopped: false,
        },
    ];
    let mut notation = None;
    for (i, m) in game.moves.iter().enumerate() {
        let ply = start_ply.saturating_add(u32::try_from(i).unwrap_or(u32::MAX));
        let side = usize::from((i % 2 == 1) != first_black);
        let number = ply / 2 + 1;
        let dots = if side == 0 { "." } else { "..." };
        let at = format!("{label}, move {number}{dots} {}", m.san);
        let men = pos.as_ref().map(Position::men);
        if let Some(p) = pos.as_mut() {
            match p.parse_san(&m.san) {
                Some(mv) => p.make_move(mv),
                None => {
                    problems.push(format!(
                        "{at}: not a legal move here; men on the board unknown from here"
                    ));
                    pos = None;
                }
            }
        }
        let f = &mut follow[side];
        if f.stopped {
            continue;
        }
        let reading = match read_comment(&m.comment) {
            Ok(r) => r,
            Err(e) => {
                problems.push(format!(
                    "{at}: {e}; {}'s record stops here",
                    players[side].name
                ));
                f.stopped = true;
                continue;
            }
        };
        if reading.book {
            continue;
        }
        let Some(kind) = reading.notation() else {
            if notation.is_some() || f.timed > 0 {
                problems.push(format!(
                    "{at}: no clock in the comment; {}'s record stops here",
                    players[side].name
                ));
                f.stopped = true;
            }
            continue;
        };
        // The odds are Sandglass's own addition: a value that is no probability is named,
        // and the clock, which does not depend on it, is read on.
        let p_change = read_p_change(&m.comment).unwrap_or_else(|e| {
            problems.push(format!("{at}: {e}; read as no odds"));
            None
        });
        let n = f.timed + 1;
        let st = periods.as_deref().map_or(
            Step {
                increment_ms: 0,
                moves_to_go: None,
                refill_ms: 0,
            },
            |p| step(p, n),
        );
        let gain = st.increment_ms.saturating_add(st.refill_ms);
        let base = periods.as_ref().and_then(|p| p.first()).map(|p| p.base_ms);
        let needs_tc = matches!(kind, Notation::Cutechess | Notation::Emt);
        if needs_tc && periods.is_none() {
            problems.push(format!(
                "{at}: move times but no clock, and no usable TimeControl tag ('{tc_text}') to rebuild the clock from"
            ));
            f.stopped = true;
            continue;
        }
        let (before, spent, after) = match kind {
            Notation::Clk => {
                let after = reading.clk_ms.unwrap_or(0);
                let before = f.clock.or(base).unwrap_or(after);
                let spent = if n == 1 && after == before {
                    0
                } else {
                    before.saturating_add(gain).saturating_sub(after).max(0)
                };
                (before, spent, after)
            }
            Notation::MtTl | Notation::Fastchess => {
                let (spent, after) = if kind == Notation::MtTl {
                    (reading.mt_ms.unwrap_or(0), reading.tl_ms.unwrap_or(0))
                } else {
                    (reading.used_s_ms.unwrap_or(0), reading.tl_s_ms.unwrap_or(0))
                };
                let before = f
                    .clock
                    .unwrap_or_else(|| after.saturating_add(spent).saturating_sub(gain));
                (before, spent, after)
            }
            Notation::MatchPy => {
                let spent = reading.ms_tokens[0];
                let raw = reading.ms_tokens[1];
                let before = f.clock.unwrap_or_else(|| raw.saturating_add(spent));
                (before, spent, raw.saturating_add(gain))
            }
            Notation::Cutechess | Notation::Emt => {
                let spent = reading.used_s_ms.or(reading.emt_ms).unwrap_or(0);
                let before = f.clock.or(base).unwrap_or(0);
                (
                    before,
                    spent,
                    before.saturating_sub(spent).saturating_add(gain),
                )
            }
        };
        notation.get_or_insert(kind);
        f.clock = Some(after);
        f.timed = n;
        players[side].moves.push(MoveTime {
            number,
            ply,
            men,
            moves_to_go: st.moves_to_go,
            increment_ms: st.increment_ms,
            clock_before_ms: before,
            spent_ms: spent,
            clock_after_ms: after,
            p_change,
        });
    }
    // A game with no moves (abandoned before the first) has no clock to read, and is no
    // problem with the file: the replay counts it apart.
    if notation.is_none() && !game.moves.is_empty() {
        problems.push(format!(
            "{label}: no clock record (no [%clk], mt=/tl=, tl= or move times in its {} move comments)",
            game.moves.len()
        ));
    } else if periods.is_none() && notation == Some(Notation::Clk) {
        problems.push(format!(
            "{label}: TimeControl '{tc_text}' unreadable: increments taken as 0"
        ));
    }
    GameRecord {
        index: game.index,
        label,
        result: game.tag("Result").unwrap_or("*").to_string(),
        tc_text,
        periods,
        notation,
        players,
        problems,
        plies: game.moves.len(),
        lost_on_time: lost_on_time(game),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::pgn::parse_str;

    fn one(text: &str) -> GameRecord {
        let games = parse_str(text);
        assert_eq!(games.len(), 1);
        read_game(&games[0])
    }

    fn triples(p: &PlayerRecord) -> Vec<(i64, i64, i64)> {
        p.moves
            .iter()
            .map(|m| (m.clock_before_ms, m.spent_ms, m.clock_after_ms))
            .collect()
    }

    #[test]
    fn control_periods() {
        let p = parse_control("40/9000:300").unwrap_or_default();
        assert_eq!(p.len(), 2);
        assert_eq!(step(&p, 1).moves_to_go, Some(40));
        assert_eq!(step(&p, 40).refill_ms, 300_000);
        assert_eq!(step(&p, 41).moves_to_go, None);
        let r = parse_control("40/60").unwrap_or_default();
        assert_eq!(step(&r, 80).refill_ms, 60_000);
        assert_eq!(step(&r, 81).moves_to_go, Some(40));
        assert_eq!(
            step(&parse_control("300+3").unwrap_or_default(), 7).increment_ms,
            3000
        );
        for bad in ["?", "-", "", "*180", "0.1/move", "x"] {
            assert!(parse_control(bad).is_err(), "{bad}");
        }
    }

    /// `step` as it was, walking a repeating last period one period at a time: the
    /// reference for the closed form.
    fn step_by_walking(periods: &[TimeControl], n: u32) -> Step {
        let mut left = n.max(1);
        let mut i = 0;
        while let Some(p) = periods.get(i) {
            match p.moves {
                Some(m) if m > 0 => {
                    if left <= m {
                        let next = periods.get(i + 1).unwrap_or(p);
                        return Step {
                            increment_ms: p.increment_ms,
                            moves_to_go: Some(m - left + 1),
                            refill_ms: if left == m { next.base_ms } else { 0 },
                        };
                    }
                    left -= m;
                    if i + 1 < periods.len() {
                        i += 1;
                    }
                }
                _ => {
                    return Step {
                        increment_ms: p.increment_ms,
                        moves_to_go: None,
                        refill_ms: 0,
                    };
                }
            }
        }
        Step {
            increment_ms: 0,
            moves_to_go: None,
            refill_ms: 0,
        }
    }

    /// A `[TimeControl "1/1"]` game of 160,000 moves took 9.6 s: each move walked the
    /// periods before it. The closed form gives what the walk gave, on every control shape.
    #[test]
    fn a_repeating_period_is_found_without_walking() {
        for tag in [
            "1/1",
            "2/60",
            "3/60+1",
            "40/9000",
            "40/9000:300",
            "2/60:3/30",
            "2/60:3/30+1",
            "1/5:1/6:2/7",
            "3/60:300+3",
            "300+3",
            "120",
        ] {
            let periods = parse_control(tag).unwrap_or_else(|e| panic!("{tag}: {e}"));
            for n in (0..300).chain([1000, 65_537]) {
                assert_eq!(
                    step(&periods, n),
                    step_by_walking(&periods, n),
                    "{tag} move {n}"
                );
            }
        }
        // The last move a u32 counts (the walk would take 10^8 periods).
        let one = parse_control("1/1").unwrap_or_default();
        assert_eq!(step(&one, u32::MAX).moves_to_go, Some(1));
        assert_eq!(step(&one, u32::MAX).refill_ms, 1000);
        let forty = parse_control("40/9000").unwrap_or_default();
        assert_eq!(step(&forty, u32::MAX).moves_to_go, Some(26));
    }

    /// The moves at the end of a u32's range under `1/1`: microseconds for the closed form,
    /// hours for the walk (4·10^9 periods a move). The minute allowed is for a stalled
    /// machine, not a measurement.
    #[test]
    fn a_move_far_into_a_repeating_control_is_found_at_once() {
        let (done, finished) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let one = parse_control("1/1").unwrap_or_default();
            let found = (u32::MAX - 1000..=u32::MAX)
                .filter(|&n| step(&one, n).moves_to_go == Some(1))
                .count();
            let _ = done.send(found);
        });
        let found = finished.recv_timeout(std::time::Duration::from_secs(60));
        assert_eq!(
            found,
            Ok(1001),
            "1,001 moves of 1/1 not placed within a minute"
        );
    }

    #[test]
    fn lichess_clk() {
        let g = one(
            "[TimeControl \"300+3\"]\n1. e4 { [%clk 0:05:00] } e5 { [%clk 0:05:00] } \
            2. Nf3 { [%clk 0:04:51] } Nc6 { [%clk 0:05:01.5] } 1-0",
        );
        assert_eq!(g.notation, Some(Notation::Clk));
        assert_eq!(
            triples(&g.players[0]),
            [(300_000, 0, 300_000), (300_000, 12_000, 291_000)]
        );
        assert_eq!(triples(&g.players[1])[1], (300_000, 1500, 301_500));
        assert_eq!(g.players[0].moves[1].men, Some(32));
        assert_eq!(g.players[1].moves[1].ply, 3);
    }

    #[test]
    fn tcec_fastchess_cutechess_matchpy() {
        let tcec = one("[TimeControl \"1800+3\"]\n1. e4 {book} e5 {book} \
            2. Nf3 {d=26, mt=102005, tl=1700995, s=1} Nc6 {d=43, mt=127756, tl=1675244}\n\
            3. Bb5 {mt=1000, tl=1702995} *");
        assert_eq!(tcec.notation, Some(Notation::MtTl));
        assert_eq!(
            triples(&tcec.players[0]),
            [
                (1_800_000, 102_005, 1_700_995),
                (1_700_995, 1000, 1_702_995)
            ]
        );
        assert_eq!(tcec.players[0].moves[0].number, 2);
        let fc = one(
            "[TimeControl \"10+0.1\"]\n1. e4 {+0.31/12 0.357s, tl=9.843s, latency=0.002s} \
            1... e5 {-0.20/11 0.500s, tl=9.700s} 1-0",
        );
        assert_eq!(fc.notation, Some(Notation::Fastchess));
        assert_eq!(triples(&fc.players[0]), [(10_100, 357, 9843)]);
        let cc =
            one("[TimeControl \"40/60\"]\n1. e4 {+0.31/12 0.36s} e5 {book} 2. d4 {+0.10/9 1.5s} *");
        assert_eq!(cc.notation, Some(Notation::Cutechess));
        assert_eq!(
            triples(&cc.players[0]),
            [(60_000, 360, 59_640), (59_640, 1500, 58_140)]
        );
        assert_eq!(cc.players[0].moves[1].moves_to_go, Some(39));
        let mp = one(
            "[TimeControl \"10+0.1\"]\n1. e4 {+0.31/14 105ms 9895ms} e5 {-0.1/3 5ms 9995ms} \
            2. d4 {+0.2/9 200ms 9795ms} *",
        );
        assert_eq!(mp.notation, Some(Notation::MatchPy));
        assert_eq!(
            triples(&mp.players[0]),
            [(10_000, 105, 9995), (9995, 200, 9895)]
        );
    }

    #[test]
    fn problems_name_game_and_move() {
        let g = one("[White \"A\"]\n1. e4 {[%clk 0:05:00]} e5 {[%clk 0:0x:00]} 2. Nf3 {nothing} *");
        assert!(g
            .problems
            .iter()
            .any(|p| p.contains("move 1... e5") && p.contains("bad [%clk")));
        assert!(g
            .problems
            .iter()
            .any(|p| p.contains("move 2. Nf3") && p.contains("no clock")));
        let none = one("[White \"A\"]\n1. e4 e5 *");
        assert!(!none.has_clock());
        assert!(
            none.problems[0].contains("no clock record"),
            "{:?}",
            none.problems
        );
        let cc = one("1. e4 {+0.31/12 0.36s} *");
        assert!(cc.problems[0].contains("TimeControl"), "{:?}", cc.problems);
        let illegal = one("[TimeControl \"60+0\"]\n1. e5 {[%clk 0:01:00]} *");
        assert!(illegal.problems[0].contains("not a legal move"));
        assert_eq!(illegal.players[0].moves.len(), 1);
    }

    /// `pchange=` is read beside any clock notation; a value that is not a probability is
    /// a problem named by game and move, and the clock is read on without it.
    #[test]
    fn the_learned_odds_are_read_and_checked() {
        let g = one(
            "[TimeControl \"60+0\"]\n1. e4 {[%clk 0:01:00] pchange=0.125} \
             e5 {+0.1/9 0.5s, tl=59.5s, pchange=1} 2. d4 {[%clk 0:00:59]} *",
        );
        assert!(g.problems.is_empty(), "{:?}", g.problems);
        let odds = |p: &PlayerRecord| p.moves.iter().map(|m| m.p_change).collect::<Vec<_>>();
        assert_eq!(odds(&g.players[0]), [Some(0.125), None]);
        assert_eq!(odds(&g.players[1]), [Some(1.0)]);
        for bad in ["1.5", "-0.1", "x", "NaN", ""] {
            let g = one(&format!(
                "[TimeControl \"60+0\"]\n1. e4 {{[%clk 0:01:00] pchange={bad}}} e5 *"
            ));
            assert!(
                g.problems
                    .iter()
                    .any(|p| p.contains("move 1. e4") && p.contains("bad pchange")),
                "{bad}: {:?}",
                g.problems
            );
            let e4 = &g.players[0].moves;
            assert_eq!(
                (e4.len(), e4[0].p_change, e4[0].clock_before_ms),
                (1, None, 60_000)
            );
        }
    }
}
