//! Where the compiler's errors lie, in the terms of the schema ([`Place`]s): inside a
//! mutant's arm, inside a site's wrapper, elsewhere in a schema file (with the site
//! wrappers the error overlaps), or inside a generated doctest. An error inside a macro
//! is followed back through its expansions to the call site in a schema file.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use cargo_metadata::diagnostic::{Diagnostic, DiagnosticSpan};
use mutfuzz_mutate::{Discovery, Owner, Rendered};

use crate::schema::doctest_target::DoctestTarget;
use crate::schema::viability::{BuildError, Place};

/// The schema files of one build, as written into the scratch copy.
pub struct SchemaFiles<'a> {
    /// The copy's root: diagnostics name files relative to it.
    pub work: &'a Path,
    /// Copy path of each schema file → its index in the discovery's files.
    pub index: &'a HashMap<PathBuf, usize>,
    /// The discovery (for the sites of each file).
    pub discovery: &'a Discovery,
    /// Each file as rendered for this build.
    pub rendered: &'a [Rendered],
    /// The generated doctest targets.
    pub doctests: &'a [DoctestTarget],
}

impl SchemaFiles<'_> {
    /// Every error with the places of its primary spans.
    pub fn locate(&self, errors: &[Diagnostic]) -> Vec<BuildError> {
        errors
            .iter()
            .map(|e| BuildError {
                message: e.message.clone(),
                places: e.spans.iter().filter(|s| s.is_primary).flat_map(|s| self.places_of(s)).collect(),
            })
            .collect()
    }

    /// The places of one primary span: in a generated doctest, and in a schema file (the
    /// span itself, or the first macro call site of its expansion chain that is in one).
    fn places_of(&self, span: &DiagnosticSpan) -> Vec<Place> {
        let mut places = Vec::new();
        let path = self.work.join(&span.file_name);
        if let Some(target) =
            self.doctests.iter().position(|t| t.path == path || Path::new(&span.file_name) == t.path)
        {
            places.push(Place::Doctest { target, line: span.line_start });
        }
        let mut cur: Option<&DiagnosticSpan> = Some(span);
        while let Some(s) = cur {
            let path = self.work.join(&s.file_name);
            if let Some(&file) = self.index.get(&path).or_else(|| self.index.get(Path::new(&s.file_name))) {
                places.push(self.place_in(file, s.byte_start as usize, s.byte_end as usize));
                break;
            }
            cur = s.expansion.as_ref().map(|x| &x.span);
        }
        places
    }

    /// The place of bytes `start..end` of schema file `file`.
    fn place_in(&self, file: usize, start: usize, end: usize) -> Place {
        let rendered = &self.rendered[file];
        let sites = &self.discovery.files[file].sites;
        let ids = |s: usize| sites[s].base..sites[s].base + sites[s].count;
        match rendered.owner_of(start, end) {
            Some(Owner::Mutant(id)) => Place::Mutant(id),
            Some(Owner::Site(s)) => Place::Site(ids(s)),
            None => Place::File {
                file,
                overlapping: rendered
                    .owners
                    .iter()
                    .filter_map(|(r, o)| match o {
                        Owner::Site(s) if r.start < end && start < r.end => Some(ids(*s)),
                        _ => None,
                    })
                    .collect(),
            },
        }
    }
}
