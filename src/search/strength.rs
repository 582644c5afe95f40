//! Playing weaker on purpose: `UCI_LimitStrength`, `UCI_Elo` and `Skill Level`.
//!
//! Everything the strength limit does is decided here; the search, the engine and the
//! options only call in. With the limit off nothing here runs, and the engine searches and
//! answers exactly as before (`tests/strength.rs` checks it through the UCI loop; `bench`,
//! which never sets the limit, keeps its node count).
//!
//! # What a weaker engine should look like
//!
//! A GUI's user who asks for 1800 wants an opponent that plays like a club player, not a
//! grandmaster who throws a piece away every tenth move. What the engines that do this well
//! have learnt (Stockfish's skill handicap, Rodent's `EvalBlur` and `NpsLimit`, MadChess's
//! `LimitStrength`) comes down to four levers, all used here, all from one internal level
//! `s` between 0 (the weakest setting) and 1 (the strongest):
//!
//! 1. **A smaller search.** The search gets a node budget, [`Strength::nodes`], growing
//!    geometrically with `s` (each doubling of nodes is worth about the same number of Elo
//!    points), and none at all at the top. A node budget, unlike a slower clock, does not
//!    depend on the machine, and it makes the strength of a setting nearly independent of
//!    the time control, as Stockfish's own setting is (it picks its move at a fixed depth,
//!    `1 + level`). The search then runs alone (`go nodes` is exact only with one thread).
//! 2. **Less knowledge.** Every static evaluation is blurred by a pseudo-random amount of up
//!    to ± [`Strength::blur_cp`], taken from the position's key (Rodent III adds
//!    `eval_blur / 2 − (key mod eval_blur)` in the same way): the same position always gets
//!    the same error, so the engine never contradicts itself when a position comes back, and
//!    the table stays consistent. The blur shrinks to nothing at the top. A search at another
//!    strength, full strength included, starts from an empty table and empty histories (the
//!    engine clears them, as `ucinewgame` does), so no blurred entry outlives its setting.
//! 3. **Errors among plausible moves only.** The search scores [`LINES`] root moves (as
//!    Stockfish's handicap does, with MultiPV 4), and the move played is drawn, again from
//!    the position's key, among those whose score is within [`Strength::margin_cp`] of the
//!    best, the better ones more likely. The margin grows as the setting falls; where it is
//!    too small to matter the search scores one line, as at full strength. Rarely
//!    ([`Strength::blunder_per_mille`], none in the upper half) the margin widens to
//!    [`Strength::blunder_margin_cp`]: a real blunder, as MadChess makes with its
//!    `blunderPer1024`. A won or lost position (a mate or a tablebase result) is played
//!    straight, so a won game is still won.
//!
//! A bare king against mating material (`eval::mopup`) is played straight too, within the
//! same node budget and think time: no blur and no choice among lines. Its evaluation is a
//! gradient towards the mate, and an error there is not a plausible move but a step back,
//! which a few of them turn into a draw by repetition or the fifty-move rule (issue 106).
//! A weaker setting may mate more slowly, from its smaller search; it does not throw the
//! ending away.
//! 4. **A human-looking time.** A person neither answers at once nor thinks to the last
//!    second. A move is not answered before a share of the time manager's soft budget (or
//!    of the `movetime`) has passed, [`Strength::think_share`]: between 30 % and 60 % of it,
//!    by the position's key; the search is not asked to stop sooner than it would. The
//!    time manager is untouched: its budget and hard limit stay as they were, and at the
//!    upper settings, where the search itself takes that long, there is nothing to wait
//!    for. Without a clock (`go depth`, `go nodes`, `go infinite`) there is no wait.
//!
//! # The scale
//!
//! `UCI_Elo` takes Stockfish 15.1's range, 1350 to 2850, and its scale: a setting means the
//! strength of Stockfish 15.1 at the same `UCI_Elo`. Stockfish calibrated its setting at
//! 60+0.6 against CCRL 40/4 anchors; Sandglass's is calibrated by games against Stockfish
//! 15.1 itself at 10+0.1: the table [`CURVE`] maps a setting to the level `s`, and
//! docs/measurements/strength-limit.md holds the games behind it. Full strength is the top
//! of the curve: at 10+0.1 Sandglass at full strength plays like Stockfish 15.1 at about
//! 2680 (it scores 27.5 % against 2850, MEASUREMENTS.md), so settings from 2680 up play at
//! full strength and cannot reach what they claim at that control.
//! `Skill Level` 0–20 maps onto the same scale through Stockfish's own formula
//! ([`skill_elo`]); level 20, the default, is full strength.
//!
//! # Determinism
//!
//! Every choice is a function of the position's key and the setting ([`mix`]), never of a
//! clock or a global generator: the same position with the same settings and the same node
//! budget gives the same move.

use super::Limits;
use crate::eval::mopup;
use crate::score::is_decisive;
use crate::time::{Answer, Mode, TimeLimit};
use chess::Board;
use std::time::Duration;

/// The lowest `UCI_Elo`, and its default (Stockfish 15.1's).
pub const MIN_ELO: i64 = 1350;
/// The highest `UCI_Elo` (Stockfish 15.1's).
pub const MAX_ELO: i64 = 2850;
/// `Skill Level` runs from 0 to this; this (the default) is full strength.
pub const MAX_SKILL: i64 = 20;
/// Root moves the limited search scores, to choose among (Stockfish's handicap uses 4).
pub const LINES: usize = 4;

/// `UCI_Elo` against the internal level `s`, read by linear interpolation between the
/// points, fitted to games against Stockfish 15.1 at 10+0.1
/// (docs/measurements/strength-limit.md). The first curve through s = 0.20 at 1400, 0.52 at
/// 2200 and 0.83 at 2600 played about 1240, 1600 and 2560 (16 games each), and full strength
/// plays about 2680: the second curve went through those points, read the other way round.
/// Its 1800 (s = 0.58) played about 2090 (32 games, +293 Elo), and 1400 (s = 0.325) about
/// 1470: 1800 went to s = 0.46, between the two. With more games (2026-12-04), 1400 at
/// s = 0.325 played about 1515 (144 games, +115 ± 51) and 2600 at s = 0.89 about 2500 (112
/// games, −102 ± 49), while 1800 and 2200 held: 1400 went down to s = 0.275 (1350 with it,
/// to 0.25) and 2600 up to 0.95, each read off the slope to its measured neighbours.
pub const CURVE: [(i64, f64); 7] = [
    (MIN_ELO, 0.25),
    (1400, 0.275),
    (1800, 0.46),
    (2200, 0.745),
    (2600, 0.95),
    (2680, 1.0),
    (MAX_ELO, 1.0),
];

/// A strength limit: the `UCI_Elo` it plays at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    elo: i64,
    /// Set for a root in a lone-king ending: the budget and the think time stay, the errors
    /// go (see the module doc).
    straight: bool,
}

/// The Elo of a `Skill Level`, by Stockfish 15.1's own mapping: its `Skill` turns `UCI_Elo`
/// into a level as `level = ((elo − 1346.6) / 143.4)^(1 / 0.806)` (search.cpp), so a level
/// is `1346.6 + 143.4 × level^0.806`, kept within [`MIN_ELO`]..=[`MAX_ELO`].
pub fn skill_elo(level: i64) -> i64 {
    let level = level.clamp(0, MAX_SKILL) as f64;
    let elo = 1346.6 + 143.4 * level.powf(0.806);
    (elo.round() as i64).clamp(MIN_ELO, MAX_ELO)
}

impl Strength {
    /// The limit the options ask for, None for full strength: `UCI_LimitStrength` with
    /// `UCI_Elo`, else a `Skill Level` below 20 (Stockfish's order: the Elo wins).
    pub fn from_options(limit_strength: bool, elo: i64, skill: i64) -> Option<Strength> {
        if limit_strength {
            Some(Strength::at(elo))
        } else if skill < MAX_SKILL {
            Some(Strength::at(skill_elo(skill)))
        } else {
            None
        }
    }

    /// A limit at `elo`, kept within the range.
    pub fn at(elo: i64) -> Strength {
        Strength {
            elo: elo.clamp(MIN_ELO, MAX_ELO),
            straight: false,
        }
    }

    pub fn elo(self) -> i64 {
        self.elo
    }

    /// The internal level, 0..=1, from [`CURVE`].
    pub fn level(self) -> f64 {
        let e = self.elo as f64;
        for pair in CURVE.windows(2) {
            let ((e0, s0), (e1, s1)) = (pair[0], pair[1]);
            if self.elo <= e1 {
                let t = (e - e0 as f64) / (e1 - e0) as f64;
                return (s0 + t * (s1 - s0)).clamp(0.0, 1.0);
            }
        }
        1.0
    }

    /// The node budget of one move: 2^(6 + 14 s), from 64 nodes (depth 1 and its
    /// quiescence) to about a million; none at the top (s = 1).
    pub fn nodes(self) -> Option<u64> {
        let s = self.level();
        (s < 1.0).then(|| 2f64.powf(6.0 + 14.0 * s).round() as u64)
    }

    /// The largest evaluation error, in centipawns: 120 (1 − s)², none at the top.
    pub fn blur_cp(self) -> i32 {
        let weak = 1.0 - self.level();
        (120.0 * weak * weak).round() as i32
    }

    /// How far below the best a move may score and still be played: 100 (1 − s)² cp.
    pub fn margin_cp(self) -> i32 {
        let weak = 1.0 - self.level();
        (100.0 * weak * weak).round() as i32
    }

    /// Root lines the search scores: [`LINES`] while the margin matters (5 cp or more),
    /// else one.
    pub fn lines(self) -> usize {
        if !self.straight && self.margin_cp() >= MIN_MARGIN_CP {
            LINES
        } else {
            1
        }
    }

    /// Moves in a thousand on which the margin widens to a blunder's: 80 (1 − s / 0.6)²,
    /// none from s = 0.6 up.
    pub fn blunder_per_mille(self) -> u64 {
        let weak = (1.0 - self.level() / 0.6).max(0.0);
        (80.0 * weak * weak).round() as u64
    }

    /// A blunder's margin: up to a piece.
    pub fn blunder_margin_cp(self) -> i32 {
        400
    }

    /// The share of the soft budget (or movetime) before which no move is answered: 0.3 to
    /// 0.6, by the position's key.
    pub fn think_share(self, key: u64) -> f64 {
        0.3 + 0.3 * unit(mix(key ^ self.salt() ^ THINK_SALT))
    }

    /// What blurs the searcher's evaluations, if anything does at this level.
    pub fn blur(self) -> Option<Blur> {
        let amplitude = self.blur_cp();
        (amplitude > 0 && !self.straight).then_some(Blur {
            salt: self.salt(),
            amplitude,
        })
    }

    /// The limits of a search from `root` at this strength: the node budget (never more than
    /// the `go` asked for); the time limits stay the time manager's. A lone-king ending is
    /// played straight.
    pub fn limit(self, limits: &Limits, root: &Board) -> Limits {
        let mut limited = limits.clone();
        limited.mode = self.mode(&limits.mode);
        let straight = self.straight || mopup::attacker(root).is_some();
        limited.strength = Some(Strength { straight, ..self });
        limited
    }

    fn mode(self, mode: &Mode) -> Mode {
        let mut limited = mode.clone();
        if let Some(budget) = self.nodes() {
            // Whole iterations until one ends past the budget, with a hard cap against a
            // tree that explodes; a `go nodes` below either keeps its own limit.
            let asked = mode.soft_nodes.into_iter().chain(mode.nodes).min();
            let cap = budget * HARD_NODES;
            limited.soft_nodes = Some(asked.map_or(budget, |n| n.min(budget)));
            limited.nodes = Some(mode.nodes.map_or(cap, |n| n.min(cap)));
        }
        limited
    }

    /// When a search of `mode` from a root with `key` may answer: not before its think time,
    /// [`Strength::think_share`] of the soft budget or movetime, has passed since the `go`.
    /// None when there is no clock to look human against, or when the GUI decides when
    /// the answer comes (`go infinite`).
    pub fn answer_at(self, mode: &Mode, key: u64) -> Option<Duration> {
        if mode.answer == Answer::AfterStop {
            return None;
        }
        let ms = match &mode.time {
            TimeLimit::None => return None,
            TimeLimit::MoveTime(ms) => *ms,
            TimeLimit::Clock(b) => b.soft_ms,
        };
        let share = self.think_share(key);
        Some(Duration::from_millis((ms as f64 * share).round() as u64))
    }

    /// The line to play among `scores`, the root lines' scores best first (the search's
    /// MultiPV order), chosen from the root's `key` as the module doc says.
    pub fn choose(self, key: u64, scores: &[i32]) -> usize {
        let Some(&best) = scores.first() else {
            return 0;
        };
        if scores.len() < 2 || is_decisive(best) || self.straight {
            return 0;
        }
        let h = mix(key ^ self.salt() ^ CHOOSE_SALT);
        let blunder = h % 1000 < self.blunder_per_mille();
        let margin = if blunder {
            self.blunder_margin_cp()
        } else {
            self.margin_cp()
        };
        // Candidates: within the margin and not themselves decided (a line that walks into
        // a mate is never an "error among plausible moves"). The better, the likelier; a
        // blunder is any of them alike.
        let weights: Vec<u64> = scores
            .iter()
            .map(|&v| {
                let behind = best.saturating_sub(v);
                if (v != best && is_decisive(v)) || behind > margin {
                    0
                } else if blunder {
                    1
                } else {
                    (margin - behind) as u64 + 1
                }
            })
            .collect();
        let total: u64 = weights.iter().sum();
        let mut pick = (h >> 16) % total.max(1);
        for (i, &w) in weights.iter().enumerate() {
            if pick < w {
                return i;
            }
            pick -= w;
        }
        0
    }

    /// This setting's own stream of pseudo-random numbers: two settings err differently.
    fn salt(self) -> u64 {
        mix(self.elo as u64 ^ 0x5a6e_6467_6c61_7373)
    }
}

/// The hard node cap, as a multiple of the budget: iterations are whole unless one explodes.
const HARD_NODES: u64 = 4;
/// Below this margin the choice among lines is left out (see [`Strength::lines`]).
const MIN_MARGIN_CP: i32 = 5;
const THINK_SALT: u64 = 0x7468_696e_6b00_0001;
const CHOOSE_SALT: u64 = 0x6368_6f6f_7365_0002;

/// The evaluation blur of one search: a fixed error for each position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Blur {
    salt: u64,
    amplitude: i32,
}

impl Blur {
    /// `eval` of the position with `key`, blurred: a triangular error in −amplitude..=
    /// amplitude (the sum of two uniform ones, so small errors are the common ones).
    #[inline]
    pub fn apply(&self, key: u64, eval: i32) -> i32 {
        eval + self.error(key)
    }

    #[inline]
    fn error(&self, key: u64) -> i32 {
        let h = mix(key ^ self.salt);
        let a = i64::from(self.amplitude);
        let u1 = (h & 0xffff) as i64;
        let u2 = ((h >> 16) & 0xffff) as i64;
        // (u1 + u2) / 65535 − 1 lies in −1..=1.
        ((u1 + u2 - 65_535) * a / 65_535) as i32
    }
}

/// SplitMix64's output function (Steele, Lea and Flood, "Fast splittable pseudorandom number
/// generators", OOPSLA 2014; the constants of Vigna's splitmix64.c): 64 well-mixed bits of
/// `x`, so that nearby keys and settings give unrelated choices.
#[inline]
pub fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// 53 of `h`'s bits as a number in 0..1.
fn unit(h: u64) -> f64 {
    (h >> 11) as f64 / (1u64 << 53) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::Budget;

    /// Stockfish 15.1's `Skill` maps `UCI_Elo` to a level by
    /// `pow((elo − 1346.6) / 143.4, 1 / 0.806)`; `skill_elo` is its inverse: levels 1, 5 and
    /// 10 come back from the Elo it gives them, and the ends clamp to the range.
    #[test]
    fn skill_levels_follow_stockfishs_formula() {
        let level = |elo: i64| ((elo as f64 - 1346.6) / 143.4).powf(1.0 / 0.806);
        for l in [1, 5, 10, 15] {
            let back = level(skill_elo(l));
            assert!((back - l as f64).abs() < 0.01, "level {l}: {back}");
        }
        // Level 1: 1346.6 + 143.4 = 1490.
        assert_eq!(skill_elo(1), 1490);
        assert_eq!(skill_elo(0), MIN_ELO);
        assert_eq!(skill_elo(19), MAX_ELO);
        assert_eq!(Strength::from_options(false, 2000, 20), None);
        assert_eq!(
            Strength::from_options(false, 2000, 1),
            Some(Strength::at(1490))
        );
        assert_eq!(
            Strength::from_options(true, 2000, 1),
            Some(Strength::at(2000)),
            "UCI_Elo wins over Skill Level"
        );
    }

    /// The curve covers the whole range, never falls with the setting, ends at full strength, and
    /// its points are read exactly.
    #[test]
    fn the_curve_spans_the_range_and_rises() {
        assert_eq!(CURVE[0].0, MIN_ELO);
        assert_eq!(CURVE[CURVE.len() - 1], (MAX_ELO, 1.0));
        for pair in CURVE.windows(2) {
            assert!(pair[0].0 < pair[1].0 && pair[0].1 <= pair[1].1, "{pair:?}");
            assert!((0.0..=1.0).contains(&pair[0].1));
        }
        for &(elo, s) in &CURVE {
            assert!((Strength::at(elo).level() - s).abs() < 1e-12, "{elo}");
        }
    }

    #[test]
    fn the_levers_weaken_monotonically_and_vanish_at_the_top() {
        let mut last: Option<Strength> = None;
        for elo in (MIN_ELO..=MAX_ELO).step_by(50) {
            let s = Strength::at(elo);
            if let Some(p) = last {
                assert!(s.level() >= p.level(), "{elo}");
                assert!(s.nodes().unwrap_or(u64::MAX) >= p.nodes().unwrap_or(u64::MAX));
                assert!(s.blur_cp() <= p.blur_cp(), "{elo}");
                assert!(s.margin_cp() <= p.margin_cp(), "{elo}");
                assert!(s.blunder_per_mille() <= p.blunder_per_mille(), "{elo}");
            }
            last = Some(s);
        }
        let top = Strength::at(MAX_ELO);
        assert_eq!((top.blur_cp(), top.blunder_per_mille()), (0, 0));
        assert!(top.blur().is_none());
        assert!(Strength::at(MIN_ELO).blunder_per_mille() > 0);
        assert_eq!(Strength::at(100).elo(), MIN_ELO);
    }

    /// The blur is a function of the key: the same position always gets the same error,
    /// within the amplitude, and errors spread over the whole range.
    #[test]
    fn the_blur_is_fixed_per_position_and_bounded() {
        let blur = Strength::at(MIN_ELO).blur().expect("blurred at the bottom");
        let mut seen = std::collections::BTreeSet::new();
        for key in 0..2_000u64 {
            let e = blur.error(key.wrapping_mul(0x2545_f491_4f6c_dd1d));
            assert_eq!(e, blur.error(key.wrapping_mul(0x2545_f491_4f6c_dd1d)));
            assert!(e.abs() <= blur.amplitude, "{e}");
            seen.insert(e.signum());
        }
        assert_eq!(seen.len(), 3);
    }

    /// Errors only among plausible moves: never a line beyond the margin (or the blunder
    /// margin), never a line into a mate, and a won position played straight.
    #[test]
    fn choices_stay_within_the_margin() {
        use crate::score::MATE;
        for elo in [MIN_ELO, 1800, 2400, MAX_ELO] {
            let s = Strength::at(elo);
            let mut chosen = [0usize; LINES];
            for key in 0..4_000u64 {
                let scores = [50, 30, -20, -(MATE - 9)];
                let i = s.choose(mix(key), &scores);
                let behind = scores[0] - scores[i];
                assert!(i < 3, "{elo}: a mate was chosen");
                assert!(behind <= s.blunder_margin_cp().max(s.margin_cp()));
                if s.blunder_per_mille() == 0 {
                    assert!(behind <= s.margin_cp(), "{elo}: {behind}");
                }
                chosen[i] += 1;
                assert_eq!(s.choose(mix(key), &[MATE - 5, 40, 30]), 0);
            }
            assert!(chosen[0] > chosen[1], "{elo}: {chosen:?}");
            if elo == MIN_ELO {
                assert!(chosen[2] > 0, "{chosen:?}");
            }
            if elo == MAX_ELO {
                assert_eq!(chosen[1] + chosen[2], 0, "{chosen:?}");
            }
        }
    }

    /// The search gets a node budget (never above the `go`'s own) and keeps the time
    /// manager's limits; the answer waits for 30 % to 60 % of the soft budget or movetime.
    #[test]
    fn the_search_gets_a_node_budget_and_a_think_time() {
        let s = Strength::at(1800);
        let budget = s.nodes().expect("a budget below the top");
        let clock = Mode {
            time: TimeLimit::Clock(Budget {
                soft_ms: 1_000,
                hard_ms: 3_000,
                why: String::new(),
            }),
            ..Mode::default()
        };
        let m = s.mode(&clock);
        assert_eq!(m.soft_nodes, Some(budget));
        assert_eq!(m.nodes, Some(budget * HARD_NODES));
        assert_eq!(m.time, clock.time, "the time manager's limits stay");
        for key in [1u64, 2, 3, 99] {
            let at = s.answer_at(&m, key).expect("a clock to wait on");
            assert!((300..=600).contains(&at.as_millis()), "{at:?}");
        }
        let m = s.mode(&Mode::nodes(10));
        assert_eq!((m.soft_nodes, m.nodes), (Some(10), Some(10)));
        assert_eq!(s.answer_at(&m, 5), None);
        let at = s.answer_at(&s.mode(&Mode::movetime(1_000)), 5);
        assert!(at.is_some_and(|d| d < Duration::from_millis(1_000)));
        let infinite = Mode {
            answer: Answer::AfterStop,
            ..Mode::movetime(1_000)
        };
        assert_eq!(s.answer_at(&infinite, 5), None);
        // At the top there is no budget and one line: full strength's search.
        let top = Strength::at(MAX_ELO);
        assert_eq!(top.nodes(), None);
        assert_eq!(top.lines(), 1);
        assert_eq!(top.mode(&clock), clock);
        assert_eq!(Strength::at(MIN_ELO).lines(), LINES);
    }

    /// A lone-king ending is played straight: the same node budget, no blur, one line, the
    /// best move; any other root keeps every lever.
    #[test]
    fn a_lone_king_ending_is_played_straight() {
        use std::str::FromStr;
        let s = Strength::at(MIN_ELO);
        let limits = Limits::default();
        let mated = Board::from_str("7K/8/8/3k4/8/8/8/Q7 w - - 0 1").expect("test FEN");
        let straight = s.limit(&limits, &mated).strength.expect("still limited");
        assert_eq!(straight.nodes(), s.nodes());
        assert!(straight.blur().is_none());
        assert_eq!(straight.lines(), 1);
        for key in 0..200u64 {
            assert_eq!(straight.choose(mix(key), &[300, 290, 280]), 0);
        }
        let start = Board::default();
        assert_eq!(s.limit(&limits, &start).strength, Some(s));
    }

    /// SplitMix64's first outputs from seed 0 (Vigna's splitmix64.c: the state advances by
    /// the golden gamma before mixing, as `mix` does to its argument).
    #[test]
    fn mix_is_splitmix64() {
        assert_eq!(mix(0), 0xe220_a839_7b1d_cdaf);
        assert_eq!(mix(0x9e37_79b9_7f4a_7c15), 0x6e78_9e6a_a1b9_65f4);
    }
}
