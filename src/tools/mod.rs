//! Command-line tools beside the UCI engine.

pub mod bench;
pub mod datagen;
pub mod epd;
pub mod packed;
pub mod perft;
pub mod pgn;
pub mod selfplay;
pub mod tm;
pub mod train;
pub mod tune;
