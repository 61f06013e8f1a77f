//! Uncertainty of corpus means over a small benchmark: recipe-resampling bootstrap intervals,
//! the paired bootstrap test (Koehn 2004; sacrebleu's `paired_bs`, centred on the observed
//! difference) and the paired randomization test (exact over every sign assignment when at
//! most [`MAX_EXACT_DIFFERING`] recipes differ, sampled beyond). Every random draw comes from
//! one seeded generator, drawn in a fixed order, so results depend on the seed only — never on
//! the thread count or the platform. `docs/compare.md` says where this differs from sacrebleu
//! and why.

use crate::base::random::SplitMix64;

/// The most bootstrap resamples or randomization trials a run may ask for: far more than a
/// p-value's second decimal needs (10,000 puts its standard error under 0.005), and few enough
/// that a typo such as 10^9 is refused instead of running for hours.
pub const MAX_DRAWS: usize = 1_000_000;

/// Fewer resamples or trials than this earn a warning: the 95 % interval's ends are then
/// order statistics of a few dozen values, and p moves by several hundredths with the seed.
pub const FEW_DRAWS: usize = 1_000;

/// The most differing recipes whose 2^n sign assignments the randomization test enumerates
/// (about a million sums, a few milliseconds); beyond, it samples.
pub const MAX_EXACT_DIFFERING: usize = 20;

/// A count of resamples or trials (`flag` names the option) outside 1..=[`MAX_DRAWS`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{flag} {count}: expected 1 to {MAX_DRAWS} (1,000 to 100,000 is plenty)")]
pub struct DrawsOutOfRange {
    pub flag: String,
    pub count: usize,
}

/// Refuse a count of resamples or trials (`flag` names the option) outside 1..=[`MAX_DRAWS`];
/// a warning for fewer than [`FEW_DRAWS`].
pub fn check_draws(flag: &str, count: usize) -> Result<Option<String>, DrawsOutOfRange> {
    if count == 0 || count > MAX_DRAWS {
        return Err(DrawsOutOfRange {
            flag: flag.to_owned(),
            count,
        });
    }
    Ok((count < FEW_DRAWS).then(|| {
        format!(
            "{flag} {count}: fewer than {FEW_DRAWS}; the 95 % interval and the p-values will move with the seed"
        )
    }))
}

/// The recipe indices of every bootstrap resample, shared by all systems and metrics so that
/// the paired test resamples the same recipes on both sides. Rows are drawn again from the seed
/// each time they are read, never stored: memory stays that of one row however many resamples.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resamples {
    recipes: usize,
    count: usize,
    seed: u64,
}

impl Resamples {
    /// `count` resamples of `recipes` recipes, drawn row by row from `seed`.
    pub fn draw(recipes: usize, count: usize, seed: u64) -> Self {
        Resamples {
            recipes,
            count,
            seed,
        }
    }

    /// Every row, in order: one index per recipe.
    pub fn rows(&self) -> impl Iterator<Item = Vec<usize>> + '_ {
        let mut rng = SplitMix64::new(self.seed);
        (0..self.count).map(move |_| (0..self.recipes).map(|_| rng.below(self.recipes)).collect())
    }

    /// The mean of `scores` over each resample.
    fn means(&self, scores: &[f64]) -> Vec<f64> {
        let mut rng = SplitMix64::new(self.seed);
        (0..self.count)
            .map(|_| {
                if self.recipes == 0 {
                    return 0.0;
                }
                let sum: f64 = (0..self.recipes)
                    .map(|_| scores[rng.below(self.recipes)])
                    .sum();
                sum / self.recipes as f64
            })
            .collect()
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

/// Whether a statistic is at least as far from 0 as the observed one, ties counted as such.
/// Per-recipe scores repeat (0, 1, the same partial score), so many resampled or sign-flipped
/// differences equal the observed one exactly and differ from it only by the rounding of
/// their summation order; a difference within `slack` of the observed one is such a tie.
/// The slack is 1e-9 of the largest mean a difference could reach (the largest per-recipe
/// difference): far above rounding (about 1e-16 per addition), far below any difference two
/// distinct resamples make on real scores.
#[derive(Clone, Copy, Debug)]
struct Extreme {
    observed: f64,
    slack: f64,
}

impl Extreme {
    /// For statistics compared with `observed`, each a sum of `terms` of `diffs` (1 for a mean).
    fn new(observed: f64, diffs: &[f64], terms: usize) -> Extreme {
        let largest = diffs.iter().fold(0.0f64, |m, d| m.max(d.abs()));
        Extreme {
            observed: observed.abs(),
            slack: 1e-9 * largest * terms as f64,
        }
    }

    fn reached_by(&self, statistic: f64) -> bool {
        statistic.abs() >= self.observed - self.slack
    }
}

/// A system against a baseline under the paired bootstrap.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairedBootstrap {
    /// Observed mean difference Δ, system − baseline.
    pub difference: f64,
    /// 95 % percentile interval of the resampled differences.
    pub interval: Interval,
    /// Two-sided p-value of "no difference".
    pub p: f64,
}

/// Paired bootstrap over the shared `resamples`. With Δ the observed mean difference and Δ*ᵦ
/// the mean difference of resample b (N resamples), the p-value is
///
/// p = (1 + #{b : |Δ*ᵦ − Δ| ≥ |Δ|}) / (N + 1),
///
/// Koehn's (2004) paired bootstrap as sacrebleu's `paired_bs` shapes it (the resampled
/// statistics shifted into a world where the null hypothesis holds, the +1 rule), centred on
/// the observed difference Δ (the shift of Efron and Tibshirani 1993, §16.4), not on the mean
/// of the resamples: that mean is Δ plus noise, so resamples tied with |Δ| — most of them when
/// few recipes differ — fell on either side of the threshold by accident and p moved with
/// the seed. A resample whose |Δ*ᵦ − Δ| equals |Δ| up to rounding counts (see [`Extreme`]), so
/// two identical systems get p = 1.
pub fn paired_bootstrap(
    system: &[f64],
    baseline: &[f64],
    resamples: &Resamples,
) -> PairedBootstrap {
    let diffs = differences(system, baseline);
    let observed = diffs.iter().sum::<f64>() / diffs.len().max(1) as f64;
    let sampled = resamples.means(&diffs);
    let extreme = Extreme::new(observed, &diffs, 1);
    let count = sampled
        .iter()
        .filter(|d| extreme.reached_by(*d - observed))
        .count();
    PairedBootstrap {
        difference: observed,
        p: (count + 1) as f64 / (sampled.len() + 1) as f64,
        interval: percentile_95(sampled),
    }
}

fn differences(system: &[f64], baseline: &[f64]) -> Vec<f64> {
    system.iter().zip(baseline).map(|(s, b)| s - b).collect()
}

/// How a randomization p-value was computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Every one of the 2^`differing` sign assignments of the recipes that differ.
    Exact { differing: usize },
    /// `trials` sign assignments drawn at random, (count + 1) / (trials + 1).
    Sampled { differing: usize, trials: usize },
}

impl Method {
    /// As the output names it.
    pub fn describe(&self) -> String {
        match self {
            Method::Exact { differing } => format!("exact, 2^{differing} assignments"),
            Method::Sampled { trials, .. } => format!("sampled, {trials} trials"),
        }
    }
}

/// A paired randomization test's result.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Randomization {
    pub p: f64,
    pub method: Method,
}

/// Two-sided paired randomization test of the mean difference: under "no difference" either
/// system could have produced either score of a recipe, so each recipe's difference keeps or
/// flips its sign. p is the share of sign assignments whose |sum| is at least the observed
/// |sum| (ties counted, see [`Extreme`]). Recipes where the systems agree contribute 0 under
/// every assignment, so only the n recipes that differ are flipped: all 2^n assignments when
/// n ≤ [`MAX_EXACT_DIFFERING`] (the exact permutation p-value), else `trials` seeded draws.
pub fn paired_randomization(
    system: &[f64],
    baseline: &[f64],
    trials: usize,
    seed: u64,
) -> Randomization {
    let differing: Vec<f64> = differences(system, baseline)
        .into_iter()
        .filter(|d| *d != 0.0)
        .collect();
    let n = differing.len();
    match exact_randomization_p(&differing) {
        Some(p) => Randomization {
            p,
            method: Method::Exact { differing: n },
        },
        None => Randomization {
            p: sampled_randomization_p(&differing, trials, seed),
            method: Method::Sampled {
                differing: n,
                trials,
            },
        },
    }
}

/// The share of all 2^n sign assignments of `diffs` whose |sum| reaches the observed |sum|;
/// `None` past [`MAX_EXACT_DIFFERING`] differences.
pub fn exact_randomization_p(diffs: &[f64]) -> Option<f64> {
    if diffs.len() > MAX_EXACT_DIFFERING {
        return None;
    }
    let extreme = Extreme::new(diffs.iter().sum(), diffs, diffs.len());
    let total = 1u64 << diffs.len();
    let count = (0..total)
        .filter(|mask| extreme.reached_by(flipped_sum(diffs, |i| mask >> i & 1 == 1)))
        .count();
    Some(count as f64 / total as f64)
}

/// (count + 1) / (trials + 1) over `trials` sign assignments of `diffs` drawn from `seed`, 64
/// recipes per draw.
pub fn sampled_randomization_p(diffs: &[f64], trials: usize, seed: u64) -> f64 {
    let extreme = Extreme::new(diffs.iter().sum(), diffs, diffs.len());
    let mut rng = SplitMix64::new(seed);
    let mut signs = vec![0u64; diffs.len().div_ceil(64)];
    let mut count = 0usize;
    for _ in 0..trials {
        signs.iter_mut().for_each(|s| *s = rng.next_u64());
        if extreme.reached_by(flipped_sum(diffs, |i| signs[i / 64] >> (i % 64) & 1 == 1)) {
            count += 1;
        }
    }
    (count + 1) as f64 / (trials + 1) as f64
}

/// The sum of `diffs`, those at the positions where `flip` holds negated.
fn flipped_sum(diffs: &[f64], flip: impl Fn(usize) -> bool) -> f64 {
    diffs
        .iter()
        .enumerate()
        .map(|(i, d)| if flip(i) { -d } else { *d })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A synthetic per-recipe score in [0, 1]: the mean of two uniforms (triangular, mean 0.5,
    /// standard deviation sqrt(1/24)), a shape like the benchmark's partial scores.
    fn score(rng: &mut SplitMix64) -> f64 {
        (rng.unit() + rng.unit()) / 2.0
    }

    const SD: f64 = 0.204_124_145_231_931_5; // sqrt(1/24)

    fn sample(rng: &mut SplitMix64, n: usize, shift: f64) -> Vec<f64> {
        (0..n).map(|_| score(rng) + shift).collect()
    }

    /// Three standard errors of a Monte Carlo share `p` estimated from `draws` draws.
    fn mc_error(p: f64, draws: usize) -> f64 {
        3.0 * (p * (1.0 - p) / draws as f64).sqrt()
    }

    #[test]
    fn same_seed_draws_the_same_resamples_and_different_seeds_do_not() {
        let rows = |seed| Resamples::draw(30, 50, seed).rows().collect::<Vec<_>>();
        assert_eq!(rows(7), rows(7));
        assert_ne!(rows(7), rows(8));
        assert_eq!(rows(7).len(), 50);
        assert!(
            rows(7)
                .iter()
                .all(|r| r.len() == 30 && r.iter().all(|&i| i < 30))
        );
        // The means read the rows `rows` yields.
        let scores: Vec<f64> = (0..30).map(|i| i as f64).collect();
        let means: Vec<f64> = rows(7)
            .iter()
            .map(|r| r.iter().map(|&i| scores[i]).sum::<f64>() / 30.0)
            .collect();
        assert_eq!(Resamples::draw(30, 50, 7).means(&scores), means);
    }

    #[test]
    fn draws_are_bounded_and_few_draws_are_warned_about() {
        assert_eq!(
            check_draws("--bootstrap", 0).unwrap_err().to_string(),
            "--bootstrap 0: expected 1 to 1000000 (1,000 to 100,000 is plenty)"
        );
        assert!(check_draws("--bootstrap", MAX_DRAWS + 1).is_err());
        assert!(check_draws("--trials", usize::MAX).is_err());
        assert_eq!(check_draws("--trials", MAX_DRAWS), Ok(None));
        assert_eq!(check_draws("--trials", FEW_DRAWS), Ok(None));
        assert!(matches!(
            check_draws("--bootstrap", FEW_DRAWS - 1),
            Ok(Some(_))
        ));
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
        let randomization = paired_randomization(&s, &s, 10_000, 3);
        assert_eq!(randomization.p, 1.0);
        assert_eq!(randomization.method, Method::Exact { differing: 0 });
    }

    #[test]
    fn randomization_with_three_recipes_is_the_exact_permutation_p() {
        // Differences 0.5, -0.25, 1: observed sum 1.25. The 8 sign assignments give sums
        // ±1.25, ±(0.5+0.25+1)=±1.75, ±(0.5-0.25-1)=∓0.75, ±(-0.5-0.25+1)=±0.25; those with
        // |sum| ≥ 1.25 are ±1.25 and ±1.75: 4 of 8. The recipe where both score 0.3 is never
        // flipped.
        let system = [0.75, 0.25, 1.0, 0.3];
        let baseline = [0.25, 0.5, 0.0, 0.3];
        let r = paired_randomization(&system, &baseline, 10_000, 9);
        assert_eq!((r.p, r.method), (0.5, Method::Exact { differing: 3 }));
        // Sampled with 7 trials: (count + 1) / (trials + 1).
        let sampled = sampled_randomization_p(&[0.5, -0.25, 1.0], 7, 9);
        assert!((1..=8).any(|k| sampled == k as f64 / 8.0), "{sampled}");
    }

    #[test]
    fn more_than_twenty_differing_recipes_are_sampled() {
        let mut rng = SplitMix64::new(4);
        let (a, b) = (sample(&mut rng, 21, 0.0), sample(&mut rng, 21, 0.0));
        let r = paired_randomization(&a, &b, 5_000, 1);
        assert_eq!(
            r.method,
            Method::Sampled {
                differing: 21,
                trials: 5_000
            }
        );
        assert_eq!(r.p, sampled_randomization_p(&differences(&a, &b), 5_000, 1));
        let twenty = paired_randomization(&a[..20], &b[..20], 5_000, 1);
        assert_eq!(twenty.method, Method::Exact { differing: 20 });
    }

    /// Every resample of `n` recipes (n^n ordered draws), for a brute-force bootstrap.
    fn all_resamples(n: usize) -> Vec<Vec<usize>> {
        (0..n.pow(n as u32))
            .map(|mut k| {
                (0..n)
                    .map(|_| {
                        let i = k % n;
                        k /= n;
                        i
                    })
                    .collect()
            })
            .collect()
    }

    /// The demo pair's shape: three recipes, one differing (the shortbread's goal-condition
    /// success, 0.35 against 1). A resample drawing the differing recipe k times has
    /// Δ* − Δ = (k − 1)·δ/3, at least as far from 0 as Δ = δ/3 unless k = 1: the ties k = 0
    /// (8 of 27 resamples) and k = 2 (6 of 27) and k = 3 (1 of 27), 15/27 = 5/9 in all. The
    /// enumeration of the 27 resamples says the same, and 100,000 seeded resamples give it
    /// within Monte Carlo error for every seed; before ties were counted they gave about 0.25.
    #[test]
    fn one_differing_recipe_of_three_gives_the_tie_counting_p_of_five_ninths() {
        let (system, baseline) = ([1.0, 1.0, 0.35], [1.0, 1.0, 1.0]);
        let diffs = differences(&system, &baseline);
        let observed = diffs.iter().sum::<f64>() / 3.0;
        let enumerated = all_resamples(3)
            .iter()
            .filter(|r| {
                let resampled = r.iter().map(|&i| diffs[i]).sum::<f64>() / 3.0;
                (resampled - observed).abs() >= observed.abs() - 1e-12
            })
            .count();
        assert_eq!(enumerated, 15);
        let exact = 5.0 / 9.0;
        for seed in 1..=5 {
            let p = paired_bootstrap(&system, &baseline, &Resamples::draw(3, 100_000, seed)).p;
            assert!(
                (p - exact).abs() <= mc_error(exact, 100_000),
                "seed {seed}: {p}"
            );
        }
    }

    /// One recipe of 30 differs, as when a system is the gold networks plus one file that
    /// fails: p is the chance that a resample does not draw that recipe exactly once,
    /// 1 − (29/30)^29 ≈ 0.6258, and five seeds at 10,000 resamples agree within 0.02.
    #[test]
    fn p_is_stable_across_seeds_when_scores_tie() {
        let baseline = vec![1.0; 30];
        let mut system = baseline.clone();
        system[4] = 0.5;
        let exact = 1.0 - (29.0f64 / 30.0).powi(29);
        let ps: Vec<f64> = (1..=5)
            .map(|seed| paired_bootstrap(&system, &baseline, &Resamples::draw(30, 10_000, seed)).p)
            .collect();
        let (low, high) = ps
            .iter()
            .fold((1.0f64, 0.0f64), |(l, h), p| (l.min(*p), h.max(*p)));
        assert!(high - low <= 0.02, "{ps:?}");
        assert!(
            ps.iter()
                .all(|p| (p - exact).abs() <= mc_error(exact, 10_000) + 1e-4),
            "{ps:?}"
        );
        assert_eq!(paired_randomization(&system, &baseline, 10_000, 1).p, 1.0);
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
            if paired_randomization(&system, &baseline, 2000, pair as u64).p < 0.05 {
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

    /// The exact p over every sign assignment of *every* recipe, agreeing ones included, in
    /// exact arithmetic: scores are multiples of 1/4, so sums of differences are integers once
    /// multiplied by 4.
    fn brute_force_randomization_p(system: &[f64], baseline: &[f64]) -> f64 {
        let quarters: Vec<i64> = system
            .iter()
            .zip(baseline)
            .map(|(s, b)| ((s - b) * 4.0) as i64)
            .collect();
        let observed = quarters.iter().sum::<i64>().abs();
        let total = 1u64 << quarters.len();
        let extreme = (0..total)
            .filter(|mask| {
                let sum: i64 = quarters
                    .iter()
                    .enumerate()
                    .map(|(i, q)| if mask >> i & 1 == 1 { -q } else { *q })
                    .sum();
                sum.abs() >= observed
            })
            .count();
        extreme as f64 / total as f64
    }

    /// Scores from {0, 1/4, 1/2, 3/4, 1}: ties everywhere, as on the benchmark.
    fn tied_scores(len: std::ops::Range<usize>) -> impl Strategy<Value = Vec<f64>> {
        proptest::collection::vec((0u8..=4).prop_map(|q| f64::from(q) / 4.0), len)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Identical systems get p = 1 from the bootstrap; on fewer than 12 differing recipes
        /// the exact randomization p is the brute force over every recipe's sign, and the
        /// sampled p (the method past 20 differing recipes) never falls below it by more than
        /// Monte Carlo error: ties are counted the same way in both.
        #[test]
        fn tied_scores_give_stable_p_values(
            baseline in tied_scores(1..16),
            changes in proptest::collection::vec((0usize..16, 0u8..=4), 0..12),
            seed in 0u64..1000,
        ) {
            let resamples = Resamples::draw(baseline.len(), 500, seed);
            prop_assert_eq!(paired_bootstrap(&baseline, &baseline, &resamples).p, 1.0);
            let mut system = baseline.clone();
            for (i, q) in changes {
                system[i % baseline.len()] = f64::from(q) / 4.0;
            }
            let r = paired_randomization(&system, &baseline, 10_000, seed);
            let differing = differences(&system, &baseline)
                .into_iter()
                .filter(|d| *d != 0.0)
                .collect::<Vec<_>>();
            prop_assert!(differing.len() < 12);
            prop_assert_eq!(r.method, Method::Exact { differing: differing.len() });
            prop_assert_eq!(r.p, brute_force_randomization_p(&system, &baseline));
            let sampled = sampled_randomization_p(&differing, 10_000, seed);
            // Five standard errors: 64 cases of random seeds must not fail by chance.
            prop_assert!(
                sampled >= r.p - 5.0 / 3.0 * mc_error(r.p, 10_000) - 1e-9,
                "sampled {} below exact {}", sampled, r.p
            );
        }
    }
}
