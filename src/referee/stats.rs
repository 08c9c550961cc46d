//! Match statistics: score and Elo difference with a 95% interval, the
//! pentanomial counts of colour-swapped pairs, and the sequential probability
//! ratio test (SPRT) that stops a match once it has decided.
//!
//! Elo is logistic: a score fraction `s` is `-400 log10(1/s - 1)` Elo. The
//! interval is the normal approximation on the mean score, mapped to Elo.
//!
//! The SPRT is the generalised SPRT that fishtest runs (M. Van den Bergh,
//! "Comments on the generalized SPRT"): the log-likelihood ratio of the
//! observed pairs under the most likely outcome distributions whose expected
//! scores are those of `elo0` and `elo1`, stopped at `ln(beta / (1 - alpha))`
//! or `ln((1 - beta) / alpha)`. Its unit is a colour-swapped pair (mean score
//! 0, 1/4, 1/2, 3/4 or 1), which takes the opening's bias on both games into
//! account. Empty cells count as 0.001 pairs, as in fishtest, so that a
//! one-sided result still has a distribution to compare.

use std::fmt;
use std::str::FromStr;

/// The two-sided 95% quantile of the normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Count given to empty cells when computing an LLR, as fishtest does, so that
/// a one-sided result still has a variance.
const EMPTY_CELL: f64 = 1e-3;

/// The Elo difference of a score fraction (±infinity at 0 and 1).
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        // Adding zero turns the -0 of an even score into 0.
        -400.0 * (1.0 / score - 1.0).log10() + 0.0
    }
}

/// The expected score fraction of an Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An Elo difference with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// The estimate.
    pub elo: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
}

impl EloEstimate {
    /// The estimate from units scoring `values[i]` with frequency `counts[i]`.
    /// While every unit has scored the same there is no variance to measure,
    /// and the interval is left unbounded rather than shown as a point.
    fn from_distribution(values: &[f64], counts: &[f64]) -> Option<EloEstimate> {
        let (mean, variance, n) = moments(values, counts)?;
        let half = if variance > 0.0 {
            Z95 * (variance / n).sqrt()
        } else {
            f64::INFINITY
        };
        Some(EloEstimate {
            elo: elo_from_score(mean),
            low: elo_from_score(mean - half),
            high: elo_from_score(mean + half),
        })
    }

    /// Half the interval's width: the "±" figure (infinite at the extremes).
    pub fn margin(&self) -> f64 {
        if self.low.is_finite() && self.high.is_finite() {
            (self.high - self.low) / 2.0
        } else {
            f64::INFINITY
        }
    }
}

impl fmt::Display for EloEstimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ± {}", signed(self.elo), unsigned(self.margin()))?;
        write!(f, " [{}, {}]", signed(self.low), signed(self.high))
    }
}

fn signed(x: f64) -> String {
    if x.is_infinite() {
        if x > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        format!("{x:+.1}")
    }
}

fn unsigned(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.1}")
    } else {
        "inf".to_string()
    }
}

/// Mean, variance and total count of a distribution; `None` when it is empty.
fn moments(values: &[f64], counts: &[f64]) -> Option<(f64, f64, f64)> {
    let n: f64 = counts.iter().sum();
    if n <= 0.0 {
        return None;
    }
    let mean = values.iter().zip(counts).map(|(x, c)| x * c).sum::<f64>() / n;
    let variance = values
        .iter()
        .zip(counts)
        .map(|(x, c)| c * (x - mean).powi(2))
        .sum::<f64>()
        / n;
    Some((mean, variance, n))
}

/// Wins, draws and losses of one side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

impl Wdl {
    /// Counts a game with `points` (1, 0.5 or 0).
    pub fn add(&mut self, points: f64) {
        if points > 0.75 {
            self.wins += 1;
        } else if points > 0.25 {
            self.draws += 1;
        } else {
            self.losses += 1;
        }
    }

    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points: a win is 1, a draw 1/2.
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.draws) / 2.0
    }

    /// The score fraction, if any game was played.
    pub fn score(&self) -> Option<f64> {
        (self.games() > 0).then(|| self.points() / f64::from(self.games()))
    }

    /// The Elo difference with its interval, each game an independent trial.
    pub fn elo(&self) -> Option<EloEstimate> {
        EloEstimate::from_distribution(&[1.0, 0.5, 0.0], &self.cells())
    }

    fn cells(&self) -> [f64; 3] {
        [
            f64::from(self.wins),
            f64::from(self.draws),
            f64::from(self.losses),
        ]
    }
}

/// Pairs of games from one opening with colours swapped, counted by the
/// points the first engine made in the pair: 0, 1/2, 1, 3/2 or 2 (a win and a
/// loss count as 1, like two draws).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u32; 5]);

impl Pentanomial {
    /// Counts a pair in which the first engine made `points` (0 to 2).
    pub fn add(&mut self, points: f64) {
        let cell = (points * 2.0).round().clamp(0.0, 4.0) as usize;
        self.0[cell] += 1;
    }

    /// Pairs counted.
    pub fn pairs(&self) -> u32 {
        self.0.iter().sum()
    }

    /// The Elo difference with its interval, each pair an independent trial.
    pub fn elo(&self) -> Option<EloEstimate> {
        EloEstimate::from_distribution(&Self::VALUES, &self.cells(0.0))
    }

    /// Mean score of a pair in each cell.
    const VALUES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

    fn cells(&self, empty: f64) -> [f64; 5] {
        self.0.map(|c| if c == 0 { empty } else { f64::from(c) })
    }
}

/// The hypotheses and error rates of an SPRT.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo difference of the null hypothesis.
    pub elo0: f64,
    /// Elo difference of the alternative hypothesis.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
}

/// Where an SPRT stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtState {
    /// Not decided yet.
    Continue,
    /// The LLR fell to the lower bound: the difference is about `elo0`.
    AcceptH0,
    /// The LLR rose to the upper bound: the difference is about `elo1`.
    AcceptH1,
}

impl fmt::Display for SprtState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SprtState::Continue => "continue",
            SprtState::AcceptH0 => "H0 accepted",
            SprtState::AcceptH1 => "H1 accepted",
        })
    }
}

impl Sprt {
    /// The lower and upper bounds of the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of the pairs of a match (0 without pairs).
    pub fn llr(&self, pairs: &Pentanomial) -> f64 {
        if pairs.pairs() == 0 {
            return 0.0;
        }
        let counts = pairs.cells(EMPTY_CELL);
        let n: f64 = counts.iter().sum();
        let observed = counts.map(|c| c / n);
        let values = Pentanomial::VALUES;
        let h0 = most_likely_with_mean(&values, &observed, score_from_elo(self.elo0));
        let h1 = most_likely_with_mean(&values, &observed, score_from_elo(self.elo1));
        n * observed
            .iter()
            .zip(h0.iter().zip(&h1))
            .map(|(p, (q0, q1))| p * (q1 / q0).ln())
            .sum::<f64>()
    }

    /// The decision an LLR gives.
    pub fn state(&self, llr: f64) -> SprtState {
        let (lower, upper) = self.bounds();
        if llr <= lower {
            SprtState::AcceptH0
        } else if llr >= upper {
            SprtState::AcceptH1
        } else {
            SprtState::Continue
        }
    }
}

/// The distribution over `values` closest (by likelihood) to the observed
/// frequencies `observed` among those with expected value `mean`: it is
/// `observed[i] / (1 + l (values[i] - mean))` for the `l` that gives that mean,
/// found by bisection (the mean is strictly between the smallest and largest
/// value, so `l` lies in an open interval where every denominator is positive).
fn most_likely_with_mean(values: &[f64; 5], observed: &[f64; 5], mean: f64) -> [f64; 5] {
    let moment = |l: f64| -> f64 {
        values
            .iter()
            .zip(observed)
            .map(|(x, p)| p * (x - mean) / (1.0 + l * (x - mean)))
            .sum()
    };
    let (smallest, largest) = (values[0], values[4]);
    let mut low = -1.0 / (largest - mean);
    let mut high = 1.0 / (mean - smallest);
    // The moment falls from +infinity to -infinity over the interval.
    for _ in 0..200 {
        let middle = (low + high) / 2.0;
        if moment(middle) > 0.0 {
            low = middle;
        } else {
            high = middle;
        }
    }
    let l = (low + high) / 2.0;
    std::array::from_fn(|i| observed[i] / (1.0 + l * (values[i] - mean)))
}

/// What is wrong with an SPRT setting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SprtError {
    /// A field without `=`.
    NotKeyValue(String),
    /// A field whose value is not a finite number.
    NotANumber(String),
    /// A key that is not elo0, elo1, alpha or beta.
    UnknownField(String),
    /// elo0 or elo1 is not given.
    MissingElo,
    /// elo1 is not above elo0.
    ElosOutOfOrder,
    /// alpha or beta is not strictly between 0 and 0.5.
    BadErrorRate,
}

impl fmt::Display for SprtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SprtError::NotKeyValue(field) => write!(f, "'{field}' is not KEY=VALUE"),
            SprtError::NotANumber(field) => write!(f, "'{field}': not a number"),
            SprtError::UnknownField(key) => write!(
                f,
                "unknown SPRT field '{key}' (expected elo0, elo1, alpha, beta)"
            ),
            SprtError::MissingElo => f.write_str("the SPRT needs elo0 and elo1"),
            SprtError::ElosOutOfOrder => f.write_str("elo1 must be greater than elo0"),
            SprtError::BadErrorRate => f.write_str("alpha and beta must be between 0 and 0.5"),
        }
    }
}

impl std::error::Error for SprtError {}

impl FromStr for Sprt {
    type Err = SprtError;

    /// `elo0=0,elo1=10,alpha=0.05,beta=0.05`; alpha and beta default to 0.05.
    fn from_str(s: &str) -> Result<Sprt, SprtError> {
        let mut sprt = Sprt {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
        };
        for field in s.split(',').map(str::trim).filter(|f| !f.is_empty()) {
            let (key, value) = field
                .split_once('=')
                .ok_or_else(|| SprtError::NotKeyValue(field.to_string()))?;
            let value: f64 = value
                .trim()
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(|| SprtError::NotANumber(field.to_string()))?;
            match key.trim() {
                "elo0" => sprt.elo0 = value,
                "elo1" => sprt.elo1 = value,
                "alpha" => sprt.alpha = value,
                "beta" => sprt.beta = value,
                other => return Err(SprtError::UnknownField(other.to_string())),
            }
        }
        if sprt.elo0.is_nan() || sprt.elo1.is_nan() {
            return Err(SprtError::MissingElo);
        }
        if sprt.elo1 <= sprt.elo0 {
            return Err(SprtError::ElosOutOfOrder);
        }
        for p in [sprt.alpha, sprt.beta] {
            if !(p > 0.0 && p < 0.5) {
                return Err(SprtError::BadErrorRate);
            }
        }
        Ok(sprt)
    }
}

impl fmt::Display for Sprt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "elo0={} elo1={} alpha={} beta={}",
            self.elo0, self.elo1, self.alpha, self.beta
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn elo_and_score_are_inverse() {
        assert_eq!(elo_from_score(0.5), 0.0);
        // 3:1 odds are 400 log10(3) = 190.85 Elo.
        assert!(close(elo_from_score(0.75), 190.848_501_887, 1e-6));
        assert!(close(score_from_elo(190.848_501_887), 0.75, 1e-9));
        assert!(close(score_from_elo(10.0), 0.514_387_184, 1e-9));
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn trinomial_interval() {
        // 60 wins, 20 draws, 20 losses: score 0.7, per-game variance 0.16,
        // standard error 0.04, so 0.7 ± 1.96 * 0.04.
        let wdl = Wdl {
            wins: 60,
            draws: 20,
            losses: 20,
        };
        assert_eq!(wdl.score(), Some(0.7));
        let e = wdl.elo().unwrap();
        assert!(close(e.elo, 147.190_714, 1e-5), "{e:?}");
        assert!(close(e.low, 86.225_015, 1e-5), "{e:?}");
        assert!(close(e.high, 218.251_778, 1e-5), "{e:?}");
        assert_eq!(e.to_string(), "+147.2 ± 66.0 [+86.2, +218.3]");
        assert_eq!(Wdl::default().elo(), None);
        let perfect = Wdl {
            wins: 4,
            draws: 0,
            losses: 0,
        }
        .elo()
        .unwrap();
        assert_eq!(perfect.to_string(), "+inf ± inf [-inf, +inf]");
        let even = Pentanomial([0, 0, 3, 0, 0]).elo().unwrap();
        assert_eq!(even.to_string(), "+0.0 ± inf [-inf, +inf]");
    }

    #[test]
    fn pentanomial_counts_and_interval() {
        let mut p = Pentanomial::default();
        for points in [0.0, 0.5, 1.0, 1.0, 1.5, 2.0] {
            p.add(points);
        }
        assert_eq!(p, Pentanomial([1, 1, 2, 1, 1]));
        assert_eq!(p.pairs(), 6);
        // [2, 8, 20, 14, 6]: mean pair score 0.57, variance 0.0626.
        let e = Pentanomial([2, 8, 20, 14, 6]).elo().unwrap();
        assert!(close(e.elo, 48.962_560, 1e-5), "{e:?}");
        assert!(close(e.low, 0.451_246, 1e-5), "{e:?}");
        assert!(close(e.high, 99.461_549, 1e-5), "{e:?}");
    }

    #[test]
    fn sprt_log_likelihood_ratio() {
        let sprt: Sprt = "elo0=0,elo1=10,alpha=0.05,beta=0.05".parse().unwrap();
        let (lower, upper) = sprt.bounds();
        assert!(close(lower, -2.944_438_979, 1e-9));
        assert!(close(upper, 2.944_438_979, 1e-9));
        // Reference values from an independent bisection of the same
        // likelihood problem. For balanced data the GSPRT is close to its
        // normal approximation N (s1 - s0)(2m - s0 - s1) / (2 var): here 50
        // pairs with mean 0.5 and variance 0.075 give -0.0690 that way.
        let llr = sprt.llr(&Pentanomial([5, 10, 20, 10, 5]));
        assert!(close(llr, -0.068_949_611, 1e-8), "{llr}");
        // Mean 0.57, variance 0.0626: 0.7217 by the normal approximation.
        let llr = sprt.llr(&Pentanomial([2, 8, 20, 14, 6]));
        assert!(close(llr, 0.674_226_956, 1e-8), "{llr}");
        assert_eq!(sprt.state(llr), SprtState::Continue);
        assert_eq!(sprt.state(3.0), SprtState::AcceptH1);
        assert_eq!(sprt.state(-3.0), SprtState::AcceptH0);
        assert_eq!(sprt.llr(&Pentanomial::default()), 0.0);
        // One-sided results: empty cells count as 0.001 pairs. One pair won
        // twice is weak evidence even for 400 Elo; five decide.
        let wide: Sprt = "elo0=0,elo1=400".parse().unwrap();
        let one = wide.llr(&Pentanomial([0, 0, 0, 0, 1]));
        assert!(close(one, 0.597_886_461, 1e-8), "{one}");
        let five = wide.llr(&Pentanomial([0, 0, 0, 0, 5]));
        assert!(close(five, 2.989_265_954, 1e-8), "{five}");
        assert_eq!(wide.state(five), SprtState::AcceptH1);
        let lost = wide.llr(&Pentanomial([6, 0, 0, 0, 0]));
        assert_eq!(wide.state(lost), SprtState::AcceptH0);
        // Symmetric results sit exactly between symmetric hypotheses.
        let even: Sprt = "elo0=-5,elo1=5".parse().unwrap();
        assert!(close(
            even.llr(&Pentanomial([10, 0, 30, 0, 10])),
            0.0,
            1e-12
        ));
    }

    #[test]
    fn sprt_specs() {
        let s: Sprt = "elo0=-5, elo1=5".parse().unwrap();
        assert_eq!((s.alpha, s.beta), (0.05, 0.05));
        for (bad, message) in [
            ("elo0=0", "the SPRT needs elo0 and elo1"),
            ("elo0=5,elo1=0", "elo1 must be greater than elo0"),
            (
                "elo0=0,elo1=5,alpha=0.7",
                "alpha and beta must be between 0 and 0.5",
            ),
            (
                "x=1",
                "unknown SPRT field 'x' (expected elo0, elo1, alpha, beta)",
            ),
            ("elo0", "'elo0' is not KEY=VALUE"),
            ("elo0=a,elo1=1", "'elo0=a': not a number"),
        ] {
            let err = bad.parse::<Sprt>().unwrap_err();
            assert_eq!(err.to_string(), message, "{bad}");
        }
    }
}
