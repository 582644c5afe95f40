//! Evaluation weights: (midgame, endgame) pairs in centipawns.
//!
//! Written by `sandglass tune` (src/tools/tune.rs), which also reads these values
//! as its starting point. `eval/layout.rs` lists the groups in this order.
//! Last run: 274142 positions from 3000 games, K = 0.919, 300 epochs, l2 = 3e-8, lambda = 0.5,
//! frozen: none;
//! MSE train 0.033121 -> 0.031146, validation 0.034593 -> 0.033717.

use super::mgeg::{s, MgEg};

/// Piece values: pawn, knight, bishop, rook, queen.
pub const MATERIAL: [MgEg; 5] = [
    s(  73,   96), s( 338,  289), s( 361,  297), s( 482,  520), s(1030,  939),
];

/// Table seen from White: the first row is rank 8, the last rank 1 (Black mirrors it).
pub const PAWN_PSQT: [MgEg; 64] = [
    s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0),
    s( 102,  178), s( 133,  172), s(  60,  160), s(  94,  132), s(  69,  151), s( 125,  131), s(  34,  164), s( -12,  183),
    s(   1,   96), s(   3,  100), s(  24,   77), s(  28,   70), s(  69,   54), s(  56,   53), s(  23,   73), s( -19,   82),
    s( -12,   26), s(   5,   25), s(  -6,   10), s(  15,   -2), s(  31,    4), s(  13,    6), s(  13,   12), s( -17,   10),
    s( -24,   21), s(  -2,   15), s(  -4,   -9), s(   9,   -1), s(  16,   -4), s(   8,  -10), s(  11,    5), s( -24,   -6),
    s( -28,   10), s(  -3,   15), s( -10,   -7), s(  -9,   -4), s(   1,   -3), s(   1,  -11), s(  25,   -3), s( -16,   -4),
    s( -39,    5), s(  11,   19), s( -20,   12), s( -20,   10), s( -13,   13), s(  29,   16), s(  34,    3), s( -15,   -1),
    s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0),
];

/// Table seen from White: the first row is rank 8, the last rank 1 (Black mirrors it).
pub const KNIGHT_PSQT: [MgEg; 64] = [
    s(-166,  -57), s( -89,  -38), s( -34,  -15), s( -49,  -27), s(  61,  -31), s( -97,  -27), s( -15,  -63), s(-106,  -99),
    s( -73,  -25), s( -40,   -7), s(  69,  -27), s(  36,   -2), s(  23,  -10), s(  63,  -24), s(   7,  -25), s( -17,  -52),
    s( -46,  -24), s(  58,  -19), s(  35,    7), s(  65,    7), s(  84,   -3), s( 127,  -11), s(  72,  -19), s(  44,  -41),
    s(  -9,  -16), s(   9,   -2), s(  22,   23), s(  49,   22), s(  31,   25), s(  69,   12), s(  12,    2), s(  23,  -17),
    s(  -9,  -17), s(   3,   -8), s(  16,   20), s(  12,   22), s(  30,   16), s(  22,   20), s(  24,    5), s(  -6,  -15),
    s( -16,  -21), s( -10,   -5), s(   5,    1), s(  12,   16), s(  18,   10), s(  18,   -4), s(  17,  -22), s(  -7,  -21),
    s( -30,  -41), s( -50,  -20), s(   1,   -6), s(   6,   -4), s(  -1,    0), s(  13,  -17), s( -13,  -21), s( -15,  -45),
    s(-105,  -29), s( -31,  -53), s( -59,  -24), s( -35,  -16), s( -10,  -18), s( -27,  -18), s( -27,  -52), s( -21,  -64),
];

/// Table seen from White: the first row is rank 8, the last rank 1 (Black mirrors it).
pub const BISHOP_PSQT: [MgEg; 64] = [
    s( -30,  -13), s(   4,  -21), s( -82,  -10), s( -38,   -8), s( -25,   -6), s( -42,   -8), s(   8,  -15), s(  -8,  -23),
    s( -27,   -7), s(  16,   -2), s( -19,    5), s( -13,  -12), s(  28,   -6), s(  59,  -13), s(  17,   -3), s( -47,  -14),
    s( -18,    2), s(  36,   -9), s(  39,    0), s(  41,    0), s(  36,    2), s(  50,    3), s(  41,    1), s(   1,    5),
    s(  -2,   -2), s(  10,   10), s(  15,   13), s(  50,    9), s(  34,   12), s(  39,   10), s(   3,    1), s(   2,    4),
    s(  -4,   -6), s(  13,    0), s(  16,   12), s(  25,   13), s(  36,   12), s(   4,    5), s(  12,   -4), s(   6,  -10),
    s(   2,   -7), s(  15,   -2), s(   9,    6), s(   9,   12), s(  11,   10), s(  17,   -5), s(  21,   -4), s(   9,  -14),
    s(   6,  -12), s(  19,  -22), s(  20,   -3), s(   2,   -4), s(   2,    6), s(  23,   -8), s(  33,  -16), s(  -1,  -28),
    s( -35,  -24), s(  -3,   -9), s(  -8,  -20), s( -20,   -4), s( -13,  -11), s(  -8,  -13), s( -39,   -5), s( -23,  -17),
];

/// Table seen from White: the first row is rank 8, the last rank 1 (Black mirrors it).
pub const ROOK_PSQT: [MgEg; 64] = [
    s(  30,    8), s(  42,    9), s(  31,   16), s(  50,   11), s(  64,   12), s(  10,   13), s(  31,   10), s(  44,    6),
    s(  27,   15), s(  31,   12), s(  56,   13), s(  62,    8), s(  82,   -1), s(  65,    2), s(  24,    6), s(  44,    4),
    s(  -3,    8), s(  20,    9), s(  27,    9), s(  38,    8), s(  19,    6), s(  46,    0), s(  61,   -5), s(  17,    0),
    s( -25,    3), s(  -9,    6), s(   9,   15), s(  30,    5), s(  23,    2), s(  36,    0), s(  -8,    1), s( -21,    2),
    s( -39,    3), s( -25,    7), s( -15,    6), s(  -4,    2), s(   5,   -7), s(  -9,   -5), s(   8,   -7), s( -22,  -10),
    s( -43,   -6), s( -27,    0), s( -11,   -2), s( -18,   -4), s(  -1,   -8), s(   2,  -12), s(  -5,   -8), s( -30,  -16),
    s( -44,   -8), s( -18,   -7), s( -13,    2), s( -12,   -2), s(   2,   -8), s(   5,  -13), s(  -1,  -11), s( -70,   -2),
    s( -21,   -4), s( -15,   -3), s(   1,    4), s(   7,   -1), s(   9,   -6), s(   4,   -6), s( -28,    5), s( -17,  -24),
];

/// Table seen from White: the first row is rank 8, the last rank 1 (Black mirrors it).
pub const QUEEN_PSQT: [MgEg; 64] = [
    s( -28,   -9), s(   0,   22), s(  28,   21), s(  12,   26), s(  59,   27), s(  44,   19), s(  43,   10), s(  44,   19),
    s( -20,  -16), s( -36,   21), s(  -5,   33), s(   1,   41), s( -15,   59), s(  56,   25), s(  28,   30), s(  53,    0),
    s( -11,  -20), s( -19,    6), s(   8,   10), s(   6,   48), s(  29,   47), s(  55,   35), s(  47,   19), s(  57,   10),
    s( -26,    3), s( -26,   23), s( -15,   25), s( -15,   45), s(  -2,   57), s(  17,   39), s(  -2,   57), s(   5,   37),
    s(  -9,  -18), s( -25,   28), s(  -8,   19), s(  -8,   47), s(  -6,   30), s(  -5,   33), s(   3,   39), s(  -5,   23),
    s( -17,  -16), s(  15,  -24), s( -10,   15), s(  -5,    5), s(  -1,   11), s(  -6,   16), s(  12,   10), s(   4,    4),
    s( -33,  -21), s(  -7,  -23), s(   4,  -33), s(   5,  -17), s(   0,  -18), s(  12,  -23), s(  -4,  -36), s(   0,  -32),
    s(  -3,  -33), s( -16,  -28), s(  -5,  -22), s(   7,  -40), s( -13,   -6), s( -23,  -31), s( -30,  -19), s( -49,  -41),
];

/// Table seen from White: the first row is rank 8, the last rank 1 (Black mirrors it).
pub const KING_PSQT: [MgEg; 64] = [
    s( -65,  -73), s(  23,  -35), s(  16,  -18), s( -15,  -18), s( -56,   -9), s( -34,   16), s(   2,    5), s(  13,  -18),
    s(  30,  -11), s(  -1,   19), s( -20,   15), s(  -7,   17), s(  -7,   20), s(  -5,   39), s( -38,   24), s( -29,   10),
    s(  -9,   10), s(  25,   19), s(   3,   28), s( -15,   19), s( -20,   22), s(   6,   42), s(  20,   32), s( -23,   11),
    s( -17,   -8), s( -19,   24), s( -12,   27), s( -27,   29), s( -30,   27), s( -26,   30), s( -14,   26), s( -35,    3),
    s( -49,  -19), s(  -1,   -6), s( -27,   22), s( -39,   25), s( -47,   24), s( -43,   24), s( -33,    8), s( -51,  -12),
    s( -14,  -19), s( -14,   -4), s( -21,   15), s( -46,   22), s( -44,   23), s( -32,   14), s( -17,    5), s( -28,  -10),
    s(   1,  -26), s(   3,  -13), s(  -8,    6), s( -60,   14), s( -45,   17), s( -27,   -1), s(  13,   -7), s(   2,  -27),
    s( -15,  -52), s(  39,  -37), s(  18,  -15), s( -55,  -13), s(   6,  -30), s( -23,   -8), s(  34,  -27), s(  11,  -41),
];

/// Knight by number of safe squares it attacks (not own pieces, not attacked by enemy pawns).
pub const KNIGHT_MOBILITY: [MgEg; 9] = [
    s( -23,  -17), s( -14,  -11), s(  -8,   -6), s(   0,   -1), s(   5,    7), s(   5,   10), s(   7,   11), s(  12,   12),
    s(  16,   10),
];

/// Bishop by number of safe squares it attacks.
pub const BISHOP_MOBILITY: [MgEg; 14] = [
    s( -27,  -31), s( -18,  -24), s( -15,  -21), s( -10,  -18), s(  -3,  -10), s(  -3,   -3), s(  -2,    4), s(   3,    9),
    s(   6,   10), s(   9,   17), s(  15,   15), s(  16,   20), s(  23,   30), s(  26,   33),
];

/// Rook by number of safe squares it attacks.
pub const ROOK_MOBILITY: [MgEg; 15] = [
    s(  -6,  -26), s( -15,  -16), s( -13,  -15), s(  -7,  -11), s(  -6,  -10), s(   0,   -8), s(   4,    7), s(   4,    7),
    s(   3,   14), s(  10,   15), s(   6,   21), s(   6,   21), s(  12,   26), s(  13,   28), s(  15,   16),
];

/// Queen by number of safe squares it attacks.
pub const QUEEN_MOBILITY: [MgEg; 28] = [
    s( -11,  -24), s( -10,  -22), s(  -9,  -20), s( -10,  -19), s(  -9,  -16), s(  -8,  -14), s( -10,  -11), s(  -9,  -11),
    s(  -7,   -6), s(  -4,   -7), s(  -1,   -5), s(   1,   -2), s(   5,    2), s(   6,    3), s(   4,    5), s(   2,    7),
    s(   5,    8), s(   5,   11), s(   7,   13), s(   7,   14), s(   8,   16), s(  10,   18), s(   9,   20), s(  11,   21),
    s(  12,   24), s(  13,   25), s(  14,   28), s(  15,   30),
];

/// Passed pawn by its rank seen from its own side (index 1 = second rank).
pub const PASSED_PAWN: [MgEg; 8] = [
    s(   0,    0), s(   1,    1), s(  -1,    6), s(   2,   25), s(  27,   44), s(  29,   50), s(  49,   86), s(   0,    0),
];

/// Passed pawn by the king distance from its own king to the square in front of it.
pub const PASSED_OWN_KING_DISTANCE: [MgEg; 8] = [
    s(  -1,   11), s(   1,   23), s(  -7,   11), s(  -3,    0), s(   0,  -13), s(  -4,  -18), s(   0,   -9), s(  -1,  -14),
];

/// Passed pawn by the king distance from the enemy king to the square in front of it.
pub const PASSED_THEIR_KING_DISTANCE: [MgEg; 8] = [
    s(  -6,  -39), s(  -3,  -26), s(   0,   -2), s(   0,    0), s(   3,   13), s(  -8,   16), s(   0,   18), s(  -2,   23),
];

/// Pawn defended by a pawn or standing next to one, by relative rank.
pub const CONNECTED_PAWN: [MgEg; 8] = [
    s(   0,    0), s(   0,   -3), s(  21,    3), s(  24,   17), s(  19,   20), s(  38,   41), s(  60,   68), s(   0,    0),
];

/// Pawn with no own pawn on either neighbouring file.
pub const ISOLATED_PAWN: MgEg = s(  -5,  -13);

/// Pawn with another own pawn in front of it on the same file.
pub const DOUBLED_PAWN: MgEg = s(  -9,  -19);

/// Pawn that no own pawn can defend and whose stop square an enemy pawn attacks.
pub const BACKWARD_PAWN: MgEg = s(  -6,   -7);

/// Two or more bishops.
pub const BISHOP_PAIR: MgEg = s(  28,   51);

/// Rook on a file with no pawns.
pub const ROOK_OPEN_FILE: MgEg = s(  33,    2);

/// Rook on a file with enemy pawns only.
pub const ROOK_SEMI_OPEN_FILE: MgEg = s(  23,   19);

/// Knight on ranks 4-6, defended by a pawn, that no enemy pawn can ever attack.
pub const KNIGHT_OUTPOST: MgEg = s(  23,   13);

/// Bishop on ranks 4-6, defended by a pawn, that no enemy pawn can ever attack.
pub const BISHOP_OUTPOST: MgEg = s(  22,    5);

/// Per enemy knight, bishop, rook or queen attacked by a pawn.
pub const THREAT_BY_PAWN: MgEg = s(  48,   31);

/// Per enemy rook or queen attacked by a knight or bishop.
pub const THREAT_BY_MINOR: MgEg = s(  38,   25);

/// Bonus for the side attacking a king, by the number of its pieces attacking the king zone.
pub const KING_ATTACKERS: [MgEg; 8] = [
    s(   4,    6), s(   1,    0), s(   9,    0), s(  37,    0), s(  59,   -1), s(  80,    0), s(  90,    0), s( 100,    0),
];

/// Per king-zone square attacked by a knight, bishop, rook, queen; counted from two attackers on.
pub const KING_ZONE_ATTACKS: [MgEg; 4] = [
    s(   3,   -6), s(   4,   -8), s(   7,    0), s(  16,    9),
];

/// Own pawn on the rank in front of the king (king's file and its neighbours).
pub const KING_SHIELD_NEAR: MgEg = s(  11,   -4);

/// Own pawn two ranks in front of the king (king's file and its neighbours).
pub const KING_SHIELD_FAR: MgEg = s(   6,    0);

/// King's file or a neighbouring file without own pawns.
pub const KING_SEMI_OPEN_FILE: MgEg = s( -12,    0);

/// King's file or a neighbouring file without any pawns (on top of the above).
pub const KING_OPEN_FILE: MgEg = s( -16,   -4);

/// Side to move.
pub const TEMPO: MgEg = s(  11,    5);
