//! The engine loop: one thread reads stdin, this loop handles commands, searches run on their
//! own thread. `isready` is answered here at once even while a search runs.

use super::options::{self, Effect, Options};
use super::output::{self, emit, error, silence};
use super::parse::{self, Command, GoParams, PositionStart};
use crate::position::{Position, UciMove};
use crate::score;
use crate::search::features::Features;
use crate::search::strength::Strength;
use crate::search::{self, Info, Limits, Memory, Outcome, Signals, StopReason};
use crate::tablebase::Tablebases;
use crate::time::{self, Answer, Game, Mode, TimeLimit};
use crate::tt::TranspositionTable;
use chess::ChessMove;
use std::io::{BufRead, Read};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// Longest line kept; anything beyond is dropped (and reported) so a runaway input cannot
/// exhaust memory.
const MAX_LINE: usize = 1 << 20;

/// How often the loop looks whether stdout was closed while it waits for input: a search
/// that prints into a closed pipe stops within this.
const CLOSED_POLL: Duration = Duration::from_millis(50);

struct Running {
    signals: Arc<Signals>,
    /// Set once the `bestmove` is out. The thread may still be joining its helper threads,
    /// but the search has answered: what the GUI sends now is sent between searches.
    answered: Arc<AtomicBool>,
    handle: JoinHandle<Option<Spent>>,
}

impl Running {
    /// Run `work` on a thread of its own: a search, or the wait before a `bestmove 0000`.
    /// `work` is handed the flag to set once its `bestmove` is out. The stack is large
    /// for the search's recursion; a thread that only waits never touches it.
    fn spawn<W>(name: &str, signals: Arc<Signals>, work: W) -> std::io::Result<Running>
    where
        W: FnOnce(&AtomicBool) -> Option<Spent> + Send + 'static,
    {
        let answered = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&answered);
        let handle = thread::Builder::new()
            .name(name.into())
            .stack_size(64 << 20)
            .spawn(move || work(&flag))?;
        Ok(Running {
            signals,
            answered,
            handle,
        })
    }
}

/// What a finished clock search tells the time manager: how long the move took against the
/// soft budget it was given (a strategy such as `smooth` learns from it).
struct Spent {
    spent_ms: u64,
    soft_ms: u64,
}

pub struct Engine {
    /// The position the GUI last sent, or why it was rejected: `go` never searches any
    /// other position (an older one would be a move for the wrong game).
    position: Result<Position, String>,
    /// The `position` command that set it, and whether it was read as Chess960 (None when
    /// it was rejected): a FEN's castling field means other rights in the other mode, so a
    /// change of `UCI_Chess960` before `go` reads it again.
    source: Option<(PositionStart, Vec<String>, bool)>,
    options: Options,
    tt: Arc<TranspositionTable>,
    /// What the searches of this game learnt (`search::memory`). A search holds the lock
    /// from start to end.
    memory: Arc<Mutex<Memory>>,
    running: Option<Running>,
    /// `setoption` commands that change the table, sent before the running search answered:
    /// they are carried out, in order, once it has (by `finish_search`, which the next
    /// `isready`, `position`, `go` or table `setoption` calls).
    deferred: Vec<(String, Option<String>)>,
    debug: bool,
    /// The strength limit the table and the histories were last searched with (None: full
    /// strength). A limited search stores blurred evaluations (`search::strength`), so a
    /// search at another strength starts from an empty table, as after `ucinewgame`.
    searched_strength: Option<Strength>,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

/// Run the UCI loop on stdin/stdout until `quit` or end of input.
pub fn run() {
    run_with(std::io::stdin());
}

/// One input line, and whether it was cut to [`MAX_LINE`] bytes.
struct Input {
    text: String,
    cut: bool,
}

/// Read lines on their own thread. Bytes are decoded lossily (invalid UTF-8 becomes U+FFFD)
/// and end of input is sent as `quit`. A line longer than [`MAX_LINE`] bytes is kept up to
/// that length and marked as cut.
fn spawn_reader(input: impl Read + Send + 'static) -> Receiver<Input> {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let mut reader = std::io::BufReader::new(input);
        loop {
            let mut line = Vec::new();
            let mut cut = false;
            let eof = loop {
                let buf = match reader.fill_buf() {
                    Ok(b) => b,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(_) => break true,
                };
                if buf.is_empty() {
                    break line.is_empty();
                }
                let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
                    Some(i) => (&buf[..i], Some(i + 1)),
                    None => (buf, None),
                };
                // A CR before the newline is no part of the line (and must not push a line
                // of exactly MAX_LINE bytes over it).
                let chunk = match done {
                    Some(_) => chunk.strip_suffix(b"\r").unwrap_or(chunk),
                    None => chunk,
                };
                let room = MAX_LINE - line.len();
                if chunk.len() > room {
                    cut = true;
                }
                line.extend_from_slice(&chunk[..chunk.len().min(room)]);
                let used = done.unwrap_or(buf.len());
                reader.consume(used);
                if done.is_some() {
                    break false;
                }
            };
            if eof {
                let _ = tx.send(Input {
                    text: "quit".to_string(),
                    cut: false,
                });
                return;
            }
            let text = String::from_utf8_lossy(&line).into_owned();
            if tx.send(Input { text, cut }).is_err() {
                return;
            }
        }
    });
    rx
}

impl Engine {
    pub fn new() -> Engine {
        let options = Options::default();
        Engine {
            position: Ok(Position::startpos()),
            source: Some((PositionStart::StartPos, Vec::new(), false)),
            tt: Arc::new(TranspositionTable::new(options.hash_mb)),
            memory: Arc::new(Mutex::new(Memory::new())),
            options,
            running: None,
            deferred: Vec::new(),
            debug: false,
            searched_strength: None,
        }
    }

    /// Handle one input line; false means quit.
    pub fn handle_line(&mut self, line: &str) -> bool {
        self.handle(line, false)
    }

    /// Handle one input line, of which only the start was kept if `cut`. A cut `position`
    /// is rejected, since the moves that were dropped would make another position; any other
    /// command is carried out as far as it was read (a `go` must still get its `bestmove`).
    fn handle(&mut self, line: &str, cut: bool) -> bool {
        if cut {
            error(&format!(
                "line longer than {MAX_LINE} bytes, the rest was dropped"
            ));
        }
        let parsed = parse::parse(line);
        for problem in &parsed.problems {
            error(problem);
        }
        if parsed.position_rejected {
            self.forget_position(format!(
                "`position` could not be read ({})",
                parse::echo(line.trim())
            ));
        }
        match parsed.command {
            None | Some(Command::Empty) => {}
            Some(Command::Uci) => {
                emit(&format!("id name Sandglass {}", env!("CARGO_PKG_VERSION")));
                emit("id author the Sandglass developers");
                for line in options::declarations() {
                    emit(&line);
                }
                // Techniques switched off for a measurement, and names that switched nothing.
                if let Some(ablation) = Features::requested() {
                    if ablation.refused.is_empty() {
                        emit(&format!("info string {}", ablation.describe()));
                    } else {
                        error(&ablation.describe());
                    }
                }
                emit("uciok");
            }
            Some(Command::IsReady) => {
                // A GUI waits for `readyok` after a `setoption`: a table change deferred
                // during a search that has answered since is carried out first. A search
                // still running is not waited for.
                if !self.deferred.is_empty() && !self.searching() {
                    self.finish_search();
                }
                emit("readyok");
            }
            Some(Command::Debug(on)) => self.debug = on,
            Some(Command::UciNewGame) => {
                self.finish_search();
                self.tt.clear();
                lock(&self.memory).clear();
                self.options.time.new_game();
                // The position stays: a GUI that sends `position` before `ucinewgame` means
                // that position, as Stockfish reads it.
            }
            Some(Command::Position { .. }) if cut => {
                self.forget_position(format!(
                    "the `position` line was longer than {MAX_LINE} bytes"
                ));
                error("position: the line was cut, no position until the next valid `position`");
            }
            Some(Command::Position { start, moves }) => self.set_position(&start, &moves),
            Some(Command::SetOption { name, value }) => self.set_option(&name, value.as_deref()),
            Some(Command::Go(params)) => self.go(&params),
            Some(Command::Stop) => {
                // Ignored when no search runs; the search thread prints the bestmove.
                if let Some(r) = &self.running {
                    r.signals.stop();
                }
            }
            Some(Command::PonderHit) => {
                // Ignored before any search, as `stop` is; reported when the last search
                // is not pondering (it never was, or it has ended), whose clock it leaves
                // alone.
                if let Some(r) = &self.running {
                    if !r.signals.ponderhit() {
                        error("ponderhit: the search is not pondering, ignored");
                    }
                }
            }
            Some(Command::Quit) => return false,
        }
        true
    }

    /// `quit` (or the end of input): stop the search, which answers its `go` with the best
    /// move found so far, as Stockfish does; then no more output, and return so the process
    /// exits with 0.
    pub fn quit(&mut self) {
        // No table is resized or cleared on the way out.
        self.deferred.clear();
        self.finish_search();
        silence();
    }

    /// Stop a running search and wait for it (it prints its own bestmove);
    /// the time it spent is recorded for the time manager, and the `setoption`s deferred
    /// until its answer are carried out.
    fn finish_search(&mut self) {
        if let Some(r) = self.running.take() {
            r.signals.stop();
            if let Ok(Some(spent)) = r.handle.join() {
                self.options.time.record(spent.spent_ms, spent.soft_ms);
            }
        }
        for (name, value) in std::mem::take(&mut self.deferred) {
            self.set_option(&name, value.as_deref());
        }
    }

    /// Is a search still to answer its `go`?
    fn searching(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|r| !r.answered.load(Ordering::SeqCst))
    }

    /// A `position` that could not be read: the running search ends first (as in
    /// [`Engine::set_position`]), and `go` finds no position until the next valid one.
    fn forget_position(&mut self, why: String) {
        self.finish_search();
        self.source = None;
        self.position = Err(why);
    }

    /// Set the position, or remember why it was rejected: the previous position is gone
    /// either way, since the GUI has moved on from it. A search still running is ended
    /// first, so that its `bestmove` comes out before the position it answers is replaced.
    fn set_position(&mut self, start: &PositionStart, moves: &[String]) {
        self.finish_search();
        let chess960 = self.options.chess960;
        self.position = read_position(start, moves, chess960);
        self.source = self
            .position
            .is_ok()
            .then(|| (start.clone(), moves.to_vec(), chess960));
        if let Err(why) = &self.position {
            error(&format!(
                "{why}; no position until the next valid `position`"
            ));
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let mut next = self.options.clone();
        match next.set(name, value) {
            Err(e) => error(&e),
            Ok(Effect::None) => self.options = next,
            Ok(Effect::Warn(w)) => {
                error(&w);
                self.options = next;
            }
            Ok(_) if self.searching() => {
                // The table is shared with the search, which keeps it until it ends. Ending
                // the search here would send a `bestmove` that a pondering or infinite search
                // must not send until told to (the GUI would then wait in vain for the answer
                // to its `ponderhit`). UCI sends no `setoption` during a search; a GUI that
                // does has the option applied before the next search instead.
                emit(&format!(
                    "info string setoption {name}: carried out after this search's bestmove"
                ));
                self.deferred
                    .push((name.to_string(), value.map(str::to_string)));
            }
            Ok(effect) => {
                // The candidate holds the tables too; none may outlive the switch below.
                drop(next);
                // No search is still to answer: join the last one (which records the move
                // it spent time on, and waits for its helper threads), then apply the
                // checked value.
                self.finish_search();
                let mut next = self.options.clone();
                let _ = next.set(name, value);
                match effect {
                    Effect::None | Effect::Warn(_) => {}
                    Effect::ClearHash => {
                        self.tt.clear();
                        lock(&self.memory).clear();
                    }
                    Effect::OpenTablebases => {
                        // The prober keeps one set of tables per process: the old set is
                        // closed (its last holder dropped) before the new one opens.
                        next.tablebases = None;
                        self.options.tablebases = None;
                        next.tablebases = open_tablebases(&next.syzygy_path);
                    }
                    Effect::ResizeHash => {
                        let resized = match Arc::get_mut(&mut self.tt) {
                            Some(tt) => tt.resize(next.hash_mb),
                            // Unreachable once the search has ended; keep working regardless.
                            None => TranspositionTable::try_new(next.hash_mb)
                                .map(|tt| self.tt = Arc::new(tt)),
                        };
                        if let Err(e) = resized {
                            error(&format!(
                                "{e}; the hash table stays at {} MB",
                                self.tt.size_mb()
                            ));
                            return;
                        }
                    }
                }
                self.options = next;
            }
        }
    }

    fn go(&mut self, params: &GoParams) {
        // A new go ends the running search first; that search still sends its bestmove.
        self.finish_search();
        // Under the other mode the same FEN gives other castling rights: read it as the GUI
        // now plays.
        let chess960 = self.options.chess960;
        let stale = self
            .source
            .as_ref()
            .filter(|(_, _, read_as)| *read_as != chess960);
        if let Some((start, moves, _)) = stale.cloned() {
            self.set_position(&start, &moves);
        }
        let pos = match &self.position {
            Ok(pos) => pos.clone(),
            Err(why) => {
                error(&format!(
                    "go: no search, the last position was rejected: {why}"
                ));
                self.pass_when_told(Answer::of(&params.limits));
                return;
            }
        };
        let us = pos.side_to_move();
        let game = Game {
            plies_played: pos.game_ply(),
            men: pos.men(),
        };
        let (mode, time_notes) = time::decide(&params.limits, us, &game, &self.options.time);
        let mut notes = Vec::new();
        let mut limits = search_limits(&self.options, mode);
        if limits.strength != self.searched_strength {
            self.tt.clear();
            lock(&self.memory).clear();
            self.searched_strength = limits.strength;
        }
        for text in &params.searchmoves {
            match pos.parse_move(text) {
                Ok(UciMove::Move(m)) => limits.searchmoves.push(m),
                _ => notes.push(format!(
                    "error: searchmoves: '{}' is not a legal move here, ignored",
                    parse::echo(text)
                )),
            }
        }
        if !params.searchmoves.is_empty() && limits.searchmoves.is_empty() {
            notes.push("error: searchmoves: no legal move left, searching every move".into());
        }
        notes.extend(time_notes);
        let timelog = self.options.time_log || self.debug;
        for note in notes {
            emit(&format!("info string {note}"));
        }
        if timelog {
            let b = limits.mode.time.budget();
            emit(&format!(
                "info string time go: {} | strategy {} | soft {} hard {} | {}",
                params.limits.describe(us),
                self.options.time.strategy().name(),
                b.as_ref()
                    .map_or("-".into(), |b| format!("{} ms", b.soft_ms)),
                b.as_ref()
                    .map_or("-".into(), |b| format!("{} ms", b.hard_ms)),
                b.as_ref().map_or("no time limit".into(), |b| b.why.clone()),
            ));
        }
        let signals = Arc::new(Signals::new(limits.mode.answer == Answer::AfterPonderHit));
        let job = SearchJob {
            pos,
            limits,
            tt: Arc::clone(&self.tt),
            memory: Arc::clone(&self.memory),
            signals: Arc::clone(&signals),
            timelog,
            wdl: self.options.show_wdl,
        };
        self.start("search", signals, move |answered| job.run(answered));
    }

    /// `bestmove 0000` for a `go` with no position to search, when `answer` allows it: at
    /// once, or, for `go infinite` and `go ponder`, only once `stop` (or `ponderhit`) comes,
    /// as after a search. A GUI that sends `stop` waits for that answer; an early one would
    /// answer nothing it asked.
    fn pass_when_told(&mut self, answer: Answer) {
        if answer == Answer::WhenDone {
            emit("bestmove 0000");
            return;
        }
        let signals = Arc::new(Signals::new(answer == Answer::AfterPonderHit));
        let told = Arc::clone(&signals);
        self.start("pass", signals, move |answered| {
            wait_to_answer(&told, answer);
            emit("bestmove 0000");
            answered.store(true, Ordering::SeqCst);
            None
        });
    }

    /// Start the thread that will answer this `go`; if the system cannot give one, answer
    /// at once, since every `go` gets its `bestmove`.
    fn start<W>(&mut self, name: &str, signals: Arc<Signals>, work: W)
    where
        W: FnOnce(&AtomicBool) -> Option<Spent> + Send + 'static,
    {
        match Running::spawn(name, signals, work) {
            Ok(running) => self.running = Some(running),
            Err(e) => {
                error(&format!("cannot start the {name} thread: {e}"));
                emit("bestmove 0000");
            }
        }
    }
}

/// Open the tables of a `SyzygyPath`, saying how many there are, and what was wrong with
/// any file (`info string error …`): the engine plays on with whatever is usable.
fn open_tablebases(path: &str) -> Option<Arc<Tablebases>> {
    match Tablebases::open(path) {
        Err(e) => {
            error(&format!("SyzygyPath: {e}; no tables"));
            None
        }
        Ok(opened) => {
            for problem in &opened.problems {
                error(&format!("SyzygyPath: {problem}"));
            }
            let tables = opened.tables?;
            emit(&format!(
                "info string SyzygyPath: {} table files, up to {} men",
                tables.files(),
                tables.largest()
            ));
            Some(Arc::new(tables))
        }
    }
}

/// The game's memory. A search that panicked while holding it left tables of plain numbers,
/// still fit to use, so a poisoned lock is taken all the same.
fn lock(memory: &Mutex<Memory>) -> MutexGuard<'_, Memory> {
    memory
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// What the options make of a `go` whose mode the time manager has decided (the root moves
/// come from the `go` line): among them the network, so each engine's searches evaluate as
/// its own `Eval` and `EvalFile` say. `sandglass watch` builds its players' searches with it.
pub fn search_limits(options: &Options, mode: Mode) -> Limits {
    Limits {
        mode,
        multipv: options.multipv,
        threads: options.threads,
        adjust: options.adjust,
        soft_stop: options.soft_rule(),
        network: options.network(),
        tablebases: options.probing(),
        strength: options.strength(),
        ..Limits::default()
    }
}

/// The position a `position` command describes, or why there is none.
/// Under `UCI_Chess960` the FEN's castling field is read as Chess960 and castling moves are
/// written as king-takes-own-rook.
fn read_position(
    start: &PositionStart,
    moves: &[String],
    chess960: bool,
) -> Result<Position, String> {
    let mut pos = match start {
        PositionStart::StartPos => {
            let mut pos = Position::startpos();
            pos.set_chess960(chess960);
            pos
        }
        PositionStart::Fen(fen) => {
            Position::from_fen_in(fen, chess960).map_err(|e| format!("bad FEN ({e})"))?
        }
    };
    for (i, text) in moves.iter().enumerate() {
        pos.play_uci(text)
            .map_err(|e| format!("{e} (move {} of the list)", i + 1))?;
        // Keep only what the draw rules can use, so a 500-move game costs nothing.
        if pos.halfmove_clock() == 0 {
            pos.trim_record();
        }
    }
    Ok(pos)
}

/// `time` and `nps` come from the same microsecond duration, so they agree: `time 0` means
/// under a millisecond, and nps is then more than nodes × 1000, not exactly that as if a
/// whole millisecond had passed.
///
/// With `wdl` (`UCI_ShowWDL`) the score is followed by the win/draw/loss odds of the root
/// position (`crate::wdl`), before any bound, as Stockfish prints them.
fn format_info(pos: &Position, info: &Info, wdl: bool) -> String {
    let us = info.time.as_micros().max(1);
    let nps = u128::from(info.nodes) * 1_000_000 / us;
    let ms = us / 1000;
    let bound = info.bound.uci_suffix();
    let pv = pos.line_text(&info.pv);
    let tbhits = info
        .tbhits
        .map_or(String::new(), |n| format!(" tbhits {n}"));
    let wdl = if wdl {
        format!(" {}", crate::wdl::uci(info.score, pos.board()))
    } else {
        String::new()
    };
    format!(
        "info depth {} seldepth {} multipv {} score {}{wdl}{bound} nodes {} nps {nps} time {} hashfull {}{tbhits} pv {}",
        info.depth,
        info.seldepth,
        info.multipv,
        score::uci(info.score),
        info.nodes,
        ms,
        info.hashfull,
        pv.join(" ")
    )
}

/// One search on its own thread: it prints the `info` lines and the `bestmove` itself.
struct SearchJob {
    pos: Position,
    limits: Limits,
    tt: Arc<TranspositionTable>,
    memory: Arc<Mutex<Memory>>,
    signals: Arc<Signals>,
    timelog: bool,
    /// `UCI_ShowWDL`.
    wdl: bool,
}

impl SearchJob {
    /// Search, answer (then set `answered`), and say what a clock search spent.
    fn run(self, answered: &AtomicBool) -> Option<Spent> {
        let SearchJob {
            pos,
            limits,
            tt,
            memory,
            signals,
            timelog,
            wdl,
        } = self;
        let started = Instant::now();
        let mut elapsed = 0;
        // The bestmove goes out from the main search thread as soon as it is done; the
        // helpers are joined after it (`search_then`), before this thread ends.
        search::search_then(
            &pos,
            &limits,
            &tt,
            &mut lock(&memory),
            &signals,
            &mut |info| emit(&format_info(&pos, info, wdl)),
            &mut |outcome| {
                elapsed = answer(&pos, &limits, &signals, outcome, started, timelog, wdl);
                answered.store(true, Ordering::SeqCst);
            },
        );
        match &limits.mode.time {
            TimeLimit::Clock(b) => Some(Spent {
                spent_ms: elapsed,
                soft_ms: b.soft_ms,
            }),
            _ => None,
        }
    }
}

/// Wait as the mode requires, then print the `bestmove` (and the `TimeLog` line); returns
/// the time spent against the budget, in ms.
fn answer(
    pos: &Position,
    limits: &Limits,
    signals: &Signals,
    outcome: &Outcome,
    started: Instant,
    timelog: bool,
    wdl: bool,
) -> u64 {
    if outcome.reason == StopReason::NoMoves {
        let what = if pos.in_check() {
            "checkmate"
        } else {
            "stalemate"
        };
        let score = match (pos.in_check(), wdl) {
            (true, false) => "mate 0",
            (true, true) => "mate 0 wdl 0 0 1000",
            (false, false) => "cp 0",
            (false, true) => "cp 0 wdl 0 1000 0",
        };
        emit(&format!("info depth 0 score {score}"));
        emit(&format!("info string no legal moves: {what}"));
    }
    if let Some(limit) = limits.mode.nodes.filter(|&n| outcome.nodes > n) {
        emit(&format!(
            "info string node limit {limit} is less than depth 1 needs; depth 1 was finished \
             anyway ({} nodes)",
            outcome.nodes
        ));
    }
    if let Some(p) = limits.tablebases.as_ref().filter(|p| p.tables.failed()) {
        error(&format!(
            "SyzygyPath: a table failed while probing (a damaged file?); the {} table files \
             are off until SyzygyPath is set again",
            p.tables.files()
        ));
    }
    wait_to_answer(signals, limits.mode.answer);
    let elapsed = signals.elapsed().as_millis() as u64;
    if timelog {
        emit(&format!(
            "info string time used {elapsed} ms (wall {} ms), depth {}, {}",
            started.elapsed().as_millis(),
            outcome.depth,
            stop_words(outcome)
        ));
    }
    emit(&bestmove_line(pos, outcome.best, outcome.ponder));
    elapsed
}

/// Why a search stopped, as `TimeLog` says it at `bestmove`: the check that ended it (with
/// the soft-stop rule's numbers when that rule ended it), the soft limit as the adjustments
/// left it, and the adjustments, e.g. "stopped by soft limit (next depth would not fit) [rule
/// 2x with F = 2.00: elapsed 215 + 2.00 × last 76 = 367 ≥ soft 344 ms]; soft now 344 ms
/// (stable ×0.84 → ×0.84)". `sandglass watch` shows the same words.
pub fn stop_words(outcome: &Outcome) -> String {
    format!(
        "stopped by {}{}; soft now {} ms{}",
        outcome.reason.describe(),
        match outcome.reason {
            StopReason::SoftTime | StopReason::SingleReply | StopReason::PonderHit =>
                format!(" [{}]", outcome.stop_detail),
            _ if !outcome.last_check.is_empty() =>
                format!(" [the last check: {}]", outcome.last_check),
            _ => String::new(),
        },
        outcome.soft_ms.map_or("-".into(), |s| s.to_string()),
        if outcome.adjust_reason.is_empty() {
            String::new()
        } else {
            format!(" ({})", outcome.adjust_reason)
        }
    )
}

/// Block until `answer` allows the `bestmove`: go infinite and go ponder answer only after
/// stop (or ponderhit).
fn wait_to_answer(signals: &Signals, answer: Answer) {
    match answer {
        Answer::WhenDone => {}
        Answer::AfterStop => signals.wait_until(|s| s.stopped()),
        Answer::AfterPonderHit => signals.wait_until(|s| s.stopped() || !s.pondering()),
    }
}

/// `bestmove X [ponder Y]`, with Y only if it is legal after X.
fn bestmove_line(pos: &Position, best: Option<ChessMove>, ponder: Option<ChessMove>) -> String {
    let Some(best) = best else {
        return "bestmove 0000".to_string();
    };
    let mut after = pos.clone();
    after.make_move(best);
    let best_text = pos.move_text(best);
    match ponder.filter(|p| after.is_legal(*p)) {
        Some(p) => format!("bestmove {best_text} ponder {}", after.move_text(p)),
        None => format!("bestmove {best_text}"),
    }
}

/// Feed the loop from any reader (tests, fuzzing); returns when the input ends or says quit,
/// or when stdout is closed (checked every `CLOSED_POLL` while no input comes).
pub fn run_with(input: impl Read + Send + 'static) {
    let lines = spawn_reader(input);
    let mut engine = Engine::new();
    while !output::closed() {
        match lines.recv_timeout(CLOSED_POLL) {
            Ok(input) => {
                if !engine.handle(&input.text, input.cut) {
                    break;
                }
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => break,
        }
    }
    engine.quit();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::{Network, QA, QB, SCALE};
    use crate::search::ScoreBound;

    /// TimeLog's stop line names the rule's numbers when the rule stopped the search, and
    /// when something else did (the hard limit, a `stop`), what the rule's last check weighed:
    /// under `learned`, the probability and the gain are there for every move.
    #[test]
    fn the_stop_line_says_what_the_last_check_weighed() {
        let outcome = |reason, detail: &str, last: &str| Outcome {
            best: None,
            ponder: None,
            score: 0,
            bound: ScoreBound::Exact,
            depth: 9,
            nodes: 1,
            reason,
            soft_ms: Some(300),
            adjust_reason: String::new(),
            best_move_nodes: None,
            stop_detail: detail.to_string(),
            last_check: last.to_string(),
        };
        let go_on = "rule learned: P(move changes) 31% × 39 cp = 12.1 cp ≥ price 3.6 cp";
        let stop = "rule learned: P(move changes) 4% × 39 cp = 1.6 cp < price 3.6 cp";
        let hard = stop_words(&outcome(StopReason::HardTime, "", go_on));
        assert!(
            hard.contains(&format!(
                "hard limit (unwound mid-iteration) [the last check: {go_on}]"
            )),
            "{hard}"
        );
        let soft = stop_words(&outcome(StopReason::SoftTime, stop, stop));
        assert!(
            soft.contains(&format!("next depth would not fit) [{stop}]")),
            "{soft}"
        );
        assert!(!soft.contains("the last check"), "{soft}");
        let depth = stop_words(&outcome(StopReason::Depth, "", ""));
        assert!(!depth.contains('['), "no check, no brackets: {depth}");
    }

    /// Two engines in one process: the one whose options chose a network searches with it,
    /// the other still evaluates by hand (with one process-wide choice, both would use the
    /// network).
    #[test]
    fn each_engine_searches_with_its_own_evaluation() {
        // A network that gives the side to move 3000 cp in every position, far from any
        // hand-written evaluation of the start position.
        let mut net = Network::zeroed();
        net.outputs[0].bias = 3000 * QA * QB / SCALE;
        let path =
            std::env::temp_dir().join(format!("sandglass-engine-test-{}.nnue", std::process::id()));
        std::fs::write(&path, net.to_bytes()).expect("temp file");
        let mut with_net = Engine::new();
        let by_hand = Engine::new();
        with_net.handle_line(&format!("setoption name EvalFile value {}", path.display()));
        with_net.handle_line("setoption name Eval value nnue");
        let _ = std::fs::remove_file(&path);
        let score = |engine: &Engine| {
            let limits = search_limits(&engine.options, Mode::depth(2));
            let tt = TranspositionTable::new(1);
            let signals = Signals::new(false);
            search::search(&Position::startpos(), &limits, &tt, &signals, &mut |_| {}).score
        };
        let network = score(&with_net);
        let hand = score(&by_hand);
        assert_eq!(network.abs(), 3000, "{network}");
        assert!(hand.abs() < 500, "{hand}");
    }

    /// A bound is printed as one, after the score (and its odds): a GUI must not take a
    /// fail-high's score, or a move played on one, for the move's exact score.
    #[test]
    fn a_bound_is_printed_with_its_score() {
        let pos = Position::startpos();
        let info = |score, bound| Info {
            depth: 12,
            seldepth: 15,
            multipv: 1,
            score,
            bound,
            nodes: 1000,
            time: Duration::from_millis(10),
            hashfull: 0,
            tbhits: None,
            pv: vec![ChessMove::new(chess::Square::E2, chess::Square::E4, None)],
        };
        let line = |score, bound, wdl| format_info(&pos, &info(score, bound), wdl);
        assert!(line(50, ScoreBound::Lower, false).contains(" score cp 50 lowerbound nodes "));
        assert!(line(-50, ScoreBound::Upper, false).contains(" score cp -50 upperbound nodes "));
        assert!(
            line(score::MATE - 5, ScoreBound::Lower, false).contains(" score mate 3 lowerbound ")
        );
        assert!(line(50, ScoreBound::Exact, false).contains(" score cp 50 nodes "));
        let odds = line(50, ScoreBound::Lower, true);
        let at = |word: &str| odds.find(word).unwrap_or(usize::MAX);
        assert!(
            at(" wdl ") < at(" lowerbound ") && at(" lowerbound ") < at(" nodes "),
            "{odds}"
        );
    }
}
