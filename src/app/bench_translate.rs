//! `benchmark`: translate every benchmark recipe's text, score each translation against its
//! gold network with the four metrics, and write the table (CSV and markdown) with the mean of
//! each metric and pass@k over K samples.

use super::data::{self, DataContext};
use super::outcome::{AppError, Exit, Outcome};
use crate::benchmark::{self, DataSource};
use crate::evaluate::Evaluator;
use crate::language::diagnostic::terminal_safe;
use crate::metrics::corpus::corpus_mean;
use crate::report::{Metric, MetricSet, RecipeResult, write_atomically};
use crate::translate::{Translator, recipe_text};
use std::fmt::Write as _;
use std::io::Write;
use std::path::PathBuf;

pub struct BenchOptions {
    pub data: DataContext,
    /// Samples per recipe (K of pass@k).
    pub samples: usize,
    /// A sample passes when its dish approximation score is at least this.
    pub pass_threshold: f32,
    /// Folder for `baseline-<translator>.csv` and `.md`.
    pub out: PathBuf,
}

/// One recipe's row: the first sample's scores and how many samples passed.
struct Row {
    result: RecipeResult,
    passed: usize,
    /// Why the first sample has no scores (translation or evaluation refused).
    problem: Option<String>,
}

/// Run the benchmark with a translator; the table on `out`, files under `opts.out`.
/// No usable benchmark data, no model to ask or a table that cannot be written is an error
/// (nothing written).
pub fn run(
    opts: &BenchOptions,
    translator: &mut dyn Translator,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Outcome {
    // Every recipe of the benchmark is an official one.
    let root = match data::locate(opts.data.request(), || true, err)? {
        DataSource::Folder(root) => root,
        DataSource::Demo => {
            return Err(AppError::Options(
                "the demo benchmark has no recipe texts compiled in; pass --benchmark DIR".into(),
            ));
        }
    };
    let evaluator = Evaluator::new(opts.data.profile, root.as_path())?;
    let metrics = Metric::ALL
        .into_iter()
        .fold(MetricSet::empty(), MetricSet::with);
    let mut rows = Vec::new();
    for entry in benchmark::manifest(opts.data.profile).recipes {
        let text = recipe_text::read(&root.join(&entry.recipe_text))
            .map_err(|e| AppError::Failed(e.to_string()))?;
        let mut row = Row {
            result: RecipeResult {
                recipe_id: entry.id.clone(),
                ..RecipeResult::default()
            },
            passed: 0,
            problem: None,
        };
        for sample in 0..opts.samples.max(1) {
            let translated = match translator.translate(&text, sample) {
                Err(e) if e.unavailable => {
                    let line = format!(
                        "{}: {e}; the benchmark stops: without answers from the model its table would measure the server, not the model",
                        entry.id
                    );
                    return Err(AppError::Failed(terminal_safe(&line).into_owned()));
                }
                t => t,
            };
            let scored = translated
                .map_err(|e| terminal_safe(&e.message).into_owned())
                .and_then(|t| {
                    evaluator
                        .evaluate(&t.solution, &metrics)
                        .map_err(|r| r.message)
                })
                .and_then(|mut results| results.pop().ok_or_else(|| "no network".into()));
            match scored {
                Ok(result) => {
                    if result
                        .dish_approximation_score
                        .is_some_and(|d| d >= opts.pass_threshold)
                    {
                        row.passed += 1;
                    }
                    if sample == 0 {
                        row.result = result;
                    }
                }
                Err(problem) if sample == 0 => row.problem = Some(problem),
                Err(_) => {}
            }
        }
        rows.push(row);
    }
    let name = translator.name().to_string();
    let markdown = markdown(&rows, &name, opts);
    let _ = write!(out, "{markdown}");
    for (ext, body) in [("md", markdown.clone()), ("csv", csv(&rows, opts))] {
        let path = opts.out.join(format!("baseline-{name}.{ext}"));
        write_atomically(&path, body.as_bytes())
            .map_err(|source| AppError::Write { path, source })?;
    }
    Ok(Exit::Success)
}

/// pass@k with n samples of which c passed (the unbiased estimator 1 − C(n−c,k)/C(n,k)).
pub fn pass_at_k(n: usize, c: usize, k: usize) -> f64 {
    if n < k || n - c < k {
        return if c > 0 { 1.0 } else { 0.0 };
    }
    let mut fail = 1.0;
    for i in (n - c + 1)..=n {
        fail *= 1.0 - k as f64 / i as f64;
    }
    1.0 - fail
}

const COLUMNS: [Metric; 4] = Metric::ALL;

/// The means: scores follow the corpus NIL policy (`metrics::corpus`: a missing value counts
/// as 0); the time averages the recipes that have one.
fn means(rows: &[Row], samples: usize) -> ([f64; 4], usize, f64) {
    let n = rows.len().max(1) as f64;
    let score = |value: fn(&Row) -> Option<f64>| {
        corpus_mean(&rows.iter().map(value).collect::<Vec<_>>()).mean
    };
    let smatch = score(|r| r.result.smatch.as_ref().map(|s| s.f_score));
    let gcs = score(|r| r.result.goal_condition_success.map(|g| g.to_f64()));
    let dish = score(|r| r.result.dish_approximation_score.map(f64::from));
    let times: Vec<f64> = rows
        .iter()
        .filter_map(|r| r.result.execution_time.map(|t| t.to_f64()))
        .collect();
    let time = times.iter().sum::<f64>() / times.len().max(1) as f64;
    let pass = rows
        .iter()
        .map(|r| pass_at_k(samples, r.passed, samples))
        .sum::<f64>()
        / n;
    ([smatch, gcs, dish, time], times.len(), pass)
}

fn markdown(rows: &[Row], name: &str, opts: &BenchOptions) -> String {
    let k = opts.samples.max(1);
    let mut s = format!(
        "# Baseline: the `{name}` translator\n\nEvery benchmark recipe's text translated by `cookingbot-evaluator benchmark --translator {name} --samples {k}` (profile {}) and scored against its gold network. A sample passes when its dish approximation score is at least {}; pass@{k} is over {k} samples per recipe.",
        opts.data.profile, opts.pass_threshold
    );
    if name == "rules" {
        s.push_str(" The rules translator is deterministic: its samples are identical, so pass@k equals pass@1.");
    }
    s.push_str(" `NIL`: no execution (or the translation was refused; see notes).\n\n");
    let _ = writeln!(
        s,
        "| recipe | smatch-score | goal-condition-success | dish-approximation-score | execution-time | passed | pass@{k} |"
    );
    s.push_str("|---|---:|---:|---:|---:|---:|---:|\n");
    for (id, cells, passed, pass) in printed(rows, k) {
        let _ = writeln!(
            s,
            "| {id} | {} | {passed}/{k} | {pass} |",
            cells.join(" | ")
        );
    }
    let (m, timed, pass) = means(rows, k);
    let _ = writeln!(
        s,
        "| **mean** | {:.3} | {:.3} | {:.3} | {:.1} ({timed} recipes) | | {pass:.3} |",
        m[0], m[1], m[2], m[3]
    );
    let problems: Vec<&Row> = rows.iter().filter(|r| r.problem.is_some()).collect();
    if !problems.is_empty() {
        s.push_str("\nNotes:\n\n");
        for r in problems {
            let _ = writeln!(
                s,
                "- `{}`: {}",
                r.result.recipe_id,
                r.problem.as_deref().unwrap_or_default()
            );
        }
    }
    s
}

/// Each row as both tables print it: the recipe id, the metrics as the reference prints them,
/// the samples passed and pass@k.
fn printed(rows: &[Row], k: usize) -> impl Iterator<Item = (&str, Vec<String>, usize, String)> {
    rows.iter().map(move |r| {
        let cells = COLUMNS.iter().map(|m| r.result.formatted(*m)).collect();
        let pass = format!("{:.2}", pass_at_k(k, r.passed, k));
        (r.result.recipe_id.as_str(), cells, r.passed, pass)
    })
}

fn csv(rows: &[Row], opts: &BenchOptions) -> String {
    let k = opts.samples.max(1);
    let mut s = String::from(
        "recipe,smatch-score,goal-condition-success,dish-approximation-score,execution-time,passed,samples,pass-at-k\n",
    );
    for (id, cells, passed, pass) in printed(rows, k) {
        let _ = writeln!(s, "{id},{},{passed},{k},{pass}", cells.join(","));
    }
    let (m, _, pass) = means(rows, k);
    let _ = writeln!(
        s,
        "mean,{:.3},{:.3},{:.3},{:.1},,{k},{pass:.3}",
        m[0], m[1], m[2], m[3]
    );
    s
}
