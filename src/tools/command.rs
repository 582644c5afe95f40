//! The command line: the tools' subcommands, or none for the UCI engine. It lives in the
//! library, not in `main.rs`, so that a test can parse the README's commands with the very
//! parser the binary uses (`tests/readme_commands.rs`).

use clap::{Parser, Subcommand};

/// Sandglass, a UCI chess engine. Without a subcommand it speaks UCI on stdin/stdout.
#[derive(Parser, Debug)]
#[command(name = "sandglass", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Tool>,
}

#[derive(Subcommand, Debug)]
pub enum Tool {
    /// Count move-tree leaves for a position, or check a perft suite.
    Perft(super::perft::PerftArgs),
    /// Search a fixed set of positions to a fixed depth; the last line is `<nodes> nodes <nps> nps`.
    Bench(super::bench::BenchArgs),
    /// Show how each time-management strategy would spend a clock over a whole game.
    Tm(super::tm::TmArgs),
    /// Run an EPD test suite (bm/am; STS points from c0) at a fixed time per position.
    Epd(super::epd::EpdArgs),
    /// Texel-tune the evaluation weights on positions from PGN games; `--spsa-params` prints
    /// the search's constants for SPSA instead.
    Tune(super::tune::TuneArgs),
    /// Play Sandglass against itself at fixed nodes per move and write the games as PGN.
    Selfplay(super::selfplay::SelfplayArgs),
    /// Self-play at fixed nodes, writing quiet positions with score and result for training.
    Datagen(super::datagen::DatagenArgs),
    /// Train the network on datagen shards and write it as a .nnue file.
    Train(super::train::TrainArgs),
    /// Probe Syzygy tables for each FEN or EPD line of a file: `<wdl> <dtz>` a line.
    Probe(super::probe::ProbeArgs),
    /// Play one game live in the browser, showing how each side spends its clock.
    Watch(super::watch::WatchArgs),
    /// Search positions from real games deeply and log each iteration, with whether and by
    /// how much going deeper changed the move (CSV, for learning a soft-stop rule).
    Searchlog(super::searchlog::SearchlogArgs),
}

impl Tool {
    /// Runs the tool: `Ok(false)` when it ran and found something wrong (a failed suite),
    /// `Err` when it could not run.
    pub fn run(&self) -> Result<bool, String> {
        match self {
            Tool::Perft(args) => super::perft::run(args),
            Tool::Bench(args) => super::bench::run(args),
            Tool::Tm(args) => super::tm::run(args).map(|()| true),
            Tool::Epd(args) => super::epd::run(args),
            Tool::Tune(args) => super::tune::run(args).map(|()| true),
            Tool::Selfplay(args) => super::selfplay::run(args),
            Tool::Datagen(args) => super::datagen::run(args),
            Tool::Train(args) => super::train::run(args).map(|()| true),
            Tool::Probe(args) => super::probe::run(args),
            Tool::Watch(args) => super::watch::run(args),
            Tool::Searchlog(args) => super::searchlog::run(args),
        }
    }
}
