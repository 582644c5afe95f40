//! The command-line tools as the tests run them: the binary run to its end, and a scratch
//! folder for the files it reads and writes.

use super::BIN;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Run `sandglass args` to its end.
pub fn tool(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot start {BIN}: {e}"))
}

/// The stdout of `sandglass args`, which must succeed; a failed run fails the test with its
/// status and stderr.
pub fn accepted(args: &[&str]) -> String {
    let out = tool(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?}: {}\n{stderr}", out.status);
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// What a run that had to succeed printed, stdout then stderr; a failed run fails the test
/// with that text.
pub fn succeeded(out: Output) -> String {
    let log = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{}: {log}", out.status);
    log
}

/// A path as a command-line argument.
pub fn arg(path: &Path) -> &str {
    path.to_str().expect("temp paths are UTF-8")
}

/// A folder of one test's own under the system's temporary directory, empty when made and
/// removed when dropped, so a test that fails cleans up too. The tests of a file run in
/// parallel and several files may run at once: the name carries the process and a count.
pub struct Scratch(PathBuf);

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("sandglass-{name}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        Scratch(dir)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    /// A path inside the folder (nothing is made there).
    pub fn join(&self, name: impl AsRef<Path>) -> PathBuf {
        self.0.join(name)
    }

    /// A file inside the folder holding `contents`.
    pub fn file(&self, name: impl AsRef<Path>, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.join(name);
        std::fs::write(&path, contents).expect("write temp file");
        path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
