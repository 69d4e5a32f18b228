//! `Gen` for wrappers around one value: `Option`, `Result`, `Box`, `Rc`, `Arc`, `PhantomData`.

use std::marker::PhantomData;
use std::rc::Rc;
use std::sync::Arc;

use super::Gen;
use crate::input::Source;

/// How often a fresh `Option` is `Some`.
const SOME_PROBABILITY: f64 = 0.75;

impl<T: Gen> Gen for Option<T> {
    /// One coin choice, then the value if `Some`; `None` whenever the budget is spent.
    fn generate(src: &mut Source) -> Self {
        // The coin is drawn even when exhausted so that the bytes keep their meaning.
        let some = src.biased_bool(SOME_PROBABILITY);
        if some && !src.is_exhausted() { Some(src.draw()) } else { None }
    }
}

impl<T: Gen, E: Gen> Gen for Result<T, E> {
    fn generate(src: &mut Source) -> Self {
        if src.choose(2) == 0 { Ok(src.draw()) } else { Err(src.draw()) }
    }
}

impl<T: Gen> Gen for Box<T> {
    fn generate(src: &mut Source) -> Self {
        Box::new(src.draw())
    }
}

impl<T: Gen> Gen for Rc<T> {
    fn generate(src: &mut Source) -> Self {
        Rc::new(src.draw())
    }
}

impl<T: Gen> Gen for Arc<T> {
    fn generate(src: &mut Source) -> Self {
        Arc::new(src.draw())
    }
}

impl<T: ?Sized> Gen for PhantomData<T> {
    fn generate(_: &mut Source) -> Self {
        PhantomData
    }
}
