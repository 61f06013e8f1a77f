//! The four metrics by name, a choice of them, and one recipe's values: what every report,
//! statistic and front end counts in.

use crate::base::number::Number;
use crate::base::suggest::closest;
use crate::data::diet_table::{Diet, UnknownDiet};
use crate::metrics::Detail;
use crate::metrics::diet::Verdict;
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

/// The prefix of a diet column's name: `diet:vegan`.
pub const DIET_PREFIX: &str = "diet:";

/// The diet a metric word such as `diet:vegan` names, when it names one (`None` for a word
/// without the prefix); a typo after the prefix is the error with the closest diet.
pub fn diet_word(word: &str) -> Option<Result<Diet, UnknownDiet>> {
    let prefix = word.get(..DIET_PREFIX.len())?;
    prefix
        .eq_ignore_ascii_case(DIET_PREFIX)
        .then(|| Diet::named(&word[DIET_PREFIX.len()..]))
}

/// Which metrics a run computes. The reference's default is the three simulation metrics;
/// `none` evaluates nothing. Diets (`diet:vegan`) are columns of our own after the
/// reference's four, judged on the simulated dish.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct MetricSet {
    enabled: [bool; 4],
    diets: [bool; 6],
    pub none: bool,
}

impl Default for MetricSet {
    fn default() -> Self {
        MetricSet {
            enabled: [false, true, true, true],
            diets: [false; 6],
            none: false,
        }
    }
}

impl MetricSet {
    pub fn empty() -> Self {
        MetricSet {
            enabled: [false; 4],
            diets: [false; 6],
            none: false,
        }
    }

    /// From the words given to `-metrics`: unknown names are ignored (as the reference does);
    /// no words at all means the default; `diet:NAME` adds a diet's column, and with only
    /// diets named the reference's default metrics stay.
    pub fn from_words<S: AsRef<str>>(words: &[S]) -> MetricSet {
        let (diets, metrics): (Vec<&str>, Vec<&str>) = words
            .iter()
            .map(AsRef::as_ref)
            .partition(|w| diet_word(w).is_some());
        let mut set = if metrics.is_empty() {
            MetricSet::default()
        } else {
            MetricSet::empty()
        };
        for w in metrics {
            if w.eq_ignore_ascii_case("none") {
                set.none = true;
            } else if let Some(m) = Metric::parse(w) {
                set.enabled[m as usize] = true;
            }
        }
        for diet in diets.into_iter().filter_map(|w| diet_word(w)?.ok()) {
            set = set.with_diet(diet);
        }
        set
    }

    pub fn with_diet(mut self, diet: Diet) -> Self {
        self.diets[diet as usize] = true;
        self
    }

    /// The diets judged, in [`Diet::ALL`]'s order.
    pub fn diets(&self) -> impl Iterator<Item = Diet> + '_ {
        Diet::ALL.into_iter().filter(|d| self.diets[*d as usize])
    }

    /// The names of the columns, in order: the metrics', then `diet:NAME` for each diet.
    pub fn column_names(&self) -> impl Iterator<Item = String> + '_ {
        let diets = self.diets().map(|d| format!("{DIET_PREFIX}{}", d.name()));
        self.iter().map(|m| m.name().to_string()).chain(diets)
    }

    /// The labels of the console summary, in column order.
    pub fn column_labels(&self) -> impl Iterator<Item = String> + '_ {
        let diets = self.diets().map(|d| format!("Diet {}", d.name()));
        self.iter().map(|m| m.label().to_string()).chain(diets)
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
                || self.contains(Metric::ExecutionTime)
                || self.diets().next().is_some())
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
    /// The simulated dish judged against each diet asked for, in the columns' order.
    pub diets: Vec<Verdict>,
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

    /// Every column as printed: the metrics', then each diet's `1`, `0` or `NIL`.
    pub fn cells(&self, metrics: &MetricSet) -> Vec<String> {
        let diet = |d: Diet| {
            let verdict = self.diets.iter().find(|v| v.diet == d);
            verdict.map_or("NIL", Verdict::cell).to_string()
        };
        let cells = metrics.iter().map(|m| self.formatted(m));
        cells.chain(metrics.diets().map(diet)).collect()
    }
}

/// The reference reads Smatch back from Python's `%.2f` and prints it again with two decimals.
fn smatch_decimals(f: f64) -> String {
    format!("{f:.2}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diet_words_add_columns_after_the_metrics_and_keep_the_default() {
        let diets_only = MetricSet::from_words(&["diet:vegan"]);
        assert_eq!(diets_only, MetricSet::default().with_diet(Diet::Vegan));
        let set =
            MetricSet::from_words(&["DIET:Nut-Free", "smatch-score", "diet:vegan", "diet:vegn"]);
        assert_eq!(
            set.column_names().collect::<Vec<_>>(),
            ["smatch-score", "diet:vegan", "diet:nut-free"]
        );
        assert!(set.needs_simulation());
        assert!(diet_word("smatch-score").is_none());
        assert!(diet_word("diet:vegn").is_some_and(|d| d.is_err()));
    }
}
