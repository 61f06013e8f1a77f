//! The evaluation as JSON (`--format json`): unrounded values, the detail behind them and a
//! signature saying how they were computed. One file gives one document of recipes; a batch, one
//! document of files, each with its recipes or its refusal.

use super::batch_report::{BatchReport, Bootstrap, Mean, RefusalReport};
use super::content::{RecipeReport, Signature};
use crate::metrics::metric::Metric;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvaluationReport {
    pub signature: Signature,
    /// In the CSV's order (the reverse of the file).
    pub recipes: Vec<RecipeReport>,
    /// The means with their intervals, with `--ci` only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<Summary>,
}

/// The means of a run with their 95 % bootstrap intervals (`--ci`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub bootstrap_resamples: usize,
    pub seed: u64,
    pub nil_policy: String,
    pub metrics: Vec<SummaryMean>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SummaryMean {
    pub metric: Metric,
    /// `None` when no row has a value.
    pub mean: Option<f64>,
    pub ci: Option<[f64; 2]>,
    pub with_value: usize,
    pub rows: usize,
}

impl Summary {
    /// The summary of `means` computed with `bootstrap`.
    pub fn new(means: Vec<Mean>, bootstrap: Bootstrap) -> Summary {
        Summary {
            bootstrap_resamples: bootstrap.resamples,
            seed: bootstrap.seed,
            nil_policy: "a recipe without a score counts as 0, and so does each recipe a refused file names (a file naming none counts once); execution-time averages the recipes that have one".into(),
            metrics: means.iter().map(SummaryMean::from).collect(),
        }
    }
}

impl From<&Mean> for SummaryMean {
    fn from(m: &Mean) -> SummaryMean {
        SummaryMean {
            metric: m.metric,
            mean: m.mean,
            ci: m.interval.map(|i| [i.low, i.high]),
            with_value: m.with_value,
            rows: m.rows,
        }
    }
}

impl SummaryMean {
    /// The cells the summaries (Markdown, HTML) print: metric, mean (two decimals), the
    /// interval when `with_ci`, coverage; `NIL` where there is no value.
    pub fn cells(&self, with_ci: bool) -> Vec<String> {
        let nil = || "NIL".to_string();
        let mut cells = vec![
            self.metric.name().to_string(),
            self.mean.map_or_else(nil, |v| format!("{v:.2}")),
        ];
        if with_ci {
            cells.push(
                self.ci
                    .map_or_else(nil, |[low, high]| format!("[{low:.2}, {high:.2}]")),
            );
        }
        cells.push(format!("{} of {}", self.with_value, self.rows));
        cells
    }
}

/// A document as a JSON value with the numbers the written report has: `serde_json::to_value`
/// would widen an `f32` (0.8700139) to its `f64` digits (0.8700138926506042).
pub fn value(document: &impl Serialize) -> serde_json::Value {
    serde_json::to_string(document)
        .and_then(|s| serde_json::from_str(&s))
        .unwrap_or_default()
}

/// A JSON document pretty-printed, ending with a newline.
pub fn pretty(document: &impl Serialize) -> String {
    let mut s = serde_json::to_string_pretty(document).unwrap_or_default();
    s.push('\n');
    s
}

/// A run's results as the JSON report says them: [`EvaluationReport`] for one file; for a
/// batch, the signature and each file with its recipes or its refusal. With `ci` (`--ci`),
/// also the means with their intervals. It is the evaluate job's answer, and what
/// `evaluate --format json` writes.
#[derive(Clone, Debug)]
pub struct Evaluation {
    pub report: BatchReport,
    pub ci: Option<Bootstrap>,
}

impl Serialize for Evaluation {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let report = &self.report;
        let summary = self.ci.map(|b| Summary::new(report.means(Some(b)), b));
        if !report.batch {
            return EvaluationReport {
                signature: report.signature.clone(),
                recipes: report.rows().map(|(_, r)| r.recipe.clone()).collect(),
                summary,
            }
            .serialize(serializer);
        }
        #[derive(Serialize)]
        struct BatchDocument<'a> {
            signature: &'a Signature,
            files: Vec<FileDocument<'a>>,
            #[serde(skip_serializing_if = "Option::is_none")]
            summary: Option<Summary>,
        }
        #[derive(Serialize)]
        struct FileDocument<'a> {
            file: &'a str,
            refusal: Option<&'a RefusalReport>,
            recipes: Vec<&'a RecipeReport>,
        }
        BatchDocument {
            signature: &report.signature,
            files: report
                .files
                .iter()
                .map(|f| FileDocument {
                    file: &f.file,
                    refusal: f.outcome.as_ref().err(),
                    recipes: f
                        .outcome
                        .as_deref()
                        .unwrap_or(&[])
                        .iter()
                        .map(|r| &r.recipe)
                        .collect(),
                })
                .collect(),
            summary,
        }
        .serialize(serializer)
    }
}
