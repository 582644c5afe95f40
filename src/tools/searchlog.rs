//! `sandglass searchlog`: a log of deep searches, one line per completed iteration, from
//! which a soft-stop rule can be learnt (issue 88: record, fit, stop, tune).
//!
//! Every soft-stop rule Sandglass carries guesses one thing: will another iteration change
//! the move played, and by how much? This tool measures it on the engine's own searches. Each
//! position of a sample from real games (an EPD, or the positions of a PGN's games at which a
//! move was played; see `positions`) is searched deeper than play would, by nodes or by a
//! move time, and each completed iteration d gives one line:
//!
//! * what the rules read after iteration d: the depth, the time and nodes so far, the move
//!   and score, the score drop the adjustments read and the trend over three iterations,
//!   best-move changes (decayed as the adjustments read them, and counted), the stable run,
//!   the best move's node share, the adjustments' combined factor, the number of legal moves,
//!   the game phase and men on the board, and the end of the next depth as the `2x` rule
//!   predicts it (`elapsed + 2 × last iteration`) and as `predicted` does;
//! * what actually came next: when the next depth ended and after how many nodes (empty for
//!   the last, which the limit cut);
//! * the outcome, filled in when the search has ended. The final move is the best move of the
//!   last completed iteration, at `final_depth`: an exact score at a known depth, where a move
//!   proved by the cut iteration would have only a bound. `changed` is 1 when iteration d's
//!   move is not the final move, and `gain_cp` what the change is worth: the final move's
//!   value minus iteration d's move's value, each move searched alone (`searchmoves`) to
//!   `final_depth` on the table the deep search left, so both come from one kind of search at
//!   one depth, with everything the deep search learnt. It is 0 when the move did not change.
//!   It can be slightly negative: two searches of a shared table may disagree by a few
//!   centipawns, and a fit should read such a gain as none. Scores are centipawns from the
//!   side to move; beyond ±31,000 they are mates (`crate::score`), so clip before fitting.
//!
//! The last line of a position (d = `final_depth`) has `changed` 0 by definition; it is kept
//! because its features are real, but a fit asking "does the next iteration change the move"
//! has no answer for it.
//!
//! The log is CSV with a header line rather than JSON lines: every line has the same thirty
//! flat fields, mostly numbers, so a header names them once where JSON would repeat every
//! name on every line (about three times the size at half a million lines), and every tool
//! a fit might use (Python's `csv`, pandas, numpy, a spreadsheet) reads CSV without a
//! parser written for it. No field holds a comma: moves are UCI text, FENs have none.
//!
//! Searches by nodes are the ones to learn from: with one thread and a fresh table, a
//! position gives the same lines on any machine and under any load, apart from the times.
//! Under `--movetime` the depth reached depends on the machine and its load, and so does the
//! whole line. Each position is searched by one thread, as the engine plays with `Threads`
//! 1: the node share is the main thread's. `--threads` searches that many positions at once,
//! each with a table of its own, and still writes them in the sample's order.

pub mod positions;
pub mod record;

use crate::time::Mode;
use crate::tt::TranspositionTable;
use positions::Candidate;
use record::Searching;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

/// Arguments of `sandglass searchlog`.
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("search_limit").required(true).args(["nodes", "movetime"])))]
pub struct SearchlogArgs {
    /// Positions: an EPD or FEN file (one a line), or a PGN file (the positions of its games
    /// at which a move was played; `.pgn`, or a file that starts with a tag).
    #[arg(long, value_name = "FILE")]
    pub positions: PathBuf,
    /// Nodes of each deep search (reproducible: one thread, a fresh table).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// A move time for each deep search instead, in milliseconds.
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    pub movetime: Option<u64>,
    /// Search at most this many positions of the sample (default: all).
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// The sample's seed: which positions, in which order (see `--limit`).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Leave out the sample's first N positions, which an earlier part searched: with the
    /// same seed, `--skip 6000 --limit 12000` searches positions 6,000 to 11,999, numbered so,
    /// and the parts' logs pool into one.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub skip: usize,
    /// The log, CSV with a header; stdout if not given.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Positions searched at once, each by one thread with a table of its own (1 to 256).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: u16,
    /// Transposition table of each search, in MB.
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u64).range(1..=32768))]
    pub hash: u64,
    /// Search with this network file instead of the embedded one.
    #[arg(long, value_name = "FILE")]
    pub eval_file: Option<String>,
}

pub fn run(args: &SearchlogArgs) -> Result<bool, String> {
    let mode = match (args.nodes, args.movetime) {
        (Some(n), _) => Mode::nodes(n),
        (None, Some(ms)) => Mode::movetime(ms),
        (None, None) => return Err("give --nodes N or --movetime MS".to_string()),
    };
    let how = Searching {
        mode,
        network: super::eval_file_network(args.eval_file.as_deref())?,
    };
    let sample = positions::read(&args.positions, args.limit, args.seed)?;
    let (read, over) = (sample.read, sample.over);
    let mut candidates = sample.into_positions();
    if args.skip > 0 && args.skip >= candidates.len() {
        let n = candidates.len();
        let plural = if n == 1 { "" } else { "s" };
        return Err(format!(
            "--skip {}: the sample has only {n} position{plural}",
            args.skip
        ));
    }
    let skipped = args.skip;
    candidates.drain(..skipped);
    let threads = usize::from(args.threads).min(candidates.len()).max(1);
    let hash = usize::try_from(args.hash).map_err(|_| "--hash: too large".to_string())?;
    let tables = (0..threads)
        .map(|_| TranspositionTable::try_new(hash).map_err(|e| format!("--hash: {e}")))
        .collect::<Result<Vec<_>, String>>()?;
    let mut out: Box<dyn Write> = match &args.out {
        Some(path) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(path)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?,
        )),
        None => Box::new(std::io::stdout().lock()),
    };
    let write_err = |e: std::io::Error| format!("cannot write the log: {e}");
    writeln!(out, "{}", record::COLUMNS.join(",")).map_err(write_err)?;

    let started = Instant::now();
    let lines = search_all(&candidates, skipped, &how, &tables, &mut |batch| {
        for line in batch {
            writeln!(out, "{line}").map_err(write_err)?;
        }
        // Whole positions reach the file: a log cut short is still a log.
        out.flush().map_err(write_err)
    })?;
    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "searchlog: {} positions ({read} read, {over} without a move, duplicates left out, {skipped} skipped), {lines} iterations in {secs:.1} s, {:.1} iterations a second",
        candidates.len(),
        lines as f64 / secs.max(1e-9),
    );
    Ok(true)
}

/// Searches every candidate on `tables.len()` threads, handing each position's lines to
/// `write` in the sample's order; returns the number of lines. The log numbers the positions
/// from `first`, their place in the whole sample.
fn search_all(
    candidates: &[Candidate],
    first: usize,
    how: &Searching,
    tables: &[TranspositionTable],
    write: &mut dyn FnMut(Vec<String>) -> Result<(), String>,
) -> Result<usize, String> {
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<(usize, Result<Vec<String>, String>)>();
    std::thread::scope(|scope| {
        for tt in tables {
            let tx = tx.clone();
            let next = &next;
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(c) = candidates.get(i) else {
                    return;
                };
                let logged = record::log_position(first + i, c, how, tt);
                if tx.send((i, logged)).is_err() {
                    return;
                }
            });
        }
        drop(tx);
        let mut waiting = std::collections::BTreeMap::new();
        let (mut due, mut lines) = (0, 0);
        for (i, result) in rx {
            waiting.insert(i, result);
            while let Some(result) = waiting.remove(&due) {
                let batch = match result {
                    Ok(batch) => batch,
                    Err(e) => {
                        next.store(candidates.len(), Ordering::Relaxed);
                        return Err(e);
                    }
                };
                lines += batch.len();
                if let Err(e) = write(batch) {
                    next.store(candidates.len(), Ordering::Relaxed);
                    return Err(e);
                }
                due += 1;
            }
        }
        Ok(lines)
    })
}
