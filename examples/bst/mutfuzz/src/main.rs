//! Fuzz targets for `bst` with a sparse precondition: each generated tree must be a
//! search tree (`mutfuzz::assume`), which few random trees of four nodes or more are.
//! The example on which `--schedule mutagen` is measured against Zest's schedule.

use bst::Tree;
use mutfuzz::Gen;

/// A generated tree, mirrored into `bst::Tree` (the library has no mutfuzz dependency).
#[derive(Clone, Debug, Gen)]
enum T {
    Leaf,
    Node(Box<T>, u8, u16, Box<T>),
}

fn tree(t: &T) -> Tree {
    match t {
        T::Leaf => Tree::Leaf,
        T::Node(l, k, v, r) => Tree::Node(Box::new(tree(l)), *k, *v, Box::new(tree(r))),
    }
}

/// A valid tree of four nodes or more and a key: insert it, delete it, look it up.
fn insert_delete(input: (T, u8, u16)) -> (Vec<(u8, u16)>, Option<u16>, Vec<(u8, u16)>, usize) {
    let (t, key, value) = input;
    let t = tree(&t);
    mutfuzz::assume(t.size() >= 4 && t.is_bst());
    let inserted = t.insert(key, value);
    let found = inserted.find(key);
    let listed = inserted.to_list();
    let height = inserted.height();
    let deleted = inserted.delete(key);
    (listed, found, deleted.to_list(), height)
}

/// Two valid trees: their union, its bounds and a range query.
fn union(input: (T, T, u8, u8)) -> (Vec<(u8, u16)>, Option<(u8, u16)>, Option<(u8, u16)>, Vec<u8>) {
    let (a, b, lo, hi) = input;
    let (a, b) = (tree(&a), tree(&b));
    mutfuzz::assume(a.is_bst() && b.is_bst());
    let u = a.union(b);
    (u.to_list(), u.min(), u.max(), u.range(lo, hi))
}

mutfuzz::targets!(insert_delete, union);
