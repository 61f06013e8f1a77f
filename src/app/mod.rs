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
use crate::profile::Profile;
use crate::simulation::Model;
use outcome::AppError;
use std::path::Path;

/// The model of a profile with the built-in kitchen or the one in `kitchen` (`--kitchen`),
/// and how to name that kitchen in reports.
pub fn load_model(profile: Profile, kitchen: Option<&Path>) -> Result<(Model, String), AppError> {
    let Some(path) = kitchen else {
        return Ok((Model::builtin(profile), "builtin".into()));
    };
    let unusable = |reason: String| AppError::Kitchen {
        path: path.to_owned(),
        source: DataFileError(reason),
    };
    let text = std::fs::read_to_string(path)
        .map_err(|e| unusable(format!("cannot read the kitchen file: {e}")))?;
    let model = Model::with_kitchen(profile, &text)
        .map_err(|e| unusable(format!("not a usable kitchen file: {e}")))?;
    Ok((model, path.display().to_string()))
}
