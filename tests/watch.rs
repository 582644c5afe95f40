//! `sandglass watch` over loopback, as a page and a script see it (issue 89): the event
//! stream and its JSON while a short game is played, the controls, the page and the PGN saved
//! at the end (which `tm --pgn` replays to the very pictures the page shows), another UCI
//! program as a player, a game ended by SIGTERM and saved, and bad input (one line on stderr
//! and exit code 2).
//!
//! The page in a real browser is `make browser-test` (`tools/watch_browser.py`).

mod common;

use common::tools::{accepted, arg, Scratch};
use common::BIN;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// King and queen against king: a game of a few dozen plies that ends in mate, or at the
/// shortest controls sometimes by the fifty-move rule.
const SHORT_GAME: &str = "8/8/8/4k3/8/8/8/3QK3 w - - 0 1";
/// Longest a test game may take, on a loaded machine.
const GAME_LIMIT: Duration = Duration::from_secs(120);

/// `sandglass watch` running, and the address it printed.
struct Watch {
    child: Child,
    url: String,
    port: u16,
    stdout: BufReader<std::process::ChildStdout>,
}

impl Watch {
    /// Start `sandglass watch args` and read its address from its stdout.
    fn start(args: &[&str]) -> Watch {
        let mut child = Command::new(BIN)
            .arg("watch")
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {BIN}: {e}"));
        let mut stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        let mut said = String::new();
        let url = loop {
            let mut line = String::new();
            if stdout.read_line(&mut line).unwrap_or(0) == 0 {
                let _ = child.kill();
                let mut err = String::new();
                if let Some(mut e) = child.stderr.take() {
                    let _ = e.read_to_string(&mut err);
                }
                panic!("watch {args:?} printed no address:\n{said}{err}");
            }
            said.push_str(&line);
            if let Some(at) = line.find("open http://") {
                break line[at + 5..].trim().to_string();
            }
        };
        let port = url
            .trim_end_matches('/')
            .rsplit(':')
            .next()
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no port in {url}"));
        Watch {
            child,
            url,
            port,
            stdout,
        }
    }

    /// Wait for the end (killed, and the test failed, past `GAME_LIMIT`): how it ended, and
    /// the rest of its stdout and its stderr.
    fn finish(mut self) -> (ExitStatus, String, String) {
        let deadline = Instant::now() + GAME_LIMIT;
        let status = loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                break status;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("watch ran past {} s", GAME_LIMIT.as_secs());
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        let mut out = String::new();
        let _ = self.stdout.read_to_string(&mut out);
        let mut err = String::new();
        if let Some(mut e) = self.child.stderr.take() {
            let _ = e.read_to_string(&mut err);
        }
        (status, out, err)
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// One HTTP exchange: the status code and the body.
fn http(port: u16, method: &str, path: &str, headers: &str) -> (u16, String) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).expect("connect to watch");
    s.set_read_timeout(Some(Duration::from_secs(20))).ok();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{headers}Content-Length: 0\r\n\r\n"
    )
    .expect("send a request");
    let mut text = String::new();
    s.read_to_string(&mut text).expect("read the answer");
    let code = text
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = text
        .split_once("\r\n\r\n")
        .map_or(String::new(), |(_, b)| b.to_string());
    (code, body)
}

/// One Server-Sent Event: its name and its data.
#[derive(Debug)]
struct Event {
    name: String,
    data: String,
}

/// The event stream of `/events`, read as a page's `EventSource` reads it.
struct Events {
    reader: BufReader<TcpStream>,
}

impl Events {
    fn open(port: u16) -> Events {
        let mut s = TcpStream::connect(("127.0.0.1", port)).expect("connect to watch");
        s.set_read_timeout(Some(Duration::from_secs(10))).ok();
        write!(s, "GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").expect("send");
        let mut reader = BufReader::new(s);
        let mut head = String::new();
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).expect("read the head");
            if line.trim().is_empty() {
                break;
            }
            head.push_str(&line);
        }
        assert!(head.starts_with("HTTP/1.1 200"), "{head}");
        assert!(head.contains("Content-Type: text/event-stream"), "{head}");
        Events { reader }
    }

    /// The next event; None when the stream ends.
    fn next(&mut self) -> Option<Event> {
        let (mut name, mut data) = (String::new(), String::new());
        loop {
            let mut line = String::new();
            match self.reader.read_line(&mut line) {
                Ok(0) | Err(_) => return None,
                Ok(_) => {}
            }
            let line = line.trim_end_matches(['\r', '\n']);
            if line.is_empty() {
                if !name.is_empty() || !data.is_empty() {
                    return Some(Event { name, data });
                }
                continue;
            }
            if let Some(v) = line.strip_prefix("event: ") {
                name = v.to_string();
            } else if let Some(v) = line.strip_prefix("data: ") {
                assert!(data.is_empty(), "one data line an event: {line}");
                data = v.to_string();
            }
        }
    }
}

/// Whether `text` is one JSON value and nothing more (a reader strict enough for the state:
/// objects, arrays, strings with escapes, numbers, true, false, null).
fn is_json(text: &str) -> bool {
    fn ws(b: &[u8], mut i: usize) -> usize {
        while i < b.len() && b" \t\r\n".contains(&b[i]) {
            i += 1;
        }
        i
    }
    fn value(b: &[u8], i: usize) -> Option<usize> {
        let i = ws(b, i);
        match *b.get(i)? {
            b'{' => {
                let mut i = ws(b, i + 1);
                if b.get(i) == Some(&b'}') {
                    return Some(i + 1);
                }
                loop {
                    i = string(b, ws(b, i))?;
                    i = ws(b, i);
                    if b.get(i) != Some(&b':') {
                        return None;
                    }
                    i = ws(b, value(b, i + 1)?);
                    match b.get(i)? {
                        b',' => i += 1,
                        b'}' => return Some(i + 1),
                        _ => return None,
                    }
                }
            }
            b'[' => {
                let mut i = ws(b, i + 1);
                if b.get(i) == Some(&b']') {
                    return Some(i + 1);
                }
                loop {
                    i = ws(b, value(b, i)?);
                    match b.get(i)? {
                        b',' => i += 1,
                        b']' => return Some(i + 1),
                        _ => return None,
                    }
                }
            }
            b'"' => string(b, i),
            b't' => b[i..].starts_with(b"true").then_some(i + 4),
            b'f' => b[i..].starts_with(b"false").then_some(i + 5),
            b'n' => b[i..].starts_with(b"null").then_some(i + 4),
            _ => {
                let end = (i..b.len())
                    .find(|&j| !b"+-.eE0123456789".contains(&b[j]))
                    .unwrap_or(b.len());
                std::str::from_utf8(&b[i..end])
                    .ok()?
                    .parse::<f64>()
                    .ok()
                    .map(|_| end)
            }
        }
    }
    fn string(b: &[u8], i: usize) -> Option<usize> {
        if b.get(i) != Some(&b'"') {
            return None;
        }
        let mut i = i + 1;
        loop {
            match *b.get(i)? {
                b'"' => return Some(i + 1),
                b'\\' => {
                    i += match *b.get(i + 1)? {
                        b'u' => 6,
                        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => 2,
                        _ => return None,
                    }
                }
                c if c < 0x20 => return None,
                _ => i += 1,
            }
        }
    }
    let b = text.as_bytes();
    value(b, 0).is_some_and(|end| ws(b, end) == b.len())
}

#[test]
fn the_json_check_is_not_blind() {
    for good in [
        r#"{"a":[1,-2.5e3,true,null,"x\"\u003c"],"b":{}}"#,
        "[]",
        "0",
    ] {
        assert!(is_json(good), "{good}");
    }
    for bad in [
        r#"{"a":1,}"#,
        "{\"a\":\"\n\"}",
        "[1 2]",
        "{} {}",
        "tru",
        r#"{"a"}"#,
    ] {
        assert!(!is_json(bad), "{bad}");
    }
}

/// The figure `tm --pgn` draws for `player` from `pgn`.
fn tm_figure(scratch: &Scratch, pgn: &str, player: &str, n: usize) -> String {
    let svg = scratch.join(format!("tm-{n}.svg"));
    accepted(&[
        "tm",
        "--pgn",
        pgn,
        "--player",
        player,
        "--strategy",
        "expositor",
        "--svg",
        arg(&svg),
    ]);
    std::fs::read_to_string(&svg).expect("tm wrote its picture")
}

/// The pictures in the saved page's "game so far".
fn page_figures(html: &str) -> Vec<String> {
    let open = "<div id=\"figures\">";
    let from = html.find(open).expect("the figures' place") + open.len();
    let to = from + html[from..].find("</div>").expect("the figures' end");
    html[from..to]
        .split_inclusive("</svg>")
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// A whole short game seen through the event stream: it waits for its first page, every
/// event is one line of JSON, the move being thought carries the plan, the limits, the
/// depths and the soft-stop checks, the move played says why the search stopped, the
/// pictures come as the moves do, the controls answer only the page; at the end the saved
/// page shows the pictures `tm --pgn` draws from the saved PGN.
#[test]
fn a_game_seen_through_the_event_stream_and_saved() {
    let scratch = Scratch::new("watch-stream");
    let save = scratch.join("lesson");
    let w = Watch::start(&[
        "--port",
        "0",
        "--tc",
        "3+0.03",
        "--fen",
        SHORT_GAME,
        "--white",
        "expositor",
        "--black",
        "classic",
        "--linger",
        "1",
        "--save",
        arg(&save),
    ]);
    assert!(
        w.url.starts_with("http://127.0.0.1:"),
        "loopback by default: {}",
        w.url
    );
    let (code, before) = http(w.port, "GET", "/state.json", "");
    assert_eq!(code, 200);
    assert!(is_json(&before), "{before}");
    assert!(before.contains("\"phase\":\"waiting\""), "{before}");
    let (code, page) = http(w.port, "GET", "/", "");
    assert_eq!(code, 200);
    assert!(page.contains("new EventSource('/events')"));
    assert_eq!(http(w.port, "GET", "/nothing", "").0, 404);
    assert_eq!(http(w.port, "DELETE", "/state.json", "").0, 405);
    // A control without the page's header (a page from elsewhere) is refused.
    assert_eq!(http(w.port, "POST", "/control?action=pause", "").0, 403);

    let mut events = Events::open(w.port);
    let (mut states, mut figures) = (0, 0);
    let (mut saw_plan, mut saw_check, mut saw_reason, mut saw_iteration) =
        (false, false, false, false);
    let mut paused = false;
    let mut last_state = String::new();
    while let Some(e) = events.next() {
        assert!(is_json(&e.data), "{}: {}", e.name, e.data);
        match e.name.as_str() {
            "state" => {
                states += 1;
                let s = &e.data;
                saw_plan |= s.contains("\"plan\":{\"strategy\":\"expositor\"")
                    && s.contains("\"soft_ms\":")
                    && s.contains("\"hard_ms\":");
                saw_iteration |= s.contains("\"iterations\":[{\"depth\":");
                saw_check |= s.contains("\"checks\":[{\"depth\":");
                saw_reason |= s.contains("\"reason\":\"") && s.contains("\"timelog\":\"");
                // Pause after the first move, and resume when the pause is seen.
                if !paused && s.contains("\"moves\":[{") {
                    let header = "X-Sandglass-Watch: 1\r\n";
                    assert_eq!(http(w.port, "POST", "/control?action=pause", header).0, 204);
                    paused = true;
                } else if paused && s.contains("\"phase\":\"paused\"") {
                    let header = "X-Sandglass-Watch: 1\r\n";
                    assert_eq!(
                        http(w.port, "POST", "/control?action=resume", header).0,
                        204
                    );
                }
                last_state = e.data.clone();
                if s.contains("\"ending\":{") {
                    break;
                }
            }
            "figures" => {
                figures += 1;
                assert!(e.data.contains("\"svgs\":["), "{}", e.data);
            }
            "tick" => assert!(e.data.contains("\"server_ms\":"), "{}", e.data),
            other => panic!("an event named {other}"),
        }
    }
    assert!(
        states > 10 && figures > 2,
        "{states} states, {figures} figures"
    );
    assert!(saw_plan, "no plan with its limits");
    assert!(saw_iteration, "no depth reported");
    assert!(saw_check, "no soft-stop check reported");
    assert!(saw_reason, "no reason for a stop");
    assert!(paused, "never paused");
    assert!(
        last_state.contains("\"termination\":\"normal\""),
        "{last_state}"
    );

    let (status, out, err) = w.finish();
    assert!(status.success(), "{status}\n{out}\n{err}");
    let pgn_path = scratch.join("lesson.pgn");
    let html_path = scratch.join("lesson.html");
    assert!(
        out.contains(&format!("wrote {}", pgn_path.display())),
        "{out}"
    );
    let pgn = std::fs::read_to_string(&pgn_path).expect("the PGN");
    assert!(pgn.contains("[TimeControl \"3+0.03\"]"), "{pgn}");
    assert!(pgn.contains(&format!("[FEN \"{SHORT_GAME}\"]")), "{pgn}");
    assert!(pgn.contains("1. ") && pgn.contains(", tl="), "{pgn}");
    // The page's result is the PGN's. King and queen mostly mate, but at 0.03 s a move on a
    // loaded machine the fifty-move rule can come first: either is a finished game.
    let result = last_state
        .split_once("\"result\":\"")
        .and_then(|(_, rest)| rest.split_once('"'))
        .map_or("", |(result, _)| result);
    assert!(
        ["1-0", "1/2-1/2"].contains(&result),
        "the page's result: {last_state}"
    );
    assert!(pgn.contains(&format!("[Result \"{result}\"]")), "{pgn}");

    let html = std::fs::read_to_string(&html_path).expect("the page");
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.contains("<body class=\"saved\">"));
    let saved_state = html
        .split_once("window.WATCH_SAVED = ")
        .and_then(|(_, rest)| rest.split_once(";</script>"))
        .map_or("", |(json, _)| json);
    assert!(is_json(saved_state), "the saved state: {saved_state}");
    assert!(saved_state.contains("\"phase\":\"over\""), "{saved_state}");
    assert!(
        saved_state.contains("\"words\":\"checkmate\""),
        "{saved_state}"
    );
    for outside in ["src=\"http", "href=\"http", "@import", "url(http", "//cdn"] {
        assert!(!html.contains(outside), "the saved page fetches {outside}");
    }
    // The same pictures as `tm --pgn` draws from the saved PGN, one for each Sandglass.
    let shown = page_figures(&html);
    assert_eq!(shown.len(), 2, "one picture a Sandglass player");
    for (n, (player, strategy)) in [
        ("Sandglass (expositor)", "expositor"),
        ("Sandglass (classic)", "classic"),
    ]
    .into_iter()
    .enumerate()
    {
        assert!(html.contains(player), "{player}");
        let svg = scratch.join(format!("tm-{n}.svg"));
        accepted(&[
            "tm",
            "--pgn",
            arg(&pgn_path),
            "--player",
            player,
            "--strategy",
            strategy,
            "--svg",
            arg(&svg),
        ]);
        let drawn = std::fs::read_to_string(&svg).expect("tm wrote its picture");
        assert_eq!(shown[n], drawn.trim(), "{player}'s picture");
    }
}

/// Another UCI program as Black (Sandglass itself, run as an engine), under a control of
/// moves in a time: it plays through `position` and `go … movestogo`, the page says what its
/// `info` lines say and that it does not say why it stopped, and `tm --pgn` replays the game.
#[test]
fn another_uci_program_plays_black() {
    // The command is quoted as this platform's programs quote theirs (issue 105): quoted, the
    // path may hold spaces, and on Windows its backslashes stay as they are.
    let command = if cfg!(windows) {
        format!("\"{BIN}\"")
    } else {
        format!("\"{}\"", BIN.replace('\\', "\\\\").replace('"', "\\\""))
    };
    let scratch = Scratch::new("watch-uci");
    let save = scratch.join("vs");
    let w = Watch::start(&[
        "--port",
        "0",
        "--tc",
        "10/2",
        "--fen",
        SHORT_GAME,
        "--black-cmd",
        &command,
        "--linger",
        "0",
        "--save",
        arg(&save),
    ]);
    let (code, state) = http(w.port, "GET", "/state.json", "");
    assert_eq!(code, 200);
    assert!(is_json(&state), "{state}");
    assert!(state.contains("\"kind\":\"uci\""), "{state}");
    let mut events = Events::open(w.port);
    let (mut depths, mut unsaid) = (false, false);
    while let Some(e) = events.next() {
        let black = e.data.contains("\"thinking\":{\"side\":1");
        depths |= black && e.data.contains("\"iterations\":[{\"depth\":");
        unsaid |= e
            .data
            .contains("\"reason\":\"the program does not say why it stopped\"");
        if e.name == "state" && e.data.contains("\"ending\":{") {
            break;
        }
    }
    assert!(depths, "the program's depths, from its info lines");
    assert!(
        unsaid,
        "the page says the program does not say why it stopped"
    );
    let (status, out, err) = w.finish();
    assert!(status.success(), "{status}\n{out}\n{err}");
    let pgn = std::fs::read_to_string(scratch.join("vs.pgn")).expect("the PGN");
    assert!(pgn.contains("[TimeControl \"10/2\"]"), "{pgn}");
    assert!(pgn.contains("1... K"), "Black moved: {pgn}");
    let html = std::fs::read_to_string(scratch.join("vs.html")).expect("the page");
    // One picture, White's (the Sandglass in this process), as `tm --pgn` draws it.
    let shown = page_figures(&html);
    assert_eq!(shown.len(), 1);
    let drawn = tm_figure(
        &scratch,
        arg(&scratch.join("vs.pgn")),
        "Sandglass (expositor)",
        0,
    );
    assert_eq!(shown[0], drawn.trim());
}

/// SIGTERM (a `kill`, a service manager) ends the game as Ctrl-C does (issue 106): what was
/// played is saved as PATH.pgn and PATH.html, and the exit code is 1, a game not played out.
#[cfg(unix)]
#[test]
fn sigterm_saves_the_game_as_ctrl_c_does() {
    let scratch = Scratch::new("watch-term");
    let save = scratch.join("stopped");
    // A control long enough that the game is far from over when the signal comes.
    let w = Watch::start(&[
        "--port",
        "0",
        "--no-wait",
        "--tc",
        "20+0.2",
        "--linger",
        "0",
        "--save",
        arg(&save),
    ]);
    let deadline = Instant::now() + GAME_LIMIT;
    loop {
        let (_, state) = http(w.port, "GET", "/state.json", "");
        if state.contains("\"moves\":[{") {
            break;
        }
        assert!(Instant::now() < deadline, "no first move: {state}");
        std::thread::sleep(Duration::from_millis(20));
    }
    let pid = i32::try_from(w.child.id()).expect("a process id");
    // SAFETY: a signal to the child this test started and has not yet waited for.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0, "kill -TERM");
    let (status, out, err) = w.finish();
    assert_eq!(status.code(), Some(1), "{status}\n{out}\n{err}");
    let stopped = "stopped by Ctrl-C or a request to end";
    assert!(out.contains(stopped), "{out}");
    let pgn = std::fs::read_to_string(scratch.join("stopped.pgn")).expect("the PGN");
    assert!(
        pgn.contains("[Result \"*\"]") && pgn.contains("1. "),
        "{pgn}"
    );
    let html = std::fs::read_to_string(scratch.join("stopped.html")).expect("the page");
    assert!(html.contains("<body class=\"saved\">") && html.contains(stopped));
}

/// `sandglass watch args` run to its end with nothing listening: status, stdout, stderr.
fn refused(args: &[&str]) -> (ExitStatus, String, String) {
    let out = Command::new(BIN)
        .arg("watch")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot start {BIN}: {e}"));
    (
        out.status,
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A port in use, a program that does not start, one that ends at once and one that never
/// says `uciok`: one line on stderr, exit code 2, and no address printed.
#[test]
fn bad_input_gets_one_line_and_exit_code_2() {
    let taken = TcpListener::bind("127.0.0.1:0").expect("a free port");
    let port = taken.local_addr().expect("its address").port().to_string();
    let cases: [(Vec<&str>, &str); 5] = [
        (vec!["--port", &port], "the port is in use"),
        (
            vec!["--port", "0", "--black-cmd", "/no/such/engine"],
            "does not start",
        ),
        (vec!["--port", "0", "--white-cmd", "true"], "ended"),
        (
            vec!["--port", "0", "--black-cmd", "cat", "--uci-timeout", "0.5"],
            "did not answer with `uciok` within 0.5 s",
        ),
        (vec!["--port", "0", "--tc", "soon"], "--tc"),
    ];
    for (args, words) in cases {
        let started = Instant::now();
        let (status, out, err) = refused(&args);
        assert_eq!(status.code(), Some(2), "{args:?}: {status}\n{out}{err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: one line\n{err}");
        assert!(err.starts_with("sandglass: "), "{args:?}: {err}");
        assert!(err.contains(words), "{args:?}: {err}");
        assert!(!out.contains("open http"), "{args:?}: {out}");
        assert!(started.elapsed() < Duration::from_secs(30), "{args:?}");
    }
    drop(taken);
}
