//! Batches scored where the rows are, as the command line scores its `--input` files: what
//! `cookingbot.ray` builds on. A Ray actor scores its rows with [`score_batch`] (the batch
//! scoring of `service::batch`, so each row's cells are the CSV's and a refusal is the
//! evaluation's), and the driver writes the CSV of all rows with [`batch_csv`], the command
//! line's own writer over the one-run report the rows make, signature included.

use super::guard::{NetworkText, interruptible};
use super::{metric_set, profile, to_json, workspace};
use crate::metrics::metric::MetricSet;
use crate::report::batch_report::{Shard, ShardFile, ShardReport, assemble};
use crate::report::content::Signature;
use crate::report::csv::render_report;
use crate::service::batch::{self, Input, Memo, Run};
use crate::service::scoring::{EvaluateOptions, signature};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use serde::Serialize;
use serde_json::json;
use std::path::{Path, PathBuf};

/// What [`score_batch`] answers.
#[derive(Serialize)]
struct Scored<'a> {
    signature: &'a Signature,
    files: &'a [ShardFile],
}

/// Score named solutions as one batch of the command line: per name its text, or `None` to read
/// the file of that name as the command line reads it. Returns `{"signature": <the report's
/// signature object>, "files": [<each name's file results, as a shard report holds them>]}`.
#[pyfunction]
#[pyo3(signature = (names, texts, metrics, reference, benchmark=None, kitchen=None))]
fn score_batch(
    py: Python<'_>,
    names: Vec<String>,
    texts: Vec<Option<NetworkText>>,
    metrics: Option<Vec<String>>,
    reference: &str,
    benchmark: Option<PathBuf>,
    kitchen: Option<PathBuf>,
) -> PyResult<String> {
    if names.len() != texts.len() {
        return Err(PyValueError::new_err(format!(
            "{} names for {} texts",
            names.len(),
            texts.len()
        )));
    }
    let metrics = metric_set(metrics, MetricSet::default())?;
    let profile = profile(reference)?;
    interruptible(py, |_| {
        let workspace = workspace(profile, benchmark, kitchen)?;
        let evaluator = workspace
            .evaluator()
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        let opts = EvaluateOptions::scoring(workspace.data().clone(), metrics);
        let signature = signature(&opts, workspace.kitchen_name().to_string(), &evaluator);
        let inputs: Vec<Input> = names
            .into_iter()
            .zip(texts)
            .map(|(name, text)| match text {
                Some(NetworkText(text)) => Input {
                    name,
                    text: Ok(text),
                },
                None => Input::read(Path::new(&name)),
            })
            .collect();
        let run = Run {
            evaluator: &evaluator,
            metrics: &metrics,
            shard: Shard::WHOLE,
            batch: true,
            signature,
            progress: false,
            memo: &Memo::default(),
        };
        let files = batch::score_inputs(&run, &inputs);
        // Written straight to text: a `json!` value would widen each f32 to its f64 digits.
        to_json(&Scored {
            signature: &run.signature,
            files: &files,
        })
    })
}

/// The CSV the command line writes for a run (a shard report of the whole batch, as JSON:
/// `signature`, `batch` and every file in the batch's order with all its units), byte for byte;
/// a report whose files do not each hold all their units is a `ValueError` saying which.
#[pyfunction]
fn batch_csv(report: &str) -> PyResult<String> {
    let mut report: serde_json::Value =
        serde_json::from_str(report).map_err(|e| PyValueError::new_err(e.to_string()))?;
    report["shard"] = json!(Shard::WHOLE);
    let report: ShardReport =
        serde_json::from_value(report).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let whole = assemble(vec![report]).map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(render_report(&whole))
}

/// The solution files of `--input` paths as the command line finds them (folders walked and
/// sorted, a file named twice kept once), whether they make a batch (a file column), and the
/// warnings the command line prints about them.
#[pyfunction]
fn solution_files(inputs: Vec<PathBuf>) -> PyResult<(Vec<String>, bool, String)> {
    let mut warnings = Vec::new();
    let files = batch::solution_files(&inputs, &mut warnings)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let names = files.iter().map(|f| f.display().to_string()).collect();
    Ok((
        names,
        batch::is_batch(&inputs, &files),
        String::from_utf8_lossy(&warnings).into_owned(),
    ))
}

/// Add these functions to the extension module.
pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(score_batch, m)?)?;
    m.add_function(wrap_pyfunction!(batch_csv, m)?)?;
    m.add_function(wrap_pyfunction!(solution_files, m)?)?;
    Ok(())
}
