//! The layout of a Syzygy table file, walked with every read checked, to find where the file
//! must end.
//!
//! The prober reads a file through raw pointers computed from its header: a file cut short
//! (or otherwise damaged) has it read past the mapping and crash the engine, and a size check
//! alone misses a file cut at a multiple of 64 bytes plus 16. So before the prober ever sees
//! a file, its header is walked here the way the prober walks it, and every section it
//! declares must fit: the last data block, rounded up to 64 bytes, plus the 16-byte checksum
//! the generator appends, must be the file's exact length (true of every file of the 3- to
//! 4-man set). The symbol tree of each compressed table must also be acyclic, since the
//! prober follows it recursively, and every position's walk from its index entry through
//! the size table must stay among the table's blocks.
//!
//! The format is Ronald de Man's; the walk follows Fathom's `init_table` (MIT, the code the
//! prober is translated from): after the 5-byte magic and flags come, per sub-table, the
//! order of its pieces, then each sub-table's Huffman-like "pairs" header, for DTZ the value
//! maps, then the index tables, the size tables, and the 64-byte-aligned data blocks. The
//! header, the index and the size tables are read, not the data blocks.

use super::Material;

/// Fathom's `PAWN_TWIST[0]`: the leading pawn's square as numbered for the file encoding.
#[rustfmt::skip]
const PAWN_TWIST: [u8; 64] = [
     0,  0,  0,  0,  0,  0,  0,  0,
    47, 35, 23, 11, 10, 22, 34, 46,
    45, 33, 21,  9,  8, 20, 32, 44,
    43, 31, 19,  7,  6, 18, 30, 42,
    41, 29, 17,  5,  4, 16, 28, 40,
    39, 27, 15,  3,  2, 14, 26, 38,
    37, 25, 13,  1,  0, 12, 24, 36,
     0,  0,  0,  0,  0,  0,  0,  0,
];

/// Fathom's placements of the pieces' first group, by encoding: 462 for the two kings alone
/// (`kk_enc`), 31,332 for a king pair with a third lone piece.
const KK_PLACEMENTS: u64 = 462;
const KKX_PLACEMENTS: u64 = 31_332;

/// Ways to place `k` like pieces on `n` squares: C(n, k).
fn subfactor(k: u64, n: u64) -> u64 {
    binomial(n, k)
}

fn binomial(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1u64, |acc, i| acc.saturating_mul(n - i) / (i + 1))
}

/// Fathom's `PawnFactorFile[leading - 1][file]`: the placements of `leading` pawns whose
/// first is on the given file (a to d), summed over its squares.
fn pawn_factor_file(leading: usize, file: usize) -> u64 {
    (6 * file..6 * file + 6)
        .map(|j| {
            let square = (1 + j % 6) * 8 + j / 6;
            binomial(u64::from(PAWN_TWIST[square]), leading as u64 - 1)
        })
        .sum()
}

/// A header read with every access checked.
struct Reader<'a> {
    data: &'a [u8],
}

impl Reader<'_> {
    fn byte(&self, at: u64) -> Result<u8, String> {
        usize::try_from(at)
            .ok()
            .and_then(|i| self.data.get(i).copied())
            .ok_or_else(|| format!("its header runs past its end (byte {at})"))
    }

    fn u16(&self, at: u64) -> Result<u64, String> {
        Ok(u64::from(self.byte(at)?) | u64::from(self.byte(at + 1)?) << 8)
    }

    fn u32(&self, at: u64) -> Result<u64, String> {
        Ok(self.u16(at)? | self.u16(at + 2)? << 16)
    }
}

/// The bytes of one compressed sub-table's three sections, from its pairs header.
struct Sections {
    index: u64,
    sizes: u64,
    data: u64,
    flags: u8,
    /// Positions the sub-table holds, `2^index_bits` per index entry, and its data blocks.
    positions: u64,
    index_bits: u64,
    real_blocks: u64,
}

/// What a table's name says about its layout.
struct Shape {
    men: u64,
    /// Pawns of the leading colour and of the other (0 and 0 without pawns).
    pawns: [u64; 2],
    /// Without pawns: the two kings are the only lone pieces (Fathom's `kk_enc`).
    kings_alone: bool,
    /// The pieces' codes as the file lists them (Fathom's: pawn 1 to king 6, Black's 8
    /// more), sorted, for the material and for its mirror.
    codes: [Vec<u8>; 2],
}

impl Shape {
    fn of(m: &Material) -> Shape {
        let c = m.0;
        let (white_pawns, black_pawns) = (u64::from(c[4]), u64::from(c[9]));
        // The leading colour is the one with fewer pawns (but some), White on a tie.
        let pawns = if black_pawns > 0 && (white_pawns == 0 || black_pawns < white_pawns) {
            [black_pawns, white_pawns]
        } else {
            [white_pawns, black_pawns]
        };
        let lone = 2 + c.iter().filter(|&&n| n == 1).count();
        // Codes of queen, rook, bishop, knight and pawn, the order of `Material`.
        const CODES: [u8; 5] = [5, 4, 3, 2, 1];
        let codes = |white: usize| -> Vec<u8> {
            let mut out = vec![6, 14];
            for (side, base) in [(white, 0u8), (1 - white, 8)] {
                for (i, code) in CODES.iter().enumerate() {
                    out.extend(std::iter::repeat_n(
                        code + base,
                        usize::from(c[5 * side + i]),
                    ));
                }
            }
            out.sort_unstable();
            out
        };
        Shape {
            men: u64::from(m.men()),
            pawns,
            kings_alone: lone == 2,
            codes: [codes(0), codes(1)],
        }
    }

    fn has_pawns(&self) -> bool {
        self.pawns[0] > 0
    }
}

/// The size in positions of one sub-table, from its piece order (`shift` picks the nibble:
/// 0 for the first side to move, 4 for the second) and, with pawns, its leading file.
fn table_size(r: &Reader, at: u64, shape: &Shape, shift: u8, file: usize) -> Result<u64, String> {
    let more_pawns = shape.has_pawns() && shape.pawns[1] > 0;
    let men = shape.men as usize;
    let first = 1 + u64::from(more_pawns);
    let mut pieces = vec![0u8; men];
    for (i, p) in pieces.iter_mut().enumerate() {
        *p = (r.byte(at + first + i as u64)? >> shift) & 0x0f;
    }
    // The prober indexes its tables by these codes: they must be the material's own pieces.
    let mut listed = pieces.clone();
    listed.sort_unstable();
    if listed != shape.codes[0] && listed != shape.codes[1] {
        return Err("its piece list is not its material's".to_string());
    }
    let order = u64::from((r.byte(at)? >> shift) & 0x0f);
    // A second pawn group's place in the order; 0x0f (none) never matches, as in Fathom.
    let order2 = if more_pawns {
        u64::from((r.byte(at + 1)? >> shift) & 0x0f)
    } else {
        0x0f
    };
    // Groups of like pieces: norm[i] is the size of the group starting at i.
    let mut norm = vec![0u64; men + 1];
    norm[0] = if shape.has_pawns() {
        shape.pawns[0]
    } else if shape.kings_alone {
        2
    } else {
        3
    };
    let mut k = norm[0] as usize;
    if more_pawns {
        norm[k.min(men)] = shape.pawns[1];
        k += shape.pawns[1] as usize;
    }
    let mut i = k;
    while i < men {
        let mut j = i;
        while j < men && pieces[j] == pieces[i] {
            norm[i] += 1;
            j += 1;
        }
        i += norm[i].max(1) as usize;
    }
    // Fathom's `init_enc_info`: the groups multiply out in the order the file gives.
    let mut size = 1u64;
    let mut i = norm[0] as usize;
    if shape.has_pawns() && order2 < 0x0f {
        i += norm[i.min(men)] as usize;
    }
    let mut n = 64 - i as u64;
    let mut k = 0;
    while i < men || k == order || k == order2 {
        if k == order {
            size = size.saturating_mul(if !shape.has_pawns() {
                if shape.kings_alone {
                    KK_PLACEMENTS
                } else {
                    KKX_PLACEMENTS
                }
            } else {
                let leading = norm[0] as usize;
                if !(1..=6).contains(&leading) {
                    return Err("its pawn count is out of range".to_string());
                }
                pawn_factor_file(leading, file)
            });
        } else if k == order2 {
            size = size.saturating_mul(subfactor(norm[norm[0] as usize], 48 - norm[0]));
        } else {
            let group = norm[i].max(1);
            size = size.saturating_mul(subfactor(group, n));
            n = n.saturating_sub(group);
            i += group as usize;
        }
        k += 1;
        if k > 16 {
            return Err("its piece order is garbled".to_string());
        }
    }
    Ok(size)
}

/// Walk one pairs header at `*at` for a sub-table of `positions` positions; `*at` moves past
/// it.
fn pairs(r: &Reader, at: &mut u64, positions: u64, wdl: bool) -> Result<Sections, String> {
    let flags = r.byte(*at)?;
    if flags & 0x80 != 0 {
        // One value for every position: no sections. A WDL table's value (0 to 4) is used
        // as an index.
        if wdl && r.byte(*at + 1)? > 4 {
            return Err("its single value is out of range".to_string());
        }
        *at += 2;
        return Ok(Sections {
            index: 0,
            sizes: 0,
            data: 0,
            flags,
            positions,
            index_bits: 0,
            real_blocks: 0,
        });
    }
    let block_size = u64::from(r.byte(*at + 1)?);
    let index_bits = u64::from(r.byte(*at + 2)?);
    let real_blocks = r.u32(*at + 4)?;
    let blocks = real_blocks + u64::from(r.byte(*at + 3)?);
    let max_len = u64::from(r.byte(*at + 8)?);
    let min_len = u64::from(r.byte(*at + 9)?);
    if block_size > 40 || index_bits > 63 || min_len > max_len {
        return Err("its compression header is garbled".to_string());
    }
    let h = max_len - min_len + 1;
    let symbols = r.u16(*at + 10 + 2 * h)?;
    let patterns = *at + 12 + 2 * h;
    check_symbols(r, patterns, symbols)?;
    check_code_lengths(r, *at + 10, h, min_len, symbols)?;
    *at = patterns + 3 * symbols + (symbols & 1);
    let indices = positions.div_ceil(1 << index_bits);
    if index_bits == 0 && positions > 0 {
        return Err("its compression header is garbled".to_string());
    }
    Ok(Sections {
        index: 6 * indices,
        sizes: 2 * blocks,
        data: real_blocks.saturating_mul(1 << block_size),
        flags,
        positions,
        index_bits,
        real_blocks,
    })
}

/// Every position's way to its data block, as the prober's `decompress_pairs` finds it: an
/// index entry names a block and an offset, and the prober steps from that block through the
/// size table (each block's count of values, less one) until the position's rank falls
/// inside a block. A damaged index or size table sends that walk outside the tables and the
/// data, and the prober then reads through a wild pointer, which no panic handler catches.
/// The walk is taken here for the first and the last position of every index entry, the two
/// ends every other position's walk lies between.
fn check_index(r: &Reader, index_at: u64, sizes_at: u64, s: &Sections) -> Result<(), String> {
    if s.index == 0 {
        return Ok(());
    }
    // The size table has padding entries past the real blocks: reads may land there, the
    // walk may not end there.
    let size = |block: u64| -> Result<i64, String> {
        if block >= s.sizes / 2 {
            return Err("its index points past its size table".to_string());
        }
        Ok(r.u16(sizes_at + 2 * block)? as i64)
    };
    let half = 1i64 << (s.index_bits - 1);
    let span = 1u64 << s.index_bits;
    for entry in 0..s.index / 6 {
        let block = r.u32(index_at + 6 * entry)?;
        let offset = r.u16(index_at + 6 * entry + 4)? as i64;
        let first = entry * span;
        let last = (first + span - 1).min(s.positions.saturating_sub(1));
        for idx in [first, last] {
            let mut lit = (idx & (span - 1)) as i64 - half + offset;
            let mut at = block;
            while lit < 0 {
                if at == 0 {
                    return Err("its index points before its first block".to_string());
                }
                at -= 1;
                lit += size(at)? + 1;
            }
            loop {
                let values = size(at)?;
                if lit <= values {
                    break;
                }
                lit -= values + 1;
                at += 1;
            }
            if at >= s.real_blocks {
                return Err("its index points past its last block".to_string());
            }
        }
    }
    Ok(())
}

/// Every symbol either a leaf or a pair of existing symbols, with no cycle: the prober's
/// recursive walk of the tree must end.
fn check_symbols(r: &Reader, patterns: u64, symbols: u64) -> Result<(), String> {
    let pair = |s: u64| -> Result<Option<(u64, u64)>, String> {
        let w = patterns + 3 * s;
        let (b0, b1, b2) = (
            u64::from(r.byte(w)?),
            u64::from(r.byte(w + 1)?),
            u64::from(r.byte(w + 2)?),
        );
        let right = (b2 << 4) | (b1 >> 4);
        if right == 0x0fff {
            return Ok(None);
        }
        Ok(Some((((b1 & 0x0f) << 8) | b0, right)))
    };
    // 0: unvisited, 1: on the current path, 2: done.
    let mut state = vec![0u8; symbols as usize];
    for start in 0..symbols {
        if state[start as usize] != 0 {
            continue;
        }
        let mut stack = vec![(start, false)];
        while let Some((s, expanded)) = stack.pop() {
            if expanded {
                state[s as usize] = 2;
                continue;
            }
            match state[s as usize] {
                2 => continue,
                1 => return Err("its symbol tree has a cycle".to_string()),
                _ => {}
            }
            state[s as usize] = 1;
            stack.push((s, true));
            if let Some((a, b)) = pair(s)? {
                for child in [a, b] {
                    if child >= symbols {
                        return Err("its symbol tree names a missing symbol".to_string());
                    }
                    match state[child as usize] {
                        1 => return Err("its symbol tree has a cycle".to_string()),
                        0 => stack.push((child, false)),
                        _ => {}
                    }
                }
            }
        }
    }
    Ok(())
}

/// The canonical code's first symbol for each code length (`offsets`, `h` of them from the
/// shortest, `min_len`): every code the prober can decode must name an existing symbol. The
/// first code of each length (`base`, in that length's units) follows from the offsets as in
/// Fathom's `setup_pairs`; the codes of a length run from it to the first code of the next
/// shorter length (scaled), and their symbols from its offset on.
fn check_code_lengths(
    r: &Reader,
    offsets: u64,
    h: u64,
    min_len: u64,
    symbols: u64,
) -> Result<(), String> {
    let garbled = || "its code lengths are garbled".to_string();
    let offset: Vec<u64> = (0..h)
        .map(|i| r.u16(offsets + 2 * i))
        .collect::<Result<_, _>>()?;
    let mut base = vec![0u64; h as usize];
    for i in (0..h as usize - 1).rev() {
        let twice = (base[i + 1] + offset[i])
            .checked_sub(offset[i + 1])
            .ok_or_else(garbled)?;
        base[i] = twice / 2;
    }
    for l in 0..h as usize {
        let len = min_len + l as u64;
        let end = if l == 0 {
            1u64.checked_shl(len as u32).ok_or_else(garbled)?
        } else {
            base[l - 1].checked_mul(2).ok_or_else(garbled)?
        };
        let codes = end.checked_sub(base[l]).ok_or_else(garbled)?;
        if offset[l].saturating_add(codes) > symbols {
            return Err(garbled());
        }
    }
    Ok(())
}

fn align64(at: u64) -> u64 {
    at.div_ceil(64) * 64
}

/// Check that the header of a table of material `m` (WDL, or DTZ when `dtz`) fits `data`,
/// the whole file, and that its sections end where the file does.
pub fn check(data: &[u8], m: &Material, dtz: bool) -> Result<(), String> {
    let r = Reader { data };
    let shape = Shape::of(m);
    let flags = r.byte(4)?;
    let split = !dtz && flags & 0x01 != 0;
    let files = if shape.has_pawns() && flags & 0x02 != 0 {
        4
    } else {
        1
    };
    let sides = if split { 2 } else { 1 };
    let mut at = 5u64;
    // Piece orders: one record per file (four with pawns), each with one or two sides.
    let record = shape.men + 1 + u64::from(shape.has_pawns() && shape.pawns[1] > 0);
    let mut sizes = Vec::new();
    let records = if shape.has_pawns() { 4 } else { 1 };
    for file in 0..records {
        for side in 0..sides {
            sizes.push(table_size(&r, at, &shape, 4 * side as u8, file)?);
        }
        at += record;
    }
    at += at & 1;
    let mut sections = Vec::new();
    for file in 0..files {
        for side in 0..sides {
            sections.push(pairs(&r, &mut at, sizes[file * sides + side], !dtz)?);
        }
    }
    if dtz {
        for s in &sections {
            if s.flags & 2 != 0 {
                if s.flags & 16 == 0 {
                    for _ in 0..4 {
                        at += 1 + u64::from(r.byte(at)?);
                    }
                } else {
                    at += at & 1;
                    for _ in 0..4 {
                        at += 2 + 2 * r.u16(at)?;
                    }
                }
            }
        }
        at += at & 1;
    }
    let index_at = at;
    for s in &sections {
        at += s.index;
    }
    let mut index = index_at;
    for s in &sections {
        check_index(&r, index, at, s)?;
        index += s.index;
        at += s.sizes;
    }
    for s in &sections {
        at = align64(at) + s.data;
    }
    let expected = align64(at) + 16;
    if expected != data.len() as u64 {
        return Err(format!(
            "{} bytes where its header calls for {expected}: truncated or corrupt",
            data.len()
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const TABLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/syzygy");

    fn read(name: &str) -> Vec<u8> {
        std::fs::read(format!("{TABLES}/{name}")).expect("a shipped table")
    }

    /// Every shipped file's header accounts for its exact length, and the same file cut
    /// anywhere, at any multiple of 64 plus 16 included, does not.
    #[test]
    fn shipped_files_fit_and_cut_ones_do_not() {
        let mut checked = 0;
        for entry in std::fs::read_dir(TABLES).expect("data/syzygy") {
            let name = entry
                .expect("entry")
                .file_name()
                .into_string()
                .expect("name");
            let Some((stem, ext)) = name.split_once('.') else {
                continue;
            };
            let material = Material::from_name(stem).expect("a table name");
            let dtz = ext == "rtbz";
            let data = read(&name);
            assert_eq!(check(&data, &material, dtz), Ok(()), "{name}");
            for len in [data.len() - 64, data.len() / 2 / 64 * 64 + 16, 16, 5] {
                assert!(
                    check(&data[..len], &material, dtz).is_err(),
                    "{name} at {len}"
                );
            }
            // Another material's header does not fit this name.
            let other = Material::from_name("KQQvK").expect("name");
            if material != other {
                assert!(check(&data, &other, dtz).is_err(), "{name} as KQQvK");
            }
            checked += 1;
        }
        assert_eq!(checked, 70);
    }

    #[test]
    fn a_damaged_index_is_refused() {
        // One byte of KBvKB.rtbw's index table changed (0xff to 0x5e at offset 97): the
        // header and the length still fit, and the prober, given the file, read through a
        // wild pointer and the engine died of a segmentation fault.
        let m = Material::from_name("KBvKB").expect("a material");
        let mut data = read("KBvKB.rtbw");
        assert_eq!(check(&data, &m, false), Ok(()));
        assert_eq!(data[97], 0xff);
        data[97] = 0x5e;
        let refused = check(&data, &m, false).expect_err("a damaged index");
        assert!(refused.contains("index"), "{refused}");
    }

    #[test]
    fn a_looping_symbol_tree_is_refused() {
        // Two symbols naming each other: 3 bytes each, (left, right) 12 bits apiece.
        let data = [1u8, 0x10, 0x00, 0, 0, 0];
        let r = Reader { data: &data };
        assert!(check_symbols(&r, 0, 2).is_err());
        // A leaf (right = 0xfff) and a pair of leaves are fine.
        let data = [0u8, 0xf0, 0xff, 0, 0xf0, 0xff, 0, 0x10, 0x00];
        let r = Reader { data: &data };
        assert_eq!(check_symbols(&r, 0, 3), Ok(()));
    }
}
