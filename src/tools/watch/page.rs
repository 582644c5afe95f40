//! The page: one HTML file with its style and script inline (`page.html`, `page.css`,
//! `page.js` beside this file), nothing fetched from the internet. Live, its script listens
//! to `/events`; saved at the end of the game, the same page carries its last state and
//! the pictures of the whole game, and draws them once.

use crate::tools::tm::svg::escape;

const TEMPLATE: &str = include_str!("page.html");
const STYLE: &str = include_str!("page.css");
const SCRIPT: &str = include_str!("page.js");

/// `template` with each `{{KEY}}` replaced by its value. Only the template's own keys are
/// replaced: a value (a player's name, say) that holds `{{…}}` is left as it is.
fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out =
        String::with_capacity(template.len() + values.iter().map(|v| v.1.len()).sum::<usize>());
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        match after.find("}}") {
            Some(end) => {
                let key = &after[..end];
                match values.iter().find(|(k, _)| *k == key) {
                    Some((_, v)) => out.push_str(v),
                    None => out.push_str(&rest[start..start + 2 + end + 2]),
                }
                rest = &after[end + 2..];
            }
            None => {
                out.push_str(&rest[start..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// The live page, which draws what `/events` sends.
pub fn live(title: &str) -> String {
    fill(
        TEMPLATE,
        &[
            ("TITLE", &escape(title)),
            ("STYLE", STYLE),
            ("MODE", "live"),
            ("STATUS", "Connecting\u{2026}"),
            (
                "FIGURES",
                "<p class=\"quiet\">The pictures start after the first move.</p>",
            ),
            ("SAVED", "null"),
            ("SCRIPT", SCRIPT),
        ],
    )
}

/// The page as saved at the end: the last state (`state_json`, from `State::json`) and the
/// pictures of the whole game, which `tm --pgn` draws alike from the saved PGN.
pub fn saved(title: &str, status: &str, state_json: &str, figures: &[String]) -> String {
    fill(
        TEMPLATE,
        &[
            ("TITLE", &escape(title)),
            ("STYLE", STYLE),
            ("MODE", "saved"),
            ("STATUS", &escape(status)),
            ("FIGURES", &figures.concat()),
            ("SAVED", state_json),
            ("SCRIPT", SCRIPT),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_templates_keys_are_filled() {
        assert_eq!(
            fill("a {{X}} b {{Y}} {{", &[("X", "{{Y}}")]),
            "a {{Y}} b {{Y}} {{"
        );
    }

    #[test]
    fn the_pages_are_whole_and_fetch_nothing() {
        let page = live("A <b> vs B");
        assert!(page.starts_with("<!DOCTYPE html>"));
        assert!(page.contains("<title>A &lt;b&gt; vs B</title>"));
        assert!(page.contains("new EventSource('/events')"));
        assert!(page.contains("window.WATCH_SAVED = null;"));
        assert!(!page.contains("{{"), "a key left unfilled");
        for outside in ["http://", "https://", "//cdn", "@import", "src=\""] {
            assert!(!page.contains(outside), "{outside}");
        }
        let done = saved(
            "t",
            "over",
            "{\"a\":1}",
            &["<svg>1</svg>".into(), "<svg>2</svg>".into()],
        );
        assert!(done.contains("<body class=\"saved\">"));
        assert!(done.contains("window.WATCH_SAVED = {\"a\":1};"));
        assert!(done.contains("<div id=\"figures\"><svg>1</svg><svg>2</svg></div>"));
    }
}
