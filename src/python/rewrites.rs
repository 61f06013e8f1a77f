//! `substitute`, `suggest_substitutes` and `scale` of `cookingbot._native`: the service's
//! answers as JSON text (`{"error", "kind", ...}` where the service refuses), for
//! `python/cookingbot/_rewrite.py`.

use super::guard::NetworkText;
use super::{detached, on_model, to_json};
use crate::data::diet_table::Diet;
use crate::service::rewrite_run::RerunFailure;
use crate::service::scale::scale_text;
use crate::service::substitute::{substitute_text, suggest};
use crate::world::rewrite::scaling::{Factor, servings_out_of_range};
use crate::world::rewrite::substitution::AmountRule;
use pyo3::prelude::*;
use pyo3::types::PyInt;
use serde_json::json;
use std::path::PathBuf;

fn request_error(message: String) -> PyResult<String> {
    to_json(&json!({ "error": message, "kind": "request" }))
}

fn answer<T: serde::Serialize>(text: &str, answer: Result<T, RerunFailure>) -> PyResult<String> {
    match answer {
        Ok(a) => to_json(&a),
        Err(failure) => to_json(&failure.to_json(text)),
    }
}

/// Replace an ingredient in one recipe of `text` and compare the runs.
#[pyfunction]
#[pyo3(signature = (text, replace, replacement, amount_rule, recipe, reference, benchmark=None, kitchen=None))]
#[allow(clippy::too_many_arguments)]
fn substitute(
    py: Python<'_>,
    text: NetworkText,
    replace: String,
    replacement: String,
    amount_rule: String,
    recipe: Option<String>,
    reference: &str,
    benchmark: Option<PathBuf>,
    kitchen: Option<PathBuf>,
) -> PyResult<String> {
    let NetworkText(text) = text;
    detached(py, reference, |profile| {
        let rule = match AmountRule::named(&amount_rule) {
            Ok(rule) => rule,
            Err(e) => return request_error(e),
        };
        on_model(profile, benchmark, kitchen, |model, _, gold| {
            let out = substitute_text(
                model,
                &text,
                recipe.as_deref(),
                (&replace, &replacement),
                rule,
                gold,
            );
            answer(&text, out)
        })
    })
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
    detached(py, reference, |profile| {
        let diet = match diet.as_deref().map(Diet::named).transpose() {
            Ok(diet) => diet,
            Err(e) => return request_error(e.to_string()),
        };
        on_model(profile, benchmark, kitchen, |model, _, gold| {
            let network = text.as_ref().map(|t| (t.0.as_str(), recipe.as_deref()));
            match suggest(
                model,
                &ingredient,
                diet,
                network,
                AmountRule::default(),
                gold,
            ) {
                Ok(s) => to_json(&s),
                Err(e) => request_error(e),
            }
        })
    })
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
    let NetworkText(text) = text;
    let counts = (
        servings.map(|n| count(&n, "--servings")).transpose(),
        serves.map(|n| count(&n, "--serves")).transpose(),
    );
    detached(py, reference, |profile| {
        let factor = match (factor, counts) {
            (_, (Err(e), _) | (_, Err(e))) => Err(e),
            (Some(f), (Ok(None), Ok(None))) => Factor::parse(&f),
            (None, (Ok(Some(n)), Ok(Some(m)))) => Factor::servings(n, m),
            _ => Err("give a factor, or servings with serves".to_owned()),
        };
        let factor = match factor {
            Ok(factor) => factor,
            Err(e) => return request_error(e),
        };
        on_model(profile, benchmark, kitchen, |model, _, gold| {
            answer(
                &text,
                scale_text(model, &text, recipe.as_deref(), factor, gold),
            )
        })
    })
}

/// A count of servings as Python gives it, any int: one past `u32` is out of the range, as
/// the command line says of one past it.
fn count(n: &Bound<'_, PyInt>, what: &str) -> Result<u32, String> {
    n.extract().map_err(|_| servings_out_of_range(what, n))
}

/// Add these functions to the extension module.
pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(substitute, m)?)?;
    m.add_function(wrap_pyfunction!(suggest_substitutes, m)?)?;
    m.add_function(wrap_pyfunction!(scale, m)?)?;
    Ok(())
}
