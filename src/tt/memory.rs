//! The table's memory: its zeroed buckets in one allocation that Linux is asked to back with
//! 2 MB "huge" pages.
//!
//! Why: a probe reads one random bucket of a table far larger than the caches, so it nearly
//! always needs a page the processor's TLB does not hold, and the page walk is paid on top of
//! the cache miss (the profile shows it at the prefetch in `make`). One 2 MB page covers what
//! 512 pages of 4 KB do, so a 16 MB table needs 8 TLB entries instead of 4,096. Stockfish
//! allocates its table the same way (`aligned_large_pages_alloc` in its `misc.cpp`).
//!
//! How: the allocation is aligned to 2 MB, advised `MADV_HUGEPAGE`, and only then zeroed, so
//! that the first touch of each 2 MB range already faults in a huge page. The advice is what a
//! kernel whose transparent huge pages are in `madvise` mode waits for; in `always` mode it
//! changes nothing, and in `never` mode, or off Linux, the table is simply made of small
//! pages. docs/measurements/speed.md ("Huge pages for the transposition table") has what it is worth.

use super::Bucket;
use std::alloc::{alloc, dealloc, handle_alloc_error, Layout};
use std::ops::Deref;
use std::ptr::NonNull;

/// The size of an x86-64 huge page, and the alignment of every table at least that large.
const HUGE_PAGE: usize = 2 << 20;

/// Zeroed buckets owned like a `Box<[Bucket]>`, in memory aligned for huge pages.
pub(super) struct Buckets {
    ptr: NonNull<Bucket>,
    len: usize,
    /// None for the empty value, which owns no memory.
    layout: Option<Layout>,
}

// SAFETY: `Buckets` owns its allocation exclusively, like a `Box<[Bucket]>`, and `Bucket`
// holds only atomics, which are `Send` and `Sync`.
unsafe impl Send for Buckets {}
unsafe impl Sync for Buckets {}

impl Buckets {
    /// No buckets and no memory: what a table holds while it is being resized.
    pub(super) fn empty() -> Buckets {
        Buckets {
            ptr: NonNull::dangling(),
            len: 0,
            layout: None,
        }
    }

    /// `count` (at least one) zeroed buckets, or None when the allocator refuses them.
    pub(super) fn zeroed(count: usize) -> Option<Buckets> {
        let count = count.max(1);
        let size = count.checked_mul(std::mem::size_of::<Bucket>())?;
        // A table smaller than one huge page cannot use one, so it is not aligned to it.
        let align = if size >= HUGE_PAGE {
            HUGE_PAGE
        } else {
            std::mem::align_of::<Bucket>()
        };
        let layout = Layout::from_size_align(size, align).ok()?;
        // SAFETY: the layout's size is not zero (count ≥ 1 and a bucket has 64 bytes).
        let ptr = NonNull::new(unsafe { alloc(layout) }.cast::<Bucket>())?;
        if align == HUGE_PAGE {
            advise_huge_pages(ptr.as_ptr().cast(), size);
        }
        // SAFETY: the allocation holds `count` buckets, and all-zero bytes are a valid, empty
        // bucket (its atomics read 0, which the table takes as "no entry").
        unsafe { ptr.as_ptr().write_bytes(0, count) };
        Some(Buckets {
            ptr,
            len: count,
            layout: Some(layout),
        })
    }

    /// One zeroed bucket: the table of last resort. Like `vec!`, it aborts only if even 64
    /// bytes cannot be had.
    pub(super) fn one() -> Buckets {
        Buckets::zeroed(1).unwrap_or_else(|| handle_alloc_error(Layout::new::<Bucket>()))
    }
}

impl Deref for Buckets {
    type Target = [Bucket];

    fn deref(&self) -> &[Bucket] {
        // SAFETY: `ptr` points to `len` initialised buckets that live as long as `self` (or
        // is dangling with `len` 0, which a slice allows).
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for Buckets {
    fn drop(&mut self) {
        if let Some(layout) = self.layout {
            // SAFETY: `ptr` came from `alloc` with this very layout and is freed only here.
            unsafe { dealloc(self.ptr.as_ptr().cast(), layout) };
        }
    }
}

/// Ask Linux to back `len` bytes at `start` (aligned to [`HUGE_PAGE`]) with huge pages. It is
/// advice: should the kernel refuse it, the table works the same on small pages, so the
/// result is not checked.
#[cfg(target_os = "linux")]
fn advise_huge_pages(start: *mut libc::c_void, len: usize) {
    // SAFETY: the range is one live allocation of this process; madvise with MADV_HUGEPAGE
    // changes how the kernel backs it, never its contents.
    unsafe { libc::madvise(start, len, libc::MADV_HUGEPAGE) };
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_start: *mut u8, _len: usize) {}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering::Relaxed;

    #[test]
    fn a_table_of_a_huge_page_or_more_is_aligned_to_one_and_zeroed() {
        let count = 3 * HUGE_PAGE / std::mem::size_of::<Bucket>();
        let buckets = Buckets::zeroed(count).expect("6 MB");
        assert_eq!(buckets.len(), count);
        assert_eq!(buckets.as_ptr() as usize % HUGE_PAGE, 0);
        assert!(buckets.iter().all(|b| b
            .slots
            .iter()
            .all(|s| s.check.load(Relaxed) == 0 && s.data.load(Relaxed) == 0)));
    }

    #[test]
    fn small_and_empty_tables_need_no_huge_page() {
        let small = Buckets::zeroed(0).expect("one bucket");
        assert_eq!(small.len(), 1);
        assert_eq!(small.as_ptr() as usize % std::mem::align_of::<Bucket>(), 0);
        assert!(Buckets::empty().is_empty());
        assert!(Buckets::zeroed(usize::MAX).is_none());
    }
}
