//! The page's server, on the standard library's `TcpListener`: a thread per connection, a
//! request read up to its blank line, and five routes.
//!
//! | route | answer |
//! |---|---|
//! | `GET /` | the page |
//! | `GET /events` | the live state as Server-Sent Events (see below) |
//! | `GET /state.json` | the state now, once (for scripts and tests) |
//! | `GET /figures.json` | the pictures of the game so far |
//! | `POST /control?action=pause\|resume\|hold&ms=N` | pause, resume, or hold after each move |
//!
//! `/events` sends `event: state` with the whole state, as one JSON line, whenever it
//! changed (at most the newest: a slow page skips states rather than queueing them), `event:
//! figures` when a move added to the pictures, and `event: tick` with the server's clock every
//! second when nothing changed. The ticks let the page tell a quiet server from a lost one:
//! with no message for three seconds it says "disconnected" and stops its clocks.
//!
//! A control must carry the header `X-Sandglass-Watch: 1`. A page served from elsewhere can
//! send a plain POST to 127.0.0.1 but not one with a header of its own (the browser would
//! first ask this server's permission, which it never gives), so only this page can pause
//! the game.
//!
//! No framework and no HTTP crate: the routes are five and the requests plain, and one file
//! of the standard library says all the server does.

use super::page;
use super::state::{Control, Shared};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

/// Longest request head read.
const MAX_HEAD: usize = 16 * 1024;
/// How long a client may take to send its request.
const READ_TIMEOUT: Duration = Duration::from_secs(5);
/// A tick on the event stream when nothing changed for this long.
pub const TICK: Duration = Duration::from_secs(1);

/// Listen on `host:port` (port 0: any free port). The message names the address and what
/// to do about it.
pub fn bind(host: &str, port: u16) -> Result<TcpListener, String> {
    let addr = format!("{host}:{port}");
    let shown = if host.contains(':') {
        format!("[{host}]:{port}")
    } else {
        addr.clone()
    };
    let target = if host.contains(':') { &shown } else { &addr };
    let another = "choose another with --port N, or --port 0 for any free port";
    TcpListener::bind(target).map_err(|e| match e.kind() {
        std::io::ErrorKind::AddrInUse => {
            format!("cannot listen on {shown}: the port is in use; {another}")
        }
        // A port below 1024 on Linux; on Windows, a port in a range the system reserved, or
        // one that another program holds for itself alone.
        std::io::ErrorKind::PermissionDenied => {
            format!("cannot listen on {shown}: {e}; {another}")
        }
        _ => format!("cannot listen on {shown}: {e}"),
    })
}

/// The address for people: `http://127.0.0.1:8089/`.
pub fn url(addr: SocketAddr) -> String {
    format!("http://{addr}/")
}

/// Serve the page from `listener` on a thread of its own, until the program ends.
pub fn spawn(listener: TcpListener, shared: Arc<Shared>) {
    thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { continue };
            let shared = Arc::clone(&shared);
            thread::spawn(move || {
                let _ = handle(stream, &shared);
            });
        }
    });
}

/// A request as far as the routes need it.
#[derive(Debug, PartialEq)]
pub struct Request {
    pub method: String,
    pub path: String,
    pub query: Vec<(String, String)>,
    /// The control header was sent.
    pub from_page: bool,
}

/// Read a request head: the request line and the headers, up to the blank line.
pub fn parse_request(head: &str) -> Option<Request> {
    let mut lines = head.split("\r\n");
    let mut first = lines.next()?.split(' ');
    let method = first.next()?.to_string();
    let target = first.next()?;
    if !first.next()?.starts_with("HTTP/1.") {
        return None;
    }
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let query = query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (k.to_string(), v.to_string())
        })
        .collect();
    let from_page = lines.any(|l| {
        l.split_once(':').is_some_and(|(k, v)| {
            k.trim().eq_ignore_ascii_case("x-sandglass-watch") && v.trim() == "1"
        })
    });
    Some(Request {
        method,
        path: path.to_string(),
        query,
        from_page,
    })
}

fn read_head(stream: &mut TcpStream) -> std::io::Result<Option<String>> {
    stream.set_read_timeout(Some(READ_TIMEOUT))?;
    let mut head = Vec::new();
    let mut chunk = [0u8; 2048];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        if head.len() > MAX_HEAD {
            return Ok(None);
        }
        let n = stream.read(&mut chunk)?;
        if n == 0 {
            return Ok(None);
        }
        head.extend_from_slice(&chunk[..n]);
    }
    let end = head
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or(head.len());
    Ok(Some(String::from_utf8_lossy(&head[..end]).into_owned()))
}

fn respond(stream: &mut TcpStream, status: &str, kind: &str, body: &[u8]) -> std::io::Result<()> {
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes())?;
    stream.write_all(body)?;
    stream.flush()
}

/// The control a request asks for, or why it is refused.
pub fn control_of(request: &Request) -> Result<Control, &'static str> {
    if !request.from_page {
        return Err("a control needs the header X-Sandglass-Watch: 1");
    }
    let get = |k: &str| {
        request
            .query
            .iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.as_str())
    };
    match get("action") {
        Some("pause") => Ok(Control::Pause),
        Some("resume") => Ok(Control::Resume),
        Some("hold") => get("ms")
            .and_then(|v| v.parse::<u64>().ok())
            .map(Control::Hold)
            .ok_or("hold needs ms=N"),
        _ => Err("action must be pause, resume or hold"),
    }
}

fn handle(mut stream: TcpStream, shared: &Shared) -> std::io::Result<()> {
    let Some(head) = read_head(&mut stream)? else {
        return Ok(());
    };
    let Some(request) = parse_request(&head) else {
        return respond(
            &mut stream,
            "400 Bad Request",
            "text/plain",
            b"bad request\n",
        );
    };
    match (request.method.as_str(), request.path.as_str()) {
        ("GET", "/") | ("GET", "/index.html") => {
            let html = page::live(&shared.read(|st| st.title.clone()));
            respond(
                &mut stream,
                "200 OK",
                "text/html; charset=utf-8",
                html.as_bytes(),
            )
        }
        ("GET", "/state.json") => {
            let json = shared.read(|st| st.json(shared.now_ms()));
            respond(&mut stream, "200 OK", "application/json", json.as_bytes())
        }
        ("GET", "/figures.json") => {
            let json = shared.read(|st| st.figures_json());
            respond(&mut stream, "200 OK", "application/json", json.as_bytes())
        }
        ("GET", "/events") => events(stream, shared),
        ("POST", "/control") => match control_of(&request) {
            Ok(c) => {
                shared.control(c);
                respond(&mut stream, "204 No Content", "text/plain", b"")
            }
            Err(why) => respond(
                &mut stream,
                "403 Forbidden",
                "text/plain",
                format!("{why}\n").as_bytes(),
            ),
        },
        (_, "/") | (_, "/state.json") | (_, "/figures.json") | (_, "/events") | (_, "/control") => {
            respond(
                &mut stream,
                "405 Method Not Allowed",
                "text/plain",
                b"method not allowed\n",
            )
        }
        _ => respond(&mut stream, "404 Not Found", "text/plain", b"not found\n"),
    }
}

/// The event stream of one page, until the page goes away.
fn events(mut stream: TcpStream, shared: &Shared) -> std::io::Result<()> {
    stream.write_all(
        b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\nConnection: close\r\n\r\nretry: 1000\n\n",
    )?;
    stream.flush()?;
    shared.viewer_joined();
    let result = stream_events(&mut stream, shared);
    shared.viewer_left();
    result
}

fn stream_events(stream: &mut TcpStream, shared: &Shared) -> std::io::Result<()> {
    let (mut seen, mut figures_seen) = (0, 0);
    loop {
        match shared.wait_newer(seen, figures_seen, TICK) {
            Some(news) => {
                if let Some((v, json)) = news.figures {
                    stream.write_all(format!("event: figures\ndata: {json}\n\n").as_bytes())?;
                    figures_seen = v;
                }
                stream.write_all(format!("event: state\ndata: {}\n\n", news.state).as_bytes())?;
                seen = news.version;
            }
            None => {
                let now = shared.now_ms();
                stream.write_all(
                    format!("event: tick\ndata: {{\"server_ms\":{now:.0}}}\n\n").as_bytes(),
                )?;
            }
        }
        stream.flush()?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_read() {
        let r = parse_request(
            "POST /control?action=hold&ms=5000 HTTP/1.1\r\nHost: x\r\nX-Sandglass-Watch: 1",
        )
        .unwrap_or_else(|| panic!("a request"));
        assert_eq!(r.method, "POST");
        assert_eq!(r.path, "/control");
        assert!(r.from_page);
        assert_eq!(control_of(&r), Ok(Control::Hold(5000)));
        let plain = parse_request("POST /control?action=pause HTTP/1.1\r\nHost: x")
            .unwrap_or_else(|| panic!("a request"));
        assert!(control_of(&plain).is_err());
        assert!(parse_request("GET /").is_none());
        assert!(parse_request("garbage").is_none());
        let get = parse_request("GET /events HTTP/1.1").unwrap_or_else(|| panic!("a request"));
        assert_eq!((get.path.as_str(), get.query.len()), ("/events", 0));
    }

    #[test]
    fn a_port_in_use_is_named() {
        let Ok(first) = bind("127.0.0.1", 0) else {
            return;
        };
        let Ok(addr) = first.local_addr() else {
            return;
        };
        let e = bind("127.0.0.1", addr.port()).err().unwrap_or_default();
        assert!(e.contains("in use") && e.contains("--port"), "{e}");
        assert_eq!(url(addr), format!("http://127.0.0.1:{}/", addr.port()));
    }
}
