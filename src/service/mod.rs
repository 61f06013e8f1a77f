//! The service layer: every job a front end asks for, whatever front end asks. The data
//! context and download policy, reading solution files, batch scoring, check, simulate, score,
//! diet, compare, translate, the HTML report, benchmarks of one's own, the store the tool server
//! keeps agent sessions (`crate::session`) in, their logs replayed, and the `play` prompt;
//! the `workspace` every front end opens and the `jobs` table every front end serves.
//! Each job takes options and writers and says how it ended ([`outcome`]); the command line,
//! the launcher, the tool server and the Python package only parse, call and print. Nothing
//! here knows which front end called.

pub mod batch;
pub mod check;
pub mod comparison;
pub mod context;
pub mod data_stamp;
pub mod diet_check;
pub mod golds;
pub mod guide;
pub mod ingredient_use;
pub mod install;
pub mod jobs;
pub mod launch;
pub mod outcome;
pub mod play;
pub mod replay;
pub mod report_page;
pub mod rewrite_run;
pub mod scale;
pub mod scoring;
pub mod sessions;
pub mod simulate;
pub mod solution_file;
pub mod substitute;
pub mod substitute_fit;
pub mod trajectory_page;
pub mod translation;
pub mod translation_bench;
pub mod user_benchmark;
pub mod variation;
pub mod workspace;

use crate::simulation::Model;
use crate::simulation::benchmark_world::World;
use context::DataContext;
use outcome::AppError;

/// The model of a command's profile in the world of `--benchmark` and `--kitchen` (a
/// benchmark's own ontology and kitchen), its time budget per recipe, and how to name its
/// kitchen in reports.
pub fn load_model(data: &DataContext) -> Result<(Model, String), AppError> {
    let world = World::of(data.benchmark.as_ref(), data.kitchen.as_deref())?;
    Ok((model_of(&world, data)?, world.kitchen_name()))
}

/// The model of `world` (the files of `data`'s `--benchmark` and `--kitchen`, read) for
/// `data`'s profile, with its time budget per recipe.
pub(crate) fn model_of(world: &World, data: &DataContext) -> Result<Model, AppError> {
    let mut model = world.model(data.profile)?;
    model.time_budget = data.time_budget();
    Ok(model)
}
