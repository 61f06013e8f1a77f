//! Results of many solution files, of one shard of them, and the merge of shards.
//!
//! A batch is a list of files; each file's *work units* are its recipes in the reference's
//! order, or one unit standing for the file when it is refused before any recipe is scored.
//! A run scores some units (all of them, or a [`Shard`]) into a [`ShardReport`];
//! [`assemble`] combines the shard reports of one batch into the [`BatchReport`] every output
//! format is written from. An unsharded run is assembled from its one report the same way, so
//! merging shards writes exactly what one run writes.

use super::content::{RecipeReport, Signature};
use crate::metrics::corpus::{corpus_mean, nil_as_zero};
use crate::metrics::metric::{Metric, MetricSet, RecipeResult};
use crate::metrics::significance::{Interval, Resamples, bootstrap_interval};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The part of a batch one run scores: shard `index` (1-based) of `count`.
///
/// Units are dealt round-robin over the batch's unit list (files in order, each file's units
/// in the reference's order): every run of one batch computes the same list, the shards'
/// sizes differ by at most one, and a file's recipes spread over all shards, so a file of slow
/// recipes does not land on one machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    /// The whole batch.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// Whether unit `k` (0-based position in the batch's unit list) belongs to this shard.
    pub fn takes(self, k: usize) -> bool {
        k % self.count == self.index - 1
    }
}

impl FromStr for Shard {
    type Err = String;

    /// `I/N` with `1 <= I <= N`.
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("`{s}` is not a shard: expected I/N with 1 <= I <= N, such as 2/3");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let index: usize = i.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// A scored recipe: the values as the reference's CSV prints them (in the run's metric order)
/// and the unrounded report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub printed: Vec<String>,
    pub recipe: RecipeReport,
}

impl Row {
    pub fn new(result: &RecipeResult, metrics: &MetricSet) -> Row {
        Row {
            printed: result.cells(metrics),
            recipe: RecipeReport::new(result, metrics),
        }
    }

    /// The printed value of `t`'s metric when it is below the threshold or `NIL`.
    pub fn falls_short(&self, metrics: &MetricSet, t: &Threshold) -> Option<&str> {
        let Some(i) = metrics.iter().position(|m| m == t.metric) else {
            return Some("NIL");
        };
        let cell = self.printed[i].as_str();
        let value = match cell.split_once('/') {
            Some((n, d)) => n
                .parse::<f64>()
                .ok()
                .zip(d.parse::<f64>().ok())
                .map(|(n, d)| n / d),
            None => cell.parse::<f64>().ok(),
        };
        value.is_none_or(|v| v < t.value).then_some(cell)
    }
}

/// Why a file has no results, as the reference refuses it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RefusalReport {
    /// One line.
    pub message: String,
    /// The located diagnostics as rustc-style text (or the message as an `error:` line).
    pub rendered: String,
    /// The recipe ids the refused file names, in file order (none for a file unread). The
    /// reference writes no row for any of them; every mean counts each as a solution that
    /// scores 0 (see [`RefusalReport::rows`]).
    #[serde(default)]
    pub recipes: Vec<String>,
}

impl RefusalReport {
    /// The rows the refused file stands for in a mean over rows: one per recipe it names, one
    /// when it names none (it still was one solution that failed).
    pub fn rows(&self) -> usize {
        self.recipes.len().max(1)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UnitOutcome {
    Scored(Box<Row>),
    Refused(RefusalReport),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UnitResult {
    /// Position among the file's units.
    pub unit: usize,
    pub outcome: UnitOutcome,
}

/// One file of a batch with the results of this shard's units.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardFile {
    pub file: String,
    /// How many units the file has in all shards.
    pub units: usize,
    pub results: Vec<UnitResult>,
}

/// What one run scored: `--format json` with `--shard` writes this, `merge` reads it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardReport {
    pub signature: Signature,
    pub shard: Shard,
    /// Whether the run's outputs have a file column (more than one file, or a directory).
    pub batch: bool,
    /// Every file of the batch, in order, including those with no unit in this shard.
    pub files: Vec<ShardFile>,
}

/// A file's results, or its refusal.
#[derive(Clone, Debug, PartialEq)]
pub struct FileOutcome {
    pub file: String,
    pub outcome: Result<Vec<Row>, RefusalReport>,
}

/// Every file of a batch with its results, in order: what the output formats are written from.
#[derive(Clone, Debug, PartialEq)]
pub struct BatchReport {
    pub signature: Signature,
    pub batch: bool,
    pub files: Vec<FileOutcome>,
}

/// Why shard reports do not combine into one batch.
#[derive(Clone, Debug, PartialEq)]
pub enum MergeError {
    NoShards,
    /// Shard reports of different runs (signature, shard count or files differ).
    Mismatch {
        shard: Shard,
        what: &'static str,
    },
    /// A shard is missing or given twice.
    Shards {
        count: usize,
        given: Vec<usize>,
    },
    /// A file's units are not each covered exactly once.
    Units {
        file: String,
    },
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MergeError::NoShards => write!(f, "no shard reports to merge"),
            MergeError::Mismatch { shard, what } => write!(
                f,
                "shard {shard} comes from another run than the first shard given: its {what} differs"
            ),
            MergeError::Shards { count, given } => {
                let given: Vec<String> = given.iter().map(usize::to_string).collect();
                write!(
                    f,
                    "expected shards 1 to {count} once each, got shards {}",
                    given.join(", ")
                )
            }
            MergeError::Units { file } => write!(
                f,
                "{file}: the shards do not cover each of the file's recipes exactly once"
            ),
        }
    }
}

impl std::error::Error for MergeError {}

/// Combine the shard reports of one batch (in any order) into the batch's results.
pub fn assemble(mut shards: Vec<ShardReport>) -> Result<BatchReport, MergeError> {
    shards.sort_by_key(|s| s.shard.index);
    let first = shards.first().ok_or(MergeError::NoShards)?;
    let count = first.shard.count;
    for s in &shards {
        let mismatch = |what| MergeError::Mismatch {
            shard: s.shard,
            what,
        };
        if s.signature != first.signature {
            return Err(mismatch("signature"));
        }
        if s.shard.count != count {
            return Err(mismatch("shard count"));
        }
        let same_files = s.batch == first.batch
            && s.files.len() == first.files.len()
            && s.files
                .iter()
                .zip(&first.files)
                .all(|(a, b)| a.file == b.file && a.units == b.units);
        if !same_files {
            return Err(mismatch("file list"));
        }
    }
    let given: Vec<usize> = shards.iter().map(|s| s.shard.index).collect();
    if given != (1..=count).collect::<Vec<_>>() {
        return Err(MergeError::Shards { count, given });
    }
    let signature = first.signature.clone();
    let batch = first.batch;
    let mut per_file: Vec<(String, usize, Vec<UnitResult>)> = first
        .files
        .iter()
        .map(|f| (f.file.clone(), f.units, Vec::new()))
        .collect();
    for s in shards {
        for (slot, f) in per_file.iter_mut().zip(s.files) {
            slot.2.extend(f.results);
        }
    }
    let files = per_file
        .into_iter()
        .map(|(file, units, mut results)| {
            results.sort_by_key(|r| r.unit);
            if !results.iter().map(|r| r.unit).eq(0..units) {
                return Err(MergeError::Units { file });
            }
            // The reference refuses the whole file for its first refused recipe.
            let mut rows = Vec::with_capacity(units);
            for r in results {
                match r.outcome {
                    UnitOutcome::Scored(row) => rows.push(*row),
                    UnitOutcome::Refused(refusal) => {
                        return Ok(FileOutcome {
                            file,
                            outcome: Err(refusal),
                        });
                    }
                }
            }
            Ok(FileOutcome {
                file,
                outcome: Ok(rows),
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(BatchReport {
        signature,
        batch,
        files,
    })
}

/// `--fail-under METRIC=VALUE`: every recipe row must print at least VALUE for METRIC.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Threshold {
    pub metric: Metric,
    pub value: f64,
}

impl FromStr for Threshold {
    type Err = String;

    fn from_str(s: &str) -> Result<Threshold, String> {
        let (name, value) = s
            .split_once('=')
            .ok_or_else(|| format!("`{s}` is not METRIC=VALUE"))?;
        let metric = Metric::named(name.trim()).map_err(|e| e.to_string())?;
        let value = value
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| format!("`{value}` is not a number"))?;
        Ok(Threshold { metric, value })
    }
}

/// What stands for the recipe of a file that holds none, where rows are listed.
pub const NO_RECIPE: &str = "(no recipe)";

/// A recipe row below a threshold.
#[derive(Clone, Debug, PartialEq)]
pub struct Shortfall<'a> {
    pub file: &'a str,
    pub recipe: &'a str,
    pub metric: Metric,
    /// The value as printed (`NIL` included).
    pub printed: &'a str,
    pub threshold: f64,
}

/// A metric's mean over the recipe rows that have a value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mean {
    pub metric: Metric,
    pub mean: Option<f64>,
    /// Rows with a value, of `rows`.
    pub with_value: usize,
    pub rows: usize,
    /// The mean's 95 % bootstrap interval, when asked for (`--ci`).
    pub interval: Option<Interval>,
}

/// How `--ci` draws the intervals of the means: the rows the mean averages are resampled, as
/// `compare` resamples recipes, with the same seeded function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bootstrap {
    pub resamples: usize,
    pub seed: u64,
}

impl BatchReport {
    pub fn metrics(&self) -> MetricSet {
        let metrics = self.signature.metrics.iter();
        let set = metrics.fold(MetricSet::empty(), |set, m| set.with(*m));
        self.signature
            .diets
            .iter()
            .fold(set, |set, d| set.with_diet(*d))
    }

    /// Every scored row with its file, in output order.
    pub fn rows(&self) -> impl Iterator<Item = (&str, &Row)> {
        self.files.iter().flat_map(|f| {
            let rows = f.outcome.as_deref().unwrap_or(&[]);
            rows.iter().map(move |r| (f.file.as_str(), r))
        })
    }

    pub fn refusals(&self) -> impl Iterator<Item = (&str, &RefusalReport)> {
        self.files
            .iter()
            .filter_map(|f| f.outcome.as_ref().err().map(|r| (f.file.as_str(), r)))
    }

    /// The files read whole that hold no recipe (empty, or comments only).
    pub fn empty_files(&self) -> impl Iterator<Item = &str> {
        self.files
            .iter()
            .filter(|f| f.outcome.as_ref().is_ok_and(Vec::is_empty))
            .map(|f| f.file.as_str())
    }

    /// The rows that print less than a threshold or `NIL`, row by row, thresholds in order;
    /// then each file with no recipe, as [`NO_RECIPE`] printing `NIL` (a file meant to be
    /// scored that scores nothing must not pass a threshold).
    pub fn shortfalls(&self, thresholds: &[Threshold]) -> Vec<Shortfall<'_>> {
        let metrics = self.metrics();
        let rows = self.rows().flat_map(|(file, row)| {
            thresholds.iter().filter_map(move |t| {
                Some(Shortfall {
                    file,
                    recipe: &row.recipe.recipe_id,
                    metric: t.metric,
                    printed: row.falls_short(&metrics, t)?,
                    threshold: t.value,
                })
            })
        });
        let empty = self.empty_files().flat_map(|file| {
            thresholds.iter().map(move |t| Shortfall {
                file,
                recipe: NO_RECIPE,
                metric: t.metric,
                printed: "NIL",
                threshold: t.value,
            })
        });
        rows.chain(empty).collect()
    }

    /// The mean of each computed metric over the rows, in output order, a refused file's
    /// recipes counted as rows without a value (see [`means`]).
    pub fn means(&self, bootstrap: Option<Bootstrap>) -> Vec<Mean> {
        let rows: Vec<&RecipeReport> = self.rows().map(|(_, r)| &r.recipe).collect();
        let refused = self.refusals().map(|(_, r)| r.rows()).sum();
        means(&rows, refused, &self.metrics(), bootstrap)
    }
}

/// The mean of each metric's unrounded values over `rows` and `refused` rows of refused files
/// (after them), summed in order. A score follows the corpus NIL policy (`metrics::corpus`: a
/// row without a value, a refused one included, counts as 0); the execution time, where 0
/// would be a reward, averages the rows that have one. With `bootstrap`, each mean also gets
/// its 95 % bootstrap interval.
pub fn means(
    rows: &[&RecipeReport],
    refused: usize,
    metrics: &MetricSet,
    bootstrap: Option<Bootstrap>,
) -> Vec<Mean> {
    metrics
        .iter()
        .map(|metric| {
            let values: Vec<Option<f64>> = rows
                .iter()
                .map(|r| r.value(metric))
                .chain(std::iter::repeat_n(None, refused))
                .collect();
            let with_value: Vec<Option<f64>> =
                values.iter().copied().filter(Option::is_some).collect();
            let averaged = if metric == Metric::ExecutionTime {
                &with_value
            } else {
                &values
            };
            let interval = bootstrap.filter(|_| !with_value.is_empty()).map(|b| {
                let resamples = Resamples::draw(averaged.len(), b.resamples, b.seed);
                bootstrap_interval(&nil_as_zero(averaged), &resamples)
            });
            Mean {
                metric,
                mean: (!with_value.is_empty()).then(|| corpus_mean(averaged).mean),
                with_value: with_value.len(),
                rows: values.len(),
                interval,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_deal_round_robin() {
        let s: Shard = "2/3".parse().unwrap();
        assert_eq!(s, Shard { index: 2, count: 3 });
        let taken: Vec<usize> = (0..8).filter(|&k| s.takes(k)).collect();
        assert_eq!(taken, [1, 4, 7]);
        for bad in ["0/3", "4/3", "3", "a/b", "1/0"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    #[test]
    fn thresholds_parse() {
        let t: Threshold = "Smatch-Score=0.75".parse().unwrap();
        assert_eq!(t.metric, Metric::SmatchScore);
        assert_eq!(t.value, 0.75);
        assert_eq!(
            "speed=1".parse::<Threshold>().unwrap_err(),
            "`speed` is not a metric (one of smatch-score, goal-condition-success, dish-approximation-score, execution-time)"
        );
        assert_eq!(
            "smatch-scor=1".parse::<Threshold>().unwrap_err(),
            "`smatch-scor` is not a metric (one of smatch-score, goal-condition-success, dish-approximation-score, execution-time); did you mean `smatch-score`?"
        );
        assert!("execution-time".parse::<Threshold>().is_err());
        assert!("execution-time=NaN".parse::<Threshold>().is_err());
    }
}
