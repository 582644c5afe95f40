//! Positions to tune on: quiet positions sampled from the games, each with its game's result
//! and, when recorded, the search score.

use super::pgn::PgnGame;
use crate::eval::{self, Trace};
use crate::position::{san_to_move, Position};
use chess::{BitBoard, Board, BoardStatus, ChessMove, Piece};

/// A quiet position with the result of its game.
#[derive(Clone)]
pub(super) struct Sample {
    pub(super) trace: Trace,
    /// What the tuner fits: White's score in the game (1, 0.5 or 0), blended with the search
    /// score below when `--lambda` asks for it.
    pub(super) result: f64,
    /// The engine's search score of the game position (centipawns, White's view), if the
    /// PGN recorded one.
    pub(super) score: Option<f64>,
    /// Index of the game it came from.
    pub(super) game: usize,
}

#[derive(Default)]
pub(super) struct SampleStats {
    pub(super) games_used: usize,
    pub(super) games_without_result: usize,
    pub(super) games_with_bad_moves: usize,
}

pub(super) fn collect_positions(
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

pub(super) const QUIESCENCE_DEPTH: u32 = 8;

pub(super) fn piece_value(p: Option<Piece>) -> i32 {
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
pub(super) fn quiet_leaf(
    pos: &mut Position,
    mut alpha: i32,
    beta: i32,
    depth: u32,
) -> (i32, Board) {
    let board = *pos.board();
    let stand_pat = eval::evaluate(&board);
    if stand_pat >= beta || depth == 0 {
        return (stand_pat, board);
    }
    let mut best_leaf = board;
    alpha = alpha.max(stand_pat);
    // Captures only, so the crate's generator is enough (castling is never a capture).
    let mut captures = chess::MoveGen::new_legal(&board);
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
