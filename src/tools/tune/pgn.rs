//! PGN reading for the tuner: each game's result, its moves, and the search score that
//! self-play writes in each move's comment.

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

pub(super) fn result_value(text: &str) -> Option<f64> {
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
pub(super) fn in_open_comment(text: &str) -> bool {
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
pub(super) fn parse_tag(line: &str) -> Option<(String, String)> {
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
pub(super) fn movetext_tokens(text: &str) -> Movetext {
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
