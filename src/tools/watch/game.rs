//! The referee: plays one game between two players, keeps both clocks as a GUI keeps them
//! (each move timed from `go` to the answer, then the increment, and with `M/B` controls the
//! base time again after every M moves), ends the game by the rules of chess or on time, and
//! keeps the page's state up to date: the move being thought, the move played, and the
//! pictures of the game so far.

use super::board;
use super::player::Player;
use super::record::{self, Header, Move};
use super::state::{Ending, Played, Shared, Thinking, SIDES};
use super::thought::{Failure, Turn};
use crate::position::{move_to_san, Position};
use crate::time::{GoLimits, Settings};
use crate::tools::selfplay::{ended_by_rule, GameResult, MAX_PLIES};
use crate::tools::tm::clocks::step;
use crate::tools::tm::TimeControl;
use std::sync::Arc;

/// What the game needs besides its players.
pub struct Setup {
    pub tc: TimeControl,
    pub start: Position,
    /// The Sandglass players' names and time settings, for the pictures.
    pub overlays: Vec<(String, Settings)>,
}

/// The game as played.
pub struct Finished {
    pub ending: Ending,
    pub pgn: String,
}

fn win_for(side: usize) -> &'static str {
    if side == 0 {
        "1-0"
    } else {
        "0-1"
    }
}

fn ending(result: &str, termination: &str, words: String) -> Ending {
    Ending {
        result: result.to_string(),
        termination: termination.to_string(),
        words,
    }
}

/// Play the game to its end.
pub fn play(players: &mut [Player; 2], setup: &Setup, shared: &Arc<Shared>) -> Finished {
    let header = Header {
        white: players[0].info().name,
        black: players[1].info().name,
        tc: setup.tc,
        start: setup.start.clone(),
    };
    let periods = [setup.tc];
    let mut pos = setup.start.clone();
    let mut clocks = [setup.tc.base_ms; 2];
    let mut timed = [0u32; 2];
    let mut uci_moves: Vec<String> = Vec::new();
    let mut record: Vec<Move> = Vec::new();
    shared.update(|st| {
        st.fen = pos.fen();
        st.board_svg = board::svg(&pos, None);
        st.clocks = clocks;
    });
    let mut played_at = None;
    let mut problem = None;
    for (side, p) in players.iter_mut().enumerate() {
        if let Err(e) = p.new_game() {
            problem = Some(ending(
                win_for(1 - side),
                "abandoned",
                format!("{} did not start the game: {e}", SIDES[side]),
            ));
        }
    }
    let end = loop {
        if let Some(e) = problem.take() {
            break e;
        }
        if let Some((result, why)) = ended_by_rule(&pos) {
            break ending(result.pgn(), "normal", why.to_string());
        }
        if record.len() >= MAX_PLIES {
            break ending(
                GameResult::Draw.pgn(),
                "adjudication",
                format!("drawn at the move limit ({MAX_PLIES} plies)"),
            );
        }
        shared.wait_to_play(played_at);
        if shared.interrupted() {
            break ending(
                "*",
                "unterminated",
                "stopped by Ctrl-C or a request to end".to_string(),
            );
        }
        let side = usize::from(pos.side_to_move() == chess::Color::Black);
        let next = [step(&periods, timed[0] + 1), step(&periods, timed[1] + 1)];
        let clock_before = clocks[side];
        let go = GoLimits {
            wtime: Some(clocks[0]),
            btime: Some(clocks[1]),
            winc: Some(next[0].increment_ms),
            binc: Some(next[1].increment_ms),
            movestogo: next[side].moves_to_go,
            ..GoLimits::default()
        };
        let number = pos.fullmove_number();
        let started = shared.now_ms();
        shared.update(|st| {
            st.clocks = clocks;
            st.thinking = Some(Thinking {
                side,
                number,
                clock_before_ms: clock_before,
                moves_to_go: next[side].moves_to_go,
                started_ms: started,
                plan: None,
                iterations: Vec::new(),
                checks: Vec::new(),
            });
        });
        let turn = Turn {
            start: &setup.start,
            moves: &uci_moves,
            pos: &pos,
            go,
            clock_ms: clock_before,
        };
        let thought = match players[side].think(&turn, shared) {
            Ok(t) => t,
            Err(failure) => {
                let who = SIDES[side];
                break match failure {
                    Failure::Flagged => ending(
                        win_for(1 - side),
                        "time forfeit",
                        format!("{who} lost on time"),
                    ),
                    Failure::Crashed(why) => ending(
                        win_for(1 - side),
                        "abandoned",
                        format!("{who} stopped answering: it {why}"),
                    ),
                    Failure::Illegal(text) => ending(
                        win_for(1 - side),
                        "rules infraction",
                        format!("{who} answered '{text}', not a legal move"),
                    ),
                    Failure::Interrupted => ending(
                        "*",
                        "unterminated",
                        "stopped by Ctrl-C or a request to end".to_string(),
                    ),
                };
            }
        };
        if thought.spent_ms > clock_before {
            break ending(
                win_for(1 - side),
                "time forfeit",
                format!("{} lost on time", SIDES[side]),
            );
        }
        let st_step = next[side];
        let clock_after =
            clock_before - thought.spent_ms + st_step.increment_ms + st_step.refill_ms;
        clocks[side] = clock_after;
        timed[side] += 1;
        let san = move_to_san(pos.board(), thought.best);
        uci_moves.push(pos.move_text(thought.best));
        let text = format!("{number}{} {san}", if side == 0 { "." } else { "..." });
        record.push(Move {
            san: san.clone(),
            spent_ms: thought.spent_ms,
            clock_after_ms: clock_after,
            score: thought.score,
            depth: thought.depth,
            p_change: thought.p_change,
        });
        pos.make_move(thought.best);
        let last = Some((thought.best.get_source(), thought.best.get_dest()));
        played_at = Some(shared.now_ms());
        let so_far = record::pgn(
            &header,
            &record,
            &ending("*", "unterminated", String::new()),
        );
        let figures = record::figures(&so_far, &setup.overlays);
        shared.update(|st| {
            let thinking = st.thinking.take();
            if let Some(thinking) = thinking {
                st.last = Some(Played {
                    thinking,
                    san: text.clone(),
                    clock_after_ms: clock_after,
                    thought: thought.clone(),
                });
            }
            st.moves.push((side, text, thought.spent_ms));
            st.clocks = clocks;
            st.fen = pos.fen();
            st.board_svg = board::svg(&pos, last);
            st.figures = Arc::new(figures);
            st.figures_version += 1;
        });
    };
    let pgn = record::pgn(&header, &record, &end);
    let figures = record::figures(&pgn, &setup.overlays);
    shared.update(|st| {
        st.thinking = None;
        st.hold_until_ms = None;
        st.clocks = clocks;
        st.figures = Arc::new(figures);
        st.figures_version += 1;
    });
    Finished { ending: end, pgn }
}
