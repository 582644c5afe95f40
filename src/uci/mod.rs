//! The UCI protocol: `parse` turns a line into a `Command` (pure), `engine` runs the loop,
//! `options` declares and checks the options, `output` prints whole lines.

pub mod engine;
pub mod options;
pub mod output;
pub mod parse;
