//! `tm --pgn FILE --html OUT.html`: one self-contained page (no scripts, no external files)
//! with the summary table, the picture of the chosen game and every kept game's detail
//! behind a `<details>` a reader can open.

use super::replay::{self, Choice, Replay};
use super::summary;
use super::svg::escape;
use std::fmt::Write as _;

/// Games drawn as pictures inside the per-game detail (each picture is 20–60 kB).
pub const MAX_PICTURES: usize = 30;

const STYLE: &str =
    "body{font-family:'DejaVu Sans',Arial,sans-serif;margin:2em;max-width:1250px;color:#111}\
h1{font-size:1.8em}h2{margin-top:1.6em}\
table{border-collapse:collapse;font-size:1.05em}\
th,td{border:1px solid #bbb;padding:.35em .7em;text-align:right}\
th:first-child,td:first-child{text-align:left}th{background:#f0f0f0}\
tr.all td{font-weight:bold;background:#f7f7f7}\
tr.tc th{text-align:left;background:#e4ecf4;font-size:1.05em}\
details{margin:.5em 0;border:1px solid #ddd;padding:.4em .8em}\
summary{cursor:pointer;font-size:1.1em}\
pre{font-size:.9em;overflow-x:auto}.note{color:#444;font-size:.95em}\
svg{max-width:100%;height:auto}";

/// The whole page.
pub fn page(rep: &Replay, choice: &Choice) -> String {
    let mut out = String::new();
    let title = format!("How the clocks were spent: {}", rep.file);
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n",
        escape(&title)
    );
    let _ = writeln!(out, "<h1>{}</h1>", escape(&title));
    let _ = writeln!(out, "<p>{}</p>", escape(replay::header(rep).trim()));
    if let Some(note) = replay::empty_note(rep) {
        let _ = writeln!(out, "<p class=\"note\">{}</p>", escape(&note));
    }
    summary_table(&mut out, rep);
    let names = &rep.players;
    let caption = format!(
        "Thin lines: each of the {} games shown below; thick line: their mean at each move (over the games that reached it).",
        rep.kept.len()
    );
    if let Some(fig) = super::figures::overview(&rep.kept, names, &caption) {
        if rep.kept.len() > 1 {
            let _ = writeln!(out, "<h2>Clock left in every game</h2>");
            out.push_str(&super::svg::render(&fig));
        }
    }
    if let Some(first) = rep.kept.first() {
        let _ = writeln!(out, "<h2>{}</h2>", escape(&first.label));
        out.push_str(&replay::figure(first, choice));
    }
    if rep.problem_count > 0 {
        let _ = writeln!(
            out,
            "<h2>Problems</h2>\n<details>\n<summary>{} problem(s) reading the file</summary>\n<ul>",
            rep.problem_count
        );
        for p in &rep.problems {
            let _ = writeln!(out, "<li>{}</li>", escape(p));
        }
        if rep.problem_count > rep.problems.len() {
            let _ = writeln!(
                out,
                "<li>… and {} more</li>",
                rep.problem_count - rep.problems.len()
            );
        }
        out.push_str("</ul>\n</details>\n");
    }
    let _ = writeln!(out, "<h2>Games</h2>");
    if choice.game.is_none() && rep.with_clock > rep.kept.len() {
        let _ = writeln!(
            out,
            "<p class=\"note\">The first {} of {} games with a clock record (choose with --game N or --player NAME).</p>",
            rep.kept.len(),
            rep.with_clock
        );
    }
    for (i, record) in rep.kept.iter().enumerate() {
        let ends: Vec<String> = record
            .players
            .iter()
            .filter_map(|p| {
                p.moves.last().map(|m| {
                    let name = super::svg::shorten(&p.name, 24);
                    format!("{name} {} s", super::secs(m.clock_after_ms as f64))
                })
            })
            .collect();
        let _ = writeln!(
            out,
            "<details>\n<summary>{}, {} ({}), {} plies; clock at the end: {}</summary>",
            escape(&record.label),
            escape(&record.tc_text),
            escape(&record.result),
            record.plies,
            escape(&ends.join(", "))
        );
        if i < MAX_PICTURES {
            out.push_str(&replay::figure(record, choice));
        }
        out.push_str("<pre>");
        for side in 0..2 {
            if !record.players[side].moves.is_empty() {
                out.push_str(&escape(&replay::detail(record, side, choice)));
                out.push('\n');
            }
        }
        out.push_str("</pre>\n</details>\n");
    }
    out.push_str("</body>\n</html>\n");
    out
}

fn summary_table(out: &mut String, rep: &Replay) {
    let _ = writeln!(out, "<h2>Summary</h2>");
    let Some(first) = rep.summary.iter().flat_map(|b| b.rows.first()).next() else {
        let _ = writeln!(out, "<p>No game with a clock record.</p>");
        return;
    };
    // One table, a heading row over each time control's rows: the columns line up across
    // controls, so a reader compares them down the page.
    let head = summary::headings(first);
    out.push_str("<table>\n<tr>");
    for h in &head {
        let _ = write!(out, "<th>{}</th>", escape(h));
    }
    out.push_str("</tr>\n");
    for block in &rep.summary {
        let _ = writeln!(
            out,
            "<tr class=\"tc\"><th colspan=\"{}\">{}</th></tr>",
            head.len(),
            escape(&block.heading())
        );
        for row in &block.rows {
            let class = if rep.players.contains(&row.name) {
                ""
            } else {
                " class=\"all\""
            };
            let _ = write!(out, "<tr{class}>");
            for c in summary::cells(row) {
                let _ = write!(out, "<td>{}</td>", escape(&c));
            }
            out.push_str("</tr>\n");
        }
    }
    out.push_str("</table>\n");
    let _ = writeln!(
        out,
        "<p class=\"note\">{}</p>",
        escape(&summary::NOTES.join(" "))
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::Settings;

    #[test]
    fn page_is_balanced_and_holds_the_figures() {
        let pgn = "[White \"A\"]\n[Black \"B <x>\"]\n[TimeControl \"10+0.1\"]\n\
            1. e4 {+0.31/14 105ms 9895ms} e5 {-0.1/3 5ms 9995ms} 2. Nf3 {+0.2/9 200ms 9795ms} 1-0\n";
        let choice = Choice {
            game: None,
            player: None,
            strategies: vec![
                Settings::default(),
                Settings::with_strategy("classic").expect("registered"),
            ],
            overhead_ms: 50,
        };
        let rep = replay::load(pgn.as_bytes(), "t.pgn", &choice).expect("read");
        let html = page(&rep, &choice);
        assert!(html.starts_with("<!DOCTYPE html>"));
        assert!(html.trim_end().ends_with("</html>"));
        for tag in [
            "html", "body", "table", "details", "summary", "svg", "pre", "tr",
        ] {
            let open = html.matches(&format!("<{tag}>")).count()
                + html.matches(&format!("<{tag} ")).count();
            let close = html.matches(&format!("</{tag}>")).count();
            assert_eq!(open, close, "<{tag}>");
        }
        assert_eq!(html.matches("<svg").count(), 2);
        assert!(html.contains("B &lt;x&gt;"));
        assert!(!html.contains("<x>"));
    }
}
