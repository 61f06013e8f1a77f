//! `cookingbot._native.Kitchen`: the agent session (`session`) for Python. It holds its one
//! session as the tool server's store holds many (`service::jobs::SessionHolder`): a kitchen
//! session's job asked of it (`job`) works on that session and answers what the tool server
//! answers: every call of `Kitchen` in Python (`step`, `act`, `look`, `admissible`,
//! `primitives`, `undo`, `progress`, `finish`, `reset`, `opening`, `network`, `hint`, ...)
//! is one, which `python/cookingbot/_kitchen.py` turns into dataclasses; `clone` is the job
//! `kitchen_fork`, the fork handed to a new `Kitchen`. Work is done with the GIL released; a session is behind a lock, so one
//! `Kitchen` used from two threads takes their calls in turn (but a Kitchen of a `Model`
//! refuses calls while a primitive of the model runs).

use super::guard::{Interrupted, interruptible, job_request};
use crate::evaluate::Evaluator;
use crate::service::jobs::{Job, Refusal, SessionHolder};
use crate::service::sessions::{Finished, SessionStore};
use crate::service::variation::{Variation, vary_in};
use crate::service::workspace::Workspace;
use crate::session::observation::Observation;
use crate::session::trajectory::Log;
use crate::session::{Session, SessionError};
use pyo3::exceptions::{PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use serde_json::json;
use std::sync::{Arc, Mutex, MutexGuard};

/// One agent's network of one recipe.
#[pyclass(frozen, module = "cookingbot._native")]
pub struct Kitchen {
    /// The workspace it was opened in: the jobs asked of it take one.
    workspace: Arc<Workspace>,
    session: Mutex<Session>,
    /// The fork `kitchen_fork` made of the session, until `clone` hands it to a new Kitchen.
    forked: Mutex<Option<Session>>,
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
        let session = Session::with_evaluator(evaluator, recipe).map_err(session_error)?;
        Ok(Kitchen {
            workspace,
            session: Mutex::new(session),
            forked: Mutex::new(None),
            interrupted,
            variation: None,
        })
    }

    /// The generated variation the session is on (0: the official task), for its log.
    fn variation_number(&self) -> u64 {
        self.variation.as_ref().map_or(0, |v| v.number)
    }

    fn session(&self) -> PyResult<MutexGuard<'_, Session>> {
        self.session
            .lock()
            .map_err(|_| PyRuntimeError::new_err("the session broke in an earlier call"))
    }

    /// `work` (a job on the session) with the GIL released (Ctrl-C stops it), then the
    /// interruption a Python primitive met during it, if any. Refused while a primitive of the
    /// session's model runs: a primitive calling back (from any thread) would wait for the
    /// session's lock, which the call running the primitive holds.
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
            let number = opened.variation_number();
            opened
                .session()?
                .log_variation_into(log, kitchen.as_deref(), number);
        }
        Ok(opened)
    }

    /// A fork (the job `kitchen_fork` on this session): an independent session with the same
    /// lines, logging nowhere.
    fn clone(&self, py: Python<'_>) -> PyResult<Kitchen> {
        let fork = Job::named("kitchen_fork").map_err(|e| PyValueError::new_err(e.error))?;
        let answer = self.guarded(py, || Ok(fork.answer_in(&self.workspace, self, json!({}))))?;
        answer.map_err(|refusal| PyRuntimeError::new_err(refusal.error))?;
        let forked = self.forked.lock().ok().and_then(|mut f| f.take());
        let session = forked.ok_or_else(|| PyRuntimeError::new_err("the fork was not made"))?;
        Ok(Kitchen {
            workspace: self.workspace.clone(),
            session: Mutex::new(session),
            forked: Mutex::new(None),
            interrupted: self.interrupted.clone(),
            variation: self.variation.clone(),
        })
    }

    /// The network written so far, as a `.solution` text: the job `kitchen_network`'s
    /// `network`, read without the job's JSON. The gym reads it after every step, where the
    /// job's request and answer (the lines and the network, 12 kB for 53 lines) cost about
    /// 50 µs a call more than the text alone (docs/agents.md).
    fn network(&self, py: Python<'_>) -> PyResult<String> {
        self.guarded(py, || Ok(self.session()?.network()))
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
        Ok(super::answered(answer))
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

    fn act(&self, id: Option<&str>, line: &str, attempt: bool) -> Result<Observation, Refusal> {
        let mut seen = Err(Refusal::new("no session"));
        self.with_session(id, &mut |s| {
            seen = match attempt {
                true => Ok(s.attempt(line)),
                false => s.act(line).map_err(|e| Refusal::new(e.to_string())),
            }
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

    /// The fork is kept for `clone`, which hands it to a new Kitchen: a fork has no id here.
    fn fork(&self, id: Option<&str>) -> Result<Option<String>, Refusal> {
        let mut fork = None;
        self.with_session(id, &mut |s| fork = Some(s.clone()))?;
        let mut forked = self
            .forked
            .lock()
            .map_err(|e| Refusal::new(e.to_string()))?;
        *forked = fork;
        Ok(None)
    }

    fn variation(&self, id: Option<&str>) -> Option<Arc<Variation>> {
        own(id).ok().and(self.variation.clone())
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
