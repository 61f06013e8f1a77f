//! What every call of the extension module is guarded by: network texts bounded as the
//! command line bounds solution files (refused before any work), long work that Ctrl-C stops,
//! and a primitive written in Python that calls back into its own model (from its thread or
//! another) refused instead of waiting for ever on the lock its own call holds.

use crate::base::budget::Budget;
use crate::service::solution_file::MAX_INPUT_BYTES;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;
use serde_json::Value;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

/// A network text given from Python, at most [`MAX_INPUT_BYTES`] of UTF-8: a larger one is a
/// `ValueError` naming the bound, raised before the text is even copied when it has more
/// characters than the bound has bytes.
pub struct NetworkText(pub String);

impl<'a, 'py> FromPyObject<'a, 'py> for NetworkText {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if let Ok(text) = obj.cast::<PyString>() {
            let chars = text.len()?;
            if chars as u64 > MAX_INPUT_BYTES {
                return Err(too_large(chars, "characters"));
            }
        }
        let text: String = obj.extract()?;
        if text.len() as u64 > MAX_INPUT_BYTES {
            return Err(too_large(text.len(), "bytes"));
        }
        Ok(NetworkText(text))
    }
}

/// The fields of a job's request that hold a network text (or a line of one), or a list of
/// them (`networks`).
const NETWORK_FIELDS: [&str; 5] = ["network", "test", "gold", "line", "networks"];

/// A job's request read from its JSON text, each network text in it (`network`, `test`,
/// `gold`, a session's `line`, each of `networks`) bounded as a [`NetworkText`] is, with the
/// same message.
pub fn job_request(json: &str) -> PyResult<Value> {
    let request: Value =
        serde_json::from_str(json).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let texts = NETWORK_FIELDS.iter().filter_map(|field| request.get(field));
    let texts = texts.flat_map(|value| match value {
        Value::Array(items) => items.iter().collect(),
        one => vec![one],
    });
    for text in texts.filter_map(Value::as_str) {
        let chars = text.chars().count();
        if chars as u64 > MAX_INPUT_BYTES {
            return Err(too_large(chars, "characters"));
        }
        if text.len() as u64 > MAX_INPUT_BYTES {
            return Err(too_large(text.len(), "bytes"));
        }
    }
    Ok(request)
}

fn too_large(size: usize, unit: &str) -> PyErr {
    PyValueError::new_err(format!(
        "the network text is {size} {unit} long; texts of at most {MAX_INPUT_BYTES} bytes ({} MiB) of UTF-8 are read, as solution files are",
        MAX_INPUT_BYTES >> 20
    ))
}

/// How often a call waiting for its work looks for Ctrl-C.
const SIGNAL_POLL: Duration = Duration::from_millis(100);

/// `work` with the GIL released, on a thread of its own, while the calling thread looks for
/// Ctrl-C (Python runs signal handlers only on the main thread, between bytecodes, so work in
/// Rust would otherwise hold Ctrl-C back until it ends). On Ctrl-C the work's budget is
/// stopped, the work ends at its next check, and the `KeyboardInterrupt` is raised. `work`
/// gets that budget for work it hands to other threads (a budget is the thread's own).
pub fn interruptible<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(&Budget) -> PyResult<T> + Send,
) -> PyResult<T> {
    let stop = Arc::new(AtomicBool::new(false));
    let budget = Budget::new(Duration::MAX).cancelled_by(stop.clone());
    py.detach(|| {
        std::thread::scope(|scope| {
            let (done, finished) = channel();
            let budget = &budget;
            let worker = scope.spawn(move || {
                let out = budget.run(|| work(budget));
                let _ = done.send(());
                out
            });
            let mut interrupted = None;
            while let Err(RecvTimeoutError::Timeout) = finished.recv_timeout(SIGNAL_POLL) {
                if interrupted.is_none()
                    && let Err(e) = Python::attach(|py| py.check_signals())
                {
                    stop.store(true, Ordering::SeqCst);
                    interrupted = Some(e);
                }
            }
            let out = worker
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            match interrupted {
                Some(e) => Err(e),
                None => out,
            }
        })
    })
}

/// The primitives of one model running now, on any thread, with their names: while one runs,
/// calls into the model and its Kitchens are refused ([`Busy::not_busy`]). A primitive that
/// calls back, from its own thread or from a thread it starts and joins, would otherwise wait
/// for ever on the locks its own call holds (the evaluator being built, the session); which
/// thread a call comes from cannot tell a primitive's helper from an unrelated caller, so every
/// call is refused while the model is busy, not only those of the primitive's thread.
#[derive(Default)]
pub struct Busy(Mutex<Vec<String>>);

impl Busy {
    fn names(&self) -> MutexGuard<'_, Vec<String>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Run `call` as primitive `name` of this model: while it runs, the model is busy.
    pub fn running<T>(&self, name: &str, call: impl FnOnce() -> T) -> T {
        struct Done<'a>(&'a Busy, &'a str);
        impl Drop for Done<'_> {
            fn drop(&mut self) {
                let mut names = self.0.names();
                if let Some(i) = names.iter().rposition(|n| n == self.1) {
                    names.remove(i);
                }
            }
        }
        self.names().push(name.to_owned());
        let _done = Done(self, name);
        call()
    }

    /// `Err` while a primitive of this model runs: a call from the primitive (on any thread)
    /// would wait for the work that runs the primitive, which waits for the primitive.
    pub fn not_busy(&self) -> PyResult<()> {
        match self.names().last() {
            Some(name) => Err(PyRuntimeError::new_err(format!(
                "the model is busy running its primitive `{name}`; a primitive cannot call back into its own model or a Kitchen of it, from its own thread or another (calls into the model are refused until the primitive returns)"
            ))),
            None => Ok(()),
        }
    }
}

/// Where a Python primitive leaves an exception that is no `Exception` (`KeyboardInterrupt`,
/// `SystemExit`): the primitive fails, and the Python call that ran it raises the exception
/// when it returns, so Ctrl-C stops a session or an evaluation as it stops any Python code.
/// The count of interruptions tells a model that its evaluator may hold a gold run one of
/// them stopped, which it must not keep as failed. Shared by the model, its primitives and its
/// sessions, it also holds which of the model's primitives are running.
#[derive(Clone, Default)]
pub struct Interrupted(Arc<(Mutex<Option<PyErr>>, AtomicUsize, Busy)>);

impl Interrupted {
    pub fn take(&self) -> Option<PyErr> {
        self.0.0.lock().ok()?.take()
    }

    pub(super) fn keep(&self, e: PyErr) {
        self.0.1.fetch_add(1, Ordering::SeqCst);
        if let Ok(mut slot) = self.0.0.lock() {
            slot.get_or_insert(e);
        }
    }

    pub(super) fn count(&self) -> usize {
        self.0.1.load(Ordering::SeqCst)
    }

    /// The primitives of the model running now.
    pub fn busy(&self) -> &Busy {
        &self.0.2
    }

    /// `out`, unless a primitive was interrupted meanwhile.
    pub fn or_raise<T>(&self, out: PyResult<T>) -> PyResult<T> {
        match self.take() {
            Some(e) => Err(e),
            None => out,
        }
    }
}
