//! What the Python agent harness (`python -m cookingbot.agents`) needs of the library: the
//! official splits (`data::splits`), a corpus mean with the bootstrap interval `compare`
//! draws, and the rules translator's network repaired by the repairing agent
//! (`service::agent::repair`), so that its table's rule rows are the Rust agents' own.

use super::{detached, to_json, workspace};
use crate::data::splits::splits as official_splits;
use crate::service::agent::repair::repair;
use crate::service::comparison::mean_with_interval;
use crate::service::session::Session;
use crate::service::translation::benchmark_text;
use crate::translate::Translator;
use crate::translate::rules::RulesTranslator;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use serde_json::{Value, json};
use std::path::PathBuf;
use std::sync::Arc;

/// The official splits as JSON: a list of `{"id", "benchmark", "kind", "split"}`.
#[pyfunction]
fn splits() -> PyResult<String> {
    to_json(&official_splits())
}

/// The corpus mean of per-recipe scores (None for NIL, counted as 0) with `compare`'s 95 %
/// bootstrap interval: `{"mean", "ci", "executed", "recipes"}`; a count of resamples outside
/// 1 to 1,000,000 is a `ValueError`.
#[pyfunction]
fn corpus_interval(scores: Vec<Option<f64>>, bootstrap: usize, seed: u64) -> PyResult<String> {
    let (mean, interval) = mean_with_interval(&scores, bootstrap, seed)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    to_json(&json!({
        "mean": mean.mean,
        "ci": [interval.low, interval.high],
        "executed": mean.executed,
        "recipes": mean.recipes,
    }))
}

/// The rules translator's network of `recipe` (its text in the benchmark) given line by line
/// to a session by the repairing agent: `{"script", "turns": [{"line", "observation",
/// "taken_back"}], "repairs", "network", "finish"}`, `finish` as `Kitchen.finish` answers.
#[pyfunction]
#[pyo3(signature = (recipe, reference, benchmark=None, kitchen=None))]
fn repair_rules(
    py: Python<'_>,
    recipe: String,
    reference: &str,
    benchmark: Option<PathBuf>,
    kitchen: Option<PathBuf>,
) -> PyResult<String> {
    let failed = |e: &dyn std::fmt::Display| PyRuntimeError::new_err(e.to_string());
    detached(py, reference, |profile| {
        let evaluator = workspace(profile, benchmark, kitchen)?
            .evaluator()
            .map_err(|e| failed(&e))?;
        let source = &evaluator.benchmark.source;
        let entries = source.manifest(profile).map_err(|e| failed(&e))?.recipes;
        let entry = entries.iter().find(|e| e.id == recipe).ok_or_else(|| {
            PyValueError::new_err(format!("the benchmark has no recipe `{recipe}`"))
        })?;
        let text = benchmark_text(source, entry).map_err(|e| failed(&e))?;
        let script = RulesTranslator::new(&evaluator.model)
            .translate(&text, 0)
            .map_err(|e| failed(&e))?
            .solution;
        let mut session =
            Session::with_evaluator(Arc::clone(&evaluator), &recipe).map_err(|e| failed(&e))?;
        let repaired = repair(&mut session, &script).map_err(|e| failed(&e))?;
        let turns: Vec<Value> = repaired
            .episode
            .turns
            .iter()
            .map(|t| json!({"line": t.line, "observation": t.observation.json(), "taken_back": t.taken_back}))
            .collect();
        let score = &repaired.episode.score;
        to_json(&json!({
            "script": script,
            "turns": turns,
            "repairs": repaired.repairs,
            "network": session.network(),
            "finish": {"csv": score.csv, "unit": score.json, "why_no_dish": score.why_no_dish},
        }))
    })
}

/// Add the harness's functions to the extension module.
pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(splits, m)?)?;
    m.add_function(wrap_pyfunction!(corpus_interval, m)?)?;
    m.add_function(wrap_pyfunction!(repair_rules, m)?)
}
