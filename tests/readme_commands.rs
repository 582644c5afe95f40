//! The README's commands are the ones a user types, and issue 39 asks that its `datagen`
//! and `train` lines be the ones that made the shipped network. An option renamed or
//! retyped in the code would leave such a line behind, failing only for the user who runs
//! it. So every `sandglass` command in the README's code blocks is parsed here with the
//! binary's own parser (`tools::command::Cli`), without running it.

use clap::Parser;
use sandglass::tools::command::{Cli, Tool};

const README: &str = include_str!("../README.md");

/// The shell words of one command line, as far as a `sandglass` command goes: quotes
/// removed, and cut at a comment, a pipe, a redirection or a command separator.
fn words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut started = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                started = true;
                for q in chars.by_ref() {
                    if q == '\'' {
                        break;
                    }
                    word.push(q);
                }
            }
            '"' => {
                started = true;
                while let Some(q) = chars.next() {
                    match q {
                        '"' => break,
                        '\\' => word.extend(chars.next()),
                        _ => word.push(q),
                    }
                }
            }
            '\\' => {
                started = true;
                word.extend(chars.next());
            }
            c if c.is_whitespace() => {
                if started {
                    words.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            '#' | '|' | '>' | '<' | ';' | '&' if !started => return words,
            // `2> log`: a descriptor's redirection.
            '>' if word.chars().all(|d| d.is_ascii_digit()) => return words,
            _ => {
                started = true;
                word.push(c);
            }
        }
    }
    if started {
        words.push(word);
    }
    words
}

/// The `sandglass` commands of the README's code blocks, continuation lines joined, with
/// the line each starts on; a leading `nice -n N` is dropped.
fn readme_commands() -> Vec<(usize, Vec<String>)> {
    let mut commands = Vec::new();
    let mut in_block = false;
    let mut pending: Option<(usize, String)> = None;
    for (i, line) in README.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
            continue;
        }
        if !in_block {
            continue;
        }
        let (start, mut text) = pending.take().unwrap_or((i + 1, String::new()));
        match line.strip_suffix('\\') {
            Some(head) => {
                text.push_str(head);
                text.push(' ');
                pending = Some((start, text));
                continue;
            }
            None => text.push_str(line),
        }
        let mut w = words(&text);
        if w.len() >= 3 && w[0] == "nice" && w[1] == "-n" {
            w.drain(..3);
        }
        if w.first().is_some_and(|first| first == "sandglass") {
            commands.push((start, w));
        }
    }
    commands
}

#[test]
fn the_readmes_commands_parse() {
    let commands = readme_commands();
    let mut tools = Vec::new();
    for (line, w) in &commands {
        match Cli::try_parse_from(w) {
            Ok(cli) => tools.push(match cli.command {
                Some(Tool::Datagen(_)) => "datagen",
                Some(Tool::Train(_)) => "train",
                Some(_) => "other",
                None => "engine",
            }),
            Err(e) => panic!("README line {line}: `{}` does not parse:\n{e}", w.join(" ")),
        }
    }
    // The lines issue 39 is about are among them, so the test cannot pass on nothing.
    let count = |name| tools.iter().filter(|&&t| t == name).count();
    assert!(count("datagen") >= 2, "{commands:?}");
    assert!(count("train") >= 2, "{commands:?}");
}

#[test]
fn shell_words_are_split_as_a_shell_splits_them() {
    let split = |line| words(line).join("|");
    assert_eq!(
        split("sandglass train d  --start-from '<embedded>'"),
        "sandglass|train|d|--start-from|<embedded>"
    );
    assert_eq!(split(r#"a "b c" d\ e"#), "a|b c|d e");
    assert_eq!(split("a b # c d"), "a|b");
    assert_eq!(split("a b > out.txt"), "a|b");
    assert_eq!(split("a b | head"), "a|b");
    assert_eq!(split("a b 2> err.txt"), "a|b");
    assert_eq!(split("a x#y"), "a|x#y");
}

/// A line the parser refuses is found: the test above is not blind to an unknown option.
#[test]
fn an_unknown_option_does_not_parse() {
    let w = words("sandglass train /data --start-from net.nnue --no-such-option 3");
    assert!(Cli::try_parse_from(&w).is_err());
    let w = words("sandglass train /data --start-from net.nnue --epochs 3");
    assert!(Cli::try_parse_from(&w).is_ok());
}
