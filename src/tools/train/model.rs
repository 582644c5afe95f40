//! The network in floating point for training: forward and backward passes for one
//! position, AdamW, quantisation to the engine's format and checkpoints.

use crate::eval::nnue::{
    feature, output_bucket, Activation, Inputs, KingBuckets, Network, Output, View, HIDDEN, INPUTS,
    MAX_BUCKETS, QA, QB, SCALE, SCRELU_MAX_OUT_WEIGHT,
};
use crate::tools::packed::Packed;
use chess::{Color, Piece, Square};

/// The network being trained, beyond the sizes fixed at compile time.
///
/// Weights live in one flat vector so that gradients, Adam moments and checkpoints share a
/// layout: feature weights (input-major, king bucket 0's inputs first), feature biases, then
/// for each output bucket its `2 × HIDDEN` output weights (side to move first) and its bias,
/// as in the file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub activation: Activation,
    /// Output buckets (`eval::nnue::output_bucket`).
    pub buckets: usize,
    /// The input layout (`eval::nnue::Inputs`).
    pub inputs: Inputs,
    /// The king-bucket layout (`eval::nnue::KingBuckets`).
    pub king_buckets: KingBuckets,
}

/// Where the feature weights start.
pub const FT_W: usize = 0;
/// One bucket's weights and bias.
pub const OUT_LEN: usize = 2 * HIDDEN + 1;

impl Shape {
    pub fn params(self) -> usize {
        self.out() + self.buckets * OUT_LEN
    }

    /// Where the feature biases start, after `INPUTS` rows for each king bucket.
    pub fn ft_b(self) -> usize {
        FT_W + INPUTS * self.king_buckets.count() * HIDDEN
    }

    /// Where the first output bucket's weights start.
    pub fn out(self) -> usize {
        self.ft_b() + HIDDEN
    }

    /// Index of bucket `b`'s first output weight; its bias follows the `2 × HIDDEN` weights.
    pub fn out_w(self, b: usize) -> usize {
        self.out() + b * OUT_LEN
    }

    pub fn out_b(self, b: usize) -> usize {
        self.out_w(b) + 2 * HIDDEN
    }
}

/// Input indices of a position from the side to move's view and the other side's, under
/// the shape's input and king-bucket layouts, exactly as the engine computes them.
pub fn features(p: &Packed, shape: Shape) -> ([u16; 32], [u16; 32], usize) {
    features_mirrored(p, false, shape)
}

/// The same with files mirrored (a↔h) when `mirror` is set: the position's left-right
/// reflection, which has the same value once castling rights are gone (they are not stored).
/// Under king-mirrored inputs the reflection has the same inputs as the position itself.
pub fn features_mirrored(p: &Packed, mirror: bool, shape: Shape) -> ([u16; 32], [u16; 32], usize) {
    let them = !p.stm;
    let reflect = |sq: Square| chess::ALL_SQUARES[sq.to_index() ^ if mirror { 7 } else { 0 }];
    let view = |colour: Color| {
        p.pieces()
            .find(|&(_, c, piece)| c == colour && piece == Piece::King)
            .map_or(View::default(), |(sq, _, _)| {
                View::of(shape.inputs, shape.king_buckets, colour, reflect(sq))
            })
    };
    let (us_view, them_view) = (view(p.stm), view(them));
    let (mut us_f, mut them_f, mut n) = ([0u16; 32], [0u16; 32], 0);
    for (sq, colour, piece) in p.pieces().take(32) {
        let sq = reflect(sq);
        us_f[n] = feature(p.stm, us_view, colour, piece, sq) as u16;
        them_f[n] = feature(them, them_view, colour, piece, sq) as u16;
        n += 1;
    }
    (us_f, them_f, n)
}

/// Small deterministic initial weights (uniform, He-like scale for the 30-odd active
/// inputs), from a seed.
pub fn init(shape: Shape, seed: u64) -> Vec<f32> {
    let mut state = seed ^ 0x2545_F491_4F6C_DD1D;
    let mut uniform = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f32 / (1u64 << 53) as f32 * 2.0 - 1.0
    };
    let mut w = vec![0.0f32; shape.params()];
    for x in &mut w[FT_W..shape.ft_b()] {
        *x = uniform() * 0.1;
    }
    for x in &mut w[shape.ft_b()..shape.out()] {
        *x = 0.1 + uniform() * 0.05;
    }
    for b in 0..shape.buckets {
        for x in &mut w[shape.out_w(b)..shape.out_b(b)] {
            *x = uniform() * (1.0 / HIDDEN as f32).sqrt();
        }
    }
    w
}

/// One forward pass: the accumulators (for the backward pass) and the output in
/// centipawns for the side to move.
pub struct Pass {
    pub acc: [[f32; HIDDEN]; 2],
    pub bucket: usize,
    pub cp: f32,
}

/// The activation in floating point, where the accumulator's 1.0 is the engine's `QA`.
#[inline]
fn activate(act: Activation, a: f32) -> f32 {
    let c = a.clamp(0.0, 1.0);
    match act {
        Activation::CReLU => c,
        Activation::SCReLU => c * c,
    }
}

/// The activation's derivative (0 where the clip is flat).
#[inline]
fn activate_slope(act: Activation, a: f32) -> f32 {
    if a <= 0.0 || a >= 1.0 {
        return 0.0;
    }
    match act {
        Activation::CReLU => 1.0,
        Activation::SCReLU => 2.0 * a,
    }
}

/// The largest output weight the engine accepts under `act` (SCReLU bounds it so the
/// quantised sums cannot overflow; see `eval::nnue`). The optimiser clips to it after
/// every step.
pub fn out_weight_limit(act: Activation) -> f32 {
    match act {
        Activation::CReLU => f32::INFINITY,
        Activation::SCReLU => f32::from(SCRELU_MAX_OUT_WEIGHT) / QB as f32,
    }
}

/// Keep the weights inside what the engine's integer arithmetic accepts.
pub fn clip(w: &mut [f32], shape: Shape) {
    let limit = out_weight_limit(shape.activation);
    for b in 0..shape.buckets {
        for x in &mut w[shape.out_w(b)..shape.out_b(b)] {
            *x = x.clamp(-limit, limit);
        }
    }
}

/// Round the output weights to the engine's grid (multiples of 1/QB), as [`quantise`]
/// will; the feature layer and the output biases, stored far finer, are left alone.
pub fn snap_output_weights(w: &mut [f32], shape: Shape) {
    let qb = QB as f32;
    for b in 0..shape.buckets {
        for x in &mut w[shape.out_w(b)..shape.out_b(b)] {
            *x = (*x * qb).round() / qb;
        }
    }
}

/// A copy of `w` whose output weights are where the file will store them: the weights
/// that quantisation-aware training's passes see (Jacob et al. 2018, "Quantization and
/// Training of Neural Networks for Efficient Integer-Arithmetic-Only Inference", section 3:
/// float weights kept for the update, rounded in the forward pass), with the gradient passed
/// straight through the rounding (Bengio, Léonard & Courville 2013, "Estimating or
/// Propagating Gradients Through Stochastic Neurons for Conditional Computation", the
/// straight-through estimator). The feature layer is left in float: rounding it to its
/// 1/QA grid costs nothing measurable (docs/measurements/network-chain.md, "an eighth link"), and so are
/// the output biases, stored in steps of 1/(QA·QB).
pub fn with_output_on_grid(w: &[f32], shape: Shape) -> Vec<f32> {
    let mut on_grid = w.to_vec();
    snap_output_weights(&mut on_grid, shape);
    on_grid
}

/// The bucket comes from the number of active features, which is the number of pieces.
pub fn forward(w: &[f32], shape: Shape, us: &[u16], them: &[u16]) -> Pass {
    let act = shape.activation;
    let bucket = output_bucket(shape.buckets, us.len());
    let mut acc = [[0.0f32; HIDDEN]; 2];
    for (side, list) in [us, them].into_iter().enumerate() {
        acc[side].copy_from_slice(&w[shape.ft_b()..shape.out()]);
        for &f in list {
            let row = &w[FT_W + usize::from(f) * HIDDEN..][..HIDDEN];
            for (a, x) in acc[side].iter_mut().zip(row) {
                *a += x;
            }
        }
    }
    let mut out = w[shape.out_b(bucket)];
    for side in 0..2 {
        let ow = &w[shape.out_w(bucket) + side * HIDDEN..][..HIDDEN];
        for (a, x) in acc[side].iter().zip(ow) {
            out += activate(act, *a) * x;
        }
    }
    Pass {
        acc,
        bucket,
        cp: out * SCALE as f32,
    }
}

/// Add d(loss)/d(weights) into `grad`, given d(loss)/d(cp) for this position.
pub fn backward(
    w: &[f32],
    pass: &Pass,
    (us, them): (&[u16], &[u16]),
    d_cp: f32,
    grad: &mut [f32],
    shape: Shape,
) {
    let act = shape.activation;
    let d_out = d_cp * SCALE as f32;
    let out_w = shape.out_w(pass.bucket);
    grad[shape.out_b(pass.bucket)] += d_out;
    for (side, list) in [us, them].into_iter().enumerate() {
        let mut d_acc = [0.0f32; HIDDEN];
        let ow = &w[out_w + side * HIDDEN..][..HIDDEN];
        let g_ow = &mut grad[out_w + side * HIDDEN..][..HIDDEN];
        for i in 0..HIDDEN {
            let a = pass.acc[side][i];
            g_ow[i] += d_out * activate(act, a);
            d_acc[i] = d_out * ow[i] * activate_slope(act, a);
        }
        for (g, d) in grad[shape.ft_b()..shape.out()].iter_mut().zip(&d_acc) {
            *g += d;
        }
        for &f in list {
            let row = &mut grad[FT_W + usize::from(f) * HIDDEN..][..HIDDEN];
            for (g, d) in row.iter_mut().zip(&d_acc) {
                *g += d;
            }
        }
    }
}

/// The Texel-tuning sigmoid (as in `tune`): expected score of a position scored `cp`,
/// `1 / (1 + 10^(−K·cp/400))`.
pub fn sigmoid(k: f32, cp: f32) -> f32 {
    1.0 / (1.0 + 10f32.powf(-k * cp / 400.0))
}

/// AdamW: Adam (Kingma & Ba 2015, "Adam: A Method for Stochastic Optimization", Algorithm 1:
/// m ← β1·m + (1−β1)·g, v ← β2·v + (1−β2)·g², θ ← θ − α·m̂/(√v̂ + ε) with m̂ = m/(1−β1^t),
/// v̂ = v/(1−β2^t)) with decoupled weight decay θ ← θ − α·λ·θ (Loshchilov & Hutter 2019,
/// "Decoupled Weight Decay Regularization", Algorithm 2).
pub struct AdamW {
    pub m: Vec<f32>,
    pub v: Vec<f32>,
    pub t: u64,
    pub lr: f32,
    pub decay: f32,
}

impl AdamW {
    pub const BETA1: f32 = 0.9;
    pub const BETA2: f32 = 0.999;
    pub const EPSILON: f32 = 1e-8;

    pub fn new(n: usize, lr: f32, decay: f32) -> AdamW {
        AdamW {
            m: vec![0.0; n],
            v: vec![0.0; n],
            t: 0,
            lr,
            decay,
        }
    }

    pub fn step(&mut self, w: &mut [f32], grad: &[f32]) {
        self.t += 1;
        let c1 = 1.0 - Self::BETA1.powi(self.t.min(1 << 20) as i32);
        let c2 = 1.0 - Self::BETA2.powi(self.t.min(1 << 20) as i32);
        for i in 0..w.len() {
            let g = grad[i];
            self.m[i] = Self::BETA1 * self.m[i] + (1.0 - Self::BETA1) * g;
            self.v[i] = Self::BETA2 * self.v[i] + (1.0 - Self::BETA2) * g * g;
            let m_hat = self.m[i] / c1;
            let v_hat = self.v[i] / c2;
            w[i] -= self.lr * (m_hat / (v_hat.sqrt() + Self::EPSILON) + self.decay * w[i]);
        }
    }
}

/// The engine's quantised network (rounding, clamped to the integer types).
pub fn quantise(w: &[f32], shape: Shape) -> Network {
    let q16 = |x: f32, scale: i32| (x * scale as f32).round().clamp(-32767.0, 32767.0) as i16;
    let mut net = Network::zeroed_with(shape.king_buckets);
    net.activation = shape.activation;
    net.inputs = shape.inputs;
    for (i, row) in net.ft_weights.iter_mut().enumerate() {
        for (j, q) in row.iter_mut().enumerate() {
            *q = q16(w[FT_W + i * HIDDEN + j], QA);
        }
    }
    for (j, q) in net.ft_bias.iter_mut().enumerate() {
        *q = q16(w[shape.ft_b() + j], QA);
    }
    let limit = out_weight_limit(shape.activation);
    net.outputs = (0..shape.buckets)
        .map(|b| {
            let mut out = Output::ZERO;
            for (side, row) in out.weights.iter_mut().enumerate() {
                for (j, q) in row.iter_mut().enumerate() {
                    let x = w[shape.out_w(b) + side * HIDDEN + j].clamp(-limit, limit);
                    *q = q16(x, QB);
                }
            }
            out.bias = (w[shape.out_b(b)] * (QA * QB) as f32).round() as i32;
            out
        })
        .collect();
    net
}

/// The weights and shape a quantised network stands for: the inverse of [`quantise`], and
/// exact, since every stored integer divided by its scale is a float that rounds back to it.
/// A network narrower than this build gives zeros for the neurons it lacks, which could
/// never learn; [`wake_silent_neurons`] gives them a start.
pub fn dequantise(net: &Network) -> (Shape, Vec<f32>) {
    let shape = Shape {
        activation: net.activation,
        buckets: net.outputs.len(),
        inputs: net.inputs,
        king_buckets: net.king_buckets,
    };
    let mut w = vec![0.0f32; shape.params()];
    for (i, row) in net.ft_weights.iter().enumerate() {
        for (j, &q) in row.iter().enumerate() {
            w[FT_W + i * HIDDEN + j] = f32::from(q) / QA as f32;
        }
    }
    for (j, &q) in net.ft_bias.iter().enumerate() {
        w[shape.ft_b() + j] = f32::from(q) / QA as f32;
    }
    for (b, out) in net.outputs.iter().enumerate() {
        for (side, row) in out.weights.iter().enumerate() {
            for (j, &q) in row.iter().enumerate() {
                w[shape.out_w(b) + side * HIDDEN + j] = f32::from(q) / QB as f32;
            }
        }
        w[shape.out_b(b)] = out.bias as f32 / (QA * QB) as f32;
    }
    (shape, w)
}

/// Gives every silent neuron (all its input weights, its bias and all its output weights
/// zero) a fresh network's input weights and bias, and returns how many there were.
///
/// A 128-neuron network read into a 256-neuron build has 128 such neurons, and they could
/// never learn: a silent neuron's activation is 0, so its output weights get no gradient,
/// and its zero output weights pass none back to its inputs. Woken with random inputs and
/// still zero outputs, each has an activation to learn its output weights from while the
/// network's output stays exactly what it was: a function-preserving widening in the sense
/// of Net2Net (Chen, Goodfellow and Shlens, ICLR 2016), with new neurons instead of their
/// split copies of old ones.
pub fn wake_silent_neurons(w: &mut [f32], shape: Shape, seed: u64) -> usize {
    let silent: Vec<usize> = (0..HIDDEN)
        .filter(|&j| {
            neuron_inputs(shape, j)
                .chain(neuron_outputs(shape, j))
                .all(|i| w[i] == 0.0)
        })
        .collect();
    if !silent.is_empty() {
        let fresh = init(shape, seed);
        for &j in &silent {
            for i in neuron_inputs(shape, j) {
                w[i] = fresh[i];
            }
        }
    }
    silent.len()
}

/// A network without king buckets spread over the layout `to`: every bucket starts as a copy
/// of its one set of input weights. `None` unless the network has one bucket and `to` more.
///
/// Each perspective then reads the same weights whichever bucket its king selects, so the
/// grown network evaluates every position exactly as its parent did (function-preserving,
/// as in Net2Net, Chen, Goodfellow and Shlens, ICLR 2016), and training spends the data on
/// how the buckets should differ. Buckets trained from random weights instead each learn
/// from only the positions whose king stands in them, which is why four of them measured
/// +9.7 % validation loss on network 8's 7.24 M positions (2026-11-27, ff3da7e).
pub fn grow_king_buckets(w: &[f32], shape: Shape, to: KingBuckets) -> Option<(Shape, Vec<f32>)> {
    if shape.king_buckets.count() != 1 || to.count() == 1 {
        return None;
    }
    let grown = Shape {
        king_buckets: to,
        ..shape
    };
    let rows = &w[FT_W..shape.ft_b()];
    let mut out = Vec::with_capacity(grown.params());
    for _ in 0..to.count() {
        out.extend_from_slice(rows);
    }
    out.extend_from_slice(&w[shape.ft_b()..]);
    Some((grown, out))
}

/// Where neuron `j`'s input weights (every input row of every king bucket) and its bias lie.
fn neuron_inputs(shape: Shape, j: usize) -> impl Iterator<Item = usize> {
    let rows = INPUTS * shape.king_buckets.count();
    (0..rows)
        .map(move |i| FT_W + i * HIDDEN + j)
        .chain(std::iter::once(shape.ft_b() + j))
}

/// Where neuron `j`'s output weights lie: one for each side in every output bucket.
fn neuron_outputs(shape: Shape, j: usize) -> impl Iterator<Item = usize> {
    (0..shape.buckets).flat_map(move |b| (0..2).map(move |side| shape.out_w(b) + side * HIDDEN + j))
}

/// Bytes before the weights in a checkpoint.
const CKPT_HEADER: usize = 112;
/// The same in the older `SGC4` checkpoints, which do not record `--grid-output` (left to
/// the options).
const CKPT_HEADER_V4: usize = 108;
/// The same in the older `SGC3` checkpoints, which have no king-bucket layout (one bucket).
const CKPT_HEADER_V3: usize = 44;
/// The same in the older `SGC2` checkpoints, which have no inputs field either (plain inputs).
const CKPT_HEADER_V2: usize = 40;

/// The most epochs a run may train (`--epochs`), and so a checkpoint may record: far beyond
/// any run (tens of epochs), and small enough that counting on from it cannot overflow.
pub const MAX_EPOCHS: u64 = 100_000;
/// The most Adam steps a checkpoint may record: one a batch, so more than any run could take
/// (10^14), and far from the wrap to 0 that would divide by zero in the bias correction.
const MAX_ADAM_STEPS: u64 = 1 << 48;

/// What a checkpoint records besides the weights and the optimiser.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    pub epoch: u64,
    pub best_valid: f64,
    pub shape: Shape,
    /// The run's `--grid-output`: it decides which loss `best_valid` is (as written or
    /// float), so a resumed run keeps it.
    pub grid: Option<GridOutput>,
}

/// How `--grid-output` trains for the engine's output grid (steps of 1/QB), where a link's
/// small steps are otherwise lost when the file is written (docs/measurements/network-chain.md, "an eighth
/// link").
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum GridOutput {
    /// round the output weights to the grid after every step: at a link's rates none moves,
    /// and the feature layer alone learns
    Snap,
    /// quantisation-aware training: float master weights, each batch's forward and backward
    /// pass through their rounded copy, and the gradient applied to the masters as if the
    /// rounding were not there, so that steps too small to cross a grid point add up until
    /// they do
    Qat,
}

impl GridOutput {
    /// The option's value as clap spells it, or `none` when it was not given.
    pub fn name(grid: Option<GridOutput>) -> String {
        use clap::ValueEnum;
        grid.and_then(|g| g.to_possible_value())
            .map_or("none".to_string(), |v| v.get_name().to_string())
    }

    /// The checkpoint's code (0 for no `--grid-output`).
    fn code(grid: Option<GridOutput>) -> u32 {
        match grid {
            None => 0,
            Some(GridOutput::Snap) => 1,
            Some(GridOutput::Qat) => 2,
        }
    }

    fn from_code(code: u32) -> Result<Option<GridOutput>, String> {
        match code {
            0 => Ok(None),
            1 => Ok(Some(GridOutput::Snap)),
            2 => Ok(Some(GridOutput::Qat)),
            _ => Err(format!("unknown --grid-output code {code}")),
        }
    }
}

/// Checkpoint: `b"SGC5"`, u32 HIDDEN, u32 activation and u32 inputs (the network file's
/// codes), u32 output buckets, u64 epoch, u64 Adam step, f64 best validation loss so far,
/// the 64-byte king-bucket layout, u32 `--grid-output` (0 none, 1 snap, 2 qat), then
/// weights, m and v as f32 (`shape.params()` each), all little-endian. `SGC4` is the same
/// without the `--grid-output` field, `SGC3` also without the layout, `SGC2` also without
/// the inputs field. An `SGC4` or older checkpoint reads as `--grid-output` unrecorded.
pub fn checkpoint_bytes(w: &[f32], opt: &AdamW, progress: Progress) -> Vec<u8> {
    let Progress {
        epoch,
        best_valid,
        shape,
        grid,
    } = progress;
    let mut out = Vec::with_capacity(CKPT_HEADER + 12 * w.len());
    out.extend_from_slice(b"SGC5");
    for v in [
        HIDDEN as u32,
        shape.activation.code(),
        shape.inputs.code(),
        shape.buckets as u32,
    ] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(&epoch.to_le_bytes());
    out.extend_from_slice(&opt.t.to_le_bytes());
    out.extend_from_slice(&best_valid.to_le_bytes());
    out.extend_from_slice(shape.king_buckets.table());
    out.extend_from_slice(&GridOutput::code(grid).to_le_bytes());
    for x in w.iter().chain(&opt.m).chain(&opt.v) {
        out.extend_from_slice(&x.to_le_bytes());
    }
    out
}

/// A checkpoint as read back.
pub struct Checkpoint {
    pub weights: Vec<f32>,
    pub opt: AdamW,
    pub progress: Progress,
    /// Whether `progress.grid` was recorded: `SGC4` and older checkpoints do not say, and
    /// some of them were written by `--grid-output` (snap) runs, so the options decide.
    pub grid_recorded: bool,
}

/// Parse a checkpoint.
pub fn from_checkpoint(bytes: &[u8], lr: f32, decay: f32) -> Result<Checkpoint, String> {
    let (version, header) = match bytes.get(0..4) {
        Some(b"SGC5") => (5, CKPT_HEADER),
        Some(b"SGC4") => (4, CKPT_HEADER_V4),
        Some(b"SGC3") => (3, CKPT_HEADER_V3),
        Some(b"SGC2") => (2, CKPT_HEADER_V2),
        _ => {
            return Err(
                "not a Sandglass checkpoint (magic is none of SGC5, SGC4, SGC3 and SGC2)"
                    .to_string(),
            )
        }
    };
    if bytes.len() < header {
        return Err(format!("checkpoint ends early, at byte {}", bytes.len()));
    }
    let u32_at =
        |at: usize| u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    let u64_at = |at: usize| {
        let mut b = [0u8; 8];
        b.copy_from_slice(&bytes[at..at + 8]);
        u64::from_le_bytes(b)
    };
    let hidden = u32_at(4);
    if hidden as usize != HIDDEN {
        return Err(format!(
            "checkpoint has {hidden} hidden neurons, this build {HIDDEN}"
        ));
    }
    let code = u32_at(8);
    let activation =
        Activation::from_code(code).ok_or_else(|| format!("unknown activation {code}"))?;
    // The fields after the activation sit one u32 later from version 3 on.
    let at = if version >= 3 { 4 } else { 0 };
    let inputs = if version >= 3 {
        let code = u32_at(12);
        Inputs::from_code(code).ok_or_else(|| format!("unknown inputs {code}"))?
    } else {
        Inputs::Plain
    };
    let buckets = u32_at(12 + at) as usize;
    if !(1..=MAX_BUCKETS).contains(&buckets) {
        return Err(format!("checkpoint has {buckets} output buckets"));
    }
    let king_buckets = if version >= 4 {
        let mut table = [0u8; 64];
        table.copy_from_slice(&bytes[CKPT_HEADER_V3..CKPT_HEADER_V4]);
        KingBuckets::from_table(table)?
    } else {
        KingBuckets::NONE
    };
    let grid = if version >= 5 {
        GridOutput::from_code(u32_at(CKPT_HEADER_V4))?
    } else {
        None
    };
    let shape = Shape {
        activation,
        buckets,
        inputs,
        king_buckets,
    };
    let params = shape.params();
    if bytes.len() != header + 12 * params {
        return Err(format!(
            "checkpoint has {} bytes, expected {}",
            bytes.len(),
            header + 12 * params
        ));
    }
    let (epoch, t) = (u64_at(16 + at), u64_at(24 + at));
    // A NaN best loss is what trainers before f8de2e2 stored for runs with `--valid 0` (no
    // validation positions, so no loss to compare): read as "nothing to beat yet", as those
    // runs now store it, so that their checkpoints still resume.
    let best_valid = Some(f64::from_bits(u64_at(32 + at)))
        .filter(|loss| !loss.is_nan())
        .unwrap_or(f64::INFINITY);
    // Checked here because the run trusts them: a wrapped epoch or step count, a negative
    // loss to beat or a NaN weight each made a run that wrote nothing or a network of NaN.
    if epoch > MAX_EPOCHS {
        return Err(format!(
            "checkpoint is at epoch {epoch}, beyond {MAX_EPOCHS}"
        ));
    }
    if t > MAX_ADAM_STEPS {
        return Err(format!(
            "checkpoint has taken {t} optimiser steps, beyond {MAX_ADAM_STEPS}"
        ));
    }
    // Infinite until an epoch has ended (a run stopped in its first epoch).
    if best_valid < 0.0 {
        return Err(format!(
            "checkpoint's best validation loss {best_valid} is not a loss"
        ));
    }
    let floats: Vec<f32> = bytes[header..]
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    if let Some(i) = floats.iter().position(|x| !x.is_finite()) {
        return Err(format!(
            "checkpoint value {i} (weights, then m, then v) is {}",
            floats[i]
        ));
    }
    if let Some(i) = floats[2 * params..].iter().position(|&x| x < 0.0) {
        return Err(format!("checkpoint's second moment {i} is negative"));
    }
    let mut opt = AdamW::new(params, lr, decay);
    opt.t = t;
    opt.m.copy_from_slice(&floats[params..2 * params]);
    opt.v.copy_from_slice(&floats[2 * params..]);
    Ok(Checkpoint {
        weights: floats[..params].to_vec(),
        opt,
        progress: Progress {
            epoch,
            best_valid,
            shape,
            grid,
        },
        grid_recorded: version >= 5,
    })
}

/// Which colour's view a White-relative record becomes for the side to move.
pub fn stm_sign(p: &Packed) -> f32 {
    if p.stm == Color::White {
        1.0
    } else {
        -1.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess::Board;
    use std::str::FromStr;

    #[test]
    fn first_adam_step_moves_each_weight_by_the_learning_rate() {
        // Kingma & Ba, section 2.1: at t = 1 the bias-corrected step is α·g/|g|, so every
        // parameter with a gradient moves by α (up to ε).
        let mut opt = AdamW::new(3, 0.01, 0.0);
        let mut w = vec![1.0, 1.0, 1.0];
        opt.step(&mut w, &[0.5, -2000.0, 1e-3]);
        for (x, expected) in w.iter().zip([0.99, 1.01, 0.99]) {
            assert!((x - expected).abs() < 1e-5, "{x}");
        }
    }

    /// Every activation, input layout and named king-bucket layout, with one output bucket
    /// and with eight.
    fn shapes() -> Vec<Shape> {
        let mut out = Vec::new();
        for activation in Activation::ALL {
            for (inputs, king_buckets) in crate::eval::nnue::tests::layouts() {
                for buckets in [1, 8] {
                    out.push(Shape {
                        activation,
                        buckets,
                        inputs,
                        king_buckets,
                    });
                }
            }
        }
        out
    }

    /// A shape with these input layouts (SCReLU, eight output buckets).
    fn layout(inputs: Inputs, king_buckets: KingBuckets) -> Shape {
        Shape {
            activation: Activation::SCReLU,
            buckets: 8,
            inputs,
            king_buckets,
        }
    }

    fn four() -> KingBuckets {
        KingBuckets::from_name("4").expect("named layout")
    }

    /// Scale every bucket's output weights (to the size trained ones reach).
    fn scale_outputs(w: &mut [f32], shape: Shape, by: f32) {
        for b in 0..shape.buckets {
            for x in &mut w[shape.out_w(b)..shape.out_b(b)] {
                *x *= by;
            }
        }
    }

    #[test]
    fn checkpoint_round_trip() {
        let checkpoint = |shape: Shape, grid: Option<GridOutput>| {
            let w = init(shape, 1);
            let mut opt = AdamW::new(shape.params(), 0.001, 0.0);
            opt.step(&mut w.clone(), &w);
            let progress = Progress {
                epoch: 3,
                best_valid: 0.0215,
                shape,
                grid,
            };
            (checkpoint_bytes(&w, &opt, progress), w, opt, progress)
        };
        for grid in [None, Some(GridOutput::Snap), Some(GridOutput::Qat)] {
            let (bytes, ..) = checkpoint(layout(Inputs::Plain, KingBuckets::NONE), grid);
            let back = from_checkpoint(&bytes, 0.001, 0.0).expect("parses");
            assert_eq!((back.progress.grid, back.grid_recorded), (grid, true));
        }
        let grid = Some(GridOutput::Qat);
        let (bytes, w, opt, progress) = checkpoint(layout(Inputs::KingMirrored, four()), grid);
        let back = from_checkpoint(&bytes, 0.001, 0.0).expect("parses");
        assert_eq!((back.progress, back.opt.t), (progress, 1));
        assert_eq!(back.weights, w);
        assert_eq!(back.opt.v, opt.v);
        assert!(from_checkpoint(&bytes[1..], 0.001, 0.0).is_err());
        assert!(from_checkpoint(&bytes[..bytes.len() - 4], 0.001, 0.0).is_err());
        // Every prefix up to and past the header is refused, none panics.
        for len in 0..=CKPT_HEADER + 8 {
            assert!(
                from_checkpoint(&bytes[..len], 0.001, 0.0).is_err(),
                "{len} bytes"
            );
        }
        let mut unknown = bytes.clone();
        unknown[CKPT_HEADER_V4..CKPT_HEADER].copy_from_slice(&3u32.to_le_bytes());
        assert!(from_checkpoint(&unknown, 0.001, 0.0).is_err());
        // The older checkpoints: SGC4 does not record --grid-output (left to the options);
        // those of one king bucket: SGC3 has no layout, SGC2 not even an inputs field (read
        // as plain inputs).
        let shape = layout(Inputs::KingMirrored, KingBuckets::NONE);
        let (bytes, w, _, _) = checkpoint(shape, grid);
        let mut v4 = bytes.clone();
        v4[0..4].copy_from_slice(b"SGC4");
        v4.drain(CKPT_HEADER_V4..CKPT_HEADER);
        let back = from_checkpoint(&v4, 0.001, 0.0).expect("SGC4 parses");
        assert_eq!((back.progress.shape, back.grid_recorded), (shape, false));
        assert_eq!(back.weights, w);
        let mut v3 = v4;
        v3[0..4].copy_from_slice(b"SGC3");
        v3.drain(CKPT_HEADER_V3..CKPT_HEADER_V4);
        let back = from_checkpoint(&v3, 0.001, 0.0).expect("SGC3 parses");
        assert_eq!((back.progress.shape, &back.weights), (shape, &w));
        let mut v2 = v3;
        v2[0..4].copy_from_slice(b"SGC2");
        v2.drain(12..16);
        let back = from_checkpoint(&v2, 0.001, 0.0).expect("SGC2 parses");
        let plain = Shape {
            inputs: Inputs::Plain,
            ..shape
        };
        assert_eq!(back.progress.shape, plain);
        assert_eq!(back.weights, w);
    }

    /// A checkpoint's counters and numbers were trusted: epoch u64::MAX wrapped `done + 1`,
    /// a NaN best loss meant no epoch was ever written, Adam step u64::MAX wrapped to 0 and
    /// divided by zero. Each is refused now, except the NaN best loss, which old `--valid 0`
    /// runs wrote and which now reads as nothing to beat; a run stopped in its first epoch
    /// (best loss still infinite) still resumes.
    #[test]
    fn checkpoints_with_impossible_values_are_refused() {
        let shape = layout(Inputs::Plain, KingBuckets::NONE);
        let w = init(shape, 1);
        let ckpt = |w: &[f32], t: u64, m: f32, v: f32, epoch: u64, best_valid: f64| {
            let mut opt = AdamW::new(shape.params(), 0.001, 0.0);
            opt.t = t;
            opt.m[7] = m;
            opt.v[7] = v;
            let progress = Progress {
                epoch,
                best_valid,
                shape,
                grid: None,
            };
            from_checkpoint(&checkpoint_bytes(w, &opt, progress), 0.001, 0.0)
        };
        assert!(ckpt(&w, 5, 0.1, 0.1, 1, 0.02).is_ok());
        assert!(ckpt(&w, 0, 0.0, 0.0, 0, f64::INFINITY).is_ok());
        let old_no_validation = ckpt(&w, 5, 0.1, 0.1, 1, f64::NAN);
        assert_eq!(
            old_no_validation.map(|c| c.progress.best_valid),
            Ok(f64::INFINITY)
        );
        let mut nan_weight = w.clone();
        nan_weight[3] = f32::NAN;
        let refused = [
            ("epoch", ckpt(&w, 5, 0.1, 0.1, u64::MAX, 0.02)),
            ("step", ckpt(&w, u64::MAX, 0.1, 0.1, 1, 0.02)),
            ("negative best loss", ckpt(&w, 5, 0.1, 0.1, 1, -1.0)),
            ("NaN weight", ckpt(&nan_weight, 5, 0.1, 0.1, 1, 0.02)),
            ("infinite m", ckpt(&w, 5, f32::INFINITY, 0.1, 1, 0.02)),
            ("negative v", ckpt(&w, 5, 0.1, -0.1, 1, 0.02)),
        ];
        let accepted: Vec<&str> = refused
            .iter()
            .filter(|(_, result)| result.is_ok())
            .map(|(what, _)| *what)
            .collect();
        assert!(accepted.is_empty(), "accepted: {accepted:?}");
    }

    /// The trainer's input indices are the ones the engine's accumulator adds, for every
    /// input and king-bucket layout, with each side's king in various buckets, and for the
    /// reflected copies `--mirror` adds.
    #[test]
    fn trainer_features_match_the_engine() {
        let fens = [
            "r1bq1rk1/pp3ppp/2n5/3p4/8/2N2N2/PP3PPP/R2Q1RK1 b - - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "4k3/3pp3/8/8/8/8/4K3/8 b - - 0 1",
        ];
        // `mirror`: the engine's indices on the board reflected left-right, which is what
        // the trainer's `--mirror` copy of a position must give.
        for (shape, mirror) in shapes().into_iter().flat_map(|s| [(s, false), (s, true)]) {
            let reflect =
                |sq: Square| chess::ALL_SQUARES[sq.to_index() ^ if mirror { 7 } else { 0 }];
            for fen in fens {
                let board = Board::from_str(fen).expect("test FEN");
                let engine = |perspective: Color| {
                    let view = View::of(
                        shape.inputs,
                        shape.king_buckets,
                        perspective,
                        reflect(board.king_square(perspective)),
                    );
                    let mut list: Vec<u16> = Vec::new();
                    for sq in *board.combined() {
                        let (Some(piece), Some(colour)) = (board.piece_on(sq), board.color_on(sq))
                        else {
                            continue;
                        };
                        list.push(feature(perspective, view, colour, piece, reflect(sq)) as u16);
                    }
                    list.sort_unstable();
                    list
                };
                let (us, them, n) = features_mirrored(&Packed::new(&board, 0, 1, 1), mirror, shape);
                let sorted = |list: &[u16]| {
                    let mut list = list.to_vec();
                    list.sort_unstable();
                    list
                };
                let stm = board.side_to_move();
                assert_eq!(sorted(&us[..n]), engine(stm), "{shape:?} {mirror} {fen}");
                assert_eq!(sorted(&them[..n]), engine(!stm), "{shape:?} {mirror} {fen}");
            }
        }
    }

    /// The trainer's reflection (`--mirror`) changes plain inputs but not king-mirrored
    /// ones, which fold a position and its reflection together.
    #[test]
    fn king_mirrored_inputs_fold_the_reflection() {
        let board = Board::from_str("r1bq1rk1/pp3ppp/2n5/3p4/8/2N2N2/PP3PPP/R2Q1RK1 b - - 0 1")
            .expect("test FEN");
        let p = Packed::new(&board, 0, 1, 1);
        let sorted = |(mut us, mut them, n): ([u16; 32], [u16; 32], usize)| {
            us[..n].sort_unstable();
            them[..n].sort_unstable();
            (us, them, n)
        };
        let (plain, mirrored) = (
            layout(Inputs::Plain, KingBuckets::NONE),
            layout(Inputs::KingMirrored, KingBuckets::NONE),
        );
        let plain_f = sorted(features(&p, plain));
        assert_ne!(sorted(features_mirrored(&p, true, plain)), plain_f);
        let folded = sorted(features(&p, mirrored));
        assert_eq!(sorted(features_mirrored(&p, true, mirrored)), folded);
        assert_eq!(folded, sorted(features_mirrored(&p, true, plain)));
    }

    #[test]
    fn texel_sigmoid_matches_its_definition() {
        // 1 / (1 + 10^(-K·cp/400)): 0.5 at 0, 1/(1+10^-1) at K·cp = 400·0.1 = 40.
        assert!((sigmoid(1.0, 0.0) - 0.5).abs() < 1e-6);
        assert!((sigmoid(1.0, 40.0) - 1.0 / (1.0 + 10f32.powf(-0.1))).abs() < 1e-6);
        assert!((sigmoid(1.0, 400.0) - 10.0 / 11.0).abs() < 1e-6);
    }

    #[test]
    fn quantised_network_agrees_with_the_float_one() {
        // Output weights as large as trained ones (within SCReLU's clip), every shape, a
        // full board (bucket 7 of 8) and an endgame (bucket 2). Rounding the weights moves
        // each score by a random amount: over these 32 scores its root mean square was 11 to
        // 31 cp for each of 40 seeds, at 128 and at 256 neurons alike (the initial weights
        // scale with 1/√HIDDEN), and no single score moved by more than 95. Reading the
        // next bucket instead of the right one gave at least 660. A bound on one score
        // alone would only hold for a lucky seed, so the spread is bounded as a whole.
        let fens = [
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1",
        ];
        let mut squares = Vec::new();
        for shape in shapes() {
            let mut w = init(shape, 5);
            scale_outputs(&mut w, shape, 16.0);
            clip(&mut w, shape);
            let net = quantise(&w, shape);
            assert_eq!(net.activation, shape.activation);
            assert_eq!(net.inputs, shape.inputs);
            assert_eq!(net.king_buckets, shape.king_buckets);
            assert_eq!(net.outputs.len(), shape.buckets);
            for fen in fens {
                let board = Board::from_str(fen).expect("test FEN");
                let (us, them, n) = features(&Packed::new(&board, 0, 1, 4), shape);
                let float = forward(&w, shape, &us[..n], &them[..n]).cp;
                let int = net.evaluate_board(&board) as f32;
                assert!(
                    (float - int).abs() < 150.0,
                    "{shape:?} {fen}: float {float} int {int}"
                );
                squares.push((float - int).powi(2));
            }
        }
        let rms = (squares.iter().sum::<f32>() / squares.len() as f32).sqrt();
        assert!(rms < 40.0, "root mean square error {rms} cp");
    }

    /// Dequantising undoes quantising: every shape's network, and the shipped one, comes
    /// back byte for byte, and the float pass over its weights gives the engine's own score
    /// to within the integer evaluation's truncations (under 2 cp), where the weights from
    /// before quantising are 11 to 31 cp away (the test above).
    #[test]
    fn dequantised_weights_are_the_network_itself() {
        let fens = [
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1",
            "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
        ];
        let same = |net: &Network| {
            let (shape, w) = dequantise(net);
            assert_eq!(quantise(&w, shape).to_bytes(), net.to_bytes(), "{net:?}");
            for fen in fens {
                let board = Board::from_str(fen).expect("test FEN");
                let (us, them, n) = features(&Packed::new(&board, 0, 1, 4), shape);
                let float = forward(&w, shape, &us[..n], &them[..n]).cp;
                let int = net.evaluate_board(&board) as f32;
                assert!((float - int).abs() < 2.0, "{net:?} {fen}: {float} {int}");
            }
        };
        for shape in shapes() {
            let mut w = init(shape, 7);
            scale_outputs(&mut w, shape, 16.0);
            clip(&mut w, shape);
            same(&quantise(&w, shape));
        }
        same(&crate::eval::nnue::select::embedded().expect("the shipped network parses"));
    }

    /// Snapping puts every output weight where quantising stores it, so the file's output
    /// layer is the trained one exactly, and touches nothing else: the feature layer and
    /// the output biases keep their float values, and snapping twice changes nothing. The
    /// copy that `--grid-output=qat` passes through is the same weights.
    #[test]
    fn snapped_output_weights_are_the_files() {
        for shape in shapes() {
            let mut w = init(shape, 11);
            scale_outputs(&mut w, shape, 16.0);
            clip(&mut w, shape);
            let before = w.clone();
            // Quantisation-aware training's passes see what snapping keeps, and leave the
            // float masters as they were, so that a step too small to cross a grid point is
            // kept for the next.
            let seen = with_output_on_grid(&w, shape);
            assert_eq!(w, before, "{shape:?}: the masters were rounded");
            snap_output_weights(&mut w, shape);
            assert_eq!(w, seen, "{shape:?}");
            let (_, stored) = dequantise(&quantise(&w, shape));
            let mut moved = 0;
            for b in 0..shape.buckets {
                for i in shape.out_w(b)..shape.out_b(b) {
                    assert_eq!(w[i], stored[i], "{shape:?} weight {i}");
                    assert!((w[i] - before[i]).abs() <= 0.5 / QB as f32 + 1e-7);
                    moved += usize::from(w[i] != before[i]);
                }
                assert_eq!(
                    w[shape.out_b(b)],
                    before[shape.out_b(b)],
                    "bias of bucket {b}"
                );
            }
            assert!(
                moved > 0,
                "{shape:?}: the random weights were all on the grid already"
            );
            assert_eq!(
                w[..shape.out()],
                before[..shape.out()],
                "{shape:?}: the feature layer"
            );
            let once = w.clone();
            snap_output_weights(&mut w, shape);
            assert_eq!(w, once, "{shape:?}");
        }
    }

    /// Silencing two neurons of the shipped network and waking them: only those two change,
    /// they get input weights, the output is the same to the last bit, and the next backward
    /// pass gives their output weights a gradient, which it did not while they were silent.
    #[test]
    fn woken_neurons_learn_without_changing_the_output() {
        let net = crate::eval::nnue::select::embedded().expect("the shipped network parses");
        let (shape, mut w) = dequantise(&net);
        let mut untouched = w.clone();
        assert_eq!(wake_silent_neurons(&mut untouched, shape, 3), 0);
        assert!(untouched == w, "a network without silent neurons changed");
        let (a, b) = (5, HIDDEN - 1);
        for j in [a, b] {
            for i in neuron_inputs(shape, j).chain(neuron_outputs(shape, j)) {
                w[i] = 0.0;
            }
        }
        let board =
            Board::from_str("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
                .expect("test FEN");
        let (us, them, n) = features(&Packed::new(&board, 0, 1, 4), shape);
        let (us, them) = (&us[..n], &them[..n]);
        let out_grad = |w: &[f32], j: usize| {
            let pass = forward(w, shape, us, them);
            let mut grad = vec![0.0; shape.params()];
            backward(w, &pass, (us, them), 1.0, &mut grad, shape);
            (pass.cp, grad[shape.out_w(pass.bucket) + j])
        };
        let (before, silent_grad) = out_grad(&w, a);
        assert_eq!(silent_grad, 0.0);
        let mut woken = w.clone();
        assert_eq!(wake_silent_neurons(&mut woken, shape, 3), 2);
        let (after, woken_grad) = out_grad(&woken, a);
        assert_eq!(before.to_bits(), after.to_bits());
        assert!(
            woken_grad != 0.0,
            "a woken neuron's output weight has no gradient"
        );
        let changed: Vec<usize> = (0..w.len()).filter(|&i| w[i] != woken[i]).collect();
        let inputs: Vec<usize> = neuron_inputs(shape, a)
            .chain(neuron_inputs(shape, b))
            .collect();
        assert!(changed.iter().all(|i| inputs.contains(i)));
        assert!(
            changed.len() > inputs.len() / 2,
            "{} weights woke",
            changed.len()
        );
    }

    /// The shipped network grown into four king buckets evaluates as before, in floating
    /// point and in the engine, bit for bit, with kings in every bucket; it grows only once.
    #[test]
    fn grown_king_buckets_keep_the_evaluation() {
        let net = crate::eval::nnue::select::embedded().expect("the shipped network parses");
        let (shape, w) = dequantise(&net);
        assert!(grow_king_buckets(&w, shape, KingBuckets::NONE).is_none());
        let (grown_shape, grown) = grow_king_buckets(&w, shape, four()).expect("it grows");
        assert_eq!(grown_shape.king_buckets, four());
        assert_eq!(grown.len(), grown_shape.params());
        assert!(grow_king_buckets(&grown, grown_shape, four()).is_none());
        let grown_net = Network::from_bytes(&quantise(&grown, grown_shape).to_bytes())
            .expect("the grown network loads in the engine");
        assert_eq!(grown_net.king_buckets, four());
        let mut seen = [false; 4];
        for fen in [
            "r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQ1RK1 w - - 5 6",
            "r3kb1r/pppq1ppp/2n1bn2/3pp3/3PP3/2N1BN2/PPPQ1PPP/R3KB1R w KQkq - 4 7",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1",
            "8/8/4k3/8/8/8/3P2K1/8 w - - 0 1",
            "4k3/8/4K3/8/8/8/8/7R b - - 0 1",
        ] {
            let board = Board::from_str(fen).expect("test FEN");
            for colour in [Color::White, Color::Black] {
                let view = View::of(shape.inputs, four(), colour, board.king_square(colour));
                seen[usize::from(view.bucket)] = true;
            }
            let packed = Packed::new(&board, 0, 1, 4);
            let (us, them, n) = features(&packed, shape);
            let (gus, gthem, gn) = features(&packed, grown_shape);
            assert_eq!(
                forward(&w, shape, &us[..n], &them[..n]).cp.to_bits(),
                forward(&grown, grown_shape, &gus[..gn], &gthem[..gn])
                    .cp
                    .to_bits(),
                "{fen}"
            );
            assert_eq!(
                grown_net.evaluate_board(&board),
                net.evaluate_board(&board),
                "{fen}"
            );
        }
        assert_eq!(seen, [true; 4], "a king bucket no position tried");
    }

    #[test]
    fn clipped_screlu_weights_load_in_the_engine() {
        let shape = layout(Inputs::KingMirrored, four());
        let mut w = init(shape, 2);
        scale_outputs(&mut w, shape, 100.0);
        clip(&mut w, shape);
        let bytes = quantise(&w, shape).to_bytes();
        assert!(Network::from_bytes(&bytes).is_ok());
    }

    #[test]
    fn gradient_matches_finite_differences() {
        for shape in shapes() {
            gradient_check(shape);
        }
    }

    fn gradient_check(shape: Shape) {
        let w = init(shape, 9);
        let board = Board::from_str("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1").expect("test FEN");
        let (us, them, n) = features(&Packed::new(&board, 0, 1, 1), shape);
        let (us, them) = (&us[..n], &them[..n]);
        let mut grad = vec![0.0; shape.params()];
        let pass = forward(&w, shape, us, them);
        assert_eq!(pass.bucket, output_bucket(shape.buckets, 10));
        backward(&w, &pass, (us, them), 1.0, &mut grad, shape);
        for &i in &[
            shape.out_b(pass.bucket),
            shape.out_w(pass.bucket) + 3,
            shape.ft_b() + 5,
            FT_W + usize::from(us[0]) * HIDDEN + 7,
        ] {
            let mut plus = w.clone();
            plus[i] += 1e-3;
            let mut minus = w.clone();
            minus[i] -= 1e-3;
            let numeric =
                (forward(&plus, shape, us, them).cp - forward(&minus, shape, us, them).cp) / 2e-3;
            assert!(
                (numeric - grad[i]).abs() < 0.05 * numeric.abs().max(1.0),
                "{shape:?} param {i}: {numeric} vs {}",
                grad[i]
            );
        }
        // Another bucket's weights get no gradient from this position.
        if shape.buckets > 1 {
            let other = (pass.bucket + 1) % shape.buckets;
            assert!(grad[shape.out_w(other)..=shape.out_b(other)]
                .iter()
                .all(|&g| g == 0.0));
        }
    }
}
