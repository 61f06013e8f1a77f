//! The four metrics by name, a choice of them, and one recipe's values: what every report,
//! statistic and front end counts in.

use crate::base::number::Number;
use crate::base::suggest::closest;
use crate::metrics::Detail;
use crate::metrics::smatch::SmatchResult;
use serde::{Deserialize, Serialize};

/// The four metrics, in the reference's fixed column order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Metric {
    SmatchScore,
    GoalConditionSuccess,
    DishApproximationScore,
    ExecutionTime,
}

impl Metric {
    pub const ALL: [Metric; 4] = [
        Metric::SmatchScore,
        Metric::GoalConditionSuccess,
        Metric::DishApproximationScore,
        Metric::ExecutionTime,
    ];

    /// The name used in the CSV header and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Metric::SmatchScore => "smatch-score",
            Metric::GoalConditionSuccess => "goal-condition-success",
            Metric::DishApproximationScore => "dish-approximation-score",
            Metric::ExecutionTime => "execution-time",
        }
    }

    /// The label of the console summary.
    pub fn label(self) -> &'static str {
        match self {
            Metric::SmatchScore => "Smatch Score",
            Metric::GoalConditionSuccess => "Goal-Condition Success",
            Metric::DishApproximationScore => "Dish Approximation Score",
            Metric::ExecutionTime => "Recipe Execution Time",
        }
    }

    /// Case-insensitive, as the reference reads metric names as Lisp symbols.
    pub fn parse(s: &str) -> Option<Metric> {
        Metric::ALL
            .into_iter()
            .find(|m| m.name().eq_ignore_ascii_case(s))
    }

    /// [`Metric::parse`] with the error a user sees: the names, and the closest one to a typo.
    pub fn named(s: &str) -> Result<Metric, UnknownMetric> {
        Metric::parse(s).ok_or_else(|| {
            let names = Metric::ALL.map(Metric::name);
            let close = closest(&s.to_ascii_lowercase(), names.into_iter(), 1);
            UnknownMetric {
                word: s.to_owned(),
                closest: close.first().map(|name| name.to_string()),
            }
        })
    }
}

/// A word that names no metric, with the closest name when one is near.
#[derive(Debug, thiserror::Error)]
#[error("`{word}` is not a metric (one of {names}){hint}",
    names = Metric::ALL.map(Metric::name).join(", "),
    hint = closest.as_ref().map(|c| format!("; did you mean `{c}`?")).unwrap_or_default())]
pub struct UnknownMetric {
    pub word: String,
    pub closest: Option<String>,
}

/// Which metrics a run computes. The reference's default is the three simulation metrics;
/// `none` evaluates nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct MetricSet {
    enabled: [bool; 4],
    pub none: bool,
}

impl Default for MetricSet {
    fn default() -> Self {
        MetricSet {
            enabled: [false, true, true, true],
            none: false,
        }
    }
}

impl MetricSet {
    pub fn empty() -> Self {
        MetricSet {
            enabled: [false; 4],
            none: false,
        }
    }

    /// From the words given to `-metrics`: unknown names are ignored (as the reference does);
    /// no words at all means the default.
    pub fn from_words<S: AsRef<str>>(words: &[S]) -> MetricSet {
        if words.is_empty() {
            return MetricSet::default();
        }
        let mut set = MetricSet::empty();
        for w in words {
            let w = w.as_ref();
            if w.eq_ignore_ascii_case("none") {
                set.none = true;
            } else if let Some(m) = Metric::parse(w) {
                set.enabled[m as usize] = true;
            }
        }
        set
    }

    pub fn with(mut self, m: Metric) -> Self {
        self.enabled[m as usize] = true;
        self
    }

    pub fn contains(&self, m: Metric) -> bool {
        self.enabled[m as usize]
    }

    /// The requested metrics in column order.
    pub fn iter(&self) -> impl Iterator<Item = Metric> + '_ {
        Metric::ALL.into_iter().filter(|m| self.contains(*m))
    }

    pub fn needs_simulation(&self) -> bool {
        !self.none
            && (self.contains(Metric::GoalConditionSuccess)
                || self.contains(Metric::DishApproximationScore)
                || self.contains(Metric::ExecutionTime))
    }
}

/// The scores of one recipe of a solution file. `None` prints as the reference's `NIL`.
#[derive(Clone, Debug, Default)]
pub struct RecipeResult {
    pub recipe_id: String,
    /// The Smatch comparison; its F-score is the `smatch-score` column.
    pub smatch: Option<SmatchResult>,
    pub goal_condition_success: Option<Number>,
    pub dish_approximation_score: Option<f32>,
    pub execution_time: Option<Number>,
    /// What lies behind the simulation metrics (when the recipe was simulated and has an
    /// execution), for the JSON report.
    pub detail: Option<Detail>,
}

impl RecipeResult {
    /// A metric as the reference prints it: two decimals for scores, `~d` for the time.
    pub fn formatted(&self, m: Metric) -> String {
        let nil = || "NIL".to_string();
        match m {
            Metric::SmatchScore => self
                .smatch
                .as_ref()
                .map(|s| smatch_decimals(s.f_score))
                .unwrap_or_else(nil),
            Metric::GoalConditionSuccess => self
                .goal_condition_success
                .map(crate::base::number::two_decimals)
                .unwrap_or_else(nil),
            Metric::DishApproximationScore => self
                .dish_approximation_score
                .map(|d| crate::base::number::two_decimals(Number::float(d)))
                .unwrap_or_else(nil),
            Metric::ExecutionTime => self
                .execution_time
                .map(|t| t.to_string())
                .unwrap_or_else(nil),
        }
    }
}

/// The reference reads Smatch back from Python's `%.2f` and prints it again with two decimals.
fn smatch_decimals(f: f64) -> String {
    format!("{f:.2}")
}
