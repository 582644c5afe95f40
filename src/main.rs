use clap::{Parser, Subcommand};
use sandglass::tools;
use std::process::ExitCode;

/// Sandglass, a UCI chess engine. Without a subcommand it speaks UCI on stdin/stdout.
#[derive(Parser, Debug)]
#[command(name = "sandglass", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Tool>,
}

#[derive(Subcommand, Debug)]
enum Tool {
    /// Count move-tree leaves for a position, or check a perft suite.
    Perft(tools::perft::PerftArgs),
    /// Search a fixed set of positions to a fixed depth; the last line is `<nodes> nodes <nps> nps`.
    Bench(tools::bench::BenchArgs),
    /// Show how each time-management strategy would spend a clock over a whole game.
    Tm(tools::tm::TmArgs),
    /// Run an EPD test suite (bm/am; STS points from c0) at a fixed time per position.
    Epd(tools::epd::EpdArgs),
    /// Texel-tune the evaluation weights on positions from PGN games.
    Tune(tools::tune::TuneArgs),
    /// Play Sandglass against itself at fixed nodes per move and write the games as PGN.
    Selfplay(tools::selfplay::SelfplayArgs),
    /// Self-play at fixed nodes, writing quiet positions with score and result for training.
    Datagen(tools::datagen::DatagenArgs),
    /// Train the network on datagen shards and write it as a .nnue file.
    Train(tools::train::TrainArgs),
}

fn main() -> ExitCode {
    end_quietly_on_a_closed_pipe(true);
    let cli = Cli::parse();
    if cli.command.is_some() {
        // The engine says it at `uci`, on stdout where its GUI reads.
        if let Some(ablation) = sandglass::search::features::Features::requested() {
            eprintln!("sandglass: {}", ablation.describe());
        }
    }
    let result = match cli.command {
        None => {
            // The engine notices a closed stdout itself and stops cleanly (`uci::output`).
            end_quietly_on_a_closed_pipe(false);
            sandglass::uci::engine::run();
            Ok(true)
        }
        Some(Tool::Perft(args)) => tools::perft::run(&args),
        Some(Tool::Bench(args)) => tools::bench::run(&args),
        Some(Tool::Tm(args)) => tools::tm::run(&args).map(|()| true),
        Some(Tool::Epd(args)) => tools::epd::run(&args),
        Some(Tool::Tune(args)) => tools::tune::run(&args).map(|()| true),
        Some(Tool::Selfplay(args)) => tools::selfplay::run(&args),
        Some(Tool::Datagen(args)) => tools::datagen::run(&args),
        Some(Tool::Train(args)) => tools::train::run(&args).map(|()| true),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("sandglass: {e}");
            ExitCode::from(2)
        }
    }
}

/// Whether writing to a closed pipe ends the process at once, as it ends `cat` or `grep`
/// (`sandglass tm | head`). Rust ignores SIGPIPE, so that every `println!` to a closed pipe
/// panics with "Broken pipe" and a backtrace; the tools print with `println!`, so they get the
/// default back (what rustc's `-Zon-broken-pipe=kill` does). The UCI engine keeps it ignored,
/// sees the write fail, and quits as after `quit`.
fn end_quietly_on_a_closed_pipe(on: bool) {
    #[cfg(unix)]
    {
        let action = if on { libc::SIG_DFL } else { libc::SIG_IGN };
        // SAFETY: setting a signal's disposition to a default or ignore action, before any
        // other thread runs, touches no memory of the program.
        unsafe {
            libc::signal(libc::SIGPIPE, action);
        }
    }
    #[cfg(not(unix))]
    let _ = on;
}
