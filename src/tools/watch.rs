//! `sandglass watch`: one game, live in the browser, spending its clock move by move.
//!
//! ```text
//! sandglass watch --tc 60+0.6 --white expositor --black classic
//! sandglass watch --tc 40/30 --black-cmd /usr/games/stockfish --fen "…"
//! ```
//!
//! It plays one game (Sandglass against Sandglass with two strategies or settings, or
//! against another UCI program) and serves a page on 127.0.0.1 that shows, for the move being
//! thought, the time manager's plan and its soft and hard limits as a bar that the elapsed
//! time grows into, each depth as it completes, and after each depth the soft stop's check in
//! `TimeLog`'s words; for the move just played, why the search stopped and the adjustments;
//! below, the game so far as `tm --pgn` draws it. At the end it writes the same page, static,
//! and the PGN with the clock after every move, which `tm --pgn` replays to the same
//! pictures.
//!
//! # How the decisions reach the page
//!
//! Sandglass plays in this process ([`in_process`]), so the page is fed the values the engine
//! computes, not text read back: the budget and the strategy's plan before the search, each
//! iteration from the search's report, each soft-stop check from an observer of the search's
//! signals, and the stop reason and adjustments from its outcome. The referee ([`game`])
//! times each move from `go` to the answer and keeps the clocks as a GUI does; it writes
//! everything into the [`state::Shared`] state, and the server streams that state to the
//! pages.
//!
//! # Server-Sent Events, not polling
//!
//! The page listens on one `EventSource` (`/events`): the server sends the state whenever it
//! changes, so a depth or a soft-stop check reaches the page within milliseconds, and sends
//! nothing between changes but a tick a second. Polling would either lag a fast move (a
//! depth takes a few ms at the start of a search; a 60+0.6 move is over in half a second)
//! or ask many times a second for a state that has not changed. An `EventSource` also
//! reconnects by itself, and the tick tells the page when the server is gone: it then says
//! "disconnected" and stops its clocks. `/state.json` serves the same state once, for
//! scripts and tests.
//!
//! # The server
//!
//! The standard library's `TcpListener`, a thread per connection ([`server`]): five routes,
//! no body to parse, one page. No crate is added for it. It listens on 127.0.0.1 unless
//! `--host` says otherwise.
//!
//! # Files
//!
//! `args` (the command line), `game` (the referee), `player` with `in_process` and
//! `engine_process` (the two kinds of player), `state` (what the page shows), `server` (HTTP
//! and the event stream), `page` with `page.html`, `page.css` and `page.js` (the page),
//! `board` (the board as SVG), `record` (PGN and the `tm --pgn` pictures), `json` (the
//! writer).

pub mod args;
pub mod board;
pub mod engine_process;
pub mod game;
pub mod in_process;
pub mod json;
pub mod page;
pub mod player;
pub mod record;
pub mod server;
pub mod state;
pub mod thought;

pub use args::WatchArgs;

use args::{tc_words, Seat};
use engine_process::EngineProcess;
use in_process::InProcess;
use player::Player;
use state::{Shared, State, SIDES};
use std::io::Write;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn start_player(
    seat: &Seat,
    options: &[(String, String)],
    side: usize,
    plan: &args::Plan,
) -> Result<Player, String> {
    let flag = format!("--{}", SIDES[side].to_ascii_lowercase());
    match seat {
        Seat::Sandglass(strategy) => {
            InProcess::new(strategy, options, &flag).map(|p| Player::Sandglass(Box::new(p)))
        }
        Seat::Program(command) => EngineProcess::start(
            command,
            &format!("{flag}-cmd"),
            options,
            plan.uci_timeout,
            plan.start.is_chess960(),
        )
        .map(Player::Engine),
    }
}

/// A line on stdout, at once (a script waits for the address). `watch` ignores SIGPIPE (it
/// writes to other programs), so a closed stdout is an error here, not the end: the game
/// goes on and is saved all the same.
fn say(line: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}").and_then(|()| out.flush());
}

/// Run `sandglass watch`: `Ok(true)` when the game was played to its end, `Ok(false)` when
/// Ctrl-C (or SIGTERM, SIGHUP: [`super::interrupt`]) ended it (what was played is saved all the same), `Err` when it could not start.
pub fn run(args: &WatchArgs) -> Result<bool, String> {
    let plan = args.plan()?;
    // The port first: a port in use is the likeliest mistake, and needs no engine started.
    let listener = server::bind(&args.host, args.port)?;
    let addr = listener
        .local_addr()
        .map_err(|e| format!("cannot read the server's address: {e}"))?;
    let mut players = [
        start_player(&plan.seats[0], &plan.options[0], 0, &plan)?,
        start_player(&plan.seats[1], &plan.options[1], 1, &plan)?,
    ];
    if players[0].info().name == players[1].info().name {
        for (side, p) in players.iter_mut().enumerate() {
            let what = format!("as {}", SIDES[side]);
            match p {
                Player::Sandglass(s) => s.add_to_name(&what),
                Player::Engine(e) => e.add_to_name(&what),
            }
        }
    }
    let info = [players[0].info(), players[1].info()];
    let title = format!("{} vs {}", info[0].name, info[1].name);
    let mut st = State::new(
        title.clone(),
        record::tc_tag(&plan.tc),
        tc_words(&plan.tc),
        info.clone(),
    );
    st.hold_ms = plan.hold_ms;
    st.waiting_for_viewer = !args.no_wait;
    let shared = Arc::new(Shared::new(st));
    let url = server::url(addr);
    say(&format!(
        "sandglass watch: {title}, {} ({})",
        record::tc_tag(&plan.tc),
        tc_words(&plan.tc)
    ));
    say(&format!("sandglass watch: open {url}"));
    if !addr.ip().is_loopback() {
        say(&format!(
            "sandglass watch: --host {}: other computers can open this page, and pause the game",
            args.host
        ));
    }
    if !args.no_wait {
        say("sandglass watch: the game starts when the page connects");
    }
    server::spawn(listener, Arc::clone(&shared));
    {
        let shared = Arc::clone(&shared);
        // Ctrl-C (or SIGTERM, SIGHUP) ends the game and saves it; a second ends the program
        // at once. Only one handler per process: a second `run` keeps the first.
        let _ = super::interrupt::on_interrupt(move || {
            if shared.interrupted() {
                std::process::exit(130);
            }
            shared.interrupt();
        });
    }
    let overlays = players
        .iter()
        .filter_map(|p| match p {
            Player::Sandglass(s) => Some((s.info().name, s.time_settings().clone())),
            Player::Engine(_) => None,
        })
        .collect();
    let setup = game::Setup {
        tc: plan.tc,
        start: plan.start.clone(),
        overlays,
    };
    let finished = game::play(&mut players, &setup, &shared);
    for p in &mut players {
        p.quit();
    }
    let ending = finished.ending.clone();
    let status = format!("Game over: {}, {}", ending.result, ending.words);
    let mut saved = Vec::new();
    let mut problems = Vec::new();
    match std::fs::write(&plan.pgn, &finished.pgn) {
        Ok(()) => saved.push(plan.pgn.display().to_string()),
        Err(e) => problems.push(format!("cannot write {}: {e}", plan.pgn.display())),
    }
    saved.push(plan.html.display().to_string());
    shared.update(|st| {
        st.ending = Some(ending.clone());
        st.saved = saved.clone();
    });
    let (state_json, figures) = shared.read(|st| (st.json(0.0), st.figures.clone()));
    let html = page::saved(&title, &status, &state_json, &figures);
    if let Err(e) = std::fs::write(&plan.html, html) {
        problems.push(format!("cannot write {}: {e}", plan.html.display()));
        shared.update(|st| st.saved.retain(|s| *s != plan.html.display().to_string()));
    }
    say(&format!("sandglass watch: {status}"));
    for s in shared.read(|st| st.saved.clone()) {
        say(&format!("wrote {s}"));
    }
    // The pages that are open get the end before the server goes: for --linger, or, when
    // Ctrl-C ended the game, half a second (a Ctrl-C while lingering ends it at once).
    let stopped = shared.interrupted();
    let linger = if stopped {
        plan.linger.min(Duration::from_millis(500))
    } else {
        plan.linger
    };
    let until = Instant::now() + linger;
    while Instant::now() < until && (stopped || !shared.interrupted()) {
        std::thread::sleep(Duration::from_millis(50));
    }
    if let Some(p) = problems.first() {
        return Err(p.clone());
    }
    Ok(ending.termination != "unterminated")
}
