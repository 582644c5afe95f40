//! Bitboard masks and set-wise helpers, all built at compile time.
//!
//! Squares are numbered like the `chess` crate: a1 = 0, b1 = 1, …, h8 = 63, so
//! "one rank up" is `<< 8`. Colour index 0 is White, 1 is Black. "Ahead" always
//! means towards the opponent of the colour in question.

pub const FILE_A: u64 = 0x0101_0101_0101_0101;
pub const FILE_H: u64 = FILE_A << 7;

/// Every square of file `f` (0 = a … 7 = h).
pub const FILES: [u64; 8] = {
    let mut t = [0u64; 8];
    let mut f = 0;
    while f < 8 {
        t[f] = FILE_A << f;
        f += 1;
    }
    t
};

/// The files left and right of file `f` (not `f` itself).
pub const ADJACENT_FILES: [u64; 8] = {
    let mut t = [0u64; 8];
    let mut f = 0;
    while f < 8 {
        if f > 0 {
            t[f] |= FILES[f - 1];
        }
        if f < 7 {
            t[f] |= FILES[f + 1];
        }
        f += 1;
    }
    t
};

/// All squares on ranks strictly ahead of rank `r` for colour `c`.
const fn ranks_ahead(c: usize, r: usize) -> u64 {
    if c == 0 {
        if r >= 7 {
            0
        } else {
            !0u64 << (8 * (r + 1))
        }
    } else if r == 0 {
        0
    } else {
        !0u64 >> (8 * (8 - r))
    }
}

/// Builds a `[colour][square]` table from a function of (colour, file, rank).
const fn per_square(kind: u8) -> [[u64; 64]; 2] {
    let mut t = [[0u64; 64]; 2];
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < 64 {
            let (f, r) = (sq % 8, sq / 8);
            let ahead = ranks_ahead(c, r);
            t[c][sq] = match kind {
                // Same file, ahead.
                0 => FILES[f] & ahead,
                // Same and adjacent files, ahead: enemy pawns here stop a passer.
                1 => (FILES[f] | ADJACENT_FILES[f]) & ahead,
                // Adjacent files, ahead: enemy pawns here may one day attack `sq`.
                2 => ADJACENT_FILES[f] & ahead,
                // Adjacent files, same rank or behind: own pawns here can support `sq`.
                _ => ADJACENT_FILES[f] & !ahead,
            };
            sq += 1;
        }
        c += 1;
    }
    t
}

/// Squares ahead of a pawn on its own file.
pub static FORWARD_FILE: [[u64; 64]; 2] = per_square(0);
/// Squares that enemy pawns must not occupy for a pawn to be passed.
pub static PASSED_SPAN: [[u64; 64]; 2] = per_square(1);
/// Squares from which enemy pawns could (after advancing) attack the square.
pub static ATTACK_SPAN: [[u64; 64]; 2] = per_square(2);
/// Squares holding own pawns that could defend the square, now or by advancing.
pub static SUPPORT_SPAN: [[u64; 64]; 2] = per_square(3);

/// Squares attacked by the pawns in `pawns` of colour `c`.
#[inline(always)]
pub const fn pawn_attacks(c: usize, pawns: u64) -> u64 {
    if c == 0 {
        ((pawns & !FILE_A) << 7) | ((pawns & !FILE_H) << 9)
    } else {
        ((pawns & !FILE_A) >> 9) | ((pawns & !FILE_H) >> 7)
    }
}

/// Moves every square in `b` one rank ahead for colour `c`.
#[inline(always)]
pub const fn forward(c: usize, b: u64) -> u64 {
    if c == 0 {
        b << 8
    } else {
        b >> 8
    }
}

/// King distance (number of king steps) between two squares.
#[inline(always)]
pub fn distance(a: usize, b: usize) -> usize {
    let df = (a % 8).abs_diff(b % 8);
    let dr = (a / 8).abs_diff(b / 8);
    df.max(dr)
}

/// Rank of `sq` seen from colour `c` (0 = own back rank, 7 = promotion rank).
#[inline(always)]
pub const fn relative_rank(c: usize, sq: usize) -> usize {
    if c == 0 {
        sq / 8
    } else {
        7 - sq / 8
    }
}

/// Iterates over the indices of the set bits of a bitboard, lowest first.
#[inline(always)]
pub fn squares(mut b: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if b == 0 {
            None
        } else {
            let sq = b.trailing_zeros() as usize;
            b &= b - 1;
            Some(sq)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_look_right() {
        // e2 (12) for White: e3..e8 ahead.
        assert_eq!(FORWARD_FILE[0][12], FILES[4] & !0xFFFF);
        // e7 (52) for Black: e6..e1 ahead.
        assert_eq!(FORWARD_FILE[1][52], FILES[4] & 0x0000_FFFF_FFFF_FFFF);
        assert_eq!(PASSED_SPAN[0][63], 0);
        assert_eq!(PASSED_SPAN[1][0], 0);
        // a4 (24): support span for White holds b1..b4.
        assert_eq!(SUPPORT_SPAN[0][24], FILES[1] & 0xFFFF_FFFF);
        assert_eq!(pawn_attacks(0, 1 << 8), 1 << 17);
        assert_eq!(pawn_attacks(1, 1 << 55), 1 << 46);
        assert_eq!(distance(0, 63), 7);
        assert_eq!(squares(0b1010).collect::<Vec<_>>(), vec![1, 3]);
    }
}
