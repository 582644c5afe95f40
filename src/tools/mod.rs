//! Command-line tools beside the UCI engine.

pub mod perft;
pub mod tm;
