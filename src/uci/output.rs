//! Every line the engine prints goes through here: written whole under one lock and flushed,
//! so lines from the engine loop and the search thread never interleave, and nothing at all
//! is printed once `quit` has been received.

use std::io::Write;
use std::sync::Mutex;

static OUT: Mutex<bool> = Mutex::new(false);

/// Print one line (a newline is added).
pub fn emit(line: &str) {
    let quitting = OUT.lock().unwrap_or_else(|e| e.into_inner());
    if *quitting {
        return;
    }
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    // A closed pipe means the GUI is gone; there is nobody left to tell.
    let _ = lock.write_all(line.as_bytes());
    let _ = lock.write_all(b"\n");
    let _ = lock.flush();
    drop(lock);
    drop(quitting);
}

/// `info string error: …` for bad input.
pub fn error(message: &str) {
    emit(&format!("info string error: {message}"));
}

/// From now on print nothing (after `quit`).
pub fn silence() {
    *OUT.lock().unwrap_or_else(|e| e.into_inner()) = true;
}
