//! The evaluation as JSON (`--format json`): unrounded values, the detail behind them and a
//! signature saying how they were computed. One file gives one document of recipes; a batch, one
//! document of files, each with its recipes or its refusal.

use super::batch::{BatchReport, Bootstrap, Mean, RefusalReport};
use super::{Metric, MetricSet, RecipeResult};
use crate::benchmark::DataStatus;
use crate::metrics::Detail;
use crate::metrics::dish::DishDetail;
use crate::number::Number;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A number as JSON: integers stay integers, ratios and single floats become the nearest
/// double of their shortest decimal form (`0.755`, not `0.7549999952316284`).
pub fn number(n: Number) -> serde_json::Value {
    match n {
        n if n.is_integer() => serde_json::Value::from(n.floor_i64()),
        Number::Float(x) => shortest(x),
        n => serde_json::Value::from(n.to_f64()),
    }
}

fn shortest(x: f32) -> serde_json::Value {
    x.to_string()
        .parse::<f64>()
        .ok()
        .and_then(serde_json::Number::from_f64)
        .map_or(serde_json::Value::Null, serde_json::Value::Number)
}

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
            nil_policy: "a recipe without a score counts as 0; execution-time averages the recipes that have one".into(),
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

/// Everything that determines the numbers besides the input file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Signature {
    pub tool: String,
    pub version: String,
    pub profile: String,
    /// `builtin` or the kitchen file given with `--kitchen`.
    pub kitchen: String,
    pub metrics: Vec<Metric>,
    pub smatch: SmatchSettings,
    pub data: DataSignature,
}

/// Which data scored the run: two runs with the same fingerprints read the same bytes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DataSignature {
    /// `official` only when every gold file matches the manifest's checksum.
    pub status: DataStatus,
    /// SHA-256 over the gold files read, in manifest order.
    pub gold_sha256: String,
    /// SHA-256 of the initial kitchen state's file.
    pub kitchen_sha256: String,
}

impl DataSignature {
    /// Text reports show the sums shortened, as git shows commits.
    const SHOWN: usize = 12;

    pub fn gold_short(&self) -> &str {
        &self.gold_sha256[..Self::SHOWN.min(self.gold_sha256.len())]
    }

    pub fn kitchen_short(&self) -> &str {
        &self.kitchen_sha256[..Self::SHOWN.min(self.kitchen_sha256.len())]
    }
}

impl fmt::Display for DataSignature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "data {}, gold sha256 {}, kitchen sha256 {}",
            self.status.name(),
            self.gold_short(),
            self.kitchen_short()
        )
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SmatchSettings {
    pub seed: u64,
    pub restarts: usize,
    pub exact: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecipeReport {
    pub recipe_id: String,
    pub smatch: Option<SmatchReport>,
    pub goal_condition_success: Option<GoalRatio>,
    pub dish_approximation_score: Option<f32>,
    pub execution_time: Option<serde_json::Value>,
    /// Gold goals the prediction did not reach, in gold execution order.
    pub missed_goals: Vec<MissedGoal>,
    /// How the chosen predicted dish differs from the gold dish.
    pub dish: Option<DishDifferences>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SmatchReport {
    pub f_score: f64,
    pub precision: f64,
    pub recall: f64,
    pub matched_triples: usize,
    pub test_triples: usize,
    pub gold_triples: usize,
    /// Matched triples of the reference's own search (smatch.py replayed), whatever the mode.
    pub reference_climb: usize,
    /// The proven optimum of matched triples (exact mode only; null when unproven).
    pub optimum: Option<usize>,
    pub hill_climbing_fell_short: bool,
}

/// Reached gold goals over all gold goals, exactly and as a float.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GoalRatio {
    pub numerator: usize,
    pub denominator: usize,
    pub value: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MissedGoal {
    /// 1-based position of the action in the gold network.
    pub gold_action: usize,
    pub gold_text: String,
    pub reason: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DishDifferences {
    /// 1-based position of the predicted action whose output was compared.
    pub action: usize,
    pub contents_ratio: f32,
    pub container_ratio: f32,
    /// Matched gold ingredients with their score and the slots that differ.
    pub ingredients: Vec<IngredientDifference>,
    pub missing: Vec<String>,
    pub surplus: Vec<String>,
    pub container: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct IngredientDifference {
    pub class: String,
    pub score: f32,
    pub differing: Vec<String>,
}

impl Signature {
    /// This program's signature for a run with these settings.
    pub fn new(
        profile: String,
        kitchen: String,
        metrics: &MetricSet,
        smatch: SmatchSettings,
        data: DataSignature,
    ) -> Signature {
        Signature {
            tool: "cookingbot-evaluator".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            profile,
            kitchen,
            metrics: metrics.iter().collect(),
            smatch,
            data,
        }
    }
}

/// One line for text reports: `cookingbot-evaluator 0.1.0; profile 2024; kitchen builtin;
/// metrics goal-condition-success,...; smatch seed 42, restarts 4, exact no; data official,
/// gold sha256 1a2b..., kitchen sha256 3c4d...`.
impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let metrics: Vec<&str> = self.metrics.iter().map(|m| m.name()).collect();
        write!(
            f,
            "{} {}; profile {}; kitchen {}; metrics {}; smatch seed {}, restarts {}, exact {}; {}",
            self.tool,
            self.version,
            self.profile,
            self.kitchen,
            metrics.join(","),
            self.smatch.seed,
            self.smatch.restarts,
            if self.smatch.exact { "yes" } else { "no" },
            self.data
        )
    }
}

impl DishDifferences {
    /// How the dish approximation score's chosen predicted dish differs from the gold dish.
    pub fn of(detail: &Detail) -> Option<DishDifferences> {
        let best = &detail.dish.scored[detail.dish.best?];
        let empty = DishDetail::default();
        let d = best.detail.as_ref().unwrap_or(&empty);
        Some(DishDifferences {
            action: best.predicate + 1,
            contents_ratio: d.contents_ratio,
            container_ratio: d.container_ratio,
            ingredients: d
                .matched
                .iter()
                .map(|m| IngredientDifference {
                    class: m.class.clone(),
                    score: m.score,
                    differing: m.differing.clone(),
                })
                .collect(),
            missing: d.missing.clone(),
            surplus: d.surplus.clone(),
            container: d.container_differences.clone(),
        })
    }
}

impl RecipeReport {
    /// The unrounded value of a metric (`None` where the CSV prints `NIL`).
    pub fn value(&self, m: Metric) -> Option<f64> {
        match m {
            Metric::SmatchScore => self.smatch.as_ref().map(|s| s.f_score),
            Metric::GoalConditionSuccess => self.goal_condition_success.as_ref().map(|g| g.value),
            Metric::DishApproximationScore => self.dish_approximation_score.map(f64::from),
            Metric::ExecutionTime => self.execution_time.as_ref().and_then(|t| t.as_f64()),
        }
    }

    pub fn new(r: &RecipeResult, metrics: &MetricSet) -> RecipeReport {
        let detail = r.detail.as_ref();
        let goal_condition_success = r.goal_condition_success.and_then(|ratio| {
            let goals = &detail?.goals;
            Some(GoalRatio {
                numerator: goals.reached(),
                denominator: goals.goals.len(),
                value: ratio.to_f64(),
            })
        });
        let missed_goals = match detail {
            Some(d) if metrics.contains(Metric::GoalConditionSuccess) => d
                .goals
                .goals
                .iter()
                .filter(|g| g.reached_by.is_none())
                .map(|g| MissedGoal {
                    gold_action: g.gold_predicate + 1,
                    gold_text: g.gold_text.clone(),
                    reason: g.reason.clone(),
                })
                .collect(),
            _ => Vec::new(),
        };
        let dish = detail
            .filter(|_| metrics.contains(Metric::DishApproximationScore))
            .and_then(DishDifferences::of);
        RecipeReport {
            recipe_id: r.recipe_id.clone(),
            smatch: r.smatch.as_ref().map(|s| SmatchReport {
                f_score: s.f_score,
                precision: s.precision,
                recall: s.recall,
                matched_triples: s.matched,
                test_triples: s.test_triples,
                gold_triples: s.gold_triples,
                reference_climb: s.reference_climb,
                optimum: s.optimum,
                hill_climbing_fell_short: s.hill_climbing_fell_short,
            }),
            goal_condition_success,
            dish_approximation_score: r.dish_approximation_score,
            execution_time: r.execution_time.map(number),
            missed_goals,
            dish,
        }
    }
}

/// The JSON document of a one-file evaluation.
pub fn render(
    signature: Signature,
    recipes: Vec<RecipeReport>,
    summary: Option<Summary>,
) -> String {
    pretty(&EvaluationReport {
        signature,
        recipes,
        summary,
    })
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

/// The JSON document of a run: [`EvaluationReport`] for one file; for a batch, the signature
/// and each file with its recipes or its refusal. With `bootstrap` (`--ci`), also the means
/// with their intervals.
pub fn render_report(report: &BatchReport, bootstrap: Option<Bootstrap>) -> String {
    let summary = bootstrap.map(|b| Summary::new(report.means(Some(b)), b));
    if !report.batch {
        let recipes = report.rows().map(|(_, r)| r.recipe.clone()).collect();
        return render(report.signature.clone(), recipes, summary);
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
    pretty(&BatchDocument {
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
    })
}
