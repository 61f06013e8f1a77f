//! One evaluation as the launcher runs it: the command line's pipeline (read, the benchmark's
//! evaluator from a `Workspace` as every front end opens one, `Evaluator::evaluate_each`
//! refusing or scoring recipe by recipe, the reference's CSV) with progress and cancellation
//! between recipes, keeping each recipe's report page for the details view.

use super::task::Reporter;
use crate::base::profile::Profile;
use crate::benchmark::{DataChoice, DataSource};
use crate::evaluate::Refusal;
use crate::language::ast::Recipe;
use crate::language::diagnostic::line_col;
use crate::metrics::metric::{MetricSet, RecipeResult};
use crate::report;
use crate::report::html::{RecipePage, ReportModel};
use crate::service::context::DataContext;
use crate::service::report_page::recipe_page;
use crate::service::scoring::{self, EvaluateOptions};
use crate::service::solution_file::read_solution_text;
use crate::service::workspace::Workspace;
use std::path::PathBuf;

/// What to evaluate.
#[derive(Clone, Debug)]
pub struct Request {
    pub input: PathBuf,
    pub output: PathBuf,
    pub metrics: MetricSet,
    pub profile: Profile,
    pub data: DataSource,
}

impl Request {
    /// The same run as the command line's `-input I -output O -metrics ...`.
    fn options(&self) -> EvaluateOptions {
        let data = DataContext {
            profile: self.profile,
            benchmark: Some(DataChoice::from(&self.data)),
            kitchen: None,
            // The window names its data folder (or the demo) and fetches only from its button.
            offline: true,
            ..DataContext::default()
        };
        EvaluateOptions {
            inputs: vec![self.input.clone()],
            output: self.output.clone(),
            ..EvaluateOptions::scoring(data, self.metrics)
        }
    }
}

/// How an evaluation ended.
pub enum Outcome {
    Scored(Box<Evaluation>),
    /// The reference refuses the file: nothing was written.
    Refused(Vec<Problem>),
    /// The input, the benchmark data or the output could not be used.
    Failed(String),
    Cancelled,
}

/// A problem in the input, located where the text allows.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    /// 1-based line and column.
    pub at: Option<(usize, usize)>,
    pub message: String,
}

/// A scored file.
pub struct Evaluation {
    pub metrics: MetricSet,
    /// In the reference's order (the CSV's).
    pub rows: Vec<RecipeRow>,
    /// Exactly what the command line writes for the same run.
    pub csv: String,
    /// Where the CSV was written.
    pub output: PathBuf,
    /// The HTML report of the recipes that have a page, in file order.
    pub report: ReportModel,
}

pub struct RecipeRow {
    pub recipe_id: String,
    /// The CSV's cells, in metric order.
    pub printed: Vec<String>,
    /// What lies behind the scores, or why the recipe cannot be shown.
    pub page: Result<RecipePage, String>,
}

/// Run `request`, reporting progress; writes the CSV (whole or not at all) when scored.
pub fn run(request: &Request, progress: &Reporter<Outcome>) -> Outcome {
    let opts = request.options();
    let name = request.input.display().to_string();
    let text = match read_solution_text(&request.input) {
        Ok(t) => t,
        Err(e) => return Outcome::Failed(e.to_string()),
    };
    progress.report(format!("loading {}", request.data), None);
    let workspace = match Workspace::open(opts.data.clone()) {
        Ok(workspace) => workspace,
        Err(e) => return Outcome::Failed(e.to_string()),
    };
    let evaluator = match workspace.evaluator() {
        Ok(evaluator) => evaluator,
        Err(e) => return Outcome::Failed(e.to_string()),
    };
    let mut go_on = |recipe: &Recipe, i: usize, n: usize| {
        if progress.cancelled() {
            return false;
        }
        let done = i as f32 / n as f32;
        progress.report(
            format!("scoring {} ({} of {n})", recipe.id, i + 1),
            Some(done),
        );
        true
    };
    let scored = match evaluator.evaluate_each(&text, &opts.metrics, &mut go_on) {
        Ok(Some(scored)) => scored,
        Ok(None) => return Outcome::Cancelled,
        Err(refusal) => return Outcome::Refused(problems(&refusal, &text)),
    };
    let rows: Vec<RecipeRow> = scored
        .iter()
        .map(|(recipe, result)| RecipeRow {
            recipe_id: result.recipe_id.clone(),
            printed: opts.metrics.iter().map(|m| result.formatted(m)).collect(),
            page: recipe_page(&evaluator, recipe, &text, result, &opts.metrics)
                .map_err(|e| e.to_string()),
        })
        .collect();
    let results: Vec<RecipeResult> = scored.into_iter().map(|(_, result)| result).collect();
    let csv = report::csv::render(&results, &opts.metrics);
    if let Err(e) = report::write_atomically(&opts.output, csv.as_bytes()) {
        return Outcome::Failed(format!("cannot write {}: {e}", opts.output.display()));
    }
    let report = ReportModel {
        source: name,
        signature: scoring::signature(&opts, workspace.kitchen_name().to_owned(), &evaluator),
        recipes: rows
            .iter()
            .rev()
            .filter_map(|r| r.page.as_ref().ok().cloned())
            .collect(),
        summary: None,
        trajectory: None,
    };
    Outcome::Scored(Box::new(Evaluation {
        metrics: opts.metrics,
        rows,
        csv,
        output: opts.output,
        report,
    }))
}

/// The refusal's diagnostics with their line and column, or its message.
fn problems(refusal: &Refusal, text: &str) -> Vec<Problem> {
    if refusal.diagnostics.is_empty() {
        return vec![Problem {
            at: None,
            message: refusal.message.clone(),
        }];
    }
    let mut problems: Vec<Problem> = refusal
        .diagnostics
        .iter()
        .map(|d| {
            let mut message = format!("{}: {}", d.kind, d.message);
            if let Some(hint) = &d.hint {
                message.push_str(&format!(" ({hint})"));
            }
            Problem {
                at: Some(line_col(text, d.span.start)),
                message,
            }
        })
        .collect();
    let more = refusal.diagnostics.unkept();
    if more > 0 {
        problems.push(Problem {
            at: None,
            message: format!("and {more} more diagnostic(s), not shown"),
        });
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::super::task::Task;
    use super::*;
    use eframe::egui;
    use std::sync::mpsc;

    #[test]
    fn cancelled_run_stops_before_the_next_recipe_and_writes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let output = dir.path().join("results.csv");
        let request = Request {
            input: PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/demo-mistake.solution"),
            output: output.clone(),
            metrics: MetricSet::default(),
            profile: Profile::R2024,
            data: DataSource::Demo,
        };
        // The run waits for the gate, so the cancellation is there before its first recipe.
        let (open, gate) = mpsc::channel();
        let task = Task::spawn(&egui::Context::default(), "waiting", move |reporter| {
            gate.recv().unwrap();
            run(&request, reporter)
        });
        task.cancel();
        open.send(()).unwrap();
        let outcome = loop {
            if let Some(o) = task.finished() {
                break o;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        };
        assert!(matches!(outcome, Outcome::Cancelled));
        assert!(!output.exists());
    }
}
