//! Switches for measuring what each search technique is worth.
//!
//! Every technique is on. A developer measuring one runs a match of the normal engine
//! against the same binary with that technique off:
//!
//! ```text
//! SANDGLASS_ABLATE=lmr ./target/release/sandglass
//! ```
//!
//! The variable takes a comma-separated list of names from `Features::NAMES`. It is read once,
//! when the first search starts. A misspelt name would switch nothing off and the match would
//! measure nothing, so [`Features::requested`] tells which names were taken and which refused;
//! the program says so (on stderr for a tool, as `info string` at `uci` for the engine). The
//! results are recorded in `docs/measurements/search.md`.

use once_cell::sync::Lazy;

/// What a `SANDGLASS_ABLATE` list asked for, name by name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ablation {
    /// Names that switched a technique off.
    pub off: Vec<String>,
    /// Names of no technique: they switched nothing off.
    pub refused: Vec<String>,
}

impl Ablation {
    /// One line for the user, e.g. `SANDGLASS_ABLATE: off lmr; refused (no such technique)
    /// lrm; the names are nmp, lmr, …`.
    pub fn describe(&self) -> String {
        let list = |names: &[String]| {
            if names.is_empty() {
                "none".to_string()
            } else {
                names.join(", ")
            }
        };
        let mut text = format!("SANDGLASS_ABLATE: off {}", list(&self.off));
        if !self.refused.is_empty() {
            text += &format!(
                "; refused (no such technique) {}; the names are {}",
                list(&self.refused),
                Features::NAMES.join(", ")
            );
        }
        text
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    pub null_move: bool,
    pub lmr: bool,
    pub reverse_futility: bool,
    pub futility: bool,
    pub late_move_pruning: bool,
    pub see_pruning: bool,
    pub iir: bool,
    pub aspiration: bool,
    pub check_extension: bool,
    pub counter_move: bool,
    pub continuation_history: bool,
    pub singular_extension: bool,
    pub quiet_see_pruning: bool,
    /// Quiescence move-count pruning and recapture-only deep quiescence.
    pub qs_move_count: bool,
    /// No reverse futility right after a quiet rook or queen move that hangs the piece.
    pub rfp_sacrifice_guard: bool,
    /// No null move there either.
    pub nmp_sacrifice_guard: bool,
    /// The root's moves in the order an inner node would try them, then by the nodes their
    /// searches took (`search::root_order`); off, in generation order with the best first.
    pub root_order: bool,
    /// Correction history (`correction`) moves the static evaluation.
    pub correction_history: bool,
    /// Capture history orders captures within their SEE class.
    pub capture_history: bool,
    /// A table move far more singular than the singular margin asks is extended two plies.
    pub double_extension: bool,
    /// A table move that is not singular but whose score clears beta is searched a ply less.
    pub negative_extension: bool,
    /// Quiet moves with a poor history are pruned near the leaves.
    pub history_pruning: bool,
    /// ProbCut: a capture whose shallow search beats beta by a margin cuts the node.
    pub probcut: bool,
    /// Quiescence tries the table move first and takes the table's score, where its bound
    /// allows, for a better stand-pat.
    pub qs_tt_move: bool,
    /// A table cutoff teaches the histories: a quiet table move that cuts gains, one whose
    /// bound fails low loses.
    pub tt_cutoff_history: bool,
    /// Each node clears the killers two plies below it, so that its grandchildren start
    /// from their cousins' killers, not those of another subtree.
    pub killer_clearing: bool,
    /// A node that fails low rewards the opponent's quiet move into it.
    pub fail_low_bonus: bool,
    /// Razoring: a node far below alpha near the leaves asks quiescence whether any capture
    /// rescues it, and fails low at once if none does.
    pub razoring: bool,
    /// Only a check that does not lose the checking piece, or a discovered check, extends.
    pub safe_check_extension: bool,
    /// Futility and quiet SEE pruning read the depth left after the move's late-move
    /// reduction, and futility spares quiet moves with a good history.
    pub reduced_depth_pruning: bool,
    /// A node one move from repeating a position of the search scores at least a draw
    /// (`Position::has_upcoming_repetition`).
    pub upcoming_repetition: bool,
}

impl Features {
    pub const NAMES: [&'static str; 31] = [
        "nmp",
        "lmr",
        "rfp",
        "futility",
        "lmp",
        "see",
        "iir",
        "aspiration",
        "checkext",
        "counter",
        "conthist",
        "singular",
        "quietsee",
        "qsmovecount",
        "rfpguard",
        "corrhist",
        "capthist",
        "doubleext",
        "negext",
        "histprune",
        "probcut",
        "nmpguard",
        "rootorder",
        "qstt",
        "tthist",
        "killerclear",
        "failbonus",
        "razor",
        "safecheck",
        "lmrdepth",
        "upcoming",
    ];

    pub const ALL: Features = Features {
        null_move: true,
        lmr: true,
        reverse_futility: true,
        futility: true,
        late_move_pruning: true,
        see_pruning: true,
        iir: true,
        aspiration: true,
        check_extension: true,
        counter_move: true,
        continuation_history: true,
        singular_extension: true,
        quiet_see_pruning: true,
        qs_move_count: true,
        rfp_sacrifice_guard: true,
        correction_history: true,
        capture_history: true,
        double_extension: true,
        negative_extension: true,
        history_pruning: true,
        probcut: true,
        nmp_sacrifice_guard: true,
        root_order: true,
        qs_tt_move: true,
        tt_cutoff_history: true,
        killer_clearing: true,
        fail_low_bonus: true,
        razoring: true,
        safe_check_extension: true,
        reduced_depth_pruning: true,
        upcoming_repetition: true,
    };

    /// All features except those named in the comma-separated list.
    pub fn without(list: &str) -> Features {
        Features::parse(list).0
    }

    /// All features except those named in the comma-separated list, and which names were
    /// taken and which refused (empty items, as in `lmr,`, are neither).
    pub fn parse(list: &str) -> (Features, Ablation) {
        let mut f = Features::ALL;
        let mut ablation = Ablation::default();
        for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            match name {
                "nmp" => f.null_move = false,
                "lmr" => f.lmr = false,
                "rfp" => f.reverse_futility = false,
                "futility" => f.futility = false,
                "lmp" => f.late_move_pruning = false,
                "see" => f.see_pruning = false,
                "iir" => f.iir = false,
                "aspiration" => f.aspiration = false,
                "checkext" => f.check_extension = false,
                "counter" => f.counter_move = false,
                "conthist" => f.continuation_history = false,
                "singular" => f.singular_extension = false,
                "quietsee" => f.quiet_see_pruning = false,
                "qsmovecount" => f.qs_move_count = false,
                "rfpguard" => f.rfp_sacrifice_guard = false,
                "corrhist" => f.correction_history = false,
                "capthist" => f.capture_history = false,
                "doubleext" => f.double_extension = false,
                "negext" => f.negative_extension = false,
                "histprune" => f.history_pruning = false,
                "probcut" => f.probcut = false,
                "nmpguard" => f.nmp_sacrifice_guard = false,
                "rootorder" => f.root_order = false,
                "qstt" => f.qs_tt_move = false,
                "tthist" => f.tt_cutoff_history = false,
                "killerclear" => f.killer_clearing = false,
                "failbonus" => f.fail_low_bonus = false,
                "razor" => f.razoring = false,
                "safecheck" => f.safe_check_extension = false,
                "lmrdepth" => f.reduced_depth_pruning = false,
                "upcoming" => f.upcoming_repetition = false,
                _ => {
                    ablation.refused.push(name.to_string());
                    continue;
                }
            }
            ablation.off.push(name.to_string());
        }
        (f, ablation)
    }

    /// The features of this process.
    pub fn current() -> Features {
        CURRENT.0
    }

    /// What `SANDGLASS_ABLATE` asked for; None when it is not set. For the caller to show:
    /// the search prints nothing.
    pub fn requested() -> Option<Ablation> {
        CURRENT.1.clone()
    }
}

/// The features of this process and what the variable asked for, read once.
static CURRENT: Lazy<(Features, Option<Ablation>)> =
    Lazy::new(|| match std::env::var("SANDGLASS_ABLATE") {
        Ok(list) => {
            let (f, ablation) = Features::parse(&list);
            (f, Some(ablation))
        }
        Err(_) => (Features::ALL, None),
    });

#[cfg(test)]
mod tests {
    use super::*;

    /// A misspelt name is refused, not silently ignored (issue 38).
    #[test]
    fn unknown_names_are_refused() {
        let (f, ablation) = Features::parse("lmr, lrm,,nmp ");
        assert!(!f.lmr && !f.null_move && f.futility);
        assert_eq!(ablation.off, ["lmr", "nmp"]);
        assert_eq!(ablation.refused, ["lrm"]);
        let text = ablation.describe();
        assert!(
            text.contains("off lmr, nmp") && text.contains("refused"),
            "{text}"
        );
        assert_eq!(Features::parse("").1, Ablation::default());
    }

    #[test]
    fn names_switch_features_off() {
        assert_eq!(Features::without(""), Features::ALL);
        let f = Features::without("lmr, nmp,bogus");
        assert!(!f.lmr && !f.null_move && f.futility);
        for name in Features::NAMES {
            assert_ne!(
                Features::without(name),
                Features::ALL,
                "{name} switches nothing"
            );
        }
    }
}
