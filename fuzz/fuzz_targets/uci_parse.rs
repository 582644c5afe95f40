//! Fuzz the UCI command parser.
//!
//! Input: any bytes, read as one line with `String::from_utf8_lossy`.
//! Checks:
//! * `parse` never panics;
//! * every problem is short (under 200 characters) and holds no control character;
//! * a returned command renders with `Display` to a line that parses back to the same
//!   command (but for a `go`'s `limits.unreadable`, which comes back false: the rendering
//!   holds only what could be read), and rendering that again gives the same text. (The
//!   rendering may still have problems: `go wtime -5` is kept and reported, and renders as
//!   itself.)
#![no_main]

use libfuzzer_sys::fuzz_target;
use sandglass::uci::parse::{parse, Command, Parsed};

/// Longest problem message accepted, in characters.
const MAX_PROBLEM_CHARS: usize = 200;

fn check_problems(line: &str, parsed: &Parsed) {
    for problem in &parsed.problems {
        let chars = problem.chars().count();
        assert!(
            chars < MAX_PROBLEM_CHARS,
            "problem of {chars} chars for line {line:?}: {problem:?}"
        );
        assert!(
            !problem.chars().any(char::is_control),
            "control character in problem for line {line:?}: {problem:?}"
        );
        assert!(!problem.is_empty(), "empty problem for line {line:?}");
    }
}

fuzz_target!(|data: &[u8]| {
    let line = String::from_utf8_lossy(data);
    let parsed = parse(&line);
    check_problems(&line, &parsed);

    if let Some(command) = &parsed.command {
        let rendered = command.to_string();
        let again = parse(&rendered);
        check_problems(&rendered, &again);
        let mut readable = command.clone();
        if let Command::Go(go) = &mut readable {
            go.limits.unreadable = false;
        }
        assert_eq!(
            again.command.as_ref(),
            Some(&readable),
            "round trip changed the command: line {line:?} rendered as {rendered:?}"
        );
        assert_eq!(
            again.command.as_ref().map(ToString::to_string).as_deref(),
            Some(rendered.as_str()),
            "rendering is not stable for line {line:?}"
        );
    }
});
