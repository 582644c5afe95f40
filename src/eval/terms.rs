//! The evaluation terms: everything that adds `weight × count` to a side's score.
//!
//! The code is written once, generic over a [`Tracer`]. The engine runs it with
//! [`NoTrace`], whose empty `add` compiles away, so it pays nothing for tracing; the
//! tuner runs it with a tracer that records every count, which turns the position
//! into a feature vector. Every term goes through the `term!` macro, which names
//! the weight in `params.rs` and its index in `layout.rs` with one identifier, so
//! the two cannot drift apart.

use chess::{
    get_bishop_moves, get_king_moves, get_knight_moves, get_rook_moves, Board, ALL_SQUARES,
};
use chess::{BitBoard, Color, Piece};

use super::bits::*;
use super::mgeg::MgEg;
use super::{layout, params};

/// Receives the feature counts of a position (for the tuner).
pub trait Tracer {
    /// `count` more of the feature with weight index `index`, for colour `colour`
    /// (0 = White, 1 = Black).
    fn add(&mut self, index: usize, colour: usize, count: i32);
}

/// The tracer of the engine: records nothing.
pub struct NoTrace;

impl Tracer for NoTrace {
    #[inline(always)]
    fn add(&mut self, _index: usize, _colour: usize, _count: i32) {}
}

/// Scores of both sides, and the tracer that sees every term.
struct Acc<'t, T: Tracer> {
    score: [MgEg; 2],
    tracer: &'t mut T,
}

impl<T: Tracer> Acc<'_, T> {
    #[inline(always)]
    fn add(&mut self, colour: usize, weight: MgEg, index: usize, count: i32) {
        self.score[colour] += weight * count;
        self.tracer.add(index, colour, count);
    }
}

/// `term!(acc, colour, NAME, count)` or `term!(acc, colour, NAME[i], count)`.
macro_rules! term {
    ($acc:expr, $c:expr, $name:ident [$i:expr], $n:expr) => {{
        let i = $i;
        // Through a reference, so the table is read from static memory.
        let table: &'static [MgEg] = &params::$name;
        $acc.add($c, table[i], layout::$name + i, $n)
    }};
    ($acc:expr, $c:expr, $name:ident, $n:expr) => {
        $acc.add($c, params::$name, layout::$name, $n)
    };
}

/// Material plus piece-square value of every (colour, piece, square), built at
/// compile time from `params.rs` so the engine needs one lookup per piece.
static PIECE_SQUARE: [[[MgEg; 64]; 6]; 2] = {
    let tables = [
        &params::PAWN_PSQT,
        &params::KNIGHT_PSQT,
        &params::BISHOP_PSQT,
        &params::ROOK_PSQT,
        &params::QUEEN_PSQT,
        &params::KING_PSQT,
    ];
    let mut t = [[[MgEg::ZERO; 64]; 6]; 2];
    let mut c = 0;
    while c < 2 {
        let mut p = 0;
        while p < 6 {
            let mut sq = 0;
            while sq < 64 {
                let material = if p < 5 {
                    params::MATERIAL[p]
                } else {
                    MgEg::ZERO
                };
                t[c][p][sq] = material.plus(tables[p][psqt_index(c, sq)]);
                sq += 1;
            }
            p += 1;
        }
        c += 1;
    }
    t
};

const PSQT_OFFSET: [usize; 6] = [
    layout::PAWN_PSQT,
    layout::KNIGHT_PSQT,
    layout::BISHOP_PSQT,
    layout::ROOK_PSQT,
    layout::QUEEN_PSQT,
    layout::KING_PSQT,
];

/// Index into a piece-square table (drawn from White's side, rank 8 first) for a
/// piece of colour `c` on square `sq` (a1 = 0).
pub const fn psqt_index(c: usize, sq: usize) -> usize {
    if c == 0 {
        sq ^ 56
    } else {
        sq
    }
}

/// Ranks 4 to 6 from each side's point of view, where outposts count.
const OUTPOST_RANKS: [u64; 2] = [0x0000_FFFF_FF00_0000, 0x0000_00FF_FFFF_0000];

/// Bitboards the terms share, computed once per evaluation.
struct Info {
    occupied: u64,
    colour: [u64; 2],
    pawns: [u64; 2],
    knights: [u64; 2],
    bishops: [u64; 2],
    rooks: [u64; 2],
    queens: [u64; 2],
    king: [usize; 2],
    pawn_attacks: [u64; 2],
    /// The king's square and the squares around it.
    king_zone: [u64; 2],
}

impl Info {
    fn new(board: &Board) -> Info {
        let bb = |p: Piece| board.pieces(p).0;
        let white = board.color_combined(Color::White).0;
        let black = board.color_combined(Color::Black).0;
        let split = |b: u64| [b & white, b & black];
        let pawns = split(bb(Piece::Pawn));
        let king = [
            board.king_square(Color::White).to_index(),
            board.king_square(Color::Black).to_index(),
        ];
        let zone = |k: usize| get_king_moves(ALL_SQUARES[k]).0 | (1u64 << k);
        Info {
            occupied: white | black,
            colour: [white, black],
            pawns,
            knights: split(bb(Piece::Knight)),
            bishops: split(bb(Piece::Bishop)),
            rooks: split(bb(Piece::Rook)),
            queens: split(bb(Piece::Queen)),
            king,
            pawn_attacks: [pawn_attacks(0, pawns[0]), pawn_attacks(1, pawns[1])],
            king_zone: [zone(king[0]), zone(king[1])],
        }
    }
}

/// Sum of all terms as White's score minus Black's, before tapering.
#[inline(always)]
pub fn white_minus_black<T: Tracer>(board: &Board, tracer: &mut T) -> MgEg {
    let info = Info::new(board);
    let mut acc = Acc {
        score: [MgEg::ZERO; 2],
        tracer,
    };
    material_and_squares(board, &info, &mut acc);
    for c in 0..2 {
        pawns(&info, c, &mut acc);
        pieces(&info, c, &mut acc);
        king_shelter(&info, c, &mut acc);
    }
    let stm = if board.side_to_move() == Color::White {
        0
    } else {
        1
    };
    term!(acc, stm, TEMPO, 1);
    acc.score[0] - acc.score[1]
}

fn material_and_squares<T: Tracer>(board: &Board, info: &Info, acc: &mut Acc<T>) {
    for (p, piece) in chess::ALL_PIECES.into_iter().enumerate() {
        let of_type = board.pieces(piece).0;
        for (c, table) in PIECE_SQUARE.iter().enumerate() {
            for sq in squares(of_type & info.colour[c]) {
                acc.score[c] += table[p][sq];
                if p < 5 {
                    acc.tracer.add(layout::MATERIAL + p, c, 1);
                }
                acc.tracer.add(PSQT_OFFSET[p] + psqt_index(c, sq), c, 1);
            }
        }
    }
}

fn pawns<T: Tracer>(info: &Info, c: usize, acc: &mut Acc<T>) {
    let them = 1 - c;
    let own = info.pawns[c];
    let theirs = info.pawns[them];
    for sq in squares(own) {
        let file = sq % 8;
        let rank = relative_rank(c, sq);
        let neighbours = own & ADJACENT_FILES[file];
        let doubled = own & FORWARD_FILE[c][sq] != 0;
        let passed = !doubled && theirs & PASSED_SPAN[c][sq] == 0;
        let stop = if c == 0 { sq + 8 } else { sq - 8 };

        if neighbours == 0 {
            term!(acc, c, ISOLATED_PAWN, 1);
        } else {
            let phalanx = neighbours & (0xFFu64 << (sq / 8 * 8)) != 0;
            let defended = info.pawn_attacks[c] & (1u64 << sq) != 0;
            if phalanx || defended {
                term!(acc, c, CONNECTED_PAWN[rank], 1);
            }
            if own & SUPPORT_SPAN[c][sq] == 0 && info.pawn_attacks[them] & (1u64 << stop) != 0 {
                term!(acc, c, BACKWARD_PAWN, 1);
            }
        }
        if doubled {
            term!(acc, c, DOUBLED_PAWN, 1);
        }
        if passed {
            term!(acc, c, PASSED_PAWN[rank], 1);
            term!(
                acc,
                c,
                PASSED_OWN_KING_DISTANCE[distance(info.king[c], stop)],
                1
            );
            term!(
                acc,
                c,
                PASSED_THEIR_KING_DISTANCE[distance(info.king[them], stop)],
                1
            );
        }
    }
}

/// Mobility, outposts, rook files, threats and the attack on the enemy king.
fn pieces<T: Tracer>(info: &Info, c: usize, acc: &mut Acc<T>) {
    let them = 1 - c;
    let occupied = BitBoard(info.occupied);
    let area = !info.colour[c] & !info.pawn_attacks[them];
    let zone = info.king_zone[them];
    let mut attackers = 0usize;
    let mut hits = [0i32; 4];
    let mut minor_attacks = 0u64;
    let outpost = |sq: usize| {
        OUTPOST_RANKS[c] & (1u64 << sq) != 0
            && info.pawn_attacks[c] & (1u64 << sq) != 0
            && info.pawns[them] & ATTACK_SPAN[c][sq] == 0
    };
    let mut tally = |attacks: u64, kind: usize| {
        let on_zone = attacks & zone;
        if on_zone != 0 {
            attackers += 1;
            hits[kind] += on_zone.count_ones() as i32;
        }
        (attacks & area).count_ones() as usize
    };

    for sq in squares(info.knights[c]) {
        let attacks = get_knight_moves(ALL_SQUARES[sq]).0;
        minor_attacks |= attacks;
        term!(acc, c, KNIGHT_MOBILITY[tally(attacks, 0)], 1);
        if outpost(sq) {
            term!(acc, c, KNIGHT_OUTPOST, 1);
        }
    }
    for sq in squares(info.bishops[c]) {
        let attacks = get_bishop_moves(ALL_SQUARES[sq], occupied).0;
        minor_attacks |= attacks;
        term!(acc, c, BISHOP_MOBILITY[tally(attacks, 1)], 1);
        if outpost(sq) {
            term!(acc, c, BISHOP_OUTPOST, 1);
        }
    }
    let all_pawns = info.pawns[c] | info.pawns[them];
    for sq in squares(info.rooks[c]) {
        let attacks = get_rook_moves(ALL_SQUARES[sq], occupied).0;
        term!(acc, c, ROOK_MOBILITY[tally(attacks, 2)], 1);
        let file = FILES[sq % 8];
        if all_pawns & file == 0 {
            term!(acc, c, ROOK_OPEN_FILE, 1);
        } else if info.pawns[c] & file == 0 {
            term!(acc, c, ROOK_SEMI_OPEN_FILE, 1);
        }
    }
    for sq in squares(info.queens[c]) {
        let s = ALL_SQUARES[sq];
        let attacks = get_bishop_moves(s, occupied).0 | get_rook_moves(s, occupied).0;
        term!(acc, c, QUEEN_MOBILITY[tally(attacks, 3)], 1);
    }

    if info.bishops[c].count_ones() >= 2 {
        term!(acc, c, BISHOP_PAIR, 1);
    }
    let their_pieces =
        info.knights[them] | info.bishops[them] | info.rooks[them] | info.queens[them];
    let by_pawn = (info.pawn_attacks[c] & their_pieces).count_ones() as i32;
    term!(acc, c, THREAT_BY_PAWN, by_pawn);
    let by_minor = (minor_attacks & (info.rooks[them] | info.queens[them])).count_ones() as i32;
    term!(acc, c, THREAT_BY_MINOR, by_minor);

    term!(acc, c, KING_ATTACKERS[attackers.min(7)], 1);
    if attackers >= 2 {
        for (kind, &n) in hits.iter().enumerate() {
            term!(acc, c, KING_ZONE_ATTACKS[kind], n);
        }
    }
}

/// Pawns in front of the own king and open files next to it.
fn king_shelter<T: Tracer>(info: &Info, c: usize, acc: &mut Acc<T>) {
    let k = info.king[c];
    let king = 1u64 << k;
    let wide = king | ((king & !FILE_A) >> 1) | ((king & !FILE_H) << 1);
    let near = forward(c, wide);
    let far = forward(c, near);
    let own = info.pawns[c];
    term!(acc, c, KING_SHIELD_NEAR, (own & near).count_ones() as i32);
    term!(acc, c, KING_SHIELD_FAR, (own & far).count_ones() as i32);

    let file = k % 8;
    let (mut semi_open, mut open) = (0, 0);
    for &file_mask in &FILES[file.saturating_sub(1)..=(file + 1).min(7)] {
        if own & file_mask == 0 {
            semi_open += 1;
            if info.pawns[1 - c] & file_mask == 0 {
                open += 1;
            }
        }
    }
    term!(acc, c, KING_SEMI_OPEN_FILE, semi_open);
    term!(acc, c, KING_OPEN_FILE, open);
}
