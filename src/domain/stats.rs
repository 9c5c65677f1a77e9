//! Correlation coefficients with their two-sided p-values and 95 % confidence intervals, computed
//! as `scipy.stats.pearsonr` and `scipy.stats.spearmanr` compute them, and how much each pair
//! moves them (leave-one-out). The fixtures in `tests/fixtures/correlations/` hold scipy's results
//! on the same inputs, and the script that made them.
//!
//! Values are scaled by the largest magnitude of their series before anything is summed, so that
//! figures up to f64's largest give the right r instead of overflowing to infinity; an
//! intermediate that is still not finite gives no coefficient ([`NoCorrelation::NotComputable`]),
//! never a number.

/// Pearson's r on the values, or Spearman's ρ (Pearson's r on their ranks, ties sharing their
/// average rank).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    Pearson,
    Spearman,
}

impl Method {
    pub const NAMES: &[&str] = &["pearson", "spearman"];

    pub fn parse(name: &str) -> Option<Method> {
        match name {
            "pearson" => Some(Method::Pearson),
            "spearman" => Some(Method::Spearman),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Method::Pearson => "pearson",
            Method::Spearman => "spearman",
        }
    }
}

/// What is done to each value before it is correlated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transform {
    None,
    /// The natural logarithm: skewed positive figures (GDP, density) on a scale where a region
    /// ten times another is as far from it as one a tenth.
    Log,
}

impl Transform {
    pub const NAMES: &[&str] = &["none", "log"];

    pub fn parse(name: &str) -> Option<Transform> {
        match name {
            "none" => Some(Transform::None),
            "log" => Some(Transform::Log),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Transform::None => "none",
            Transform::Log => "log",
        }
    }

    /// The value to correlate, or why there is none (the logarithm of zero or less).
    pub fn apply(self, value: f64) -> Result<f64, &'static str> {
        match self {
            Transform::None => Ok(value),
            Transform::Log if value > 0.0 => Ok(value.ln()),
            Transform::Log => Err("non_positive"),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Correlation {
    pub r: f64,
    /// Two-sided, against r = 0, from Student's t with n − 2 degrees of freedom.
    pub p_value: f64,
    /// Fisher's z interval: standard error 1/√(n−3) for Pearson, √(1.06/(n−3)) for Spearman
    /// (Fieller, Hartley & Pearson, 1957). None below 4 points.
    pub ci95: Option<[f64; 2]>,
}

/// Why two series give no coefficient.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoCorrelation {
    /// Fewer than 3 pairs.
    TooFew,
    /// One of the series has the same value everywhere: r is undefined.
    Constant,
    /// A value or an intermediate result is not a finite number (the reason says which).
    NotComputable(&'static str),
}

/// The 0.975 quantile of the standard normal distribution.
const Z_975: f64 = 1.959_963_984_540_054;

/// r, p and the interval for the paired values `x[i]`, `y[i]`.
pub fn correlate(method: Method, x: &[f64], y: &[f64]) -> Result<Correlation, NoCorrelation> {
    assert_eq!(x.len(), y.len(), "values come in pairs");
    let n = x.len();
    if n < 3 {
        return Err(NoCorrelation::TooFew);
    }
    let (x, y) = prepared(method, x, y)?;
    let r = pearson(&x, &y)?;
    let df = (n - 2) as f64;
    // P(|T| ≥ |t|) for t = r·√(df/(1−r²)) is I_{1−r²}(df/2, 1/2).
    let p_value = if r.abs() == 1.0 {
        0.0
    } else {
        regularized_incomplete_beta(df / 2.0, 0.5, 1.0 - r * r).clamp(0.0, 1.0)
    };
    let ci95 = (n > 3).then(|| {
        let variance = match method {
            Method::Pearson => 1.0,
            Method::Spearman => 1.06,
        };
        let se = (variance / (n - 3) as f64).sqrt();
        let z = r.atanh();
        [(z - Z_975 * se).tanh(), (z + Z_975 * se).tanh()]
    });
    if !p_value.is_finite() || ci95.is_some_and(|[lo, hi]| !lo.is_finite() || !hi.is_finite()) {
        return Err(NoCorrelation::NotComputable(
            "the p-value or the interval is not a finite number",
        ));
    }
    Ok(Correlation { r, p_value, ci95 })
}

/// How much single pairs move r: for each pair, r of the others (None where it is undefined,
/// the rest being constant). What it costs is [`loo_work`].
pub fn leave_one_out(
    method: Method,
    x: &[f64],
    y: &[f64],
) -> Result<Vec<Option<f64>>, NoCorrelation> {
    assert_eq!(x.len(), y.len(), "values come in pairs");
    if x.len() < 4 {
        return Err(NoCorrelation::TooFew);
    }
    match method {
        Method::Pearson => {
            let (x, y) = (scaled(x)?, scaled(y)?);
            Ok(pearson_without_each(&x, &y))
        }
        Method::Spearman => {
            let (rx, ry) = (ranks(x), ranks(y));
            let mut out = Vec::with_capacity(x.len());
            let (mut a, mut b) = (Vec::with_capacity(x.len()), Vec::with_capacity(x.len()));
            for i in 0..x.len() {
                // The ranks of the others among themselves: one less for each that lay above
                // the one left out, half a rank less for each tied with it.
                a.clear();
                b.clear();
                for j in (0..x.len()).filter(|&j| j != i) {
                    a.push(rx[j] - shift(x[i], x[j]));
                    b.push(ry[j] - shift(y[i], y[j]));
                }
                out.push(pearson(&a, &b).ok());
            }
            Ok(out)
        }
    }
}

/// What [`leave_one_out`] costs for `n` pairs, in steps: n per pair for Spearman (each pair left
/// out ranks the others anew), one per pair for Pearson (sums updated).
pub fn loo_work(method: Method, n: usize) -> usize {
    match method {
        Method::Pearson => n,
        Method::Spearman => n * n,
    }
}

/// How far `other`'s average rank falls when `left_out` leaves the series.
fn shift(left_out: f64, other: f64) -> f64 {
    if left_out < other {
        1.0
    } else if left_out == other {
        0.5
    } else {
        0.0
    }
}

/// The series as the method correlates them: scaled values for Pearson, ranks for Spearman.
fn prepared(method: Method, x: &[f64], y: &[f64]) -> Result<(Vec<f64>, Vec<f64>), NoCorrelation> {
    match method {
        Method::Pearson => Ok((scaled(x)?, scaled(y)?)),
        Method::Spearman => {
            finite(x)?;
            finite(y)?;
            Ok((ranks(x), ranks(y)))
        }
    }
}

fn finite(values: &[f64]) -> Result<(), NoCorrelation> {
    if values.iter().all(|v| v.is_finite()) {
        Ok(())
    } else {
        Err(NoCorrelation::NotComputable(
            "a value is not a finite number",
        ))
    }
}

/// The values divided by the largest magnitude among them, so that no sum of squares can
/// overflow (nor underflow for tiny figures). r does not change with the scale.
fn scaled(values: &[f64]) -> Result<Vec<f64>, NoCorrelation> {
    finite(values)?;
    let largest = values.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
    if largest == 0.0 {
        return Ok(values.to_vec());
    }
    Ok(values.iter().map(|v| v / largest).collect())
}

/// Pearson's r as scipy computes it (centred, then normalised, then clipped to [−1, 1]):
/// `Constant` when either series is, `NotComputable` when a sum is not finite.
fn pearson(x: &[f64], y: &[f64]) -> Result<f64, NoCorrelation> {
    let n = x.len() as f64;
    let mean_x = x.iter().sum::<f64>() / n;
    let mean_y = y.iter().sum::<f64>() / n;
    let norm = |v: &[f64], mean: f64| v.iter().map(|a| (a - mean).powi(2)).sum::<f64>().sqrt();
    let (norm_x, norm_y) = (norm(x, mean_x), norm(y, mean_y));
    if !(norm_x.is_finite() && norm_y.is_finite() && mean_x.is_finite() && mean_y.is_finite()) {
        return Err(NoCorrelation::NotComputable(
            "a sum of the values is not a finite number",
        ));
    }
    if norm_x == 0.0 || norm_y == 0.0 {
        return Err(NoCorrelation::Constant);
    }
    let r = x
        .iter()
        .zip(y)
        .map(|(a, b)| ((a - mean_x) / norm_x) * ((b - mean_y) / norm_y))
        .sum::<f64>();
    if !r.is_finite() {
        return Err(NoCorrelation::NotComputable("r is not a finite number"));
    }
    Ok(r.clamp(-1.0, 1.0))
}

/// r without each pair in turn, from the centred sums of all pairs less the pair's own terms.
fn pearson_without_each(x: &[f64], y: &[f64]) -> Vec<Option<f64>> {
    let n = x.len() as f64;
    let (mean_x, mean_y) = (x.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
    let a: Vec<f64> = x.iter().map(|v| v - mean_x).collect();
    let b: Vec<f64> = y.iter().map(|v| v - mean_y).collect();
    let (sa, sb) = (a.iter().sum::<f64>(), b.iter().sum::<f64>());
    let saa: f64 = a.iter().map(|v| v * v).sum();
    let sbb: f64 = b.iter().map(|v| v * v).sum();
    let sab: f64 = a.iter().zip(&b).map(|(p, q)| p * q).sum();
    let m = n - 1.0;
    a.iter()
        .zip(&b)
        .map(|(ai, bi)| {
            let (sa, sb) = (sa - ai, sb - bi);
            let vxx = saa - ai * ai - sa * sa / m;
            let vyy = sbb - bi * bi - sb * sb / m;
            let vxy = sab - ai * bi - sa * sb / m;
            // A rest that is constant (up to rounding) has no r.
            let tiny = 1e-12 * saa.max(f64::MIN_POSITIVE);
            let tiny_y = 1e-12 * sbb.max(f64::MIN_POSITIVE);
            (vxx > tiny && vyy > tiny_y)
                .then(|| (vxy / (vxx.sqrt() * vyy.sqrt())).clamp(-1.0, 1.0))
                .filter(|r| r.is_finite())
        })
        .collect()
}

/// Ranks from 1, ties sharing the average of the ranks they span (scipy's `rankdata`
/// `method="average"`).
fn ranks(values: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let mut ranks = vec![0.0; values.len()];
    let mut start = 0;
    while start < order.len() {
        let mut end = start + 1;
        while end < order.len() && values[order[end]] == values[order[start]] {
            end += 1;
        }
        // Positions start..end hold ranks start+1..=end.
        let rank = (start + 1 + end) as f64 / 2.0;
        for &i in &order[start..end] {
            ranks[i] = rank;
        }
        start = end;
    }
    ranks
}

/// I_x(a, b), by the continued fraction of Numerical Recipes (§6.4), evaluated with the
/// modified Lentz method on whichever side converges fast.
fn regularized_incomplete_beta(a: f64, b: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let front =
        (ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln()).exp();
    if x < (a + 1.0) / (a + b + 2.0) {
        front * beta_continued_fraction(a, b, x) / a
    } else {
        1.0 - front * beta_continued_fraction(b, a, 1.0 - x) / b
    }
}

fn beta_continued_fraction(a: f64, b: f64, x: f64) -> f64 {
    const TINY: f64 = 1e-300;
    const EPSILON: f64 = 1e-16;
    let guard = |v: f64| if v.abs() < TINY { TINY } else { v };
    let mut c = 1.0;
    let mut d = 1.0 / guard(1.0 - (a + b) * x / (a + 1.0));
    let mut h = d;
    for m in 1..=10_000 {
        let m = f64::from(m);
        let even = m * (b - m) * x / ((a + 2.0 * m - 1.0) * (a + 2.0 * m));
        d = 1.0 / guard(1.0 + even * d);
        c = guard(1.0 + even / c);
        h *= d * c;
        let odd = -(a + m) * (a + b + m) * x / ((a + 2.0 * m) * (a + 2.0 * m + 1.0));
        d = 1.0 / guard(1.0 + odd * d);
        c = guard(1.0 + odd / c);
        let step = d * c;
        h *= step;
        if (step - 1.0).abs() < EPSILON {
            break;
        }
    }
    h
}

/// ln Γ(x) for x > 0: the Lanczos approximation (g = 7, 9 terms), good to about 15 digits.
fn ln_gamma(x: f64) -> f64 {
    const G: f64 = 7.0;
    const COEFFICIENTS: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Reflection: Γ(x)·Γ(1−x) = π / sin(πx).
        return (std::f64::consts::PI / (std::f64::consts::PI * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut sum = COEFFICIENTS[0];
    for (i, c) in COEFFICIENTS.iter().enumerate().skip(1) {
        sum += c / (x + i as f64);
    }
    let t = x + G + 0.5;
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + sum.ln()
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    use super::*;

    #[derive(Deserialize)]
    struct Fixture {
        name: String,
        method: String,
        transform: String,
        x: Vec<f64>,
        y: Vec<f64>,
        r: f64,
        p_value: f64,
        ci95: Option<[f64; 2]>,
        leave_one_out: Option<Vec<Option<f64>>>,
    }

    fn close(got: f64, want: f64, tolerance: f64, what: &str) {
        assert!(
            (got - want).abs() <= tolerance,
            "{what}: {got} against scipy's {want}"
        );
    }

    /// Every case of `scipy_results.json`, made by `make_fixtures.py` with scipy: r to 1e-9,
    /// p to 1e-6, both methods' intervals and every leave-one-out r to 1e-9, after the
    /// case's transform.
    #[test]
    fn agrees_with_scipy() {
        let fixtures: Vec<Fixture> = serde_json::from_str(include_str!(
            "../../tests/fixtures/correlations/scipy_results.json"
        ))
        .unwrap();
        let (mut intervals, mut left_out, mut logged) = (0, 0, 0);
        for f in &fixtures {
            let method = Method::parse(&f.method).unwrap();
            let transform = Transform::parse(&f.transform).unwrap();
            let apply = |v: &[f64]| -> Vec<f64> {
                v.iter().map(|v| transform.apply(*v).unwrap()).collect()
            };
            let (x, y) = (apply(&f.x), apply(&f.y));
            logged += usize::from(transform == Transform::Log);
            let got = correlate(method, &x, &y).unwrap();
            close(got.r, f.r, 1e-9, &format!("{} {}: r", f.name, f.method));
            close(got.p_value, f.p_value, 1e-6, &format!("{}: p", f.name));
            // Intervals from 4 points on, for both methods.
            assert_eq!(got.ci95.is_some(), f.x.len() > 3, "{}", f.name);
            assert_eq!(f.ci95.is_some(), f.x.len() > 3, "{}", f.name);
            if let (Some(want), Some(got)) = (f.ci95, got.ci95) {
                intervals += 1;
                for (w, g) in want.iter().zip(got) {
                    close(g, *w, 1e-9, &format!("{} {}: interval", f.name, f.method));
                }
            }
            if let Some(want) = &f.leave_one_out {
                let got = leave_one_out(method, &x, &y).unwrap();
                assert_eq!(got.len(), want.len(), "{}", f.name);
                for (i, (g, w)) in got.iter().zip(want).enumerate() {
                    left_out += 1;
                    match (g, w) {
                        (Some(g), Some(w)) => close(
                            *g,
                            *w,
                            1e-9,
                            &format!("{} {} without {i}", f.name, f.method),
                        ),
                        (g, w) => assert_eq!(g, w, "{} {} without {i}", f.name, f.method),
                    }
                }
            }
        }
        // What was compared, so that an emptied fixture cannot pass.
        assert_eq!(fixtures.len(), 38);
        assert_eq!(intervals, 36);
        assert!(left_out > 1500, "{left_out} leave-one-out values");
        assert_eq!(logged, 6);
    }

    #[test]
    fn values_near_the_largest_double_give_the_right_r_or_none() {
        let x: Vec<f64> = (1..=10).map(|i| f64::from(i) * 1e300).collect();
        let y: Vec<f64> = (1..=10).map(|i| f64::from(i * i) * 1e299).collect();
        let huge = correlate(Method::Pearson, &x, &y).unwrap();
        let small: Vec<f64> = (1..=10).map(f64::from).collect();
        let squares: Vec<f64> = (1..=10).map(|i| f64::from(i * i)).collect();
        let plain = correlate(Method::Pearson, &small, &squares).unwrap();
        close(huge.r, plain.r, 1e-12, "r at 1e300");
        assert!(huge.r > 0.9, "{huge:?}");
        // Unscaled, the sums of squares overflow: r came out 0 with a p-value of 1.
        let mut infinite = x.clone();
        infinite[3] = f64::INFINITY;
        for method in [Method::Pearson, Method::Spearman] {
            assert!(matches!(
                correlate(method, &infinite, &y),
                Err(NoCorrelation::NotComputable(_))
            ));
        }
        let mut nan = y.clone();
        nan[0] = f64::NAN;
        assert!(matches!(
            correlate(Method::Pearson, &x, &nan),
            Err(NoCorrelation::NotComputable(_))
        ));
    }

    #[test]
    fn the_log_transform_refuses_values_at_or_below_zero() {
        assert_eq!(Transform::Log.apply(std::f64::consts::E), Ok(1.0));
        assert_eq!(Transform::Log.apply(0.0), Err("non_positive"));
        assert_eq!(Transform::Log.apply(-3.0), Err("non_positive"));
        assert_eq!(Transform::None.apply(-3.0), Ok(-3.0));
    }

    #[test]
    fn leaving_out_one_of_a_constant_rest_gives_no_r() {
        let x = [1.0, 1.0, 1.0, 5.0];
        let y = [2.0, 3.0, 1.0, 4.0];
        for method in [Method::Pearson, Method::Spearman] {
            let got = leave_one_out(method, &x, &y).unwrap();
            assert_eq!(got[3], None, "{method:?}: the rest is constant");
            assert!(got[..3].iter().all(Option::is_some), "{method:?}: {got:?}");
        }
    }

    #[test]
    fn ties_share_their_average_rank() {
        assert_eq!(ranks(&[10.0, 20.0, 10.0, 5.0]), vec![2.5, 4.0, 2.5, 1.0]);
    }

    #[test]
    fn constant_or_short_series_give_no_coefficient() {
        let c = correlate(Method::Pearson, &[1.0, 1.0, 1.0], &[1.0, 2.0, 3.0]);
        assert_eq!(c, Err(NoCorrelation::Constant));
        let short = correlate(Method::Spearman, &[1.0, 2.0], &[2.0, 1.0]);
        assert_eq!(short, Err(NoCorrelation::TooFew));
    }

    #[test]
    fn a_perfect_line_has_r_one_and_three_points_no_interval() {
        let c = correlate(Method::Pearson, &[1.0, 2.0, 3.0], &[2.0, 4.0, 6.0]).unwrap();
        assert!(1.0 - c.r < 1e-12 && c.p_value < 1e-6, "{c:?}");
        assert_eq!(c.ci95, None);
        let exact = correlate(
            Method::Spearman,
            &[1.0, 2.0, 3.0, 4.0],
            &[5.0, 6.0, 7.0, 9.0],
        );
        assert_eq!(exact.unwrap().p_value, 0.0);
    }

    #[test]
    fn ln_gamma_of_known_values() {
        assert!((ln_gamma(1.0)).abs() < 1e-14);
        assert!((ln_gamma(0.5) - std::f64::consts::PI.sqrt().ln()).abs() < 1e-14);
        assert!((ln_gamma(10.0) - 362_880f64.ln()).abs() < 1e-12);
    }
}
