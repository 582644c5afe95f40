//! Which evaluation new searches use: the hand-written one (the default until a network
//! beats it) or a network. One process-wide choice, read once when a search starts, so a
//! UCI option changed between searches never affects one in progress.
//!
//! Until the UCI options call these functions, two environment variables (read once, at the
//! first search) select the network for matches: `SANDGLASS_EVAL=nnue` and
//! `SANDGLASS_EVALFILE=<path>`.

use super::Network;
use std::path::Path;
use std::sync::{Arc, Once, RwLock};

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
static FROM_ENV: Once = Once::new();

/// The embedded network, parsed (None when none is shipped or it does not parse).
pub fn embedded() -> Option<Network> {
    EMBEDDED.and_then(|bytes| Network::from_bytes(bytes).ok())
}

/// Use the hand-written evaluation or the network. The choice is stored even when it returns
/// an error: `Err` says the network was chosen but none is loaded or embedded, so searches
/// use the hand-written evaluation until `load_file` succeeds (GUIs may send `Eval` before
/// `EvalFile`).
pub fn set_kind(kind: EvalKind) -> Result<(), String> {
    apply_env_once();
    set_kind_now(kind)
}

fn set_kind_now(kind: EvalKind) -> Result<(), String> {
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
    apply_env_once();
    load_file_now(path)
}

fn load_file_now(path: &str) -> Result<(), String> {
    let net = if path.is_empty() || path == "<embedded>" {
        embedded().ok_or("no network is embedded in this build")?
    } else {
        Network::load(Path::new(path))?
    };
    CHOICE.write().unwrap_or_else(|p| p.into_inner()).network = Some(Arc::new(net));
    Ok(())
}

/// The network new searches should use, or None for the hand-written evaluation.
pub fn active() -> Option<Arc<Network>> {
    apply_env_once();
    let choice = CHOICE.read().unwrap_or_else(|p| p.into_inner());
    match choice.kind {
        EvalKind::Classical => None,
        EvalKind::Nnue => choice.network.clone(),
    }
}

fn apply_env_once() {
    FROM_ENV.call_once(|| {
        if let Ok(path) = std::env::var("SANDGLASS_EVALFILE") {
            if let Err(e) = load_file_now(&path) {
                eprintln!("SANDGLASS_EVALFILE: {e}");
            }
        }
        if std::env::var("SANDGLASS_EVAL").is_ok_and(|v| v == "nnue") {
            // Env-var errors go to stderr: this runs inside a search, with no UCI reply.
            if let Err(e) = set_kind_now(EvalKind::Nnue) {
                eprintln!("SANDGLASS_EVAL: {e}");
            }
        }
    });
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
