//! A document of pixels and items. Two pieces of code are hard to reach with random
//! edits: a command item whose name is `"magic-keyword"` and whose code is `0x5eed`
//! unlocks [`secret`], and a header of version 7 in strict mode checksums the pixels.
//! A benchmark crate for mutfuzz's input strategies (dictionary, comparison feedback,
//! type targeting): the mutants behind those conditions are killed only by inputs
//! that get past them.

/// The document's header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// Format version.
    pub version: u8,
    /// Strict mode.
    pub strict: bool,
}

/// One pixel of the payload.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pixel {
    /// Red.
    pub r: u8,
    /// Green.
    pub g: u8,
    /// Blue.
    pub b: u8,
}

/// An item of the document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    /// Free text.
    Note(String),
    /// A command with a name, a code and an argument.
    Cmd {
        /// The command's name.
        name: String,
        /// Its code.
        code: u16,
        /// Its argument.
        arg: i32,
    },
    /// Opaque bytes.
    Blob(Vec<u8>),
}

/// A document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Doc {
    /// Its header.
    pub header: Header,
    /// The payload.
    pub pixels: Vec<Pixel>,
    /// The items.
    pub items: Vec<Item>,
}

/// What [`process`] found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Sum of every channel of every pixel.
    pub brightness: u64,
    /// Checksum of the pixels, in strict version-7 documents.
    pub checksum: Option<u32>,
    /// Chars in notes.
    pub notes: usize,
    /// Bytes in blobs.
    pub blob: usize,
    /// Commands named "magic-keyword".
    pub magic: usize,
    /// What the secret command computed.
    pub secret: Option<i64>,
}

/// Walks the document.
pub fn process(doc: &Doc) -> Summary {
    let mut s = Summary::default();
    for p in &doc.pixels {
        s.brightness += u64::from(p.r) + u64::from(p.g) + u64::from(p.b);
    }
    if doc.header.version == 7 && doc.header.strict {
        s.checksum = Some(checksum(&doc.pixels));
    }
    for item in &doc.items {
        match item {
            Item::Note(text) => s.notes += text.chars().count(),
            Item::Cmd { name, code, arg } => {
                if name == "magic-keyword" {
                    s.magic += 1;
                    if *code == 0x5eed {
                        s.secret = Some(secret(*arg, doc.header.version));
                    }
                }
            }
            Item::Blob(bytes) => s.blob += bytes.len(),
        }
    }
    s
}

/// Adler-like checksum of the pixels.
pub fn checksum(pixels: &[Pixel]) -> u32 {
    let (mut a, mut b) = (1u32, 0u32);
    for p in pixels {
        for c in [p.r, p.g, p.b] {
            a = (a + u32::from(c)) % 65521;
            b = (b + a) % 65521;
        }
    }
    (b << 16) | a
}

/// The guarded computation: every mutant here needs the magic command to be reached.
pub fn secret(arg: i32, version: u8) -> i64 {
    let x = i64::from(arg);
    let mut acc = x * 3 + i64::from(version);
    if x > 100 {
        acc -= x / 7;
    } else if x < -100 {
        acc += x % 13;
    }
    if acc % 2 == 0 {
        acc / 2
    } else {
        acc * 5 + 1
    }
}
