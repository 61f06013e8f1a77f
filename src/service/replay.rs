//! A trajectory log replayed (`session::trajectory::replay`) on the data its header names,
//! located as every command locates data, offline, and on the generated variation it names.

use super::context::DataContext;
use super::variation::vary;
use super::workspace::load_evaluator;
use crate::session::trajectory::{self, LogData, Replay, TrajectoryError};
use crate::simulation::benchmark_world::World;
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
        let evaluator = Arc::new(load_evaluator(&data).map_err(|e| cannot_open(&e))?);
        if log.variation == 0 {
            return Ok(evaluator);
        }
        let world = World::of(data.benchmark.as_ref(), data.kitchen.as_deref())
            .map_err(|e| cannot_open(&e))?;
        vary(&evaluator, &world, &log.recipe, log.variation)
            .map(|varied| varied.evaluator)
            .map_err(|e| e.to_string())
    })
}
