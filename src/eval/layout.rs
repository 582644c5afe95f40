//! Where each weight of `params.rs` sits in the flat weight vector of the tuner.
//!
//! The evaluation is linear in its weights: every term adds `weight × count`,
//! where the count (a "feature") depends only on the position. Numbering the
//! weights 0..[`COUNT`] lets the tuner see the evaluation as a dot product of a
//! feature vector (the trace) with a weight vector. For every named group in
//! `params.rs` this module has a constant of the same name giving the index of
//! the group's first weight, and [`GROUPS`] lists the groups in order with their
//! documentation, so that the tuner can read the current values and write a new
//! `params.rs`.

use super::mgeg::MgEg;
use super::params;

// Offsets: each group starts where the previous one ends.
pub const MATERIAL: usize = 0;
pub const PAWN_PSQT: usize = MATERIAL + params::MATERIAL.len();
pub const KNIGHT_PSQT: usize = PAWN_PSQT + 64;
pub const BISHOP_PSQT: usize = KNIGHT_PSQT + 64;
pub const ROOK_PSQT: usize = BISHOP_PSQT + 64;
pub const QUEEN_PSQT: usize = ROOK_PSQT + 64;
pub const KING_PSQT: usize = QUEEN_PSQT + 64;
pub const KNIGHT_MOBILITY: usize = KING_PSQT + 64;
pub const BISHOP_MOBILITY: usize = KNIGHT_MOBILITY + params::KNIGHT_MOBILITY.len();
pub const ROOK_MOBILITY: usize = BISHOP_MOBILITY + params::BISHOP_MOBILITY.len();
pub const QUEEN_MOBILITY: usize = ROOK_MOBILITY + params::ROOK_MOBILITY.len();
pub const PASSED_PAWN: usize = QUEEN_MOBILITY + params::QUEEN_MOBILITY.len();
pub const PASSED_OWN_KING_DISTANCE: usize = PASSED_PAWN + params::PASSED_PAWN.len();
pub const PASSED_THEIR_KING_DISTANCE: usize =
    PASSED_OWN_KING_DISTANCE + params::PASSED_OWN_KING_DISTANCE.len();
pub const CONNECTED_PAWN: usize =
    PASSED_THEIR_KING_DISTANCE + params::PASSED_THEIR_KING_DISTANCE.len();
pub const ISOLATED_PAWN: usize = CONNECTED_PAWN + params::CONNECTED_PAWN.len();
pub const DOUBLED_PAWN: usize = ISOLATED_PAWN + 1;
pub const BACKWARD_PAWN: usize = DOUBLED_PAWN + 1;
pub const BISHOP_PAIR: usize = BACKWARD_PAWN + 1;
pub const ROOK_OPEN_FILE: usize = BISHOP_PAIR + 1;
pub const ROOK_SEMI_OPEN_FILE: usize = ROOK_OPEN_FILE + 1;
pub const KNIGHT_OUTPOST: usize = ROOK_SEMI_OPEN_FILE + 1;
pub const BISHOP_OUTPOST: usize = KNIGHT_OUTPOST + 1;
pub const THREAT_BY_PAWN: usize = BISHOP_OUTPOST + 1;
pub const THREAT_BY_MINOR: usize = THREAT_BY_PAWN + 1;
pub const KING_ATTACKERS: usize = THREAT_BY_MINOR + 1;
pub const KING_ZONE_ATTACKS: usize = KING_ATTACKERS + params::KING_ATTACKERS.len();
pub const KING_SHIELD_NEAR: usize = KING_ZONE_ATTACKS + params::KING_ZONE_ATTACKS.len();
pub const KING_SHIELD_FAR: usize = KING_SHIELD_NEAR + 1;
pub const KING_SEMI_OPEN_FILE: usize = KING_SHIELD_FAR + 1;
pub const KING_OPEN_FILE: usize = KING_SEMI_OPEN_FILE + 1;
pub const TEMPO: usize = KING_OPEN_FILE + 1;
/// Number of weights (each a midgame/endgame pair).
pub const COUNT: usize = TEMPO + 1;

/// One named constant of `params.rs`.
pub struct Group {
    /// The constant's name, both in `params.rs` and in this module.
    pub name: &'static str,
    /// Index of its first weight.
    pub offset: usize,
    /// Its current values (one for a scalar).
    pub values: &'static [MgEg],
    /// `true` for `pub const X: MgEg`, `false` for an array.
    pub scalar: bool,
    /// Documentation written above it.
    pub doc: &'static str,
}

macro_rules! group {
    (array $name:ident, $doc:expr) => {
        Group {
            name: stringify!($name),
            offset: $name,
            values: &params::$name,
            scalar: false,
            doc: $doc,
        }
    };
    (scalar $name:ident, $doc:expr) => {
        Group {
            name: stringify!($name),
            offset: $name,
            values: std::slice::from_ref(&params::$name),
            scalar: true,
            doc: $doc,
        }
    };
}

const PSQT_DOC: &str =
    "Table seen from White: the first row is rank 8, the last rank 1 (Black mirrors it).";

/// Every group of weights, in weight-index order.
pub const GROUPS: &[Group] = &[
    group!(array MATERIAL, "Piece values: pawn, knight, bishop, rook, queen."),
    group!(array PAWN_PSQT, PSQT_DOC),
    group!(array KNIGHT_PSQT, PSQT_DOC),
    group!(array BISHOP_PSQT, PSQT_DOC),
    group!(array ROOK_PSQT, PSQT_DOC),
    group!(array QUEEN_PSQT, PSQT_DOC),
    group!(array KING_PSQT, PSQT_DOC),
    group!(array KNIGHT_MOBILITY, "Knight by number of safe squares it attacks (not own pieces, not attacked by enemy pawns)."),
    group!(array BISHOP_MOBILITY, "Bishop by number of safe squares it attacks."),
    group!(array ROOK_MOBILITY, "Rook by number of safe squares it attacks."),
    group!(array QUEEN_MOBILITY, "Queen by number of safe squares it attacks."),
    group!(array PASSED_PAWN, "Passed pawn by its rank seen from its own side (index 1 = second rank)."),
    group!(array PASSED_OWN_KING_DISTANCE, "Passed pawn by the king distance from its own king to the square in front of it."),
    group!(array PASSED_THEIR_KING_DISTANCE, "Passed pawn by the king distance from the enemy king to the square in front of it."),
    group!(array CONNECTED_PAWN, "Pawn defended by a pawn or standing next to one, by relative rank."),
    group!(scalar ISOLATED_PAWN, "Pawn with no own pawn on either neighbouring file."),
    group!(scalar DOUBLED_PAWN, "Pawn with another own pawn in front of it on the same file."),
    group!(scalar BACKWARD_PAWN, "Pawn that no own pawn can defend and whose stop square an enemy pawn attacks."),
    group!(scalar BISHOP_PAIR, "Two or more bishops."),
    group!(scalar ROOK_OPEN_FILE, "Rook on a file with no pawns."),
    group!(scalar ROOK_SEMI_OPEN_FILE, "Rook on a file with enemy pawns only."),
    group!(scalar KNIGHT_OUTPOST, "Knight on ranks 4-6, defended by a pawn, that no enemy pawn can ever attack."),
    group!(scalar BISHOP_OUTPOST, "Bishop on ranks 4-6, defended by a pawn, that no enemy pawn can ever attack."),
    group!(scalar THREAT_BY_PAWN, "Per enemy knight, bishop, rook or queen attacked by a pawn."),
    group!(scalar THREAT_BY_MINOR, "Per enemy rook or queen attacked by a knight or bishop."),
    group!(array KING_ATTACKERS, "Bonus for the side attacking a king, by the number of its pieces attacking the king zone."),
    group!(array KING_ZONE_ATTACKS, "Per king-zone square attacked by a knight, bishop, rook, queen; counted from two attackers on."),
    group!(scalar KING_SHIELD_NEAR, "Own pawn on the rank in front of the king (king's file and its neighbours)."),
    group!(scalar KING_SHIELD_FAR, "Own pawn two ranks in front of the king (king's file and its neighbours)."),
    group!(scalar KING_SEMI_OPEN_FILE, "King's file or a neighbouring file without own pawns."),
    group!(scalar KING_OPEN_FILE, "King's file or a neighbouring file without any pawns (on top of the above)."),
    group!(scalar TEMPO, "Side to move."),
];

/// The current weights of `params.rs` as a flat vector of (midgame, endgame) pairs.
pub fn current_weights() -> Vec<(i32, i32)> {
    let mut w = vec![(0, 0); COUNT];
    for g in GROUPS {
        for (i, v) in g.values.iter().enumerate() {
            w[g.offset + i] = (v.mg(), v.eg());
        }
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_tile_the_weight_vector() {
        let mut next = 0;
        for g in GROUPS {
            assert_eq!(
                g.offset, next,
                "{} does not start where the previous group ends",
                g.name
            );
            assert!(!g.scalar || g.values.len() == 1, "{} is scalar", g.name);
            next += g.values.len();
        }
        assert_eq!(next, COUNT);
    }
}
