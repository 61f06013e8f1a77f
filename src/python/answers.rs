//! The functions that answer what cooking agents are asked, from the simulated kitchen
//! (`diet`, `guide`): each returns the JSON the command line's `--format json` writes, or the
//! refusal `simulate` returns.

use super::guard::NetworkText;
use super::{detached, on_model, refusal, to_json};
use crate::data::diet_table::Diet;
use crate::service::diet_check::diet_text;
use crate::service::guide::guide_text;
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
    text: NetworkText,
    diet: &str,
    recipe: Option<String>,
    reference: &str,
    benchmark: Option<PathBuf>,
    kitchen: Option<PathBuf>,
) -> PyResult<String> {
    let diet = Diet::named(diet).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let text = text.0;
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

/// One recipe's cook's guide: `guide --format json`'s object, or `{"error", ...}`.
#[pyfunction]
#[pyo3(signature = (text, recipe, reference, benchmark=None, kitchen=None))]
fn guide(
    py: Python<'_>,
    text: NetworkText,
    recipe: Option<String>,
    reference: &str,
    benchmark: Option<PathBuf>,
    kitchen: Option<PathBuf>,
) -> PyResult<String> {
    let text = text.0;
    detached(py, reference, |profile| {
        on_model(profile, benchmark, kitchen, |model, _, _| {
            let out = match guide_text(model, &text, recipe.as_deref()) {
                Ok(guide) => json!(guide),
                Err(failure) => refusal(&text, failure),
            };
            to_json(&out)
        })
    })
}

/// Add these functions to the extension module.
pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(diet, m)?)?;
    m.add_function(wrap_pyfunction!(guide, m)?)?;
    Ok(())
}
