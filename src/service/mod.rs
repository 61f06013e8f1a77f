//! The service layer: every job a front end asks for, whatever front end asks. The data
//! context and download policy, reading solution files, batch scoring, check, simulate, score,
//! compare, translate, the HTML report and benchmarks of one's own. Each job takes options and
//! writers and says how it ended ([`outcome`]); the command line, the launcher, the tool server
//! and the Python package only parse, call and print. Nothing here knows which front end called.

pub mod batch;
pub mod check;
pub mod comparison;
pub mod context;
pub mod install;
pub mod launch;
pub mod outcome;
pub mod report_page;
pub mod scoring;
pub mod session;
pub mod simulate;
pub mod solution_file;
pub mod translation;
pub mod translation_bench;
pub mod user_benchmark;

use crate::data::catalogue::DataFileError;
use crate::simulation::Model;
use context::DataContext;
use outcome::AppError;

/// The model of a command's profile with the built-in kitchen or the one `--kitchen` names,
/// its time budget per recipe, and how to name that kitchen in reports.
pub fn load_model(data: &DataContext) -> Result<(Model, String), AppError> {
    let (mut model, name) = match data.kitchen.as_deref() {
        None => (Model::builtin(data.profile), "builtin".to_string()),
        Some(path) => {
            let unusable = |reason: String| AppError::Kitchen {
                path: path.to_owned(),
                source: DataFileError(reason),
            };
            let text = std::fs::read_to_string(path)
                .map_err(|e| unusable(format!("cannot read the kitchen file: {e}")))?;
            let model = Model::with_kitchen(data.profile, &text)
                .map_err(|e| unusable(format!("not a usable kitchen file: {e}")))?;
            (model, path.display().to_string())
        }
    };
    model.time_budget = data.time_budget();
    Ok((model, name))
}
