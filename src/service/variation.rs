//! Generated variations of a benchmark task (issue 51), so that an agent cannot learn the
//! benchmark's 30 kitchens and amounts by heart: variation K > 0 of a recipe serves a
//! different number of people (every amount of the gold scaled, as `scale` scales), lacks one
//! ingredient of the gold and holds a substitute for it in its place (the gold rewritten as
//! `substitute` rewrites, same weight), and holds other quantities of everything. The
//! variation's gold network is the official gold rewritten by the project's own rewrites, and
//! it is run on the variation's kitchen before the variation is given out. Everything follows
//! from the recipe id and K through a seeded generator: the same K is the same task anywhere.

use super::context::DataContext;
use super::ingredient_use::uses_of;
use super::model_of;
use super::workspace::{Workspace, evaluator_over};
use crate::base::number::Number;
use crate::base::random::SplitMix64;
use crate::benchmark::Benchmark;
use crate::data::substitute_roles::SubstituteRoles;
use crate::evaluate::Evaluator;
use crate::language::ast::Recipe;
use crate::language::diagnostic::Diagnostics;
use crate::language::validate::read_checked;
use crate::metrics::metric::MetricSet;
use crate::simulation::benchmark_world::{DataText, World};
use crate::simulation::{Model, builtin_kitchen};
use crate::world::ontology::ClassId;
use crate::world::rewrite::scaling::{Factor, scale};
use crate::world::rewrite::substitution::{
    AmountRule, Substitution, ingredient_class, network_ingredients, substitute,
};
use serde::Serialize;
use serde_json::Value;
use std::path::PathBuf;
use std::sync::Arc;

/// The servings factors a variation draws from (never 1: a variation is another task).
const FACTORS: [&str; 5] = ["1/2", "3/2", "2", "5/2", "3"];
/// How much more of each thing than the servings need the variation's kitchen holds, drawn
/// per thing: never less, so a kitchen that held enough for the official gold holds enough
/// for the variation's.
const PLENTY: [(i64, i64); 4] = [(1, 1), (5, 4), (3, 2), (2, 1)];
/// The missing ingredients (and substitutes) tried before a variation goes without one: each
/// try runs the gold once.
const SWAPS_TRIED: usize = 12;

/// Why a variation cannot be made.
#[derive(Debug, thiserror::Error)]
pub enum VariationError {
    #[error("variation 0 is the official task; variations are numbered from 1")]
    Official,
    /// The recipe is not the benchmark's, or its gold does not run (the evaluation's words).
    #[error("{0}")]
    Recipe(String),
    /// The data (benchmark, ontology, kitchen) cannot be read.
    #[error("{0}")]
    Data(String),
    #[error("variation {number} of {recipe}: {message}")]
    Failed {
        number: u64,
        recipe: String,
        message: String,
    },
}

/// The missing ingredient and the substitute the kitchen holds in its place.
#[derive(Clone, Debug, Serialize)]
pub struct Swap {
    pub missing: String,
    pub substitute: String,
}

/// One thing of the kitchen held in another quantity.
#[derive(Clone, Debug, Serialize)]
pub struct StockChange {
    pub ingredient: String,
    pub unit: String,
    pub before: Value,
    pub after: Value,
}

/// Variation `number` of a recipe: the task, its gold network, and an evaluator whose kitchen
/// is the variation's and whose gold for the recipe is the variation's (a session on it is
/// scored against that gold).
pub struct Variation {
    pub number: u64,
    pub recipe: String,
    /// Servings scaled by this factor.
    pub factor: Factor,
    /// `None` when no ingredient of the gold could go missing with a substitute that runs.
    pub swap: Option<Swap>,
    pub stock: Vec<StockChange>,
    /// The variation's gold network, as a `.solution` text.
    pub gold: String,
    /// The variation's kitchen, in the format of `kitchens/`.
    pub kitchen: String,
    pub evaluator: Arc<Evaluator>,
}

impl Variation {
    /// The task in words, as an agent reads it beside the recipe.
    pub fn task(&self) -> String {
        let mut words = format!(
            "Variation {} of this recipe: make {} times the amounts the recipe gives (servings scaled by {}).",
            self.number, self.factor, self.factor
        );
        if let Some(s) = &self.swap {
            words.push_str(&format!(
                " The kitchen holds no {}: use {}, which it holds in its place.",
                s.missing, s.substitute
            ));
        }
        words
    }
}

/// Variation `number` (from 1) of `recipe` of `base`'s benchmark, whose model was made of
/// `world` (its ontology and kitchen data).
pub fn vary(
    base: &Evaluator,
    world: &World,
    recipe: &str,
    number: u64,
) -> Result<Variation, VariationError> {
    if number == 0 {
        return Err(VariationError::Official);
    }
    let id = recipe.to_lowercase();
    let (gold, _) = base
        .gold(&id)
        .map_err(|r| VariationError::Recipe(r.message))?;
    let failed = |message: String| VariationError::Failed {
        number,
        recipe: id.clone(),
        message,
    };
    // What the official gold scores against itself: a variation's gold must score as much.
    let official = self_score(base, &headed(&id, gold)).map_err(failed)?;
    let profile = base.model.profile;
    let kitchen_text = world
        .kitchen
        .as_ref()
        .map_or_else(|| builtin_kitchen(profile), |file| &file.text);
    let kitchen: Value = serde_json::from_str(kitchen_text).map_err(|e| failed(e.to_string()))?;
    let mut rng = SplitMix64::from_text(&format!("{id} variation {number}"));
    let mut factors = FACTORS.to_vec();
    shuffle(&mut factors, &mut rng);
    let stock_seed = rng.next_u64();
    let (onto, catalogue) = (&base.model.onto, &base.model.catalogue);
    let variation = |(evaluator, gold, kitchen, stock): Made, factor, swap| Variation {
        number,
        recipe: id.clone(),
        factor,
        swap,
        stock,
        gold,
        kitchen,
        evaluator,
    };
    let mut why = String::from("no servings factor scales its gold into a network that runs");
    // The first factor (in the drawn order) whose scaled gold runs with an ingredient missing;
    // failing every one, the first whose scaled gold runs as it is.
    for with_swap in [true, false] {
        for text in &factors {
            let factor = Factor::parse(text).map_err(|e| failed(e.to_string()))?;
            let scaled = scale(onto, catalogue, gold, factor).rewrite.recipe;
            let try_on = |network: &Recipe, swap: Option<(ClassId, ClassId)>| {
                let mut varied = kitchen.clone();
                if let Some((missing, with)) = swap {
                    in_place_of(&mut varied, onto.class_name(missing), onto.class_name(with));
                }
                let stock = restock(&mut varied, factor.value(), SplitMix64::new(stock_seed));
                made(base, world, &id, network, varied, stock, official)
            };
            if !with_swap {
                match try_on(&scaled, None) {
                    Ok(made) => return Ok(variation(made, factor, None)),
                    Err(e) => why = e,
                }
                continue;
            }
            let mut swaps = swaps(&base.model, &scaled, &kitchen);
            shuffle(&mut swaps, &mut rng);
            for &(missing, with, strength_factor) in swaps.iter().take(SWAPS_TRIED) {
                // The amount a cook would take: the same effect where the strengths differ.
                let s = Substitution {
                    strength_factor,
                    ..Substitution::new(missing, with, AmountRule::SameEffect)
                };
                let Ok(rewrite) = substitute(onto, catalogue, &scaled, &s) else {
                    continue;
                };
                if let Ok(made) = try_on(&rewrite.recipe, Some((missing, with))) {
                    let swap = Swap {
                        missing: onto.class_name(missing).to_owned(),
                        substitute: onto.class_name(with).to_owned(),
                    };
                    return Ok(variation(made, factor, Some(swap)));
                }
            }
        }
    }
    Err(failed(why))
}

/// The variation's evaluator, gold text, kitchen text and stock changes, once its gold
/// network runs on its kitchen and makes its dish; else why not.
type Made = (Arc<Evaluator>, String, String, Vec<StockChange>);

fn made(
    base: &Evaluator,
    world: &World,
    id: &str,
    network: &Recipe,
    kitchen: Value,
    stock: Vec<StockChange>,
    official: (Number, f32),
) -> Result<Made, String> {
    let text = kitchen.to_string();
    let varied = World {
        ontology: world.ontology.clone(),
        kitchen: Some(DataText {
            path: PathBuf::from(format!("variation of {id}")),
            text: text.clone(),
        }),
    };
    let mut model = varied
        .model(base.model.profile)
        .map_err(|e| e.to_string())?;
    model.time_budget = base.model.time_budget;
    let gold_text = headed(id, network);
    let (file, errors) = read_checked(
        &gold_text,
        &model.validator(),
        Diagnostics::new().errors_only(),
    );
    if let Some(first) = errors.first() {
        return Err(format!("its gold network is refused: {}", first.message));
    }
    let network = file
        .recipes
        .into_iter()
        .next()
        .ok_or("its gold network holds no recipe")?;
    let mut benchmark: Benchmark = base.benchmark.clone();
    for g in benchmark.recipes.iter_mut().filter(|g| g.id == id) {
        g.network = network.clone();
    }
    let evaluator = Evaluator::with(model, benchmark);
    let (_, run) = evaluator.gold(id).map_err(|r| r.message)?;
    if run.output_step.is_none() || !run.execution.solved {
        return Err("its gold network makes no dish on its kitchen".into());
    }
    // An action that runs but makes a failed object (half an egg to crack) spoils the dish:
    // the gold must score against itself what the official gold scores against itself (1.00
    // for all but a gold that spoils goals itself, as 2024's chocolate-cream-cheese-cupcakes).
    let (goals, dish) = self_score(&evaluator, &gold_text)?;
    let (official_goals, official_dish) = official;
    if goals.num_cmp(&official_goals).is_lt() || dish < official_dish {
        return Err("its gold network does not reach its own goals and dish".into());
    }
    Ok((Arc::new(evaluator), gold_text, text, stock))
}

/// `network` as a `.solution` text headed by the recipe's id, whatever the official file's
/// header says (2024's black-bean-salad-2 is headed `#black-bean-salad-4`).
fn headed(id: &str, network: &Recipe) -> String {
    Recipe {
        id: id.to_string(),
        ..network.clone()
    }
    .to_string()
}

/// The goal-condition success and dish approximation score of `gold` against itself.
fn self_score(evaluator: &Evaluator, gold: &str) -> Result<(Number, f32), String> {
    let metrics = MetricSet::from_words(&["goal-condition-success", "dish-approximation-score"]);
    let scored = evaluator.evaluate(gold, &metrics).map_err(|r| r.message)?;
    let first = scored.first();
    Ok((
        first
            .and_then(|r| r.goal_condition_success)
            .unwrap_or(Number::int(0)),
        first
            .and_then(|r| r.dish_approximation_score)
            .unwrap_or(0.0),
    ))
}

/// The (missing, substitute) pairs a variation may draw, in a fixed order: an ingredient of
/// the network that the kitchen holds by weight, and a substitute the role table offers in
/// its place, fit for the network's use of it, that the network does not use and the kitchen
/// holds by weight or not at all (it is then put in the missing one's place); with the
/// grams of the substitute that do the work of a gram of the missing one.
fn swaps(model: &Model, network: &Recipe, kitchen: &Value) -> Vec<(ClassId, ClassId, Number)> {
    let onto = &model.onto;
    let used = network_ingredients(onto, network);
    let mut units = Vec::new();
    held_units(kitchen, &mut units);
    let by_weight = |class: &str| {
        let held: Vec<&str> = units
            .iter()
            .filter(|(c, _)| c == class)
            .map(|(_, u)| u.as_str())
            .collect();
        (
            !held.is_empty() && held.iter().all(|u| *u == "g"),
            held.is_empty(),
        )
    };
    let mut out = Vec::new();
    for &missing in &used {
        let name = onto.class_name(missing);
        if !by_weight(name).0 {
            continue;
        }
        let uses = uses_of(onto, &model.catalogue, network, missing);
        let mut offers = SubstituteRoles::builtin().offers(name);
        offers.retain(|o| uses.iter().all(|u| !o.offered.unfit.contains_key(&u.what)));
        offers.sort_unstable_by(|a, b| a.offered.class.cmp(&b.offered.class));
        for offer in offers {
            let with = offer.offered.class.as_str();
            let (weighed, absent) = by_weight(with);
            let Ok(class) = ingredient_class(onto, with) else {
                continue;
            };
            if !used.contains(&class) && (weighed || absent) {
                out.push((missing, class, offer.strength_factor()));
            }
        }
    }
    out
}

/// Every ingredient the kitchen data holds, with the unit of its amount.
fn held_units(node: &Value, out: &mut Vec<(String, String)>) {
    match node {
        Value::Object(o) => {
            if let (Some(Value::String(class)), Some(unit)) =
                (o.get("class"), o.get("amount").and_then(|a| a.get("unit")))
            {
                out.push((class.clone(), unit.as_str().unwrap_or("").to_owned()));
            }
            o.values().for_each(|v| held_units(v, out));
        }
        Value::Array(items) => items.iter().for_each(|v| held_units(v, out)),
        _ => {}
    }
}

/// The kitchen data without `missing`: its first object becomes `with` (as many grams, unless
/// the kitchen holds `with` already), every other one goes.
fn in_place_of(node: &mut Value, missing: &str, with: &str) {
    let mut units = Vec::new();
    held_units(node, &mut units);
    let mut put = units.iter().any(|(c, _)| c == with);
    remove_all(node, missing, with, &mut put);
}

fn remove_all(node: &mut Value, missing: &str, with: &str, put: &mut bool) {
    match node {
        Value::Object(o) => o
            .values_mut()
            .for_each(|v| remove_all(v, missing, with, put)),
        Value::Array(items) => {
            items.retain_mut(|item| {
                if item.get("class").and_then(Value::as_str) != Some(missing) {
                    return true;
                }
                if *put {
                    return false;
                }
                *put = true;
                item["class"] = Value::String(with.to_owned());
                true
            });
            items
                .iter_mut()
                .for_each(|v| remove_all(v, missing, with, put));
        }
        _ => {}
    }
}

/// Every amount the kitchen data holds times `factor` and a factor of [`PLENTY`] drawn from
/// `rng`, whole numbers rounded up; what changed.
fn restock(kitchen: &mut Value, factor: Number, mut rng: SplitMix64) -> Vec<StockChange> {
    let mut changes = Vec::new();
    let mut amounts = Vec::new();
    amounts_of(kitchen, &mut amounts);
    for (class, amount) in amounts {
        let (n, d) = PLENTY[rng.below(PLENTY.len())];
        let by = factor.mul(Number::ratio(n, d).unwrap_or(Number::int(1)));
        let Some(value) = amount.pointer_mut("/quantity/value") else {
            continue;
        };
        let before = value.clone();
        let after = match before.as_i64() {
            Some(whole) => Value::from(ceiling(Number::int(whole).mul(by))),
            None => Value::from(before.as_f64().unwrap_or(0.0) * by.to_f64()),
        };
        *value = after.clone();
        let unit = amount["unit"].as_str().unwrap_or("").to_owned();
        changes.push(StockChange {
            ingredient: class,
            unit,
            before,
            after,
        });
    }
    changes
}

/// The smallest whole number at least `n` (which is positive).
fn ceiling(n: Number) -> i64 {
    let whole = n.floor_i64();
    if Number::int(whole).num_cmp(&n).is_lt() {
        whole + 1
    } else {
        whole
    }
}

/// The amounts of the kitchen data, with their objects' classes, in the data's order.
fn amounts_of<'k>(node: &'k mut Value, out: &mut Vec<(String, &'k mut Value)>) {
    match node {
        Value::Object(o) => {
            let class = o.get("class").and_then(Value::as_str).map(str::to_owned);
            for (key, v) in o.iter_mut() {
                match (key.as_str(), &class) {
                    ("amount", Some(class)) => out.push((class.clone(), v)),
                    _ => amounts_of(v, out),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| amounts_of(v, out)),
        _ => {}
    }
}

/// `items` in an order drawn from `rng` (Fisher and Yates).
fn shuffle<T>(items: &mut [T], rng: &mut SplitMix64) {
    for i in (1..items.len()).rev() {
        items.swap(i, rng.below(i + 1));
    }
}

/// Variation `number` of `recipe` of a workspace's benchmark and kitchen, from the workspace's
/// evaluator (kept while the files it was read from are unchanged).
pub fn vary_in(
    workspace: &Workspace,
    recipe: &str,
    number: u64,
) -> Result<Variation, VariationError> {
    vary_data(workspace.data(), recipe, number, |_| {
        (workspace.evaluator()).map_err(|e| VariationError::Data(e.to_string()))
    })
}

/// Variation `number` (from 1) of `recipe` of the benchmark and kitchen of `data`, from the
/// evaluator `base` gives for the world read here: the one place a variation is made from
/// data, for the job, a session and a log's replay. The ontology and kitchen files are read
/// once; a replay makes its evaluator of that reading ([`evaluator_of_world`]).
pub fn vary_data(
    data: &DataContext,
    recipe: &str,
    number: u64,
    base: impl FnOnce(&World) -> Result<Arc<Evaluator>, VariationError>,
) -> Result<Variation, VariationError> {
    // Asked before any data is read: the official task is no variation wherever the data is.
    if number == 0 {
        return Err(VariationError::Official);
    }
    let world = World::of(data.benchmark.as_ref(), data.kitchen.as_deref())
        .map_err(|e| VariationError::Data(e.to_string()))?;
    let base = base(&world)?;
    vary(&base, &world, recipe, number)
}

/// The evaluator of `data` made of `world`, its files as [`vary_data`] read them.
pub fn evaluator_of_world(
    data: &DataContext,
    world: &World,
) -> Result<Arc<Evaluator>, VariationError> {
    let made = model_of(world, data).and_then(|model| evaluator_over(data, model));
    made.map(Arc::new)
        .map_err(|e| VariationError::Data(e.to_string()))
}
