//! Move ordering: the order in which alpha-beta tries moves decides how much it can prune.
//!
//! Order: the transposition-table move, captures and queen promotions that do not lose
//! material (by the victim's value plus their capture history, see `noisy_score`), the two
//! killer moves of this ply, the counter-move to the opponent's last move, the other quiet
//! moves by their history score (plain history plus the continuation histories of the last two
//! moves), and last the captures that lose material and the underpromotions, ordered as the
//! good captures. Quiescence in check orders its quiet evasions by `quiet_evasion_score`.

use super::params;
use super::see;
use crate::position::Castles;
use chess::{Board, ChessMove, Color, Piece, Square, EMPTY};

pub const MAX_PLY: usize = 128;
// A win of unknown distance stored at any ply is read back as itself, and lies below every
// tablebase win the search can see (`score::UNKNOWN_DISTANCE_WIN`).
const _: () = {
    use crate::score::{FIFTY_MOVE_PLIES, TB_WIN, UNKNOWN_DISTANCE_WIN};
    assert!(TB_WIN - (UNKNOWN_DISTANCE_WIN + MAX_PLY as i32) > FIFTY_MOVE_PLIES);
    assert!(TB_WIN - MAX_PLY as i32 - FIFTY_MOVE_PLIES > UNKNOWN_DISTANCE_WIN);
};
const HISTORY_MAX: i32 = 16_384;

const TT_MOVE: i32 = 4_000_000;
const GOOD_CAPTURE: i32 = 2_000_000;
const KILLER: i32 = 1_000_000;
const COUNTER: i32 = 900_000;
const BAD_CAPTURE: i32 = -2_000_000;
/// Quiet evasions in quiescence: a king step before a block that keeps its piece, and a block
/// that loses its piece after everything else (`quiet_evasion_score`).
const KING_EVASION: i32 = 1_000;
const HANGING_BLOCK: i32 = 2 * BAD_CAPTURE;

/// What a cutoff at `depth` adds to the history of the move that caused it: by default
/// Ethereal 12's `32 × min(depth², 400)` (history.c, with HistoryMultiplier 32, HistoryMax
/// 400 and HistoryDivisor 512; [`params::hist_bonus_mul`]). Its update,
/// `h += 32·d − h·|d|/512`, is our `Heuristics::nudge` with this bonus, since 32 × 512 is
/// our `HISTORY_MAX`. The tables then learn at a pace a game can use: a move that cuts off
/// at depth 10 gets 3,200 at once, where the earlier `min(8·depth², 1,200)` gave 800.
#[inline]
pub fn history_bonus(depth: i32) -> i32 {
    (params::hist_bonus_mul() * depth * depth).min(params::hist_bonus_max())
}

/// What a cutoff at `depth` takes from the quiet moves (or captures) tried before the move
/// that caused it, and what a quiet table move loses when its stored bound fails low; the
/// bonus's size by default.
#[inline]
pub fn history_malus(depth: i32) -> i32 {
    (params::hist_malus_mul() * depth * depth).min(params::hist_malus_max())
}

/// A moved piece and where it went: (colour × 6 + piece) × 64 + destination, the index of
/// continuation-history tables.
pub type PieceTo = usize;
const PIECE_TO: usize = 12 * 64;

/// The [`PieceTo`] of a move about to be made in `board`.
#[inline]
pub fn piece_to(board: &Board, m: ChessMove) -> PieceTo {
    (board.side_to_move().to_index() * 6 + piece_index(board, m.get_source())) * 64
        + m.get_dest().to_index()
}

/// The index of the piece on `square` (`Piece::to_index`: pawn 0, knight 1, bishop 2, rook 3,
/// queen 4, king 5; 0 on an empty square), read as three bits without a branch: knight, rook
/// and king have bit 0, bishop and rook bit 1, queen and king bit 2. The crate's `piece_on`
/// tests the piece sets one after another, a chain of branches the picker paid for every
/// quiet move.
#[inline]
fn piece_index(board: &Board, square: Square) -> usize {
    let on = |pieces: &[Piece]| {
        let set = pieces.iter().fold(0, |set, &p| set | board.pieces(p).0);
        (set >> square.to_index()) as usize & 1
    };
    on(&[Piece::Knight, Piece::Rook, Piece::King])
        | on(&[Piece::Bishop, Piece::Rook]) << 1
        | on(&[Piece::Queen, Piece::King]) << 2
}

/// The moves that led to a node, as continuation history sees them: one and two plies back
/// (None after a null move or at the root).
pub type Continuations = [Option<PieceTo>; 2];

/// The continuations of a node that has none: the root, or a search with the tables off.
pub const NO_CONTINUATIONS: Continuations = [None; 2];

/// The tables one node's quiet moves are scored from, looked up once for the node rather than
/// once per move: the side's from-to history and the continuation-history rows of the two
/// moves before it. A missing move (the root, a null move) reads a row of zeros, which adds
/// what skipping it added. Looking the two rows up for every move took 7 % of `datagen`'s
/// instructions.
pub struct QuietScorer<'a> {
    history: &'a [[i32; 64]; 64],
    continuation: [&'a [i32; PIECE_TO]; 2],
}

/// The continuation row of a move that was not made.
static NO_CONTINUATION: [i32; PIECE_TO] = [0; PIECE_TO];

impl QuietScorer<'_> {
    /// Ordering score of a quiet move: from-to history plus both continuation histories.
    #[inline]
    pub fn score(&self, board: &Board, m: ChessMove) -> i32 {
        let pt = piece_to(board, m);
        self.history[m.get_source().to_index()][m.get_dest().to_index()]
            + self.continuation[0][pt]
            + self.continuation[1][pt]
    }
}

/// What the search learns about moves as it goes: quiet moves (killers, counter-moves,
/// history, continuation history) and captures (capture history).
pub struct Heuristics {
    pub killers: [[Option<ChessMove>; 2]; MAX_PLY + 1],
    history: Box<[[[i32; 64]; 64]; 2]>,
    counter: Box<[[Option<ChessMove>; 64]; 64]>,
    /// Continuation history: how well a quiet move did as the reply to (one ply back) or the
    /// follow-up of (two plies back) a given piece-to move. One table serves both distances,
    /// as in Stockfish; it learns which plans go together, which from-to history cannot.
    continuation: Vec<[i32; PIECE_TO]>,
    /// Capture history: how well a capture (or promotion) by a given piece to a given square
    /// of a given victim did, as Stockfish keeps it. It orders captures of equal SEE class that
    /// MVV-LVA cannot tell apart, and learns which captures the position refutes (Alexandria
    /// #253: +9 Elo).
    capture: Vec<[i32; 6]>,
}

impl Default for Heuristics {
    fn default() -> Self {
        Heuristics {
            killers: [[None; 2]; MAX_PLY + 1],
            history: Box::new([[[0; 64]; 64]; 2]),
            counter: Box::new([[None; 64]; 64]),
            continuation: vec![[0; PIECE_TO]; PIECE_TO],
            capture: vec![[0; 6]; PIECE_TO],
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
        self.quiet_scorer(board.side_to_move(), conts)
            .score(board, m)
    }

    /// The tables a node's quiet moves are scored from, for `side` after the moves `conts`.
    #[inline]
    pub fn quiet_scorer(&self, side: Color, conts: &Continuations) -> QuietScorer<'_> {
        QuietScorer {
            history: &self.history[side.to_index()],
            continuation: conts.map(|c| c.map_or(&NO_CONTINUATION, |c| &self.continuation[c])),
        }
    }

    /// Capture-history score of a noisy move.
    #[inline]
    pub fn capture_score(&self, board: &Board, m: ChessMove) -> i32 {
        self.capture[piece_to(board, m)][victim_slot(board, m)]
    }

    /// A beta cutoff at depth `depth`: the noisy move that cut off (if one did) gains, the
    /// noisy moves tried before it lose.
    pub fn record_noisy(
        &mut self,
        board: &Board,
        depth: i32,
        best: Option<ChessMove>,
        tried: &[ChessMove],
    ) {
        let bonus = history_bonus(depth);
        let malus = history_malus(depth);
        let rewarded = best.map(|m| (m, bonus));
        let punished = tried
            .iter()
            .filter(|&&m| Some(m) != best)
            .map(|&m| (m, -malus));
        // A Chess960 castling move (the king onto its own rook) counts as noisy for the
        // search, but it captures nothing: it is ordered as a quiet move and learns nothing here.
        let us = board.side_to_move();
        let captures = |&(m, _): &(ChessMove, i32)| board.color_on(m.get_dest()) != Some(us);
        for (m, b) in rewarded.into_iter().chain(punished).filter(captures) {
            Self::nudge(
                &mut self.capture[piece_to(board, m)][victim_slot(board, m)],
                b,
            );
        }
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
        let bonus = history_bonus(depth);
        let malus = history_malus(depth);
        for (m, b) in std::iter::once((best, bonus))
            .chain(tried.iter().filter(|&&m| m != best).map(|&m| (m, -malus)))
        {
            self.nudge_quiet(board, m, conts, b);
        }
        if ply <= MAX_PLY && self.killers[ply][0] != Some(best) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(best);
        }
        if let Some(p) = prev {
            self.counter[p.get_source().to_index()][p.get_dest().to_index()] = Some(best);
        }
    }

    /// A quiet table move whose stored bound failed low at `depth` (the node ends on the
    /// table's word, without searching it): it loses in the from-to and continuation
    /// histories what a move tried before a cutoff loses (Stockfish 11's penalty for a quiet
    /// table move that fails low).
    pub fn record_tt_fail_low(
        &mut self,
        board: &Board,
        depth: i32,
        m: ChessMove,
        conts: &Continuations,
    ) {
        self.nudge_quiet(board, m, conts, -history_malus(depth));
    }

    /// Nudge quiet move `m`'s from-to history and its continuation histories after the moves
    /// `conts` by `bonus`.
    fn nudge_quiet(&mut self, board: &Board, m: ChessMove, conts: &Continuations, bonus: i32) {
        let side = board.side_to_move();
        let entry =
            &mut self.history[side.to_index()][m.get_source().to_index()][m.get_dest().to_index()];
        Self::nudge(entry, bonus);
        let pt = piece_to(board, m);
        for c in conts.iter().flatten() {
            Self::nudge(&mut self.continuation[*c][pt], bonus);
        }
    }

    /// The opponent's quiet move `prior` led to a node where every move failed low at
    /// `depth`: it was a good move, and its continuation histories after the moves `conts`
    /// before it gain (Stockfish 11's bonus for the prior countermove that caused a fail low).
    pub fn reward_prior_move(&mut self, depth: i32, prior: PieceTo, conts: &Continuations) {
        let bonus = history_bonus(depth);
        for c in conts.iter().flatten() {
            Self::nudge(&mut self.continuation[*c][prior], bonus);
        }
    }

    /// Forget the killers of `ply`: a node clears those two plies below it, so that its
    /// grandchildren learn from each other and not from another subtree's.
    #[inline]
    pub fn clear_killers(&mut self, ply: usize) {
        if let Some(k) = self.killers.get_mut(ply) {
            *k = [None; 2];
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

/// The capture-history slot of a noisy move's victim: the captured piece (a pawn for en
/// passant); a promotion that captures nothing uses the king's slot, which no capture can.
#[inline]
fn victim_slot(board: &Board, m: ChessMove) -> usize {
    match board.piece_on(m.get_dest()) {
        Some(p) => p.to_index(),
        None if see::is_en_passant(board, m) => Piece::Pawn.to_index(),
        None => Piece::King.to_index(),
    }
}

/// A move as one number (from, to and promotion in 6 + 6 + 3 bits), so that scoring a
/// generated move compares it with the table move, the killers and the counter-move one
/// integer at a time rather than as `Option<ChessMove>`s, field by field.
#[inline]
fn move_key(m: ChessMove) -> u32 {
    let promotion = m.get_promotion().map_or(0, |p| p.to_index() as u32 + 1);
    m.get_source().to_int() as u32 | (m.get_dest().to_int() as u32) << 6 | promotion << 12
}

/// The key of no move, which no move's [`move_key`] equals.
const NO_MOVE: u32 = u32::MAX;

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
        capture_history: bool,
        buffer: Vec<(ChessMove, i32)>,
    ) -> MovePicker {
        let mut picker = MovePicker::empty(buffer);
        let captures = capture_history.then_some(heur);
        let killers = if ply <= MAX_PLY {
            heur.killers[ply]
        } else {
            [None; 2]
        };
        let counter = heur.counter(prev);
        let quiet = heur.quiet_scorer(board.side_to_move(), conts);
        let [tt_key, killer_0, killer_1, counter_key] =
            [tt_move, killers[0], killers[1], counter].map(|m| m.map_or(NO_MOVE, move_key));
        let score = |m: ChessMove| {
            let key = move_key(m);
            if key == tt_key {
                TT_MOVE
            } else if is_noisy(board, m) {
                noisy_score(board, m, captures)
            } else if key == killer_0 {
                KILLER + 1
            } else if key == killer_1 {
                KILLER
            } else if key == counter_key {
                COUNTER
            } else {
                quiet.score(board, m)
            }
        };
        // Two loops, not a chain: chaining moves the crate's large generator into the adaptor
        // and costs every node a copy and a branch per move.
        for m in chess::MoveGen::new_legal(board) {
            picker.push(m, score(m));
        }
        for m in castles {
            let score = quiet.score(board, m);
            picker.push(
                m,
                if move_key(m) == tt_key {
                    TT_MOVE
                } else {
                    score
                },
            );
        }
        picker
    }

    /// Captures (en passant included) and queen promotions, for quiescence; all evasions when
    /// in check. `captures` orders them by capture history too, and `tt_move` comes first if
    /// it is one of them (a table move is only a hint: one that is not generated is ignored).
    pub fn noisy(
        board: &Board,
        captures: Option<&Heuristics>,
        tt_move: Option<ChessMove>,
        buffer: Vec<(ChessMove, i32)>,
    ) -> MovePicker {
        let mut picker = MovePicker::empty(buffer);
        let tt_key = tt_move.map_or(NO_MOVE, move_key);
        let in_check = *board.checkers() != EMPTY;
        let score = |m: ChessMove| {
            if move_key(m) == tt_key {
                TT_MOVE
            } else if !in_check || is_noisy(board, m) {
                noisy_score(board, m, captures)
            } else {
                quiet_evasion_score(board, m)
            }
        };
        let mut gen = chess::MoveGen::new_legal(board);
        if in_check {
            for m in gen {
                picker.push(m, score(m));
            }
            return picker;
        }
        gen.set_iterator_mask(*board.color_combined(!board.side_to_move()));
        for m in &mut gen {
            if m.get_promotion().is_none_or(|p| p == Piece::Queen) {
                picker.push(m, score(m));
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
                picker.push(m, score(m));
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
        // The first of the highest scores, as the strict `>` picks it; the best score so far
        // is kept in a register rather than read back through `best` at every step.
        let mut best = self.next;
        let mut best_score = self.moves[best].1;
        for (i, &(_, score)) in self.moves.iter().enumerate().skip(self.next + 1) {
            if score > best_score {
                best = i;
                best_score = score;
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

    /// Is this ordering score, of a quiet move, that of a killer or the counter-move (or the
    /// table move)? Those refuted a sibling or the last move, so late-move reductions spare
    /// them a ply.
    pub fn is_refutation(score: i32) -> bool {
        score >= COUNTER
    }
}

/// Captures split by SEE into those that do not lose material and those that do; within
/// each, a weighted sum as in Stockfish (7 × the victim's value plus the capture history):
/// by default 16 × the victim's value plus half the history ([`params::capt_victim_scale`],
/// [`params::capt_history_divisor`]), less a sixteenth of the attacker's value.
/// The history term (at most ±8,192) can lift a pawn capture that keeps working above a
/// knight capture (5,120) that keeps failing, which is the point of learning it.
/// Underpromotions go with the losing captures, as in Stockfish: a knight, rook or bishop
/// instead of a queen is rarely the move, and ordered by SEE it came before the killers.
fn noisy_score(board: &Board, m: ChessMove, captures: Option<&Heuristics>) -> i32 {
    let victim = see::gain(board, m);
    let attacker = board.piece_on(m.get_source()).map_or(0, see::value);
    let history = captures.map_or(0, |h| h.capture_score(board, m));
    let score = victim * params::capt_victim_scale() + history / params::capt_history_divisor()
        - attacker / 16;
    let underpromotion = m.get_promotion().is_some_and(|p| p != Piece::Queen);
    if !underpromotion && see::see_ge(board, m, 0) {
        GOOD_CAPTURE + score
    } else {
        BAD_CAPTURE + score
    }
}

/// A quiet evasion's place in quiescence, which searches only the first quiet evasion once
/// it knows the side is not mated: in the generator's order (pawns, knights, …, king last) a
/// block came first even when the blocker is simply taken (Nc6–e5 to Re1+, lost to Rxe5+,
/// where Kd7 holds), and that one lost line stood for the whole position. A king step is
/// always legal and never hangs a piece; a block that keeps its piece comes next; one that
/// loses it comes last, after the losing captures.
fn quiet_evasion_score(board: &Board, m: ChessMove) -> i32 {
    if board.piece_on(m.get_source()) == Some(Piece::King) {
        KING_EVASION
    } else if see::see_ge(board, m, 0) {
        0
    } else {
        HANGING_BLOCK
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    /// Ethereal 12's numbers: depth² times 32 up to depth 20, where HistoryMax (400) caps it
    /// at 12,800; with HistoryDivisor 512, one full bonus moves an entry at 0 by 32 × 400 and
    /// the entries' fixed point is 32 × 512.
    #[test]
    fn the_history_bonus_is_ethereals() {
        let bonuses: Vec<i32> = [1, 4, 10, 20, 21, 60].map(history_bonus).to_vec();
        assert_eq!(bonuses, [32, 512, 3_200, 12_800, 12_800, 12_800]);
        assert_eq!(HISTORY_MAX, 32 * 512);
        let mut entry = 0;
        for _ in 0..200 {
            Heuristics::nudge(&mut entry, history_bonus(20));
        }
        assert!(
            (HISTORY_MAX - 700..=HISTORY_MAX).contains(&entry),
            "{entry}"
        );
    }

    /// Every entry the tables can hold, nudged by every bonus and malus the search gives,
    /// stays within ±HISTORY_MAX, as history pruning's margin assumes (`alphabeta.rs`).
    /// Rounding `entry × |bonus| / HISTORY_MAX` towards zero moves the result by less than
    /// one, so it cannot cross the bound the exact formula keeps.
    #[test]
    fn a_nudge_keeps_every_entry_within_the_bound() {
        for depth in 0..=25 {
            for bonus in [history_bonus(depth), -history_bonus(depth)] {
                for start in -HISTORY_MAX..=HISTORY_MAX {
                    let mut entry = start;
                    Heuristics::nudge(&mut entry, bonus);
                    assert!(entry.abs() <= HISTORY_MAX, "{start} + {bonus} gave {entry}");
                }
            }
        }
    }

    /// Two captures MVV-LVA cannot tell apart (a knight takes either of two free pawns): the
    /// one that cut off is tried first afterwards, and the quiet tables learn nothing.
    #[test]
    fn capture_history_orders_equal_captures_by_what_they_did() {
        let pos = Position::from_fen("4k3/8/3p1p2/8/4N3/8/8/4K3 w - - 0 1").expect("fen");
        let board = pos.board();
        let first = |heur: &Heuristics| {
            let mut picker = MovePicker::noisy(board, Some(heur), None, Vec::new());
            picker.next_move().map(|(m, _)| m.to_string())
        };
        let mut heur = Heuristics::default();
        let untaught = first(&heur).expect("two captures");
        let other = if untaught == "e4d6" { "e4f6" } else { "e4d6" };
        let mv = |text: &str| {
            chess::MoveGen::new_legal(board)
                .find(|m| m.to_string() == text)
                .expect("legal")
        };
        heur.record_noisy(board, 6, Some(mv(other)), &[mv(&untaught)]);
        assert_eq!(first(&heur).as_deref(), Some(other));
        assert!(heur.capture_score(board, mv(other)) > 0);
        assert!(heur.capture_score(board, mv(&untaught)) < 0);
        let quiet_tables_untouched = heur.history.iter().flatten().flatten().all(|&v| v == 0)
            && heur.continuation.iter().flatten().all(|&v| v == 0);
        assert!(quiet_tables_untouched);
    }

    /// Late-move reductions spare the killers and the counter-move by their ordering score:
    /// a quiet move whose from-to and both continuation histories are saturated still scores
    /// below them.
    #[test]
    fn refutations_score_above_any_history() {
        let pos = Position::startpos();
        let board = pos.board();
        let mv = |text: &str| {
            chess::MoveGen::new_legal(board)
                .find(|m| m.to_string() == text)
                .expect("legal")
        };
        let conts: Continuations = [Some(0), Some(1)];
        let mut heur = Heuristics::default();
        for _ in 0..500 {
            let cutoff = Cutoff {
                ply: 5,
                depth: 20,
                best: mv("g1f3"),
                prev: None,
                conts: &conts,
                tried: &[],
            };
            heur.record_cutoff(board, cutoff);
        }
        let prev = mv("b1c3");
        let cutoff = Cutoff {
            ply: 1,
            depth: 1,
            best: mv("e2e4"),
            prev: Some(prev),
            conts: &conts,
            tried: &[],
        };
        heur.record_cutoff(board, cutoff);
        heur.killers[1][1] = Some(mv("d2d4"));
        // Every move's ordering score at ply 1, after b1c3.
        let scores_of = |heur: &Heuristics| {
            let mut picker = MovePicker::all(
                board,
                pos.castles(),
                None,
                heur,
                1,
                Some(prev),
                &conts,
                true,
                Vec::new(),
            );
            std::iter::from_fn(move || picker.next_move())
                .map(|(m, score)| (m.to_string(), score))
                .collect::<std::collections::HashMap<String, i32>>()
        };
        let scores = scores_of(&heur);
        let history = scores["g1f3"];
        assert!(history > 2 * HISTORY_MAX, "saturated: {history}");
        assert!(!MovePicker::is_refutation(history));
        for refutation in ["e2e4", "d2d4"] {
            assert!(
                MovePicker::is_refutation(scores[refutation]),
                "{refutation}"
            );
        }
        // The counter-move to b1c3, e2e4, is also the first killer; a counter alone:
        heur.killers[1] = [None; 2];
        assert_eq!(scores_of(&heur)["e2e4"], COUNTER);
        assert!(MovePicker::is_refutation(COUNTER));
    }

    /// A node's quiet scorer gives every quiet move the sum the tables hold for it: from-to
    /// history plus the continuation entry of each move before it that was made, with a
    /// missing move adding nothing.
    #[test]
    fn the_quiet_scorer_adds_the_tables_entries() {
        let mut rng = crate::rng::Rng::new(7);
        let mut heur = Heuristics::default();
        let mut noise = || rng.below(2 * HISTORY_MAX as usize) as i32 - HISTORY_MAX;
        for entry in heur.history.iter_mut().flatten().flatten() {
            *entry = noise();
        }
        for entry in heur.continuation.iter_mut().flatten() {
            *entry = noise();
        }
        // Both sides to move: each reads its own history table.
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
        ] {
            let pos = Position::from_fen(fen).expect("fen");
            let b = pos.board();
            let (a, c) = (3 * 64 + 20, 7 * 64 + 45);
            for conts in [
                [None, None],
                [Some(a), None],
                [None, Some(c)],
                [Some(a), Some(c)],
            ] {
                let scorer = heur.quiet_scorer(b.side_to_move(), &conts);
                for m in pos.legal_moves().filter(|&m| !is_noisy(b, m)) {
                    let pt = piece_to(b, m);
                    let written_out = heur.history(b.side_to_move(), m)
                        + conts
                            .iter()
                            .flatten()
                            .map(|&c| heur.continuation[c][pt])
                            .sum::<i32>();
                    assert_eq!(
                        scorer.score(b, m),
                        written_out,
                        "{m} after {conts:?} in {fen}"
                    );
                    assert_eq!(heur.quiet_score(b, m, &conts), written_out);
                }
            }
        }
    }

    /// The picker's own lookups agree with the crate's: the branch-free piece index on every
    /// square, the bitboard en-passant test on every legal move, and move keys that tell
    /// every two moves apart (promotions included) and never equal "no move".
    #[test]
    fn the_pickers_lookups_agree_with_the_crate() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            "rnbqkbnr/pppp1ppp/8/8/3Pp3/4P3/PPP2PPP/RNBQKBNR b KQkq d3 0 3",
        ] {
            let pos = Position::from_fen(fen).expect("fen");
            let b = pos.board();
            for sq in chess::ALL_SQUARES {
                let crate_index = b.piece_on(sq).map_or(0, |p| p.to_index());
                assert_eq!(piece_index(b, sq), crate_index, "{sq} in {fen}");
            }
            let moves: Vec<ChessMove> = pos.legal_moves().collect();
            let mut en_passants = 0;
            for &m in &moves {
                let by_piece_on = b.piece_on(m.get_source()) == Some(Piece::Pawn)
                    && m.get_source().get_file() != m.get_dest().get_file()
                    && b.piece_on(m.get_dest()).is_none();
                assert_eq!(see::is_en_passant(b, m), by_piece_on, "{m} in {fen}");
                en_passants += usize::from(by_piece_on);
            }
            let ep_square = fen.split(' ').nth(3) != Some("-");
            assert_eq!(en_passants > 0, ep_square, "en passant in {fen}");
        }
        // The table move, the killers and the counter-move come from other positions, so
        // every (from, to, promotion) a move can have gets a key of its own.
        let promotions = [
            None,
            Some(Piece::Knight),
            Some(Piece::Bishop),
            Some(Piece::Rook),
            Some(Piece::Queen),
        ];
        let mut keys = std::collections::HashSet::new();
        for promotion in promotions {
            for from in chess::ALL_SQUARES {
                for to in chess::ALL_SQUARES {
                    let key = move_key(ChessMove::new(from, to, promotion));
                    assert!(keys.insert(key), "{from}{to} {promotion:?} shares its key");
                    assert_ne!(key, NO_MOVE);
                }
            }
        }
    }

    /// Quiescence's table move comes first, even a capture MVV-LVA puts last (a rook taking
    /// a defended pawn, before a pawn taking a free queen); a table move that is not among
    /// the captures (a quiet move stored by the main search) is ignored, not added.
    #[test]
    fn the_table_move_leads_the_captures() {
        let pos = Position::from_fen("4k3/2p5/3p4/2q5/1P6/8/8/3RK3 w - - 0 1").expect("fen");
        let board = pos.board();
        let mv = |text: &str| {
            chess::MoveGen::new_legal(board)
                .find(|m| m.to_string() == text)
                .expect("legal")
        };
        let order = |tt_move: Option<ChessMove>| {
            let mut picker = MovePicker::noisy(board, None, tt_move, Vec::new());
            std::iter::from_fn(move || picker.next_move())
                .map(|(m, _)| m.to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(order(None), ["b4c5", "d1d6"]);
        assert_eq!(order(Some(mv("d1d6"))), ["d1d6", "b4c5"]);
        assert_eq!(order(Some(mv("e1e2"))), ["b4c5", "d1d6"]);
    }

    /// The opponent's move into a node that failed low gains in its continuation histories,
    /// those of the moves before it and no others; a table move that failed low loses in its
    /// from-to and continuation histories.
    #[test]
    fn fail_lows_teach_the_histories() {
        let pos = Position::startpos();
        let board = pos.board();
        let e2e4 = chess::MoveGen::new_legal(board)
            .find(|m| m.to_string() == "e2e4")
            .expect("legal");
        let prior = piece_to(board, e2e4);
        let mut heur = Heuristics::default();
        heur.reward_prior_move(5, prior, &[Some(3), None]);
        assert_eq!(heur.continuation[3][prior], history_bonus(5));
        let touched = heur
            .continuation
            .iter()
            .flatten()
            .filter(|&&v| v != 0)
            .count();
        assert_eq!(touched, 1);
        assert!(heur.history.iter().flatten().flatten().all(|&v| v == 0));

        let mut heur = Heuristics::default();
        heur.record_tt_fail_low(board, 4, e2e4, &[Some(7), Some(9)]);
        assert_eq!(heur.history(Color::White, e2e4), -history_bonus(4));
        assert_eq!(heur.continuation[7][prior], -history_bonus(4));
        assert_eq!(heur.continuation[9][prior], -history_bonus(4));
        assert_eq!(heur.history(Color::Black, e2e4), 0);
    }

    fn evasions_in_order(fen: &str) -> Vec<String> {
        let pos = Position::from_fen(fen).expect("fen");
        let mut picker = MovePicker::noisy(pos.board(), None, None, Vec::new());
        std::iter::from_fn(move || picker.next_move())
            .map(|(m, _)| m.to_string())
            .collect()
    }

    /// Re1+ against a king on e8: the knight's block on e5 hangs it to the rook and comes
    /// last; the king steps come first, the safe block on e7 after them.
    #[test]
    fn a_hanging_block_is_the_last_evasion() {
        let order = evasions_in_order("4k3/pp3ppp/2n5/8/8/8/5PPP/4R1K1 b - - 0 1");
        assert_eq!(order.last().map(String::as_str), Some("c6e5"), "{order:?}");
        let position = |m: &str| order.iter().position(|o| o == m).expect(m);
        assert!(position("e8d7") < position("c6e7"), "{order:?}");
        assert!(position("e8d8") < position("c6e7"), "{order:?}");
    }

    /// An underpromotion, even one that wins material, comes after the quiet moves; the
    /// queen promotion stays with the good captures.
    #[test]
    fn underpromotions_come_with_the_losing_captures() {
        let pos = Position::from_fen("1r2k3/P7/8/8/8/8/8/4K2R w K - 0 1").expect("fen");
        let board = pos.board();
        let heur = Heuristics::default();
        let mut picker = MovePicker::all(
            board,
            pos.castles(),
            None,
            &heur,
            0,
            None,
            &NO_CONTINUATIONS,
            true,
            Vec::new(),
        );
        let scores: std::collections::HashMap<String, i32> =
            std::iter::from_fn(move || picker.next_move())
                .map(|(m, score)| (m.to_string(), score))
                .collect();
        assert!(scores["a7b8q"] >= GOOD_CAPTURE / 2, "{scores:?}");
        for under in ["a7b8n", "a7b8r", "a7b8b", "a7a8n"] {
            assert!(
                MovePicker::is_bad_capture(scores[under]),
                "{under}: {scores:?}"
            );
            assert!(scores[under] < scores["h1h2"], "{under}: {scores:?}");
        }
    }
}
