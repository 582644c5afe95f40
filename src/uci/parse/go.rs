//! `go`: its keys, in any order, each with its value.

use super::numbers::{read_integer, Wanted};
use super::{echo, GoParams, Problems};
use crate::time::GoLimits;

/// The keys of a `go` command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum GoKey {
    Wtime,
    Btime,
    Winc,
    Binc,
    MovesToGo,
    Depth,
    Nodes,
    Mate,
    MoveTime,
    Infinite,
    Ponder,
    SearchMoves,
}

impl GoKey {
    fn from_token(token: &str) -> Option<Self> {
        Some(match token {
            "wtime" => Self::Wtime,
            "btime" => Self::Btime,
            "winc" => Self::Winc,
            "binc" => Self::Binc,
            "movestogo" => Self::MovesToGo,
            "depth" => Self::Depth,
            "nodes" => Self::Nodes,
            "mate" => Self::Mate,
            "movetime" => Self::MoveTime,
            "infinite" => Self::Infinite,
            "ponder" => Self::Ponder,
            "searchmoves" => Self::SearchMoves,
            _ => return None,
        })
    }

    fn name(self) -> &'static str {
        match self {
            Self::Wtime => "wtime",
            Self::Btime => "btime",
            Self::Winc => "winc",
            Self::Binc => "binc",
            Self::MovesToGo => "movestogo",
            Self::Depth => "depth",
            Self::Nodes => "nodes",
            Self::Mate => "mate",
            Self::MoveTime => "movetime",
            Self::Infinite => "infinite",
            Self::Ponder => "ponder",
            Self::SearchMoves => "searchmoves",
        }
    }
}

/// The parameters; `limits.unreadable` is set when a limit could not be read (a key without
/// a usable value, or an unknown token), since such a `go` must not become an unbounded search.
pub(super) fn parse_go(args: &[&str], problems: &mut Problems) -> GoParams {
    let mut go = GoParams::default();
    let is_key = |t: &str| GoKey::from_token(t).is_some();
    let mut i = 0;
    while i < args.len() {
        let token = args[i];
        i += 1;
        let Some(key) = GoKey::from_token(token) else {
            problems.push(format!("go: unknown token '{}' skipped", echo(token)));
            go.limits.unreadable = true;
            continue;
        };
        match key {
            GoKey::Infinite => go.limits.infinite = true,
            GoKey::Ponder => go.limits.ponder = true,
            GoKey::SearchMoves => {
                let mut moves = Vec::new();
                while i < args.len() && !is_key(args[i]) {
                    if looks_like_move(args[i]) {
                        moves.push(args[i].to_string());
                    } else {
                        problems.push(format!(
                            "go: searchmoves: '{}' is not a move, skipped",
                            echo(args[i])
                        ));
                    }
                    i += 1;
                }
                if moves.is_empty() {
                    problems.push("go: 'searchmoves' without moves ignored");
                }
                go.searchmoves = moves;
            }
            _ => {
                // A following keyword is not taken as the value.
                let value = match args.get(i) {
                    Some(t) if !is_key(t) => {
                        i += 1;
                        Some(*t)
                    }
                    _ => None,
                };
                if !apply_go_value(&mut go.limits, key, value, problems) {
                    go.limits.unreadable = true;
                }
            }
        }
    }
    go
}

/// Sets the key's value; false if it could not be read (and was reported).
fn apply_go_value(
    go: &mut GoLimits,
    key: GoKey,
    value: Option<&str>,
    problems: &mut Problems,
) -> bool {
    let name = key.name();
    let to_u32 = |v: i128| u32::try_from(v).unwrap_or(u32::MAX);
    let to_u64 = |v: i128| u64::try_from(v).unwrap_or(u64::MAX);
    let count = Wanted::NonNegative(u64::from(u32::MAX));
    let wanted = match key {
        GoKey::Wtime | GoKey::Btime | GoKey::Winc | GoKey::Binc => Wanted::Millis,
        GoKey::MoveTime => Wanted::NonNegativeMillis,
        GoKey::Nodes => Wanted::NonNegative(u64::MAX),
        _ => count,
    };
    let Some(v) = read_integer(name, value, wanted, problems) else {
        return false;
    };
    match key {
        GoKey::Wtime | GoKey::Btime => {
            let v = v as i64;
            if v < 0 {
                problems.push(format!("go: negative {name} {v} (treated as no time left)"));
            }
            if key == GoKey::Wtime {
                go.wtime = Some(v);
            } else {
                go.btime = Some(v);
            }
        }
        GoKey::Winc | GoKey::Binc => {
            let v = v as i64;
            let v = if v < 0 {
                problems.push(format!("go: negative {name} {v} treated as 0"));
                0
            } else {
                v
            };
            if key == GoKey::Winc {
                go.winc = Some(v);
            } else {
                go.binc = Some(v);
            }
        }
        GoKey::MovesToGo => go.movestogo = Some(to_u32(v)),
        GoKey::Depth => go.depth = Some(to_u32(v)),
        GoKey::Mate => go.mate = Some(to_u32(v)),
        // No search fits in zero nodes: `nodes 0` is read as no node limit, the one answer
        // that does not ignore the rest of the `go` (issue 38).
        GoKey::Nodes => go.nodes = Some(to_u64(v)).filter(|&n| n > 0),
        GoKey::MoveTime => go.movetime = Some(to_u64(v)),
        GoKey::Infinite | GoKey::Ponder | GoKey::SearchMoves => {}
    }
    true
}

/// `[a-h][1-8][a-h][1-8][nbrqNBRQ]?` or the null move `0000`.
fn looks_like_move(token: &str) -> bool {
    if token == "0000" {
        return true;
    }
    let b = token.as_bytes();
    let square =
        |file: u8, rank: u8| (b'a'..=b'h').contains(&file) && (b'1'..=b'8').contains(&rank);
    match b.len() {
        4 => square(b[0], b[1]) && square(b[2], b[3]),
        5 => square(b[0], b[1]) && square(b[2], b[3]) && b"nbrqNBRQ".contains(&b[4]),
        _ => false,
    }
}
