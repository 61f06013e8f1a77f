//! Work off the UI thread: an evaluation or a download runs on its own thread, posts its
//! progress to state the UI reads every frame (asking for a repaint each time), and stops at
//! the next checkpoint once cancelled. The window stays responsive throughout.

use eframe::egui;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

/// How far a task has come: what it is doing and the share done (`None`: unknown).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Progress {
    pub stage: String,
    pub fraction: Option<f32>,
}

struct Shared<T> {
    progress: Progress,
    outcome: Option<T>,
}

/// A task running on its own thread, producing a `T`.
pub struct Task<T> {
    shared: Arc<Mutex<Shared<T>>>,
    cancel: Arc<AtomicBool>,
}

/// The task's side: report progress, look for cancellation.
pub struct Reporter<T> {
    shared: Arc<Mutex<Shared<T>>>,
    cancel: Arc<AtomicBool>,
    ctx: egui::Context,
}

impl<T> Reporter<T> {
    pub fn report(&self, stage: impl Into<String>, fraction: Option<f32>) {
        lock(&self.shared).progress = Progress {
            stage: stage.into(),
            fraction,
        };
        self.ctx.request_repaint();
    }

    /// Whether the user asked to stop; checked between units of work.
    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A panicking task leaves plain data behind; the UI keeps going with it.
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl<T: Send + 'static> Task<T> {
    /// Start `work` on a new thread; `ctx` is repainted whenever it reports or finishes.
    pub fn spawn(
        ctx: &egui::Context,
        stage: &str,
        work: impl FnOnce(&Reporter<T>) -> T + Send + 'static,
    ) -> Task<T> {
        let shared = Arc::new(Mutex::new(Shared {
            progress: Progress {
                stage: stage.into(),
                fraction: None,
            },
            outcome: None,
        }));
        let cancel = Arc::new(AtomicBool::new(false));
        let reporter = Reporter {
            shared: Arc::clone(&shared),
            cancel: Arc::clone(&cancel),
            ctx: ctx.clone(),
        };
        std::thread::spawn(move || {
            let outcome = work(&reporter);
            lock(&reporter.shared).outcome = Some(outcome);
            reporter.ctx.request_repaint();
        });
        Task { shared, cancel }
    }

    pub fn progress(&self) -> Progress {
        lock(&self.shared).progress.clone()
    }

    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    pub fn is_cancelling(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// The outcome, once the task has finished (taken: later calls give `None`).
    pub fn finished(&self) -> Option<T> {
        lock(&self.shared).outcome.take()
    }
}
