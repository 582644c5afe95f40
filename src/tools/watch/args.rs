//! `sandglass watch`'s command line, and what it makes of it before anything starts.

use crate::position::Position;
use crate::tools::selfplay::read_book;
use crate::tools::tm::{parse_tc, TimeControl};
use std::path::PathBuf;
use std::time::Duration;

/// Arguments of `sandglass watch`.
#[derive(clap::Args, Debug, Clone)]
pub struct WatchArgs {
    /// Time control in seconds: B+I (60+0.6), B (300), M/B (40/30) or M/B+I. For a lesson,
    /// one that lasts it: 180+2, or 40/300.
    #[arg(long, default_value = "180+2")]
    pub tc: String,
    /// White's time strategy, when White is Sandglass (the TimeManager option).
    #[arg(long, default_value = "expositor", value_name = "STRATEGY")]
    pub white: String,
    /// Black's time strategy, when Black is Sandglass.
    #[arg(long, default_value = "expositor", value_name = "STRATEGY")]
    pub black: String,
    /// White is this UCI program instead of Sandglass: the program and its arguments,
    /// separated by spaces, quoted as a shell quotes them on Linux and macOS ("/opt/my
    /// engine/run" --uci) and as Windows programs do on Windows ("C:\Program Files\sf\sf.exe"
    /// --uci; a backslash stays a backslash).
    #[arg(long, value_name = "COMMAND", conflicts_with = "white")]
    pub white_cmd: Option<String>,
    /// Black is this UCI program instead of Sandglass, e.g. /usr/games/stockfish or
    /// C:\Engines\sf.exe (quoted as for --white-cmd).
    #[arg(long, value_name = "COMMAND", conflicts_with = "black")]
    pub black_cmd: Option<String>,
    /// A UCI option for White, as NAME=VALUE (repeat for more): Sandglass's
    /// ("Soft Stop=predicted", "Slow Mover=120") or the program's.
    #[arg(long, value_name = "NAME=VALUE")]
    pub white_option: Vec<String>,
    /// A UCI option for Black, as NAME=VALUE (repeat for more).
    #[arg(long, value_name = "NAME=VALUE")]
    pub black_option: Vec<String>,
    /// Start from this position (FEN) instead of the usual start.
    #[arg(long, conflicts_with = "book")]
    pub fen: Option<String>,
    /// Start from a line of this opening book: one FEN or EPD a line, as `selfplay --book`.
    #[arg(long, value_name = "FILE")]
    pub book: Option<PathBuf>,
    /// With --book: which of its usable lines (1 = the first).
    #[arg(long, requires = "book", value_name = "N")]
    pub line: Option<usize>,
    /// The page's port; 0 takes any free port. The address is printed.
    #[arg(long, default_value_t = 8089)]
    pub port: u16,
    /// The address to listen on. The default, 127.0.0.1, serves this computer only; any
    /// other shows the game, and its pause button, to the network.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Seconds to hold after each move before the next one starts, for teaching (the clocks
    /// do not run meanwhile; the page can change it).
    #[arg(long, default_value_t = 0.0, value_name = "SECONDS")]
    pub hold: f64,
    /// Start the game at once, rather than when the first page connects.
    #[arg(long)]
    pub no_wait: bool,
    /// Where to write the game at the end: PATH.html (the page) and PATH.pgn (the game, with
    /// the clocks that `tm --pgn` replays).
    #[arg(long, default_value = "watch", value_name = "PATH")]
    pub save: PathBuf,
    /// Seconds the page stays served after the game ends.
    #[arg(long, default_value_t = 5.0, value_name = "SECONDS")]
    pub linger: f64,
    /// Seconds another UCI program has to answer `uci` with `uciok` (and `isready`).
    #[arg(long, default_value_t = 10.0, value_name = "SECONDS")]
    pub uci_timeout: f64,
}

/// Who plays one side.
#[derive(Clone, Debug, PartialEq)]
pub enum Seat {
    /// Sandglass in this process, with this time strategy.
    Sandglass(String),
    /// Another UCI program, by its command.
    Program(String),
}

/// The command line, checked.
#[derive(Clone, Debug)]
pub struct Plan {
    pub tc: TimeControl,
    pub start: Position,
    pub seats: [Seat; 2],
    pub options: [Vec<(String, String)>; 2],
    pub hold_ms: u64,
    pub linger: Duration,
    pub uci_timeout: Duration,
    pub html: PathBuf,
    pub pgn: PathBuf,
}

/// Seconds given on the command line, within `range`.
fn seconds(what: &str, v: f64, max: f64) -> Result<Duration, String> {
    if !(v.is_finite() && (0.0..=max).contains(&v)) {
        return Err(format!(
            "{what} must be between 0 and {max} seconds (got {v})"
        ));
    }
    Ok(Duration::from_secs_f64(v))
}

/// `NAME=VALUE` options.
fn options(flag: &str, given: &[String]) -> Result<Vec<(String, String)>, String> {
    given
        .iter()
        .map(|o| match o.split_once('=') {
            Some((n, v)) if !n.trim().is_empty() => {
                Ok((n.trim().to_string(), v.trim().to_string()))
            }
            _ => Err(format!(
                "{flag} '{o}': expected NAME=VALUE, e.g. \"Soft Stop=predicted\""
            )),
        })
        .collect()
}

/// `path` with `.ext` added (not replacing what follows a dot in its name).
fn with_ext(path: &std::path::Path, ext: &str) -> PathBuf {
    let mut s = path.as_os_str().to_os_string();
    s.push(".");
    s.push(ext);
    PathBuf::from(s)
}

impl WatchArgs {
    /// Check everything that can be checked before the server and the players start.
    pub fn plan(&self) -> Result<Plan, String> {
        let tc = parse_tc(&self.tc).map_err(|e| format!("--tc: {e}"))?;
        let start = match (&self.fen, &self.book) {
            (Some(fen), _) => {
                let pos = Position::from_any_fen(fen).map_err(|e| format!("--fen: {e}"))?;
                if pos.legal_moves().is_empty() {
                    return Err("--fen: the game is already over in this position".to_string());
                }
                pos
            }
            (None, Some(book)) => {
                let lines = read_book(book)?;
                let n = self.line.unwrap_or(1);
                if n == 0 || n > lines.len() {
                    return Err(format!(
                        "--line {n}: {} has usable lines 1 to {}",
                        book.display(),
                        lines.len()
                    ));
                }
                lines[n - 1].clone()
            }
            (None, None) => Position::startpos(),
        };
        for (flag, cmd) in [
            ("--white-cmd", &self.white_cmd),
            ("--black-cmd", &self.black_cmd),
        ] {
            if let Some(c) = cmd {
                split_command(c).map_err(|e| format!("{flag} {c}: {e}"))?;
            }
        }
        let seat = |cmd: &Option<String>, strategy: &str| match cmd {
            Some(c) => Seat::Program(c.clone()),
            None => Seat::Sandglass(strategy.to_string()),
        };
        let hold = seconds("--hold", self.hold, 60.0)?;
        let parent = self
            .save
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(std::path::Path::new("."));
        if !parent.is_dir() {
            return Err(format!(
                "--save {}: the folder {} does not exist",
                self.save.display(),
                parent.display()
            ));
        }
        Ok(Plan {
            tc,
            start,
            seats: [
                seat(&self.white_cmd, &self.white),
                seat(&self.black_cmd, &self.black),
            ],
            options: [
                options("--white-option", &self.white_option)?,
                options("--black-option", &self.black_option)?,
            ],
            hold_ms: hold.as_millis() as u64,
            linger: seconds("--linger", self.linger, 3600.0)?,
            uci_timeout: seconds("--uci-timeout", self.uci_timeout, 600.0)?
                .max(Duration::from_millis(1)),
            html: with_ext(&self.save, "html"),
            pgn: with_ext(&self.save, "pgn"),
        })
    }
}

/// How a command line is split into words: as the platform's own programs split theirs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Quoting {
    /// As a POSIX shell splits words (no variables, globs or redirections): at unquoted
    /// whitespace; '…' keeps everything inside as it is, "…" too except that \" and \\
    /// stand for " and \; outside quotes \ keeps the next character.
    Posix,
    /// As Windows programs split theirs (the Microsoft C runtime's rules): at unquoted spaces
    /// and tabs; "…" groups, and "" inside it is a literal "; a backslash is
    /// literal except before a ", where 2n backslashes give n and the quote groups, and 2n+1
    /// give n and a literal ". So `C:\Engines\sf.exe` needs no quoting.
    Windows,
}

impl Quoting {
    /// This platform's convention: a path the user copies from its file manager or shell
    /// splits as they expect.
    pub const NATIVE: Quoting = if cfg!(windows) {
        Quoting::Windows
    } else {
        Quoting::Posix
    };
}

/// A program and its arguments from one command line, split by the platform's convention
/// ([`Quoting::NATIVE`]), so that a path with a space can be given, as GUIs allow. A quote
/// left open is an error, not a guess.
pub fn split_command(command: &str) -> Result<Vec<String>, String> {
    split_with(command, Quoting::NATIVE)
}

/// [`split_command`] by the given convention.
pub fn split_with(command: &str, quoting: Quoting) -> Result<Vec<String>, String> {
    let words = match quoting {
        Quoting::Posix => split_posix(command)?,
        Quoting::Windows => split_windows(command)?,
    };
    if words.is_empty() {
        return Err("no command given".to_string());
    }
    Ok(words)
}

fn split_posix(command: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = command.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => words.extend(word.take()),
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => w.push(c),
                        None => return Err("a ' is not closed".to_string()),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(e @ ('"' | '\\')) => w.push(e),
                            Some(other) => {
                                w.push('\\');
                                w.push(other);
                            }
                            None => return Err("a \" is not closed".to_string()),
                        },
                        Some(c) => w.push(c),
                        None => return Err("a \" is not closed".to_string()),
                    }
                }
            }
            '\\' => match chars.next() {
                Some(e) => word.get_or_insert_with(String::new).push(e),
                None => return Err("it ends with a lone \\".to_string()),
            },
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    Ok(words)
}

fn split_windows(command: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quoted = false;
    let mut chars = command.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' if !quoted => words.extend(word.take()),
            '\\' => {
                let mut n = 1;
                while chars.next_if_eq(&'\\').is_some() {
                    n += 1;
                }
                let w = word.get_or_insert_with(String::new);
                if chars.peek() == Some(&'"') {
                    w.extend(std::iter::repeat_n('\\', n / 2));
                    if n % 2 == 1 {
                        chars.next();
                        w.push('"');
                    }
                } else {
                    w.extend(std::iter::repeat_n('\\', n));
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                if quoted && chars.next_if_eq(&'"').is_some() {
                    w.push('"');
                } else {
                    quoted = !quoted;
                }
            }
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    if quoted {
        return Err("a \" is not closed".to_string());
    }
    words.extend(word);
    Ok(words)
}

/// A time control in words: "60 s + 0.6 s a move", "40 moves in 30 s, repeating".
pub fn tc_words(tc: &TimeControl) -> String {
    let s = |ms: i64| crate::tools::tm::trim_number(ms as f64 / 1000.0);
    let base = match tc.moves {
        Some(m) => format!("{m} moves in {} s, repeating", s(tc.base_ms)),
        None => format!("{} s", s(tc.base_ms)),
    };
    if tc.increment_ms > 0 {
        format!("{base}, + {} s a move", s(tc.increment_ms))
    } else {
        base
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(clap::Parser)]
    struct Cli {
        #[command(flatten)]
        args: WatchArgs,
    }

    fn args(line: &[&str]) -> Result<WatchArgs, String> {
        Cli::try_parse_from([&["watch"], line].concat())
            .map(|c| c.args)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn the_defaults_play_sandglass_against_itself_on_loopback() {
        let a = args(&[]).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(a.host, "127.0.0.1");
        let p = a.plan().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(p.seats[0], Seat::Sandglass("expositor".into()));
        assert_eq!(p.html, PathBuf::from("watch.html"));
        assert_eq!(p.pgn, PathBuf::from("watch.pgn"));
        assert_eq!(tc_words(&p.tc), "180 s, + 2 s a move");
    }

    #[test]
    fn players_options_and_openings() {
        let a = args(&[
            "--white",
            "classic",
            "--black-cmd",
            "/usr/games/stockfish",
            "--white-option",
            "Soft Stop=predicted",
            "--tc",
            "40/30",
            "--fen",
            "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
            "--save",
            "game.v2",
        ])
        .unwrap_or_else(|e| panic!("{e}"));
        let p = a.plan().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(p.seats[1], Seat::Program("/usr/games/stockfish".into()));
        assert_eq!(
            p.options[0],
            [("Soft Stop".to_string(), "predicted".to_string())]
        );
        assert_eq!(tc_words(&p.tc), "40 moves in 30 s, repeating");
        assert_eq!(p.start.men(), 9);
        assert_eq!(p.pgn, PathBuf::from("game.v2.pgn"));
        assert!(args(&["--black", "classic", "--black-cmd", "x"]).is_err());
        assert!(args(&["--line", "2"]).is_err(), "--line needs --book");
    }

    #[test]
    fn bad_values_are_named() {
        for (line, words) in [
            (vec!["--tc", "abc"], "--tc"),
            (vec!["--fen", "8/8/8 w"], "--fen"),
            (vec!["--hold=-1"], "--hold"),
            (vec!["--linger", "nan"], "--linger"),
            (vec!["--white-option", "Hash"], "NAME=VALUE"),
            (vec!["--save", "no/such/folder/x"], "does not exist"),
            (
                vec!["--white-cmd", "\"open"],
                "--white-cmd \"open: a \" is not closed",
            ),
            (
                vec!["--black-cmd", "   "],
                "--black-cmd    : no command given",
            ),
        ] {
            let e = args(&line)
                .and_then(|a| a.plan().map(|_| ()))
                .err()
                .unwrap_or_default();
            assert!(e.contains(words), "{line:?}: {e}");
        }
    }

    fn words(w: &[&str]) -> Result<Vec<String>, String> {
        Ok(w.iter().map(|s| s.to_string()).collect())
    }

    /// On Linux and macOS a command line splits as a shell splits it, so a path with a space
    /// can be given; a quote left open is an error, not a guess.
    #[test]
    fn a_command_splits_as_a_shell_splits_it() {
        let split = |c: &str| split_with(c, Quoting::Posix);
        assert_eq!(
            split("/usr/games/stockfish"),
            words(&["/usr/games/stockfish"])
        );
        assert_eq!(split("  eng   --uci  "), words(&["eng", "--uci"]));
        assert_eq!(
            split(r#""/opt/my engine/run" --threads 1"#),
            words(&["/opt/my engine/run", "--threads", "1"])
        );
        assert_eq!(
            split(r"/opt/my\ engine/run"),
            words(&["/opt/my engine/run"])
        );
        assert_eq!(split(r#"'a "b"' c'd'e"#), words(&[r#"a "b""#, "cde"]));
        assert_eq!(split(r#""say \"hi\" \\ \n""#), words(&[r#"say "hi" \ \n"#]));
        assert_eq!(split("x ''"), words(&["x", ""]));
        // Unquoted, a Windows path loses its backslashes here, as it does in a shell.
        assert_eq!(split(r"C:\Engines\sf.exe"), words(&["C:Enginessf.exe"]));
        for bad in ["", "   ", "'open", r#""open"#, r#""a \"#, "end\\"] {
            assert!(split(bad).is_err(), "{bad:?}");
        }
    }

    /// On Windows a command line splits as Windows programs split theirs (issue 105): a path
    /// keeps its backslashes, quoted or not, and a path with a space is quoted with "…".
    #[test]
    fn a_command_splits_as_windows_splits_it() {
        let split = |c: &str| split_with(c, Quoting::Windows);
        assert_eq!(
            split(r#""C:\Program Files\Stockfish\stockfish.exe" --uci"#),
            words(&[r"C:\Program Files\Stockfish\stockfish.exe", "--uci"])
        );
        assert_eq!(split(r"C:\Engines\sf.exe"), words(&[r"C:\Engines\sf.exe"]));
        assert_eq!(
            split("\t\\\\server\\share\\eng.exe  --threads\t1 "),
            words(&[r"\\server\share\eng.exe", "--threads", "1"])
        );
        // Backslashes before a quote: 2n give n and a quote that groups, 2n+1 give n and a
        // literal quote; elsewhere they are literal, a trailing one too.
        assert_eq!(split(r#"a\\"b c"d"#), words(&[r"a\b cd"]));
        assert_eq!(split(r#"a\\\"b c"#), words(&[r#"a\"b"#, "c"]));
        assert_eq!(split(r#""dir\\" x"#), words(&[r"dir\", "x"]));
        assert_eq!(split(r"C:\dir\ x"), words(&[r"C:\dir\", "x"]));
        assert_eq!(split(r#""say ""hi""" ''"#), words(&[r#"say "hi""#, "''"]));
        assert_eq!(split(r#"x """#), words(&["x", ""]));
        for bad in [
            "",
            " \t ",
            r#""open"#,
            r#""C:\Program Files\sf.exe"#,
            r#"a\\"b"#,
        ] {
            assert!(split(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn the_native_convention_is_the_platforms() {
        assert_eq!(Quoting::NATIVE == Quoting::Windows, cfg!(windows));
        assert_eq!(
            split_command("eng --uci"),
            split_with("eng --uci", Quoting::NATIVE)
        );
    }
}
