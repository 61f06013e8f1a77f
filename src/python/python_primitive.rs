//! `cookingbot._native.Model`: a model of one's own for Python, the world of a profile (a
//! benchmark's `ontology.json` and `kitchen.json`, a kitchen file) with primitives whose code
//! is a Python function (`simulation::json_primitive`), and the jobs of the table (`job`:
//! `simulate`, `score_each`, ...) and sessions over it, in a workspace of its own
//! (`Workspace::over`). `python/cookingbot/_model.py` wraps each function in the callable this
//! module calls: request text in, `(True, answer)` or `(False, why)` out.

use super::agent_session::Kitchen;
use super::guard::{Interrupted, interruptible, job_request};
use crate::evaluate::Evaluator;
use crate::metrics::metric::MetricSet;
use crate::service::context::DataContext;
use crate::service::data_stamp::DataStamp;
use crate::service::jobs::Job;
use crate::service::scoring::{EvaluateOptions, GoldFile, evaluator_with};
use crate::service::workspace::Workspace;
use crate::service::{load_model, model_of};
use crate::simulation::Model;
use crate::simulation::benchmark_world::World;
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

/// A model's workspace (its evaluator in it), the count of interruptions when it was built,
/// and the stamp of the files it was built from.
#[derive(Clone)]
struct Built(Arc<Workspace>, Arc<Evaluator>, usize, DataStamp);

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
    fn model(&self, primitives: &[Registered]) -> PyResult<(Model, World)> {
        let world = World::of(self.data.benchmark.as_ref(), self.data.kitchen.as_deref())
            .map_err(runtime)?;
        let mut model = model_of(&world, &self.data).map_err(runtime)?;
        for p in primitives {
            json_primitive::add(&mut model, &p.entry, p.code.clone(), p.kitchen)
                .map_err(|e| PyValueError::new_err(e.to_string()))?;
        }
        Ok((model, world))
    }

    /// The workspace of the model, and its evaluator, the gold networks located as the
    /// command line locates them (or `gold`'s one network).
    fn workspace(&self) -> PyResult<(Arc<Workspace>, Arc<Evaluator>)> {
        let mut cell = self.evaluator.lock().map_err(runtime)?;
        let interruptions = self.interrupted.count();
        if let Some(Built(workspace, evaluator, at, stamp)) = cell.as_ref()
            && *at == interruptions
            && stamp.holds()
        {
            return Ok((workspace.clone(), evaluator.clone()));
        }
        let primitives = self.primitives.lock().map_err(runtime)?;
        let (model, world) = self.model(&primitives)?;
        let mut opts = EvaluateOptions::scoring(self.data.clone(), MetricSet::default());
        opts.gold = self.gold.clone().map(|path| GoldFile { path, dish: None });
        let evaluator =
            evaluator_with(&opts, model, || true, &mut std::io::sink()).map_err(runtime)?;
        let stamp = DataStamp::of(&evaluator, self.data.kitchen.as_deref());
        let evaluator = Arc::new(evaluator);
        // The workspace's own model (what the jobs without an evaluator read), made alike.
        let (model, _) = self.model(&primitives)?;
        let workspace = Workspace::over(self.data.clone(), model, &world, evaluator.clone());
        let workspace = Arc::new(workspace);
        *cell = Some(Built(
            workspace.clone(),
            evaluator.clone(),
            interruptions,
            stamp,
        ));
        Ok((workspace, evaluator))
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

    /// A job of the table (`simulate`, `score_each`, `check`, ...) on a request, in this
    /// model's workspace, with the GIL released and stopped by Ctrl-C: whether it was refused,
    /// and the answer's or the refusal's JSON. A kitchen session's call names its session by
    /// `recipe` and `lines` (a Kitchen of the model, `kitchen`, holds one of its own).
    fn job(&self, py: Python<'_>, name: &str, request: &str) -> PyResult<(bool, String)> {
        self.not_busy()?;
        let job = Job::named(name).map_err(|e| PyValueError::new_err(e.error))?;
        let request = job_request(request)?;
        let out = interruptible(py, |_| {
            let (workspace, _) = self.workspace()?;
            Ok(super::answered(job.answer(&workspace, request)))
        });
        self.interrupted.or_raise(out)
    }

    /// A session on `recipe` with this model.
    fn kitchen(&self, py: Python<'_>, recipe: &str) -> PyResult<Kitchen> {
        self.not_busy()?;
        let (workspace, evaluator) = interruptible(py, |_| self.workspace())?;
        Kitchen::open(workspace, evaluator, recipe, Some(self.interrupted.clone()))
    }
}
