//! The network pipeline end to end, as a user runs it: `datagen` writes positions, `train`
//! fits a network to them and writes a `.nnue` file, and the engine loads that file with
//! `EvalFile` and searches with it.

mod common;

use common::tools::{arg, succeeded, tool, Scratch};
use common::{Engine, LIVE};
use std::path::Path;

#[test]
fn datagen_then_train_then_search_with_the_network() {
    let dir = Scratch::new("pipeline");
    let book = dir.file(
        "book.epd",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n\
         rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2\n",
    );
    let data = dir.join("data");
    succeeded(tool(&[
        "datagen",
        "--book",
        arg(&book),
        "--out",
        arg(&data),
        "--positions",
        "400",
        "--nodes",
        "200",
        "--seed",
        "3",
    ]));
    let net = dir.join("net.nnue");
    let log = succeeded(tool(&[
        "train",
        arg(&data),
        "--out",
        arg(&net),
        "--epochs",
        "2",
        "--batch",
        "32",
        "--valid",
        "0.2",
        "--mirror",
    ]));
    assert!(log.contains("screlu, 8 buckets"), "{log}");
    assert!(log.contains("epoch 2: train loss"), "{log}");
    // Each epoch also reports the loss of the network as the file holds it.
    assert!(
        log.lines()
            .filter(|l| l.starts_with("epoch "))
            .all(|l| l.contains(" (as written 0.")),
        "{log}"
    );
    // The file the default shape writes: SCReLU, eight output buckets.
    let bytes = std::fs::read(&net).expect("train wrote the network");
    let loaded = sandglass::eval::nnue::Network::from_bytes(&bytes).expect("it parses");
    assert_eq!(loaded.outputs.len(), 8);
    assert_eq!(loaded.activation, sandglass::eval::nnue::Activation::SCReLU);

    search_with(&net, "position startpos moves e2e4");

    // King-mirrored inputs: `--mirror` is refused there (it would add nothing), and the
    // network they make is searched through positions where kings cross the middle.
    let castles = "position fen r3k2r/pppq1ppp/2n1bn2/3pp3/3PP3/2N1BN2/PPPQ1PPP/R3K2R w KQkq - 0 1";
    let mirrored = dir.join("mirrored.nnue");
    let refused = train(&data, &mirrored, 1, &["--inputs", "mirrored", "--mirror"]);
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--mirror adds nothing"));
    let log = succeeded(train(&data, &mirrored, 1, &["--inputs", "mirrored"]));
    assert!(log.contains("mirrored inputs"), "{log}");
    let bytes = std::fs::read(&mirrored).expect("train wrote the network");
    let loaded = sandglass::eval::nnue::Network::from_bytes(&bytes).expect("it parses");
    assert_eq!(loaded.inputs, sandglass::eval::nnue::Inputs::KingMirrored);
    search_with(&mirrored, castles);

    // King buckets: the version 4 file carries the layout, the engine searches with it
    // through castling and king moves between buckets, and a resumed run keeps the layout
    // of its checkpoint even when the options name another (with a warning).
    let bucketed = dir.join("bucketed.nnue");
    let bucket_options = ["--inputs", "mirrored", "--king-buckets", "4"];
    let log = succeeded(train(&data, &bucketed, 1, &bucket_options));
    assert!(log.contains("4 king buckets"), "{log}");
    let bytes = std::fs::read(&bucketed).expect("train wrote the network");
    let loaded = sandglass::eval::nnue::Network::from_bytes(&bytes).expect("it parses");
    assert_eq!(loaded.king_buckets.count(), 4);
    search_with(&bucketed, castles);
    let log = succeeded(train(&data, &bucketed, 2, &["--resume"]));
    assert!(log.contains("4 king buckets"), "{log}");
    assert!(log.contains("the checkpoint's shape wins"), "{log}");
    assert!(log.contains("epoch 2: train loss"), "{log}");
}

/// `datagen` and `selfplay` play with the network `--eval-file` names, so that an older
/// generation of data can be made again by the network that made it once a newer one is
/// embedded: the embedded network's own bytes give the same games as naming none, another
/// network other games, and a file that is not a network is refused before anything is
/// written.
#[test]
fn datagen_and_selfplay_play_with_the_network_they_are_given() {
    let dir = Scratch::new("eval-file");
    let book = dir.file(
        "book.epd",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n",
    );
    let embedded = dir.file(
        "embedded.nnue",
        include_bytes!("../src/eval/nnue/embedded.nnue"),
    );
    let other = concat!(env!("CARGO_MANIFEST_DIR"), "/data/nets/net8-candidate.nnue");
    let not_a_network = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
    let book = arg(&book).to_string();

    let datagen = |name: &str, network: Option<&str>| {
        let out = dir.join(name);
        let mut args = vec!["datagen", "--book", &book, "--out", arg(&out)];
        args.extend(["--positions", "200", "--nodes", "300", "--seed", "4"]);
        args.extend(network.map(|n| ["--eval-file", n]).iter().flatten());
        (tool(&args), out)
    };
    let shard = |name: &str, network: Option<&str>| {
        let (out, folder) = datagen(name, network);
        succeeded(out);
        std::fs::read(folder.join("shard-0.bin")).expect("datagen wrote its shard")
    };
    let plain = shard("none", None);
    assert_eq!(shard("same", Some(arg(&embedded))), plain);
    assert_ne!(shard("other", Some(other)), plain);
    let (refused, folder) = datagen("refused", Some(not_a_network));
    assert!(!refused.status.success());
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(
        said.contains("--eval-file") && said.contains("not a Sandglass network"),
        "{said}"
    );
    assert!(!folder.exists(), "nothing written");

    let selfplay = |name: &str, network: Option<&str>| {
        let pgn = dir.join(name);
        let mut args = vec!["selfplay", "--book", &book, "--out", arg(&pgn)];
        args.extend(["--games", "2", "--nodes", "300"]);
        args.extend(network.map(|n| ["--eval-file", n]).iter().flatten());
        (tool(&args), pgn)
    };
    let games = |name: &str, network: Option<&str>| {
        let (out, pgn) = selfplay(name, network);
        succeeded(out);
        std::fs::read_to_string(pgn).expect("selfplay wrote its games")
    };
    let plain = games("none.pgn", None);
    assert_eq!(games("same.pgn", Some(arg(&embedded))), plain);
    assert_ne!(games("other.pgn", Some(other)), plain);
    let (refused, pgn) = selfplay("refused.pgn", Some(not_a_network));
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("not a Sandglass network"));
    assert!(!pgn.exists(), "nothing written");
}

/// `train` on `data` into `out` for `epochs` epochs of small batches, with `extra` options.
fn train(data: &Path, out: &Path, epochs: u32, extra: &[&str]) -> std::process::Output {
    let epochs = epochs.to_string();
    let mut args = vec!["train", arg(data), "--out", arg(out), "--epochs", &epochs];
    args.extend_from_slice(&["--batch", "32"]);
    args.extend_from_slice(extra);
    tool(&args)
}

/// Load `net` with `EvalFile`, search `position` to depth 5, and check the move is legal.
fn search_with(net: &Path, position: &str) {
    let mut e = Engine::ready();
    e.send(&format!("setoption name EvalFile value {}", arg(net)));
    e.send("setoption name Eval value nnue");
    let lines = e.sync();
    if let Some(err) = lines.iter().find(|l| l.is_error()) {
        e.fail(&format!("the trained network was refused: {}", err.text));
    }
    e.send(position);
    e.send("go depth 5");
    let lines = e.until_bestmove(LIVE);
    let best = lines
        .last()
        .map(|l| l.best().to_string())
        .unwrap_or_default();
    e.assert_legal(position, &best);
    e.finish();
}

/// A shard of `n` records of a few real positions: data for `train` without datagen's games.
fn small_shard(file: &Path, n: usize) {
    use sandglass::tools::packed::Packed;
    let fens = [
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        "r3k2r/pppq1ppp/2n1bn2/3pp3/3PP3/2N1BN2/PPPQ1PPP/R3K2R w KQkq - 0 1",
        "8/5pk1/6p1/8/3R4/6P1/5PK1/8 w - - 0 40",
    ];
    let mut bytes = Vec::new();
    for i in 0..n {
        let pos = sandglass::position::Position::from_fen(fens[i % fens.len()]).expect("fen");
        let score = (i as i16 % 7 - 3) * 40;
        let result = (score.signum() + 1) as u8;
        let record = Packed::new(pos.board(), score, result, 1);
        bytes.extend_from_slice(&record.to_bytes());
    }
    std::fs::write(file, bytes).expect("shard");
}

/// `train` said `wrote <out>` and ended well having written nothing: for `--epochs 0`, for
/// NaN or infinite rates and weights (every loss NaN, no epoch the best) and for a resumed
/// run with no epoch left; `--valid NaN` and `--valid 5` ran as 0 and 0.9. Each is refused
/// now, with nothing written.
#[test]
fn train_refuses_what_would_write_nothing() {
    let dir = Scratch::new("train-refusals");
    let data = dir.join("data.bin");
    small_shard(&data, 90);
    let net = dir.join("net.nnue");
    for bad in [
        &["--epochs", "0"][..],
        &["--lambda", "NaN"][..],
        &["--lr", "NaN"][..],
        &["--lr", "inf"][..],
        &["--lr-decay", "inf"][..],
        &["--lr-drop", "NaN"][..],
        &["--weight-decay", "NaN"][..],
        &["--valid", "NaN"][..],
        &["--valid", "5"][..],
        &["--batch", "0"][..],
        &["--threads", "0"][..],
        &["--threads", "65"][..],
    ] {
        let mut args = vec!["train", arg(&data), "--out", arg(&net)];
        if bad[0] != "--batch" {
            args.extend_from_slice(&["--batch", "32"]);
        }
        if bad[0] != "--epochs" {
            args.extend_from_slice(&["--epochs", "1"]);
        }
        args.extend_from_slice(bad);
        let out = tool(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{bad:?} was accepted: {stderr}");
        assert!(stderr.contains(bad[0]), "{bad:?}: {stderr}");
        assert!(!net.exists(), "{bad:?} wrote a network");
    }
    let log = succeeded(train(&data, &net, 1, &[]));
    assert!(log.contains(&format!("wrote {}", arg(&net))), "{log}");
    let again = train(&data, &net, 1, &["--resume"]);
    let stderr = String::from_utf8_lossy(&again.stderr);
    assert!(!again.status.success(), "{stderr}");
    assert!(stderr.contains("asks for no more"), "{stderr}");
}

/// `--start-from` begins from a network's own weights and shape: at a step too small to move
/// any weight by a quantisation step, the run writes the shipped network back unchanged,
/// even when the options name another shape, whether the file is named or called
/// `<embedded>` as `EvalFile` calls it, and grown into the king buckets asked for when it has
/// none. With `--resume`, an empty name (an unset shell
/// variable) or a file that is not a network, it is refused with nothing written.
#[test]
fn train_starts_from_a_network() {
    use sandglass::eval::nnue::Network;
    use std::str::FromStr;
    let dir = Scratch::new("train-start-from");
    let data = dir.join("data.bin");
    small_shard(&data, 90);
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/eval/nnue/embedded.nnue");
    let read = |path: &Path| {
        Network::from_bytes(&std::fs::read(path).expect("network file")).expect("it parses")
    };
    let bytes = |path: &Path| read(path).to_bytes();
    let still = ["--lr", "1e-9", "--weight-decay", "0", "--buckets", "1"];
    for (name, start) in [
        ("named.nnue", arg(&shipped)),
        ("embedded.nnue", "<embedded>"),
    ] {
        let net = dir.join(name);
        let mut options = vec!["--start-from", start];
        options.extend_from_slice(&still);
        let log = succeeded(train(&data, &net, 1, &options));
        assert!(log.contains(&format!("starting network {start}")), "{log}");
        assert!(log.contains("the starting network's shape wins"), "{log}");
        assert!(bytes(&net) == bytes(&shipped), "{start}: the weights moved");
    }

    // Asked for king buckets, the shipped network (which has none) grows into them and
    // still evaluates as it did.
    let grown = dir.join("grown.nnue");
    let mut options = vec!["--start-from", "<embedded>", "--king-buckets", "4"];
    options.extend_from_slice(&still);
    let log = succeeded(train(&data, &grown, 1, &options));
    assert!(
        log.contains("copied into each of its 4 king buckets"),
        "{log}"
    );
    let (grown, shipped) = (read(&grown), read(&shipped));
    assert_eq!(grown.king_buckets.count(), 4);
    for fen in [
        "r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQ1RK1 w - - 5 6",
        "8/8/4k3/8/8/8/3P2K1/8 w - - 0 1",
    ] {
        let board = chess::Board::from_str(fen).expect("test FEN");
        assert_eq!(
            grown.evaluate_board(&board),
            shipped.evaluate_board(&board),
            "{fen}"
        );
    }

    let other = dir.join("other.nnue");
    let out = train(
        &data,
        &other,
        1,
        &["--start-from", "<embedded>", "--resume"],
    );
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--resume"));
    let out = train(&data, &other, 1, &["--start-from", ""]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("needs a file name"), "{stderr}");
    let out = train(&data, &other, 1, &["--start-from", arg(&data)]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains(arg(&data)), "{stderr}");
    assert!(!other.exists(), "a refused run wrote a network");

    // --grid-output: with every step below half a grid step (1/128; a rate of 0.005, which
    // moves output weights by whole steps over these batches without the flag), no output
    // weight leaves its grid point, so the file's output layer is the starting network's
    // and the feature layer alone learns. Without a network to start from it is refused:
    // it would keep random output weights.
    let gridded = dir.join("gridded.nnue");
    let log = succeeded(train(
        &data,
        &gridded,
        2,
        &[
            "--start-from",
            "<embedded>",
            "--grid-output",
            "--lr",
            "0.005",
        ],
    ));
    assert!(log.contains("(as written 0."), "{log}");
    let gridded = read(&gridded);
    assert!(gridded.outputs.len() == shipped.outputs.len());
    for (g, s) in gridded.outputs.iter().zip(&shipped.outputs) {
        assert!(
            g.weights == s.weights,
            "an output weight left its grid point"
        );
    }
    assert!(
        gridded.ft_weights != shipped.ft_weights,
        "the feature layer did not learn"
    );
    let out = train(&data, &other, 1, &["--grid-output"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("--grid-output"), "{stderr}");
    assert!(!other.exists(), "a refused run wrote a network");

    // --grid-output=qat: the same run, but the float masters keep the steps that the
    // rounding hides, so they add up across batches until output weights cross grid points.
    let qat = dir.join("qat.nnue");
    let args = [
        "--start-from",
        "<embedded>",
        "--grid-output=qat",
        "--lr",
        "0.005",
    ];
    succeeded(train(&data, &qat, 2, &args));
    let qat = read(&qat);
    let moved: usize = qat
        .outputs
        .iter()
        .zip(&shipped.outputs)
        .map(|(q, s)| {
            let (q, s) = (q.weights.iter().flatten(), s.weights.iter().flatten());
            q.zip(s).filter(|(a, b)| a != b).count()
        })
        .sum();
    assert!(moved > 0, "no output weight crossed a grid point");
    // Without a network to start from it learns from random weights, as a float run does;
    // resumed without the option it goes on as the checkpoint says (whose best loss is the
    // loss as written); a mode it does not know is refused.
    succeeded(train(&data, &other, 1, &["--grid-output=qat"]));
    assert!(other.exists());
    let log = succeeded(train(&data, &other, 2, &["--resume"]));
    assert!(
        log.contains("(none) is not the checkpoint's (qat)"),
        "{log}"
    );
    let out = train(&data, &dir.join("x.nnue"), 1, &["--grid-output=round"]);
    assert!(!out.status.success());
}

/// A shard of zeros was trained on as 200 empty boards.
#[test]
fn train_refuses_a_shard_of_zeros() {
    let dir = Scratch::new("train-zeros");
    let zeros = dir.file("zeros.bin", [0u8; 6400]);
    let net = dir.join("zeros.nnue");
    let out = train(&zeros, &net, 1, &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("record 0"), "{stderr}");
    assert!(!net.exists());
}

/// Without validation positions the best validation loss was stored as NaN, which a
/// checkpoint may not hold: such a run must still resume.
#[test]
fn a_run_without_validation_positions_resumes() {
    let dir = Scratch::new("train-no-valid");
    let data = dir.join("data.bin");
    small_shard(&data, 60);
    let net = dir.join("net.nnue");
    succeeded(train(&data, &net, 1, &["--valid", "0"]));
    let log = succeeded(train(&data, &net, 2, &["--valid", "0", "--resume"]));
    assert!(log.contains("epoch 2: train loss"), "{log}");
}
