//! What a report says, whatever its format: each recipe's values with the detail behind them,
//! and the signature saying how they were computed. The batch model and every writer (JSON,
//! markdown, HTML, JUnit) build on these; none of them is needed to build these.

use super::dietary::DietReport;
use super::figures::number;
use crate::benchmark::DataStatus;
use crate::data::diet_table::Diet;
use crate::metrics::Detail;
use crate::metrics::dish::DishDetail;
use crate::metrics::metric::{Metric, MetricSet, RecipeResult};
use crate::metrics::smatch::SmatchResult;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Everything that determines the numbers besides the input file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Signature {
    pub tool: String,
    pub version: String,
    pub profile: String,
    /// `builtin` or the kitchen file given with `--kitchen`.
    pub kitchen: String,
    pub metrics: Vec<Metric>,
    /// The diets judged (`--metrics diet:NAME`), columns after the metrics.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub diets: Vec<Diet>,
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
    /// SHA-256 of the benchmark's own `ontology.json`, when it extends the ontology.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ontology_sha256: Option<String>,
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
        )?;
        match &self.ontology_sha256 {
            Some(sum) => write!(
                f,
                ", ontology sha256 {}",
                &sum[..Self::SHOWN.min(sum.len())]
            ),
            None => Ok(()),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SmatchSettings {
    pub seed: u64,
    pub restarts: usize,
    pub exact: bool,
    /// Search nodes branch and bound may take per pair, when `exact`: a larger budget proves
    /// more pairs, so it is part of what makes two runs comparable.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exact_budget: Option<u64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecipeReport {
    pub recipe_id: String,
    pub smatch: Option<SmatchResult>,
    pub goal_condition_success: Option<GoalRatio>,
    pub dish_approximation_score: Option<f32>,
    pub execution_time: Option<serde_json::Value>,
    /// Gold goals the prediction did not reach, in gold execution order.
    pub missed_goals: Vec<MissedGoal>,
    /// How the chosen predicted dish differs from the gold dish.
    pub dish: Option<DishDifferences>,
    /// The simulated dish against each diet asked for (`--metrics diet:NAME`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub diets: Vec<DietReport>,
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

/// How the chosen predicted dish differs from the gold dish.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DishDifferences {
    /// 1-based position of the predicted action whose output was compared.
    pub action: usize,
    #[serde(flatten)]
    pub detail: DishDetail,
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
            diets: metrics.diets().collect(),
            smatch,
            data,
        }
    }
}

/// One line for text reports: `cookingbot-evaluator 0.1.0; profile 2024; kitchen builtin;
/// metrics goal-condition-success,...; smatch seed 42, restarts 4, exact no; data official,
/// gold sha256 1a2b..., kitchen sha256 3c4d...` (in exact mode `exact yes (200 nodes)`).
impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let diets = self.diets.iter().map(|d| format!("diet:{}", d.name()));
        let metrics: Vec<String> = self
            .metrics
            .iter()
            .map(|m| m.name().to_string())
            .chain(diets)
            .collect();
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
            match (self.smatch.exact, self.smatch.exact_budget) {
                (false, _) => "no".to_string(),
                (true, Some(nodes)) => format!("yes ({nodes} nodes)"),
                (true, None) => "yes".to_string(),
            },
            self.data
        )
    }
}

impl DishDifferences {
    /// How the dish approximation score's chosen predicted dish differs from the gold dish.
    pub fn of(detail: &Detail) -> Option<DishDifferences> {
        let best = &detail.dish.scored[detail.dish.best?];
        Some(DishDifferences {
            action: best.predicate + 1,
            detail: best.detail.clone().unwrap_or_default(),
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
            smatch: r.smatch.clone(),
            goal_condition_success,
            dish_approximation_score: r.dish_approximation_score,
            execution_time: r.execution_time.map(number),
            missed_goals,
            dish,
            diets: r.diets.iter().map(|v| DietReport::new(v, None)).collect(),
        }
    }
}
