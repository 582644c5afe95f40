//! A forgiving, streaming PGN reader: just enough to find each game's tags, its main-line
//! moves and the comments after them (where every match runner and server writes the clock,
//! and engines their score), and the result token. `tm --pgn` and `tune` both read PGN here.
//!
//! It reads line by line and holds one game at a time, so a monthly lichess dump of several
//! gigabytes costs no more memory than its longest game. It never fails on bad input: what
//! it cannot make sense of becomes a warning naming the game and the move, and the reader
//! goes on (an unclosed `{` ends at the next `[Event` line, an unbalanced `)` is ignored).

use crate::position::{FenError, Position};
use std::io::BufRead;

/// The longest movetext line the writers (`selfplay`, `watch`) produce: the PGN export
/// format's limit (Edwards, "Portable Game Notation Specification and Implementation Guide",
/// 1994, section 8.2.2.2: lines of at most 79 characters).
pub const MOVETEXT_WIDTH: usize = 79;

/// `words` as export-format movetext: separated by single spaces, broken into lines of at
/// most [`MOVETEXT_WIDTH`] characters (a longer word stands alone on its line), with no
/// newline at the end.
pub fn wrap_movetext<I: IntoIterator<Item = String>>(words: I) -> String {
    let mut text = String::new();
    let mut line_len = 0;
    for word in words {
        let width = word.chars().count();
        if line_len > 0 && line_len + 1 + width > MOVETEXT_WIDTH {
            text.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            text.push(' ');
            line_len += 1;
        }
        line_len += width;
        text.push_str(&word);
    }
    text
}

/// One main-line move with the text of the comments that follow it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RawMove {
    pub san: String,
    /// All comments after the move (before the next main-line move), joined by a space.
    pub comment: String,
}

/// One game as written: tags, main-line moves, warnings.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RawGame {
    /// 1-based position in the file.
    pub index: usize,
    /// Line of the file where the game starts (1-based).
    pub line: usize,
    pub tags: Vec<(String, String)>,
    pub moves: Vec<RawMove>,
    pub warnings: Vec<String>,
    /// The result token that ended the movetext (`1-0`, `0-1`, `1/2-1/2`, `*`), if any.
    pub termination: Option<String>,
}

impl RawGame {
    /// The value of a tag (first occurrence), if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// "game 3 (Alice vs Bob)" for messages.
    pub fn label(&self) -> String {
        format!(
            "game {} ({} vs {})",
            self.index,
            self.tag("White").unwrap_or("?"),
            self.tag("Black").unwrap_or("?")
        )
    }

    fn is_empty(&self) -> bool {
        self.tags.is_empty() && self.moves.is_empty()
    }

    /// Is this a Chess960 game? lichess writes `[Variant "Chess960"]`, cutechess and
    /// fastchess `[Variant "fischerandom"]`.
    pub fn is_chess960(&self) -> bool {
        self.tag("Variant").is_some_and(|v| {
            let name: String = v
                .chars()
                .filter(|c| c.is_ascii_alphanumeric())
                .collect::<String>()
                .to_ascii_lowercase();
            matches!(name.as_str(), "chess960" | "fischerandom" | "fischerrandom")
        })
    }

    /// The position the game starts from: its `FEN` tag (Shredder-FEN or X-FEN in a Chess960
    /// game) or the standard start. Its SAN moves are read with `Position::parse_san`, which
    /// knows Chess960 castling.
    pub fn start_position(&self) -> Result<Position, FenError> {
        let chess960 = self.is_chess960();
        match self.tag("FEN") {
            Some(fen) => Position::from_fen_in(fen, chess960),
            None => {
                let mut pos = Position::startpos();
                pos.set_chess960(chess960);
                Ok(pos)
            }
        }
    }
}

/// Longest comment kept per move; engines' PVs can be long, the clock comes first.
const MAX_COMMENT_CHARS: usize = 4096;
/// Longest line read at once; a longer one (a binary file, say) is cut, not buffered whole.
const MAX_LINE_BYTES: usize = 1 << 20;

/// Reads games one after another from any buffered reader.
pub struct Reader<R: BufRead> {
    input: R,
    line_no: usize,
    buf: Vec<u8>,
    game: RawGame,
    /// Inside `{ … }`: the text so far.
    comment: Option<String>,
    /// Move (1-based index) after which the open comment started, for messages.
    comment_move: usize,
    depth: u32,
    /// The game's movetext has begun (a move, comment or result was seen).
    in_movetext: bool,
    finished: Vec<RawGame>,
    count: usize,
    done: bool,
    /// A read error, reported once as the last item.
    error: Option<String>,
}

impl<R: BufRead> Reader<R> {
    pub fn new(input: R) -> Reader<R> {
        Reader {
            input,
            line_no: 0,
            buf: Vec::new(),
            game: RawGame::default(),
            comment: None,
            comment_move: 0,
            depth: 0,
            in_movetext: false,
            finished: Vec::new(),
            count: 0,
            done: false,
            error: None,
        }
    }

    /// Where the current move is, for messages: "move 12... Nf6" or "before the first move".
    fn where_(&self) -> String {
        move_label(self.game.moves.len())
    }

    fn warn(&mut self, what: String) {
        let label = format!("game {}", self.count + 1);
        if self.game.warnings.len() < 20 {
            self.game
                .warnings
                .push(format!("{label}, {}: {what}", self.where_()));
        }
    }

    fn finish_game(&mut self) {
        if let Some(text) = self.comment.take() {
            let at = move_label(self.comment_move);
            self.game.warnings.push(format!(
                "game {}, {at}: comment '{{' never closed",
                self.count + 1
            ));
            self.attach_comment(&text);
        }
        if self.depth > 0 {
            let what = format!("{} variation(s) '(' never closed", self.depth);
            self.warn(what);
        }
        let mut game = std::mem::take(&mut self.game);
        self.depth = 0;
        self.in_movetext = false;
        if !game.is_empty() {
            self.count += 1;
            game.index = self.count;
            self.finished.push(game);
        }
    }

    fn attach_comment(&mut self, text: &str) {
        if self.depth > 0 {
            return;
        }
        if let Some(m) = self.game.moves.last_mut() {
            if m.comment.len() < MAX_COMMENT_CHARS {
                if !m.comment.is_empty() {
                    m.comment.push(' ');
                }
                let room = MAX_COMMENT_CHARS - m.comment.len();
                m.comment.push_str(truncate(text.trim(), room));
            }
        }
    }

    fn handle_line(&mut self, line: &str) {
        let mut rest = line;
        // A line that looks like a tag while a comment is open means the comment was never
        // closed: end it here rather than swallow the rest of the file.
        if self.comment.is_some() && looks_like_event_tag(line) {
            self.finish_game();
        }
        if self.comment.is_none() && line.starts_with('%') {
            return;
        }
        loop {
            if let Some(text) = self.comment.as_mut() {
                match rest.find('}') {
                    Some(end) => {
                        push_limited(text, &rest[..end]);
                        let text = self.comment.take().unwrap_or_default();
                        self.attach_comment(&text);
                        rest = &rest[end + 1..];
                    }
                    None => {
                        push_limited(text, rest);
                        text.push(' ');
                        return;
                    }
                }
            }
            rest = rest.trim_start();
            let Some(c) = rest.chars().next() else {
                return;
            };
            match c {
                '[' if self.depth == 0 && !starts_tag(rest) => {
                    self.warn(format!("stray '{}'", truncate(rest, 20)));
                    rest = skip_past(rest, ']');
                }
                '}' => {
                    self.warn("'}' without a matching '{'".to_string());
                    rest = &rest[1..];
                }
                '[' if self.depth == 0 => {
                    if self.in_movetext {
                        self.finish_game();
                    }
                    rest = self.tag(rest);
                }
                '{' => {
                    self.in_movetext = true;
                    self.comment = Some(String::new());
                    self.comment_move = self.game.moves.len();
                    rest = &rest[1..];
                }
                ';' => {
                    // A rest-of-line comment; clocks are not written this way, but keep it.
                    let text = rest[1..].to_string();
                    self.attach_comment(&text);
                    return;
                }
                '(' => {
                    self.depth += 1;
                    rest = &rest[1..];
                }
                ')' => {
                    if self.depth == 0 {
                        self.warn("')' without a matching '('".to_string());
                    } else {
                        self.depth -= 1;
                    }
                    rest = &rest[1..];
                }
                _ => {
                    let end = rest
                        .find(|ch: char| ch.is_whitespace() || "{}()[;".contains(ch))
                        .unwrap_or(rest.len())
                        .max(c.len_utf8());
                    let word = &rest[..end];
                    rest = &rest[end..];
                    self.word(word);
                }
            }
        }
    }

    /// Parse `[Name "value"]` at the start of `text`; return what follows it.
    fn tag<'a>(&mut self, text: &'a str) -> &'a str {
        let body = &text[1..];
        let name_end = body
            .find(|ch: char| ch.is_whitespace() || ch == '"' || ch == ']')
            .unwrap_or(body.len());
        let name = body[..name_end].to_string();
        let after_name = body[name_end..].trim_start();
        let Some(quoted) = after_name.strip_prefix('"') else {
            let what = format!("tag '{}' has no quoted value", truncate(text.trim(), 60));
            self.warn(what);
            return skip_past(body, ']');
        };
        let mut value = String::new();
        let mut chars = quoted.char_indices();
        let mut closed_at = None;
        while let Some((i, ch)) = chars.next() {
            match ch {
                '\\' => {
                    if let Some((_, next)) = chars.next() {
                        value.push(next);
                    }
                }
                '"' => {
                    closed_at = Some(i + 1);
                    break;
                }
                _ => value.push(ch),
            }
        }
        let Some(after) = closed_at else {
            let what = format!("tag '{name}' value has no closing quote");
            self.warn(what);
            return "";
        };
        let rest = &quoted[after..];
        if name.is_empty() {
            self.warn("tag without a name".to_string());
        } else {
            self.game.tags.push((name, value));
        }
        skip_past(rest, ']')
    }

    fn word(&mut self, word: &str) {
        if self.depth > 0 {
            return;
        }
        match word {
            "1-0" | "0-1" | "1/2-1/2" | "*" => {
                self.in_movetext = true;
                self.game.termination = Some(word.to_string());
                self.finish_game();
                return;
            }
            _ => {}
        }
        if word.starts_with('$') {
            return;
        }
        // "12." "12..." "12.e4": drop the move number.
        let san = word.trim_start_matches(|ch: char| ch.is_ascii_digit());
        let san = if san.len() < word.len() && san.starts_with('.') {
            san.trim_start_matches('.')
        } else if san.is_empty() {
            // A bare number without dots: not a move.
            return;
        } else {
            word
        };
        let san = san.trim_end_matches(['!', '?']);
        if san.is_empty() {
            return;
        }
        self.in_movetext = true;
        self.game.moves.push(RawMove {
            san: san.to_string(),
            comment: String::new(),
        });
    }

    /// Read until at least one game is finished or the input ends.
    fn fill(&mut self) {
        while self.finished.is_empty() && !self.done {
            self.buf.clear();
            let read = std::io::Read::take(&mut self.input, MAX_LINE_BYTES as u64)
                .read_until(b'\n', &mut self.buf);
            match read {
                Ok(0) => {
                    self.done = true;
                    self.finish_game();
                }
                Ok(_) => {
                    self.line_no += 1;
                    if self.game.is_empty() && !self.in_movetext {
                        self.game.line = self.line_no;
                    }
                    let text = String::from_utf8_lossy(&self.buf).into_owned();
                    let text = text.trim_start_matches('\u{feff}');
                    self.handle_line(text.trim_end_matches(['\n', '\r']));
                }
                Err(e) => {
                    self.error = Some(format!("read error after line {}: {e}", self.line_no));
                    self.done = true;
                    self.finish_game();
                }
            }
        }
    }
}

impl<R: BufRead> Iterator for Reader<R> {
    /// A game, or a read error (reported once, last).
    type Item = Result<RawGame, String>;

    fn next(&mut self) -> Option<Self::Item> {
        self.fill();
        if !self.finished.is_empty() {
            return Some(Ok(self.finished.remove(0)));
        }
        self.error.take().map(Err)
    }
}

/// "move 12 (White)" style label for the move after `made` main-line moves were read.
fn move_label(made: usize) -> String {
    if made == 0 {
        "before the first move".to_string()
    } else {
        let n = (made - 1) / 2 + 1;
        let dots = if made % 2 == 1 { "." } else { "..." };
        format!("move {n}{dots}")
    }
}

fn looks_like_event_tag(line: &str) -> bool {
    line.starts_with("[Event ") && line.trim_end().ends_with(']')
}

/// `[` followed by a tag name (a letter), not `[%clk …]` or other debris.
fn starts_tag(text: &str) -> bool {
    text[1..]
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic())
}

fn skip_past(text: &str, ch: char) -> &str {
    match text.find(ch) {
        Some(i) => &text[i + ch.len_utf8()..],
        None => "",
    }
}

fn push_limited(text: &mut String, more: &str) {
    if text.len() < MAX_COMMENT_CHARS {
        let room = MAX_COMMENT_CHARS - text.len();
        text.push_str(truncate(more, room));
    }
}

/// At most `max` bytes of `text`, cut at a character boundary.
pub fn truncate(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// All games of a string (for tests and small inputs).
pub fn parse_str(text: &str) -> Vec<RawGame> {
    Reader::new(text.as_bytes())
        .filter_map(Result::ok)
        .collect()
}

#[cfg(test)]
mod tests {

    #[test]
    fn movetext_wraps_at_79_characters() {
        let words = (1..=30).map(|n| format!("{n}. e4"));
        let text = wrap_movetext(words);
        assert!(
            text.lines().all(|l| l.chars().count() <= MOVETEXT_WIDTH),
            "{text}"
        );
        assert!(text.lines().count() > 1);
        assert!(!text.starts_with('\n') && !text.ends_with('\n'));
        assert_eq!(text.split_whitespace().count(), 60);
        // A word longer than a line stands alone, with no empty line before it.
        let long = "x".repeat(100);
        assert_eq!(wrap_movetext([long.clone()]), long);
        assert_eq!(
            wrap_movetext(["1. e4".to_string(), long.clone(), "1-0".to_string()]),
            format!("1. e4\n{long}\n1-0")
        );
    }
    use super::*;

    #[test]
    fn tags_moves_comments_variations_nags() {
        let text = "[Event \"t\"]\n[White \"A \\\"q\\\"\"]\n[Black \"B\"]\n\n\
            1. e4 {one} $1 e5 (1... c5 {side} 2. Nf3) 2. Nf3! {two\nlines} ; rest\n\
            2... Nc6 {a} {b} 3.Bb5 1-0\n";
        let games = parse_str(text);
        assert_eq!(games.len(), 1);
        let g = &games[0];
        assert_eq!(g.tag("White"), Some("A \"q\""));
        let sans: Vec<&str> = g.moves.iter().map(|m| m.san.as_str()).collect();
        assert_eq!(sans, ["e4", "e5", "Nf3", "Nc6", "Bb5"]);
        assert_eq!(g.moves[0].comment, "one");
        assert_eq!(g.moves[1].comment, "");
        assert_eq!(g.moves[2].comment, "two lines rest");
        assert_eq!(g.moves[3].comment, "a b");
        assert!(g.warnings.is_empty(), "{:?}", g.warnings);
    }

    #[test]
    fn several_games_and_missing_results() {
        let text = "[Event \"1\"]\n1. e4 e5\n[Event \"2\"]\n1. d4 *\n\n1. c4 1-0\n";
        let games = parse_str(text);
        assert_eq!(games.len(), 3);
        assert_eq!(games[0].moves.len(), 2);
        assert_eq!(games[1].tag("Event"), Some("2"));
        assert_eq!(games[2].tags.len(), 0);
        assert_eq!(games[2].index, 3);
    }

    #[test]
    fn unclosed_comment_ends_at_next_game() {
        let text = "[Event \"1\"]\n1. e4 {oops e5 2. Nf3\n[Event \"2\"]\n1. d4 d5 *\n";
        let games = parse_str(text);
        assert_eq!(games.len(), 2);
        assert!(
            games[0].warnings[0].contains("never closed"),
            "{:?}",
            games[0].warnings
        );
        assert_eq!(games[1].moves.len(), 2);
    }

    #[test]
    fn crlf_bom_escape_lines_and_stray_brackets() {
        let text =
            "\u{feff}[Event \"e\"]\r\n% a comment line\r\n\r\n1. e4 {c} [%clk 0:01:00] e5 } *\r\n";
        let games = parse_str(text);
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].tag("Event"), Some("e"));
        assert_eq!(games[0].moves.len(), 2);
        assert_eq!(games[0].moves[0].comment, "c");
        assert_eq!(games[0].warnings.len(), 2, "{:?}", games[0].warnings);
        assert!(games[0].warnings[0].contains("move 1."));
    }

    #[test]
    fn chess960_games_start_from_their_fen_and_castle() {
        let text = "[Variant \"Chess960\"]\n[FEN \"1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1\"]\n\n1. O-O-O O-O-O 2. Kb1 *\n";
        let games = parse_str(text);
        assert!(games[0].is_chess960());
        let mut pos = games[0].start_position().expect("Chess960 FEN");
        for m in &games[0].moves {
            let mv = pos.parse_san(&m.san).expect("legal SAN");
            pos.make_move(mv);
        }
        assert_eq!(
            pos.fen(),
            "2kr2r1/pppppppp/8/8/8/8/PPPPPPPP/1K1R2R1 b - - 3 2"
        );
        let standard = parse_str("[Event \"x\"]\n\n1. e4 *\n");
        assert!(!standard[0].is_chess960());
        let cutechess = parse_str("[Variant \"fischerandom\"]\n\n1. e4 *\n");
        assert!(cutechess[0].is_chess960());
    }

    #[test]
    fn garbage_never_panics() {
        let mut rng = crate::rng::Rng::new(12345);
        let alphabet = "[]{}()\";%$.-/*01aeKQRBN +=#!?\n\\é€x9";
        let chars: Vec<char> = alphabet.chars().collect();
        for _ in 0..200 {
            let mut s = String::new();
            for _ in 0..300 {
                s.push(chars[rng.below(chars.len())]);
            }
            let _ = parse_str(&s);
        }
        let bytes: Vec<u8> = (0..=255u8).cycle().take(5000).collect();
        let _: Vec<_> = Reader::new(&bytes[..]).collect();
    }
}
