//! `sandglass train`: fit the network (`eval::nnue`) to positions from `sandglass datagen`.
//!
//! Each position's target blends the game result with the search score, as `tune --lambda`
//! does: `target = λ·result + (1 − λ)·σ(K, score)`, both from the side to move's view, with
//! σ the Texel sigmoid `1 / (1 + 10^(−K·cp/400))` and K fitted first to the engine's own
//! scores (the K that best predicts the results from the scores, as `tune` fits it). The
//! loss is the mean squared error between σ(K, network) and the target, minimised by AdamW
//! on shuffled mini-batches, each batch split between threads.
//!
//! The last `--valid` fraction of every shard (whole games, in the order they were played)
//! is held out, so the validation loss is measured on games the network never saw.
//! After every epoch a checkpoint (`<out>.ckpt`: weights and optimiser state) is written,
//! and the quantised network (`<out>`) whenever the validation loss is the best of the run
//! (small data sets overfit within a few epochs); `--resume` continues from the checkpoint,
//! `--start-from` begins a new run from a network's weights, and Ctrl-C stops after the
//! current batch, writing the checkpoint. The hand-written evaluation's loss on the same
//! targets is printed first, as the mark to beat (and the starting network's, if any).
//! Each epoch's line gives the validation loss of the float weights and of the network as
//! written (rounded to the engine's integers); the best epoch is chosen by the float loss,
//! or by the loss as written under `--grid-output`, which trains for the engine's output
//! grid in one of two ways ([`GridOutput`]).

pub mod model;

use super::packed::{decode_all, Packed};
use crate::eval::nnue::{select, Activation, Inputs, KingBuckets, MAX_BUCKETS};
use indicatif::{ProgressBar, ProgressStyle};
pub use model::GridOutput;
use model::{backward, features_mirrored, forward, sigmoid, stm_sign, AdamW, Progress, Shape};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The step schedule's defaults: `--lr-decay` after every epoch, `--lr-drop` at the drop.
pub const LR_DECAY: f32 = 0.92;
pub const LR_DROP: f32 = 0.1;
/// The cosine schedule's default `--lr-min`.
pub const LR_MIN: f32 = 0.00001;

/// The learning rate of epoch `epoch` (counted from 1, as the progress lines count). Under
/// the step schedule: `--lr` decayed by `--lr-decay` after each epoch, and dropped by
/// `--lr-drop` from epoch `--lr-drop-epoch` on. Under the cosine schedule, [`cosine_rate`]
/// from `--lr` down to `--lr-min` over `--epochs`. A function of the options and the epoch
/// alone, so a resumed run continues the same schedule.
pub fn learning_rate(args: &TrainArgs, epoch: u64) -> f32 {
    if args.lr_schedule == Schedule::Cosine {
        return cosine_rate(args.lr, args.lr_min.unwrap_or(LR_MIN), epoch, args.epochs);
    }
    let decays = i32::try_from(epoch.saturating_sub(1)).unwrap_or(i32::MAX);
    let decayed = args.lr * args.lr_decay.unwrap_or(LR_DECAY).powi(decays);
    match args.lr_drop_epoch {
        Some(drop) if epoch >= drop => decayed * args.lr_drop.unwrap_or(LR_DROP),
        _ => decayed,
    }
}

/// Cosine annealing without restarts (Loshchilov & Hutter 2017, "SGDR: Stochastic Gradient
/// Descent with Warm Restarts", ICLR, equation 5): `η = η_min + ½(η_max − η_min)(1 +
/// cos(π·T_cur/T_i))`, with `T_cur = epoch − 1` epochs done and `T_i = epochs − 1`, so that
/// the first epoch runs at `max` and the last at `min`. The rate stays near `max` early, when
/// the weights are far from any minimum, falls fastest midway, and lingers near `min` at the
/// end, where a step schedule's drop leaves it all at once.
pub fn cosine_rate(max: f32, min: f32, epoch: u64, epochs: u64) -> f32 {
    if epochs <= 1 {
        return max;
    }
    let done = epoch.saturating_sub(1).min(epochs - 1) as f64;
    let phase = std::f64::consts::PI * done / (epochs - 1) as f64;
    (f64::from(min) + 0.5 * f64::from(max - min) * (1.0 + phase.cos())) as f32
}

/// How the learning rate falls over the epochs (`--lr-schedule`). A tool's option, so clap
/// reads it directly; the network's shape options are names that `eval::nnue` turns into its
/// own types, since the engine does not depend on clap.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Schedule {
    /// --lr-decay after every epoch, and the drop at --lr-drop-epoch
    Step,
    /// from --lr down to --lr-min along a half cosine (SGDR)
    Cosine,
}

/// Arguments of `sandglass train`.
#[derive(clap::Args, Debug, Clone)]
pub struct TrainArgs {
    /// Shard files or folders of shards (`*.bin`) written by datagen.
    #[arg(required = true)]
    pub data: Vec<PathBuf>,
    /// The network file to write (the checkpoint goes beside it, `.ckpt` appended).
    #[arg(long, default_value = "sandglass.nnue")]
    pub out: PathBuf,
    /// Epochs in all, a resumed run's included (1 to MAX_EPOCHS).
    #[arg(long, default_value_t = 20,
          value_parser = clap::value_parser!(u64).range(1..=model::MAX_EPOCHS))]
    pub epochs: u64,
    /// Positions a step (1 to 1,048,576).
    #[arg(long, default_value_t = 4096,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1 << 20))]
    pub batch: usize,
    /// AdamW's step size (above 0, at most 1).
    #[arg(long, default_value_t = 0.001, value_parser = above_zero_to_one)]
    pub lr: f32,
    /// How the learning rate falls from --lr over the epochs.
    #[arg(long, value_enum, default_value_t = Schedule::Step)]
    pub lr_schedule: Schedule,
    /// The step schedule's factor after every epoch (above 0, at most 1; 0.92 when not given).
    #[arg(long, value_parser = above_zero_to_one)]
    pub lr_decay: Option<f32>,
    /// From this epoch on (counting from 1), the step schedule also multiplies the learning
    /// rate by --lr-drop: a late step down, which let Viridithas's networks settle into a
    /// minimum the decay alone approached slowly (+112 Elo there).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub lr_drop_epoch: Option<u64>,
    /// The factor of that step down (above 0, at most 1; 0.1 when not given).
    #[arg(long, value_parser = above_zero_to_one)]
    pub lr_drop: Option<f32>,
    /// The cosine schedule's learning rate in the last epoch (0 to --lr; 0.00001 when not
    /// given).
    #[arg(long, value_parser = zero_to_one)]
    pub lr_min: Option<f32>,
    /// AdamW weight decay (0 to 1).
    #[arg(long, default_value_t = 0.0001, value_parser = zero_to_one)]
    pub weight_decay: f32,
    /// Weight of the game result in the target (the rest is the search score). 0 by
    /// default: with tens of thousands of games the network memorises their results
    /// (docs/measurements/evaluation.md, "train on the search score alone"; at 3.46 M positions of `gen10`,
    /// λ 0.4 lost to λ 0 by 128 ± 39 Elo, "network 8's candidates").
    #[arg(long, default_value_t = 0.0, value_parser = zero_to_one)]
    pub lambda: f32,
    /// Fraction held out for validation (0 to 0.9: most of the data is for training).
    #[arg(long, default_value_t = 0.1, value_parser = valid_fraction)]
    pub valid: f64,
    /// Threads that share each batch (1 to 64).
    #[arg(long, default_value_t = 1,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=64))]
    pub threads: usize,
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Train for the engine's output grid (steps of 1/QB), and choose the best epoch by the
    /// loss as written. A link's output weights move by less than half a step, so without
    /// this its file keeps little of what it learnt (docs/measurements/network-chain.md, "an eighth link").
    /// `--grid-output` alone is `snap`, which needs --start-from or --resume (random output
    /// weights would stay random); `--grid-output=qat` (with `=`: a word after a space is
    /// data) trains float masters through their rounded copy.
    #[arg(long, value_enum, num_args = 0..=1, require_equals = true,
          default_missing_value = "snap")]
    pub grid_output: Option<GridOutput>,
    /// Also train on every position's left-right mirror image (doubles small data sets).
    /// Adds nothing to `--inputs mirrored`, which folds the two together, so refused there.
    #[arg(long)]
    pub mirror: bool,
    /// The input layout: `plain`, or `mirrored` (the board flipped left-right whenever the
    /// perspective's king is on files e–h; see `eval::nnue`).
    #[arg(long, default_value = "plain", value_parser = ["plain", "mirrored"])]
    pub inputs: String,
    /// The hidden layer's activation: `screlu` (clamp(x, 0, 1)²) or `crelu` (clamp(x, 0, 1)).
    #[arg(long, default_value = "screlu", value_parser = ["screlu", "crelu"])]
    pub activation: String,
    /// Output buckets, chosen by the number of pieces (1 to 16; 1 is a single output).
    #[arg(long, default_value_t = 8)]
    pub buckets: usize,
    /// King buckets: `none`, or `4` (back-rank corners, back-rank middle, second rank, the
    /// rest; see `eval::nnue::king_buckets`).
    #[arg(long, default_value = "none",
          value_parser = clap::builder::PossibleValuesParser::new(KingBuckets::NAMED.map(|(n, _)| n)))]
    pub king_buckets: String,
    /// Continue from `<out>.ckpt`. The checkpoint's activation, inputs, king buckets, output
    /// buckets and `--grid-output` win over the options (with a warning where they differ).
    #[arg(long)]
    pub resume: bool,
    /// Start from this network file's weights instead of random ones, with a fresh optimiser
    /// and schedule: nnue-pytorch's `--resume-from-model`, by which many of Stockfish's
    /// networks were retrained from the one before. A network learns on this way from data
    /// that is gone, as what its parent learned stays in the weights it starts from. The
    /// file's activation, inputs, king buckets and output buckets win over the options (with
    /// a warning where they differ), except that a network without king buckets grows into
    /// the `--king-buckets` layout asked, each bucket a copy of its input weights, so that it
    /// starts out evaluating as before. Read as `EvalFile` reads it: `<embedded>` is the
    /// shipped network. In a build wider than the network, the neurons it lacks start with
    /// random input weights and zero output weights, so that they can learn.
    #[arg(long, value_name = "FILE", conflicts_with = "resume")]
    pub start_from: Option<String>,
}

/// A number from 0 to 1. Every float option is a range: NaN passed every clamp and comparison
/// and trained a network of NaN, and an infinite learning rate did the same.
fn zero_to_one(text: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(v) if (0.0..=1.0).contains(&v) => Ok(v),
        _ => Err(format!("{text}: must be a number from 0 to 1")),
    }
}

/// A number above 0 and at most 1 (a rate of 0 would train nothing).
fn above_zero_to_one(text: &str) -> Result<f32, String> {
    match zero_to_one(text) {
        Ok(v) if v > 0.0 => Ok(v),
        _ => Err(format!("{text}: must be a number above 0 and at most 1")),
    }
}

/// The validation share: 0 to 0.9.
fn valid_fraction(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(v) if (0.0..=0.9).contains(&v) => Ok(v),
        _ => Err(format!("{text}: must be a number from 0 to 0.9")),
    }
}

static STOP: AtomicBool = AtomicBool::new(false);

/// One training position, ready for the passes.
struct Sample {
    us: [u16; 32],
    them: [u16; 32],
    n: u8,
    /// Side to move's view.
    score: f32,
    result: f32,
    /// The hand-written evaluation (side to move's view), for a baseline loss.
    classical: f32,
}

impl Sample {
    fn new(p: &Packed, mirror: bool, shape: Shape) -> Sample {
        let (us, them, n) = features_mirrored(p, mirror, shape);
        let sign = stm_sign(p);
        let white_result = p.white_result();
        Sample {
            us,
            them,
            n: n as u8,
            score: f32::from(p.score) * sign,
            result: if sign > 0.0 {
                white_result
            } else {
                1.0 - white_result
            },
            classical: p.board().map_or(0.0, |b| crate::eval::evaluate(&b) as f32),
        }
    }
}

fn shard_paths(inputs: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut paths = Vec::new();
    for input in inputs {
        if input.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(input)
                .map_err(|e| format!("cannot read {}: {e}", input.display()))?
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "bin"))
                .collect();
            found.sort();
            paths.extend(found);
        } else {
            paths.push(input.clone());
        }
    }
    if paths.is_empty() {
        return Err("no shard files found".to_string());
    }
    Ok(paths)
}

/// The training and validation samples under the shape's input layouts: the tail of every
/// shard is held out.
fn load(args: &TrainArgs, shape: Shape) -> Result<(Vec<Sample>, Vec<Sample>), String> {
    if args.mirror && shape.inputs == Inputs::KingMirrored {
        return Err(
            "--mirror adds nothing to king-mirrored inputs: a position and its reflection \
             have the same inputs there"
                .to_string(),
        );
    }
    let (mut train, mut valid) = (Vec::new(), Vec::new());
    for path in shard_paths(&args.data)? {
        let bytes =
            std::fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let records = decode_all(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        let held = (records.len() as f64 * args.valid).round() as usize;
        let split = records.len() - held;
        let sample = |mirror| move |r: &Packed| Sample::new(r, mirror, shape);
        train.extend(records[..split].iter().map(sample(false)));
        if args.mirror {
            train.extend(records[..split].iter().map(sample(true)));
        }
        valid.extend(records[split..].iter().map(sample(false)));
    }
    if train.is_empty() {
        return Err("no training positions".to_string());
    }
    Ok((train, valid))
}

/// The K for which σ(K, score) best predicts the results (mean squared error): a coarse
/// scan, then ever finer ones, as `tune` fits its K.
fn fit_k(samples: &[Sample]) -> f32 {
    let error = |k: f32| -> f64 {
        samples
            .iter()
            .map(|s| f64::from((sigmoid(k, s.score) - s.result).powi(2)))
            .sum()
    };
    let (mut best, mut step) = (1.0f32, 0.1f32);
    for _ in 0..4 {
        let centre = best;
        for i in -10..=10 {
            let k = centre + i as f32 * step;
            if k > 0.0 && error(k) < error(best) {
                best = k;
            }
        }
        step /= 10.0;
    }
    best
}

struct Targets {
    k: f32,
    lambda: f32,
    shape: Shape,
}

impl Targets {
    fn of(&self, s: &Sample) -> f32 {
        self.lambda * s.result + (1.0 - self.lambda) * sigmoid(self.k, s.score)
    }
}

/// Sum of squared errors over `batch`, adding the gradient into `grad` when given.
fn pass(w: &[f32], batch: &[&Sample], t: &Targets, mut grad: Option<&mut [f32]>) -> f64 {
    let mut loss = 0.0;
    let ln10 = std::f32::consts::LN_10;
    for s in batch {
        let (us, them) = (&s.us[..usize::from(s.n)], &s.them[..usize::from(s.n)]);
        let fwd = forward(w, t.shape, us, them);
        let p = sigmoid(t.k, fwd.cp);
        let target = t.of(s);
        loss += f64::from((p - target).powi(2));
        if let Some(g) = grad.as_deref_mut() {
            // d/dcp (p − t)² with dp/dcp = p(1 − p)·ln10·K/400.
            let d_cp = 2.0 * (p - target) * p * (1.0 - p) * ln10 * t.k / 400.0;
            backward(w, &fwd, (us, them), d_cp, g, t.shape);
        }
    }
    loss
}

/// Mean loss of a data set, split between threads.
fn mean_loss(w: &[f32], data: &[Sample], t: &Targets, threads: usize) -> f64 {
    if data.is_empty() {
        return f64::NAN;
    }
    let refs: Vec<&Sample> = data.iter().collect();
    let chunk = refs.len().div_ceil(threads);
    let total: f64 = std::thread::scope(|scope| {
        let handles: Vec<_> = refs
            .chunks(chunk)
            .map(|part| scope.spawn(move || pass(w, part, t, None)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or(f64::NAN))
            .sum()
    });
    total / data.len() as f64
}

/// One batch: gradients from each thread's share, summed, averaged, then one AdamW step.
fn train_batch(
    w: &mut [f32],
    opt: &mut AdamW,
    batch: &[&Sample],
    t: &Targets,
    grads: &mut [Vec<f32>],
    grid_output: Option<GridOutput>,
) -> f64 {
    let chunk = batch.len().div_ceil(grads.len());
    // Under `qat` the passes see the weights as the file will hold them; the gradient they
    // give is applied to the float masters (the straight-through estimator).
    let fake_quantised;
    let w_ref: &[f32] = if grid_output == Some(GridOutput::Qat) {
        fake_quantised = model::with_output_on_grid(w, t.shape);
        &fake_quantised
    } else {
        w
    };
    let loss: f64 = std::thread::scope(|scope| {
        let handles: Vec<_> = batch
            .chunks(chunk)
            .zip(grads.iter_mut())
            .map(|(part, g)| {
                scope.spawn(move || {
                    g.fill(0.0);
                    pass(w_ref, part, t, Some(g))
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or(f64::NAN))
            .sum()
    });
    let (first, rest) = grads.split_at_mut(1);
    let scale = 1.0 / batch.len() as f32;
    for (i, g) in first[0].iter_mut().enumerate() {
        let mut sum = *g;
        for other in rest.iter().take(batch.len().div_ceil(chunk) - 1) {
            sum += other[i];
        }
        *g = sum * scale;
    }
    opt.step(w, &first[0]);
    model::clip(w, t.shape);
    if grid_output == Some(GridOutput::Snap) {
        model::snap_output_weights(w, t.shape);
    }
    loss
}

fn write_checkpoint(
    args: &TrainArgs,
    w: &[f32],
    opt: &AdamW,
    progress: Progress,
) -> Result<(), String> {
    let ckpt = checkpoint_path(args);
    std::fs::write(&ckpt, model::checkpoint_bytes(w, opt, progress))
        .map_err(|e| format!("cannot write {}: {e}", ckpt.display()))
}

fn write_network(args: &TrainArgs, w: &[f32], shape: Shape) -> Result<(), String> {
    std::fs::write(&args.out, model::quantise(w, shape).to_bytes())
        .map_err(|e| format!("cannot write {}: {e}", args.out.display()))
}

fn checkpoint_path(args: &TrainArgs) -> PathBuf {
    let mut name = args.out.clone().into_os_string();
    name.push(".ckpt");
    PathBuf::from(name)
}

/// The shape a fresh run trains, from the options.
fn shape_of(args: &TrainArgs) -> Result<Shape, String> {
    let activation = Activation::from_name(&args.activation)
        .ok_or_else(|| format!("unknown activation {}", args.activation))?;
    let inputs =
        Inputs::from_name(&args.inputs).ok_or_else(|| format!("unknown inputs {}", args.inputs))?;
    if !(1..=MAX_BUCKETS).contains(&args.buckets) {
        return Err(format!("--buckets must be 1 to {MAX_BUCKETS}"));
    }
    let king_buckets = KingBuckets::from_name(&args.king_buckets)
        .ok_or_else(|| format!("unknown king buckets {}", args.king_buckets))?;
    Ok(Shape {
        activation,
        buckets: args.buckets,
        inputs,
        king_buckets,
    })
}

/// Options that would do nothing (the other schedule's, or a drop without its epoch) and a
/// cosine that would climb are refused rather than ignored.
fn check_schedule(args: &TrainArgs) -> Result<(), String> {
    if args.lr_schedule == Schedule::Cosine {
        if args.lr_decay.is_some() || args.lr_drop_epoch.is_some() || args.lr_drop.is_some() {
            return Err(
                "--lr-decay, --lr-drop-epoch and --lr-drop belong to --lr-schedule step; the \
                 cosine schedule falls from --lr to --lr-min"
                    .to_string(),
            );
        }
        let min = args.lr_min.unwrap_or(LR_MIN);
        if min > args.lr {
            return Err(format!(
                "--lr-min {min} is above --lr {}: the cosine schedule falls",
                args.lr
            ));
        }
    } else {
        if args.lr_min.is_some() {
            return Err("--lr-min belongs to --lr-schedule cosine".to_string());
        }
        if args.lr_drop.is_some() && args.lr_drop_epoch.is_none() {
            return Err("--lr-drop needs --lr-drop-epoch, the epoch it starts at".to_string());
        }
    }
    Ok(())
}

pub fn run(args: &TrainArgs) -> Result<(), String> {
    check_schedule(args)?;
    if args.grid_output == Some(GridOutput::Snap) && args.start_from.is_none() && !args.resume {
        return Err(
            "--grid-output (snap) keeps the output weights where they start: it needs \
             --start-from (or --resume), or --grid-output=qat"
                .to_string(),
        );
    }
    let asked = shape_of(args)?;
    let (threads, batch_size) = (args.threads, args.batch);
    let started = Instant::now();
    let resumed = if args.resume {
        let ckpt = checkpoint_path(args);
        let bytes =
            std::fs::read(&ckpt).map_err(|e| format!("cannot read {}: {e}", ckpt.display()))?;
        let c = model::from_checkpoint(&bytes, args.lr, args.weight_decay)
            .map_err(|e| format!("{}: {e}", ckpt.display()))?;
        Some(c)
    } else {
        None
    };
    let start = match &args.start_from {
        // An empty name is the embedded network to `EvalFile` (a GUI's cleared field),
        // but here it is a shell variable that was never set.
        Some(path) if path.is_empty() => return Err("--start-from needs a file name".into()),
        Some(path) => {
            let net = select::load_file(path)
                .map_err(|e| format!("--start-from {path}: {e}"))?
                .ok_or_else(|| format!("--start-from {path}: this build embeds no network"))?;
            let (shape, w) = model::dequantise(&net);
            let (shape, mut w) = match model::grow_king_buckets(&w, shape, asked.king_buckets) {
                Some(grown) => {
                    eprintln!(
                        "the starting network's input weights copied into each of its {} king buckets",
                        asked.king_buckets.count()
                    );
                    grown
                }
                None => (shape, w),
            };
            let woken = model::wake_silent_neurons(&mut w, shape, args.seed);
            if woken > 0 {
                eprintln!("{woken} silent neurons of the starting network woken (random inputs, zero outputs)");
            }
            Some((shape, w))
        }
        None => None,
    };
    let given = resumed
        .as_ref()
        .map(|c| ("checkpoint", c.progress.shape))
        .or(start
            .as_ref()
            .map(|(shape, _)| ("starting network", *shape)));
    let shape = match given {
        Some((source, shape)) => {
            if asked != shape {
                eprintln!(
                    "warning: the options name another network shape than the {source}; the \
                     {source}'s shape wins"
                );
            }
            shape
        }
        None => asked,
    };
    // The checkpoint's best loss is the loss its --grid-output judged by, so its mode wins
    // where it recorded one.
    let grid = match &resumed {
        Some(c) if c.grid_recorded && c.progress.grid != args.grid_output => {
            eprintln!(
                "warning: the options' --grid-output ({}) is not the checkpoint's ({}); the \
                 checkpoint's wins",
                GridOutput::name(args.grid_output),
                GridOutput::name(c.progress.grid)
            );
            c.progress.grid
        }
        _ => args.grid_output,
    };
    let (train, valid) = load(args, shape)?;
    let k = fit_k(&train);
    let fresh = |w| {
        let opt = AdamW::new(shape.params(), args.lr, args.weight_decay);
        (w, opt, 0, f64::INFINITY)
    };
    let (mut w, mut opt, done, mut best_valid) = match (resumed, start) {
        (Some(c), _) => (c.weights, c.opt, c.progress.epoch, c.progress.best_valid),
        (None, Some((_, w))) => fresh(w),
        (None, None) => fresh(model::init(shape, args.seed)),
    };
    if done >= args.epochs {
        return Err(format!(
            "the checkpoint has trained {done} epochs, and --epochs {} asks for no more",
            args.epochs
        ));
    }
    let targets = Targets {
        k,
        lambda: args.lambda,
        shape,
    };
    eprintln!(
        "{} training and {} validation positions, K = {k:.3}, lambda = {}, {} inputs, {} king buckets, {}, {} buckets, {} threads",
        train.len(),
        valid.len(),
        targets.lambda,
        shape.inputs.name(),
        shape.king_buckets.count(),
        shape.activation.name(),
        shape.buckets,
        threads
    );
    let baseline = |data: &[Sample]| {
        data.iter()
            .map(|s| f64::from((sigmoid(k, s.classical) - targets.of(s)).powi(2)))
            .sum::<f64>()
            / data.len().max(1) as f64
    };
    println!(
        "hand-written evaluation: train loss {:.6}, valid loss {:.6}",
        baseline(&train),
        baseline(&valid)
    );
    if let Some(path) = &args.start_from {
        println!(
            "starting network {path}: valid loss {:.6}",
            mean_loss(&w, &valid, &targets, threads)
        );
    }
    opt.lr = learning_rate(args, done + 1);
    if let Err(e) = crate::tools::interrupt::on_interrupt(|| STOP.store(true, Ordering::SeqCst)) {
        eprintln!("warning: Ctrl-C will not stop cleanly: {e}");
    }
    let mut grads = vec![vec![0.0f32; shape.params()]; threads];
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut rng = crate::rng::Rng::new(args.seed ^ 0x9E37_79B9_7F4A_7C15 ^ done);
    let batches = train.len().div_ceil(batch_size) as u64;
    let bar = ProgressBar::new(batches * args.epochs.saturating_sub(done));
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {pos}/{len} batches, {per_sec}, ETA {eta} {msg}",
        )
        .map_err(|e| e.to_string())?
        .progress_chars("=> "),
    );
    let mut wrote = false;
    for epoch in done + 1..=args.epochs {
        // Fisher–Yates with the project's xorshift: a new order every epoch.
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        let mut loss = 0.0;
        let mut seen = 0usize;
        for ids in order.chunks(batch_size) {
            if STOP.load(Ordering::SeqCst) {
                break;
            }
            let batch: Vec<&Sample> = ids.iter().map(|&i| &train[i]).collect();
            loss += train_batch(&mut w, &mut opt, &batch, &targets, &mut grads, grid);
            seen += batch.len();
            bar.inc(1);
            bar.set_message(format!("epoch {epoch} loss {:.6}", loss / seen as f64));
        }
        if STOP.load(Ordering::SeqCst) {
            bar.finish_and_clear();
            let progress = Progress {
                epoch: epoch - 1,
                best_valid,
                shape,
                grid,
            };
            write_checkpoint(args, &w, &opt, progress)?;
            eprintln!(
                "stopped in epoch {epoch}: wrote {}; {} holds the best epoch so far",
                checkpoint_path(args).display(),
                args.out.display()
            );
            return Ok(());
        }
        let valid_loss = mean_loss(&w, &valid, &targets, threads);
        // The file holds the weights rounded to the engine's integers, and that rounding can
        // undo a link's small steps: a link's output weights move by less than the 1/QB
        // between two stored values (docs/measurements/network-chain.md, "an eighth link"). So the loss of
        // the network as it would be written is printed beside the float one.
        let written = model::dequantise(&model::quantise(&w, shape)).1;
        let written_loss = mean_loss(&written, &valid, &targets, threads);
        let train_loss = loss / seen.max(1) as f64;
        bar.suspend(|| {
            println!(
                "epoch {epoch}: train loss {train_loss:.6}, valid loss {valid_loss:.6} (as written {written_loss:.6}), lr {:.2e}, {:.0} s",
                opt.lr,
                started.elapsed().as_secs_f64()
            );
        });
        // Weights gone to NaN or infinity stay there: stop rather than write them.
        if !train_loss.is_finite() || !(valid.is_empty() || valid_loss.is_finite()) {
            bar.finish_and_clear();
            return Err(format!(
                "training diverged in epoch {epoch} (loss {train_loss}); nothing written for \
                 it: try a smaller --lr"
            ));
        }
        // Without validation positions every epoch is written, and best_valid stays
        // infinite: their loss is NaN, which a checkpoint may not hold.
        // The file is what is judged: under --grid-output the epoch is chosen by the loss
        // as written (the float loss otherwise, which earlier runs chose by).
        let judged = if grid.is_some() {
            written_loss
        } else {
            valid_loss
        };
        if valid.is_empty() || judged < best_valid {
            if !valid.is_empty() {
                best_valid = judged;
            }
            write_network(args, &w, shape)?;
            wrote = true;
        }
        let progress = Progress {
            epoch,
            best_valid,
            shape,
            grid,
        };
        write_checkpoint(args, &w, &opt, progress)?;
        opt.lr = learning_rate(args, epoch + 1);
    }
    bar.finish_and_clear();
    if wrote {
        eprintln!("wrote {}", args.out.display());
    } else if best_valid.is_finite() && args.out.is_file() {
        eprintln!(
            "no epoch beat the checkpoint's validation loss {best_valid:.6}: {} still holds \
             that network",
            args.out.display()
        );
    } else {
        return Err(format!("no network was written to {}", args.out.display()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: TrainArgs,
    }

    /// One batch under each `--grid-output`: under `qat` the loss is that of the weights with
    /// their output layer rounded (what the file will hold), not the float weights', and the
    /// masters come out of the step off the grid, where `snap` puts them on it; without the
    /// option the loss is the float weights'.
    #[test]
    fn a_batch_trains_through_the_grid_it_is_asked_for() {
        use crate::eval::nnue::QB;
        use crate::tools::packed::Packed;
        let shape = Shape {
            activation: Activation::SCReLU,
            buckets: 1,
            inputs: Inputs::Plain,
            king_buckets: KingBuckets::NONE,
        };
        let samples: Vec<Sample> = [
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            "r3k2r/pppq1ppp/2n1bn2/3pp3/3PP3/2N1BN2/PPPQ1PPP/R3K2R w KQkq - 0 1",
            "8/5pk1/6p1/8/3R4/6P1/5PK1/8 w - - 0 40",
        ]
        .iter()
        .enumerate()
        .map(|(i, fen)| {
            let pos = crate::position::Position::from_fen(fen).expect("test FEN");
            let score = 150 * (i as i16 - 1);
            Sample::new(&Packed::new(pos.board(), score, 1, 1), false, shape)
        })
        .collect();
        let batch: Vec<&Sample> = samples.iter().collect();
        let t = Targets {
            k: 1.0,
            lambda: 0.0,
            shape,
        };
        let start = model::init(shape, 5);
        let outputs = shape.out_w(0)..shape.out_b(0);
        let on_grid = |w: &[f32]| {
            w[outputs.clone()]
                .iter()
                .all(|x| (x * QB as f32).fract() == 0.0)
        };
        assert!(
            !on_grid(&start),
            "the random output weights are on the grid already"
        );
        let run = |grid: Option<GridOutput>| {
            let mut w = start.clone();
            let mut opt = AdamW::new(shape.params(), 0.001, 0.0);
            let mut grads = vec![vec![0.0; shape.params()]; 2];
            let loss = train_batch(&mut w, &mut opt, &batch, &t, &mut grads, grid);
            (loss, w)
        };
        let (float_loss, float_w) = run(None);
        let (qat_loss, qat_w) = run(Some(GridOutput::Qat));
        let (snap_loss, snap_w) = run(Some(GridOutput::Snap));
        let written = model::with_output_on_grid(&start, shape);
        assert_eq!(float_loss, pass(&start, &batch, &t, None));
        assert_eq!(qat_loss, pass(&written, &batch, &t, None));
        assert_ne!(qat_loss, float_loss);
        assert_eq!(
            snap_loss, float_loss,
            "snap rounds after the step, not before"
        );
        assert!(!on_grid(&qat_w) && !on_grid(&float_w) && on_grid(&snap_w));
        assert_ne!(
            qat_w, float_w,
            "qat's step came from the float weights' gradient"
        );
    }

    /// Decay after every epoch, and the step down from the drop epoch on (epochs from 1).
    #[test]
    fn the_learning_rate_decays_then_drops() {
        let cli = Cli::try_parse_from([
            "train",
            "data",
            "--lr",
            "0.001",
            "--lr-decay",
            "0.5",
            "--lr-drop-epoch",
            "3",
        ])
        .expect("arguments");
        let lr: Vec<f32> = (1..=4).map(|e| learning_rate(&cli.args, e)).collect();
        let expected = [0.001, 0.0005, 0.000_025, 0.000_012_5];
        for (got, want) in lr.iter().zip(expected) {
            assert!((got - want).abs() < 1e-9, "{lr:?}");
        }
        let plain = Cli::try_parse_from(["train", "data", "--lr-decay", "0.5"]).expect("arguments");
        assert_eq!(learning_rate(&plain.args, 1), plain.args.lr);
        assert_eq!(
            learning_rate(&plain.args, 9),
            plain.args.lr * 0.5f32.powi(8)
        );
    }

    /// SGDR's equation 5 at the points where its cosine is known exactly: the start (η_max),
    /// a quarter of the way (η_min + (η_max − η_min)(1 + √½)/2), halfway (the mean) and the
    /// end (η_min); in between it only falls.
    #[test]
    fn the_cosine_schedule_follows_sgdr() {
        let (max, min) = (0.004f32, 0.00004f32);
        let close = |got: f32, want: f64| (f64::from(got) - want).abs() < 1e-8;
        assert!(close(cosine_rate(max, min, 1, 5), 0.004));
        let quarter = 0.00004 + (0.004 - 0.00004) * (1.0 + 0.5f64.sqrt()) / 2.0;
        assert!(close(cosine_rate(max, min, 2, 5), quarter));
        assert!(close(cosine_rate(max, min, 3, 5), 0.00202));
        assert!(close(cosine_rate(max, min, 5, 5), 0.00004));
        let rates: Vec<f32> = (1..=20).map(|e| cosine_rate(max, min, e, 20)).collect();
        assert!(rates.windows(2).all(|w| w[1] < w[0]), "{rates:?}");
        assert_eq!(cosine_rate(max, min, 1, 1), max);
        let cli = Cli::try_parse_from([
            "train",
            "data",
            "--lr",
            "0.004",
            "--lr-schedule",
            "cosine",
            "--lr-min",
            "0.00004",
            "--epochs",
            "5",
        ])
        .expect("arguments");
        assert!(check_schedule(&cli.args).is_ok());
        assert!(close(learning_rate(&cli.args, 3), 0.00202));
    }

    /// The other schedule's options, and a cosine that would climb, are errors, not ignored.
    #[test]
    fn schedule_options_that_do_not_apply_are_refused() {
        let refused = |extra: &[&str]| {
            let mut argv = vec!["train", "data", "--lr-schedule", "cosine"];
            argv.extend_from_slice(extra);
            let cli = Cli::try_parse_from(argv).expect("arguments");
            check_schedule(&cli.args).expect_err("refused")
        };
        assert!(refused(&["--lr-decay", "0.9"]).contains("--lr-decay"));
        assert!(refused(&["--lr-drop-epoch", "3"]).contains("--lr-drop-epoch"));
        assert!(refused(&["--lr-drop", "0.5"]).contains("--lr-drop"));
        assert!(refused(&["--lr", "0.001", "--lr-min", "0.01"]).contains("--lr-min"));
        assert!(refused(&["--lr", "0.000001"]).contains("--lr-min 0.00001"));
        let step = |extra: &[&str]| {
            let mut argv = vec!["train", "data"];
            argv.extend_from_slice(extra);
            check_schedule(&Cli::try_parse_from(argv).expect("arguments").args)
        };
        assert!(step(&[
            "--lr-decay",
            "0.9",
            "--lr-drop-epoch",
            "3",
            "--lr-drop",
            "0.5"
        ])
        .is_ok());
        assert!(step(&["--lr-min", "0.0001"])
            .expect_err("refused")
            .contains("cosine"));
        assert!(step(&["--lr-drop", "0.5"])
            .expect_err("refused")
            .contains("--lr-drop-epoch"));
    }
}
