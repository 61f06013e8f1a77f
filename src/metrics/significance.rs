//! Uncertainty of corpus means over a small benchmark: recipe-resampling bootstrap intervals,
//! the paired bootstrap test (Koehn 2004, with sacrebleu's centred statistic) and the paired
//! approximate-randomization test. Every random draw comes from one seeded generator, drawn in
//! a fixed order, so results depend on the seed only — never on the thread count or the
//! platform. `docs/compare.md` says where this differs from sacrebleu and why.

use super::corpus::exact_randomization_p;
use crate::random::SplitMix64;

/// The recipe indices of every bootstrap resample, drawn once and shared by all systems and
/// metrics so that the paired test resamples the same recipes on both sides.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resamples {
    /// One row per resample, each as long as the benchmark.
    pub rows: Vec<Vec<usize>>,
}

impl Resamples {
    /// `count` resamples of `recipes` recipes, drawn row by row from `seed`.
    pub fn draw(recipes: usize, count: usize, seed: u64) -> Self {
        let mut rng = SplitMix64::new(seed);
        let rows = (0..count)
            .map(|_| (0..recipes).map(|_| rng.below(recipes)).collect())
            .collect();
        Resamples { rows }
    }

    /// The mean of `scores` over each resample.
    fn means(&self, scores: &[f64]) -> Vec<f64> {
        self.rows.iter().map(|row| mean_at(scores, row)).collect()
    }
}

fn mean_at(scores: &[f64], row: &[usize]) -> f64 {
    if row.is_empty() {
        0.0
    } else {
        row.iter().map(|&i| scores[i]).sum::<f64>() / row.len() as f64
    }
}

/// A closed interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    pub low: f64,
    pub high: f64,
}

impl Interval {
    pub fn contains(&self, x: f64) -> bool {
        self.low <= x && x <= self.high
    }
}

/// The 95 % percentile interval of bootstrap statistics: after sorting, the values 1/40 of the
/// way in from either end (the same order statistics sacrebleu's `estimate_ci` takes).
fn percentile_95(mut values: Vec<f64>) -> Interval {
    if values.is_empty() {
        return Interval {
            low: 0.0,
            high: 0.0,
        };
    }
    values.sort_by(f64::total_cmp);
    let cut = values.len() / 40;
    Interval {
        low: values[cut],
        high: values[values.len() - cut - 1],
    }
}

/// The 95 % bootstrap confidence interval of the mean of per-recipe `scores` (NIL already 0).
pub fn bootstrap_interval(scores: &[f64], resamples: &Resamples) -> Interval {
    percentile_95(resamples.means(scores))
}

/// A system against a baseline under the paired bootstrap.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairedBootstrap {
    /// Observed mean difference, system − baseline.
    pub difference: f64,
    /// 95 % percentile interval of the resampled differences.
    pub interval: Interval,
    /// Two-sided p-value of "no difference".
    pub p: f64,
}

/// Paired bootstrap over the shared `resamples`. The p-value is Koehn's test with sacrebleu's
/// shape — resampled statistics shifted into a world where the null hypothesis holds, compared
/// with the observed absolute difference, (count + 1) / (N + 1) — with two deliberate changes:
/// the resampled *differences* are centred before taking their absolute value (sacrebleu
/// centres the absolute values, which rejects about 15 % of exchangeable pairs at the 5 % level
/// on 30 recipes, see the calibration test), and resamples *at least* as extreme count
/// (sacrebleu counts strictly greater), so two identical systems get p = 1, not 1/(N+1).
pub fn paired_bootstrap(
    system: &[f64],
    baseline: &[f64],
    resamples: &Resamples,
) -> PairedBootstrap {
    let diffs: Vec<f64> = system.iter().zip(baseline).map(|(s, b)| s - b).collect();
    let observed = mean_at(&diffs, &(0..diffs.len()).collect::<Vec<_>>());
    let sampled = resamples.means(&diffs);
    let centre = sampled.iter().sum::<f64>() / sampled.len().max(1) as f64;
    let threshold = observed.abs() - tolerance(observed);
    let extreme = sampled
        .iter()
        .filter(|d| (*d - centre).abs() >= threshold)
        .count();
    PairedBootstrap {
        difference: observed,
        interval: percentile_95(sampled.clone()),
        p: (extreme + 1) as f64 / (sampled.len() + 1) as f64,
    }
}

/// Rounding slack so that a statistic equal to the observed one up to summation order counts
/// as "at least as extreme".
fn tolerance(observed: f64) -> f64 {
    1e-12 * (1.0 + observed.abs())
}

/// Two-sided paired approximate-randomization p-value of the mean difference: each trial swaps
/// the two systems' scores on a random subset of recipes. When all 2^n swaps number at most
/// `trials`, they are enumerated exactly instead of sampled.
pub fn paired_randomization_p(system: &[f64], baseline: &[f64], trials: usize, seed: u64) -> f64 {
    let diffs: Vec<f64> = system.iter().zip(baseline).map(|(s, b)| s - b).collect();
    if diffs.len() < usize::BITS as usize - 1
        && (1usize << diffs.len()) <= trials
        && let Some(p) = exact_randomization_p(system, baseline)
    {
        return p;
    }
    let observed = diffs.iter().sum::<f64>().abs();
    let threshold = observed - tolerance(observed);
    let mut rng = SplitMix64::new(seed);
    let mut extreme = 0usize;
    for _ in 0..trials {
        let mut sum = 0.0;
        for chunk in diffs.chunks(64) {
            let signs = rng.next_u64();
            for (i, d) in chunk.iter().enumerate() {
                sum += if signs >> i & 1 == 1 { -d } else { *d };
            }
        }
        if sum.abs() >= threshold {
            extreme += 1;
        }
    }
    (extreme + 1) as f64 / (trials + 1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A synthetic per-recipe score in [0, 1]: the mean of two uniforms (triangular, mean 0.5,
    /// standard deviation sqrt(1/24)), a shape like the benchmark's partial scores.
    fn score(rng: &mut SplitMix64) -> f64 {
        (rng.unit() + rng.unit()) / 2.0
    }

    const SD: f64 = 0.204_124_145_231_931_5; // sqrt(1/24)

    fn sample(rng: &mut SplitMix64, n: usize, shift: f64) -> Vec<f64> {
        (0..n).map(|_| score(rng) + shift).collect()
    }

    #[test]
    fn same_seed_draws_the_same_resamples_and_different_seeds_do_not() {
        assert_eq!(Resamples::draw(30, 50, 7), Resamples::draw(30, 50, 7));
        assert_ne!(Resamples::draw(30, 50, 7), Resamples::draw(30, 50, 8));
        assert!(
            Resamples::draw(30, 50, 7)
                .rows
                .iter()
                .all(|r| r.len() == 30 && r.iter().all(|&i| i < 30))
        );
    }

    #[test]
    fn identical_systems_differ_by_zero_with_both_p_values_one() {
        let mut rng = SplitMix64::new(1);
        let s = sample(&mut rng, 30, 0.0);
        let paired = paired_bootstrap(&s, &s, &Resamples::draw(30, 1000, 3));
        assert_eq!(paired.difference, 0.0);
        assert_eq!(paired.p, 1.0);
        assert_eq!(
            paired.interval,
            Interval {
                low: 0.0,
                high: 0.0
            }
        );
        assert_eq!(paired_randomization_p(&s, &s, 10_000, 3), 1.0);
    }

    #[test]
    fn randomization_with_three_recipes_is_the_exact_permutation_p() {
        // Differences 0.5, -0.25, 1: observed sum 1.25. The 8 sign assignments give sums
        // ±1.25, ±(0.5+0.25+1)=±1.75, ±(0.5-0.25-1)=∓0.75, ±(-0.5-0.25+1)=±0.25; those with
        // |sum| ≥ 1.25 are ±1.25 and ±1.75: 4 of 8.
        let system = [0.75, 0.25, 1.0];
        let baseline = [0.25, 0.5, 0.0];
        assert_eq!(paired_randomization_p(&system, &baseline, 10_000, 9), 0.5);
        // With fewer trials than 2^3 assignments it samples: (extreme + 1) / (trials + 1).
        let sampled = paired_randomization_p(&system, &baseline, 7, 9);
        assert!((1..=8).any(|k| sampled == k as f64 / 8.0), "{sampled}");
    }

    #[test]
    fn bootstrap_interval_covers_the_true_mean_about_95_percent_of_the_time() {
        let mut rng = SplitMix64::new(2024);
        let resamples = Resamples::draw(30, 1000, 11);
        let covered = (0..400)
            .filter(|_| bootstrap_interval(&sample(&mut rng, 30, 0.0), &resamples).contains(0.5))
            .count();
        let rate = covered as f64 / 400.0;
        assert!((0.90..=0.98).contains(&rate), "coverage {rate}");
    }

    /// Fraction of `pairs` system/baseline pairs, the system shifted by `shift`, where each test
    /// rejects at 5 %. Recipes share a difficulty so the pairing matters, as on the benchmark.
    fn rejection_rates(pairs: usize, shift: f64, seed: u64) -> (f64, f64) {
        let mut rng = SplitMix64::new(seed);
        let resamples = Resamples::draw(30, 1000, seed ^ 1);
        let (mut bootstrap, mut randomization) = (0, 0);
        for pair in 0..pairs {
            let difficulty = sample(&mut rng, 30, 0.0);
            let baseline: Vec<f64> = difficulty.iter().map(|d| d + score(&mut rng)).collect();
            let system: Vec<f64> = difficulty
                .iter()
                .map(|d| d + score(&mut rng) + shift)
                .collect();
            if paired_bootstrap(&system, &baseline, &resamples).p < 0.05 {
                bootstrap += 1;
            }
            if paired_randomization_p(&system, &baseline, 2000, pair as u64) < 0.05 {
                randomization += 1;
            }
        }
        (
            bootstrap as f64 / pairs as f64,
            randomization as f64 / pairs as f64,
        )
    }

    #[test]
    fn exchangeable_systems_are_rejected_at_about_the_nominal_rate() {
        let (bootstrap, randomization) = rejection_rates(400, 0.0, 5);
        assert!((0.02..=0.09).contains(&bootstrap), "bootstrap {bootstrap}");
        assert!(
            (0.02..=0.09).contains(&randomization),
            "randomization {randomization}"
        );
    }

    #[test]
    fn a_shift_of_one_standard_deviation_is_detected() {
        // The per-recipe difference has standard deviation SD·√2; a shift of one standard
        // deviation of that difference over 30 recipes is about 5.5 standard errors.
        let (bootstrap, randomization) = rejection_rates(400, SD * 2f64.sqrt(), 6);
        assert!(bootstrap >= 0.9, "bootstrap {bootstrap}");
        assert!(randomization >= 0.9, "randomization {randomization}");
    }
}
