//! A trajectory log replayed (`session::trajectory::replay`) on the data its header names,
//! located as every command locates data, offline, and on the generated variation it names.

use super::context::DataContext;
use super::variation::{VariationError, evaluator_of_world, vary_data};
use super::workspace::load_evaluator;
use crate::session::trajectory::{self, LogData, Replay, TrajectoryError};
use std::path::Path;
use std::sync::Arc;

/// Run the log at `path` again from its header and compare every record.
pub fn replay(path: &Path) -> Result<Replay, TrajectoryError> {
    trajectory::replay(path, |log: LogData| {
        let data = DataContext {
            profile: log.profile,
            benchmark: Some(log.benchmark),
            kitchen: log.kitchen,
            offline: true,
            ..DataContext::default()
        };
        let cannot_open =
            |e: &dyn std::fmt::Display| format!("cannot open the log's benchmark: {e}");
        match log.variation {
            0 => load_evaluator(&data)
                .map(Arc::new)
                .map_err(|e| cannot_open(&e)),
            n => match vary_data(&data, &log.recipe, n, |w| evaluator_of_world(&data, w)) {
                Ok(varied) => Ok(varied.evaluator),
                Err(e @ VariationError::Data(_)) => Err(cannot_open(&e)),
                Err(e) => Err(e.to_string()),
            },
        }
    })
}
