//! Finding the table files in `SyzygyPath` and checking them before the prober sees them.
//!
//! The prober trusts every file it opens: a truncated or foreign file would have it read past
//! the end of the mapping and crash the engine (its own size check registers the file all the
//! same). So each file is checked here: its name must be a material signature (`KQvKR`), its
//! size 16 more than a multiple of 64 (every Syzygy file is; the 16 bytes are the checksum
//! Ronald de Man's generator appends), and its first four bytes the magic number of its kind
//! (the same numbers Fathom and python-chess check). Only the four bytes are read: the tables
//! themselves stay on disk until a probe maps them.
//!
//! A table is then usable only if every table its probes can fall into is usable too: a WDL
//! probe searches the captures (and the prober the promotions) down to smaller material, so a
//! bad `KRvK` makes `KRvKB` unusable as well.

use super::prober::PATH_SEPARATOR;
use super::{layout, Material};
use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;
use std::path::{Path, PathBuf};

/// The magic numbers of WDL (`.rtbw`) and DTZ (`.rtbz`) files, as their first four bytes.
const WDL_MAGIC: [u8; 4] = [0x71, 0xe8, 0x23, 0x5d];
const DTZ_MAGIC: [u8; 4] = [0xd7, 0x66, 0x0c, 0xa5];

/// The largest tables the prober handles.
pub const MAX_MEN: u32 = 7;

/// What the directories hold: the materials whose WDL (and DTZ) tables can be probed, and
/// what was wrong with the rest.
#[derive(Debug, Default)]
pub struct Found {
    pub wdl: BTreeSet<Material>,
    pub dtz: BTreeSet<Material>,
    /// Files found and accepted, both kinds.
    pub files: usize,
    pub problems: Vec<String>,
}

/// The directories of a `SyzygyPath` value: separated by `:` (`;` on Windows, where `:`
/// follows drive letters), empty parts and `<empty>` left out. The prober is given them
/// joined again by the same separator, so both read the folders alike.
pub fn split_path(path: &str) -> Vec<String> {
    split_path_at(path, PATH_SEPARATOR)
}

/// [`split_path`] with the separator given, so that each system's can be tested anywhere.
fn split_path_at(path: &str, sep: char) -> Vec<String> {
    path.split(sep)
        .map(str::trim)
        .filter(|d| !d.is_empty() && *d != "<empty>")
        .map(str::to_string)
        .collect()
}

/// Look through `dirs` in order (the prober opens the first file of a name it finds, so a
/// later copy is ignored here too) and check every table file.
pub fn scan(dirs: &[String]) -> Found {
    let mut found = Found::default();
    // The first file of each name, with its directory, in the order of the path.
    let mut first: BTreeMap<String, PathBuf> = BTreeMap::new();
    for dir in dirs {
        let entries = match std::fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(e) => {
                found
                    .problems
                    .push(format!("cannot read folder {dir}: {e}"));
                continue;
            }
        };
        let mut names: Vec<(String, PathBuf)> = entries
            .filter_map(Result::ok)
            .filter_map(|e| Some((e.file_name().into_string().ok()?, e.path())))
            .filter(|(name, _)| name.ends_with(".rtbw") || name.ends_with(".rtbz"))
            .collect();
        names.sort();
        for (name, path) in names {
            first.entry(name).or_insert(path);
        }
    }
    let mut wdl_files = BTreeSet::new();
    let mut dtz_files = BTreeSet::new();
    for (name, path) in &first {
        let (stem, dtz) = match name.strip_suffix(".rtbw") {
            Some(stem) => (stem, false),
            None => (name.trim_end_matches(".rtbz"), true),
        };
        let Some(material) = Material::from_name(stem) else {
            // Not a standard-chess table (a variant's, or another file): not ours to judge.
            continue;
        };
        if material.men() > MAX_MEN {
            continue;
        }
        match check(path, material, dtz) {
            Ok(()) => {
                found.files += 1;
                if dtz {
                    dtz_files.insert(material);
                } else {
                    wdl_files.insert(material);
                }
            }
            Err(why) => found
                .problems
                .push(format!("{}: {why}; not used", path.display())),
        }
    }
    // Settled in rounds: a promotion's table has as many men as the pawn's, so no order by
    // size settles every child first. A file names one colouring; its mirror is the same.
    let known = |set: &BTreeSet<Material>, m: &Material| {
        m.men() <= 2 || set.contains(m) || set.contains(&m.mirrored())
    };
    let mut pending: Vec<Material> = wdl_files.iter().copied().collect();
    loop {
        let before = pending.len();
        pending.retain(|m| {
            let ready = m.children().iter().all(|c| known(&found.wdl, c));
            if ready {
                found.wdl.insert(*m);
            }
            !ready
        });
        if pending.len() == before {
            break;
        }
    }
    for m in pending {
        found.problems.push(format!(
            "{}: a smaller table it needs is missing or bad; not used",
            m.name()
        ));
    }
    found.dtz = dtz_files
        .into_iter()
        .filter(|m| found.wdl.contains(m))
        .collect();
    found
}

/// Size, magic number and layout (`layout.rs`) of one file.
fn check(path: &Path, material: Material, dtz: bool) -> Result<(), String> {
    let magic = if dtz { DTZ_MAGIC } else { WDL_MAGIC };
    let mut file = std::fs::File::open(path).map_err(|e| format!("cannot open ({e})"))?;
    let len = file
        .metadata()
        .map_err(|e| format!("cannot read its size ({e})"))?
        .len();
    if len < 64 || len % 64 != 16 {
        return Err(format!(
            "{len} bytes is not a table's size (16 more than a multiple of 64): truncated or not a table"
        ));
    }
    let mut head = [0u8; 4];
    file.read_exact(&mut head)
        .map_err(|e| format!("cannot read ({e})"))?;
    if head != magic {
        return Err("wrong magic number: corrupt or not a Syzygy table".to_string());
    }
    // SAFETY: the map is only read, here, while the file is open; a file changed under a
    // running engine is outside what any prober can guard against (the prober maps it the
    // same way). Only the header's pages are touched.
    let map = unsafe { memmap2::Mmap::map(&file) }.map_err(|e| format!("cannot map ({e})"))?;
    layout::check(&map, &material, dtz)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_path_splits_at_the_systems_separator() {
        assert_eq!(PATH_SEPARATOR, if cfg!(windows) { ';' } else { ':' });
        let sep = PATH_SEPARATOR;
        let path = format!("a{sep}{sep} b {sep}<empty>");
        assert_eq!(split_path(&path), ["a", "b"]);
        assert!(split_path("<empty>").is_empty());
    }

    #[test]
    fn windows_paths_keep_their_drive_letters() {
        assert_eq!(
            split_path_at("C:\\tb one;D:\\tb", ';'),
            ["C:\\tb one", "D:\\tb"]
        );
        // What the prober did on every system before its patch (issue 105).
        assert_eq!(split_path_at("C:\\tb", ':'), ["C", "\\tb"]);
    }
}
