//! The README's commands are the ones a user types, and docs/training.md's `datagen` and
//! `train` lines are the ones that made the shipped network. An option renamed or retyped in
//! the code would leave such a line behind, failing only for the user who runs it. So every
//! `sandglass` command in the code blocks of the README and of docs/ is parsed here with the
//! binary's own parser (`tools::command::Cli`). The README's commands must also run in a
//! clean clone as written: the files they read are the repository's, and the quick ones are
//! run here, their output files sent to a scratch folder.

mod common;

use clap::Parser;
use common::tools::{arg, succeeded, tool, Scratch};
use sandglass::tools::command::{Cli, Tool};
use std::path::Path;

const README: &str = include_str!("../README.md");
const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The documents whose commands are parsed, with their text.
const DOCUMENTS: [(&str, &str); 5] = [
    ("README.md", README),
    ("docs/training.md", include_str!("../docs/training.md")),
    ("docs/measuring.md", include_str!("../docs/measuring.md")),
    ("docs/tuning.md", include_str!("../docs/tuning.md")),
    ("docs/searchlog.md", include_str!("../docs/searchlog.md")),
];

/// The simple commands of one shell line, each as its words: quotes removed; split at `|`,
/// `||`, `&&`, `;` and `&`; redirections (`> f`, `2> f`, `2>&1`, `< f`) dropped; cut at a
/// comment.
fn simple_commands(line: &str) -> Vec<Vec<String>> {
    let mut w = Words {
        commands: vec![Vec::new()],
        ..Words::default()
    };
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' | '"' => {
                (w.started, w.quoted) = (true, true);
                while let Some(q) = chars.next() {
                    match q {
                        _ if q == c => break,
                        '\\' if c == '"' => w.word.extend(chars.next()),
                        _ => w.word.push(q),
                    }
                }
            }
            '\\' => {
                (w.started, w.quoted) = (true, true);
                w.word.extend(chars.next());
            }
            '#' if !w.started => break,
            '>' | '<' => {
                // `2>`: the digits name a descriptor, not an argument.
                if w.started && !w.quoted && w.word.chars().all(|d| d.is_ascii_digit()) {
                    w.word.clear();
                    w.started = false;
                }
                w.end_word();
                if chars.peek() == Some(&'&') {
                    chars.next();
                    while chars.next_if(|d| d.is_ascii_digit() || *d == '-').is_some() {}
                } else {
                    w.target = true;
                }
            }
            '|' | '&' | ';' => {
                w.end_word();
                chars.next_if_eq(&c);
                w.commands.push(Vec::new());
            }
            c if c.is_whitespace() => w.end_word(),
            _ => {
                w.started = true;
                w.word.push(c);
            }
        }
    }
    w.end_word();
    w.commands.retain(|c| !c.is_empty());
    w.commands
}

/// The splitter's state.
#[derive(Default)]
struct Words {
    commands: Vec<Vec<String>>,
    word: String,
    /// A word is being read (an empty quoted one too).
    started: bool,
    /// Part of it was quoted.
    quoted: bool,
    /// The next word is a redirection's target, not an argument.
    target: bool,
}

impl Words {
    fn end_word(&mut self) {
        if self.started {
            let word = std::mem::take(&mut self.word);
            if !std::mem::take(&mut self.target) {
                if let Some(command) = self.commands.last_mut() {
                    command.push(word);
                }
            }
        }
        (self.started, self.quoted) = (false, false);
    }
}

/// The arguments of a simple command that runs Sandglass (`sandglass`, a path to it, or
/// `cargo run -- …`), after what may come before it: `VAR=value`, `time`, `nice -n N`, and
/// the `do` or `then` of a loop or test on the same line.
fn sandglass_args(mut w: &[String]) -> Option<Vec<String>> {
    loop {
        match w {
            [first, rest @ ..]
                if first.contains('=') && first.chars().next().is_some_and(char::is_alphabetic) =>
            {
                w = rest
            }
            [first, rest @ ..] if ["time", "do", "then", "else"].contains(&first.as_str()) => {
                w = rest
            }
            [nice, n, _, rest @ ..] if nice == "nice" && n == "-n" => w = rest,
            [nice, n, rest @ ..] if nice == "nice" && n.starts_with('-') => w = rest,
            _ => break,
        }
    }
    let first = w.first()?;
    if first == "sandglass" || first.ends_with("/sandglass") {
        return Some(w.to_vec());
    }
    if w.len() >= 2 && first == "cargo" && w[1] == "run" {
        let rest = w
            .iter()
            .position(|a| a == "--")
            .map_or(&[][..], |i| &w[i + 1..]);
        return Some(
            std::iter::once("sandglass".to_string())
                .chain(rest.iter().cloned())
                .collect(),
        );
    }
    None
}

/// The commands that run Sandglass in a document's code blocks, continuation lines joined
/// (a comment's trailing `\` joins nothing), with the line each starts on.
fn commands_in(text: &str) -> Vec<(usize, Vec<String>)> {
    let mut commands = Vec::new();
    let mut in_block = false;
    let mut pending: Option<(usize, String)> = None;
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
            pending = None;
            continue;
        }
        if !in_block {
            continue;
        }
        let (start, mut text) = pending.take().unwrap_or((i + 1, String::new()));
        match line.strip_suffix('\\') {
            Some(head) if !line.trim_start().starts_with('#') => {
                text.push_str(head);
                text.push(' ');
                pending = Some((start, text));
                continue;
            }
            _ => text.push_str(line),
        }
        for simple in simple_commands(&text) {
            if let Some(args) = sandglass_args(&simple) {
                commands.push((start, args));
            }
        }
    }
    commands
}

#[test]
fn the_documents_commands_parse() {
    let mut tools = Vec::new();
    for (name, text) in DOCUMENTS {
        for (line, w) in commands_in(text) {
            match Cli::try_parse_from(&w) {
                Ok(cli) => tools.push(match cli.command {
                    Some(Tool::Datagen(_)) => "datagen",
                    Some(Tool::Train(_)) => "train",
                    Some(_) => "other",
                    None => "engine",
                }),
                Err(e) => panic!("{name} line {line}: `{}` does not parse:\n{e}", w.join(" ")),
            }
        }
    }
    // The lines that made the shipped network are among them, so the test cannot pass on
    // nothing.
    let count = |name| tools.iter().filter(|&&t| t == name).count();
    assert!(count("datagen") >= 10, "{tools:?}");
    assert!(count("train") >= 10, "{tools:?}");
    assert!(count("engine") >= 1, "{tools:?}");
}

/// Options whose value is a file the command writes.
const OUTPUTS: [&str; 4] = ["--svg", "--html", "--out", "--json"];

/// Tools quick enough to run here as the README writes them.
const QUICK: [&str; 3] = ["tm", "bench", "perft"];

/// The README's commands in a clean clone: every file a command reads is the repository's,
/// and the quick tools run to success with the README's arguments, writing into a scratch
/// folder instead of the reader's.
#[test]
fn the_readmes_commands_run_in_a_clean_clone() {
    let scratch = Scratch::new("readme");
    let mut ran = 0;
    for (line, w) in commands_in(README) {
        let mut args: Vec<String> = Vec::new();
        let mut writes = false;
        for (i, word) in w.iter().enumerate().skip(1) {
            if writes {
                args.push(arg(&scratch.join(format!("{i}-{word}"))).to_string());
                writes = false;
                continue;
            }
            writes = OUTPUTS.contains(&word.as_str());
            // A time control such as `40/300` is not a path, nor is another engine's
            // command (`/usr/games/stockfish`), which is the reader's to install.
            let not_a_path = ["--tc", "--white-cmd", "--black-cmd"].contains(&w[i - 1].as_str());
            let looks_like_a_file = (!not_a_path && word.contains('/'))
                || [".pgn", ".epd", ".nnue", ".bin"]
                    .iter()
                    .any(|e| word.ends_with(e));
            if looks_like_a_file && !word.starts_with('-') {
                let path = Path::new(ROOT).join(word);
                assert!(
                    path.exists(),
                    "README line {line}: `{}` reads {word}, which a clean clone does not have",
                    w.join(" ")
                );
                args.push(arg(&path).to_string());
            } else {
                args.push(word.clone());
            }
        }
        if args.first().is_some_and(|t| QUICK.contains(&t.as_str())) {
            let words: Vec<&str> = args.iter().map(String::as_str).collect();
            succeeded(tool(&words));
            ran += 1;
        }
    }
    assert!(ran >= 3, "the README's `tm` examples were not found");
}

/// The README's examples run as written in a clone, where `make` leaves `./sandglass` and
/// no `sandglass` is on the PATH: none calls the bare name (`cargo run` is fine).
#[test]
fn the_readmes_examples_name_the_binary_by_its_path() {
    let mut in_block = false;
    let mut by_path = 0;
    for (i, line) in README.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
            continue;
        }
        for simple in simple_commands(line).iter().filter(|_| in_block) {
            let Some(args) = sandglass_args(simple) else {
                continue;
            };
            assert!(
                !simple.iter().any(|w| w == "sandglass"),
                "README line {}: `{}` does not run in a clone as written",
                i + 1,
                simple.join(" ")
            );
            by_path += usize::from(args[0] == "./sandglass");
        }
    }
    assert!(
        by_path >= 5,
        "the README's `./sandglass` examples were not found"
    );
}

#[test]
fn shell_lines_are_split_as_a_shell_splits_them() {
    let split = |line| {
        simple_commands(line)
            .iter()
            .map(|c| c.join("|"))
            .collect::<Vec<_>>()
            .join(" / ")
    };
    assert_eq!(
        split("sandglass train d  --start-from '<embedded>'"),
        "sandglass|train|d|--start-from|<embedded>"
    );
    assert_eq!(split(r#"a "b c" d\ e 'f"g'"#), "a|b c|d e|f\"g");
    assert_eq!(split("a b # c d"), "a|b");
    assert_eq!(split("a x#y"), "a|x#y");
    assert_eq!(split("a b > out.txt c"), "a|b|c");
    assert_eq!(split("a b>out c 2> err 2>&1"), "a|b|c");
    assert_eq!(split("a '2'> out"), "a|2");
    assert_eq!(split("a b | head -3"), "a|b / head|-3");
    assert_eq!(split("a;b && c||d & e"), "a / b / c / d / e");
}

#[test]
fn what_comes_before_sandglass_is_dropped() {
    let args = |line| {
        simple_commands(line)
            .iter()
            .filter_map(|c| sandglass_args(c))
            .map(|a| a.join(" "))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        args("nice -n 19 sandglass datagen --threads 2"),
        ["sandglass datagen --threads 2"]
    );
    assert_eq!(
        args("cd x && X=1 time ./target/release/sandglass bench"),
        ["./target/release/sandglass bench"]
    );
    assert_eq!(
        args("for n in 1 2; do nice -19 sandglass perft $n; done"),
        ["sandglass perft $n"]
    );
    assert_eq!(
        args("cargo run --release -- bench 12"),
        ["sandglass bench 12"]
    );
    assert_eq!(args("cargo run --release"), ["sandglass"]);
    assert_eq!(
        args("./sandglass watch --black-cmd /usr/games/stockfish"),
        ["./sandglass watch --black-cmd /usr/games/stockfish"]
    );
    assert!(args("python3 tools/gauntlet.py target/release/sandglass --games 4").is_empty());
}

/// A line the parser refuses is found: the test above is not blind to an unknown option.
#[test]
fn an_unknown_option_does_not_parse() {
    let parse = |line| Cli::try_parse_from(&simple_commands(line)[0]).is_ok();
    assert!(!parse(
        "sandglass train /data --start-from net.nnue --no-such-option 3"
    ));
    assert!(parse(
        "sandglass train /data --start-from net.nnue --epochs 3"
    ));
}
