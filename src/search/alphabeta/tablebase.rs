//! Tablebase probes inside the tree: right after a capture or pawn move, where the
//! fifty-move counter is zero and a WDL probe is exact, within `SyzygyProbeLimit` men and,
//! at the limit itself, from `SyzygyProbeDepth` on (Stockfish's conditions).
//!
//! A win scores [`TB_WIN`] less the ply, so a nearer one is preferred and none is taken for
//! a mate; a loss the opposite. A win is only a lower bound (the search may still find a
//! mate), a loss an upper bound, a draw exact. With `Syzygy50MoveRule` on, a win or loss
//! the rule spoils scores just off a draw, as Stockfish scores it.

use super::Searcher;
use crate::score::{DRAW, TB_WIN};
use crate::tt::Bound;
use std::sync::atomic::Ordering;

/// What the tree probes need of the tables, fixed for a search.
#[derive(Clone)]
pub struct TreeProbing {
    pub probing: crate::tablebase::Probing,
    /// `probing.men()`, read once.
    pub men: u32,
}

impl Searcher<'_> {
    /// The tables' score and bound for the position now, if it is one to probe and the probe
    /// succeeds. Costs one comparison while the last move was neither a capture nor a pawn
    /// move, and a count of the men after one.
    #[inline]
    pub(super) fn probe_tablebase(&mut self, depth: i32, ply: usize) -> Option<(i32, Bound)> {
        let tb = self.tb.as_ref()?;
        if self.pos.halfmove_clock() != 0 {
            return None;
        }
        let men = self.pos.men();
        if men > tb.men || (men == tb.men && depth < tb.probing.depth) {
            return None;
        }
        let wdl = tb.probing.tables.probe_wdl(&self.pos)?;
        self.stop.signals.tbhits.fetch_add(1, Ordering::Relaxed);
        let draw = i32::from(tb.probing.rule50);
        let v = wdl.value();
        let ply = ply as i32;
        Some(if v > draw {
            (TB_WIN - ply, Bound::Lower)
        } else if v < -draw {
            (-TB_WIN + ply, Bound::Upper)
        } else {
            (DRAW + 2 * v * draw, Bound::Exact)
        })
    }
}
