//! `substitute`, `suggest_substitutes` and `scale` of `cookingbot._native`: the jobs of the
//! table (`service::jobs`), their answers as JSON text (`{"error", "kind", ...}` where the service refuses), for
//! `python/cookingbot/_rewrite.py`.

use super::answered;
use super::guard::NetworkText;
use crate::world::rewrite::scaling::servings_out_of_range;
use pyo3::prelude::*;
use pyo3::types::PyInt;
use serde_json::json;
use std::path::PathBuf;

/// Replace an ingredient in one recipe of `text` and compare the runs.
#[pyfunction]
#[pyo3(signature = (text, replace, replacement, amount_rule, recipe, reference, benchmark=None, kitchen=None))]
#[allow(clippy::too_many_arguments)]
fn substitute(
    py: Python<'_>,
    text: NetworkText,
    replace: String,
    replacement: String,
    amount_rule: Option<String>,
    recipe: Option<String>,
    reference: &str,
    benchmark: Option<PathBuf>,
    kitchen: Option<PathBuf>,
) -> PyResult<String> {
    let request = json!({
        "network": text.0, "replace": replace, "with": replacement,
        "amount_rule": amount_rule, "recipe": recipe,
    });
    answered(py, "substitute", request, reference, (benchmark, kitchen))
}

/// The substitutes of an ingredient, filtered by a diet, tried in `text` when one is given.
#[pyfunction]
#[pyo3(signature = (ingredient, diet, text, recipe, reference, benchmark=None, kitchen=None))]
#[allow(clippy::too_many_arguments)]
fn suggest_substitutes(
    py: Python<'_>,
    ingredient: String,
    diet: Option<String>,
    text: Option<NetworkText>,
    recipe: Option<String>,
    reference: &str,
    benchmark: Option<PathBuf>,
    kitchen: Option<PathBuf>,
) -> PyResult<String> {
    let request = json!({
        "ingredient": ingredient, "diet": diet,
        "network": text.map(|t| t.0), "recipe": recipe,
    });
    answered(py, "suggest", request, reference, (benchmark, kitchen))
}

/// Scale one recipe of `text` by `factor` (as written: `2`, `1.5`, `3/2`) or to `servings`
/// of `serves`, and compare the runs.
#[pyfunction]
#[pyo3(signature = (text, factor, servings, serves, recipe, reference, benchmark=None, kitchen=None))]
#[allow(clippy::too_many_arguments)]
fn scale(
    py: Python<'_>,
    text: NetworkText,
    factor: Option<String>,
    servings: Option<Bound<'_, PyInt>>,
    serves: Option<Bound<'_, PyInt>>,
    recipe: Option<String>,
    reference: &str,
    benchmark: Option<PathBuf>,
    kitchen: Option<PathBuf>,
) -> PyResult<String> {
    let counts = (
        servings.map(|n| count(&n, "--servings")).transpose(),
        serves.map(|n| count(&n, "--serves")).transpose(),
    );
    let (servings, serves) = match counts {
        (Ok(servings), Ok(serves)) => (servings, serves),
        (Err(e), _) | (_, Err(e)) => {
            return Ok(json!({ "error": e, "kind": "request" }).to_string());
        }
    };
    let request = json!({
        "network": text.0, "factor": factor, "servings": servings, "serves": serves,
        "recipe": recipe,
    });
    answered(py, "scale", request, reference, (benchmark, kitchen))
}

/// A count of servings as Python gives it, any int: one past `u32` is out of the range, as
/// the command line says of one past it.
fn count(n: &Bound<'_, PyInt>, what: &str) -> Result<u32, String> {
    n.extract()
        .map_err(|_| servings_out_of_range(what, n).to_string())
}

/// Add these functions to the extension module.
pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(substitute, m)?)?;
    m.add_function(wrap_pyfunction!(suggest_substitutes, m)?)?;
    m.add_function(wrap_pyfunction!(scale, m)?)?;
    Ok(())
}
