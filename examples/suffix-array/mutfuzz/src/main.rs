//! Fuzz targets for `suffix-array`: build the suffix and LCP arrays of generated texts
//! and run substring queries on them. Texts over a four-letter alphabet repeat a lot,
//! which is where suffix sorting and LCP computation get interesting.

use mutfuzz::Gen;
use suffix_array::SuffixIndex;

/// A letter of a small alphabet.
#[derive(Debug, Gen)]
struct Letter(#[mutfuzz(range = b'a'..=b'd')] u8);

/// A text over `a..=d`.
#[derive(Debug, Gen)]
struct Text(#[mutfuzz(len = 0..=32)] Vec<Letter>);

impl Text {
    fn bytes(&self) -> Vec<u8> {
        self.0.iter().map(|l| l.0).collect()
    }
}

/// Suffix array and LCP array of any bytes.
fn build_bytes(text: Vec<u8>) -> (Vec<usize>, Vec<usize>) {
    let index = SuffixIndex::new(&text);
    (index.suffix_array().to_vec(), index.lcp().to_vec())
}

/// Suffix array and LCP array of a repetitive text.
fn build(text: Text) -> (Vec<usize>, Vec<usize>) {
    build_bytes(text.bytes())
}

/// A text and a pattern over the same small alphabet.
#[derive(Debug, Gen)]
struct Query {
    text: Text,
    #[mutfuzz(len = 0..=4)]
    pattern: Vec<Letter>,
}

/// Whether the pattern occurs, how often, and where.
fn search(query: Query) -> (bool, usize, Vec<usize>) {
    let index = SuffixIndex::new(&query.text.bytes());
    let pattern: Vec<u8> = query.pattern.iter().map(|l| l.0).collect();
    (index.contains(&pattern), index.count(&pattern), index.find_all(&pattern))
}

/// The longest repeated substring and the number of distinct substrings.
fn repeats(text: Text) -> (Option<Vec<u8>>, usize) {
    let index = SuffixIndex::new(&text.bytes());
    (index.longest_repeated().map(<[u8]>::to_vec), index.distinct_substrings())
}

mutfuzz::targets!(build, build_bytes, search, repeats);
