//! A small efficiently updatable neural network (NNUE) evaluation.
//!
//! # Architecture
//! `768 → HIDDEN ×2 → 1`: each side's "perspective" sees 768 binary inputs (own/enemy ×
//! piece type × square, the board mirrored vertically for Black, and in a network with
//! [`Inputs::KingMirrored`] also left-right whenever that side's king stands on files e–h),
//! a shared feature transformer turns them into `HIDDEN` sums (the accumulator), and an
//! output neuron reads the clipped sums of the side to move followed by those of the other
//! side:
//!
//! `eval = (w_us · σ(acc_us) + w_them · σ(acc_them) + b) × SCALE`,
//!
//! where the activation σ is one of two, named in the file ([`Activation`]):
//! - CReLU, `clamp(x, 0, 1)`, the first networks' choice;
//! - SCReLU, `clamp(x, 0, 1)²`, the "squared clipped ReLU": the square lets one neuron
//!   express a curved response at no cost in the accumulator. The shipped network uses it.
//!
//! A network may also have several sets of input weights ("king buckets",
//! [`KingBuckets`]), of which each perspective reads the one its own king's square selects;
//! `king_buckets.rs` says why and what it costs.
//!
//! A network may have several output neurons ("output buckets"), of which the number of
//! pieces on the board picks one ([`output_bucket`]): an endgame's few pieces are then
//! weighed by weights of their own instead of the ones tuned mostly on middlegames, at the
//! cost of nothing in the accumulator. docs/measurements/evaluation.md ("Network 6") has what each choice
//! was worth.
//!
//! Why mirror left-right: a position and its reflection have the same value once castling
//! is gone, so folding the board onto the king's half lets every weight learn from the
//! positions of both halves, and the network spends nothing on learning a pattern twice.
//! Issue 39 cites +17 Elo for it on small data in akimbo (its PR #191).
//!
//! Because one move changes at most four inputs, the accumulator is updated incrementally on
//! make (see [`Accumulator::apply`]), and evaluation costs one pass over `2 × HIDDEN` values.
//! The one exception is a king move that changes how its side's perspective reads the board
//! ([`View`]): crossing the board's middle (files a–d to e–h or back, castling included) in
//! a king-mirrored network, or entering another king bucket. Every input of that perspective
//! changes, and it is computed afresh. Each perspective's sum stays inside `i32`: under CReLU
//! each term is at most `QA × 32767`; under SCReLU it is `clamp(acc)² × w`, and a file is
//! refused unless every output weight is within ±[`SCRELU_MAX_OUT_WEIGHT`], so that `HIDDEN`
//! such terms stay below 2^31 (checked at compile time; the trainer clips its output weights
//! to match). The two perspectives' sums are added in `i64`.
//!
//! # Quantisation (the only place these numbers live)
//! - feature weights and biases: `round(w × QA)` as i16, so an accumulator value of `QA`
//!   stands for 1.0, where CReLU saturates;
//! - output weights: `round(w × QB)` as i16; output bias: `round(b × QA × QB)` as i32;
//! - centipawns under CReLU: `(Σ clamp(acc, 0, QA) × w_q + b_q) × SCALE / (QA × QB)`;
//! - under SCReLU the square carries one factor of `QA` too many, so the sum is divided by
//!   `QA` first: `(Σ clamp(acc, 0, QA)² × w_q / QA + b_q) × SCALE / (QA × QB)`.
//!
//! # File format (`.nnue`, little-endian)
//! `b"SGNN"`, then u32 version, u32 HIDDEN, u32 QA, u32 QB, u32 SCALE; version 2 adds u32
//! activation (0 CReLU, 1 SCReLU) and u32 output buckets (1 to [`MAX_BUCKETS`]); version 3
//! adds u32 inputs (0 plain, 1 king-mirrored, [`Inputs`]); version 4 adds the king-bucket
//! layout, 64 bytes (the bucket of each king square, [`KingBuckets`]). Version 1 files are
//! CReLU with one output bucket, versions 1 and 2 have plain inputs, and versions 1 to 3 one
//! king bucket. Then `768 × king buckets × HIDDEN` i16 feature weights (input-major: all of
//! input 0's weights first, king bucket 0's inputs first), `HIDDEN` i16 feature biases, and
//! for each bucket `2 × HIDDEN` i16 output weights (side to move first) and one i32 output
//! bias.
//! `Network::load` refuses, with a message, a file whose length or constants do not match
//! its header.
//!
//! A file may have fewer hidden neurons than the build (`HIDDEN`). The loader then fills
//! the first ones and leaves the rest zero: a zero neuron's sum is always 0, σ(0) is 0 under
//! both activations, and its output weights are 0, so it adds exactly nothing. A build with
//! a wider layer therefore plays an older, narrower network move for move as the narrower
//! build did (only slower), and docs/training.md's lines that name an older network with
//! `--eval-file` keep making the same data. Such a network is written back at full width.

mod accumulator;
mod king_buckets;
mod row;
pub mod select;

pub use accumulator::{Accumulator, Delta};
pub use king_buckets::{KingBuckets, MAX_KING_BUCKETS};

use accumulator::add_row;
pub use row::Row;

use chess::{Board, Color, Piece, Square, ALL_PIECES, EMPTY};

/// Hidden neurons per perspective. Fixed at compile time so that every loop has a known
/// length the compiler can vectorise. A file with more is refused on load; one with fewer
/// is read with the missing neurons as zero neurons (module documentation, "File format").
pub const HIDDEN: usize = 128;
/// Inputs per perspective: 2 colours × 6 pieces × 64 squares.
pub const INPUTS: usize = 768;
pub const QA: i32 = 255;
pub const QB: i32 = 64;
/// Centipawns per unit of network output.
pub const SCALE: i32 = 400;
pub const MAGIC: &[u8; 4] = b"SGNN";
/// The newest file version, which [`Network::to_bytes`] writes for a network with king
/// buckets; one without is written as version 3, which builds from before king buckets also
/// read. Versions 1 (no activation or bucket fields), 2 (no inputs field) and 3 (no king
/// buckets) are all read.
pub const VERSION: u32 = 4;
/// Largest output weight magnitude an SCReLU file may hold (1.98 × QB): one perspective's
/// `HIDDEN × QA² × 127` stays below 2^31 for up to 260 hidden neurons.
pub const SCRELU_MAX_OUT_WEIGHT: i16 = 127;
const _: () = assert!(
    HIDDEN as i64 * (QA as i64 * QA as i64) * SCRELU_MAX_OUT_WEIGHT as i64 <= i32::MAX as i64,
    "an SCReLU perspective's sum could overflow i32"
);
const _: () = assert!(
    HIDDEN as i64 * QA as i64 * 32_768 <= i32::MAX as i64 + 1,
    "a CReLU perspective's sum could overflow i32"
);
// The trainer keeps input indices in u16.
const _: () = assert!(MAX_KING_BUCKETS * INPUTS <= u16::MAX as usize + 1);
/// The search clamps network scores to this, as the hand-written evaluation is clamped, so
/// they never reach mate scores.
pub const EVAL_LIMIT_NNUE: i32 = crate::eval::EVAL_LIMIT;
/// Most output buckets a file may have.
pub const MAX_BUCKETS: usize = 16;

/// Bytes of the network file [`Network::to_bytes`] writes with [`HIDDEN`] neurons,
/// `king_buckets` king buckets and `buckets` output buckets (version 3 for one king bucket,
/// version 4, with its 64-byte layout, for more).
pub const fn file_bytes(king_buckets: usize, buckets: usize) -> usize {
    let layout = if king_buckets > 1 { 64 } else { 0 };
    36 + layout + 2 * (INPUTS * king_buckets * HIDDEN + HIDDEN) + buckets * (4 * HIDDEN + 4)
}

/// The largest network file this build reads: the most king buckets and output buckets.
pub const MAX_FILE_BYTES: usize = file_bytes(MAX_KING_BUCKETS, MAX_BUCKETS);

/// The output bucket of a position with `pieces` pieces (kings included) when a network has
/// `buckets`: equal slices of 2..=32 pieces, fewest pieces first (8 buckets: `(pieces − 2) / 4`,
/// the usual choice of NNUE engines with material buckets).
#[inline]
pub fn output_bucket(buckets: usize, pieces: usize) -> usize {
    (pieces.saturating_sub(2) * buckets / 32).min(buckets.saturating_sub(1))
}

/// The hidden layer's activation (formulas in the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activation {
    CReLU,
    SCReLU,
}

impl Activation {
    pub const ALL: [Activation; 2] = [Activation::CReLU, Activation::SCReLU];

    /// The name `train --activation` takes.
    pub fn name(self) -> &'static str {
        match self {
            Activation::CReLU => "crelu",
            Activation::SCReLU => "screlu",
        }
    }

    /// The number the file format stores.
    pub fn code(self) -> u32 {
        match self {
            Activation::CReLU => 0,
            Activation::SCReLU => 1,
        }
    }

    pub fn from_code(code: u32) -> Option<Activation> {
        Activation::ALL.into_iter().find(|a| a.code() == code)
    }

    pub fn from_name(name: &str) -> Option<Activation> {
        Activation::ALL.into_iter().find(|a| a.name() == name)
    }
}

/// How a perspective's inputs are laid out (the rest of the format is the same for both).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Inputs {
    /// The board as it stands (flipped vertically for Black).
    Plain,
    /// Also flipped left-right whenever the perspective's own king is on files e–h, so that
    /// the network always sees its king on files a–d.
    KingMirrored,
}

impl Inputs {
    pub const ALL: [Inputs; 2] = [Inputs::Plain, Inputs::KingMirrored];

    /// The name `train --inputs` takes.
    pub fn name(self) -> &'static str {
        match self {
            Inputs::Plain => "plain",
            Inputs::KingMirrored => "mirrored",
        }
    }

    /// The number the file format stores.
    pub fn code(self) -> u32 {
        match self {
            Inputs::Plain => 0,
            Inputs::KingMirrored => 1,
        }
    }

    pub fn from_code(code: u32) -> Option<Inputs> {
        Inputs::ALL.into_iter().find(|i| i.code() == code)
    }

    pub fn from_name(name: &str) -> Option<Inputs> {
        Inputs::ALL.into_iter().find(|i| i.name() == name)
    }

    /// What to XOR into a square index (0 or 7, which mirrors the file) for the
    /// perspective whose king stands on `king`.
    #[inline]
    pub fn flip(self, king: Square) -> usize {
        match self {
            Inputs::KingMirrored if king.get_file().to_index() >= 4 => 7,
            _ => 0,
        }
    }
}

/// How one perspective reads the board, fixed by its own king's square: the file flip of
/// king-mirrored inputs (0 or 7, XORed into every square) and the king bucket.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct View {
    pub flip: u8,
    pub bucket: u8,
}

impl View {
    /// The view of `perspective`, whose king stands on `king`, under these layouts.
    #[inline]
    pub fn of(inputs: Inputs, buckets: KingBuckets, perspective: Color, king: Square) -> View {
        let flip = inputs.flip(king);
        let own = if perspective == Color::White { 0 } else { 56 };
        View {
            flip: flip as u8,
            bucket: buckets.of(king.to_index() ^ own ^ flip) as u8,
        }
    }
}

/// Input index of a piece as seen from `perspective` reading the board by `view`: the
/// view's king bucket's 768 inputs, in them pieces of the perspective's own colour first,
/// squares mirrored (rank flipped) for Black so both sides see "their" board, and the view's
/// flip XORed into the square.
#[inline]
pub fn feature(
    perspective: Color,
    view: View,
    colour: Color,
    piece: Piece,
    square: Square,
) -> usize {
    let (side, sq) = if perspective == Color::White {
        (usize::from(colour != Color::White), square.to_index())
    } else {
        (usize::from(colour != Color::Black), square.to_index() ^ 56)
    };
    usize::from(view.bucket) * INPUTS
        + side * 384
        + piece.to_index() * 64
        + (sq ^ usize::from(view.flip))
}

/// One output neuron, quantised.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Output {
    /// `[0]` reads the side to move's accumulator, `[1]` the other side's.
    pub weights: [Row; 2],
    pub bias: i32,
}

impl Output {
    pub const ZERO: Output = Output {
        weights: [Row::ZERO; 2],
        bias: 0,
    };
}

/// Quantised weights.
#[derive(Clone)]
pub struct Network {
    /// `INPUTS` rows for each king bucket.
    pub ft_weights: Vec<Row>,
    pub ft_bias: Row,
    /// One per output bucket (at least one).
    pub outputs: Vec<Output>,
    pub activation: Activation,
    pub inputs: Inputs,
    pub king_buckets: KingBuckets,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Network({INPUTS}x{}->{HIDDEN}x2->1, {} inputs, {}, {} buckets)",
            self.king_buckets.count(),
            self.inputs.name(),
            self.activation.name(),
            self.outputs.len()
        )
    }
}

/// Little-endian reader over a byte slice that reports where a file ends too early.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> Result<[u8; N], String> {
        let end = self.at + N;
        let slice = self
            .bytes
            .get(self.at..end)
            .ok_or_else(|| format!("file ends early, at byte {}", self.bytes.len()))?;
        self.at = end;
        let mut out = [0u8; N];
        out.copy_from_slice(slice);
        Ok(out)
    }
    fn u32(&mut self) -> Result<u32, String> {
        self.take::<4>().map(u32::from_le_bytes)
    }
    fn i16(&mut self) -> Result<i16, String> {
        self.take::<2>().map(i16::from_le_bytes)
    }
}

impl Network {
    /// A CReLU network of zeros with plain inputs, one king bucket and one output bucket
    /// (evaluates every position as 0); the starting point for parsing.
    pub fn zeroed() -> Network {
        Network::zeroed_with(KingBuckets::NONE)
    }

    /// The same with the king-bucket layout `king_buckets` (and the rows it needs).
    pub fn zeroed_with(king_buckets: KingBuckets) -> Network {
        Network {
            ft_weights: vec![Row::ZERO; INPUTS * king_buckets.count()],
            ft_bias: Row::ZERO,
            outputs: vec![Output::ZERO],
            activation: Activation::CReLU,
            inputs: Inputs::Plain,
            king_buckets,
        }
    }

    /// How `perspective` reads `board` in this network.
    #[inline]
    pub fn view(&self, board: &Board, perspective: Color) -> View {
        View::of(
            self.inputs,
            self.king_buckets,
            perspective,
            board.king_square(perspective),
        )
    }

    /// Parse a network file (format in the module documentation).
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        let mut r = Reader { bytes, at: 0 };
        if &r.take::<4>()? != MAGIC {
            return Err("not a Sandglass network (magic is not SGNN)".to_string());
        }
        let version = r.u32()?;
        if !(1..=VERSION).contains(&version) {
            return Err(format!(
                "network version {version}, this build reads 1 to {VERSION}"
            ));
        }
        let hidden = r.u32()?;
        if !(1..=HIDDEN as u32).contains(&hidden) {
            return Err(format!(
                "network has {hidden} hidden neurons, this build reads 1 to {HIDDEN}"
            ));
        }
        let width = hidden as usize;
        let (qa, qb, scale) = (r.u32()?, r.u32()?, r.u32()?);
        if (qa, qb, scale) != (QA as u32, QB as u32, SCALE as u32) {
            return Err(format!(
                "network quantised with QA {qa}, QB {qb}, SCALE {scale}; this build uses {QA}, {QB}, {SCALE}"
            ));
        }
        let mut net = Network::zeroed();
        if version >= 2 {
            let code = r.u32()?;
            net.activation = Activation::from_code(code)
                .ok_or_else(|| format!("unknown activation {code} (0 is CReLU, 1 SCReLU)"))?;
            let buckets = r.u32()? as usize;
            if !(1..=MAX_BUCKETS).contains(&buckets) {
                return Err(format!(
                    "network has {buckets} output buckets; 1 to {MAX_BUCKETS} are allowed"
                ));
            }
            net.outputs = vec![Output::ZERO; buckets];
        }
        if version >= 3 {
            let code = r.u32()?;
            net.inputs = Inputs::from_code(code)
                .ok_or_else(|| format!("unknown inputs {code} (0 is plain, 1 king-mirrored)"))?;
        }
        if version >= 4 {
            net.king_buckets = KingBuckets::from_table(r.take::<64>()?)?;
            net.ft_weights = vec![Row::ZERO; INPUTS * net.king_buckets.count()];
        }
        // A narrower file fills the first `width` neurons; the rest stay zero neurons.
        for row in net.ft_weights.iter_mut() {
            for w in &mut row[..width] {
                *w = r.i16()?;
            }
        }
        for b in &mut net.ft_bias[..width] {
            *b = r.i16()?;
        }
        for output in net.outputs.iter_mut() {
            for side in output.weights.iter_mut() {
                for w in &mut side[..width] {
                    *w = r.i16()?;
                }
            }
            output.bias = r.take::<4>().map(i32::from_le_bytes)?;
        }
        if r.at != bytes.len() {
            return Err(format!(
                "{} bytes after the network (file has {}, expected {})",
                bytes.len() - r.at,
                bytes.len(),
                r.at
            ));
        }
        let widest = net
            .outputs
            .iter()
            .flat_map(|o| o.weights.iter().flatten())
            .map(|w| w.unsigned_abs())
            .max();
        if net.activation == Activation::SCReLU
            && widest.unwrap_or(0) > SCRELU_MAX_OUT_WEIGHT.unsigned_abs()
        {
            return Err(format!(
                "an SCReLU output weight exceeds ±{SCRELU_MAX_OUT_WEIGHT}, which could overflow"
            ));
        }
        Ok(net)
    }

    /// Read a network file. Only a regular file no longer than the largest network is
    /// opened: a FIFO would block the engine loop until someone writes to it, and a device
    /// such as `/dev/zero` would be read until memory ran out. The error does not name the
    /// path, which the caller shows as far as it is fit to be shown.
    pub fn load(path: &std::path::Path) -> Result<Network, String> {
        use std::io::Read;
        let meta = std::fs::metadata(path).map_err(|e| format!("cannot read the file: {e}"))?;
        if !meta.is_file() {
            return Err("not a regular file".to_string());
        }
        if meta.len() > MAX_FILE_BYTES as u64 {
            return Err(format!(
                "{} bytes, more than any network file ({MAX_FILE_BYTES})",
                meta.len()
            ));
        }
        let mut bytes = Vec::new();
        std::fs::File::open(path)
            .and_then(|f| f.take(MAX_FILE_BYTES as u64 + 1).read_to_end(&mut bytes))
            .map_err(|e| format!("cannot read the file: {e}"))?;
        Network::from_bytes(&bytes)
    }

    /// The file's bytes (inverse of [`Network::from_bytes`]).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(file_bytes(self.king_buckets.count(), self.outputs.len()));
        out.extend_from_slice(MAGIC);
        let bucketed = self.king_buckets != KingBuckets::NONE;
        let header = [
            if bucketed { VERSION } else { 3 },
            HIDDEN as u32,
            QA as u32,
            QB as u32,
            SCALE as u32,
            self.activation.code(),
            self.outputs.len() as u32,
            self.inputs.code(),
        ];
        for v in header {
            out.extend_from_slice(&v.to_le_bytes());
        }
        if bucketed {
            out.extend_from_slice(self.king_buckets.table());
        }
        for w in self.ft_weights.iter().flatten().chain(&self.ft_bias) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for output in &self.outputs {
            for w in output.weights.iter().flatten() {
                out.extend_from_slice(&w.to_le_bytes());
            }
            out.extend_from_slice(&output.bias.to_le_bytes());
        }
        out
    }

    /// The accumulator of a board computed from scratch.
    pub fn refresh(&self, board: &Board) -> Accumulator {
        let mut acc = Accumulator::default();
        for perspective in [Color::White, Color::Black] {
            self.refresh_perspective(&mut acc, board, perspective);
        }
        acc
    }

    /// Compute one perspective's sums (and its view) from scratch.
    pub fn refresh_perspective(&self, acc: &mut Accumulator, board: &Board, perspective: Color) {
        let p = perspective.to_index();
        let view = self.view(board, perspective);
        acc.views[p] = view;
        let values = &mut acc.values[p];
        *values = self.ft_bias;
        for piece in ALL_PIECES {
            for colour in [Color::White, Color::Black] {
                let bb = *board.pieces(piece) & *board.color_combined(colour);
                if bb == EMPTY {
                    continue;
                }
                for sq in bb {
                    add_row(
                        values,
                        &self.ft_weights[feature(perspective, view, colour, piece, sq)],
                    );
                }
            }
        }
    }

    /// Centipawns for the side to move, from an accumulator that matches the board, which
    /// has `pieces` pieces (for the output bucket).
    #[inline]
    pub fn evaluate(&self, acc: &Accumulator, stm: Color, pieces: u32) -> i32 {
        let (us, them) = match stm {
            Color::White => (&acc.values[0], &acc.values[1]),
            Color::Black => (&acc.values[1], &acc.values[0]),
        };
        let bucket = output_bucket(self.outputs.len(), pieces as usize);
        let Some(out) = self.outputs.get(bucket) else {
            return 0;
        };
        // In i64: each perspective's sum may use nearly all of i32's range.
        let sum = match self.activation {
            Activation::CReLU => {
                i64::from(crelu_dot(us, &out.weights[0]))
                    + i64::from(crelu_dot(them, &out.weights[1]))
            }
            Activation::SCReLU => {
                (i64::from(screlu_dot(us, &out.weights[0]))
                    + i64::from(screlu_dot(them, &out.weights[1])))
                    / i64::from(QA)
            }
        };
        let cp = (sum + i64::from(out.bias)) * i64::from(SCALE) / i64::from(QA * QB);
        cp.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
    }

    /// Evaluate a board from scratch (tools and tests; the search updates incrementally).
    pub fn evaluate_board(&self, board: &Board) -> i32 {
        let pieces = board.combined().popcnt();
        self.evaluate(&self.refresh(board), board.side_to_move(), pieces)
    }
}

/// Σ term(a, w) over the hidden neurons in i32. Written as one plain reduction, the compiler
/// vectorises it along the neurons (16 lanes of i16 a step with AVX2, one multiply-add each).
/// An earlier form with 16 explicit i32 lanes was vectorised across the chunks instead, each
/// vector gathered a word at a time (docs/measurements/speed.md, "The network's dot product").
/// The sum cannot overflow (the bounds are checked where the constants are defined), so a
/// plain `sum` keeps debug builds' overflow check.
#[inline(always)]
fn neuron_sum(acc: &[i16; HIDDEN], weights: &[i16; HIDDEN], term: impl Fn(i16, i16) -> i32) -> i32 {
    acc.iter().zip(weights).map(|(&a, &w)| term(a, w)).sum()
}

/// Σ clamp(a, 0, QA) × w.
#[inline]
fn crelu_dot(acc: &[i16; HIDDEN], weights: &[i16; HIDDEN]) -> i32 {
    neuron_sum(acc, weights, |a, w| {
        i32::from(a).clamp(0, QA) * i32::from(w)
    })
}

/// Σ clamp(a, 0, QA)² × w. `clamp × w` fits i16 because the loader bounds `w` by
/// [`SCRELU_MAX_OUT_WEIGHT`] (255 × 127 = 32,385); multiplying that by the clamped value
/// again is one 16×16→32 multiply-add, the form SIMD units have.
#[inline]
fn screlu_dot(acc: &[i16; HIDDEN], weights: &[i16; HIDDEN]) -> i32 {
    neuron_sum(acc, weights, |a, w| {
        let clipped = a.clamp(0, QA as i16);
        i32::from(clipped.wrapping_mul(w)) * i32::from(clipped)
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::str::FromStr;

    /// A network with small pseudo-random weights, to test the arithmetic.
    pub(crate) fn random_network(seed: u64) -> Network {
        random_network_with(seed, KingBuckets::NONE)
    }

    /// Every input layout with every named king-bucket layout, for tests that must hold
    /// for all of them.
    pub(crate) fn layouts() -> impl Iterator<Item = (Inputs, KingBuckets)> {
        Inputs::ALL
            .into_iter()
            .flat_map(|i| KingBuckets::NAMED.map(|(_, k)| (i, k)))
    }

    /// The same with the king-bucket layout `king_buckets`.
    pub(crate) fn random_network_with(seed: u64, king_buckets: KingBuckets) -> Network {
        let mut rng = crate::rng::Rng::new(seed);
        let mut next = move || rng.below(61) as i16 - 30;
        let mut net = Network::zeroed_with(king_buckets);
        for row in net.ft_weights.iter_mut() {
            for w in row.iter_mut() {
                *w = next();
            }
        }
        for b in net.ft_bias.iter_mut() {
            *b = next() * 3;
        }
        for w in net.outputs[0].weights.iter_mut().flatten() {
            *w = next();
        }
        net.outputs[0].bias = 1234;
        net
    }

    #[test]
    fn file_round_trip_and_errors() {
        let net = random_network(7);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), file_bytes(1, 1));
        let back = Network::from_bytes(&bytes).expect("parses");
        assert_eq!(back.to_bytes(), bytes);
        let four = KingBuckets::from_name("4").expect("named layout");
        let bucketed = random_network_with(8, four);
        let bytes4 = bucketed.to_bytes();
        assert_eq!(bytes4.len(), file_bytes(4, 1));
        let back = Network::from_bytes(&bytes4).expect("parses");
        assert_eq!(back.king_buckets, four);
        assert_eq!(back.ft_weights, bucketed.ft_weights);
        // A layout with a bucket no square uses is refused, as is one the rows do not match.
        let mut gap = bytes4.clone();
        gap[36 + 8..36 + 16].fill(0);
        assert!(Network::from_bytes(&gap).unwrap_err().contains("no square"));
        let mut fewer = bytes4;
        fewer[36 + 16..36 + 64].fill(2);
        assert!(Network::from_bytes(&fewer).is_err());
        assert!(Network::from_bytes(&bytes[..100]).is_err());
        let mut wrong = bytes.clone();
        wrong[0] = b'X';
        assert!(Network::from_bytes(&wrong).unwrap_err().contains("magic"));
        for hidden in [0, HIDDEN as u32 + 1] {
            let mut wrong = bytes.clone();
            wrong[8..12].copy_from_slice(&hidden.to_le_bytes());
            assert!(Network::from_bytes(&wrong).unwrap_err().contains("hidden"));
        }
        let mut long = bytes;
        long.push(0);
        assert!(Network::from_bytes(&long).is_err());
    }

    /// `net` as a file of its first `width` hidden neurons only, as a build with that many
    /// writes it (`net` has one king bucket).
    fn narrow_file(net: &Network, width: usize) -> Vec<u8> {
        let mut out = net.to_bytes()[..36].to_vec();
        out[8..12].copy_from_slice(&(width as u32).to_le_bytes());
        let mut put = |ws: &[i16]| {
            ws.iter()
                .for_each(|w| out.extend_from_slice(&w.to_le_bytes()))
        };
        for row in &net.ft_weights {
            put(&row[..width]);
        }
        put(&net.ft_bias[..width]);
        for side in &net.outputs[0].weights {
            put(&side[..width]);
        }
        out.extend_from_slice(&net.outputs[0].bias.to_le_bytes());
        out
    }

    #[test]
    fn a_narrower_file_reads_as_zero_neurons() {
        // A network whose last neurons are zero, and the same written at a narrower width:
        // both read as the same network, so they evaluate every position alike.
        let width = HIDDEN / 2;
        let mut net = random_network(5);
        net.activation = Activation::SCReLU;
        for row in net.ft_weights.iter_mut() {
            row[width..].fill(0);
        }
        net.ft_bias[width..].fill(0);
        for side in net.outputs[0].weights.iter_mut() {
            side[width..].fill(0);
        }
        let narrow = narrow_file(&net, width);
        assert_eq!(
            narrow.len(),
            file_bytes(1, 1) - 2 * (INPUTS + 3) * (HIDDEN - width)
        );
        let read = Network::from_bytes(&narrow).expect("a narrower file parses");
        assert_eq!(read.to_bytes(), net.to_bytes());
        let board =
            Board::from_str("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
                .expect("test FEN");
        assert_ne!(read.evaluate_board(&board), 0);
        // One neuron wide is the narrowest; a narrow file of the wrong length is refused.
        assert!(Network::from_bytes(&narrow_file(&net, 1)).is_ok());
        assert!(Network::from_bytes(&narrow[..narrow.len() - 2]).is_err());
        let mut claims_wider = narrow;
        claims_wider[8..12].copy_from_slice(&(width as u32 + 1).to_le_bytes());
        assert!(Network::from_bytes(&claims_wider).is_err());
    }

    #[test]
    fn version_1_files_are_crelu_and_screlu_weights_are_bounded() {
        let mut net = random_network(11);
        net.activation = Activation::SCReLU;
        let bytes = net.to_bytes();
        let back = Network::from_bytes(&bytes).expect("parses");
        assert_eq!(back.activation, Activation::SCReLU);
        // A network without king buckets is written as version 3, which older builds read.
        assert_eq!(bytes[4..8], 3u32.to_le_bytes());
        // Version 1: the same bytes without the activation field, read as CReLU.
        let mut v1 = bytes.clone();
        v1[4..8].copy_from_slice(&1u32.to_le_bytes());
        v1.drain(24..36);
        let old = Network::from_bytes(&v1).expect("version 1 parses");
        assert_eq!(old.activation, Activation::CReLU);
        assert_eq!(old.ft_weights, net.ft_weights);
        // Version 2: no inputs field, read as plain inputs.
        net.inputs = Inputs::KingMirrored;
        let mut v2 = net.to_bytes();
        assert_eq!(
            Network::from_bytes(&v2).map(|n| n.inputs),
            Ok(Inputs::KingMirrored)
        );
        let mut v4 = v2.clone();
        v2[4..8].copy_from_slice(&2u32.to_le_bytes());
        v2.drain(32..36);
        let old = Network::from_bytes(&v2).expect("version 2 parses");
        assert_eq!(
            (old.inputs, old.activation),
            (Inputs::Plain, Activation::SCReLU)
        );
        // Version 4 with a one-bucket layout reads as the version 3 file it equals.
        v4[4..8].copy_from_slice(&4u32.to_le_bytes());
        v4.splice(36..36, [0u8; 64]);
        let same = Network::from_bytes(&v4).expect("version 4 parses");
        assert_eq!(
            (same.inputs, same.king_buckets, &same.ft_weights),
            (Inputs::KingMirrored, KingBuckets::NONE, &net.ft_weights)
        );
        let mut unknown_inputs = net.to_bytes();
        unknown_inputs[32] = 5;
        assert!(Network::from_bytes(&unknown_inputs)
            .unwrap_err()
            .contains("inputs"));
        let mut unknown = bytes;
        unknown[24] = 9;
        assert!(Network::from_bytes(&unknown)
            .unwrap_err()
            .contains("activation"));
        let mut no_buckets = net.to_bytes();
        no_buckets[28] = 0;
        assert!(Network::from_bytes(&no_buckets)
            .unwrap_err()
            .contains("buckets"));
        net.outputs[0].weights[1][5] = -(SCRELU_MAX_OUT_WEIGHT + 1);
        let err = Network::from_bytes(&net.to_bytes()).unwrap_err();
        assert!(err.contains("overflow"), "{err}");
    }

    #[test]
    fn the_piece_count_picks_the_output_bucket() {
        // Eight buckets: (pieces − 2) / 4, the usual material buckets.
        let expected = [(2, 0), (5, 0), (6, 1), (17, 3), (18, 4), (31, 7), (32, 7)];
        for (pieces, bucket) in expected {
            assert_eq!(output_bucket(8, pieces), bucket, "{pieces} pieces");
        }
        assert_eq!(output_bucket(1, 32), 0);
        assert_eq!(output_bucket(1, 2), 0);
        // A network whose buckets give 100 × their index: a bare-kings position reads
        // bucket 0, the start position bucket 7.
        let mut net = Network::zeroed();
        net.outputs = (0..8)
            .map(|b| Output {
                bias: 100 * b * QA * QB / SCALE,
                ..Output::ZERO
            })
            .collect();
        let kings = Board::from_str("4k3/8/8/8/8/8/8/4K3 w - - 0 1").expect("test FEN");
        assert_eq!(net.evaluate_board(&kings), 0);
        assert_eq!(net.evaluate_board(&Board::default()), 700);
        let back = Network::from_bytes(&net.to_bytes()).expect("parses");
        assert_eq!(back.outputs, net.outputs);
        assert_eq!(net.to_bytes().len(), file_bytes(1, 8));
    }

    #[test]
    fn screlu_squares_the_clipped_sum() {
        // One hidden neuron at half of QA (127 of 255) with an output weight of 1.0 (QB):
        // (127/255)² × 400 = 99.2 centipawns, where CReLU gives 127/255 × 400 = 199.2.
        let board = Board::from_str("4k3/8/8/8/8/8/8/4K3 w - - 0 1").expect("test FEN");
        let mut net = Network::zeroed();
        net.ft_bias[0] = 127;
        net.outputs[0].weights[0][0] = QB as i16;
        assert_eq!(net.evaluate_board(&board), 199);
        net.activation = Activation::SCReLU;
        assert_eq!(net.evaluate_board(&board), 99);
        // Saturated above QA and zero below 0, as CReLU.
        net.ft_bias[0] = 400;
        assert_eq!(net.evaluate_board(&board), 400);
        net.ft_bias[0] = -50;
        assert_eq!(net.evaluate_board(&board), 0);
    }

    /// Both dot products against the same sums written out in i64, on varied values in all
    /// the neurons (negative, inside the clamp, above QA), so a reduction that skipped or
    /// doubled a neuron or a lane would fail.
    #[test]
    fn dot_products_match_a_plain_sum() {
        let mut acc = [0i16; HIDDEN];
        let mut weights = [0i16; HIDDEN];
        let mut x = 7u64;
        for i in 0..HIDDEN {
            x = crate::rng::splitmix64(x);
            acc[i] = (x % 700) as i16 - 200;
            weights[i] = ((x >> 32) % 255) as i16 - 127;
        }
        let clip = |a: i16| i64::from(a.clamp(0, QA as i16));
        let crelu: i64 = (0..HIDDEN)
            .map(|i| clip(acc[i]) * i64::from(weights[i]))
            .sum();
        let screlu: i64 = (0..HIDDEN)
            .map(|i| clip(acc[i]) * clip(acc[i]) * i64::from(weights[i]))
            .sum();
        assert_eq!(i64::from(crelu_dot(&acc, &weights)), crelu);
        assert_eq!(i64::from(screlu_dot(&acc, &weights)), screlu);
        assert_ne!(screlu, 0);
    }

    #[test]
    fn screlu_sums_cannot_overflow() {
        // Every neuron saturated and every output weight at the largest allowed magnitude.
        let board = Board::from_str("4k3/8/8/8/8/8/8/4K3 w - - 0 1").expect("test FEN");
        let mut net = Network::zeroed();
        net.activation = Activation::SCReLU;
        net.ft_bias = Row([QA as i16; HIDDEN]);
        net.outputs[0].weights = [Row([SCRELU_MAX_OUT_WEIGHT; HIDDEN]); 2];
        let expected = (2 * HIDDEN as i64 * i64::from(QA) * i64::from(SCRELU_MAX_OUT_WEIGHT))
            * i64::from(SCALE)
            / i64::from(QA * QB);
        assert_eq!(i64::from(net.evaluate_board(&board)), expected);
        net.outputs[0].weights = [Row([-SCRELU_MAX_OUT_WEIGHT; HIDDEN]); 2];
        assert_eq!(i64::from(net.evaluate_board(&board)), -expected);
    }

    #[test]
    fn mirrored_position_evaluates_the_same() {
        // The same position with colours swapped and the board flipped: each side sees the
        // same thing from its own perspective, so the side to move gets the same score.
        for (inputs, king_buckets) in layouts() {
            colour_flip_evaluates_the_same(inputs, king_buckets);
        }
    }

    fn colour_flip_evaluates_the_same(inputs: Inputs, king_buckets: KingBuckets) {
        let mut net = random_network_with(3, king_buckets);
        net.inputs = inputs;
        let a =
            Board::from_str("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w - - 0 1")
                .expect("test FEN");
        let b =
            Board::from_str("r3k2r/pppbbppp/2n2q1P/1P2p3/3pn3/BN2PNP1/P1PPQPB1/R3K2R b - - 0 1")
                .expect("test FEN");
        assert_eq!(net.evaluate_board(&a), net.evaluate_board(&b));
        let mut squared = net;
        squared.activation = Activation::SCReLU;
        assert_eq!(squared.evaluate_board(&a), squared.evaluate_board(&b));
    }

    #[test]
    fn feature_indices_cover_the_inputs_once() {
        // Each king bucket's 768 inputs, once each, for a flipped and an unflipped view.
        for flip in [0, 7] {
            let mut seen = vec![false; 4 * INPUTS];
            for bucket in 0..4 {
                for colour in [Color::White, Color::Black] {
                    for piece in ALL_PIECES {
                        for sq in chess::ALL_SQUARES {
                            let view = View { flip, bucket };
                            let i = feature(Color::Black, view, colour, piece, sq);
                            assert!(!seen[i]);
                            assert_eq!(i / INPUTS, usize::from(bucket));
                            seen[i] = true;
                        }
                    }
                }
            }
            assert!(seen.iter().all(|&s| s));
        }
    }

    #[test]
    fn each_perspective_reads_the_bucket_of_its_own_king() {
        // Four buckets: White's king on g1 is in the corner bucket; Black's on e7 is on its
        // second rank, and mirrored inputs read it as d7 (same bucket, flip 7).
        let four = KingBuckets::from_name("4").expect("named layout");
        let board = Board::from_str("8/4k3/8/8/8/8/8/6K1 w - - 0 1").expect("test FEN");
        let mut net = random_network_with(1, four);
        let views = |net: &Network| {
            [Color::White, Color::Black].map(|c| {
                let v = net.view(&board, c);
                (v.flip, v.bucket)
            })
        };
        assert_eq!(views(&net), [(0, 0), (0, 2)]);
        net.inputs = Inputs::KingMirrored;
        assert_eq!(views(&net), [(7, 0), (7, 2)]);
        assert_eq!(net.refresh(&board).views[1], View { flip: 7, bucket: 2 });
    }
}
