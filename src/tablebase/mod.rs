//! Syzygy endgame tablebases: which positions they answer, and their answers in the
//! engine's terms.
//!
//! Ronald de Man's Syzygy tables give, for every position of up to their number of men, the
//! result with best play under the fifty-move rule (WDL) and the plies to the next capture
//! or pawn move that keeps it (DTZ). The search asks the WDL tables right after captures
//! and pawn moves, where the fifty-move counter is zero and the answer exact, and the root
//! asks the DTZ tables to keep only the moves that hold the result (`search::tablebase`).
//!
//! `prober.rs` is the adapter to the probing library and `files.rs` finds and checks the
//! files; this file says which positions may be probed. A position is probed only when its
//! material is one whose files passed the checks, and never with castling rights (the tables
//! assume none, as Stockfish's probing does).

mod files;
mod layout;
mod prober;

pub use files::{split_path, MAX_MEN};
pub use prober::{Root, RootMove, PATH_SEPARATOR};

use crate::position::Position;
use chess::{Board, Color, Piece};
use std::collections::BTreeSet;
use std::fmt;
use std::sync::Arc;

/// A probe's result for the side to move, under the fifty-move rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Wdl {
    Loss,
    /// Lost with best play, but the fifty-move rule saves it.
    BlessedLoss,
    Draw,
    /// Won with best play, but not within the fifty-move rule.
    CursedWin,
    Win,
}

impl Wdl {
    /// -2 (loss) to 2 (win), as python-chess and the Syzygy code number them.
    pub fn value(self) -> i32 {
        match self {
            Wdl::Loss => -2,
            Wdl::BlessedLoss => -1,
            Wdl::Draw => 0,
            Wdl::CursedWin => 1,
            Wdl::Win => 2,
        }
    }
}

/// The pieces of both sides besides the kings: counts of queens, rooks, bishops, knights
/// and pawns, White's then Black's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Material([u8; 10]);

const LETTERS: [char; 5] = ['Q', 'R', 'B', 'N', 'P'];
const PIECES: [Piece; 5] = [
    Piece::Queen,
    Piece::Rook,
    Piece::Bishop,
    Piece::Knight,
    Piece::Pawn,
];

impl Material {
    pub fn of(board: &Board) -> Material {
        let mut counts = [0u8; 10];
        for (side, color) in [Color::White, Color::Black].into_iter().enumerate() {
            let ours = *board.color_combined(color);
            for (i, piece) in PIECES.into_iter().enumerate() {
                counts[5 * side + i] = (*board.pieces(piece) & ours).popcnt() as u8;
            }
        }
        Material(counts)
    }

    /// A table name such as `KRPvKB`: White's side before the `v`. None if it is not one.
    pub fn from_name(name: &str) -> Option<Material> {
        let (white, black) = name.split_once('v')?;
        let mut counts = [0u8; 10];
        for (side, text) in [white, black].into_iter().enumerate() {
            let rest = text.strip_prefix('K')?;
            for c in rest.chars() {
                let i = LETTERS.iter().position(|&l| l == c)?;
                counts[5 * side + i] = counts[5 * side + i].checked_add(1)?;
            }
        }
        Some(Material(counts))
    }

    /// The table name, White's side first.
    pub fn name(&self) -> String {
        let side = |s: usize| -> String {
            let mut text = String::from("K");
            for (i, letter) in LETTERS.iter().enumerate() {
                for _ in 0..self.0[5 * s + i] {
                    text.push(*letter);
                }
            }
            text
        };
        format!("{}v{}", side(0), side(1))
    }

    /// Men on the board, both kings included.
    pub fn men(&self) -> u32 {
        2 + self.0.iter().map(|&c| u32::from(c)).sum::<u32>()
    }

    /// The same material with the colours swapped: one file serves both.
    pub fn mirrored(&self) -> Material {
        let mut counts = [0u8; 10];
        counts[..5].copy_from_slice(&self.0[5..]);
        counts[5..].copy_from_slice(&self.0[..5]);
        Material(counts)
    }

    /// The materials one capture or one promotion away: what a probe of this material may
    /// need to probe as well.
    pub fn children(&self) -> Vec<Material> {
        let mut out = Vec::new();
        for i in 0..10 {
            if self.0[i] > 0 {
                let mut fewer = self.0;
                fewer[i] -= 1;
                out.push(Material(fewer));
                if i % 5 == 4 {
                    for promoted in i - 4..i {
                        let mut up = fewer;
                        up[promoted] += 1;
                        out.push(Material(up));
                    }
                }
            }
        }
        out
    }
}

/// The open tables and which materials they answer.
pub struct Tablebases {
    prober: prober::Prober,
    /// Materials with usable WDL tables, each with its mirror.
    wdl: BTreeSet<Material>,
    /// The same for DTZ tables (a subset of `wdl`).
    dtz: BTreeSet<Material>,
    largest: u32,
    files: usize,
}

impl fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Tablebases {{ {} files, {} materials, up to {} men }}",
            self.files,
            self.wdl.len(),
            self.largest
        )
    }
}

/// What opening a `SyzygyPath` gave: the tables, if any file was usable, and what was wrong.
pub struct Opened {
    pub tables: Option<Tablebases>,
    pub problems: Vec<String>,
}

impl Tablebases {
    /// Open the tables in the folders of `path` (a `SyzygyPath` value). Every file is
    /// checked (`files.rs`); what was wrong comes back in `problems`, and the usable rest is
    /// opened. Fails only while another set is open in this process.
    pub fn open(path: &str) -> Result<Opened, String> {
        let dirs = split_path(path);
        let found = files::scan(&dirs);
        let mut problems = found.problems;
        let mirror = |set: &BTreeSet<Material>| -> BTreeSet<Material> {
            set.iter().flat_map(|m| [*m, m.mirrored()]).collect()
        };
        let wdl = mirror(&found.wdl);
        let dtz = mirror(&found.dtz);
        if wdl.is_empty() {
            // A folder that cannot be read has said so already: one line a mistake.
            if !dirs.is_empty() && problems.is_empty() {
                problems.push(format!("no usable Syzygy tables in '{path}'"));
            }
            return Ok(Opened {
                tables: None,
                problems,
            });
        }
        let prober = prober::Prober::open(&dirs)?;
        let largest = wdl.iter().map(Material::men).max().unwrap_or(0);
        Ok(Opened {
            tables: Some(Tablebases {
                prober,
                wdl,
                dtz,
                largest,
                files: found.files,
            }),
            problems,
        })
    }

    /// The most men of any usable table.
    pub fn largest(&self) -> u32 {
        self.largest
    }

    /// Did a probe fail on a damaged table? The tables are then off (`prober.rs`).
    pub fn failed(&self) -> bool {
        self.prober.failed()
    }

    /// Table files in use (WDL and DTZ).
    pub fn files(&self) -> usize {
        self.files
    }

    /// Can `pos` be probed at all: tables for its material, and no castling rights?
    fn covers(&self, pos: &Position, set: &BTreeSet<Material>) -> bool {
        let board = pos.board();
        pos.men() <= self.largest
            && !pos.has_castling_rights()
            && (pos.men() == 2 || set.contains(&Material::of(board)))
    }

    /// WDL of `pos` as if its fifty-move counter were zero (exact right after a capture or
    /// pawn move); None when no usable table covers it.
    pub fn probe_wdl(&self, pos: &Position) -> Option<Wdl> {
        if !self.covers(pos, &self.wdl) {
            return None;
        }
        self.prober.wdl(pos.board())
    }

    /// The root's result and every legal move's, from the DTZ tables, under the position's
    /// fifty-move counter; None when no usable table covers it.
    pub fn probe_root(&self, pos: &Position) -> Option<Root> {
        if !self.covers(pos, &self.dtz) {
            return None;
        }
        self.prober.root(pos.board(), pos.halfmove_clock())
    }

    /// Every legal move's WDL (each as a position just after it, with the counter as the
    /// move leaves it ignored): the root's fallback when DTZ tables are missing. None when a
    /// probe fails.
    pub fn probe_root_wdl(&self, pos: &Position) -> Option<Vec<(chess::ChessMove, Wdl)>> {
        if !self.covers(pos, &self.wdl) {
            return None;
        }
        let mut after = pos.clone();
        let mut out = Vec::new();
        for m in pos.legal_moves() {
            after.make_move(m);
            let theirs = if after.legal_moves().is_empty() {
                if after.in_check() {
                    Wdl::Loss
                } else {
                    Wdl::Draw
                }
            } else {
                self.probe_wdl(&after)?
            };
            after.unmake();
            out.push((m, flip(theirs)));
        }
        Some(out)
    }
}

/// A result seen from the other side.
pub fn flip(wdl: Wdl) -> Wdl {
    match wdl {
        Wdl::Loss => Wdl::Win,
        Wdl::BlessedLoss => Wdl::CursedWin,
        Wdl::Draw => Wdl::Draw,
        Wdl::CursedWin => Wdl::BlessedLoss,
        Wdl::Win => Wdl::Loss,
    }
}

/// How a search uses the tables: the UCI options `SyzygyProbeDepth`, `SyzygyProbeLimit` and
/// `Syzygy50MoveRule`, with the tables themselves.
#[derive(Clone, Debug)]
pub struct Probing {
    pub tables: Arc<Tablebases>,
    /// Inside the tree, positions with as many men as the limit are probed only from this
    /// depth on (fewer men at any depth), as in Stockfish.
    pub depth: i32,
    /// Positions with more men are never probed.
    pub limit: u32,
    /// Whether a win or loss the fifty-move rule turns into a draw counts as a draw.
    pub rule50: bool,
}

impl Probing {
    /// The most men a probe may see: the option's limit, or the largest table if smaller.
    pub fn men(&self) -> u32 {
        self.limit.min(self.tables.largest())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn material_names_round_trip_and_children_cover_promotions() {
        let m = Material::from_name("KRPvKB").expect("name");
        assert_eq!(m.name(), "KRPvKB");
        assert_eq!(m.men(), 5);
        assert_eq!(m.mirrored().name(), "KBvKRP");
        let children: Vec<String> = m.children().iter().map(Material::name).collect();
        for expected in ["KPvKB", "KRvKB", "KQRvKB", "KRNvKB", "KRPvK"] {
            assert!(children.iter().any(|c| c == expected), "{children:?}");
        }
        for bad in ["KRvK.rtbw", "RvK", "KXvK", "KRK", ""] {
            assert!(Material::from_name(bad).is_none(), "{bad}");
        }
    }
}
