//! A crate's public API, read with `syn` on a stable toolchain, and the mutfuzz harness
//! generated from it: one fuzz target per item it can drive, and a reason for each item
//! it skips.
//!
//! The pass follows the crate from `lib.rs` through `pub mod` and `pub use`, so items are
//! named by the path a user of the crate writes. A function becomes a target whose input
//! is a tuple of its parameters' generated values; a crate type is built through its
//! constructors (public functions returning `Self`, `Default`, `FromStr`, `From`,
//! `TryFrom`) chosen by a generated `Make…` enum, and its methods are applied in a
//! generated sequence (`…Call`). A function returning a builder that shows nothing of
//! itself is finished by each method taking it alone, after a generated sequence of its
//! steps (`…Step`). Generic parameters take a concrete type that meets their bounds.
//! Items that touch the file system, the network, processes, the environment or the clock
//! are skipped.
//!
//! ```
//! let dir = tempfile::tempdir().unwrap();
//! std::fs::create_dir(dir.path().join("src")).unwrap();
//! std::fs::write(
//!     dir.path().join("src/lib.rs"),
//!     "pub fn hamming(a: &str, b: &str) -> Option<usize> { None }\n\
//!      pub fn load(path: &std::path::Path) -> String { std::fs::read_to_string(path).unwrap() }\n",
//! )
//! .unwrap();
//! let api = mutfuzz_api::read(&dir.path().join("src/lib.rs"), "strings", &Default::default()).unwrap();
//! let harness = mutfuzz_api::generate(&api, "strings", &Default::default());
//! assert_eq!(harness.module.targets, ["hamming"]);
//! assert!(harness.module.text.contains("pub fn hamming((a, b): (String, String)) -> Option<usize> {"));
//! assert_eq!(harness.plan.skipped[0].reason, "touches the file system");
//! ```

mod error;
mod expand;
pub mod hand;
pub mod names;
pub mod plan;
pub mod render;
pub mod scan;
pub mod test_writer;
pub mod ty;

pub use error::Error;
pub use plan::{Exclusions, Plan, Skipped};
pub use render::Generated;
pub use scan::{Api, read};

/// A plan and the module written from it.
#[derive(Clone, Debug)]
pub struct Harness {
    pub plan: Plan,
    pub module: Generated,
}

/// Plans and renders the harness module of `api` (`package` names the crate in its
/// header), leaving out `excluded` items.
pub fn generate(api: &Api, package: &str, excluded: &Exclusions) -> Harness {
    let plan = plan::plan(api, excluded);
    let module = render::render(&plan, package);
    Harness { plan, module }
}

impl Harness {
    /// How many API items the harness drives: functions called by a target, constructors
    /// and methods (a finished builder's steps among them), each once however many types a
    /// generic one is tried at.
    pub fn driven(&self) -> usize {
        let steps = self.plan.calls.iter().flat_map(|c| &c.steps);
        let calls =
            self.plan.calls.iter().chain(steps).chain(self.plan.types.iter().flat_map(|t| &t.methods));
        let constructors =
            self.plan.types.iter().flat_map(|t| &t.constructors).filter_map(|c| match &c.kind {
                plan::CtorKind::Function { path, .. } => Some(path),
                _ => None,
            });
        let finishers = self.plan.calls.iter().filter_map(plan::Call::finisher);
        let paths: std::collections::BTreeSet<&str> = calls
            .map(|c| c.function.path.as_str())
            .chain(constructors.map(String::as_str))
            .chain(finishers)
            .collect();
        paths.len()
    }
}
