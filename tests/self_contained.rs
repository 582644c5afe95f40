//! A user's clone has nothing beside it. The development checkout has a folder of material
//! next to it, and anything that names that folder works there and fails for everyone else,
//! so no file of the project may name it, the measurement notebook included: its past
//! commands write that folder as `$RUNNER`.
//!
//! The project also speaks of itself alone: its files describe the engine by commits, dates,
//! versions and issue numbers, never by how the work on it was organised, and never by a
//! folder of the machine it was made on. Games and positions shipped from elsewhere (PGN and
//! EPD files) are quoted as they came and are not checked.

use std::path::{Path, PathBuf};
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Spelled in two pieces so that this file does not name it itself.
fn forbidden() -> String {
    format!("../{}", "shared")
}

/// The files of the project: git's tracked files in a checkout, else (a source archive) every
/// file under the root outside build output.
fn project_files() -> Vec<PathBuf> {
    let root = Path::new(ROOT);
    if let Ok(out) = Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(root)
        .output()
    {
        if out.status.success() && !out.stdout.is_empty() {
            return out
                .stdout
                .split(|&b| b == 0)
                .filter(|name| !name.is_empty())
                .map(|name| root.join(String::from_utf8_lossy(name).as_ref()))
                .collect();
        }
    }
    let mut files = Vec::new();
    let mut dirs = vec![root.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        let entries = std::fs::read_dir(&dir).expect("read a project folder");
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name();
            if path.is_dir() {
                if !matches!(
                    name.to_str(),
                    Some("target" | ".git" | "corpus" | "artifacts")
                ) {
                    dirs.push(path);
                }
            } else {
                files.push(path);
            }
        }
    }
    files
}

#[test]
fn no_file_names_the_folder_beside_the_checkout() {
    let needle = forbidden();
    let files = project_files();
    assert!(
        files.iter().any(|f| f.ends_with("Cargo.toml")),
        "the project's files were not found under {ROOT}"
    );
    let mut offenders = Vec::new();
    for file in &files {
        // Deleted but not yet committed files are listed by git and cannot be read: skip them.
        let Ok(bytes) = std::fs::read(file) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        for (n, line) in lines_naming(&text, &needle) {
            offenders.push(format!("{}:{}: {}", file.display(), n, line.trim()));
        }
    }
    assert!(
        offenders.is_empty(),
        "files name {needle}, which a user's clone does not have:\n{}",
        offenders.join("\n")
    );
}

/// The lines of `text` that hold `needle`, numbered from 1.
fn lines_naming<'a>(text: &'a str, needle: &str) -> Vec<(usize, &'a str)> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| line.contains(needle))
        .map(|(n, line)| (n + 1, line))
        .collect()
}

/// The test above would pass on a broken search: check that it finds the folder's name
/// where it is, and only there.
#[test]
fn the_check_finds_what_it_looks_for() {
    let needle = forbidden();
    let text = format!("a line\npython3 {needle}/tools/match.py \\\nanother line with $RUNNER/");
    assert_eq!(
        lines_naming(&text, &needle),
        vec![(2, format!("python3 {needle}/tools/match.py \\").as_str())]
    );
}

/// The word the project does not use of itself, in two pieces so that this file passes.
fn unspoken_word() -> String {
    format!("{}{}", "ses", "sion")
}

/// Whether `line` holds `word` as a whole word, in any case and with any plural or
/// possessive ending: "possession" does not count.
fn holds_word(line: &str, word: &str) -> bool {
    let lower = line.to_lowercase();
    lower.match_indices(word).any(|(at, _)| {
        let before = lower[..at].chars().next_back();
        let after = lower[at + word.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric)
            && !after.is_some_and(|c| c.is_alphanumeric() && c != 's')
    })
}

/// Files quoted as they came from elsewhere.
fn is_shipped_games_or_positions(file: &Path) -> bool {
    matches!(
        file.extension().and_then(|e| e.to_str()),
        Some("pgn" | "epd")
    )
}

#[test]
fn the_project_speaks_of_itself_alone() {
    let word = unspoken_word();
    let machine_folder = format!("/{}/", "work");
    let mut offenders = Vec::new();
    for file in project_files() {
        if is_shipped_games_or_positions(&file) {
            continue;
        }
        let Ok(bytes) = std::fs::read(&file) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        for (n, line) in text.lines().enumerate() {
            if holds_word(line, &word) || line.contains(&machine_folder) {
                offenders.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "files speak of how the work was organised, or of a machine's folder:\n{}",
        offenders.join("\n")
    );
}

/// The check above is not blind: it finds the word in every form it forbids, and only there.
#[test]
fn the_word_check_finds_what_it_looks_for() {
    let word = unspoken_word();
    for line in [
        format!("the sixty-fourth {word}'s machine"),
        format!("{} ends", word.to_uppercase()),
        format!("two {word}s later"),
        format!("({word})"),
    ] {
        assert!(holds_word(&line, &word), "{line}");
    }
    for line in ["possession of the square", "obsessions", "a ses sion"] {
        assert!(!holds_word(line, &word), "{line}");
    }
    assert!(is_shipped_games_or_positions(Path::new("data/pgn/x.pgn")));
    assert!(!is_shipped_games_or_positions(Path::new("README.md")));
}
