use clap::Parser;
use sandglass::tools::command::{Cli, Tool};
use std::process::ExitCode;

fn main() -> ExitCode {
    end_quietly_on_a_closed_pipe(true);
    let cli = Cli::parse();
    if matches!(cli.command, Some(Tool::Watch(_))) {
        // `watch` writes to another program's input: a program that ended at its start or
        // mid-game must be told apart in one clear line (exit code 2, or the game scored),
        // not end `watch` unsaved and without a word.
        end_quietly_on_a_closed_pipe(false);
    }
    if cli.command.is_some() {
        // The engine says it at `uci`, on stdout where its GUI reads.
        if let Some(ablation) = sandglass::search::features::Features::requested() {
            eprintln!("sandglass: {}", ablation.describe());
        }
    }
    let result = match &cli.command {
        None => {
            // The engine notices a closed stdout itself and stops cleanly (`uci::output`).
            end_quietly_on_a_closed_pipe(false);
            sandglass::uci::engine::run();
            Ok(true)
        }
        Some(tool) => tool.run(),
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
