//! Solving `A x = b` for a small symmetric positive definite `A` by its Cholesky
//! factorisation `A = L Lᵀ`, the Newton step of the rating fit.

/// Solves `a x = b`, `a` an `n x n` symmetric matrix in row-major order; `None` if `a` is not
/// positive definite (numerically).
pub fn solve_positive_definite(a: &[f64], b: &[f64]) -> Option<Vec<f64>> {
    let n = b.len();
    debug_assert_eq!(a.len(), n * n);
    let mut l = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..=i {
            let sum: f64 = (0..j).map(|k| l[i * n + k] * l[j * n + k]).sum();
            if i == j {
                let d = a[i * n + i] - sum;
                if d <= 1e-300 || !d.is_finite() {
                    return None;
                }
                l[i * n + i] = d.sqrt();
            } else {
                l[i * n + j] = (a[i * n + j] - sum) / l[j * n + j];
            }
        }
    }
    // L y = b, then Lᵀ x = y.
    let mut y = vec![0.0; n];
    for i in 0..n {
        let sum: f64 = (0..i).map(|k| l[i * n + k] * y[k]).sum();
        y[i] = (b[i] - sum) / l[i * n + i];
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        let sum: f64 = (i + 1..n).map(|k| l[k * n + i] * x[k]).sum();
        x[i] = (y[i] - sum) / l[i * n + i];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solves_by_hand_and_refuses_indefinite_matrices() {
        // [4 2; 2 3] x = [2; 1]: det 8, x = [3·2 - 2·1, 4·1 - 2·2] / 8 = [0.5, 0].
        let x = solve_positive_definite(&[4.0, 2.0, 2.0, 3.0], &[2.0, 1.0]).unwrap();
        assert!((x[0] - 0.5).abs() < 1e-12 && x[1].abs() < 1e-12, "{x:?}");
        assert_eq!(
            solve_positive_definite(&[1.0, 2.0, 2.0, 1.0], &[1.0, 1.0]),
            None
        );
        assert_eq!(solve_positive_definite(&[], &[]), Some(vec![]));
    }
}
