//! A small hand-written SVG renderer for `tm`: panels stacked on one move axis, each with
//! lines (maybe with a light band, e.g. up to the hard limit) or bars, dashed lines where a
//! repeating control refills, one legend and a caption. Each panel's axis covers everything
//! drawn in it, bands included, with room above the highest mark. Sized to be read from the
//! back of a classroom when projected: 1200 px wide, text of 15–24 px; a title too long for
//! one line wraps rather than losing its end, and only a long panel label shrinks (to 14 px).
//!
//! Colours are the Okabe–Ito palette (Okabe & Ito, "Color Universal Design", 2002/2008),
//! chosen to stay distinct under the common colour-vision deficiencies; every strategy also
//! has its own dash pattern, so the lines still differ in grey print.

use crate::time::Settings;
use std::fmt::Write as _;

/// How one series is drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Style {
    pub colour: &'static str,
    /// SVG `stroke-dasharray` ("" = solid).
    pub dash: &'static str,
    /// The terminal chart's symbol.
    pub symbol: char,
    pub width: f64,
}

/// A strategy's look in the pictures: its own colour, dash and symbol (each strategy's file
/// declares them), drawn thicker for the default strategy.
pub fn strategy_style(name: &str, own: crate::time::Style) -> Style {
    Style {
        colour: own.colour,
        dash: own.dash,
        symbol: own.symbol,
        width: if is_default(name) { 5.0 } else { 2.5 },
    }
}

/// Whether `name` is the engine's default strategy (the first of the registry).
pub fn is_default(name: &str) -> bool {
    Settings::names().first() == Some(&name)
}

/// Players of a recorded game: White black and solid, Black grey and dashed.
pub fn player_style(white: bool) -> Style {
    if white {
        Style {
            colour: "#000000",
            dash: "",
            symbol: 'W',
            width: 3.0,
        }
    } else {
        Style {
            colour: "#7a7a7a",
            dash: "10 5",
            symbol: 'B',
            width: 3.0,
        }
    }
}

/// How a series is drawn.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// A polyline; `band` (x, low, high) is shaded lightly behind it.
    Line { band: Vec<(f64, f64, f64)> },
    /// Thin bars from 0; `slot` of `slots` lets several bar series share one move.
    Bars { slot: usize, slots: usize },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    pub label: String,
    pub style: Style,
    pub shape: Shape,
    pub points: Vec<(f64, f64)>,
    /// Points ringed as alarms (a clock that would run out).
    pub alarms: Vec<(f64, f64)>,
    /// Drawn last (on top) and marked in the legend.
    pub emphasis: bool,
}

impl Series {
    pub fn line(label: &str, style: Style, points: Vec<(f64, f64)>) -> Series {
        Series {
            label: label.to_string(),
            style,
            shape: Shape::Line { band: Vec::new() },
            points,
            alarms: Vec::new(),
            emphasis: false,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Panel {
    pub y_label: String,
    pub series: Vec<Series>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    pub title: String,
    pub caption: String,
    pub x_label: String,
    pub panels: Vec<Panel>,
    /// Where a repeating control's period ends (between two moves, e.g. 40.5): the clock
    /// refills there. Drawn as a dashed vertical line labelled "refill" in every panel.
    pub boundaries: Vec<f64>,
}

pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn trim_number(v: f64) -> String {
    let s = format!("{v:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// `text` cut to `max` characters, with an ellipsis when cut.
pub fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// Advance widths of DejaVu Sans Bold, the pictures' first font, for ' ' to '~', in
/// thousandths of an em. An SVG file cannot ask how wide its text will come out, and a title
/// counted in characters was either cut short (a TCEC title lost its result) or ran off the
/// picture; bold is the widest face of the family, so regular text measured with it fits too.
#[rustfmt::skip]
const BOLD_EM: [u16; 95] = [
    349, 457, 521, 838, 696, 1002, 873, 307, 458, 458, 523, 838,
    380, 416, 380, 366, 696, 696, 696, 696, 696, 696, 696, 696,
    696, 696, 400, 400, 838, 838, 838, 581, 1000, 774, 763, 734,
    831, 684, 684, 821, 837, 373, 373, 775, 638, 996, 837, 851,
    733, 851, 771, 721, 683, 813, 774, 1104, 771, 725, 726, 458,
    366, 458, 838, 500, 500, 675, 716, 593, 716, 679, 436, 716,
    712, 343, 343, 666, 343, 1042, 712, 688, 716, 716, 494, 596,
    479, 712, 652, 924, 646, 652, 583, 712, 366, 712, 838,
];

/// An upper bound of `text`'s width in px at `size` px: DejaVu Sans as measured by
/// `BOLD_EM`, a full em for any other character, and 3 % to spare for a fallback font.
pub fn text_width(text: &str, size: f64) -> f64 {
    let em: u32 = text
        .chars()
        .map(|c| {
            let i = u32::from(c).wrapping_sub(32) as usize;
            BOLD_EM.get(i).map_or(1000, |&w| u32::from(w))
        })
        .sum();
    f64::from(em) / 1000.0 * size * 1.03
}

/// `text` cut (with an ellipsis) to fit `max_px` at `size` px.
pub fn shorten_px(text: &str, size: f64, max_px: f64) -> String {
    if text_width(text, size) <= max_px {
        return text.to_string();
    }
    let mut out: String = text.to_string();
    while !out.is_empty() && text_width(&format!("{out}…"), size) > max_px {
        out.pop();
    }
    format!("{}…", out.trim_end())
}

/// Split `text` at spaces into lines no wider than `max_px` at `size` px (a single word
/// wider than that is cut).
pub fn wrap_px(text: &str, size: f64, max_px: f64) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let longer = format!("{line} {word}");
        if !line.is_empty() && text_width(&longer, size) > max_px {
            lines.push(std::mem::take(&mut line));
        }
        if line.is_empty() {
            line = shorten_px(word, size, max_px);
        } else {
            line.push(' ');
            line.push_str(word);
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// Split `text` at spaces into lines of at most about `width` characters.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// Tick step and axis top for data up to `max`: the smallest "nice" top (1, 2, 2.5, 5 ×
/// 10^k steps, 3 to 7 intervals) at or above the data, so a maximum of 33 gives 35, not 60.
pub fn axis(max: f64) -> (f64, f64) {
    if !(max.is_finite() && max > 0.0) {
        return (1.0, 1.0);
    }
    let mut best = (f64::INFINITY, f64::INFINITY);
    let power = 10f64.powf((max / 5.0).log10().floor());
    for scale in [0.1, 1.0, 10.0] {
        for m in [1.0, 2.0, 2.5, 5.0] {
            let step = m * power * scale;
            let intervals = (max / step - 1e-9).ceil().max(1.0);
            let top = intervals * step;
            if (3.0..=7.0).contains(&intervals) && top < best.1 {
                best = (step, top);
            }
        }
    }
    if best.1.is_finite() {
        best
    } else {
        (max, max)
    }
}

const W: f64 = 1200.0;
const LEFT: f64 = 100.0;
const RIGHT: f64 = 300.0;
/// The first title line's baseline; each further line adds [`TITLE_LINE`] above the panels.
const TITLE_Y: f64 = 40.0;
const TITLE_LINE: f64 = 30.0;
/// Font sizes a title may take on one line, largest first.
const TITLE_SIZES: [f64; 3] = [24.0, 22.0, 20.0];
const MAX_TITLE_LINES: usize = 3;
/// Room for a title line: the picture less a margin on each side.
const TITLE_W: f64 = W - 40.0;
/// Panel labels: 20 px, down to 14 px before they are cut.
const LABEL_SIZES: [f64; 4] = [20.0, 18.0, 16.0, 14.0];
/// The top of the first panel under a one-line title: room for the title and, under it,
/// the panel's label.
const TOP: f64 = 80.0;
const PANEL_H: f64 = 300.0;
const GAP: f64 = 60.0;
const BOTTOM: f64 = 130.0;
/// Clear space kept between a panel's highest mark and its top edge. A bar that ends exactly
/// on the top line cannot be told from one cut off there (a 50 s bar under a 50 s axis read
/// as clipped), and a thick line drawn along the edge loses half its width to the clip.
const HEADROOM_PX: f64 = 12.0;
/// A legend entry's note: a smaller line under its label.
const NOTE_SIZE: f64 = 15.0;
const NOTE_LINE: f64 = 19.0;
/// Caption characters per line (17 px text across 1160 px).
const CAPTION_CHARS: usize = 118;
const CAPTION_LINE: f64 = 24.0;

/// A name for the figure's ids. The HTML report puts many pictures in one page, where an id
/// names one element for all of them: with "clip0" in every picture, each panel was clipped
/// by the first picture's rectangle, cutting off whatever a taller picture drew below it.
/// The same figure drawn twice gets the same name, which is harmless: its rectangles agree.
fn figure_id(fig: &Figure) -> String {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    format!("{fig:?}").hash(&mut h);
    format!("{:016x}", h.finish())
}

/// The title's font size and lines: one line at the largest size that fits, else wrapped at
/// full size (a second line reads better from the back of a room than small print), so that
/// the end of a title, a game's result, is never cut off.
pub fn title_lines(title: &str) -> (f64, Vec<String>) {
    for size in TITLE_SIZES {
        if text_width(title, size) <= TITLE_W {
            return (size, vec![title.to_string()]);
        }
    }
    let size = TITLE_SIZES[0];
    let mut lines = wrap_px(title, size, TITLE_W);
    if lines.len() > MAX_TITLE_LINES {
        let rest = lines.split_off(MAX_TITLE_LINES - 1).join(" ");
        lines.push(shorten_px(&rest, size, TITLE_W));
    }
    (size, lines)
}

/// A panel's label and its font size: smaller rather than running past the plot into the
/// legend, and cut only at the smallest size.
fn label_fit(text: &str, max_px: f64) -> (f64, String) {
    for size in LABEL_SIZES {
        if text_width(text, size) <= max_px {
            return (size, text.to_string());
        }
    }
    let size = LABEL_SIZES[LABEL_SIZES.len() - 1];
    (size, shorten_px(text, size, max_px))
}

/// Draw the figure.
pub fn render(fig: &Figure) -> String {
    let id = figure_id(fig);
    let panels = fig.panels.len().max(1) as f64;
    let (title_size, title) = title_lines(&fig.title);
    let top0 = TOP + TITLE_LINE * title.len().saturating_sub(1) as f64;
    // BOTTOM holds two caption lines; a longer caption makes the picture taller rather than
    // climbing into the axis label above it (a 40/120 plan's third line ran over it).
    let caption = wrap(&fig.caption, CAPTION_CHARS);
    let extra_lines = caption.len().saturating_sub(2) as f64;
    let h = top0 + panels * PANEL_H + (panels - 1.0) * GAP + BOTTOM + CAPTION_LINE * extra_lines;
    let plot_w = W - LEFT - RIGHT;
    let max_x = fig
        .panels
        .iter()
        .flat_map(|p| p.series.iter())
        .flat_map(|s| s.points.iter())
        .map(|p| p.0)
        .fold(1.0, f64::max);
    let min_x = fig
        .panels
        .iter()
        .flat_map(|p| p.series.iter())
        .flat_map(|s| s.points.iter())
        .map(|p| p.0)
        .fold(max_x, f64::min)
        .min(1.0);
    // Bars are centred on their move: leave half a move on each side for them.
    let bars = fig
        .panels
        .iter()
        .flat_map(|p| p.series.iter())
        .any(|s| matches!(s.shape, Shape::Bars { .. }));
    let pad = if bars { 0.6 } else { 0.0 };
    let (min_x, max_x) = (min_x - pad, max_x + pad);
    let span = (max_x - min_x).max(1.0);
    let x_of = |x: f64| LEFT + (x - min_x) / span * plot_w;
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{h}" viewBox="0 0 {W} {h}" font-family="DejaVu Sans, Arial, sans-serif" font-size="18">"#
    );
    let _ = writeln!(out, r#"<rect width="{W}" height="{h}" fill="white"/>"#);
    for (i, line) in title.iter().enumerate() {
        let _ = writeln!(
            out,
            r#"<text class="title" x="{}" y="{}" text-anchor="middle" font-size="{title_size}" font-weight="bold">{}</text>"#,
            W / 2.0,
            TITLE_Y + TITLE_LINE * i as f64,
            escape(line)
        );
    }
    let (xstep, _) = axis(span);
    let xstep = xstep.max(1.0).round();
    let mut hidden = Vec::new();
    for (pi, panel) in fig.panels.iter().enumerate() {
        let top = top0 + pi as f64 * (PANEL_H + GAP);
        let bottom = top + PANEL_H;
        // The axis covers everything drawn, the bands (up to the hard limit) included: a
        // band cut at the top of the panel reads as "no limit".
        let max_y = panel
            .series
            .iter()
            .flat_map(|s| {
                let band = match &s.shape {
                    Shape::Line { band } => band.iter().map(|b| b.2).collect(),
                    Shape::Bars { .. } => Vec::new(),
                };
                s.points.iter().map(|p| p.1).chain(band)
            })
            .fold(0.0, f64::max);
        let (ystep, ymax) = axis(max_y * PANEL_H / (PANEL_H - HEADROOM_PX));
        let clip = format!("clip-{id}-{pi}");
        let frame = Frame {
            min_x,
            span,
            plot_w,
            bottom,
            ymax,
            clip: clip.clone(),
        };
        let y_of = |v: f64| frame.y(v);
        let _ = writeln!(
            out,
            r#"<clipPath id="{clip}"><rect x="{LEFT}" y="{top}" width="{plot_w}" height="{PANEL_H}"/></clipPath>"#
        );
        // Grid and y ticks.
        let mut v = 0.0;
        while v <= ymax * (1.0 + 1e-9) {
            let y = y_of(v);
            let _ = writeln!(
                out,
                r##"<line x1="{LEFT}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#dddddd"/>"##,
                LEFT + plot_w
            );
            let _ = writeln!(
                out,
                r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#,
                LEFT - 10.0,
                y + 6.0,
                trim_number(v)
            );
            v += ystep;
        }
        // X grid (labels only under the last panel).
        let mut m = (min_x / xstep).ceil() * xstep;
        while m <= max_x + 1e-9 {
            let x = x_of(m);
            let _ = writeln!(
                out,
                r##"<line x1="{x:.1}" y1="{top}" x2="{x:.1}" y2="{bottom}" stroke="#eeeeee"/>"##
            );
            if pi + 1 == fig.panels.len() {
                let _ = writeln!(
                    out,
                    r#"<text x="{x:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
                    bottom + 26.0,
                    trim_number(m)
                );
            }
            m += xstep;
        }
        let _ = writeln!(
            out,
            r#"<path d="M{LEFT},{top} V{bottom} H{}" fill="none" stroke="black" stroke-width="1.5"/>"#,
            LEFT + plot_w
        );
        let (label_size, label) = label_fit(&panel.y_label, plot_w - 8.0);
        let _ = writeln!(
            out,
            r#"<text class="label" x="{:.1}" y="{:.1}" font-size="{label_size}" font-weight="bold">{}</text>"#,
            LEFT + 8.0,
            top - 10.0,
            escape(&label)
        );
        // Period boundaries of a repeating control: the clock refills there.
        for &b in fig.boundaries.iter().filter(|&&b| b > min_x && b < max_x) {
            let x = x_of(b);
            let _ = writeln!(
                out,
                r##"<line class="refill" x1="{x:.1}" y1="{top}" x2="{x:.1}" y2="{bottom}" stroke="#555555" stroke-width="1.5" stroke-dasharray="6 4"/>"##
            );
            let _ = writeln!(
                out,
                r##"<text x="{:.1}" y="{:.1}" font-size="15" fill="#555555">refill</text>"##,
                x + 4.0,
                top + 16.0
            );
        }
        // Bars first, then bands, then lines; emphasised series last.
        let mut order: Vec<&Series> = panel.series.iter().collect();
        order.sort_by_key(|s| (matches!(s.shape, Shape::Line { .. }), s.emphasis));
        for s in &order {
            if let Shape::Line { band } = &s.shape {
                if band.len() > 1 {
                    let mut pts: Vec<String> = band
                        .iter()
                        .map(|&(x, _, hi)| format!("{:.1},{:.1}", x_of(x), y_of(hi)))
                        .collect();
                    pts.extend(
                        band.iter()
                            .rev()
                            .map(|&(x, lo, _)| format!("{:.1},{:.1}", x_of(x), y_of(lo))),
                    );
                    let _ = writeln!(
                        out,
                        r#"<polygon clip-path="url(#{clip})" points="{}" fill="{}" fill-opacity="0.13" stroke="none"/>"#,
                        pts.join(" "),
                        s.style.colour
                    );
                }
            }
        }
        for s in &order {
            draw_series(&mut out, s, &frame);
        }
        hidden.extend(hidden_lines(&order, &frame, pi));
    }
    let last_bottom = top0 + panels * PANEL_H + (panels - 1.0) * GAP;
    let _ = writeln!(
        out,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle" font-size="20">{}</text>"#,
        LEFT + plot_w / 2.0,
        last_bottom + 55.0,
        escape(&fig.x_label)
    );
    legend(&mut out, fig, top0, &hidden);
    for (i, line) in caption.iter().enumerate() {
        let _ = writeln!(
            out,
            r##"<text class="caption" x="20" y="{:.1}" font-size="17" fill="#333333">{}</text>"##,
            last_bottom + BOTTOM - 48.0 + CAPTION_LINE * i as f64,
            escape(line)
        );
    }
    out.push_str("</svg>\n");
    out
}

/// One panel's coordinates.
struct Frame {
    min_x: f64,
    span: f64,
    plot_w: f64,
    bottom: f64,
    ymax: f64,
    clip: String,
}

impl Frame {
    fn x(&self, x: f64) -> f64 {
        LEFT + (x - self.min_x) / self.span * self.plot_w
    }

    fn y(&self, v: f64) -> f64 {
        self.bottom - (v / self.ymax).clamp(0.0, 1.05) * PANEL_H
    }
}

fn draw_series(out: &mut String, s: &Series, f: &Frame) {
    let (x_of, y_of) = (|x| f.x(x), |v| f.y(v));
    let (span, plot_w, bottom, clip) = (f.span, f.plot_w, f.bottom, &f.clip);
    let st = s.style;
    match s.shape {
        Shape::Bars { slot, slots } => {
            let slots = slots.max(1) as f64;
            let per_move = plot_w / (span + 1.0);
            let bar = (per_move * 0.8 / slots).clamp(1.0, 14.0);
            for &(x, y) in &s.points {
                let left = x_of(x) - bar * slots / 2.0 + bar * slot as f64;
                let top = y_of(y);
                let _ = writeln!(
                    out,
                    r#"<rect clip-path="url(#{clip})" x="{left:.1}" y="{top:.1}" width="{bar:.1}" height="{:.1}" fill="{}" fill-opacity="0.55"/>"#,
                    (bottom - top).max(0.0),
                    st.colour
                );
            }
        }
        Shape::Line { .. } => {
            let pts: Vec<String> = s
                .points
                .iter()
                .map(|&(x, y)| format!("{:.1},{:.1}", x_of(x), y_of(y)))
                .collect();
            let dash = dash_attribute(st.dash);
            let _ = writeln!(
                out,
                r#"<polyline clip-path="url(#{clip})" fill="none" stroke="{}" stroke-width="{}"{dash} stroke-linejoin="round" points="{}"/>"#,
                st.colour,
                st.width,
                pts.join(" ")
            );
            // A polyline of one point draws nothing: the first move of a game in progress
            // would be missing from its line.
            if let [(x, y)] = s.points[..] {
                let _ = writeln!(
                    out,
                    r#"<circle clip-path="url(#{clip})" cx="{:.1}" cy="{:.1}" r="{}" fill="{}"/>"#,
                    x_of(x),
                    y_of(y),
                    2.0 * st.width,
                    st.colour
                );
            }
        }
    }
    for &(x, y) in &s.alarms {
        let _ = writeln!(
            out,
            r#"<circle cx="{:.1}" cy="{:.1}" r="8" fill="none" stroke="black" stroke-width="2.5"/>"#,
            x_of(x),
            y_of(y)
        );
    }
}

/// The ` stroke-dasharray="…"` attribute of a style, or nothing for a solid line.
fn dash_attribute(dash: &str) -> String {
    if dash.is_empty() {
        String::new()
    } else {
        format!(r#" stroke-dasharray="{dash}""#)
    }
}

/// A line that a later one covers in one panel.
struct Hidden {
    panel: usize,
    hidden: String,
    over: String,
}

/// The lines of one panel (`order`: as drawn) that a later line at least as wide covers at
/// every move: their strokes touch or overlap everywhere, so no gap ever opens between them
/// and the reader sees only the later one. In the 300+3 plan `lognormal` runs within 3.6 px
/// of `expositor`'s 5 px line and could not be found, though the legend listed it. A label
/// drawn more than once in the panel (the overview's "one game") is left alone: its legend
/// entry stands for several lines.
fn hidden_lines(order: &[&Series], frame: &Frame, panel: usize) -> Vec<Hidden> {
    let line = |s: &Series| matches!(s.shape, Shape::Line { .. }) && s.points.len() > 1;
    let single = |s: &Series| order.iter().filter(|o| o.label == s.label).count() == 1;
    let mut out = Vec::new();
    for (i, a) in order.iter().enumerate() {
        if !line(a) || !single(a) {
            continue;
        }
        // The topmost of the lines that cover it: the one the reader sees there.
        let over = order[i + 1..].iter().rev().find(|b| {
            line(b)
                && single(b)
                && b.label != a.label
                && b.style.width >= a.style.width
                && a.points.iter().all(|&(x, ya)| {
                    b.points.iter().any(|&(xb, yb)| {
                        xb == x
                            && (frame.y(ya) - frame.y(yb)).abs()
                                <= (a.style.width + b.style.width) / 2.0
                    })
                })
        });
        if let Some(b) = over {
            out.push(Hidden {
                panel,
                hidden: a.label.clone(),
                over: b.label.clone(),
            });
        }
    }
    out
}

/// The legend's word on a line that cannot be seen: under which line, and in which panels
/// (none named when it is hidden wherever it is drawn).
fn hidden_note(label: &str, hidden: &[Hidden], fig: &Figure) -> Option<String> {
    let mine: Vec<&Hidden> = hidden.iter().filter(|h| h.hidden == label).collect();
    let drawn: Vec<usize> = (0..fig.panels.len())
        .filter(|&i| fig.panels[i].series.iter().any(|s| s.label == label))
        .collect();
    let mut overs: Vec<&str> = Vec::new();
    for h in &mine {
        if !overs.contains(&h.over.as_str()) {
            overs.push(&h.over);
        }
    }
    let parts: Vec<String> = overs
        .iter()
        .map(|&over| {
            let panels: Vec<usize> = mine
                .iter()
                .filter(|h| h.over == over)
                .map(|h| h.panel)
                .collect();
            let place = if panels == drawn {
                String::new()
            } else if fig.panels.len() == 2 {
                let which = if panels.first() == Some(&0) {
                    "top"
                } else {
                    "bottom"
                };
                format!(" in the {which} panel")
            } else {
                let numbers: Vec<String> = panels.iter().map(|p| (p + 1).to_string()).collect();
                format!(" in panel {}", numbers.join(", "))
            };
            // "expositor", not "expositor (default)": the note names a line already named.
            let name = over.split(" (").next().unwrap_or(over);
            format!("{name}{place}")
        })
        .collect();
    (!parts.is_empty()).then(|| format!("hidden under {}", parts.join("; ")))
}

fn legend(out: &mut String, fig: &Figure, top: f64, hidden: &[Hidden]) {
    let x = W - RIGHT + 15.0;
    let mut y = top + 10.0;
    let mut seen: Vec<&str> = Vec::new();
    let mut alarms = false;
    for s in fig.panels.iter().flat_map(|p| p.series.iter()) {
        alarms |= !s.alarms.is_empty();
        if seen.contains(&s.label.as_str()) {
            continue;
        }
        seen.push(&s.label);
        let st = s.style;
        match s.shape {
            Shape::Bars { .. } => {
                let _ = writeln!(
                    out,
                    r#"<rect x="{x}" y="{:.1}" width="40" height="14" fill="{}" fill-opacity="0.55"/>"#,
                    y - 7.0,
                    st.colour
                );
            }
            Shape::Line { ref band } => {
                if !band.is_empty() {
                    let _ = writeln!(
                        out,
                        r#"<rect x="{x}" y="{:.1}" width="40" height="16" fill="{}" fill-opacity="0.15"/>"#,
                        y - 16.0,
                        st.colour
                    );
                }
                let dash = dash_attribute(st.dash);
                let _ = writeln!(
                    out,
                    r#"<line x1="{x}" y1="{y}" x2="{}" y2="{y}" stroke="{}" stroke-width="{}"{dash}/>"#,
                    x + 40.0,
                    st.colour,
                    st.width
                );
            }
        }
        let weight = if s.emphasis {
            r#" font-weight="bold""#
        } else {
            ""
        };
        let _ = writeln!(
            out,
            r#"<text class="entry" x="{}" y="{:.1}" font-size="17"{weight}>{}</text>"#,
            x + 48.0,
            y + 6.0,
            escape(&shorten(&s.label, 22))
        );
        if let Some(note) = hidden_note(&s.label, hidden, fig) {
            for line in wrap_px(&note, NOTE_SIZE, W - (x + 48.0) - 8.0) {
                y += NOTE_LINE;
                let _ = writeln!(
                    out,
                    r##"<text class="note" x="{}" y="{:.1}" font-size="{NOTE_SIZE}" fill="#444444">{}</text>"##,
                    x + 48.0,
                    y + 6.0,
                    escape(&line)
                );
            }
        }
        y += 32.0;
    }
    if alarms {
        let _ = writeln!(
            out,
            r#"<circle cx="{}" cy="{y}" r="8" fill="none" stroke="black" stroke-width="2.5"/><text x="{}" y="{:.1}">clock runs out</text>"#,
            x + 20.0,
            x + 50.0,
            y + 6.0
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axis_fits_the_data() {
        assert_eq!(axis(33.0), (5.0, 35.0));
        assert_eq!(axis(60.0), (10.0, 60.0));
        assert_eq!(axis(0.42), (0.1, 0.5));
        assert_eq!(axis(0.0), (1.0, 1.0));
        assert_eq!(axis(f64::NAN), (1.0, 1.0));
        for max in [0.013, 1.0, 7.3, 99.0, 180.0, 1234.0, 1e6] {
            let (step, top) = axis(max);
            assert!(top >= max && top <= max * 1.6 + step, "{max}: {step} {top}");
        }
    }

    /// Every y coordinate of the shaded bands (`<polygon points="x,y …">`).
    fn band_ys(svg: &str) -> Vec<f64> {
        svg.split("<polygon")
            .skip(1)
            .filter_map(|p| p.split("points=\"").nth(1)?.split('"').next())
            .flat_map(|pts| {
                pts.split(' ')
                    .filter_map(|xy| xy.split(',').nth(1)?.parse().ok())
            })
            .collect()
    }

    #[test]
    fn the_axis_covers_the_hard_band() {
        // Soft at 1 s, hard up to 3 s (60+0.6 looks like this): the band must end inside
        // the panel, not be cut at its top, where it would read as "no limit".
        let mut line = Series::line(
            "expositor",
            player_style(true),
            vec![(1.0, 1.0), (2.0, 1.0)],
        );
        line.shape = Shape::Line {
            band: vec![(1.0, 1.0, 3.0), (2.0, 1.0, 3.0)],
        };
        let fig = Figure {
            title: "t".into(),
            caption: "c".into(),
            x_label: "x".into(),
            panels: vec![Panel {
                y_label: "y".into(),
                series: vec![line],
            }],
            boundaries: Vec::new(),
        };
        let ys = band_ys(&render(&fig));
        assert!(!ys.is_empty());
        for y in ys {
            assert!(y >= TOP - 1e-9, "band drawn above the panel at y = {y}");
        }
    }

    /// A line of one point (the first move of a game in progress) is drawn as a dot; a line
    /// of two or more is not.
    #[test]
    fn a_line_of_one_point_is_a_dot() {
        let fig = |points: Vec<(f64, f64)>| Figure {
            title: "t".into(),
            caption: "c".into(),
            x_label: "x".into(),
            panels: vec![Panel {
                y_label: "y".into(),
                series: vec![Series::line("clock", player_style(true), points)],
            }],
            boundaries: Vec::new(),
        };
        let dots = |svg: String| svg.matches("<circle clip-path").count();
        assert_eq!(dots(render(&fig(vec![(1.0, 5.0)]))), 1);
        assert_eq!(dots(render(&fig(vec![(1.0, 5.0), (2.0, 4.0)]))), 0);
        assert_eq!(dots(render(&fig(Vec::new()))), 0);
    }

    /// (y, height) of the bars: only they are clipped to a panel, the legend's swatches not.
    fn bars(svg: &str) -> Vec<(f64, f64)> {
        let attr = |tag: &str, name: &str| -> Option<f64> {
            tag.split(&format!(" {name}=\""))
                .nth(1)?
                .split('"')
                .next()?
                .parse()
                .ok()
        };
        svg.split("<rect clip-path")
            .skip(1)
            .filter_map(|t| Some((attr(t, "y")?, attr(t, "height")?)))
            .collect()
    }

    /// The lichess 5+3 picture had a 50 s bar under an axis topped at 50: the bar met the top
    /// edge and read as cut off. The tallest bar must end below the top, under a labelled tick
    /// at or above it.
    #[test]
    fn the_axis_covers_the_largest_bar_with_room_above() {
        let spent = Series {
            label: "White: time spent".into(),
            style: player_style(true),
            shape: Shape::Bars { slot: 0, slots: 1 },
            points: vec![(1.0, 4.0), (2.0, 50.0), (3.0, 27.0)],
            alarms: Vec::new(),
            emphasis: false,
        };
        let fig = Figure {
            title: "t".into(),
            caption: "c".into(),
            x_label: "x".into(),
            panels: vec![Panel {
                y_label: "y".into(),
                series: vec![spent],
            }],
            boundaries: Vec::new(),
        };
        let svg = render(&fig);
        let tallest =
            bars(&svg)
                .into_iter()
                .fold((f64::INFINITY, 0.0), |a, b| if b.0 < a.0 { b } else { a });
        assert!(tallest.1 > 0.0, "{svg}");
        assert!(
            tallest.0 >= TOP + HEADROOM_PX - 0.1,
            "the 50 s bar starts at y = {}, the panel at {TOP}",
            tallest.0
        );
        // The top tick is above 50 s.
        let ticks: Vec<f64> = svg
            .split("text-anchor=\"end\">")
            .skip(1)
            .filter_map(|t| t.split('<').next()?.parse().ok())
            .collect();
        let top_tick = ticks.iter().copied().fold(0.0, f64::max);
        assert!(top_tick > 50.0, "{ticks:?}");
    }

    /// The `<text class="…">` contents of a picture, in order.
    fn texts<'a>(svg: &'a str, class: &str) -> Vec<(f64, &'a str)> {
        svg.split(&format!("<text class=\"{class}\""))
            .skip(1)
            .filter_map(|t| {
                let size = t.split("font-size=\"").nth(1)?.split('"').next()?;
                Some((size.parse().ok()?, t.split('>').nth(1)?.split('<').next()?))
            })
            .collect()
    }

    /// TCEC's titles were cut at 72 characters, result and all ("… 1800+3 (1/2-1…"). A title
    /// now keeps every word, on as many lines as it needs (each within the picture's width),
    /// and the panels move down to make room.
    #[test]
    fn a_title_fits_the_width_with_its_result() {
        let title = "Game 1: LCZero 0.33-dev-7499292-BT4-6147500-it332 vs \
                     Stockfish dev-20260101-28844fc6, 1800+3 (1/2-1/2)";
        let panel = Panel {
            y_label: "LCZero 0.33-dev-7499292-BT4-6147500-it332: clock left after the move, s"
                .into(),
            series: vec![Series::line(
                "a",
                player_style(true),
                vec![(1.0, 1.0), (80.0, 2.0)],
            )],
        };
        let fig = |title: &str| Figure {
            title: title.into(),
            caption: "c".into(),
            x_label: "x".into(),
            panels: vec![panel.clone()],
            boundaries: Vec::new(),
        };
        let svg = render(&fig(title));
        let lines = texts(&svg, "title");
        assert_eq!(lines.len(), 2, "{svg}");
        let words: Vec<&str> = lines.iter().map(|l| l.1).collect();
        assert_eq!(words.join(" "), title);
        assert!(words[1].ends_with("1800+3 (1/2-1/2)"), "{words:?}");
        for &(size, line) in &lines {
            assert!(text_width(line, size) <= W - 40.0, "{line} at {size} px");
        }
        // The panel starts below the second line, its label fits the plot at a smaller size.
        assert!(svg.contains(&format!("<path d=\"M{LEFT},{}", TOP + TITLE_LINE)));
        let label = texts(&svg, "label");
        assert_eq!(label.len(), 1);
        assert!(label[0].1.ends_with("it332: clock left after the move, s"));
        assert!(label[0].0 < 20.0 && text_width(label[0].1, label[0].0) <= W - LEFT - RIGHT);

        // A short title stays one line at full size, the panel where it was.
        let svg = render(&fig("Game 2: a vs b, 300+3 (0-1)"));
        assert_eq!(
            texts(&svg, "title"),
            [(24.0, "Game 2: a vs b, 300+3 (0-1)")]
        );
        assert!(svg.contains(&format!("<path d=\"M{LEFT},{TOP}")));
        // The measure tells wide from narrow letters (and a long word is cut to fit).
        assert!(text_width("WWW", 20.0) > 2.0 * text_width("iii", 20.0));
        let cut = wrap_px(&"x".repeat(500), 24.0, 300.0);
        assert!(cut.len() == 1 && cut[0].ends_with('…') && text_width(&cut[0], 24.0) <= 300.0);
    }

    /// A caption of more than two lines climbed into the x-axis label above it (the 40/120
    /// plan's third line ran over "our move number"): the picture grows instead.
    #[test]
    fn a_long_caption_stays_below_the_axis_label() {
        let words = "each move thinks 0.6 × its soft budget, never past hard; ".repeat(6);
        for caption in ["short", words.as_str()] {
            let fig = Figure {
                title: "t".into(),
                caption: caption.into(),
                x_label: "our move number".into(),
                panels: vec![Panel {
                    y_label: "y".into(),
                    series: vec![Series::line(
                        "a",
                        player_style(true),
                        vec![(1.0, 1.0), (80.0, 2.0)],
                    )],
                }],
                boundaries: Vec::new(),
            };
            let svg = render(&fig);
            let y_of = |t: &str| -> Option<f64> {
                t.split("y=\"").nth(1)?.split('"').next()?.parse().ok()
            };
            let axis_label = svg
                .split("<text ")
                .find(|t| t.contains(">our move number<"))
                .and_then(y_of)
                .unwrap_or(f64::NAN);
            let lines: Vec<f64> = svg
                .split("<text class=\"caption\"")
                .skip(1)
                .filter_map(y_of)
                .collect();
            let height: f64 = svg
                .split("height=\"")
                .nth(1)
                .and_then(|t| t.split('"').next()?.parse().ok())
                .unwrap_or(0.0);
            assert_eq!(lines.len(), if caption == "short" { 1 } else { 3 });
            for y in lines {
                // 17 px text: its top is 13 px above the baseline, the label's bottom 5 below.
                assert!(
                    y - 13.0 > axis_label + 5.0,
                    "caption at {y}, label at {axis_label}"
                );
                assert!(
                    y + 5.0 < height,
                    "caption at {y} below the picture ({height})"
                );
            }
        }
    }

    #[test]
    fn period_boundaries_are_drawn_in_every_panel() {
        let panel = Panel {
            y_label: "y".into(),
            series: vec![Series::line(
                "a",
                player_style(true),
                vec![(1.0, 1.0), (80.0, 2.0)],
            )],
        };
        let fig = Figure {
            title: "t".into(),
            caption: "c".into(),
            x_label: "x".into(),
            panels: vec![panel.clone(), panel],
            boundaries: vec![40.5],
        };
        let svg = render(&fig);
        assert_eq!(svg.matches("class=\"refill\"").count(), 2, "{svg}");
        assert!(svg.contains(">refill<"));
    }

    #[test]
    fn styles_differ() {
        let all = Settings::each_strategy();
        let styles: Vec<Style> = all
            .iter()
            .map(|s| strategy_style(s.strategy().name(), s.strategy().style()))
            .collect();
        for (i, a) in styles.iter().enumerate() {
            for b in &styles[i + 1..] {
                assert!(a.colour != b.colour && a.dash != b.dash && a.symbol != b.symbol);
            }
        }
        assert!(
            styles[0].width > styles[1].width,
            "the default is drawn thicker"
        );
    }

    /// The `clipPath` ids a picture defines.
    fn clip_ids(svg: &str) -> Vec<&str> {
        svg.split("<clipPath id=\"")
            .skip(1)
            .filter_map(|t| t.split('"').next())
            .collect()
    }

    /// Pictures that share a page (the HTML report) must not share ids: an id names one
    /// element for the whole page, so the second picture would be clipped by the first one's
    /// rectangles.
    #[test]
    fn pictures_on_one_page_have_their_own_clip_ids() {
        let panel = |y: f64| Panel {
            y_label: "y".into(),
            series: vec![Series::line(
                "a",
                player_style(true),
                vec![(1.0, 1.0), (40.0, y)],
            )],
        };
        let fig = |panels: Vec<Panel>| Figure {
            title: "t".into(),
            caption: "c".into(),
            x_label: "x".into(),
            panels,
            boundaries: Vec::new(),
        };
        let one = render(&fig(vec![panel(2.0)]));
        let two = render(&fig(vec![panel(3.0), panel(4.0)]));
        let (a, b) = (clip_ids(&one), clip_ids(&two));
        assert_eq!((a.len(), b.len()), (1, 2));
        assert!(a.iter().all(|id| !b.contains(id)), "{a:?} {b:?}");
        assert!(b[0] != b[1]);
        for id in a.iter().chain(&b) {
            let used = format!("clip-path=\"url(#{id})\"");
            assert!(one.contains(&used) || two.contains(&used), "{id} unused");
        }
        // Drawn again, a picture is the same file.
        assert_eq!(render(&fig(vec![panel(2.0)])), one);
    }

    /// Each legend entry's label followed by its note lines, if any.
    fn legend_notes(svg: &str) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = Vec::new();
        for t in svg.split("<text ").skip(1) {
            let Some(body) = t.split('>').nth(1).and_then(|b| b.split('<').next()) else {
                continue;
            };
            if t.starts_with("class=\"note\"") {
                if let Some(last) = out.last_mut() {
                    last.1 = format!("{} {body}", last.1).trim().to_string();
                }
            } else if t.starts_with("class=\"entry\"") {
                out.push((body.to_string(), String::new()));
            }
        }
        out
    }

    /// In the 300+3 plan `lognormal` ran within 3.6 px of `expositor`'s 5 px line and could
    /// not be seen, with no word about it. A line that a later, at least as wide line touches
    /// at every move gets a note in the legend, naming the panel when it shows in another.
    #[test]
    fn a_hidden_line_is_named_in_the_legend() {
        let thick = |label: &str, ys: &[f64]| {
            let mut s = Series::line(
                label,
                strategy_style(
                    "expositor",
                    crate::time::Style {
                        colour: "#0072B2",
                        dash: "",
                        symbol: 'E',
                    },
                ),
                ys.iter()
                    .enumerate()
                    .map(|(i, &y)| (i as f64 + 1.0, y))
                    .collect(),
            );
            s.style.width = 5.0;
            s.emphasis = true;
            s
        };
        let thin = |label: &str, ys: &[f64]| {
            let mut s = thick(label, ys);
            s.style.width = 2.5;
            s.emphasis = false;
            s
        };
        // 0 to 50 over 300 px (axis 0–60 with the headroom): 5 px per s. 0.7 s is 3.5 px,
        // within (5 + 2.5) / 2; 1 s is 5 px, a gap.
        let top = vec![
            thin("close", &[10.0, 20.7, 30.0, 50.0]),
            thin("apart", &[11.0, 21.0, 31.0, 49.0]),
            thick("main", &[10.0, 20.0, 30.0, 50.0]),
        ];
        let bottom = vec![
            thin("close", &[5.0, 30.0, 5.0, 50.0]),
            thin("apart", &[10.0, 20.0, 30.0, 50.0]),
            thick("main", &[10.0, 20.0, 30.0, 50.0]),
        ];
        let fig = |panels: Vec<Panel>| Figure {
            title: "t".into(),
            caption: "c".into(),
            x_label: "x".into(),
            panels,
            boundaries: Vec::new(),
        };
        let panel = |series: Vec<Series>| Panel {
            y_label: "y".into(),
            series,
        };
        let svg = render(&fig(vec![panel(top.clone()), panel(bottom)]));
        assert_eq!(
            legend_notes(&svg),
            [
                ("close".into(), "hidden under main in the top panel".into()),
                (
                    "apart".into(),
                    "hidden under main in the bottom panel".into()
                ),
                ("main".into(), String::new()),
            ]
        );
        // Hidden wherever it is drawn: no panel named.
        let svg = render(&fig(vec![panel(top.clone())]));
        assert_eq!(legend_notes(&svg)[0].1, "hidden under main");
        // A line drawn over a thinner one is not hidden by it, nor is a label drawn twice.
        let mut over = top.clone();
        over.swap(0, 2);
        over[0].emphasis = false;
        let svg = render(&fig(vec![panel(vec![over[2].clone(), over[0].clone()])]));
        assert_eq!(legend_notes(&svg)[0].1, "hidden under main");
        let svg = render(&fig(vec![panel(vec![over[0].clone(), over[2].clone()])]));
        assert!(!svg.contains("hidden under"), "{svg}");
        let twice = vec![top[0].clone(), top[0].clone(), top[2].clone()];
        assert!(!render(&fig(vec![panel(twice)])).contains("hidden under"));
    }
}
