//! Iterative deepening: search depth 1, 2, 3, … until a limit says stop.
//!
//! Each iteration searches every MultiPV line through an aspiration window, reports the
//! lines, puts their moves first for the next iteration, and tells the time manager what it
//! saw (best-move changes, score drops, the best move's share of the nodes); then the limits
//! that end a search after a completed iteration are checked, the soft stop among them
//! (explained in `crate::time`). While pondering, a soft stop only arms the stop at
//! `ponderhit`.
//!
//! Which move is played when a search is cut short: the best move of the last completed
//! iteration, unless the unfinished iteration already searched a root move to completion with
//! a score above its window's alpha. The first root move searched is the previous best, so
//! such a move was proved better than it at the greater depth, and is played instead.
//!
//! A node limit applies from depth 2 on: depth 1 is always finished (it costs at most a few
//! hundred nodes), since a move from an unfinished depth 1 may be any legal move, even when
//! mate in one is on the board. The engine says so when the limit was smaller.
//!
//! Whatever ends the search, a last `info` line shows the move played at the head of its PV
//! (with the depth and score it was found at; a move proved by the unfinished iteration is
//! shown as a lower bound at that iteration's depth), so a GUI never sees a `bestmove` that
//! differs from the last PV. MultiPV lines are reported best first: line 1 is the best.
//! That last line is left out when it would only repeat the line printed just before it
//! (a completed iteration with one line): a GUI would show the same line twice.

use super::alphabeta::Searcher;
use super::aspiration::{info, search_line, Cut, Line};
use super::observed::{Completed, SoftCheck};
use super::ordering::MAX_PLY;
use super::{Info, Limits, Outcome, ScoreBound, StopReason};
use crate::score::{is_decisive, mates_within};
use crate::time::{adjust, soft, TimeLimit};
use chess::ChessMove;
use std::time::Duration;

/// The move to play and its score, as known so far, and the line that shows it.
struct Best {
    mv: ChessMove,
    ponder: Option<ChessMove>,
    score: i32,
    /// Starts with `mv`.
    pv: Vec<ChessMove>,
    depth: u32,
    bound: ScoreBound,
}

impl Best {
    /// A finished line of the iteration at `depth` (its move, or `fallback` should the line
    /// have none), as the move to play.
    fn of_line(line: &Line, depth: u32, fallback: ChessMove) -> Best {
        let mv = line.pv.first().copied().unwrap_or(fallback);
        Best {
            mv,
            ponder: line.pv.get(1).copied(),
            score: line.score,
            pv: if line.pv.first() == Some(&mv) {
                line.pv.clone()
            } else {
                vec![mv]
            },
            depth,
            bound: ScoreBound::Exact,
        }
    }
}

pub fn iterate(
    s: &mut Searcher,
    mut root_moves: Vec<ChessMove>,
    limits: &Limits,
    report: &mut dyn FnMut(&Info),
) -> Outcome {
    // What the last line printed said, to print the closing line only if it says more.
    let mut last_shown: Option<Shown> = None;
    // A strength limit searches more lines than the GUI asked for, to choose among them
    // (`strength.rs`); only the lines asked for are shown.
    let shown_lines = limits.multipv;
    let searched_lines = limits
        .strength
        .map_or(limits.multipv, |st| limits.multipv.max(st.lines()));
    let mut show = |i: &Info| {
        if i.multipv <= shown_lines {
            last_shown = Some(Shown::of(i));
            report(i)
        }
    };
    // The last completed iteration's lines, best first, when a strength limit chooses.
    let mut last_lines: Vec<Line> = Vec::new();
    s.order_root_moves_first(&mut root_moves);
    let max_depth = limits
        .mode
        .depth
        .map_or(MAX_PLY as u32 - 1, |d| d.clamp(1, MAX_PLY as u32 - 1));
    let mut best = Best {
        mv: root_moves[0],
        ponder: None,
        score: 0,
        pv: vec![root_moves[0]],
        depth: 0,
        bound: ScoreBound::Exact,
    };
    let mut progress = adjust::Progress {
        legal_moves: root_moves.len(),
        ..Default::default()
    };
    let mut clock = SoftStop::new(limits, s);
    let mut completed = 0;
    let mut reason = StopReason::Depth;

    for depth in 1..=max_depth {
        s.seldepth = 0;
        // The soft stop counts from `go`, pondering included (see `crate::time`).
        let iteration_start = s.stop.signals.since_go();
        let mut lines = match search_lines(s, &root_moves, depth, searched_lines, &best, &mut show)
        {
            Iteration::Done(lines) => lines,
            Iteration::Cut(cut) => {
                play_if_proved(&mut best, cut, s, depth);
                reason = s.stop.reason;
                break;
            }
            Iteration::CutAfterFirst(first) => {
                // The first line searched every move: its move is this depth's best.
                best = Best::of_line(&first, depth, best.mv);
                reason = s.stop.reason;
                break;
            }
        };
        completed = depth;
        // Each line is the best of the moves the lines before it left, but a later line can
        // still score higher (the table and the aspiration windows see different trees):
        // report them best first, and play the best, as every GUI reads multipv 1 as the move.
        lines.sort_by_key(|l| std::cmp::Reverse(l.score));
        for (i, line) in lines.iter().enumerate() {
            show(&info(s, depth, i, line, ScoreBound::Exact));
        }
        s.order_root_moves_by_nodes(&mut root_moves);
        order_root_moves(&mut root_moves, &lines);
        track_progress(&mut progress, depth, &best, &lines[0]);
        best = Best::of_line(&lines[0], depth, best.mv);
        clock.scores.push(best.score);
        if limits.strength.is_some() {
            last_lines.clone_from(&lines);
        }
        if depth >= adjust::NODE_FRACTION_MIN_DEPTH {
            progress.best_move_nodes = Some(s.first_line_share(best.mv));
        }
        observe_completed(s, depth, iteration_start, &best, &progress);
        let stop = stop_after(s, limits, depth, max_depth, best.score)
            .or_else(|| clock.check(s, limits, depth, iteration_start, &best, &progress));
        if let Some(why) = stop {
            reason = why;
            break;
        }
    }
    // A strength limit may play another of the last completed iteration's lines.
    if let Some(st) = limits.strength {
        let scores: Vec<i32> = last_lines.iter().map(|l| l.score).collect();
        let chosen = st.choose(s.pos.key(), &scores);
        if chosen > 0 {
            best = Best::of_line(&last_lines[chosen], completed, best.mv);
        }
    }
    // The last line shown is the move played.
    let last = Line {
        score: best.score,
        pv: best.pv.clone(),
    };
    let closing = info(s, best.depth, 0, &last, best.bound);
    if last_shown != Some(Shown::of(&closing)) {
        report(&closing);
    }
    Outcome {
        best: Some(best.mv),
        ponder: best.ponder,
        score: best.score,
        bound: best.bound,
        depth: completed,
        nodes: s.stop.total_nodes(),
        reason,
        soft_ms: clock.soft_ms,
        adjust_reason: clock.adjust_reason,
        best_move_nodes: progress.best_move_nodes,
        stop_detail: clock.stop_detail,
        last_check: clock.last_check,
    }
}

/// Shows a completed iteration to its observers, when the search has any.
fn observe_completed(
    s: &Searcher,
    depth: u32,
    iteration_start: Duration,
    best: &Best,
    progress: &adjust::Progress,
) {
    if s.stop.signals.sees_iterations() {
        let now = s.stop.signals.since_go();
        s.stop.signals.observe_iteration(&Completed {
            depth,
            seldepth: s.seldepth,
            elapsed: now,
            iteration: now.saturating_sub(iteration_start),
            nodes: s.stop.total_nodes(),
            best: best.mv,
            score: best.score,
            progress,
            best_move_share: s.first_line_share(best.mv),
        });
    }
}

/// The limits other than the clock that end the search after a completed iteration: `go
/// mate`, the depth, and the node limits.
fn stop_after(
    s: &mut Searcher,
    limits: &Limits,
    depth: u32,
    max_depth: u32,
    score: i32,
) -> Option<StopReason> {
    if limits.mode.mate.is_some_and(|n| mates_within(score, n)) {
        return Some(StopReason::Mate);
    }
    if depth >= max_depth {
        return Some(StopReason::Depth);
    }
    if s.stop.arm_node_limit() {
        return Some(StopReason::Nodes);
    }
    if limits
        .mode
        .soft_nodes
        .is_some_and(|soft| s.stop.nodes >= soft)
    {
        return Some(StopReason::Nodes);
    }
    None
}

/// What the soft stop keeps from one iteration to the next under a clock, and what the
/// outcome reports of it.
struct SoftStop {
    /// The adjusted soft limit of the last check (the budget's before the first).
    soft_ms: Option<u64>,
    adjust_reason: String,
    /// The verdict's words when it stopped the search, and those of the last check.
    stop_detail: String,
    last_check: String,
    growth: soft::Growth,
    /// Each completed iteration's score, for the `learned` rule's trend.
    scores: Vec<i32>,
    /// The root's game phase, which the `learned` rule reads.
    phase: i32,
}

impl SoftStop {
    fn new(limits: &Limits, s: &Searcher) -> SoftStop {
        SoftStop {
            soft_ms: limits.mode.time.budget().map(|b| b.soft_ms),
            adjust_reason: String::new(),
            stop_detail: String::new(),
            last_check: String::new(),
            growth: soft::Growth::default(),
            scores: Vec::new(),
            phase: crate::eval::Shape::of(s.pos.board()).phase,
        }
    }

    /// The soft-stop check after the iteration at `depth`, begun at `iteration_start`, when
    /// a clock bounds the search (the rule and its adjustments are explained in
    /// `crate::time`): why to stop, or None to go on. While pondering, a stop only arms the
    /// stop at `ponderhit`.
    fn check(
        &mut self,
        s: &Searcher,
        limits: &Limits,
        depth: u32,
        iteration_start: Duration,
        best: &Best,
        progress: &adjust::Progress,
    ) -> Option<StopReason> {
        let TimeLimit::Clock(budget) = &limits.mode.time else {
            return None;
        };
        let scale = adjust::soft_scale(&limits.adjust, progress);
        let soft = adjust::scaled_soft_ms(budget.soft_ms, budget.hard_ms, scale);
        self.soft_ms = Some(soft);
        self.adjust_reason = adjust::reason(&limits.adjust, progress);
        let now = s.stop.signals.since_go();
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        self.growth.record(depth, ms(now));
        let scores = &self.scores;
        let check = soft::Check {
            depth,
            elapsed_ms: ms(now),
            last_iteration_ms: ms(now.saturating_sub(iteration_start)),
            soft_ms: soft as f64,
            base_soft_ms: budget.soft_ms as f64,
            hard_ms: budget.hard_ms as f64,
            best_move_stable: progress.stable_iterations >= 1,
            signs: soft::Signs {
                nodes: s.stop.total_nodes(),
                best_move_changes: progress.best_move_changes,
                stable_iterations: progress.stable_iterations,
                node_share: s.first_line_share(best.mv),
                score_drop_cp: progress.score_drop_cp,
                trend3_cp: scores.len().checked_sub(4).map(|i| best.score - scores[i]),
                legal_moves: progress.legal_moves,
                phase: self.phase,
                score_cp: best.score,
                decided: is_decisive(best.score),
            },
        };
        let verdict = soft::decide(limits.soft_stop, &self.growth, &check);
        s.stop.signals.observe(&SoftCheck {
            base_soft_ms: budget.soft_ms,
            scale,
            adjust_reason: &self.adjust_reason,
            check: &check,
            verdict: &verdict,
        });
        self.last_check.clone_from(&verdict.why);
        if !verdict.stop {
            return None;
        }
        self.stop_detail = verdict.why;
        if s.stop.signals.pondering() {
            // Keep pondering; `ponderhit` ends the search at once.
            s.stop.signals.stop_on_ponderhit();
            return None;
        }
        Some(if progress.legal_moves == 1 && limits.adjust.single_reply {
            StopReason::SingleReply
        } else {
            StopReason::SoftTime
        })
    }
}

/// What an `info` line says, apart from the counters that grow between two prints of it.
#[derive(PartialEq)]
struct Shown {
    depth: u32,
    multipv: usize,
    score: i32,
    bound: ScoreBound,
    pv: Vec<ChessMove>,
}

impl Shown {
    fn of(i: &Info) -> Shown {
        Shown {
            depth: i.depth,
            multipv: i.multipv,
            score: i.score,
            bound: i.bound,
            pv: i.pv.clone(),
        }
    }
}

/// How the lines of one iteration ended.
enum Iteration {
    /// Every line, in order of the search.
    Done(Vec<Line>),
    /// The first line was cut: what it proved before the stop.
    Cut(Cut),
    /// A later line was cut; the first, finished, searched every move.
    CutAfterFirst(Line),
}

/// One iteration: every MultiPV line, each searched without the moves of the lines before
/// it, in order of the search (the caller sorts them by score).
fn search_lines(
    s: &mut Searcher,
    root_moves: &[ChessMove],
    depth: u32,
    multipv: usize,
    best: &Best,
    report: &mut dyn FnMut(&Info),
) -> Iteration {
    let multipv = multipv.clamp(1, root_moves.len());
    let mut lines: Vec<Line> = Vec::with_capacity(multipv);
    for pv_index in 0..multipv {
        let candidates: Vec<ChessMove> = root_moves
            .iter()
            .copied()
            .filter(|m| !lines.iter().any(|l| l.pv.first() == Some(m)))
            .collect();
        let guess = lines.last().map_or(best.score, |l| l.score);
        // A failed-low line shows a move of its own: the one the last iteration's order puts
        // first among its candidates (for the first line, the move being played).
        let shown = match pv_index {
            0 => best.mv,
            _ => candidates.first().copied().unwrap_or(best.mv),
        };
        match search_line(s, &candidates, depth, pv_index, guess, shown, report) {
            Ok(line) => lines.push(line),
            Err(cut) if lines.is_empty() => return Iteration::Cut(cut),
            Err(_) => return Iteration::CutAfterFirst(lines.swap_remove(0)),
        }
    }
    Iteration::Done(lines)
}

/// The rule in the module doc: a root move that beat alpha in the unfinished iteration (at
/// `depth`) is played; otherwise the last completed iteration's move. Its score is a lower
/// bound: the other root moves were not all searched.
fn play_if_proved(best: &mut Best, cut: Cut, s: &Searcher, depth: u32) {
    if let Some(m) = cut.mv {
        if m != best.mv {
            let pv = s.root_pv();
            best.mv = m;
            best.score = cut.value;
            best.pv = if pv.first() == Some(&m) { pv } else { vec![m] };
            best.ponder = best.pv.get(1).copied();
            best.depth = depth;
            best.bound = ScoreBound::Lower;
        }
    }
}

/// The lines' moves first, in line order, the rest as they were (by the nodes their searches
/// took, `alphabeta::root_order`): the next iteration searches the likely best move first.
pub(super) fn order_root_moves(root_moves: &mut [ChessMove], lines: &[Line]) {
    for line in lines.iter().rev() {
        if let Some(i) = line
            .pv
            .first()
            .and_then(|f| root_moves.iter().position(|m| m == f))
        {
            root_moves[..=i].rotate_right(1);
        }
    }
}

/// What the time manager's adjustments read: best-move changes (decayed each iteration), the
/// run of iterations with the same move, and the score drop since the last iteration.
fn track_progress(progress: &mut adjust::Progress, depth: u32, best: &Best, first: &Line) {
    if depth <= 1 {
        return;
    }
    let new_best = first.pv.first().copied().unwrap_or(best.mv);
    progress.best_move_changes *= adjust::BEST_MOVE_CHANGE_DECAY;
    if new_best != best.mv {
        progress.best_move_changes += 1.0;
        progress.stable_iterations = 0;
    } else {
        progress.stable_iterations += 1;
    }
    progress.score_drop_cp = best.score - first.score;
}

#[cfg(test)]
mod tests {
    use crate::position::Position;
    use crate::search::{search, Limits, Signals};
    use crate::time::Mode;
    use crate::tt::TranspositionTable;

    /// An observer sees every soft-stop check as it is made, and the last one is what the
    /// outcome (and so `TimeLog`) reports.
    #[test]
    fn an_observer_sees_each_soft_stop_check() {
        use crate::time::{self, Clock, Game, Settings, TimeLimit};
        use std::sync::{Arc, Mutex};
        /// Depth, base soft, adjusted soft, adjustments, verdict, the verdict's words.
        type Seen = (u32, u64, f64, String, bool, String);
        let seen: Arc<Mutex<Vec<Seen>>> = Arc::default();
        let sink = Arc::clone(&seen);
        let signals = Signals::new(false).observed_by(Box::new(move |c| {
            sink.lock().unwrap_or_else(|e| e.into_inner()).push((
                c.check.depth,
                c.base_soft_ms,
                c.check.soft_ms,
                c.adjust_reason.to_string(),
                c.verdict.stop,
                c.verdict.why.clone(),
            ));
        }));
        let clock = Clock {
            time_left_ms: 2000,
            increment_ms: 20,
            moves_to_go: None,
            overhead_ms: 10,
        };
        let budget = time::allocate(&Settings::default(), &clock, &Game::default());
        let limits = Limits {
            mode: Mode {
                time: TimeLimit::Clock(budget.clone()),
                ..Mode::default()
            },
            ..Limits::default()
        };
        let tt = TranspositionTable::new(4);
        let outcome = search(&Position::startpos(), &limits, &tt, &signals, &mut |_| {});
        let seen = seen.lock().unwrap_or_else(|e| e.into_inner()).clone();
        assert!(!seen.is_empty());
        for (i, (depth, base, ..)) in seen.iter().enumerate() {
            assert_eq!(*depth as usize, i + 1);
            assert_eq!(*base, budget.soft_ms);
        }
        let (_, _, soft, adjust, stop, why) = seen.last().cloned().unwrap_or_default();
        assert_eq!(outcome.soft_ms, Some(soft as u64));
        assert_eq!(outcome.adjust_reason, adjust);
        if outcome.reason == crate::search::StopReason::SoftTime {
            assert!(stop);
            assert_eq!(outcome.stop_detail, why);
        }
    }
}
