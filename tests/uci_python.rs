//! The engine driven by python-chess, a real UCI client (`tests/python/client.py`): analyse,
//! play against a clock, ponder, configure options and stop an infinite analysis.
//!
//! python-chess is a test dependency. `make test` installs it into a virtual environment,
//! `target/venv`, and names that Python in `SANDGLASS_PYTHON`; without the variable the test
//! uses `target/venv` if it exists, else `python3`. Without python-chess this test fails, it
//! is never skipped silently.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_sandglass");
const CLIENT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python/client.py");
const CHESS960_CLIENT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/python/chess960_client.py"
);
/// The whole client run; it takes a few seconds normally.
const TIMEOUT: Duration = Duration::from_secs(180);

fn drain(mut pipe: impl Read + Send + 'static) -> thread::JoinHandle<String> {
    thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.read_to_end(&mut bytes);
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

const VENV_PYTHON: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/target/venv/bin/python3");
const HOW: &str = "run `make test` (it installs python-chess into target/venv), or set \
                   SANDGLASS_PYTHON to a Python that has python-chess";

/// The Python to run the client with, and where that choice came from.
fn python() -> (String, &'static str) {
    match std::env::var("SANDGLASS_PYTHON") {
        Ok(p) if !p.is_empty() => (p, "SANDGLASS_PYTHON"),
        _ if Path::new(VENV_PYTHON).exists() => (VENV_PYTHON.to_string(), "target/venv"),
        _ => (
            "python3".to_string(),
            "the PATH (no SANDGLASS_PYTHON, no target/venv)",
        ),
    }
}

#[test]
fn python_chess_drives_the_engine() {
    run_client(CLIENT);
}

/// Chess960 as a GUI plays it: python-chess sets UCI_Chess960 and castles king-takes-rook.
#[test]
fn python_chess_plays_chess960_with_castling() {
    run_client(CHESS960_CLIENT);
}

fn run_client(client: &str) {
    let (python, from) = python();
    let probe = Command::new(&python)
        .args(["-c", "import chess, chess.engine"])
        .output();
    match probe {
        Err(e) => panic!("cannot run {python} (from {from}): {e}; {HOW}"),
        Ok(out) if !out.status.success() => panic!(
            "python-chess is missing in {python} (from {from}): {HOW}\n{}",
            String::from_utf8_lossy(&out.stderr)
        ),
        Ok(_) => {}
    }

    let mut child = Command::new(&python)
        .arg(client)
        .arg(BIN)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the Python client");
    let stdout = drain(child.stdout.take().expect("stdout"));
    let stderr = drain(child.stderr.take().expect("stderr"));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for the Python client") {
            break Some(status);
        }
        if started.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        thread::sleep(Duration::from_millis(20));
    };
    let out = stdout.join().unwrap_or_default();
    let err = stderr.join().unwrap_or_default();
    println!("--- {client} stdout ---\n{out}--- stderr ---\n{err}");
    match status {
        None => panic!("client.py did not finish within {TIMEOUT:?}\n{out}\n{err}"),
        Some(s) if s.code() == Some(3) => {
            panic!("python-chess is missing in {python} (from {from}): {HOW}\n{err}")
        }
        Some(s) => assert!(
            s.success(),
            "client.py failed ({s}) after {:?}\n{out}\n{err}",
            started.elapsed()
        ),
    }
}
