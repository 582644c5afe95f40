//! Command-line tools beside the UCI engine.

pub mod bench;
pub mod command;
pub mod datagen;
pub mod epd;
pub mod interrupt;
pub mod packed;
pub mod perft;
pub mod pgn;
pub mod probe;
pub mod searchlog;
pub mod selfplay;
pub mod tm;
pub mod train;
pub mod tune;
pub mod watch;

use crate::eval::nnue::{select, Network};
use std::sync::Arc;

/// The network of the tools that search (`bench`, `epd`, `selfplay`, `datagen`): the file
/// `--eval-file` names, read as the `EvalFile` option reads it, else the engine's default.
/// `bench` times a candidate before it is embedded with it; a generation of training data is
/// made by the network that played it, so docs/training.md's line for an older generation names
/// its network by file once a newer one is embedded.
pub fn eval_file_network(eval_file: Option<&str>) -> Result<Option<Arc<Network>>, String> {
    match eval_file {
        Some(path) => select::load_file(path).map_err(|e| format!("--eval-file {path}: {e}")),
        None => Ok(select::default_network()),
    }
}
