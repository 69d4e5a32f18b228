//! Span resampling (MUTAGEN's random edit): overwrite the bytes of one typed
//! sub-value with random ones, leaving every other sub-value's bytes as they were.

use super::{Edit, Parent};
use crate::input::Rng;

/// Re-draws one span of the parent, chosen uniformly among its non-empty spans.
///
/// A span's bytes replayed from other random bytes give another value of the same type
/// in the same place; bytes before and after it are untouched, so the sub-values around
/// it keep their values unless the new value reads more or fewer choices.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Resample;

impl Edit for Resample {
    fn edit(&mut self, parent: &Parent, rng: &mut Rng, out: &mut Vec<u8>) {
        out.clear();
        out.extend_from_slice(parent.input.as_bytes());
        let filled = parent.spans.iter().filter(|s| !s.is_empty() && s.end <= out.len()).count();
        if filled == 0 {
            rng.fill_bytes(out);
            return;
        }
        let pick = rng.below(filled as u64) as usize;
        let span = parent.spans.iter().filter(|s| !s.is_empty() && s.end <= out.len()).nth(pick);
        if let Some(span) = span {
            rng.fill_bytes(&mut out[span.range()]);
        }
    }

    fn needs_spans(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::CorpusEntry;
    use crate::guidance::Energy;
    use crate::input::{Input, Spans};
    use crate::{Gen, Source};

    #[derive(Debug, Gen)]
    struct Pair {
        left: u32,
        right: u32,
    }

    fn entry(input: Input) -> CorpusEntry {
        CorpusEntry {
            input,
            name: String::new(),
            sites: 0,
            favoured: false,
            energy: Energy::Zest,
            kills: 0,
            trial: 0,
        }
    }

    #[test]
    fn resampling_changes_one_field_and_keeps_the_other() {
        let mut src = Source::new(Vec::new(), Rng::new(9)).with_spans(true);
        let pair: Pair = src.draw();
        let (input, spans) = src.into_input();
        let parent = entry(input);
        let parent = Parent::new(&parent, &spans);
        let mut rng = Rng::new(4);
        let mut out = Vec::new();
        let (mut left_only, mut right_only) = (0, 0);
        for _ in 0..200 {
            Resample.edit(&parent, &mut rng, &mut out);
            assert_eq!(out.len(), parent.input.as_bytes().len());
            let child: Pair = Source::new(out.as_slice(), Rng::new(0)).draw();
            left_only += usize::from(child.left != pair.left && child.right == pair.right);
            right_only += usize::from(child.left == pair.left && child.right != pair.right);
        }
        // Spans: the pair, `left`, `right`; resampling a field leaves the other one.
        assert!(left_only > 30 && right_only > 30, "{left_only} {right_only}");
        assert!(Resample.needs_spans());
    }

    #[test]
    fn an_input_without_spans_is_redrawn_whole() {
        let (parent, spans) = (entry(Input::new(vec![7; 8])), Spans::default());
        let parent = Parent::new(&parent, &spans);
        let mut out = Vec::new();
        Resample.edit(&parent, &mut Rng::new(1), &mut out);
        assert_eq!(out.len(), 8);
        assert_ne!(out, [7; 8]);
    }
}
