//! The reference's results CSV, byte for byte.
//!
//! Header `recipe-id` then the requested metrics in fixed order; one row per recipe, the
//! recipe id, a comma, then the metrics separated by commas and ended by a newline. With no
//! metric requested the reference writes the comma after the id and nothing else, not even a
//! newline; that is reproduced.
//!
//! A batch (several files, or a directory) gets a leading `file` column, no rows for a refused
//! file, and a last line `# signature: ...` saying how the numbers were computed.

use super::batch_report::BatchReport;
use crate::metrics::metric::{MetricSet, RecipeResult};

pub fn render(results: &[RecipeResult], metrics: &MetricSet) -> String {
    let rows: Vec<(&str, Vec<String>)> = results
        .iter()
        .map(|r| (r.recipe_id.as_str(), r.cells(metrics)))
        .collect();
    render_rows(
        rows.iter().map(|(id, cells)| (*id, cells.as_slice())),
        metrics,
    )
}

/// The reference's CSV of rows already formatted: recipe id and metric cells.
fn render_rows<'a>(
    rows: impl Iterator<Item = (&'a str, &'a [String])>,
    metrics: &MetricSet,
) -> String {
    let mut out = String::from("recipe-id");
    for name in metrics.column_names() {
        out.push(',');
        out.push_str(&name);
    }
    out.push('\n');
    for (id, cells) in rows {
        out.push_str(id);
        out.push(',');
        if !cells.is_empty() {
            out.push_str(&cells.join(","));
            out.push('\n');
        }
    }
    out
}

/// The CSV of a run: the reference's for one file, with a file column for a batch.
pub fn render_report(report: &BatchReport) -> String {
    let metrics = report.metrics();
    if !report.batch {
        let rows = report
            .rows()
            .map(|(_, r)| (r.recipe.recipe_id.as_str(), r.printed.as_slice()));
        return render_rows(rows, &metrics);
    }
    let mut out = String::from("file,recipe-id");
    for name in metrics.column_names() {
        out.push(',');
        out.push_str(&name);
    }
    out.push('\n');
    for (file, row) in report.rows() {
        out.push_str(&quoted(file));
        out.push(',');
        out.push_str(&row.recipe.recipe_id);
        for cell in &row.printed {
            out.push(',');
            out.push_str(cell);
        }
        out.push('\n');
    }
    out.push_str(&format!("# signature: {}\n", report.signature));
    out
}

/// A field in RFC 4180 quotes when it holds a comma, a quote or a line break.
fn quoted(field: &str) -> String {
    if field.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::number::Number;
    use crate::metrics::metric::Metric;
    use crate::metrics::smatch::SmatchResult;

    fn smatch(f_score: f64) -> Option<SmatchResult> {
        Some(SmatchResult {
            precision: f_score,
            recall: f_score,
            f_score,
            matched: 0,
            test_triples: 0,
            gold_triples: 0,
            reference_climb: 0,
            optimum: None,
            proven: false,
            bound: None,
            hill_climbing_fell_short: false,
            climb_complete: true,
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
            diets: Vec::new(),
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
        assert_eq!(quoted("a,b\"c"), "\"a,b\"\"c\"");
        assert_eq!(quoted("dir/a.solution"), "dir/a.solution");
        assert_eq!(Metric::parse("Execution-Time"), Some(Metric::ExecutionTime));
    }
}
