//! `#[derive(Gen)]` for mutfuzz (under construction).
