//! The search: threads (Lazy SMP), the root's legal moves, and the result.
//!
//! `search` runs the main thread's iterative deepening ([`iterate`]) and the helper threads
//! (`helper_loop`), which share only the transposition table. How time bounds the search,
//! the soft stop between iterations and the hard stop inside the tree, is explained once, in
//! `crate::time`; [`stopper`] is the hard stop's code, [`iterate`] calls the soft stop.

pub mod alphabeta;
pub mod aspiration;
pub mod correction;
pub mod features;
pub mod iterate;
pub mod memory;
pub mod observed;
pub mod ordering;
pub mod params;
pub mod pv;
pub mod see;
pub mod stopper;
pub mod strength;
pub mod tablebase;

use crate::eval::nnue::Network;
use crate::position::Position;
use crate::score::MATE;
use crate::tablebase::Probing;
use crate::time::{adjust, Mode, SoftRule};
use crate::tt::TranspositionTable;
use alphabeta::Searcher;
use chess::ChessMove;
pub use memory::Memory;
pub use observed::{Completed, SoftCheck};
use ordering::MAX_PLY;
use std::sync::Arc;
use std::time::Duration;
pub use stopper::{IterationObserver, Observer, Signals, StopReason, Stopper};

/// What limits a search, and how. Time comes in as part of the mode, already decided by the
/// time manager.
#[derive(Clone, Debug)]
pub struct Limits {
    pub mode: Mode,
    /// Root moves to consider; empty = all.
    pub searchmoves: Vec<ChessMove>,
    pub multipv: usize,
    pub threads: usize,
    pub adjust: adjust::Adjustments,
    /// The soft-stop rule (`time::soft`).
    pub soft_stop: SoftRule,
    /// The network to evaluate with; None = the hand-written evaluation. The default is
    /// the engine's default evaluation (`eval::nnue::select::default_network`).
    pub network: Option<Arc<Network>>,
    /// Syzygy tables and how to probe them; None (the default) probes nothing.
    pub tablebases: Option<Probing>,
    /// A strength limit (`UCI_LimitStrength`, `Skill Level`); None (the default) plays at
    /// full strength. Everything it changes is in [`strength`].
    pub strength: Option<strength::Strength>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            mode: Mode::default(),
            searchmoves: Vec::new(),
            multipv: 1,
            threads: 1,
            adjust: adjust::Adjustments::default(),
            soft_stop: SoftRule::default(),
            network: crate::eval::nnue::select::default_network(),
            tablebases: None,
            strength: None,
        }
    }
}

/// Whether a reported score is exact or a bound from an aspiration failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreBound {
    Exact,
    Lower,
    Upper,
}

impl ScoreBound {
    /// How UCI writes the bound after a score (`score cp 50 lowerbound`), with its leading
    /// space; nothing for an exact score. `selfplay`'s PGN comments use the same words.
    pub fn uci_suffix(self) -> &'static str {
        match self {
            ScoreBound::Exact => "",
            ScoreBound::Lower => " lowerbound",
            ScoreBound::Upper => " upperbound",
        }
    }
}

/// One line of search output (the engine turns it into `info depth …`).
#[derive(Clone, Debug)]
pub struct Info {
    pub depth: u32,
    pub seldepth: usize,
    pub multipv: usize,
    pub score: i32,
    pub bound: ScoreBound,
    pub nodes: u64,
    pub time: Duration,
    pub hashfull: u32,
    /// Tablebase probes so far, when tables are in use (None: not reported).
    pub tbhits: Option<u64>,
    pub pv: Vec<ChessMove>,
}

/// The result of a search.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub best: Option<ChessMove>,
    pub ponder: Option<ChessMove>,
    pub score: i32,
    /// Whether `score` is exact, or only a bound: a move the unfinished iteration proved
    /// better than the last completed one's is played with the score that proved it, a lower
    /// bound (the other root moves were not all searched).
    pub bound: ScoreBound,
    /// Last completed depth.
    pub depth: u32,
    pub nodes: u64,
    pub reason: StopReason,
    /// The soft limit as finally scaled by the adjustments, and why.
    pub soft_ms: Option<u64>,
    pub adjust_reason: String,
    /// The best move's share of the nodes as the time manager last read it
    /// (`time::adjust::Progress::best_move_nodes`), kept so that tests can check what it is fed.
    pub best_move_nodes: Option<f64>,
    /// The soft-stop rule's reasoning when it ended the search (or armed the stop at
    /// `ponderhit`): the rule, its factor and the numbers it compared.
    pub stop_detail: String,
    /// The last soft-stop check's words whatever it decided, so that a search the hard
    /// limit or a `stop` ended still says what the rule last weighed (for `learned`: the
    /// probability and the gain).
    pub last_check: String,
}

/// Search `pos` under `limits` with tables that know nothing yet (as `bench` and the tools
/// that search unrelated positions want), calling `report` after each iteration (and on
/// aspiration failures). Runs `limits.threads` threads (Lazy SMP: helpers share only the
/// table).
pub fn search(
    pos: &Position,
    limits: &Limits,
    tt: &TranspositionTable,
    signals: &Signals,
    report: &mut dyn FnMut(&Info),
) -> Outcome {
    let mut memory = Memory::new();
    search_then(pos, limits, tt, &mut memory, signals, report, &mut |_| {})
}

/// [`search`], calling `answer` with the outcome as soon as the main thread is done, while
/// the helper threads may still be running: the `bestmove` must not wait until every helper
/// has noticed the stop and been joined (with more threads than cores a helper may not even
/// be scheduled for a while). The helpers are told to stop once `answer` returns, and are
/// joined before this function returns, so whoever waits for it (the next `go`, a resize of
/// the table) finds the table free. While an ended `go infinite` or `go ponder` waits in
/// `answer` for the GUI, the helpers keep searching, as the main thread would have.
/// Each thread learns into its own tables of `memory`, the game's (`memory.rs`).
pub fn search_then(
    pos: &Position,
    limits: &Limits,
    tt: &TranspositionTable,
    memory: &mut Memory,
    signals: &Signals,
    report: &mut dyn FnMut(&Info),
    answer: &mut dyn FnMut(&Outcome),
) -> Outcome {
    // A strength limit searches within its own budget (`strength.rs`).
    let limited;
    let limits = match limits.strength {
        Some(st) => {
            limited = st.limit(limits, pos.board());
            &limited
        }
        None => limits,
    };
    let mut root = pos.clone();
    root.trim_record();
    root.set_search_root();
    tt.new_search();

    let legal: Vec<ChessMove> = root.legal_moves().collect();
    let mut root_moves: Vec<ChessMove> = if limits.searchmoves.is_empty() {
        legal.clone()
    } else {
        legal
            .iter()
            .copied()
            .filter(|m| limits.searchmoves.contains(m))
            .collect()
    };
    if root_moves.is_empty() {
        root_moves = legal;
    }
    if root_moves.is_empty() {
        let outcome = Outcome {
            best: None,
            ponder: None,
            score: if root.in_check() { -MATE } else { 0 },
            bound: ScoreBound::Exact,
            depth: 0,
            nodes: 0,
            reason: StopReason::NoMoves,
            soft_ms: None,
            adjust_reason: String::new(),
            best_move_nodes: None,
            stop_detail: String::new(),
            last_check: String::new(),
        };
        answer(&outcome);
        return outcome;
    }

    // Root moves that do not hold the tables' result are not searched (`tablebase.rs`).
    let verdict = limits
        .tablebases
        .as_ref()
        .and_then(|p| tablebase::rank_root_moves(&root, &mut root_moves, p));
    if let Some(v) = verdict {
        signals
            .tbhits
            .fetch_add(v.probes, std::sync::atomic::Ordering::Relaxed);
    }

    // Node limits are exact only with one thread; `go nodes` therefore searches alone.
    let threads = if limits.mode.nodes.is_some() {
        1
    } else {
        limits.threads.max(1)
    };
    let hard = limits.mode.time.hard_ms().map(Duration::from_millis);
    let (main_memory, helper_memories) = memory
        .for_search(threads)
        .split_first_mut()
        .expect("at least one thread");
    std::thread::scope(|scope| {
        for (id, thread_memory) in (1..threads).zip(helper_memories.iter_mut()) {
            let root = root.clone();
            let moves = root_moves.clone();
            signals.helper_started();
            scope.spawn(move || {
                let stopper = Stopper::helper(signals);
                let mut searcher =
                    Searcher::new(root, tt, stopper, limits.network.clone(), thread_memory);
                searcher.mate_search = limits.mode.mate.is_some();
                searcher.use_tablebases(limits.tablebases.as_ref(), verdict);
                searcher.blur = limits.strength.and_then(|st| st.blur());
                helper_loop(&mut searcher, &moves, id);
                signals.helper_ended();
            });
        }
        let stopper = Stopper::new(signals, limits.mode.nodes, hard, true);
        let mut searcher = Searcher::new(
            root.clone(),
            tt,
            stopper,
            limits.network.clone(),
            main_memory,
        );
        searcher.mate_search = limits.mode.mate.is_some();
        searcher.use_tablebases(limits.tablebases.as_ref(), verdict);
        searcher.blur = limits.strength.and_then(|st| st.blur());
        let outcome = iterate::iterate(&mut searcher, root_moves, limits, report);
        if let Some(at) = limits
            .strength
            .and_then(|st| st.answer_at(&limits.mode, root.key()))
        {
            signals.wait_since_go(at);
        }
        answer(&outcome);
        signals.finish();
        outcome
    })
}

/// A helper thread: the same iterative deepening, staggered by one ply on odd threads so the
/// threads spread over depths, with no output. Its only product is table entries. Each
/// iteration searches through the same aspiration windows as the main thread's, around the
/// helper's own last score: a narrow window cuts the tree as much for a helper, which
/// searched the full window before and so reached each depth later than the main thread.
fn helper_loop(searcher: &mut Searcher, root_moves: &[ChessMove], id: usize) {
    let mut moves = root_moves.to_vec();
    searcher.order_root_moves_first(&mut moves);
    let mut depth = 1 + (id % 2) as u32;
    let mut guess = 0;
    while depth < MAX_PLY as u32 && !searcher.stop.is_stopped() {
        let Some(&shown) = moves.first() else {
            return;
        };
        let line = aspiration::search_line(searcher, &moves, depth, 0, guess, shown, &mut |_| {});
        let Ok(line) = line else {
            return;
        };
        guess = line.score;
        searcher.order_root_moves_by_nodes(&mut moves);
        iterate::order_root_moves(&mut moves, std::slice::from_ref(&line));
        depth += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The answer goes out before the helpers are joined: with three threads, both helpers
    /// are still running when `answer` is called (they stop only once it returns), and
    /// none is left when the search returns.
    #[test]
    fn the_answer_does_not_wait_for_the_helpers() {
        let tt = TranspositionTable::new(1);
        let signals = Signals::new(false);
        let limits = Limits {
            mode: crate::time::Mode::depth(3),
            threads: 3,
            ..Limits::default()
        };
        let mut running_at_answer = None;
        let outcome = search_then(
            &Position::startpos(),
            &limits,
            &tt,
            &mut Memory::new(),
            &signals,
            &mut |_| {},
            &mut |o| running_at_answer = Some((o.best, signals.helpers_running())),
        );
        assert_eq!(running_at_answer, Some((outcome.best, 2)));
        assert_eq!(signals.helpers_running(), 0);
    }

    /// Each thread learns into its own tables, which outlive the search; only `clear`
    /// forgets them.
    #[test]
    fn every_thread_keeps_its_own_tables_for_the_game() {
        let tt = TranspositionTable::new(1);
        let nodes = |memory: &mut Memory, threads: usize| {
            tt.clear();
            let signals = Signals::new(false);
            let limits = Limits {
                mode: crate::time::Mode::depth(6),
                threads,
                ..Limits::default()
            };
            let pos = Position::startpos();
            search_then(
                &pos,
                &limits,
                &tt,
                memory,
                &signals,
                &mut |_| {},
                &mut |_| {},
            )
            .nodes
        };
        let mut memory = Memory::new();
        let fresh = nodes(&mut memory, 1);
        assert_ne!(
            nodes(&mut memory, 1),
            fresh,
            "the second search learnt nothing"
        );
        memory.clear();
        assert_eq!(nodes(&mut memory, 1), fresh);
        nodes(&mut memory, 3);
        assert_eq!(memory.threads(), 3);
        memory.clear();
        assert_eq!(memory.threads(), 0);
    }

    /// Networks of every input and king-bucket layout through the search: castling both
    /// ways, kings crossing the middle and changing buckets, null moves and quiescence.
    /// The library's tests check every accumulator the search reads against one computed
    /// from the board (`nnue_stack.rs`), so a stale one fails here.
    #[test]
    fn every_network_layout_stays_in_step_with_the_board() {
        use crate::eval::nnue::tests::{layouts, random_network_with};
        for (inputs, king_buckets) in layouts() {
            let mut net = random_network_with(21, king_buckets);
            net.inputs = inputs;
            search_in_step(net);
        }
    }

    fn search_in_step(net: crate::eval::nnue::Network) {
        let limits = Limits {
            mode: crate::time::Mode::depth(6),
            network: Some(Arc::new(net)),
            ..Limits::default()
        };
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/1p6/3k4/4p3/3P4/4K3/6P1/8 w - - 0 1",
            "r3k2r/pppq1ppp/2n1bn2/3pp3/3PP3/2N1BN2/PPPQ1PPP/R3K2R b KQkq - 0 1",
        ];
        for fen in fens {
            let pos = Position::from_fen(fen).expect("test FEN");
            let tt = TranspositionTable::new(1);
            let outcome = search(&pos, &limits, &tt, &Signals::new(false), &mut |_| {});
            assert!(outcome.best.is_some_and(|m| pos.is_legal(m)), "{fen}");
        }
    }
}
