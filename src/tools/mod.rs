//! Command-line tools beside the UCI engine.

pub mod bench;
pub mod epd;
pub mod perft;
pub mod pgn;
pub mod selfplay;
pub mod tm;
pub mod tune;
