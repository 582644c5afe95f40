//! Aspiration windows: search the root with a narrow window around the expected score, and
//! widen it on a fail.
//!
//! Most iterations end within a few centipawns of the last one, and a narrow window cuts
//! more of the tree. When the score falls outside, the window is widened on that side (half
//! as wide again each time, the full window past 1000 cp) and the root searched again. A
//! fail high is searched again a ply shallower: the move that failed high is likely good, and
//! a shallower search proves it sooner (up to `MAX_FAIL_HIGH_REDUCTION` plies; a fail low
//! goes back to the full depth), with the move that failed high searched first. The shape and
//! numbers are Ethereal 12's (`aspirationWindow` in search.c: WindowSize 14, `delta += delta
//! / 2`, one ply less per fail high; the window's numbers are tunables in `params`); a fail
//! on a decided score (a mate or a won ending) opens the window fully on its side. Each fail
//! is reported as a bound at the iteration's depth, the edge of the window that failed, so a
//! GUI sees the score moving.

use super::alphabeta::Searcher;
use super::features::Features;
use super::params;
use super::{Info, ScoreBound};
use crate::score::{is_decisive, is_mate, INFINITY};
use chess::ChessMove;

/// Plies a run of fail highs may take off the iteration's depth.
const MAX_FAIL_HIGH_REDUCTION: u32 = 3;
/// Scores this large (near mate or decisive) are searched with the full window.
const MAX_GUESS: i32 = 2_000;
/// Past this half-width the window becomes the full window.
const MAX_DELTA: i32 = 1_000;

/// The next half-width after a fail: half as wide again by default (Ethereal 12), and
/// always wider.
fn widened(delta: i32) -> i32 {
    delta + (delta * params::asp_growth() / 100).max(1)
}

/// One MultiPV line of a completed iteration.
#[derive(Clone, Debug)]
pub struct Line {
    pub score: i32,
    pub pv: Vec<ChessMove>,
}

/// The search stopped inside the window loop: the best root move it had proved so far, if
/// any, and that move's score.
pub struct Cut {
    pub mv: Option<ChessMove>,
    pub value: i32,
}

/// The `info` for one line of this iteration. When the tables decided the root, their score
/// is shown (exact) unless the search proved a mate: every root move left holds the tables'
/// result, whatever the evaluation makes of it.
pub fn info(s: &Searcher, depth: u32, pv_index: usize, line: &Line, bound: ScoreBound) -> Info {
    let (score, bound) = match s.root_tb_score {
        Some(tb) if !is_mate(line.score) => (tb, ScoreBound::Exact),
        _ => (line.score, bound),
    };
    Info {
        depth,
        seldepth: s.seldepth,
        multipv: pv_index + 1,
        score,
        bound,
        nodes: s.stop.total_nodes(),
        time: s.stop.signals.since_go(),
        hashfull: s.tt.hashfull(),
        tbhits: s.reports_tbhits.then(|| {
            s.stop
                .signals
                .tbhits
                .load(std::sync::atomic::Ordering::Relaxed)
        }),
        pv: line.pv.clone(),
    }
}

/// Search the root moves `candidates` at `depth` for line `pv_index`, starting from a window
/// around `guess`, until the score falls inside it. `shown` is the move a failed-low line
/// displays, since a fail low proves no move.
pub fn search_line(
    s: &mut Searcher,
    candidates: &[ChessMove],
    depth: u32,
    pv_index: usize,
    guess: i32,
    shown: ChessMove,
    report: &mut dyn FnMut(&Info),
) -> Result<Line, Cut> {
    let mut delta = params::asp_delta();
    let mut search_depth = depth;
    // The root's order for this line: a move that fails high is searched first in the
    // re-searches, so that the shallower re-search cannot reduce it and lose it.
    let mut order = candidates.to_vec();
    let mut failed_high: Option<(ChessMove, i32)> = None;
    let aspiration = Features::current().aspiration;
    s.first_line = pv_index == 0;
    let narrow = depth as i32 >= params::asp_min_depth();
    let (mut alpha, mut beta) = if aspiration && narrow && guess.abs() < MAX_GUESS {
        (guess - delta, guess + delta)
    } else {
        (-INFINITY, INFINITY)
    };
    loop {
        let (value, mv) = s.search_root(&order, search_depth as i32, alpha, beta);
        if s.stop.is_stopped() {
            // A move that failed high in this line was proved above the window, so it stands
            // unless the search stopped now proved another; either is a lower bound, shown
            // no higher than the window it beat.
            return Err(match (mv, failed_high) {
                (None, Some((m, v))) => Cut {
                    mv: Some(m),
                    value: v,
                },
                _ => Cut {
                    mv,
                    value: value.min(beta),
                },
            });
        }
        let mut pv = super::pv::complete(&s.pos, s.tt, s.root_pv(), value, depth);
        if pv.is_empty() {
            pv = vec![shown];
        }
        let bound = if value <= alpha {
            ScoreBound::Upper
        } else if value >= beta {
            ScoreBound::Lower
        } else {
            return Ok(Line { score: value, pv });
        };
        // A fail says only on which side of the window the score lies. The value beyond the
        // window may be a table bound that grew round repetition cycles ("mate 146" in king
        // and queen against king, issue 106), so the window's edge is what is shown and
        // kept, and a decided value opens the window on its side rather than size it.
        let edge = value.clamp(alpha, beta);
        report(&info(s, depth, pv_index, &Line { score: edge, pv }, bound));
        if bound == ScoreBound::Upper {
            // An open side stays open: halfway to the infinite would be an edge of no
            // meaning, shown as one ("cp 16657" in king and queen against king).
            if beta < INFINITY {
                beta = (alpha + beta) / 2;
            }
            alpha = if is_decisive(value) {
                -INFINITY
            } else {
                (value - delta).max(-INFINITY)
            };
            search_depth = depth;
        } else {
            beta = if is_decisive(value) {
                INFINITY
            } else {
                (value + delta).min(INFINITY)
            };
            if let Some(m) = mv {
                failed_high = Some((m, edge));
                if let Some(i) = order.iter().position(|&c| c == m) {
                    order[..=i].rotate_right(1);
                }
            }
            if !is_decisive(value) {
                search_depth = (search_depth - 1)
                    .max(depth.saturating_sub(MAX_FAIL_HIGH_REDUCTION))
                    .max(1);
            }
        }
        delta = widened(delta);
        if delta > MAX_DELTA {
            alpha = -INFINITY;
            beta = INFINITY;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ethereal 12's window after each fail, from WindowSize 14: the full window comes after
    /// eleven fails, where doubling from 25 took six.
    #[test]
    fn the_window_widens_as_ethereals() {
        let mut delta = params::asp_delta();
        let mut deltas = vec![delta];
        while delta <= MAX_DELTA {
            delta = widened(delta);
            deltas.push(delta);
        }
        assert_eq!(
            deltas,
            [14, 21, 31, 46, 69, 103, 154, 231, 346, 519, 778, 1_167]
        );
    }
}
