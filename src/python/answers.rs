//! The functions that answer what cooking agents are asked, from the simulated kitchen
//! (`diet`, `guide`): each the job of the table (`service::jobs`), whose answer is the JSON the
//! command line's `--format json` writes, or the refusal `simulate` returns.

use super::answered;
use super::guard::NetworkText;
use crate::data::diet_table::Diet;
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
    Diet::named(diet).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let request = json!({ "network": text.0, "diet": diet, "recipe": recipe });
    answered(py, "diet", request, reference, (benchmark, kitchen))
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
    let request = json!({ "network": text.0, "recipe": recipe });
    answered(py, "guide", request, reference, (benchmark, kitchen))
}

/// Add these functions to the extension module.
pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(diet, m)?)?;
    m.add_function(wrap_pyfunction!(guide, m)?)?;
    Ok(())
}
