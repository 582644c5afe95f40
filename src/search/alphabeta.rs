//! Principal variation search with the classical pruning and reduction techniques.
//!
//! Every technique below trades a little accuracy for a lot of speed; each is guarded by the
//! conditions under which it is known to be safe (not in check, not near mate scores, not at
//! PV nodes where the exact score matters).

mod nnue_stack;
mod probcut;
mod qsearch;
mod root_order;
mod tablebase;

use super::correction::{Correction, Keys};
use super::features::Features;
use super::memory::ThreadMemory;
use super::ordering::{
    is_noisy, piece_to, Continuations, Cutoff, Heuristics, MovePicker, PieceTo, MAX_PLY,
    NO_CONTINUATIONS,
};
use super::params;
use super::see;
use super::stopper::Stopper;
use crate::eval::nnue::{Delta, Network};
use crate::position::{gives_check, Position};
use crate::score::{is_decisive, DRAW, INFINITY, MATE, MATE_BOUND};
use crate::tt::{Bound, Entry, TranspositionTable};
use chess::{ChessMove, Piece};
use nnue_stack::NnueStack;
use once_cell::sync::Lazy;
use probcut::ProbcutNode;
use std::sync::Arc;
use tablebase::TreeProbing;

/// From this fifty-move count on, a table score neither ends a node nor stands for its
/// estimate: ten plies before the draw, the stored result may be one the fifty-move rule
/// overrules (Stockfish's 90).
pub(super) const TT_CUTOFF_HALFMOVE_LIMIT: u32 = 90;

/// Late-move reduction in plies at `depth` for the move numbered `moves`:
/// (LmrBase + 100·ln(d)·ln(m)/LmrDivisor)/100 ([`params::lmr_base`]), read from a table in a
/// normal build and computed from the current values in a `tune` build.
#[inline]
fn lmr(depth: i32, moves: usize) -> i32 {
    let (d, m) = (depth.min(63) as usize, moves.min(63));
    #[cfg(not(feature = "tune"))]
    {
        LMR[d][m]
    }
    #[cfg(feature = "tune")]
    {
        if d == 0 || m == 0 {
            return 0;
        }
        lmr_formula(LN[d], LN[m], params::lmr_base(), params::lmr_divisor())
    }
}

/// The reduction for the logarithms of depth and move number. Both hundredths are exact in
/// binary for the defaults (0.75 and 2.25), so the table is the one `0.75 + ln·ln/2.25` gave.
fn lmr_formula(ln_depth: f64, ln_moves: f64, base: i32, divisor: i32) -> i32 {
    (f64::from(base) / 100.0 + ln_depth * ln_moves / (f64::from(divisor) / 100.0)) as i32
}

/// The reductions of a normal build, by depth and move number (row and column 0 unused).
#[cfg(not(feature = "tune"))]
static LMR: Lazy<[[i32; 64]; 64]> = Lazy::new(|| {
    let mut table = [[0; 64]; 64];
    for (d, row) in table.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            *r = lmr_formula(
                (d as f64).ln(),
                (m as f64).ln(),
                params::lmr_base(),
                params::lmr_divisor(),
            );
        }
    }
    table
});

/// ln(0..64), for a `tune` build's reductions.
#[cfg(feature = "tune")]
static LN: Lazy<[f64; 64]> = Lazy::new(|| std::array::from_fn(|i| (i as f64).ln()));

/// One search thread's state.
pub struct Searcher<'a> {
    pub pos: Position,
    pub tt: &'a TranspositionTable,
    pub stop: Stopper<'a>,
    /// This thread's tables, borrowed from the game's `search::Memory`.
    pub heur: &'a mut Heuristics,
    correction: &'a mut Correction,
    pub seldepth: usize,
    /// Triangular PV table: `pv[ply]` is the line found from that ply.
    pv: Vec<[ChessMove; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 2],
    /// Static evaluation by ply, to tell whether the side to move is improving; a node in
    /// check holds its side's previous one ([`Searcher::record_eval`]).
    evals: [i32; MAX_PLY + 2],
    /// The move made at each ply (None for a null move), for counter-moves and the null-move
    /// guard.
    moves: [Option<ChessMove>; MAX_PLY + 2],
    /// The same moves as piece and destination, for continuation history.
    piece_tos: [Option<PieceTo>; MAX_PLY + 2],
    null_at: [bool; MAX_PLY + 2],
    /// The move a singular-extension search at that ply leaves out.
    excluded: [Option<ChessMove>; MAX_PLY + 2],
    /// Double extensions on the line from the root to each ply: each one deepens the whole
    /// line below it, so a line may take only [`params::double_ext_limit`].
    double_exts: [u8; MAX_PLY + 2],
    /// Depth of the current root iteration, to bound how far extensions can carry a line.
    root_depth: i32,
    /// Move-list buffers, one per ply, lent to the move pickers.
    lists: Vec<Vec<(ChessMove, i32)>>,
    /// `go mate`: null-move pruning is off, since it hides mates that rest on zugzwang.
    pub mate_search: bool,
    feat: Features,
    /// Nodes searched below each root move in this search, all iterations together, for the
    /// root's order (`root_order`).
    root_nodes: Vec<(ChessMove, u64)>,
    /// The same, and their total, counting only the first MultiPV line's searches: the time
    /// manager's best-move node share (`time::adjust`). The later lines search the other
    /// moves again by design; counted in, they read as doubt about the best move, and moves
    /// at MultiPV 3 took 60 % longer than at MultiPV 1.
    first_line_root_nodes: Vec<(ChessMove, u64)>,
    first_line_nodes: u64,
    /// Whether `search_root` searches the first MultiPV line (the only one without MultiPV);
    /// `aspiration::search_line` says which line it searches.
    pub first_line: bool,
    /// The network and its accumulators by ply, when the network evaluates.
    nnue: Option<NnueStack>,
    /// Tablebase probes inside the tree, when tables are in use and the root wants them.
    tb: Option<TreeProbing>,
    /// The root's score by the tables, reported instead of the search's unless that is a
    /// mate (`search::tablebase`).
    pub root_tb_score: Option<i32>,
    /// Whether `info` lines report `tbhits` (tables are in use).
    pub reports_tbhits: bool,
    /// The evaluation blur of a strength limit (`search::strength`); None at full strength.
    pub blur: Option<super::strength::Blur>,
}

/// One child search for [`Searcher::search_child`]: the parent's ply and window, the depth
/// left after the move (extensions included) and the late-move reduction chosen for it.
#[derive(Clone, Copy)]
struct Child {
    ply: usize,
    new_depth: i32,
    reduction: i32,
    alpha: i32,
    beta: i32,
    first: bool,
    pv_node: bool,
    /// Whether the parent is an expected cut node (flipped for the full-depth re-search).
    cut_node: bool,
}

impl<'a> Searcher<'a> {
    /// A searcher that evaluates with `network`, or by hand when None, and learns into
    /// `memory`.
    pub fn new(
        pos: Position,
        tt: &'a TranspositionTable,
        stop: Stopper<'a>,
        network: Option<Arc<Network>>,
        memory: &'a mut ThreadMemory,
    ) -> Self {
        let ThreadMemory { heur, correction } = memory;
        Searcher {
            pos,
            tt,
            stop,
            heur,
            correction,
            seldepth: 0,
            pv: vec![[ChessMove::default(); MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 2],
            evals: [0; MAX_PLY + 2],
            moves: [None; MAX_PLY + 2],
            piece_tos: [None; MAX_PLY + 2],
            null_at: [false; MAX_PLY + 2],
            excluded: [None; MAX_PLY + 2],
            double_exts: [0; MAX_PLY + 2],
            root_depth: 0,
            lists: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(64)).collect(),
            mate_search: false,
            feat: Features::current(),
            nnue: None,
            root_nodes: Vec::new(),
            first_line_root_nodes: Vec::new(),
            first_line_nodes: 0,
            first_line: true,
            tb: None,
            root_tb_score: None,
            reports_tbhits: false,
            blur: None,
        }
        .with_network(network)
    }

    /// Probe `probing`'s tables in this search, as the root's `verdict` allows: inside the
    /// tree unless the root's ranking made that needless, and with the root's score
    /// reported (`search::tablebase`).
    pub fn use_tablebases(
        &mut self,
        probing: Option<&crate::tablebase::Probing>,
        verdict: Option<crate::search::tablebase::RootVerdict>,
    ) {
        let Some(probing) = probing else {
            return;
        };
        self.reports_tbhits = true;
        self.root_tb_score = verdict.map(|v| v.score);
        let in_tree = verdict.is_none_or(|v| v.probe_in_tree);
        let men = probing.men();
        self.tb = (in_tree && men > 0).then(|| TreeProbing {
            probing: probing.clone(),
            men,
        });
    }

    /// Nodes searched below root move `m` so far in this search.
    pub fn root_move_nodes(&self, m: ChessMove) -> u64 {
        node_count(&self.root_nodes, m)
    }

    /// Root move `m`'s share of the nodes of the first MultiPV line's searches so far, 0..=1.
    pub fn first_line_share(&self, m: ChessMove) -> f64 {
        let nodes = node_count(&self.first_line_root_nodes, m);
        nodes as f64 / self.first_line_nodes.max(1) as f64
    }

    fn add_root_move_nodes(&mut self, m: ChessMove, nodes: u64) {
        add_node_count(&mut self.root_nodes, m, nodes);
        if self.first_line {
            add_node_count(&mut self.first_line_root_nodes, m, nodes);
        }
    }

    /// The principal variation found from the root in the last completed search call.
    pub fn root_pv(&self) -> Vec<ChessMove> {
        self.pv[0][..self.pv_len[0]].to_vec()
    }

    fn update_pv(&mut self, ply: usize, m: ChessMove) {
        self.pv[ply][ply] = m;
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    fn make(&mut self, ply: usize, m: ChessMove) {
        self.piece_tos[ply + 1] = Some(piece_to(self.pos.board(), m));
        // The network's change is read from the board before the move, and applied after the
        // child's table bucket is asked for, so that the two overlap.
        let delta = self.nnue.is_some().then(|| Delta::of(self.pos.board(), m));
        self.pos.make_move(m);
        self.tt.prefetch(self.pos.key());
        if let (Some(n), Some(delta)) = (&mut self.nnue, delta) {
            n.apply(ply, &delta, self.pos.board());
        }
        self.moves[ply + 1] = Some(m);
        self.null_at[ply + 1] = false;
        self.double_exts[ply + 1] = self.double_exts[ply];
    }

    /// Was the move into this node a quiet rook or queen move whose piece can now be taken
    /// at a profit? A rook or queen move is quiet exactly when it left the fifty-move count
    /// running: it resets only on captures and pawn moves (a promotion is a pawn move).
    fn after_quiet_sacrifice(&self, ply: usize) -> bool {
        let Some(m) = self.moves[ply] else {
            return false;
        };
        let heavy = matches!(
            self.pos.board().piece_on(m.get_dest()),
            Some(Piece::Rook | Piece::Queen)
        );
        heavy
            && self.pos.halfmove_clock() != 0
            && see::wins_material_on(self.pos.board(), m.get_dest())
    }

    /// The correction-history keys of the position now; None with correction history off.
    #[inline]
    fn correction_keys(&self) -> Option<Keys> {
        self.feat
            .correction_history
            .then(|| Keys::of(self.pos.board()))
    }

    /// The static evaluation `raw` of the position with `keys`, with the game's correction
    /// history.
    #[inline]
    fn corrected(&self, keys: Option<Keys>, raw: i32) -> i32 {
        keys.map_or(raw, |k| self.correction.correct(k, raw))
    }

    /// Record the static evaluation of the node at `ply` (−∞ in check, where there is none)
    /// and say whether the side to move is improving: whether it evaluates better than at its
    /// own previous turn. A node in check records that turn's evaluation instead of its own
    /// −∞, which every evaluation would beat, so the comparison reaches back past any run of
    /// checks; with nothing known (the root in check) the answer is no (Stockfish 16's
    /// `improving`).
    fn record_eval(&mut self, ply: usize, static_eval: i32) -> bool {
        let earlier = ply.checked_sub(2).map_or(-INFINITY, |p| self.evals[p]);
        if static_eval == -INFINITY {
            self.evals[ply] = earlier;
            return false;
        }
        self.evals[ply] = static_eval;
        earlier != -INFINITY && static_eval > earlier
    }

    /// The moves into the node at `ply` as continuation history reads them (none with it off).
    fn continuations(&self, ply: usize) -> Continuations {
        if !self.feat.continuation_history {
            return NO_CONTINUATIONS;
        }
        [
            self.piece_tos[ply],
            ply.checked_sub(1).and_then(|p| self.piece_tos[p]),
        ]
    }

    /// The move into the node at `ply`, for the counter-move table (None with it off).
    fn counter_key(&self, ply: usize) -> Option<ChessMove> {
        self.moves[ply].filter(|_| self.feat.counter_move)
    }

    /// A table cutoff at `ply` and `depth` whose move is `m`: a quiet move that cuts
    /// (`cuts`) gains as a searched cutoff would, one whose bound failed low loses (Stockfish
    /// 11). The move is only a hint and may not be legal here; the tables take it all the
    /// same, as the move picker checks killers and counter-moves against the legal moves.
    fn learn_from_table_cutoff(&mut self, ply: usize, depth: i32, m: ChessMove, cuts: bool) {
        if is_noisy(self.pos.board(), m) {
            return;
        }
        let conts = self.continuations(ply);
        if cuts {
            let cutoff = Cutoff {
                ply,
                depth,
                best: m,
                prev: self.counter_key(ply),
                conts: &conts,
                tried: &[],
            };
            self.heur.record_cutoff(self.pos.board(), cutoff);
        } else {
            self.heur
                .record_tt_fail_low(self.pos.board(), depth, m, &conts);
        }
    }

    /// Every move of the node at `ply` failed low at `depth`: the opponent's quiet move into
    /// it was good, and its continuation histories gain (Stockfish 11, at depth 3 or more
    /// or in a PV node, not after a capture, a promotion or a null move).
    fn reward_prior_move(&mut self, ply: usize, depth: i32) {
        let (Some(prior), Some(m), Some(before)) = (
            self.piece_tos[ply],
            self.moves[ply],
            self.pos.previous_board(),
        ) else {
            return;
        };
        // Not after a capture onto an occupied square or a promotion. En passant counts as
        // quiet here, though Stockfish counts it a capture: bundle 7 was measured this way.
        if ply == 0 || m.get_promotion().is_some() || before.piece_on(m.get_dest()).is_some() {
            return;
        }
        let conts = self.continuations(ply - 1);
        self.heur.reward_prior_move(depth, prior, &conts);
    }

    /// Whether move `m`, just made, earns the check extension: it gives check, and, unless
    /// `safecheck` is off, either the check is discovered or the checking piece cannot be
    /// won (static exchange at least even). A check that only hands over the piece is not
    /// worth a ply (Stockfish 11 extends a check when `is_discovery_check_on_king` or
    /// `see_ge(move)`).
    fn extends_check(&self, m: ChessMove) -> bool {
        let after = self.pos.board();
        if !self.feat.check_extension || *after.checkers() == chess::EMPTY {
            return false;
        }
        if !self.feat.safe_check_extension {
            return true;
        }
        let discovered = *after.checkers() & !chess::BitBoard::from_square(m.get_dest());
        discovered != chess::EMPTY
            || self
                .pos
                .previous_board()
                .is_none_or(|before| see::see_ge(before, m, 0))
    }

    /// Does the side to move have a piece other than pawns and king? Without one, zugzwang is
    /// common and null-move pruning is unsound.
    fn has_non_pawn_material(&self) -> bool {
        let b = self.pos.board();
        let ours = *b.color_combined(b.side_to_move());
        let pawns_kings = *b.pieces(Piece::Pawn) | *b.pieces(Piece::King);
        ours & !pawns_kings != chess::EMPTY
    }

    /// Search the root's children with the window (alpha, beta); `root_moves` lists the moves
    /// to consider in order (searchmoves and MultiPV restrict it). Returns the best score and
    /// move; the best move is set only once a move has been searched to completion with a
    /// score above alpha, which is what makes a move from an unfinished iteration playable.
    pub fn search_root(
        &mut self,
        root_moves: &[ChessMove],
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> (i32, Option<ChessMove>) {
        self.pv_len[0] = 0;
        self.root_depth = depth;
        if self.feat.killer_clearing {
            self.heur.clear_killers(2);
        }
        let nodes_at_start = self.stop.nodes;
        let mut best_score = -INFINITY;
        let mut best_move = None;
        let in_check = self.pos.in_check();
        // Ply 2 asks whether its side is improving on the root's evaluation, as every inner
        // node asks of the node two plies up (unset, it read 0: "is this side ahead?").
        let root_eval = if in_check {
            -INFINITY
        } else {
            self.corrected(self.correction_keys(), self.evaluate(0))
        };
        self.record_eval(0, root_eval);
        for (i, &m) in root_moves.iter().enumerate() {
            if !self.stop.tick() {
                break;
            }
            let nodes_before = self.stop.nodes;
            // Whether the move is quiet is read before it is made: after it, its own piece
            // stands on the destination and every move would look like a capture.
            let quiet = !is_noisy(self.pos.board(), m) && !in_check;
            self.make(0, m);
            let gives_check = self.pos.in_check();
            let ext = i32::from(self.extends_check(m));
            let new_depth = depth - 1 + ext;
            // The root reduces less than inner nodes: one ply less, from the move a PV node
            // starts at (the fourth by default), and, as there, never a move that gives check.
            let r = if self.feat.lmr
                && depth >= params::lmr_min_depth()
                && i as i32 > params::lmr_min_moves()
                && quiet
                && !gives_check
            {
                (lmr(depth, i) - 1).clamp(0, new_depth - 1)
            } else {
                0
            };
            let score = self.search_child(Child {
                ply: 0,
                new_depth,
                reduction: r,
                alpha,
                beta,
                first: i == 0,
                pv_node: true,
                cut_node: false,
            });
            self.pos.unmake();
            self.add_root_move_nodes(m, self.stop.nodes - nodes_before);
            if self.stop.is_stopped() {
                break;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(m);
                    self.update_pv(0, m);
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if self.first_line {
            self.first_line_nodes += self.stop.nodes - nodes_at_start;
        }
        (best_score, best_move)
    }

    /// Search the move just made from a node at `c.ply` (principal variation search): the
    /// first move with the full window; later ones with a null window at the reduced depth,
    /// again at full depth if that beats alpha, and with the full window in a PV node if the
    /// score falls inside it. The root and inner nodes differ only in the reduction.
    ///
    /// Each child is told whether it is expected to be a cut node. Knuth and Moore's node
    /// types alternate: a cut node's first child is an all node and an all node's is a cut
    /// node, and so is any later child searched with a null window at full depth; a reduced
    /// search expects a cut, as Stockfish's `search` does.
    fn search_child(&mut self, c: Child) -> i32 {
        let (alpha, beta, ply) = (c.alpha, c.beta, c.ply + 1);
        if c.first {
            let cut = !c.pv_node && !c.cut_node;
            return -self.negamax(c.new_depth, -beta, -alpha, ply, cut);
        }
        let cut = c.reduction > 0 || !c.cut_node;
        let mut score = -self.negamax(c.new_depth - c.reduction, -alpha - 1, -alpha, ply, cut);
        if score > alpha && c.reduction > 0 {
            score = -self.negamax(c.new_depth, -alpha - 1, -alpha, ply, !c.cut_node);
        }
        if c.pv_node && score > alpha && score < beta {
            score = -self.negamax(c.new_depth, -beta, -alpha, ply, false);
        }
        score
    }

    /// Negamax alpha-beta with a principal-variation (null) window for all but the first move.
    pub fn negamax(
        &mut self,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        self.pv_len[ply] = ply;
        if depth <= 0 {
            return self.quiescence(alpha, beta, ply, 0);
        }
        if !self.stop.tick() {
            return DRAW;
        }
        let pv_node = beta - alpha > 1;
        self.seldepth = self.seldepth.max(ply);
        if self.feat.killer_clearing {
            self.heur.clear_killers(ply + 2);
        }

        if self.pos.is_draw_in_search() {
            return DRAW;
        }
        // One move from a repetition (or reached a move later than it could have been): the
        // side to move can hold the draw, so a window below it rises to it, and a null window
        // at or below it is decided (Stockfish 11).
        if self.feat.upcoming_repetition && alpha < DRAW && self.pos.has_upcoming_repetition() {
            alpha = DRAW;
            if alpha >= beta {
                return alpha;
            }
        }
        // Mate-distance pruning: no line from here can beat a mate already found nearer the root.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        if ply >= MAX_PLY {
            return self.corrected(self.correction_keys(), self.evaluate(ply));
        }

        let key = self.pos.key();
        let hit = self.tt.probe(key, ply, self.pos.halfmove_clock());
        let excluded = self.excluded[ply];
        // A table move is only a hint: the crate corrupts its board on an illegal move, so it
        // is checked against the legal moves (by the move picker) before it is ever made.
        let tt_move = hit.and_then(|h| h.mv);
        // Near the fifty-move limit a stored score may be one the draw would overrule.
        let score_trusted = self.pos.halfmove_clock() < TT_CUTOFF_HALFMOVE_LIMIT;
        if let Some(h) = hit {
            // A search without the excluded move is a different question from the one the
            // entry answers; an untrusted score sends the node to be searched again
            // (Stockfish's `rule50_count() < 90`).
            if !pv_node && h.depth >= depth && excluded.is_none() && score_trusted {
                let usable = match h.bound {
                    Bound::Exact => true,
                    Bound::Lower => h.score >= beta,
                    Bound::Upper => h.score <= alpha,
                };
                if usable {
                    if let Some(m) = tt_move.filter(|_| self.feat.tt_cutoff_history) {
                        self.learn_from_table_cutoff(ply, depth, m, h.score >= beta);
                    }
                    return h.score;
                }
            }
        }

        // The tables, after a capture or pawn move: a result that settles the window is
        // stored and returned; in a PV node a win is a floor and a loss a ceiling for the
        // moves' search, which may still find a mate (Stockfish's handling).
        let mut tb_floor = -INFINITY;
        let mut tb_ceiling = INFINITY;
        if excluded.is_none() {
            if let Some((value, bound)) = self.probe_tablebase(depth, ply) {
                let settles = match bound {
                    Bound::Exact => true,
                    Bound::Lower => value >= beta,
                    Bound::Upper => value <= alpha,
                };
                if settles {
                    let eval = (!self.pos.in_check()).then(|| self.evaluate(ply));
                    let entry = Entry {
                        mv: None,
                        score: value,
                        eval,
                        depth: (depth + 6).min(MAX_PLY as i32 - 1),
                        bound,
                    };
                    self.tt.store(key, ply, entry);
                    return value;
                }
                if pv_node {
                    if bound == Bound::Lower {
                        tb_floor = value;
                        alpha = alpha.max(value);
                    } else {
                        tb_ceiling = value;
                    }
                }
            }
        }

        let in_check = self.pos.in_check();
        // The network's (or the hand evaluation's) verdict, as the table keeps it, and the
        // same corrected by what this game's searches taught (`correction`).
        let raw_eval = if in_check {
            -INFINITY
        } else {
            hit.and_then(|h| h.eval)
                .unwrap_or_else(|| self.evaluate(ply))
        };
        let keys = if in_check {
            None
        } else {
            self.correction_keys()
        };
        let static_eval = if in_check {
            -INFINITY
        } else {
            self.corrected(keys, raw_eval)
        };
        // The stored score is a better estimate than the static eval when its bound allows,
        // but not a mate or tablebase score: a bound such as "at least mated in 12" would
        // let reverse futility return a mate unproven here, and futility prune every quiet
        // move of a node that only a bound calls lost (Stockfish guards the same two rules).
        // Nor near the fifty-move draw, where the table cannot end a node either.
        let eval = match hit {
            Some(h) if !in_check && score_trusted && !is_decisive(h.score) => match h.bound {
                Bound::Lower if h.score > static_eval => h.score,
                Bound::Upper if h.score < static_eval => h.score,
                Bound::Exact => h.score,
                _ => static_eval,
            },
            _ => static_eval,
        };
        let improving = self.record_eval(ply, static_eval);

        if !pv_node && !in_check && !is_decisive(beta) && excluded.is_none() {
            // Razoring: so far below alpha, near the leaves, that no quiet move could close
            // the gap: only a capture could, and quiescence says whether one does. If none
            // does, the node fails low without generating a move.
            if self.feat.razoring
                && depth <= params::razor_depth()
                && eval + params::razor_margin() * depth <= alpha
            {
                let score = self.quiescence(alpha, alpha + 1, ply, 0);
                if self.stop.is_stopped() {
                    return DRAW;
                }
                if score <= alpha {
                    return score;
                }
            }
            // Reverse futility: far above beta with a shallow depth left, assume it holds.
            // Not right after a quiet move that left a rook or queen to be taken: that is a
            // blunder, which the search refutes cheaply, or a sacrifice for a threat the
            // static evaluation cannot see (WAC.001's 1.Qg6, threatening mate). Only heavy
            // pieces: guarding every quiet sacrifice measured worse (docs/measurements/search.md).
            let improving_cut = if improving {
                params::rfp_improving()
            } else {
                0
            };
            let margin = params::rfp_margin() * depth - improving_cut;
            if self.feat.reverse_futility
                && depth <= params::rfp_depth()
                && eval - margin >= beta
                && !(self.feat.rfp_sacrifice_guard && self.after_quiet_sacrifice(ply))
            {
                return eval;
            }
            // Null move: if passing still fails high, a real move almost surely would. Not
            // after a quiet sacrifice either: the reduced search drops into quiescence, which
            // cannot see the quiet threat the sacrifice may carry (WAC.001's mate is found
            // from depth 6 with this guard, from depth 15 without).
            if self.feat.null_move
                && depth >= params::nmp_min_depth()
                && eval >= beta
                && !self.mate_search
                && !self.null_at[ply]
                && self.has_non_pawn_material()
                && !(self.feat.nmp_sacrifice_guard && self.after_quiet_sacrifice(ply))
                && self.pos.make_null_move()
            {
                self.moves[ply + 1] = None;
                self.piece_tos[ply + 1] = None;
                self.null_at[ply + 1] = true;
                self.double_exts[ply + 1] = self.double_exts[ply];
                if let Some(n) = &mut self.nnue {
                    n.make_null(ply);
                }
                let r = params::nmp_base()
                    + depth / params::nmp_depth_divisor()
                    + ((eval - beta) / params::nmp_eval_divisor()).min(params::nmp_eval_max());
                let score = -self.negamax(depth - 1 - r, -beta, -beta + 1, ply + 1, !cut_node);
                self.pos.unmake();
                if self.stop.is_stopped() {
                    return DRAW;
                }
                if score >= beta {
                    return if is_decisive(score) { beta } else { score };
                }
            }
        }

        // Internal iterative reduction: without a table move this node was not searched
        // before, so its ordering is poor; search it shallower.
        if self.feat.iir
            && depth >= params::iir_depth()
            && tt_move.is_none()
            && (pv_node || cut_node)
        {
            depth -= 1;
        }

        if !pv_node && !in_check && excluded.is_none() {
            let node = ProbcutNode {
                depth,
                beta,
                ply,
                key,
                static_eval,
                raw_eval,
                hit,
                cut_node,
            };
            if let Some(score) = self.probcut(node) {
                return score;
            }
        }

        // Singular extension: if every move but the table's best fails well below the score
        // the table promises, that move is the only good one here, and the line is searched a
        // ply deeper (two when it fails below by a margin, outside the PV). If even without it
        // the node fails high by a margin, several moves beat beta and the node is cut at
        // once (multi-cut); if only the table's score clears beta, the table move is not the
        // only good one and is searched a ply less (negative extension).
        let mut singular = 0;
        if let (true, Some(h), Some(tm)) = (self.feat.singular_extension, hit, tt_move) {
            if ply > 0
                && depth >= params::se_depth()
                && excluded.is_none()
                && h.depth >= depth - params::se_tt_depth_margin()
                && h.bound != Bound::Upper
                && !is_decisive(h.score)
                && (ply as i32) < 2 * self.root_depth
            {
                let singular_beta = h.score - params::se_beta_scale() * depth;
                self.excluded[ply] = Some(tm);
                let score = self.negamax(
                    (depth - 1) / 2,
                    singular_beta - 1,
                    singular_beta,
                    ply,
                    cut_node,
                );
                self.excluded[ply] = None;
                if self.stop.is_stopped() {
                    return DRAW;
                }
                if score < singular_beta {
                    singular = if self.feat.double_extension
                        && !pv_node
                        && score < singular_beta - params::double_ext_margin()
                        && i32::from(self.double_exts[ply]) < params::double_ext_limit()
                    {
                        2
                    } else {
                        1
                    };
                } else if singular_beta >= beta {
                    return singular_beta;
                } else if self.feat.negative_extension && h.score >= beta {
                    singular = -1;
                }
            }
        }

        let prev = self.counter_key(ply);
        let conts = self.continuations(ply);
        let buffer = std::mem::take(&mut self.lists[ply]);
        let mut picker = MovePicker::all(
            self.pos.board(),
            self.pos.castles(),
            tt_move,
            &*self.heur,
            ply,
            prev,
            &conts,
            self.feat.capture_history,
            buffer,
        );
        if picker.is_empty() {
            self.lists[ply] = picker.into_buffer();
            return if in_check { -MATE + ply as i32 } else { DRAW };
        }

        let original_alpha = alpha;
        let mut best_score = tb_floor;
        let mut best_move = None;
        let mut quiets_tried: [ChessMove; 64] = [ChessMove::default(); 64];
        let mut quiet_count = 0;
        let mut noisy_tried: [ChessMove; 32] = [ChessMove::default(); 32];
        let mut noisy_count = 0;
        let mut searched = 0usize;
        let lmp_limit = (params::lmp_base() + depth * depth) / if improving { 1 } else { 2 };

        while let Some((m, order)) = picker.next_move() {
            if Some(m) == excluded {
                continue;
            }
            let quiet = !is_noisy(self.pos.board(), m);
            // No rule below may hide a move that gives check: a quiet check or a sacrifice
            // with check is how short mates begin, and whether a move checks is asked only
            // once a rule is about to prune it.
            if searched > 0 && !is_decisive(best_score) && best_score > -MATE_BOUND {
                let board = self.pos.board();
                let prune = if quiet && !in_check {
                    // Futility and SEE pruning ask how deep the move would be searched: after
                    // its late-move reduction, a late move gets less depth to make good a
                    // bad start than an early one (Stockfish 11's `lmrDepth`).
                    let reduced = self.feat.reduced_depth_pruning;
                    let pruning_depth = if reduced {
                        (depth - 1 - lmr(depth, searched)).max(0)
                    } else {
                        depth
                    };
                    // Late-move pruning: at shallow depth, late quiet moves rarely matter.
                    (self.feat.late_move_pruning
                        && depth <= params::lmp_depth()
                        && quiet_count as i32 >= lmp_limit)
                    // Futility: a quiet move cannot lift a hopeless eval above alpha, unless
                    // its history says it often did (with the reduced depth).
                        || (self.feat.futility
                            && pruning_depth <= params::futility_depth()
                            && eval
                                + params::futility_base()
                                + params::futility_margin() * pruning_depth
                                <= alpha
                            && !(reduced && order >= params::futility_history_limit()))
                    // A quiet move that puts material en prise, more than the depth left can
                    // win back.
                        || (self.feat.quiet_see_pruning
                            && pruning_depth <= params::see_quiet_depth()
                            && !see::see_ge(board, m, -params::see_quiet_margin() * pruning_depth))
                    // A quiet move whose history says it has failed again and again. A
                    // quiet move's ordering score is its history, except the table move's,
                    // the killers' and the counter move's, which are large and positive.
                        || (self.feat.history_pruning
                            && depth <= params::hist_prune_depth()
                            && order < -params::hist_prune_margin() * depth)
                } else {
                    // Captures that lose more than the depth can make up for.
                    self.feat.see_pruning
                        && !quiet
                        && depth <= params::see_noisy_depth()
                        && MovePicker::is_bad_capture(order)
                        && !see::see_ge(board, m, -params::see_noisy_margin() * depth)
                };
                if prune && !gives_check(board, m) {
                    continue;
                }
            }

            // A late quiet move is reduced unless it gives check (known only after the move).
            let late_quiet = self.feat.lmr
                && depth >= params::lmr_min_depth()
                && searched as i32 >= params::lmr_min_moves() + i32::from(pv_node)
                && quiet;
            // Read before the move is made: history belongs to the side moving now.
            let quiet_history = if late_quiet {
                self.heur.quiet_score(self.pos.board(), m, &conts)
            } else {
                0
            };
            self.make(ply, m);
            let gives_check = self.pos.in_check();
            let check_ext = i32::from(self.extends_check(m));
            // A table move that checks keeps its depth under a negative extension (the check
            // extension and the reduction cancel), unlike Stockfish, where the check loses.
            let ext = match (Some(m) == tt_move, singular) {
                (true, -1) => check_ext - 1,
                (true, _) => check_ext.max(singular),
                (false, _) => check_ext,
            };
            if ext >= 2 {
                self.double_exts[ply + 1] += 1;
            }
            let new_depth = depth - 1 + ext;
            let mut r = 0;
            if late_quiet && !gives_check {
                r = lmr(depth, searched);
                r += i32::from(!pv_node);
                r += i32::from(!improving);
                r += i32::from(cut_node);
                r -= i32::from(MovePicker::is_refutation(order));
                // Ethereal 12's history term: a ply less or more per 5,000, at most two.
                let most = params::lmr_history_max();
                r -= (quiet_history / params::lmr_history_divisor()).clamp(-most, most);
                r = r.clamp(0, new_depth - 1);
            }
            let score = self.search_child(Child {
                ply,
                new_depth,
                reduction: r,
                alpha,
                beta,
                first: searched == 0,
                pv_node,
                cut_node,
            });
            self.pos.unmake();
            if self.stop.is_stopped() {
                return DRAW;
            }
            searched += 1;

            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(m);
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        let board = self.pos.board();
                        if self.feat.capture_history {
                            let best = (!quiet).then_some(m);
                            let tried = &noisy_tried[..noisy_count];
                            self.heur.record_noisy(board, depth, best, tried);
                        }
                        if quiet {
                            let tried = &quiets_tried[..quiet_count];
                            self.heur.record_cutoff(
                                board,
                                Cutoff {
                                    ply,
                                    depth,
                                    best: m,
                                    prev,
                                    conts: &conts,
                                    tried,
                                },
                            );
                        }
                        break;
                    }
                }
            }
            if quiet && quiet_count < quiets_tried.len() {
                quiets_tried[quiet_count] = m;
                quiet_count += 1;
            } else if !quiet && noisy_count < noisy_tried.len() {
                noisy_tried[noisy_count] = m;
                noisy_count += 1;
            }
        }

        self.lists[ply] = picker.into_buffer();
        best_score = best_score.min(tb_ceiling);
        if excluded.is_some() {
            // Not stored: the result is for the node without one of its moves. If that move
            // was the only one, every other move "fails low".
            return if searched == 0 { alpha } else { best_score };
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if alpha > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if bound == Bound::Upper && self.feat.fail_low_bonus && (depth >= 3 || pv_node) {
            self.reward_prior_move(ply, depth);
        }
        // A score the bound says is on the far side of the evaluation teaches nothing;
        // neither do captures, whose gain the evaluation cannot see before they are made.
        if let Some(k) = keys {
            let teaches_nothing = best_move.is_some_and(|m| is_noisy(self.pos.board(), m))
                || is_decisive(best_score)
                || (bound == Bound::Lower && best_score <= static_eval)
                || (bound == Bound::Upper && best_score >= static_eval);
            if !teaches_nothing {
                self.correction.update(k, depth, static_eval, best_score);
            }
        }
        let entry = Entry {
            mv: best_move,
            score: best_score,
            eval: (!in_check).then_some(raw_eval),
            depth,
            bound,
        };
        self.tt.store(key, ply, entry);
        best_score
    }
}

/// The nodes `counts` holds for root move `m` (0 if none).
fn node_count(counts: &[(ChessMove, u64)], m: ChessMove) -> u64 {
    counts.iter().find(|(r, _)| *r == m).map_or(0, |&(_, n)| n)
}

fn add_node_count(counts: &mut Vec<(ChessMove, u64)>, m: ChessMove, nodes: u64) {
    match counts.iter_mut().find(|(r, _)| *r == m) {
        Some((_, n)) => *n += nodes,
        None => counts.push((m, nodes)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::select::default_network;
    use crate::search::memory::ThreadMemory;
    use crate::search::ordering::history_bonus;
    use crate::search::{Signals, Stopper};
    use chess::Color;

    /// Runs `f` on the unit tests' searcher of `pos`: the default network, fresh game
    /// tables, no limits, and `tt` left to the caller (who may fill it first or read it after).
    pub(super) fn with_searcher<R>(
        pos: &Position,
        tt: &TranspositionTable,
        f: impl FnOnce(&mut Searcher) -> R,
    ) -> R {
        let signals = Signals::new(false);
        let mut memory = ThreadMemory::default();
        let stopper = Stopper::new(&signals, None, None, true);
        let mut s = Searcher::new(pos.clone(), tt, stopper, default_network(), &mut memory);
        f(&mut s)
    }

    /// The reductions from the tunables' defaults are exactly the table the search had
    /// before them, `0.75 + ln(d)·ln(m)/2.25` truncated (0 for depth or move number 0).
    #[test]
    fn the_reductions_are_the_log_log_table() {
        for d in 0..64 {
            for m in 0..64 {
                let expected = if d == 0 || m == 0 {
                    0
                } else {
                    (0.75 + (d as f64).ln() * (m as f64).ln() / 2.25) as i32
                };
                assert_eq!(lmr(d, m as usize), expected, "depth {d}, move {m}");
            }
        }
        assert_eq!(lmr(200, 500), lmr(63, 63));
    }

    /// A lower bound of "mate in 11" from a shallower search is not a proof: reverse futility
    /// used to take it as the node's estimate and return it (a mate score from a depth-3
    /// search of king and pawn against king).
    #[test]
    fn a_stored_mate_bound_is_not_returned_by_reverse_futility() {
        let pos = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").expect("fen");
        let tt = TranspositionTable::new(1);
        let bound = Entry {
            mv: None,
            score: MATE - 21,
            eval: Some(150),
            depth: 1,
            bound: Bound::Lower,
        };
        tt.store(pos.key(), 0, bound);
        let score = with_searcher(&pos, &tt, |s| s.negamax(3, 99, 100, 0, true));
        assert!(!is_decisive(score), "{score}");
    }

    /// Near the fifty-move draw a stored score no longer ends the node: the search sees the
    /// draw the entry could not (king and rook against king, 99 plies without a capture:
    /// every move draws, which a stored win of 1,234 used to hide).
    #[test]
    fn a_table_score_does_not_end_a_node_near_the_fifty_move_draw() {
        let fen = "4k3/8/8/8/8/8/8/R3K3 w - - 99 120";
        let pos = Position::from_fen(fen).expect("fen");
        let tt = TranspositionTable::new(1);
        let win = Entry {
            mv: None,
            score: 1_234,
            eval: Some(600),
            depth: 20,
            bound: Bound::Exact,
        };
        tt.store(pos.key(), 0, win);
        let score = with_searcher(&pos, &tt, |s| s.negamax(6, 1_233, 1_234, 0, false));
        assert_eq!(score, DRAW, "{fen}");
        // Nor is it the node's estimate: below it, reverse futility returned the stored win.
        // (It may still return the static evaluation, as Stockfish's does at this count.)
        let score = with_searcher(&pos, &tt, |s| s.negamax(6, 0, 1, 0, false));
        assert_ne!(score, 1_234, "{fen}");
        // Earlier in the count the same entry still answers.
        let early = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 80 120").expect("fen");
        tt.store(early.key(), 0, win);
        let score = with_searcher(&early, &tt, |s| s.negamax(6, 1_233, 1_234, 0, false));
        assert_eq!(score, 1_234);
    }

    /// A node in check has no evaluation: its −∞ made every node two plies below it
    /// "improving". It now passes on the evaluation of its side's previous turn.
    #[test]
    fn improving_looks_past_nodes_in_check() {
        let pos = Position::startpos();
        let tt = TranspositionTable::new(1);
        with_searcher(&pos, &tt, |s| {
            assert!(!s.record_eval(0, 50));
            assert!(!s.record_eval(2, -INFINITY));
            assert_eq!(s.evals[2], 50);
            assert!(!s.record_eval(4, 40));
            assert!(s.record_eval(4, 60));
            // A run of checks carries it further.
            assert!(!s.record_eval(6, -INFINITY));
            assert!(s.record_eval(8, 61));
            assert!(!s.record_eval(8, 59));
            // Nothing known before (the root in check): not improving.
            assert!(!s.record_eval(0, -INFINITY));
            assert!(!s.record_eval(2, 500));
            assert!(!s.record_eval(1, 500));
        });
    }

    /// A table cutoff teaches the histories: a stored lower bound at or above beta rewards
    /// its quiet move (history, killer, counter-move), a stored upper bound at or below alpha
    /// punishes it; with the switch off, nothing is learnt.
    #[test]
    fn a_table_cutoff_teaches_the_histories() {
        let pos = Position::startpos();
        let g1f3 = pos
            .legal_moves()
            .find(|m| m.to_string() == "g1f3")
            .expect("legal");
        for (bound, score, learns) in [
            (Bound::Lower, 300, 1),
            (Bound::Upper, -300, -1),
            (Bound::Lower, 300, 0),
        ] {
            let tt = TranspositionTable::new(1);
            let entry = Entry {
                mv: Some(g1f3),
                score,
                eval: Some(20),
                depth: 10,
                bound,
            };
            tt.store(pos.key(), 1, entry);
            with_searcher(&pos, &tt, |s| {
                s.feat.tt_cutoff_history = learns != 0;
                assert_eq!(s.negamax(5, 99, 100, 1, true), score);
                let history = s.heur.history(Color::White, g1f3);
                assert_eq!(history.signum(), learns, "{bound:?}: {history}");
                let killer = s.heur.killers[1][0] == Some(g1f3);
                assert_eq!(killer, learns == 1, "{bound:?}");
            });
        }
    }

    /// Each node clears the killers two plies below it, the root included; with the switch
    /// off they stay.
    #[test]
    fn a_node_clears_the_killers_two_plies_down() {
        let pos = Position::startpos();
        let tt = TranspositionTable::new(1);
        let stale = pos.legal_moves().next();
        for clears in [true, false] {
            with_searcher(&pos, &tt, |s| {
                s.feat.killer_clearing = clears;
                s.heur.killers[2] = [stale, None];
                s.heur.killers[3] = [stale, None];
                let moves: Vec<ChessMove> = pos.legal_moves().collect();
                s.search_root(&moves, 1, -INFINITY, INFINITY);
                assert_eq!(s.heur.killers[2][0].is_none(), clears);
                let first = moves[0];
                s.make(0, first);
                s.negamax(1, -INFINITY, INFINITY, 1, false);
                s.pos.unmake();
                assert_eq!(s.heur.killers[3][0].is_none(), clears);
            });
        }
    }

    /// A node whose every move fails low rewards the opponent's quiet move into it in the
    /// continuation history of the move before that; not a capture into it, and not with
    /// the switch off.
    #[test]
    fn a_fail_low_rewards_the_quiet_move_into_the_node() {
        for (fen, text, rewarded) in [
            ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "e2e4", true),
            ("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5", false),
        ] {
            let pos = Position::from_fen(fen).expect("fen");
            let m = pos
                .legal_moves()
                .find(|m| m.to_string() == text)
                .expect("legal");
            let earlier = Some(5);
            let score_of = |on: bool| {
                let tt = TranspositionTable::new(1);
                with_searcher(&pos, &tt, |s| {
                    s.feat.fail_low_bonus = on;
                    // Razoring would end the node in quiescence, which rewards nothing.
                    s.feat.razoring = false;
                    s.piece_tos[0] = earlier;
                    s.make(0, m);
                    // Black is far from 5,000 whatever it plays: the node fails low.
                    let score = s.negamax(3, 4_999, 5_000, 1, false);
                    assert!(score < 4_999);
                    s.pos.unmake();
                    s.heur.quiet_score(pos.board(), m, &[earlier, None])
                })
            };
            let gain = score_of(true) - score_of(false);
            assert_eq!(gain > 0, rewarded, "{text} in {fen}: {gain}");
            if rewarded {
                assert_eq!(gain, history_bonus(3));
            }
        }
    }

    /// The time manager's best-move share counts the first MultiPV line's searches alone:
    /// the later lines search the other moves by design, which says nothing of doubt about
    /// the best one. Counted in, they cut the free queen's capture from 0.75 of the nodes to
    /// 0.02 at MultiPV 3, and the time manager thought longer as for a contested move. No
    /// other move wins the queen (a rook check first would, and the line order would then
    /// depend on the tree).
    #[test]
    fn later_multipv_lines_leave_the_best_move_share() {
        use crate::search::aspiration::search_line;
        let pos = Position::from_fen("4k3/8/8/3q4/8/2N5/PP6/4K3 w - - 0 1").expect("fen");
        let tt = TranspositionTable::new(4);
        with_searcher(&pos, &tt, |s| {
            let mut candidates: Vec<ChessMove> = pos.legal_moves().collect();
            let mut report = |_: &crate::search::Info| {};
            let mut share = None;
            for depth in 1..=8 {
                for pv_index in 0..3 {
                    let shown = candidates[pv_index];
                    let line = search_line(
                        s,
                        &candidates[pv_index..],
                        depth,
                        pv_index,
                        0,
                        shown,
                        &mut report,
                    );
                    let best = line
                        .ok()
                        .and_then(|l| l.pv.first().copied())
                        .expect("a line");
                    let at = candidates
                        .iter()
                        .position(|&m| m == best)
                        .expect("a candidate");
                    candidates[pv_index..=at].rotate_right(1);
                    if pv_index == 0 {
                        assert_eq!(best.to_string(), "c3d5", "depth {depth}");
                        share = Some(s.first_line_share(best));
                    } else {
                        // Nodes were searched, all below other moves, and the share held.
                        assert_eq!(
                            Some(s.first_line_share(candidates[0])),
                            share,
                            "depth {depth}"
                        );
                    }
                }
            }
            let capture = candidates[0];
            let all_lines: u64 = candidates.iter().map(|&m| s.root_move_nodes(m)).sum();
            let diluted = s.root_move_nodes(capture) as f64 / all_lines as f64;
            let share = share.expect("searched");
            assert!(
                share > diluted + 0.1,
                "first line {share:.2}, all lines {diluted:.2}"
            );
        });
    }

    /// Every switch of search bundle 7 changes the search: the same fixed-depth
    /// searches of three middlegames visit another number of nodes with it off.
    #[test]
    fn each_new_technique_changes_the_search() {
        let fens = [
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "2r3k1/pp3ppp/2n1b3/3p4/3P4/2PB1N2/P4PPP/R5K1 w - - 0 20",
        ];
        let nodes = |feat: Features| -> u64 {
            let tt = TranspositionTable::new(4);
            fens.iter()
                .map(|fen| {
                    let pos = Position::from_fen(fen).expect("fen");
                    with_searcher(&pos, &tt, |s| {
                        s.feat = feat;
                        let moves: Vec<ChessMove> = pos.legal_moves().collect();
                        for depth in 1..=7 {
                            s.search_root(&moves, depth, -INFINITY, INFINITY);
                        }
                        s.stop.nodes
                    })
                })
                .sum()
        };
        let all = nodes(Features::ALL);
        for name in [
            "qstt",
            "tthist",
            "killerclear",
            "failbonus",
            "razor",
            "safecheck",
            "lmrdepth",
            "upcoming",
        ] {
            assert_ne!(
                nodes(Features::without(name)),
                all,
                "{name} changes nothing"
            );
        }
    }

    /// A check extends unless it merely hands over the checking piece; a discovered check
    /// extends even when the piece that moved hangs; with `safecheck` off every check extends.
    #[test]
    fn only_safe_or_discovered_checks_extend() {
        for (fen, mv, safe_only, all) in [
            // The queen takes on f7 with check, and the king takes her.
            ("4k3/5p2/8/7Q/8/8/8/4K3 w - - 0 1", "h5f7", false, true),
            // A check from a square nothing attacks.
            ("4k3/5p2/8/7Q/8/8/8/4K3 w - - 0 1", "h5e5", true, true),
            // The bishop uncovers the rook's check and hangs to the c6 pawn.
            ("4k3/8/2p5/8/4B3/8/8/4R1K1 w - - 0 1", "e4d5", true, true),
            // No check at all.
            ("4k3/5p2/8/7Q/8/8/8/4K3 w - - 0 1", "h5h6", false, false),
        ] {
            let pos = Position::from_fen(fen).expect("fen");
            let m = pos
                .legal_moves()
                .find(|m| m.to_string() == mv)
                .expect("legal");
            let tt = TranspositionTable::new(1);
            for (feat, expected) in [
                (Features::ALL, safe_only),
                (Features::without("safecheck"), all),
                (Features::without("checkext"), false),
            ] {
                with_searcher(&pos, &tt, |s| {
                    s.feat = feat;
                    s.make(0, m);
                    assert_eq!(s.extends_check(m), expected, "{mv} in {fen}, {feat:?}");
                    s.pos.unmake();
                });
            }
        }
    }

    /// Razoring leaves a hopeless node to quiescence: with no capture to rescue it, the node
    /// fails low for fewer nodes than a search of its moves takes; with a capture that
    /// rescues it (the queen hangs to the rook), it is searched as before and fails high.
    #[test]
    fn razoring_fails_low_only_where_no_capture_rescues() {
        let run = |fen: &str, feat: Features, alpha: i32| -> (i32, u64) {
            let pos = Position::from_fen(fen).expect("fen");
            let tt = TranspositionTable::new(1);
            with_searcher(&pos, &tt, |s| {
                s.feat = feat;
                let score = s.negamax(2, alpha, alpha + 1, 0, false);
                (score, s.stop.nodes)
            })
        };
        let lost = "r3k3/8/8/3q4/8/8/PPP5/1K1N1B2 w - - 0 1";
        let (razored, razored_nodes) = run(lost, Features::ALL, 0);
        let (searched, searched_nodes) = run(lost, Features::without("razor"), 0);
        assert!(razored <= 0 && searched <= 0, "{razored} {searched}");
        assert!(
            razored_nodes < searched_nodes,
            "{razored_nodes} {searched_nodes}"
        );

        let rescued = "4k3/8/8/8/8/1q6/8/1R5K w - - 0 1";
        let pos = Position::from_fen(rescued).expect("fen");
        let tt = TranspositionTable::new(1);
        let eval = with_searcher(&pos, &tt, |s| s.evaluate(0));
        // Low enough for razoring at depth 2, and well below a rook up after the capture.
        let alpha = eval + 2 * params::razor_margin();
        let (score, _) = run(rescued, Features::ALL, alpha);
        assert!(score > alpha, "{score} against {alpha}");
    }

    /// Ply 2 asks whether its side improves on the evaluation two plies up, which for ply 2
    /// is the root's: the root writes its own (before, ply 2 compared with 0), and an
    /// unknown one (in check) as inner nodes in check do.
    #[test]
    fn the_root_writes_its_static_evaluation_for_ply_two() {
        for (fen, in_check) in [
            ("4k3/8/8/3q4/8/2N5/8/4K2R w K - 0 1", false),
            ("4k3/8/8/8/8/8/4q3/4K2R w K - 0 1", true),
        ] {
            let pos = Position::from_fen(fen).expect("fen");
            let tt = TranspositionTable::new(1);
            with_searcher(&pos, &tt, |s| {
                let expected = if in_check { -INFINITY } else { s.evaluate(0) };
                assert_ne!(expected, 0, "{fen}");
                let moves: Vec<ChessMove> = pos.legal_moves().collect();
                s.search_root(&moves, 1, -INFINITY, INFINITY);
                assert_eq!(s.evals[0], expected, "{fen}");
            });
        }
    }
}
