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

use crate::catalogue::DataFileError;
use crate::simulation::Model;
use data::DataContext;
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
