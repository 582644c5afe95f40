//! Which evaluation a search uses: the hand-written one (the default until a network beats
//! it) or a network, and where a network comes from (a file, or the one built in).
//!
//! The choice is not the process's: whoever starts a search hands it the network, or none
//! (`search::Limits::network`), and the search reads it once, when it starts. So two
//! engines in one process (library users, tests running in parallel) never share a choice,
//! and an option changed between searches never affects one in progress. The UCI engine
//! keeps its choice with its other options (`Eval`, `EvalFile`).

use super::Network;
use std::path::Path;

/// The network shipped inside the binary, if one is shipped yet.
const EMBEDDED: Option<&[u8]> = None;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvalKind {
    Classical,
    Nnue,
}

/// The embedded network, parsed (None when none is shipped or it does not parse).
pub fn embedded() -> Option<Network> {
    EMBEDDED.and_then(|bytes| Network::from_bytes(bytes).ok())
}

/// The network a file name stands for: an empty name or `<embedded>` is the embedded
/// network (None when this build ships none), anything else a file to read. `Err` says why
/// the file cannot be used.
pub fn load_file(path: &str) -> Result<Option<Network>, String> {
    if path.is_empty() || path == "<embedded>" {
        Ok(embedded())
    } else {
        Network::load(Path::new(path)).map(Some)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_files_say_why() {
        let missing = load_file("/nonexistent/net.nnue").unwrap_err();
        assert!(missing.contains("cannot read"), "{missing}");
        let dir = std::env::temp_dir().join("sandglass-select-test.nnue");
        std::fs::write(&dir, b"SGNN garbage").expect("temp file");
        let garbage = load_file(dir.to_str().unwrap_or("")).unwrap_err();
        assert!(
            garbage.contains("version") || garbage.contains("ends"),
            "{garbage}"
        );
        let _ = std::fs::remove_file(&dir);
        assert_eq!(load_file("").map(|n| n.is_some()), Ok(embedded().is_some()));
        assert_eq!(
            load_file("<embedded>").map(|n| n.is_some()),
            Ok(embedded().is_some())
        );
    }
}
