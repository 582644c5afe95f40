//! Every line the engine prints goes through here: written whole under one lock and flushed,
//! so lines from the engine loop and the search thread never interleave, and nothing at all
//! is printed once `quit` has been received. A line that cannot be written means stdout is
//! closed: the GUI is gone, and the engine loop quits when it sees [`closed`].

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

static OUT: Mutex<bool> = Mutex::new(false);
static CLOSED: AtomicBool = AtomicBool::new(false);

/// Print one line (a newline is added).
pub fn emit(line: &str) {
    let quitting = OUT.lock().unwrap_or_else(|e| e.into_inner());
    if *quitting {
        return;
    }
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    let written = lock
        .write_all(line.as_bytes())
        .and_then(|()| lock.write_all(b"\n"))
        .and_then(|()| lock.flush());
    if written.is_err() {
        // Nobody is left to tell: no error line, just stop.
        CLOSED.store(true, Ordering::SeqCst);
    }
    drop(lock);
    drop(quitting);
}

/// `info string error: …` for bad input.
pub fn error(message: &str) {
    emit(&format!("info string error: {message}"));
}

/// Whether a line could not be written (stdout is closed).
pub fn closed() -> bool {
    CLOSED.load(Ordering::SeqCst)
}

/// From now on print nothing (after `quit`).
pub fn silence() {
    *OUT.lock().unwrap_or_else(|e| e.into_inner()) = true;
}
