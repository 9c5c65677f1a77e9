//! Correlation coefficients with their two-sided p-values and 95 % confidence intervals, computed
//! as `scipy.stats.pearsonr` and `scipy.stats.spearmanr` compute them (the fixtures in
//! `tests/fixtures/correlations/` hold scipy's results on the same inputs).

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
    let r = match method {
        Method::Pearson => pearson(x, y),
        Method::Spearman => pearson(&ranks(x), &ranks(y)),
    }
    .ok_or(NoCorrelation::Constant)?;
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
    Ok(Correlation { r, p_value, ci95 })
}

/// Pearson's r as scipy computes it (centred, then normalised, then clipped to [−1, 1]); None
/// when either series is constant.
fn pearson(x: &[f64], y: &[f64]) -> Option<f64> {
    let n = x.len() as f64;
    let mean_x = x.iter().sum::<f64>() / n;
    let mean_y = y.iter().sum::<f64>() / n;
    let norm = |v: &[f64], mean: f64| v.iter().map(|a| (a - mean).powi(2)).sum::<f64>().sqrt();
    let (norm_x, norm_y) = (norm(x, mean_x), norm(y, mean_y));
    if norm_x == 0.0 || norm_y == 0.0 {
        return None;
    }
    let r = x
        .iter()
        .zip(y)
        .map(|(a, b)| ((a - mean_x) / norm_x) * ((b - mean_y) / norm_y))
        .sum::<f64>();
    Some(r.clamp(-1.0, 1.0))
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
        x: Vec<f64>,
        y: Vec<f64>,
        r: f64,
        p_value: f64,
        ci95: Option<[f64; 2]>,
    }

    /// Every case of `scipy_results.json`, made by `make_fixtures.py` with scipy: r to 1e-9,
    /// p to 1e-6, the Pearson interval to 1e-9.
    #[test]
    fn agrees_with_scipy() {
        let fixtures: Vec<Fixture> = serde_json::from_str(include_str!(
            "../../tests/fixtures/correlations/scipy_results.json"
        ))
        .unwrap();
        assert!(fixtures.len() >= 10, "the fixture file holds the cases");
        for f in &fixtures {
            let method = Method::parse(&f.method).unwrap();
            let got = correlate(method, &f.x, &f.y).unwrap();
            assert!(
                (got.r - f.r).abs() <= 1e-9,
                "{}: r {} vs {}",
                f.name,
                got.r,
                f.r
            );
            assert!(
                (got.p_value - f.p_value).abs() <= 1e-6,
                "{}: p {} vs {}",
                f.name,
                got.p_value,
                f.p_value
            );
            // scipy gives Pearson intervals from 4 points on; so must we.
            assert_eq!(
                f.ci95.is_some(),
                f.method == "pearson" && f.x.len() > 3,
                "{}",
                f.name
            );
            if f.method == "pearson" {
                assert_eq!(got.ci95.is_some(), f.ci95.is_some(), "{}: interval", f.name);
            }
            if let (Some(want), Some(got)) = (f.ci95, got.ci95) {
                for (w, g) in want.iter().zip(got) {
                    assert!((w - g).abs() <= 1e-9, "{}: ci {g} vs {w}", f.name);
                }
            }
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
