//! What the schema build produced to run: libtest executables, plain programs
//! (`harness = false`, and the fuzz harness), and a package's doctests, which are no
//! executable at all but `cargo test --doc` run against the schema library.

use std::path::PathBuf;

/// One thing the tests run through.
#[derive(Clone, Debug)]
pub struct TestBinary {
    /// Package it tests.
    pub package: String,
    /// `lib`, `bin foo`, `test integration`, `doctests`, ….
    pub target: String,
    /// Directory to run it in (its package root in the copy), as `cargo test` does.
    pub cwd: PathBuf,
    /// How it runs.
    pub runner: Runner,
}

/// How a [`TestBinary`] runs.
#[derive(Clone, Debug)]
pub enum Runner {
    /// A libtest executable: tests are listed and selected by name.
    Libtest(PathBuf),
    /// A plain program (`harness = false`), run whole.
    Plain(PathBuf),
    /// The package's doctests, through `cargo test --doc` (rustdoc compiles each doctest
    /// when it runs and links it against the schema library already built).
    Doctests(Doctests),
}

/// How to run one package's doctests against the schema.
#[derive(Clone, Debug)]
pub struct Doctests {
    /// The package as `-p` names it (`name@version`).
    pub spec: String,
    /// Cargo, which runs rustdoc.
    pub cargo: PathBuf,
    /// The copy's workspace manifest.
    pub manifest: PathBuf,
    /// The schema's target dir.
    pub target_dir: PathBuf,
    /// `--features` and the like, as for the build.
    pub cargo_args: Vec<String>,
}

impl TestBinary {
    /// The executable, if it is one (doctests are not).
    pub fn executable(&self) -> Option<&PathBuf> {
        match &self.runner {
            Runner::Libtest(p) | Runner::Plain(p) => Some(p),
            Runner::Doctests(_) => None,
        }
    }

    /// What to call it in messages: the executable, or the package's doctests.
    pub fn describe(&self) -> String {
        match &self.runner {
            Runner::Libtest(p) | Runner::Plain(p) => p.display().to_string(),
            Runner::Doctests(_) => format!("the doctests of {}", self.package),
        }
    }

    /// Whether it runs whole, with no test selection.
    pub fn is_plain(&self) -> bool {
        matches!(self.runner, Runner::Plain(_))
    }

    /// Whether it is a package's doctests.
    pub fn is_doctests(&self) -> bool {
        matches!(self.runner, Runner::Doctests(_))
    }
}
