//! The simulation of `sandglass tm --tc` as text: a table of every move, a terminal chart
//! of the soft budgets, and a one-line summary per strategy.

use super::{trim_number, Simulation, TimeControl};
use std::fmt::Write as _;

/// Where two strategies share a cell.
const OVERLAP: char = '*';

/// Seconds, compactly: "9.84", "290.1", "1234".
pub(crate) fn secs(ms: f64) -> String {
    let s = ms / 1000.0;
    if s.abs() < 10.0 {
        format!("{s:.2}")
    } else if s.abs() < 1000.0 {
        format!("{s:.1}")
    } else {
        format!("{s:.0}")
    }
}

pub(super) fn describe_tc(tc: &TimeControl) -> String {
    let moves = match tc.moves {
        Some(m) => format!("{m} moves in {} s, repeating", secs(tc.base_ms as f64)),
        None => format!("base {} s", secs(tc.base_ms as f64)),
    };
    format!("{moves}, increment {} s", secs(tc.increment_ms as f64))
}

/// The per-move table.
pub fn table(sims: &[Simulation]) -> String {
    let mut out = String::new();
    let Some(first) = sims.first() else {
        return out;
    };
    let repeating = first.rows.iter().any(|r| r.moves_to_go.is_some());
    let single = sims.len() == 1;
    let mut head1 = format!("{:>5} {:>4}", "", "");
    let mut head2 = format!("{:>5} {:>4}", "move", "men");
    if repeating {
        head1.push_str(&format!(" {:>4}", ""));
        head2.push_str(&format!(" {:>4}", "mtg"));
    }
    for sim in sims {
        if single {
            head2.push_str(&format!(
                " {:>9} {:>9} {:>9} {:>10}",
                "soft s", "hard s", "spent s", "clock s"
            ));
        } else {
            head1.push_str(&format!(" {:^19}", sim.strategy));
            head2.push_str(&format!(" {:>8} {:>10}", "budget", "clock"));
        }
    }
    if !single {
        out.push_str(head1.trim_end());
        out.push('\n');
    }
    out.push_str(&head2);
    out.push('\n');
    for (i, row) in first.rows.iter().enumerate() {
        let _ = write!(out, "{:>5} {:>4}", row.number, row.men);
        if repeating {
            let _ = write!(out, " {:>4}", row.moves_to_go.unwrap_or(0));
        }
        for sim in sims {
            let Some(r) = sim.rows.get(i) else { continue };
            let mark = if r.flagged { "!" } else { " " };
            let clock = format!("{}{mark}", secs(r.clock_after_ms as f64));
            if single {
                let _ = write!(
                    out,
                    " {:>9} {:>9} {:>9} {:>10}",
                    secs(r.soft_ms as f64),
                    secs(r.hard_ms as f64),
                    secs(r.spent_ms as f64),
                    clock
                );
            } else {
                let _ = write!(out, " {:>8} {:>10}", secs(r.soft_ms as f64), clock);
            }
        }
        out.push('\n');
    }
    out
}

/// A value ≥ `x` of the form 1, 2, 2.5 or 5 × 10^k.
pub(super) fn nice_ceil(x: f64) -> f64 {
    if !(x.is_finite() && x > 0.0) {
        return 1.0;
    }
    let power = 10f64.powf(x.log10().floor());
    for m in [1.0, 2.0, 2.5, 5.0, 10.0] {
        if m * power >= x {
            return m * power;
        }
    }
    10.0 * power
}

/// A tick step giving roughly `target` ticks over `range`.
pub(super) fn nice_step(range: f64, target: f64) -> f64 {
    nice_ceil(range / target.max(1.0))
}

/// Y-axis step for six intervals above `max` seconds: (step, top = 6 × step).
pub(super) fn y_axis(max: f64) -> (f64, f64) {
    let step = nice_step(max, 6.0);
    (step, 6.0 * step)
}

pub(super) fn max_budget_s(sims: &[Simulation]) -> f64 {
    sims.iter()
        .flat_map(|s| s.rows.iter())
        .map(|r| r.soft_ms as f64 / 1000.0)
        .fold(0.0, f64::max)
}

/// The soft budgets as a terminal chart: move number across, seconds up.
pub fn chart(sims: &[Simulation]) -> String {
    // 24 steps, a label every 4 rows: six labelled intervals.
    const HEIGHT: usize = 25;
    const MAX_WIDTH: usize = 100;
    let moves = sims.iter().map(|s| s.rows.len()).max().unwrap_or(0);
    if moves == 0 {
        return String::from("(no moves to chart)\n");
    }
    let width = moves.min(MAX_WIDTH);
    let (_, top) = y_axis(max_budget_s(sims));
    let mut grid = vec![vec![' '; width]; HEIGHT];
    for sim in sims {
        let sym = sim.style.symbol;
        for (i, r) in sim.rows.iter().enumerate() {
            let col = i * width / moves;
            let frac = (r.soft_ms as f64 / 1000.0 / top).clamp(0.0, 1.0);
            let row = HEIGHT - 1 - (frac * (HEIGHT - 1) as f64).round() as usize;
            let cell = &mut grid[row][col];
            *cell = if *cell == ' ' || *cell == sym {
                sym
            } else {
                OVERLAP
            };
        }
    }
    let mut out = String::from("soft budget (s)\n");
    for (i, line) in grid.iter().enumerate() {
        let value = top * (HEIGHT - 1 - i) as f64 / (HEIGHT - 1) as f64;
        let label = if i % 4 == 0 {
            format!("{:>8}", trim_number(value))
        } else {
            " ".repeat(8)
        };
        let _ = writeln!(out, "{label} |{}", line.iter().collect::<String>());
    }
    let _ = writeln!(out, "{} +{}", " ".repeat(8), "-".repeat(width));
    // Tick labels every 10 moves.
    let mut ticks = vec![' '; width + 6];
    let step = if moves <= 100 {
        10
    } else {
        nice_step(moves as f64, 10.0) as usize
    };
    let mut m = step;
    while m <= moves {
        let col = (m - 1) * width / moves;
        for (k, ch) in m.to_string().chars().enumerate() {
            if let Some(cell) = ticks.get_mut(col + k) {
                *cell = ch;
            }
        }
        m += step.max(1);
    }
    let _ = writeln!(
        out,
        "{}  {}  move",
        " ".repeat(8),
        ticks.iter().collect::<String>().trim_end()
    );
    // The legend lists only what the chart shows.
    let shown = |c: char| grid.iter().any(|row| row.contains(&c));
    let mut legend: Vec<String> = sims
        .iter()
        .map(|s| {
            let sym = s.style.symbol;
            let hidden = if shown(sym) { "" } else { " (all under *)" };
            format!("{sym} {}{hidden}", s.strategy)
        })
        .collect();
    if shown(OVERLAP) {
        legend.push(format!("{OVERLAP} overlap"));
    }
    let _ = writeln!(out, "legend: {}", legend.join("  "));
    out
}

/// One summary line per strategy.
pub fn summary(sims: &[Simulation]) -> String {
    let mut out = String::new();
    for sim in sims {
        let spent: i64 = sim
            .rows
            .iter()
            .map(|r| r.spent_ms)
            .fold(0, i64::saturating_add);
        let end = sim.rows.last().map_or(0, |r| r.clock_after_ms);
        let lowest = sim.rows.iter().min_by_key(|r| r.clock_before_ms);
        let low = lowest.map_or(String::new(), |r| {
            format!(
                ", lowest {} s before move {}",
                secs(r.clock_before_ms as f64),
                r.number
            )
        });
        let flags = match sim.flags() {
            0 => "no flag".to_string(),
            n => {
                let first = sim.rows.iter().find(|r| r.flagged).map_or(0, |r| r.number);
                format!("FLAGGED {n}× (first at move {first})")
            }
        };
        let _ = writeln!(
            out,
            "{:<10} spent {} s in {} moves, clock at end {} s{low}; {flags}",
            sim.strategy,
            secs(spent as f64),
            sim.rows.len(),
            secs(end as f64)
        );
    }
    out
}
