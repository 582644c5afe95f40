//! `sandglass perft`: count leaf nodes of the legal move tree, for one position or a suite.
//!
//! Perft exercises the move generator and our `Position` wrapper together; the suites in
//! `perft/` hold published counts. The last ply is bulk-counted (the length of the legal move
//! list), so the wrapper's cost shows only at interior nodes.

use crate::position::{unreachable_reason, Position};
use chess::MoveGen;
use std::time::Instant;

#[derive(clap::Args, Debug)]
pub struct PerftArgs {
    /// Depth to count (not used with --suite).
    pub depth: Option<u32>,
    /// Position to count from (default: the starting position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Print the count below each root move.
    #[arg(long)]
    pub divide: bool,
    /// Check every depth entry of an EPD perft suite (`FEN ;D1 20 ;D2 400`). The suite
    /// names its own positions and depths, so a DEPTH, --fen or --divide given with it
    /// would be silently ignored: clap refuses them instead.
    #[arg(long, conflicts_with_all = ONE_POSITION)]
    pub suite: Option<String>,
    /// With --suite: skip entries deeper than this.
    #[arg(long, requires = "suite", conflicts_with_all = ONE_POSITION)]
    pub max_depth: Option<u32>,
    /// With --suite: skip entries whose expected count is larger than this.
    #[arg(long, requires = "suite", conflicts_with_all = ONE_POSITION)]
    pub max_nodes: Option<u64>,
    /// Count with the chess crate's own perft loop instead, as a speed baseline. Standard
    /// chess only: the crate knows no Chess960 castling and would count a different tree.
    #[arg(long, conflicts_with = "chess960")]
    pub baseline: bool,
    /// Read every FEN as Chess960 (X-FEN `KQkq` means the outermost rooks). Without it, a FEN
    /// is Chess960 when its castling field names rook files (Shredder-FEN, `HAha`).
    #[arg(long)]
    pub chess960: bool,
}

/// The options of a one-position count, which a suite run would ignore. The suite's own
/// options conflict with them as well as requiring --suite: clap waives a `requires` when an
/// option that conflicts with the required one is given (`perft 1 --max-depth 2` ran).
const ONE_POSITION: [&str; 3] = ["depth", "fen", "divide"];

/// A FEN as perft reads it: Chess960 when asked or when its castling field says so.
fn read_fen(fen: &str, chess960: bool) -> Result<Position, crate::position::FenError> {
    if chess960 {
        Position::from_fen_in(fen, true)
    } else {
        Position::from_any_fen(fen)
    }
}

/// Leaf nodes at `depth` plies below the position.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    // The crate's generator and our Chess960 castling (empty in standard chess) side by side:
    // wrapping the crate's large generator in `Position::legal_moves` costs a copy per node,
    // which perft, and nothing else, would notice.
    let moves = MoveGen::new_legal(pos.board());
    let castles = pos.castles();
    if depth == 1 {
        return (moves.len() + castles.len()) as u64;
    }
    let mut nodes = 0;
    for m in moves {
        pos.make_move(m);
        nodes += perft(pos, depth - 1);
        pos.unmake();
    }
    for m in castles {
        pos.make_move(m);
        nodes += perft(pos, depth - 1);
        pos.unmake();
    }
    nodes
}

/// Why --baseline refuses a Chess960 position.
const BASELINE_IS_STANDARD: &str = "--baseline counts standard chess only (the chess crate knows no Chess960 castling), and this is a Chess960 position";

/// Leaf nodes at `depth`, by our perft or, with `baseline`, by the crate's loop. The crate's
/// loop takes `depth - 1` before it looks at the depth, so depth 0 would underflow and
/// recurse until the stack overflows: its one node is counted here.
fn count(pos: &mut Position, depth: u32, baseline: bool) -> u64 {
    if baseline && depth > 0 {
        MoveGen::movegen_perft_test(pos.board(), depth as usize) as u64
    } else {
        perft(pos, depth)
    }
}

/// Perft split by root move, sorted by move text; empty at depth 0, where the one node
/// counted is the root itself.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(String, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let mut out: Vec<(String, u64)> = pos
        .legal_moves()
        .map(|m| {
            pos.make_move(m);
            let n = perft(pos, depth - 1);
            pos.unmake();
            (pos.move_text(m), n)
        })
        .collect();
    out.sort();
    out
}

fn mnps(nodes: u64, seconds: f64) -> f64 {
    nodes as f64 / seconds.max(1e-9) / 1e6
}

pub fn run(args: &PerftArgs) -> Result<bool, String> {
    if let Some(path) = &args.suite {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        let report = run_suite(
            &text,
            SuiteOptions {
                max_depth: args.max_depth,
                max_nodes: args.max_nodes,
                baseline: args.baseline,
                chess960: args.chess960,
            },
            |line| println!("{line}"),
        );
        println!("{}", report.summary());
        return Ok(report.failures == 0 && report.invalid == 0);
    }
    let depth = args.depth.ok_or("perft needs a DEPTH (or --suite FILE)")?;
    let mut pos = match &args.fen {
        Some(fen) => read_fen(fen, args.chess960).map_err(|e| format!("bad FEN: {e}"))?,
        None => Position::startpos(),
    };
    if args.baseline && pos.is_chess960() {
        return Err(BASELINE_IS_STANDARD.to_string());
    }
    if let Some(reason) = unreachable_reason(pos.board()) {
        println!("note: unreachable position ({reason}); counting anyway");
    }
    let start = Instant::now();
    let nodes = if args.divide && depth > 0 {
        let split = divide(&mut pos, depth);
        for (m, n) in &split {
            println!("{m}: {n}");
        }
        split.iter().map(|(_, n)| n).sum()
    } else {
        count(&mut pos, depth, args.baseline)
    };
    let secs = start.elapsed().as_secs_f64();
    println!(
        "perft {depth}: {nodes} nodes in {:.3} s, {:.1} Mnps",
        secs,
        mnps(nodes, secs)
    );
    Ok(true)
}

/// What a suite run found.
#[derive(Debug, Default)]
pub struct SuiteReport {
    pub positions: usize,
    pub checks: usize,
    pub failures: usize,
    /// Lines refused: a bad depth entry, a FEN the validator refused, or a Chess960
    /// position under --baseline (counted as failures of the suite).
    pub invalid: usize,
    pub skipped_depth: usize,
    pub skipped_nodes: usize,
    /// Accepted positions that cannot arise in a game (reported, still checked).
    pub unreachable: usize,
    pub nodes: u64,
    pub seconds: f64,
}

impl SuiteReport {
    pub fn summary(&self) -> String {
        format!(
            "positions {}, checks {}, failures {}, invalid {}, skipped {} (depth > max: {}, nodes > max: {}), unreachable accepted {}, nodes {}, {:.1} Mnps",
            self.positions,
            self.checks,
            self.failures,
            self.invalid,
            self.skipped_depth + self.skipped_nodes,
            self.skipped_depth,
            self.skipped_nodes,
            self.unreachable,
            self.nodes,
            mnps(self.nodes, self.seconds)
        )
    }
}

/// One suite line: the FEN and its `(depth, expected)` entries.
type SuiteEntry = (String, Vec<(u32, u64)>);

/// Parse `FEN ;D1 20 ;D2 400` and `FEN; D1 20; D2 400` lines (CRLF, NULs and blank lines are
/// tolerated). An entry that is not `D<depth> <count>` makes the line an error.
pub fn parse_suite_line(line: &str) -> Option<Result<SuiteEntry, String>> {
    let line = line.trim_matches(|c: char| c.is_whitespace() || c == '\0');
    if line.is_empty() || line.starts_with('#') {
        return None;
    }
    let mut parts = line.split(';');
    let fen = parts.next().unwrap_or("").trim().to_string();
    let mut entries = Vec::new();
    for part in parts {
        let part = part.trim_matches(|c: char| c.is_whitespace() || c == '\0');
        if part.is_empty() {
            continue;
        }
        let mut words = part.split_whitespace();
        let parsed = match (words.next(), words.next(), words.next()) {
            (Some(d), Some(n), None) => d
                .strip_prefix('D')
                .and_then(|d| d.parse::<u32>().ok())
                .zip(n.parse::<u64>().ok()),
            _ => None,
        };
        match parsed {
            Some(entry) => entries.push(entry),
            None => return Some(Err(format!("bad depth entry {part:?}"))),
        }
    }
    Some(Ok((fen, entries)))
}

/// What a suite run checks and how.
#[derive(Clone, Copy, Debug, Default)]
pub struct SuiteOptions {
    /// Skip entries deeper than this.
    pub max_depth: Option<u32>,
    /// Skip entries whose expected count is larger than this.
    pub max_nodes: Option<u64>,
    /// Count with the crate's own perft loop (standard chess only: it knows no Chess960).
    pub baseline: bool,
    /// Read every FEN as Chess960 (see `read_fen`).
    pub chess960: bool,
}

/// Check a whole suite, reporting each problem through `out`.
pub fn run_suite(text: &str, options: SuiteOptions, mut out: impl FnMut(String)) -> SuiteReport {
    let SuiteOptions {
        max_depth,
        max_nodes,
        baseline,
        chess960,
    } = options;
    let mut report = SuiteReport::default();
    let start = Instant::now();
    for (i, line) in text.lines().enumerate() {
        let lineno = i + 1;
        let (fen, entries) = match parse_suite_line(line) {
            None => continue,
            Some(Ok(entry)) => entry,
            Some(Err(e)) => {
                out(format!("line {lineno}: {e}"));
                report.invalid += 1;
                continue;
            }
        };
        let mut pos = match read_fen(&fen, chess960) {
            Ok(pos) => pos,
            Err(e) => {
                out(format!("line {lineno}: FEN refused ({e}): {fen}"));
                report.invalid += 1;
                continue;
            }
        };
        if baseline && pos.is_chess960() {
            out(format!("line {lineno}: {BASELINE_IS_STANDARD}: {fen}"));
            report.invalid += 1;
            continue;
        }
        report.positions += 1;
        if let Some(reason) = unreachable_reason(pos.board()) {
            report.unreachable += 1;
            out(format!(
                "line {lineno}: note: accepted though unreachable in a game ({reason}); its move tree is well defined, so it is checked: {fen}"
            ));
        }
        for (depth, expected) in entries {
            if max_depth.is_some_and(|d| depth > d) {
                report.skipped_depth += 1;
                continue;
            }
            if max_nodes.is_some_and(|n| expected > n) {
                report.skipped_nodes += 1;
                continue;
            }
            let got = count(&mut pos, depth, baseline);
            report.checks += 1;
            report.nodes += got;
            if got != expected {
                report.failures += 1;
                out(format!(
                    "MISMATCH line {lineno}: {fen} depth {depth}: expected {expected}, got {got}"
                ));
            }
        }
    }
    report.seconds = start.elapsed().as_secs_f64();
    report
}
