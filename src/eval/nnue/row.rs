//! One row of `HIDDEN` quantised values, kept on a 64-byte boundary.

use super::HIDDEN;
use std::ops::{Deref, DerefMut};

/// A feature-transformer row, the bias, an accumulator half or an output neuron's weights.
///
/// The sums over these rows are what the compiler turns into vector loads. On the default
/// 2-byte alignment of an `i16` array, a 256-byte row starts anywhere in a cache line, and
/// every 32- or 64-byte load that straddles two lines costs a second access. On a 64-byte
/// boundary none does; the values, and so every score, stay the same.
#[repr(C, align(64))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row(pub [i16; HIDDEN]);

impl Row {
    pub const ZERO: Row = Row([0; HIDDEN]);
}

impl Deref for Row {
    type Target = [i16; HIDDEN];
    fn deref(&self) -> &[i16; HIDDEN] {
        &self.0
    }
}

impl DerefMut for Row {
    fn deref_mut(&mut self) -> &mut [i16; HIDDEN] {
        &mut self.0
    }
}

/// A row iterates as its array does, so the code that walks the weights reads the same.
impl<'a> IntoIterator for &'a Row {
    type Item = &'a i16;
    type IntoIter = std::slice::Iter<'a, i16>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl<'a> IntoIterator for &'a mut Row {
    type Item = &'a mut i16;
    type IntoIter = std::slice::IterMut<'a, i16>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter_mut()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows in a vector, in an array and on the stack all start on a cache line.
    #[test]
    fn rows_start_on_a_cache_line() {
        let rows = vec![Row::ZERO; 5];
        let pair = [Row::ZERO; 2];
        let one = Row::ZERO;
        for row in rows.iter().chain(&pair).chain([&one]) {
            assert_eq!(row.0.as_ptr() as usize % 64, 0);
        }
        assert_eq!(std::mem::size_of::<Row>(), 2 * HIDDEN);
    }
}
