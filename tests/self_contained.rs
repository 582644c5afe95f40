//! A user's clone has nothing beside it. The development checkout has a folder of material
//! next to it, and anything that names that folder works there and fails for everyone else,
//! so no file of the project may name it. MEASUREMENTS.md is the one exception: it records
//! how past measurements were made, including the ones made with borrowed files.

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
        if file.file_name().and_then(|n| n.to_str()) == Some("MEASUREMENTS.md") {
            continue;
        }
        // Deleted but not yet committed files are listed by git and cannot be read: skip them.
        let Ok(bytes) = std::fs::read(file) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        for (n, line) in text.lines().enumerate() {
            if line.contains(&needle) {
                offenders.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "files name {needle}, which a user's clone does not have:\n{}",
        offenders.join("\n")
    );
}

/// The test above would pass on an empty list or a broken search: check that it finds the
/// string where it is.
#[test]
fn the_check_finds_what_it_looks_for() {
    let measurements = Path::new(ROOT).join("MEASUREMENTS.md");
    let text = std::fs::read_to_string(measurements).expect("MEASUREMENTS.md");
    assert!(
        text.contains(&forbidden()),
        "MEASUREMENTS.md records past commands that named the folder; the check should see them"
    );
}
