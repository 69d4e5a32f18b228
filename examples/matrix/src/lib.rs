//! Small dense matrices over `f64`: products, transposes, determinants, ranks, inverses
//! by Gauss-Jordan elimination with partial pivoting, and linear solves by Gaussian
//! elimination with back substitution.
//!
//! Pivots smaller than [`EPSILON`] in magnitude count as zero, so singular matrices give
//! `None` (or a zero determinant) instead of huge garbage. It is a benchmark crate for
//! mutfuzz.

use std::ops::{Index, IndexMut};

/// Pivots with a smaller magnitude count as zero.
pub const EPSILON: f64 = 1e-10;

/// A dense `rows × cols` matrix stored row by row.
#[derive(Clone, Debug, PartialEq)]
pub struct Matrix {
    rows: usize,
    cols: usize,
    data: Vec<f64>,
}

impl Index<(usize, usize)> for Matrix {
    type Output = f64;

    fn index(&self, (r, c): (usize, usize)) -> &f64 {
        assert!(r < self.rows && c < self.cols, "index ({r}, {c}) out of bounds");
        &self.data[r * self.cols + c]
    }
}

impl IndexMut<(usize, usize)> for Matrix {
    fn index_mut(&mut self, (r, c): (usize, usize)) -> &mut f64 {
        assert!(r < self.rows && c < self.cols, "index ({r}, {c}) out of bounds");
        &mut self.data[r * self.cols + c]
    }
}

impl Matrix {
    /// The `rows × cols` zero matrix.
    pub fn zeros(rows: usize, cols: usize) -> Matrix {
        Matrix { rows, cols, data: vec![0.0; rows * cols] }
    }

    /// The `n × n` identity matrix.
    pub fn identity(n: usize) -> Matrix {
        let mut m = Matrix::zeros(n, n);
        for i in 0..n {
            m[(i, i)] = 1.0;
        }
        m
    }

    /// A matrix from its rows; `None` if the rows differ in length.
    pub fn from_rows(rows: &[Vec<f64>]) -> Option<Matrix> {
        let cols = rows.first().map_or(0, Vec::len);
        if rows.iter().any(|row| row.len() != cols) {
            return None;
        }
        Some(Matrix { rows: rows.len(), cols, data: rows.concat() })
    }

    /// The rows, as vectors.
    pub fn to_rows(&self) -> Vec<Vec<f64>> {
        (0..self.rows).map(|r| (0..self.cols).map(|c| self[(r, c)]).collect()).collect()
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Whether the matrix is square.
    pub fn is_square(&self) -> bool {
        self.rows == self.cols
    }

    /// The transpose.
    pub fn transpose(&self) -> Matrix {
        let mut t = Matrix::zeros(self.cols, self.rows);
        for r in 0..self.rows {
            for c in 0..self.cols {
                t[(c, r)] = self[(r, c)];
            }
        }
        t
    }

    /// The product `self × other`; `None` if the inner dimensions differ.
    pub fn mul(&self, other: &Matrix) -> Option<Matrix> {
        if self.cols != other.rows {
            return None;
        }
        let mut p = Matrix::zeros(self.rows, other.cols);
        for r in 0..self.rows {
            for c in 0..other.cols {
                let mut sum = 0.0;
                for k in 0..self.cols {
                    sum += self[(r, k)] * other[(k, c)];
                }
                p[(r, c)] = sum;
            }
        }
        Some(p)
    }

    fn swap_rows(&mut self, a: usize, b: usize) {
        if a == b {
            return;
        }
        for c in 0..self.cols {
            self.data.swap(a * self.cols + c, b * self.cols + c);
        }
    }

    /// The row at or below `from` with the largest magnitude in column `col`.
    fn pivot_row(&self, from: usize, col: usize) -> usize {
        let mut best = from;
        for r in from + 1..self.rows {
            if self[(r, col)].abs() > self[(best, col)].abs() {
                best = r;
            }
        }
        best
    }

    /// The determinant, by elimination with partial pivoting; `None` if not square.
    pub fn determinant(&self) -> Option<f64> {
        if !self.is_square() {
            return None;
        }
        let n = self.rows;
        let mut m = self.clone();
        let mut det = 1.0;
        for col in 0..n {
            let pivot = m.pivot_row(col, col);
            if m[(pivot, col)].abs() < EPSILON {
                return Some(0.0);
            }
            if pivot != col {
                m.swap_rows(pivot, col);
                det = -det;
            }
            let p = m[(col, col)];
            det *= p;
            for r in col + 1..n {
                let factor = m[(r, col)] / p;
                for c in col..n {
                    m[(r, c)] -= factor * m[(col, c)];
                }
            }
        }
        Some(det)
    }

    /// The rank: the number of nonzero pivots of a row echelon form.
    pub fn rank(&self) -> usize {
        let mut m = self.clone();
        let mut rank = 0;
        for col in 0..self.cols {
            if rank == self.rows {
                break;
            }
            let pivot = m.pivot_row(rank, col);
            if m[(pivot, col)].abs() < EPSILON {
                continue;
            }
            m.swap_rows(pivot, rank);
            for r in rank + 1..self.rows {
                let factor = m[(r, col)] / m[(rank, col)];
                for c in col..self.cols {
                    m[(r, c)] -= factor * m[(rank, c)];
                }
            }
            rank += 1;
        }
        rank
    }

    /// The inverse, by Gauss-Jordan elimination with partial pivoting; `None` if the
    /// matrix is not square or is singular.
    pub fn inverse(&self) -> Option<Matrix> {
        if !self.is_square() {
            return None;
        }
        let n = self.rows;
        let mut a = self.clone();
        let mut inv = Matrix::identity(n);
        for col in 0..n {
            let pivot = a.pivot_row(col, col);
            if a[(pivot, col)].abs() < EPSILON {
                return None;
            }
            a.swap_rows(pivot, col);
            inv.swap_rows(pivot, col);
            let p = a[(col, col)];
            for c in 0..n {
                a[(col, c)] /= p;
                inv[(col, c)] /= p;
            }
            for r in 0..n {
                if r == col {
                    continue;
                }
                let factor = a[(r, col)];
                for c in 0..n {
                    a[(r, c)] -= factor * a[(col, c)];
                    inv[(r, c)] -= factor * inv[(col, c)];
                }
            }
        }
        Some(inv)
    }

    /// Solves `self × x = b` by Gaussian elimination with partial pivoting and back
    /// substitution; `None` if the matrix is not square, `b` has the wrong length, or
    /// the system has no unique solution.
    pub fn solve(&self, b: &[f64]) -> Option<Vec<f64>> {
        if !self.is_square() || b.len() != self.rows {
            return None;
        }
        let n = self.rows;
        let mut a = self.clone();
        let mut x = b.to_vec();
        for col in 0..n {
            let pivot = a.pivot_row(col, col);
            if a[(pivot, col)].abs() < EPSILON {
                return None;
            }
            a.swap_rows(pivot, col);
            x.swap(pivot, col);
            for r in col + 1..n {
                let factor = a[(r, col)] / a[(col, col)];
                for c in col..n {
                    a[(r, c)] -= factor * a[(col, c)];
                }
                x[r] -= factor * x[col];
            }
        }
        for r in (0..n).rev() {
            let mut sum = x[r];
            for c in r + 1..n {
                sum -= a[(r, c)] * x[c];
            }
            x[r] = sum / a[(r, r)];
        }
        Some(x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(rows: &[&[f64]]) -> Matrix {
        Matrix::from_rows(&rows.iter().map(|r| r.to_vec()).collect::<Vec<_>>()).unwrap()
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn multiplies() {
        let a = m(&[&[1.0, 2.0], &[3.0, 4.0]]);
        let b = m(&[&[5.0], &[6.0]]);
        assert_eq!(a.mul(&b).unwrap().to_rows(), vec![vec![17.0], vec![39.0]]);
        assert!(b.mul(&b).is_none());
    }

    #[test]
    fn identity_is_neutral() {
        let a = m(&[&[2.0, -1.0], &[0.5, 3.0]]);
        assert_eq!(a.mul(&Matrix::identity(2)).unwrap(), a);
    }

    #[test]
    fn transposes() {
        let a = m(&[&[1.0, 2.0, 3.0]]);
        assert_eq!(a.transpose().to_rows(), vec![vec![1.0], vec![2.0], vec![3.0]]);
    }

    #[test]
    fn from_rows_rejects_ragged_rows() {
        assert!(Matrix::from_rows(&[vec![1.0], vec![1.0, 2.0]]).is_none());
    }

    #[test]
    fn determinant_of_small_matrices() {
        assert!(close(m(&[&[1.0, 2.0], &[3.0, 4.0]]).determinant().unwrap(), -2.0));
        assert_eq!(m(&[&[1.0, 2.0], &[2.0, 4.0]]).determinant(), Some(0.0));
        assert_eq!(m(&[&[1.0, 2.0]]).determinant(), None);
    }

    #[test]
    fn inverts_a_two_by_two() {
        let inv = m(&[&[4.0, 7.0], &[2.0, 6.0]]).inverse().unwrap();
        let expected = [[0.6, -0.7], [-0.2, 0.4]];
        for (r, row) in expected.iter().enumerate() {
            for (c, want) in row.iter().enumerate() {
                assert!(close(inv[(r, c)], *want));
            }
        }
    }

    #[test]
    fn singular_matrix_has_no_inverse() {
        assert!(m(&[&[1.0, 2.0], &[2.0, 4.0]]).inverse().is_none());
    }

    #[test]
    fn solves_a_system() {
        let a = m(&[&[2.0, 1.0], &[1.0, 3.0]]);
        let x = a.solve(&[3.0, 5.0]).unwrap();
        assert!(close(x[0], 0.8) && close(x[1], 1.4));
    }

    #[test]
    fn rank_of_a_rank_one_matrix() {
        assert_eq!(m(&[&[1.0, 2.0], &[2.0, 4.0]]).rank(), 1);
        assert_eq!(Matrix::identity(3).rank(), 3);
    }
}
