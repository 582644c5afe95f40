//! Evaluation weights: (midgame, endgame) pairs in centipawns.
//!
//! Written by `sandglass tune` (src/tools/tune.rs), which also reads these values
//! as its starting point. `eval/layout.rs` lists the groups in this order.
//! Last run: 26106 positions from 460 games, K = 0.374, 1000 epochs, l2 = 3e-7,
//! frozen: MATERIAL,PAWN_PSQT,KNIGHT_PSQT,BISHOP_PSQT,ROOK_PSQT,QUEEN_PSQT,KING_PSQT;
//! MSE train 0.190774 -> 0.188062.

use super::score::{s, Score};

/// Piece values: pawn, knight, bishop, rook, queen.
pub const MATERIAL: [Score; 5] = [
    s(  82,   94), s( 337,  281), s( 365,  297), s( 477,  512), s(1025,  936),
];

/// Table seen from White: the first row is rank 8, the last rank 1 (Black mirrors it).
pub const PAWN_PSQT: [Score; 64] = [
    s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0),
    s(  98,  178), s( 134,  173), s(  61,  158), s(  95,  134), s(  68,  147), s( 126,  132), s(  34,  165), s( -11,  187),
    s(  -6,   94), s(   7,  100), s(  26,   85), s(  31,   67), s(  65,   56), s(  56,   53), s(  25,   82), s( -20,   84),
    s( -14,   32), s(  13,   24), s(   6,   13), s(  21,    5), s(  23,   -2), s(  12,    4), s(  17,   17), s( -23,   17),
    s( -27,   13), s(  -2,    9), s(  -5,   -3), s(  12,   -7), s(  17,   -7), s(   6,   -8), s(  10,    3), s( -25,   -1),
    s( -26,    4), s(  -4,    7), s(  -4,   -6), s( -10,    1), s(   3,    0), s(   3,   -5), s(  33,   -1), s( -12,   -8),
    s( -35,   13), s(  -1,    8), s( -20,    8), s( -23,   10), s( -15,   13), s(  24,    0), s(  38,    2), s( -22,   -7),
    s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0),
];

/// Table seen from White: the first row is rank 8, the last rank 1 (Black mirrors it).
pub const KNIGHT_PSQT: [Score; 64] = [
    s(-167,  -58), s( -89,  -38), s( -34,  -13), s( -49,  -28), s(  61,  -31), s( -97,  -27), s( -15,  -63), s(-107,  -99),
    s( -73,  -25), s( -41,   -8), s(  72,  -25), s(  36,   -2), s(  23,   -9), s(  62,  -25), s(   7,  -24), s( -17,  -52),
    s( -47,  -24), s(  60,  -20), s(  37,   10), s(  65,    9), s(  84,   -1), s( 129,   -9), s(  73,  -19), s(  44,  -41),
    s(  -9,  -17), s(  17,    3), s(  19,   22), s(  53,   22), s(  37,   22), s(  69,   11), s(  18,    8), s(  22,  -18),
    s( -13,  -18), s(   4,   -6), s(  16,   16), s(  13,   25), s(  28,   16), s(  19,   17), s(  21,    4), s(  -8,  -18),
    s( -23,  -23), s(  -9,   -3), s(  12,   -1), s(  10,   15), s(  19,   10), s(  17,   -3), s(  25,  -20), s( -16,  -22),
    s( -29,  -42), s( -53,  -20), s( -12,  -10), s(  -3,   -5), s(  -1,   -2), s(  18,  -20), s( -14,  -23), s( -19,  -44),
    s(-105,  -29), s( -21,  -51), s( -58,  -23), s( -33,  -15), s( -17,  -22), s( -28,  -18), s( -19,  -50), s( -23,  -64),
];

/// Table seen from White: the first row is rank 8, the last rank 1 (Black mirrors it).
pub const BISHOP_PSQT: [Score; 64] = [
    s( -29,  -14), s(   4,  -21), s( -82,  -11), s( -37,   -8), s( -25,   -7), s( -42,   -9), s(   7,  -17), s(  -8,  -24),
    s( -26,   -8), s(  16,   -4), s( -18,    7), s( -13,  -12), s(  30,   -3), s(  59,  -13), s(  18,   -4), s( -47,  -14),
    s( -16,    2), s(  37,   -8), s(  43,    0), s(  40,   -1), s(  35,   -2), s(  50,    6), s(  37,    0), s(  -2,    4),
    s(  -4,   -3), s(   5,    9), s(  19,   12), s(  50,    9), s(  37,   14), s(  37,   10), s(   7,    3), s(  -2,    2),
    s(  -6,   -6), s(  13,    3), s(  13,   13), s(  26,   19), s(  34,    7), s(  12,   10), s(  10,   -3), s(   4,   -9),
    s(   0,  -12), s(  15,   -3), s(  15,    8), s(  15,   10), s(  14,   13), s(  27,    3), s(  18,   -7), s(  10,  -15),
    s(   4,  -14), s(  15,  -18), s(  16,   -7), s(   0,   -1), s(   7,    4), s(  21,   -9), s(  33,  -15), s(   1,  -27),
    s( -33,  -23), s(  -3,   -9), s( -14,  -23), s( -21,   -5), s( -13,   -9), s( -12,  -16), s( -39,   -5), s( -21,  -17),
];

/// Table seen from White: the first row is rank 8, the last rank 1 (Black mirrors it).
pub const ROOK_PSQT: [Score; 64] = [
    s(  32,   13), s(  42,   10), s(  32,   18), s(  51,   15), s(  63,   12), s(   9,   12), s(  31,    8), s(  43,    5),
    s(  27,   11), s(  32,   13), s(  58,   13), s(  62,   11), s(  80,   -3), s(  67,    3), s(  26,    8), s(  44,    3),
    s(  -5,    7), s(  19,    7), s(  26,    7), s(  36,    5), s(  17,    4), s(  45,   -3), s(  61,   -5), s(  16,   -3),
    s( -24,    4), s( -11,    3), s(   7,   13), s(  26,    1), s(  24,    2), s(  35,    1), s(  -8,   -1), s( -20,    2),
    s( -36,    3), s( -26,    5), s( -12,    8), s(  -1,    4), s(   9,   -5), s(  -7,   -6), s(   6,   -8), s( -23,  -11),
    s( -45,   -4), s( -25,    0), s( -16,   -5), s( -17,   -1), s(   3,   -7), s(   0,  -12), s(  -5,   -8), s( -33,  -16),
    s( -44,   -6), s( -16,   -6), s( -20,    0), s(  -9,    2), s(  -1,   -9), s(  11,   -9), s(  -6,  -11), s( -71,   -3),
    s( -19,   -9), s( -13,    2), s(   1,    3), s(  17,   -1), s(  16,   -5), s(   7,  -13), s( -37,    4), s( -26,  -20),
];

/// Table seen from White: the first row is rank 8, the last rank 1 (Black mirrors it).
pub const QUEEN_PSQT: [Score; 64] = [
    s( -28,   -9), s(   0,   22), s(  29,   22), s(  12,   27), s(  59,   27), s(  44,   19), s(  43,   10), s(  45,   20),
    s( -24,  -17), s( -39,   20), s(  -5,   32), s(   1,   41), s( -16,   58), s(  57,   25), s(  28,   30), s(  54,    0),
    s( -13,  -20), s( -17,    6), s(   7,    9), s(   8,   49), s(  29,   47), s(  56,   35), s(  47,   19), s(  57,    9),
    s( -27,    3), s( -27,   22), s( -16,   24), s( -16,   45), s(  -1,   57), s(  17,   40), s(  -2,   57), s(   1,   36),
    s(  -9,  -18), s( -26,   28), s(  -9,   19), s( -10,   47), s(  -2,   31), s(  -4,   34), s(   3,   39), s(  -3,   23),
    s( -14,  -16), s(   2,  -27), s( -11,   15), s(  -2,    6), s(  -5,    9), s(   2,   17), s(  14,   10), s(   5,    5),
    s( -35,  -22), s(  -8,  -23), s(  11,  -30), s(   2,  -16), s(   8,  -16), s(  15,  -23), s(  -3,  -36), s(   1,  -32),
    s(  -1,  -33), s( -18,  -28), s(  -9,  -22), s(  10,  -43), s( -15,   -5), s( -25,  -32), s( -31,  -20), s( -50,  -41),
];

/// Table seen from White: the first row is rank 8, the last rank 1 (Black mirrors it).
pub const KING_PSQT: [Score; 64] = [
    s( -65,  -74), s(  23,  -35), s(  16,  -18), s( -15,  -18), s( -56,  -11), s( -34,   15), s(   2,    4), s(  13,  -17),
    s(  29,  -12), s(  -1,   17), s( -20,   14), s(  -7,   17), s(  -8,   17), s(  -4,   38), s( -38,   23), s( -29,   11),
    s(  -9,   10), s(  24,   17), s(   2,   23), s( -16,   15), s( -20,   20), s(   6,   45), s(  22,   44), s( -22,   13),
    s( -17,   -8), s( -20,   22), s( -12,   24), s( -27,   27), s( -30,   26), s( -25,   33), s( -14,   26), s( -36,    3),
    s( -49,  -18), s(  -1,   -4), s( -27,   21), s( -39,   24), s( -46,   27), s( -44,   23), s( -33,    9), s( -51,  -11),
    s( -14,  -19), s( -14,   -3), s( -22,   11), s( -46,   21), s( -44,   23), s( -30,   16), s( -15,    7), s( -27,   -9),
    s(   1,  -27), s(   7,  -11), s(  -8,    4), s( -64,   13), s( -43,   14), s( -16,    4), s(   9,   -5), s(   8,  -17),
    s( -15,  -53), s(  36,  -34), s(  12,  -21), s( -54,  -11), s(   8,  -28), s( -28,  -14), s(  24,  -24), s(  14,  -43),
];

/// Knight by number of safe squares it attacks (not own pieces, not attacked by enemy pawns).
pub const KNIGHT_MOBILITY: [Score; 9] = [
    s( -17,  -16), s( -21,  -14), s(  -4,   -8), s(  -6,   -4), s(  10,    3), s(   8,    8), s(   6,   10), s(  14,   13),
    s(  16,   16),
];

/// Bishop by number of safe squares it attacks.
pub const BISHOP_MOBILITY: [Score; 14] = [
    s( -25,  -30), s( -13,  -24), s( -24,  -20), s( -16,  -17), s(   0,   -9), s(  -1,   -5), s(  -3,    0), s(   0,    5),
    s(   6,    9), s(  12,   14), s(  16,   19), s(  20,   24), s(  24,   30), s(  28,   35),
];

/// Rook by number of safe squares it attacks.
pub const ROOK_MOBILITY: [Score; 15] = [
    s(  -4,  -23), s( -15,  -20), s(  -9,  -15), s(  -3,  -11), s( -12,  -11), s(  -6,   -5), s(   1,    1), s(   4,    4),
    s(   5,    6), s(   7,   14), s(   7,   16), s(   9,   19), s(  12,   24), s(  14,   28), s(  17,   34),
];

/// Queen by number of safe squares it attacks.
pub const QUEEN_MOBILITY: [Score; 28] = [
    s( -12,  -24), s( -11,  -22), s( -10,  -20), s(  -9,  -18), s(  -5,  -16), s(  -7,  -14), s( -10,  -12), s(  -8,  -10),
    s(  -6,   -8), s(  -1,   -6), s(  -4,   -5), s(   0,   -2), s(   2,    1), s(   2,    2), s(   2,    4), s(   2,    6),
    s(   5,    8), s(   5,   10), s(   6,   12), s(   7,   14), s(   8,   16), s(   9,   18), s(  10,   20), s(  11,   22),
    s(  12,   24), s(  13,   26), s(  14,   28), s(  15,   30),
];

/// Passed pawn by its rank seen from its own side (index 1 = second rank).
pub const PASSED_PAWN: [Score; 8] = [
    s(   0,    0), s(   0,    2), s(   0,    5), s(   2,   17), s(  13,   32), s(  27,   54), s(  49,   88), s(   0,    0),
];

/// Passed pawn by the king distance from its own king to the square in front of it.
pub const PASSED_OWN_KING_DISTANCE: [Score; 8] = [
    s(   0,   12), s(   0,    9), s(  -3,    7), s(  -2,   -1), s(  -2,   -6), s(  -6,  -10), s(  -4,  -15), s(  -2,  -17),
];

/// Passed pawn by the king distance from the enemy king to the square in front of it.
pub const PASSED_THEIR_KING_DISTANCE: [Score; 8] = [
    s(  -1,  -17), s(  -3,  -12), s(  -5,   -5), s(  -2,   -3), s(   0,    5), s(  -3,    9), s(  -3,   11), s(  -2,   18),
];

/// Pawn defended by a pawn or standing next to one, by relative rank.
pub const CONNECTED_PAWN: [Score; 8] = [
    s(   0,    0), s(   2,    0), s(  27,   13), s(  29,   31), s(  12,   25), s(  35,   40), s(  60,   70), s(   0,    0),
];

/// Pawn with no own pawn on either neighbouring file.
pub const ISOLATED_PAWN: Score = s( -11,  -26);

/// Pawn with another own pawn in front of it on the same file.
pub const DOUBLED_PAWN: Score = s(  -9,  -19);

/// Pawn that no own pawn can defend and whose stop square an enemy pawn attacks.
pub const BACKWARD_PAWN: Score = s( -11,   -7);

/// Two or more bishops.
pub const BISHOP_PAIR: Score = s(  26,   50);

/// Rook on a file with no pawns.
pub const ROOK_OPEN_FILE: Score = s(  30,   10);

/// Rook on a file with enemy pawns only.
pub const ROOK_SEMI_OPEN_FILE: Score = s(  28,   11);

/// Knight on ranks 4-6, defended by a pawn, that no enemy pawn can ever attack.
pub const KNIGHT_OUTPOST: Score = s(  19,   11);

/// Bishop on ranks 4-6, defended by a pawn, that no enemy pawn can ever attack.
pub const BISHOP_OUTPOST: Score = s(  14,    5);

/// Per enemy knight, bishop, rook or queen attacked by a pawn.
pub const THREAT_BY_PAWN: Score = s(  40,   30);

/// Per enemy rook or queen attacked by a knight or bishop.
pub const THREAT_BY_MINOR: Score = s(  26,   25);

/// Bonus for the side attacking a king, by the number of its pieces attacking the king zone.
pub const KING_ATTACKERS: [Score; 8] = [
    s(   5,    2), s(   0,    1), s(  12,   -1), s(  34,   -1), s(  59,   -1), s(  80,    0), s(  90,    0), s( 100,    0),
];

/// Per king-zone square attacked by a knight, bishop, rook, queen; counted from two attackers on.
pub const KING_ZONE_ATTACKS: [Score; 4] = [
    s(   7,    0), s(   0,   -5), s(   2,   -6), s(  12,    0),
];

/// Own pawn on the rank in front of the king (king's file and its neighbours).
pub const KING_SHIELD_NEAR: Score = s(   0,   -5);

/// Own pawn two ranks in front of the king (king's file and its neighbours).
pub const KING_SHIELD_FAR: Score = s(  19,    3);

/// King's file or a neighbouring file without own pawns.
pub const KING_SEMI_OPEN_FILE: Score = s( -12,   -7);

/// King's file or a neighbouring file without any pawns (on top of the above).
pub const KING_OPEN_FILE: Score = s( -13,   -2);

/// Side to move.
pub const TEMPO: Score = s(   9,    1);
