//! What the search learns and keeps for the whole game.
//!
//! The move-ordering tables (`ordering::Heuristics`: history, continuation history, capture
//! history, counter moves) and the correction histories (`correction`) describe the game, not
//! one move of it: a quiet move that refuted a plan three moves ago usually still does. Engines
//! that keep these tables from one `go` to the next measured +10 to +38 Elo (Weiss PR #417,
//! Halogen #362, Clockwork #159), and correction history pays only when kept (Alexandria #430,
//! Stormphrax #163). So the engine owns a [`Memory`] for the game, `ucinewgame` and
//! `Clear Hash` clear it, and each search borrows it whole.
//!
//! Each Lazy SMP thread has its own tables: sharing them would make every update a race, and
//! the threads search different depths, so each learns its own lesson. A search borrows the
//! memory mutably for its whole length, so no `go` can read a table another search is
//! writing: the borrow checker guarantees it, and the engine holds the memory behind a mutex
//! that the search thread keeps until it ends.
//!
//! Killer moves are kept by ply from the root; after two moves of the game those plies are
//! other positions, so they are forgotten at each new search.

use super::correction::Correction;
use super::ordering::Heuristics;

/// One search thread's tables.
#[derive(Default)]
pub struct ThreadMemory {
    pub heur: Heuristics,
    pub correction: Correction,
}

/// The tables of every search thread, kept between searches.
#[derive(Default)]
pub struct Memory {
    threads: Vec<ThreadMemory>,
}

impl Memory {
    pub fn new() -> Memory {
        Memory::default()
    }

    /// Forget the game: a new one starts, or the user cleared the hash.
    pub fn clear(&mut self) {
        self.threads.clear();
    }

    /// Tables for `n` threads, ready for a new search. Threads added since the last search
    /// start empty; with fewer threads the others' tables stay kept for a later search.
    pub fn for_search(&mut self, n: usize) -> &mut [ThreadMemory] {
        while self.threads.len() < n {
            self.threads.push(ThreadMemory::default());
        }
        for thread in &mut self.threads[..n] {
            thread.heur.new_search();
        }
        &mut self.threads[..n]
    }

    /// How many threads have tables (for tests).
    pub fn threads(&self) -> usize {
        self.threads.len()
    }
}
