//! The rewrite tools (`substitute_ingredient`, `suggest_substitutes`, `scale_recipe`): a
//! call's arguments turned into the service's substitution or scaling, and its answer (the
//! evaluation's metric names, the changes, the rewritten network) into JSON.

use super::{KitchenServer, NetworkText, bounded, refuse, shorten};
use crate::report::json::value;
use crate::service::rewrite_run::RerunFailure;
use crate::service::scale::scale_text;
use crate::service::substitute::{substitute_text, suggest};
use crate::service::substitute_diet::diet_filter;
use crate::world::rewrite::scaling::Factor;
use crate::world::rewrite::substitution::AmountRule;
use rmcp::model::CallToolResult;
use rmcp::schemars;
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

impl KitchenServer {
    /// A rewrite tool's call: the network bounded as every tool's, the call within the
    /// budget of every call, the answer shortened but for the rewritten network.
    pub(super) async fn rewrite<A: NetworkText + Send + 'static>(
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

    pub(super) fn substitute_work(&self, args: &SubstituteArgs) -> CallToolResult {
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

    pub(super) fn suggest_work(&self, args: &SuggestArgs) -> CallToolResult {
        let filter = match args.diet.as_deref().map(diet_filter).transpose() {
            Ok(filter) => filter,
            Err(e) => return request_error(e),
        };
        let network = args
            .network
            .as_deref()
            .map(|text| (text, args.recipe.as_deref()));
        match suggest(
            &self.model,
            &args.ingredient,
            filter.as_deref(),
            network,
            AmountRule::default(),
            &mut self.gold(),
        ) {
            Ok(s) => answered(args.network(), Ok(s)),
            Err(e) => request_error(e),
        }
    }

    pub(super) fn scale_work(&self, args: &ScaleArgs) -> CallToolResult {
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
