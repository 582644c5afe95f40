//! The transposition table: a shared, lock-free hash table of search results.
//!
//! Each entry is two 64-bit words, the key XOR the data and the data itself, so a torn write
//! by another thread is detected as a key mismatch (the "lockless hashing" of Hyatt and Mann).
//! Four entries make a 64-byte bucket; a position may live in any slot of its bucket, and a new
//! result replaces the slot with the least valuable (shallow, old) entry.

use crate::score::{score_from_tt, score_to_tt};
use chess::{ChessMove, Piece, ALL_SQUARES};
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

mod memory;
use memory::Buckets;

/// How a stored score relates to the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at most this (every move failed low).
    Upper = 1,
    /// The true score is at least this (a move failed high).
    Lower = 2,
    Exact = 3,
}

/// One search result, as stored and as a probe finds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The best (or refuting) move; None when the node had none, e.g. every move failed low.
    pub mv: Option<ChessMove>,
    /// The score, with mates counted from the root of the search that stores or probes it.
    pub score: i32,
    /// The static evaluation of the position, so a hit saves calling the evaluation; None
    /// where none was taken (a node in check), which a reader must evaluate for itself.
    pub eval: Option<i32>,
    pub depth: i32,
    pub bound: Bound,
}

/// An entry as packed into one 64-bit word: the entry with its mate scores counted from the
/// node, its move encoded, and the generation that wrote it.
#[derive(Clone, Copy, Debug)]
struct Packed {
    mv: u16,
    score: i32,
    eval: i32,
    depth: i32,
    bound: u8,
    age: u8,
}

/// The packed evaluation of an entry without one: no evaluation comes near it (they are at
/// most `eval::EVAL_LIMIT`, 15,000).
const NO_EVAL: i32 = i16::MIN as i32;

/// All-zero bytes are an empty slot: `memory::Buckets` makes every table that way.
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

#[repr(align(64))]
struct Bucket {
    slots: [Slot; 4],
}

pub const DEFAULT_MB: usize = 16;
/// The largest table the `Hash` option offers. A request is still refused (and the old table
/// kept) when the machine cannot hold it: see [`TranspositionTable::try_new_within`].
pub const MAX_MB: usize = 32_768;
/// The table may take at most this share of the memory available for it.
pub const MAX_MEMORY_SHARE: f64 = 0.75;

pub struct TranspositionTable {
    buckets: Buckets,
    /// Search generation, stored in each entry: entries from older searches are replaced first.
    age: AtomicU8,
}

/// A move in 15 bits: from (6), to (6), promotion (3).
pub fn encode_move(m: ChessMove) -> u16 {
    let promo = match m.get_promotion() {
        None => 0,
        Some(Piece::Knight) => 1,
        Some(Piece::Bishop) => 2,
        Some(Piece::Rook) => 3,
        Some(_) => 4,
    };
    (m.get_source().to_index() | m.get_dest().to_index() << 6 | promo << 12) as u16
}

pub fn decode_move(bits: u16) -> Option<ChessMove> {
    if bits == 0 {
        return None;
    }
    let from = ALL_SQUARES[(bits & 63) as usize];
    let to = ALL_SQUARES[((bits >> 6) & 63) as usize];
    let promo = match (bits >> 12) & 7 {
        0 => None,
        1 => Some(Piece::Knight),
        2 => Some(Piece::Bishop),
        3 => Some(Piece::Rook),
        _ => Some(Piece::Queen),
    };
    Some(ChessMove::new(from, to, promo))
}

impl Packed {
    fn pack(self) -> u64 {
        (self.mv as u64)
            | ((self.score as i16 as u16 as u64) << 16)
            | ((self.eval as i16 as u16 as u64) << 32)
            | ((self.depth.clamp(0, 255) as u64) << 48)
            | (((self.bound & 3) as u64) << 56)
            | (((self.age & 63) as u64) << 58)
    }

    fn unpack(data: u64) -> Packed {
        Packed {
            mv: data as u16,
            score: (data >> 16) as u16 as i16 as i32,
            eval: (data >> 32) as u16 as i16 as i32,
            depth: ((data >> 48) & 255) as i32,
            bound: ((data >> 56) & 3) as u8,
            age: ((data >> 58) & 63) as u8,
        }
    }
}

/// Whether a table of `mb` MB is allowed and fits in [`MAX_MEMORY_SHARE`] of `available`.
fn check_fits(mb: usize, available: Option<u64>) -> Result<(), String> {
    if !(1..=MAX_MB).contains(&mb) {
        return Err(format!("Hash {mb} MB is outside 1..{MAX_MB}"));
    }
    let bytes = (mb as u64) << 20;
    if let Some(avail) = available {
        let limit = (avail as f64 * MAX_MEMORY_SHARE) as u64;
        if bytes > limit {
            return Err(format!(
                "Hash {mb} MB does not fit in memory: {} MB available, the table may take {} MB",
                avail >> 20,
                limit >> 20
            ));
        }
    }
    Ok(())
}

/// The zeroed buckets of an `mb` MB table, or why the allocator refused them.
fn allocate(mb: usize) -> Result<Buckets, String> {
    let count = usize::try_from(((mb as u64) << 20) / std::mem::size_of::<Bucket>() as u64)
        .map_err(|_| format!("Hash {mb} MB is too large for this machine's address space"))?;
    Buckets::zeroed(count).ok_or_else(|| format!("cannot allocate Hash {mb} MB"))
}

/// Bytes the operating system says a new allocation can still get without swapping
/// (`MemAvailable` of /proc/meminfo); None where that is not known.
pub fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kb.checked_mul(1024)
}

impl TranspositionTable {
    /// A table of `mb` megabytes, or, if that cannot be had, the largest of 1 MB or one
    /// bucket that can (the engine must start whatever the machine).
    pub fn new(mb: usize) -> TranspositionTable {
        TranspositionTable::try_new(mb)
            .or_else(|_| TranspositionTable::try_new_within(1, None))
            .unwrap_or_else(|_| TranspositionTable {
                buckets: Buckets::one(),
                age: AtomicU8::new(0),
            })
    }

    /// A table of `mb` megabytes (1..=[`MAX_MB`]), or why it cannot be had.
    pub fn try_new(mb: usize) -> Result<TranspositionTable, String> {
        TranspositionTable::try_new_within(mb, available_memory())
    }

    /// A table of `mb` megabytes if it fits in [`MAX_MEMORY_SHARE`] of `available` bytes
    /// (no check when None), allocated fallibly.
    ///
    /// Why check the available memory first rather than just ask the allocator: Linux
    /// overcommits, so a 32 GB reservation on a 16 GB machine may "succeed" and the process
    /// is then killed by the OOM killer when the table is zeroed, page by page, with no
    /// chance to say anything. A null from the allocator catches the allocations the kernel
    /// does refuse (and every refusal on systems without overcommit); the share leaves room
    /// for the rest of the engine and the GUI, since `MemAvailable` is an estimate.
    pub fn try_new_within(mb: usize, available: Option<u64>) -> Result<TranspositionTable, String> {
        check_fits(mb, available)?;
        Ok(TranspositionTable {
            buckets: allocate(mb)?,
            age: AtomicU8::new(0),
        })
    }

    /// One table of `mb` megabytes for each of `threads` threads (the tools' games, one
    /// thread each), each checked against an equal share of the memory available now: the
    /// share, not the whole, so that the tables fit together and not only one by one.
    pub fn per_thread(mb: usize, threads: usize) -> Result<Vec<TranspositionTable>, String> {
        let threads = threads.max(1);
        let share = available_memory().map(|bytes| bytes / threads as u64);
        (0..threads)
            .map(|_| TranspositionTable::try_new_within(mb, share))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| match threads {
                1 => e,
                _ => format!(
                    "a table for each of {threads} threads, each given 1/{threads} of the \
                     memory: {e}"
                ),
            })
    }

    /// Change the size, discarding the contents; on failure the table is left as it was
    /// and the error says why. The memory the current table holds counts as available,
    /// since it is freed before the new one is allocated (resizing never needs both at
    /// once). Should the allocator refuse even so, a table of the old size is made again.
    pub fn resize(&mut self, mb: usize) -> Result<(), String> {
        let held = (self.buckets.len() * std::mem::size_of::<Bucket>()) as u64;
        // Checked before anything is freed, so a refused size keeps the table's contents.
        check_fits(mb, available_memory().map(|a| a.saturating_add(held)))?;
        let old_mb = self.size_mb().max(1);
        self.buckets = Buckets::empty();
        match allocate(mb) {
            Ok(buckets) => {
                self.buckets = buckets;
                self.age.store(0, Relaxed);
                Ok(())
            }
            Err(e) => {
                *self = TranspositionTable::new(old_mb);
                Err(e)
            }
        }
    }

    pub fn size_mb(&self) -> usize {
        (self.buckets.len() * std::mem::size_of::<Bucket>()) >> 20
    }

    /// Forget everything (ucinewgame, Clear Hash).
    pub fn clear(&self) {
        for bucket in self.buckets.iter() {
            for slot in &bucket.slots {
                slot.check.store(0, Relaxed);
                slot.data.store(0, Relaxed);
            }
        }
        self.age.store(0, Relaxed);
    }

    /// Start a new search: older entries become cheaper to replace.
    pub fn new_search(&self) {
        let age = self.age.load(Relaxed);
        self.age.store((age + 1) & 63, Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        let index = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index]
    }

    /// Ask the processor to start loading the bucket of `key`. The probe of a new position is
    /// the search's most expensive memory access (a random line in a table far larger than
    /// the caches); called as soon as a child's key is known, the load overlaps the work
    /// done before the child probes (the network's update).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let line: *const Bucket = self.bucket(key);
            // SAFETY: a prefetch is only a hint: it reads nothing into the program and never
            // faults, and the address is that of a bucket of this live table.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(line.cast::<i8>()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Scores near mate are stored relative to the node, not the root, so that they stay
    /// right when the position is reached at another distance from the root; the node's
    /// fifty-move counter (`halfmove_clock`) says how far such a score may be trusted
    /// (`score::score_from_tt`).
    pub fn probe(&self, key: u64, ply: usize, halfmove_clock: u32) -> Option<Entry> {
        for slot in &self.bucket(key).slots {
            let data = slot.data.load(Relaxed);
            if data != 0 && slot.check.load(Relaxed) ^ data == key {
                let p = Packed::unpack(data);
                let bound = match p.bound {
                    1 => Bound::Upper,
                    2 => Bound::Lower,
                    _ => Bound::Exact,
                };
                return Some(Entry {
                    mv: decode_move(p.mv),
                    score: score_from_tt(p.score, ply, halfmove_clock),
                    eval: (p.eval != NO_EVAL).then_some(p.eval),
                    depth: p.depth,
                    bound,
                });
            }
        }
        None
    }

    /// Store `entry` for the position `key`, found `ply` plies from the root. An entry without
    /// a move keeps the move already stored for the same position.
    pub fn store(&self, key: u64, ply: usize, entry: Entry) {
        let age = self.age.load(Relaxed);
        let bucket = self.bucket(key);
        // The slot holding this key, else the one least worth keeping.
        let mut victim = &bucket.slots[0];
        let mut worst = i32::MAX;
        for slot in &bucket.slots {
            let data = slot.data.load(Relaxed);
            if data == 0 || slot.check.load(Relaxed) ^ data == key {
                victim = slot;
                break;
            }
            let p = Packed::unpack(data);
            let stale = ((age + 64 - p.age) & 63) as i32;
            let value = p.depth - 8 * stale;
            if value < worst {
                worst = value;
                victim = slot;
            }
        }
        let old = victim.data.load(Relaxed);
        let same = old != 0 && victim.check.load(Relaxed) ^ old == key;
        let previous = Packed::unpack(old);
        // Keep a deeper exact-ish result of the same search unless the new one is exact, but
        // take the new search's move: it is the newer answer to "what is best here", and the
        // kept entry's move is what ordering tries first next time (Stockfish keeps it too).
        // Another thread may have written the slot since it was read; as with every write
        // here, the later one wins, and a torn pair reads as a miss.
        let declined = same
            && entry.bound != Bound::Exact
            && entry.depth + 3 < previous.depth
            && previous.age == age;
        if declined && entry.mv.is_none() {
            return;
        }
        let mv = match entry.mv {
            Some(m) => encode_move(m),
            None if same => previous.mv,
            None => 0,
        };
        let packed = if declined {
            Packed { mv, ..previous }
        } else {
            Packed {
                mv,
                score: score_to_tt(entry.score, ply),
                eval: entry
                    .eval
                    .map_or(NO_EVAL, |e| e.clamp(NO_EVAL + 1, i16::MAX.into())),
                depth: entry.depth,
                bound: entry.bound as u8,
                age,
            }
        };
        let data = packed.pack();
        victim.check.store(key ^ data, Relaxed);
        victim.data.store(data, Relaxed);
    }

    /// Permille of sampled entries written by the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Relaxed);
        let sample = self.buckets.len().min(250);
        let mut used = 0;
        for bucket in &self.buckets[..sample] {
            for slot in &bucket.slots {
                let data = slot.data.load(Relaxed);
                if data != 0 && Packed::unpack(data).age == age {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * 4).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    #[test]
    fn moves_round_trip() {
        for text in ["e2e4", "a7a8q", "h2h1n", "b7c8r", "g2g1b", "e1g1"] {
            let m = ChessMove::from_str(text).unwrap();
            assert_eq!(decode_move(encode_move(m)), Some(m));
        }
    }

    #[test]
    fn store_and_probe() {
        let tt = TranspositionTable::new(1);
        let m = ChessMove::from_str("e2e4").unwrap();
        let entry = Entry {
            mv: Some(m),
            score: -123,
            eval: Some(45),
            depth: 7,
            bound: Bound::Lower,
        };
        tt.store(0xDEAD_BEEF, 0, entry);
        let hit = tt.probe(0xDEAD_BEEF, 0, 0).unwrap();
        assert_eq!(
            (hit.mv, hit.score, hit.eval, hit.depth),
            (Some(m), -123, Some(45), 7)
        );
        assert_eq!(hit.bound, Bound::Lower);
        assert!(tt.probe(0xDEAD_BEEE, 0, 0).is_none());
        // A node in check stores no evaluation, and a reader is told so rather than given a
        // number to correct (a stored -31,000 once read as a score in the tablebase band).
        for eval in [None, Some(-15_000), Some(15_000), Some(0)] {
            tt.store(0xF00D, 0, Entry { eval, ..entry });
            assert_eq!(tt.probe(0xF00D, 0, 0).map(|e| e.eval), Some(eval));
        }
        tt.clear();
        assert!(tt.probe(0xDEAD_BEEF, 0, 0).is_none());
    }

    /// A shallower result the table declines to keep still leaves its best move, and the
    /// deeper entry's score, bound and depth.
    #[test]
    fn a_declined_write_keeps_the_new_best_move() {
        let tt = TranspositionTable::new(1);
        let (old, new) = (
            ChessMove::from_str("e2e4").unwrap(),
            ChessMove::from_str("d2d4").unwrap(),
        );
        let deep = Entry {
            mv: Some(old),
            score: 30,
            eval: Some(10),
            depth: 12,
            bound: Bound::Lower,
        };
        tt.store(7, 0, deep);
        let shallow = Entry {
            mv: Some(new),
            score: -50,
            eval: Some(10),
            depth: 4,
            bound: Bound::Upper,
        };
        tt.store(7, 0, shallow);
        let hit = tt.probe(7, 0, 0).expect("kept");
        assert_eq!(
            hit,
            Entry {
                mv: Some(new),
                ..deep
            }
        );
        // Without a move the declined write changes nothing.
        tt.store(
            7,
            0,
            Entry {
                mv: None,
                ..shallow
            },
        );
        assert_eq!(
            tt.probe(7, 0, 0),
            Some(Entry {
                mv: Some(new),
                ..deep
            })
        );
    }

    #[test]
    fn a_table_that_does_not_fit_is_refused_without_allocating() {
        // 32 GB against 1 GB available: refused before any allocation, so no abort and no
        // OOM kill whatever the machine.
        let err = TranspositionTable::try_new_within(MAX_MB, Some(1 << 30))
            .err()
            .expect("refused");
        assert!(err.contains("does not fit"), "{err}");
        // The share: 3 MB of 4 MB available fits, 4 MB does not.
        assert!(TranspositionTable::try_new_within(3, Some(4 << 20)).is_ok());
        assert!(TranspositionTable::try_new_within(4, Some(4 << 20)).is_err());
        assert!(TranspositionTable::try_new_within(0, None).is_err());
        assert!(TranspositionTable::try_new_within(MAX_MB + 1, None).is_err());
    }

    #[test]
    fn a_refused_resize_keeps_the_table() {
        let mut tt = TranspositionTable::new(2);
        let m = ChessMove::from_str("e2e4").unwrap();
        let entry = Entry {
            mv: Some(m),
            score: 1,
            eval: Some(2),
            depth: 3,
            bound: Bound::Exact,
        };
        tt.store(42, 0, entry);
        // Beyond the largest size the option offers: refused, contents kept.
        assert!(tt.resize(MAX_MB + 1).is_err());
        assert_eq!(tt.size_mb(), 2);
        assert_eq!(tt.probe(42, 0, 0).map(|e| e.mv), Some(Some(m)));
        assert!(tt.resize(1).is_ok());
        assert_eq!(tt.size_mb(), 1);
    }

    #[test]
    fn sizes() {
        assert_eq!(TranspositionTable::new(1).size_mb(), 1);
        assert_eq!(TranspositionTable::new(16).size_mb(), 16);
        assert_eq!(std::mem::size_of::<Bucket>(), 64);
    }
}
