//! The functions that answer what cooking agents are asked, from the simulated kitchen
//! (`diet`): each returns the JSON the command line's `--format json` writes, or the refusal
//! `simulate` returns.

use super::{detached, on_model, refusal, to_json};
use crate::data::diet_table::Diet;
use crate::service::diet_check::diet_text;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use serde_json::json;
use std::path::PathBuf;

/// One recipe's dish judged against a diet: `diet --format json`'s object, or
/// `{"error", ...}`. A misspelt diet is a `ValueError` naming the closest.
#[pyfunction]
#[pyo3(signature = (text, diet, recipe, reference, benchmark=None, kitchen=None))]
fn diet(
    py: Python<'_>,
    text: String,
    diet: &str,
    recipe: Option<String>,
    reference: &str,
    benchmark: Option<PathBuf>,
    kitchen: Option<PathBuf>,
) -> PyResult<String> {
    let diet = Diet::named(diet).map_err(|e| PyValueError::new_err(e.to_string()))?;
    detached(py, reference, |profile| {
        on_model(profile, benchmark, kitchen, |model, _, gold| {
            let out = match diet_text(model, &text, recipe.as_deref(), diet, gold) {
                Ok(answer) => json!(answer),
                Err(failure) => refusal(&text, failure),
            };
            to_json(&out)
        })
    })
}

/// Add these functions to the extension module.
pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(diet, m)?)?;
    Ok(())
}
