//! A small black-box harness for the UCI tests: it spawns the `sandglass` binary with piped
//! stdin, stdout and stderr, timestamps every output line on a reader thread, and checks that
//! every line the engine prints is well formed. Failures print the recent transcript and the
//! engine's stderr. The command-line tools' tests use
//! [`tools`].

// Each test file uses a different part of the harness.
#![allow(dead_code)]

pub mod tools;

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// The engine binary built by cargo for the integration tests.
pub const BIN: &str = env!("CARGO_BIN_EXE_sandglass");

/// Liveness timeout: how long we wait for an answer that must come "soon" (generous, for a
/// loaded CI machine; latency bounds are asserted separately).
pub const LIVE: Duration = Duration::from_secs(20);

/// The timing tests of one file run one at a time: two engines searching at once on a 2-core
/// machine would measure each other.
static SERIAL: Mutex<()> = Mutex::new(());

/// Take the per-file test lock (a failed test must not block the others).
pub fn serial() -> MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// One line of engine output and when the reader thread received it.
#[derive(Clone, Debug)]
pub struct Line {
    pub at: Instant,
    pub text: String,
}

impl Line {
    pub fn is(&self, text: &str) -> bool {
        self.text == text
    }
    pub fn starts(&self, prefix: &str) -> bool {
        self.text.starts_with(prefix)
    }
    pub fn is_bestmove(&self) -> bool {
        self.text.starts_with("bestmove ")
    }
    pub fn is_error(&self) -> bool {
        self.text.starts_with("info string error")
    }
    /// The move of a `bestmove` line.
    pub fn best(&self) -> &str {
        assert!(self.is_bestmove(), "not a bestmove line: {:?}", self.text);
        self.text.split_whitespace().nth(1).unwrap_or("")
    }
    /// The value after `key` in a search `info` line (never in `info string`).
    pub fn field(&self, key: &str) -> Option<&str> {
        if !self.text.starts_with("info ") || self.text.starts_with("info string") {
            return None;
        }
        let mut tokens = self.text.split_whitespace();
        while let Some(t) = tokens.next() {
            if t == key {
                return tokens.next();
            }
            if t == "pv" {
                return None;
            }
        }
        None
    }
    pub fn num(&self, key: &str) -> Option<u64> {
        self.field(key).map(|v| {
            v.parse()
                .unwrap_or_else(|_| panic!("'{key}' is not a number in {:?}", self.text))
        })
    }
    /// The score of an info line, e.g. "cp 12" or "mate 2".
    pub fn score(&self) -> Option<String> {
        let kind = self.field("score")?;
        let mut tokens = self.text.split_whitespace();
        tokens.by_ref().find(|t| *t == "score")?;
        tokens.next();
        Some(format!("{kind} {}", tokens.next()?))
    }
}

pub fn count_bestmoves(lines: &[Line]) -> usize {
    lines.iter().filter(|l| l.is_bestmove()).count()
}

/// `[a-h][1-8][a-h][1-8][nbrq]?`
pub fn is_move_text(t: &str) -> bool {
    let b = t.as_bytes();
    (b.len() == 4 || b.len() == 5)
        && (b'a'..=b'h').contains(&b[0])
        && (b'1'..=b'8').contains(&b[1])
        && (b'a'..=b'h').contains(&b[2])
        && (b'1'..=b'8').contains(&b[3])
        && (b.len() == 4 || b"nbrq".contains(&b[4]))
}

/// Why an output line is malformed, if it is: every line must be one whole UCI message.
pub fn malformed(text: &str) -> Option<&'static str> {
    let tokens: Vec<&str> = text.split(' ').collect();
    if text.is_empty() {
        return Some("empty line");
    }
    if text.chars().any(|c| c.is_control()) {
        return Some("control character in a line");
    }
    match tokens[0] {
        "uciok" | "readyok" => (tokens.len() != 1).then_some("trailing text"),
        "id" => (tokens.len() < 3 || (tokens[1] != "name" && tokens[1] != "author"))
            .then_some("bad id line"),
        "option" => (tokens.len() < 5 || tokens[1] != "name" || !tokens.contains(&"type"))
            .then_some("bad option line"),
        "bestmove" => {
            let mv_ok = |t: &str| t == "0000" || is_move_text(t);
            let ok = match tokens.len() {
                2 => mv_ok(tokens[1]),
                4 => {
                    tokens[1] != "0000"
                        && is_move_text(tokens[1])
                        && tokens[2] == "ponder"
                        && is_move_text(tokens[3])
                }
                _ => false,
            };
            (!ok).then_some("bad bestmove line")
        }
        "info" => malformed_info(&tokens[1..]),
        _ => Some("line does not start with a UCI keyword"),
    }
}

/// Checks the fields of a search `info` line: known keys with well-formed values only, so
/// that a message glued into the line is caught. `info string …` may hold anything.
fn malformed_info(tokens: &[&str]) -> Option<&'static str> {
    let int = |t: Option<&&str>| t.is_some_and(|t| t.parse::<i64>().is_ok());
    if tokens.is_empty() {
        return Some("empty info line");
    }
    let mut i = 0;
    while i < tokens.len() {
        match tokens[i] {
            "string" => return None,
            "depth" | "seldepth" | "multipv" | "nodes" | "nps" | "time" | "hashfull" | "tbhits"
            | "currmovenumber" | "cpuload" => {
                if !int(tokens.get(i + 1)) {
                    return Some("info key without an integer");
                }
                i += 2;
            }
            "score" => {
                if !matches!(tokens.get(i + 1), Some(&"cp") | Some(&"mate"))
                    || !int(tokens.get(i + 2))
                {
                    return Some("bad info score");
                }
                i += 3;
                // `UCI_ShowWDL`: three per mille figures summing to 1000, before any bound.
                if tokens.get(i) == Some(&"wdl") {
                    let wdl: Vec<i64> = tokens[i + 1..]
                        .iter()
                        .take(3)
                        .filter_map(|t| t.parse().ok())
                        .collect();
                    if wdl.len() != 3
                        || wdl.iter().any(|&x| x < 0)
                        || wdl.iter().sum::<i64>() != 1000
                    {
                        return Some("bad info wdl");
                    }
                    i += 4;
                }
                if matches!(tokens.get(i), Some(&"lowerbound") | Some(&"upperbound")) {
                    i += 1;
                }
            }
            "currmove" => {
                if !tokens.get(i + 1).is_some_and(|t| is_move_text(t)) {
                    return Some("bad info currmove");
                }
                i += 2;
            }
            "pv" | "refutation" => {
                let moves = &tokens[i + 1..];
                if moves.is_empty() || !moves.iter().all(|t| is_move_text(t)) {
                    return Some("bad move in an info pv");
                }
                return None;
            }
            _ => return Some("unknown token in an info line (glued output?)"),
        }
    }
    None
}

/// A running engine. Dropping it kills the process.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Line>,
    stderr: Arc<Mutex<Vec<u8>>>,
    stderr_thread: Option<JoinHandle<()>>,
    transcript: Vec<String>,
    /// Every output line received so far, in order.
    pub seen: Vec<Line>,
    eof: bool,
}

impl Engine {
    pub fn start() -> Engine {
        Engine::start_with_env(&[])
    }

    /// Start an engine with these environment variables set.
    pub fn start_with_env(vars: &[(&str, &str)]) -> Engine {
        let mut child = Command::new(BIN)
            .envs(vars.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {BIN}: {e}"));
        let stdout = child.stdout.take().expect("stdout");
        let mut stderr_pipe = child.stderr.take().expect("stderr");
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut buf = Vec::new();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {
                        let at = Instant::now();
                        if buf.last() == Some(&b'\n') {
                            buf.pop();
                        }
                        let text = String::from_utf8_lossy(&buf).into_owned();
                        if tx.send(Line { at, text }).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&stderr);
        let stderr_thread = thread::spawn(move || {
            let mut chunk = [0u8; 4096];
            loop {
                match stderr_pipe.read(&mut chunk) {
                    Ok(0) | Err(_) => return,
                    Ok(n) => sink
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .extend_from_slice(&chunk[..n]),
                }
            }
        });
        Engine {
            stdin: child.stdin.take(),
            child,
            rx,
            stderr,
            stderr_thread: Some(stderr_thread),
            transcript: Vec::new(),
            seen: Vec::new(),
            eof: false,
        }
    }

    /// Start an engine and check the handshake.
    pub fn ready() -> Engine {
        let mut e = Engine::start();
        e.send("uci");
        e.expect(|l| l.is("uciok"), LIVE, "uciok");
        e.sync();
        e
    }

    /// Send one line (a newline is added). Returns the time just before the write.
    pub fn send(&mut self, line: &str) -> Instant {
        let mut bytes = line.as_bytes().to_vec();
        bytes.push(b'\n');
        self.send_raw(&bytes)
    }

    /// Send raw bytes as they are.
    pub fn send_raw(&mut self, bytes: &[u8]) -> Instant {
        let shown = String::from_utf8_lossy(bytes);
        let shown: String = if shown.chars().count() > 200 {
            format!(
                "{}… ({} bytes)",
                shown.chars().take(200).collect::<String>(),
                bytes.len()
            )
        } else {
            shown.into_owned()
        };
        self.transcript
            .push(format!("> {}", shown.trim_end_matches('\n')));
        let at = Instant::now();
        let stdin = match self.stdin.as_mut() {
            Some(s) => s,
            None => self.fail("send after stdin was closed"),
        };
        if let Err(e) = stdin.write_all(bytes).and_then(|_| stdin.flush()) {
            self.fail(&format!("cannot write to the engine: {e}"));
        }
        at
    }

    pub fn close_stdin(&mut self) -> Instant {
        self.transcript.push("> <EOF>".into());
        let at = Instant::now();
        self.stdin = None;
        at
    }

    /// Next line before `deadline`, or None on timeout or end of output.
    pub fn next_line(&mut self, deadline: Instant) -> Option<Line> {
        if self.eof {
            return None;
        }
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.rx.recv_timeout(wait) {
            Ok(line) => {
                self.transcript.push(format!("< {}", line.text));
                if let Some(why) = malformed(&line.text) {
                    self.fail(&format!("malformed output line ({why}): {:?}", line.text));
                }
                self.seen.push(line.clone());
                Some(line)
            }
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => {
                self.eof = true;
                None
            }
        }
    }

    /// Wait for a line matching `pred`, skipping others; fails after `timeout`.
    pub fn expect(&mut self, pred: impl Fn(&Line) -> bool, timeout: Duration, what: &str) -> Line {
        let mut all = self.collect_until(pred, timeout, what);
        all.pop().expect("collect_until returns the matching line")
    }

    /// All lines up to and including the first one matching `pred`; fails after `timeout`.
    pub fn collect_until(
        &mut self,
        pred: impl Fn(&Line) -> bool,
        timeout: Duration,
        what: &str,
    ) -> Vec<Line> {
        let deadline = Instant::now() + timeout;
        let mut lines = Vec::new();
        loop {
            match self.next_line(deadline) {
                Some(line) => {
                    let done = pred(&line);
                    lines.push(line);
                    if done {
                        return lines;
                    }
                }
                None => {
                    let why = if self.eof {
                        "the engine closed its output"
                    } else {
                        "timeout"
                    };
                    self.fail(&format!(
                        "expected {what} within {} ms: {why}",
                        timeout.as_millis()
                    ));
                }
            }
        }
    }

    /// Every line that arrives during `d`.
    pub fn collect_for(&mut self, d: Duration) -> Vec<Line> {
        let deadline = Instant::now() + d;
        let mut lines = Vec::new();
        while let Some(line) = self.next_line(deadline) {
            lines.push(line);
        }
        lines
    }

    /// `isready` → `readyok`; returns the lines before it (not the readyok).
    pub fn sync(&mut self) -> Vec<Line> {
        self.send("isready");
        let mut lines = self.collect_until(|l| l.is("readyok"), LIVE, "readyok");
        lines.pop();
        lines
    }

    /// Wait for the bestmove of a search; returns all lines up to it.
    pub fn until_bestmove(&mut self, timeout: Duration) -> Vec<Line> {
        self.collect_until(|l| l.is_bestmove(), timeout, "bestmove")
    }

    /// Play `mv` after `position` (a full `position …` command) and check the engine takes it.
    pub fn assert_legal(&mut self, position: &str, mv: &str) {
        if !is_move_text(mv) {
            self.fail(&format!("'{mv}' is not a move (after `{position}`)"));
        }
        let cmd = if position.contains(" moves") {
            format!("{position} {mv}")
        } else {
            format!("{position} moves {mv}")
        };
        self.send(&cmd);
        let lines = self.sync();
        if let Some(err) = lines.iter().find(|l| l.is_error()) {
            self.fail(&format!(
                "bestmove {mv} is illegal after `{position}`: {}",
                err.text
            ));
        }
    }

    pub fn try_exit(&mut self) -> Option<ExitStatus> {
        self.child.try_wait().ok().flatten()
    }

    pub fn alive(&mut self) -> bool {
        self.try_exit().is_none()
    }

    /// Wait for the process to exit; None after `timeout`.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<(ExitStatus, Instant)> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = self.try_exit() {
                return Some((status, Instant::now()));
            }
            if Instant::now() >= deadline {
                return None;
            }
            thread::sleep(Duration::from_millis(2));
        }
    }

    /// All of stderr so far (complete once the process has exited).
    pub fn stderr_text(&mut self) -> String {
        if self.try_exit().is_some() {
            if let Some(t) = self.stderr_thread.take() {
                let _ = t.join();
            }
        }
        String::from_utf8_lossy(&self.stderr.lock().unwrap_or_else(|e| e.into_inner())).into_owned()
    }

    /// `quit`, then: exit code 0, nothing printed after it, no panic on stderr.
    pub fn finish(mut self) {
        self.send("quit");
        match self.wait_exit(LIVE) {
            Some((status, _)) if status.success() => {}
            Some((status, _)) => self.fail(&format!("exit status {status} after quit")),
            None => self.fail("no exit after quit"),
        }
        let after = self.collect_for(Duration::from_secs(2));
        if let Some(l) = after.iter().find(|l| l.is_bestmove()) {
            self.fail(&format!("printed {:?} after quit", l.text));
        }
        self.assert_no_panic();
    }

    pub fn assert_no_panic(&mut self) {
        let err = self.stderr_text();
        if err.contains("panicked") {
            self.fail("the engine panicked");
        }
    }

    /// Fail the test with the recent transcript and stderr.
    pub fn fail(&mut self, msg: &str) -> ! {
        // Pick up what is already waiting, for the report.
        while let Ok(line) = self.rx.try_recv() {
            self.transcript.push(format!("< {}", line.text));
        }
        let start = self.transcript.len().saturating_sub(60);
        let stderr =
            String::from_utf8_lossy(&self.stderr.lock().unwrap_or_else(|e| e.into_inner()))
                .into_owned();
        panic!(
            "{msg}\n--- last {} lines of the transcript ---\n{}\n--- stderr ---\n{}",
            self.transcript.len() - start,
            self.transcript[start..].join("\n"),
            stderr
        );
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
