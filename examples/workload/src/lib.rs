//! Hot loops of the kinds mutation testing meets in practice: comparisons and swaps,
//! a recursive-descent parser, integer hashing and a sieve.

/// Insertion sort (the Mu2 paper's running example).
pub fn insertion_sort(v: &mut [i64]) {
    for i in 1..v.len() {
        let mut j = i;
        while j > 0 && v[j - 1] > v[j] {
            v.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// FNV-1a over bytes.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Primes below `n`, by the sieve of Eratosthenes.
pub fn count_primes(n: usize) -> usize {
    let mut composite = vec![false; n];
    let mut count = 0;
    for i in 2..n {
        if !composite[i] {
            count += 1;
            let mut j = i * i;
            while j < n {
                composite[j] = true;
                j += i;
            }
        }
    }
    count
}

/// Evaluate `+ - * ( )` over non-negative integers, wrapping on overflow.
pub fn eval(src: &str) -> Option<i64> {
    let mut p = Parser { s: src.as_bytes(), i: 0 };
    let v = p.expr()?;
    if p.i == p.s.len() {
        Some(v)
    } else {
        None
    }
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn expr(&mut self) -> Option<i64> {
        let mut v = self.term()?;
        while let Some(c) = self.peek() {
            if c == b'+' {
                self.i += 1;
                v = v.wrapping_add(self.term()?);
            } else if c == b'-' {
                self.i += 1;
                v = v.wrapping_sub(self.term()?);
            } else {
                break;
            }
        }
        Some(v)
    }

    fn term(&mut self) -> Option<i64> {
        let mut v = self.atom()?;
        while self.peek() == Some(b'*') {
            self.i += 1;
            v = v.wrapping_mul(self.atom()?);
        }
        Some(v)
    }

    fn atom(&mut self) -> Option<i64> {
        match self.peek()? {
            b'(' => {
                self.i += 1;
                let v = self.expr()?;
                if self.peek() != Some(b')') {
                    return None;
                }
                self.i += 1;
                Some(v)
            }
            c if c.is_ascii_digit() => {
                let mut v: i64 = 0;
                while let Some(d) = self.peek().filter(u8::is_ascii_digit) {
                    v = v.wrapping_mul(10).wrapping_add((d - b'0') as i64);
                    self.i += 1;
                }
                Some(v)
            }
            _ => None,
        }
    }
}

/// Run every kernel `rounds` times; returns a checksum so nothing is optimised away.
pub fn run(rounds: u64) -> u64 {
    let mut sum = 0u64;
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for r in 0..rounds {
        let mut v: Vec<i64> = (0..200)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                (seed % 1000) as i64
            })
            .collect();
        insertion_sort(&mut v);
        sum = sum.wrapping_add(v[(r % 200) as usize] as u64);
        sum = sum.wrapping_add(fnv1a(format!("{r}-{seed}").as_bytes()));
        sum = sum.wrapping_add(count_primes(2000) as u64);
        let e = format!("(({r}+3)*7-{})*({}+1)", r % 13, r % 5);
        sum = sum.wrapping_add(eval(&e).unwrap_or(0) as u64);
    }
    sum
}
