//! Schema shapes: the code each kind of site puts around the user's code, one function
//! per shape (DESIGN, "Schema shapes that compile").
//!
//! A [`Shape`] is text with *holes*. A hole is one operand as the user wrote it, with its
//! own nested sites spliced in; the text between holes replaces the source between the
//! operands (an operator token, or nothing). Every shape is composed from the same three
//! pieces, kept apart so that a per-site hook is one more piece, not a new format:
//!
//! - the **binding** evaluates each operand exactly once ([`Shape::bind_pair`],
//!   [`Shape::bind`]): nested sites must not be copied into several arms;
//! - the **dispatch** asks the run-time which mutant of the site is active
//!   ([`Part::At`], or [`Shape::dispatch`]'s `match`);
//! - the **arms** are the code of each mutant (the `*_arms` functions), and the original
//!   code is the dispatch's fallback.
//!
//! An infection probe goes between the binding and the dispatch (the bound operands are
//! in scope there). A function body is compiled twice ([`twice_frame`]): the schema,
//! and a pristine copy in which every dispatch is the constant 0.

/// One part of a piece of schema text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Part {
    /// Fixed text.
    Text(String),
    /// `::mutfuzz_rt::at(__m, BASE, N)`: which of the site's mutants is active (0 = none).
    At,
    /// `match ::mutfuzz_rt::at(__m, BASE, N) { 1 => ARM_1, …, _ => `, with an arm for each
    /// enabled mutant only; the original code follows. With a probe, the dispatch is
    /// `at_probe` and a `::mutfuzz_rt::PROBE => { … }` arm runs the probe while recording.
    Arms(Vec<String>, Option<Probe>),
    /// After a [`Probe::Forced`] dispatch's hole: `; if __k == ::mutfuzz_rt::PROBE {
    /// ::mutfuzz_rt::infect_bool(ID, (ARM), __o); … } __o }`, for each enabled mutant.
    ForcedTail(Vec<String>),
    /// `LO, N`: the ids `LO .. LO + N` of the sites with these indices in the file (the
    /// sites of one function body, numbered after its frame was placed).
    Within(std::ops::Range<usize>),
}

/// An infection probe: the arm a recording run takes at a site, which notes the mutants
/// whose alternative differs from the original here and then computes the original.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Probe {
    /// Each arm is a comparison of the bound references, evaluated and compared with the
    /// original: `let __o = ORIGINAL; ::mutfuzz_rt::infect_bool(ID, (ARM), __o); … __o`.
    Compare {
        /// The original expression over the bound operands.
        original: String,
    },
    /// Primitive arithmetic through the run-time, which evaluates each replacement
    /// operator with checked operations:
    /// `::mutfuzz_rt::arith(&__l, &__r, "OP", &[(ID, "REP"), …]); ORIGINAL`.
    Arith {
        /// The original operator.
        op: String,
        /// Each arm's replacement operator, in arm order.
        replacements: Vec<String>,
        /// The original expression over the bound operands.
        original: String,
    },
    /// A forced condition: the user's condition is the fallback arm's code and must be
    /// evaluated there only (a mutant arm must not run it), so the fallback binds the
    /// dispatch's value, `__k => { let __o: bool = COND`, and [`Part::ForcedTail`], after
    /// the hole, notes the arms that differ from `__o` when `__k` is `PROBE`.
    Forced,
}

/// The text that one splice writes: parts, numbered with the site's ids when rendered.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Piece(pub Vec<Part>);

impl Piece {
    /// A piece of fixed text.
    pub fn text(t: &str) -> Piece {
        Piece(vec![Part::Text(t.to_owned())])
    }

    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|p| matches!(p, Part::Text(t) if t.is_empty()))
    }
}

/// Schema text with holes: `pieces[0] HOLE pieces[1] HOLE … pieces[n]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Shape {
    pieces: Vec<Piece>,
}

impl Shape {
    fn new() -> Shape {
        Shape { pieces: vec![Piece::default()] }
    }

    fn part(mut self, part: Part) -> Shape {
        let piece = &mut self.pieces.last_mut().expect("a shape has a piece").0;
        match (piece.last_mut(), part) {
            (Some(Part::Text(t)), Part::Text(more)) => t.push_str(&more),
            (_, part) => piece.push(part),
        }
        self
    }

    fn text(self, t: &str) -> Shape {
        self.part(Part::Text(t.to_owned()))
    }

    fn at(self) -> Shape {
        self.part(Part::At)
    }

    fn hole(mut self) -> Shape {
        self.pieces.push(Piece::default());
        self
    }

    /// Binding: `let (__l, __r) = (A, B); `, or by reference, `(&(A), &(B))`, for the
    /// operators that take their operands by reference (binding by value would move out of
    /// a borrowed field).
    fn bind_pair(self, by_ref: bool) -> Shape {
        let (open, mid, close) = if by_ref { ("(&(", "), &(", "))") } else { ("(", ", ", ")") };
        self.text("let (__l, __r) = ").text(open).hole().text(mid).hole().text(close).text("; ")
    }

    /// Binding: `let NAME = A; ` (or `let NAME: TYPE = A; `).
    fn bind(self, name: &str, ty: Option<&str>) -> Shape {
        let ty = ty.map(|t| format!(": {t}")).unwrap_or_default();
        self.text(&format!("let {name}{ty} = ")).hole().text("; ")
    }

    /// Dispatch: `match at(..) { k => ARM_k, …, _ => ORIGINAL }`.
    fn dispatch(self, arms: Vec<String>, original: &str) -> Shape {
        self.dispatch_probed(arms, None, original)
    }

    /// Dispatch with an infection probe arm (see [`Probe`]).
    /// `original` is what the dispatch runs when no mutant of the site is active.
    fn dispatch_probed(self, arms: Vec<String>, probe: Option<Probe>, original: &str) -> Shape {
        self.part(Part::Arms(arms, probe)).text(original).text(" }")
    }

    /// Number of holes.
    pub fn holes(&self) -> usize {
        self.pieces.len() - 1
    }

    /// The pieces between the holes, in order: one more than there are holes.
    pub fn into_pieces(self) -> Vec<Piece> {
        self.pieces
    }
}

/// Arms of a binary operator site: `__l OP __r` for each replacement operator.
fn operator_arms(replacements: &[String], left: &str) -> Vec<String> {
    replacements.iter().map(|rep| format!("{left} {rep} __r")).collect()
}

/// `a OP b` for arithmetic, bitwise and shift operators: operands bound by value.
/// Holes: `a`, `b`.
/// Probed: alternatives on primitive numbers are evaluated while recording.
pub(crate) fn binary(op: &str, replacements: &[String]) -> Shape {
    let original = format!("__l {op} __r");
    let probe =
        Probe::Arith { op: op.to_owned(), replacements: replacements.to_vec(), original: original.clone() };
    Shape::new()
        .text("({ ")
        .bind_pair(false)
        .dispatch_probed(operator_arms(replacements, "__l"), Some(probe), &original)
        .text(" })")
}

/// `a OP b` for `==`, `<`, …: operands bound by reference and compared as references
/// (`&String` against `&&str` works through `PartialEq<&B> for &A`). Holes: `a`, `b`.
/// Probed: every alternative is evaluated while recording.
pub(crate) fn comparison(op: &str, replacements: &[String]) -> Shape {
    let original = format!("__l {op} __r");
    let probe = Probe::Compare { original: original.clone() };
    Shape::new()
        .text("({ ")
        .bind_pair(true)
        .dispatch_probed(operator_arms(replacements, "__l"), Some(probe), &original)
        .text(" })")
}

/// `a && b` (or `a || b`) with `b` written once and still short-circuited: it is
/// `if a == false { a } else { b }`, and the mutant flips the test to make it `a || b`.
/// One mutant. Holes: `a`, `b`.
pub(crate) fn short_circuit(is_and: bool) -> Shape {
    let test = if is_and { " == 1) { __l } else { " } else { " != 1) { __l } else { " };
    Shape::new()
        .text("({ ")
        .bind("__l", Some("bool"))
        .text("if __l == (")
        .at()
        .text(test)
        .hole()
        .text(" } })")
}

/// `place OP= b`: the right side is bound first, as for primitive compound assignment;
/// the place is written once, inside a local macro, so it is not copied into the arms.
/// Holes: `place`, `b`.
pub(crate) fn compound_assign(op: &str, replacements: &[String]) -> Shape {
    Shape::new()
        .text("{ macro_rules! __place { () => (")
        .hole()
        .text(") } ")
        .bind("__r", None)
        .dispatch(operator_arms(replacements, "__place!()"), &format!("__place!() {op} __r"))
        .text(" }")
}

/// `!a` or `-a`, whose one mutant is `a`. Holes: `a`.
pub(crate) fn unary_delete(op: &str) -> Shape {
    Shape::new()
        .text("({ ")
        .bind("__v", None)
        .dispatch(vec!["__v".to_owned()], &format!("{op}__v"))
        .text(" })")
}

/// Return values, at the start of a body: `match at(..) { 1 => return V1, …, _ => {} } `.
/// No holes.
pub(crate) fn return_values(values: &[String]) -> Shape {
    let arms = values.iter().map(|v| format!("return {v}")).collect();
    Shape::new().dispatch(arms, "{}").text(" ")
}

/// A deleted call statement, `if at(..) == 0 { f(x); }`. Holes: the call, without its `;`.
pub(crate) fn call_delete() -> Shape {
    Shape::new().text("if ").at().text(" == 0 { ").hole().text("; }")
}

/// An integer literal replaced by values the rewriter computed (`5` → `0`, `6`, `4`,
/// suffix kept: a method call on an unsuffixed literal would not type-check). No holes.
pub(crate) fn int_literal(original: &str, replacements: &[String]) -> Shape {
    let arms = replacements.to_vec();
    Shape::new().text("(").dispatch(arms, original).text(")")
}

/// A flipped bool literal: `(at(..) == 0)` is `true` on the original path. No holes.
pub(crate) fn bool_literal(value: bool) -> Shape {
    Shape::new().text("(").at().text(if value { " == 0)" } else { " != 0)" })
}

/// An `if` condition or match guard forced to `true` or `false`. Holes: the condition.
/// When `probed` (a pure condition), while recording, a forced value differs where the
/// condition's does not; otherwise the condition is the fallback arm, unprobed.
pub(crate) fn forced_bool(replacements: &[String], probed: bool) -> Shape {
    let arms = replacements.to_vec();
    if !probed {
        return Shape::new().text("(").part(Part::Arms(arms, None)).hole().text(" })");
    }
    Shape::new()
        .text("(")
        .part(Part::Arms(arms.clone(), Some(Probe::Forced)))
        .hole()
        .part(Part::ForcedTail(arms))
        .text(" } })")
}

/// A deleted match arm: a guard that is false when the mutant is active, inserted after
/// the arm's pattern (only where a `_` arm catches what the arm no longer does). No holes.
pub(crate) fn match_arm_delete() -> Shape {
    Shape::new().text(" if ").at().text(" == 0")
}

/// The last element of an inclusive range `__x` taken off: `a..=b` becomes `a..b` (and an
/// empty range when `a == b`), with no arithmetic on `b`.
const DROP_LAST: &str = "{ let mut __x = __x; __x.next_back(); __x }";

/// The forms of a range whose limits a mutant swaps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RangeForm {
    /// `a..=b` → `a..b`.
    StartClosed,
    /// `a..b` → `a..=b`.
    StartHalfOpen,
    /// `..=b` → `..b`.
    Closed,
    /// `v[..=b]` → `v[..b]`: as a slice index, `..=b` is the same as `0..=b`.
    IndexClosed,
    /// `..b` → `..=b`.
    HalfOpen,
}

/// `..` ↔ `..=`. Both arms have the original's type (`RangeInclusive` and `Range` differ),
/// and no arm does arithmetic that can overflow:
///
/// - `a..=b` → `a..b` takes the last element off the inclusive range itself
///   (`next_back`), so `0..=0u32` becomes empty, not `0..=(0 - 1)`. Holes: `a`, `b`.
/// - `a..b` → `a..=b` and `..b` → `..=b` end at the successor of `b`, which saturates
///   (`a..MAX` stays as it is: `Range` cannot hold `a..=MAX`). Holes: `a`, `b` / `b`.
/// - `v[..=b]` → `v[..b]`: as a slice index `..=b` means `0..=b`, which is written so and
///   swapped as above (`v[..=0]` becomes empty). Holes: `b`.
/// - `..=b` → `..b` elsewhere ends at `..=` the predecessor of `b`, saturating at the
///   minimum (`RangeToInclusive` cannot be empty). Holes: `b`.
///
/// The successor and predecessor come from the run-time (`::mutfuzz_rt::succ`, `pred`),
/// called as functions so an unsuffixed integer's type is still inferred from its use.
pub(crate) fn range_limit_swap(form: RangeForm) -> Shape {
    let s = Shape::new().text("({ ");
    let s = match form {
        RangeForm::StartClosed => s
            .text("let __x = ")
            .hole()
            .text("..=")
            .hole()
            .text("; ")
            .dispatch(vec![DROP_LAST.to_owned()], "__x"),
        RangeForm::IndexClosed => {
            s.text("let __x = 0..=").hole().text("; ").dispatch(vec![DROP_LAST.to_owned()], "__x")
        }
        RangeForm::StartHalfOpen => {
            s.bind_pair(false).dispatch(vec!["__l..::mutfuzz_rt::succ(__r)".to_owned()], "__l..__r")
        }
        RangeForm::Closed => {
            s.bind("__r", None).dispatch(vec!["..=::mutfuzz_rt::pred(__r)".to_owned()], "..=__r")
        }
        RangeForm::HalfOpen => {
            s.bind("__r", None).dispatch(vec!["..::mutfuzz_rt::succ(__r)".to_owned()], "..__r")
        }
    };
    s.text(" })")
}

/// `break` ↔ `continue`, keeping the label; replaces the whole expression. No holes. The
/// replacement is an arm of its own, so that a compiler error pointing at it (a `break`
/// without the value its loop returns) is that mutant's.
pub(crate) fn jump_swap(original: &str, replacement: &str, label: Option<&str>) -> Shape {
    let label = label.map(|l| format!(" '{l}")).unwrap_or_default();
    Shape::new()
        .text("(")
        .dispatch(vec![format!("{replacement}{label}")], &format!("{original}{label}"))
        .text(")")
}

/// The frame that opens every function, closure and async body: reads the active mutant
/// once into a local that the body's sites compare against, and spends fuel and depth
/// off the original path. No holes.
pub(crate) fn frame() -> Shape {
    Shape::new().text(FRAME)
}

pub(crate) const FRAME: &str = "let __m = ::mutfuzz_rt::enter(); ";

/// The frame of a function body compiled twice: `FRAME ::mutfuzz_rt::twice!((__m, LO, N) `,
/// with the body's sites' ids in `sites`; [`twice_close`] goes before the body's `}`.
/// The body runs as the schema when one of its mutants is active (or while recording),
/// and otherwise as a copy in which every dispatch is the constant 0, which the optimiser
/// compiles as the user's code: the original path and the mutant runs outside this body
/// then cost only their fuel and depth checks. No holes.
pub(crate) fn twice_frame(sites: std::ops::Range<usize>) -> Shape {
    Shape::new().text(FRAME).text("::mutfuzz_rt::twice!((__m, ").part(Part::Within(sites)).text(") ")
}

/// The end of a body that [`twice_frame`] opened. No holes.
pub(crate) fn twice_close() -> Shape {
    Shape::new().text(" )")
}

/// The frame of a closure whose body is an expression: `{ FRAME body }`. Holes: the body.
pub(crate) fn closure_frame() -> Shape {
    Shape::new().text("{ ").text(FRAME).hole().text(" }")
}

/// [`closure_frame`] compiled twice (see [`twice_frame`]): `{ FRAME twice!((__m, LO, N)
/// body ) }`. Holes: the body.
pub(crate) fn twice_closure_frame(sites: std::ops::Range<usize>) -> Shape {
    Shape::new()
        .text("{ ")
        .text(FRAME)
        .text("::mutfuzz_rt::twice!((__m, ")
        .part(Part::Within(sites))
        .text(") ")
        .hole()
        .text(" ) }")
}

/// One unit of fuel, at the head of every loop body. No holes.
pub(crate) fn tick() -> Shape {
    Shape::new().text("::mutfuzz_rt::tick(__m); ")
}

#[cfg(test)]
pub(crate) mod tests;
