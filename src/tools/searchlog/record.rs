//! One position's lines of the log: the deep search, what each of its completed iterations
//! showed the time manager, and, once it has ended, what stopping there would have cost.
//!
//! The search is the engine's own (`search::search`, a fresh table, one thread), watched
//! through [`Signals::iterations_seen_by`], which shows each completed iteration without
//! changing the search. So iteration d's line holds exactly what a search stopped after depth
//! d would have known: its time and nodes, its move, its score, and the numbers the soft-stop
//! adjustments read. Play differs only in the table it starts with (warm from the moves
//! before).

use super::positions::Candidate;
use crate::eval::nnue::Network;
use crate::eval::Shape;
use crate::search::{self, Completed, Limits, Signals};
use crate::time::{adjust, soft, Mode, NEXT_DEPTH_FACTOR};
use crate::tt::TranspositionTable;
use chess::ChessMove;
use std::sync::{Arc, Mutex};

/// The columns of the log, in order. `tools/` and tests read them by name, so a column may be
/// added at the end but not moved or renamed without saying so in CHANGELOG.md.
pub const COLUMNS: [&str; 30] = [
    "pos",
    "origin",
    "fen",
    "ply",
    "phase",
    "men",
    "legal_moves",
    "depth",
    "seldepth",
    "elapsed_ms",
    "iteration_ms",
    "nodes",
    "best",
    "score",
    "score_drop",
    "score_trend3",
    "best_move_changes",
    "changes_so_far",
    "stable_iterations",
    "node_share",
    "adjust_scale",
    "end_2x_ms",
    "end_predicted_ms",
    "next_end_ms",
    "next_nodes",
    "final_depth",
    "final_move",
    "final_score",
    "changed",
    "gain_cp",
];

/// What one completed iteration showed, copied out of the search's [`Completed`].
#[derive(Clone, Debug)]
struct Seen {
    depth: u32,
    seldepth: usize,
    elapsed_ms: f64,
    iteration_ms: f64,
    nodes: u64,
    best: ChessMove,
    score: i32,
    progress: adjust::Progress,
    share: f64,
}

impl Seen {
    fn of(c: &Completed) -> Seen {
        Seen {
            depth: c.depth,
            seldepth: c.seldepth,
            elapsed_ms: c.elapsed.as_secs_f64() * 1000.0,
            iteration_ms: c.iteration.as_secs_f64() * 1000.0,
            nodes: c.nodes,
            best: c.best,
            score: c.score,
            progress: *c.progress,
            share: c.best_move_share,
        }
    }
}

/// How each position is searched.
pub struct Searching {
    /// The deep search's limit: nodes or a move time.
    pub mode: Mode,
    pub network: Option<Arc<Network>>,
}

/// The log's lines for one position (`index` in the sample), without line ends; none when
/// not even depth 1 completed (a move time too short for it).
pub fn log_position(
    index: usize,
    candidate: &Candidate,
    how: &Searching,
    tt: &TranspositionTable,
) -> Result<Vec<String>, String> {
    let pos = candidate.position()?;
    // Cleared before the signals are made: their clock starts at `go`, and clearing the
    // table is no part of the search's time.
    tt.clear();
    let seen: Arc<Mutex<Vec<Seen>>> = Arc::default();
    let sink = Arc::clone(&seen);
    let signals = Signals::new(false).iterations_seen_by(Box::new(move |c| {
        sink.lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(Seen::of(c));
    }));
    let limits = Limits {
        mode: how.mode.clone(),
        network: how.network.clone(),
        ..Limits::default()
    };
    let deep = search::search(&pos, &limits, tt, &signals, &mut |_| {});
    let seen = std::mem::take(&mut *seen.lock().unwrap_or_else(|e| e.into_inner()));
    let Some(last) = seen.last() else {
        return Ok(Vec::new());
    };
    let (final_move, final_depth, final_score) = (last.best, last.depth, last.score);
    let gains = Gains::measure(&pos, &seen, (final_move, final_depth), deep.nodes, how, tt);

    let shape = Shape::of(pos.board());
    let fixed = format!(
        "{index},{},{},{},{},{},{}",
        candidate.origin,
        candidate.fen,
        pos.game_ply(),
        shape.phase,
        pos.men(),
        seen[0].progress.legal_moves,
    );
    let mut growth = soft::Growth::default();
    let mut changes = 0;
    let mut lines = Vec::with_capacity(seen.len());
    for (i, it) in seen.iter().enumerate() {
        if i > 0 && it.best != seen[i - 1].best {
            changes += 1;
        }
        growth.record(it.depth, it.elapsed_ms);
        let predicted =
            (it.depth >= soft::PREDICT_MIN_DEPTH).then(|| it.elapsed_ms * growth.growth());
        let trend = i.checked_sub(3).map(|j| it.score - seen[j].score);
        let next = seen.get(i + 1);
        let changed = it.best != final_move;
        lines.push(format!(
            "{fixed},{},{},{:.3},{:.3},{},{},{},{},{},{:.4},{},{},{:.4},{:.4},{:.3},{},{},{},{},{},{},{},{}",
            it.depth,
            it.seldepth,
            it.elapsed_ms,
            it.iteration_ms,
            it.nodes,
            it.best,
            it.score,
            if i == 0 { 0 } else { it.progress.score_drop_cp },
            opt(trend),
            it.progress.best_move_changes,
            changes,
            it.progress.stable_iterations,
            it.share,
            adjust::soft_scale(&adjust::Adjustments::default(), &it.progress),
            it.elapsed_ms + NEXT_DEPTH_FACTOR * it.iteration_ms,
            opt(predicted.map(|p| format!("{p:.3}"))),
            opt(next.map(|n| format!("{:.3}", n.elapsed_ms))),
            opt(next.map(|n| n.nodes)),
            final_depth,
            final_move,
            final_score,
            u8::from(changed),
            if changed { gains.gain(it.best) } else { 0 },
        ));
    }
    Ok(lines)
}

/// An empty field for a value that does not exist (yet).
fn opt<T: std::fmt::Display>(v: Option<T>) -> String {
    v.map_or_else(String::new, |v| v.to_string())
}

/// The deep search's value of each move some iteration chose: each searched alone (UCI's
/// `searchmoves`) to the final depth, on the table the deep search left. The final move is
/// searched the same way, so the two numbers of a difference come from the same kind of
/// search; its value is mostly read back from the table, and so are the others' in part.
///
/// Each of these searches may spend at most the deep search's nodes. Without a cap one
/// hung for twenty minutes: in an endgame the table carries a node-limited search to depths
/// of 30 and more, and another move searched alone to such a depth finds no such help. A
/// search the cap cuts gives the value of its last completed depth, so the log costs at
/// most (1 + moves that changed) times the deep searches, and a rare gain is measured a little
/// shallower than `final_depth`.
struct Gains {
    of_final: i32,
    values: Vec<(ChessMove, i32)>,
}

impl Gains {
    fn measure(
        pos: &crate::position::Position,
        seen: &[Seen],
        (final_move, depth): (ChessMove, u32),
        cap: u64,
        how: &Searching,
        tt: &TranspositionTable,
    ) -> Gains {
        let value = |m: ChessMove| {
            let limits = Limits {
                mode: Mode {
                    nodes: Some(cap.max(1)),
                    ..Mode::depth(depth)
                },
                searchmoves: vec![m],
                network: how.network.clone(),
                ..Limits::default()
            };
            search::search(pos, &limits, tt, &Signals::new(false), &mut |_| {}).score
        };
        let mut values: Vec<(ChessMove, i32)> = Vec::new();
        let mut of_final = 0;
        for it in seen {
            if it.best == final_move || values.iter().any(|(m, _)| *m == it.best) {
                continue;
            }
            if values.is_empty() {
                of_final = value(final_move);
            }
            values.push((it.best, value(it.best)));
        }
        Gains { of_final, values }
    }

    /// What playing the final move gains over `m` (0 for a move not measured).
    fn gain(&self, m: ChessMove) -> i32 {
        self.values
            .iter()
            .find(|(v, _)| *v == m)
            .map_or(0, |(_, v)| self.of_final - v)
    }
}
