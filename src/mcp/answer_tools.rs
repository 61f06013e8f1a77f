//! The tools that answer what cooking agents are asked, from the simulated kitchen
//! (`check_diet`, `cooking_guide`): a call's arguments turned into the service's job, and its
//! answer into the JSON the command line's `--format json` writes.

use super::{KitchenServer, NetworkArgs, NetworkText, failure_json, refuse};
use crate::data::diet_table::Diet;
use crate::service::diet_check::diet_text;
use crate::service::guide::guide_text;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolResult;
use rmcp::{schemars, tool};
use serde::Deserialize;
use serde_json::json;

#[derive(Deserialize, schemars::JsonSchema)]
pub(super) struct DietArgs {
    /// The network: the text of a .solution file (`#recipe-id` then the actions).
    network: String,
    /// The diet: vegan, vegetarian, gluten-free, dairy-free, nut-free or egg-free.
    diet: String,
    /// The recipe to judge when the text holds several (default: the first).
    recipe: Option<String>,
}

impl NetworkText for DietArgs {
    fn network(&self) -> &str {
        &self.network
    }
}

#[rmcp::tool_router(router = answer_tools, vis = "pub(super)")]
impl KitchenServer {
    #[tool(
        description = "Does the dish a network makes keep a diet (vegan, vegetarian, gluten-free, dairy-free, nut-free, egg-free)? The network is simulated and its final dish judged, not its text: `satisfied` (null with a `reason` when there is no dish), and each excluded ingredient in `violations` with its tags, its amount in the dish and the actions that brought it in."
    )]
    async fn check_diet(&self, Parameters(args): Parameters<DietArgs>) -> CallToolResult {
        self.timed(args, Self::diet).await
    }

    fn diet(&self, args: &DietArgs) -> CallToolResult {
        let diet = match Diet::named(&args.diet) {
            Ok(diet) => diet,
            Err(e) => return refuse(json!({ "error": e.to_string() })),
        };
        let mut gold = |_: &str| Ok(self.evaluator().ok().map(|e| e.benchmark.clone()));
        let judged = diet_text(
            &self.model,
            &args.network,
            args.recipe.as_deref(),
            diet,
            &mut gold,
        );
        match judged {
            Ok(answer) => CallToolResult::structured(json!(answer)),
            Err(failure) => refuse(failure_json(&args.network, failure)),
        }
    }

    #[tool(
        description = "A cook's guide from the simulated schedule of a network: `total_time` (seconds; the execution time) and the executed actions in start order (`steps`: each with start and end in seconds, line, text, words, whether it is a timer and the actions it overlaps), the `timers` (actions the kitchen finishes by itself, such as an oven heating or a bake, with their temperature and when they are ready) and the `idle` times when the cook only waits."
    )]
    async fn cooking_guide(&self, Parameters(args): Parameters<NetworkArgs>) -> CallToolResult {
        self.timed(args, Self::guide).await
    }

    fn guide(&self, args: &NetworkArgs) -> CallToolResult {
        match guide_text(&self.model, &args.network, args.recipe.as_deref()) {
            Ok(guide) => CallToolResult::structured(json!(guide)),
            Err(failure) => refuse(failure_json(&args.network, failure)),
        }
    }
}
