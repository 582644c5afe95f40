//! The positions `searchlog` searches: every FEN line of an EPD file, or every position of a
//! PGN game's main line at which a move was played, sampled by a seed.
//!
//! The sample is a "bottom-k" sample: each position gets a key, a hash of the position and
//! the seed, and the `limit` positions with the smallest keys are kept, searched in order of
//! their keys. So it is uniform over distinct positions, one pass over a file of any size
//! holds only `limit` positions, and a run with a larger `--limit` and the same seed searches
//! the same positions first and then more, so a log can be grown. Equal positions get equal
//! keys and are searched once: a node-limited search of one position gives the same lines
//! every time, and the start position of a hundred games would otherwise weigh a hundred
//! times, and fall on both sides of a held-out split.
//!
//! Input is read strictly: a line that is not a FEN, or a game whose start or moves cannot be
//! read, stops the tool with an error naming the place, rather than quietly thinning the
//! sample the way a typo would.

use crate::position::Position;
use crate::rng::splitmix64;
use crate::tools::pgn;
use std::collections::BTreeMap;
use std::io::BufRead;
use std::path::Path;

/// One position of the sample, kept as text: a `Position` carries its whole move stack, far
/// too much to hold thousands of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    pub fen: String,
    pub chess960: bool,
    /// Where it came from: `12` for line 12 of an EPD, `3/41` for game 3 before ply 41
    /// (0 = its start) of a PGN.
    pub origin: String,
}

impl Candidate {
    pub fn position(&self) -> Result<Position, String> {
        Position::from_fen_in(&self.fen, self.chess960)
            .map_err(|e| format!("position {}: {e}", self.origin))
    }
}

/// The sample as it is read: at most `limit` distinct positions, those of smallest key.
#[derive(Debug)]
pub struct Sample {
    limit: usize,
    salt: u64,
    kept: BTreeMap<u64, Candidate>,
    /// Positions read (before duplicates are dropped), and those without a legal move.
    pub read: u64,
    pub over: u64,
}

impl Sample {
    pub fn new(limit: Option<usize>, seed: u64) -> Sample {
        Sample {
            limit: limit.unwrap_or(usize::MAX),
            salt: splitmix64(seed),
            kept: BTreeMap::new(),
            read: 0,
            over: 0,
        }
    }

    /// Offer one position. Positions without a legal move have no search to record.
    pub fn offer(&mut self, pos: &Position, origin: impl FnOnce() -> String) {
        self.read += 1;
        if pos.legal_moves().next().is_none() {
            self.over += 1;
            return;
        }
        let key = splitmix64(pos.key() ^ self.salt);
        if self.kept.contains_key(&key) || self.limit == 0 {
            return;
        }
        if self.kept.len() >= self.limit {
            match self.kept.last_key_value() {
                Some((&largest, _)) if key < largest => {
                    self.kept.pop_last();
                }
                _ => return,
            }
        }
        self.kept.insert(
            key,
            Candidate {
                fen: pos.fen(),
                chess960: pos.is_chess960(),
                origin: origin(),
            },
        );
    }

    /// The positions kept, in the order they are searched.
    pub fn into_positions(self) -> Vec<Candidate> {
        self.kept.into_values().collect()
    }
}

/// Whether `path` is PGN: by its extension, else by its first line that says anything (a
/// tag pair opens every PGN game; an EPD line starts with a board).
pub fn is_pgn(path: &Path, first_line: &str) -> bool {
    let by_name = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("pgn"));
    by_name || first_line.trim_start().starts_with('[')
}

/// Every position of `input`, an EPD or FEN file, offered to `sample`.
pub fn read_epd(input: impl BufRead, name: &str, sample: &mut Sample) -> Result<(), String> {
    for (i, line) in input.lines().enumerate() {
        let line = line.map_err(|e| format!("cannot read {name}: {e}"))?;
        let line = line.trim_matches(|c: char| c.is_whitespace() || c == '\0');
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let pos = epd_position(line)
            .map_err(|e| format!("{name} line {}: {e}: {}", i + 1, pgn::truncate(line, 80)))?;
        sample.offer(&pos, || (i + 1).to_string());
    }
    Ok(())
}

/// The position of one EPD or FEN line: four fields and operations, or six fields (with
/// the counters). Shredder-FEN and X-FEN castling make a Chess960 position.
fn epd_position(line: &str) -> Result<Position, String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() < 4 {
        return Err("fewer than four FEN fields".to_string());
    }
    let counters =
        fields.len() >= 6 && fields[4].parse::<u32>().is_ok() && fields[5].parse::<u32>().is_ok();
    let fen = fields[..if counters { 6 } else { 4 }].join(" ");
    Position::from_any_fen(&fen).map_err(|e| format!("bad FEN: {e}"))
}

/// Every position of `input`'s games at which a move was played, offered to `sample`: the
/// positions where a player had to decide, as the engine does in play.
pub fn read_pgn(input: impl BufRead, name: &str, sample: &mut Sample) -> Result<(), String> {
    for game in pgn::Reader::new(input) {
        let game = game.map_err(|e| format!("cannot read {name}: {e}"))?;
        let mut pos = game
            .start_position()
            .map_err(|e| format!("{name}, {}: bad FEN tag: {e}", game.label()))?;
        for (ply, m) in game.moves.iter().enumerate() {
            let Some(mv) = pos.parse_san(&m.san) else {
                return Err(format!(
                    "{name}, {}, ply {}: {:?} is not a legal move",
                    game.label(),
                    ply + 1,
                    pgn::truncate(&m.san, 20)
                ));
            };
            sample.offer(&pos, || format!("{}/{ply}", game.index));
            pos.make_move(mv);
        }
    }
    Ok(())
}

/// The sample of `path`'s positions.
pub fn read(path: &Path, limit: Option<usize>, seed: u64) -> Result<Sample, String> {
    let name = path.display().to_string();
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read {name}: {e}"))?;
    let mut input = std::io::BufReader::new(file);
    let first = first_line(&mut input).map_err(|e| format!("cannot read {name}: {e}"))?;
    let mut sample = Sample::new(limit, seed);
    if is_pgn(path, &first) {
        read_pgn(input, &name, &mut sample)?;
    } else {
        read_epd(input, &name, &mut sample)?;
    }
    if sample.read == 0 {
        return Err(format!("{name}: no position in the file"));
    }
    Ok(sample)
}

/// The first line that is not blank, without consuming anything (it is read again).
fn first_line(input: &mut impl BufRead) -> std::io::Result<String> {
    let buf = input.fill_buf()?;
    let text = String::from_utf8_lossy(buf);
    Ok(text
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    fn epd(text: &str, limit: Option<usize>, seed: u64) -> Result<Sample, String> {
        let mut sample = Sample::new(limit, seed);
        read_epd(text.as_bytes(), "t.epd", &mut sample)?;
        Ok(sample)
    }

    /// A larger limit with the same seed searches the same positions first: a log grows.
    #[test]
    fn a_larger_sample_begins_with_the_smaller() {
        let mut pos = Position::startpos();
        let mut lines = Vec::new();
        for m in [
            "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6",
        ] {
            let mv = pos
                .legal_moves()
                .find(|x| x.to_string() == m)
                .expect("legal");
            pos.make_move(mv);
            lines.push(pos.fen());
        }
        let text = lines.join("\n");
        let all = epd(&text, None, 7).expect("reads").into_positions();
        let three = epd(&text, Some(3), 7).expect("reads").into_positions();
        assert_eq!(all.len(), 8);
        assert_eq!(three[..], all[..3]);
        let other = epd(&text, None, 8).expect("reads").into_positions();
        assert_ne!(other, all, "the seed orders the sample");
    }

    /// Equal positions are searched once; finished games are not searched.
    #[test]
    fn duplicates_and_finished_games_are_left_out() {
        let mate = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
        let text = format!("{START}\n# a comment\n\n{START}\n{mate}\n");
        let sample = epd(&text, None, 0).expect("reads");
        assert_eq!((sample.read, sample.over), (3, 1));
        let kept = sample.into_positions();
        assert_eq!(kept.len(), 1);
        assert_eq!(kept[0].origin, "1");
    }

    #[test]
    fn a_bad_line_is_an_error_naming_it() {
        let err = epd(&format!("{START}\nnot a fen at all\n"), None, 0).expect_err("refused");
        assert!(err.starts_with("t.epd line 2: "), "{err}");
    }

    #[test]
    fn pgn_positions_are_those_before_each_move() {
        let text = "[Event \"x\"]\n\n1. e4 e5 2. Nf3 *\n";
        let mut sample = Sample::new(None, 1);
        read_pgn(text.as_bytes(), "t.pgn", &mut sample).expect("reads");
        let mut origins: Vec<String> = sample
            .into_positions()
            .into_iter()
            .map(|c| c.origin)
            .collect();
        origins.sort();
        assert_eq!(origins, ["1/0", "1/1", "1/2"]);
        let bad = "[Event \"x\"]\n\n1. e4 e5 2. Qh5 Ke3 *\n";
        let err = read_pgn(bad.as_bytes(), "t.pgn", &mut Sample::new(None, 1)).expect_err("bad");
        assert!(err.contains("ply 4"), "{err}");
    }
}
