//! The adapter to the prober, `pyrrhic-rs`: the only file that touches it.
//!
//! `pyrrhic-rs` is Andrew Grant's Pyrrhic (itself Fathom, by basil and Jon Dart, after Ronald
//! de Man's original probing code) translated to Rust. It knows no board of its own: it
//! takes a position as eight bitboards and asks the engine for attack sets, which the
//! `chess` crate's magic tables give ([`ChessAttacks`]). It maps each table file with
//! `memmap2` the first time a probe needs it, so the operating system reads only the pages
//! a probe touches.
//!
//! Two things about it shape this file. Its state is global (one set of tables per process,
//! as in every C prober): a second [`Prober`] cannot be opened while one lives, so the engine
//! drops the old one before it opens the new. And it trusts every file it is given, while
//! its own file check has a bug (a missing or short file is registered all the same), so the
//! caller (`files.rs`) checks the files first and probes only material whose files passed.
//! Those checks catch a file cut short, whatever its length; a file damaged inside, with its
//! length intact, can still make the prober fail. Its bounds checks then panic, and that
//! panic is caught here: the tables are switched off ([`Prober::failed`]) and the search
//! goes on without them. (A damaged file can also make it read a wild address, which no
//! Syzygy prober guards against.)

use super::Wdl;
use chess::{Board, ChessMove, Color, Piece, Square, ALL_SQUARES};
use pyrrhic_rs::{DtzProbeValue, EngineAdapter, TableBases, WdlProbeResult};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// The separator between the folders of a `SyzygyPath`: the one the prober splits its path at,
/// `:`, or `;` on Windows, where `:` follows drive letters (the patched copy in vendor/).
pub use pyrrhic_rs::PATH_SEPARATOR;

/// Attack sets from the `chess` crate, in the form the prober asks for them.
#[derive(Clone, Copy)]
pub struct ChessAttacks;

/// The square of bit `index` (a1 = 0, h8 = 63); the prober only passes board squares.
fn square(index: u64) -> Square {
    ALL_SQUARES[(index & 63) as usize]
}

impl EngineAdapter for ChessAttacks {
    fn pawn_attacks(color: pyrrhic_rs::Color, sq: u64) -> u64 {
        let color = match color {
            pyrrhic_rs::Color::White => Color::White,
            pyrrhic_rs::Color::Black => Color::Black,
        };
        chess::get_pawn_attacks(square(sq), color, !chess::EMPTY).0
    }
    fn knight_attacks(sq: u64) -> u64 {
        chess::get_knight_moves(square(sq)).0
    }
    fn bishop_attacks(sq: u64, occupied: u64) -> u64 {
        chess::get_bishop_moves(square(sq), chess::BitBoard(occupied)).0
    }
    fn rook_attacks(sq: u64, occupied: u64) -> u64 {
        chess::get_rook_moves(square(sq), chess::BitBoard(occupied)).0
    }
    fn queen_attacks(sq: u64, occupied: u64) -> u64 {
        Self::bishop_attacks(sq, occupied) | Self::rook_attacks(sq, occupied)
    }
    fn king_attacks(sq: u64) -> u64 {
        chess::get_king_moves(square(sq)).0
    }
}

/// One root move as the DTZ tables see it: its WDL for the side to move at the root (under
/// the root's fifty-move counter) and the plies to the next capture or pawn move after it,
/// counting the move itself, signed by the result (positive wins).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootMove {
    pub mv: ChessMove,
    pub wdl: Wdl,
    pub dtz: i32,
}

/// The root as the DTZ tables see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Root {
    /// The side to move is mated or stalemated: no moves to rank.
    Mated,
    Stalemate,
    /// The root's own WDL and DTZ (python-chess's `probe_dtz` convention: positive when the
    /// side to move wins), and every legal move.
    Moves {
        wdl: Wdl,
        dtz: i32,
        moves: Vec<RootMove>,
    },
}

/// The open tables.
pub struct Prober {
    tables: TableBases<ChessAttacks>,
    /// The prober's root probe is not thread-safe (its own documentation says so); the
    /// search calls it once per `go`, so a lock costs nothing.
    root_lock: Mutex<()>,
    /// Set when a probe panicked: no probe is made after it.
    failed: AtomicBool,
}

impl Prober {
    /// Open the tables in `dirs`. Fails while another `Prober` is open in this process.
    pub fn open(dirs: &[String]) -> Result<Prober, String> {
        let path = dirs.join(PATH_SEPARATOR.to_string().as_str());
        let tables = TableBases::<ChessAttacks>::new(&path).map_err(|e| match e {
            pyrrhic_rs::TBError::AlreadyInitialized => {
                "another set of tables is open in this process".to_string()
            }
            other => format!("the prober refused the path ({other:?})"),
        })?;
        Ok(Prober {
            tables,
            root_lock: Mutex::new(()),
            failed: AtomicBool::new(false),
        })
    }

    /// Has a probe failed (panicked) since the tables were opened? The tables are then off.
    pub fn failed(&self) -> bool {
        self.failed.load(Ordering::Relaxed)
    }

    /// Run one probe of the prober's, turning a panic into None and the tables off.
    fn guarded<T>(&self, probe: impl FnOnce() -> Option<T>) -> Option<T> {
        if self.failed() {
            return None;
        }
        catch_unwind(AssertUnwindSafe(probe)).unwrap_or_else(|_| {
            self.failed.store(true, Ordering::Relaxed);
            None
        })
    }

    /// WDL of `board` as if its fifty-move counter were zero (the search probes only right
    /// after a capture or pawn move). None when the probe fails.
    pub fn wdl(&self, board: &Board) -> Option<Wdl> {
        let b = Bits::of(board);
        let result = self.tables.probe_wdl(
            b.white,
            b.black,
            b.kings,
            b.queens,
            b.rooks,
            b.bishops,
            b.knights,
            b.pawns,
            b.ep,
            b.white_to_move,
        );
        result.ok().map(wdl_of)
    }

    /// Every root move ranked by the DTZ tables, with `rule50` plies on the fifty-move
    /// counter. None when a table it needs is missing.
    pub fn root(&self, board: &Board, rule50: u32) -> Option<Root> {
        let b = Bits::of(board);
        let _guard = self.root_lock.lock().unwrap_or_else(|e| e.into_inner());
        let probe = self.guarded(|| {
            self.tables
                .probe_root(
                    b.white,
                    b.black,
                    b.kings,
                    b.queens,
                    b.rooks,
                    b.bishops,
                    b.knights,
                    b.pawns,
                    rule50.min(255),
                    b.ep,
                    b.white_to_move,
                )
                .ok()
        })?;
        let (wdl, dtz) = match probe.root {
            DtzProbeValue::Checkmate => return Some(Root::Mated),
            DtzProbeValue::Stalemate => return Some(Root::Stalemate),
            DtzProbeValue::Failed => return None,
            DtzProbeValue::DtzResult(r) => (wdl_of(r.wdl), signed(wdl_of(r.wdl), r.dtz)),
        };
        let mut moves = Vec::with_capacity(probe.num_moves);
        for value in &probe.moves[..probe.num_moves.min(probe.moves.len())] {
            let DtzProbeValue::DtzResult(r) = value else {
                return None;
            };
            let promotion = match r.promotion {
                pyrrhic_rs::Piece::Queen => Some(Piece::Queen),
                pyrrhic_rs::Piece::Rook => Some(Piece::Rook),
                pyrrhic_rs::Piece::Bishop => Some(Piece::Bishop),
                pyrrhic_rs::Piece::Knight => Some(Piece::Knight),
                _ => None,
            };
            let mv = ChessMove::new(
                square(u64::from(r.from_square)),
                square(u64::from(r.to_square)),
                promotion,
            );
            let wdl = wdl_of(r.wdl);
            moves.push(RootMove {
                mv,
                wdl,
                dtz: signed(wdl, r.dtz),
            });
        }
        Some(Root::Moves { wdl, dtz, moves })
    }
}

/// The prober's DTZ is unsigned; its sign is the result's.
fn signed(wdl: Wdl, dtz: u16) -> i32 {
    let dtz = i32::from(dtz);
    match wdl {
        Wdl::Win | Wdl::CursedWin => dtz,
        Wdl::Draw => 0,
        Wdl::Loss | Wdl::BlessedLoss => -dtz,
    }
}

fn wdl_of(result: WdlProbeResult) -> Wdl {
    match result {
        WdlProbeResult::Loss => Wdl::Loss,
        WdlProbeResult::BlessedLoss => Wdl::BlessedLoss,
        WdlProbeResult::Draw => Wdl::Draw,
        WdlProbeResult::CursedWin => Wdl::CursedWin,
        WdlProbeResult::Win => Wdl::Win,
    }
}

/// A board as the prober takes it: bitboards by colour and piece, the en-passant target
/// square (0 for none: a1 never is one) and the side to move.
struct Bits {
    white: u64,
    black: u64,
    kings: u64,
    queens: u64,
    rooks: u64,
    bishops: u64,
    knights: u64,
    pawns: u64,
    ep: u32,
    white_to_move: bool,
}

impl Bits {
    fn of(board: &Board) -> Bits {
        let us = board.side_to_move();
        // The crate records the pawn that moved two squares; the prober wants the square
        // behind it, where the capturing pawn lands.
        let ep = board
            .en_passant()
            .and_then(|pawn| match us {
                Color::White => pawn.up(),
                Color::Black => pawn.down(),
            })
            .map_or(0, |target| target.to_index() as u32);
        Bits {
            white: board.color_combined(Color::White).0,
            black: board.color_combined(Color::Black).0,
            kings: board.pieces(Piece::King).0,
            queens: board.pieces(Piece::Queen).0,
            rooks: board.pieces(Piece::Rook).0,
            bishops: board.pieces(Piece::Bishop).0,
            knights: board.pieces(Piece::Knight).0,
            pawns: board.pieces(Piece::Pawn).0,
            ep,
            white_to_move: us == Color::White,
        }
    }
}
