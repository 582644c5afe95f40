//! What the page is shown: the game's state as the referee ([`super::game`]) and the players
//! update it, and [`Shared`], which hands it to the server's threads. Every change bumps a
//! version and wakes the event streams; each stream then sends the newest state whole, so a
//! slow page skips states instead of falling behind.

use super::json::{array, string, Object};
use super::thought::Thought;
use crate::search::Signals;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// White and Black, as indices of the players and clocks.
pub const SIDES: [&str; 2] = ["White", "Black"];

/// Who plays one side.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerInfo {
    /// As the PGN's White or Black tag writes it.
    pub name: String,
    /// "sandglass" (in this process, its decisions shown) or "uci" (another program).
    pub kind: &'static str,
    /// The strategy and options, or the command.
    pub detail: String,
}

/// The time manager's budget for the move being thought (Sandglass only).
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    pub strategy: String,
    /// What the strategy plans the move to cost on average (before the soft-stop allowance).
    pub plan_ms: f64,
    pub soft_ms: u64,
    pub hard_ms: u64,
    /// The budget's reason, as `TimeLog` prints it.
    pub why: String,
}

/// One completed iteration of the search.
#[derive(Clone, Debug, PartialEq)]
pub struct Iteration {
    pub depth: u32,
    /// When it completed, since the move started.
    pub at_ms: f64,
    /// How long it took.
    pub took_ms: f64,
    /// Pawns from the mover's view (`+0.31`, `+M3`).
    pub score: String,
    pub nodes: u64,
    /// The first moves of the principal variation, in SAN.
    pub pv: String,
}

/// One soft-stop check, after a completed iteration (Sandglass only).
#[derive(Clone, Debug, PartialEq)]
pub struct Check {
    pub depth: u32,
    pub elapsed_ms: f64,
    pub last_iteration_ms: f64,
    /// Soft before and after the adjustments, and their multiplier and reason.
    pub base_soft_ms: u64,
    pub soft_ms: f64,
    pub scale: f64,
    pub adjust: String,
    /// The rule's verdict and its words.
    pub stop: bool,
    pub why: String,
    /// Under the `2x` rule, when the next depth would end: elapsed + F × last.
    pub next_end_ms: Option<f64>,
    /// The learned model's probability that the next depth plays another move
    /// (`time::soft::change_probability`), whichever rule is in force: a class can watch
    /// what the `learned` rule would weigh while another rule decides.
    pub p_change: f64,
}

/// The move being thought.
#[derive(Clone, Debug, PartialEq)]
pub struct Thinking {
    pub side: usize,
    /// The move's number in the game score (1. e4 … 1... e5 both 1).
    pub number: u32,
    pub clock_before_ms: i64,
    pub moves_to_go: Option<u32>,
    /// When it started, on the server's clock (ms since the program started).
    pub started_ms: f64,
    pub plan: Option<Plan>,
    pub iterations: Vec<Iteration>,
    pub checks: Vec<Check>,
}

/// A move played, with how its time was spent.
#[derive(Clone, Debug, PartialEq)]
pub struct Played {
    pub thinking: Thinking,
    pub san: String,
    pub clock_after_ms: i64,
    /// What the search gave: the time spent, the score, the depth, and why it stopped.
    pub thought: Thought,
}

/// How the game ended.
#[derive(Clone, Debug, PartialEq)]
pub struct Ending {
    /// "1-0", "0-1", "1/2-1/2" or "*".
    pub result: String,
    /// PGN's Termination: "normal", "time forfeit", "abandoned", "rules infraction",
    /// "adjudication", "unterminated".
    pub termination: String,
    /// For people: "checkmate", "Black lost on time", …
    pub words: String,
}

/// Everything the page shows.
#[derive(Clone, Debug)]
pub struct State {
    /// Bumped on every change.
    pub version: u64,
    pub title: String,
    /// The time control as given (`60+0.6`) and in words.
    pub tc: String,
    pub tc_words: String,
    pub players: [PlayerInfo; 2],
    pub fen: String,
    pub board_svg: String,
    /// Each side's clock when its move starts (the clock of the side thinking ticks down
    /// from it on the page).
    pub clocks: [i64; 2],
    pub thinking: Option<Thinking>,
    pub last: Option<Played>,
    /// Every move so far: side, the move as the game score writes it ("12... Nf3"), spent.
    pub moves: Vec<(usize, String, i64)>,
    /// Paused from the page; the game waits before its next move.
    pub paused: bool,
    /// Time held after each move before the next starts (the clocks do not run).
    pub hold_ms: u64,
    /// On the server's clock, when the hold after the last move ends.
    pub hold_until_ms: Option<f64>,
    /// The game has not started: it waits for the first page.
    pub waiting_for_viewer: bool,
    pub ending: Option<Ending>,
    /// Files written at the end.
    pub saved: Vec<String>,
    /// The game so far as `tm --pgn` draws it, one SVG per picture, and its version.
    pub figures: Arc<Vec<String>>,
    pub figures_version: u64,
}

impl State {
    pub fn new(title: String, tc: String, tc_words: String, players: [PlayerInfo; 2]) -> State {
        State {
            version: 1,
            title,
            tc,
            tc_words,
            players,
            fen: String::new(),
            board_svg: String::new(),
            clocks: [0, 0],
            thinking: None,
            last: None,
            moves: Vec::new(),
            paused: false,
            hold_ms: 0,
            hold_until_ms: None,
            waiting_for_viewer: false,
            ending: None,
            saved: Vec::new(),
            figures: Arc::new(Vec::new()),
            figures_version: 0,
        }
    }

    /// In a word, what the game is doing.
    pub fn phase(&self) -> &'static str {
        if self.ending.is_some() {
            "over"
        } else if self.thinking.is_some() {
            "thinking"
        } else if self.waiting_for_viewer {
            "waiting"
        } else if self.paused {
            "paused"
        } else if self.hold_until_ms.is_some() {
            "holding"
        } else {
            "between moves"
        }
    }

    /// The state as JSON, with the server's clock `now_ms` (the page sets its own by it).
    /// The pictures of the game so far are sent apart ([`State::figures_json`]), only when
    /// they change.
    pub fn json(&self, now_ms: f64) -> String {
        let players = array(self.players.iter().map(|p| {
            Object::new()
                .str("name", &p.name)
                .str("kind", p.kind)
                .str("detail", &p.detail)
                .finish()
        }));
        let moves = array(self.moves.iter().map(|(side, text, spent)| {
            Object::new()
                .int("side", *side as i64)
                .str("text", text)
                .int("spent_ms", *spent)
                .finish()
        }));
        let ending = self.ending.as_ref().map_or("null".to_string(), |e| {
            Object::new()
                .str("result", &e.result)
                .str("termination", &e.termination)
                .str("words", &e.words)
                .finish()
        });
        Object::new()
            .int("version", self.version as i64)
            .num("server_ms", now_ms)
            .str("phase", self.phase())
            .str("title", &self.title)
            .str("tc", &self.tc)
            .str("tc_words", &self.tc_words)
            .raw("players", &players)
            .str("fen", &self.fen)
            .str("board_svg", &self.board_svg)
            .raw("clocks", &array(self.clocks.iter().map(|c| c.to_string())))
            .raw(
                "thinking",
                &self.thinking.as_ref().map_or("null".into(), thinking_json),
            )
            .raw(
                "last",
                &self.last.as_ref().map_or("null".into(), played_json),
            )
            .raw("moves", &moves)
            .bool("paused", self.paused)
            .int("hold_ms", self.hold_ms as i64)
            .opt_num("hold_until_ms", self.hold_until_ms)
            .bool("waiting_for_viewer", self.waiting_for_viewer)
            .raw("ending", &ending)
            .raw("saved", &array(self.saved.iter().map(|s| string(s))))
            .int("figures_version", self.figures_version as i64)
            .finish()
    }

    /// The pictures of the game so far as JSON: `{"version": n, "svgs": [...]}`.
    pub fn figures_json(&self) -> String {
        Object::new()
            .int("version", self.figures_version as i64)
            .raw("svgs", &array(self.figures.iter().map(|s| string(s))))
            .finish()
    }
}

fn thinking_json(t: &Thinking) -> String {
    let plan = t.plan.as_ref().map_or("null".to_string(), |p| {
        Object::new()
            .str("strategy", &p.strategy)
            .num("plan_ms", p.plan_ms)
            .int("soft_ms", p.soft_ms as i64)
            .int("hard_ms", p.hard_ms as i64)
            .str("why", &p.why)
            .finish()
    });
    let iterations = array(t.iterations.iter().map(|i| {
        Object::new()
            .int("depth", i64::from(i.depth))
            .num("at_ms", i.at_ms)
            .num("took_ms", i.took_ms)
            .str("score", &i.score)
            .int("nodes", i.nodes as i64)
            .str("pv", &i.pv)
            .finish()
    }));
    let checks = array(t.checks.iter().map(|c| {
        Object::new()
            .int("depth", i64::from(c.depth))
            .num("elapsed_ms", c.elapsed_ms)
            .num("last_iteration_ms", c.last_iteration_ms)
            .int("base_soft_ms", c.base_soft_ms as i64)
            .num("soft_ms", c.soft_ms)
            .num("scale", c.scale)
            .str("adjust", &c.adjust)
            .bool("stop", c.stop)
            .str("why", &c.why)
            .opt_num("next_end_ms", c.next_end_ms)
            .num("p_change", c.p_change)
            .finish()
    }));
    Object::new()
        .int("side", t.side as i64)
        .int("number", i64::from(t.number))
        .int("clock_before_ms", t.clock_before_ms)
        .opt_int("moves_to_go", t.moves_to_go.map(i64::from))
        .num("started_ms", t.started_ms)
        .raw("plan", &plan)
        .raw("iterations", &iterations)
        .raw("checks", &checks)
        .finish()
}

fn played_json(p: &Played) -> String {
    Object::new()
        .raw("thinking", &thinking_json(&p.thinking))
        .str("san", &p.san)
        .int("spent_ms", p.thought.spent_ms)
        .int("clock_after_ms", p.clock_after_ms)
        .str("score", &p.thought.score_shown())
        .int("depth", i64::from(p.thought.depth))
        .str("reason", &p.thought.reason)
        .str("detail", &p.thought.detail)
        .str("adjust", &p.thought.adjust)
        .opt_int("final_soft_ms", p.thought.final_soft_ms.map(|s| s as i64))
        .str("timelog", &p.thought.timelog)
        .finish()
}

/// A control from the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    Pause,
    Resume,
    /// Hold this many ms after each move.
    Hold(u64),
}

/// What changed, for an event stream: the state's version and JSON and, when the pictures
/// changed since the stream last sent them, their version and JSON.
#[derive(Clone, Debug, Default)]
pub struct News {
    pub version: u64,
    pub state: String,
    pub figures: Option<(u64, String)>,
}

/// Longest hold after a move that the page may ask for.
pub const MAX_HOLD_MS: u64 = 60_000;

/// The state and what the threads share besides it.
pub struct Shared {
    state: Mutex<State>,
    changed: Condvar,
    epoch: Instant,
    /// Ctrl-C: the game ends after saving what was played.
    interrupted: AtomicBool,
    /// The running in-process search, so that Ctrl-C can stop it.
    search: Mutex<Option<Arc<Signals>>>,
    viewers: AtomicUsize,
}

impl Shared {
    /// Record an iteration of the move being thought, if it is deeper than the last one (the
    /// search also reports aspiration failures and a closing line, which add no depth).
    pub fn record_iteration(&self, mut it: Iteration) {
        self.update(|st| {
            if let Some(t) = st.thinking.as_mut() {
                let last = t.iterations.last();
                if last.is_some_and(|l| l.depth >= it.depth) {
                    return;
                }
                it.took_ms = (it.at_ms - last.map_or(0.0, |l| l.at_ms)).max(0.0);
                t.iterations.push(it);
            }
        });
    }

    pub fn new(state: State) -> Shared {
        Shared {
            state: Mutex::new(state),
            changed: Condvar::new(),
            epoch: Instant::now(),
            interrupted: AtomicBool::new(false),
            search: Mutex::new(None),
            viewers: AtomicUsize::new(0),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The server's clock: ms since the program started.
    pub fn now_ms(&self) -> f64 {
        self.epoch.elapsed().as_secs_f64() * 1000.0
    }

    /// Change the state; the event streams are woken.
    pub fn update(&self, change: impl FnOnce(&mut State)) {
        let mut st = self.lock();
        change(&mut st);
        st.version += 1;
        drop(st);
        self.changed.notify_all();
    }

    /// Read the state.
    pub fn read<T>(&self, look: impl FnOnce(&State) -> T) -> T {
        look(&self.lock())
    }

    /// Wait up to `timeout` for a version newer than `seen`; None on timeout.
    pub fn wait_newer(&self, seen: u64, figures_seen: u64, timeout: Duration) -> Option<News> {
        let deadline = Instant::now() + timeout;
        let mut st = self.lock();
        while st.version <= seen {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return None;
            }
            st = match self.changed.wait_timeout(st, left) {
                Ok((g, _)) => g,
                Err(e) => e.into_inner().0,
            };
        }
        let figures =
            (st.figures_version != figures_seen).then(|| (st.figures_version, st.figures_json()));
        Some(News {
            version: st.version,
            state: st.json(self.now_ms()),
            figures,
        })
    }

    /// Carry out a control from the page.
    pub fn control(&self, c: Control) {
        self.update(|st| match c {
            Control::Pause => st.paused = true,
            Control::Resume => st.paused = false,
            Control::Hold(ms) => st.hold_ms = ms.min(MAX_HOLD_MS),
        });
    }

    /// A page started listening: the game no longer waits for one.
    pub fn viewer_joined(&self) {
        self.viewers.fetch_add(1, Ordering::SeqCst);
        if self.read(|st| st.waiting_for_viewer) {
            self.update(|st| st.waiting_for_viewer = false);
        }
    }

    pub fn viewer_left(&self) {
        self.viewers.fetch_sub(1, Ordering::SeqCst);
    }

    /// Pages listening now.
    pub fn viewers(&self) -> usize {
        self.viewers.load(Ordering::SeqCst)
    }

    /// Before a move: wait while the game waits for its first page, is paused, or holds
    /// after the last move (from `played_ms`, on the server's clock). Returns at once once
    /// interrupted.
    pub fn wait_to_play(&self, played_ms: Option<f64>) {
        loop {
            if self.interrupted() {
                return;
            }
            let now = self.now_ms();
            let (ready, until) = self.read(|st| {
                let until = played_ms
                    .map(|p| p + st.hold_ms as f64)
                    .filter(|&u| u > now);
                (
                    !st.waiting_for_viewer && !st.paused && until.is_none(),
                    until,
                )
            });
            if ready {
                if self.read(|st| st.hold_until_ms.is_some()) {
                    self.update(|st| st.hold_until_ms = None);
                }
                return;
            }
            if self.read(|st| st.hold_until_ms != until) {
                self.update(|st| st.hold_until_ms = until);
            }
            let st = self.lock();
            let _ = self.changed.wait_timeout(st, Duration::from_millis(100));
        }
    }

    /// Ctrl-C: stop the running search; the game ends and is saved.
    pub fn interrupt(&self) {
        self.interrupted.store(true, Ordering::SeqCst);
        if let Some(s) = self
            .search
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_ref()
        {
            s.stop();
        }
        self.changed.notify_all();
    }

    pub fn interrupted(&self) -> bool {
        self.interrupted.load(Ordering::SeqCst)
    }

    /// The in-process search now running (None when it ended).
    pub fn set_search(&self, signals: Option<Arc<Signals>>) {
        let stop_now = signals.is_some() && self.interrupted();
        if let Some(s) = signals.as_ref().filter(|_| stop_now) {
            s.stop();
        }
        *self.search.lock().unwrap_or_else(|e| e.into_inner()) = signals;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn players() -> [PlayerInfo; 2] {
        [
            PlayerInfo {
                name: "A".into(),
                kind: "sandglass",
                detail: "expositor".into(),
            },
            PlayerInfo {
                name: "B <b>".into(),
                kind: "uci",
                detail: "engine".into(),
            },
        ]
    }

    #[test]
    fn the_state_is_one_line_of_json() {
        let mut st = State::new("t".into(), "60+0.6".into(), "words".into(), players());
        st.thinking = Some(Thinking {
            side: 1,
            number: 3,
            clock_before_ms: 5000,
            moves_to_go: None,
            started_ms: 12.5,
            plan: Some(Plan {
                strategy: "expositor".into(),
                plan_ms: 100.0,
                soft_ms: 143,
                hard_ms: 429,
                why: "x\ny".into(),
            }),
            iterations: Vec::new(),
            checks: Vec::new(),
        });
        let j = st.json(1.0);
        assert!(!j.contains('\n'));
        assert!(j.contains("\"phase\":\"thinking\""), "{j}");
        assert!(j.contains("\"soft_ms\":143"));
        assert!(j.contains("B \\u003cb\\u003e"));
    }

    #[test]
    fn controls_and_waiting() {
        let shared = Shared::new(State::new("t".into(), "1".into(), "w".into(), players()));
        shared.control(Control::Hold(10 * MAX_HOLD_MS));
        assert_eq!(shared.read(|s| s.hold_ms), MAX_HOLD_MS);
        shared.control(Control::Hold(0));
        shared.control(Control::Pause);
        assert_eq!(shared.read(|s| s.phase()), "paused");
        let v = shared.read(|s| s.version);
        assert!(shared.wait_newer(v, 0, Duration::from_millis(10)).is_none());
        shared.control(Control::Resume);
        let news = shared
            .wait_newer(v, 0, Duration::from_millis(10))
            .unwrap_or_default();
        assert!(news.version > v && news.state.contains("\"paused\":false"));
        assert!(news.figures.is_none());
        // Not paused, no hold: the game goes on at once.
        shared.wait_to_play(Some(shared.now_ms()));
        shared.interrupt();
        shared.control(Control::Pause);
        // Interrupted: never waits.
        shared.wait_to_play(None);
    }
}
