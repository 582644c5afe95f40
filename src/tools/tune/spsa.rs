//! `sandglass tune --spsa-params`: the search's tunable constants (`search::params`) in
//! OpenBench's SPSA input format, one parameter a line:
//!
//! ```text
//! NAME, int, DEFAULT, MIN, MAX, C_END, R_END
//! ```
//!
//! the seven comma-separated fields OpenBench's tune form reads (AndyGrant/OpenBench,
//! `OpenBench/workloads/verify_workload.py`, `verify_spsa_inputs`: type `int` or `float`,
//! `MIN <= DEFAULT <= MAX`, `C_END >= 0.5` for an `int`, `R_END > 0`) and writes back as a
//! run's original input (`OpenBench/spsa_utils.py`, `spsa_original_input`, fields joined by
//! `", "`). `tools/tm_spsa.py run --params-from-engine` reads the same lines.

use crate::search::params::{Tunable, R_END, TUNABLES};

/// The line of one parameter.
pub fn line(t: &Tunable) -> String {
    format!(
        "{}, int, {}, {}, {}, {}, {}",
        t.name, t.default, t.min, t.max, t.step, R_END
    )
}

/// Every parameter's line, in the table's order.
pub fn lines() -> Vec<String> {
    TUNABLES.iter().map(line).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_openbenchs_format() {
        let t = crate::search::params::find("RfpMargin").expect("in the table");
        assert_eq!(line(t), "RfpMargin, int, 75, 30, 150, 6, 0.002");
        let t = crate::search::params::find("LmrMinDepth").expect("in the table");
        assert_eq!(line(t), "LmrMinDepth, int, 3, 2, 5, 0.5, 0.002");
        assert_eq!(lines().len(), TUNABLES.len());
    }
}
