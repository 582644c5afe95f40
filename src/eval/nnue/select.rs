//! Which evaluation a search uses: the network (the default, since it beat the hand-written
//! evaluation in matches; docs/measurements/evaluation.md) or the hand-written one, kept for teaching and
//! comparison, and where a network comes from (a file, or the one built in).
//!
//! The choice is not the process's: whoever starts a search hands it the network, or none
//! (`search::Limits::network`), and the search reads it once, when it starts. So two
//! engines in one process (library users, tests running in parallel) never share a choice,
//! and an option changed between searches never affects one in progress. The UCI engine
//! keeps its choice with its other options (`Eval`, `EvalFile`).

use super::Network;
use once_cell::sync::Lazy;
use std::path::Path;
use std::sync::Arc;

/// The network shipped inside the binary. docs/training.md ("How the shipped network was
/// made") has the commands and the data that made it.
const EMBEDDED: &[u8] = include_bytes!("embedded.nnue");

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvalKind {
    Classical,
    Nnue,
}

impl EvalKind {
    /// Both kinds, in the order the `Eval` option lists them.
    pub const ALL: [EvalKind; 2] = [EvalKind::Classical, EvalKind::Nnue];

    /// The kind's name as the `Eval` option spells it.
    pub fn name(self) -> &'static str {
        match self {
            EvalKind::Classical => "classical",
            EvalKind::Nnue => "nnue",
        }
    }

    /// The network a search gets under this kind, given the one loaded: none (the
    /// hand-written evaluation) under `Classical`.
    pub fn network(self, loaded: Option<Arc<Network>>) -> Option<Arc<Network>> {
        match self {
            EvalKind::Classical => None,
            EvalKind::Nnue => loaded,
        }
    }
}

/// The evaluation of a fresh engine, of `bench` and of the tools that search (`selfplay`,
/// `datagen`, `epd`): the network when one is embedded.
pub const DEFAULT_EVAL: EvalKind = EvalKind::Nnue;

/// The embedded network, parsed once and shared by every search that uses it.
static EMBEDDED_PARSED: Lazy<Option<Arc<Network>>> =
    Lazy::new(|| Network::from_bytes(EMBEDDED).ok().map(Arc::new));

/// The embedded network (None if it does not parse, which the tests rule out).
pub fn embedded() -> Option<Arc<Network>> {
    EMBEDDED_PARSED.clone()
}

/// The network a search uses when nobody chose: the embedded one under [`DEFAULT_EVAL`]
/// `Nnue`, none (the hand-written evaluation) under `Classical`.
pub fn default_network() -> Option<Arc<Network>> {
    DEFAULT_EVAL.network(embedded())
}

/// The network a file name stands for: an empty name or `<embedded>` is the embedded
/// network (None when this build ships none), anything else a file to read. `Err` says why
/// the file cannot be used.
pub fn load_file(path: &str) -> Result<Option<Arc<Network>>, String> {
    if path.is_empty() || path == "<embedded>" {
        Ok(embedded())
    } else {
        Network::load(Path::new(path)).map(|n| Some(Arc::new(n)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_files_say_why() {
        let missing = load_file("/nonexistent/net.nnue").unwrap_err();
        assert!(missing.contains("cannot read"), "{missing}");
        // A folder, and on Unix a FIFO and a device: refused without being read (a FIFO
        // would block until a writer came, /dev/zero would be read until memory ran out).
        let folder = load_file(std::env::temp_dir().to_str().unwrap_or("/")).unwrap_err();
        assert!(folder.contains("not a regular file"), "{folder}");
        #[cfg(unix)]
        {
            let zero = load_file("/dev/zero").unwrap_err();
            assert!(zero.contains("not a regular file"), "{zero}");
            let fifo = std::env::temp_dir().join(format!("sandglass-fifo-{}", std::process::id()));
            let made = std::process::Command::new("mkfifo").arg(&fifo).status();
            if made.is_ok_and(|s| s.success()) {
                let refused = load_file(fifo.to_str().unwrap_or("")).unwrap_err();
                assert!(refused.contains("not a regular file"), "{refused}");
                let _ = std::fs::remove_file(&fifo);
            }
        }
        let big = std::env::temp_dir().join(format!("sandglass-big-{}.nnue", std::process::id()));
        let sized = std::fs::File::create(&big)
            .and_then(|f| f.set_len(crate::eval::nnue::MAX_FILE_BYTES as u64 + 1));
        if sized.is_ok() {
            let refused = load_file(big.to_str().unwrap_or("")).unwrap_err();
            assert!(refused.contains("more than any network file"), "{refused}");
        }
        let _ = std::fs::remove_file(&big);
        let dir = std::env::temp_dir().join("sandglass-select-test.nnue");
        std::fs::write(&dir, b"SGNN garbage").expect("temp file");
        let garbage = load_file(dir.to_str().unwrap_or("")).unwrap_err();
        assert!(
            garbage.contains("version") || garbage.contains("ends"),
            "{garbage}"
        );
        let _ = std::fs::remove_file(&dir);
        assert!(embedded().is_some(), "the shipped network parses");
        assert_eq!(load_file("").map(|n| n.is_some()), Ok(embedded().is_some()));
        assert_eq!(
            load_file("<embedded>").map(|n| n.is_some()),
            Ok(embedded().is_some())
        );
    }
}
