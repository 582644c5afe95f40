//! Pure parser for the commands a UCI GUI sends to the engine.
//!
//! One input line in, one [`Parsed`] out: an optional [`Command`] plus a list
//! of human-readable problems found on the way. There is no chess logic here:
//! FEN strings and move strings are passed through as text, and validating
//! them is the engine's job. [`parse`] never panics, whatever the input.
//!
//! # Tokens
//! Tokens are separated by any Unicode whitespace (space, tab, CR, ...).
//! Other control characters (NUL, ESC, ...) and a byte-order mark are also
//! treated as separators; control characters other than whitespace are
//! reported once per line ("control characters treated as spaces").
//!
//! # Leniency
//! Following the UCI spec ("if the engine or the GUI receives an unknown
//! command or token it should just ignore it and try to parse the rest of the
//! string"), unknown tokens before the command are skipped and reported, so
//! `joho debug on` gives `Debug(true)`. Inside a command unknown tokens are
//! skipped and reported too, and the command is still returned when it makes
//! sense. Problems are short, lower-case, and echo offending text with control
//! characters removed, cut to 40 characters plus "…". At most 16 problems are
//! kept per line, followed by one "N more problems omitted".
//!
//! # Decisions
//! * Case: command names and keywords are case-sensitive, as in the spec:
//!   `GO` is an unknown command (the problem then hints that commands are
//!   case-sensitive). Option names, FEN text and moves keep their case.
//! * `register`: Sandglass needs no registration, so `register ...` returns no
//!   command and the problem "register: not needed, ignored".
//! * Numbers out of range in `go` saturate to the type's limit (e.g.
//!   `depth 99999999999` gives `u32::MAX`) and are reported. A value that is
//!   not an integer (or missing) is reported and its key ignored. `+5` is
//!   accepted as 5.
//! * `go`: keys in any order; a repeated key: the last one wins (for
//!   `searchmoves` the last list wins). Negative `wtime`/`btime` are kept and
//!   reported; negative `winc`/`binc` are reported and stored as `Some(0)`;
//!   negative `movestogo`/`depth`/`nodes`/`mate`/`movetime` are reported and
//!   ignored. `depth 0` and `movestogo 0` are kept as given. `searchmoves`
//!   collects move-like tokens (`[a-h][1-8][a-h][1-8][nbrqNBRQ]?` or `0000`)
//!   until the next `go` keyword, skipping and reporting other tokens.
//! * `position`: everything between `fen` and the first `moves` is the FEN
//!   (fields re-joined by single spaces); everything after the first `moves`
//!   is the move list, kept as given. Tokens between `startpos` and `moves`
//!   are reported and ignored.
//! * `setoption`: the name is the words between the first `name` and the
//!   first `value` after it; the value is the rest of the line (both re-joined
//!   by single spaces). `value` with nothing after it gives `Some("")`.
//! * `debug`: the first `on`/`off` after `debug` is used; tokens before it are
//!   reported. Without `on`/`off` there is no command.
//! * Commands without arguments (`uci`, `isready`, ...) report trailing tokens
//!   but are still returned.
//!
//! [`Command`] implements [`std::fmt::Display`], rendering a canonical command
//! line; for every command that [`parse`] returns, parsing its rendering gives
//! the same command back.

use crate::time::GoLimits;
use std::fmt;

/// Echoed offending text is cut to this many characters (plus "…").
const ECHO_MAX_CHARS: usize = 40;
/// At most this many problems are kept per line.
const MAX_PROBLEMS: usize = 16;

/// Where a `position` command starts from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PositionStart {
    /// `position startpos`
    StartPos,
    /// `position fen <fields...>`: the fields re-joined by single spaces.
    Fen(String),
}

/// A command sent by the GUI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `uci`
    Uci,
    /// `isready`
    IsReady,
    /// `ucinewgame`
    UciNewGame,
    /// `position (startpos | fen <fields...>) [moves <m1> <m2> ...]`
    Position {
        start: PositionStart,
        moves: Vec<String>,
    },
    /// `go [keys...]`
    Go(GoParams),
    /// `stop`
    Stop,
    /// `ponderhit`
    PonderHit,
    /// `setoption name <words> [value <words>]`
    SetOption { name: String, value: Option<String> },
    /// `debug on` / `debug off`
    Debug(bool),
    /// `quit`
    Quit,
    /// A blank line; to be ignored silently.
    Empty,
}

/// The parameters of a `go` command. Times are in milliseconds.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GoParams {
    pub wtime: Option<i64>,
    pub btime: Option<i64>,
    pub winc: Option<i64>,
    pub binc: Option<i64>,
    pub movestogo: Option<u32>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub mate: Option<u32>,
    pub movetime: Option<u64>,
    pub infinite: bool,
    pub ponder: bool,
    pub searchmoves: Vec<String>,
}

impl GoParams {
    /// What the time manager needs to know: everything but the search moves.
    pub fn limits(&self) -> GoLimits {
        GoLimits {
            wtime: self.wtime,
            btime: self.btime,
            winc: self.winc,
            binc: self.binc,
            movestogo: self.movestogo,
            depth: self.depth,
            nodes: self.nodes,
            mate: self.mate,
            movetime: self.movetime,
            infinite: self.infinite,
            ponder: self.ponder,
        }
    }
}

/// The result of parsing one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parsed {
    /// The command, or `None` when the line holds no usable command.
    pub command: Option<Command>,
    /// Problems found, in order; empty for a clean line.
    pub problems: Vec<String>,
}

/// Parses one line sent by the GUI. Never panics.
pub fn parse(line: &str) -> Parsed {
    let mut problems = Problems::default();
    let mut saw_control = false;
    let tokens: Vec<&str> = line
        .split(|c: char| {
            let control = c.is_control() && !c.is_whitespace();
            saw_control |= control;
            control || c.is_whitespace() || c == '\u{feff}'
        })
        .filter(|t| !t.is_empty())
        .collect();
    if saw_control {
        problems.push("control characters treated as spaces");
    }

    let command = if tokens.is_empty() {
        Some(Command::Empty)
    } else {
        match tokens
            .iter()
            .enumerate()
            .find_map(|(i, t)| Keyword::from_token(t).map(|k| (i, k)))
        {
            None => {
                problems.push(unknown_command(&tokens));
                None
            }
            Some((i, keyword)) => {
                if i > 0 {
                    problems.push(skipped("", &tokens[..i]));
                }
                parse_command(keyword, &tokens[i + 1..], &mut problems)
            }
        }
    };

    Parsed {
        command,
        problems: problems.finish(),
    }
}

/// The command names of the GUI-to-engine protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Keyword {
    Uci,
    Debug,
    IsReady,
    SetOption,
    Register,
    UciNewGame,
    Position,
    Go,
    Stop,
    PonderHit,
    Quit,
}

impl Keyword {
    fn from_token(token: &str) -> Option<Self> {
        Some(match token {
            "uci" => Self::Uci,
            "debug" => Self::Debug,
            "isready" => Self::IsReady,
            "setoption" => Self::SetOption,
            "register" => Self::Register,
            "ucinewgame" => Self::UciNewGame,
            "position" => Self::Position,
            "go" => Self::Go,
            "stop" => Self::Stop,
            "ponderhit" => Self::PonderHit,
            "quit" => Self::Quit,
            _ => return None,
        })
    }
}

fn parse_command(keyword: Keyword, args: &[&str], problems: &mut Problems) -> Option<Command> {
    match keyword {
        Keyword::Uci => no_args("uci", Command::Uci, args, problems),
        Keyword::IsReady => no_args("isready", Command::IsReady, args, problems),
        Keyword::UciNewGame => no_args("ucinewgame", Command::UciNewGame, args, problems),
        Keyword::Stop => no_args("stop", Command::Stop, args, problems),
        Keyword::PonderHit => no_args("ponderhit", Command::PonderHit, args, problems),
        Keyword::Quit => no_args("quit", Command::Quit, args, problems),
        Keyword::Register => {
            problems.push("register: not needed, ignored");
            None
        }
        Keyword::Debug => parse_debug(args, problems),
        Keyword::SetOption => parse_setoption(args, problems),
        Keyword::Position => parse_position(args, problems),
        Keyword::Go => Some(Command::Go(parse_go(args, problems))),
    }
}

fn no_args(
    name: &str,
    command: Command,
    args: &[&str],
    problems: &mut Problems,
) -> Option<Command> {
    if !args.is_empty() {
        problems.push(format!(
            "{name}: unexpected '{}' ignored",
            echo_tokens(args)
        ));
    }
    Some(command)
}

fn parse_debug(args: &[&str], problems: &mut Problems) -> Option<Command> {
    let Some(i) = args.iter().position(|t| *t == "on" || *t == "off") else {
        problems.push(format!("debug: needs 'on' or 'off', got {}", got(args)));
        return None;
    };
    if i > 0 {
        problems.push(skipped("debug: ", &args[..i]));
    }
    if i + 1 < args.len() {
        problems.push(format!(
            "debug: unexpected '{}' ignored",
            echo_tokens(&args[i + 1..])
        ));
    }
    Some(Command::Debug(args[i] == "on"))
}

fn parse_setoption(args: &[&str], problems: &mut Problems) -> Option<Command> {
    let Some(n) = args.iter().position(|t| *t == "name") else {
        problems.push(format!("setoption: missing 'name', got {}", got(args)));
        return None;
    };
    if n > 0 {
        problems.push(skipped("setoption: ", &args[..n]));
    }
    let rest = &args[n + 1..];
    let (name_words, value) = match rest.iter().position(|t| *t == "value") {
        Some(v) => (&rest[..v], Some(rest[v + 1..].join(" "))),
        None => (rest, None),
    };
    if name_words.is_empty() {
        problems.push("setoption: empty option name");
        return None;
    }
    Some(Command::SetOption {
        name: name_words.join(" "),
        value,
    })
}

fn parse_position(args: &[&str], problems: &mut Problems) -> Option<Command> {
    let Some(s) = args.iter().position(|t| *t == "startpos" || *t == "fen") else {
        problems.push(format!(
            "position: needs 'startpos' or 'fen', got {}",
            got(args)
        ));
        return None;
    };
    if s > 0 {
        problems.push(skipped("position: ", &args[..s]));
    }
    let rest = &args[s + 1..];
    let (body, moves): (&[&str], Vec<String>) = match rest.iter().position(|t| *t == "moves") {
        Some(m) => (
            &rest[..m],
            rest[m + 1..].iter().map(|t| t.to_string()).collect(),
        ),
        None => (rest, Vec::new()),
    };
    let start = if args[s] == "startpos" {
        if !body.is_empty() {
            problems.push(format!(
                "position: unexpected '{}' after 'startpos' ignored",
                echo_tokens(body)
            ));
        }
        PositionStart::StartPos
    } else {
        if body.is_empty() {
            problems.push("position: 'fen' needs the fen fields");
            return None;
        }
        PositionStart::Fen(body.join(" "))
    };
    Some(Command::Position { start, moves })
}

/// The keys of a `go` command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum GoKey {
    Wtime,
    Btime,
    Winc,
    Binc,
    MovesToGo,
    Depth,
    Nodes,
    Mate,
    MoveTime,
    Infinite,
    Ponder,
    SearchMoves,
}

impl GoKey {
    fn from_token(token: &str) -> Option<Self> {
        Some(match token {
            "wtime" => Self::Wtime,
            "btime" => Self::Btime,
            "winc" => Self::Winc,
            "binc" => Self::Binc,
            "movestogo" => Self::MovesToGo,
            "depth" => Self::Depth,
            "nodes" => Self::Nodes,
            "mate" => Self::Mate,
            "movetime" => Self::MoveTime,
            "infinite" => Self::Infinite,
            "ponder" => Self::Ponder,
            "searchmoves" => Self::SearchMoves,
            _ => return None,
        })
    }

    fn name(self) -> &'static str {
        match self {
            Self::Wtime => "wtime",
            Self::Btime => "btime",
            Self::Winc => "winc",
            Self::Binc => "binc",
            Self::MovesToGo => "movestogo",
            Self::Depth => "depth",
            Self::Nodes => "nodes",
            Self::Mate => "mate",
            Self::MoveTime => "movetime",
            Self::Infinite => "infinite",
            Self::Ponder => "ponder",
            Self::SearchMoves => "searchmoves",
        }
    }
}

fn parse_go(args: &[&str], problems: &mut Problems) -> GoParams {
    let mut go = GoParams::default();
    let is_key = |t: &str| GoKey::from_token(t).is_some();
    let mut i = 0;
    while i < args.len() {
        let token = args[i];
        i += 1;
        let Some(key) = GoKey::from_token(token) else {
            problems.push(format!("go: unknown token '{}' skipped", echo(token)));
            continue;
        };
        match key {
            GoKey::Infinite => go.infinite = true,
            GoKey::Ponder => go.ponder = true,
            GoKey::SearchMoves => {
                let mut moves = Vec::new();
                while i < args.len() && !is_key(args[i]) {
                    if looks_like_move(args[i]) {
                        moves.push(args[i].to_string());
                    } else {
                        problems.push(format!(
                            "go: searchmoves: '{}' is not a move, skipped",
                            echo(args[i])
                        ));
                    }
                    i += 1;
                }
                if moves.is_empty() {
                    problems.push("go: 'searchmoves' without moves ignored");
                }
                go.searchmoves = moves;
            }
            _ => {
                // A following keyword is not taken as the value.
                let value = match args.get(i) {
                    Some(t) if !is_key(t) => {
                        i += 1;
                        Some(*t)
                    }
                    _ => None,
                };
                apply_go_value(&mut go, key, value, problems);
            }
        }
    }
    go
}

fn apply_go_value(go: &mut GoParams, key: GoKey, value: Option<&str>, problems: &mut Problems) {
    let name = key.name();
    let u32_max = u64::from(u32::MAX);
    let to_u32 = |v: u64| u32::try_from(v).unwrap_or(u32::MAX);
    match key {
        GoKey::Wtime | GoKey::Btime => {
            if let Some(v) = read_signed(key, value, problems) {
                if v < 0 {
                    problems.push(format!("go: negative {name} {v} (treated as no time left)"));
                }
                if key == GoKey::Wtime {
                    go.wtime = Some(v);
                } else {
                    go.btime = Some(v);
                }
            }
        }
        GoKey::Winc | GoKey::Binc => {
            if let Some(v) = read_signed(key, value, problems) {
                let v = if v < 0 {
                    problems.push(format!("go: negative {name} {v} treated as 0"));
                    0
                } else {
                    v
                };
                if key == GoKey::Winc {
                    go.winc = Some(v);
                } else {
                    go.binc = Some(v);
                }
            }
        }
        GoKey::MovesToGo => {
            if let Some(v) = read_unsigned(key, value, u32_max, problems) {
                go.movestogo = Some(to_u32(v));
            }
        }
        GoKey::Depth => {
            if let Some(v) = read_unsigned(key, value, u32_max, problems) {
                go.depth = Some(to_u32(v));
            }
        }
        GoKey::Mate => {
            if let Some(v) = read_unsigned(key, value, u32_max, problems) {
                go.mate = Some(to_u32(v));
            }
        }
        GoKey::Nodes => {
            if let Some(v) = read_unsigned(key, value, u64::MAX, problems) {
                go.nodes = Some(v);
            }
        }
        GoKey::MoveTime => {
            if let Some(v) = read_unsigned(key, value, u64::MAX, problems) {
                go.movetime = Some(v);
            }
        }
        GoKey::Infinite | GoKey::Ponder | GoKey::SearchMoves => {}
    }
}

/// An integer token, read without ever overflowing.
enum Number {
    /// Fits in a `u64` magnitude. `negative` is false for `-0`.
    Value { negative: bool, magnitude: u64 },
    /// Magnitude beyond `u64::MAX`.
    TooBig { negative: bool },
    /// Not an optionally signed run of ASCII digits.
    Invalid,
}

fn parse_number(token: &str) -> Number {
    let (negative, digits) = match token.as_bytes().first() {
        // The first byte is ASCII, so slicing after it is on a char boundary.
        Some(b'-') => (true, &token[1..]),
        Some(b'+') => (false, &token[1..]),
        _ => (false, token),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Number::Invalid;
    }
    let mut magnitude: u64 = 0;
    for b in digits.bytes() {
        match magnitude
            .checked_mul(10)
            .and_then(|m| m.checked_add(u64::from(b - b'0')))
        {
            Some(m) => magnitude = m,
            None => return Number::TooBig { negative },
        }
    }
    Number::Value {
        negative: negative && magnitude != 0,
        magnitude,
    }
}

/// Reads a signed value; out-of-range values saturate (and are reported).
fn read_signed(key: GoKey, value: Option<&str>, problems: &mut Problems) -> Option<i64> {
    let name = key.name();
    let Some(token) = value else {
        problems.push(format!("go: '{name}' needs an integer, got nothing"));
        return None;
    };
    let clamped = |negative: bool| if negative { i64::MIN } else { i64::MAX };
    match parse_number(token) {
        Number::Invalid => {
            problems.push(format!(
                "go: '{name}' needs an integer, got '{}'",
                echo(token)
            ));
            None
        }
        Number::TooBig { negative } => {
            let v = clamped(negative);
            problems.push(format!(
                "go: {name} {} out of range, clamped to {v}",
                echo(token)
            ));
            Some(v)
        }
        Number::Value {
            negative,
            magnitude,
        } => {
            let wide = if negative {
                -i128::from(magnitude)
            } else {
                i128::from(magnitude)
            };
            match i64::try_from(wide) {
                Ok(v) => Some(v),
                Err(_) => {
                    let v = clamped(negative);
                    problems.push(format!(
                        "go: {name} {} out of range, clamped to {v}",
                        echo(token)
                    ));
                    Some(v)
                }
            }
        }
    }
}

/// Reads a non-negative value up to `max`; larger values saturate to `max`
/// (and are reported), negative ones are reported and ignored.
fn read_unsigned(
    key: GoKey,
    value: Option<&str>,
    max: u64,
    problems: &mut Problems,
) -> Option<u64> {
    let name = key.name();
    let Some(token) = value else {
        problems.push(format!(
            "go: '{name}' needs a non-negative integer, got nothing"
        ));
        return None;
    };
    match parse_number(token) {
        Number::Invalid => {
            problems.push(format!(
                "go: '{name}' needs a non-negative integer, got '{}'",
                echo(token)
            ));
            None
        }
        Number::Value { negative: true, .. } | Number::TooBig { negative: true } => {
            problems.push(format!("go: negative {name} {} ignored", echo(token)));
            None
        }
        Number::Value { magnitude, .. } if magnitude <= max => Some(magnitude),
        Number::Value { .. } | Number::TooBig { .. } => {
            problems.push(format!(
                "go: {name} {} out of range, clamped to {max}",
                echo(token)
            ));
            Some(max)
        }
    }
}

/// `[a-h][1-8][a-h][1-8][nbrqNBRQ]?` or the null move `0000`.
fn looks_like_move(token: &str) -> bool {
    if token == "0000" {
        return true;
    }
    let b = token.as_bytes();
    let square =
        |file: u8, rank: u8| (b'a'..=b'h').contains(&file) && (b'1'..=b'8').contains(&rank);
    match b.len() {
        4 => square(b[0], b[1]) && square(b[2], b[3]),
        5 => square(b[0], b[1]) && square(b[2], b[3]) && b"nbrqNBRQ".contains(&b[4]),
        _ => false,
    }
}

/// Problems of one line, capped at [`MAX_PROBLEMS`].
#[derive(Default)]
struct Problems {
    list: Vec<String>,
    omitted: usize,
}

impl Problems {
    fn push(&mut self, problem: impl Into<String>) {
        if self.list.len() < MAX_PROBLEMS {
            self.list.push(problem.into());
        } else {
            self.omitted += 1;
        }
    }

    fn finish(mut self) -> Vec<String> {
        if self.omitted > 0 {
            self.list
                .push(format!("{} more problems omitted", self.omitted));
        }
        self.list
    }
}

/// Text safe to echo in a problem: no control characters, at most
/// [`ECHO_MAX_CHARS`] characters plus "…".
fn echo(text: &str) -> String {
    let mut out = String::new();
    for (n, c) in text.chars().filter(|c| !c.is_control()).enumerate() {
        if n == ECHO_MAX_CHARS {
            out.push('…');
            break;
        }
        out.push(c);
    }
    out
}

fn echo_tokens(tokens: &[&str]) -> String {
    // Join only as much as can be shown.
    let mut joined = String::new();
    for t in tokens {
        if !joined.is_empty() {
            joined.push(' ');
        }
        joined.push_str(t);
        if joined.len() > ECHO_MAX_CHARS * 4 {
            break;
        }
    }
    echo(&joined)
}

/// "nothing" or the quoted, echoed tokens.
fn got(tokens: &[&str]) -> String {
    if tokens.is_empty() {
        "nothing".to_string()
    } else {
        format!("'{}'", echo_tokens(tokens))
    }
}

fn skipped(prefix: &str, tokens: &[&str]) -> String {
    let plural = if tokens.len() == 1 { "" } else { "s" };
    format!(
        "{prefix}unknown token{plural} '{}' skipped",
        echo_tokens(tokens)
    )
}

fn unknown_command(tokens: &[&str]) -> String {
    let case_hint = tokens
        .iter()
        .any(|t| t.len() <= 10 && Keyword::from_token(&t.to_ascii_lowercase()).is_some());
    let hint = if case_hint {
        " (commands are case-sensitive)"
    } else {
        ""
    };
    format!("unknown command '{}'{hint}", echo_tokens(tokens))
}

impl fmt::Display for Command {
    /// Renders a canonical command line (no trailing newline). `go` keys come
    /// in a fixed order with `searchmoves` last; `Empty` renders as "".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Uci => f.write_str("uci"),
            Command::IsReady => f.write_str("isready"),
            Command::UciNewGame => f.write_str("ucinewgame"),
            Command::Stop => f.write_str("stop"),
            Command::PonderHit => f.write_str("ponderhit"),
            Command::Quit => f.write_str("quit"),
            Command::Empty => Ok(()),
            Command::Debug(on) => f.write_str(if *on { "debug on" } else { "debug off" }),
            Command::SetOption { name, value } => {
                write!(f, "setoption name {name}")?;
                match value {
                    Some(v) if v.is_empty() => f.write_str(" value"),
                    Some(v) => write!(f, " value {v}"),
                    None => Ok(()),
                }
            }
            Command::Position { start, moves } => {
                match start {
                    PositionStart::StartPos => f.write_str("position startpos")?,
                    PositionStart::Fen(fen) => write!(f, "position fen {fen}")?,
                }
                if !moves.is_empty() {
                    f.write_str(" moves")?;
                    for m in moves {
                        write!(f, " {m}")?;
                    }
                }
                Ok(())
            }
            Command::Go(go) => {
                f.write_str("go")?;
                if go.ponder {
                    f.write_str(" ponder")?;
                }
                write_opt(f, "wtime", go.wtime)?;
                write_opt(f, "btime", go.btime)?;
                write_opt(f, "winc", go.winc)?;
                write_opt(f, "binc", go.binc)?;
                write_opt(f, "movestogo", go.movestogo)?;
                write_opt(f, "depth", go.depth)?;
                write_opt(f, "nodes", go.nodes)?;
                write_opt(f, "mate", go.mate)?;
                write_opt(f, "movetime", go.movetime)?;
                if go.infinite {
                    f.write_str(" infinite")?;
                }
                if !go.searchmoves.is_empty() {
                    f.write_str(" searchmoves")?;
                    for m in &go.searchmoves {
                        write!(f, " {m}")?;
                    }
                }
                Ok(())
            }
        }
    }
}

fn write_opt<T: fmt::Display>(f: &mut fmt::Formatter<'_>, key: &str, v: Option<T>) -> fmt::Result {
    match v {
        Some(v) => write!(f, " {key} {v}"),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(line: &str) -> Option<Command> {
        parse(line).command
    }

    fn go(line: &str) -> GoParams {
        match parse(line).command {
            Some(Command::Go(g)) => g,
            other => panic!("{line:?}: expected go, got {other:?}"),
        }
    }

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    fn startpos(moves: &[&str]) -> Command {
        Command::Position {
            start: PositionStart::StartPos,
            moves: strings(moves),
        }
    }

    fn fen(fen: &str, moves: &[&str]) -> Command {
        Command::Position {
            start: PositionStart::Fen(fen.to_string()),
            moves: strings(moves),
        }
    }

    fn opt(name: &str, value: Option<&str>) -> Command {
        Command::SetOption {
            name: name.to_string(),
            value: value.map(str::to_string),
        }
    }

    use crate::rng::Rng;

    const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn simple_commands_are_clean() {
        let cases = [
            ("uci", Command::Uci),
            ("isready", Command::IsReady),
            ("ucinewgame", Command::UciNewGame),
            ("stop", Command::Stop),
            ("ponderhit", Command::PonderHit),
            ("quit", Command::Quit),
            ("debug on", Command::Debug(true)),
            ("debug off", Command::Debug(false)),
            ("go", Command::Go(GoParams::default())),
            ("position startpos", startpos(&[])),
            ("setoption name Hash value 64", opt("Hash", Some("64"))),
            ("", Command::Empty),
            ("   ", Command::Empty),
            (" \t \r", Command::Empty),
            ("\r", Command::Empty),
            ("  isready  ", Command::IsReady),
            ("\tquit\t", Command::Quit),
            ("uci\r", Command::Uci),
            ("uci\r\n", Command::Uci),
        ];
        for (line, expected) in cases {
            let p = parse(line);
            assert_eq!(p.command, Some(expected), "{line:?}");
            assert!(p.problems.is_empty(), "{line:?}: {:?}", p.problems);
        }
    }

    #[test]
    fn trailing_tokens_are_reported_but_command_kept() {
        let cases = [
            ("uci now", Command::Uci, "uci: unexpected 'now' ignored"),
            (
                "isready x y",
                Command::IsReady,
                "isready: unexpected 'x y' ignored",
            ),
            (
                "ucinewgame 1",
                Command::UciNewGame,
                "ucinewgame: unexpected '1' ignored",
            ),
            (
                "stop stop",
                Command::Stop,
                "stop: unexpected 'stop' ignored",
            ),
            (
                "ponderhit e2e4",
                Command::PonderHit,
                "ponderhit: unexpected 'e2e4' ignored",
            ),
            (
                "quit please",
                Command::Quit,
                "quit: unexpected 'please' ignored",
            ),
            (
                "isready go",
                Command::IsReady,
                "isready: unexpected 'go' ignored",
            ),
        ];
        for (line, expected, problem) in cases {
            let p = parse(line);
            assert_eq!(p.command, Some(expected), "{line:?}");
            assert_eq!(p.problems, vec![problem.to_string()], "{line:?}");
        }
    }

    #[test]
    fn unknown_leading_tokens_are_skipped() {
        let p = parse("joho debug on");
        assert_eq!(p.command, Some(Command::Debug(true)));
        assert_eq!(p.problems, vec!["unknown token 'joho' skipped"]);

        let p = parse("foo bar isready");
        assert_eq!(p.command, Some(Command::IsReady));
        assert_eq!(p.problems, vec!["unknown tokens 'foo bar' skipped"]);

        let p = parse("12 go depth 3");
        assert_eq!(
            p.command.unwrap(),
            Command::Go(GoParams {
                depth: Some(3),
                ..Default::default()
            })
        );
        assert_eq!(p.problems.len(), 1);
    }

    #[test]
    fn unknown_commands() {
        let p = parse("xyz");
        assert_eq!(p.command, None);
        assert_eq!(p.problems, vec!["unknown command 'xyz'"]);

        let p = parse("  hello   world ");
        assert_eq!(p.command, None);
        assert_eq!(p.problems, vec!["unknown command 'hello world'"]);

        for line in ["d", "show", "eval", "bench", "perft 5", "\u{fffd}\u{fffd}"] {
            let p = parse(line);
            assert_eq!(p.command, None, "{line:?}");
            assert_eq!(p.problems.len(), 1, "{line:?}");
            assert!(p.problems[0].starts_with("unknown command '"), "{line:?}");
        }
    }

    #[test]
    fn commands_are_case_sensitive() {
        for line in [
            "GO",
            "Go depth 5",
            "UCI",
            "IsReady",
            "QUIT",
            "Position startpos",
            "DEBUG on",
        ] {
            let p = parse(line);
            assert_eq!(p.command, None, "{line:?}");
            assert_eq!(p.problems.len(), 1, "{line:?}");
            assert!(p.problems[0].starts_with("unknown command"), "{line:?}");
            assert!(
                p.problems[0].ends_with("(commands are case-sensitive)"),
                "{line:?}"
            );
        }
        // Keywords inside commands are case-sensitive too.
        assert_eq!(parse("debug ON").command, None);
        assert_eq!(parse("position STARTPOS").command, None);
        assert_eq!(parse("setoption NAME Hash").command, None);
        let p = parse("go DEPTH 5");
        assert_eq!(p.command, Some(Command::Go(GoParams::default())));
        assert_eq!(
            p.problems,
            vec![
                "go: unknown token 'DEPTH' skipped",
                "go: unknown token '5' skipped"
            ]
        );
    }

    #[test]
    fn register_is_not_needed() {
        for line in ["register", "register later", "register name Bob code 42"] {
            let p = parse(line);
            assert_eq!(p.command, None, "{line:?}");
            assert_eq!(
                p.problems,
                vec!["register: not needed, ignored"],
                "{line:?}"
            );
        }
    }

    #[test]
    fn debug_variants() {
        let cases: [(&str, Option<Command>, &[&str]); 8] = [
            ("debug on", Some(Command::Debug(true)), &[]),
            ("debug off", Some(Command::Debug(false)), &[]),
            ("debug", None, &["debug: needs 'on' or 'off', got nothing"]),
            (
                "debug maybe",
                None,
                &["debug: needs 'on' or 'off', got 'maybe'"],
            ),
            (
                "debug joho on",
                Some(Command::Debug(true)),
                &["debug: unknown token 'joho' skipped"],
            ),
            (
                "debug on off",
                Some(Command::Debug(true)),
                &["debug: unexpected 'off' ignored"],
            ),
            ("debug\toff\r", Some(Command::Debug(false)), &[]),
            (
                "debug true",
                None,
                &["debug: needs 'on' or 'off', got 'true'"],
            ),
        ];
        for (line, expected, problems) in cases {
            let p = parse(line);
            assert_eq!(p.command, expected, "{line:?}");
            assert_eq!(p.problems, strings(problems), "{line:?}");
        }
    }

    #[test]
    fn position_variants() {
        let fen1 = "8/8/8/4k3/8/8/8/4K2R w K - 0 1";
        let cases: Vec<(&str, Option<Command>, usize)> = vec![
            ("position startpos", Some(startpos(&[])), 0),
            ("position startpos moves", Some(startpos(&[])), 0),
            ("position startpos moves   ", Some(startpos(&[])), 0),
            ("position startpos moves e2e4", Some(startpos(&["e2e4"])), 0),
            (
                "position startpos moves e2e4 e7e5 g1f3",
                Some(startpos(&["e2e4", "e7e5", "g1f3"])),
                0,
            ),
            (
                "  position   startpos   moves  e2e4\t e7e5 \r",
                Some(startpos(&["e2e4", "e7e5"])),
                0,
            ),
            // Moves are passed through as given, even nonsense.
            (
                "position startpos moves e2e4 xx E7E5 moves",
                Some(startpos(&["e2e4", "xx", "E7E5", "moves"])),
                0,
            ),
            (
                "position fen 8/8/8/4k3/8/8/8/4K2R w K - 0 1",
                Some(fen(fen1, &[])),
                0,
            ),
            (
                "position fen 8/8/8/4k3/8/8/8/4K2R w K - 0 1 moves e1g1",
                Some(fen(fen1, &["e1g1"])),
                0,
            ),
            (
                "position fen 8/8/8/4k3/8/8/8/4K2R   w \t K  -  0   1   moves   e1g1 ",
                Some(fen(fen1, &["e1g1"])),
                0,
            ),
            (
                "position fen 8/8/8/4k3/8/8/8/4K2R w K - 0 1 moves",
                Some(fen(fen1, &[])),
                0,
            ),
            // Short FEN (no counters) is passed through; validation is elsewhere.
            (
                "position fen 8/8/8/8/8/8/8/K6k w - -",
                Some(fen("8/8/8/8/8/8/8/K6k w - -", &[])),
                0,
            ),
            ("position fen garbage", Some(fen("garbage", &[])), 0),
            ("position", None, 1),
            ("position foo", None, 1),
            ("position moves e2e4", None, 1),
            ("position fen", None, 1),
            ("position fen   ", None, 1),
            ("position fen moves e2e4", None, 1),
            (
                "position foo startpos moves e2e4",
                Some(startpos(&["e2e4"])),
                1,
            ),
            ("position startpos e2e4 e7e5", Some(startpos(&[])), 1),
            (
                "position startpos junk moves d2d4",
                Some(startpos(&["d2d4"])),
                1,
            ),
        ];
        for (line, expected, n_problems) in cases {
            let p = parse(line);
            assert_eq!(p.command, expected, "{line:?}");
            assert_eq!(p.problems.len(), n_problems, "{line:?}: {:?}", p.problems);
        }
        assert_eq!(
            parse("position").problems,
            vec!["position: needs 'startpos' or 'fen', got nothing"]
        );
        assert_eq!(
            parse("position foo").problems,
            vec!["position: needs 'startpos' or 'fen', got 'foo'"]
        );
        assert_eq!(
            parse("position fen").problems,
            vec!["position: 'fen' needs the fen fields"]
        );
        assert_eq!(
            parse("position startpos e2e4").problems,
            vec!["position: unexpected 'e2e4' after 'startpos' ignored"]
        );
    }

    #[test]
    fn position_with_standard_fen() {
        let line = format!("position fen {START_FEN} moves e2e4 c7c5");
        assert_eq!(cmd(&line), Some(fen(START_FEN, &["e2e4", "c7c5"])));
    }

    #[test]
    fn position_with_500_moves() {
        let cycle = ["g1f3", "g8f6", "f3g1", "f6g8"];
        let moves: Vec<String> = (0..500).map(|i| cycle[i % 4].to_string()).collect();
        let line = format!("position startpos moves {}", moves.join(" "));
        let p = parse(&line);
        assert!(p.problems.is_empty());
        match p.command {
            Some(Command::Position {
                start: PositionStart::StartPos,
                moves: got,
            }) => assert_eq!(got, moves),
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn setoption_variants() {
        let cases: Vec<(&str, Option<Command>, usize)> = vec![
            (
                "setoption name Hash value 128",
                Some(opt("Hash", Some("128"))),
                0,
            ),
            (
                "setoption name Move Overhead value 100",
                Some(opt("Move Overhead", Some("100"))),
                0,
            ),
            (
                "setoption name Clear Hash",
                Some(opt("Clear Hash", None)),
                0,
            ),
            ("setoption name Hash value", Some(opt("Hash", Some(""))), 0),
            (
                "setoption name Hash value   \r",
                Some(opt("Hash", Some(""))),
                0,
            ),
            (
                "setoption name SyzygyPath value /tb/my tables/x",
                Some(opt("SyzygyPath", Some("/tb/my tables/x"))),
                0,
            ),
            (
                "setoption name  Move \t Overhead   value  1  2 ",
                Some(opt("Move Overhead", Some("1 2"))),
                0,
            ),
            (
                "setoption name hASH value TRUE",
                Some(opt("hASH", Some("TRUE"))),
                0,
            ),
            (
                "setoption name UCI_Chess960 value true",
                Some(opt("UCI_Chess960", Some("true"))),
                0,
            ),
            (
                "setoption name Threads value 2 value 3",
                Some(opt("Threads", Some("2 value 3"))),
                0,
            ),
            (
                "setoption name Größe value ünï",
                Some(opt("Größe", Some("ünï"))),
                0,
            ),
            (
                "setoption foo name Hash value 1",
                Some(opt("Hash", Some("1"))),
                1,
            ),
            ("setoption", None, 1),
            ("setoption Hash 128", None, 1),
            ("setoption name", None, 1),
            ("setoption name value 5", None, 1),
        ];
        for (line, expected, n_problems) in cases {
            let p = parse(line);
            assert_eq!(p.command, expected, "{line:?}");
            assert_eq!(p.problems.len(), n_problems, "{line:?}: {:?}", p.problems);
        }
        assert_eq!(
            parse("setoption").problems,
            vec!["setoption: missing 'name', got nothing"]
        );
        assert_eq!(
            parse("setoption Hash 128").problems,
            vec!["setoption: missing 'name', got 'Hash 128'"]
        );
        assert_eq!(
            parse("setoption name value 5").problems,
            vec!["setoption: empty option name"]
        );
    }

    fn full_go() -> GoParams {
        GoParams {
            wtime: Some(300_000),
            btime: Some(295_500),
            winc: Some(2_000),
            binc: Some(1_000),
            movestogo: Some(40),
            depth: Some(20),
            nodes: Some(1_000_000),
            mate: Some(3),
            movetime: Some(5_000),
            infinite: true,
            ponder: true,
            searchmoves: strings(&["e2e4", "d2d4", "g1f3"]),
        }
    }

    #[test]
    fn go_all_keys_in_shuffled_orders() {
        let mut groups: Vec<Vec<&str>> = vec![
            vec!["wtime", "300000"],
            vec!["btime", "295500"],
            vec!["winc", "2000"],
            vec!["binc", "1000"],
            vec!["movestogo", "40"],
            vec!["depth", "20"],
            vec!["nodes", "1000000"],
            vec!["mate", "3"],
            vec!["movetime", "5000"],
            vec!["infinite"],
            vec!["ponder"],
            vec!["searchmoves", "e2e4", "d2d4", "g1f3"],
        ];
        let expected = full_go();
        let mut rng = Rng::new(0x1234_5678_9abc_def1);
        for _ in 0..200 {
            for i in (1..groups.len()).rev() {
                let j = rng.below(i + 1);
                groups.swap(i, j);
            }
            let line = format!(
                "go {}",
                groups
                    .iter()
                    .map(|g| g.join(" "))
                    .collect::<Vec<_>>()
                    .join(" ")
            );
            let p = parse(&line);
            assert_eq!(p.command, Some(Command::Go(expected.clone())), "{line}");
            assert!(p.problems.is_empty(), "{line}: {:?}", p.problems);
        }
    }

    #[test]
    fn go_typical_gui_lines() {
        let g = go("go wtime 60000 btime 59000 winc 1000 binc 1000");
        assert_eq!(
            (g.wtime, g.btime, g.winc, g.binc),
            (Some(60000), Some(59000), Some(1000), Some(1000))
        );
        assert_eq!(g.movestogo, None);
        assert!(!g.infinite && !g.ponder);

        let g = go("go ponder wtime 1 btime 2 movestogo 5");
        assert!(g.ponder);
        assert_eq!(g.movestogo, Some(5));

        assert!(go("go infinite").infinite);
        assert_eq!(go("go movetime 1000").movetime, Some(1000));
        assert_eq!(go("go nodes 123456789012").nodes, Some(123_456_789_012));
        assert_eq!(go("go mate 7").mate, Some(7));
        assert_eq!(go("go depth 0").depth, Some(0));
        assert_eq!(go("go movestogo 0").movestogo, Some(0));
        assert_eq!(go("go depth +5").depth, Some(5));
        assert_eq!(go("go depth 007").depth, Some(7));
        assert_eq!(go("go wtime -0").wtime, Some(0));
        assert_eq!(go("go\tdepth\t9\r").depth, Some(9));
    }

    #[test]
    fn go_searchmoves() {
        let cases: Vec<(&str, &[&str], usize)> = vec![
            ("go searchmoves e2e4 d2d4", &["e2e4", "d2d4"], 0),
            ("go searchmoves e2e4 d2d4 depth 5", &["e2e4", "d2d4"], 0),
            (
                "go depth 5 searchmoves e7e8q a7a8N h2h1r 0000",
                &["e7e8q", "a7a8N", "h2h1r", "0000"],
                0,
            ),
            ("go searchmoves e2e4 infinite", &["e2e4"], 0),
            ("go searchmoves", &[], 1),
            ("go searchmoves depth 3", &[], 1),
            ("go searchmoves e2e4 foo d2d4", &["e2e4", "d2d4"], 1),
            (
                "go searchmoves e2e4 e2e4x i2i4 e9e4 e2e44 E2E4 d2d4",
                &["e2e4", "d2d4"],
                5,
            ),
            ("go searchmoves e2e4 searchmoves d2d4", &["d2d4"], 0),
        ];
        for (line, expected, n_problems) in cases {
            let p = parse(line);
            match p.command {
                Some(Command::Go(g)) => assert_eq!(g.searchmoves, strings(expected), "{line:?}"),
                other => panic!("{line:?}: {other:?}"),
            }
            assert_eq!(p.problems.len(), n_problems, "{line:?}: {:?}", p.problems);
        }
        assert_eq!(go("go searchmoves e2e4 depth 5").depth, Some(5));
        assert_eq!(
            parse("go searchmoves e2e4 foo").problems,
            vec!["go: searchmoves: 'foo' is not a move, skipped"]
        );
        assert_eq!(
            parse("go searchmoves").problems,
            vec!["go: 'searchmoves' without moves ignored"]
        );
    }

    #[test]
    fn go_bad_values() {
        // (line, resulting params, exact problems)
        let d = GoParams::default;
        let cases: Vec<(&str, GoParams, &[&str])> = vec![
            ("go depth abc", d(), &["go: 'depth' needs a non-negative integer, got 'abc'"]),
            ("go depth", d(), &["go: 'depth' needs a non-negative integer, got nothing"]),
            ("go depth 5.5", d(), &["go: 'depth' needs a non-negative integer, got '5.5'"]),
            ("go depth -", d(), &["go: 'depth' needs a non-negative integer, got '-'"]),
            ("go depth 1e3", d(), &["go: 'depth' needs a non-negative integer, got '1e3'"]),
            ("go depth ５", d(), &["go: 'depth' needs a non-negative integer, got '５'"]),
            ("go wtime abc", d(), &["go: 'wtime' needs an integer, got 'abc'"]),
            ("go wtime", d(), &["go: 'wtime' needs an integer, got nothing"]),
            (
                "go depth infinite",
                GoParams { infinite: true, ..d() },
                &["go: 'depth' needs a non-negative integer, got nothing"],
            ),
            (
                "go wtime btime 5",
                GoParams { btime: Some(5), ..d() },
                &["go: 'wtime' needs an integer, got nothing"],
            ),
            (
                "go wtime -5",
                GoParams { wtime: Some(-5), ..d() },
                &["go: negative wtime -5 (treated as no time left)"],
            ),
            (
                "go btime -1200",
                GoParams { btime: Some(-1200), ..d() },
                &["go: negative btime -1200 (treated as no time left)"],
            ),
            ("go winc -10", GoParams { winc: Some(0), ..d() }, &["go: negative winc -10 treated as 0"]),
            ("go binc -1", GoParams { binc: Some(0), ..d() }, &["go: negative binc -1 treated as 0"]),
            ("go depth -3", d(), &["go: negative depth -3 ignored"]),
            ("go nodes -1", d(), &["go: negative nodes -1 ignored"]),
            ("go movetime -100", d(), &["go: negative movetime -100 ignored"]),
            ("go movestogo -2", d(), &["go: negative movestogo -2 ignored"]),
            ("go mate -1", d(), &["go: negative mate -1 ignored"]),
            (
                "go depth -99999999999999999999",
                d(),
                &["go: negative depth -99999999999999999999 ignored"],
            ),
            (
                "go depth 99999999999",
                GoParams { depth: Some(u32::MAX), ..d() },
                &["go: depth 99999999999 out of range, clamped to 4294967295"],
            ),
            (
                "go movestogo 4294967296",
                GoParams { movestogo: Some(u32::MAX), ..d() },
                &["go: movestogo 4294967296 out of range, clamped to 4294967295"],
            ),
            ("go mate 4294967295", GoParams { mate: Some(u32::MAX), ..d() }, &[]),
            (
                "go nodes 99999999999999999999",
                GoParams { nodes: Some(u64::MAX), ..d() },
                &["go: nodes 99999999999999999999 out of range, clamped to 18446744073709551615"],
            ),
            ("go nodes 18446744073709551615", GoParams { nodes: Some(u64::MAX), ..d() }, &[]),
            (
                "go movetime 18446744073709551616",
                GoParams { movetime: Some(u64::MAX), ..d() },
                &["go: movetime 18446744073709551616 out of range, clamped to 18446744073709551615"],
            ),
            (
                "go wtime 99999999999999999999",
                GoParams { wtime: Some(i64::MAX), ..d() },
                &["go: wtime 99999999999999999999 out of range, clamped to 9223372036854775807"],
            ),
            (
                "go wtime 9223372036854775808",
                GoParams { wtime: Some(i64::MAX), ..d() },
                &["go: wtime 9223372036854775808 out of range, clamped to 9223372036854775807"],
            ),
            ("go wtime -9223372036854775808", GoParams { wtime: Some(i64::MIN), ..d() }, &[
                "go: negative wtime -9223372036854775808 (treated as no time left)",
            ]),
            (
                "go btime -9223372036854775809",
                GoParams { btime: Some(i64::MIN), ..d() },
                &[
                    "go: btime -9223372036854775809 out of range, clamped to -9223372036854775808",
                    "go: negative btime -9223372036854775808 (treated as no time left)",
                ],
            ),
            (
                "go winc 99999999999999999999",
                GoParams { winc: Some(i64::MAX), ..d() },
                &["go: winc 99999999999999999999 out of range, clamped to 9223372036854775807"],
            ),
            ("go foo", d(), &["go: unknown token 'foo' skipped"]),
            (
                "go depth 5 depth 7",
                GoParams { depth: Some(7), ..d() },
                &[],
            ),
            (
                "go depth 5 depth x",
                GoParams { depth: Some(5), ..d() },
                &["go: 'depth' needs a non-negative integer, got 'x'"],
            ),
            (
                "go wtime 100 wtime 200 infinite infinite",
                GoParams { wtime: Some(200), infinite: true, ..d() },
                &[],
            ),
            (
                "go movetime 1000 e2e4",
                GoParams { movetime: Some(1000), ..d() },
                &["go: unknown token 'e2e4' skipped"],
            ),
        ];
        for (line, expected, problems) in cases {
            let p = parse(line);
            assert_eq!(p.command, Some(Command::Go(expected)), "{line:?}");
            assert_eq!(p.problems, strings(problems), "{line:?}");
        }
    }

    #[test]
    fn go_huge_number_is_echoed_short() {
        let digits = "9".repeat(10_000);
        let p = parse(&format!("go nodes {digits}"));
        assert_eq!(go(&format!("go nodes {digits}")).nodes, Some(u64::MAX));
        assert_eq!(p.problems.len(), 1);
        assert!(p.problems[0].chars().count() < 120, "{}", p.problems[0]);
        assert!(p.problems[0].contains('…'));
    }

    #[test]
    fn nul_and_control_characters() {
        let p = parse("isready\0");
        assert_eq!(p.command, Some(Command::IsReady));
        assert_eq!(p.problems, vec!["control characters treated as spaces"]);

        let p = parse("\0\0\0");
        assert_eq!(p.command, Some(Command::Empty));
        assert_eq!(p.problems, vec!["control characters treated as spaces"]);

        let p = parse("go\0depth\x015\x1b");
        assert_eq!(
            p.command,
            Some(Command::Go(GoParams {
                depth: Some(5),
                ..Default::default()
            }))
        );
        assert_eq!(p.problems.len(), 1);

        let p = parse("x\0y\x07z");
        assert_eq!(p.command, None);
        for problem in &p.problems {
            assert!(!problem.chars().any(char::is_control), "{problem:?}");
        }

        let p = parse("position startpos moves e2e4\0e7e5");
        assert_eq!(p.command, Some(startpos(&["e2e4", "e7e5"])));
    }

    #[test]
    fn crlf_tabs_and_odd_whitespace() {
        let cases = [
            ("position startpos moves e2e4\r", startpos(&["e2e4"])),
            ("position startpos moves e2e4\r\n", startpos(&["e2e4"])),
            (
                "position\tstartpos\tmoves\te2e4\te7e5",
                startpos(&["e2e4", "e7e5"]),
            ),
            ("\u{feff}uci", Command::Uci),
            ("\u{a0}isready\u{2003}", Command::IsReady),
            ("setoption name Hash value 16\r", opt("Hash", Some("16"))),
            ("debug on\r\r\r", Command::Debug(true)),
        ];
        for (line, expected) in cases {
            let p = parse(line);
            assert_eq!(p.command, Some(expected), "{line:?}");
            assert!(p.problems.is_empty(), "{line:?}: {:?}", p.problems);
        }
    }

    #[test]
    fn unicode_is_echoed_safely() {
        let p = parse("göü debug on");
        assert_eq!(p.command, Some(Command::Debug(true)));
        assert_eq!(p.problems, vec!["unknown token 'göü' skipped"]);

        let long = "é".repeat(100);
        let p = parse(&long);
        assert_eq!(
            p.problems,
            vec![format!("unknown command '{}…'", "é".repeat(40))]
        );

        let emoji = "♞🐴".repeat(50);
        let p = parse(&format!("go {emoji}"));
        assert_eq!(
            p.problems,
            vec![format!("go: unknown token '{}…' skipped", "♞🐴".repeat(20))]
        );
    }

    #[test]
    fn ten_kilobyte_lines() {
        // One 10 kB garbage token.
        let p = parse(&"x".repeat(10_240));
        assert_eq!(p.command, None);
        assert_eq!(p.problems.len(), 1);
        assert!(p.problems[0].chars().count() < 80);

        // Thousands of garbage tokens before a command.
        let line = format!("{} isready", "junk ".repeat(2_500));
        let p = parse(&line);
        assert_eq!(p.command, Some(Command::IsReady));
        assert_eq!(p.problems.len(), 1);
        assert!(p.problems[0].chars().count() < 80);

        // Thousands of garbage tokens inside go: problems are capped.
        let line = format!("go depth 4 {}", "?? ".repeat(4_000));
        let p = parse(&line);
        assert_eq!(
            p.command,
            Some(Command::Go(GoParams {
                depth: Some(4),
                ..Default::default()
            }))
        );
        assert_eq!(p.problems.len(), MAX_PROBLEMS + 1);
        assert_eq!(
            p.problems.last().unwrap(),
            &format!("{} more problems omitted", 4_000 - MAX_PROBLEMS)
        );

        // A long searchmoves list.
        let line = format!("go searchmoves {}", "e2e4 ".repeat(2_000));
        assert!(line.len() > 10_000);
        assert_eq!(go(&line).searchmoves.len(), 2_000);

        // A long setoption value.
        let value = "v".repeat(12_000);
        assert_eq!(
            cmd(&format!("setoption name Path value {value}")),
            Some(opt("Path", Some(&value)))
        );

        // A long trailing junk after a simple command.
        let p = parse(&format!("quit {}", "z".repeat(10_000)));
        assert_eq!(p.command, Some(Command::Quit));
        assert!(p.problems[0].chars().count() < 80);
    }

    #[test]
    fn display_renders_canonical_lines() {
        let cases = [
            (Command::Uci, "uci"),
            (Command::IsReady, "isready"),
            (Command::UciNewGame, "ucinewgame"),
            (Command::Stop, "stop"),
            (Command::PonderHit, "ponderhit"),
            (Command::Quit, "quit"),
            (Command::Empty, ""),
            (Command::Debug(true), "debug on"),
            (Command::Debug(false), "debug off"),
            (startpos(&[]), "position startpos"),
            (
                startpos(&["e2e4", "e7e5"]),
                "position startpos moves e2e4 e7e5",
            ),
            (
                fen("8/8/8/8/8/8/8/K6k w - - 0 1", &["a1a2"]),
                "position fen 8/8/8/8/8/8/8/K6k w - - 0 1 moves a1a2",
            ),
            (opt("Clear Hash", None), "setoption name Clear Hash"),
            (opt("Hash", Some("")), "setoption name Hash value"),
            (
                opt("Move Overhead", Some("30")),
                "setoption name Move Overhead value 30",
            ),
            (Command::Go(GoParams::default()), "go"),
            (
                Command::Go(full_go()),
                "go ponder wtime 300000 btime 295500 winc 2000 binc 1000 movestogo 40 depth 20 \
                 nodes 1000000 mate 3 movetime 5000 infinite searchmoves e2e4 d2d4 g1f3",
            ),
            (
                Command::Go(GoParams {
                    wtime: Some(-5),
                    ..Default::default()
                }),
                "go wtime -5",
            ),
        ];
        for (command, line) in cases {
            assert_eq!(command.to_string(), line);
        }
    }

    #[test]
    fn display_round_trips() {
        let commands = vec![
            Command::Uci,
            Command::IsReady,
            Command::UciNewGame,
            Command::Stop,
            Command::PonderHit,
            Command::Quit,
            Command::Empty,
            Command::Debug(true),
            Command::Debug(false),
            startpos(&[]),
            startpos(&["e2e4", "e7e5", "g1f3", "b8c6", "e1g1"]),
            fen(START_FEN, &[]),
            fen(START_FEN, &["e2e4", "e7e8q"]),
            opt("Hash", Some("256")),
            opt("Hash", Some("")),
            opt("Clear Hash", None),
            opt("Move Overhead", Some("100")),
            opt("SyzygyPath", Some("/a b/c d")),
            Command::Go(GoParams::default()),
            Command::Go(full_go()),
            Command::Go(GoParams {
                infinite: true,
                ..Default::default()
            }),
            Command::Go(GoParams {
                ponder: true,
                wtime: Some(-100),
                btime: Some(0),
                ..Default::default()
            }),
            Command::Go(GoParams {
                wtime: Some(i64::MIN),
                btime: Some(i64::MAX),
                nodes: Some(u64::MAX),
                depth: Some(u32::MAX),
                movetime: Some(0),
                ..Default::default()
            }),
            Command::Go(GoParams {
                searchmoves: strings(&["a7a8N", "0000"]),
                ..Default::default()
            }),
        ];
        for command in commands {
            let line = command.to_string();
            assert_eq!(parse(&line).command, Some(command), "{line:?}");
        }
    }

    fn check_invariants(line: &str) {
        let p = parse(line);
        assert!(p.problems.len() <= MAX_PROBLEMS + 1, "{line:?}");
        for problem in &p.problems {
            assert!(problem.chars().count() <= 200, "{line:?}: {problem:?}");
            assert!(
                !problem.chars().any(char::is_control),
                "{line:?}: {problem:?}"
            );
        }
        if let Some(command) = p.command {
            let rendered = command.to_string();
            assert!(!rendered.chars().any(char::is_control), "{line:?}");
            assert_eq!(
                parse(&rendered).command,
                Some(command),
                "{line:?} -> {rendered:?}"
            );
        }
    }

    #[test]
    fn fuzz_random_bytes_never_panic() {
        let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
        for _ in 0..10_000 {
            let len = rng.below(120);
            let bytes: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
            check_invariants(&String::from_utf8_lossy(&bytes));
        }
    }

    #[test]
    fn fuzz_token_soup_never_panics() {
        let vocab = [
            "uci",
            "isready",
            "ucinewgame",
            "position",
            "startpos",
            "fen",
            "moves",
            "go",
            "stop",
            "ponderhit",
            "setoption",
            "name",
            "value",
            "debug",
            "on",
            "off",
            "quit",
            "register",
            "wtime",
            "btime",
            "winc",
            "binc",
            "movestogo",
            "depth",
            "nodes",
            "mate",
            "movetime",
            "infinite",
            "ponder",
            "searchmoves",
            "e2e4",
            "e7e8q",
            "0000",
            "a1h8",
            "0",
            "-1",
            "+7",
            "42",
            "-0",
            "99999999999999999999",
            "-99999999999999999999",
            "4294967296",
            "9223372036854775808",
            "abc",
            "é",
            "🐴",
            "\u{fffd}",
            "GO",
            "Hash",
            "8/8/8/8/8/8/8/8",
            "w",
            "-",
            "\0",
            "x\u{1}y",
        ];
        let seps = [" ", "  ", "\t", "\r", " \r\n", "\0", "\u{feff}", "\u{a0}"];
        let mut rng = Rng::new(0xdead_beef_cafe_f00d);
        for _ in 0..10_000 {
            let n = rng.below(16);
            let mut line = String::new();
            for _ in 0..n {
                line.push_str(seps[rng.below(seps.len())]);
                line.push_str(vocab[rng.below(vocab.len())]);
            }
            if rng.below(2) == 0 {
                line.push('\r');
            }
            check_invariants(&line);
        }
    }
}
