//! Informed edits: Zest's havoc, composed with what the code under test tells about its
//! inputs — SpotOn's type targeting (where to edit), the literal dictionary and the
//! comparison operands (what to write). Each part is optional; with none it is havoc.

use super::compare::CompareEdit;
use super::dictionary::DictionaryEdit;
use super::targeted::{TypeTargets, havoc_in};
use super::{Edit, Havoc};
use crate::corpus::Entry;
use crate::input::Rng;
use crate::mutants::MutantTable;
use mutfuzz_contract::Stats;

/// SpotOn's probability that an edit is type-targeted.
pub const TARGET_CHANCE: f64 = 0.5;

/// Havoc plus type targeting, dictionary and comparison edits.
#[derive(Debug, Default)]
pub struct Informed {
    havoc: Havoc,
    targets: Option<TypeTargets>,
    dictionary: Option<(DictionaryEdit, f64)>,
    compare: Option<(CompareEdit, f64)>,
    dictionary_edits: u64,
    compare_edits: u64,
}

impl Informed {
    /// Plain havoc until parts are added.
    pub fn new() -> Informed {
        Informed::default()
    }

    /// Targets the influencing types of uncovered branches (SpotOn).
    pub fn with_targets(mut self, targets: TypeTargets) -> Self {
        self.targets = Some(targets).filter(|t| !t.is_empty());
        self
    }

    /// Writes dictionary literals into primitive spans in a fraction `chance` of children.
    pub fn with_dictionary(mut self, edit: DictionaryEdit, chance: f64) -> Self {
        self.dictionary = Some((edit, chance)).filter(|&(_, c)| c > 0.0);
        self
    }

    /// Writes comparison operands into matching spans in a fraction `chance` of children
    /// whose parent has recorded operands. Turns the run-time's recording on.
    pub fn with_compare(mut self, chance: f64) -> Self {
        if chance > 0.0 {
            mutfuzz_rt::record_comparisons(true);
            self.compare = Some((CompareEdit::new(), chance));
        }
        self
    }

    /// Whether any part beyond havoc is on.
    pub fn is_plain(&self) -> bool {
        self.targets.is_none() && self.dictionary.is_none() && self.compare.is_none()
    }
}

impl Edit for Informed {
    fn edit(&mut self, parent: &Entry, rng: &mut Rng, out: &mut Vec<u8>) {
        let scope = match &mut self.targets {
            Some(t) if rng.chance(TARGET_CHANCE) => t.pick_span(parent, rng),
            _ => None,
        };
        if let Some((edit, chance)) = &self.compare
            && edit.has_operands(parent)
            && rng.chance(*chance)
            && edit.edit_within(parent, scope, rng, out)
        {
            self.compare_edits += 1;
            return;
        }
        if let Some((edit, chance)) = &self.dictionary
            && rng.chance(*chance)
            && edit.edit_within(parent, scope, rng, out)
        {
            self.dictionary_edits += 1;
            return;
        }
        match scope {
            Some(i) => {
                out.clear();
                out.extend_from_slice(parent.input.as_bytes());
                let span = parent.spans[i];
                havoc_in(out, span.start, span.end, rng);
            }
            None => self.havoc.edit(parent, rng, out),
        }
    }

    fn needs_spans(&self) -> bool {
        !self.is_plain()
    }

    fn saved(&mut self, entry: &Entry, table: &MutantTable) {
        if let Some((edit, _)) = &mut self.compare {
            edit.saved(entry);
        }
        if let Some(t) = &mut self.targets {
            t.update_coverage(table);
        }
    }

    fn report(&self, stats: &mut Stats) {
        stats.dictionary_edits = self.dictionary_edits;
        stats.compare_edits = self.compare_edits;
        if let Some(t) = &self.targets {
            stats.targeted_edits = t.matched;
            stats.target_misses = t.missed;
        }
    }
}
