//! Command implementations behind the command-line front end, kept out of `src/bin` so the
//! binary stays a thin argument parser.

pub mod batch;
pub mod bench_translate;
pub mod check;
pub mod cli;
pub mod compare;
pub mod console;
pub mod data;
pub mod evaluate;
pub mod fetch;
#[cfg(feature = "mcp")]
pub mod mcp;
pub mod outcome;
pub mod report;
pub mod simulate;
pub mod translate;
pub mod user_benchmark;

use crate::extension::World;
use crate::simulation::Model;
use data::DataContext;
use outcome::AppError;

/// The model of a command's profile in the world of `--benchmark` and `--kitchen` (a
/// benchmark's own ontology and kitchen), its time budget per recipe, and how to name its
/// kitchen in reports.
pub fn load_model(data: &DataContext) -> Result<(Model, String), AppError> {
    let world = World::of(data.benchmark.as_ref(), data.kitchen.as_deref())?;
    let mut model = world.model(data.profile)?;
    model.time_budget = data.time_budget();
    Ok((model, world.kitchen_name()))
}
