//! From a `go` command to the search mode: which limits bound the search, and, for a clock,
//! the budget the time manager allocates.

use super::budget::{movetime_budget, Budget};
use super::inputs::{Clock, Game};
use super::settings::{allocate, Settings};
use chess::Color;

/// What a `go` command says about when to stop, as the protocol layer read it. Times are in
/// milliseconds and may be anything a GUI sends (negative clocks included).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoLimits {
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
    /// Some limit of the `go` line could not be read (reported by the parser): the search
    /// must not become unbounded, see [`UNREADABLE_GO_MOVETIME_MS`].
    pub unreadable: bool,
}

/// How long a `go` may search whose limits could not all be read (`go depth` without a
/// number, `go depth -1`, `go wtime abc`, an unknown token) or make no sense (`go mate 0`, an
/// increment or movestogo without a clock), when what remains readable sets no bound.
///
/// Such a line must never become an unbounded search: a GUI that meant a limit would wait
/// forever, or lose on time, for a `bestmove` that comes only after `stop`. A fixed time is
/// the one bound that is safe on any machine (a depth bound is not: depth 20 takes seconds on
/// one machine, minutes on another, and a node bound likewise). One second is short enough
/// for any clock a GUI would use with a real game and still long enough to give a
/// reasonable move; the `info string` says what was wrong, so the user can fix the command.
/// Only a plain `go` (no limits at all) and `go infinite` search until `stop`.
pub const UNREADABLE_GO_MOVETIME_MS: u64 = 1_000;

impl GoLimits {
    /// The side to move's time, increment, movestogo and movetime, for the `TimeLog` line.
    pub fn describe(&self, us: Color) -> String {
        let (t, inc) = self.ours(us);
        let opt = |v: Option<i64>| v.map_or("-".to_string(), |v| v.to_string());
        format!(
            "time {} inc {} movestogo {} movetime {}",
            opt(t),
            opt(inc),
            self.movestogo.map_or("-".into(), |m| m.to_string()),
            self.movetime.map_or("-".into(), |m| m.to_string()),
        )
    }

    /// `(time, increment)` of the side to move.
    fn ours(&self, us: Color) -> (Option<i64>, Option<i64>) {
        match us {
            Color::White => (self.wtime, self.winc),
            Color::Black => (self.btime, self.binc),
        }
    }

    fn theirs(&self, us: Color) -> Option<i64> {
        match us {
            Color::White => self.btime,
            Color::Black => self.wtime,
        }
    }
}

/// How time bounds a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TimeLimit {
    /// No time limit: the search ends on `stop`, on a depth, node or mate limit, or at the
    /// maximum depth.
    None,
    /// `go movetime`: search exactly this long; the soft stop does not apply.
    MoveTime(u64),
    /// A clock: the soft stop between iterations and the hard stop inside them.
    Clock(Budget),
}

impl TimeLimit {
    /// The budget as the search and `TimeLog` see it; None without a time limit.
    /// A movetime is a budget whose soft and hard limits are equal.
    pub fn budget(&self) -> Option<Budget> {
        match self {
            TimeLimit::None => None,
            TimeLimit::MoveTime(ms) => {
                Some(movetime_budget(i64::try_from(*ms).unwrap_or(i64::MAX)))
            }
            TimeLimit::Clock(b) => Some(b.clone()),
        }
    }

    /// The hard limit in ms, if any.
    pub fn hard_ms(&self) -> Option<u64> {
        self.budget().map(|b| b.hard_ms)
    }
}

/// When the engine may answer `bestmove`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// As soon as the search ends.
    WhenDone,
    /// `go infinite`: only after `stop`, however early the search ends.
    AfterStop,
    /// `go ponder`: the clock starts at `ponderhit`; before it no time limit applies, and an
    /// ended search waits for `ponderhit` or `stop`.
    AfterPonderHit,
}

impl Answer {
    /// The answer a `go` asks for: `infinite` wins over `ponder`.
    pub fn of(go: &GoLimits) -> Answer {
        if go.infinite {
            Answer::AfterStop
        } else if go.ponder {
            Answer::AfterPonderHit
        } else {
            Answer::WhenDone
        }
    }
}

/// Everything that bounds one search. Limits combine as UCI allows (`go depth 12 movetime
/// 5000` stops at whichever comes first), but a movetime with a soft stop, or a clock
/// without a budget, cannot be written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mode {
    pub time: TimeLimit,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Stop after the first iteration that ends past this many nodes (data generation: a
    /// "soft" node limit, which never leaves an iteration unfinished; `nodes` is then the
    /// hard cap).
    pub soft_nodes: Option<u64>,
    /// Stop once a mate in at most this many moves is found.
    pub mate: Option<u32>,
    pub answer: Answer,
}

impl Default for Mode {
    /// No limit at all: search until `stop` or the maximum depth.
    fn default() -> Mode {
        Mode {
            time: TimeLimit::None,
            depth: None,
            nodes: None,
            soft_nodes: None,
            mate: None,
            answer: Answer::WhenDone,
        }
    }
}

impl Mode {
    /// A fixed-depth search (bench, tests).
    pub fn depth(depth: u32) -> Mode {
        Mode {
            depth: Some(depth),
            ..Mode::default()
        }
    }

    /// A fixed-node search (self-play, data generation).
    pub fn nodes(nodes: u64) -> Mode {
        Mode {
            nodes: Some(nodes),
            ..Mode::default()
        }
    }

    /// A soft node limit (data generation): whole iterations until one ends past `soft`
    /// nodes, with a hard cap of [`SOFT_NODES_CAP`] times that against a pathological tree.
    /// akimbo measured data made this way +43 Elo over a hard node limit (akimbo #113): every
    /// score comes from a finished iteration, and easy positions are searched deeper.
    pub fn soft_nodes(soft: u64) -> Mode {
        Mode {
            soft_nodes: Some(soft),
            nodes: Some(soft.saturating_mul(SOFT_NODES_CAP)),
            ..Mode::default()
        }
    }

    /// A fixed time per move.
    pub fn movetime(ms: u64) -> Mode {
        Mode {
            time: TimeLimit::MoveTime(ms),
            ..Mode::default()
        }
    }
}

/// The hard cap of [`Mode::soft_nodes`], as a multiple of the soft limit.
pub const SOFT_NODES_CAP: u64 = 20;

/// The search mode for `go`, with notes on anything odd for `info string` lines.
///
/// `us` picks the clock: White's `wtime`/`winc` or Black's `btime`/`binc`. `infinite`
/// overrides any time limit; `movetime` overrides the clock; a clock is allocated by the
/// selected strategy ([`allocate`]).
pub fn decide(go: &GoLimits, us: Color, game: &Game, settings: &Settings) -> (Mode, Vec<String>) {
    let mut notes = Vec::new();
    let mut mode = Mode {
        time: TimeLimit::None,
        depth: go.depth.map(|d| d.max(1)),
        nodes: go.nodes,
        soft_nodes: None,
        mate: go.mate.filter(|&m| m > 0),
        answer: Answer::of(go),
    };
    if go.infinite {
        return (mode, notes);
    }
    if let Some(ms) = go.movetime {
        mode.time = TimeLimit::MoveTime(ms);
        return (mode, notes);
    }
    let (ours, inc) = go.ours(us);
    let time_left = match (ours, go.theirs(us)) {
        (Some(t), _) => Some(t),
        (None, Some(t)) => {
            notes.push(format!(
                "error: go gives no clock for the side to move; assuming {t} ms like the opponent's"
            ));
            Some(t)
        }
        (None, None) => None,
    };
    if let Some(t) = time_left {
        let clock = Clock {
            time_left_ms: t,
            increment_ms: inc.unwrap_or(0).max(0),
            moves_to_go: go.movestogo.filter(|&m| m > 0),
            overhead_ms: settings.move_overhead_ms,
        };
        mode.time = TimeLimit::Clock(allocate(settings, &clock, game));
    }
    let unbounded = mode.time == TimeLimit::None
        && mode.depth.is_none()
        && mode.nodes.is_none()
        && mode.mate.is_none();
    if unbounded {
        let why = if go.unreadable {
            Some("its limits could not be read")
        } else if go.mate == Some(0) {
            Some("mate 0 asks for no mate")
        } else if go.winc.is_some() || go.binc.is_some() || go.movestogo.is_some() {
            // Either side's increment: `go winc 1000` with Black to move still means a game
            // on the clock, just not one whose clock we were told.
            Some("an increment or movestogo without a clock for the side to move")
        } else {
            None
        };
        match why {
            Some(why) => {
                notes.push(format!(
                    "error: go: {why}; searching at most {UNREADABLE_GO_MOVETIME_MS} ms"
                ));
                mode.time = TimeLimit::MoveTime(UNREADABLE_GO_MOVETIME_MS);
            }
            None if !go.ponder => {
                notes.push("go without limits: searching until stop or the maximum depth".into())
            }
            None => {}
        }
    }
    (mode, notes)
}
