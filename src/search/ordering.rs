//! Move ordering: the order in which alpha-beta tries moves decides how much it can prune.
//!
//! Order: the transposition-table move, captures that do not lose material (most valuable
//! victim first, least valuable attacker as tie-break), queen promotions, the two killer moves
//! of this ply, the counter-move to the opponent's last move, the other quiet moves by their
//! history score (plain history plus the continuation histories of the last two moves), and
//! last the captures that lose material.

use super::see;
use crate::position::Castles;
use chess::{Board, ChessMove, Color, Piece, EMPTY};

pub const MAX_PLY: usize = 128;
const HISTORY_MAX: i32 = 16_384;

const TT_MOVE: i32 = 4_000_000;
const GOOD_CAPTURE: i32 = 2_000_000;
const KILLER: i32 = 1_000_000;
const COUNTER: i32 = 900_000;
const BAD_CAPTURE: i32 = -2_000_000;

/// A moved piece and where it went: (colour × 6 + piece) × 64 + destination, the index of
/// continuation-history tables.
pub type PieceTo = usize;
const PIECE_TO: usize = 12 * 64;

/// The [`PieceTo`] of a move about to be made in `board`.
#[inline]
pub fn piece_to(board: &Board, m: ChessMove) -> PieceTo {
    let piece = board.piece_on(m.get_source()).map_or(0, |p| p.to_index());
    (board.side_to_move().to_index() * 6 + piece) * 64 + m.get_dest().to_index()
}

/// The moves that led to a node, as continuation history sees them: one and two plies back
/// (None after a null move or at the root).
pub type Continuations = [Option<PieceTo>; 2];

/// What the search learns about quiet moves as it goes.
pub struct Heuristics {
    pub killers: [[Option<ChessMove>; 2]; MAX_PLY + 1],
    history: Box<[[[i32; 64]; 64]; 2]>,
    counter: Box<[[Option<ChessMove>; 64]; 64]>,
    /// Continuation history: how well a quiet move did as the reply to (one ply back) or the
    /// follow-up of (two plies back) a given piece-to move. One table serves both distances,
    /// as in Stockfish; it learns which plans go together, which from-to history cannot.
    continuation: Vec<[i32; PIECE_TO]>,
}

impl Default for Heuristics {
    fn default() -> Self {
        Heuristics {
            killers: [[None; 2]; MAX_PLY + 1],
            history: Box::new([[[0; 64]; 64]; 2]),
            counter: Box::new([[None; 64]; 64]),
            continuation: vec![[0; PIECE_TO]; PIECE_TO],
        }
    }
}

impl Heuristics {
    pub fn history(&self, side: Color, m: ChessMove) -> i32 {
        self.history[side.to_index()][m.get_source().to_index()][m.get_dest().to_index()]
    }

    /// Ordering score of a quiet move: from-to history plus both continuation histories.
    #[inline]
    pub fn quiet_score(&self, board: &Board, m: ChessMove, conts: &Continuations) -> i32 {
        let pt = piece_to(board, m);
        let mut score = self.history(board.side_to_move(), m);
        for c in conts.iter().flatten() {
            score += self.continuation[*c][pt];
        }
        score
    }

    pub fn counter(&self, prev: Option<ChessMove>) -> Option<ChessMove> {
        prev.and_then(|p| self.counter[p.get_source().to_index()][p.get_dest().to_index()])
    }

    /// History "gravity": bonuses shrink as the score nears its bound, so it stays bounded and
    /// recent results weigh more.
    fn nudge(entry: &mut i32, bonus: i32) {
        *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
    }

    /// A quiet move caused a beta cutoff in `board`: reward it, punish the quiet moves tried
    /// before it, in the from-to and the continuation histories.
    pub fn record_cutoff(&mut self, board: &Board, cutoff: Cutoff) {
        let Cutoff {
            ply,
            depth,
            best,
            prev,
            conts,
            tried,
        } = cutoff;
        let side = board.side_to_move();
        let bonus = (depth * depth * 8).min(1_200);
        for (m, b) in std::iter::once((best, bonus))
            .chain(tried.iter().filter(|&&m| m != best).map(|&m| (m, -bonus)))
        {
            let entry = &mut self.history[side.to_index()][m.get_source().to_index()]
                [m.get_dest().to_index()];
            Self::nudge(entry, b);
            let pt = piece_to(board, m);
            for c in conts.iter().flatten() {
                Self::nudge(&mut self.continuation[*c][pt], b);
            }
        }
        if ply <= MAX_PLY && self.killers[ply][0] != Some(best) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(best);
        }
        if let Some(p) = prev {
            self.counter[p.get_source().to_index()][p.get_dest().to_index()] = Some(best);
        }
    }

    /// A new search of the game: the tables stay (`search::memory` says why); the killers,
    /// kept by ply from the root, belonged to other positions.
    pub fn new_search(&mut self) {
        self.killers = [[None; 2]; MAX_PLY + 1];
    }
}

/// A quiet move's beta cutoff, as the move-ordering heuristics learn from it.
pub struct Cutoff<'a> {
    pub ply: usize,
    pub depth: i32,
    /// The move that cut off.
    pub best: ChessMove,
    /// The move before it (for the counter-move table).
    pub prev: Option<ChessMove>,
    /// The continuation-history tables of the moves before it.
    pub conts: &'a Continuations,
    /// The quiet moves tried before it at this node.
    pub tried: &'a [ChessMove],
}

/// Is the move a capture (en passant included) or a promotion? Those are "noisy"; the rest
/// are "quiet".
#[inline]
pub fn is_noisy(board: &Board, m: ChessMove) -> bool {
    // A Chess960 castling move (the king onto its own rook) counts as noisy here, so the
    // search never prunes or reduces it as a quiet move; `MovePicker::all` scores it as a
    // quiet move all the same. Testing for an enemy piece instead costs standard chess 2 %.
    m.get_promotion().is_some()
        || board.piece_on(m.get_dest()).is_some()
        || see::is_en_passant(board, m)
}

/// A move list with scores, handed out best first by selection (the moves after a cutoff are
/// never sorted). The list's buffer is lent by the searcher, one per ply, so no node
/// allocates or clears memory.
pub struct MovePicker {
    moves: Vec<(ChessMove, i32)>,
    next: usize,
}

impl MovePicker {
    /// Every legal move, scored for the main search: the crate's and `castles`, the Chess960
    /// castling moves the crate cannot generate (`Position::castles`).
    #[allow(clippy::too_many_arguments)]
    pub fn all(
        board: &Board,
        castles: Castles,
        tt_move: Option<ChessMove>,
        heur: &Heuristics,
        ply: usize,
        prev: Option<ChessMove>,
        conts: &Continuations,
        buffer: Vec<(ChessMove, i32)>,
    ) -> MovePicker {
        let mut picker = MovePicker::empty(buffer);
        let killers = if ply <= MAX_PLY {
            heur.killers[ply]
        } else {
            [None; 2]
        };
        let counter = heur.counter(prev);
        let score = |m: ChessMove| {
            if Some(m) == tt_move {
                TT_MOVE
            } else if is_noisy(board, m) {
                noisy_score(board, m)
            } else if Some(m) == killers[0] {
                KILLER + 1
            } else if Some(m) == killers[1] {
                KILLER
            } else if Some(m) == counter {
                COUNTER
            } else {
                heur.quiet_score(board, m, conts)
            }
        };
        // Two loops, not a chain: chaining moves the crate's large generator into the adaptor
        // and costs every node a copy and a branch per move.
        for m in chess::MoveGen::new_legal(board) {
            picker.push(m, score(m));
        }
        for m in castles {
            let quiet = heur.quiet_score(board, m, conts);
            picker.push(m, if Some(m) == tt_move { TT_MOVE } else { quiet });
        }
        picker
    }

    /// Captures (en passant included) and queen promotions, for quiescence; all evasions when
    /// in check.
    pub fn noisy(board: &Board, buffer: Vec<(ChessMove, i32)>) -> MovePicker {
        let mut picker = MovePicker::empty(buffer);
        let mut gen = chess::MoveGen::new_legal(board);
        if *board.checkers() != EMPTY {
            for m in gen {
                let score = if is_noisy(board, m) {
                    noisy_score(board, m)
                } else {
                    0
                };
                picker.push(m, score);
            }
            return picker;
        }
        gen.set_iterator_mask(*board.color_combined(!board.side_to_move()));
        for m in &mut gen {
            if m.get_promotion().is_none_or(|p| p == Piece::Queen) {
                picker.push(m, noisy_score(board, m));
            }
        }
        // Quiet queen promotions and en passant: the crate's capture mask leaves them out.
        let back_rank = match board.side_to_move() {
            Color::White => chess::get_rank(chess::Rank::Eighth),
            Color::Black => chess::get_rank(chess::Rank::First),
        };
        let mut extra = back_rank & !*board.combined();
        if let Some(pushed) = board.en_passant() {
            let target = match board.side_to_move() {
                Color::White => pushed.up(),
                Color::Black => pushed.down(),
            };
            if let Some(t) = target {
                extra |= chess::BitBoard::from_square(t);
            }
        }
        gen.set_iterator_mask(extra);
        for m in gen {
            let pawn = board.piece_on(m.get_source()) == Some(Piece::Pawn);
            if pawn && m.get_promotion().is_none_or(|p| p == Piece::Queen) {
                picker.push(m, noisy_score(board, m));
            }
        }
        picker
    }

    fn empty(mut buffer: Vec<(ChessMove, i32)>) -> MovePicker {
        buffer.clear();
        MovePicker {
            moves: buffer,
            next: 0,
        }
    }

    /// Give the buffer back for reuse.
    pub fn into_buffer(self) -> Vec<(ChessMove, i32)> {
        self.moves
    }

    #[inline]
    fn push(&mut self, m: ChessMove, score: i32) {
        self.moves.push((m, score));
    }

    pub fn len(&self) -> usize {
        self.moves.len()
    }

    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The best remaining move and its ordering score.
    pub fn next_move(&mut self) -> Option<(ChessMove, i32)> {
        let len = self.moves.len();
        if self.next >= len {
            return None;
        }
        let mut best = self.next;
        for i in self.next + 1..len {
            if self.moves[i].1 > self.moves[best].1 {
                best = i;
            }
        }
        self.moves.swap(self.next, best);
        self.next += 1;
        Some(self.moves[self.next - 1])
    }

    /// Is this ordering score that of a capture that loses material?
    pub fn is_bad_capture(score: i32) -> bool {
        score < BAD_CAPTURE / 2
    }
}

/// MVV-LVA within good and bad captures, split by SEE.
fn noisy_score(board: &Board, m: ChessMove) -> i32 {
    let victim = see::gain(board, m);
    let attacker = board.piece_on(m.get_source()).map_or(0, see::value);
    let mvv_lva = victim * 16 - attacker / 16;
    if see::see_ge(board, m, 0) {
        GOOD_CAPTURE + mvv_lva
    } else {
        BAD_CAPTURE + mvv_lva
    }
}
