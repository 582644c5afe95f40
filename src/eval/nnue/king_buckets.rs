//! King buckets: several sets of input weights, of which each perspective reads the one its
//! own king's square selects.
//!
//! Why: what a piece is worth depends on where the king it guards or attacks stands, and a
//! single set of input weights can only learn that through the hidden layer. With buckets,
//! "knight on f3 with my king on g1" and "knight on f3 with my king on e2" are different
//! inputs. The price is data: each bucket learns only from the positions whose king stands
//! in it, so engines add them once their data runs to tens of millions of positions (issue
//! 39: "king buckets, once the data passes about 25 M"), and in the accumulator, where a king
//! moving into another bucket makes its perspective be computed afresh (as a king-mirrored
//! network already does when the king crosses the board's middle).
//!
//! A layout maps the king's square, seen from its own side (rank 1 is the own back rank) and
//! after the left-right flip of king-mirrored inputs, to a bucket. The file stores the whole
//! map, so a network carries its own layout; [`KingBuckets::NAMED`] are the ones `train`
//! offers by name.

/// Most king buckets a network may have.
pub const MAX_KING_BUCKETS: usize = 16;

/// A map from the king's square (0 = a1 … 63 = h8, seen from its own side) to a bucket.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KingBuckets {
    table: [u8; 64],
}

/// Four buckets: the back rank's two outer files on each side (a king tucked into a corner,
/// as on g1 after castling short; c1, after castling long, counts as the middle), the rest of
/// the back rank, the second rank, and everything further up. Symmetric left-right, so it
/// means the same with plain and with king-mirrored inputs.
#[rustfmt::skip]
const FOUR: [u8; 64] = [
    0, 0, 1, 1, 1, 1, 0, 0,
    2, 2, 2, 2, 2, 2, 2, 2,
    3, 3, 3, 3, 3, 3, 3, 3,
    3, 3, 3, 3, 3, 3, 3, 3,
    3, 3, 3, 3, 3, 3, 3, 3,
    3, 3, 3, 3, 3, 3, 3, 3,
    3, 3, 3, 3, 3, 3, 3, 3,
    3, 3, 3, 3, 3, 3, 3, 3,
];

impl KingBuckets {
    /// One bucket: the king's square selects nothing (every network before issue 39's).
    pub const NONE: KingBuckets = KingBuckets { table: [0; 64] };

    /// The layouts `train --king-buckets` takes by name.
    pub const NAMED: [(&'static str, KingBuckets); 2] = [
        ("none", KingBuckets::NONE),
        ("4", KingBuckets { table: FOUR }),
    ];

    pub fn from_name(name: &str) -> Option<KingBuckets> {
        KingBuckets::NAMED
            .into_iter()
            .find(|(n, _)| *n == name)
            .map(|(_, k)| k)
    }

    /// A layout read from a file: every bucket below [`MAX_KING_BUCKETS`], and every bucket
    /// up to the largest used by some square, so that the file holds no rows that no
    /// layout could read. (Under king-mirrored inputs files e–h are never looked up, so a
    /// bucket only they use would still be dead; the named layouts are symmetric.)
    pub fn from_table(table: [u8; 64]) -> Result<KingBuckets, String> {
        let layout = KingBuckets { table };
        let count = layout.count();
        if count > MAX_KING_BUCKETS {
            return Err(format!(
                "king bucket {} is past the most allowed, {MAX_KING_BUCKETS}",
                count - 1
            ));
        }
        if let Some(unused) = (0..count).find(|&b| !table.iter().any(|&t| usize::from(t) == b)) {
            return Err(format!("king bucket {unused} is used by no square"));
        }
        Ok(layout)
    }

    pub fn table(&self) -> &[u8; 64] {
        &self.table
    }

    /// Number of buckets: one more than the largest in the table.
    pub fn count(self) -> usize {
        usize::from(self.table.iter().copied().max().unwrap_or(0)) + 1
    }

    /// The bucket of a king on `square` (0..64, seen from its own side, after any flip).
    #[inline]
    pub fn of(self, square: usize) -> usize {
        usize::from(self.table[square & 63])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_layouts_round_trip_and_count() {
        for (name, layout) in KingBuckets::NAMED {
            assert_eq!(KingBuckets::from_name(name), Some(layout));
            assert_eq!(KingBuckets::from_table(*layout.table()), Ok(layout));
        }
        assert_eq!(KingBuckets::NONE.count(), 1);
        let four = KingBuckets::from_name("4").expect("named");
        assert_eq!(four.count(), 4);
        // g1 (castled) and b1 share the corner bucket, e1 is the middle, e2 the second rank.
        assert_eq!(
            [four.of(6), four.of(1), four.of(4), four.of(12)],
            [0, 0, 1, 2]
        );
        assert_eq!(four.of(63), 3);
        assert_eq!(KingBuckets::from_name("5"), None);
    }

    #[test]
    fn a_file_layout_must_be_dense_and_small() {
        let mut gap = [0u8; 64];
        gap[10] = 2;
        assert!(KingBuckets::from_table(gap)
            .unwrap_err()
            .contains("bucket 1 is used by no square"));
        let too_many: [u8; 64] = std::array::from_fn(|i| i as u8);
        assert!(KingBuckets::from_table(too_many)
            .unwrap_err()
            .contains("past the most allowed"));
    }
}
