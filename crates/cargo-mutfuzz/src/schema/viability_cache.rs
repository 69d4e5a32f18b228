//! The viability cache: what the viability loop found (the unviable mutants, the rounds,
//! the generated doctests it dropped), kept in `target/mutfuzz/viability/<kind>.json`
//! and reused by every later command until something that decides it changes.
//!
//! The key hashes everything a schema build depends on that mutfuzz can see: this tool's
//! version, the build kind (tests with their cargo flags, or the harness, its manifest and
//! its profile), `rustc -vV`, `RUSTFLAGS`, the generated doctests, the mutant catalog (so
//! the mutant configuration), and every file of the workspace that the scratch copy takes
//! (sources, manifests, `Cargo.lock`, `mutfuzz.toml`, tests, build scripts, the harness's
//! sources; not the harness's corpus). Path dependencies outside the workspace are not
//! hashed (they are not copied either). A hit still runs cargo once, with the cached
//! unviable mutants left out; if that build is not clean after all, the loop runs from
//! the start.

use std::collections::{BTreeMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result};
use mutfuzz_contract::{StreamHash, write_atomic};
use mutfuzz_mutate::Discovery;
use serde::{Deserialize, Serialize};

use crate::schema::cargo_build::{BuildFlags, BuildWhat};
use crate::schema::doctest_target::DoctestTarget;
use crate::schema::viability::Round;
use crate::workspace::Workspace;
use crate::workspace::scratch::Scratch;

/// Bump when the meaning of a cached file changes.
const FORMAT: &str = "mutfuzz viability cache 1";

/// One cached viability result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Cached {
    /// The key it was found under.
    pub key: String,
    /// Unviable mutants, with the compiler's reason.
    pub unviable: BTreeMap<u32, String>,
    /// The rounds that found them.
    pub rounds: Vec<Round>,
    /// Generated doctests dropped: (index of the doctest target, test name).
    pub dropped_doctests: Vec<(usize, String)>,
    /// The hash of the mutant catalog, by which another build kind may take the unviable
    /// mutants as a guess ([`guess`]).
    #[serde(default)]
    pub catalog: String,
}

/// The hash of `discovery`'s mutant catalog.
pub fn catalog_hash(discovery: &Discovery) -> String {
    let mut h = KeyHash::new();
    h.field(crate::catalog::list::json(discovery).as_bytes());
    h.finish()
}

/// For a harness build, the unviable mutants another build kind found for the same
/// mutant `catalog` (a `test` run's, for `amplify`'s first build of its harness), with
/// that kind's name: a guess, which one build checks. Most mutants that do not compile do
/// not compile in any build of the crate; one that does in the harness alone is left out
/// of it, while a test build, whose verdicts are the crate's score, always finds its own.
/// (`this`: the build's own cache file, beside the others.) Only a guess that leaves
/// something out: else the viability loop's first build is the same build.
pub fn guess(this: &Path, flags: &BuildFlags, catalog: &str) -> Option<(&'static str, Cached)> {
    if matches!(flags.what, BuildWhat::Tests) {
        return None;
    }
    ["tests", "harness", "harness-dev"].into_iter().find_map(|kind| {
        let other = this.with_file_name(format!("{kind}.json"));
        let cached: Cached = serde_json::from_str(&fs::read_to_string(&other).ok()?).ok()?;
        (other != this && cached.catalog == catalog && !cached.unviable.is_empty()).then_some((kind, cached))
    })
}

/// The cache file of one build kind.
pub fn path(scratch: &Scratch, flags: &BuildFlags) -> PathBuf {
    let kind = match (&flags.what, flags.dev) {
        (BuildWhat::Tests, _) => "tests",
        (BuildWhat::Harness(_), false) => "harness",
        (BuildWhat::Harness(_), true) => "harness-dev",
    };
    scratch.layout.viability().join(format!("{kind}.json"))
}

/// A 128-bit hash, as two keyed 64-bit stream hashes.
pub(crate) struct KeyHash(StreamHash, StreamHash);

impl KeyHash {
    pub(crate) fn new() -> KeyHash {
        KeyHash(StreamHash::with_key(0x7669_6162_696C_6974), StreamHash::with_key(0x7920_6361_6368_6521))
    }

    /// One field: its length first, so fields never run into each other.
    pub(crate) fn field(&mut self, bytes: &[u8]) {
        let len = (bytes.len() as u64).to_le_bytes();
        for h in [&mut self.0, &mut self.1] {
            h.write_bytes(&len);
            h.write_bytes(bytes);
        }
    }

    pub(crate) fn finish(&self) -> String {
        format!("{:016x}{:016x}", self.0.finish(), self.1.finish())
    }
}

/// The key of a schema build of the mutant catalog whose [`catalog_hash`] is `catalog`
/// from workspace `ws`, as `flags` say, with these generated doctest targets (none with
/// `--no-doctests`). `skip` are the paths of the workspace the command leaves out of the
/// scratch copy.
pub fn key(
    ws: &Workspace,
    catalog: &str,
    flags: &BuildFlags,
    doctests: &[DoctestTarget],
    skip: &[PathBuf],
) -> Result<String> {
    let mut h = KeyHash::new();
    h.field(FORMAT.as_bytes());
    h.field(env!("CARGO_PKG_VERSION").as_bytes());
    match &flags.what {
        BuildWhat::Tests => h.field(b"tests"),
        BuildWhat::Harness(manifest) => {
            // The copy of the harness manifest, as patched: the user's text and the engine.
            h.field(format!("harness {} dev={}", manifest.display(), flags.dev).as_bytes());
            h.field(&fs::read(manifest).with_context(|| format!("failed to read {}", manifest.display()))?);
        }
    }
    h.field(flags.cargo_args().join("\u{1f}").as_bytes());
    hash_toolchain(&mut h);
    h.field(catalog.as_bytes());
    for t in doctests {
        h.field(t.path.as_os_str().as_encoded_bytes());
        for e in &t.entries {
            h.field(e.test_name().as_bytes());
        }
    }
    hash_tree(&mut h, &ws.root, &ws.root, &excluded(ws, skip), &mut HashSet::new())?;
    Ok(h.finish())
}

/// The compiler and its flags: `rustc -vV`, `RUSTFLAGS`.
pub(crate) fn hash_toolchain(h: &mut KeyHash) {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    let version = Command::new(&rustc).arg("-vV").output().map(|o| o.stdout).unwrap_or_default();
    h.field(&version);
    for var in ["RUSTFLAGS", "CARGO_ENCODED_RUSTFLAGS"] {
        h.field(std::env::var_os(var).unwrap_or_default().as_encoded_bytes());
    }
}

/// The paths of the workspace no build decides on: what the scratch copy leaves out
/// (`skip`), the target dir, `.git`, the results, and the harness's corpus and build
/// output (a `test` run copies them, but they never decide what compiles). Each is
/// given as written and where it really is, so a link into the target dir is the
/// target dir.
pub(crate) fn excluded(ws: &Workspace, skip: &[PathBuf]) -> HashSet<PathBuf> {
    let mut excluded: HashSet<PathBuf> = skip.iter().cloned().collect();
    excluded.extend([
        ws.target_dir.clone(),
        ws.root.join(".git"),
        ws.root.join("mutfuzz.out"),
        ws.root.join("mutfuzz.out.old"),
    ]);
    for root in ws.packages.iter().map(|p| &p.root).chain([&ws.root]) {
        let harness = root.join(crate::workspace::layout::HARNESS_DIR);
        excluded.extend([harness.join("corpus"), harness.join("target")]);
    }
    excluded
        .iter()
        .map(|p| fs::canonicalize(p).unwrap_or_else(|_| p.clone()))
        .chain(excluded.clone())
        .collect()
}

/// Every file under `dir` (sorted, so the order is stable, and following links, since
/// the build reads through them), by relative path and content, but the `excluded`
/// paths. Each directory is read once, by where it really is (`visited`): a link to an
/// ancestor, or links that loop, end there instead of walking for ever.
pub(crate) fn hash_tree(
    h: &mut KeyHash,
    root: &Path,
    dir: &Path,
    excluded: &HashSet<PathBuf>,
    visited: &mut HashSet<PathBuf>,
) -> Result<()> {
    let real = fs::canonicalize(dir).unwrap_or_else(|_| dir.to_owned());
    if !visited.insert(real.clone()) || (dir != root && excluded.contains(&real)) {
        return Ok(());
    }
    let mut entries: Vec<fs::DirEntry> = fs::read_dir(dir)
        .with_context(|| format!("failed to read {}", dir.display()))?
        .collect::<std::io::Result<_>>()?;
    entries.sort_by_key(fs::DirEntry::file_name);
    for entry in entries {
        let path = entry.path();
        if excluded.contains(&path) {
            continue;
        }
        let Ok(meta) = fs::metadata(&path) else { continue };
        if meta.is_dir() {
            hash_tree(h, root, &path, excluded, visited)?;
        } else if meta.is_file() {
            h.field(path.strip_prefix(root).unwrap_or(&path).as_os_str().as_encoded_bytes());
            h.field(&fs::read(&path).with_context(|| format!("failed to read {}", path.display()))?);
        }
    }
    Ok(())
}

/// The cached result at `path` if it was found under `key` (an unreadable or stale file
/// is no result).
pub fn load(path: &Path, key: &str) -> Option<Cached> {
    let text = fs::read_to_string(path).ok()?;
    let cached: Cached = serde_json::from_str(&text).ok()?;
    (cached.key == key).then_some(cached)
}

/// Keep a result for later commands.
pub fn save(path: &Path, cached: &Cached) -> Result<()> {
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir).with_context(|| format!("failed to create {}", dir.display()))?;
    }
    write_atomic(path, (serde_json::to_string_pretty(cached)? + "\n").as_bytes())?;
    Ok(())
}

/// The generated doctests that are dropped, by target index and test name.
pub fn dropped_doctests(doctests: &[DoctestTarget]) -> Vec<(usize, String)> {
    let mut dropped = Vec::new();
    for (i, t) in doctests.iter().enumerate() {
        dropped.extend(t.entries.iter().filter(|e| !e.enabled).map(|e| (i, e.test_name())));
    }
    dropped
}

/// Drop the doctests a cached result dropped.
pub fn drop_doctests(doctests: &mut [DoctestTarget], dropped: &[(usize, String)]) {
    for (i, name) in dropped {
        if let Some(t) = doctests.get_mut(*i) {
            for e in t.entries.iter_mut().filter(|e| e.test_name() == *name) {
                e.enabled = false;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_hash_separates_fields() {
        let of = |fields: &[&str]| {
            let mut h = KeyHash::new();
            for f in fields {
                h.field(f.as_bytes());
            }
            h.finish()
        };
        assert_eq!(of(&["ab", "c"]), of(&["ab", "c"]));
        assert_ne!(of(&["ab", "c"]), of(&["a", "bc"]));
        assert_ne!(of(&["ab", "c"]), of(&["ab", "d"]));
    }

    #[test]
    fn the_key_follows_the_sources_and_the_flags_but_not_the_corpus_or_the_results() {
        let dir = tempfile::tempdir().unwrap();
        let put = |rel: &str, text: &str| {
            let p = dir.path().join(rel);
            fs::create_dir_all(p.parent().unwrap()).unwrap();
            fs::write(p, text).unwrap();
        };
        put("Cargo.toml", "[package]\nname = \"k\"\nversion = \"0.1.0\"\nedition = \"2021\"\n[workspace]\n");
        put("src/lib.rs", "pub fn f(a: u32) -> u32 { a + 1 }\n");
        let args = crate::workspace::PackageChoice {
            manifest_path: Some(dir.path().join("Cargo.toml")),
            packages: Vec::new(),
        };
        let ws = Workspace::open(&args).unwrap();
        let key_with = |flags: &BuildFlags| {
            let (discovery, _) = ws.discover().unwrap();
            key(&ws, &catalog_hash(&discovery), flags, &[], &[]).unwrap()
        };
        let key = || key_with(&BuildFlags::default());
        let first = key();
        assert_eq!(key(), first);
        put("mutfuzz/corpus/t/0123", "input");
        put("mutfuzz.out/outcomes.json", "{}");
        assert_eq!(key(), first, "the corpus and the results do not count");
        let featured = BuildFlags {
            features: crate::workspace::Features { features: vec!["x".into()], ..Default::default() },
            ..BuildFlags::default()
        };
        assert_ne!(key_with(&featured), first);
        put("tests/t.rs", "#[test] fn t() {}\n");
        let with_test = key();
        assert_ne!(with_test, first, "a new test file");
        put("src/lib.rs", "pub fn f(a: u32) -> u32 { a + 1 } // edited\n");
        assert_ne!(key(), with_test, "an edit that changes no mutant");
    }

    #[cfg(unix)]
    #[test]
    fn links_that_loop_or_lead_into_the_target_dir_are_walked_once_and_a_linked_file_counts() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("src")).unwrap();
        fs::create_dir_all(root.join("target/debug")).unwrap();
        fs::write(root.join("src/lib.rs"), "pub fn f() {}\n").unwrap();
        fs::write(root.join("target/debug/big"), "build output").unwrap();
        fs::write(root.join("shared.txt"), "one").unwrap();
        let link = |to: &Path, at: &str| std::os::unix::fs::symlink(to, root.join(at)).unwrap();
        link(root, "src/up"); // a loop: src/up/src/up/…
        link(&root.join("target"), "out"); // the target dir by another name
        link(&root.join("shared.txt"), "src/shared.txt");
        let excluded: HashSet<PathBuf> =
            [root.join("target"), fs::canonicalize(root.join("target")).unwrap()].into();
        let hash = || {
            let mut h = KeyHash::new();
            hash_tree(&mut h, root, root, &excluded, &mut HashSet::new()).unwrap();
            h.finish()
        };
        let first = hash();
        fs::write(root.join("target/debug/big"), "other build output").unwrap();
        assert_eq!(hash(), first, "the target dir, even through a link, does not count");
        fs::write(root.join("shared.txt"), "two").unwrap();
        assert_ne!(hash(), first, "a linked file's content counts");
    }

    #[test]
    fn a_result_is_used_only_under_its_own_key() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("viability/tests.json");
        let cached = Cached {
            key: "k1".into(),
            unviable: BTreeMap::from([(3, "mismatched types".to_owned())]),
            rounds: Vec::new(),
            dropped_doctests: vec![(0, "doctest_src_lib_rs_line_3".into())],
            catalog: "c1".into(),
        };
        assert_eq!(load(&path, "k1"), None);
        save(&path, &cached).unwrap();
        assert_eq!(load(&path, "k1").as_ref(), Some(&cached));
        assert_eq!(load(&path, "k2"), None);
        // A harness build, under another key, takes the tests' unviable mutants as a
        // guess where the catalog is the same; a test build never does.
        let harness = dir.path().join("viability/harness.json");
        let flags = BuildFlags { what: BuildWhat::Harness("h/Cargo.toml".into()), ..BuildFlags::default() };
        let (kind, guessed) = guess(&harness, &flags, "c1").unwrap();
        assert_eq!((kind, guessed.unviable), ("tests", cached.unviable.clone()));
        assert!(guess(&harness, &flags, "c2").is_none());
        assert!(guess(&path, &BuildFlags::default(), "c1").is_none());
        fs::write(&path, "not json").unwrap();
        assert_eq!(load(&path, "k1"), None);
    }
}
