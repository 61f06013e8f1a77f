//! `cookingbot._native.Kitchen`: the agent session (`session`) for Python. Every
//! answer is the session's own JSON (observations, views, the opening, the file's score);
//! `python/cookingbot/_kitchen.py` turns it into dataclasses. Work is done with the GIL
//! released; a session is behind a lock, so one `Kitchen` used from two threads takes their
//! calls in turn (but a Kitchen of a `Model` refuses calls while a primitive of the model runs).

use super::guard::{Interrupted, NetworkText, interruptible};
use crate::evaluate::Evaluator;
use crate::report::json::value;
use crate::service::variation::{Variation, vary_in};
use crate::session::admissible::Query;
use crate::session::trajectory::{self, Log};
use crate::session::{Session, SessionError};
use pyo3::exceptions::{PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use std::sync::{Arc, Mutex, MutexGuard};

/// One agent's network of one recipe.
#[pyclass(frozen, module = "cookingbot._native")]
pub struct Kitchen {
    evaluator: Arc<Evaluator>,
    recipe: String,
    session: Mutex<Session>,
    /// Where the model's Python primitives leave an interruption (Ctrl-C) to raise here.
    interrupted: Option<Interrupted>,
    /// The generated variation the session is on (its evaluator is the variation's), if any.
    variation: Option<Arc<Variation>>,
}

fn session_error(e: SessionError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

impl Kitchen {
    /// A session on `recipe` scored by `evaluator`; an unknown recipe is a `ValueError` with
    /// did-you-mean.
    pub fn open(
        evaluator: Arc<Evaluator>,
        recipe: &str,
        interrupted: Option<Interrupted>,
    ) -> PyResult<Kitchen> {
        let session = Session::with_evaluator(evaluator.clone(), recipe).map_err(session_error)?;
        Ok(Kitchen {
            evaluator,
            recipe: recipe.to_lowercase(),
            session: Mutex::new(session),
            interrupted,
            variation: None,
        })
    }

    /// The opening with the variation's task before the recipe text.
    fn opening_json(&self, s: &Session) -> String {
        let mut opening = s.opening();
        if let Some(v) = &self.variation {
            let text = opening.recipe_text.take().unwrap_or_default();
            opening.recipe_text = Some(format!("{}\n\n{text}", v.task()));
        }
        value(&opening).to_string()
    }

    fn session(&self) -> PyResult<MutexGuard<'_, Session>> {
        self.session
            .lock()
            .map_err(|_| PyRuntimeError::new_err("the session broke in an earlier call"))
    }

    /// `work` on the session with the GIL released (Ctrl-C stops it), then the interruption a
    /// Python primitive met during it, if any. Refused while a primitive of the session's model
    /// runs: a primitive calling back (from any thread) would wait for the session's lock, which
    /// the call running the primitive holds.
    fn detached<T: Send>(
        &self,
        py: Python<'_>,
        work: impl FnOnce(&mut Session) -> T + Send,
    ) -> PyResult<T> {
        if let Some(interrupted) = &self.interrupted {
            interrupted.busy().not_busy()?;
        }
        let out = interruptible(py, |_| {
            self.session().map(|mut s| (work(&mut s), s.log_failure()))
        });
        let out = match &self.interrupted {
            Some(interrupted) => interrupted.or_raise(out),
            None => out,
        }?;
        match out {
            (_, Some(failure)) => Err(PyOSError::new_err(failure)),
            (out, None) => Ok(out),
        }
    }
}

#[pymethods]
impl Kitchen {
    /// A session on a recipe of the profile's benchmark, located as the command line locates
    /// it; on its generated variation `variation` when that is above 0. With `log`, every call
    /// that changes, scores or looks at the session is logged there, the variation in the
    /// log's header (`session::trajectory`).
    #[new]
    #[pyo3(signature = (recipe, reference, benchmark=None, kitchen=None, log=None, variation=0))]
    fn new(
        py: Python<'_>,
        recipe: &str,
        reference: &str,
        benchmark: Option<std::path::PathBuf>,
        kitchen: Option<std::path::PathBuf>,
        log: Option<std::path::PathBuf>,
        variation: u64,
    ) -> PyResult<Kitchen> {
        let profile = super::profile(reference)?;
        let (evaluator, variation) = interruptible(py, |_| {
            let workspace = super::workspace(profile, benchmark, kitchen.clone())?;
            if variation > 0 {
                let v = vary_in(&workspace, recipe, variation)
                    .map_err(|e| PyValueError::new_err(e.to_string()))?;
                return Ok((v.evaluator.clone(), Some(Arc::new(v))));
            }
            let evaluator = workspace.evaluator();
            Ok((
                evaluator.map_err(|e| PyRuntimeError::new_err(e.to_string()))?,
                None,
            ))
        })?;
        let opened = Kitchen {
            variation,
            ..Kitchen::open(evaluator, recipe, None)?
        };
        if let Some(path) = log {
            let log = Log::create(&path).map_err(|e| PyOSError::new_err(e.to_string()))?;
            let number = opened.variation();
            opened
                .session()?
                .log_variation_into(log, kitchen.as_deref(), number);
        }
        Ok(opened)
    }

    /// A fork: an independent session with the same lines, logging nowhere.
    fn clone(&self, py: Python<'_>) -> PyResult<Kitchen> {
        let session = self.detached(py, |s| s.clone())?;
        Ok(Kitchen {
            evaluator: self.evaluator.clone(),
            recipe: self.recipe.clone(),
            session: Mutex::new(session),
            interrupted: self.interrupted.clone(),
            variation: self.variation.clone(),
        })
    }

    /// The lines given that the network holds (the header when one was given first): a new
    /// session given them is this one again.
    fn lines(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        self.detached(py, |s| s.lines_given())
    }

    /// The generated variation the session is on (0: the official task).
    #[getter]
    fn variation(&self) -> u64 {
        self.variation.as_ref().map_or(0, |v| v.number)
    }

    /// The gold network of the session's task as a `.solution` text: the variation's, or the
    /// benchmark's.
    fn variation_gold(&self) -> PyResult<String> {
        if let Some(v) = &self.variation {
            return Ok(v.gold.clone());
        }
        let gold = self.evaluator.benchmark.recipe(&self.recipe);
        gold.map(|g| g.network.to_string())
            .ok_or_else(|| PyValueError::new_err(format!("no gold network of {}", self.recipe)))
    }

    /// The recipe's id as the benchmark spells it.
    #[getter]
    fn recipe(&self) -> String {
        self.recipe.clone()
    }

    /// Start the network again, empty; the opening as JSON.
    fn reset(&self, py: Python<'_>) -> PyResult<String> {
        self.detached(py, |s| {
            s.reset()?;
            Ok(self.opening_json(s))
        })?
        .map_err(session_error)
    }

    /// The recipe text and the initial kitchen, as JSON.
    fn opening(&self, py: Python<'_>) -> PyResult<String> {
        self.detached(py, |s| self.opening_json(s))
    }

    /// One line given to the session: the observation as JSON. A line the session cannot take
    /// is an observation too (`rejected`), never an exception.
    fn step(&self, py: Python<'_>, line: NetworkText) -> PyResult<String> {
        self.detached(py, |s| s.attempt(&line.0).json().to_string())
    }

    /// A variable or a place, as JSON; an unknown name is a `ValueError` with did-you-mean.
    fn look(&self, py: Python<'_>, name: &str) -> PyResult<String> {
        self.detached(py, |s| s.look(name).map(|v| value(&v).to_string()))?
            .map_err(session_error)
    }

    /// Take the last line back: the line, or None when there is none.
    fn undo(&self, py: Python<'_>) -> PyResult<Option<String>> {
        Ok(self.detached(py, |s| s.undo())?.ok())
    }

    /// The network written so far, as a `.solution` text.
    fn network(&self, py: Python<'_>) -> PyResult<String> {
        self.detached(py, |s| s.network())
    }

    /// The lines of the actions still waiting to run.
    fn waiting(&self, py: Python<'_>) -> PyResult<Vec<usize>> {
        self.detached(py, |s| s.waiting())
    }

    /// The variables no action has bound yet.
    fn unbound(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        self.detached(py, |s| s.unbound())
    }

    /// The action language: every primitive with its arguments, cases, defaults and what it
    /// does, as JSON.
    fn primitives(&self, py: Python<'_>) -> PyResult<String> {
        self.detached(py, |s| value(&s.primitives()).to_string())
    }

    /// The lines that run now (at most `limit`, of `primitive`, using variable `using`), as
    /// JSON.
    #[pyo3(signature = (limit, primitive=None, using=None))]
    fn admissible(
        &self,
        py: Python<'_>,
        limit: usize,
        primitive: Option<String>,
        using: Option<String>,
    ) -> PyResult<String> {
        let query = Query {
            limit,
            primitive,
            using,
        };
        self.detached(py, |s| value(&s.admissible(&query)).to_string())
    }

    /// The gold's next action with the agent's variables, as JSON (`null` when the network
    /// matches the whole gold).
    fn hint(&self, py: Python<'_>) -> PyResult<String> {
        self.detached(py, |s| value(&s.hint()).to_string())
    }

    /// How far the network is (the gold goals reached, the best dish so far), as JSON; the
    /// session goes on.
    fn progress(&self, py: Python<'_>) -> PyResult<String> {
        self.detached(py, |s| s.progress().map(|p| value(&p).to_string()))?
            .map_err(session_error)
    }

    /// The evaluation of the network as a `.solution` file: `{"csv", "unit", "why_no_dish"}`,
    /// the unit as `evaluate --format json` writes it (`scored` or `refused`).
    fn finish(&self, py: Python<'_>) -> PyResult<String> {
        self.detached(py, |s| trajectory::score_json(&s.finish()).to_string())
    }
}
