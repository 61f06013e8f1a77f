//! `cookingbot._native.Kitchen`: the agent session (`session`) for Python. It holds its one
//! session as the tool server's store holds many (`service::jobs::SessionHolder`): a kitchen
//! session's job asked of it (`job`) works on that session and answers what the tool server
//! answers (`Kitchen.act`, `look`, `admissible`, `primitives`, `undo`, `progress`, `finish`
//! in Python). The calls no job serves (a step with the objects' trees, the opening, a hint, a
//! fork) answer the session's own JSON; `python/cookingbot/_kitchen.py` turns both into
//! dataclasses. Work is done with the GIL released; a session is behind a lock, so one
//! `Kitchen` used from two threads takes their calls in turn (but a Kitchen of a `Model`
//! refuses calls while a primitive of the model runs).

use super::guard::{Interrupted, NetworkText, interruptible, job_request};
use crate::evaluate::Evaluator;
use crate::report::json::value;
use crate::service::jobs::{Job, Refusal, SessionHolder};
use crate::service::sessions::{Finished, SessionStore};
use crate::service::variation::{Variation, vary_in};
use crate::service::workspace::Workspace;
use crate::session::observation::Observation;
use crate::session::trajectory::Log;
use crate::session::{Session, SessionError};
use pyo3::exceptions::{PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use std::sync::{Arc, Mutex, MutexGuard};

/// One agent's network of one recipe.
#[pyclass(frozen, module = "cookingbot._native")]
pub struct Kitchen {
    /// The workspace it was opened in: the jobs asked of it take one.
    workspace: Arc<Workspace>,
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
    /// A session on `recipe` scored by `evaluator`, of `workspace`; an unknown recipe is a
    /// `ValueError` with did-you-mean.
    pub fn open(
        workspace: Arc<Workspace>,
        evaluator: Arc<Evaluator>,
        recipe: &str,
        interrupted: Option<Interrupted>,
    ) -> PyResult<Kitchen> {
        let session = Session::with_evaluator(evaluator.clone(), recipe).map_err(session_error)?;
        Ok(Kitchen {
            workspace,
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
        self.guarded(py, || self.session().map(|mut s| work(&mut s)))
    }

    /// [`Kitchen::detached`] for work that takes the session itself (a job).
    fn guarded<T: Send>(
        &self,
        py: Python<'_>,
        work: impl FnOnce() -> PyResult<T> + Send,
    ) -> PyResult<T> {
        if let Some(interrupted) = &self.interrupted {
            interrupted.busy().not_busy()?;
        }
        let out = interruptible(py, |_| {
            let out = work()?;
            Ok((out, self.session()?.log_failure()))
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
        let (workspace, evaluator, variation) = interruptible(py, |_| {
            let workspace = super::workspace(profile, benchmark, kitchen.clone())?;
            if variation > 0 {
                let v = vary_in(&workspace, recipe, variation)
                    .map_err(|e| PyValueError::new_err(e.to_string()))?;
                return Ok((workspace, v.evaluator.clone(), Some(Arc::new(v))));
            }
            let evaluator = workspace.evaluator();
            let evaluator = evaluator.map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
            Ok((workspace, evaluator, None))
        })?;
        let opened = Kitchen {
            variation,
            ..Kitchen::open(workspace, evaluator, recipe, None)?
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
            workspace: self.workspace.clone(),
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

    /// A kitchen session's job (`kitchen_act`, `kitchen_undo`, ...) on this session, the
    /// request as JSON naming no session: whether it was refused, and the answer's or the
    /// refusal's JSON, what the tool server answers for its session of the same lines. A job
    /// that is no session's call is a `ValueError`.
    fn job(&self, py: Python<'_>, name: &str, request: &str) -> PyResult<(bool, String)> {
        let job = Job::named(name).map_err(|e| PyValueError::new_err(e.error))?;
        if !job.is_session_call() {
            return Err(PyValueError::new_err(format!(
                "`{name}` is no call of a session: ask it with cookingbot.job"
            )));
        }
        let request = job_request(request)?;
        let answer = self.guarded(py, || Ok(job.answer_in(&self.workspace, self, request)))?;
        Ok(match answer {
            Ok(answer) => (false, answer.to_string()),
            Err(refusal) => (true, refusal.to_json().to_string()),
        })
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

    /// The gold's next action with the agent's variables, as JSON (`null` when the network
    /// matches the whole gold).
    fn hint(&self, py: Python<'_>) -> PyResult<String> {
        self.detached(py, |s| value(&s.hint()).to_string())
    }
}

/// The Kitchen holds its own session, named by no id; its `finish` leaves the session open
/// (more lines may follow, and another finish), as `Kitchen.finish` does.
impl SessionHolder for Kitchen {
    fn store(&self) -> Option<&SessionStore> {
        None
    }

    fn with_session(
        &self,
        id: Option<&str>,
        work: &mut dyn FnMut(&mut Session),
    ) -> Result<(), Refusal> {
        own(id)?;
        let mut session = self.session().map_err(|e| Refusal::new(e.to_string()))?;
        work(&mut session);
        Ok(())
    }

    fn act(&self, id: Option<&str>, line: &str) -> Result<Observation, Refusal> {
        let mut seen = Err(Refusal::new("no session"));
        self.with_session(id, &mut |s| {
            seen = s.act(line).map_err(|e| Refusal::new(e.to_string()))
        })?;
        seen
    }

    fn finish(&self, id: Option<&str>) -> Result<Finished, Refusal> {
        let mut finished = None;
        self.with_session(id, &mut |s| {
            finished = Some(Finished {
                score: s.finish(),
                network: s.network(),
            })
        })?;
        finished.ok_or_else(|| Refusal::new("no session"))
    }
}

/// A Kitchen answers for its own session alone.
fn own(id: Option<&str>) -> Result<(), Refusal> {
    match id {
        None => Ok(()),
        Some(id) => Err(Refusal::request(format!(
            "no session `{id}` here: a Kitchen's call is on its own session, named by no `session`"
        ))),
    }
}
