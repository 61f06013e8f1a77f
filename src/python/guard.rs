//! What every call of the extension module is guarded by: network texts bounded as the
//! command line bounds solution files (refused before any work), long work that Ctrl-C stops,
//! and a primitive written in Python that calls back into its own model refused instead of
//! waiting for ever on the lock its own call holds.

use crate::base::budget::Budget;
use crate::service::solution_file::MAX_INPUT_BYTES;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;
use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{RecvTimeoutError, channel};
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

thread_local! {
    /// The models (by [`ModelId`]) whose Python primitives this thread is running, innermost
    /// last, with the primitive's name.
    static RUNNING: RefCell<Vec<(usize, String)>> = const { RefCell::new(Vec::new()) };
}

/// Which model a primitive, a session or a call belongs to.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct ModelId(pub usize);

impl ModelId {
    /// Run `call` as primitive `name` of this model: while it runs, a call back into the model
    /// from the same thread is refused by [`ModelId::not_busy`].
    pub fn running<T>(self, name: &str, call: impl FnOnce() -> T) -> T {
        struct Pop;
        impl Drop for Pop {
            fn drop(&mut self) {
                RUNNING.with(|r| r.borrow_mut().pop());
            }
        }
        RUNNING.with(|r| r.borrow_mut().push((self.0, name.to_owned())));
        let _pop = Pop;
        call()
    }

    /// `Err` when this thread is running a primitive of this model: the call would wait for
    /// the work that runs the primitive, which waits for the primitive.
    pub fn not_busy(self) -> PyResult<()> {
        let running = RUNNING.with(|r| {
            r.borrow()
                .iter()
                .rev()
                .find(|(id, _)| *id == self.0)
                .map(|(_, name)| name.clone())
        });
        match running {
            Some(name) => Err(PyRuntimeError::new_err(format!(
                "the model is busy running its primitive `{name}`; a primitive cannot call back into its own model or a Kitchen of it"
            ))),
            None => Ok(()),
        }
    }
}
