use super::budget::finish;
use super::*;

#[test]
fn sudden_death_keeps_a_round_trip_for_future_moves() {
    let game = Game::default();
    // 2+0 at 600 ms left, 10 ms overhead: 590 usable once, minus 40 round trips of 10 ms.
    let inputs = Inputs::new(&clock(600, 0, None, 10), &game);
    assert_eq!(inputs.usable_ms, 190.0);
    // With 50 ms the round trip is still 10 ms: the overhead is taken once.
    let inputs = Inputs::new(&clock(600, 0, None, 50), &game);
    assert_eq!(inputs.usable_ms, 150.0);
    let inputs = Inputs::new(&clock(60_000, 0, None, 10), &game);
    assert_eq!(inputs.usable_ms, 60_000.0 - 10.0 - 400.0);
    // An increment pays for the round trips: the overhead is reserved once only…
    let inputs = Inputs::new(&clock(600, 10, None, 10), &game);
    assert_eq!(inputs.usable_ms, 590.0);
    // …also at 1+0.01 with the default 50 ms (the old per-move reserve kept 525 ms).
    let inputs = Inputs::new(&clock(1000, 10, None, 50), &game);
    assert_eq!(inputs.usable_ms, 950.0);
    // A clock that cannot hold the round trips has nothing usable.
    let inputs = Inputs::new(&clock(400, 0, None, 50), &game);
    assert_eq!(inputs.usable_ms, 0.0);
    // Every strategy then spends less with the reserve than without it.
    for settings in Settings::each_strategy() {
        let sd = allocate(&settings, &clock(600, 0, None, 10), &game);
        let inc = allocate(&settings, &clock(600, 1, None, 10), &game);
        let name = settings.strategy().name();
        assert!(sd.hard_ms <= inc.hard_ms, "{name}: {sd:?} vs {inc:?}");
    }
}

fn clock(t: i64, inc: i64, mtg: Option<u32>, overhead: i64) -> Clock {
    Clock {
        time_left_ms: t,
        increment_ms: inc,
        moves_to_go: mtg,
        overhead_ms: overhead,
    }
}

/// Every strategy's budget, fresh and after learning from one move.
fn all_budgets(c: &Clock, g: &Game) -> Vec<Budget> {
    Settings::each_strategy()
        .into_iter()
        .flat_map(|fresh| {
            let mut learnt = fresh.clone();
            learnt.record(900, 1000);
            [allocate(&fresh, c, g), allocate(&learnt, c, g)]
        })
        .collect()
}

/// The invariants every budget must keep.
fn check(c: &Clock, g: &Game) {
    let usable = (c.time_left_ms.max(0) as f64 - c.overhead_ms.max(0) as f64).max(0.0);
    for b in all_budgets(c, g) {
        assert!(b.soft_ms <= b.hard_ms, "{c:?} {b}");
        assert!(
            b.hard_ms as f64 <= hard_share(c.moves_to_go) * usable + 1e-9,
            "{c:?} {b}"
        );
        assert!(
            b.soft_ms as f64 <= soft_share(c.moves_to_go) * usable + 1e-9,
            "{c:?} {b}"
        );
        assert!(b.hard_ms <= MAX_BUDGET_MS);
        // A move that runs to its hard limit leaves Move Overhead and a margin.
        assert!(
            b.hard_ms as f64 <= (usable - HARD_MARGIN_MS).max(0.0) + 1e-9,
            "{c:?} {b}"
        );
        assert!(!b.why.is_empty());
    }
}

#[test]
fn names_round_trip() {
    for name in Settings::names() {
        let s = Settings::with_strategy(name).expect("a listed name");
        assert_eq!(s.strategy().name(), name);
        let upper = Settings::with_strategy(&name.to_uppercase()).expect("any case");
        assert_eq!(upper.strategy().name(), name);
    }
    // The menu starts with these, in this order; a new strategy is appended.
    assert_eq!(
        Settings::names()[..7],
        [
            "expositor",
            "lognormal",
            "geometric",
            "classic",
            "curve",
            "smooth",
            "material"
        ]
    );
    assert!(Settings::with_strategy(" Smooth ").is_ok());
    assert!(Settings::with_strategy("fast").is_err());
    assert_eq!(Settings::default().strategy().name(), "expositor");
}

#[test]
fn tiny_and_odd_clocks_never_panic_and_stay_safe() {
    let huge = i64::MAX / 4;
    let cases = [
        clock(1, 0, None, 0),
        clock(1, 0, None, 10),
        clock(30, 0, Some(1), 0),
        clock(30, 0, Some(1), 10),
        clock(32, 0, Some(1), 10),
        clock(100, 5000, None, 10),
        clock(-5000, 1000, None, 10),
        clock(-1, -1, Some(0), -1),
        clock(0, 0, None, 0),
        clock(huge, huge, None, 10),
        clock(huge, 0, Some(u32::MAX), huge / 2),
        clock(i64::MAX, i64::MAX, Some(1), i64::MIN),
        clock(i64::MIN, i64::MIN, Some(3), i64::MAX),
        clock(60_000, 0, Some(1), 100_000),
    ];
    let games = [
        Game::default(),
        Game {
            plies_played: 300,
            men: 3,
        },
        Game {
            plies_played: u32::MAX,
            men: 0,
        },
        Game {
            plies_played: 7,
            men: u32::MAX,
        },
    ];
    for c in &cases {
        for g in &games {
            check(c, g);
        }
    }
}

#[test]
fn movestogo_one_spends_most_of_the_clock() {
    // The known failure: `go wtime 32 btime 32 movestogo 1`.
    let c = clock(32, 0, Some(1), 10);
    for b in all_budgets(&c, &Game::default()) {
        assert!(b.soft_ms >= 5, "{b}");
        if b.why.starts_with("stockfish") {
            // Stockfish's own maximum there is 1 ms (timeLeft = 32 − 3 × 10 = 2 ms), so its
            // hard limit is the soft one, raised to the minimum think time.
            assert_eq!(b.hard_ms, b.soft_ms, "{b}");
        } else {
            // Not 85 % of the 22 ms left after the overhead: the hard limit leaves the
            // overhead and a margin, 32 − 10 − 10 = 12 ms.
            assert_eq!(b.hard_ms, 12, "{b}");
        }
    }
    // `go wtime 4000 btime 4000 movestogo 1` with the default overhead: soft and hard may
    // reach 85 % of the 3950 ms after it (the rest carries over; see the module doc).
    let c = clock(4000, 0, Some(1), 50);
    for b in all_budgets(&c, &Game::default()) {
        assert!(b.soft_ms >= 2500, "{b}");
        assert_eq!(b.hard_ms, 3357, "{b}");
    }
    let c = clock(60_000, 0, Some(1), 10);
    for b in all_budgets(&c, &Game::default()) {
        assert!(b.soft_ms >= 17_000, "{b}");
        assert!(b.hard_ms <= 50_991, "{b}");
    }
}

#[test]
fn negative_and_zero_clocks_give_zero() {
    for t in [-100_000, -1, 0] {
        for b in all_budgets(&clock(t, 2000, None, 10), &Game::default()) {
            assert_eq!((b.soft_ms, b.hard_ms), (0, 0), "{b}");
        }
    }
}

#[test]
fn increment_larger_than_clock() {
    let c = clock(200, 3000, None, 10);
    for b in all_budgets(&c, &Game::default()) {
        assert!(b.hard_ms <= 95, "{b}");
        assert!(b.soft_ms >= 5, "{b}");
    }
}

#[test]
fn huge_clock_is_capped_without_overflow() {
    let huge = i64::MAX / 4;
    for b in all_budgets(&clock(huge, huge, None, 0), &Game::default()) {
        assert!(b.hard_ms <= MAX_BUDGET_MS, "{b}");
        assert!(b.soft_ms > 0, "{b}");
    }
}

#[test]
fn min_think_time_applies_when_the_clock_allows() {
    // A 1 s clock with a tiny 1-move horizon would still get at least MIN_THINK_MS.
    let b = finish(
        "test",
        Plan {
            soft_ms: 0.3,
            hard_ms: None,
            note: String::new(),
        },
        &Inputs::new(&clock(1000, 0, None, 0), &Game::default()),
    );
    assert_eq!(b.soft_ms, MIN_THINK_MS as u64);
    assert!(b.why.contains("min think"));
    // NaN and negative plans are treated as zero.
    let b = finish(
        "test",
        Plan {
            soft_ms: f64::NAN,
            hard_ms: None,
            note: String::new(),
        },
        &Inputs::new(&clock(1000, 0, None, 0), &Game::default()),
    );
    assert_eq!(b.soft_ms, MIN_THINK_MS as u64);
}

#[test]
fn hard_is_a_multiple_of_soft_when_uncapped() {
    let c = clock(300_000, 3000, None, 10);
    let b = allocate(&Settings::default(), &c, &Game::default());
    let three = b.soft_ms * HARD_FACTOR as u64;
    assert!(b.hard_ms >= three && b.hard_ms <= three + 2, "{b}");
    assert!(
        b.why.starts_with("expositor: REM(0)=86.8 plies"),
        "{}",
        b.why
    );
    assert!(b.why.ends_with("clamps: none"), "{}", b.why);
}

#[test]
fn overhead_is_reserved_once_when_an_increment_pays_for_lag() {
    // The increment covers the 1 s overhead: only this move's overhead is kept back.
    let with = allocate(
        &Settings::default(),
        &clock(60_000, 1000, None, 1000),
        &Game::default(),
    );
    let without = allocate(
        &Settings::default(),
        &clock(59_000, 1000, None, 0),
        &Game::default(),
    );
    assert_eq!(with.soft_ms, without.soft_ms);
}

#[test]
fn overhead_once_and_a_round_trip_per_move_until_a_known_refill() {
    let inputs = Inputs::new(&clock(2000, 0, Some(40), 10), &Game::default());
    assert_eq!(inputs.usable_ms, 2000.0 - 10.0 - 39.0 * 10.0);
    // The default 50 ms is taken once, not once per move to come (that kept 1,025 ms).
    let inputs = Inputs::new(&clock(2000, 0, Some(40), 50), &Game::default());
    assert_eq!(inputs.usable_ms, 2000.0 - 50.0 - 39.0 * 10.0);
    let inputs = Inputs::new(&clock(2000, 0, Some(1), 50), &Game::default());
    assert_eq!(inputs.usable_ms, 1950.0);
    // However large the overhead, it is taken once; the round trip stays 10 ms…
    let inputs = Inputs::new(&clock(20_000, 0, Some(40), 1000), &Game::default());
    assert_eq!(inputs.usable_ms, 20_000.0 - 1000.0 - 390.0);
    // …or the overhead if that is smaller: Move Overhead 0 says there is no lag.
    let inputs = Inputs::new(&clock(2000, 0, Some(40), 0), &Game::default());
    assert_eq!(inputs.usable_ms, 2000.0);
    // 5 moves before the control with 150 ms left keep 4 round trips.
    let inputs = Inputs::new(&clock(150, 0, Some(5), 50), &Game::default());
    assert_eq!(inputs.usable_ms, 60.0);
    // An absurd movestogo counts as 100 moves.
    let inputs = Inputs::new(&clock(2000, 0, Some(u32::MAX), 10), &Game::default());
    assert_eq!(inputs.usable_ms, 990.0);
}

#[test]
fn slow_mover_scales_and_is_sanitised() {
    let c = clock(300_000, 0, None, 0);
    let base = allocate(&Settings::default(), &c, &Game::default());
    let mut s = Settings::default();
    s.slow_mover = 1.5;
    let slow = allocate(&s, &c, &Game::default());
    assert!((slow.soft_ms as f64 / base.soft_ms as f64 - 1.5).abs() < 0.01);
    s.slow_mover = f64::NAN;
    assert_eq!(allocate(&s, &c, &Game::default()).soft_ms, base.soft_ms);
}

#[test]
fn movetime_helper() {
    assert_eq!(movetime_budget(1000).hard_ms, 1000);
    assert_eq!(movetime_budget(1000).soft_ms, 1000);
    assert_eq!(movetime_budget(5).hard_ms, 5);
    assert_eq!(movetime_budget(-5).hard_ms, 0);
    assert_eq!(movetime_budget(i64::MAX).hard_ms, MAX_BUDGET_MS);
}

#[test]
fn soft_stop_rule() {
    // 600 ms spent, the last depth took 200: a next depth of ~400 fits a 1 s budget...
    assert!(!stop_before_next_depth(599, 200, 1000));
    assert!(stop_before_next_depth(600, 200, 1000));
    // ...but not when the last depth took 300.
    assert!(stop_before_next_depth(500, 300, 1000));
    // Branching factor 2 (last = half the elapsed time) gives the old elapsed × 2 rule.
    assert!(!stop_before_next_depth(499, 249, 1000));
    assert!(stop_before_next_depth(500, 250, 1000));
    assert!(stop_before_next_depth(0, 0, 0));
}

#[test]
fn formatting() {
    assert_eq!(fmt_ms(350.0), "350 ms");
    assert_eq!(fmt_ms(7400.0), "7.4 s");
    assert_eq!(fmt_ms(f64::NAN), "0 ms");
}

#[test]
fn a_go_whose_limits_cannot_be_read_is_bounded() {
    let settings = Settings::default();
    let game = Game::default();
    let bounded = TimeLimit::MoveTime(mode::UNREADABLE_GO_MOVETIME_MS);
    let cases = [
        GoLimits {
            unreadable: true,
            ..GoLimits::default()
        },
        GoLimits {
            mate: Some(0),
            ..GoLimits::default()
        },
        GoLimits {
            winc: Some(1000),
            ..GoLimits::default()
        },
        GoLimits {
            movestogo: Some(5),
            ..GoLimits::default()
        },
    ];
    for go in cases {
        let (m, notes) = decide(&go, chess::Color::White, &game, &settings);
        assert_eq!(m.time, bounded, "{go:?}");
        assert!(notes.iter().any(|n| n.starts_with("error: go: ")), "{go:?}");
    }
    // Only the other side's increment (Black to move, `go winc 1000`): the side to move has
    // no clock either, so the search is bounded the same way (issue 38).
    let go = GoLimits {
        winc: Some(1000),
        ..GoLimits::default()
    };
    let (m, notes) = decide(&go, chess::Color::Black, &game, &settings);
    assert_eq!(m.time, bounded);
    assert!(
        notes.iter().any(|n| n.starts_with("error: go: ")),
        "{notes:?}"
    );
    // What remains readable may bound the search itself: then nothing is added.
    let go = GoLimits {
        unreadable: true,
        depth: Some(3),
        ..GoLimits::default()
    };
    assert_eq!(
        decide(&go, chess::Color::White, &game, &settings).0,
        Mode::depth(3)
    );
    // A plain go and go infinite still search until stop.
    let (m, _) = decide(&GoLimits::default(), chess::Color::White, &game, &settings);
    assert_eq!(m.time, TimeLimit::None);
    let infinite = GoLimits {
        infinite: true,
        unreadable: true,
        ..GoLimits::default()
    };
    let (m, _) = decide(&infinite, chess::Color::White, &game, &settings);
    assert_eq!((m.time, m.answer), (TimeLimit::None, Answer::AfterStop));
}
