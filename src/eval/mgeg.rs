//! A packed (midgame, endgame) score pair.
//!
//! Every evaluation term has two values: one for the middlegame and one for the
//! endgame. Instead of carrying two integers around, both halves live in a single
//! `i32` as `eg * 65536 + mg`. Adding, subtracting, negating and multiplying by an
//! integer then work on both halves at once with one machine instruction, because
//! the packing is linear: `(a·65536 + b) + (c·65536 + d) = (a+c)·65536 + (b+d)`.
//! The halves only have to fit in an `i16` when they are unpacked again.

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// A (midgame, endgame) pair packed into one integer. Build it with [`s`].
#[derive(Clone, Copy, PartialEq, Eq, Default)]
pub struct MgEg(i32);

/// Makes a score from its midgame and endgame halves (each must fit in an `i16`).
pub const fn s(mg: i32, eg: i32) -> MgEg {
    MgEg(eg * 65536 + mg)
}

impl MgEg {
    /// The zero score.
    pub const ZERO: MgEg = MgEg(0);

    /// The midgame half.
    #[inline(always)]
    pub const fn mg(self) -> i32 {
        self.0 as i16 as i32
    }

    /// The endgame half. Adding 0x8000 first undoes the borrow that a negative
    /// midgame half took from the upper 16 bits.
    #[inline(always)]
    pub const fn eg(self) -> i32 {
        (self.0.wrapping_add(0x8000) >> 16) as i16 as i32
    }

    /// Const-context addition (operators are not usable in `const fn` on stable).
    pub const fn plus(self, other: MgEg) -> MgEg {
        MgEg(self.0 + other.0)
    }
}

impl Add for MgEg {
    type Output = MgEg;
    #[inline(always)]
    fn add(self, rhs: MgEg) -> MgEg {
        MgEg(self.0 + rhs.0)
    }
}

impl AddAssign for MgEg {
    #[inline(always)]
    fn add_assign(&mut self, rhs: MgEg) {
        self.0 += rhs.0;
    }
}

impl Sub for MgEg {
    type Output = MgEg;
    #[inline(always)]
    fn sub(self, rhs: MgEg) -> MgEg {
        MgEg(self.0 - rhs.0)
    }
}

impl SubAssign for MgEg {
    #[inline(always)]
    fn sub_assign(&mut self, rhs: MgEg) {
        self.0 -= rhs.0;
    }
}

impl Neg for MgEg {
    type Output = MgEg;
    #[inline(always)]
    fn neg(self) -> MgEg {
        MgEg(-self.0)
    }
}

impl Mul<i32> for MgEg {
    type Output = MgEg;
    #[inline(always)]
    fn mul(self, rhs: i32) -> MgEg {
        MgEg(self.0 * rhs)
    }
}

impl std::fmt::Debug for MgEg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "s({}, {})", self.mg(), self.eg())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_round_trips_signs() {
        for &(m, e) in &[
            (0, 0),
            (1, -1),
            (-1, 1),
            (-300, -200),
            (1200, -950),
            (-32000, 32000),
        ] {
            let v = s(m, e);
            assert_eq!((v.mg(), v.eg()), (m, e));
        }
        let v = s(-5, 7) * 3 - s(10, -10) + s(2, 2);
        assert_eq!((v.mg(), v.eg()), (-23, 33));
        assert_eq!(((-v).mg(), (-v).eg()), (23, -33));
    }
}
