//! The engine's own position type: a `chess::Board` plus everything the crate does not track.
//!
//! The `chess` crate is a fast, correct move generator *for legal input*, but it must never see
//! a position or a move that we have not checked ourselves (see `fen.rs` and `moves.rs`). On top
//! of the board this type keeps the halfmove clock, the fullmove number and the hashes since the
//! last irreversible move, so it can answer the draw rules, and it gives the search a cheap
//! make/unmake: the crate is copy-make, so a stack of boards is all we need.

mod castling;
mod check;
mod cuckoo;
mod fen;
mod moves;
mod san;

pub use castling::{chess960_fen, Castle, Castles, Wing};
pub use check::gives_check;
pub use fen::{unreachable_reason, FenError};
pub use moves::{MoveError, UciMove};
pub use san::{move_to_san, san_to_move};

use castling::Rights;
use chess::{BitBoard, Board, BoardBuilder, ChessMove, Color, MoveGen, Piece, EMPTY};

/// The FEN of the standard starting position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Longest input text (a move, a FEN field) echoed back in an error, so that garbage cannot
/// flood the output.
const MAX_ECHO: usize = 16;

/// `text` as an error message shows it: at most [`MAX_ECHO`] characters, then "…".
fn echo(text: &str) -> String {
    let mut shown: String = text.chars().take(MAX_ECHO).collect();
    if text.chars().nth(MAX_ECHO).is_some() {
        shown.push('…');
    }
    shown
}

/// One entry of the game record: the board after a move, its fifty-move counter and its key.
///
/// Kept small, because making a move writes one of these: the game ply follows from the stack
/// index. The key is stored because the search reads it at every node (the table, twice) and
/// the repetition test reads it for every earlier position back to the last capture or pawn
/// move. The crate's `get_hash` builds it from several table lookups at each call; storing it
/// once per move took 2 % off `datagen`'s instructions and adds 2 % to perft's.
#[derive(Clone, Copy, Debug)]
struct State {
    board: Board,
    /// Plies since the last capture or pawn move (the fifty-move counter).
    halfmove: u32,
    /// Plies since the last capture, pawn move or null move: how far back a repetition can
    /// lie. A null move keeps the fifty-move count running, but a position from before a
    /// pass was not reached by moves and cannot be repeated (Stockfish's `pliesFromNull`).
    repeatable: u32,
    /// Chess960 castling rights the crate cannot hold (see `castling.rs`); none in standard
    /// chess, where the board's own rights are all there is.
    rights: Rights,
    /// The Zobrist key: the crate's, which covers its own castling rights, with ours mixed in.
    key: u64,
}

impl State {
    fn new(board: Board, halfmove: u32, rights: Rights) -> State {
        State {
            board,
            halfmove,
            repeatable: halfmove,
            rights,
            key: State::key_of(&board, rights),
        }
    }

    /// The one place `key` is formed, for a new record entry and for each move.
    #[inline(always)]
    fn key_of(board: &Board, rights: Rights) -> u64 {
        board.get_hash() ^ rights.key()
    }
}

/// A game position with the record of the positions before it (the word "history" is kept
/// for the move-ordering heuristic of the search).
#[derive(Clone, Debug)]
pub struct Position {
    /// States up to `current` are the game so far; entries beyond it are spare slots kept so
    /// that making a move writes the new board in place instead of pushing a copy.
    stack: Vec<State>,
    current: usize,
    /// Index in `stack` of the search root: repetitions at or after it are draws at once.
    root: usize,
    /// Plies played in the game before `stack[0]`: 0 at the initial position, White to move.
    base_ply: u32,
    /// Chess960 notation: castling moves as king-takes-own-rook, FEN castling as rook files
    /// (Shredder-FEN). The rules do not depend on it: a position with a Chess960 castling
    /// right castles the Chess960 way in either notation.
    chess960: bool,
}

impl Default for Position {
    fn default() -> Self {
        Position::startpos()
    }
}

impl Position {
    /// The standard starting position.
    pub fn startpos() -> Position {
        Position::from_board(Board::default(), 0, 0)
    }

    /// Parse and validate a FEN in standard notation (see `fen.rs` for the rules).
    pub fn from_fen(text: &str) -> Result<Position, FenError> {
        fen::parse(text, false)
    }

    /// Parse a FEN in the notation `chess960` names: in Chess960, castling rights are
    /// Shredder-FEN rook files (`HAha`) or X-FEN (`KQkq`, meaning the outermost rook, with a
    /// file letter for an inner one), and the position writes Shredder-FEN and king-takes-rook
    /// castling moves.
    pub fn from_fen_in(text: &str, chess960: bool) -> Result<Position, FenError> {
        fen::parse(text, chess960)
    }

    /// Parse a FEN as Chess960 if its castling field names rook files (Shredder-FEN or X-FEN
    /// letters besides `KQkq`), as standard chess otherwise: for tools reading mixed suites.
    pub fn from_any_fen(text: &str) -> Result<Position, FenError> {
        let castling = text.split_whitespace().nth(2).unwrap_or("-");
        let chess960 = castling.chars().any(|c| !"KQkq-".contains(c));
        fen::parse(text, chess960)
    }

    /// Wrap a board already known to be valid, with its counters.
    pub(crate) fn from_board(board: Board, halfmove: u32, game_ply: u32) -> Position {
        Position::from_parts(board, Rights::NONE, halfmove, game_ply)
    }

    fn from_parts(board: Board, rights: Rights, halfmove: u32, game_ply: u32) -> Position {
        let board = canonical(board);
        let mut stack = Vec::with_capacity(512);
        stack.push(State::new(board, halfmove, rights));
        Position {
            stack,
            current: 0,
            root: 0,
            base_ply: game_ply,
            chess960: false,
        }
    }

    /// Does this position use Chess960 notation?
    pub fn is_chess960(&self) -> bool {
        self.chess960
    }

    /// Switch the notation (see `from_fen_in`); the rules stay as they are.
    pub fn set_chess960(&mut self, on: bool) {
        self.chess960 = on;
    }

    #[inline]
    fn top(&self) -> &State {
        &self.stack[self.current]
    }

    /// The current board. Only moves from its legal move list may be made on it.
    #[inline]
    pub fn board(&self) -> &Board {
        &self.top().board
    }

    /// Canonical Zobrist key of the current position: equal positions (same pieces, side,
    /// rights and *legal* en passant) have equal keys, because every board on the stack is
    /// canonical.
    #[inline]
    pub fn key(&self) -> u64 {
        self.top().key
    }

    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.top().board.side_to_move()
    }

    #[inline]
    pub fn in_check(&self) -> bool {
        *self.top().board.checkers() != EMPTY
    }

    /// Plies since the last capture or pawn move.
    #[inline]
    pub fn halfmove_clock(&self) -> u32 {
        self.top().halfmove
    }

    /// The FEN fullmove number: starts at 1 and grows after each Black move.
    pub fn fullmove_number(&self) -> u32 {
        self.game_ply() / 2 + 1
    }

    /// Plies played in the game so far (what the time manager calls k).
    #[inline]
    pub fn game_ply(&self) -> u32 {
        let made = u32::try_from(self.current).unwrap_or(u32::MAX);
        self.base_ply.saturating_add(made)
    }

    /// Men on the board, kings and pawns included.
    pub fn men(&self) -> u32 {
        self.board().combined().popcnt()
    }

    /// Does either side keep a castling right (standard or Chess960)? The endgame tables
    /// assume none.
    pub fn has_castling_rights(&self) -> bool {
        let b = self.board();
        !self.top().rights.is_empty()
            || b.castle_rights(Color::White) != chess::CastleRights::NoRights
            || b.castle_rights(Color::Black) != chess::CastleRights::NoRights
    }

    /// Legal moves of the current position: the crate's, then our own Chess960 castling.
    #[inline]
    pub fn legal_moves(&self) -> LegalMoves {
        LegalMoves {
            gen: MoveGen::new_legal(self.board()),
            castles: self.castles(),
        }
    }

    /// The legal castling moves the crate cannot generate (Chess960 rights); empty in
    /// standard chess. The search adds these to the crate's moves.
    #[inline]
    pub fn castles(&self) -> Castles {
        let top = self.top();
        if top.rights.is_empty() {
            Castles::default()
        } else {
            Castles::generate(&top.board, top.rights)
        }
    }

    /// Make a move taken from this position's legal move list.
    ///
    /// The crate corrupts its board on an illegal move, so callers must only pass moves they
    /// got from `legal_moves` (or checked with `is_legal`). Debug builds verify it.
    ///
    /// This is the program's only call of the crate's `Board::make_move` (the tuner goes
    /// through `Position` too). With one caller, LLVM inlines the crate's function here; with
    /// three it kept it out of line and perft paid for the call. Keeping this function itself
    /// out of line keeps that one call site, whichever of the search's sites call it.
    #[inline(never)]
    pub fn make_move(&mut self, m: ChessMove) {
        debug_assert!(self.is_legal(m), "illegal move {m} in {}", self.fen());
        let rights = self.top().rights;
        if !rights.is_empty() && self.board().color_on(m.get_dest()) == Some(self.side_to_move()) {
            return self.make_own_castle(m);
        }
        let next = self.next_slot();
        let (done, free) = self.stack.split_at_mut(next);
        let prev = &done[next - 1];
        let slot = &mut free[0];
        let board = &prev.board;
        let irreversible = (*board.pieces(Piece::Pawn) & BitBoard::from_square(m.get_source())
            | *board.combined() & BitBoard::from_square(m.get_dest()))
            != EMPTY;
        board.make_move(m, &mut slot.board);
        if slot.board.en_passant().is_some() {
            slot.board = canonical(slot.board);
        }
        (slot.halfmove, slot.repeatable) = if irreversible {
            (0, 0)
        } else {
            (
                prev.halfmove.saturating_add(1),
                prev.repeatable.saturating_add(1),
            )
        };
        slot.rights = if rights.is_empty() {
            Rights::NONE
        } else {
            rights_after(rights, board, m)
        };
        slot.key = State::key_of(&slot.board, slot.rights);
        self.current = next;
    }

    /// Our own castling (the king onto its own rook, see `castling.rs`), which the crate
    /// cannot make: the board is rebuilt with king and rook on their new squares. Kept out of
    /// `make_move` so that the crate's `make_move` keeps its single call site.
    #[cold]
    #[inline(never)]
    fn make_own_castle(&mut self, m: ChessMove) {
        let prev = *self.top();
        let board = &prev.board;
        let next_board = Castle::of(board, m)
            .and_then(|c| castling::apply(board, &c))
            // Unreachable for a legal move; keep the board rather than corrupt it.
            .unwrap_or(*board);
        let next = self.next_slot();
        self.stack[next] = State {
            repeatable: prev.repeatable.saturating_add(1),
            ..State::new(
                next_board,
                prev.halfmove.saturating_add(1),
                prev.rights.after(board, m),
            )
        };
        self.current = next;
    }

    /// Index of the slot the next move is written to, growing the stack when needed.
    #[inline]
    fn next_slot(&mut self) -> usize {
        let next = self.current + 1;
        if next == self.stack.len() {
            self.stack.push(self.stack[self.current]);
        }
        next
    }

    /// Pass the move to the opponent. Returns false (and changes nothing) when in check.
    pub fn make_null_move(&mut self) -> bool {
        let prev = *self.top();
        match prev.board.null_move() {
            Some(board) => {
                let next = self.next_slot();
                self.stack[next] = State {
                    repeatable: 0,
                    ..State::new(board, prev.halfmove.saturating_add(1), prev.rights)
                };
                self.current = next;
                true
            }
            None => false,
        }
    }

    /// The board before the last move or null move; None at the first position.
    pub fn previous_board(&self) -> Option<&Board> {
        self.current.checked_sub(1).map(|i| &self.stack[i].board)
    }

    /// Take back the last move or null move. Does nothing at the first position.
    #[inline]
    pub fn unmake(&mut self) {
        if self.current > 0 {
            self.current -= 1;
            self.root = self.root.min(self.current);
        }
    }

    /// Mark the current position as the root of a search (see `is_repetition`).
    pub fn set_search_root(&mut self) {
        self.root = self.current;
    }

    /// Forget the game record before the current position, keeping its counters. The GUI resends
    /// the game on every move; a position built from a long game keeps only what the draw
    /// rules can still use (the plies since the last irreversible move).
    pub fn trim_record(&mut self) {
        let keep = self.top().halfmove as usize + 1;
        self.stack.truncate(self.current + 1);
        if self.stack.len() > keep {
            let drop = self.stack.len() - keep;
            self.stack.drain(..drop);
            self.current -= drop;
            self.root = self.root.saturating_sub(drop);
            let dropped = u32::try_from(drop).unwrap_or(u32::MAX);
            self.base_ply = self.base_ply.saturating_add(dropped);
        }
    }

    /// Is this a legal move here? Slow (generates all moves); for untrusted moves such as a
    /// transposition-table move.
    pub fn is_legal(&self, m: ChessMove) -> bool {
        self.board().legal(m) || self.castles().contains(m)
    }

    /// Repetition as the search sees it: a draw if the position occurred once before since the
    /// search root (twofold, the side that repeats could repeat again), or twice before in all
    /// (threefold, a real draw claim).
    pub fn is_repetition(&self) -> bool {
        self.count_repetitions(true) >= 2
    }

    /// Threefold repetition in the game: the current position occurred at least twice before.
    pub fn is_threefold(&self) -> bool {
        self.count_repetitions(false) >= 2
    }

    /// Earlier occurrences of the current position, counting one inside the search as two when
    /// `search` is set. Only positions since the last irreversible or null move can repeat,
    /// and only those with the same side to move, hence the step of two.
    fn count_repetitions(&self, search: bool) -> u32 {
        let top = self.current;
        let key = self.key();
        let oldest = top.saturating_sub(self.top().repeatable as usize);
        let mut count = 0;
        let mut i = top;
        while i >= oldest + 2 {
            i -= 2;
            if self.stack[i].key == key {
                count += if search && i >= self.root { 2 } else { 1 };
                if count >= 2 {
                    break;
                }
            }
        }
        count
    }

    /// Can the side to move repeat a position of the search with one move, or could the
    /// opponent have reached this one a move sooner? Either way the line can be held to a
    /// draw, and a search below zero may take zero as its floor (Stockfish's
    /// `has_game_cycle`, with `cuckoo`'s tables). Only positions after the search root count,
    /// since before it a single earlier occurrence does not make a draw; only those since the
    /// last irreversible or null move, an odd number of plies back, and only if the move's
    /// path is clear now.
    pub fn has_upcoming_repetition(&self) -> bool {
        let top = self.current;
        // Strictly after the root: i plies back with i < top − root.
        let after_root = (top - self.root).saturating_sub(1);
        let end = (self.top().repeatable as usize).min(after_root);
        let key = self.key();
        let occupied = *self.board().combined();
        let mut i = 3;
        while i <= end {
            if let Some((a, b)) = cuckoo::lookup(key ^ self.stack[top - i].key) {
                if chess::between(a, b) & occupied == EMPTY {
                    return true;
                }
            }
            i += 2;
        }
        false
    }

    /// Fifty-move rule: 100 plies without a capture or pawn move, unless that last move mated.
    pub fn is_fifty_move_draw(&self) -> bool {
        self.halfmove_clock() >= 100 && !(self.in_check() && self.legal_moves().is_empty())
    }

    /// Neither side can mate by any series of legal moves: K v K, K+minor v K, and positions
    /// where every piece besides the kings is a bishop and all bishops share a square colour.
    pub fn is_insufficient_material(&self) -> bool {
        let b = self.board();
        let heavy = *b.pieces(Piece::Pawn) | *b.pieces(Piece::Rook) | *b.pieces(Piece::Queen);
        if heavy != EMPTY {
            return false;
        }
        let knights = b.pieces(Piece::Knight).popcnt();
        let bishops = *b.pieces(Piece::Bishop);
        if knights + bishops.popcnt() <= 1 {
            return true;
        }
        const LIGHT_SQUARES: BitBoard = BitBoard(0x55AA_55AA_55AA_55AA);
        knights == 0 && (bishops & LIGHT_SQUARES == EMPTY || bishops & !LIGHT_SQUARES == EMPTY)
    }

    /// Any draw the search should score as zero: fifty moves, repetition, dead position.
    pub fn is_draw_in_search(&self) -> bool {
        self.is_fifty_move_draw() || self.is_repetition() || self.is_insufficient_material()
    }

    /// The position as FEN, with the real counters and the en-passant target square.
    pub fn fen(&self) -> String {
        fen::write(self)
    }
}

/// The Chess960 rights left after a move (out of line: standard chess never calls it).
#[cold]
#[inline(never)]
fn rights_after(rights: Rights, board: &Board, m: ChessMove) -> Rights {
    rights.after(board, m)
}

/// The legal moves of a position (see `Position::legal_moves`).
pub struct LegalMoves {
    gen: MoveGen,
    castles: Castles,
}

impl LegalMoves {
    /// Moves not yet handed out.
    #[inline]
    pub fn len(&self) -> usize {
        self.gen.len() + self.castles.len()
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Iterator for LegalMoves {
    type Item = ChessMove;

    #[inline]
    fn next(&mut self) -> Option<ChessMove> {
        self.gen.next().or_else(|| self.castles.next())
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.len();
        (n, Some(n))
    }
}

impl ExactSizeIterator for LegalMoves {}

/// Can the side to move capture en passant? Checked without generating all moves: the crate's
/// `legal_quick` settles pins and discovered checks along the rank and diagonals (it recomputes
/// slider attacks with both pawns gone), and a check by anything but the pushed pawn or a
/// slider cannot be answered by the capture at all.
fn has_legal_en_passant(board: &Board) -> bool {
    let Some(pushed) = board.en_passant() else {
        return false;
    };
    let target = match board.side_to_move() {
        Color::White => pushed.up(),
        Color::Black => pushed.down(),
    };
    let Some(target) = target else {
        return false;
    };
    let sliders =
        *board.pieces(Piece::Bishop) | *board.pieces(Piece::Rook) | *board.pieces(Piece::Queen);
    if *board.checkers() & !BitBoard::from_square(pushed) & !sliders != EMPTY {
        return false;
    }
    let capturers = *board.pieces(Piece::Pawn)
        & *board.color_combined(board.side_to_move())
        & chess::get_adjacent_files(pushed.get_file())
        & chess::get_rank(pushed.get_rank());
    capturers
        .into_iter()
        .any(|from| MoveGen::legal_quick(board, ChessMove::new(from, target, None)))
}

/// The board with its en-passant square removed when no legal en-passant capture exists.
///
/// The crate records an en-passant square whenever an enemy pawn stands beside the pushed pawn,
/// even if that pawn is pinned, and its hash includes the square; one position could then have
/// two hashes and repetitions would be missed. Only double pushes beside an enemy pawn get here.
fn canonical(board: Board) -> Board {
    if board.en_passant().is_none() || has_legal_en_passant(&board) {
        return board;
    }
    let mut builder = BoardBuilder::from(board);
    builder.en_passant(None);
    // Removing the en-passant file cannot make a sane board insane; keep the original if the
    // crate disagrees rather than lose the position.
    Board::try_from(builder).unwrap_or(board)
}
