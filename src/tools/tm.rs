//! `sandglass tm`: a classroom tool for the time managers in [`crate::time`].
//!
//! * `sandglass tm --tc 300+3 [--strategy NAME|all] [--plies 160] [--use 0.6]
//!   [--overhead MS] [--lag MS] [--svg FILE]` simulates a game: each of our moves spends
//!   its soft budget × the use factor (never more than hard), plus the simulated GUI lag;
//!   the opponent's moves cost us nothing; our clock gets the increment after each move
//!   and, with `M/B` controls, the base time again after every M moves. It prints a
//!   table, a terminal chart and a summary, and flags any move that would run the clock
//!   below zero. `--svg` draws the same chart as a hand-written SVG file.
//! * `sandglass tm --pgn FILE [--game N] [--player NAME] [--strategy NAME|all|none]
//!   [--svg FILE] [--html FILE]` replays how real games spent their clocks (see `tm/`).
//! * `sandglass tm --rem` prints Ahle's fit of the expected remaining plies beside the
//!   exact log-normal value for k = 0…200.

use crate::time::strategies::lognormal;
use crate::time::{self, allocate, Clock, Game, Settings, Style};
use std::fmt::Write as _;
use std::path::PathBuf;

pub mod clocks;
pub mod figures;
pub mod html;
pub mod overlay;
pub mod replay;
pub mod summary;
pub mod svg;
mod text;

use text::describe_tc;
pub(crate) use text::secs;
pub use text::{chart, summary, table};

/// Arguments of `sandglass tm`.
#[derive(clap::Args, Debug, Clone, PartialEq)]
pub struct TmArgs {
    /// Time control in seconds: B+I (300+3), B (120), M/B (40/900) or M/B+I (40/900+5).
    #[arg(long)]
    pub tc: Option<String>,
    /// Strategy to simulate, or "all".
    #[arg(long, default_value = "expositor")]
    pub strategy: String,
    /// Length of the simulated game in plies (we play the even plies).
    #[arg(long, default_value_t = 160)]
    pub plies: u32,
    /// Share of the soft budget each move really uses (never beyond hard).
    #[arg(long = "use", default_value_t = 0.6)]
    pub use_factor: f64,
    /// Move Overhead given to the time manager, in ms.
    #[arg(long, default_value_t = time::DEFAULT_MOVE_OVERHEAD_MS)]
    pub overhead: i64,
    /// Simulated GUI/network lag charged to our clock on every move, in ms.
    #[arg(long, default_value_t = 0)]
    pub lag: i64,
    /// Also write the chart as an SVG picture to this file.
    #[arg(long)]
    pub svg: Option<PathBuf>,
    /// Print REM(k): Ahle's fit beside the exact log-normal, k = 0…200.
    #[arg(long)]
    pub rem: bool,
    /// Replay the clocks recorded in this PGN file ([%clk], mt=/tl=, fastchess, cutechess,
    /// match.py) and set the strategies' plans beside them.
    #[arg(long, conflicts_with_all = SIMULATION)]
    pub pgn: Option<PathBuf>,
    /// With --pgn: the game to show (1 = the first in the file).
    #[arg(long, requires = "pgn", conflicts_with_all = SIMULATION)]
    pub game: Option<usize>,
    /// With --pgn: only this player's games (the name as in the White/Black tag).
    #[arg(long, requires = "pgn", conflicts_with_all = SIMULATION)]
    pub player: Option<String>,
    /// With --pgn: write a one-page HTML report here.
    #[arg(long, requires = "pgn", conflicts_with_all = SIMULATION)]
    pub html: Option<PathBuf>,
}

/// The simulation's options (`--tc` and what shapes it), which a replay (`--pgn`) would
/// ignore. The replay's own options (--game, --player, --html) conflict with them as well as
/// requiring --pgn: clap waives a `requires` when an option that conflicts with the required
/// one is given (`tm --tc 300+3 --html X` ran and wrote nothing).
const SIMULATION: [&str; 5] = ["tc", "plies", "use_factor", "lag", "rem"];

/// A parsed time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Moves per period for repeating controls (`M/B`), None for sudden death.
    pub moves: Option<u32>,
    pub base_ms: i64,
    pub increment_ms: i64,
}

/// Longest base or increment accepted, in seconds (about 31 years).
const MAX_TC_SECONDS: f64 = 1e9;
/// Longest simulated game.
const MAX_PLIES: u32 = 10_000;

fn parse_seconds(text: &str, what: &str) -> Result<i64, String> {
    let t = text.trim();
    let secs: f64 = t
        .parse()
        .map_err(|_| format!("bad {what} '{t}': expected seconds, e.g. 300 or 0.1"))?;
    if !secs.is_finite() || !(0.0..=MAX_TC_SECONDS).contains(&secs) {
        return Err(format!(
            "{what} '{t}' is out of range (0 to {MAX_TC_SECONDS} s)"
        ));
    }
    Ok((secs * 1000.0).round() as i64)
}

/// Parse `B+I`, `B`, `M/B` or `M/B+I` (seconds).
pub fn parse_tc(text: &str) -> Result<TimeControl, String> {
    let text = text.trim();
    let (moves, rest) = match text.split_once('/') {
        Some((m, rest)) => {
            let m = m.trim();
            let moves: u32 = m
                .parse()
                .map_err(|_| format!("bad move count '{m}' in '{text}' (expected e.g. 40/900)"))?;
            if moves == 0 {
                return Err(format!("move count must be at least 1 in '{text}'"));
            }
            (Some(moves), rest)
        }
        None => (None, text),
    };
    let (base, inc) = match rest.split_once('+') {
        Some((b, i)) => (b, Some(i)),
        None => (rest, None),
    };
    let base_ms = parse_seconds(base, "base time")?;
    if base_ms == 0 {
        return Err(format!("base time must be positive in '{text}'"));
    }
    let increment_ms = match inc {
        Some(i) => parse_seconds(i, "increment")?,
        None => 0,
    };
    Ok(TimeControl {
        moves,
        base_ms,
        increment_ms,
    })
}

/// One of our moves in the simulation.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveRow {
    /// Our move number, from 1.
    pub number: u32,
    pub ply: u32,
    pub men: u32,
    pub moves_to_go: Option<u32>,
    pub clock_before_ms: i64,
    pub soft_ms: u64,
    pub hard_ms: u64,
    /// Thinking plus lag.
    pub spent_ms: i64,
    /// After the increment (and the refill at a control).
    pub clock_after_ms: i64,
    /// The clock would have gone below zero during this move.
    pub flagged: bool,
    pub why: String,
}

/// A simulated game for one strategy.
#[derive(Clone, Debug, PartialEq)]
pub struct Simulation {
    /// The strategy's name and how the plots draw it.
    pub strategy: &'static str,
    pub style: Style,
    pub rows: Vec<MoveRow>,
}

impl Simulation {
    pub fn flags(&self) -> usize {
        self.rows.iter().filter(|r| r.flagged).count()
    }
}

/// Men on the board at `ply`: from 32 down to 6 over the game, deterministically.
pub fn men_schedule(ply: u32, plies: u32) -> u32 {
    if plies == 0 {
        return 32;
    }
    let gone = (26.0 * f64::from(ply) / f64::from(plies)).round();
    (32.0 - gone).clamp(6.0, 32.0) as u32
}

/// Simulate one game. `use_factor` is clamped to 0…HARD_FACTOR, lag to ≥ 0.
pub fn simulate(
    settings: &Settings,
    tc: &TimeControl,
    plies: u32,
    use_factor: f64,
    overhead_ms: i64,
    lag_ms: i64,
) -> Simulation {
    let use_factor = time::finite_or(use_factor, 0.0).clamp(0.0, time::HARD_FACTOR);
    let lag = lag_ms.max(0);
    let mut clock = tc.base_ms;
    // A fresh game: a strategy that learns starts from nothing.
    let mut settings = settings.clone();
    settings.new_game();
    let mut rows = Vec::new();
    for ply in (0..plies.min(MAX_PLIES)).step_by(2) {
        let number = ply / 2 + 1;
        let moves_to_go = tc.moves.filter(|&m| m > 0).map(|m| m - (number - 1) % m);
        let men = men_schedule(ply, plies);
        let budget = allocate(
            &settings,
            &Clock {
                time_left_ms: clock,
                increment_ms: tc.increment_ms,
                moves_to_go,
                overhead_ms,
            },
            &Game {
                plies_played: ply,
                men,
            },
        );
        let think = (budget.soft_ms as f64 * use_factor)
            .min(budget.hard_ms as f64)
            .round() as u64;
        settings.record(think, budget.soft_ms);
        let spent = i64::try_from(think).unwrap_or(i64::MAX).saturating_add(lag);
        let clock_before = clock;
        let flagged = clock_before.saturating_sub(spent) < 0;
        clock = clock_before
            .saturating_sub(spent)
            .saturating_add(tc.increment_ms);
        if moves_to_go == Some(1) {
            clock = clock.saturating_add(tc.base_ms);
        }
        rows.push(MoveRow {
            number,
            ply,
            men,
            moves_to_go,
            clock_before_ms: clock_before,
            soft_ms: budget.soft_ms,
            hard_ms: budget.hard_ms,
            spent_ms: spent,
            clock_after_ms: clock,
            flagged,
            why: budget.why,
        });
    }
    Simulation {
        strategy: settings.strategy().name(),
        style: settings.strategy().style(),
        rows,
    }
}

/// The simulation as an SVG picture: budgets above, clocks below (see `tm/figures.rs`).
pub fn svg(sims: &[Simulation], title: &str, caption: &str) -> String {
    svg::render(&figures::simulation(sims, title, caption))
}

pub(super) fn trim_number(v: f64) -> String {
    let s = format!("{v:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// REM(k) from Ahle's fit beside the exact log-normal, k = 0…200.
pub fn rem_table() -> String {
    let mut out = String::from("   k     Ahle  lognormal     diff   (expected plies remaining)\n");
    for k in 0..=200 {
        let (a, l) = lognormal::compare_with_ahle(k);
        let _ = writeln!(out, "{k:>4} {a:>8.2} {l:>10.2} {:>+8.2}", l - a);
    }
    out
}

/// The strategies named by `--strategy`.
pub fn parse_strategies(text: &str) -> Result<Vec<Settings>, String> {
    if text.trim().eq_ignore_ascii_case("all") {
        return Ok(Settings::each_strategy());
    }
    text.split(',').map(Settings::with_strategy).collect()
}

/// Everything `tm --tc …` prints.
pub fn report(args: &TmArgs, tc_text: &str) -> Result<(String, Vec<Simulation>), String> {
    let tc = parse_tc(tc_text)?;
    let strategies = parse_strategies(&args.strategy)?;
    if !(args.use_factor.is_finite() && (0.0..=time::HARD_FACTOR).contains(&args.use_factor)) {
        return Err(format!(
            "--use must be between 0 and {} (got {})",
            time::HARD_FACTOR,
            args.use_factor
        ));
    }
    if args.overhead < 0 || args.lag < 0 {
        return Err("--overhead and --lag must not be negative".to_string());
    }
    if args.plies == 0 || args.plies > MAX_PLIES {
        return Err(format!("--plies must be between 1 and {MAX_PLIES}"));
    }
    let sims: Vec<Simulation> = strategies
        .iter()
        .map(|s| simulate(s, &tc, args.plies, args.use_factor, args.overhead, args.lag))
        .collect();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "tm {tc_text}: {}; overhead {} ms, lag {} ms; each move uses {} × soft (at most hard); {} plies",
        describe_tc(&tc),
        args.overhead,
        args.lag,
        args.use_factor,
        args.plies
    );
    for sim in &sims {
        if let Some(r) = sim.rows.first() {
            let _ = writeln!(out, "move 1  {}", r.why);
        }
    }
    out.push('\n');
    out.push_str(&table(&sims));
    out.push('\n');
    out.push_str(&chart(&sims));
    out.push('\n');
    out.push_str(&summary(&sims));
    Ok((out, sims))
}

/// Run `sandglass tm`.
pub fn run(args: &TmArgs) -> Result<(), String> {
    if let Some(path) = &args.pgn {
        return run_pgn(args, path);
    }
    if args.rem {
        print!("{}", rem_table());
    }
    let Some(tc_text) = args.tc.as_deref() else {
        if args.rem {
            return Ok(());
        }
        return Err("tm: give --tc (e.g. 300+3, 40/900) or --rem".to_string());
    };
    let (text, sims) = report(args, tc_text)?;
    print!("{text}");
    if let Some(path) = &args.svg {
        let tc = parse_tc(tc_text)?;
        let title = format!("How each strategy would spend {tc_text}");
        let caption = format!(
            "Simulated: {}; {} plies; each move thinks {} × its soft budget (never past hard); overhead {} ms, lag {} ms; the opponent's moves are free.{}",
            describe_tc(&tc),
            args.plies,
            args.use_factor,
            args.overhead,
            args.lag,
            if tc.moves.is_some() {
                " Dashed vertical lines: the period ends and the clock refills."
            } else {
                ""
            }
        );
        std::fs::write(path, svg(&sims, &title, &caption))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        println!("wrote {}", path.display());
    }
    Ok(())
}

/// Run `sandglass tm --pgn FILE`.
fn run_pgn(args: &TmArgs, path: &std::path::Path) -> Result<(), String> {
    let strategies = if args.strategy.trim().eq_ignore_ascii_case("none") {
        Vec::new()
    } else {
        parse_strategies(&args.strategy)?
    };
    if args.overhead < 0 {
        return Err("--overhead must not be negative".to_string());
    }
    let choice = replay::Choice {
        game: args.game,
        player: args.player.clone(),
        strategies,
        overhead_ms: args.overhead,
    };
    let file =
        std::fs::File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let name = path.display().to_string();
    let rep = replay::load(std::io::BufReader::new(file), &name, &choice)?;
    if let Some(n) = args.game {
        if rep.kept.is_empty() {
            return Err(if n == 0 || n > rep.games {
                format!("--game {n}: {name} holds games 1 to {}", rep.games)
            } else {
                let prefix = format!("game {n} ");
                let why = match rep.empty.iter().find(|g| g.starts_with(&prefix)) {
                    Some(game) => format!("{game}: no moves"),
                    None => rep
                        .problems
                        .iter()
                        .find(|p| p.starts_with(&prefix))
                        .cloned()
                        .unwrap_or_default(),
                };
                format!("--game {n} has no clock record to show: {why}")
            });
        }
    }
    if let Some(p) = &args.player {
        if rep.kept.is_empty() {
            return Err(format!(
                "--player '{p}': no game of {name} with a clock record has a White or Black tag equal to it"
            ));
        }
    }
    print!("{}", replay::text(&rep, &choice));
    if let Some(out) = &args.svg {
        let Some(first) = rep.kept.first() else {
            return Err(format!(
                "--svg: no game of {name} has a clock record to draw"
            ));
        };
        std::fs::write(out, replay::figure(first, &choice))
            .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
        println!("wrote {}", out.display());
    }
    if let Some(out) = &args.html {
        std::fs::write(out, html::page(&rep, &choice))
            .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
        println!("wrote {}", out.display());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::text::nice_ceil;
    use super::*;

    fn args(tc: &str, strategy: &str) -> TmArgs {
        TmArgs {
            tc: Some(tc.to_string()),
            strategy: strategy.to_string(),
            plies: 160,
            use_factor: 0.6,
            overhead: time::DEFAULT_MOVE_OVERHEAD_MS,
            lag: 0,
            svg: None,
            rem: false,
            pgn: None,
            game: None,
            player: None,
            html: None,
        }
    }

    #[test]
    fn tc_parser_accepts() {
        let tc = |m, b, i| TimeControl {
            moves: m,
            base_ms: b,
            increment_ms: i,
        };
        assert_eq!(parse_tc("300+3"), Ok(tc(None, 300_000, 3000)));
        assert_eq!(parse_tc(" 10 + 0.1 "), Ok(tc(None, 10_000, 100)));
        assert_eq!(parse_tc("1+0.01"), Ok(tc(None, 1000, 10)));
        assert_eq!(parse_tc("2+0"), Ok(tc(None, 2000, 0)));
        assert_eq!(parse_tc("120"), Ok(tc(None, 120_000, 0)));
        assert_eq!(parse_tc("40/900"), Ok(tc(Some(40), 900_000, 0)));
        assert_eq!(parse_tc("40/2"), Ok(tc(Some(40), 2000, 0)));
        assert_eq!(parse_tc("40/900+5"), Ok(tc(Some(40), 900_000, 5000)));
    }

    #[test]
    fn tc_parser_rejects() {
        for bad in [
            "", "abc", "300+", "+3", "40/", "/900", "0/900", "-5+1", "300+-1", "nan", "inf+1",
            "1e20", "0", "0+1", "40/900/5", "300+3+1", "4.5/900", "x/900",
        ] {
            assert!(parse_tc(bad).is_err(), "{bad:?} should be rejected");
        }
    }

    #[test]
    fn clock_never_goes_negative() {
        for tc in ["10+0.1", "300+3", "40/900", "1+0.01", "2+0", "40/2"] {
            let tc = parse_tc(tc).unwrap_or_else(|e| panic!("{e}"));
            // Games that spend the soft budget × a use factor, or the hard limit, on every
            // move. A lag as long as the overhead on *every* move is also survived where the
            // increment or a refill pays for it; in sudden death (2+0) it cannot be (80
            // moves × 10 ms is 40 % of the clock), and neither can it on top of spending 3×
            // the average move every time, so those pairs are left out.
            let mut runs = vec![(0.6, 0), (1.0, 0), (time::HARD_FACTOR, 0)];
            if tc.increment_ms >= 10 || tc.moves.is_some() {
                runs.extend([(0.6, 10), (1.0, 10)]);
            }
            for s in Settings::each_strategy() {
                for &(use_factor, lag) in &runs {
                    let sim = simulate(&s, &tc, 160, use_factor, 10, lag);
                    assert_eq!(sim.rows.len(), 80);
                    for r in &sim.rows {
                        assert!(
                            !r.flagged && r.clock_after_ms >= 0,
                            "{} {tc:?} use {use_factor} lag {lag}: move {} {r:?}",
                            s.strategy().name(),
                            r.number
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn repeating_control_refills_and_counts_down() {
        let tc = parse_tc("40/900").unwrap_or_else(|e| panic!("{e}"));
        let sim = simulate(&Settings::default(), &tc, 160, 0.6, 10, 0);
        assert_eq!(sim.rows[0].moves_to_go, Some(40));
        assert_eq!(sim.rows[39].moves_to_go, Some(1));
        assert_eq!(sim.rows[40].moves_to_go, Some(40));
        assert!(sim.rows[40].clock_before_ms > 900_000);
        // The last move before the control gets a real budget, not a crumb.
        assert!(sim.rows[39].soft_ms as f64 > 0.5 * sim.rows[39].clock_before_ms as f64);
    }

    #[test]
    fn men_go_from_32_to_6() {
        assert_eq!(men_schedule(0, 160), 32);
        assert_eq!(men_schedule(160, 160), 6);
        assert_eq!(men_schedule(80, 160), 19);
        assert_eq!(men_schedule(5, 0), 32);
    }

    #[test]
    fn report_chart_and_svg() {
        let (text, sims) = report(&args("300+3", "all"), "300+3").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(sims.len(), Settings::names().len());
        for name in Settings::names() {
            assert!(text.contains(name));
        }
        assert!(text.contains("legend: E expositor"));
        assert!(!text.contains("FLAGGED"));
        let picture = svg(&sims, "a <test> & more", "caption");
        assert!(picture.starts_with("<svg"));
        assert!(picture.trim_end().ends_with("</svg>"));
        // Budgets and clocks: one line per strategy in each panel.
        assert_eq!(picture.matches("<polyline").count(), 2 * sims.len());
        assert!(picture.contains("a &lt;test&gt; &amp; more"));
        let (one, _) =
            report(&args("40/900", "classic"), "40/900").unwrap_or_else(|e| panic!("{e}"));
        assert!(one.contains("mtg") && one.contains("soft s"));
    }

    #[test]
    fn repeating_control_pictures_mark_each_refill() {
        let (_, sims) = report(&args("40/120", "all"), "40/120").unwrap_or_else(|e| panic!("{e}"));
        let picture = svg(&sims, "40/120", "caption");
        // 80 of our moves: the refill after move 40, in both panels (the one after the last
        // move is off the picture).
        assert_eq!(picture.matches("class=\"refill\"").count(), 2, "{picture}");
        let (_, sims) = report(&args("300+3", "all"), "300+3").unwrap_or_else(|e| panic!("{e}"));
        assert!(!svg(&sims, "300+3", "caption").contains("refill"));
    }

    /// The 300+3 plan drew `lognormal` under `expositor` (within 3.6 px of its 5 px line) and
    /// listed it in the legend with no word about why it could not be found.
    #[test]
    fn the_plan_says_which_line_is_hidden() {
        let (_, sims) = report(&args("300+3", "all"), "300+3").unwrap_or_else(|e| panic!("{e}"));
        let picture = svg(&sims, "300+3", "caption");
        let entry = picture
            .split("<text class=\"entry\"")
            .find(|t| t.contains(">lognormal</text>"))
            .unwrap_or_else(|| panic!("no lognormal entry: {picture}"));
        let note: Vec<&str> = entry
            .split("<text class=\"note\"")
            .skip(1)
            .filter_map(|t| t.split('>').nth(1)?.split('<').next())
            .collect();
        assert_eq!(note.join(" "), "hidden under expositor in the top panel");
        assert_eq!(picture.matches("class=\"note\"").count(), note.len());
    }

    #[test]
    fn report_rejects_bad_arguments() {
        assert!(report(&args("300+3", "fastest"), "300+3").is_err());
        assert!(report(&args("3oo", "all"), "3oo").is_err());
        let mut a = args("300+3", "all");
        a.use_factor = f64::NAN;
        assert!(report(&a, "300+3").is_err());
        a.use_factor = 0.6;
        a.overhead = -1;
        assert!(report(&a, "300+3").is_err());
    }

    #[test]
    fn flags_are_reported() {
        let tc = parse_tc("1+0").unwrap_or_else(|e| panic!("{e}"));
        // A lag far beyond the overhead flags.
        let sim = simulate(&Settings::default(), &tc, 160, 0.6, 0, 200);
        assert!(sim.flags() > 0);
        assert!(summary(std::slice::from_ref(&sim)).contains("FLAGGED"));
        assert!(table(&[sim]).contains('!'));
    }

    #[test]
    fn rem_table_has_every_ply() {
        let t = rem_table();
        assert_eq!(t.lines().count(), 202);
        assert!(t.contains("   0    86.85      82.01    -4.84"));
    }

    #[test]
    fn nice_numbers() {
        assert_eq!(nice_ceil(7.3), 10.0);
        assert_eq!(nice_ceil(1.2), 2.0);
        assert_eq!(nice_ceil(0.0), 1.0);
        assert_eq!(nice_ceil(40.0), 50.0);
        assert_eq!(trim_number(2.5), "2.5");
        assert_eq!(trim_number(10.0), "10");
    }
}
