//! Sandglass: a UCI chess engine whose time management is meant to be read and taught.
//!
//! Layers, each knowing only the ones below it: `tools` (command-line tools) and `uci`
//! (protocol and engine loop) → `search` → `position`, `eval`, `tt`, `time`, `tablebase`
//! (Syzygy probing, over `position`); `score` (mate conventions) sits below `tt` and
//! `search`, `wdl` (win/draw/loss odds of a score) beside it, and `rng` serves tools and tests.

pub mod eval;
pub mod position;
pub mod rng;
pub mod score;
pub mod search;
pub mod tablebase;
pub mod time;
pub mod tools;
pub mod tt;
pub mod uci;
pub mod wdl;
