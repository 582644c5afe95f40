//! The hard stop: node counting and clock polling inside the search, and the flags the engine
//! loop shares with the search threads.
//!
//! Node limits are compared at every node, so `go nodes` is exact; the clock and the stop flag
//! are read every [`POLL_INTERVAL`] nodes. Why that interval, and how the hard stop fits with
//! the soft stop and the allocation, is explained once, in `crate::time`.

use super::observed::{Completed, SoftCheck};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

/// Told of every soft-stop check of the main thread (see [`Signals::observed_by`]).
pub type Observer = Box<dyn Fn(&SoftCheck) + Send + Sync>;

/// Told of every completed iteration of the main thread (see [`Signals::iterations_seen_by`]).
pub type IterationObserver = Box<dyn Fn(&Completed) + Send + Sync>;

/// Nodes between two polls of the clock and the stop flag.
pub const POLL_INTERVAL: u64 = 1024;

/// Flags shared between the engine loop and the search threads.
pub struct Signals {
    /// Set by `stop`, `quit`, a new `go`, or the main search thread when it is done.
    stop: AtomicBool,
    /// Set during `go ponder` until `ponderhit`: no time limit applies while it is set.
    pondering: AtomicBool,
    /// Set by the main search thread when it is done, so helper threads stop too. Kept apart
    /// from `stop` because `go infinite` must still wait for the GUI's `stop`.
    finished: AtomicBool,
    /// Set while pondering once the soft stop says the move is done: `ponderhit` then ends
    /// the search at once (Stockfish's `stopOnPonderhit`; see `crate::time`, "Pondering").
    stop_on_ponderhit: AtomicBool,
    /// Microseconds after `epoch` from which the budget is measured (reset by `ponderhit`).
    origin_us: AtomicU64,
    epoch: Instant,
    /// Nodes searched by all threads (helpers add theirs at every poll).
    pub nodes: AtomicU64,
    /// Tablebase probes that answered, all threads (UCI `tbhits`).
    pub tbhits: AtomicU64,
    /// Helper threads started and not yet ended.
    helpers: AtomicUsize,
    wake: (Mutex<()>, Condvar),
    /// Who wants to see the time manager decide, as it decides (`sandglass watch`); the
    /// engine sets none.
    observer: Option<Observer>,
    /// Who records every completed iteration (`sandglass searchlog`); the engine sets none.
    iterations: Option<IterationObserver>,
}

impl Signals {
    pub fn new(pondering: bool) -> Signals {
        Signals {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(pondering),
            finished: AtomicBool::new(false),
            stop_on_ponderhit: AtomicBool::new(false),
            origin_us: AtomicU64::new(0),
            epoch: Instant::now(),
            nodes: AtomicU64::new(0),
            tbhits: AtomicU64::new(0),
            helpers: AtomicUsize::new(0),
            wake: (Mutex::new(()), Condvar::new()),
            observer: None,
            iterations: None,
        }
    }

    /// These signals, with `observer` told of each soft-stop check after a completed
    /// iteration: the adjusted soft limit, the rule's numbers and its verdict, the values
    /// `TimeLog` prints once at the end. It is called on the main search thread, between
    /// iterations, and changes nothing the search does.
    pub fn observed_by(mut self, observer: Observer) -> Signals {
        self.observer = Some(observer);
        self
    }

    /// Tell the observer, if any, of one soft-stop check.
    pub fn observe(&self, check: &SoftCheck) {
        if let Some(o) = &self.observer {
            o(check);
        }
    }

    /// These signals, with `observer` told of each completed iteration of the main thread,
    /// whatever bounds the search: depth, time, nodes, move, score and what the adjustments
    /// read. It is called between iterations and changes nothing the search does.
    pub fn iterations_seen_by(mut self, observer: IterationObserver) -> Signals {
        self.iterations = Some(observer);
        self
    }

    /// Whether anyone watches the iterations (the search gathers what it shows only then).
    pub fn sees_iterations(&self) -> bool {
        self.iterations.is_some()
    }

    /// Tell the iterations' observer, if any, of one completed iteration.
    pub fn observe_iteration(&self, done: &Completed) {
        if let Some(o) = &self.iterations {
            o(done);
        }
    }

    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
        self.notify();
    }

    /// The main search thread is done: helpers stop.
    pub fn finish(&self) {
        self.finished.store(true, Ordering::SeqCst);
        self.notify();
    }

    /// Counted by the thread that spawns a helper, before it runs.
    pub fn helper_started(&self) {
        self.helpers.fetch_add(1, Ordering::SeqCst);
    }

    /// The helper's last act.
    pub fn helper_ended(&self) {
        self.helpers.fetch_sub(1, Ordering::SeqCst);
    }

    /// Helper threads still running.
    pub fn helpers_running(&self) -> usize {
        self.helpers.load(Ordering::SeqCst)
    }

    pub fn finished(&self) -> bool {
        self.finished.load(Ordering::Relaxed)
    }

    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    pub fn pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    /// The soft stop was reached while pondering: stop as soon as `ponderhit` comes.
    pub fn stop_on_ponderhit(&self) {
        self.stop_on_ponderhit.store(true, Ordering::SeqCst);
    }

    /// `ponderhit`: the move we pondered was played; the clock starts now. Returns false,
    /// and changes nothing, when the search is not pondering: a stray `ponderhit` must not
    /// restart the clock of a search that is already spending its own time.
    pub fn ponderhit(&self) -> bool {
        if !self.pondering() {
            return false;
        }
        let now = self.epoch.elapsed().as_micros() as u64;
        self.origin_us.store(now, Ordering::SeqCst);
        self.pondering.store(false, Ordering::SeqCst);
        self.notify();
        true
    }

    /// Time since the budget started (the `go`, or the `ponderhit`).
    pub fn elapsed(&self) -> Duration {
        let origin = Duration::from_micros(self.origin_us.load(Ordering::Relaxed));
        self.epoch.elapsed().saturating_sub(origin)
    }

    /// Time since the `go` itself: for `info time`, and for the soft stop, which counts
    /// the time spent pondering.
    pub fn since_go(&self) -> Duration {
        self.epoch.elapsed()
    }

    fn notify(&self) {
        let _guard = self.wake.0.lock().unwrap_or_else(|e| e.into_inner());
        self.wake.1.notify_all();
    }

    /// Block until `stop` or `ponderhit` (for `go infinite` and `go ponder`, which must not
    /// answer before the GUI says so), or until `done()` holds.
    pub fn wait_until(&self, done: impl Fn(&Signals) -> bool) {
        let mut guard = self.wake.0.lock().unwrap_or_else(|e| e.into_inner());
        while !done(self) {
            guard = match self.wake.1.wait_timeout(guard, Duration::from_millis(50)) {
                Ok((g, _)) => g,
                Err(e) => e.into_inner().0,
            };
        }
    }
}

impl Signals {
    /// Block until `at` has passed since the `go` and the search is no longer pondering, or
    /// until `stop`: a limited strength's human-looking think time
    /// (`search::strength`). Time spent pondering counts, as a person's does.
    pub fn wait_since_go(&self, at: Duration) {
        let mut guard = self.wake.0.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if self.stopped() {
                return;
            }
            let left = at.saturating_sub(self.since_go());
            if left.is_zero() && !self.pondering() {
                return;
            }
            let nap = if left.is_zero() {
                Duration::from_millis(50)
            } else {
                left.min(Duration::from_millis(50))
            };
            guard = match self.wake.1.wait_timeout(guard, nap) {
                Ok((g, _)) => g,
                Err(e) => e.into_inner().0,
            };
        }
    }
}

/// Why a search ended, for `TimeLog` and tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// Still running (never reported at the end).
    None,
    /// The GUI (or a new command) stopped it.
    Stopped,
    HardTime,
    SoftTime,
    /// The soft stop was reached while pondering; ended at `ponderhit`.
    PonderHit,
    Nodes,
    Depth,
    Mate,
    /// Only one legal move: played at once.
    SingleReply,
    /// No legal moves at all.
    NoMoves,
}

impl StopReason {
    pub fn describe(self) -> &'static str {
        match self {
            StopReason::None => "not stopped",
            StopReason::Stopped => "stop command",
            StopReason::HardTime => "hard limit (unwound mid-iteration)",
            StopReason::SoftTime => "soft limit (next depth would not fit)",
            StopReason::PonderHit => "soft limit reached while pondering, stopped at ponderhit",
            StopReason::Nodes => "node limit",
            StopReason::Depth => "depth limit",
            StopReason::Mate => "mate found",
            StopReason::SingleReply => "single legal reply",
            StopReason::NoMoves => "no legal moves",
        }
    }
}

/// One thread's view: counts its nodes and decides when to unwind.
pub struct Stopper<'a> {
    pub signals: &'a Signals,
    pub nodes: u64,
    /// The node limit in force: none until [`Stopper::arm_node_limit`].
    node_limit: u64,
    /// The node limit of the `go`, armed once depth 1 is complete: a search cut before its
    /// first iteration ends has no move worth playing (see `iterate`).
    requested_node_limit: u64,
    hard: Option<Duration>,
    next_poll: u64,
    reported: u64,
    /// Whether this thread owns the limits (the main thread); helpers only obey `stop`.
    main: bool,
    pub reason: StopReason,
}

impl<'a> Stopper<'a> {
    /// A helper thread's stopper: no limits of its own, it stops when the main thread does.
    pub fn helper(signals: &'a Signals) -> Self {
        Stopper::new(signals, None, None, false)
    }

    pub fn new(
        signals: &'a Signals,
        node_limit: Option<u64>,
        hard: Option<Duration>,
        main: bool,
    ) -> Self {
        Stopper {
            signals,
            nodes: 0,
            node_limit: u64::MAX,
            requested_node_limit: node_limit.unwrap_or(u64::MAX),
            hard,
            next_poll: POLL_INTERVAL,
            reported: 0,
            main,
            reason: StopReason::None,
        }
    }

    #[inline]
    pub fn is_stopped(&self) -> bool {
        self.reason != StopReason::None
    }

    /// May the search visit one more node? Counts it if so.
    #[inline]
    pub fn tick(&mut self) -> bool {
        if self.reason != StopReason::None {
            return false;
        }
        if self.nodes >= self.node_limit {
            self.reason = StopReason::Nodes;
            return false;
        }
        self.nodes += 1;
        if self.nodes >= self.next_poll {
            self.next_poll = self.nodes + POLL_INTERVAL;
            self.poll();
        }
        self.reason == StopReason::None
    }

    fn poll(&mut self) {
        self.signals
            .nodes
            .fetch_add(self.nodes - self.reported, Ordering::Relaxed);
        self.reported = self.nodes;
        if self.signals.stopped() || (!self.main && self.signals.finished()) {
            self.reason = StopReason::Stopped;
        } else if self.main && !self.signals.pondering() {
            if self.signals.stop_on_ponderhit.load(Ordering::Relaxed) {
                self.reason = StopReason::PonderHit;
            } else if let Some(hard) = self.hard {
                if self.signals.elapsed() >= hard {
                    self.reason = StopReason::HardTime;
                }
            }
        }
    }

    /// From now on the node limit applies; true if it is already exceeded.
    pub fn arm_node_limit(&mut self) -> bool {
        self.node_limit = self.requested_node_limit;
        self.nodes >= self.node_limit
    }

    /// Nodes of all threads so far.
    pub fn total_nodes(&self) -> u64 {
        self.signals.nodes.load(Ordering::Relaxed) + (self.nodes - self.reported)
    }
}
