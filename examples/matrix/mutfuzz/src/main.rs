//! Fuzz targets for `matrix`: matrices of small integers, whose determinants, products
//! and adjugates are integers, so outputs are compared exactly after rounding; and
//! inverses and solutions compared with a tolerance.

use matrix::Matrix;
use mutfuzz::Gen;

/// A small integer entry: matrices of them are often singular, and their inverses have
/// small denominators.
#[derive(Debug, Gen)]
struct Entry(#[mutfuzz(range = -4..=4)] i8);

/// An `n × n` matrix, `n` from 1 to 4, taken row by row from the first `n²` cells.
#[derive(Debug, Gen)]
struct Square {
    #[mutfuzz(range = 1..=4)]
    n: u8,
    cells: [Entry; 16],
}

/// A `rows × cols` matrix, each from 1 to 4.
#[derive(Debug, Gen)]
struct Rect {
    #[mutfuzz(range = 1..=4)]
    rows: u8,
    #[mutfuzz(range = 1..=4)]
    cols: u8,
    cells: [Entry; 16],
}

fn build(rows: u8, cols: u8, cells: &[Entry]) -> Matrix {
    let (rows, cols) = (usize::from(rows), usize::from(cols));
    let data: Vec<Vec<f64>> =
        (0..rows).map(|r| (0..cols).map(|c| f64::from(cells[r * cols + c].0)).collect()).collect();
    Matrix::from_rows(&data).expect("rows have equal length")
}

impl Square {
    fn matrix(&self) -> Matrix {
        build(self.n, self.n, &self.cells)
    }
}

impl Rect {
    fn matrix(&self) -> Matrix {
        build(self.rows, self.cols, &self.cells)
    }
}

/// Rounds to the nearest integer, mapping `-0` to `0` (non-finite values saturate).
fn exact(x: f64) -> i64 {
    x.round() as i64
}

/// The inverse of an integer matrix, as integers: its determinant and its adjugate
/// (inverse × determinant), both exact for such small matrices.
fn inverse(m: Square) -> Option<(i64, Vec<Vec<i64>>)> {
    let m = m.matrix();
    let inv = m.inverse()?;
    let det = m.determinant().expect("square");
    let adj = inv.to_rows().iter().map(|row| row.iter().map(|x| exact(x * det)).collect()).collect();
    Some((exact(det), adj))
}

/// The inverse itself, row-major, compared with a tolerance.
fn inverse_approx(m: Square) -> Option<Vec<f64>> {
    m.matrix().inverse().map(|inv| inv.to_rows().concat())
}

/// The determinant of any rectangular matrix (`None` unless square).
fn determinant(m: Rect) -> Option<i64> {
    m.matrix().determinant().map(exact)
}

/// The rank and the transpose's rank (always equal for a correct `rank`).
fn rank(m: Rect) -> (usize, usize) {
    let m = m.matrix();
    (m.rank(), m.transpose().rank())
}

/// Two matrices whose inner dimensions may not match.
#[derive(Debug, Gen)]
struct Pair {
    a: Rect,
    b: Rect,
}

fn product(pair: Pair) -> Option<Vec<Vec<i64>>> {
    let p = pair.a.matrix().mul(&pair.b.matrix())?;
    Some(p.to_rows().iter().map(|row| row.iter().map(|x| exact(*x)).collect()).collect())
}

/// A square system and a right-hand side.
#[derive(Debug, Gen)]
struct System {
    a: Square,
    b: [Entry; 4],
}

/// The solution of `a × x = b`, compared with a tolerance.
fn solve(system: System) -> Option<Vec<f64>> {
    let a = system.a.matrix();
    let b: Vec<f64> = system.b[..a.rows()].iter().map(|e| f64::from(e.0)).collect();
    a.solve(&b)
}

/// Equal up to rounding error: both `None`, or the same length and every entry within
/// `1e-6` (relative for large entries).
fn close_enough(a: &Option<Vec<f64>>, b: &Option<Vec<f64>>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => {
            a.len() == b.len()
                && a.iter().zip(b).all(|(x, y)| {
                    x.to_bits() == y.to_bits() || (x - y).abs() <= 1e-6 * x.abs().max(y.abs()).max(1.0)
                })
        }
        _ => false,
    }
}

mutfuzz::targets!(
    inverse,
    inverse_approx(compare = close_enough),
    determinant,
    rank,
    product,
    solve(compare = close_enough),
);
