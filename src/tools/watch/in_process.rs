//! Sandglass as a player in this process: its options as the UCI engine keeps them, its
//! budget from the time manager as `go` would get it, and its search run as the engine runs
//! it (`uci::engine::search_limits`, `search::search_then`), with the table and the game's
//! memory kept across its moves.
//!
//! The page is fed the structured values the engine already computes, never text read back:
//! the budget (`time::decide`) and the strategy's plan before the search; each completed
//! iteration from the search's `report`; each soft-stop check from the observer of the
//! search's signals ([`crate::search::Signals::observed_by`]); and, at the end, the outcome's
//! stop reason, soft-stop numbers and adjustments, in the words `TimeLog` prints
//! ([`crate::uci::engine::stop_words`]). None of it changes what the search does.

use super::state::{Check, Iteration, Plan, PlayerInfo, Shared};
use super::thought::{pv_san, Failure, Thought, Turn};
use crate::search::{self, Memory, ScoreBound, Signals, SoftCheck};
use crate::time::{self, Clock, Game, Inputs, SoftRule, TimeLimit};
use crate::tools::selfplay::score_text;
use crate::tt::TranspositionTable;
use crate::uci::engine::{search_limits, stop_words};
use crate::uci::options::{Effect, Options};
use std::sync::Arc;
use std::time::Instant;

pub struct InProcess {
    name: String,
    detail: String,
    options: Options,
    tt: TranspositionTable,
    memory: Memory,
}

impl InProcess {
    /// Sandglass with time strategy `strategy` and the UCI options `settings` (name, value),
    /// set as `setoption` sets them. `flag` names the command-line option in errors.
    pub fn new(
        strategy: &str,
        settings: &[(String, String)],
        flag: &str,
    ) -> Result<InProcess, String> {
        let mut options = Options::default();
        options
            .set("TimeManager", Some(strategy))
            .map_err(|e| format!("{flag} {strategy}: {e}"))?;
        for (name, value) in settings {
            match options.set(name, Some(value)) {
                Err(e) => return Err(format!("{flag}-option {name}={value}: {e}")),
                Ok(Effect::OpenTablebases) => {
                    return Err(format!(
                        "{flag}-option {name}: watch plays without tablebases"
                    ))
                }
                Ok(Effect::Warn(w)) => eprintln!("sandglass: {flag}-option {name}: {w}"),
                Ok(_) => {}
            }
        }
        let tt = TranspositionTable::try_new(options.hash_mb)
            .map_err(|e| format!("{flag}-option Hash: {e}"))?;
        let mut extra: Vec<String> = settings.iter().map(|(n, v)| format!("{n}={v}")).collect();
        extra.insert(0, options.time.strategy().name().to_string());
        Ok(InProcess {
            name: format!("Sandglass ({})", extra.join(", ")),
            detail: extra.join(", "),
            options,
            tt,
            memory: Memory::new(),
        })
    }

    /// Two players of the same name could not be told apart in the PGN (and so in `tm
    /// --pgn`): each gets its colour.
    pub fn add_to_name(&mut self, what: &str) {
        self.name = format!("{} {what}", self.name);
    }

    pub fn info(&self) -> PlayerInfo {
        PlayerInfo {
            name: self.name.clone(),
            kind: "sandglass",
            detail: self.detail.clone(),
        }
    }

    /// The time settings (strategy, its parameters, Move Overhead): `tm --pgn` draws this
    /// player's plans with them.
    pub fn time_settings(&self) -> &time::Settings {
        &self.options.time
    }

    pub fn new_game(&mut self) {
        self.tt.clear();
        self.memory.clear();
        self.options.time.new_game();
    }

    pub fn think(&mut self, turn: &Turn, shared: &Arc<Shared>) -> Result<Thought, Failure> {
        let pos = turn.pos;
        let us = pos.side_to_move();
        let game = Game {
            plies_played: pos.game_ply(),
            men: pos.men(),
        };
        let (mode, _notes) = time::decide(&turn.go, us, &game, &self.options.time);
        let budget = match &mode.time {
            TimeLimit::Clock(b) => Some(b.clone()),
            _ => None,
        };
        if let Some(b) = &budget {
            let clock = Clock {
                time_left_ms: turn.clock_ms,
                increment_ms: match us {
                    chess::Color::White => turn.go.winc,
                    chess::Color::Black => turn.go.binc,
                }
                .unwrap_or(0),
                moves_to_go: turn.go.movestogo,
                overhead_ms: self.options.time.move_overhead_ms,
            };
            let strategy = self.options.time.strategy();
            let plan = strategy.plan(&Inputs::new(&clock, &game));
            let plan = Plan {
                strategy: strategy.name().to_string(),
                plan_ms: time::finite_or(plan.soft_ms, 0.0),
                soft_ms: b.soft_ms,
                hard_ms: b.hard_ms,
                why: b.why.clone(),
            };
            shared.update(|st| {
                if let Some(t) = st.thinking.as_mut() {
                    t.plan = Some(plan);
                }
            });
        }
        let limits = search_limits(&self.options, mode);
        let factor = match self.options.soft_rule() {
            SoftRule::Factor(f) => Some(f),
            SoftRule::Learned(_) => Some(time::NEXT_DEPTH_FACTOR),
            SoftRule::Predicted => None,
        };
        let signals = Arc::new(Signals::new(false).observed_by(observer(shared, factor)));
        shared.set_search(Some(Arc::clone(&signals)));
        let started = Instant::now();
        let mut spent = None;
        let outcome = search::search_then(
            pos,
            &limits,
            &self.tt,
            &mut self.memory,
            &signals,
            &mut |info| {
                if info.multipv == 1 && info.bound == ScoreBound::Exact {
                    shared.record_iteration(Iteration {
                        depth: info.depth,
                        at_ms: info.time.as_secs_f64() * 1000.0,
                        took_ms: 0.0,
                        score: score_text(info.score),
                        nodes: info.nodes,
                        pv: pv_san(pos, &info.pv),
                    });
                }
            },
            &mut |_| spent = Some(started.elapsed()),
        );
        shared.set_search(None);
        let spent = spent.unwrap_or_else(|| started.elapsed());
        let spent_ms = i64::try_from(spent.as_millis()).unwrap_or(i64::MAX);
        if let Some(b) = &budget {
            // As the engine does once a clock search has answered.
            self.options
                .time
                .record(u64::try_from(spent_ms).unwrap_or(0), b.soft_ms);
        }
        if shared.interrupted() {
            return Err(Failure::Interrupted);
        }
        let best = outcome
            .best
            .ok_or_else(|| Failure::Illegal("no move (the game was over)".to_string()))?;
        let p_change = shared.read(|st| {
            st.thinking
                .as_ref()
                .and_then(|t| t.checks.last())
                .map(|c| c.p_change)
        });
        Ok(Thought {
            best,
            spent_ms,
            score: Some(outcome.score),
            bound: outcome.bound,
            depth: outcome.depth,
            reason: outcome.reason.describe().to_string(),
            detail: outcome.stop_detail.clone(),
            adjust: outcome.adjust_reason.clone(),
            final_soft_ms: outcome.soft_ms,
            timelog: stop_words(&outcome),
            p_change,
        })
    }
}

/// Each soft-stop check goes to the move being thought.
fn observer(shared: &Arc<Shared>, factor: Option<f64>) -> crate::search::Observer {
    let shared = Arc::clone(shared);
    Box::new(move |c: &SoftCheck| {
        let check = Check {
            depth: c.check.depth,
            elapsed_ms: c.check.elapsed_ms,
            last_iteration_ms: c.check.last_iteration_ms,
            base_soft_ms: c.base_soft_ms,
            soft_ms: c.check.soft_ms,
            scale: c.scale,
            adjust: c.adjust_reason.to_string(),
            stop: c.verdict.stop,
            why: c.verdict.why.clone(),
            next_end_ms: factor.map(|f| c.check.elapsed_ms + f * c.check.last_iteration_ms),
            p_change: time::soft::change_probability(&c.check.signs),
        };
        shared.update(|st| {
            if let Some(t) = st.thinking.as_mut() {
                t.checks.push(check);
            }
        });
    })
}
