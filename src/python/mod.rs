//! The Python front end: the functions and classes of `cookingbot._native`, the Python
//! package's extension module (feature `python`, built by maturin; [`crate::entry`] makes the
//! module). It speaks JSON text to the typed Python layer in `python/cookingbot/`, which turns
//! it into dataclasses and exceptions; every call that works releases the GIL, and batches are
//! scored in parallel with rayon as the command line scores them. The agent session is
//! `agent_session.rs` (`Kitchen`), models with primitives written in Python
//! `python_primitive.rs` (`Model`), the answers to cooking agents' questions `answers.rs`,
//! substitutions and scaling `rewrites.rs`, and what guards every call (texts bounded, Ctrl-C,
//! a primitive calling back into its own model) `guard.rs`.

mod agent_session;
mod answers;
mod guard;
mod python_primitive;
mod rewrites;

use crate::base::budget::Budget;
use crate::base::profile::Profile;
use crate::benchmark::Benchmark;
use crate::evaluate::Evaluator;
use crate::language::parse::parse;
use crate::metrics::metric::{Metric, MetricSet};
use crate::metrics::smatch::{SmatchConfig, smatch as smatch_score};
use crate::report::json::value;
use crate::service::check::{check_text, located};
use crate::service::comparison::{self, CompareFormat, CompareOptions};
use crate::service::context::DataContext;
use crate::service::data_stamp::DataStamp;
use crate::service::load_model;
use crate::service::scoring::{self, EvaluateOptions, score_text};
use crate::service::simulate::{SimulateFailure, simulate_text};
use crate::service::solution_file::read_solution_text;
use crate::simulation::Model;
use crate::translate::Translator;
use crate::translate::recipe_text;
use crate::translate::rules::RulesTranslator;
use guard::{NetworkText, interruptible};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use rayon::prelude::*;
use serde_json::{Value, json};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

fn profile(reference: &str) -> PyResult<Profile> {
    reference
        .parse()
        .map_err(|e: String| PyValueError::new_err(e))
}

type EvaluatorKey = (Profile, Option<PathBuf>, Option<PathBuf>);

/// Evaluators already loaded in this process, with the stamp of the files each was loaded
/// from: loading the gold networks and their runs is the slow part of a first call, so later
/// calls with the same data reuse them, while those files are unchanged.
static EVALUATORS: Mutex<Vec<(EvaluatorKey, Arc<Evaluator>, DataStamp)>> = Mutex::new(Vec::new());

/// The evaluator of a profile, data folder and kitchen, located as the command line locates
/// them (the data downloaded when missing, unless `COOKINGBOT_OFFLINE`); loaded again when a
/// file it was loaded from (the kitchen file, the benchmark's `benchmark.json`,
/// `ontology.json`, `kitchen.json`, a gold network) changed since.
fn evaluator(key: EvaluatorKey) -> Result<Arc<Evaluator>, String> {
    let mut cache = EVALUATORS.lock().map_err(|e| e.to_string())?;
    if let Some(i) = cache.iter().position(|(k, _, _)| *k == key) {
        if cache[i].2.holds() {
            return Ok(cache[i].1.clone());
        }
        cache.remove(i);
    }
    let (profile, benchmark, kitchen) = key.clone();
    let opts = EvaluateOptions::scoring(
        DataContext::from_env(profile, benchmark, kitchen.clone()),
        MetricSet::default(),
    );
    let (loaded, _) =
        scoring::load(&opts, || true, &mut std::io::sink()).map_err(|e| e.to_string())?;
    let stamp = DataStamp::of(&loaded, kitchen.as_deref());
    let loaded = Arc::new(loaded);
    cache.push((key, loaded.clone(), stamp));
    Ok(loaded)
}

/// The metrics named as on the command line (`none` included), or `default`; a misspelt name
/// is a `ValueError` naming the closest metric.
fn metric_set(words: Option<Vec<String>>, default: MetricSet) -> PyResult<MetricSet> {
    let Some(words) = words.filter(|w| !w.is_empty()) else {
        return Ok(default);
    };
    for w in words.iter().filter(|w| !w.eq_ignore_ascii_case("none")) {
        Metric::named(w).map_err(|e| PyValueError::new_err(e.to_string()))?;
    }
    Ok(MetricSet::from_words(&words))
}

/// A call's work on the profile named as on the command line, done with the GIL released
/// and stopped by Ctrl-C.
fn detached(
    py: Python<'_>,
    reference: &str,
    work: impl FnOnce(Profile) -> PyResult<String> + Send,
) -> PyResult<String> {
    let profile = profile(reference)?;
    interruptible(py, |_| work(profile))
}

fn to_json(value: &impl serde::Serialize) -> PyResult<String> {
    serde_json::to_string(value).map_err(|e| PyRuntimeError::new_err(e.to_string()))
}

/// Score solution texts; one JSON object per text: `{"recipes": [...]}` with the JSON report's
/// values, or `{"error": ..., "diagnostics": [...]}` where the evaluator refuses the text.
#[pyfunction]
#[pyo3(signature = (texts, metrics, reference, benchmark=None, kitchen=None))]
fn evaluate_texts(
    py: Python<'_>,
    texts: Vec<NetworkText>,
    metrics: Option<Vec<String>>,
    reference: &str,
    benchmark: Option<PathBuf>,
    kitchen: Option<PathBuf>,
) -> PyResult<String> {
    let profile = profile(reference)?;
    interruptible(py, |budget| {
        let evaluator =
            evaluator((profile, benchmark, kitchen)).map_err(PyRuntimeError::new_err)?;
        score_texts(&evaluator, &texts, metrics, budget)
    })
}

/// Each text scored by `evaluator`, in parallel, each within `budget` (the call's, which
/// Ctrl-C stops): what [`evaluate_texts`] returns.
fn score_texts(
    evaluator: &Evaluator,
    texts: &[NetworkText],
    metrics: Option<Vec<String>>,
    budget: &Budget,
) -> PyResult<String> {
    let metrics = metric_set(metrics, MetricSet::default())?;
    let outcomes: Vec<Value> = texts
        .par_iter()
        .map(|NetworkText(text)| {
            budget.run(|| score_text(evaluator, text, &metrics).unwrap_or_else(|refused| refused))
        })
        .collect();
    to_json(&outcomes)
}

/// Every diagnostic of a text, located; recipe ids against `benchmark`'s when one is named.
#[pyfunction]
#[pyo3(signature = (text, reference, benchmark=None))]
fn check(
    py: Python<'_>,
    text: NetworkText,
    reference: &str,
    benchmark: Option<PathBuf>,
) -> PyResult<String> {
    detached(py, reference, |profile| {
        let world = DataContext::from_env(profile, benchmark.clone(), None);
        let onto = crate::simulation::benchmark_world::World::of(world.benchmark.as_ref(), None)
            .and_then(|w| w.ontology(profile))
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        let named = benchmark
            .map(|b| evaluator((profile, Some(b), None)).map_err(PyRuntimeError::new_err))
            .transpose()?;
        let ids = named.as_ref().map(|e| e.benchmark.ids());
        to_json(&check_text(&text.0, profile, &onto, ids.as_deref()))
    })
}

/// Simulate one recipe: `{"report": ..., "refused": ...}` or `{"error": ..., ...}`.
#[pyfunction]
#[pyo3(signature = (text, recipe, reference, benchmark=None, kitchen=None))]
fn simulate(
    py: Python<'_>,
    text: NetworkText,
    recipe: Option<String>,
    reference: &str,
    benchmark: Option<PathBuf>,
    kitchen: Option<PathBuf>,
) -> PyResult<String> {
    detached(py, reference, |profile| {
        on_model(profile, benchmark, kitchen, |model, kitchen_name, gold| {
            simulation(model, kitchen_name, &text.0, recipe.as_deref(), gold)
        })
    })
}

/// One recipe of `text` run on `model`: what [`simulate`] returns.
fn simulation(
    model: &Model,
    kitchen_name: &str,
    text: &str,
    recipe: Option<&str>,
    gold: &mut Gold<'_>,
) -> PyResult<String> {
    let out = match simulate_text(model, kitchen_name, text, recipe, gold) {
        Ok(s) => json!({ "report": value(&s.report), "refused": s.refused }),
        Err(failure) => refusal(text, failure),
    };
    to_json(&out)
}

/// The gold networks a run's final dish is chosen against: the benchmark's, when it loads.
type Gold<'a> = dyn FnMut(&str) -> Result<Option<Benchmark>, String> + 'a;

/// `work` on the model of a profile, benchmark and kitchen (with the kitchen's name), given
/// the benchmark's gold networks: what `simulate`, `diet`, `guide`, `substitute` and `scale`
/// run on.
fn on_model(
    profile: Profile,
    benchmark: Option<PathBuf>,
    kitchen: Option<PathBuf>,
    work: impl FnOnce(&Model, &str, &mut Gold<'_>) -> PyResult<String>,
) -> PyResult<String> {
    let data = DataContext::from_env(profile, benchmark.clone(), kitchen);
    let (model, kitchen_name) =
        load_model(&data).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    let mut gold = |_: &str| {
        Ok(evaluator((profile, benchmark.clone(), None))
            .ok()
            .map(|e| e.benchmark.clone()))
    };
    work(&model, &kitchen_name, &mut gold)
}

/// A text that did not run, as JSON: `{"error", "diagnostics"}` or `{"error", "at"}`.
fn refusal(text: &str, failure: SimulateFailure) -> Value {
    match failure {
        SimulateFailure::Invalid(d) => json!({
            "error": "the network has errors; nothing ran",
            "diagnostics": located(text, &d),
        }),
        SimulateFailure::Recipe(m) | SimulateFailure::Data(m) => json!({ "error": m }),
        SimulateFailure::Crashed(e) => json!({ "error": e.message, "at": e }),
    }
}

/// Smatch between the first recipes of two texts: `{"f_score", "precision", ...}`; in exact
/// mode branch and bound takes at most `exact_budget` search nodes (at least the root).
#[pyfunction]
fn smatch(
    py: Python<'_>,
    test: NetworkText,
    gold: NetworkText,
    exact: bool,
    exact_budget: u64,
) -> PyResult<String> {
    let (NetworkText(test), NetworkText(gold)) = (test, gold);
    interruptible(py, |_| {
        let first = |text: &str, which: &str| {
            let parsed = parse(text);
            if let Some(d) = parsed.diagnostics.first_error() {
                let l = &located(text, std::slice::from_ref(d))[0];
                return Err(json!({
                    "error": format!("{which}: {}", d.message),
                    "diagnostics": [l],
                }));
            }
            parsed
                .file
                .recipes
                .into_iter()
                .next()
                .ok_or_else(|| json!({ "error": format!("{which}: the text holds no recipe") }))
        };
        let out = match (first(&test, "test"), first(&gold, "gold")) {
            (Ok(t), Ok(g)) => {
                let cfg = SmatchConfig {
                    exact,
                    exact_budget,
                    ..SmatchConfig::default()
                };
                let s = smatch_score(&t.predicates, &g.predicates, &cfg);
                json!({
                    "f_score": s.f_score, "precision": s.precision, "recall": s.recall,
                    "matched_triples": s.matched, "test_triples": s.test_triples,
                    "gold_triples": s.gold_triples, "reference_climb": s.reference_climb,
                    "optimum": s.optimum, "proven": s.proven, "bound": s.bound,
                })
            }
            (Err(e), _) | (_, Err(e)) => e,
        };
        to_json(&out)
    })
}

/// Translate recipe text with the rule-based translator: `{"solution", "notes"}`.
#[pyfunction]
fn translate(py: Python<'_>, text: String, reference: &str) -> PyResult<String> {
    detached(py, reference, |profile| {
        let model = crate::simulation::Model::builtin(profile);
        let out = recipe_text::from_text(&text, "recipe")
            .map_err(|e| e.to_string())
            .and_then(|r| {
                RulesTranslator::new(&model)
                    .translate(&r, 0)
                    .map_err(|e| e.to_string())
            });
        match out {
            Ok(t) => to_json(&json!({ "solution": t.solution, "notes": t.notes })),
            Err(e) => to_json(&json!({ "error": e })),
        }
    })
}

/// The benchmark's recipes: id, recipe text (as the data holds it; none for the demo), gold
/// network text and gold file.
#[pyfunction]
#[pyo3(signature = (reference, path=None))]
fn benchmark_recipes(py: Python<'_>, reference: &str, path: Option<PathBuf>) -> PyResult<String> {
    detached(py, reference, |profile| {
        let e = evaluator((profile, path, None)).map_err(PyRuntimeError::new_err)?;
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

/// `compare`'s JSON for a baseline and systems (paths of `.solution` files or folders), scored
/// and tested exactly as the command does.
#[pyfunction]
#[pyo3(signature = (systems, metrics, bootstrap, trials, seed, reference, benchmark=None, kitchen=None))]
#[allow(clippy::too_many_arguments)]
fn compare_systems(
    py: Python<'_>,
    systems: Vec<PathBuf>,
    metrics: Option<Vec<String>>,
    bootstrap: usize,
    trials: usize,
    seed: u64,
    reference: &str,
    benchmark: Option<PathBuf>,
    kitchen: Option<PathBuf>,
) -> PyResult<String> {
    let metrics = metric_set(metrics, comparison::default_metrics())?;
    let opts = CompareOptions {
        systems,
        evaluation: EvaluateOptions::scoring(
            DataContext::from_env(profile(reference)?, benchmark, kitchen),
            metrics,
        ),
        output: PathBuf::from(scoring::STDOUT),
        format: CompareFormat::Json,
        bootstrap,
        trials,
        seed,
        dump_resamples: None,
    };
    interruptible(py, |_| {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        match comparison::run(&opts, &mut out, &mut err) {
            Ok(_) => String::from_utf8(out).map_err(|e| PyRuntimeError::new_err(e.to_string())),
            Err(e) => {
                // The warnings written before it, then the error, as the command line shows them.
                err.extend_from_slice(format!("error: {e}").as_bytes());
                Err(PyRuntimeError::new_err(
                    String::from_utf8_lossy(&err).trim_end().to_string(),
                ))
            }
        }
    })
}

/// A `.solution` file's text, read as the command line reads it (regular files of at most
/// 64 MiB of UTF-8); a file that cannot be read is a `ValueError` naming it.
#[pyfunction]
fn read_solution(py: Python<'_>, path: PathBuf) -> PyResult<String> {
    py.detach(|| read_solution_text(&path))
        .map_err(|e| PyValueError::new_err(e.to_string()))
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
    m.add_function(wrap_pyfunction!(evaluate_texts, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(simulate, m)?)?;
    m.add_function(wrap_pyfunction!(smatch, m)?)?;
    m.add_function(wrap_pyfunction!(translate, m)?)?;
    m.add_function(wrap_pyfunction!(benchmark_recipes, m)?)?;
    m.add_function(wrap_pyfunction!(compare_systems, m)?)?;
    m.add_function(wrap_pyfunction!(metric_names, m)?)?;
    m.add_function(wrap_pyfunction!(read_solution, m)?)?;
    answers::register(m)?;
    rewrites::register(m)
}
