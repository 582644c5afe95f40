//! The UCI protocol: `parse` turns a line into a `Command` (pure), `engine` runs the loop.

pub mod parse;
