//! The jobs on solution files as the benchmark scores them: the evaluation of files and folders
//! (the JSON report `evaluate --format json` writes), and the comparison of systems (what
//! `compare --format json` writes).

use super::networks::metric_set;
use super::refusal::Refusal;
use crate::metrics::metric::{Metric, MetricSet, diet_word};
use crate::report::batch_report::Bootstrap;
use crate::report::json::Evaluation;
use crate::service::batch;
use crate::service::comparison::{self, CompareAnswer, CompareFormat, CompareOptions};
use crate::service::scoring::{self, EvaluateOptions, check_ci};
use crate::service::solution_file::{STDIN, read_solution_text};
use crate::service::workspace::Workspace;
use schemars::JsonSchema;
use serde::Deserialize;
use std::path::PathBuf;

fn seed() -> u64 {
    12345
}

/// `paths` refused when one is `-`: a job reads files, never standard input (the tool
/// server's is its protocol).
fn no_standard_input(paths: &[PathBuf]) -> Result<(), Refusal> {
    if paths.iter().any(|p| p.as_os_str() == STDIN) {
        return Err(Refusal::request(
            "`-` is standard input, which a job does not read: give the paths of files or folders",
        ));
    }
    Ok(())
}

/// Solution files to score.
#[derive(Deserialize, JsonSchema)]
pub struct EvaluateRequest {
    /// Solution files and folders of them (searched for `*.solution` files), as paths on the
    /// machine the evaluator runs on. One file gives its recipes; several, or a folder, a
    /// batch: each file with its recipes or its refusal.
    pub inputs: Vec<PathBuf>,
    /// The metrics, named as `--metrics` names them (`diet:vegan` too; default: the three
    /// simulation metrics).
    pub metrics: Option<Vec<String>>,
    /// Add the 95 % bootstrap interval to each mean (`--ci`): this many resamples (1 to
    /// 1,000,000).
    pub bootstrap: Option<usize>,
    /// The seed of the bootstrap's resamples (default 12345).
    #[serde(default = "seed")]
    pub seed: u64,
}

/// The metrics an evaluation computes: the named ones (diets and `none` too), else the three
/// simulation metrics; a misspelt name is refused naming the closest.
fn evaluation_metrics(words: Option<&[String]>) -> Result<MetricSet, Refusal> {
    let Some(words) = words.filter(|w| !w.is_empty()) else {
        return Ok(MetricSet::default());
    };
    for w in words.iter().filter(|w| !w.eq_ignore_ascii_case("none")) {
        match diet_word(w) {
            Some(diet) => diet.map(|_| ()).map_err(|e| e.to_string()),
            None => Metric::named(w).map(|_| ()).map_err(|e| e.to_string()),
        }
        .map_err(Refusal::request)?;
    }
    let metrics = MetricSet::from_words(words);
    if metrics.none {
        return Err(Refusal::request(
            "the metrics `none` evaluate nothing: name the metrics to compute",
        ));
    }
    Ok(metrics)
}

/// Solution files scored against the workspace benchmark's gold networks, as `evaluate`
/// scores them: the JSON report. One file the evaluator refuses is refused, as the command
/// writes no results for it; in a batch, a refused file is one of the answer's files.
pub fn evaluate(workspace: &Workspace, request: EvaluateRequest) -> Result<Evaluation, Refusal> {
    no_standard_input(&request.inputs)?;
    let ci = request.bootstrap.map(|resamples| Bootstrap {
        resamples,
        seed: request.seed,
    });
    let opts = EvaluateOptions {
        inputs: request.inputs,
        ci,
        ..EvaluateOptions::scoring(
            workspace.data().clone(),
            evaluation_metrics(request.metrics.as_deref())?,
        )
    };
    let quiet = &mut std::io::sink();
    check_ci(opts.ci, quiet).map_err(|e| Refusal::request(e.to_string()))?;
    let files = batch::solution_files(&opts.inputs, quiet);
    let files = files.map_err(|e| Refusal::new(e.to_string()))?;
    if !batch::is_batch(&opts.inputs, &files) {
        read_solution_text(&files[0]).map_err(|e| Refusal::new(e.to_string()))?;
    }
    let evaluator = workspace
        .evaluator()
        .map_err(|e| Refusal::new(e.to_string()))?;
    let kitchen = workspace.kitchen_name().to_owned();
    let scored = scoring::score_files(&evaluator, kitchen, &opts, &files, quiet);
    let report = scoring::assembled(scored).map_err(|e| Refusal::new(e.to_string()))?;
    let refused = report.refusals().next().filter(|_| !report.batch);
    if let Some((file, refusal)) = refused {
        return Err(Refusal::new(refusal.message.clone())
            .with("file", file)
            .with("rendered", &refusal.rendered)
            .with("recipes", &refusal.recipes));
    }
    Ok(Evaluation { report, ci })
}

fn bootstrap() -> usize {
    1000
}

fn trials() -> usize {
    comparison::RANDOMIZATION_TRIALS
}

/// Systems to compare.
#[derive(Deserialize, JsonSchema)]
pub struct CompareRequest {
    /// The baseline first, then the systems: each a `.solution` file or a folder of them, as
    /// a path on the machine the evaluator runs on.
    pub systems: Vec<PathBuf>,
    /// The metrics compared (default: goal-condition-success and dish-approximation-score).
    pub metrics: Option<Vec<String>>,
    /// Bootstrap resamples (default 1000).
    #[serde(default = "bootstrap")]
    pub bootstrap: usize,
    /// Randomization trials when more than 20 recipes differ (default 10000).
    #[serde(default = "trials")]
    pub trials: usize,
    /// The seed of the resamples and trials (default 12345).
    #[serde(default = "seed")]
    pub seed: u64,
}

/// Each system scored as `evaluate` scores it and compared with the baseline: per metric the
/// corpus means with their bootstrap intervals, the paired tests and the leaderboard.
pub fn compare(workspace: &Workspace, request: CompareRequest) -> Result<CompareAnswer, Refusal> {
    no_standard_input(&request.systems)?;
    let metrics = request.metrics.filter(|words| !words.is_empty());
    let metrics = match metrics {
        Some(words) => metric_set(Some(&words))?,
        None => comparison::default_metrics(),
    };
    let opts = CompareOptions {
        systems: request.systems,
        evaluation: EvaluateOptions::scoring(workspace.data().clone(), metrics),
        output: PathBuf::from(scoring::STDOUT),
        format: CompareFormat::Json,
        bootstrap: request.bootstrap,
        trials: request.trials,
        seed: request.seed,
        dump_resamples: None,
    };
    let quiet = &mut std::io::sink();
    comparison::check_options(&opts, quiet).map_err(Refusal::request)?;
    let evaluator = workspace
        .evaluator()
        .map_err(|e| Refusal::new(e.to_string()))?;
    let compared = comparison::compared(&evaluator, workspace.kitchen_name(), &opts, quiet);
    Ok(comparison::answer(&compared.map_err(Refusal::new)?, &opts))
}
