//! The jobs an agent harness asks for besides the session's calls: a logged session run again
//! (`replay`), the official splits, and the gold network of a generated variation of a recipe.

use super::refusal::Refusal;
use crate::data::splits::{Split, SplitRecipe, recipes_of, splits as official_splits};
use crate::service::replay::replay as replay_log;
use crate::service::variation::{StockChange, Swap, vary_in};
use crate::service::workspace::Workspace;
use crate::session::trajectory::Replay;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// A log to run again.
#[derive(Deserialize, JsonSchema)]
pub struct ReplayRequest {
    /// The log (a trajectory: JSON lines, as kitchen_start's `log` writes), as a path on the
    /// machine the evaluator runs on.
    pub log: PathBuf,
}

/// The log run again from its header, every record compared with the one logged. The log's
/// header names the data it is run on, not the workspace.
pub fn replay(_: &Workspace, request: ReplayRequest) -> Result<Replay, Refusal> {
    replay_log(&request.log).map_err(|e| Refusal::new(e.to_string()))
}

/// The splits asked for.
#[derive(Deserialize, JsonSchema)]
pub struct SplitsRequest {
    /// `train`, `dev` or `test` (default: the three).
    pub split: Option<String>,
}

#[derive(Serialize)]
pub struct SplitsAnswer {
    /// By benchmark then id.
    pub recipes: Vec<&'static SplitRecipe>,
}

/// The recipes of the official splits, or of one.
pub fn splits(_: &Workspace, request: SplitsRequest) -> Result<SplitsAnswer, Refusal> {
    let recipes = match request.split {
        None => official_splits().iter().collect(),
        Some(name) => {
            let split: Split = name
                .parse()
                .map_err(|e: crate::data::splits::UnknownSplit| Refusal::request(e.to_string()))?;
            recipes_of(split).collect()
        }
    };
    Ok(SplitsAnswer { recipes })
}

/// A generated variation of a recipe.
#[derive(Deserialize, JsonSchema)]
pub struct VariationRequest {
    /// The recipe's id, such as `afghan-biscuits`.
    pub recipe: String,
    /// The variation's number, from 1 (0 is the official task, whose gold the resources give).
    pub variation: u64,
}

/// A variation's task and gold network.
#[derive(Serialize)]
pub struct VariationAnswer {
    pub recipe: String,
    pub variation: u64,
    /// The task in words, as an agent reads it beside the recipe.
    pub task: String,
    /// The servings' factor, as written (`3/2`).
    pub factor: String,
    /// The ingredient the kitchen lacks and the substitute it holds in its place.
    pub swap: Option<Swap>,
    pub stock: Vec<StockChange>,
    /// The variation's gold network, as a `.solution` text.
    pub gold: String,
}

/// Variation `variation` of a recipe of the workspace's benchmark and kitchen.
pub fn variation(
    workspace: &Workspace,
    request: VariationRequest,
) -> Result<VariationAnswer, Refusal> {
    let v = vary_in(workspace, &request.recipe, request.variation)
        .map_err(|e| Refusal::new(e.to_string()))?;
    Ok(VariationAnswer {
        task: v.task(),
        factor: v.factor.to_string(),
        recipe: v.recipe,
        variation: v.number,
        swap: v.swap,
        stock: v.stock,
        gold: v.gold,
    })
}
