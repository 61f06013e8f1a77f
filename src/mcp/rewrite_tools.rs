//! The rewrite tools (`substitute_ingredient`, `suggest_substitutes`, `scale_recipe`): a
//! call's arguments turned into the service's substitution or scaling, and its answer (the
//! evaluation's metric names, the changes, the rewritten network) into JSON.

use super::{KitchenServer, NetworkText, bounded, refuse, shorten};
use crate::data::diet_table::Diet;
use crate::report::json::value;
use crate::service::rewrite_run::RerunFailure;
use crate::service::scale::scale_text;
use crate::service::substitute::{substitute_text, suggest};
use crate::world::rewrite::scaling::Factor;
use crate::world::rewrite::substitution::AmountRule;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolResult;
use rmcp::{schemars, tool};
use serde::Deserialize;
use serde_json::{Value, json};

#[derive(Deserialize, schemars::JsonSchema)]
pub(super) struct SubstituteArgs {
    /// The network: the text of a .solution file.
    network: String,
    /// The ingredient class to replace, such as `butter`.
    replace: String,
    /// The ingredient class to put in its place, such as `coconut-oil`.
    with: String,
    /// How the new amount follows from the old: `same-weight` (default), `same-volume` or
    /// `same-count`.
    amount_rule: Option<String>,
    /// The recipe to use when the text holds several (default: the first).
    recipe: Option<String>,
}

#[derive(Deserialize, schemars::JsonSchema)]
pub(super) struct SuggestArgs {
    /// The ingredient class to find substitutes for, such as `butter`.
    ingredient: String,
    /// Keep only substitutes a diet allows: vegan, vegetarian, gluten-free, dairy-free,
    /// nut-free or egg-free.
    diet: Option<String>,
    /// A network to try each substitute in (same-weight), when given.
    network: Option<String>,
    /// The recipe to use when the text holds several (default: the first).
    recipe: Option<String>,
}

#[derive(Deserialize, schemars::JsonSchema)]
pub(super) struct ScaleArgs {
    /// The network: the text of a .solution file.
    network: String,
    /// The factor, such as `2`, `1.5` or `3/2` (from 1/100 to 100); or give servings and
    /// serves.
    factor: Option<String>,
    /// Scale to this many servings (with serves).
    servings: Option<u32>,
    /// How many the network serves as written.
    serves: Option<u32>,
    /// The recipe to use when the text holds several (default: the first).
    recipe: Option<String>,
}

impl NetworkText for SubstituteArgs {
    fn network(&self) -> &str {
        &self.network
    }
}

impl NetworkText for SuggestArgs {
    fn network(&self) -> &str {
        self.network.as_deref().unwrap_or_default()
    }
}

impl NetworkText for ScaleArgs {
    fn network(&self) -> &str {
        &self.network
    }
}

fn request_error(message: String) -> CallToolResult {
    refuse(json!({ "error": message, "kind": "request" }))
}

/// An answer with the numbers the command's JSON has, or the refusal.
fn answered<T: serde::Serialize>(text: &str, answer: Result<T, RerunFailure>) -> CallToolResult {
    match answer {
        Ok(a) => CallToolResult::structured(value(&a)),
        Err(failure) => refuse(failure.to_json(text)),
    }
}

/// A rewrite's answer shortened as every answer is ([`shorten`]), but for the rewritten
/// network, which an agent needs whole: it is no larger than the network it was given, give or
/// take the digits of its amounts.
fn shorten_keeping_network(answer: &mut Value) {
    let network = answer.as_object_mut().and_then(|m| m.remove("network"));
    shorten(answer);
    if let (Some(network), Some(fields)) = (network, answer.as_object_mut()) {
        fields.insert("network".into(), network);
    }
}

#[rmcp::tool_router(router = rewrite_tools, vis = "pub(super)")]
impl KitchenServer {
    #[tool(
        description = "Replace one ingredient of a network by another (amounts converted by the ontology's gram table: same-weight, same-volume or same-count), run it again and compare it with the original by the evaluation's metrics (the original's dish as the gold dish): whether it executes, goal-condition success, dish approximation score with the dish's differences, execution time, the actions changed and the new network."
    )]
    async fn substitute_ingredient(
        &self,
        Parameters(args): Parameters<SubstituteArgs>,
    ) -> CallToolResult {
        self.rewrite(args, Self::substitute_work).await
    }

    #[tool(
        description = "Substitutes for an ingredient: the classes sharing a role with it (fat, sugar, flour, acid, ...) in the documented role table, filtered by a diet; given a network, each is tried in it and scored against the original."
    )]
    async fn suggest_substitutes(
        &self,
        Parameters(args): Parameters<SuggestArgs>,
    ) -> CallToolResult {
        self.rewrite(args, Self::suggest_work).await
    }

    #[tool(
        description = "Scale every ingredient amount of a network by a factor (or to a number of servings), counts rounded as a cook would, run it again and compare it with the original: the evaluation's metrics, the dish's proportions ingredient by ingredient, the counts rounded, and what the kitchen model says no longer fits (stock, portions; it has no capacities)."
    )]
    async fn scale_recipe(&self, Parameters(args): Parameters<ScaleArgs>) -> CallToolResult {
        self.rewrite(args, Self::scale_work).await
    }

    /// A rewrite tool's call: the network bounded as every tool's, the call within the
    /// budget of every call, the answer shortened but for the rewritten network.
    async fn rewrite<A: NetworkText + Send + 'static>(
        &self,
        args: A,
        work: fn(&KitchenServer, &A) -> CallToolResult,
    ) -> CallToolResult {
        if let Err(refusal) = bounded(args.network()) {
            return refusal;
        }
        self.in_budget(args, work, shorten_keeping_network).await
    }

    fn gold(&self) -> impl FnMut(&str) -> Result<Option<crate::benchmark::Benchmark>, String> + '_ {
        |_: &str| Ok(self.evaluator().ok().map(|e| e.benchmark.clone()))
    }

    fn substitute_work(&self, args: &SubstituteArgs) -> CallToolResult {
        let rule = match args
            .amount_rule
            .as_deref()
            .map(AmountRule::named)
            .transpose()
        {
            Ok(rule) => rule.unwrap_or_default(),
            Err(e) => return request_error(e),
        };
        let answer = substitute_text(
            &self.model,
            &args.network,
            args.recipe.as_deref(),
            (&args.replace, &args.with),
            rule,
            &mut self.gold(),
        );
        answered(&args.network, answer)
    }

    fn suggest_work(&self, args: &SuggestArgs) -> CallToolResult {
        let diet = match args.diet.as_deref().map(Diet::named).transpose() {
            Ok(diet) => diet,
            Err(e) => return request_error(e.to_string()),
        };
        let network = args
            .network
            .as_deref()
            .map(|text| (text, args.recipe.as_deref()));
        match suggest(
            &self.model,
            &args.ingredient,
            diet,
            network,
            AmountRule::default(),
            &mut self.gold(),
        ) {
            Ok(s) => answered(args.network(), Ok(s)),
            Err(e) => request_error(e),
        }
    }

    fn scale_work(&self, args: &ScaleArgs) -> CallToolResult {
        let factor = match (&args.factor, args.servings, args.serves) {
            (Some(f), None, None) => Factor::parse(f),
            (None, Some(n), Some(m)) => Factor::servings(n, m),
            _ => Err("give a factor, or servings with serves".to_owned()),
        };
        let factor = match factor {
            Ok(factor) => factor,
            Err(e) => return request_error(e),
        };
        let answer = scale_text(
            &self.model,
            &args.network,
            args.recipe.as_deref(),
            factor,
            &mut self.gold(),
        );
        answered(&args.network, answer)
    }
}
