//! A player of the game: Sandglass in this process ([`super::in_process`]), whose time
//! manager's decisions the page shows as they are made, or another UCI program
//! ([`super::engine_process`]), of which the page shows what its `info` lines say.

use super::engine_process::EngineProcess;
use super::in_process::InProcess;
use super::state::{PlayerInfo, Shared};
use super::thought::{Failure, Thought, Turn};
use std::sync::Arc;
use std::time::Duration;

pub enum Player {
    Sandglass(Box<InProcess>),
    Engine(EngineProcess),
}

impl Player {
    pub fn info(&self) -> PlayerInfo {
        match self {
            Player::Sandglass(p) => p.info(),
            Player::Engine(p) => p.info(),
        }
    }

    /// A new game starts: forget the last one.
    pub fn new_game(&mut self) -> Result<(), String> {
        match self {
            Player::Sandglass(p) => {
                p.new_game();
                Ok(())
            }
            Player::Engine(p) => p.new_game(),
        }
    }

    /// Think about the move; the page is kept up to date through `shared`.
    pub fn think(&mut self, turn: &Turn, shared: &Arc<Shared>) -> Result<Thought, Failure> {
        match self {
            Player::Sandglass(p) => p.think(turn, shared),
            Player::Engine(p) => p.think(turn, shared),
        }
    }

    /// The game is over: a program is told to quit (and ended if it does not).
    pub fn quit(&mut self) {
        if let Player::Engine(p) = self {
            p.quit(Duration::from_secs(2));
        }
    }
}
