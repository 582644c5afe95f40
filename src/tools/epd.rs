//! `sandglass epd FILE [--movetime MS | --nodes N] [--eval-file NET]`: run a test suite of
//! positions with known best moves.
//!
//! Each EPD line is a position (the four FEN fields) and operations: `bm` (best moves: solved
//! if the engine plays one of them), `am` (avoid moves: solved if it plays none), `id`, and for
//! the Strategic Test Suite `c0 "f5=10, Be5+=2"`, the points each move earns. The tool prints
//! every failure, the solved count and, when the suite has points, the points score.

use crate::eval::nnue::Network;
use crate::position::{san_to_move, Position};
use crate::search::{self, Limits, Signals};
use crate::time::Mode;
use crate::tt::TranspositionTable;
use chess::ChessMove;
use std::collections::BTreeMap;
use std::sync::Arc;

#[derive(clap::Args, Debug)]
pub struct EpdArgs {
    /// The EPD file.
    pub file: String,
    /// Thinking time per position, in milliseconds.
    #[arg(long, default_value_t = 1000)]
    pub movetime: u64,
    /// A fixed number of nodes per position instead: the same moves on any machine and under
    /// any load, so that a suite can screen a search change while the machine is busy.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Only the first N positions.
    #[arg(long)]
    pub limit: Option<usize>,
    /// Hash table size in MB.
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// Search with this network file instead of the embedded one (read as the `EvalFile`
    /// option reads it), so that one binary compares two networks on a suite.
    #[arg(long)]
    pub eval_file: Option<String>,
}

/// One test position.
#[derive(Debug)]
pub struct Test {
    pub id: String,
    pub fen: String,
    pub best: Vec<ChessMove>,
    pub avoid: Vec<ChessMove>,
    /// Points per move (STS `c0`), empty if the suite has none.
    pub points: Vec<(ChessMove, u32)>,
}

impl Test {
    /// Did the engine's move solve it?
    pub fn solved_by(&self, m: ChessMove) -> bool {
        (self.best.is_empty() || self.best.contains(&m)) && !self.avoid.contains(&m)
    }

    pub fn points_for(&self, m: ChessMove) -> u32 {
        self.points
            .iter()
            .find(|(pm, _)| *pm == m)
            .map_or(0, |(_, p)| *p)
    }
}

/// Split `bm Qd1+; id "BK.01"; c0 "a=1, b=2"` into (opcode, operand) pairs. Semicolons inside
/// quotes do not end an operation.
fn operations(text: &str) -> Vec<(String, String)> {
    let mut ops = Vec::new();
    let mut current = String::new();
    let mut quoted = false;
    for c in text.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                current.push(c);
            }
            ';' if !quoted => {
                ops.push(std::mem::take(&mut current));
            }
            _ => current.push(c),
        }
    }
    ops.push(current);
    ops.into_iter()
        .filter_map(|op| {
            let op = op.trim();
            let (code, rest) = op.split_once(char::is_whitespace)?;
            Some((code.to_string(), rest.trim().trim_matches('"').to_string()))
        })
        .collect()
}

/// The most points a `c0` entry may give one move. STS gives 0 to 10; the bound leaves room
/// for other scales while refusing what is surely a typo or garbage, whose points would
/// otherwise swamp the score (or, summed in 32 bits, wrap around it).
pub const MAX_POINTS: u32 = 1000;

/// The moves and points of a `c0` operand (`f5=10, Be5+=2`); Err names the first entry that
/// is not a legal move with points in 0..=[`MAX_POINTS`]. EPD's `c0` is a comment opcode that
/// STS borrowed for points, so an operand without any `=` is a plain comment: no points.
fn points(board: &chess::Board, operand: &str) -> Result<Vec<(ChessMove, u32)>, String> {
    if !operand.contains('=') {
        return Ok(Vec::new());
    }
    operand
        .split(',')
        .map(|item| {
            let item = item.trim();
            // The last `=`: a promotion's SAN has one of its own (`e8=Q=10`).
            let (san, pts) = item
                .rsplit_once('=')
                .ok_or_else(|| format!("c0 entry {item:?} is not MOVE=POINTS"))?;
            let m = san_to_move(board, san.trim())
                .ok_or_else(|| format!("c0 move {san:?} is not legal"))?;
            let p = pts
                .trim()
                .parse::<u32>()
                .ok()
                .filter(|p| *p <= MAX_POINTS)
                .ok_or_else(|| {
                    format!("c0 points {pts:?} are not a whole number 0 to {MAX_POINTS}")
                })?;
            Ok((m, p))
        })
        .collect()
}

/// The position of a FEN or an EPD line, as text the FEN parser reads: the four board
/// fields, and the move counters when the fifth and sixth fields are numbers. EPD puts
/// operations there instead, and without counters the FEN parser takes 0 and 1. None when
/// the line has fewer than four fields.
pub fn position_text(line: &str) -> Option<String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() < 4 {
        return None;
    }
    let counters =
        fields.len() >= 6 && fields[4].parse::<u32>().is_ok() && fields[5].parse::<u32>().is_ok();
    Some(fields[..if counters { 6 } else { 4 }].join(" "))
}

/// Parse one EPD line; Err explains what is wrong with it.
pub fn parse_line(line: &str) -> Result<Option<Test>, String> {
    let line = line.trim_matches(|c: char| c.is_whitespace() || c == '\0');
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let fields: Vec<&str> = line.splitn(5, char::is_whitespace).collect();
    if fields.len() < 4 {
        return Err("fewer than four FEN fields".into());
    }
    let fen = fields[..4].join(" ");
    let pos = Position::from_fen(&fen).map_err(|e| format!("bad FEN: {e}"))?;
    let ops = operations(fields.get(4).copied().unwrap_or(""));
    let board = pos.board();
    let moves = |list: &str| -> Result<Vec<ChessMove>, String> {
        list.split_whitespace()
            .map(|san| san_to_move(board, san).ok_or_else(|| format!("move {san:?} is not legal")))
            .collect()
    };
    let mut test = Test {
        id: String::new(),
        fen,
        best: Vec::new(),
        avoid: Vec::new(),
        points: Vec::new(),
    };
    for (code, operand) in ops {
        match code.as_str() {
            "bm" => test.best = moves(&operand)?,
            "am" => test.avoid = moves(&operand)?,
            "id" => test.id = operand,
            "c0" => test.points = points(board, &operand)?,
            _ => {}
        }
    }
    if test.best.is_empty() && test.avoid.is_empty() {
        return Err("no bm or am operation".into());
    }
    Ok(Some(test))
}

/// The move Sandglass plays in `mode` (a move time or a node count) with `network` (None:
/// the hand-written evaluation).
pub fn think(
    fen: &str,
    mode: Mode,
    network: Option<Arc<Network>>,
    tt: &TranspositionTable,
) -> Option<ChessMove> {
    let pos = Position::from_fen(fen).ok()?;
    tt.clear();
    let limits = Limits {
        mode,
        network,
        ..Limits::default()
    };
    let signals = Signals::new(false);
    search::search(&pos, &limits, tt, &signals, &mut |_| {}).best
}

pub fn run(args: &EpdArgs) -> Result<bool, String> {
    let text = std::fs::read_to_string(&args.file)
        .map_err(|e| format!("cannot read {}: {e}", args.file))?;
    let tt = TranspositionTable::try_new(args.hash).map_err(|e| format!("--hash: {e}"))?;
    let network = super::eval_file_network(args.eval_file.as_deref())?;
    let (mode, limit) = match args.nodes {
        Some(n) => (Mode::nodes(n), format!("{n} nodes")),
        None => (
            Mode::movetime(args.movetime),
            format!("{} ms", args.movetime),
        ),
    };
    // Points are summed in 64 bits: at most MAX_POINTS a line, no file can overflow them.
    let (mut total, mut solved, mut points, mut max_points) = (0, 0, 0u64, 0u64);
    // Per theme (the id without its number), for STS: (points, positions).
    let mut themes: BTreeMap<String, (u64, u64)> = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        if args.limit.is_some_and(|n| total >= n) {
            break;
        }
        let test = match parse_line(line) {
            Ok(Some(t)) => t,
            Ok(None) => continue,
            Err(e) => {
                println!("line {}: skipped: {e}", i + 1);
                continue;
            }
        };
        total += 1;
        let Some(played) = think(&test.fen, mode.clone(), network.clone(), &tt) else {
            println!("{}: no move", test.id);
            continue;
        };
        if test.solved_by(played) {
            solved += 1;
        } else {
            let expected: Vec<String> = test.best.iter().map(|m| m.to_string()).collect();
            let avoid: Vec<String> = test.avoid.iter().map(|m| m.to_string()).collect();
            println!(
                "FAIL {}: played {played}, bm [{}] am [{}]  {}",
                test.id,
                expected.join(" "),
                avoid.join(" "),
                test.fen
            );
        }
        if !test.points.is_empty() {
            let p = u64::from(test.points_for(played));
            let best = test.points.iter().map(|(_, p)| u64::from(*p)).max();
            points += p;
            max_points += best.unwrap_or(0);
            let theme = test
                .id
                .trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
            let entry = themes.entry(theme.to_string()).or_default();
            entry.0 += p;
            entry.1 += 1;
        }
    }
    if max_points > 0 {
        for (theme, (p, n)) in &themes {
            println!("  {theme}: {p} points in {n} positions");
        }
        println!(
            "STS score: {points} / {max_points} points ({:.1}%)",
            100.0 * points as f64 / max_points as f64
        );
    }
    if total == 0 {
        // "solved 0/0" read as a finished run; a suite with nothing to search is a mistake
        // (the wrong file, or every line refused above).
        return Err(format!("{}: no position to search", args.file));
    }
    println!(
        "solved {solved}/{total} ({:.1}%) at {limit} per position",
        100.0 * solved as f64 / total as f64,
    );
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_bm_am_id_and_points() {
        let t =
            parse_line("1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - bm Qd1+; id \"BK.01\";")
                .unwrap()
                .unwrap();
        assert_eq!(t.id, "BK.01");
        assert_eq!(t.best.len(), 1);
        assert_eq!(t.best[0].to_string(), "d6d1");
        let sts = parse_line("1kr5/3n4/q3p2p/p2n2p1/PppB1P2/5BP1/1P2Q2P/3R2K1 w - - bm f5; id \"STS(v1.0) Undermine.001\"; c0 \"f5=10, Be5+=2, Bf2=3, Bg4=2\";\r").unwrap().unwrap();
        assert_eq!(sts.points.len(), 4);
        assert_eq!(sts.points_for(sts.best[0]), 10);
        let am = parse_line("8/8/8/8/8/8/8/k3K2R w K - am O-O; id \"x\"")
            .unwrap()
            .unwrap();
        assert!(!am.solved_by(am.avoid[0]));
        assert!(parse_line("8/8/8/8/8/8/8/k3K2R w K - bm Qh5;").is_err());
        assert!(parse_line("   ").unwrap().is_none());
    }

    /// Points of 3,000,000,000 were taken, and two such lines summed in 32 bits printed
    /// `STS score: 1705032704 / 1705032704`; an entry that is not a legal move with points
    /// 0..=MAX_POINTS was dropped without a word.
    #[test]
    fn c0_points_are_legal_moves_with_bounded_points() {
        let line = |c0: &str| {
            parse_line(&format!(
                "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - bm Qd1+; id \"T.001\"; c0 \"{c0}\";"
            ))
        };
        for (bad, why) in [
            ("Qd1+=10, a6=3000000000", "c0 points"),
            ("Qd1+=10, a6=1001", "c0 points"),
            ("Qd1+=10, a6=-1", "c0 points"),
            ("Qd1+=10, a6=ten", "c0 points"),
            ("Qd1+=10, Qh8=3", "c0 move"),
            ("Qd1+=10, a6", "MOVE=POINTS"),
        ] {
            match line(bad) {
                Err(e) => assert!(e.contains(why), "{bad}: {e}"),
                Ok(t) => panic!("{bad}: accepted as {:?}", t.map(|t| t.points)),
            }
        }
        let t = line("Qd1+=10, a6=1000").unwrap().unwrap();
        assert_eq!(t.points.len(), 2);
        assert_eq!(t.points_for(t.best[0]), 10);
        // EPD's c0 is a comment opcode: text without points is no points.
        assert!(line("a fine comment").unwrap().unwrap().points.is_empty());
        // A promotion's SAN holds an `=` of its own.
        let promotion =
            parse_line("8/4P3/8/8/8/8/k7/4K3 w - - bm e8=Q; id \"P.001\"; c0 \"e8=Q=10, e8=R=7\";")
                .unwrap()
                .unwrap();
        assert_eq!(promotion.points_for(promotion.best[0]), 10);
        assert_eq!(promotion.points.iter().map(|p| p.1).sum::<u32>(), 17);
    }
}
