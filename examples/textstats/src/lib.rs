//! Small text and number utilities, with a test suite that is good but not perfect:
//! the bundled example for `cargo mutfuzz test`.

pub mod stats;

/// A point on a grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Point {
    /// Column.
    pub x: i32,
    /// Row.
    pub y: i32,
}

/// The point `(x, y)`. (Replacing the body with `Default::default()` does not compile:
/// `Point` has no `Default`, so that mutant is unviable.)
pub fn point(x: i32, y: i32) -> Point {
    Point { x, y }
}

/// Manhattan distance between two points.
pub fn manhattan(a: Point, b: Point) -> i32 {
    (a.x - b.x).abs() + (a.y - b.y).abs()
}

/// Index of the first `needle` in `haystack`.
pub fn find_byte(haystack: &[u8], needle: u8) -> Option<usize> {
    let mut i = 0;
    loop {
        if i == haystack.len() {
            return None;
        }
        if haystack[i] == needle {
            // `continue` here would spin on the same index for ever.
            break;
        }
        i += 1;
    }
    Some(i)
}

/// `x` limited to 0..=100. Mutating `<` to `<=` or `>` to `>=` changes nothing: those
/// mutants are equivalent, and no test can catch them.
pub fn clamp_percent(x: i32) -> i32 {
    if x < 0 {
        0
    } else if x > 100 {
        100
    } else {
        x
    }
}

/// `"hello, " + name`. (`-` and `*` on a `String` do not compile: unviable mutants.)
pub fn greet(name: &str) -> String {
    String::from("hello, ") + name
}

/// Sum of squares, half of it computed on a spawned thread. `squares_on_a_thread` runs
/// only there, so its mutants are covered and caught only if the mutant switch and the
/// site recording follow the code under test into the threads it spawns.
pub fn parallel_sum_of_squares(v: &[u64]) -> u64 {
    let (left, right) = v.split_at(v.len() / 2);
    std::thread::scope(|s| {
        let other = s.spawn(|| squares_on_a_thread(left));
        right.iter().map(|x| x.pow(2)).sum::<u64>() + other.join().unwrap()
    })
}

fn squares_on_a_thread(v: &[u64]) -> u64 {
    v.iter().map(|x| x * x).sum()
}

/// No test calls this: its mutants are not covered.
pub fn triple(x: u32) -> u32 {
    x * 3
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manhattan_adds_both_axes() {
        assert_eq!(manhattan(point(1, 2), point(4, -2)), 7);
        assert_eq!(manhattan(point(0, 0), point(0, 0)), 0);
    }

    #[test]
    fn find_byte_finds_the_first_match() {
        assert_eq!(find_byte(b"abcb", b'b'), Some(1));
        assert_eq!(find_byte(b"abc", b'a'), Some(0));
        assert_eq!(find_byte(b"abc", b'z'), None);
        assert_eq!(find_byte(b"", b'z'), None);
    }

    #[test]
    fn clamp_percent_limits_both_ends() {
        assert_eq!(clamp_percent(-5), 0);
        assert_eq!(clamp_percent(50), 50);
        assert_eq!(clamp_percent(150), 100);
    }
}
