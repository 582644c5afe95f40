//! The command-line tools as a shell runs them (issue 38): quiet on a closed stdout, as
//! `sandglass tm --tc 300+3 | head` needs, and honest about `SANDGLASS_ABLATE`.

mod common;

use common::tools::{accepted, arg, tool, Scratch};
use common::BIN;
use std::io::Read;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// Run `sandglass args` with its stdout closed before it prints anything (what `| head` does
/// once it has its lines); returns how it ended and its stderr. Fails if it runs past 60 s.
fn run_with_stdout_closed(args: &[&str]) -> (ExitStatus, String) {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {BIN}: {e}"));
    drop(child.stdout.take());
    wait_a_minute(child, args)
}

/// Run `sandglass args` to its end; returns how it ended and its stderr. Fails if it runs
/// past 60 s (where a hang is tested, the fixed code takes well under a second).
fn run_to_end(args: &[&str]) -> (ExitStatus, String) {
    let child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {BIN}: {e}"));
    wait_a_minute(child, args)
}

/// How `child` (started as `sandglass args`) ended, and its stderr; killed, and the test
/// failed, if it runs past 60 s.
fn wait_a_minute(mut child: Child, args: &[&str]) -> (ExitStatus, String) {
    let mut stderr = child.stderr.take().expect("stderr");
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("sandglass {args:?} ran for a minute");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    (status, reader.join().unwrap_or_default())
}

/// Ended as a command-line tool does on a closed pipe: with success, or by SIGPIPE.
fn quiet_end(status: ExitStatus) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if status.signal() == Some(13) {
            return true;
        }
    }
    status.success()
}

/// `sandglass tm --tc 300+3 | head` panicked with "Broken pipe" and a backtrace; every tool
/// that prints ends quietly instead.
#[test]
fn every_tool_ends_quietly_when_stdout_is_closed() {
    let epd = concat!(env!("CARGO_MANIFEST_DIR"), "/data/epd/wac.epd");
    let tools: [&[&str]; 6] = [
        &["tm", "--tc", "300+3"],
        &["tm", "--tc", "60+0.6", "--strategy", "all"],
        &["perft", "3", "--divide"],
        &["bench", "2"],
        &["epd", epd, "--movetime", "10", "--limit", "2"],
        &["--help"],
    ];
    for args in tools {
        let (status, stderr) = run_with_stdout_closed(args);
        assert!(
            quiet_end(status) && !stderr.contains("panicked") && !stderr.contains("Broken pipe"),
            "sandglass {args:?} with stdout closed: {status}\n{stderr}"
        );
    }
}

/// `sandglass --version` names the crate's version, as the UCI `id name` does, so a tester's
/// report of either identifies the release.
#[test]
fn version_prints_the_crate_version() {
    let out = accepted(&["--version"]);
    assert_eq!(out, format!("sandglass {}\n", env!("CARGO_PKG_VERSION")));
}

/// A tool run with `SANDGLASS_ABLATE` says on stderr which names it took and which it
/// refused (a misspelt name used to switch nothing off without a word).
#[test]
fn a_tool_names_the_ablation_it_took_and_refused() {
    let out = Command::new(BIN)
        .args(["bench", "1"])
        .env("SANDGLASS_ABLATE", "lmr,lrm")
        .output()
        .unwrap_or_else(|e| panic!("cannot start {BIN}: {e}"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("SANDGLASS_ABLATE: off lmr; refused (no such technique) lrm"),
        "{stderr}"
    );
}

/// `epd --nodes` searches a fixed number of nodes per position, so two runs print the same
/// moves and the same score whatever the load (what lets a suite screen a search change while
/// matches hold the cores); `--nodes 0` is refused.
#[test]
fn epd_with_a_node_limit_repeats_itself() {
    let epd = concat!(env!("CARGO_MANIFEST_DIR"), "/data/epd/wac.epd");
    let run = |nodes: &str| tool(&["epd", epd, "--nodes", nodes, "--limit", "12"]);
    let (first, second) = (run("3000"), run("3000"));
    let text = String::from_utf8_lossy(&first.stdout);
    assert!(first.status.success(), "{text}");
    assert!(
        text.contains("/12 (") && text.contains("at 3000 nodes per position"),
        "{text}"
    );
    assert_eq!(first.stdout, second.stdout);
    assert!(!run("0").status.success());
}

/// `epd --eval-file` plays the suite with the network it names, so one binary compares two
/// networks: at a fixed node count the embedded network and network 7 score STS's first
/// positions differently, and a file that is not a network is refused.
#[test]
fn epd_searches_with_the_network_it_is_given() {
    let sts = concat!(env!("CARGO_MANIFEST_DIR"), "/data/epd/sts.epd");
    let args =
        |extra: &[&'static str]| [&["epd", sts, "--nodes", "400", "--limit", "40"], extra].concat();
    let net7 = concat!(env!("CARGO_MANIFEST_DIR"), "/data/nets/net7.nnue");
    let embedded = accepted(&args(&[]));
    let with_net7 = accepted(&args(&["--eval-file", net7]));
    assert!(with_net7.contains("STS score:"), "{with_net7}");
    assert_ne!(embedded, with_net7);
    let refused = tool(&args(&[
        "--eval-file",
        concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml"),
    ]));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        !refused.status.success() && stderr.contains("--eval-file"),
        "{stderr}"
    );
}

/// Positions in the shards of `dir`.
fn shard_positions(dir: &std::path::Path) -> u64 {
    let bytes: u64 = std::fs::read_dir(dir)
        .expect("the output folder")
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("shard-"))
        .map(|e| e.metadata().map_or(0, |m| m.len()))
        .sum();
    assert_eq!(bytes % sandglass::tools::packed::RECORD_BYTES as u64, 0);
    bytes / sandglass::tools::packed::RECORD_BYTES as u64
}

/// `datagen --positions N` writes exactly N positions (2,000 asked gave 2,253: every game was
/// kept whole), with two threads too, and a rerun with a larger N continues to exactly that.
#[test]
fn datagen_writes_exactly_the_positions_asked_for() {
    let dir = Scratch::new("cli-datagen");
    let book = concat!(env!("CARGO_MANIFEST_DIR"), "/data/books/noob_3moves_5k.epd");
    let out = arg(dir.path());
    for (positions, threads) in [("37", "2"), ("61", "1")] {
        let run = tool(&[
            "datagen",
            "--book",
            book,
            "--out",
            out,
            "--nodes",
            "100",
            "--positions",
            positions,
            "--threads",
            threads,
        ]);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(run.status.success(), "{stderr}");
        let want: u64 = positions.parse().expect("a count");
        assert_eq!(
            shard_positions(dir.path()),
            want,
            "--positions {positions}: {stderr}"
        );
        assert!(stderr.contains(&format!("{want} positions in")), "{stderr}");
    }
}

/// The datagen options of issue 39 run end to end, and what they cannot mean is refused
/// with a reason before any game is played.
#[test]
fn datagen_runs_with_soft_nodes_and_refuses_what_cannot_be_meant() {
    let dir = Scratch::new("cli-datagen-soft");
    let book = concat!(env!("CARGO_MANIFEST_DIR"), "/data/books/noob_3moves_5k.epd");
    let out = arg(dir.path());
    let datagen = |extra: &[&str]| {
        let mut args = vec!["datagen", "--book", book, "--out", out, "--positions", "20"];
        args.extend_from_slice(extra);
        tool(&args)
    };
    let run = datagen(&[
        "--soft-nodes",
        "200",
        "--min-random-plies",
        "8",
        "--random-plies",
        "9",
        "--reject-score",
        "400",
    ]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    assert_eq!(shard_positions(dir.path()), 20, "{stderr}");
    assert!(
        stderr.contains("positions/s") && stderr.contains("openings rejected"),
        "{stderr}"
    );
    // With the option the error must name. `--hash 0` was clamped to 1 MB, 40000 fell back
    // to 1 MB, `--threads 0` was clamped to 1: each ran as if asked for something else.
    for (options, name) in [
        (&["--reject-score=-1"][..], "reject-score"),
        (
            &["--min-random-plies", "9", "--random-plies", "8"][..],
            "random-plies",
        ),
        (&["--random-plies", "4294967295"][..], "random-plies"),
        (&["--hash", "0"][..], "hash"),
        (&["--hash", "40000"][..], "hash"),
        (&["--threads", "0"][..], "threads"),
        (&["--soft-nodes", "0"][..], "soft-nodes"),
        (&["--nodes", "0"][..], "nodes"),
    ] {
        let run = datagen(options);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(!run.status.success(), "{options:?} was accepted");
        assert!(stderr.contains(name), "{options:?}: {stderr}");
    }
}

/// A book whose games give no position looped for ever and wrote nothing: K v K (a dead
/// draw at once), here with two threads, and a mate in one (the only move mates, so no
/// position is quiet with a score). datagen now gives up with a reason.
#[test]
fn datagen_gives_up_on_a_book_that_gives_no_positions() {
    let dir = Scratch::new("cli-datagen-dry");
    let cases = [
        ("8/8/8/4k3/8/8/8/4K3 w - - 0 1", "2"),
        ("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", "1"),
    ];
    for (i, (fen, threads)) in cases.into_iter().enumerate() {
        let book = dir.file(format!("book-{i}.epd"), format!("{fen}\n"));
        let out = dir.join(format!("out-{i}"));
        let (status, stderr) = run_to_end(&[
            "datagen",
            "--book",
            arg(&book),
            "--out",
            arg(&out),
            "--positions",
            "10",
            "--nodes",
            "200",
            "--random-plies",
            "0",
            "--threads",
            threads,
        ]);
        assert!(!status.success(), "{fen}: {stderr}");
        assert!(
            stderr.contains("games in a row gave no position"),
            "{fen}: {stderr}"
        );
        assert_eq!(shard_positions(&out), 0, "{fen}");
    }
}

/// `bench --threads N` searches with Lazy SMP and says how long the searches took, the
/// figure it is for (time to depth); a thread count the `Threads` option would refuse is
/// refused.
#[test]
fn bench_times_the_depth_with_several_threads() {
    for threads in ["1", "2"] {
        let out = tool(&["bench", "4", "--threads", threads]);
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(out.status.success(), "{text}");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 52, "{text}");
        let time = lines[50];
        assert!(
            time.starts_with(&format!("depth 4, {threads} thread(s): "))
                && time.ends_with(" ms searching"),
            "{time}"
        );
        assert!(lines[51].ends_with(" nps"), "{text}");
    }
    for bad in ["0", "65", "two"] {
        let out = tool(&["bench", "1", "--threads", bad]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success() && stderr.contains("--threads"),
            "{bad}: {stderr}"
        );
    }
}

/// `bench --eval-file` searches with the network it names (another tree than the embedded
/// network's), and refuses a file that is not a network.
#[test]
fn bench_searches_with_the_network_it_is_given() {
    let candidate = concat!(env!("CARGO_MANIFEST_DIR"), "/data/nets/net8-candidate.nnue");
    let bench = |extra: &[&str]| tool(&[&["bench", "4"], extra].concat());
    let nodes = |extra: &[&str]| {
        let out = bench(extra);
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(out.status.success(), "{text}");
        let last = text.lines().last().unwrap_or_default().to_string();
        last.split_whitespace()
            .next()
            .unwrap_or_default()
            .to_string()
    };
    assert_ne!(nodes(&[]), nodes(&["--eval-file", candidate]));
    let refused = bench(&[
        "--eval-file",
        concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml"),
    ]);
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        !refused.status.success() && stderr.contains("--eval-file"),
        "{stderr}"
    );
}
