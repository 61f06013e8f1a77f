//! `cookingbot._native.Model`: a model of one's own for Python, the world of a profile (a
//! benchmark's `ontology.json` and `kitchen.json`, a kitchen file) with primitives whose code
//! is a Python function (`simulation::json_primitive`), and the evaluation, simulation and
//! sessions over it. `python/cookingbot/_model.py` wraps each function in the callable this
//! module calls: request text in, `(True, answer)` or `(False, why)` out.

use super::agent_session::Kitchen;
use super::guard::{Interrupted, NetworkText, interruptible};
use crate::evaluate::Evaluator;
use crate::metrics::metric::MetricSet;
use crate::report::json::value;
use crate::service::context::DataContext;
use crate::service::data_stamp::DataStamp;
use crate::service::golds::Golds;
use crate::service::jobs::{NetworkRequest, simulate_on};
use crate::service::load_model;
use crate::service::scoring::{EvaluateOptions, GoldFile, evaluator_with};
use crate::simulation::Model;
use crate::simulation::json_primitive::{self, JsonCode};
use pyo3::exceptions::{PyException, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// The code of one Python primitive: the wrapped callable, run with the GIL taken.
#[derive(Clone)]
struct PyCode {
    name: String,
    callable: Arc<Py<PyAny>>,
    interrupted: Interrupted,
}

impl JsonCode for PyCode {
    fn call(&self, request: &str) -> Result<String, String> {
        let busy = self.interrupted.busy();
        busy.running(&self.name, || self.answer(request))
    }
}

impl PyCode {
    fn answer(&self, request: &str) -> Result<String, String> {
        Python::attach(|py| {
            let answer = self
                .callable
                .bind(py)
                .call1((request,))
                .and_then(|r| r.extract::<(bool, String)>());
            match answer {
                Ok((true, text)) => Ok(text),
                Ok((false, why)) => Err(why),
                Err(e) if e.is_instance_of::<PyException>(py) => Err(e.to_string()),
                Err(e) => {
                    let why = format!("interrupted: {e}");
                    self.interrupted.keep(e);
                    Err(why)
                }
            }
        })
    }
}

/// A primitive added from Python: its catalogue entry, its code, whether it sees the kitchen.
struct Registered {
    entry: String,
    code: PyCode,
    kitchen: bool,
}

/// A model's evaluator, the name of its kitchen, the count of interruptions when it was
/// built, and the stamp of the files it was built from.
#[derive(Clone)]
struct Built(Arc<Evaluator>, String, usize, DataStamp);

/// What a model's evaluator is built from, and the evaluator once built.
#[pyclass(frozen, name = "Model", module = "cookingbot._native")]
pub struct PyModel {
    data: DataContext,
    gold: Option<PathBuf>,
    primitives: Mutex<Vec<Registered>>,
    /// Built on first use, with every primitive added so far; dropped when one is added,
    /// and built again after an interruption or when a file it was built from changed.
    evaluator: Mutex<Option<Built>>,
    interrupted: Interrupted,
}

fn runtime(e: impl ToString) -> PyErr {
    PyRuntimeError::new_err(e.to_string())
}

/// The `name` of a primitive's catalogue entry.
fn entry_name(entry: &str) -> Option<String> {
    let entry: serde_json::Value = serde_json::from_str(entry).ok()?;
    Some(entry.get("name")?.as_str()?.to_owned())
}

impl PyModel {
    /// The profile's model in this world with `primitives` added.
    fn model(&self, primitives: &[Registered]) -> PyResult<(Model, String)> {
        let (mut model, kitchen) = load_model(&self.data).map_err(runtime)?;
        for p in primitives {
            json_primitive::add(&mut model, &p.entry, p.code.clone(), p.kitchen)
                .map_err(|e| PyValueError::new_err(e.to_string()))?;
        }
        Ok((model, kitchen))
    }

    /// The evaluator over the model, its gold networks located as the command line locates
    /// them (or `gold`'s one network), and the name of its kitchen.
    fn evaluator(&self) -> PyResult<(Arc<Evaluator>, String)> {
        let mut cell = self.evaluator.lock().map_err(runtime)?;
        let interruptions = self.interrupted.count();
        if let Some(Built(evaluator, kitchen, at, stamp)) = cell.as_ref()
            && *at == interruptions
            && stamp.holds()
        {
            return Ok((evaluator.clone(), kitchen.clone()));
        }
        let primitives = self.primitives.lock().map_err(runtime)?;
        let (model, kitchen) = self.model(&primitives)?;
        let mut opts = EvaluateOptions::scoring(self.data.clone(), MetricSet::default());
        opts.gold = self.gold.clone().map(|path| GoldFile { path, dish: None });
        let evaluator =
            evaluator_with(&opts, model, || true, &mut std::io::sink()).map_err(runtime)?;
        let stamp = DataStamp::of(&evaluator, self.data.kitchen.as_deref());
        let evaluator = Arc::new(evaluator);
        *cell = Some(Built(
            evaluator.clone(),
            kitchen.clone(),
            interruptions,
            stamp,
        ));
        Ok((evaluator, kitchen))
    }

    /// `Err` while a primitive of this model runs (a call back into it would never end).
    fn not_busy(&self) -> PyResult<()> {
        self.interrupted.busy().not_busy()
    }
}

#[pymethods]
impl PyModel {
    /// The world of `benchmark` (its `ontology.json` and `kitchen.json`) or `kitchen`; gold
    /// networks from `benchmark` (or the data located as the command line locates it), or
    /// `gold`'s one network. A file that cannot be used is a `ValueError` with its place.
    #[new]
    #[pyo3(signature = (reference, benchmark=None, kitchen=None, gold=None))]
    fn new(
        py: Python<'_>,
        reference: &str,
        benchmark: Option<PathBuf>,
        kitchen: Option<PathBuf>,
        gold: Option<PathBuf>,
    ) -> PyResult<PyModel> {
        let data = DataContext::from_env(super::profile(reference)?, benchmark, kitchen);
        let model = PyModel {
            data,
            gold,
            primitives: Mutex::new(Vec::new()),
            evaluator: Mutex::new(None),
            interrupted: Interrupted::default(),
        };
        py.detach(|| load_model(&model.data))
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(model)
    }

    /// Add a primitive: its catalogue entry (JSON text, the shape of an entry of
    /// `kitchens/primitives.json`) and the wrapped callable. A built-in primitive's name, one
    /// added already or an entry that cannot be used is a `ValueError`.
    #[pyo3(signature = (entry, code, kitchen=false))]
    fn add_primitive(
        &self,
        py: Python<'_>,
        entry: String,
        code: Py<PyAny>,
        kitchen: bool,
    ) -> PyResult<()> {
        self.not_busy()?;
        let added = Registered {
            code: PyCode {
                name: entry_name(&entry).unwrap_or_default(),
                callable: Arc::new(code),
                interrupted: self.interrupted.clone(),
            },
            entry,
            kitchen,
        };
        py.detach(|| {
            // The locks in the order `evaluator` takes them, with the GIL released.
            let mut built = self.evaluator.lock().map_err(runtime)?;
            let mut primitives = self.primitives.lock().map_err(runtime)?;
            primitives.push(added);
            if let Err(e) = self.model(&primitives) {
                primitives.pop();
                return Err(e);
            }
            *built = None;
            Ok(())
        })
    }

    /// The names of the primitives added, in order.
    fn primitives(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        self.not_busy()?;
        py.detach(|| {
            let primitives = self.primitives.lock().map_err(runtime)?;
            Ok(primitives
                .iter()
                .filter_map(|p| entry_name(&p.entry))
                .collect())
        })
    }

    /// The action language of this model's catalogue (the built-in primitives and those
    /// added), as the JSON of `Session::primitives`.
    fn language(&self, py: Python<'_>) -> PyResult<String> {
        self.not_busy()?;
        py.detach(|| {
            let (evaluator, _) = self.evaluator()?;
            let primitives = crate::session::language::primitives(&evaluator.model.catalogue);
            Ok(crate::report::json::value(&primitives).to_string())
        })
    }

    /// Score solution texts with this model: what `evaluate_texts` returns.
    #[pyo3(signature = (texts, metrics=None))]
    fn evaluate_texts(
        &self,
        py: Python<'_>,
        texts: Vec<NetworkText>,
        metrics: Option<Vec<String>>,
    ) -> PyResult<String> {
        self.not_busy()?;
        let out = interruptible(py, |budget| {
            let (evaluator, _) = self.evaluator()?;
            super::score_texts(&evaluator, &texts, metrics, budget)
        });
        self.interrupted.or_raise(out)
    }

    /// Run one recipe of a network text with this model: what `simulate` returns.
    #[pyo3(signature = (text, recipe=None))]
    fn simulate(
        &self,
        py: Python<'_>,
        text: NetworkText,
        recipe: Option<String>,
    ) -> PyResult<String> {
        self.not_busy()?;
        let request = NetworkRequest {
            network: text.0,
            recipe,
        };
        let out = interruptible(py, |_| {
            let (evaluator, kitchen) = self.evaluator()?;
            let mut gold = |_: &str| Ok(Some(Golds::Kept(evaluator.clone())));
            let simulated = simulate_on(&evaluator.model, &kitchen, request, &mut gold);
            Ok(simulated
                .map_or_else(|refused| refused.to_json(), |answer| value(&answer))
                .to_string())
        });
        self.interrupted.or_raise(out)
    }

    /// A session on `recipe` with this model.
    fn kitchen(&self, py: Python<'_>, recipe: &str) -> PyResult<Kitchen> {
        self.not_busy()?;
        let (workspace, (evaluator, _)) = interruptible(py, |_| {
            Ok((super::workspace_of(self.data.clone())?, self.evaluator()?))
        })?;
        Kitchen::open(workspace, evaluator, recipe, Some(self.interrupted.clone()))
    }
}
