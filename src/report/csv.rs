//! The reference's results CSV, byte for byte.
//!
//! Header `recipe-id` then the requested metrics in fixed order; one row per recipe, the
//! recipe id, a comma, then the metrics separated by commas and ended by a newline. With no
//! metric requested the reference writes the comma after the id and nothing else, not even a
//! newline; that is reproduced.

use super::{MetricSet, RecipeResult};

pub fn render(results: &[RecipeResult], metrics: &MetricSet) -> String {
    let mut out = String::from("recipe-id");
    for m in metrics.iter() {
        out.push(',');
        out.push_str(m.name());
    }
    out.push('\n');
    for r in results {
        out.push_str(&r.recipe_id);
        out.push(',');
        let cols: Vec<String> = metrics.iter().map(|m| r.formatted(m)).collect();
        if !cols.is_empty() {
            out.push_str(&cols.join(","));
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::smatch::SmatchResult;
    use crate::number::Number;
    use crate::report::Metric;

    fn smatch(f_score: f64) -> Option<SmatchResult> {
        Some(SmatchResult {
            precision: f_score,
            recall: f_score,
            f_score,
            matched: 0,
            test_triples: 0,
            gold_triples: 0,
            exact_optimum: None,
            hill_climbing_fell_short: false,
        })
    }

    fn row(id: &str) -> RecipeResult {
        RecipeResult {
            recipe_id: id.into(),
            smatch: smatch(0.9965),
            goal_condition_success: Number::ratio(25, 26),
            dish_approximation_score: Some(0.8506667),
            execution_time: Some(Number::int(2550)),
            detail: None,
        }
    }

    #[test]
    fn default_metrics_match_the_script_example() {
        let rows = [row("almond-crescent-cookies")];
        assert_eq!(
            render(&rows, &MetricSet::default()),
            "recipe-id,goal-condition-success,dish-approximation-score,execution-time\n\
             almond-crescent-cookies,0.96,0.85,2550\n"
        );
    }

    #[test]
    fn no_execution_prints_nil_and_smatch_is_first() {
        let mut r = RecipeResult {
            recipe_id: "x".into(),
            ..Default::default()
        };
        r.smatch = smatch(0.5);
        let set = MetricSet::from_words(&["execution-time", "smatch-score"]);
        assert_eq!(
            render(&[r], &set),
            "recipe-id,smatch-score,execution-time\nx,0.50,NIL\n"
        );
    }

    #[test]
    fn no_metric_leaves_the_dangling_comma() {
        let set = MetricSet::from_words(&["bogus"]);
        assert_eq!(set.iter().count(), 0);
        assert_eq!(render(&[row("a")], &set), "recipe-id\na,");
        assert!(MetricSet::from_words(&["NONE"]).none);
        assert_eq!(Metric::parse("Execution-Time"), Some(Metric::ExecutionTime));
    }
}
