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
//! when the first search starts; unknown names are ignored. The results are recorded in
//! `MEASUREMENTS.md`.

use once_cell::sync::Lazy;

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
}

impl Features {
    pub const NAMES: [&'static str; 15] = [
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
    };

    /// All features except those named in the comma-separated list.
    pub fn without(list: &str) -> Features {
        let mut f = Features::ALL;
        for name in list.split(',').map(str::trim) {
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
                _ => {}
            }
        }
        f
    }

    /// The features of this process.
    pub fn current() -> Features {
        static CURRENT: Lazy<Features> = Lazy::new(|| match std::env::var("SANDGLASS_ABLATE") {
            Ok(list) => Features::without(&list),
            Err(_) => Features::ALL,
        });
        *CURRENT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
