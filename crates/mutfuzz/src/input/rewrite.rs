//! Rewrites: how a [`Source`](super::Source) replays one span of a child whose bytes a
//! structure-preserving edit replaced, so that the edited value keeps its place.
//!
//! An edit that swaps the bytes of one sub-value for others (a descendant, a span of
//! another input, a new variant) cannot know how many choices the new value will read.
//! Without help, a value that reads fewer bytes than it was given leaves the rest to
//! its next sibling, and one that reads more takes its sibling's bytes: everything
//! after the edit shifts. A rewrite tells the source where the new content ends; the
//! source drops what the value leaves unread and, when the value wants more, draws the
//! missing choices as [`Fill`] says (the simplest value, or fresh random ones) instead
//! of reading past the end. The bytes the source returns are then plain choice bytes
//! again: replaying them needs no rewrite.

/// How the choices a rewritten value reads past its new content are drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Fill {
    /// All-zero choices, and the first non-recursive variant of an enum: the simplest
    /// value (integers nearest zero, empty collections, `None`, `false`).
    #[default]
    Minimal,
    /// Fresh random choices, as a newly generated value draws them.
    Fresh,
}

/// A field value a rewritten enum span may reuse: the bytes of a sub-value of the old
/// variant, taken by the first field of the new variant with the same type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Donor {
    /// The field's type, as [`Span::type_name`](super::Span::type_name).
    pub type_name: &'static str,
    /// Its choice bytes.
    pub bytes: Vec<u8>,
}

/// Replay instructions for the one span of a child that an edit rewrote.
///
/// The child's bytes up to `start` are the parent's, so the span opens at the same
/// pre-order index `span` as in the parent; its new content is `len` bytes at `start`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rewrite {
    /// Pre-order index of the rewritten span (the same in parent and child).
    pub span: usize,
    /// Offset of its first byte.
    pub start: usize,
    /// Number of bytes of new content.
    pub len: usize,
    /// How choices past the content are drawn.
    pub fill: Fill,
    /// Field values the span's direct children may reuse, once each, when they start
    /// past the content (a variant switch's old fields).
    pub donors: Vec<Donor>,
}

/// A rewrite being replayed.
#[derive(Debug)]
pub(crate) struct Active {
    pub(crate) plan: Rewrite,
    /// Whether the rewritten span is open now.
    pub(crate) open: bool,
    /// Whether it has opened and closed already.
    pub(crate) done: bool,
    /// One past the last byte of content (grows as missing choices are filled in).
    pub(crate) limit: usize,
    /// Source depth inside the rewritten span (its children open at this depth).
    pub(crate) inner_depth: usize,
    /// Which donors a field has taken.
    pub(crate) used: Vec<bool>,
}

impl Active {
    pub(crate) fn new(plan: Rewrite) -> Active {
        let used = vec![false; plan.donors.len()];
        Active { limit: plan.start + plan.len, plan, open: false, done: false, inner_depth: 0, used }
    }
}
