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
//!   not an integer (or missing) is reported and its key ignored, and
//!   `limits.unreadable` is set (an unknown token in `go` sets it too), so the
//!   time manager bounds the search. `+5` is accepted as 5. Times (`wtime`,
//!   `btime`, `winc`, `binc`, `movetime`) are milliseconds and may carry a
//!   decimal fraction, which is dropped: `wtime 1000.5` is 1000.
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
//! the same command back, except that `limits.unreadable` of a `go` comes back
//! false: a rendering holds only the limits that could be read.

mod go;
mod numbers;

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
    /// `uci`: the GUI asks for the engine's name and options, answered by `uciok`.
    Uci,
    /// `isready`: answered with `readyok` at once, even during a search.
    IsReady,
    /// `ucinewgame`: the next position is from another game; forget what this one taught.
    UciNewGame,
    /// `position (startpos | fen <fields...>) [moves <m1> <m2> ...]`
    Position {
        start: PositionStart,
        moves: Vec<String>,
    },
    /// `go [keys...]`: start searching the last position sent, within the given limits.
    Go(GoParams),
    /// `stop`: end the search now and answer `bestmove`.
    Stop,
    /// `ponderhit`: the opponent played the move we pondered on; our clock starts now.
    PonderHit,
    /// `setoption name <words> [value <words>]`
    SetOption { name: String, value: Option<String> },
    /// `debug on` / `debug off`
    Debug(bool),
    /// `quit`: stop at once and exit, with no further output.
    Quit,
    /// A blank line; to be ignored silently.
    Empty,
}

/// The parameters of a `go` command. The limits are kept in the time manager's own type, so
/// the engine hands them over as parsed; the search moves stay text, since only the engine
/// can check them against the position.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GoParams {
    /// `unreadable` included: a `go` with a limit that could not be read is searched for a
    /// bounded time, so it is a different command from the same line without that limit.
    pub limits: GoLimits,
    pub searchmoves: Vec<String>,
}

/// The result of parsing one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parsed {
    /// The command, or `None` when the line holds no usable command.
    pub command: Option<Command>,
    /// Problems found, in order; empty for a clean line.
    pub problems: Vec<String>,
    /// The line was a `position` command too broken to give one: the engine must not keep
    /// searching the previous position as if the GUI had not moved on.
    pub position_rejected: bool,
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

    let mut position_rejected = false;
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
                let command = parse_command(keyword, &tokens[i + 1..], &mut problems);
                position_rejected = keyword == Keyword::Position && command.is_none();
                command
            }
        }
    };

    Parsed {
        command,
        problems: problems.finish(),
        position_rejected,
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
        Keyword::Go => Some(Command::Go(go::parse_go(args, problems))),
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

/// Text safe to echo in a problem or any other message about input: no control
/// characters, at most `ECHO_MAX_CHARS` characters plus "…".
pub fn echo(text: &str) -> String {
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
            Command::Go(GoParams {
                limits: go,
                searchmoves,
            }) => {
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
                if !searchmoves.is_empty() {
                    f.write_str(" searchmoves")?;
                    for m in searchmoves {
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
mod tests;
