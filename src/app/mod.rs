//! Command implementations behind the command-line front end, kept out of `src/bin` so the
//! binary stays a thin argument parser.

pub mod batch;
pub mod bench_translate;
pub mod check;
pub mod cli;
pub mod compare;
pub mod data;
pub mod evaluate;
pub mod fetch;
#[cfg(feature = "mcp")]
pub mod mcp;
pub mod report;
pub mod simulate;
pub mod translate;

use crate::profile::Profile;
use crate::simulation::Model;
use std::path::Path;

/// The model of a profile with the built-in kitchen or the one in `kitchen` (`--kitchen`),
/// and how to name that kitchen in reports. `Err` is a one-line reason.
pub fn load_model(profile: Profile, kitchen: Option<&Path>) -> Result<(Model, String), String> {
    let Some(path) = kitchen else {
        return Ok((Model::builtin(profile), "builtin".into()));
    };
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{}: cannot read the kitchen file: {e}", path.display()))?;
    let model = Model::with_kitchen(profile, &text)
        .map_err(|e| format!("{}: not a usable kitchen file: {e}", path.display()))?;
    Ok((model, path.display().to_string()))
}
