//! A small efficiently updatable neural network (NNUE) evaluation.
//!
//! # Architecture
//! `768 → HIDDEN ×2 → 1`: each side's "perspective" sees 768 binary inputs (own/enemy ×
//! piece type × square, the board mirrored vertically for Black), a shared feature
//! transformer turns them into `HIDDEN` sums (the accumulator), and the output neuron reads
//! the clipped sums of the side to move followed by those of the other side:
//!
//! `eval = (w_us · CReLU(acc_us) + w_them · CReLU(acc_them) + b) × SCALE`,
//! `CReLU(x) = clamp(x, 0, 1)`.
//!
//! Because one move changes at most four inputs, the accumulator is updated incrementally on
//! make (see [`Accumulator::apply`]), and evaluation costs one pass over `2 × HIDDEN` values.
//! CReLU rather than the squared SCReLU keeps every sum inside `i32` with no extra division
//! (`255 × 511 × 2 × HIDDEN` is far below 2^31).
//!
//! # Quantisation (the only place these numbers live)
//! - feature weights and biases: `round(w × QA)` as i16, so an accumulator value of `QA`
//!   stands for 1.0, where CReLU saturates;
//! - output weights: `round(w × QB)` as i16; output bias: `round(b × QA × QB)` as i32;
//! - centipawns: `(Σ clamp(acc, 0, QA) × w_q + b_q) × SCALE / (QA × QB)`.
//!
//! # File format (`.nnue`, little-endian)
//! `b"SGNN"`, then u32 version (1), u32 HIDDEN, u32 QA, u32 QB, u32 SCALE; then
//! `768 × HIDDEN` i16 feature weights (input-major: all of input 0's weights first),
//! `HIDDEN` i16 feature biases, `2 × HIDDEN` i16 output weights (side to move first), one
//! i32 output bias. `Network::load` refuses any other size or constants with a message.

mod accumulator;
pub mod select;

pub use accumulator::{Accumulator, Delta};

use chess::{Board, Color, Piece, Square, ALL_PIECES, EMPTY};

/// Hidden neurons per perspective. Fixed at compile time so that every loop has a known
/// length the compiler can vectorise; a file of another size is refused on load.
pub const HIDDEN: usize = 128;
/// Inputs per perspective: 2 colours × 6 pieces × 64 squares.
pub const INPUTS: usize = 768;
pub const QA: i32 = 255;
pub const QB: i32 = 64;
/// Centipawns per unit of network output.
pub const SCALE: i32 = 400;
pub const MAGIC: &[u8; 4] = b"SGNN";
pub const VERSION: u32 = 1;
/// The search clamps network scores to this, as the hand-written evaluation is clamped, so
/// they never reach mate scores.
pub const EVAL_LIMIT_NNUE: i32 = crate::eval::EVAL_LIMIT;
/// Bytes of a network file with [`HIDDEN`] neurons.
pub const FILE_BYTES: usize = 24 + 2 * (INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN) + 4;

/// Input index of a piece as seen from `perspective`: pieces of the perspective's own colour
/// first, squares mirrored (rank flipped) for Black so both sides see "their" board.
#[inline]
pub fn feature(perspective: Color, colour: Color, piece: Piece, square: Square) -> usize {
    let (side, sq) = if perspective == Color::White {
        (usize::from(colour != Color::White), square.to_index())
    } else {
        (usize::from(colour != Color::Black), square.to_index() ^ 56)
    };
    side * 384 + piece.to_index() * 64 + sq
}

/// Quantised weights.
#[derive(Clone)]
pub struct Network {
    pub ft_weights: Box<[[i16; HIDDEN]; INPUTS]>,
    pub ft_bias: [i16; HIDDEN],
    /// `[0]` reads the side to move's accumulator, `[1]` the other side's.
    pub out_weights: [[i16; HIDDEN]; 2],
    pub out_bias: i32,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Network({INPUTS}->{HIDDEN}x2->1)")
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
            .ok_or_else(|| format!("file ends at byte {} (need {FILE_BYTES})", self.bytes.len()))?;
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
    /// A network of zeros (evaluates every position as 0); the starting point for parsing.
    pub fn zeroed() -> Network {
        Network {
            ft_weights: vec![[0; HIDDEN]; INPUTS]
                .into_boxed_slice()
                .try_into()
                .unwrap_or_else(|_| unreachable!("length is INPUTS")),
            ft_bias: [0; HIDDEN],
            out_weights: [[0; HIDDEN]; 2],
            out_bias: 0,
        }
    }

    /// Parse a network file (format in the module documentation).
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        let mut r = Reader { bytes, at: 0 };
        if &r.take::<4>()? != MAGIC {
            return Err("not a Sandglass network (magic is not SGNN)".to_string());
        }
        let version = r.u32()?;
        if version != VERSION {
            return Err(format!(
                "network version {version}, this build reads {VERSION}"
            ));
        }
        let hidden = r.u32()?;
        if hidden as usize != HIDDEN {
            return Err(format!(
                "network has {hidden} hidden neurons, this build has {HIDDEN}"
            ));
        }
        let (qa, qb, scale) = (r.u32()?, r.u32()?, r.u32()?);
        if (qa, qb, scale) != (QA as u32, QB as u32, SCALE as u32) {
            return Err(format!(
                "network quantised with QA {qa}, QB {qb}, SCALE {scale}; this build uses {QA}, {QB}, {SCALE}"
            ));
        }
        let mut net = Network::zeroed();
        for row in net.ft_weights.iter_mut() {
            for w in row.iter_mut() {
                *w = r.i16()?;
            }
        }
        for b in net.ft_bias.iter_mut() {
            *b = r.i16()?;
        }
        for row in net.out_weights.iter_mut() {
            for w in row.iter_mut() {
                *w = r.i16()?;
            }
        }
        net.out_bias = r.take::<4>().map(i32::from_le_bytes)?;
        if r.at != bytes.len() {
            return Err(format!(
                "{} bytes after the network (file has {}, expected {FILE_BYTES})",
                bytes.len() - r.at,
                bytes.len()
            ));
        }
        Ok(net)
    }

    /// Read a network file.
    pub fn load(path: &std::path::Path) -> Result<Network, String> {
        let bytes =
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        Network::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The file's bytes (inverse of [`Network::from_bytes`]).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(FILE_BYTES);
        out.extend_from_slice(MAGIC);
        for v in [VERSION, HIDDEN as u32, QA as u32, QB as u32, SCALE as u32] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        let i16s = self
            .ft_weights
            .iter()
            .flatten()
            .chain(&self.ft_bias)
            .chain(self.out_weights.iter().flatten());
        for w in i16s {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.out_bias.to_le_bytes());
        out
    }

    /// The accumulator of a board computed from scratch.
    pub fn refresh(&self, board: &Board) -> Accumulator {
        let mut acc = Accumulator {
            values: [self.ft_bias; 2],
        };
        for piece in ALL_PIECES {
            for colour in [Color::White, Color::Black] {
                let bb = *board.pieces(piece) & *board.color_combined(colour);
                if bb == EMPTY {
                    continue;
                }
                for sq in bb {
                    acc.add(self, colour, piece, sq);
                }
            }
        }
        acc
    }

    /// Centipawns for the side to move, from an accumulator that matches the board.
    #[inline]
    pub fn evaluate(&self, acc: &Accumulator, stm: Color) -> i32 {
        let (us, them) = match stm {
            Color::White => (&acc.values[0], &acc.values[1]),
            Color::Black => (&acc.values[1], &acc.values[0]),
        };
        let sum = crelu_dot(us, &self.out_weights[0]) + crelu_dot(them, &self.out_weights[1]);
        (sum + self.out_bias) * SCALE / (QA * QB)
    }

    /// Evaluate a board from scratch (tools and tests; the search updates incrementally).
    pub fn evaluate_board(&self, board: &Board) -> i32 {
        self.evaluate(&self.refresh(board), board.side_to_move())
    }
}

/// Σ clamp(a, 0, QA) × w in i32, in chunks of 16 lanes so the compiler emits SIMD code.
#[inline]
fn crelu_dot(acc: &[i16; HIDDEN], weights: &[i16; HIDDEN]) -> i32 {
    const LANES: usize = 16;
    let mut sums = [0i32; LANES];
    for (a, w) in acc.chunks_exact(LANES).zip(weights.chunks_exact(LANES)) {
        for i in 0..LANES {
            let clipped = i32::from(a[i]).clamp(0, QA);
            sums[i] += clipped * i32::from(w[i]);
        }
    }
    sums.iter().sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    /// A network with small pseudo-random weights, to test the arithmetic.
    pub(crate) fn random_network(seed: u64) -> Network {
        let mut rng = crate::rng::Rng::new(seed);
        let mut next = move || rng.below(61) as i16 - 30;
        let mut net = Network::zeroed();
        for row in net.ft_weights.iter_mut() {
            for w in row.iter_mut() {
                *w = next();
            }
        }
        for b in net.ft_bias.iter_mut() {
            *b = next() * 3;
        }
        for row in net.out_weights.iter_mut() {
            for w in row.iter_mut() {
                *w = next();
            }
        }
        net.out_bias = 1234;
        net
    }

    #[test]
    fn file_round_trip_and_errors() {
        let net = random_network(7);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), FILE_BYTES);
        let back = Network::from_bytes(&bytes).expect("parses");
        assert_eq!(back.to_bytes(), bytes);
        assert!(Network::from_bytes(&bytes[..100]).is_err());
        let mut wrong = bytes.clone();
        wrong[0] = b'X';
        assert!(Network::from_bytes(&wrong).unwrap_err().contains("magic"));
        let mut wrong = bytes.clone();
        wrong[8] = 7;
        assert!(Network::from_bytes(&wrong).unwrap_err().contains("hidden"));
        let mut long = bytes;
        long.push(0);
        assert!(Network::from_bytes(&long).is_err());
    }

    #[test]
    fn mirrored_position_evaluates_the_same() {
        // The same position with colours swapped and the board flipped: each side sees the
        // same thing from its own perspective, so the side to move gets the same score.
        let net = random_network(3);
        let a =
            Board::from_str("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w - - 0 1")
                .expect("test FEN");
        let b =
            Board::from_str("r3k2r/pppbbppp/2n2q1P/1P2p3/3pn3/BN2PNP1/P1PPQPB1/R3K2R b - - 0 1")
                .expect("test FEN");
        assert_eq!(net.evaluate_board(&a), net.evaluate_board(&b));
    }

    #[test]
    fn feature_indices_cover_the_inputs_once() {
        let mut seen = vec![false; INPUTS];
        for colour in [Color::White, Color::Black] {
            for piece in ALL_PIECES {
                for sq in chess::ALL_SQUARES {
                    let i = feature(Color::Black, colour, piece, sq);
                    assert!(!seen[i]);
                    seen[i] = true;
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
    }
}
