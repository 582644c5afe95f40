//! `sandglass selfplay`: games of Sandglass against itself, written as PGN, for the tuner.
//!
//! Texel tuning needs many positions labelled with the result of a game played from them. The
//! few hundred human and TCEC games shipped with the project give about 26k; these games give
//! as many as there is time for. Each game starts from an opening-book line (so the games
//! differ), every move is a fixed-node search (so a game depends only on its number and the
//! code, not on the machine's load), and a game is adjudicated once both sides' searches agree
//! it is decided, since the moves after that teach the tuner nothing.

use crate::position::{move_to_san, Position};
use crate::score::{is_mate, MATE};
use crate::search::{self, Limits, Memory, ScoreBound, Signals};
use crate::time::Mode;
use crate::tools::pgn::wrap_movetext;
use crate::tt::TranspositionTable;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// Arguments of `sandglass selfplay`.
#[derive(clap::Args, Debug, Clone)]
pub struct SelfplayArgs {
    /// Number of games.
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 5_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
    /// Openings, one FEN (or EPD) per line; games start from lines picked by the game number.
    /// Shredder-FEN lines are Chess960 positions.
    #[arg(long, required_unless_present = "chess960")]
    pub book: Option<PathBuf>,
    /// Start from the 960 Chess960 starting positions instead of a book (picked by game
    /// number and seed as book lines are).
    #[arg(long)]
    pub chess960: bool,
    /// Where to append the games.
    #[arg(long, default_value = "selfplay.pgn")]
    pub out: PathBuf,
    /// Games played at once (one search thread each).
    #[arg(long, default_value_t = 1, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=MAX_THREADS as u64))]
    pub threads: usize,
    /// Mixed into the choice of openings, so that runs with different seeds differ.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Transposition table per game, in MB.
    #[arg(long, default_value_t = 8)]
    pub hash: usize,
    /// Play with this network file instead of the embedded one (read as the `EvalFile`
    /// option reads it; `<embedded>` is the embedded one).
    #[arg(long, value_name = "FILE")]
    pub eval_file: Option<String>,
}

/// The most games played at once.
pub const MAX_THREADS: usize = 256;

/// A score (centipawns, White's view) beyond which, held for [`DECIDED_PLIES`] plies in a
/// row, a game counts as won.
pub const DECIDED_SCORE: i32 = 1_000;
pub const DECIDED_PLIES: usize = 6;
/// A game whose last [`LEVEL_PLIES`] scores were all level (|score| ≤ [`LEVEL_SCORE`]) counts
/// as a draw once it is [`LEVEL_FROM_PLY`] plies long.
pub const LEVEL_SCORE: i32 = 10;
pub const LEVEL_PLIES: usize = 20;
pub const LEVEL_FROM_PLY: usize = 80;
/// Longer games are drawn.
pub const MAX_PLIES: usize = 400;

/// How a game ended, as PGN writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
}

impl GameResult {
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }
}

/// One game: its start, its moves in SAN, its result and why it ended.
pub struct Game {
    pub fen: String,
    /// A Chess960 game: the PGN says `[Variant "Chess960"]` and its FEN is Shredder-FEN.
    pub chess960: bool,
    pub white_first: bool,
    pub first_move_number: u32,
    pub moves: Vec<String>,
    /// Each move's search score (centipawns, mover's view), depth and bound.
    pub scores: Vec<MoveScore>,
    pub result: GameResult,
    pub termination: &'static str,
}

impl Game {
    /// The game in PGN export format: the seven standard tags, the start position, the
    /// standard `Termination` value (the exact reason follows the last move as a comment),
    /// and a score comment after every move.
    pub fn to_pgn(&self, round: usize) -> String {
        let termination = if self.termination.starts_with("adjudicated") {
            "adjudication"
        } else {
            "normal"
        };
        let mut text = format!(
            "[Event \"Sandglass self-play\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n\
             [Round \"{round}\"]\n[White \"Sandglass\"]\n[Black \"Sandglass\"]\n\
             [Result \"{}\"]\n{}[FEN \"{}\"]\n[SetUp \"1\"]\n[Termination \"{termination}\"]\n\n",
            self.result.pgn(),
            if self.chess960 {
                "[Variant \"Chess960\"]\n"
            } else {
                ""
            },
            self.fen,
        );
        let mut number = self.first_move_number;
        let mut white = self.white_first;
        let mut words = Vec::with_capacity(self.moves.len() + 1);
        for (i, san) in self.moves.iter().enumerate() {
            let comment = self.scores.get(i).map_or(String::new(), |m| {
                format!(
                    " {{{}/{}{}}}",
                    score_text(m.score),
                    m.depth,
                    m.bound.uci_suffix()
                )
            });
            // After a comment the export format repeats the move number before Black's move.
            let word = if white {
                format!("{number}. {san}{comment}")
            } else if i == 0 || self.scores.get(i - 1).is_some() {
                format!("{number}... {san}{comment}")
            } else {
                format!("{san}{comment}")
            };
            words.push(word);
            if !white {
                number += 1;
            }
            white = !white;
        }
        words.push(format!("{{{}}} {}", self.termination, self.result.pgn()));
        text.push_str(&wrap_movetext(words));
        text.push_str("\n\n");
        text
    }
}

/// The result and its reason if the game is over by a rule of chess (mate, stalemate,
/// threefold repetition, the fifty-move rule, insufficient material); None while it goes on.
pub fn ended_by_rule(pos: &Position) -> Option<(GameResult, &'static str)> {
    if pos.legal_moves().is_empty() {
        return Some(if pos.in_check() {
            if pos.side_to_move() == chess::Color::White {
                (GameResult::BlackWins, "checkmate")
            } else {
                (GameResult::WhiteWins, "checkmate")
            }
        } else {
            (GameResult::Draw, "stalemate")
        });
    }
    if pos.is_threefold() {
        return Some((GameResult::Draw, "threefold repetition"));
    }
    if pos.is_fifty_move_draw() {
        return Some((GameResult::Draw, "fifty-move rule"));
    }
    if pos.is_insufficient_material() {
        return Some((GameResult::Draw, "insufficient material"));
    }
    None
}

/// Plays one game from `start`, each move a search with `limits` (their mode fixed or soft
/// nodes, so that a game does not depend on the machine; their network the evaluation) and
/// table `tt`; the search keeps its memory for the game, as the engine does.
pub fn play_game(start: &Position, limits: &Limits, tt: &TranspositionTable) -> Game {
    tt.clear();
    let mut memory = Memory::new();
    let mut pos = start.clone();
    let white_first = pos.side_to_move() == chess::Color::White;
    let first_move_number = pos.fullmove_number();
    let mut moves = Vec::new();
    let mut move_scores = Vec::new();
    // White-view scores of the last searches.
    let mut scores: Vec<i32> = Vec::new();
    let (result, termination) = loop {
        if let Some(end) = ended_by_rule(&pos) {
            break end;
        }
        if moves.len() >= MAX_PLIES {
            break (GameResult::Draw, "move limit");
        }
        if let Some(r) = adjudicate(&scores) {
            break r;
        }
        let signals = Signals::new(false);
        let outcome = search::search_then(
            &pos,
            limits,
            tt,
            &mut memory,
            &signals,
            &mut |_| {},
            &mut |_| {},
        );
        let Some(best) = outcome.best else {
            // Only when there is no legal move, handled above; end the game rather than loop.
            break (GameResult::Draw, "no move");
        };
        let white_view = if pos.side_to_move() == chess::Color::White {
            outcome.score
        } else {
            -outcome.score
        };
        scores.push(white_view);
        move_scores.push(MoveScore {
            score: outcome.score,
            depth: outcome.depth,
            bound: outcome.bound,
            nodes: outcome.nodes,
        });
        moves.push(move_to_san(pos.board(), best));
        pos.make_move(best);
        // The game history only matters for repetitions; keep it from growing without bound.
        pos.trim_record();
    };
    Game {
        fen: start.fen(),
        chess960: start.is_chess960(),
        white_first,
        first_move_number,
        moves,
        scores: move_scores,
        result,
        termination,
    }
}

/// A move's search result as the game records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveScore {
    pub score: i32,
    pub depth: u32,
    /// A move the unfinished iteration proved better than the last one's is played with the
    /// lower bound that proved it: no evaluation of the position, so the PGN marks it after
    /// the depth in UCI's words (`+0.35/9 lowerbound`; readers that take the score and depth
    /// still can, and `tune` skips it), and `datagen` keeps no such position.
    pub bound: ScoreBound,
    /// Nodes the move's search took: what a game costs, for `datagen`'s account of its speed.
    pub nodes: u64,
}

/// A score as PGN comments write it: pawns with two decimals (`+0.35`), or `+M3` for a mate.
pub fn score_text(score: i32) -> String {
    if is_mate(score) {
        let moves = (MATE - score.abs() + 1) / 2;
        format!("{}M{moves}", if score > 0 { '+' } else { '-' })
    } else {
        format!("{:+.2}", f64::from(score) / 100.0)
    }
}

/// The adjudication rules above, applied to the White-view scores of the moves so far.
pub fn adjudicate(scores: &[i32]) -> Option<(GameResult, &'static str)> {
    if scores.len() >= DECIDED_PLIES {
        let last = &scores[scores.len() - DECIDED_PLIES..];
        if last.iter().all(|&s| s >= DECIDED_SCORE) {
            return Some((GameResult::WhiteWins, "adjudicated win"));
        }
        if last.iter().all(|&s| s <= -DECIDED_SCORE) {
            return Some((GameResult::BlackWins, "adjudicated win"));
        }
    }
    if scores.len() >= LEVEL_FROM_PLY.max(LEVEL_PLIES) {
        let last = &scores[scores.len() - LEVEL_PLIES..];
        if last.iter().all(|&s| s.abs() <= LEVEL_SCORE) {
            return Some((GameResult::Draw, "adjudicated draw"));
        }
    }
    None
}

/// The book line for game `game`: a seeded start and a stride coprime to the book's length,
/// so the first `len` games all start differently (a fixed-node game from a repeated
/// opening would repeat move for move) while still spreading over the whole book.
pub fn opening_index(game: usize, seed: u64, len: usize) -> usize {
    let len = len.max(1) as u64;
    let start = crate::rng::splitmix64(seed) % len;
    let mut stride = (crate::rng::splitmix64(seed ^ 0x5151) % len).max(1);
    while gcd(stride, len) != 1 {
        stride += 1;
    }
    ((start + (game as u64 % len) * stride) % len) as usize
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// Refused book lines reported one by one; the rest are only counted.
const MAX_BOOK_WARNINGS: usize = 20;

/// The usable positions of a book's text, and for each line refused, why (with its line
/// number). Blank lines and `#` comments are neither.
pub fn parse_book(text: &str) -> (Vec<Position>, Vec<String>) {
    let mut book = Vec::new();
    let mut refused = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_matches(|c: char| c.is_whitespace() || c == '\0');
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let why = match super::epd::position_text(line) {
            None => "fewer than four FEN fields".to_string(),
            Some(fen) => match Position::from_any_fen(&fen) {
                Ok(p) if !p.legal_moves().is_empty() => {
                    book.push(p);
                    continue;
                }
                Ok(_) => "no legal move: the game is already over".to_string(),
                Err(e) => format!("bad FEN: {e}"),
            },
        };
        let shown = super::pgn::truncate(line, 100);
        refused.push(format!("line {}: {why}: {shown}", i + 1));
    }
    (book, refused)
}

/// The book at `path`. Each refused line is reported on stderr (a typo in a book would
/// otherwise quietly shrink it); a book with no usable line is an error.
pub fn read_book(path: &Path) -> Result<Vec<Position>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let (book, refused) = parse_book(&text);
    let name = path.display();
    for why in refused.iter().take(MAX_BOOK_WARNINGS) {
        eprintln!("sandglass: {name}: {why}");
    }
    if refused.len() > MAX_BOOK_WARNINGS {
        eprintln!(
            "sandglass: {name}: … and {} more lines refused",
            refused.len() - MAX_BOOK_WARNINGS
        );
    }
    if book.is_empty() {
        return Err(format!("{name}: no usable positions"));
    }
    Ok(book)
}

/// The start positions: the book, or the 960 Chess960 starting positions. Both at once is
/// refused rather than one silently ignored.
pub fn openings(book: Option<&Path>, chess960: bool) -> Result<Vec<Position>, String> {
    match (book, chess960) {
        (Some(path), true) => Err(format!(
            "--book {} and --chess960 exclude each other: --chess960 plays the 960 starting positions instead of a book (a book's Shredder-FEN lines are Chess960 games already)",
            path.display()
        )),
        (Some(path), false) => read_book(path),
        (None, true) => Ok(chess960_starts()),
        (None, false) => Err("give --book FILE or --chess960".to_string()),
    }
}

/// The 960 Chess960 starting positions, in Scharnagl's order.
pub fn chess960_starts() -> Vec<Position> {
    (0..960)
        .filter_map(crate::position::chess960_fen)
        .filter_map(|fen| Position::from_fen_in(&fen, true).ok())
        .collect()
}

pub fn run(args: &SelfplayArgs) -> Result<bool, String> {
    let book = openings(args.book.as_deref(), args.chess960)?;
    let limits = Limits {
        mode: Mode::nodes(args.nodes),
        network: super::eval_file_network(args.eval_file.as_deref())?,
        ..Limits::default()
    };
    // Made here, not in the threads, so that a refused --hash is an error before any game
    // is played or file written.
    let tables = TranspositionTable::per_thread(args.hash, args.threads)
        .map_err(|e| format!("--hash: {e}"))?;
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&args.out)
        .map_err(|e| format!("cannot open {}: {e}", args.out.display()))?;
    let out = Mutex::new(std::io::BufWriter::new(file));
    let next = AtomicUsize::new(0);
    let tally = Mutex::new([0usize; 3]);
    let started = Instant::now();
    let failure: Mutex<Option<String>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for tt in &tables {
            let (book, out, next, tally, failure) = (&book, &out, &next, &tally, &failure);
            let limits = &limits;
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= args.games {
                    break;
                }
                let start = &book[opening_index(i, args.seed, book.len())];
                let game = play_game(start, limits, tt);
                let pgn = game.to_pgn(i + 1);
                let done = {
                    let mut t = tally.lock().unwrap_or_else(|e| e.into_inner());
                    t[game.result as usize] += 1;
                    t.iter().sum::<usize>()
                };
                let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
                if let Err(e) = w.write_all(pgn.as_bytes()).and_then(|()| w.flush()) {
                    *failure.lock().unwrap_or_else(|e| e.into_inner()) =
                        Some(format!("cannot write {}: {e}", args.out.display()));
                    next.store(args.games, Ordering::Relaxed);
                    break;
                }
                if done % 100 == 0 || done == args.games {
                    eprintln!(
                        "{done}/{} games, {:.0} s",
                        args.games,
                        started.elapsed().as_secs_f64()
                    );
                }
            });
        }
    });
    if let Some(e) = failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    let t = tally.into_inner().unwrap_or_else(|e| e.into_inner());
    println!(
        "{} games (+{} ={} -{} for White) in {:.0} s, written to {}",
        t.iter().sum::<usize>(),
        t[GameResult::WhiteWins as usize],
        t[GameResult::Draw as usize],
        t[GameResult::BlackWins as usize],
        started.elapsed().as_secs_f64(),
        args.out.display()
    );
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::tune::parse_pgn;

    #[test]
    fn openings_do_not_repeat_within_the_book() {
        for len in [1, 2, 7, 12, 1000] {
            let mut seen = vec![false; len];
            for game in 0..len {
                let i = opening_index(game, 3, len);
                assert!(!seen[i], "book of {len}: line {i} twice");
                seen[i] = true;
            }
        }
    }

    #[test]
    fn a_book_names_each_line_it_refuses() {
        let text = "garbage line here\n\
                    6k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 3 40\n\
                    \n\
                    # a comment\n\
                    8/8/8/8/8/8/8/8 w - - 0 1\n\
                    7k/6Q1/6K1/8/8/8/8/8 b - - 0 1\n\
                    rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4;\n";
        let (book, refused) = parse_book(text);
        assert_eq!(book.len(), 2, "{refused:#?}");
        assert_eq!(refused.len(), 3, "{refused:#?}");
        assert!(refused[0].starts_with("line 1: fewer than four FEN fields"));
        assert!(refused[1].starts_with("line 5: bad FEN"), "{}", refused[1]);
        assert!(
            refused[2].starts_with("line 6: no legal move"),
            "{}",
            refused[2]
        );
        assert!(openings(Some(Path::new("book.epd")), true).is_err());
        assert_eq!(openings(None, true).map(|b| b.len()), Ok(960));
    }

    #[test]
    fn scores_are_written_as_engines_write_them() {
        assert_eq!(score_text(35), "+0.35");
        assert_eq!(score_text(-120), "-1.20");
        assert_eq!(score_text(0), "+0.00");
        assert_eq!(score_text(MATE - 5), "+M3");
        assert_eq!(score_text(-(MATE - 2)), "-M1");
        assert_eq!(crate::tools::tune::comment_score("+0.35/7"), Some(35));
        assert_eq!(
            crate::tools::tune::comment_score("-1.20/12 0.5s"),
            Some(-120)
        );
        assert_eq!(crate::tools::tune::comment_score("+M3/9"), None);
        assert_eq!(crate::tools::tune::comment_score("book"), None);
        // A bound is marked, and a reader of evaluations skips it.
        assert_eq!(ScoreBound::Lower.uci_suffix(), " lowerbound");
        assert_eq!(ScoreBound::Exact.uci_suffix(), "");
        assert_eq!(
            crate::tools::tune::comment_score("+0.35/9 lowerbound"),
            None
        );
        assert_eq!(
            crate::tools::tune::comment_score("-0.35/9 upperbound 0.5s"),
            None
        );
    }

    #[test]
    fn adjudication_needs_agreement_for_long_enough() {
        assert_eq!(adjudicate(&[2000; DECIDED_PLIES - 1]), None);
        assert_eq!(
            adjudicate(&[2000; DECIDED_PLIES]).map(|r| r.0),
            Some(GameResult::WhiteWins)
        );
        let mut mixed = vec![-2000; DECIDED_PLIES];
        assert_eq!(adjudicate(&mixed).map(|r| r.0), Some(GameResult::BlackWins));
        mixed[0] = 0;
        assert_eq!(adjudicate(&mixed), None);
        assert_eq!(adjudicate(&[0; LEVEL_FROM_PLY - 1]), None);
        assert_eq!(
            adjudicate(&[0; LEVEL_FROM_PLY]).map(|r| r.0),
            Some(GameResult::Draw)
        );
    }

    #[test]
    fn a_game_is_legal_pgn_the_tuner_reads_back() {
        let start = Position::from_fen("6k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 3 40");
        let Ok(start) = start else {
            panic!("FEN rejected")
        };
        let tt = TranspositionTable::new(1);
        let limits = Limits {
            mode: Mode::nodes(2_000),
            ..Limits::default()
        };
        let game = play_game(&start, &limits, &tt);
        assert!(!game.moves.is_empty());
        let pgn = game.to_pgn(1);
        assert!(pgn.contains("40... "), "{pgn}");
        assert!(
            pgn.contains("41... "),
            "Black's numbers after comments: {pgn}"
        );
        assert!(pgn.contains("[Site \"?\"]") && pgn.contains("[Date \"????.??.??\"]"));
        assert!(
            pgn.contains(&format!("{{{}}} 1-0", game.termination)),
            "{pgn}"
        );
        let parsed = parse_pgn(&pgn);
        assert_eq!(parsed.len(), 1);
        assert_eq!(parsed[0].moves, game.moves);
        // The scores come back from the comments, mates excepted.
        let written: Vec<Option<i32>> = game
            .scores
            .iter()
            .map(|m| (!is_mate(m.score) && m.bound == ScoreBound::Exact).then_some(m.score))
            .collect();
        assert_eq!(parsed[0].scores, written);
        assert_eq!(parsed[0].fen.as_deref(), Some(start.fen().as_str()));
        // White is a rook up: the game is won for White, by mate or adjudication.
        assert_eq!(game.result, GameResult::WhiteWins, "{pgn}");
        // Fixed nodes: the same game every time.
        let again = play_game(&start, &limits, &tt);
        assert_eq!(again.moves, game.moves);
    }
}
