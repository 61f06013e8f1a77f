//! Corpus-level statistics over per-recipe scores, with one policy for a recipe a system
//! leaves out or cannot execute (NIL): it scores 0 in every corpus mean, and the share of
//! recipes with an execution (coverage) is reported beside the mean so a low mean caused by
//! missing executions is never mistaken for low quality.

/// A corpus mean under the NIL policy, with its coverage.
#[derive(Clone, Debug, PartialEq)]
pub struct CorpusMean {
    /// Mean over every recipe of the benchmark; a NIL recipe counts as 0.
    pub mean: f64,
    /// Recipes with an execution.
    pub executed: usize,
    /// Recipes in the benchmark.
    pub recipes: usize,
}

impl CorpusMean {
    /// Recipes with an execution / recipes in the benchmark (0 for an empty benchmark).
    pub fn coverage(&self) -> f64 {
        if self.recipes == 0 {
            0.0
        } else {
            self.executed as f64 / self.recipes as f64
        }
    }
}

/// The per-recipe scores of one system, one entry per benchmark recipe, NIL scored as 0.
pub fn nil_as_zero(scores: &[Option<f64>]) -> Vec<f64> {
    scores.iter().map(|s| s.unwrap_or(0.0)).collect()
}

/// The corpus mean of one system under the NIL policy.
pub fn corpus_mean(scores: &[Option<f64>]) -> CorpusMean {
    let values = nil_as_zero(scores);
    let mean = if values.is_empty() {
        0.0
    } else {
        values.iter().sum::<f64>() / values.len() as f64
    };
    CorpusMean {
        mean,
        executed: scores.iter().filter(|s| s.is_some()).count(),
        recipes: scores.len(),
    }
}

/// Per-recipe outcome of a system against a baseline.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WinsTiesLosses {
    pub wins: usize,
    pub ties: usize,
    pub losses: usize,
}

/// Count the recipes where `system` scores above, equal to or below `baseline` (NIL as 0).
pub fn wins_ties_losses(system: &[f64], baseline: &[f64]) -> WinsTiesLosses {
    let mut out = WinsTiesLosses::default();
    for (s, b) in system.iter().zip(baseline) {
        match s.partial_cmp(b) {
            Some(std::cmp::Ordering::Greater) => out.wins += 1,
            Some(std::cmp::Ordering::Less) => out.losses += 1,
            _ => out.ties += 1,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nil_recipe_scores_zero_and_lowers_coverage() {
        let m = corpus_mean(&[Some(1.0), None, Some(0.5), Some(0.5)]);
        assert_eq!(m.mean, 0.5);
        assert_eq!((m.executed, m.recipes), (3, 4));
        assert_eq!(m.coverage(), 0.75);
    }

    #[test]
    fn identical_systems_tie_everywhere() {
        let s = [0.2, 0.4, 0.9];
        let w = wins_ties_losses(&s, &s);
        assert_eq!((w.wins, w.ties, w.losses), (0, 3, 0));
    }
}
