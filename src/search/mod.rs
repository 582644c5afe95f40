//! Iterative deepening: search depth 1, 2, 3, … until a limit says stop.
//!
//! Two time checks shape every search (the project is built around them):
//! - **Hard stop** (inside the tree): the `Stopper` counts nodes and polls the clock every
//!   `POLL_INTERVAL` nodes; past the hard limit the search unwinds at once.
//! - **Soft stop** (between depths): depth d+1 costs about F = 2 times depth d, so the next
//!   iteration is started only if the time left in the soft budget covers that,
//!   `elapsed + F × last iteration < soft` (`time::stop_before_next_depth`), with the soft
//!   budget scaled by the search-side adjustments of `time::adjust`.
//!
//! Which move is played when a search is cut short: the best move of the last completed
//! iteration, unless the unfinished iteration already searched a root move to completion with
//! a score above its window's alpha. The first root move searched is the previous best, so such
//! a move was proved better than it at the greater depth, and is played instead.

pub mod alphabeta;
pub mod features;
pub mod ordering;
pub mod see;
pub mod stopper;

use crate::position::Position;
use crate::score::{INFINITY, MATE};
use crate::time::{self, adjust, Mode, TimeLimit};
use crate::tt::TranspositionTable;
use alphabeta::Searcher;
use chess::ChessMove;
use ordering::MAX_PLY;
use std::time::Duration;
pub use stopper::{Signals, StopReason, Stopper};

/// What limits a search, and how. Time comes in as part of the mode, already decided by the
/// time manager.
#[derive(Clone, Debug)]
pub struct Limits {
    pub mode: Mode,
    /// Root moves to consider; empty = all.
    pub searchmoves: Vec<ChessMove>,
    pub multipv: usize,
    pub threads: usize,
    pub adjust: adjust::Adjustments,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            mode: Mode::default(),
            searchmoves: Vec::new(),
            multipv: 1,
            threads: 1,
            adjust: adjust::Adjustments::default(),
        }
    }
}

/// Whether a reported score is exact or a bound from an aspiration failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreBound {
    Exact,
    Lower,
    Upper,
}

/// One line of search output (the engine turns it into `info depth …`).
#[derive(Clone, Debug)]
pub struct Info {
    pub depth: u32,
    pub seldepth: usize,
    pub multipv: usize,
    pub score: i32,
    pub bound: ScoreBound,
    pub nodes: u64,
    pub time: Duration,
    pub hashfull: u32,
    pub pv: Vec<ChessMove>,
}

/// The result of a search.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub best: Option<ChessMove>,
    pub ponder: Option<ChessMove>,
    pub score: i32,
    /// Last completed depth.
    pub depth: u32,
    pub nodes: u64,
    pub reason: StopReason,
    /// The soft limit as finally scaled by the adjustments, and why.
    pub soft_ms: Option<u64>,
    pub adjust_reason: String,
}

/// Search `pos` under `limits`, calling `report` after each iteration (and on aspiration
/// failures). Runs `limits.threads` threads (Lazy SMP: helpers share only the table).
pub fn search(
    pos: &Position,
    limits: &Limits,
    tt: &TranspositionTable,
    signals: &Signals,
    report: &mut dyn FnMut(&Info),
) -> Outcome {
    let mut root = pos.clone();
    root.trim_record();
    root.set_search_root();
    tt.new_search();

    let legal: Vec<ChessMove> = root.legal_moves().collect();
    let mut root_moves: Vec<ChessMove> = if limits.searchmoves.is_empty() {
        legal.clone()
    } else {
        legal
            .iter()
            .copied()
            .filter(|m| limits.searchmoves.contains(m))
            .collect()
    };
    if root_moves.is_empty() {
        root_moves = legal;
    }
    if root_moves.is_empty() {
        return Outcome {
            best: None,
            ponder: None,
            score: if root.in_check() { -MATE } else { 0 },
            depth: 0,
            nodes: 0,
            reason: StopReason::NoMoves,
            soft_ms: None,
            adjust_reason: String::new(),
        };
    }

    // Node limits are exact only with one thread; `go nodes` therefore searches alone.
    let threads = if limits.mode.nodes.is_some() {
        1
    } else {
        limits.threads.max(1)
    };
    let hard = limits.mode.time.hard_ms().map(Duration::from_millis);
    std::thread::scope(|scope| {
        for id in 1..threads {
            let root = root.clone();
            let moves = root_moves.clone();
            scope.spawn(move || {
                let stopper = Stopper::helper(signals);
                let mut searcher = Searcher::new(root, tt, stopper);
                searcher.mate_search = limits.mode.mate.is_some();
                helper_loop(&mut searcher, &moves, id);
            });
        }
        let stopper = Stopper::new(signals, limits.mode.nodes, hard, true);
        let mut searcher = Searcher::new(root.clone(), tt, stopper);
        searcher.mate_search = limits.mode.mate.is_some();
        let outcome = main_loop(&mut searcher, root_moves, limits, report);
        signals.finish();
        outcome
    })
}

/// A helper thread: the same iterative deepening, staggered by one ply on odd threads so the
/// threads spread over depths, with no output. Its only product is table entries.
fn helper_loop(searcher: &mut Searcher, root_moves: &[ChessMove], id: usize) {
    let mut moves = root_moves.to_vec();
    let mut depth = 1 + (id % 2) as i32;
    while depth < MAX_PLY as i32 && !searcher.stop.is_stopped() {
        let (_, best) = searcher.search_root(&moves, depth, -INFINITY, INFINITY);
        if let Some(b) = best {
            if let Some(i) = moves.iter().position(|m| *m == b) {
                moves[..=i].rotate_right(1);
            }
        }
        depth += 1;
    }
}

/// One MultiPV line of the last completed iteration.
#[derive(Clone)]
struct Line {
    score: i32,
    pv: Vec<ChessMove>,
}

fn main_loop(
    s: &mut Searcher,
    mut root_moves: Vec<ChessMove>,
    limits: &Limits,
    report: &mut dyn FnMut(&Info),
) -> Outcome {
    let signals = s.stop.signals;
    let max_depth = limits
        .mode
        .depth
        .map_or(MAX_PLY as u32 - 1, |d| d.clamp(1, MAX_PLY as u32 - 1));
    let multipv = limits.multipv.clamp(1, root_moves.len());
    let mut best: ChessMove = root_moves[0];
    let mut ponder = None;
    let mut score = 0;
    let mut completed = 0;
    let mut reason = StopReason::None;
    let mut progress = adjust::Progress {
        legal_moves: root_moves.len(),
        ..Default::default()
    };
    let mut soft_ms = limits.mode.time.budget().map(|b| b.soft_ms);
    let mut adjust_reason = String::new();

    let info = |s: &Searcher, depth: u32, pv_index: usize, line: &Line, bound| Info {
        depth,
        seldepth: s.seldepth,
        multipv: pv_index + 1,
        score: line.score,
        bound,
        nodes: s.stop.total_nodes(),
        time: signals.since_go(),
        hashfull: s.tt.hashfull(),
        pv: line.pv.clone(),
    };

    'deepening: for depth in 1..=max_depth {
        s.seldepth = 0;
        let iteration_start = signals.elapsed();
        let mut lines: Vec<Line> = Vec::with_capacity(multipv);
        for pv_index in 0..multipv {
            let candidates: Vec<ChessMove> = root_moves
                .iter()
                .copied()
                .filter(|m| !lines.iter().any(|l| l.pv.first() == Some(m)))
                .collect();
            let guess = if pv_index == 0 {
                score
            } else {
                lines[pv_index - 1].score
            };
            let mut delta = 25;
            let aspiration = features::Features::current().aspiration;
            let (mut alpha, mut beta) = if aspiration && depth >= 5 && guess.abs() < 2_000 {
                (guess - delta, guess + delta)
            } else {
                (-INFINITY, INFINITY)
            };
            loop {
                let (value, mv) = s.search_root(&candidates, depth as i32, alpha, beta);
                if s.stop.is_stopped() {
                    // The rule in the module doc: a root move that beat alpha in the unfinished
                    // iteration is played; otherwise the last completed iteration's move.
                    if pv_index == 0 {
                        if let Some(m) = mv {
                            if m != best {
                                best = m;
                                ponder = s.root_pv().get(1).copied();
                                score = value;
                            }
                        }
                    }
                    reason = s.stop.reason;
                    break 'deepening;
                }
                let mut pv = s.root_pv();
                if pv.is_empty() {
                    // A fail low proves no move; show the line being refuted.
                    pv = vec![best];
                }
                let bound = if value <= alpha {
                    ScoreBound::Upper
                } else if value >= beta {
                    ScoreBound::Lower
                } else {
                    ScoreBound::Exact
                };
                if bound != ScoreBound::Exact {
                    let line = Line {
                        score: value,
                        pv: pv.clone(),
                    };
                    report(&info(s, depth, pv_index, &line, bound));
                }
                if bound == ScoreBound::Upper {
                    beta = (alpha + beta) / 2;
                    alpha = (value - delta).max(-INFINITY);
                } else if bound == ScoreBound::Lower {
                    beta = (value + delta).min(INFINITY);
                } else {
                    lines.push(Line { score: value, pv });
                    break;
                }
                delta += delta;
                if delta > 1_000 {
                    alpha = -INFINITY;
                    beta = INFINITY;
                }
            }
        }
        completed = depth;
        for (i, line) in lines.iter().enumerate() {
            report(&info(s, depth, i, line, ScoreBound::Exact));
        }
        // Order the root moves for the next iteration: the lines' moves first.
        for line in lines.iter().rev() {
            if let Some(i) = line
                .pv
                .first()
                .and_then(|f| root_moves.iter().position(|m| m == f))
            {
                root_moves[..=i].rotate_right(1);
            }
        }
        let new_best = lines[0].pv.first().copied().unwrap_or(best);
        let new_score = lines[0].score;
        if depth > 1 {
            progress.best_move_changes *= adjust::BEST_MOVE_CHANGE_DECAY;
            if new_best != best {
                progress.best_move_changes += 1.0;
                progress.stable_iterations = 0;
            } else {
                progress.stable_iterations += 1;
            }
            progress.score_drop_cp = score - new_score;
        }
        best = new_best;
        ponder = lines[0].pv.get(1).copied();
        score = new_score;

        // Limits that end the search after a completed iteration.
        if let Some(n) = limits.mode.mate {
            if score >= MATE - (2 * n as i32 - 1) {
                reason = StopReason::Mate;
                break;
            }
        }
        if depth >= max_depth {
            reason = StopReason::Depth;
            break;
        }
        if let TimeLimit::Clock(budget) = &limits.mode.time {
            if signals.pondering() {
                continue;
            }
            let scale = adjust::soft_scale(&limits.adjust, &progress);
            let soft = adjust::scaled_soft_ms(budget.soft_ms, budget.hard_ms, scale);
            soft_ms = Some(soft);
            adjust_reason = adjust::reason(&limits.adjust, &progress);
            let now = signals.elapsed();
            let elapsed = now.as_millis() as u64;
            let last = now.saturating_sub(iteration_start).as_millis() as u64;
            if time::stop_before_next_depth(elapsed, last, soft) {
                reason = if progress.legal_moves == 1 && limits.adjust.single_reply {
                    StopReason::SingleReply
                } else {
                    StopReason::SoftTime
                };
                break;
            }
        }
    }
    if reason == StopReason::None {
        reason = StopReason::Depth;
    }
    Outcome {
        best: Some(best),
        ponder,
        score,
        depth: completed,
        nodes: s.stop.total_nodes(),
        reason,
        soft_ms,
        adjust_reason,
    }
}
