//! `sandglass probe --syzygy-path DIRS [FILE]`: the Syzygy tables' answer for each FEN or
//! EPD line of a file (or of standard input), one line each, in the order given. An EPD
//! line's operations (`c0 "win"; id "..."`) are skipped, as are its missing move counters.
//!
//! A line is `<wdl> <dtz>`: WDL from -2 (lost) to 2 (won) for the side to move, as if the
//! fifty-move counter were zero, and DTZ in python-chess's `probe_dtz` convention (plies to
//! the next capture or pawn move with best play, positive when the side to move wins, 0 in
//! a draw). `none` when no usable table covers the position (too many men, castling rights,
//! a missing table), `error <why>` when the line is no legal position. It exists so that an
//! independent prober can check the engine's answers position by position
//! (`tests/tablebase_python.rs`, against python-chess's `chess.syzygy`).

use crate::position::Position;
use crate::tablebase::{Probing, Root, Tablebases, MAX_MEN};
use std::io::{BufRead, Write};
use std::sync::Arc;

#[derive(clap::Args, Debug)]
pub struct ProbeArgs {
    /// The tables' folders, as the `SyzygyPath` option takes them.
    #[arg(long)]
    pub syzygy_path: String,
    /// A file of positions, one a line: FEN, or EPD (its first four fields are the position,
    /// the move counters taken as 0 1, its operations ignored); standard input when left out.
    pub file: Option<String>,
}

/// The tables of `path` for a tool, what was wrong with any file said on stderr; an error
/// when none is usable, which is what was wrong (one line, as for any bad argument).
fn open(path: &str) -> Result<Tablebases, String> {
    let opened = Tablebases::open(path)?;
    let Some(tables) = opened.tables else {
        return Err(if opened.problems.is_empty() {
            format!("no usable Syzygy tables in '{path}'")
        } else {
            opened.problems.join("; ")
        });
    };
    for problem in &opened.problems {
        eprintln!("sandglass: {problem}");
    }
    Ok(tables)
}

/// The tables of `path` as a tool's searches probe them: the UCI options' defaults.
pub fn open_for_search(path: &str) -> Result<Probing, String> {
    Ok(Probing {
        tables: Arc::new(open(path)?),
        depth: 1,
        limit: MAX_MEN,
        rule50: true,
    })
}

pub fn run(args: &ProbeArgs) -> Result<bool, String> {
    let tables = open(&args.syzygy_path)?;
    let input: Box<dyn BufRead> = match &args.file {
        Some(path) => Box::new(std::io::BufReader::new(
            std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?,
        )),
        None => Box::new(std::io::BufReader::new(std::io::stdin())),
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for line in input.lines() {
        let line = line.map_err(|e| format!("reading the positions: {e}"))?;
        if line.trim().is_empty() {
            continue;
        }
        let answer = match super::epd::position_text(&line) {
            None => "error fewer than four FEN fields".to_string(),
            Some(fen) => match Position::from_fen(&fen) {
                Ok(pos) => answer(&tables, &pos),
                Err(e) => format!("error {e}"),
            },
        };
        writeln!(out, "{answer}").map_err(|e| e.to_string())?;
    }
    out.flush().map_err(|e| e.to_string())?;
    Ok(true)
}

/// One position's line. The DTZ's sign does not depend on the counter (only whether a win
/// is cursed does); a mated or stalemated side has no plies to go.
fn answer(tables: &Tablebases, pos: &Position) -> String {
    let Some(wdl) = tables.probe_wdl(pos) else {
        return "none".to_string();
    };
    match tables.probe_root(pos) {
        Some(Root::Moves { dtz, .. }) => format!("{} {dtz}", wdl.value()),
        Some(Root::Mated) => format!("{} 0", wdl.value()),
        Some(Root::Stalemate) => format!("{} 0", wdl.value()),
        None => format!("{} none", wdl.value()),
    }
}
