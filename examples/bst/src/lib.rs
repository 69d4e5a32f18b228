//! Binary search trees over `u8` keys: insertion, deletion, lookup, union and the
//! invariant checks. Every operation expects (and keeps) the search-tree order, so a
//! test harness must reject trees that break it, as MUTAGEN's BST benchmark does.

/// A binary tree whose inner nodes carry a key and a value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tree {
    /// The empty tree.
    Leaf,
    /// Left subtree, key, value, right subtree.
    Node(Box<Tree>, u8, u16, Box<Tree>),
}

impl Tree {
    /// A tree of one node.
    pub fn single(key: u8, value: u16) -> Tree {
        Tree::Node(Box::new(Tree::Leaf), key, value, Box::new(Tree::Leaf))
    }

    /// Whether every key in a left subtree is smaller and every key in a right one larger.
    pub fn is_bst(&self) -> bool {
        fn within(t: &Tree, lo: Option<u8>, hi: Option<u8>) -> bool {
            match t {
                Tree::Leaf => true,
                Tree::Node(l, k, _, r) => {
                    lo.is_none_or(|lo| *k > lo)
                        && hi.is_none_or(|hi| *k < hi)
                        && within(l, lo, Some(*k))
                        && within(r, Some(*k), hi)
                }
            }
        }
        within(self, None, None)
    }

    /// Number of nodes.
    pub fn size(&self) -> usize {
        match self {
            Tree::Leaf => 0,
            Tree::Node(l, _, _, r) => l.size() + 1 + r.size(),
        }
    }

    /// Longest path from the root to a leaf, in nodes.
    pub fn height(&self) -> usize {
        match self {
            Tree::Leaf => 0,
            Tree::Node(l, _, _, r) => 1 + l.height().max(r.height()),
        }
    }

    /// The value stored under `key`.
    pub fn find(&self, key: u8) -> Option<u16> {
        match self {
            Tree::Leaf => None,
            Tree::Node(l, k, v, r) => {
                if key < *k {
                    l.find(key)
                } else if key > *k {
                    r.find(key)
                } else {
                    Some(*v)
                }
            }
        }
    }

    /// The tree with `key` mapped to `value` (replacing an earlier value).
    pub fn insert(self, key: u8, value: u16) -> Tree {
        match self {
            Tree::Leaf => Tree::single(key, value),
            Tree::Node(l, k, v, r) => {
                if key < k {
                    Tree::Node(Box::new(l.insert(key, value)), k, v, r)
                } else if key > k {
                    Tree::Node(l, k, v, Box::new(r.insert(key, value)))
                } else {
                    Tree::Node(l, k, value, r)
                }
            }
        }
    }

    /// The tree without `key`; a node with two children takes its successor's place.
    pub fn delete(self, key: u8) -> Tree {
        match self {
            Tree::Leaf => Tree::Leaf,
            Tree::Node(l, k, v, r) => {
                if key < k {
                    Tree::Node(Box::new(l.delete(key)), k, v, r)
                } else if key > k {
                    Tree::Node(l, k, v, Box::new(r.delete(key)))
                } else {
                    match (*l, *r) {
                        (Tree::Leaf, r) => r,
                        (l, Tree::Leaf) => l,
                        (l, r) => {
                            let (sk, sv) = r.min().expect("a node has a minimum");
                            Tree::Node(Box::new(l), sk, sv, Box::new(r.delete(sk)))
                        }
                    }
                }
            }
        }
    }

    /// The smallest key and its value.
    pub fn min(&self) -> Option<(u8, u16)> {
        match self {
            Tree::Leaf => None,
            Tree::Node(l, k, v, _) => l.min().or(Some((*k, *v))),
        }
    }

    /// The largest key and its value.
    pub fn max(&self) -> Option<(u8, u16)> {
        match self {
            Tree::Leaf => None,
            Tree::Node(_, k, v, r) => r.max().or(Some((*k, *v))),
        }
    }

    /// The entries in key order.
    pub fn to_list(&self) -> Vec<(u8, u16)> {
        let mut out = Vec::new();
        fn walk(t: &Tree, out: &mut Vec<(u8, u16)>) {
            if let Tree::Node(l, k, v, r) = t {
                walk(l, out);
                out.push((*k, *v));
                walk(r, out);
            }
        }
        walk(self, &mut out);
        out
    }

    /// Both trees' entries; on a shared key, this tree's value wins.
    pub fn union(self, other: Tree) -> Tree {
        let mut out = other;
        for (k, v) in self.to_list() {
            out = out.insert(k, v);
        }
        out
    }

    /// The keys in `lo..=hi`, in order.
    pub fn range(&self, lo: u8, hi: u8) -> Vec<u8> {
        match self {
            Tree::Leaf => Vec::new(),
            Tree::Node(l, k, _, r) => {
                let mut out = if lo < *k { l.range(lo, hi) } else { Vec::new() };
                if lo <= *k && *k <= hi {
                    out.push(*k);
                }
                if *k < hi {
                    out.extend(r.range(lo, hi));
                }
                out
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn from(keys: &[u8]) -> Tree {
        keys.iter().fold(Tree::Leaf, |t, &k| t.insert(k, u16::from(k) * 10))
    }

    #[test]
    fn insertion_keeps_the_order_and_finds_every_key() {
        let t = from(&[5, 2, 8, 1, 9, 5]);
        assert!(t.is_bst());
        assert_eq!(t.size(), 5);
        assert_eq!(t.find(8), Some(80));
        assert_eq!(t.find(3), None);
        assert_eq!(t.to_list().iter().map(|e| e.0).collect::<Vec<_>>(), [1, 2, 5, 8, 9]);
        assert_eq!((t.min(), t.max(), t.height()), (Some((1, 10)), Some((9, 90)), 3));
    }

    #[test]
    fn deletion_and_union_keep_the_order() {
        let t = from(&[5, 2, 8, 1, 9, 7]).delete(5).delete(1).delete(4);
        assert!(t.is_bst());
        assert_eq!(t.to_list().iter().map(|e| e.0).collect::<Vec<_>>(), [2, 7, 8, 9]);
        let u = from(&[3, 8]).insert(8, 1).union(t);
        assert!(u.is_bst());
        assert_eq!(u.find(8), Some(1));
        assert_eq!(u.range(3, 8), [3, 7, 8]);
        assert!(!Tree::Node(Box::new(Tree::single(9, 0)), 4, 0, Box::new(Tree::Leaf)).is_bst());
    }
}
