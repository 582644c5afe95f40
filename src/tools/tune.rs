//! Texel tuning: fit the evaluation weights to the results of real games.
//!
//! The idea (Peter Österlund's, named after his engine Texel): a good evaluation
//! predicts who wins. Map an evaluation `e` (centipawns, White's view) to an
//! expected score with `σ(e) = 1 / (1 + 10^(−K·e/400))`, and compare it with the
//! result of the game the position came from (1, ½ or 0 for White). The mean
//! squared error over many quiet positions is what we minimise.
//!
//! Steps:
//! 1. Read PGN games with a small reader written here: tags, then SAN moves
//!    matched against the legal moves of the `chess` crate; comments `{…}` and
//!    `;…`, variations `(…)`, NAGs `$n` and move numbers are skipped.
//! 2. Sample positions: skip the opening plies and positions in check, then play
//!    out captures with a small quiescence search and keep the quiet position at
//!    the end of its principal variation. Each keeps its game's result.
//! 3. The evaluation is linear in its weights, so [`eval::trace`] turns each
//!    position into feature counts once; after that an evaluation is a short dot
//!    product and a whole pass over the data takes milliseconds.
//! 4. Fit `K` with the starting weights, then fit the weights with Adam on the
//!    mean squared error plus a small L2 pull towards the starting weights (with
//!    a few hundred games there are far more weights than the data can pin down).
//!    Every `--holdout`-th game is kept out of training to measure overfitting.
//! 5. Round the weights, check they are sane (piece values in order), and write
//!    them as a new `params.rs`.
//!
//! Outside the piece-square tables a weight may not change sign (a bonus stays a
//! bonus; `--free-signs` lifts this), and `--freeze` keeps whole groups fixed.
//! The committed weights came from 3,000 self-play games of commit 555ccf8:
//! `sandglass selfplay --book noob_3moves.epd --games 3000 --nodes 6000 --threads 2
//! --seed 2 --out sp2.pgn`, then `sandglass tune --pgn sp2.pgn --epochs 300
//! --lambda 0.5 --l2 3e-8 --holdout 10`. Game results alone were too noisy: the earlier
//! 460 human and TCEC games (~26k positions) could not move the piece-square weights
//! without overfitting, and 3,000 self-play games labelled by result only left every
//! weight within 9 cp of its start. With the search score blended in (`--lambda 0.5`)
//! every group moves, piece-square tables included; the two validation errors are not
//! comparable (the blended target is smoother and partly the engine's own judgement), so
//! the evidence is the match against the old weights in MEASUREMENTS.md.

use crate::position::{san_to_move, Position};
use std::path::PathBuf;

use std::time::Instant;

use chess::{BitBoard, Board, BoardStatus, ChessMove, Piece};

use crate::eval::{self, layout, Trace};

/// Arguments of `sandglass tune`.
#[derive(clap::Args, Debug, Clone)]
pub struct TuneArgs {
    /// PGN file with finished games; repeat the option for several files.
    #[arg(long, required = true)]
    pub pgn: Vec<PathBuf>,
    /// Use at most this many positions (an even, deterministic sample).
    #[arg(long)]
    pub positions: Option<usize>,
    /// Passes of gradient descent over all positions.
    #[arg(long, default_value_t = 1500)]
    pub epochs: usize,
    /// Where to write the tuned weights as Rust source (a complete params.rs).
    #[arg(long, default_value = "params_tuned.rs")]
    pub out: PathBuf,
    /// Adam step size, in centipawns.
    #[arg(long, default_value_t = 1.0)]
    pub lr: f64,
    /// Strength of the pull towards the starting weights (per centipawn squared).
    #[arg(long, default_value_t = 3e-7)]
    pub l2: f64,
    /// Plies at the start of each game from which no position is taken.
    #[arg(long, default_value_t = 8)]
    pub skip_plies: usize,
    /// Every n-th game is held out to measure overfitting (0: none).
    #[arg(long, default_value_t = 10)]
    pub holdout: usize,
    /// Weight of the game result in the target; the rest is the search score recorded in the
    /// PGN's move comments (1: results only).
    #[arg(long, default_value_t = 1.0, value_parser = parse_lambda)]
    pub lambda: f64,
    /// Which of the `--holdout` folds is held out (0 ..= holdout − 1); the default is the last.
    #[arg(long)]
    pub fold: Option<usize>,
    /// Let weights outside the piece-square tables change sign (by default a term
    /// may grow or shrink but not turn from a bonus into a penalty).
    #[arg(long)]
    pub free_signs: bool,
    /// Weight groups to keep unchanged, by name (e.g. MATERIAL,KING_PSQT).
    #[arg(long, value_delimiter = ',')]
    pub freeze: Vec<String>,
}

fn parse_lambda(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(v) if (0.0..=1.0).contains(&v) => Ok(v),
        _ => Err(format!("{text}: must be a number from 0 to 1")),
    }
}

/// Runs the tuner; see the module documentation.
pub fn run(args: &TuneArgs) -> Result<(), String> {
    let started = Instant::now();
    for name in &args.freeze {
        if !layout::GROUPS.iter().any(|g| g.name == name.as_str()) {
            return Err(format!("--freeze: no weight group named {name}"));
        }
    }

    // 1-2. Games and positions.
    let mut games = Vec::new();
    for path in &args.pgn {
        let bytes =
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let found = parse_pgn(&String::from_utf8_lossy(&bytes));
        println!("{}: {} games", path.display(), found.len());
        games.extend(found);
    }
    let mut samples = Vec::new();
    let mut stats = SampleStats::default();
    for (index, game) in games.iter().enumerate() {
        collect_positions(game, index, args.skip_plies, &mut samples, &mut stats);
    }
    println!(
        "{} games with a result ({} without, {} stopped early at an unreadable move); {} positions",
        stats.games_used,
        stats.games_without_result,
        stats.games_with_bad_moves,
        samples.len()
    );
    if let Some(limit) = args.positions {
        if limit < samples.len() {
            let step = samples.len() as f64 / limit as f64;
            samples = (0..limit)
                .map(|i| samples[(i as f64 * step) as usize].clone())
                .collect();
        }
    }
    if samples.len() < 100_000 {
        println!(
            "note: only {} positions; 100k or more would pin the weights down better",
            samples.len()
        );
    }
    let fold = args.fold.unwrap_or(args.holdout.saturating_sub(1));
    if args.holdout > 0 && fold >= args.holdout {
        return Err(format!("--fold must be below --holdout ({})", args.holdout));
    }
    let is_holdout = |s: &Sample| args.holdout > 0 && s.game % args.holdout == fold;
    let (valid, train): (Vec<Sample>, Vec<Sample>) = samples.into_iter().partition(is_holdout);
    if train.is_empty() {
        return Err("no positions to tune on".to_string());
    }
    println!(
        "training on {} positions, validating on {}",
        train.len(),
        valid.len()
    );

    // 4. K, then the weights.
    let start: Vec<(f64, f64)> = layout::current_weights()
        .iter()
        .map(|&(m, e)| (f64::from(m), f64::from(e)))
        .collect();
    let k = fit_k(&train, &start);
    let (train, valid) = if args.lambda < 1.0 {
        let lambda = args.lambda;
        let with_scores = train.iter().filter(|s| s.score.is_some()).count();
        println!(
            "target = {lambda} × result + {:.2} × σ(search score) for the {with_scores} positions with a score",
            1.0 - lambda
        );
        (
            blend_targets(train, lambda, k),
            blend_targets(valid, lambda, k),
        )
    } else {
        (train, valid)
    };
    let before = (mse(&train, &start, k), mse(&valid, &start, k));
    let show = |(t, v): (f64, f64)| {
        if valid.is_empty() {
            format!("train {t:.6}")
        } else {
            format!("train {t:.6}, validation {v:.6}")
        }
    };
    println!("K = {k:.3}; MSE before: {}", show(before));

    let frozen = frozen_mask(&args.freeze);
    let tuned = adam(&train, &valid, &start, &frozen, k, args);
    let rounded: Vec<(f64, f64)> = tuned.iter().map(|&(m, e)| (m.round(), e.round())).collect();
    let after = (mse(&train, &rounded, k), mse(&valid, &rounded, k));
    println!("MSE after (rounded weights): {}", show(after));

    // 5. Sanity, then write.
    let ints: Vec<(i32, i32)> = rounded.iter().map(|&(m, e)| (m as i32, e as i32)).collect();
    check_sane(&ints)?;
    let validation = if valid.is_empty() {
        String::new()
    } else {
        format!(", validation {:.6} -> {:.6}", before.1, after.1)
    };
    let frozen_names = if args.freeze.is_empty() {
        "none".to_string()
    } else {
        args.freeze.join(",")
    };
    let summary = format!(
        "{} positions from {} games, K = {k:.3}, {} epochs, l2 = {:e}, lambda = {},\n\
         //! frozen: {frozen_names};\n//! MSE train {:.6} -> {:.6}{validation}",
        train.len(),
        stats.games_used,
        args.epochs,
        args.l2,
        args.lambda,
        before.0,
        after.0,
    );
    let source = render_params(&ints, &summary);
    std::fs::write(&args.out, source)
        .map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
    println!(
        "wrote {} in {:.1} s",
        args.out.display(),
        started.elapsed().as_secs_f64()
    );
    if !valid.is_empty() && after.1 > before.1 {
        println!("warning: the validation error did not improve; the new weights overfit");
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// PGN reading

/// A game from a PGN file: its result (White's score) and its moves in SAN.
#[derive(Debug, Clone, PartialEq)]
pub struct PgnGame {
    /// 1.0, 0.5 or 0.0 for a finished game; `None` for `*` or no result.
    pub result: Option<f64>,
    /// The FEN tag, for games that do not start from the initial position.
    pub fen: Option<String>,
    /// Moves of the main line, in SAN as written.
    pub moves: Vec<String>,
    /// For each move, the engine's score for it from a `{+0.35/9 …}` comment (centipawns,
    /// from the mover's side), as engines and `sandglass selfplay` write them.
    pub scores: Vec<Option<i32>>,
}

fn result_value(text: &str) -> Option<f64> {
    match text {
        "1-0" => Some(1.0),
        "0-1" => Some(0.0),
        "1/2-1/2" => Some(0.5),
        _ => None,
    }
}

/// Reads every game of a PGN text. Tolerant: whatever it cannot understand in
/// the move text is skipped, and a game's moves stop at the first bad one later
/// (when they are played through [`san_to_move`]).
pub fn parse_pgn(text: &str) -> Vec<PgnGame> {
    let mut games = Vec::new();
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut movetext = String::new();
    let mut finish = |tags: &mut Vec<(String, String)>, movetext: &mut String| {
        if tags.is_empty() && movetext.trim().is_empty() {
            return;
        }
        let tag = |name: &str| tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone());
        let (moves, scores, result_token) = movetext_tokens(movetext);
        let result = tag("Result")
            .and_then(|r| result_value(&r))
            .or_else(|| result_token.and_then(|r| result_value(&r)));
        games.push(PgnGame {
            result,
            fen: tag("FEN"),
            moves,
            scores,
        });
        tags.clear();
        movetext.clear();
    };
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with('%') {
            continue;
        }
        if trimmed.starts_with('[') && trimmed.ends_with(']') && !in_open_comment(&movetext) {
            if !movetext.trim().is_empty() {
                finish(&mut tags, &mut movetext);
            }
            if let Some(tag) = parse_tag(trimmed) {
                tags.push(tag);
            }
        } else {
            movetext.push_str(line);
            movetext.push('\n');
        }
    }
    finish(&mut tags, &mut movetext);
    games
}

/// `true` if the text has a `{` comment that is not closed yet (a tag-like line
/// inside a multi-line comment must not start a new game).
fn in_open_comment(text: &str) -> bool {
    let mut open = false;
    for ch in text.chars() {
        match ch {
            '{' => open = true,
            '}' => open = false,
            _ => {}
        }
    }
    open
}

/// `[Name "Value"]` to its two parts.
fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?.trim();
    let (name, rest) = inner.split_once(char::is_whitespace)?;
    let value = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    Some((name.to_string(), value.replace("\\\"", "\"")))
}

/// An engine score at the start of a comment: `+0.35/9`, `-1.20/12 0.5s`; mate scores
/// (`+M5`) and anything else give `None`.
pub fn comment_score(comment: &str) -> Option<i32> {
    let first = comment.split_whitespace().next()?;
    let (value, depth) = first.split_once('/')?;
    depth.parse::<u32>().ok()?;
    if !value.contains('.') {
        return None;
    }
    let pawns: f64 = value.parse().ok()?;
    if !pawns.is_finite() || pawns.abs() > 200.0 {
        return None;
    }
    Some((pawns * 100.0).round() as i32)
}

type Movetext = (Vec<String>, Vec<Option<i32>>, Option<String>);

/// The SAN moves of the main line, the score in the comment after each (if any), and the
/// result token if there is one.
fn movetext_tokens(text: &str) -> Movetext {
    let mut moves = Vec::new();
    let mut scores: Vec<Option<i32>> = Vec::new();
    let mut comment_text = String::new();
    let mut result = None;
    let mut token = String::new();
    let mut comment = false;
    let mut line_comment = false;
    let mut variation = 0usize;
    let mut flush = |token: &mut String, moves: &mut Vec<String>| {
        let word = std::mem::take(token);
        if matches!(word.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*") {
            result = Some(word);
            return;
        }
        // Move numbers may stick to the move: "12.e4", "12...Nf6".
        let word = word.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        if !word.starts_with('$') && word.chars().any(|c| c.is_ascii_alphabetic()) {
            moves.push(word.to_string());
        }
    };
    for ch in text.chars() {
        if line_comment {
            line_comment = ch != '\n';
            continue;
        }
        if comment {
            comment = ch != '}';
            if comment {
                comment_text.push(ch);
            } else if variation == 0 && scores.len() < moves.len() {
                scores.resize(moves.len() - 1, None);
                scores.push(comment_score(&comment_text));
            }
            continue;
        }
        match ch {
            '{' => {
                flush(&mut token, &mut moves);
                comment = true;
                comment_text.clear();
            }
            ';' => {
                flush(&mut token, &mut moves);
                line_comment = true;
            }
            '(' => {
                flush(&mut token, &mut moves);
                variation += 1;
            }
            ')' => {
                token.clear();
                variation = variation.saturating_sub(1);
            }
            c if c.is_whitespace() => {
                if variation == 0 {
                    flush(&mut token, &mut moves);
                } else {
                    token.clear();
                }
            }
            c => token.push(c),
        }
    }
    if variation == 0 {
        flush(&mut token, &mut moves);
    }
    scores.resize(moves.len(), None);
    (moves, scores, result)
}

// ---------------------------------------------------------------------------
// Positions

/// A quiet position with the result of its game.
#[derive(Clone)]
struct Sample {
    trace: Trace,
    /// What the tuner fits: White's score in the game (1, 0.5 or 0), blended with the search
    /// score below when `--lambda` asks for it.
    result: f64,
    /// The engine's search score of the game position (centipawns, White's view), if the
    /// PGN recorded one.
    score: Option<f64>,
    /// Index of the game it came from.
    game: usize,
}

#[derive(Default)]
struct SampleStats {
    games_used: usize,
    games_without_result: usize,
    games_with_bad_moves: usize,
}

fn collect_positions(
    game: &PgnGame,
    index: usize,
    skip: usize,
    out: &mut Vec<Sample>,
    stats: &mut SampleStats,
) {
    let Some(result) = game.result else {
        stats.games_without_result += 1;
        return;
    };
    let mut pos = match &game.fen {
        Some(fen) => match Position::from_fen(fen) {
            Ok(p) => p,
            Err(_) => {
                stats.games_with_bad_moves += 1;
                return;
            }
        },
        None => Position::startpos(),
    };
    stats.games_used += 1;
    // The score written after move `ply + 1` is that move's search, made from the position
    // after move `ply`, by the side to move there.
    let search_score = |ply: usize, white_to_move: bool| {
        let s = f64::from(game.scores.get(ply + 1).copied().flatten()?);
        Some(if white_to_move { s } else { -s })
    };
    for (ply, san) in game.moves.iter().enumerate() {
        let Some(m) = san_to_move(pos.board(), san) else {
            stats.games_with_bad_moves += 1;
            return;
        };
        pos.make_move(m);
        pos.trim_record();
        if ply + 1 < skip || pos.in_check() || pos.board().status() != BoardStatus::Ongoing {
            continue;
        }
        let (_, leaf) = quiet_leaf(
            &mut pos,
            -eval::EVAL_LIMIT,
            eval::EVAL_LIMIT,
            QUIESCENCE_DEPTH,
        );
        if *leaf.checkers() != BitBoard(0) {
            continue;
        }
        let trace = eval::trace(&leaf);
        if trace.shape.is_dead_draw() {
            continue;
        }
        let white_to_move = pos.side_to_move() == chess::Color::White;
        out.push(Sample {
            trace,
            result,
            score: search_score(ply, white_to_move),
            game: index,
        });
    }
}

const QUIESCENCE_DEPTH: u32 = 8;

fn piece_value(p: Option<Piece>) -> i32 {
    match p {
        Some(Piece::Pawn) => 1,
        Some(Piece::Knight) | Some(Piece::Bishop) => 3,
        Some(Piece::Rook) => 5,
        Some(Piece::Queen) => 9,
        Some(Piece::King) => 20,
        None => 0,
    }
}

/// Captures-only alpha-beta search; returns its score and the position at the end
/// of its principal variation (the position itself if standing pat is best).
fn quiet_leaf(pos: &mut Position, mut alpha: i32, beta: i32, depth: u32) -> (i32, Board) {
    let board = *pos.board();
    let stand_pat = eval::evaluate(&board);
    if stand_pat >= beta || depth == 0 {
        return (stand_pat, board);
    }
    let mut best_leaf = board;
    alpha = alpha.max(stand_pat);
    let mut captures = pos.legal_moves();
    captures.set_iterator_mask(*board.color_combined(!board.side_to_move()));
    let mut ordered: Vec<ChessMove> = captures.collect();
    // Most valuable victim first, least valuable attacker among equals.
    ordered.sort_by_key(|m| {
        -(10 * piece_value(board.piece_on(m.get_dest())))
            + piece_value(board.piece_on(m.get_source()))
    });
    for m in ordered {
        pos.make_move(m);
        let (score, leaf) = quiet_leaf(pos, -beta, -alpha, depth - 1);
        pos.unmake();
        let score = -score;
        if score > alpha {
            alpha = score;
            best_leaf = leaf;
            if score >= beta {
                break;
            }
        }
    }
    (alpha, best_leaf)
}

// ---------------------------------------------------------------------------
// Fitting

/// Game results say who won from a position only with much noise (one game, decided many
/// moves later); the search score of the game's engine says it with less noise but with
/// the engine's own bias. Fitting a blend of the two is common practice for hand-written
/// evaluations (and the usual label for NNUE training data): `λ · result + (1 − λ) · σ(score)`.
fn blend_targets(samples: Vec<Sample>, lambda: f64, k: f64) -> Vec<Sample> {
    samples
        .into_iter()
        .map(|mut s| {
            if let Some(score) = s.score {
                s.result = lambda * s.result + (1.0 - lambda) * sigmoid(k, score);
            }
            s
        })
        .collect()
}

fn sigmoid(k: f64, eval: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * eval / 400.0))
}

fn mse(samples: &[Sample], weights: &[(f64, f64)], k: f64) -> f64 {
    if samples.is_empty() {
        return f64::NAN;
    }
    let total: f64 = samples
        .iter()
        .map(|s| (sigmoid(k, s.trace.evaluate(weights)) - s.result).powi(2))
        .sum();
    total / samples.len() as f64
}

/// The `K` that minimises the error with the given weights: a coarse scan, then
/// ever finer ones around the best value.
fn fit_k(samples: &[Sample], weights: &[(f64, f64)]) -> f64 {
    let evals: Vec<(f64, f64)> = samples
        .iter()
        .map(|s| (s.trace.evaluate(weights), s.result))
        .collect();
    let error = |k: f64| {
        evals
            .iter()
            .map(|&(e, r)| (sigmoid(k, e) - r).powi(2))
            .sum::<f64>()
    };
    let (mut best, mut step) = (1.0, 0.1);
    for _ in 0..5 {
        let centre = best;
        for i in -10..=10 {
            let k = centre + f64::from(i) * step;
            if k > 0.0 && error(k) < error(best) {
                best = k;
            }
        }
        step /= 10.0;
    }
    best
}

fn frozen_mask(names: &[String]) -> Vec<bool> {
    let mut frozen = vec![false; layout::COUNT];
    for g in layout::GROUPS {
        if names.iter().any(|n| n == g.name) {
            frozen[g.offset..g.offset + g.values.len()].fill(true);
        }
    }
    frozen
}

/// `value`, or 0 if it has the opposite sign of a non-zero `start`.
fn keep_sign(value: f64, start: f64) -> f64 {
    if value * start < 0.0 {
        0.0
    } else {
        value
    }
}

/// Full-batch Adam on mean squared error + `l2`·Σ(w − w₀)².
fn adam(
    train: &[Sample],
    valid: &[Sample],
    start: &[(f64, f64)],
    frozen: &[bool],
    k: f64,
    args: &TuneArgs,
) -> Vec<(f64, f64)> {
    const BETA1: f64 = 0.9;
    const BETA2: f64 = 0.999;
    const EPSILON: f64 = 1e-8;
    let n = start.len();
    let mut w = start.to_vec();
    let mut m = vec![(0.0, 0.0); n];
    let mut v = vec![(0.0, 0.0); n];
    let mut grad = vec![(0.0, 0.0); n];
    let mut sign_locked = vec![!args.free_signs; n];
    for g in layout::GROUPS.iter().filter(|g| g.name.ends_with("_PSQT")) {
        sign_locked[g.offset..g.offset + g.values.len()].fill(false);
    }
    let scale = 2.0 * std::f64::consts::LN_10 * k / 400.0 / train.len() as f64;
    for epoch in 1..=args.epochs {
        grad.fill((0.0, 0.0));
        for s in train {
            let (mg, eg) = s.trace.sums(&w);
            let (fm, fe) = s.trace.shape.blend_factors(eg);
            let p = sigmoid(k, mg * fm + eg * fe);
            // d(error)/d(eval), up to the common factor `scale`.
            let d = (p - s.result) * p * (1.0 - p);
            for &(i, count) in &s.trace.features {
                let g = &mut grad[usize::from(i)];
                let c = d * f64::from(count);
                g.0 += c * fm;
                g.1 += c * fe;
            }
        }
        // Halve the step for the last quarter and again for the last eighth.
        let lr = if epoch > args.epochs * 7 / 8 {
            args.lr / 4.0
        } else if epoch > args.epochs * 3 / 4 {
            args.lr / 2.0
        } else {
            args.lr
        };
        let (c1, c2) = (
            1.0 - BETA1.powi(epoch as i32),
            1.0 - BETA2.powi(epoch as i32),
        );
        for i in 0..n {
            if frozen[i] {
                continue;
            }
            let g = (
                grad[i].0 * scale + 2.0 * args.l2 * (w[i].0 - start[i].0),
                grad[i].1 * scale + 2.0 * args.l2 * (w[i].1 - start[i].1),
            );
            m[i] = (
                BETA1 * m[i].0 + (1.0 - BETA1) * g.0,
                BETA1 * m[i].1 + (1.0 - BETA1) * g.1,
            );
            v[i] = (
                BETA2 * v[i].0 + (1.0 - BETA2) * g.0 * g.0,
                BETA2 * v[i].1 + (1.0 - BETA2) * g.1 * g.1,
            );
            w[i].0 -= lr * (m[i].0 / c1) / ((v[i].0 / c2).sqrt() + EPSILON);
            w[i].1 -= lr * (m[i].1 / c1) / ((v[i].1 / c2).sqrt() + EPSILON);
            if sign_locked[i] {
                w[i].0 = keep_sign(w[i].0, start[i].0);
                w[i].1 = keep_sign(w[i].1, start[i].1);
            }
        }
        if epoch % 100 == 0 || epoch == args.epochs {
            if valid.is_empty() {
                println!("epoch {epoch:5}: train {:.6}", mse(train, &w, k));
            } else {
                let (t, v) = (mse(train, &w, k), mse(valid, &w, k));
                println!("epoch {epoch:5}: train {t:.6}, validation {v:.6}");
            }
        }
    }
    w
}

/// Effective piece values: material plus the average piece-square bonus (pawns
/// over ranks 2-7 only). Must grow from pawn to queen in midgame and endgame.
fn check_sane(w: &[(i32, i32)]) -> Result<(), String> {
    let psqt = [
        layout::PAWN_PSQT,
        layout::KNIGHT_PSQT,
        layout::BISHOP_PSQT,
        layout::ROOK_PSQT,
        layout::QUEEN_PSQT,
    ];
    let mut values = [(0.0, 0.0); 5];
    for (p, &offset) in psqt.iter().enumerate() {
        let squares: Vec<usize> = if p == 0 {
            (8..56).collect()
        } else {
            (0..64).collect()
        };
        let n = squares.len() as f64;
        let (mg, eg) = squares.iter().fold((0.0, 0.0), |(a, b), &sq| {
            (
                a + f64::from(w[offset + sq].0),
                b + f64::from(w[offset + sq].1),
            )
        });
        let (m, e) = w[layout::MATERIAL + p];
        values[p] = (f64::from(m) + mg / n, f64::from(e) + eg / n);
    }
    println!(
        "effective piece values (mg, eg): P {:?} N {:?} B {:?} R {:?} Q {:?}",
        values[0], values[1], values[2], values[3], values[4]
    );
    for half in 0..2 {
        let v: Vec<f64> = values
            .iter()
            .map(|&(m, e)| if half == 0 { m } else { e })
            .collect();
        let ordered =
            v[0] > 0.0 && v[0] < v[1] && v[0] < v[2] && v[1].max(v[2]) < v[3] && v[3] < v[4];
        if !ordered {
            return Err(format!(
                "tuned piece values out of order ({}): {v:?}; not written. Try --freeze MATERIAL or a larger --l2",
                if half == 0 { "midgame" } else { "endgame" }
            ));
        }
    }
    if w.iter().any(|&(m, e)| m.abs() > 3000 || e.abs() > 3000) {
        return Err("a tuned weight exceeds 3000 centipawns; not written".to_string());
    }
    Ok(())
}

/// A complete `params.rs` holding the given weights.
fn render_params(w: &[(i32, i32)], summary: &str) -> String {
    let mut out = String::new();
    out.push_str("//! Evaluation weights: (midgame, endgame) pairs in centipawns.\n");
    out.push_str("//!\n");
    out.push_str(
        "//! Written by `sandglass tune` (src/tools/tune.rs), which also reads these values\n",
    );
    out.push_str("//! as its starting point. `eval/layout.rs` lists the groups in this order.\n");
    out.push_str(&format!("//! Last run: {summary}.\n"));
    out.push_str("\nuse super::mgeg::{s, MgEg};\n");
    for g in layout::GROUPS {
        out.push_str(&format!("\n/// {}\n", g.doc));
        let pair = |i: usize| format!("s({:>4}, {:>4})", w[g.offset + i].0, w[g.offset + i].1);
        if g.scalar {
            out.push_str(&format!("pub const {}: MgEg = {};\n", g.name, pair(0)));
        } else {
            let len = g.values.len();
            out.push_str(&format!("pub const {}: [MgEg; {len}] = [\n", g.name));
            for row in (0..len).step_by(8) {
                let items: Vec<String> = (row..(row + 8).min(len))
                    .map(|i| format!("{},", pair(i)))
                    .collect();
                out.push_str(&format!("    {}\n", items.join(" ")));
            }
            out.push_str("];\n");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const PGN: &str = r#"[Event "Test"]
[Result "1-0"]

1. e4 {[%clk 0:05:00]} 1... e5 2. Nf3 (2. f4 exf4 3. Nf3) 2... Nc6 $1 3. Bb5 a6
4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 ; comment
11. c4 c6 12. cxb5 axb5 13. Nc3 Bb7 14. Bg5 b4 15. Nb1 h6 16. Bh4 c5 17. dxe5
Nxe4 18. Bxe7 Qxe7 19. exd6 Qf6 20. Nbd2 Nxd6 21. Nc4 Nxc4 22. Bxc4 Nb6
23. Ne5 Rae8 24. Bxf7+ Rxf7 25. Nxf7 Rxe1+ 26. Qxe1 Kxf7 27. Qe3 Qg5 28. Qxg5
hxg5 29. b3 Ke6 30. a3 Kd6 31. axb4 cxb4 32. Ra5 Nd5 33. f3 Bc8 34. Kf2 Bf5
35. Ra7 g6 36. Ra6+ Kc5 37. Ke1 Nf4 38. g3 Nxh3 39. Kd2 Kb5 40. Rd6 Kc5 41. Ra6
Nf2 42. g4 Bd3 43. Re6 1-0

[Event "Second"]
[Result "1/2-1/2"]

1.d4 d5 2.c4 e6 3.Nc3 Nf6 4.cxd5 exd5 5.Bg5 c6 6.e3 Bf5 7.Qf3 Bg6 8.Bxf6 Qxf6
9.Qxf6 gxf6 10.Nf3 Nd7 11.Nh4 Nb6 12.g3 a5 13.a4 Bb4 14.Nxg6 hxg6 15.Kd2 1/2-1/2
"#;

    #[test]
    fn reads_games_and_plays_every_move() {
        let games = parse_pgn(PGN);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].result, Some(1.0));
        assert_eq!(games[1].result, Some(0.5));
        assert_eq!(games[0].moves.len(), 85);
        assert_eq!(games[0].moves[2], "Nf3");
        assert_eq!(games[1].moves[0], "d4");
        // Without a Result tag, the result token at the end of the moves counts.
        let untagged = parse_pgn("[Event \"x\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n");
        assert_eq!(untagged[0].result, Some(1.0));
        assert_eq!(untagged[0].moves.len(), 7);
        for g in &games {
            let mut pos = Position::startpos();
            for san in &g.moves {
                let m = san_to_move(pos.board(), san)
                    .unwrap_or_else(|| panic!("cannot play {san} in {}", pos.fen()));
                pos.make_move(m);
            }
        }
    }

    #[test]
    fn quiet_leaf_resolves_hanging_pieces() {
        // White's queen can take an undefended rook: the leaf has the rook gone.
        let mut pos = Position::from_fen("4k3/8/8/3r4/8/8/3Q4/4K3 w - - 0 1")
            .unwrap_or_else(|e| panic!("{e}"));
        let (score, leaf) = quiet_leaf(
            &mut pos,
            -eval::EVAL_LIMIT,
            eval::EVAL_LIMIT,
            QUIESCENCE_DEPTH,
        );
        assert!(score > 500);
        assert_eq!(leaf.piece_on(chess::Square::D5), Some(Piece::Queen));
    }

    #[test]
    fn run_tunes_and_writes_params() {
        let dir = std::env::temp_dir().join(format!("sandglass-tune-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("temp dir: {e}"));
        let pgn = dir.join("games.pgn");
        std::fs::write(&pgn, PGN).unwrap_or_else(|e| panic!("write: {e}"));
        let args = TuneArgs {
            pgn: vec![pgn],
            positions: None,
            epochs: 3,
            out: dir.join("params.rs"),
            lr: 1.0,
            l2: 1e-6,
            skip_plies: 8,
            holdout: 2,
            lambda: 0.5,
            fold: None,
            free_signs: false,
            freeze: vec!["MATERIAL".to_string()],
        };
        assert_eq!(run(&args), Ok(()));
        let written = std::fs::read_to_string(dir.join("params.rs")).unwrap_or_default();
        assert!(written.contains("pub const TEMPO: MgEg"));
        let bad = TuneArgs {
            freeze: vec!["NO_SUCH_GROUP".to_string()],
            ..args
        };
        assert!(run(&bad).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn rendered_params_round_trip() {
        let weights = layout::current_weights();
        let text = render_params(&weights, "test");
        for g in layout::GROUPS {
            assert!(text.contains(&format!("pub const {}:", g.name)));
        }
        // Read the pairs back from the code lines.
        let mut pairs = Vec::new();
        for line in text.lines().filter(|l| !l.starts_with("//")) {
            for piece in line.split("s(").skip(1) {
                let inner = piece.split(')').next().unwrap_or("");
                let nums: Vec<i32> = inner
                    .split(',')
                    .filter_map(|x| x.trim().parse().ok())
                    .collect();
                if let [m, e] = nums[..] {
                    pairs.push((m, e));
                }
            }
        }
        assert_eq!(pairs, weights);
    }
}
