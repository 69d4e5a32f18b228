//! Fuzz target for `magic-command`: a generated document, processed.
//!
//! The generated types mirror the crate's and keep their names (`Doc`, `Header`,
//! `Item`, …): `--target-types` matches the types the static pass finds in the crate's
//! branch conditions with the spans' type names.

use mutfuzz::Gen;

#[derive(Debug, Gen)]
struct Header {
    version: u8,
    strict: bool,
}

#[derive(Debug, Gen)]
struct Pixel {
    r: u8,
    g: u8,
    b: u8,
}

#[derive(Debug, Gen)]
enum Item {
    Note(String),
    Cmd { name: String, code: u16, arg: i32 },
    Blob(Vec<u8>),
}

#[derive(Debug, Gen)]
struct Doc {
    header: Header,
    #[mutfuzz(len = 200..=400)]
    pixels: Vec<Pixel>,
    #[mutfuzz(len = 1..=6)]
    items: Vec<Item>,
}

fn convert(d: Doc) -> magic_command::Doc {
    magic_command::Doc {
        header: magic_command::Header { version: d.header.version, strict: d.header.strict },
        pixels: d.pixels.into_iter().map(|p| magic_command::Pixel { r: p.r, g: p.g, b: p.b }).collect(),
        items: d
            .items
            .into_iter()
            .map(|i| match i {
                Item::Note(t) => magic_command::Item::Note(t),
                Item::Cmd { name, code, arg } => magic_command::Item::Cmd { name, code, arg },
                Item::Blob(b) => magic_command::Item::Blob(b),
            })
            .collect(),
    }
}

/// Process a document.
fn process(d: Doc) -> magic_command::Summary {
    magic_command::process(&convert(d))
}

mutfuzz::targets!(process);
