use super::pgn::*;
use super::samples::*;
use super::write::*;
use super::*;
use crate::eval;
use crate::position::{san_to_move, Position};
use chess::Piece;

const PGN: &str = r#"[Event "Test"]
[Result "1-0"]

1. e4 {[%clk 0:05:00]} 1... e5 2. Nf3 (2. f4 exf4 3. Nf3) 2... Nc6 $1 3. Bb5 a6
4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 ; comment
11. c4 c6 12. cxb5 axb5 13. Nc3 Bb7 14. Bg5 b4 15. Nb1 h6 16. Bh4 c5 17. dxe5
Nxe4 18. Bxe7 Qxe7 19. exd6 Qf6 20. Nbd2 Nxd6 21. Nc4 Nxc4 22. Bxc4 Nb6
23. Ne5 Rae8 24. Bxf7+ Rxf7 25. Nxf7 Rxe1+ 26. Qxe1 Kxf7 27. Qe3 Qg5 28. Qxg5
hxg5 29. b3 Ke6 30. a3 Kd6 31. axb4 cxb4 32. Ra5 Nd5 33. f3 Bc8 34. Kf2 Bf5
35. Ra7 g6 36. Ra6+ Kc5 37. Ke1 Nf4 38. g3 Nxh3 39. Kd2 Kb5 40. Rd6 Kc5 41. Ra6
Nf2 42. g4 Bd3 43. Re6 1-0

[Event "Second"]
[Result "1/2-1/2"]

1.d4 d5 2.c4 e6 3.Nc3 Nf6 4.cxd5 exd5 5.Bg5 c6 6.e3 Bf5 7.Qf3 Bg6 8.Bxf6 Qxf6
9.Qxf6 gxf6 10.Nf3 Nd7 11.Nh4 Nb6 12.g3 a5 13.a4 Bb4 14.Nxg6 hxg6 15.Kd2 1/2-1/2
"#;

#[test]
fn reads_games_and_plays_every_move() {
    let games = parse_pgn(PGN);
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].result, Some(1.0));
    assert_eq!(games[1].result, Some(0.5));
    assert_eq!(games[0].moves.len(), 85);
    assert_eq!(games[0].moves[2], "Nf3");
    assert_eq!(games[1].moves[0], "d4");
    // Without a Result tag, the result token at the end of the moves counts.
    let untagged = parse_pgn("[Event \"x\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n");
    assert_eq!(untagged[0].result, Some(1.0));
    assert_eq!(untagged[0].moves.len(), 7);
    for g in &games {
        let mut pos = Position::startpos();
        for san in &g.moves {
            let m = san_to_move(pos.board(), san)
                .unwrap_or_else(|| panic!("cannot play {san} in {}", pos.fen()));
            pos.make_move(m);
        }
    }
}

#[test]
fn quiet_leaf_resolves_hanging_pieces() {
    // White's queen can take an undefended rook: the leaf has the rook gone.
    let mut pos =
        Position::from_fen("4k3/8/8/3r4/8/8/3Q4/4K3 w - - 0 1").unwrap_or_else(|e| panic!("{e}"));
    let (score, leaf) = quiet_leaf(
        &mut pos,
        -eval::EVAL_LIMIT,
        eval::EVAL_LIMIT,
        QUIESCENCE_DEPTH,
    );
    assert!(score > 500);
    assert_eq!(leaf.piece_on(chess::Square::D5), Some(Piece::Queen));
}

#[test]
fn run_tunes_and_writes_params() {
    let dir = std::env::temp_dir().join(format!("sandglass-tune-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("temp dir: {e}"));
    let pgn = dir.join("games.pgn");
    std::fs::write(&pgn, PGN).unwrap_or_else(|e| panic!("write: {e}"));
    let args = TuneArgs {
        pgn: vec![pgn],
        positions: None,
        epochs: 3,
        out: dir.join("params.rs"),
        lr: 1.0,
        l2: 1e-6,
        skip_plies: 8,
        holdout: 2,
        lambda: 0.5,
        fold: None,
        free_signs: false,
        freeze: vec!["MATERIAL".to_string()],
        spsa_params: false,
    };
    assert_eq!(run(&args), Ok(()));
    let written = std::fs::read_to_string(dir.join("params.rs")).unwrap_or_default();
    assert!(written.contains("pub const TEMPO: MgEg"));
    let bad = TuneArgs {
        freeze: vec!["NO_SUCH_GROUP".to_string()],
        ..args
    };
    assert!(run(&bad).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn rendered_params_round_trip() {
    let weights = layout::current_weights();
    let text = render_params(&weights, "test");
    for g in layout::GROUPS {
        assert!(text.contains(&format!("pub const {}:", g.name)));
    }
    // Read the pairs back from the code lines.
    let mut pairs = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with("//")) {
        for piece in line.split("s(").skip(1) {
            let inner = piece.split(')').next().unwrap_or("");
            let nums: Vec<i32> = inner
                .split(',')
                .filter_map(|x| x.trim().parse().ok())
                .collect();
            if let [m, e] = nums[..] {
                pairs.push((m, e));
            }
        }
    }
    assert_eq!(pairs, weights);
}
