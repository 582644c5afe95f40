//! Checking the tuned weights and writing them as a new `params.rs`.

use crate::eval::layout;

/// Effective piece values: material plus the average piece-square bonus (pawns
/// over ranks 2-7 only). Must grow from pawn to queen in midgame and endgame.
pub(super) fn check_sane(w: &[(i32, i32)]) -> Result<(), String> {
    let psqt = [
        layout::PAWN_PSQT,
        layout::KNIGHT_PSQT,
        layout::BISHOP_PSQT,
        layout::ROOK_PSQT,
        layout::QUEEN_PSQT,
    ];
    let mut values = [(0.0, 0.0); 5];
    for (p, &offset) in psqt.iter().enumerate() {
        let squares: Vec<usize> = if p == 0 {
            (8..56).collect()
        } else {
            (0..64).collect()
        };
        let n = squares.len() as f64;
        let (mg, eg) = squares.iter().fold((0.0, 0.0), |(a, b), &sq| {
            (
                a + f64::from(w[offset + sq].0),
                b + f64::from(w[offset + sq].1),
            )
        });
        let (m, e) = w[layout::MATERIAL + p];
        values[p] = (f64::from(m) + mg / n, f64::from(e) + eg / n);
    }
    println!(
        "effective piece values (mg, eg): P {:?} N {:?} B {:?} R {:?} Q {:?}",
        values[0], values[1], values[2], values[3], values[4]
    );
    for half in 0..2 {
        let v: Vec<f64> = values
            .iter()
            .map(|&(m, e)| if half == 0 { m } else { e })
            .collect();
        let ordered =
            v[0] > 0.0 && v[0] < v[1] && v[0] < v[2] && v[1].max(v[2]) < v[3] && v[3] < v[4];
        if !ordered {
            return Err(format!(
                "tuned piece values out of order ({}): {v:?}; not written. Try --freeze MATERIAL or a larger --l2",
                if half == 0 { "midgame" } else { "endgame" }
            ));
        }
    }
    if w.iter().any(|&(m, e)| m.abs() > 3000 || e.abs() > 3000) {
        return Err("a tuned weight exceeds 3000 centipawns; not written".to_string());
    }
    Ok(())
}

/// A complete `params.rs` holding the given weights.
pub(super) fn render_params(w: &[(i32, i32)], summary: &str) -> String {
    let mut out = String::new();
    out.push_str("//! Evaluation weights: (midgame, endgame) pairs in centipawns.\n");
    out.push_str("//!\n");
    out.push_str(
        "//! Written by `sandglass tune` (src/tools/tune.rs), which also reads these values\n",
    );
    out.push_str("//! as its starting point. `eval/layout.rs` lists the groups in this order.\n");
    out.push_str(&format!("//! Last run: {summary}.\n"));
    out.push_str("\nuse super::mgeg::{s, MgEg};\n");
    for g in layout::GROUPS {
        out.push_str(&format!("\n/// {}\n", g.doc));
        let pair = |i: usize| format!("s({:>4}, {:>4})", w[g.offset + i].0, w[g.offset + i].1);
        if g.scalar {
            out.push_str(&format!("pub const {}: MgEg = {};\n", g.name, pair(0)));
        } else {
            let len = g.values.len();
            out.push_str(&format!("pub const {}: [MgEg; {len}] = [\n", g.name));
            for row in (0..len).step_by(8) {
                let items: Vec<String> = (row..(row + 8).min(len))
                    .map(|i| format!("{},", pair(i)))
                    .collect();
                out.push_str(&format!("    {}\n", items.join(" ")));
            }
            out.push_str("];\n");
        }
    }
    out
}
