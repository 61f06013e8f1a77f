//! The jobs that answer what cooking agents are asked of a network's run: its dish against a
//! diet, the cook's guide, an ingredient substituted, the recipe scaled.

use super::networks::{NetworkRequest, simulate_refusal};
use super::refusal::Refusal;
use crate::data::diet_table::Diet;
use crate::report::cook_guide::Guide;
use crate::service::diet_check::{DietAnswer, diet_text};
use crate::service::guide::guide_text;
use crate::service::rewrite_run::RerunFailure;
use crate::service::scale::{ScaleAnswer, scale_text};
use crate::service::substitute::{
    SubstituteAnswer, Suggestions, substitute_text, suggest as suggested,
};
use crate::service::workspace::Workspace;
use crate::world::rewrite::scaling::{Factor, FactorError, servings_out_of_range};
use crate::world::rewrite::substitution::AmountRule;
use schemars::JsonSchema;
use serde::Deserialize;

/// A network and a diet.
#[derive(Deserialize, JsonSchema)]
pub struct DietRequest {
    /// The network: the text of a .solution file (`#recipe-id` then the actions).
    pub network: String,
    /// The diet: vegan, vegetarian, gluten-free, dairy-free, nut-free or egg-free.
    pub diet: String,
    /// The recipe to judge when the text holds several (default: the first).
    pub recipe: Option<String>,
}

/// One recipe's dish judged against a diet: `diet --format json`'s answer.
pub fn diet(workspace: &Workspace, request: DietRequest) -> Result<DietAnswer, Refusal> {
    let diet = Diet::named(&request.diet).map_err(|e| Refusal::request(e.to_string()))?;
    let text = &request.network;
    workspace
        .with_gold(|model, gold| diet_text(model, text, request.recipe.as_deref(), diet, gold))
        .map_err(|failure| simulate_refusal(text, failure))
}

/// One recipe's cook's guide: `guide --format json`'s answer.
pub fn guide(workspace: &Workspace, request: NetworkRequest) -> Result<Guide, Refusal> {
    let text = &request.network;
    guide_text(workspace.model(), text, request.recipe.as_deref())
        .map_err(|failure| simulate_refusal(text, failure))
}

/// A rewrite's failure, located in the text it was given.
fn rerun_refusal(text: &str) -> impl FnOnce(RerunFailure) -> Refusal + '_ {
    move |failure| Refusal::of_json(failure.to_json(text))
}

/// A network and the ingredient to put in place of another.
#[derive(Deserialize, JsonSchema)]
pub struct SubstituteRequest {
    /// The network: the text of a .solution file.
    pub network: String,
    /// The ingredient class to replace, such as `butter`.
    pub replace: String,
    /// The ingredient class to put in its place, such as `coconut-oil`.
    pub with: String,
    /// How the new amount follows from the old: `same-weight`, `same-volume`, `same-count` or
    /// `same-effect` (default: `same-effect` where the role table gives the two different
    /// strengths, else `same-weight`).
    pub amount_rule: Option<String>,
    /// The recipe to use when the text holds several (default: the first).
    pub recipe: Option<String>,
}

/// One ingredient replaced by another, the network run again and compared with the original.
pub fn substitute(
    workspace: &Workspace,
    request: SubstituteRequest,
) -> Result<SubstituteAnswer, Refusal> {
    let rule = request.amount_rule.as_deref().map(AmountRule::named);
    let rule = rule
        .transpose()
        .map_err(|e| Refusal::request(e.to_string()))?;
    let text = &request.network;
    workspace
        .with_gold(|model, gold| {
            substitute_text(
                model,
                text,
                request.recipe.as_deref(),
                (&request.replace, &request.with),
                rule,
                gold,
            )
        })
        .map_err(rerun_refusal(text))
}

/// An ingredient to find substitutes for.
#[derive(Deserialize, JsonSchema)]
pub struct SuggestRequest {
    /// The ingredient class to find substitutes for, such as `butter`.
    pub ingredient: String,
    /// Keep only substitutes a diet allows: vegan, vegetarian, gluten-free, dairy-free,
    /// nut-free or egg-free.
    pub diet: Option<String>,
    /// A network to try each substitute in (each pair's default amount rule), when given.
    pub network: Option<String>,
    /// The recipe to use when the text holds several (default: the first).
    pub recipe: Option<String>,
}

/// The role table's substitutes of an ingredient, filtered by a diet, tried in a network.
pub fn suggest(workspace: &Workspace, request: SuggestRequest) -> Result<Suggestions, Refusal> {
    let diet = request.diet.as_deref().map(Diet::named).transpose();
    let diet = diet.map_err(|e| Refusal::request(e.to_string()))?;
    let network = request.network.as_deref();
    workspace
        .with_gold(|model, gold| {
            suggested(
                model,
                &request.ingredient,
                diet,
                network.map(|text| (text, request.recipe.as_deref())),
                None,
                gold,
            )
        })
        .map_err(|e| Refusal::request(e.to_string()))
}

/// A network and how much to scale it by.
#[derive(Deserialize, JsonSchema)]
pub struct ScaleRequest {
    /// The network: the text of a .solution file.
    pub network: String,
    /// The factor, such as `2`, `1.5` or `3/2` (from 1/100 to 100); or give servings and
    /// serves.
    pub factor: Option<String>,
    /// Scale to this many servings (with serves).
    pub servings: Option<u64>,
    /// How many the network serves as written.
    pub serves: Option<u64>,
    /// The recipe to use when the text holds several (default: the first).
    pub recipe: Option<String>,
}

/// A count of servings: one past `u32` is out of the range, as the command line says.
fn count(n: Option<u64>, what: &str) -> Result<Option<u32>, FactorError> {
    n.map(|n| u32::try_from(n).map_err(|_| servings_out_of_range(what, n)))
        .transpose()
}

/// Every ingredient amount scaled, the network run again and compared with the original.
pub fn scale(workspace: &Workspace, request: ScaleRequest) -> Result<ScaleAnswer, Refusal> {
    let counts = (
        count(request.servings, "--servings"),
        count(request.serves, "--serves"),
    );
    let factor = match (&request.factor, counts) {
        (_, (Err(e), _) | (_, Err(e))) => Err(e),
        (Some(f), (Ok(None), Ok(None))) => Factor::parse(f),
        (None, (Ok(Some(n)), Ok(Some(m)))) => Factor::servings(n, m),
        _ => return Err(Refusal::request("give a factor, or servings with serves")),
    };
    let factor = factor.map_err(|e| Refusal::request(e.to_string()))?;
    let text = &request.network;
    workspace
        .with_gold(|model, gold| scale_text(model, text, request.recipe.as_deref(), factor, gold))
        .map_err(rerun_refusal(text))
}
