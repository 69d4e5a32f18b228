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
    /// Every error with the places of its primary spans. When none of them lies in a
    /// mutant's arm or a site's wrapper, the mutants' arms its other spans point into are
    /// added: a `break` mutant's arm labelled "expected because of this `break`" for a
    /// primary span on the loop's other `break value`, which no site contains.
    pub fn locate(&self, errors: &[Diagnostic]) -> Vec<BuildError> {
        errors
            .iter()
            .map(|e| {
                let mut places: Vec<Place> =
                    e.spans.iter().filter(|s| s.is_primary).flat_map(|s| self.places_of(s)).collect();
                if !places.iter().any(|p| matches!(p, Place::Mutant(_) | Place::Site(_))) {
                    let labelled = e.spans.iter().filter(|s| !s.is_primary).flat_map(|s| self.places_of(s));
                    places.extend(labelled.filter(|p| matches!(p, Place::Mutant(_))));
                }
                BuildError { message: e.message.clone(), places }
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

#[cfg(test)]
mod tests {
    use super::*;

    const LIB: &str = "pub fn first_even(v: &[u32]) -> u32 {
    let mut i = 0;
    loop {
        if v[i] % 2 == 1 {
            i += 1;
            continue;
        }
        break v[i];
    }
}
";

    fn span(text: &str, range: std::ops::Range<usize>, primary: bool) -> serde_json::Value {
        let line = text[..range.start].lines().count();
        serde_json::json!({
            "file_name": "src/lib.rs", "byte_start": range.start, "byte_end": range.end,
            "line_start": line, "line_end": line, "column_start": 1, "column_end": 1,
            "is_primary": primary, "text": [], "label": null, "suggested_replacement": null,
            "suggestion_applicability": null, "expansion": null
        })
    }

    #[test]
    fn an_error_labelled_in_a_mutants_arm_is_that_mutants() {
        let discovery = Discovery::from_source("src/lib.rs", LIB, &Default::default()).unwrap();
        let mutant = discovery.mutants.iter().find(|m| m.original == "continue" && m.replacement == "break");
        let mutant = mutant.expect("a `continue` → `break` mutant");
        let rendered = discovery.render(0, &|_| true);
        let text = &rendered.text;
        // rustc's E0308 here: the primary span on `break v[i]`, which no site holds; a
        // label on the arm's `break`, "expected because of this `break`".
        let value = text.find("break v[i]").unwrap();
        let arm = (0..text.len())
            .filter(|&i| text[i..].starts_with("break"))
            .find(|&i| matches!(rendered.owner_of(i, i + 5), Some(Owner::Mutant(id)) if id == mutant.id))
            .expect("the mutant's `break` in its arm");
        let diagnostic = |spans: Vec<serde_json::Value>| -> Diagnostic {
            serde_json::from_value(serde_json::json!({
                "message": "mismatched types", "code": null, "level": "error",
                "spans": spans, "children": [], "rendered": null
            }))
            .unwrap()
        };
        let work = Path::new("/work");
        let index = HashMap::from([(work.join("src/lib.rs"), 0)]);
        let files = SchemaFiles {
            work,
            index: &index,
            discovery: &discovery,
            rendered: std::slice::from_ref(&rendered),
            doctests: &[],
        };
        let located = files.locate(&[diagnostic(vec![
            span(text, value..value + 10, true),
            span(text, arm..arm + 5, false),
        ])]);
        assert!(located[0].places.contains(&Place::Mutant(mutant.id)), "{located:?}");
        // Without the label, it is only an error in the file.
        let located = files.locate(&[diagnostic(vec![span(text, value..value + 10, true)])]);
        assert!(matches!(located[0].places[..], [Place::File { file: 0, .. }]), "{located:?}");
    }
}
