//! The UCI options: their declarations (for the `uci` answer) and checked values.

use crate::time::{self, adjust::Adjustments, Settings, Strategy};
use crate::tt;

#[derive(Clone, Debug)]
enum Kind {
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    Check {
        default: bool,
    },
    Combo {
        default: &'static str,
        vars: Vec<&'static str>,
    },
    Button,
}

#[derive(Clone, Debug)]
struct Spec {
    name: &'static str,
    kind: Kind,
}

fn specs() -> Vec<Spec> {
    let spin = |name, default, min, max| Spec {
        name,
        kind: Kind::Spin { default, min, max },
    };
    let check = |name, default| Spec {
        name,
        kind: Kind::Check { default },
    };
    vec![
        spin("Hash", tt::DEFAULT_MB as i64, 1, 32_768),
        spin("Threads", 1, 1, 64),
        check("Ponder", false),
        spin("MultiPV", 1, 1, 256),
        spin("Move Overhead", time::DEFAULT_MOVE_OVERHEAD_MS, 0, 5_000),
        Spec {
            name: "Clear Hash",
            kind: Kind::Button,
        },
        Spec {
            name: "TimeManager",
            kind: Kind::Combo {
                default: "expositor",
                vars: Strategy::names().to_vec(),
            },
        },
        check("TimeLog", false),
        spin("Slow Mover", 100, 10, 1_000),
        spin("Classic Increment %", 50, 0, 100),
        check("TM SingleReply", true),
        check("TM Instability", true),
        check("TM Stability", true),
        check("TM ScoreDrop", true),
    ]
}

/// The `option name … type …` lines of the `uci` answer.
pub fn declarations() -> Vec<String> {
    specs()
        .into_iter()
        .map(|s| match s.kind {
            Kind::Spin { default, min, max } => format!(
                "option name {} type spin default {default} min {min} max {max}",
                s.name
            ),
            Kind::Check { default } => {
                format!("option name {} type check default {default}", s.name)
            }
            Kind::Combo { default, vars } => {
                let vars: String = vars.iter().map(|v| format!(" var {v}")).collect();
                format!("option name {} type combo default {default}{vars}", s.name)
            }
            Kind::Button => format!("option name {} type button", s.name),
        })
        .collect()
}

/// Current option values.
#[derive(Clone, Debug)]
pub struct Options {
    pub hash_mb: usize,
    pub threads: usize,
    pub ponder: bool,
    pub multipv: usize,
    pub move_overhead_ms: i64,
    pub time: Settings,
    pub time_log: bool,
    pub adjust: Adjustments,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mb: tt::DEFAULT_MB,
            threads: 1,
            ponder: false,
            multipv: 1,
            move_overhead_ms: time::DEFAULT_MOVE_OVERHEAD_MS,
            time: Settings::default(),
            time_log: false,
            adjust: Adjustments::default(),
        }
    }
}

/// What the engine must do after an option changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    None,
    ResizeHash,
    ClearHash,
}

impl Options {
    /// Set an option by its (case-insensitive) name. On error nothing changes.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Effect, String> {
        let spec = specs()
            .into_iter()
            .find(|s| s.name.eq_ignore_ascii_case(name.trim()))
            .ok_or_else(|| format!("unknown option '{}'", shorten(name)))?;
        let raw = value.unwrap_or("").trim();
        match &spec.kind {
            Kind::Button => {
                // "Clear Hash" is the only button.
                return Ok(Effect::ClearHash);
            }
            Kind::Spin { min, max, .. } => {
                let v: i64 = raw.parse().map_err(|_| {
                    format!(
                        "option '{}' needs an integer from {min} to {max}, got '{}'",
                        spec.name,
                        shorten(raw)
                    )
                })?;
                if v < *min || v > *max {
                    return Err(format!(
                        "option '{}' value {v} is out of range {min}..{max}",
                        spec.name
                    ));
                }
                return Ok(self.set_spin(spec.name, v));
            }
            Kind::Check { .. } => {
                let v = match raw.to_ascii_lowercase().as_str() {
                    "true" => true,
                    "false" => false,
                    _ => {
                        return Err(format!(
                            "option '{}' needs true or false, got '{}'",
                            spec.name,
                            shorten(raw)
                        ))
                    }
                };
                match spec.name {
                    "Ponder" => self.ponder = v,
                    "TimeLog" => self.time_log = v,
                    "TM SingleReply" => self.adjust.single_reply = v,
                    "TM Instability" => self.adjust.instability = v,
                    "TM Stability" => self.adjust.stability = v,
                    _ => self.adjust.score_drop = v,
                }
            }
            Kind::Combo { vars, .. } => {
                let strategy: Strategy = raw.parse().map_err(|_| {
                    format!(
                        "option '{}' must be one of {}, got '{}'",
                        spec.name,
                        vars.join(", "),
                        shorten(raw)
                    )
                })?;
                self.time.strategy = strategy;
            }
        }
        Ok(Effect::None)
    }

    fn set_spin(&mut self, name: &str, v: i64) -> Effect {
        match name {
            "Hash" => {
                self.hash_mb = v as usize;
                return Effect::ResizeHash;
            }
            "Threads" => self.threads = v as usize,
            "MultiPV" => self.multipv = v as usize,
            "Move Overhead" => self.move_overhead_ms = v,
            "Slow Mover" => self.time.slow_mover = v as f64 / 100.0,
            _ => self.time.classic_inc_fraction = v as f64 / 100.0,
        }
        Effect::None
    }
}

/// Echo at most 40 characters of untrusted text.
fn shorten(text: &str) -> String {
    let clean: String = text.chars().filter(|c| !c.is_control()).collect();
    if clean.chars().count() > 40 {
        format!("{}…", clean.chars().take(40).collect::<String>())
    } else {
        clean
    }
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
        assert_eq!(o.move_overhead_ms, 50);
        assert_eq!(o.set("Clear Hash", None), Ok(Effect::ClearHash));
        assert!(o.set("Ponder", Some("maybe")).is_err());
        assert_eq!(o.set("Ponder", Some("TRUE")), Ok(Effect::None));
        assert!(o.ponder);
        assert_eq!(o.set("TimeManager", Some("classic")), Ok(Effect::None));
        assert_eq!(o.time.strategy, Strategy::Classic);
        assert!(o.set("TimeManager", Some("fast")).is_err());
        assert!(o
            .set("Nonsense", Some("1"))
            .unwrap_err()
            .contains("unknown option"));
        assert!(o.set("TM Stability", Some("false")).is_ok());
        assert!(!o.adjust.stability);
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
    }
}
