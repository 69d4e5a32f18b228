//! Viability: which mutants can stay in the schema. A schema must compile as a whole, so
//! every mutant that breaks the build is found, marked unviable with the compiler's
//! reason, and taken out, round after round, until the build is clean.
//!
//! This module is the algorithm only, over a small build interface ([`SchemaBuilder`]):
//! build with exactly these mutants enabled, get back the errors located in terms of
//! mutants and sites. Running cargo, locating its diagnostics in the schema files and
//! handling generated doctests live behind that interface (`schema_build`), so each
//! branch here is tested with a fake builder.
//!
//! Each round builds once and then, by the first rule that applies:
//! 1. `doctests`: errors inside generated doctests drop those doctests (they still run
//!    through rustdoc), blaming no mutant;
//! 2. `diagnostics`: errors inside a mutant's arm make that mutant unviable; errors
//!    inside a site's wrapper (outside any arm) make all of its enabled mutants unviable;
//! 3. with no mutant enabled, the package itself does not build: a baseline failure;
//! 4. `site`: when the errors overlap exactly one site's wrapper and the build is clean
//!    without that site, its enabled mutants are unviable;
//! 5. `bisection`: otherwise one culprit is found by bisection over the enabled mutants
//!    (those in the files the errors point into first).

use std::collections::BTreeMap;
use std::ops::Range;
use std::time::Instant;

use serde::{Deserialize, Serialize};

/// Which mutants a build includes, by id (id 0, the original, is never a mutant).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnabledSet {
    enabled: Vec<bool>,
}

impl EnabledSet {
    /// Mutants `ids`, all enabled.
    pub fn of(ids: impl IntoIterator<Item = u32>) -> EnabledSet {
        let mut set = EnabledSet { enabled: Vec::new() };
        for id in ids {
            set.set(id, true);
        }
        set
    }

    fn set(&mut self, id: u32, on: bool) {
        let i = id as usize;
        if i >= self.enabled.len() {
            if !on {
                return;
            }
            self.enabled.resize(i + 1, false);
        }
        self.enabled[i] = on && id != 0;
    }

    /// Whether mutant `id` is in the build.
    pub fn contains(&self, id: u32) -> bool {
        self.enabled.get(id as usize).copied().unwrap_or(false)
    }

    /// Take mutant `id` out.
    pub fn disable(&mut self, id: u32) {
        self.set(id, false);
    }

    /// The enabled mutants, in id order.
    pub fn ids(&self) -> impl Iterator<Item = u32> + '_ {
        self.enabled.iter().enumerate().filter(|(_, on)| **on).map(|(id, _)| id as u32)
    }

    /// How many mutants are enabled.
    pub fn len(&self) -> usize {
        self.enabled.iter().filter(|on| **on).count()
    }

    /// Whether no mutant is enabled.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// This set without the mutants `ids`.
    pub fn without(&self, ids: impl IntoIterator<Item = u32>) -> EnabledSet {
        let mut set = self.clone();
        for id in ids {
            set.disable(id);
        }
        set
    }
}

/// Where one compiler error lies, in the terms of the schema.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// Inside the replacement arm of this mutant.
    Mutant(u32),
    /// Inside a site's wrapper, outside any mutant's arm: the site's mutant ids.
    Site(Range<u32>),
    /// In schema file `file` (an index), in no site, overlapping the wrappers of these
    /// sites (given by their mutant ids; maybe none).
    File {
        /// The schema file.
        file: usize,
        /// Sites whose wrapper the error's span overlaps.
        overlapping: Vec<Range<u32>>,
    },
    /// Inside a generated doctest: generated-doctest target `target`, at this line.
    Doctest {
        /// Index of the generated doctest target.
        target: usize,
        /// Line in its file.
        line: usize,
    },
}

/// One compiler error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildError {
    /// The compiler's message.
    pub message: String,
    /// Where its primary spans lie (none: somewhere outside the schema, or no span).
    pub places: Vec<Place>,
}

impl BuildError {
    /// The message's first line: the reason recorded for an unviable mutant.
    pub fn headline(&self) -> &str {
        self.message.lines().next().unwrap_or_default()
    }
}

/// What one build gave.
#[derive(Debug)]
pub enum Build<O> {
    /// It compiled; what it produced.
    Clean(O),
    /// It did not.
    Failed {
        /// The errors, each once.
        errors: Vec<BuildError>,
        /// What to show the user if the package itself does not build (the compiler's
        /// rendered errors, or the end of cargo's output).
        report: String,
    },
}

/// Builds the schema with a given set of mutants.
pub trait SchemaBuilder {
    /// What a clean build produces (the executables).
    type Output;

    /// Build the schema with exactly the mutants in `enabled`.
    fn build(&mut self, enabled: &EnabledSet) -> anyhow::Result<Build<Self::Output>>;

    /// Leave out of later builds the generated doctests at these places; returns how many
    /// were left out.
    fn drop_doctests(&mut self, places: &[(usize, usize)]) -> usize;
}

/// A mutant the algorithm may take out: its id and the index of its schema file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// The mutant.
    pub id: u32,
    /// Its schema file.
    pub file: usize,
}

/// How a round found its unviable mutants; serialized in `outcomes.json` by these names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    /// The build was clean.
    Clean,
    /// Errors inside mutants' arms (or sites' wrappers).
    Diagnostics,
    /// An error across one site's wrapper.
    Site,
    /// An error no span locates, found by bisection.
    Bisection,
    /// Generated doctests that did not compile were dropped.
    Doctests,
}

impl Method {
    /// Its name, as in `outcomes.json`.
    pub fn name(self) -> &'static str {
        match self {
            Method::Clean => "clean",
            Method::Diagnostics => "diagnostics",
            Method::Site => "site",
            Method::Bisection => "bisection",
            Method::Doctests => "doctests",
        }
    }
}

impl std::fmt::Display for Method {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One round of the loop.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Round {
    /// Mutants in the schema for this round's first build.
    pub mutants: usize,
    /// Compiler errors seen.
    pub errors: usize,
    /// Mutants found unviable by this round.
    pub unviable: usize,
    /// How.
    pub method: Method,
    /// Builds run (one, or more for `site` and `bisection`).
    pub builds: usize,
    /// Wall time of the round, in seconds.
    pub seconds: f64,
}

/// The clean build and what it took.
#[derive(Debug)]
pub struct Viable<O> {
    /// What the clean build produced.
    pub output: O,
    /// The mutants taken out, with the compiler's reason.
    pub unviable: BTreeMap<u32, String>,
    /// The rounds.
    pub rounds: Vec<Round>,
}

/// Why no clean build was reached.
#[derive(Debug)]
pub enum BuildFailure {
    /// The package does not build even with no mutants: the user's problem to fix first.
    Baseline(String),
    /// Something else went wrong (cargo could not run, a file could not be written).
    Internal(anyhow::Error),
}

impl From<anyhow::Error> for BuildFailure {
    fn from(e: anyhow::Error) -> Self {
        BuildFailure::Internal(e)
    }
}

/// `clean (0 unviable, 1.2s)` for each round, joined.
pub fn summary(rounds: &[Round]) -> String {
    let rounds: Vec<String> =
        rounds.iter().map(|r| format!("{} ({} unviable, {:.1}s)", r.method, r.unviable, r.seconds)).collect();
    rounds.join(", ")
}

/// Build with every mutant of `mutants` enabled, taking out unviable ones until the
/// build is clean. `on_round(round, mutants)` is called as each round starts.
pub fn make_viable<B: SchemaBuilder>(
    builder: &mut B,
    mutants: &[Candidate],
    on_round: &mut dyn FnMut(usize, usize),
) -> Result<Viable<B::Output>, BuildFailure> {
    let mut counting = Counting { builder, builds: 0 };
    let mut enabled = EnabledSet::of(mutants.iter().map(|m| m.id));
    let mut unviable = BTreeMap::new();
    let mut rounds = Vec::new();
    loop {
        let start = Instant::now();
        let builds_before = counting.builds;
        let in_schema = enabled.len();
        on_round(rounds.len() + 1, in_schema);
        let (errors, report) = match counting.build(&enabled)? {
            Build::Clean(output) => {
                rounds.push(Round {
                    mutants: in_schema,
                    errors: 0,
                    unviable: 0,
                    method: Method::Clean,
                    builds: 1,
                    seconds: start.elapsed().as_secs_f64(),
                });
                return Ok(Viable { output, unviable, rounds });
            }
            Build::Failed { errors, report } => (errors, report),
        };
        let round = |method, found: usize, builds| Round {
            mutants: in_schema,
            errors: errors.len(),
            unviable: found,
            method,
            builds,
            seconds: start.elapsed().as_secs_f64(),
        };
        // Errors in generated doctests are the doctests' own.
        let doctests = doctest_places(&errors);
        if !doctests.is_empty() && counting.builder.drop_doctests(&doctests) > 0 {
            rounds.push(round(Method::Doctests, 0, 1));
            continue;
        }
        let mut found: BTreeMap<u32, String> = BTreeMap::new();
        for (place, e) in places(&errors) {
            let ids: Vec<u32> = match place {
                Place::Mutant(id) => vec![*id],
                Place::Site(ids) => ids.clone().filter(|&id| enabled.contains(id)).collect(),
                Place::File { .. } | Place::Doctest { .. } => Vec::new(),
            };
            for id in ids {
                found.entry(id).or_insert_with(|| e.headline().to_owned());
            }
        }
        let method = if !found.is_empty() {
            Method::Diagnostics
        } else if enabled.is_empty() {
            return Err(BuildFailure::Baseline(report));
        } else if let Some((ids, message)) = wrapper_culprit(&mut counting, &enabled, &errors)? {
            for id in ids {
                found.insert(id, message.clone());
            }
            Method::Site
        } else {
            let (culprit, message) = bisect(&mut counting, &enabled, mutants, &errors)?;
            found.insert(culprit, message);
            Method::Bisection
        };
        for &id in found.keys() {
            enabled.disable(id);
        }
        rounds.push(round(method, found.len(), counting.builds - builds_before));
        unviable.extend(found);
    }
}

/// The builder, counting its builds.
struct Counting<'a, B> {
    builder: &'a mut B,
    builds: usize,
}

impl<B: SchemaBuilder> SchemaBuilder for Counting<'_, B> {
    type Output = B::Output;

    fn build(&mut self, enabled: &EnabledSet) -> anyhow::Result<Build<B::Output>> {
        self.builds += 1;
        self.builder.build(enabled)
    }

    fn drop_doctests(&mut self, places: &[(usize, usize)]) -> usize {
        self.builder.drop_doctests(places)
    }
}

/// A build after which generated doctests that fail are dropped and it builds again.
/// (They compile only once the library does, so the first build that gets past the
/// library's errors may be a bisection's, or a build from the viability cache.)
pub fn build_past_doctests<B: SchemaBuilder>(
    b: &mut B,
    enabled: &EnabledSet,
) -> anyhow::Result<Build<B::Output>> {
    loop {
        let build = b.build(enabled)?;
        if let Build::Failed { errors, .. } = &build {
            let doctests = doctest_places(errors);
            if !doctests.is_empty() && b.drop_doctests(&doctests) > 0 {
                continue;
            }
        }
        return Ok(build);
    }
}

/// The places in generated doctests of `errors`: (doctest target, line).
fn doctest_places(errors: &[BuildError]) -> Vec<(usize, usize)> {
    places(errors)
        .filter_map(|(p, _)| match p {
            Place::Doctest { target, line } => Some((*target, *line)),
            _ => None,
        })
        .collect()
}

/// Every place of every error, with its error.
fn places(errors: &[BuildError]) -> impl Iterator<Item = (&Place, &BuildError)> {
    errors.iter().flat_map(|e| e.places.iter().map(move |p| (p, e)))
}

/// Places in schema files (not doctests).
fn in_schema(place: &Place) -> bool {
    !matches!(place, Place::Doctest { .. })
}

/// The sites whose wrappers the errors overlap, each once.
fn overlapped_sites(errors: &[BuildError]) -> Vec<Range<u32>> {
    let mut sites: Vec<Range<u32>> = places(errors)
        .flat_map(|(p, _)| match p {
            Place::File { overlapping, .. } => overlapping.clone(),
            _ => Vec::new(),
        })
        .collect();
    sites.sort_unstable_by_key(|r| (r.start, r.end));
    sites.dedup();
    sites
}

/// If the errors overlap exactly one site's wrapper and the schema builds without that
/// site, the site's enabled mutants, with the first located error's message: the
/// wrapper itself does not fit there, whichever of its mutants is enabled.
fn wrapper_culprit<B: SchemaBuilder>(
    b: &mut Counting<'_, B>,
    enabled: &EnabledSet,
    errors: &[BuildError],
) -> anyhow::Result<Option<(Vec<u32>, String)>> {
    let sites = overlapped_sites(errors);
    let [site] = &sites[..] else { return Ok(None) };
    let ids: Vec<u32> = site.clone().filter(|&id| enabled.contains(id)).collect();
    if !matches!(build_past_doctests(b, &enabled.without(ids.iter().copied()))?, Build::Clean(_)) {
        return Ok(None);
    }
    let message = places(errors).find(|(p, _)| in_schema(p)).map(|(_, e)| e.headline().to_owned());
    Ok(Some((ids, message.unwrap_or_default())))
}

/// Find one mutant whose presence breaks the build: the shortest prefix of the candidates
/// that fails to build ends with it. The candidates are the narrowest of these that builds
/// without them: the enabled mutants of the sites the errors overlap, then those in the
/// files the errors point into, then every enabled mutant; each wider set costs one more
/// build, and a narrow one saves the bisection most of its builds.
fn bisect<B: SchemaBuilder>(
    b: &mut Counting<'_, B>,
    enabled: &EnabledSet,
    mutants: &[Candidate],
    errors: &[BuildError],
) -> Result<(u32, String), BuildFailure> {
    let all: Vec<u32> = enabled.ids().collect();
    let sites = overlapped_sites(errors);
    // One site was tried already, by `wrapper_culprit`.
    let in_sites: Vec<u32> = if sites.len() > 1 {
        sites.into_iter().flatten().filter(|&id| enabled.contains(id)).collect()
    } else {
        Vec::new()
    };
    let files: Vec<usize> = places(errors)
        .filter_map(|(p, _)| match p {
            Place::File { file, .. } => Some(*file),
            _ => None,
        })
        .collect();
    let in_files: Vec<u32> =
        mutants.iter().filter(|m| enabled.contains(m.id) && files.contains(&m.file)).map(|m| m.id).collect();
    let total = all.len();
    let mut widest = 0;
    let candidates = 'found: {
        for tier in [in_sites, in_files, all] {
            // No wider than the set tried before: its build would tell nothing new.
            if tier.len() <= widest {
                continue;
            }
            widest = tier.len();
            match build_past_doctests(b, &enabled.without(tier.iter().copied()))? {
                Build::Clean(_) => break 'found tier,
                // It fails with no mutant at all: the package itself does not build.
                Build::Failed { report, .. } if tier.len() == total => {
                    return Err(BuildFailure::Baseline(report));
                }
                Build::Failed { .. } => {}
            }
        }
        unreachable!(
            "the last set holds every enabled mutant (make_viable has some): it builds, or that returned"
        )
    };
    // Invariant: without candidates[lo..] it builds; without candidates[hi..] it fails.
    let (mut lo, mut hi) = (0, candidates.len());
    let mut message = first_message(errors);
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        match build_past_doctests(b, &enabled.without(candidates[mid..].iter().copied()))? {
            Build::Clean(_) => lo = mid,
            Build::Failed { errors, .. } => {
                message = first_message(&errors);
                hi = mid;
            }
        }
    }
    Ok((candidates[hi - 1], message))
}

fn first_message(errors: &[BuildError]) -> String {
    errors.first().map(|e| e.message.clone()).unwrap_or_else(|| "the schema did not build".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A builder that fails while any of its rules' mutants is enabled, with that rule's
    /// error; and, while `doctest_broken`, with an error in a generated doctest.
    #[derive(Default)]
    struct Fake {
        rules: Vec<(Vec<u32>, BuildError)>,
        doctest_broken: bool,
        /// The broken doctest fails only in a build without other errors (a doctest
        /// compiles once the library does).
        doctest_after_library: bool,
        /// Fails whatever is enabled: the package itself is broken.
        broken: bool,
        builds: Vec<Vec<u32>>,
    }

    fn error(message: &str, places: Vec<Place>) -> BuildError {
        BuildError { message: message.to_owned(), places }
    }

    impl SchemaBuilder for Fake {
        type Output = &'static str;

        fn build(&mut self, enabled: &EnabledSet) -> anyhow::Result<Build<&'static str>> {
            self.builds.push(enabled.ids().collect());
            let mut errors: Vec<BuildError> = self
                .rules
                .iter()
                .filter(|(ids, _)| ids.iter().any(|&id| enabled.contains(id)))
                .map(|(_, e)| e.clone())
                .collect();
            if self.doctest_broken && (errors.is_empty() || !self.doctest_after_library) {
                errors.push(error("cannot find macro", vec![Place::Doctest { target: 0, line: 12 }]));
            }
            if self.broken {
                errors.push(error("no method named `nope`", vec![]));
            }
            Ok(if errors.is_empty() {
                Build::Clean("binaries")
            } else {
                Build::Failed { errors, report: "the report".to_owned() }
            })
        }

        fn drop_doctests(&mut self, places: &[(usize, usize)]) -> usize {
            assert_eq!(places, [(0, 12)]);
            std::mem::take(&mut self.doctest_broken) as usize
        }
    }

    /// Mutants 1..=n, mutant i in file (i - 1) / 4.
    fn mutants(n: u32) -> Vec<Candidate> {
        (1..=n).map(|id| Candidate { id, file: (id as usize - 1) / 4 }).collect()
    }

    fn run(fake: &mut Fake, n: u32) -> Result<Viable<&'static str>, BuildFailure> {
        let mut started = Vec::new();
        let result = make_viable(fake, &mutants(n), &mut |round, count| started.push((round, count)));
        if let Ok(v) = &result {
            assert_eq!(started.len(), v.rounds.len());
            assert_eq!(
                started.iter().map(|s| s.1).collect::<Vec<_>>(),
                v.rounds.iter().map(|r| r.mutants).collect::<Vec<_>>()
            );
        }
        result
    }

    fn methods(v: &Viable<&str>) -> Vec<Method> {
        v.rounds.iter().map(|r| r.method).collect()
    }

    #[test]
    fn a_clean_build_is_one_round() {
        let v = run(&mut Fake::default(), 8).unwrap();
        assert_eq!((v.output, methods(&v), v.unviable.len()), ("binaries", vec![Method::Clean], 0));
        assert_eq!(v.rounds[0].mutants, 8);
    }

    #[test]
    fn an_error_inside_a_mutants_arm_makes_that_mutant_unviable() {
        let mut fake = Fake {
            rules: vec![
                (vec![3], error("cannot subtract `&str` from `String`\nmore", vec![Place::Mutant(3)])),
                (vec![6], error("mismatched types", vec![Place::Mutant(6), Place::Mutant(6)])),
            ],
            ..Fake::default()
        };
        let v = run(&mut fake, 8).unwrap();
        assert_eq!(methods(&v), [Method::Diagnostics, Method::Clean]);
        assert_eq!(
            v.unviable,
            BTreeMap::from([
                (3, "cannot subtract `&str` from `String`".to_owned()),
                (6, "mismatched types".to_owned())
            ])
        );
        assert_eq!((v.rounds[0].errors, v.rounds[0].unviable, v.rounds[0].builds), (2, 2, 1));
        assert_eq!(v.rounds[1].mutants, 6);
    }

    #[test]
    fn an_error_inside_a_sites_wrapper_takes_the_sites_enabled_mutants() {
        let mut fake = Fake {
            rules: vec![
                (vec![2], error("bad arm", vec![Place::Mutant(2)])),
                (vec![1, 3], error("type annotations needed", vec![Place::Site(1..4)])),
            ],
            ..Fake::default()
        };
        let v = run(&mut fake, 8).unwrap();
        assert_eq!(methods(&v), [Method::Diagnostics, Method::Clean]);
        assert_eq!(v.unviable.keys().copied().collect::<Vec<_>>(), [1, 2, 3]);
        assert_eq!(v.unviable[&1], "type annotations needed");
        assert_eq!(v.unviable[&2], "bad arm");
    }

    #[test]
    fn an_error_across_one_sites_wrapper_takes_that_site_when_it_builds_without() {
        let overlapping = Place::File { file: 1, overlapping: vec![Range { start: 5, end: 7 }] };
        let mut fake = Fake {
            rules: vec![(vec![5, 6], error("borrow of moved value", vec![overlapping.clone(), overlapping]))],
            ..Fake::default()
        };
        let v = run(&mut fake, 8).unwrap();
        assert_eq!(methods(&v), [Method::Site, Method::Clean]);
        assert_eq!(
            v.unviable,
            BTreeMap::from([(5, "borrow of moved value".into()), (6, "borrow of moved value".into())])
        );
        // The failing build and the check without the site.
        assert_eq!(v.rounds[0].builds, 2);
        assert_eq!(fake.builds[1], [1, 2, 3, 4, 7, 8]);
    }

    #[test]
    fn an_unlocatable_error_is_found_by_bisection_in_the_erroring_file_first() {
        let mut fake = Fake {
            rules: vec![(
                vec![7],
                error("trait bound not satisfied", vec![Place::File { file: 1, overlapping: vec![] }]),
            )],
            ..Fake::default()
        };
        let v = run(&mut fake, 12).unwrap();
        assert_eq!(methods(&v), [Method::Bisection, Method::Clean]);
        assert_eq!(v.unviable, BTreeMap::from([(7, "trait bound not satisfied".into())]));
        // The first check left out only file 1's mutants (5..=8).
        assert_eq!(fake.builds[1], [1, 2, 3, 4, 9, 10, 11, 12]);
        assert_eq!(v.rounds[0].builds, fake.builds.len() - 1);
    }

    #[test]
    fn an_error_with_no_place_at_all_is_found_by_bisection_over_every_mutant() {
        let mut fake = Fake { rules: vec![(vec![11], error("linking failed", vec![]))], ..Fake::default() };
        let v = run(&mut fake, 12).unwrap();
        assert_eq!(methods(&v), [Method::Bisection, Method::Clean]);
        assert_eq!(v.unviable.keys().copied().collect::<Vec<_>>(), [11]);
    }

    #[test]
    fn an_error_overlapping_two_sites_is_bisected_among_their_mutants_first() {
        let two = Place::File { file: 0, overlapping: vec![1..3, 3..4] };
        let mut fake = Fake { rules: vec![(vec![3], error("e", vec![two]))], ..Fake::default() };
        let v = run(&mut fake, 8).unwrap();
        assert_eq!(methods(&v), [Method::Bisection, Method::Clean]);
        assert_eq!(v.unviable.keys().copied().collect::<Vec<_>>(), [3]);
        // The check left out only the two sites' mutants; then two halvings.
        assert_eq!(fake.builds[1], [4, 5, 6, 7, 8]);
        assert_eq!(v.rounds[0].builds, 4);
    }

    #[test]
    fn a_culprit_outside_the_overlapped_sites_is_found_in_the_erroring_file() {
        let one = Place::File { file: 0, overlapping: vec![Range { start: 1, end: 3 }] };
        let mut fake = Fake { rules: vec![(vec![4], error("e", vec![one]))], ..Fake::default() };
        let v = run(&mut fake, 8).unwrap();
        assert_eq!(v.unviable.keys().copied().collect::<Vec<_>>(), [4]);
        // Without the site's mutants it still fails (`wrapper_culprit`'s check, not built
        // again); without file 0's it builds.
        assert_eq!(fake.builds[1..3], [vec![3, 4, 5, 6, 7, 8], vec![5, 6, 7, 8]]);
    }

    #[test]
    fn a_broken_generated_doctest_is_dropped_blaming_no_mutant() {
        let mut fake = Fake { doctest_broken: true, ..Fake::default() };
        let v = run(&mut fake, 4).unwrap();
        assert_eq!(methods(&v), [Method::Doctests, Method::Clean]);
        assert!(v.unviable.is_empty());
        assert_eq!(v.rounds[0].mutants, 4);
    }

    #[test]
    fn a_broken_doctest_that_first_shows_in_a_bisection_build_is_dropped_there() {
        // Mutant 3 breaks the library where no mutant's arm is; the doctest compiles (and
        // fails) only in the bisection's builds without it.
        let mut fake = Fake {
            rules: vec![(vec![3], error("type annotations needed", vec![]))],
            doctest_broken: true,
            doctest_after_library: true,
            ..Fake::default()
        };
        let v = run(&mut fake, 8).unwrap();
        assert_eq!(methods(&v), [Method::Bisection, Method::Clean]);
        assert_eq!(v.unviable.keys().copied().collect::<Vec<_>>(), [3]);
        assert!(!fake.doctest_broken, "dropped");
    }

    #[test]
    fn a_package_that_does_not_build_is_a_baseline_failure() {
        // With no mutants at all.
        let err = run(&mut Fake { broken: true, ..Fake::default() }, 0).unwrap_err();
        assert!(matches!(&err, BuildFailure::Baseline(r) if r == "the report"), "{err:?}");
        // With mutants: bisection finds that it fails without any of them.
        let mut fake = Fake { broken: true, ..Fake::default() };
        let err = run(&mut fake, 8).unwrap_err();
        assert!(matches!(err, BuildFailure::Baseline(_)));
        assert_eq!(fake.builds.last().unwrap(), &Vec::<u32>::new());
    }

    #[test]
    fn rounds_serialize_with_their_method_names() {
        let r =
            Round { mutants: 3, errors: 1, unviable: 1, method: Method::Bisection, builds: 4, seconds: 0.5 };
        assert_eq!(
            serde_json::to_string(&r).unwrap(),
            r#"{"mutants":3,"errors":1,"unviable":1,"method":"bisection","builds":4,"seconds":0.5}"#
        );
        assert_eq!(summary(&[r]), "bisection (1 unviable, 0.5s)");
    }

    #[test]
    fn the_enabled_set_never_holds_the_original() {
        let s = EnabledSet::of([0, 2, 5]);
        assert_eq!(s.ids().collect::<Vec<_>>(), [2, 5]);
        assert_eq!(s.without([5, 9]).ids().collect::<Vec<_>>(), [2]);
        assert!(!s.contains(0) && !s.contains(100) && s.contains(5));
    }
}
