//! Which evaluation new searches use: the hand-written one (the default until a network
//! beats it) or a network. One process-wide choice, read once when a search starts, so a
//! UCI option changed between searches never affects one in progress.
//! The UCI options `Eval` and `EvalFile` set it.

use super::Network;
use std::path::Path;
use std::sync::{Arc, RwLock};

/// The network shipped inside the binary, if one is shipped yet.
const EMBEDDED: Option<&[u8]> = None;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvalKind {
    Classical,
    Nnue,
}

struct Choice {
    kind: EvalKind,
    /// The network loaded by `EvalFile`, or the embedded one.
    network: Option<Arc<Network>>,
}

static CHOICE: RwLock<Choice> = RwLock::new(Choice {
    kind: EvalKind::Classical,
    network: None,
});

/// The embedded network, parsed (None when none is shipped or it does not parse).
pub fn embedded() -> Option<Network> {
    EMBEDDED.and_then(|bytes| Network::from_bytes(bytes).ok())
}

/// Use the hand-written evaluation or the network. The choice is stored even when it returns
/// an error: `Err` says the network was chosen but none is loaded or embedded, so searches
/// use the hand-written evaluation until `load_file` succeeds (GUIs may send `Eval` before
/// `EvalFile`).
pub fn set_kind(kind: EvalKind) -> Result<(), String> {
    let mut choice = CHOICE.write().unwrap_or_else(|p| p.into_inner());
    choice.kind = kind;
    if kind == EvalKind::Nnue && choice.network.is_none() {
        match embedded() {
            Some(net) => choice.network = Some(Arc::new(net)),
            None => {
                return Err(
                    "no network loaded and none embedded: set EvalFile; using the classical evaluation until then"
                        .to_string(),
                )
            }
        }
    }
    Ok(())
}

/// Load a network file for `Eval nnue` (it takes effect at once if the network is already
/// chosen). An empty path or `<embedded>` goes back to the embedded network. On error
/// nothing changes.
pub fn load_file(path: &str) -> Result<(), String> {
    let net = if path.is_empty() || path == "<embedded>" {
        // Back to the built-in network, or to none when this build ships none.
        embedded()
    } else {
        Some(Network::load(Path::new(path))?)
    };
    CHOICE.write().unwrap_or_else(|p| p.into_inner()).network = net.map(Arc::new);
    Ok(())
}

/// The network new searches should use, or None for the hand-written evaluation.
pub fn active() -> Option<Arc<Network>> {
    let choice = CHOICE.read().unwrap_or_else(|p| p.into_inner());
    match choice.kind {
        EvalKind::Classical => None,
        EvalKind::Nnue => choice.network.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_files_change_nothing_and_say_why() {
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
    }
}
