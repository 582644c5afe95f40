//! Another UCI program as a player (`--black-cmd /usr/games/stockfish`): started once, told
//! `uci` and its options, then `position` and `go` with both clocks for each of its moves.
//! The referee times it as a GUI does, from `go` to `bestmove`; past its clock it has lost
//! on time. Of its thinking the page shows what its `info` lines say: the depth, each
//! iteration's time, the score and the line. Its time manager does not say its plan or why
//! it stopped, so the page says so instead of guessing.

use super::state::{Iteration, PlayerInfo, Shared};
use super::thought::{pv_san, Failure, Thought, Turn};
use crate::eval::EVAL_LIMIT;
use crate::position::{Position, UciMove};
use crate::score::MATE;
use crate::search::ScoreBound;
use chess::ChessMove;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

/// How often the wait for `bestmove` looks at the clock and at Ctrl-C.
const POLL: Duration = Duration::from_millis(5);
/// After `stop` (Ctrl-C, or the clock ran out), how long the program has to answer.
const STOP_GRACE: Duration = Duration::from_secs(1);
/// Longest line kept from the program.
const MAX_LINE: usize = 64 * 1024;

pub struct EngineProcess {
    name: String,
    command: String,
    /// The command-line option that named it, for messages.
    flag: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    timeout: Duration,
}

impl EngineProcess {
    /// Start `command` (the program and its arguments, split as this platform's programs
    /// split a command line: [`super::args::split_command`]), and wait up to `timeout` for
    /// `uciok` and, after the options `settings` (name, value), for `readyok`.
    pub fn start(
        command: &str,
        flag: &str,
        settings: &[(String, String)],
        timeout: Duration,
        chess960: bool,
    ) -> Result<EngineProcess, String> {
        let words = super::args::split_command(command).map_err(|e| format!("{flag}: {e}"))?;
        let Some((program, args)) = words.split_first() else {
            return Err(format!("{flag}: no command given"));
        };
        let mut child = own_process_group(Command::new(program).args(args))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("{flag} '{command}' does not start: {e}"))?;
        let stdout = child.stdout.take();
        let stdin = child.stdin.take();
        let (tx, rx) = mpsc::channel();
        if let Some(stdout) = stdout {
            thread::spawn(move || {
                let mut reader = BufReader::new(stdout);
                loop {
                    let mut buf = Vec::new();
                    match reader.read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => return,
                        Ok(_) => {
                            buf.truncate(MAX_LINE);
                            let text = String::from_utf8_lossy(&buf).trim().to_string();
                            if tx.send(text).is_err() {
                                return;
                            }
                        }
                    }
                }
            });
        }
        let mut engine = EngineProcess {
            name: program_name(program),
            command: command.to_string(),
            flag: flag.to_string(),
            child,
            stdin,
            lines: rx,
            timeout,
        };
        engine.send("uci").map_err(|e| engine.failed(&e))?;
        let mut name = None;
        engine
            .wait_for("uciok", |line| {
                if let Some(n) = line.strip_prefix("id name ") {
                    name = Some(n.trim().to_string());
                }
            })
            .map_err(|e| engine.failed(&e))?;
        if let Some(n) = name.filter(|n| !n.is_empty()) {
            engine.name = n;
        }
        if chess960 {
            engine
                .send("setoption name UCI_Chess960 value true")
                .map_err(|e| engine.failed(&e))?;
        }
        for (n, v) in settings {
            engine
                .send(&format!("setoption name {n} value {v}"))
                .map_err(|e| engine.failed(&e))?;
        }
        engine.ready().map_err(|e| engine.failed(&e))?;
        Ok(engine)
    }

    /// The message for a program that failed at the start; it is ended.
    fn failed(&mut self, why: &str) -> String {
        let _ = self.child.kill();
        let _ = self.child.wait();
        format!("{} '{}' {why}", self.flag, self.command)
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| "has closed its input".to_string())?;
        writeln!(stdin, "{line}")
            .and_then(|()| stdin.flush())
            .map_err(|e| match e.kind() {
                std::io::ErrorKind::BrokenPipe => "has ended (its input is closed)".to_string(),
                _ => format!("cannot be written to ({e})"),
            })
    }

    /// Wait up to the start timeout for the line `wanted`, showing `seen` every other line.
    fn wait_for(&mut self, wanted: &str, mut seen: impl FnMut(&str)) -> Result<(), String> {
        let deadline = Instant::now() + self.timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if line == wanted => return Ok(()),
                Ok(line) => seen(&line),
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!(
                        "did not answer with `{wanted}` within {} s",
                        self.timeout.as_secs_f64()
                    ))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(format!("ended before answering with `{wanted}`"))
                }
            }
        }
    }

    fn ready(&mut self) -> Result<(), String> {
        self.send("isready")?;
        self.wait_for("readyok", |_| {})
    }

    pub fn info(&self) -> PlayerInfo {
        PlayerInfo {
            name: self.name.clone(),
            kind: "uci",
            detail: self.command.clone(),
        }
    }

    /// Two players of the same name: each gets its colour.
    pub fn add_to_name(&mut self, what: &str) {
        self.name = format!("{} {what}", self.name);
    }

    pub fn new_game(&mut self) -> Result<(), String> {
        self.send("ucinewgame")
            .and_then(|()| self.ready())
            .map_err(|e| format!("{} '{}' {e}", self.flag, self.command))
    }

    pub fn think(&mut self, turn: &Turn, shared: &Arc<Shared>) -> Result<Thought, Failure> {
        let pos = turn.pos;
        let mut position = format!("position fen {}", turn.start.fen());
        if !turn.moves.is_empty() {
            position.push_str(" moves ");
            position.push_str(&turn.moves.join(" "));
        }
        let g = &turn.go;
        let mut go = format!(
            "go wtime {} btime {} winc {} binc {}",
            g.wtime.unwrap_or(0).max(0),
            g.btime.unwrap_or(0).max(0),
            g.winc.unwrap_or(0),
            g.binc.unwrap_or(0)
        );
        if let Some(m) = g.movestogo {
            go.push_str(&format!(" movestogo {m}"));
        }
        let crashed = |e: String| Failure::Crashed(e);
        self.send(&position).map_err(crashed)?;
        self.send(&go).map_err(crashed)?;
        let started = Instant::now();
        let (mut score, mut depth) = (None, 0);
        let mut stopped: Option<Failure> = None;
        loop {
            match self.lines.recv_timeout(POLL) {
                Ok(line) => {
                    if let Some(rest) = line.strip_prefix("bestmove") {
                        let spent = started.elapsed();
                        if let Some(why) = stopped {
                            return Err(why);
                        }
                        let text = rest.split_whitespace().next().unwrap_or("");
                        let best = match pos.parse_move(text) {
                            Ok(UciMove::Move(m)) => m,
                            _ => return Err(Failure::Illegal(text.to_string())),
                        };
                        return Ok(thought(best, spent, score, depth));
                    }
                    if let Some(info) = read_info(&line, pos) {
                        score = info.score.or(score);
                        depth = depth.max(info.depth);
                        if let Some(it) = info.iteration {
                            shared.record_iteration(it);
                        }
                    }
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(Failure::Crashed(
                        "ended or closed its output during the search".to_string(),
                    ))
                }
            }
            let elapsed = started.elapsed();
            if stopped.is_none() {
                if shared.interrupted() {
                    stopped = Some(Failure::Interrupted);
                } else if elapsed.as_millis() > u128::try_from(turn.clock_ms.max(0)).unwrap_or(0) {
                    stopped = Some(Failure::Flagged);
                }
                if stopped.is_some() {
                    let _ = self.send("stop");
                    // The answer, if it comes, is read and dropped above.
                }
            }
            if let Some(why) = &stopped {
                let limit = Duration::from_millis(u64::try_from(turn.clock_ms.max(0)).unwrap_or(0));
                if elapsed > limit.max(Duration::ZERO) + STOP_GRACE || *why == Failure::Interrupted
                {
                    return Err(why.clone());
                }
            }
        }
    }

    /// `quit`, then wait up to `wait` for the program to end; end it if it does not.
    pub fn quit(&mut self, wait: Duration) {
        let _ = self.send("quit");
        self.stdin = None;
        let deadline = Instant::now() + wait;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The program in a process group of its own, so that a Ctrl-C at the terminal (or the
/// Windows console) reaches `watch` alone: the game ends, is saved as stopped, and the
/// program is told `stop` and `quit`. In the terminal's group the program would die of the
/// same Ctrl-C, and could be seen to die first: the game would be saved as lost by it.
fn own_process_group(command: &mut Command) -> &mut Command {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        command.process_group(0)
    }
    #[cfg(windows)]
    {
        use std::os::windows::process::CommandExt;
        const CREATE_NEW_PROCESS_GROUP: u32 = 0x0000_0200;
        command.creation_flags(CREATE_NEW_PROCESS_GROUP)
    }
    #[cfg(not(any(unix, windows)))]
    command
}

/// The program's name until it says its own (`id name`): its file's, from a path with either
/// separator, since a Windows path may use both.
fn program_name(program: &str) -> String {
    let file = program.rsplit(['/', '\\']).next().unwrap_or(program);
    file.strip_suffix(".exe")
        .or_else(|| file.strip_suffix(".EXE"))
        .filter(|stem| !stem.is_empty())
        .unwrap_or(file)
        .to_string()
}

fn thought(best: ChessMove, spent: Duration, score: Option<i32>, depth: u32) -> Thought {
    Thought {
        best,
        spent_ms: i64::try_from(spent.as_millis()).unwrap_or(i64::MAX),
        score,
        // Bound lines are not read as the score (`read_info`).
        bound: ScoreBound::Exact,
        depth,
        reason: "the program does not say why it stopped".to_string(),
        detail: String::new(),
        adjust: String::new(),
        final_soft_ms: None,
        timelog: String::new(),
        p_change: None,
    }
}

/// What one `info` line says.
#[derive(Debug, PartialEq)]
pub struct Info {
    pub depth: u32,
    pub score: Option<i32>,
    /// A completed iteration: a line with a depth, an exact score and a line of moves, of
    /// the first MultiPV line.
    pub iteration: Option<Iteration>,
}

/// Read an `info` line (None for anything else, `info string` included).
pub fn read_info(line: &str, pos: &Position) -> Option<Info> {
    let rest = line.strip_prefix("info ")?;
    if rest.starts_with("string") {
        return None;
    }
    let words: Vec<&str> = rest.split_whitespace().collect();
    let (mut depth, mut score, mut nodes, mut time) = (None, None, 0u64, None);
    let (mut bound, mut multipv, mut pv) = (false, 1u32, Vec::new());
    let mut i = 0;
    while i < words.len() {
        let next = words.get(i + 1).copied().unwrap_or("");
        match words[i] {
            "depth" => depth = next.parse::<u32>().ok(),
            "nodes" => nodes = next.parse().unwrap_or(0),
            "time" => time = next.parse::<f64>().ok(),
            "multipv" => multipv = next.parse().unwrap_or(1),
            "score" => {
                let value: Option<i32> = words.get(i + 2).and_then(|v| v.parse().ok());
                score = match (next, value) {
                    // Within the evaluation's range: a larger score (another engine's
                    // tablebase win) would read as one of the search's decided scores.
                    ("cp", Some(v)) => Some(v.clamp(-EVAL_LIMIT, EVAL_LIMIT)),
                    // Mates in plies from the root, as `score.rs` counts them.
                    ("mate", Some(m)) if m > 0 => {
                        Some(MATE - m.saturating_mul(2).saturating_sub(1).min(1000))
                    }
                    ("mate", Some(m)) => Some(-MATE + m.saturating_mul(-2).min(1000)),
                    _ => None,
                };
                // `score cp 31` is three words; a bound after it is read on its own.
                i += 3;
                continue;
            }
            "lowerbound" | "upperbound" => {
                bound = true;
                i += 1;
                continue;
            }
            "pv" => {
                let mut p = pos.clone();
                for text in &words[i + 1..] {
                    match p.parse_move(text) {
                        Ok(UciMove::Move(m)) => {
                            pv.push(m);
                            p.make_move(m);
                        }
                        _ => break,
                    }
                }
                break;
            }
            _ => {
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    let depth = depth?;
    let iteration =
        (score.is_some() && !bound && multipv == 1 && !pv.is_empty()).then(|| Iteration {
            depth,
            at_ms: time.unwrap_or(0.0),
            took_ms: 0.0,
            score: score
                .map(crate::tools::selfplay::score_text)
                .unwrap_or_default(),
            nodes,
            pv: pv_san(pos, &pv),
        });
    Some(Info {
        depth,
        score: if bound || multipv != 1 { None } else { score },
        iteration,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_program_is_named_by_its_file() {
        for (program, name) in [
            ("/usr/games/stockfish", "stockfish"),
            (r"C:\Engines\sf.exe", "sf"),
            ("C:/Engines/Lc0.EXE", "Lc0"),
            (r"..\bin/eng", "eng"),
            ("stockfish", "stockfish"),
            (".exe", ".exe"),
        ] {
            assert_eq!(program_name(program), name, "{program}");
        }
    }

    #[test]
    fn info_lines_are_read() {
        let pos = Position::startpos();
        let i = read_info(
            "info depth 12 seldepth 18 multipv 1 score cp 31 nodes 50000 nps 1 time 215 pv e2e4 e7e5 g1f3",
            &pos,
        )
        .unwrap_or_else(|| panic!("an info line"));
        assert_eq!(i.depth, 12);
        assert_eq!(i.score, Some(31));
        let it = i.iteration.unwrap_or_else(|| panic!("an iteration"));
        assert_eq!((it.at_ms, it.nodes), (215.0, 50000));
        assert_eq!(it.pv, "e4 e5 Nf3");
        assert_eq!(it.score, "+0.31");
        let bound = read_info("info depth 13 score cp 50 lowerbound nodes 9 pv e2e4", &pos);
        assert!(bound.is_some_and(|b| b.iteration.is_none() && b.score.is_none()));
        let second = read_info("info depth 13 multipv 2 score cp 20 pv d2d4", &pos);
        assert!(second.is_some_and(|b| b.iteration.is_none()));
        let mate = read_info("info depth 5 score mate 2 pv e2e4", &pos);
        assert_eq!(mate.and_then(|m| m.score), Some(MATE - 3));
        let mated = read_info("info depth 5 score mate -1 pv e2e4", &pos);
        assert_eq!(mated.and_then(|m| m.score), Some(-MATE + 2));
        // Another engine's tablebase win is a large evaluation, not a decided score.
        let won = read_info("info depth 30 score cp 20000 pv e2e4", &pos);
        assert_eq!(won.and_then(|w| w.score), Some(EVAL_LIMIT));
        assert!(read_info("info string depth 3", &pos).is_none());
        assert!(read_info("info currmove e2e4 currmovenumber 1", &pos).is_none());
        assert!(read_info("bestmove e2e4", &pos).is_none());
        // A line with a garbled move keeps the moves before it.
        let odd = read_info("info depth 3 score cp 1 time 4 pv e2e4 zz e7e5", &pos);
        assert_eq!(
            odd.and_then(|o| o.iteration).map(|i| i.pv),
            Some("e4".into())
        );
    }
}
