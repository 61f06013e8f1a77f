//! A trajectory log replayed (`session::trajectory::replay`) on the data its header names,
//! located as every command locates data, offline.

use super::context::DataContext;
use super::workspace::load_evaluator;
use crate::session::trajectory::{self, Replay, TrajectoryError};
use std::path::Path;

/// Run the log at `path` again from its header and compare every record.
pub fn replay(path: &Path) -> Result<Replay, TrajectoryError> {
    trajectory::replay(path, |log| {
        load_evaluator(&DataContext {
            profile: log.profile,
            benchmark: Some(log.benchmark),
            kitchen: log.kitchen,
            offline: true,
            ..DataContext::default()
        })
    })
}
