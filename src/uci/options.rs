//! The UCI options: one table of name, kind, range and setter, from which both the `uci`
//! declarations and `setoption` are served, so a new option is one row.
//!
//! A time strategy's own parameters (e.g. `Classic Increment %`) are declared by the
//! strategy's file (`time::strategies`) and appended to the table; so, in a `--features tune`
//! build, are the search's constants (`search::params`), as spin options for SPSA tuning.

use super::parse::echo;
use crate::eval::nnue::select::{self, EvalKind};
use crate::eval::nnue::Network;
#[cfg(feature = "tune")]
use crate::search::params::{Tunable, TUNABLES};
use crate::search::strength::{self, Strength};
use crate::tablebase::{Probing, Tablebases, MAX_MEN};
use crate::time::{
    adjust::Adjustments, soft::LEARNED_SCALE_CP, soft::NEXT_DEPTH_FACTOR, strategies::Param,
    Settings, SoftRule, DEFAULT_MOVE_OVERHEAD_MS,
};
use crate::tt;
use std::sync::Arc;

/// Current option values.
#[derive(Clone, Debug)]
pub struct Options {
    pub hash_mb: usize,
    pub threads: usize,
    pub ponder: bool,
    pub multipv: usize,
    /// `UCI_Chess960`: read FEN castling as Chess960 (Shredder-FEN or X-FEN) and write
    /// castling moves as king-takes-own-rook.
    pub chess960: bool,
    /// Strategy, its parameters and state, Slow Mover and Move Overhead.
    pub time: Settings,
    pub time_log: bool,
    pub adjust: Adjustments,
    /// `Soft Stop`: one of [`SoftRule::NAMES`].
    pub soft_stop: &'static str,
    /// `Soft Stop Factor`: F of the `2x` rule, in percent.
    pub soft_stop_factor_pct: i64,
    /// `Soft Stop Learned Scale`: κ of the `learned` rule, in centipawns.
    pub soft_stop_learned_cp: i64,
    /// `Eval`: the hand-written evaluation or the network.
    pub eval: EvalKind,
    /// The network `EvalFile` loaded (or the embedded one), used only under `Eval nnue`.
    loaded: Option<Arc<Network>>,
    /// `SyzygyPath`, as given; the engine opens it (`Effect::OpenTablebases`).
    pub syzygy_path: String,
    /// `SyzygyProbeDepth`, `SyzygyProbeLimit`, `Syzygy50MoveRule`: see `tablebase::Probing`.
    pub syzygy_probe_depth: i32,
    pub syzygy_probe_limit: u32,
    pub syzygy_50_move_rule: bool,
    /// The tables `SyzygyPath` opened, if any were usable.
    pub tablebases: Option<Arc<Tablebases>>,
    /// `UCI_LimitStrength`, `UCI_Elo` and `Skill Level`: see `search::strength`.
    pub limit_strength: bool,
    pub elo: i64,
    pub skill_level: i64,
    /// `UCI_ShowWDL`: `info … score` lines carry `wdl W D L` (`crate::wdl`).
    pub show_wdl: bool,
}

impl Options {
    /// The soft-stop rule the three options select.
    pub fn soft_rule(&self) -> SoftRule {
        SoftRule::from_options(
            self.soft_stop,
            self.soft_stop_factor_pct,
            self.soft_stop_learned_cp,
        )
        .unwrap_or_default()
    }

    /// The network the next search evaluates with, or None for the hand-written evaluation
    /// (`Eval classical`, or `Eval nnue` before any network is loaded).
    pub fn network(&self) -> Option<Arc<Network>> {
        self.eval.network(self.loaded.clone())
    }

    /// `Eval`. The choice is kept even when no network is loaded or embedded yet (GUIs may
    /// send `Eval` before `EvalFile`): the warning says searches evaluate by hand until
    /// `EvalFile` loads one.
    fn set_eval(&mut self, kind: EvalKind) -> Effect {
        self.eval = kind;
        if kind == EvalKind::Nnue && self.loaded.is_none() {
            self.loaded = select::embedded();
            if self.loaded.is_none() {
                return Effect::Warn(
                    "no network loaded and none embedded: set EvalFile; using the classical evaluation until then"
                        .to_string(),
                );
            }
        }
        Effect::None
    }

    /// The strength limit the next search plays at; None for full strength.
    pub fn strength(&self) -> Option<Strength> {
        Strength::from_options(self.limit_strength, self.elo, self.skill_level)
    }

    /// How the next search probes the tables; None without tables or with
    /// `SyzygyProbeLimit 0`.
    pub fn probing(&self) -> Option<Probing> {
        let tables = self.tablebases.clone()?;
        (self.syzygy_probe_limit > 0).then_some(Probing {
            tables,
            depth: self.syzygy_probe_depth,
            limit: self.syzygy_probe_limit,
            rule50: self.syzygy_50_move_rule,
        })
    }

    /// `EvalFile`: takes effect at once if the network is already chosen. An empty path or
    /// `<embedded>` goes back to the embedded network; on error nothing changes.
    fn set_eval_file(&mut self, path: &str) -> Result<Effect, String> {
        self.loaded = select::load_file(path).map_err(|e| format!("{}: {e}", echo(path)))?;
        Ok(Effect::None)
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mb: tt::DEFAULT_MB,
            threads: 1,
            ponder: false,
            multipv: 1,
            chess960: false,
            time: Settings::default(),
            time_log: false,
            adjust: Adjustments::default(),
            soft_stop: SoftRule::NAMES[0],
            soft_stop_factor_pct: (NEXT_DEPTH_FACTOR * 100.0) as i64,
            soft_stop_learned_cp: LEARNED_SCALE_CP as i64,
            eval: select::DEFAULT_EVAL,
            loaded: select::embedded(),
            syzygy_path: "<empty>".to_string(),
            syzygy_probe_depth: 1,
            syzygy_probe_limit: MAX_MEN,
            syzygy_50_move_rule: true,
            tablebases: None,
            limit_strength: false,
            elo: strength::MIN_ELO,
            skill_level: strength::MAX_SKILL,
            show_wdl: false,
        }
    }
}

/// What the engine must do after an option changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    None,
    ResizeHash,
    ClearHash,
    /// `SyzygyPath` changed: close the tables and open the new path's. Like the hash table,
    /// they are shared with a running search, so this waits for its answer.
    OpenTablebases,
    /// The value is kept, but the GUI should hear this (`info string error: …`).
    Warn(String),
}

/// An option's type, range and default, and the setter that applies a checked value.
enum Kind {
    Spin {
        default: i64,
        min: i64,
        max: i64,
        set: fn(&mut Options, i64) -> Effect,
    },
    Check {
        default: bool,
        set: fn(&mut Options, bool),
    },
    Combo {
        default: &'static str,
        vars: Vec<&'static str>,
        set: fn(&mut Options, &str) -> Result<Effect, String>,
    },
    Button {
        effect: Effect,
    },
    /// A free text (UCI `string`), e.g. a file name.
    Text {
        default: &'static str,
        set: fn(&mut Options, &str) -> Result<Effect, String>,
    },
    /// A spin that sets a time strategy's parameter.
    StrategyParam(Param),
    /// A spin that sets one of the search's constants. Unlike every other option it is the
    /// process's, not this `Options`'s: the search reads the constants from one place.
    #[cfg(feature = "tune")]
    SearchParam(&'static Tunable),
}

struct Spec {
    name: &'static str,
    kind: Kind,
}

fn spin(
    name: &'static str,
    default: i64,
    range: (i64, i64),
    set: fn(&mut Options, i64) -> Effect,
) -> Spec {
    let (min, max) = range;
    Spec {
        name,
        kind: Kind::Spin {
            default,
            min,
            max,
            set,
        },
    }
}

fn check(name: &'static str, default: bool, set: fn(&mut Options, bool)) -> Spec {
    Spec {
        name,
        kind: Kind::Check { default, set },
    }
}

/// The table, in the order the `uci` answer lists it.
fn specs() -> Vec<Spec> {
    let strategies = Settings::names();
    let mut table = vec![
        spin(
            "Hash",
            tt::DEFAULT_MB as i64,
            (1, tt::MAX_MB as i64),
            |o, v| {
                o.hash_mb = v as usize;
                Effect::ResizeHash
            },
        ),
        spin("Threads", 1, (1, 64), |o, v| {
            o.threads = v as usize;
            Effect::None
        }),
        check("Ponder", false, |o, v| {
            o.ponder = v;
            o.time.ponder = v;
        }),
        spin("MultiPV", 1, (1, 256), |o, v| {
            o.multipv = v as usize;
            Effect::None
        }),
        check("UCI_Chess960", false, |o, v| o.chess960 = v),
        spin(
            "Skill Level",
            strength::MAX_SKILL,
            (0, strength::MAX_SKILL),
            |o, v| {
                o.skill_level = v;
                Effect::None
            },
        ),
        check("UCI_LimitStrength", false, |o, v| o.limit_strength = v),
        spin(
            "UCI_Elo",
            strength::MIN_ELO,
            (strength::MIN_ELO, strength::MAX_ELO),
            |o, v| {
                o.elo = v;
                Effect::None
            },
        ),
        check("UCI_ShowWDL", false, |o, v| o.show_wdl = v),
        spin(
            "Move Overhead",
            DEFAULT_MOVE_OVERHEAD_MS,
            (0, 5_000),
            |o, v| {
                o.time.move_overhead_ms = v;
                Effect::None
            },
        ),
        Spec {
            name: "Clear Hash",
            kind: Kind::Button {
                effect: Effect::ClearHash,
            },
        },
        Spec {
            name: "TimeManager",
            kind: Kind::Combo {
                default: strategies[0],
                vars: strategies,
                set: |o, v| o.time.select(v).map(|()| Effect::None),
            },
        },
        check("TimeLog", false, |o, v| o.time_log = v),
        Spec {
            name: "Eval",
            kind: Kind::Combo {
                default: select::DEFAULT_EVAL.name(),
                vars: EvalKind::ALL.iter().map(|k| k.name()).collect(),
                set: |o, v| {
                    // `v` is one of the names (checked before `set` runs).
                    let kind = EvalKind::ALL
                        .into_iter()
                        .find(|k| v.eq_ignore_ascii_case(k.name()))
                        .unwrap_or(EvalKind::Classical);
                    Ok(o.set_eval(kind))
                },
            },
        },
        Spec {
            name: "EvalFile",
            kind: Kind::Text {
                default: "<embedded>",
                set: |o, v| o.set_eval_file(v),
            },
        },
        Spec {
            name: "SyzygyPath",
            kind: Kind::Text {
                default: "<empty>",
                set: |o, v| {
                    o.syzygy_path = v.to_string();
                    Ok(Effect::OpenTablebases)
                },
            },
        },
        spin("SyzygyProbeDepth", 1, (1, 100), |o, v| {
            o.syzygy_probe_depth = v as i32;
            Effect::None
        }),
        check("Syzygy50MoveRule", true, |o, v| o.syzygy_50_move_rule = v),
        spin(
            "SyzygyProbeLimit",
            i64::from(MAX_MEN),
            (0, i64::from(MAX_MEN)),
            |o, v| {
                o.syzygy_probe_limit = v as u32;
                Effect::None
            },
        ),
        spin("Slow Mover", 100, (10, 1_000), |o, v| {
            o.time.slow_mover = v as f64 / 100.0;
            Effect::None
        }),
    ];
    table.extend(Settings::params().into_iter().map(|p| Spec {
        name: p.name,
        kind: Kind::StrategyParam(p),
    }));
    table.extend([
        check("TM SingleReply", true, |o, v| o.adjust.single_reply = v),
        check("TM Instability", true, |o, v| o.adjust.instability = v),
        check("TM Stability", true, |o, v| o.adjust.stability = v),
        check("TM ScoreDrop", true, |o, v| o.adjust.score_drop = v),
        check("TM NodeFraction", true, |o, v| o.adjust.node_fraction = v),
        Spec {
            name: "Soft Stop",
            kind: Kind::Combo {
                default: SoftRule::NAMES[0],
                vars: SoftRule::NAMES.to_vec(),
                set: |o, v| {
                    let wanted = v.trim();
                    match SoftRule::NAMES
                        .iter()
                        .find(|n| n.eq_ignore_ascii_case(wanted))
                    {
                        Some(n) => {
                            o.soft_stop = n;
                            Ok(Effect::None)
                        }
                        None => Err(format!("unknown soft stop rule '{wanted}'")),
                    }
                },
            },
        },
        spin(
            "Soft Stop Factor",
            (NEXT_DEPTH_FACTOR * 100.0) as i64,
            (100, 500),
            |o, v| {
                o.soft_stop_factor_pct = v;
                Effect::None
            },
        ),
        spin(
            "Soft Stop Learned Scale",
            LEARNED_SCALE_CP as i64,
            (0, 100),
            |o, v| {
                o.soft_stop_learned_cp = v;
                Effect::None
            },
        ),
    ]);
    #[cfg(feature = "tune")]
    table.extend(TUNABLES.iter().map(|t| Spec {
        name: t.name,
        kind: Kind::SearchParam(t),
    }));
    table
}

/// The `option name … type …` lines of the `uci` answer.
pub fn declarations() -> Vec<String> {
    specs()
        .into_iter()
        .map(|s| match s.kind {
            Kind::Spin {
                default, min, max, ..
            }
            | Kind::StrategyParam(Param {
                default, min, max, ..
            }) => format!(
                "option name {} type spin default {default} min {min} max {max}",
                s.name
            ),
            #[cfg(feature = "tune")]
            Kind::SearchParam(t) => format!(
                "option name {} type spin default {} min {} max {}",
                s.name, t.default, t.min, t.max
            ),
            Kind::Check { default, .. } => {
                format!("option name {} type check default {default}", s.name)
            }
            Kind::Combo { default, vars, .. } => {
                let vars: String = vars.iter().map(|v| format!(" var {v}")).collect();
                format!("option name {} type combo default {default}{vars}", s.name)
            }
            Kind::Button { .. } => format!("option name {} type button", s.name),
            Kind::Text { default, .. } => {
                format!("option name {} type string default {default}", s.name)
            }
        })
        .collect()
}

impl Options {
    /// Set an option by its (case-insensitive) name. On error nothing changes; a value kept
    /// with something to say comes back as [`Effect::Warn`].
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Effect, String> {
        let spec = specs()
            .into_iter()
            .find(|s| s.name.eq_ignore_ascii_case(name.trim()))
            .ok_or_else(|| format!("unknown option '{}'", echo(name)))?;
        let raw = value.unwrap_or("").trim();
        match spec.kind {
            Kind::Button { effect } => Ok(effect),
            Kind::Spin { min, max, set, .. } => {
                let v = read_spin(spec.name, raw, min, max)?;
                Ok(set(self, v))
            }
            Kind::StrategyParam(p) => {
                let v = read_spin(spec.name, raw, p.min, p.max)?;
                self.time.set_param(p.name, v);
                Ok(Effect::None)
            }
            #[cfg(feature = "tune")]
            Kind::SearchParam(t) => {
                let v = read_spin(spec.name, raw, t.min.into(), t.max.into())?;
                // Within an i32 range: `read_spin` checked it.
                t.set(v as i32);
                Ok(Effect::None)
            }
            Kind::Check { set, .. } => {
                let v = match raw.to_ascii_lowercase().as_str() {
                    "true" => true,
                    "false" => false,
                    _ => {
                        return Err(format!(
                            "option '{}' needs true or false, got '{}'",
                            spec.name,
                            echo(raw)
                        ))
                    }
                };
                set(self, v);
                Ok(Effect::None)
            }
            Kind::Combo { vars, set, .. } => {
                if !vars.iter().any(|v| v.eq_ignore_ascii_case(raw)) {
                    return Err(format!(
                        "option '{}' must be one of {}, got '{}'",
                        spec.name,
                        vars.join(", "),
                        echo(raw)
                    ));
                }
                // A value from the list; the setter may still have something to say (Eval
                // nnue with no network loaded yet is kept, and reported).
                named(spec.name, set(self, raw))
            }
            Kind::Text { set, .. } => named(spec.name, set(self, raw)),
        }
    }
}

/// A setter's result with its messages naming the option.
fn named(name: &str, result: Result<Effect, String>) -> Result<Effect, String> {
    match result {
        Ok(Effect::Warn(w)) => Ok(Effect::Warn(format!("option '{name}': {w}"))),
        Ok(effect) => Ok(effect),
        Err(e) => Err(format!("option '{name}': {e}")),
    }
}

/// An integer within `min..=max`, or the message saying why not.
fn read_spin(name: &str, raw: &str, min: i64, max: i64) -> Result<i64, String> {
    let v: i64 = raw.parse().map_err(|_| {
        format!(
            "option '{name}' needs an integer from {min} to {max}, got '{}'",
            echo(raw)
        )
    })?;
    if v < min || v > max {
        return Err(format!(
            "option '{name}' value {v} is out of range {min}..{max}"
        ));
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_checked() {
        let mut o = Options::default();
        assert_eq!(o.set("hash", Some("64")), Ok(Effect::ResizeHash));
        assert_eq!(o.hash_mb, 64);
        assert!(o.set("Hash", Some("0")).is_err());
        assert!(o.set("Hash", Some("-5")).is_err());
        assert!(o.set("Hash", Some("lots")).is_err());
        assert_eq!(o.hash_mb, 64, "a bad value changed the option");
        assert!(o.set("Hash", None).is_err());
        assert_eq!(o.set("move overhead", Some("50")), Ok(Effect::None));
        assert_eq!(o.time.move_overhead_ms, 50);
        assert_eq!(o.set("Clear Hash", None), Ok(Effect::ClearHash));
        assert!(o.set("Ponder", Some("maybe")).is_err());
        assert_eq!(o.set("Ponder", Some("TRUE")), Ok(Effect::None));
        assert!(o.ponder);
        assert_eq!(o.set("TimeManager", Some("classic")), Ok(Effect::None));
        assert_eq!(o.time.strategy().name(), "classic");
        assert!(o.set("TimeManager", Some("fast")).is_err());
        assert!(o
            .set("Nonsense", Some("1"))
            .unwrap_err()
            .contains("unknown option"));
        assert!(o.set("TM Stability", Some("false")).is_ok());
        assert!(!o.adjust.stability);
        assert!(o.set("TM NodeFraction", Some("false")).is_ok());
        assert!(!o.adjust.node_fraction);
        assert_eq!(o.soft_rule(), SoftRule::Factor(2.0));
        assert!(o.set("Soft Stop", Some("Predicted")).is_ok());
        assert_eq!(o.soft_rule(), SoftRule::Predicted);
        assert!(o.set("Soft Stop", Some("3x")).is_err());
        assert!(o.set("Soft Stop", Some("2x")).is_ok());
        assert!(o.set("Soft Stop Factor", Some("150")).is_ok());
        assert_eq!(o.soft_rule(), SoftRule::Factor(1.5));
        assert!(o.set("Soft Stop Factor", Some("99")).is_err());
        assert!(o.set("Soft Stop", Some("LEARNED")).is_ok());
        assert_eq!(o.soft_rule(), SoftRule::Learned(LEARNED_SCALE_CP));
        assert!(o.set("Soft Stop Learned Scale", Some("12")).is_ok());
        assert_eq!(o.soft_rule(), SoftRule::Learned(12.0));
        assert!(o.set("Soft Stop Learned Scale", Some("-1")).is_err());
        assert!(o.time.ponder, "Ponder also tells the time manager");
    }

    #[test]
    fn every_declared_option_takes_its_default() {
        // Each row's setter must accept the value the row declares as its default: a row
        // whose setter wrote another option, or none, would be caught by the next test.
        for line in declarations() {
            let rest = line.trim_start_matches("option name ");
            let (name, kind) = rest.split_once(" type ").expect("declaration shape");
            let default = kind.split(" default ").nth(1).map(|d| {
                d.split(" min ")
                    .next()
                    .and_then(|d| d.split(" var ").next())
                    .unwrap_or(d)
                    .to_string()
            });
            let mut o = Options::default();
            assert!(o.set(name, default.as_deref()).is_ok(), "{line}");
        }
    }

    #[test]
    fn eval_file_errors_say_why() {
        let mut o = Options::default();
        let e = o.set("EvalFile", Some("/no/such/net.nnue")).unwrap_err();
        assert!(e.contains("EvalFile") && e.contains("cannot read"), "{e}");
        assert!(o.set("Eval", Some("tables")).is_err());
        assert!(o.set("Eval", Some("classical")).is_ok());
    }

    #[test]
    fn eval_choice_is_each_options_own() {
        let mut chosen = Options::default();
        assert_eq!(chosen.eval, select::DEFAULT_EVAL);
        assert_eq!(chosen.set("Eval", Some("classical")), Ok(Effect::None));
        assert!(chosen.network().is_none());
        // Eval before EvalFile: kept, and without an embedded network the warning says what
        // searches do meanwhile.
        let warned = chosen.set("Eval", Some("NNUE"));
        if select::embedded().is_none() {
            assert_eq!(
                warned,
                Ok(Effect::Warn(
                    "option 'Eval': no network loaded and none embedded: set EvalFile; using the classical evaluation until then"
                        .to_string()
                ))
            );
            assert!(chosen.network().is_none());
        }
        assert_eq!(chosen.eval, EvalKind::Nnue);
        let mut net = Network::zeroed();
        net.outputs[0].bias = 777;
        let path = std::env::temp_dir().join(format!(
            "sandglass-options-test-{}.nnue",
            std::process::id()
        ));
        std::fs::write(&path, net.to_bytes()).expect("temp file");
        let loaded = chosen.set("EvalFile", path.to_str());
        let _ = std::fs::remove_file(&path);
        assert_eq!(loaded, Ok(Effect::None));
        let in_use = chosen.network().map(|n| n.outputs[0].bias);
        assert_eq!(in_use, Some(777), "EvalFile takes effect at once");
        // Another set of options, in the same process, still has its own network.
        assert_ne!(
            Options::default().network().map(|n| n.outputs[0].bias),
            Some(777)
        );
        // A failed load changes nothing.
        assert!(chosen.set("EvalFile", Some("/no/such/net.nnue")).is_err());
        assert_eq!(chosen.network().map(|n| n.outputs[0].bias), Some(777));
        assert_eq!(chosen.set("Eval", Some("classical")), Ok(Effect::None));
        assert!(chosen.network().is_none());
        assert_eq!(chosen.set("Eval", Some("nnue")), Ok(Effect::None));
        assert_eq!(chosen.network().map(|n| n.outputs[0].bias), Some(777));
        // Back to the embedded network, which this build may not have.
        assert!(chosen.set("EvalFile", Some("<embedded>")).is_ok());
        assert_eq!(chosen.network().is_some(), select::embedded().is_some());
    }

    #[test]
    fn each_setter_writes_its_own_option() {
        let mut o = Options::default();
        o.set("Slow Mover", Some("150")).unwrap();
        o.set("Classic Increment %", Some("75")).unwrap();
        o.set("Threads", Some("3")).unwrap();
        o.set("MultiPV", Some("4")).unwrap();
        o.set("TM ScoreDrop", Some("false")).unwrap();
        assert_eq!(o.time.slow_mover, 1.5);
        assert_eq!((o.threads, o.multipv), (3, 4));
        assert!(!o.adjust.score_drop && o.adjust.stability);
        assert_eq!(o.hash_mb, tt::DEFAULT_MB);
        assert_eq!(o.time.move_overhead_ms, DEFAULT_MOVE_OVERHEAD_MS);
        let classic = crate::time::Settings::with_strategy("classic").unwrap();
        let mut chosen = o.time.clone();
        chosen.select("classic").unwrap();
        let clock = crate::time::Clock {
            time_left_ms: 180_000,
            increment_ms: 2000,
            moves_to_go: None,
            overhead_ms: 0,
        };
        let game = crate::time::Game::default();
        // 75 % of the increment instead of 50 %, times Slow Mover 1.5.
        let with = crate::time::allocate(&chosen, &clock, &game).soft_ms as f64;
        let plain = crate::time::allocate(&classic, &clock, &game).soft_ms as f64;
        assert!(
            (with / plain - 1.5 * 6000.0 / 5500.0).abs() < 0.01,
            "{with} vs {plain}"
        );
    }

    #[test]
    fn declarations_cover_every_option() {
        let d = declarations();
        assert!(d
            .iter()
            .any(|l| l == "option name Hash type spin default 16 min 1 max 32768"));
        assert!(d.iter().any(
            |l| l.starts_with("option name TimeManager type combo default expositor var expositor")
        ));
        assert!(d.iter().any(|l| l == "option name Clear Hash type button"));
        assert!(d
            .iter()
            .any(|l| l == "option name SyzygyPath type string default <empty>"));
        assert!(d
            .iter()
            .any(|l| l == "option name SyzygyProbeLimit type spin default 7 min 0 max 7"));
    }

    /// A `tune` build offers each search constant as a spin option: a value in range is what
    /// the search reads next, one outside it or not a number is refused and changes nothing.
    #[cfg(feature = "tune")]
    #[test]
    fn search_constants_are_spin_options() {
        use crate::search::params::{self, find};
        let d = declarations();
        for t in TUNABLES {
            let line = format!(
                "option name {} type spin default {} min {} max {}",
                t.name, t.default, t.min, t.max
            );
            assert!(d.contains(&line), "{line}");
        }
        // DoubleExtMargin is read by singular extensions alone; the searches of other tests
        // running meanwhile would seldom meet the value, and it is put back at once.
        let t = find("DoubleExtMargin").expect("in the table");
        let mut o = Options::default();
        let changed = t.default + 1;
        assert_eq!(
            o.set("doubleextmargin", Some(changed.to_string().as_str())),
            Ok(Effect::None)
        );
        assert_eq!((t.value(), params::double_ext_margin()), (changed, changed));
        for bad in [t.max + 1, t.min - 1] {
            let e = o
                .set("DoubleExtMargin", Some(bad.to_string().as_str()))
                .unwrap_err();
            assert!(e.contains("out of range"), "{e}");
        }
        assert!(o.set("DoubleExtMargin", Some("wide")).is_err());
        assert_eq!(
            params::double_ext_margin(),
            changed,
            "a refused value changed it"
        );
        assert!(o
            .set("DoubleExtMargin", Some(t.default.to_string().as_str()))
            .is_ok());
        assert_eq!(params::double_ext_margin(), t.default);
    }

    /// The Syzygy options are checked as every option is; the path itself is only recorded
    /// here, for the engine to open.
    #[test]
    fn syzygy_options_are_checked() {
        let mut o = Options::default();
        assert_eq!(
            o.set("SyzygyPath", Some("tables")),
            Ok(Effect::OpenTablebases)
        );
        assert_eq!(o.syzygy_path, "tables");
        assert!(o.set("SyzygyProbeDepth", Some("0")).is_err());
        assert!(o.set("SyzygyProbeLimit", Some("8")).is_err());
        assert!(o.set("Syzygy50MoveRule", Some("perhaps")).is_err());
        assert_eq!(o.set("SyzygyProbeDepth", Some("5")), Ok(Effect::None));
        assert_eq!(o.set("Syzygy50MoveRule", Some("false")), Ok(Effect::None));
        assert_eq!((o.syzygy_probe_depth, o.syzygy_50_move_rule), (5, false));
        assert!(o.probing().is_none(), "no tables are open");
    }
}
