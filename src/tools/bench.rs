//! `sandglass bench [DEPTH]`: a fixed search over a fixed, varied set of positions.
//!
//! Every position is searched to the same depth with one thread, a fresh 16 MB table and no
//! time limit, so the node count depends only on the code: it is identical run to run and
//! machine to machine, and a change that alters it is a change to search or evaluation.
//! The last line, `<nodes> nodes <nps> nps`, is what OpenBench reads; the line before it
//! gives the time the searches took.
//!
//! `--threads N` searches with Lazy SMP instead, which makes the node count vary from run
//! to run: what it measures is the time to reach the depth, to set beside one thread's
//! (whether more threads reach a depth sooner, issue 87).

use crate::eval::nnue::Network;
use crate::position::Position;
use crate::search::{self, Limits, Signals};
use crate::tablebase::Probing;
use crate::time::Mode;
use crate::tt::TranspositionTable;
use std::sync::Arc;
use std::time::{Duration, Instant};

pub const DEFAULT_DEPTH: u32 = 9;

/// The Bratko-Kopec test (24), every hundredth STS position (15), eight from Win At Chess,
/// and three endgames: openings, middlegames, tactics and endgames.
pub const POSITIONS: [&str; 50] = [
    "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1",
    "3r1k2/4npp1/1ppr3p/p6P/P2PPPP1/1NR5/5K2/2R5 w - - 0 1",
    "2q1rr1k/3bbnnp/p2p1pp1/2pPp3/PpP1P1P1/1P2BNNP/2BQ1PRK/7R b - - 0 1",
    "rnbqkb1r/p3pppp/1p6/2ppP3/3N4/2P5/PPP1QPPP/R1B1KB1R w KQkq - 0 1",
    "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - 0 1",
    "2r3k1/pppR1pp1/4p3/4P1P1/5P2/1P4K1/P1P5/8 w - - 0 1",
    "1nk1r1r1/pp2n1pp/4p3/q2pPp1N/b1pP1P2/B1P2R2/2P1B1PP/R2Q2K1 w - - 0 1",
    "4b3/p3kp2/6p1/3pP2p/2pP1P2/4K1P1/P3N2P/8 w - - 0 1",
    "2kr1bnr/pbpq4/2n1pp2/3p3p/3P1P1B/2N2N1Q/PPP3PP/2KR1B1R w - - 0 1",
    "3rr1k1/pp3pp1/1qn2np1/8/3p4/PP1R1P2/2P1NQPP/R1B3K1 b - - 0 1",
    "2r1nrk1/p2q1ppp/bp1p4/n1pPp3/P1P1P3/2PBB1N1/4QPPP/R4RK1 w - - 0 1",
    "r3r1k1/ppqb1ppp/8/4p1NQ/8/2P5/PP3PPP/R3R1K1 b - - 0 1",
    "r2q1rk1/4bppp/p2p4/2pP4/3pP3/3Q4/PP1B1PPP/R3R1K1 w - - 0 1",
    "rnb2r1k/pp2p2p/2pp2p1/q2P1p2/8/1Pb2NP1/PB2PPBP/R2Q1RK1 w - - 0 1",
    "2r3k1/1p2q1pp/2b1pr2/p1pp4/6Q1/1P1PP1R1/P1PN2PP/5RK1 w - - 0 1",
    "r1bqkb1r/4npp1/p1p4p/1p1pP1B1/8/1B6/PPPN1PPP/R2Q1RK1 w kq - 0 1",
    "r2q1rk1/1ppnbppp/p2p1nb1/3Pp3/2P1P1P1/2N2N1P/PPB1QP2/R1B2RK1 b - - 0 1",
    "r1bq1rk1/pp2ppbp/2np2p1/2n5/P3PP2/N1P2N2/1PB3PP/R1B1QRK1 b - - 0 1",
    "3rr3/2pq2pk/p2p1pnp/8/2QBPP2/1P6/P5PP/4RRK1 b - - 0 1",
    "r4k2/pb2bp1r/1p1qp2p/3pNp2/3P1P2/2N3P1/PPP1Q2P/2KRR3 w - - 0 1",
    "3rn2k/ppb2rpp/2ppqp2/5N2/2P1P3/1P5Q/PB3PPP/3RR1K1 w - - 0 1",
    "2r2rk1/1bqnbpp1/1p1ppn1p/pP6/N1P1P3/P2B1N1P/1B2QPP1/R2R2K1 b - - 0 1",
    "r1bqk2r/pp2bppp/2p5/3pP3/P2Q1P2/2N1B3/1PP3PP/R4RK1 b kq - 0 1",
    "r2qnrnk/p2b2b1/1p1p2pp/2pPpp2/1PP1P3/PRNBB3/3QNPPP/5RK1 w - - 0 1",
    "1kr5/3n4/q3p2p/p2n2p1/PppB1P2/5BP1/1P2Q2P/3R2K1 w - - 0 1",
    "1b1r4/3rkp2/p3p2p/4q3/P5P1/2RBP3/P1Q4P/1R3K2 b - - 0 1",
    "1k2r2r/1bq2p2/pn4p1/3pP3/pbpN1P1p/4QN1B/1P4PP/2RR3K b - - 0 1",
    "6k1/p2pp2p/bp4n1/q1r4R/1RP1P3/2P2B2/P2Q2P1/4K3 w - - 0 1",
    "1b3rk1/5ppp/2p2rq1/1p1n4/3P2P1/1BPbBP2/1P1N2QP/R3R1K1 w - - 0 1",
    "1k1r1r2/p1p5/Bpnbb3/3p2pp/3P4/P1N1NPP1/1PP4P/2KR1R2 w - - 0 1",
    "1R3b2/r4pk1/2qpn1p1/P1p1p2p/2P1P2P/5PP1/6K1/1Q1BB3 w - - 0 1",
    "1qr2k1r/pb3pp1/1b2p2p/3nP3/1p6/3B2QN/PP3PPP/R1BR2K1 b - - 0 1",
    "1b2r1k1/1bqn1pp1/p1p4p/Pp2p3/1P2B3/2B1PN1P/5PP1/1Q1R2K1 b - - 0 1",
    "1b1qrr2/1p4pk/1np4p/p3Np1B/Pn1P4/R1N3B1/1Pb2PPP/2Q1R1K1 b - - 0 1",
    "1k2r3/1p1bP3/2p2p1Q/Ppb5/4Rp1P/2q2N1P/5PB1/6K1 b - - 0 1",
    "1k1r4/4bp2/p1q1pnr1/6B1/NppP3P/6P1/1P3P2/2RQR1K1 w - - 0 1",
    "1k1r4/1p3p2/p1bq1p1p/4p3/3r1P1Q/P5P1/1PP1B2P/K2RR3 b - - 0 1",
    "1k5r/1p1b4/4pp1r/3p4/q4PQ1/3B1R1P/2P1R1PK/8 w - - 0 1",
    "rnb1r1k1/pp2bppp/2p2n2/8/1q1Q1B2/2N2NPP/PP2PPB1/R4RK1 w - - 0 1",
    "5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - 0 1",
    "1k6/5RP1/1P6/1K6/6r1/8/8/8 w - - 0 1",
    "r4rk1/1bR1bppp/4pn2/1p2N3/1P6/P3P3/4BPPP/3R2K1 b - - 0 1",
    "6k1/5p1p/2bP2pb/4p3/2P5/1p1pNPPP/1P1Q1BK1/1q6 b - - 0 1",
    "3r3k/3r1P1p/pp1Nn3/2pp4/7Q/6R1/Pq4PP/5RK1 w - - 0 1",
    "2b2r1k/4q2p/3p2pQ/2pBp3/8/6P1/1PP2P1P/R5K1 w - - 0 1",
    "2rq1rk1/pp3ppp/2n2b2/4NR2/3P4/PB5Q/1P4PP/3R2K1 w - - 0 1",
    "2R5/2R4p/5p1k/6n1/8/1P2QPPq/r7/6K1 w - - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/8/4k3/8/2p5/8/B2K4/8 w - - 0 1",
];

#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Depth of each search.
    #[arg(default_value_t = DEFAULT_DEPTH)]
    pub depth: u32,
    /// Search with this network file instead of the embedded one (read as the `EvalFile`
    /// option reads it): a candidate's speed, before it is embedded. The node count is then
    /// the candidate's, not the one commits record.
    #[arg(long)]
    pub eval_file: Option<String>,
    /// Probe the Syzygy tables in these folders (as the `SyzygyPath` option takes them),
    /// with the options' defaults: what probing costs in speed. The node count is then not
    /// the one commits record (the endgames reach the tables).
    #[arg(long)]
    pub syzygy_path: Option<String>,
    /// Search with this many threads (1 to 64, as the `Threads` option): the time to reach
    /// the depth with Lazy SMP. The node count then varies from run to run and is not the
    /// one commits record.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub threads: u16,
}

/// Total nodes over all positions at `depth` with `network` (None: the hand-written
/// evaluation), and the time spent searching (clearing the table between positions is not
/// counted).
pub fn bench(
    depth: u32,
    threads: usize,
    network: Option<Arc<Network>>,
    tablebases: Option<Probing>,
    mut per_position: impl FnMut(usize, &str, u64),
) -> (u64, Duration) {
    let mut total = 0;
    let mut searching = Duration::ZERO;
    let tt = TranspositionTable::new(16);
    for (i, fen) in POSITIONS.iter().enumerate() {
        let pos = match Position::from_fen(fen) {
            Ok(p) => p,
            Err(_) => continue,
        };
        tt.clear();
        let start = Instant::now();
        let signals = Signals::new(false);
        let limits = Limits {
            mode: Mode::depth(depth),
            threads,
            network: network.clone(),
            tablebases: tablebases.clone(),
            ..Limits::default()
        };
        let outcome = search::search(&pos, &limits, &tt, &signals, &mut |_| {});
        searching += start.elapsed();
        per_position(i, fen, outcome.nodes);
        total += outcome.nodes;
    }
    (total, searching)
}

pub fn run(args: &BenchArgs) -> Result<bool, String> {
    let depth = args.depth.clamp(1, 64);
    let network = super::eval_file_network(args.eval_file.as_deref())?;
    let tablebases = match &args.syzygy_path {
        Some(path) => Some(super::probe::open_for_search(path)?),
        None => None,
    };
    let threads = usize::from(args.threads);
    let (nodes, time) = bench(depth, threads, network, tablebases, |i, fen, n| {
        println!("{:>2} {n:>10} {fen}", i + 1)
    });
    let ms = time.as_millis().max(1) as u64;
    println!("depth {depth}, {threads} thread(s): {ms} ms searching");
    println!("{} nodes {} nps", nodes, nodes * 1000 / ms);
    Ok(true)
}
