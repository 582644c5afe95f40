//! The two pictures of `tm`, both two panels on one move axis (budget or time per move
//! above, clock left below): a simulated game per strategy, and a recorded game with what
//! the strategies would have planned on its clock.

use super::clocks::GameRecord;
use super::svg::{is_default, player_style, shorten, strategy_style, Figure, Panel, Series, Shape};
use super::Simulation;
use crate::time::{Budget, Settings, Style};

fn s(ms: f64) -> f64 {
    ms / 1000.0
}

fn emphasised(name: &str, count: usize) -> bool {
    is_default(name) || count == 1
}

/// The soft-budget line of a strategy, with the hard limit as a band when emphasised.
fn budget_series((name, look): (&str, Style), budgets: &[(f64, u64, u64)], count: usize) -> Series {
    let emphasis = emphasised(name, count);
    let mut series = Series::line(
        &format!(
            "{}{}",
            name,
            if is_default(name) { " (default)" } else { "" }
        ),
        strategy_style(name, look),
        budgets
            .iter()
            .map(|&(x, soft, _)| (x, s(soft as f64)))
            .collect(),
    );
    if emphasis {
        series.shape = Shape::Line {
            band: budgets
                .iter()
                .map(|&(x, soft, hard)| (x, s(soft as f64), s(hard as f64)))
                .collect(),
        };
    }
    series.emphasis = emphasis;
    series
}

/// A simulated game: soft budget (hard as a band) and the clock left, per strategy.
pub fn simulation(sims: &[Simulation], title: &str, caption: &str) -> Figure {
    let n = sims.len();
    let mut budget = Vec::new();
    let mut clock = Vec::new();
    for sim in sims {
        let points: Vec<(f64, u64, u64)> = sim
            .rows
            .iter()
            .map(|r| (f64::from(r.number), r.soft_ms, r.hard_ms))
            .collect();
        budget.push(budget_series((sim.strategy, sim.style), &points, n));
        let mut c = budget_series((sim.strategy, sim.style), &[], n);
        c.shape = Shape::Line { band: Vec::new() };
        c.points = sim
            .rows
            .iter()
            .map(|r| (f64::from(r.number), s(r.clock_after_ms as f64)))
            .collect();
        c.alarms = sim
            .rows
            .iter()
            .filter(|r| r.flagged)
            .map(|r| (f64::from(r.number), s(r.clock_after_ms.max(0) as f64)))
            .collect();
        clock.push(c);
    }
    // A repeating control refills after each move whose movestogo was 1 (the simulations
    // share one control, so the first one's rows say where).
    let boundaries = sims
        .first()
        .map(|sim| {
            sim.rows
                .iter()
                .filter(|r| r.moves_to_go == Some(1))
                .map(|r| f64::from(r.number) + 0.5)
                .collect()
        })
        .unwrap_or_default();
    Figure {
        title: title.to_string(),
        caption: caption.to_string(),
        x_label: "our move number".to_string(),
        panels: vec![
            Panel {
                y_label: "budget per move, s (line: soft; band: up to hard)".to_string(),
                series: budget,
            },
            Panel {
                y_label: "clock left after the move, s".to_string(),
                series: clock,
            },
        ],
        boundaries,
    }
}

/// What a strategy planned at each move of the chosen player.
pub struct Overlay {
    /// The strategy's name and its look.
    pub strategy: &'static str,
    pub style: Style,
    pub budgets: Vec<Budget>,
}

/// Longest player name in a title: TCEC's engine names run to 41 characters.
const NAME_CHARS: usize = 48;

/// A recorded game: time spent per move (bars) with the strategies' plans for `player`
/// (0 = White, 1 = Black) if any, and both players' clocks.
pub fn game(record: &GameRecord, player: usize, overlays: &[Overlay], caption: &str) -> Figure {
    let mut top = Vec::new();
    let mut bottom = Vec::new();
    let shown: Vec<usize> = if overlays.is_empty() {
        vec![0, 1]
    } else {
        vec![player.min(1)]
    };
    for (slot, &i) in shown.iter().enumerate() {
        let p = &record.players[i];
        if p.moves.is_empty() {
            continue;
        }
        let colour = if p.white { "White" } else { "Black" };
        top.push(Series {
            label: format!("{colour}: time spent"),
            style: player_style(p.white),
            shape: Shape::Bars {
                slot,
                slots: shown.len(),
            },
            points: p
                .moves
                .iter()
                .map(|m| (f64::from(m.number), s(m.spent_ms as f64)))
                .collect(),
            alarms: Vec::new(),
            emphasis: false,
        });
    }
    if let Some(p) = record.players.get(player.min(1)) {
        for o in overlays {
            let points: Vec<(f64, u64, u64)> = p
                .moves
                .iter()
                .zip(&o.budgets)
                .map(|(m, b)| (f64::from(m.number), b.soft_ms, b.hard_ms))
                .collect();
            top.push(budget_series(
                (o.strategy, o.style),
                &points,
                overlays.len(),
            ));
        }
    }
    for p in &record.players {
        if p.moves.is_empty() {
            continue;
        }
        let colour = if p.white { "White" } else { "Black" };
        let mut series = Series::line(
            &format!("{colour}: clock left"),
            player_style(p.white),
            p.moves
                .iter()
                .map(|m| (f64::from(m.number), s(m.clock_after_ms as f64)))
                .collect(),
        );
        series.alarms = p
            .moves
            .iter()
            .filter(|m| m.low_ms() < 0)
            .map(|m| (f64::from(m.number), 0.0))
            .collect();
        bottom.push(series);
    }
    // The title wraps to fit (svg::title_lines); the bound only tames absurd tags.
    let names = format!(
        "{} vs {}",
        shorten(&record.players[0].name, NAME_CHARS),
        shorten(&record.players[1].name, NAME_CHARS)
    );
    let tc = if record.tc_text.is_empty() {
        "?"
    } else {
        &record.tc_text
    };
    let mut panels = vec![
        Panel {
            y_label: if overlays.is_empty() {
                "time spent per move, s".to_string()
            } else {
                "time per move, s (bars: spent; lines: plans, band up to hard)".to_string()
            },
            series: top,
        },
        Panel {
            y_label: "clock left after the move, s (increment included)".to_string(),
            series: bottom,
        },
    ];
    let odds = change_odds(record, &shown);
    if !odds.is_empty() {
        panels.push(Panel {
            y_label: "P(one more depth changes the move) at the last check, %".to_string(),
            series: odds,
        });
    }
    Figure {
        title: format!("Game {}: {names}, {tc} ({})", record.index, record.result),
        caption: caption.to_string(),
        x_label: "move number".to_string(),
        panels,
        boundaries: Vec::new(),
    }
}

/// The learned soft-stop model's probability along the game, for the shown players whose
/// record has it (`pchange=` in the comments, as `watch` writes for Sandglass): how likely
/// the model thought one more depth would change the move when the search stopped. Under
/// any rule it shows which moves the search left with the question still open. Bars, one
/// per move that has odds: a move without (no soft-stop check was made) shows none, where a
/// line would join across it.
fn change_odds(record: &GameRecord, shown: &[usize]) -> Vec<Series> {
    shown
        .iter()
        .enumerate()
        .filter_map(|(slot, &i)| Some((slot, record.players.get(i)?)))
        .filter_map(|(slot, p)| {
            let points: Vec<(f64, f64)> = p
                .moves
                .iter()
                .filter_map(|m| m.p_change.map(|q| (f64::from(m.number), 100.0 * q)))
                .collect();
            let colour = if p.white { "White" } else { "Black" };
            (!points.is_empty()).then(|| Series {
                label: format!("{colour}: P(move changes)"),
                style: player_style(p.white),
                shape: Shape::Bars {
                    slot,
                    slots: shown.len(),
                },
                points,
                alarms: Vec::new(),
                emphasis: false,
            })
        })
        .collect()
}

/// Most players given their own panel in the overview.
pub const OVERVIEW_PLAYERS: usize = 2;

/// Every game's clock, one panel per player (for a match between a few players): each game
/// a thin line, the mean over the games that reached each move a thick one.
pub fn overview(records: &[GameRecord], names: &[String], caption: &str) -> Option<Figure> {
    if names.is_empty() || names.len() > OVERVIEW_PLAYERS {
        return None;
    }
    let mut panels = Vec::new();
    for name in names {
        let mut series = Vec::new();
        let mut sums: Vec<(f64, usize)> = Vec::new();
        for p in records.iter().flat_map(|g| g.players.iter()) {
            if &p.name != name || p.moves.is_empty() {
                continue;
            }
            let points: Vec<(f64, f64)> = p
                .moves
                .iter()
                .map(|m| (f64::from(m.number), s(m.clock_after_ms as f64)))
                .collect();
            for m in &p.moves {
                let i = m.number as usize;
                if sums.len() <= i {
                    sums.resize(i + 1, (0.0, 0));
                }
                sums[i].0 += s(m.clock_after_ms as f64);
                sums[i].1 += 1;
            }
            let mut style = player_style(false);
            style.colour = "#b0b0b0";
            style.dash = "";
            style.width = 1.5;
            series.push(Series::line("one game", style, points));
        }
        let mean: Vec<(f64, f64)> = sums
            .iter()
            .enumerate()
            .filter(|(_, &(_, n))| n > 0)
            .map(|(i, &(sum, n))| (i as f64, sum / n as f64))
            .collect();
        let default = Settings::default();
        let mut style = strategy_style(default.strategy().name(), default.strategy().style());
        style.colour = "#000000";
        let mut m = Series::line("mean of the games", style, mean);
        m.emphasis = true;
        series.push(m);
        panels.push(Panel {
            y_label: format!(
                "{}: clock left after the move, s",
                shorten(name, NAME_CHARS)
            ),
            series,
        });
    }
    // The page's heading already says "Clock left in every game"; the picture names whose.
    let players: Vec<String> = names.iter().map(|n| shorten(n, NAME_CHARS)).collect();
    Some(Figure {
        title: players.join(" and "),
        caption: caption.to_string(),
        x_label: "move number".to_string(),
        panels,
        boundaries: Vec::new(),
    })
}
