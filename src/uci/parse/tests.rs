use super::*;
use crate::time::GoLimits;

fn cmd(line: &str) -> Option<Command> {
    parse(line).command
}

fn go(line: &str) -> GoParams {
    match parse(line).command {
        Some(Command::Go(g)) => g,
        other => panic!("{line:?}: expected go, got {other:?}"),
    }
}

fn limits(line: &str) -> GoLimits {
    go(line).limits
}

/// A `go` without search moves.
fn go_with(limits: GoLimits) -> GoParams {
    GoParams {
        limits,
        searchmoves: Vec::new(),
    }
}

/// The limits of a `go` line that had something unreadable, and nothing else.
fn unreadable() -> GoLimits {
    GoLimits {
        unreadable: true,
        ..GoLimits::default()
    }
}

/// The command as its rendering parses back: a rendering holds only the limits that were
/// read, so it is never unreadable.
fn readable(mut command: Command) -> Command {
    if let Command::Go(go) = &mut command {
        go.limits.unreadable = false;
    }
    command
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn startpos(moves: &[&str]) -> Command {
    Command::Position {
        start: PositionStart::StartPos,
        moves: strings(moves),
    }
}

fn fen(fen: &str, moves: &[&str]) -> Command {
    Command::Position {
        start: PositionStart::Fen(fen.to_string()),
        moves: strings(moves),
    }
}

fn opt(name: &str, value: Option<&str>) -> Command {
    Command::SetOption {
        name: name.to_string(),
        value: value.map(str::to_string),
    }
}

use crate::rng::Rng;

const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn simple_commands_are_clean() {
    let cases = [
        ("uci", Command::Uci),
        ("isready", Command::IsReady),
        ("ucinewgame", Command::UciNewGame),
        ("stop", Command::Stop),
        ("ponderhit", Command::PonderHit),
        ("quit", Command::Quit),
        ("debug on", Command::Debug(true)),
        ("debug off", Command::Debug(false)),
        ("go", Command::Go(GoParams::default())),
        ("position startpos", startpos(&[])),
        ("setoption name Hash value 64", opt("Hash", Some("64"))),
        ("", Command::Empty),
        ("   ", Command::Empty),
        (" \t \r", Command::Empty),
        ("\r", Command::Empty),
        ("  isready  ", Command::IsReady),
        ("\tquit\t", Command::Quit),
        ("uci\r", Command::Uci),
        ("uci\r\n", Command::Uci),
    ];
    for (line, expected) in cases {
        let p = parse(line);
        assert_eq!(p.command, Some(expected), "{line:?}");
        assert!(p.problems.is_empty(), "{line:?}: {:?}", p.problems);
    }
}

#[test]
fn trailing_tokens_are_reported_but_command_kept() {
    let cases = [
        ("uci now", Command::Uci, "uci: unexpected 'now' ignored"),
        (
            "isready x y",
            Command::IsReady,
            "isready: unexpected 'x y' ignored",
        ),
        (
            "ucinewgame 1",
            Command::UciNewGame,
            "ucinewgame: unexpected '1' ignored",
        ),
        (
            "stop stop",
            Command::Stop,
            "stop: unexpected 'stop' ignored",
        ),
        (
            "ponderhit e2e4",
            Command::PonderHit,
            "ponderhit: unexpected 'e2e4' ignored",
        ),
        (
            "quit please",
            Command::Quit,
            "quit: unexpected 'please' ignored",
        ),
        (
            "isready go",
            Command::IsReady,
            "isready: unexpected 'go' ignored",
        ),
    ];
    for (line, expected, problem) in cases {
        let p = parse(line);
        assert_eq!(p.command, Some(expected), "{line:?}");
        assert_eq!(p.problems, vec![problem.to_string()], "{line:?}");
    }
}

#[test]
fn unknown_leading_tokens_are_skipped() {
    let p = parse("joho debug on");
    assert_eq!(p.command, Some(Command::Debug(true)));
    assert_eq!(p.problems, vec!["unknown token 'joho' skipped"]);

    let p = parse("foo bar isready");
    assert_eq!(p.command, Some(Command::IsReady));
    assert_eq!(p.problems, vec!["unknown tokens 'foo bar' skipped"]);

    let p = parse("12 go depth 3");
    assert_eq!(
        p.command.unwrap(),
        Command::Go(go_with(GoLimits {
            depth: Some(3),
            ..Default::default()
        }))
    );
    assert_eq!(p.problems.len(), 1);
}

#[test]
fn unknown_commands() {
    let p = parse("xyz");
    assert_eq!(p.command, None);
    assert_eq!(p.problems, vec!["unknown command 'xyz'"]);

    let p = parse("  hello   world ");
    assert_eq!(p.command, None);
    assert_eq!(p.problems, vec!["unknown command 'hello world'"]);

    for line in ["d", "show", "eval", "bench", "perft 5", "\u{fffd}\u{fffd}"] {
        let p = parse(line);
        assert_eq!(p.command, None, "{line:?}");
        assert_eq!(p.problems.len(), 1, "{line:?}");
        assert!(p.problems[0].starts_with("unknown command '"), "{line:?}");
    }
}

#[test]
fn commands_are_case_sensitive() {
    for line in [
        "GO",
        "Go depth 5",
        "UCI",
        "IsReady",
        "QUIT",
        "Position startpos",
        "DEBUG on",
    ] {
        let p = parse(line);
        assert_eq!(p.command, None, "{line:?}");
        assert_eq!(p.problems.len(), 1, "{line:?}");
        assert!(p.problems[0].starts_with("unknown command"), "{line:?}");
        assert!(
            p.problems[0].ends_with("(commands are case-sensitive)"),
            "{line:?}"
        );
    }
    // Keywords inside commands are case-sensitive too.
    assert_eq!(parse("debug ON").command, None);
    assert_eq!(parse("position STARTPOS").command, None);
    assert_eq!(parse("setoption NAME Hash").command, None);
    let p = parse("go DEPTH 5");
    assert_eq!(p.command, Some(Command::Go(go_with(unreadable()))));
    assert_eq!(
        p.problems,
        vec![
            "go: unknown token 'DEPTH' skipped",
            "go: unknown token '5' skipped"
        ]
    );
}

#[test]
fn register_is_not_needed() {
    for line in ["register", "register later", "register name Bob code 42"] {
        let p = parse(line);
        assert_eq!(p.command, None, "{line:?}");
        assert_eq!(
            p.problems,
            vec!["register: not needed, ignored"],
            "{line:?}"
        );
    }
}

#[test]
fn debug_variants() {
    let cases: [(&str, Option<Command>, &[&str]); 8] = [
        ("debug on", Some(Command::Debug(true)), &[]),
        ("debug off", Some(Command::Debug(false)), &[]),
        ("debug", None, &["debug: needs 'on' or 'off', got nothing"]),
        (
            "debug maybe",
            None,
            &["debug: needs 'on' or 'off', got 'maybe'"],
        ),
        (
            "debug joho on",
            Some(Command::Debug(true)),
            &["debug: unknown token 'joho' skipped"],
        ),
        (
            "debug on off",
            Some(Command::Debug(true)),
            &["debug: unexpected 'off' ignored"],
        ),
        ("debug\toff\r", Some(Command::Debug(false)), &[]),
        (
            "debug true",
            None,
            &["debug: needs 'on' or 'off', got 'true'"],
        ),
    ];
    for (line, expected, problems) in cases {
        let p = parse(line);
        assert_eq!(p.command, expected, "{line:?}");
        assert_eq!(p.problems, strings(problems), "{line:?}");
    }
}

#[test]
fn position_variants() {
    let fen1 = "8/8/8/4k3/8/8/8/4K2R w K - 0 1";
    let cases: Vec<(&str, Option<Command>, usize)> = vec![
        ("position startpos", Some(startpos(&[])), 0),
        ("position startpos moves", Some(startpos(&[])), 0),
        ("position startpos moves   ", Some(startpos(&[])), 0),
        ("position startpos moves e2e4", Some(startpos(&["e2e4"])), 0),
        (
            "position startpos moves e2e4 e7e5 g1f3",
            Some(startpos(&["e2e4", "e7e5", "g1f3"])),
            0,
        ),
        (
            "  position   startpos   moves  e2e4\t e7e5 \r",
            Some(startpos(&["e2e4", "e7e5"])),
            0,
        ),
        // Moves are passed through as given, even nonsense.
        (
            "position startpos moves e2e4 xx E7E5 moves",
            Some(startpos(&["e2e4", "xx", "E7E5", "moves"])),
            0,
        ),
        (
            "position fen 8/8/8/4k3/8/8/8/4K2R w K - 0 1",
            Some(fen(fen1, &[])),
            0,
        ),
        (
            "position fen 8/8/8/4k3/8/8/8/4K2R w K - 0 1 moves e1g1",
            Some(fen(fen1, &["e1g1"])),
            0,
        ),
        (
            "position fen 8/8/8/4k3/8/8/8/4K2R   w \t K  -  0   1   moves   e1g1 ",
            Some(fen(fen1, &["e1g1"])),
            0,
        ),
        (
            "position fen 8/8/8/4k3/8/8/8/4K2R w K - 0 1 moves",
            Some(fen(fen1, &[])),
            0,
        ),
        // Short FEN (no counters) is passed through; validation is elsewhere.
        (
            "position fen 8/8/8/8/8/8/8/K6k w - -",
            Some(fen("8/8/8/8/8/8/8/K6k w - -", &[])),
            0,
        ),
        ("position fen garbage", Some(fen("garbage", &[])), 0),
        ("position", None, 1),
        ("position foo", None, 1),
        ("position moves e2e4", None, 1),
        ("position fen", None, 1),
        ("position fen   ", None, 1),
        ("position fen moves e2e4", None, 1),
        (
            "position foo startpos moves e2e4",
            Some(startpos(&["e2e4"])),
            1,
        ),
        ("position startpos e2e4 e7e5", Some(startpos(&[])), 1),
        (
            "position startpos junk moves d2d4",
            Some(startpos(&["d2d4"])),
            1,
        ),
    ];
    for (line, expected, n_problems) in cases {
        let p = parse(line);
        // A `position` line that gives no command is flagged, so the engine drops the
        // previous position instead of searching it.
        assert_eq!(p.position_rejected, expected.is_none(), "{line:?}");
        assert_eq!(p.command, expected, "{line:?}");
        assert_eq!(p.problems.len(), n_problems, "{line:?}: {:?}", p.problems);
    }
    assert!(!parse("go depth 3").position_rejected);
    assert!(!parse("isready").position_rejected);
    assert_eq!(
        parse("position").problems,
        vec!["position: needs 'startpos' or 'fen', got nothing"]
    );
    assert_eq!(
        parse("position foo").problems,
        vec!["position: needs 'startpos' or 'fen', got 'foo'"]
    );
    assert_eq!(
        parse("position fen").problems,
        vec!["position: 'fen' needs the fen fields"]
    );
    assert_eq!(
        parse("position startpos e2e4").problems,
        vec!["position: unexpected 'e2e4' after 'startpos' ignored"]
    );
}

#[test]
fn position_with_standard_fen() {
    let line = format!("position fen {START_FEN} moves e2e4 c7c5");
    assert_eq!(cmd(&line), Some(fen(START_FEN, &["e2e4", "c7c5"])));
}

#[test]
fn position_with_500_moves() {
    let cycle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let moves: Vec<String> = (0..500).map(|i| cycle[i % 4].to_string()).collect();
    let line = format!("position startpos moves {}", moves.join(" "));
    let p = parse(&line);
    assert!(p.problems.is_empty());
    match p.command {
        Some(Command::Position {
            start: PositionStart::StartPos,
            moves: got,
        }) => assert_eq!(got, moves),
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn setoption_variants() {
    let cases: Vec<(&str, Option<Command>, usize)> = vec![
        (
            "setoption name Hash value 128",
            Some(opt("Hash", Some("128"))),
            0,
        ),
        (
            "setoption name Move Overhead value 100",
            Some(opt("Move Overhead", Some("100"))),
            0,
        ),
        (
            "setoption name Clear Hash",
            Some(opt("Clear Hash", None)),
            0,
        ),
        ("setoption name Hash value", Some(opt("Hash", Some(""))), 0),
        (
            "setoption name Hash value   \r",
            Some(opt("Hash", Some(""))),
            0,
        ),
        (
            "setoption name SyzygyPath value /tb/my tables/x",
            Some(opt("SyzygyPath", Some("/tb/my tables/x"))),
            0,
        ),
        (
            "setoption name  Move \t Overhead   value  1  2 ",
            Some(opt("Move Overhead", Some("1 2"))),
            0,
        ),
        (
            "setoption name hASH value TRUE",
            Some(opt("hASH", Some("TRUE"))),
            0,
        ),
        (
            "setoption name UCI_Chess960 value true",
            Some(opt("UCI_Chess960", Some("true"))),
            0,
        ),
        (
            "setoption name Threads value 2 value 3",
            Some(opt("Threads", Some("2 value 3"))),
            0,
        ),
        (
            "setoption name Größe value ünï",
            Some(opt("Größe", Some("ünï"))),
            0,
        ),
        (
            "setoption foo name Hash value 1",
            Some(opt("Hash", Some("1"))),
            1,
        ),
        ("setoption", None, 1),
        ("setoption Hash 128", None, 1),
        ("setoption name", None, 1),
        ("setoption name value 5", None, 1),
    ];
    for (line, expected, n_problems) in cases {
        let p = parse(line);
        assert_eq!(p.command, expected, "{line:?}");
        assert_eq!(p.problems.len(), n_problems, "{line:?}: {:?}", p.problems);
    }
    assert_eq!(
        parse("setoption").problems,
        vec!["setoption: missing 'name', got nothing"]
    );
    assert_eq!(
        parse("setoption Hash 128").problems,
        vec!["setoption: missing 'name', got 'Hash 128'"]
    );
    assert_eq!(
        parse("setoption name value 5").problems,
        vec!["setoption: empty option name"]
    );
}

fn full_go() -> GoParams {
    GoParams {
        limits: GoLimits {
            wtime: Some(300_000),
            btime: Some(295_500),
            winc: Some(2_000),
            binc: Some(1_000),
            movestogo: Some(40),
            depth: Some(20),
            nodes: Some(1_000_000),
            mate: Some(3),
            movetime: Some(5_000),
            infinite: true,
            ponder: true,
            unreadable: false,
        },
        searchmoves: strings(&["e2e4", "d2d4", "g1f3"]),
    }
}

#[test]
fn go_all_keys_in_shuffled_orders() {
    let mut groups: Vec<Vec<&str>> = vec![
        vec!["wtime", "300000"],
        vec!["btime", "295500"],
        vec!["winc", "2000"],
        vec!["binc", "1000"],
        vec!["movestogo", "40"],
        vec!["depth", "20"],
        vec!["nodes", "1000000"],
        vec!["mate", "3"],
        vec!["movetime", "5000"],
        vec!["infinite"],
        vec!["ponder"],
        vec!["searchmoves", "e2e4", "d2d4", "g1f3"],
    ];
    let expected = full_go();
    let mut rng = Rng::new(0x1234_5678_9abc_def1);
    for _ in 0..200 {
        for i in (1..groups.len()).rev() {
            let j = rng.below(i + 1);
            groups.swap(i, j);
        }
        let line = format!(
            "go {}",
            groups
                .iter()
                .map(|g| g.join(" "))
                .collect::<Vec<_>>()
                .join(" ")
        );
        let p = parse(&line);
        assert_eq!(p.command, Some(Command::Go(expected.clone())), "{line}");
        assert!(p.problems.is_empty(), "{line}: {:?}", p.problems);
    }
}

#[test]
fn go_typical_gui_lines() {
    let g = limits("go wtime 60000 btime 59000 winc 1000 binc 1000");
    assert_eq!(
        (g.wtime, g.btime, g.winc, g.binc),
        (Some(60000), Some(59000), Some(1000), Some(1000))
    );
    assert_eq!(g.movestogo, None);
    assert!(!g.infinite && !g.ponder);

    let g = limits("go ponder wtime 1 btime 2 movestogo 5");
    assert!(g.ponder);
    assert_eq!(g.movestogo, Some(5));

    assert!(limits("go infinite").infinite);
    assert_eq!(limits("go movetime 1000").movetime, Some(1000));
    assert_eq!(limits("go nodes 123456789012").nodes, Some(123_456_789_012));
    // No node limit, as without `nodes` (issue 38).
    assert_eq!(limits("go nodes 0").nodes, None);
    assert_eq!(limits("go mate 7").mate, Some(7));
    assert_eq!(limits("go depth 0").depth, Some(0));
    assert_eq!(limits("go movestogo 0").movestogo, Some(0));
    assert_eq!(limits("go depth +5").depth, Some(5));
    assert_eq!(limits("go depth 007").depth, Some(7));
    assert_eq!(limits("go wtime -0").wtime, Some(0));
    assert_eq!(limits("go\tdepth\t9\r").depth, Some(9));
}

#[test]
fn go_searchmoves() {
    let cases: Vec<(&str, &[&str], usize)> = vec![
        ("go searchmoves e2e4 d2d4", &["e2e4", "d2d4"], 0),
        ("go searchmoves e2e4 d2d4 depth 5", &["e2e4", "d2d4"], 0),
        (
            "go depth 5 searchmoves e7e8q a7a8N h2h1r 0000",
            &["e7e8q", "a7a8N", "h2h1r", "0000"],
            0,
        ),
        ("go searchmoves e2e4 infinite", &["e2e4"], 0),
        ("go searchmoves", &[], 1),
        ("go searchmoves depth 3", &[], 1),
        ("go searchmoves e2e4 foo d2d4", &["e2e4", "d2d4"], 1),
        (
            "go searchmoves e2e4 e2e4x i2i4 e9e4 e2e44 E2E4 d2d4",
            &["e2e4", "d2d4"],
            5,
        ),
        ("go searchmoves e2e4 searchmoves d2d4", &["d2d4"], 0),
    ];
    for (line, expected, n_problems) in cases {
        let p = parse(line);
        match p.command {
            Some(Command::Go(g)) => assert_eq!(g.searchmoves, strings(expected), "{line:?}"),
            other => panic!("{line:?}: {other:?}"),
        }
        assert_eq!(p.problems.len(), n_problems, "{line:?}: {:?}", p.problems);
    }
    assert_eq!(limits("go searchmoves e2e4 depth 5").depth, Some(5));
    assert_eq!(
        parse("go searchmoves e2e4 foo").problems,
        vec!["go: searchmoves: 'foo' is not a move, skipped"]
    );
    assert_eq!(
        parse("go searchmoves").problems,
        vec!["go: 'searchmoves' without moves ignored"]
    );
}

#[test]
fn go_bad_values() {
    // (line, resulting limits, exact problems)
    let d = GoLimits::default;
    let u = unreadable;
    let cases: Vec<(&str, GoLimits, &[&str])> =
        vec![
        ("go depth abc", u(), &["go: 'depth' needs a non-negative integer, got 'abc'"]),
        ("go depth", u(), &["go: 'depth' needs a non-negative integer, got nothing"]),
        ("go depth 5.5", u(), &["go: 'depth' needs a non-negative integer, got '5.5'"]),
        ("go depth -", u(), &["go: 'depth' needs a non-negative integer, got '-'"]),
        ("go depth 1e3", u(), &["go: 'depth' needs a non-negative integer, got '1e3'"]),
        ("go depth ５", u(), &["go: 'depth' needs a non-negative integer, got '５'"]),
        ("go wtime abc", u(), &["go: 'wtime' needs an integer, got 'abc'"]),
        ("go wtime", u(), &["go: 'wtime' needs an integer, got nothing"]),
        (
            "go depth infinite",
            GoLimits { infinite: true, ..u() },
            &["go: 'depth' needs a non-negative integer, got nothing"],
        ),
        (
            "go wtime btime 5",
            GoLimits { btime: Some(5), ..u() },
            &["go: 'wtime' needs an integer, got nothing"],
        ),
        (
            "go wtime -5",
            GoLimits { wtime: Some(-5), ..d() },
            &["go: negative wtime -5 (treated as no time left)"],
        ),
        (
            "go btime -1200",
            GoLimits { btime: Some(-1200), ..d() },
            &["go: negative btime -1200 (treated as no time left)"],
        ),
        ("go winc -10", GoLimits { winc: Some(0), ..d() }, &["go: negative winc -10 treated as 0"]),
        ("go binc -1", GoLimits { binc: Some(0), ..d() }, &["go: negative binc -1 treated as 0"]),
        ("go depth -3", u(), &["go: negative depth -3 ignored"]),
        ("go nodes -1", u(), &["go: negative nodes -1 ignored"]),
        ("go movetime -100", u(), &["go: negative movetime -100 ignored"]),
        ("go movestogo -2", u(), &["go: negative movestogo -2 ignored"]),
        ("go mate -1", u(), &["go: negative mate -1 ignored"]),
        (
            "go depth -99999999999999999999",
            u(),
            &["go: negative depth -99999999999999999999 ignored"],
        ),
        (
            "go depth 99999999999",
            GoLimits { depth: Some(u32::MAX), ..d() },
            &["go: depth 99999999999 out of range, clamped to 4294967295"],
        ),
        (
            "go movestogo 4294967296",
            GoLimits { movestogo: Some(u32::MAX), ..d() },
            &["go: movestogo 4294967296 out of range, clamped to 4294967295"],
        ),
        ("go mate 4294967295", GoLimits { mate: Some(u32::MAX), ..d() }, &[]),
        (
            "go nodes 99999999999999999999",
            GoLimits { nodes: Some(u64::MAX), ..d() },
            &["go: nodes 99999999999999999999 out of range, clamped to 18446744073709551615"],
        ),
        ("go nodes 18446744073709551615", GoLimits { nodes: Some(u64::MAX), ..d() }, &[]),
        (
            "go movetime 18446744073709551616",
            GoLimits { movetime: Some(u64::MAX), ..d() },
            &["go: movetime 18446744073709551616 out of range, clamped to 18446744073709551615"],
        ),
        (
            "go wtime 99999999999999999999",
            GoLimits { wtime: Some(i64::MAX), ..d() },
            &["go: wtime 99999999999999999999 out of range, clamped to 9223372036854775807"],
        ),
        (
            "go wtime 9223372036854775808",
            GoLimits { wtime: Some(i64::MAX), ..d() },
            &["go: wtime 9223372036854775808 out of range, clamped to 9223372036854775807"],
        ),
        ("go wtime -9223372036854775808", GoLimits { wtime: Some(i64::MIN), ..d() }, &[
            "go: negative wtime -9223372036854775808 (treated as no time left)",
        ]),
        (
            "go btime -9223372036854775809",
            GoLimits { btime: Some(i64::MIN), ..d() },
            &[
                "go: btime -9223372036854775809 out of range, clamped to -9223372036854775808",
                "go: negative btime -9223372036854775808 (treated as no time left)",
            ],
        ),
        (
            "go winc 99999999999999999999",
            GoLimits { winc: Some(i64::MAX), ..d() },
            &["go: winc 99999999999999999999 out of range, clamped to 9223372036854775807"],
        ),
        ("go foo", u(), &["go: unknown token 'foo' skipped"]),
        (
            "go depth 5 depth 7",
            GoLimits { depth: Some(7), ..d() },
            &[],
        ),
        (
            "go depth 5 depth x",
            GoLimits { depth: Some(5), ..u() },
            &["go: 'depth' needs a non-negative integer, got 'x'"],
        ),
        (
            "go wtime 100 wtime 200 infinite infinite",
            GoLimits { wtime: Some(200), infinite: true, ..d() },
            &[],
        ),
        (
            "go movetime 1000 e2e4",
            GoLimits { movetime: Some(1000), ..u() },
            &["go: unknown token 'e2e4' skipped"],
        ),
    ];
    for (line, expected, problems) in cases {
        let p = parse(line);
        assert_eq!(p.command, Some(Command::Go(go_with(expected))), "{line:?}");
        assert_eq!(p.problems, strings(problems), "{line:?}");
    }
}

#[test]
fn go_huge_number_is_echoed_short() {
    let digits = "9".repeat(10_000);
    let p = parse(&format!("go nodes {digits}"));
    assert_eq!(limits(&format!("go nodes {digits}")).nodes, Some(u64::MAX));
    assert_eq!(p.problems.len(), 1);
    assert!(p.problems[0].chars().count() < 120, "{}", p.problems[0]);
    assert!(p.problems[0].contains('…'));
}

#[test]
fn nul_and_control_characters() {
    let p = parse("isready\0");
    assert_eq!(p.command, Some(Command::IsReady));
    assert_eq!(p.problems, vec!["control characters treated as spaces"]);

    let p = parse("\0\0\0");
    assert_eq!(p.command, Some(Command::Empty));
    assert_eq!(p.problems, vec!["control characters treated as spaces"]);

    let p = parse("go\0depth\x015\x1b");
    assert_eq!(
        p.command,
        Some(Command::Go(go_with(GoLimits {
            depth: Some(5),
            ..Default::default()
        })))
    );
    assert_eq!(p.problems.len(), 1);

    let p = parse("x\0y\x07z");
    assert_eq!(p.command, None);
    for problem in &p.problems {
        assert!(!problem.chars().any(char::is_control), "{problem:?}");
    }

    let p = parse("position startpos moves e2e4\0e7e5");
    assert_eq!(p.command, Some(startpos(&["e2e4", "e7e5"])));
}

#[test]
fn crlf_tabs_and_odd_whitespace() {
    let cases = [
        ("position startpos moves e2e4\r", startpos(&["e2e4"])),
        ("position startpos moves e2e4\r\n", startpos(&["e2e4"])),
        (
            "position\tstartpos\tmoves\te2e4\te7e5",
            startpos(&["e2e4", "e7e5"]),
        ),
        ("\u{feff}uci", Command::Uci),
        ("\u{a0}isready\u{2003}", Command::IsReady),
        ("setoption name Hash value 16\r", opt("Hash", Some("16"))),
        ("debug on\r\r\r", Command::Debug(true)),
    ];
    for (line, expected) in cases {
        let p = parse(line);
        assert_eq!(p.command, Some(expected), "{line:?}");
        assert!(p.problems.is_empty(), "{line:?}: {:?}", p.problems);
    }
}

#[test]
fn unicode_is_echoed_safely() {
    let p = parse("göü debug on");
    assert_eq!(p.command, Some(Command::Debug(true)));
    assert_eq!(p.problems, vec!["unknown token 'göü' skipped"]);

    let long = "é".repeat(100);
    let p = parse(&long);
    assert_eq!(
        p.problems,
        vec![format!("unknown command '{}…'", "é".repeat(40))]
    );

    let emoji = "♞🐴".repeat(50);
    let p = parse(&format!("go {emoji}"));
    assert_eq!(
        p.problems,
        vec![format!("go: unknown token '{}…' skipped", "♞🐴".repeat(20))]
    );
}

#[test]
fn ten_kilobyte_lines() {
    // One 10 kB garbage token.
    let p = parse(&"x".repeat(10_240));
    assert_eq!(p.command, None);
    assert_eq!(p.problems.len(), 1);
    assert!(p.problems[0].chars().count() < 80);

    // Thousands of garbage tokens before a command.
    let line = format!("{} isready", "junk ".repeat(2_500));
    let p = parse(&line);
    assert_eq!(p.command, Some(Command::IsReady));
    assert_eq!(p.problems.len(), 1);
    assert!(p.problems[0].chars().count() < 80);

    // Thousands of garbage tokens inside go: problems are capped.
    let line = format!("go depth 4 {}", "?? ".repeat(4_000));
    let p = parse(&line);
    assert_eq!(
        p.command,
        Some(Command::Go(go_with(GoLimits {
            depth: Some(4),
            ..unreadable()
        })))
    );
    assert_eq!(p.problems.len(), MAX_PROBLEMS + 1);
    assert_eq!(
        p.problems.last().unwrap(),
        &format!("{} more problems omitted", 4_000 - MAX_PROBLEMS)
    );

    // A long searchmoves list.
    let line = format!("go searchmoves {}", "e2e4 ".repeat(2_000));
    assert!(line.len() > 10_000);
    assert_eq!(go(&line).searchmoves.len(), 2_000);

    // A long setoption value.
    let value = "v".repeat(12_000);
    assert_eq!(
        cmd(&format!("setoption name Path value {value}")),
        Some(opt("Path", Some(&value)))
    );

    // A long trailing junk after a simple command.
    let p = parse(&format!("quit {}", "z".repeat(10_000)));
    assert_eq!(p.command, Some(Command::Quit));
    assert!(p.problems[0].chars().count() < 80);
}

#[test]
fn display_renders_canonical_lines() {
    let cases = [
        (Command::Uci, "uci"),
        (Command::IsReady, "isready"),
        (Command::UciNewGame, "ucinewgame"),
        (Command::Stop, "stop"),
        (Command::PonderHit, "ponderhit"),
        (Command::Quit, "quit"),
        (Command::Empty, ""),
        (Command::Debug(true), "debug on"),
        (Command::Debug(false), "debug off"),
        (startpos(&[]), "position startpos"),
        (
            startpos(&["e2e4", "e7e5"]),
            "position startpos moves e2e4 e7e5",
        ),
        (
            fen("8/8/8/8/8/8/8/K6k w - - 0 1", &["a1a2"]),
            "position fen 8/8/8/8/8/8/8/K6k w - - 0 1 moves a1a2",
        ),
        (opt("Clear Hash", None), "setoption name Clear Hash"),
        (opt("Hash", Some("")), "setoption name Hash value"),
        (
            opt("Move Overhead", Some("30")),
            "setoption name Move Overhead value 30",
        ),
        (Command::Go(GoParams::default()), "go"),
        // What could not be read is not in the command, so there is nothing to render.
        (Command::Go(go_with(unreadable())), "go"),
        (
            Command::Go(full_go()),
            "go ponder wtime 300000 btime 295500 winc 2000 binc 1000 movestogo 40 depth 20 \
             nodes 1000000 mate 3 movetime 5000 infinite searchmoves e2e4 d2d4 g1f3",
        ),
        (
            Command::Go(go_with(GoLimits {
                wtime: Some(-5),
                ..Default::default()
            })),
            "go wtime -5",
        ),
    ];
    for (command, line) in cases {
        assert_eq!(command.to_string(), line);
    }
}

#[test]
fn display_round_trips() {
    let commands = vec![
        Command::Uci,
        Command::IsReady,
        Command::UciNewGame,
        Command::Stop,
        Command::PonderHit,
        Command::Quit,
        Command::Empty,
        Command::Debug(true),
        Command::Debug(false),
        startpos(&[]),
        startpos(&["e2e4", "e7e5", "g1f3", "b8c6", "e1g1"]),
        fen(START_FEN, &[]),
        fen(START_FEN, &["e2e4", "e7e8q"]),
        opt("Hash", Some("256")),
        opt("Hash", Some("")),
        opt("Clear Hash", None),
        opt("Move Overhead", Some("100")),
        opt("SyzygyPath", Some("/a b/c d")),
        Command::Go(GoParams::default()),
        Command::Go(full_go()),
        Command::Go(go_with(GoLimits {
            infinite: true,
            ..Default::default()
        })),
        Command::Go(go_with(GoLimits {
            ponder: true,
            wtime: Some(-100),
            btime: Some(0),
            ..Default::default()
        })),
        Command::Go(go_with(GoLimits {
            wtime: Some(i64::MIN),
            btime: Some(i64::MAX),
            nodes: Some(u64::MAX),
            depth: Some(u32::MAX),
            movetime: Some(0),
            ..Default::default()
        })),
        Command::Go(GoParams {
            searchmoves: strings(&["a7a8N", "0000"]),
            ..Default::default()
        }),
    ];
    for command in commands {
        let line = command.to_string();
        assert_eq!(parse(&line).command, Some(command), "{line:?}");
    }
}

fn check_invariants(line: &str) {
    let p = parse(line);
    assert!(p.problems.len() <= MAX_PROBLEMS + 1, "{line:?}");
    for problem in &p.problems {
        assert!(problem.chars().count() <= 200, "{line:?}: {problem:?}");
        assert!(
            !problem.chars().any(char::is_control),
            "{line:?}: {problem:?}"
        );
    }
    if let Some(command) = p.command {
        let rendered = command.to_string();
        assert!(!rendered.chars().any(char::is_control), "{line:?}");
        assert_eq!(
            parse(&rendered).command,
            Some(readable(command)),
            "{line:?} -> {rendered:?}"
        );
    }
}

#[test]
fn fuzz_random_bytes_never_panic() {
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
    for _ in 0..10_000 {
        let len = rng.below(120);
        let bytes: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
        check_invariants(&String::from_utf8_lossy(&bytes));
    }
}

#[test]
fn fuzz_token_soup_never_panics() {
    let vocab = [
        "uci",
        "isready",
        "ucinewgame",
        "position",
        "startpos",
        "fen",
        "moves",
        "go",
        "stop",
        "ponderhit",
        "setoption",
        "name",
        "value",
        "debug",
        "on",
        "off",
        "quit",
        "register",
        "wtime",
        "btime",
        "winc",
        "binc",
        "movestogo",
        "depth",
        "nodes",
        "mate",
        "movetime",
        "infinite",
        "ponder",
        "searchmoves",
        "e2e4",
        "e7e8q",
        "0000",
        "a1h8",
        "0",
        "-1",
        "+7",
        "42",
        "-0",
        "99999999999999999999",
        "-99999999999999999999",
        "4294967296",
        "9223372036854775808",
        "abc",
        "é",
        "🐴",
        "\u{fffd}",
        "GO",
        "Hash",
        "8/8/8/8/8/8/8/8",
        "w",
        "-",
        "\0",
        "x\u{1}y",
    ];
    let seps = [" ", "  ", "\t", "\r", " \r\n", "\0", "\u{feff}", "\u{a0}"];
    let mut rng = Rng::new(0xdead_beef_cafe_f00d);
    for _ in 0..10_000 {
        let n = rng.below(16);
        let mut line = String::new();
        for _ in 0..n {
            line.push_str(seps[rng.below(seps.len())]);
            line.push_str(vocab[rng.below(vocab.len())]);
        }
        if rng.below(2) == 0 {
            line.push('\r');
        }
        check_invariants(&line);
    }
}

#[test]
fn go_times_may_carry_a_fraction_which_is_dropped() {
    assert_eq!(limits("go wtime 1000.5").wtime, Some(1000));
    assert_eq!(limits("go btime 999.999 binc 10.5").btime, Some(999));
    assert_eq!(limits("go btime 999.999 binc 10.5").binc, Some(10));
    assert_eq!(limits("go movetime 300.9").movetime, Some(300));
    assert_eq!(limits("go wtime -0.5").wtime, Some(0));
    assert!(parse("go wtime 1000.5 btime 1000.25").problems.is_empty());
    assert!(!limits("go wtime 1000.5").unreadable);
    // Counts stay integers; a time needs digits on both sides of one point.
    for line in [
        "go depth 5.5",
        "go nodes 10.0",
        "go wtime 1000.",
        "go wtime .5",
        "go wtime 1.2.3",
    ] {
        let p = parse(line);
        assert_eq!(p.problems.len(), 1, "{line:?}: {:?}", p.problems);
        assert!(limits(line).unreadable, "{line:?}");
    }
}

#[test]
fn go_with_an_unreadable_limit_is_flagged() {
    for line in [
        "go depth",
        "go depth -1",
        "go depth abc",
        "go wtime x btime y",
        "go movetime",
        "go frobnicate 7",
        "go depth 5 depth x",
    ] {
        assert!(limits(line).unreadable, "{line:?}");
    }
    for line in [
        "go",
        "go infinite",
        "go depth 0",
        "go mate 0",
        "go winc 1000",
        "go wtime -5",
        "go depth 99999999999",
        "go searchmoves e2e4",
        "go searchmoves banana",
    ] {
        assert!(!limits(line).unreadable, "{line:?}");
    }
}
