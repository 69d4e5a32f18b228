//! Informed edits: Zest's havoc (or the structure edits), composed with what the code
//! under test tells about its inputs — SpotOn's type targeting (where to edit), the
//! literal dictionary and the comparison operands (what to write). Each part is
//! optional; with none it is the base edit alone.

use super::compare::CompareEdit;
use super::dictionary::DictionaryEdit;
use super::targeted::{TypeTargets, havoc_in};
use super::{Edit, Havoc, Parent, Structure};
use crate::corpus::{Corpus, CorpusEntry};
use crate::input::{Rewrite, Rng};
use crate::mutants::MutantTable;
use mutfuzz_contract::Stats;
#[cfg(test)]
use mutfuzz_rt::Operand;

/// SpotOn's probability that an edit is type-targeted.
pub const TARGET_CHANCE: f64 = 0.5;

/// Havoc (or the structure edits) plus type targeting, dictionary and comparison edits.
#[derive(Debug, Default)]
pub struct Informed {
    havoc: Havoc,
    /// The structure edits, instead of havoc where no informed part makes the child.
    structure: Option<Structure>,
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

    /// Makes the children no informed part makes with the structure edits
    /// (`--edit structure`), not with havoc.
    pub fn with_structure(mut self) -> Self {
        self.structure = Some(Structure::default());
        self
    }

    /// Whether any part beyond havoc is on.
    pub fn is_plain(&self) -> bool {
        self.targets.is_none() && self.dictionary.is_none() && self.compare.is_none()
    }

    /// Makes the child with the comparison or dictionary edit when one is drawn and fits;
    /// otherwise returns the span type targeting picked to confine the base edit to.
    fn informed(&mut self, parent: &Parent, rng: &mut Rng, out: &mut Vec<u8>) -> Result<(), Option<usize>> {
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
            return Ok(());
        }
        if let Some((edit, chance)) = &self.dictionary
            && rng.chance(*chance)
            && edit.edit_within(parent, scope, rng, out)
        {
            self.dictionary_edits += 1;
            return Ok(());
        }
        Err(scope)
    }

    /// Havoc, within span `scope` if given.
    fn havoc_within(&mut self, parent: &Parent, scope: Option<usize>, rng: &mut Rng, out: &mut Vec<u8>) {
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
}

impl Edit for Informed {
    fn edit(&mut self, parent: &Parent, rng: &mut Rng, out: &mut Vec<u8>) {
        if let Err(scope) = self.informed(parent, rng, out) {
            self.havoc_within(parent, scope, rng, out);
        }
    }

    fn edit_structured(
        &mut self,
        parent: &Parent,
        corpus: &Corpus,
        rng: &mut Rng,
        out: &mut Vec<u8>,
    ) -> Option<Rewrite> {
        match self.informed(parent, rng, out) {
            Ok(()) => None,
            // A type-targeted span confines havoc; the structure edits pick their own.
            Err(None) if let Some(structure) = &mut self.structure => {
                structure.edit_structured(parent, corpus, rng, out)
            }
            Err(scope) => {
                self.havoc_within(parent, scope, rng, out);
                None
            }
        }
    }

    fn needs_spans(&self) -> bool {
        !self.is_plain() || self.structure.is_some()
    }

    fn saved(&mut self, entry: &CorpusEntry, table: &MutantTable) {
        if let Some((edit, _)) = &mut self.compare {
            edit.saved(entry);
        }
        if let Some(t) = &mut self.targets {
            t.update_coverage(table);
        }
    }

    fn needs_record(&self, entry: &CorpusEntry) -> bool {
        self.compare.as_ref().is_some_and(|(edit, _)| edit.needs_record(entry))
    }

    fn recorded(&mut self, entry: &CorpusEntry) {
        if let Some((edit, _)) = &mut self.compare {
            edit.saved(entry);
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

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::edit::dictionary::tests::entry_of;
    use crate::input::Dictionary;
    use crate::{Gen, Source};
    use mutfuzz_contract::{Branch, Hints, TypeDistance};

    #[derive(Clone, Debug, Gen, PartialEq)]
    enum Item {
        Note(String),
        Cmd { name: String, code: u16, arg: i32 },
        Mark(char),
        Nested(Vec<Item>),
    }

    #[derive(Clone, Debug, Gen, PartialEq)]
    struct Doc {
        version: u8,
        #[mutfuzz(len = 1..=4)]
        items: Vec<Item>,
    }

    #[test]
    fn every_informed_edit_gives_a_child_that_replays_to_a_value_of_the_type() {
        let d = Arc::new(Dictionary::new(
            vec!["magic-keyword".into(), "".into()],
            vec!['.'],
            vec![0x5eed, -3],
            1.0,
        ));
        let hints = Hints {
            branches: vec![Branch {
                file: "lib.rs".into(),
                line: 1,
                sites: vec![],
                types: vec![TypeDistance { name: "Item".into(), distance: 1 }],
            }],
            ..Hints::default()
        };
        let mut edit = Informed::new()
            .with_targets(TypeTargets::new(&hints))
            .with_dictionary(DictionaryEdit::new(d), 0.5)
            .with_compare(0.5);
        let mut rng = Rng::new(5);
        let mut out = Vec::new();
        for seed in 0..300 {
            let (doc, parent, spans) = entry_of::<Doc>(seed);
            let parent = Parent::new(&parent, &spans);
            // Operands as the original would have seen them for this input.
            if let Some((compare, _)) = &mut edit.compare
                && let Item::Cmd { code, .. } = &doc.items[0]
            {
                compare.set_operands(&parent, vec![(Operand::Int(i128::from(*code)), Operand::Int(7))]);
            }
            edit.edit(&parent, &mut rng, &mut out);
            let mut src = Source::new(out.clone(), Rng::new(seed));
            let child: Doc = src.draw();
            let (input, _) = src.into_input();
            // The stored child replays to the same value, without fresh choices.
            let mut again = Source::new(input.into_bytes(), Rng::new(99));
            assert_eq!(again.draw::<Doc>(), child);
            assert_eq!(again.fresh_len(), 0);
        }
        let mut stats = Stats::default();
        edit.report(&mut stats);
        assert!(
            stats.dictionary_edits > 20 && stats.compare_edits > 5 && stats.targeted_edits > 20,
            "{stats:?}"
        );
    }
}
