//! `sandglass datagen`: self-play games whose quiet positions become training data for the
//! network (format in `packed.rs`).
//!
//! Each game starts from a book line followed by a few random plies, so that games differ
//! even between runs with the same book (`--chess960-percent` starts a share of the games
//! from random Chess960 starting positions instead, so that one network learns both), and
//! is played by `selfplay::play_game` (fixed or soft nodes per move, the same adjudication).
//! A start position that a short search already scores as lost for one side
//! (`--reject-score`) is not played: its game would teach only that a lost position is lost.
//! Every position where the side to move was not in check, the move played was not a capture
//! or promotion, and the score was not a mate is kept with the search score and the game's
//! result.
//!
//! Thread t appends to `shard-t.bin` in the output folder. The shards end with exactly
//! `--positions` positions: a thread claims its game's positions from the count still
//! wanted before it writes them, so the last game written may be cut short (its first
//! positions kept) and every other game is whole. A rerun counts what the shards already
//! hold and continues up to `--positions`; Ctrl-C stops after the games in progress are
//! dropped.

use super::packed::{Packed, RECORD_BYTES};
use super::selfplay::{self, GameResult};
use crate::eval::nnue::Network;
use crate::position::Position;
use crate::score::is_mate;
use crate::search::ordering::is_noisy;
use crate::search::{self, Limits, ScoreBound, Signals};
use crate::time::Mode;
use crate::tt::TranspositionTable;
use chess::Color;
use indicatif::{ProgressBar, ProgressStyle};
use std::fs::{File, OpenOptions};
use std::io::{BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Arguments of `sandglass datagen`.
#[derive(clap::Args, Debug, Clone)]
pub struct DatagenArgs {
    /// Folder of the shard files (created if missing).
    #[arg(long, default_value = "data")]
    pub out: PathBuf,
    /// Positions the shards hold in all at the end, exactly (the last game written is cut to
    /// fit); a rerun adds up to this many.
    #[arg(long, default_value_t = 1_000_000)]
    pub positions: u64,
    /// Nodes searched per move (a hard limit, which may cut an iteration).
    #[arg(long, default_value_t = 5_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
    /// A soft node limit instead: each move's search ends after the first iteration that
    /// passes this many nodes (hard cap 20 times as many). Overrides --nodes.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub soft_nodes: Option<u64>,
    /// Openings, one FEN (or EPD) per line (Shredder-FEN lines are Chess960 positions).
    #[arg(long, required_unless_present = "chess960")]
    pub book: Option<PathBuf>,
    /// Start from random Chess960 starting positions (chosen by the seeded generator, as
    /// book lines are) instead of a book.
    #[arg(long)]
    pub chess960: bool,
    /// Start this share of the games, in percent, from a random Chess960 starting position
    /// instead of a book line (10 to 20 teaches a network Chess960 beside standard chess).
    /// With 0, the default, a run draws the random numbers it always has.
    #[arg(long, value_name = "PERCENT", default_value_t = 0, requires = "book",
          conflicts_with = "chess960", value_parser = clap::value_parser!(u32).range(0..=100))]
    pub chess960_percent: u32,
    /// Random plies played after the book line: between --min-random-plies and this many
    /// (at most MAX_RANDOM_PLIES).
    #[arg(long, default_value_t = 6,
          value_parser = clap::value_parser!(u32).range(..=i64::from(MAX_RANDOM_PLIES)))]
    pub random_plies: u32,
    /// The fewest random plies after the book line.
    #[arg(long, default_value_t = 0,
          value_parser = clap::value_parser!(u32).range(..=i64::from(MAX_RANDOM_PLIES)))]
    pub min_random_plies: u32,
    /// Skip a start position that a short search (REJECT_NODES nodes) scores beyond ±CP
    /// centipawns for the side to move.
    #[arg(long, value_name = "CP", value_parser = clap::value_parser!(i32).range(0..))]
    pub reject_score: Option<i32>,
    /// Games played at once, one shard each (1 to 256).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: u16,
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Transposition table per thread, in MB (1 to 32768, and the threads' tables together
    /// must fit in memory as the engine's `Hash` must). A game's searches of a few thousand
    /// nodes each need little, and a small table stays in the processor's cache: 2 MB gave
    /// about 10 % more positions a second than 8 MB (docs/measurements/network-chain.md, "Data generation's
    /// table size").
    #[arg(long, default_value_t = 2)]
    pub hash: usize,
    /// Play with this network file instead of the embedded one (read as the `EvalFile`
    /// option reads it). Each generation of data comes from the network that played it, so
    /// an older generation's line names that network once a newer one is embedded.
    #[arg(long, value_name = "FILE")]
    pub eval_file: Option<String>,
}

/// The most random plies `--random-plies` allows. The book line is the opening; a hundred
/// random plies already play a random game well into the middlegame, and the bound keeps the
/// start position's move record (and the time spent on it) small.
pub const MAX_RANDOM_PLIES: u32 = 100;

/// Games in a row of one thread that give no position (a start position that could not be
/// had or was rejected, or a game with no quiet position) after which datagen gives up. A
/// book of dead draws or of mates in one, or a --reject-score that rejects every opening,
/// would otherwise loop for ever without writing anything. Real runs are far from it: `gen10`
/// rejected 9,515 openings while it played some 40,000 games (2.8 M positions, docs/measurements/network-chain.md,
/// at about 70 a game), about one in five; even at 0.97 a thousand in a row has odds below
/// 1e-13.
pub const MAX_FRUITLESS_GAMES: u32 = 1_000;

static STOP: AtomicBool = AtomicBool::new(false);

/// SplitMix64 as a generator ([`crate::rng::splitmix64`]): quality is ample for picking
/// openings and plies, and any seed (zero included) works.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let out = crate::rng::splitmix64(self.0);
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        out
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// Records in a shard, cutting off a partial record left by an interrupted write. Every whole
/// record must decode first: a file that is not a shard (random bytes, say) would otherwise
/// be counted as positions, cut, and appended to; it is refused and left as it is.
fn prepare_shard(path: &Path) -> Result<u64, String> {
    let file = File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let len = file
        .metadata()
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?
        .len();
    let whole = len / RECORD_BYTES as u64;
    let mut reader = BufReader::new(file);
    let mut record = [0u8; RECORD_BYTES];
    for i in 0..whole {
        reader
            .read_exact(&mut record)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        if Packed::from_bytes(&record).is_none() {
            return Err(format!(
                "{}: record {i} is not a position datagen writes; the file is not a shard \
                 (left as it is)",
                path.display()
            ));
        }
    }
    if len % RECORD_BYTES as u64 != 0 {
        let file = OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
        file.set_len(whole * RECORD_BYTES as u64)
            .map_err(|e| format!("cannot truncate {}: {e}", path.display()))?;
    }
    Ok(whole)
}

/// Positions the shards in `out` hold, of this run's threads or an earlier run's with more.
/// Only regular files count: a folder named like a shard holds no positions.
fn existing_positions(out: &Path) -> Result<u64, String> {
    let mut existing = 0;
    for entry in std::fs::read_dir(out)
        .map_err(|e| format!("cannot read {}: {e}", out.display()))?
        .flatten()
    {
        let path = entry.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name.starts_with("shard-") && name.ends_with(".bin") && path.is_file() {
            existing += prepare_shard(&path)?;
        }
    }
    Ok(existing)
}

/// Nodes of the search that judges a start position for `--reject-score`: enough to see a
/// piece hanging after the random plies, a small share of a game's nodes.
pub const REJECT_NODES: u64 = 10_000;

/// Where the next game starts: the book, or with `percent` in a hundred the Chess960
/// starting positions. With `percent` 0 it draws no random number, so that a run without
/// Chess960 starts plays the games it always has (see [`start_position`]).
fn openings_for<'a>(
    book: &'a [Position],
    chess960: &'a [Position],
    percent: u32,
    rng: &mut Rng,
) -> &'a [Position] {
    if percent > 0 && !chess960.is_empty() && rng.below(100) < u64::from(percent) {
        chess960
    } else {
        book
    }
}

/// A start position: a book line and between `min_random` and `max_random` random legal
/// plies (None if the side to move ran out of moves during them, or if the game is over at
/// the end by a rule of chess, `selfplay::ended_by_rule`).
///
/// The plies stop early only when there is no legal move, as they always have: stopping at a
/// draw by rule as well would skip random numbers that the rest of the run draws after it,
/// and a `datagen` run continued by this code must write the games that the code which began
/// it would have (a generation's millions of positions are made over many runs). The check
/// at the end draws no random numbers, so it may be stricter.
fn start_position(
    book: &[Position],
    rng: &mut Rng,
    min_random: u32,
    max_random: u32,
) -> Option<Position> {
    let mut pos = book[rng.below(book.len() as u64) as usize].clone();
    let min_random = min_random.min(max_random);
    let plies = u64::from(min_random) + rng.below(u64::from(max_random - min_random) + 1);
    for _ in 0..plies {
        let moves: Vec<_> = pos.legal_moves().collect();
        if moves.is_empty() {
            return None;
        }
        pos.make_move(moves[rng.below(moves.len() as u64) as usize]);
    }
    pos.trim_record();
    // A start the game would end at once by a rule gives no position.
    selfplay::ended_by_rule(&pos).is_none().then_some(pos)
}

/// Is `pos` within ±`limit` centipawns by a short search with `network`? (A start position
/// that is not is decided before the game begins.) Also the nodes the search took.
fn balanced(
    pos: &Position,
    limit: i32,
    network: &Option<Arc<Network>>,
    tt: &TranspositionTable,
) -> (bool, u64) {
    tt.clear();
    let limits = Limits {
        mode: Mode::nodes(REJECT_NODES),
        network: network.clone(),
        ..Limits::default()
    };
    let outcome = search::search(pos, &limits, tt, &Signals::new(false), &mut |_| {});
    (outcome.score.abs() <= limit, outcome.nodes)
}

/// What the run did with its time, summed over the threads: a rate of positions a second is
/// nodes a second divided by nodes a kept position, and this says which of the two to raise.
#[derive(Default)]
struct Work {
    games: AtomicU64,
    plies: AtomicU64,
    /// Positions the games gave, before the last game is cut to the target.
    kept: AtomicU64,
    game_nodes: AtomicU64,
    /// Nodes of the `--reject-score` searches, rejected openings included.
    check_nodes: AtomicU64,
}

impl Work {
    fn add(counter: &AtomicU64, n: u64) {
        counter.fetch_add(n, Ordering::Relaxed);
    }

    /// One line: games, their length, the share of positions kept, nodes a kept position
    /// and the opening checks' share of them, and nodes a second a thread.
    fn summary(&self, secs: f64, threads: usize) -> String {
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed) as f64;
        let (games, plies, kept) = (get(&self.games), get(&self.plies), get(&self.kept));
        let nodes = get(&self.game_nodes) + get(&self.check_nodes);
        let share = |a: f64, b: f64| if b > 0.0 { 100.0 * a / b } else { 0.0 };
        format!(
            "games {games:.0}, plies a game {:.0}, positions kept {:.0} %, nodes a kept \
             position {:.0} ({:.1} % in the opening checks), nodes/s a thread {:.0}",
            if games > 0.0 { plies / games } else { 0.0 },
            share(kept, plies),
            if kept > 0.0 { nodes / kept } else { 0.0 },
            share(get(&self.check_nodes), nodes),
            nodes / (secs * threads as f64).max(1e-3),
        )
    }
}

/// Play one game with `limits` and return its kept positions as records (and count its
/// plies, nodes and kept positions in `work`).
fn game_records(
    start: &Position,
    limits: &Limits,
    tt: &TranspositionTable,
    work: &Work,
) -> Vec<u8> {
    let game = selfplay::play_game(start, limits, tt);
    Work::add(&work.games, 1);
    Work::add(&work.plies, game.scores.len() as u64);
    Work::add(&work.game_nodes, game.scores.iter().map(|m| m.nodes).sum());
    let result = match game.result {
        GameResult::WhiteWins => 2,
        GameResult::Draw => 1,
        GameResult::BlackWins => 0,
    };
    let mut pos = start.clone();
    let mut out = Vec::new();
    for (san, played) in game.moves.iter().zip(&game.scores) {
        let Some(m) = pos.parse_san(san) else {
            break;
        };
        let score = played.score;
        let keep = !pos.in_check()
            && !is_noisy(pos.board(), m)
            && !is_mate(score)
            && played.bound == ScoreBound::Exact;
        if keep {
            let white = if pos.side_to_move() == Color::White {
                score
            } else {
                -score
            };
            let white = white.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
            let fullmove = u16::try_from(pos.fullmove_number()).unwrap_or(u16::MAX);
            out.extend_from_slice(&Packed::new(pos.board(), white, result, fullmove).to_bytes());
        }
        pos.make_move(m);
    }
    Work::add(&work.kept, (out.len() / RECORD_BYTES) as u64);
    out
}

/// Takes up to `n` of the positions still wanted to reach `target` from `total` (which
/// counts what is written or claimed), and returns how many it took: the threads together
/// never write more than `target`.
fn claim(total: &AtomicU64, n: u64, target: u64) -> u64 {
    let mut taken = 0;
    let _ = total.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |t| {
        taken = n.min(target.saturating_sub(t));
        Some(t + taken)
    });
    taken
}

/// Progress as a plain line every half minute when stderr is not a terminal (the bar hides
/// itself there), for runs under nohup.
fn log_line(now: u64, existing: u64, target: u64, started: Instant, last: &Mutex<Instant>) {
    let mut last = last.lock().unwrap_or_else(|p| p.into_inner());
    if last.elapsed().as_secs() < 30 {
        return;
    }
    *last = Instant::now();
    let secs = started.elapsed().as_secs_f64().max(1e-3);
    let rate = (now - existing) as f64 / secs;
    let eta = target.saturating_sub(now) as f64 / rate.max(1e-9);
    eprintln!(
        "{now}/{target} positions, {rate:.1}/s, ETA {:.0} min",
        eta / 60.0
    );
}

pub fn run(args: &DatagenArgs) -> Result<bool, String> {
    if args.min_random_plies > args.random_plies {
        return Err(format!(
            "--min-random-plies {} is more than --random-plies {}",
            args.min_random_plies, args.random_plies
        ));
    }
    let book = selfplay::openings(args.book.as_deref(), args.chess960)?;
    let chess960 = if args.chess960_percent > 0 {
        selfplay::chess960_starts()
    } else {
        Vec::new()
    };
    let network = super::eval_file_network(args.eval_file.as_deref())?;
    let threads = usize::from(args.threads);
    let tables =
        TranspositionTable::per_thread(args.hash, threads).map_err(|e| format!("--hash: {e}"))?;
    std::fs::create_dir_all(&args.out)
        .map_err(|e| format!("cannot create {}: {e}", args.out.display()))?;
    let shards: Vec<PathBuf> = (0..threads)
        .map(|t| args.out.join(format!("shard-{t}.bin")))
        .collect();
    let existing = existing_positions(&args.out)?;
    if existing >= args.positions {
        eprintln!(
            "{} already holds {existing} positions (target {})",
            args.out.display(),
            args.positions
        );
        return Ok(true);
    }
    if let Err(e) = super::interrupt::on_interrupt(|| STOP.store(true, Ordering::SeqCst)) {
        eprintln!("warning: Ctrl-C will not stop cleanly: {e}");
    }
    let total = AtomicU64::new(existing);
    let bar = ProgressBar::new(args.positions);
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {pos}/{len} positions, {per_sec}, ETA {eta} {msg}",
        )
        .map_err(|e| e.to_string())?
        .progress_chars("=> "),
    );
    bar.set_position(existing);
    bar.reset_eta();
    let failure: Mutex<Option<String>> = Mutex::new(None);
    let limits = Limits {
        mode: match args.soft_nodes {
            Some(soft) => Mode::soft_nodes(soft),
            None => Mode::nodes(args.nodes),
        },
        network,
        ..Limits::default()
    };
    let rejected = AtomicU64::new(0);
    let work = Work::default();
    let started = Instant::now();
    let last_log = &Mutex::new(started);
    std::thread::scope(|scope| {
        for (t, (shard, tt)) in shards.iter().zip(&tables).enumerate() {
            let (book, chess960, total, bar) = (&book, &chess960, &total, &bar);
            let failure = &failure;
            let (limits, rejected, work) = (&limits, &rejected, &work);
            scope.spawn(move || {
                let fail = |e: String| {
                    *failure.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                    STOP.store(true, Ordering::SeqCst);
                };
                let had = std::fs::metadata(shard).map_or(0, |m| m.len());
                let mut file = match OpenOptions::new().create(true).append(true).open(shard) {
                    Ok(f) => f,
                    Err(e) => return fail(format!("cannot open {}: {e}", shard.display())),
                };
                // A rerun plays new games: the stream depends on what the shard holds.
                let mut rng = Rng(args.seed ^ ((t as u64) << 40) ^ had.rotate_left(17));
                let mut fruitless = 0;
                while !STOP.load(Ordering::SeqCst) && total.load(Ordering::SeqCst) < args.positions
                {
                    if fruitless >= MAX_FRUITLESS_GAMES {
                        return fail(format!(
                            "{MAX_FRUITLESS_GAMES} games in a row gave no position: no start \
                             position could be had or every one was rejected (--reject-score), \
                             or no game reached a quiet position; check the book and options"
                        ));
                    }
                    fruitless += 1;
                    let (min, max) = (args.min_random_plies, args.random_plies);
                    let openings = openings_for(book, chess960, args.chess960_percent, &mut rng);
                    let Some(start) = start_position(openings, &mut rng, min, max) else {
                        continue;
                    };
                    if let Some(limit) = args.reject_score {
                        let (even, nodes) = balanced(&start, limit, &limits.network, tt);
                        Work::add(&work.check_nodes, nodes);
                        if !even {
                            rejected.fetch_add(1, Ordering::Relaxed);
                            continue;
                        }
                    }
                    let records = game_records(&start, limits, tt, work);
                    if !records.is_empty() {
                        fruitless = 0;
                    }
                    if STOP.load(Ordering::SeqCst) {
                        break;
                    }
                    let n = claim(total, (records.len() / RECORD_BYTES) as u64, args.positions);
                    let kept = &records[..n as usize * RECORD_BYTES];
                    if let Err(e) = file.write_all(kept).and_then(|()| file.flush()) {
                        return fail(format!("cannot write {}: {e}", shard.display()));
                    }
                    let now = total.load(Ordering::SeqCst);
                    bar.inc(n);
                    if bar.is_hidden() {
                        log_line(now, existing, args.positions, started, last_log);
                    }
                }
            });
        }
    });
    bar.finish_and_clear();
    if let Some(e) = failure.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(e);
    }
    let done = total.load(Ordering::SeqCst);
    let secs = started.elapsed().as_secs_f64().max(1e-3);
    eprintln!(
        "{} positions in {} ({} new, {:.0} positions/s on {threads} threads, {} openings \
         rejected){}",
        done,
        args.out.display(),
        done - existing,
        (done - existing) as f64 / secs,
        rejected.load(Ordering::Relaxed),
        if STOP.load(Ordering::SeqCst) {
            ", stopped by Ctrl-C or a request to end"
        } else {
            ""
        }
    );
    eprintln!("{}", work.summary(secs, threads));
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::packed::decode_all;

    #[test]
    fn a_game_gives_quiet_positions_with_its_result() {
        let tt = TranspositionTable::new(1);
        let mut rng = Rng(5);
        let book = [Position::startpos()];
        let start = start_position(&book, &mut rng, 0, 4).expect("a start position");
        let limits = Limits {
            mode: Mode::nodes(300),
            ..Limits::default()
        };
        let work = Work::default();
        let bytes = game_records(&start, &limits, &tt, &work);
        assert_eq!(bytes.len() % RECORD_BYTES, 0);
        let records = decode_all(&bytes).expect("decodes");
        assert!(!records.is_empty());
        let result = records[0].result;
        for r in &records {
            assert_eq!(r.result, result, "one game, one result");
            let board = r.board().expect("legal board");
            assert_eq!(*board.checkers(), chess::EMPTY, "in check: {board}");
        }
        // The account: one game, its plies, the positions kept, 300 nodes a move at most.
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
        assert_eq!(get(&work.games), 1);
        assert_eq!(get(&work.kept), records.len() as u64);
        assert!(get(&work.plies) >= get(&work.kept));
        let nodes = get(&work.game_nodes);
        assert!(
            nodes > 0 && nodes <= 300 * get(&work.plies),
            "{nodes} nodes"
        );
        assert!(work.summary(1.0, 1).starts_with("games 1, plies a game "));
    }

    #[test]
    fn claims_stop_exactly_at_the_target() {
        let total = AtomicU64::new(90);
        assert_eq!(claim(&total, 7, 100), 7);
        assert_eq!(claim(&total, 7, 100), 3);
        assert_eq!(claim(&total, 7, 100), 0);
        assert_eq!(total.load(Ordering::SeqCst), 100);
    }

    /// A fresh, empty folder for one test.
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("sandglass-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp folder");
        dir
    }

    /// A record of the start position.
    fn a_record() -> [u8; RECORD_BYTES] {
        Packed::new(Position::startpos().board(), 10, 1, 1).to_bytes()
    }

    fn file_len(path: &Path) -> u64 {
        std::fs::metadata(path).map(|m| m.len()).unwrap_or(0)
    }

    #[test]
    fn partial_records_are_cut_off_on_resume() {
        let dir = scratch("datagen-partial");
        let path = dir.join("shard-0.bin");
        let mut bytes = [a_record(), a_record()].concat();
        bytes.extend_from_slice(&a_record()[..5]);
        std::fs::write(&path, bytes).expect("temp file");
        assert_eq!(prepare_shard(&path), Ok(2));
        assert_eq!(file_len(&path), (RECORD_BYTES * 2) as u64);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// 3,205 random bytes were counted as 100 positions and cut to 3,200 bytes; now the file
    /// is refused before anything is cut, even with a partial record at its end.
    #[test]
    fn a_file_that_is_not_a_shard_is_refused_and_left_as_it_is() {
        let dir = scratch("datagen-foreign");
        let path = dir.join("shard-0.bin");
        let mut rng = Rng(3);
        let noise: Vec<u8> = (0..3_205).map(|_| rng.next() as u8).collect();
        std::fs::write(&path, &noise).expect("temp file");
        let err = prepare_shard(&path).expect_err("random bytes are not a shard");
        assert!(err.contains("record 0"), "{err}");
        assert!(existing_positions(&dir).is_err());
        assert_eq!(file_len(&path), 3_205);
        // One bad record among good ones is enough.
        let mut bytes = [a_record(), a_record(), a_record()].concat();
        bytes[RECORD_BYTES + 31] = 1;
        bytes.extend_from_slice(&[1, 2, 3]);
        std::fs::write(&path, &bytes).expect("temp file");
        let err = prepare_shard(&path).expect_err("a corrupt record");
        assert!(err.contains("record 1"), "{err}");
        assert_eq!(file_len(&path), bytes.len() as u64);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A folder named `shard-9.bin` was read as 128 positions (its 4,096-byte size).
    #[test]
    fn a_folder_named_like_a_shard_holds_no_positions() {
        let dir = scratch("datagen-folder");
        std::fs::create_dir(dir.join("shard-9.bin")).expect("temp folder");
        std::fs::write(dir.join("shard-0.bin"), a_record()).expect("temp file");
        assert_eq!(existing_positions(&dir), Ok(1));
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The random plies stay between the bounds asked for.
    #[test]
    fn random_plies_stay_within_their_bounds() {
        let mut rng = Rng(11);
        let book = [Position::startpos()];
        for _ in 0..50 {
            let Some(pos) = start_position(&book, &mut rng, 8, 9) else {
                continue;
            };
            let plies = pos.game_ply();
            assert!((8..=9).contains(&plies), "{plies} plies");
        }
    }

    #[derive(clap::Parser)]
    struct Cli {
        #[command(flatten)]
        args: DatagenArgs,
    }

    /// `--random-plies 4294967295` was taken, and its random plies grew the move record
    /// without bound (1.56 GB in 4 s); the options now stop at MAX_RANDOM_PLIES.
    #[test]
    fn random_plies_are_bounded() {
        use clap::Parser;
        let parse = |option: &str, plies: &str| {
            Cli::try_parse_from(["datagen", "--book", "b", option, plies])
                .map(|c| (c.args.min_random_plies, c.args.random_plies))
        };
        assert_eq!(parse("--random-plies", "100").ok(), Some((0, 100)));
        assert_eq!(parse("--min-random-plies", "100").ok(), Some((100, 6)));
        for option in ["--random-plies", "--min-random-plies"] {
            assert!(parse(option, "101").is_err(), "{option}");
            assert!(parse(option, "4294967295").is_err(), "{option}");
        }
    }

    /// `--chess960-percent`: about that share of the games starts from the Chess960 starts;
    /// 0 draws no random number (a run without it continues the games it always played),
    /// and the option needs a book and excludes `--chess960`.
    #[test]
    fn a_share_of_the_games_starts_from_chess960() {
        let book = [Position::startpos()];
        let chess960 = selfplay::chess960_starts();
        assert_eq!(chess960.len(), 960);
        let mut rng = Rng(7);
        for _ in 0..100 {
            assert_eq!(openings_for(&book, &chess960, 0, &mut rng).len(), 1);
        }
        assert_eq!(rng.0, 7, "percent 0 drew random numbers");
        let draws = 10_000;
        let mixed = (0..draws)
            .filter(|_| openings_for(&book, &chess960, 15, &mut rng).len() == 960)
            .count();
        assert!((1300..=1700).contains(&mixed), "{mixed} of {draws}");
        assert!((0..100).all(|_| openings_for(&book, &chess960, 100, &mut rng).len() == 960));
        let start = start_position(&chess960, &mut rng, 0, 0).expect("a start");
        assert!(start.is_chess960());

        use clap::Parser;
        let parse = |args: &[&str]| Cli::try_parse_from([&["datagen"], args].concat());
        let ok = parse(&["--book", "b", "--chess960-percent", "15"]).expect("parses");
        assert_eq!(ok.args.chess960_percent, 15);
        assert!(parse(&["--book", "b", "--chess960-percent", "101"]).is_err());
        assert!(parse(&["--book", "b", "--chess960-percent=-1"]).is_err());
        assert!(parse(&["--chess960", "--chess960-percent", "15"]).is_err());
        assert!(parse(&["--chess960-percent", "15"]).is_err());
    }

    /// A start position that is drawn by rule after its random plies is not handed out:
    /// K v K and a fifty-move draw were.
    #[test]
    fn random_plies_stop_when_the_game_is_drawn() {
        let mut rng = Rng(1);
        for fen in [
            "8/8/8/4k3/8/8/8/4K3 w - - 0 1",
            "6k1/8/8/8/8/8/8/R5K1 w - - 99 80",
        ] {
            let pos = Position::from_fen(fen).expect("fen");
            assert!(start_position(&[pos], &mut rng, 3, 3).is_none(), "{fen}");
        }
    }

    /// The random plies draw one number a ply until the side to move has no move, and not
    /// fewer when the game is drawn by rule on the way: a version that stopped there skipped
    /// numbers the rest of the run goes on to draw, so a run it continued wrote other games
    /// than the code that began it would have (here the fifty-move rule strikes during the
    /// plies; a continued run's shard differed from byte 7,649).
    #[test]
    fn random_plies_draw_the_same_numbers_through_a_draw_by_rule() {
        let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 96 3";
        let book = [Position::from_fen(fen).expect("fen")];
        let mut drawn_on_the_way = 0;
        for seed in 0..20 {
            let mut rng = Rng(seed);
            start_position(&book, &mut rng, 8, 9);
            // The numbers the plies draw, counted independently: the book line, the number
            // of plies, then one a ply.
            let mut expected = Rng(seed);
            let mut pos = book[expected.below(1) as usize].clone();
            for _ in 0..8 + expected.below(2) {
                drawn_on_the_way += usize::from(pos.is_fifty_move_draw());
                let moves: Vec<_> = pos.legal_moves().collect();
                pos.make_move(moves[expected.below(moves.len() as u64) as usize]);
            }
            assert_eq!(rng.0, expected.0, "seed {seed}");
        }
        assert!(
            drawn_on_the_way > 0,
            "no seed met the fifty-move rule during its plies"
        );
    }

    /// Queen odds are rejected, the start position is not.
    #[test]
    fn openings_a_short_search_sees_as_lost_are_rejected() {
        let tt = TranspositionTable::new(1);
        let odds = Position::from_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
            .expect("fen");
        let network = crate::eval::nnue::select::default_network();
        let (even, nodes) = balanced(&odds, 400, &network, &tt);
        assert!(!even);
        assert_eq!(
            nodes, REJECT_NODES,
            "a node-limited search stops at its limit"
        );
        assert!(balanced(&Position::startpos(), 400, &network, &tt).0);
    }

    /// A soft node limit ends a search after a whole iteration: its tree is exactly that of
    /// a fixed-depth search to the depth it reached, and that iteration passed the limit.
    #[test]
    fn a_soft_node_limit_ends_after_a_whole_iteration() {
        let tt = TranspositionTable::new(4);
        let pos = Position::startpos();
        let run = |mode: Mode| {
            tt.clear();
            let limits = Limits {
                mode,
                ..Limits::default()
            };
            search::search(&pos, &limits, &tt, &Signals::new(false), &mut |_| {})
        };
        let soft = run(Mode::soft_nodes(5_000));
        assert!(soft.nodes >= 5_000, "{} nodes", soft.nodes);
        let fixed = run(Mode::depth(soft.depth));
        assert_eq!(soft.nodes, fixed.nodes);
        let shallower = run(Mode::depth(soft.depth - 1));
        assert!(
            shallower.nodes < 5_000,
            "depth {} already passed the limit",
            soft.depth - 1
        );
    }
}
