//! The Python front end: the functions and classes of `cookingbot._native`, the Python
//! package's extension module (feature `python`, built by maturin; [`crate::entry`] makes the
//! module). It speaks JSON text to the typed Python layer in `python/cookingbot/`, which turns
//! it into dataclasses and exceptions; every call that works releases the GIL, and batches are
//! scored in parallel with rayon as the command line scores them. The agent session is
//! `agent_session.rs` (`Kitchen`), models with primitives written in Python
//! `python_primitive.rs` (`Model`), batches scored where their rows are (`cookingbot.ray`)
//! `batch_rows.rs`, and what guards every call (texts bounded, Ctrl-C,
//! a primitive calling back into its own model) `guard.rs`, and what the agent harness
//! needs (the splits, a mean's interval, the repaired rules) `harness.rs`.

mod agent_session;
mod batch_rows;
mod guard;
mod harness;
mod python_primitive;

use crate::base::profile::Profile;
use crate::benchmark::Benchmark;
use crate::metrics::metric::{Metric, MetricSet};
use crate::service::context::DataContext;
use crate::service::jobs::{self, Job};
use crate::service::solution_file::read_solution_text;
use crate::service::workspace::{Workspace, Workspaces};
use crate::world::rewrite::scaling;
use guard::{interruptible, job_request};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use serde_json::{Value, json};
use std::path::PathBuf;
use std::sync::Arc;

fn profile(reference: &str) -> PyResult<Profile> {
    reference
        .parse()
        .map_err(|e: String| PyValueError::new_err(e))
}

/// The workspaces of the data contexts asked for in this process: a workspace's model and
/// evaluators are loaded once (the gold networks and their runs are the slow part of a first
/// call) and reused while the files they were loaded from are unchanged.
static WORKSPACES: Workspaces = Workspaces::new();

/// The workspace of a profile, data folder and kitchen, located as the command line locates
/// them (the data downloaded when missing, unless `COOKINGBOT_OFFLINE`).
fn workspace(
    profile: Profile,
    benchmark: Option<PathBuf>,
    kitchen: Option<PathBuf>,
) -> PyResult<Arc<Workspace>> {
    workspace_of(DataContext::from_env(profile, benchmark, kitchen))
}

/// The workspace of a data context, as [`workspace`] opens it.
fn workspace_of(data: DataContext) -> PyResult<Arc<Workspace>> {
    WORKSPACES
        .open(data)
        .map_err(|e| PyRuntimeError::new_err(e.to_string()))
}

/// A job of the table on a request, in the workspace of the profile named as on the command
/// line, `benchmark` and `kitchen`, with the GIL released and stopped by Ctrl-C: whether it
/// was refused, and the answer's or the refusal's JSON.
#[pyfunction]
#[pyo3(signature = (name, request, reference, benchmark=None, kitchen=None))]
fn job(
    py: Python<'_>,
    name: &str,
    request: &str,
    reference: &str,
    benchmark: Option<PathBuf>,
    kitchen: Option<PathBuf>,
) -> PyResult<(bool, String)> {
    let job = Job::named(name).map_err(|e| PyValueError::new_err(e.error))?;
    let request = job_request(request)?;
    detached_pair(py, reference, |profile| {
        let workspace = workspace(profile, benchmark, kitchen)?;
        Ok(answered(job.answer(&workspace, request)))
    })
}

/// A job's answer as the extension module returns it: whether it was refused, and the
/// answer's or the refusal's JSON.
fn answered(answer: Result<Value, jobs::Refusal>) -> (bool, String) {
    match answer {
        Ok(answer) => (false, answer.to_string()),
        Err(refusal) => (true, refusal.to_json().to_string()),
    }
}

/// The metrics named as the jobs read them (`none` included), else the three simulation
/// metrics; a misspelt name is a `ValueError` naming the closest metric.
fn metric_set(words: Option<Vec<String>>) -> PyResult<MetricSet> {
    jobs::metrics_or(words.as_deref(), MetricSet::default)
        .map_err(|e| PyValueError::new_err(e.error))
}

/// A call's work on the profile named as on the command line, done with the GIL released
/// and stopped by Ctrl-C.
fn detached(
    py: Python<'_>,
    reference: &str,
    work: impl FnOnce(Profile) -> PyResult<String> + Send,
) -> PyResult<String> {
    detached_pair(py, reference, work)
}

/// [`detached`], for any answer.
fn detached_pair<T: Send>(
    py: Python<'_>,
    reference: &str,
    work: impl FnOnce(Profile) -> PyResult<T> + Send,
) -> PyResult<T> {
    let profile = profile(reference)?;
    interruptible(py, |_| work(profile))
}

fn to_json(value: &impl serde::Serialize) -> PyResult<String> {
    serde_json::to_string(value).map_err(|e| PyRuntimeError::new_err(e.to_string()))
}

/// The benchmark's recipes: id, recipe text (as the data holds it; none for the demo), gold
/// network text and gold file.
#[pyfunction]
#[pyo3(signature = (reference, path=None))]
fn benchmark_recipes(py: Python<'_>, reference: &str, path: Option<PathBuf>) -> PyResult<String> {
    detached(py, reference, |profile| {
        let e = workspace(profile, path, None)?
            .evaluator()
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        let b: &Benchmark = &e.benchmark;
        let entries = b
            .source
            .manifest(profile)
            .map(|m| m.recipes)
            .unwrap_or_default();
        let text = |id: &str| {
            let entry = entries.iter().find(|entry| entry.id == id)?;
            std::fs::read_to_string(b.source.recipe_text(entry)?).ok()
        };
        let recipes: Vec<Value> = b
            .recipes
            .iter()
            .map(|r| {
                json!({
                    "id": r.id,
                    "text": text(&r.id),
                    "gold": format!("{}\n", r.network),
                    "file": r.file.display().to_string(),
                })
            })
            .collect();
        to_json(&recipes)
    })
}

/// A `.solution` file's text, read as the command line reads it (regular files of at most
/// 64 MiB of UTF-8); a file that cannot be read is a `ValueError` naming it.
#[pyfunction]
fn read_solution(py: Python<'_>, path: PathBuf) -> PyResult<String> {
    py.detach(|| read_solution_text(&path))
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// Why a count of servings (`what`: `--servings` or `--serves`) that no JSON request can
/// carry (below 0, past `u64`) is out of scale's range, as the command line says it.
#[pyfunction]
fn servings_out_of_range(what: &str, count: &str) -> String {
    scaling::servings_out_of_range(what, count).to_string()
}

/// The metric names, in the report's order.
#[pyfunction]
fn metric_names() -> Vec<&'static str> {
    Metric::ALL.map(Metric::name).to_vec()
}

/// Add this front end's functions and classes to the extension module [`crate::entry`]
/// builds.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<agent_session::Kitchen>()?;
    m.add_class::<python_primitive::PyModel>()?;
    m.add_function(wrap_pyfunction!(job, m)?)?;
    m.add_function(wrap_pyfunction!(benchmark_recipes, m)?)?;
    m.add_function(wrap_pyfunction!(metric_names, m)?)?;
    m.add_function(wrap_pyfunction!(read_solution, m)?)?;
    m.add_function(wrap_pyfunction!(servings_out_of_range, m)?)?;
    batch_rows::register(m)?;
    harness::register(m)
}
