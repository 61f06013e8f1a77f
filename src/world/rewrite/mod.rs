//! Networks changed as a cook changes a recipe: one ingredient for another
//! ([`substitution`]) or every amount scaled ([`scaling`]). A rewrite works on the syntax tree
//! with the ontology's gram table and the catalogue's argument names, keeps every action in
//! its place (so action `i` of the rewrite is action `i` of the original) and says what it
//! changed; running and scoring the result is the service's job.

pub mod scaling;
pub mod substitution;

use super::ontology::{ClassId, Ontology};
use crate::base::number::Number;
use crate::data::catalogue::Catalogue;
use crate::language::ast::{Arg, Predicate, Recipe};
use serde::Serialize;

/// The arguments that hold the amount of an ingredient: (primitive, quantity, unit). Portion
/// sizes (`portion-and-arrange`), tool counts (`fetch`), times and temperatures are not
/// amounts of an ingredient: a recipe made twice is cut in portions of the same size, baked as
/// long and as hot.
pub const INGREDIENT_AMOUNTS: [(&str, &str, &str); 3] = [
    ("fetch-and-proportion", "quantity", "unit"),
    ("transfer-contents", "quantity", "unit"),
    ("top-with", "topping-quantity", "topping-unit"),
];

/// Units that count whole things: a cook takes 3 eggs, not 2.5.
pub const COUNT_UNITS: [&str; 3] = ["piece", "clove", "stalk"];

/// Units of volume; the gram table lists them as `l` and `teaspoon`.
pub const VOLUME_UNITS: [&str; 5] = ["l", "ml", "teaspoon", "tablespoon", "cup"];

/// One rewritten action.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Change {
    /// Index of the action in the network (the same in the original and the rewrite).
    pub predicate: usize,
    pub before: String,
    pub after: String,
    /// How the new values were found (an amount converted or rounded), in words.
    pub note: String,
}

/// A network rewritten, and what changed.
#[derive(Clone, Debug)]
pub struct Rewrite {
    pub recipe: Recipe,
    /// The changed actions, in network order.
    pub changes: Vec<Change>,
}

impl Rewrite {
    /// A rewrite of `original` that has changed nothing yet.
    fn of(original: &Recipe) -> Rewrite {
        Rewrite {
            recipe: original.clone(),
            changes: Vec::new(),
        }
    }

    /// Replace action `i` by `after`, recording the change when it is one.
    fn set(&mut self, i: usize, after: Predicate, note: String) {
        let before = &self.recipe.predicates[i];
        if *before == after {
            return;
        }
        self.changes.push(Change {
            predicate: i,
            before: before.to_string(),
            after: after.to_string(),
            note,
        });
        self.recipe.predicates[i] = after;
    }
}

/// Why a network cannot be rewritten as asked, and the action (its index) that could not be,
/// where one could not: a front end locates it in the text the network was read from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RewriteError {
    pub action: Option<usize>,
    pub message: String,
}

impl From<String> for RewriteError {
    fn from(message: String) -> RewriteError {
        RewriteError {
            action: None,
            message,
        }
    }
}

/// An ingredient's amount as a network states it: constants at the catalogue's positions.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Amount {
    pub quantity: usize,
    pub unit: usize,
    pub value: Number,
    pub unit_class: ClassId,
}

/// The positions of `p`'s ingredient-amount arguments ([`INGREDIENT_AMOUNTS`]), when its
/// primitive has them and the action gives them.
pub(crate) fn amount_positions(catalogue: &Catalogue, p: &Predicate) -> Option<(usize, usize)> {
    let (_, quantity, unit) = INGREDIENT_AMOUNTS
        .iter()
        .find(|(name, ..)| *name == p.name)?;
    let sig = catalogue.get(&p.name)?;
    let (q, u) = (sig.arg_index(quantity)?, sig.arg_index(unit)?);
    (q < p.args.len() && u < p.args.len()).then_some((q, u))
}

/// `p`'s ingredient amount when both its quantity and its unit are constants (a unit the
/// ontology knows); `None` when the action has no amount or gives it through variables.
pub(crate) fn constant_amount(
    onto: &Ontology,
    catalogue: &Catalogue,
    p: &Predicate,
) -> Option<Amount> {
    let (quantity, unit) = amount_positions(catalogue, p)?;
    let (Arg::Num(value), Arg::Sym(unit_name)) = (&p.args[quantity], &p.args[unit]) else {
        return None;
    };
    Some(Amount {
        quantity,
        unit,
        value: *value,
        unit_class: onto.class_id(unit_name)?,
    })
}

/// Whether `unit` is one of `names`.
pub(crate) fn unit_is(onto: &Ontology, unit: ClassId, names: &[&str]) -> bool {
    names.contains(&onto.class_name(unit))
}

/// Grams in `value` `unit` of an ingredient of exactly `class`, by the gram table as
/// `convert-to-g` reads it; `None` where the table has no factor.
pub fn grams(onto: &Ontology, class: ClassId, value: Number, unit: ClassId) -> Option<Number> {
    if onto.class_name(unit) == "g" {
        return Some(value);
    }
    let (value, unit) = onto.in_table_unit(value, unit);
    Some(value.mul(onto.grams_per(class, unit)?))
}

/// Grams of each ingredient a network's `fetch-and-proportion` actions take from the kitchen,
/// counting constant amounts the gram table can weigh, in first-use order.
pub fn taken_from_kitchen(
    onto: &Ontology,
    catalogue: &Catalogue,
    recipe: &Recipe,
) -> Vec<(ClassId, Number)> {
    let mut out: Vec<(ClassId, Number)> = Vec::new();
    let fetching = recipe
        .predicates
        .iter()
        .filter(|p| p.name == INGREDIENT_AMOUNTS[0].0);
    for p in fetching {
        let Some(amount) = constant_amount(onto, catalogue, p) else {
            continue;
        };
        let Some(class) = named_ingredient(onto, p) else {
            continue;
        };
        let Some(weight) = grams(onto, class, amount.value, amount.unit_class) else {
            continue;
        };
        match out.iter_mut().find(|(c, _)| *c == class) {
            Some((_, sum)) => *sum = sum.add(weight),
            None => out.push((class, weight)),
        }
    }
    out
}

/// The ingredient class an action names, when it names one.
pub(crate) fn named_ingredient(onto: &Ontology, p: &Predicate) -> Option<ClassId> {
    let ingredient = onto.class_id("ingredient")?;
    p.args.iter().find_map(|a| match a {
        Arg::Sym(name) => onto.class_id(name).filter(|c| onto.is_a(*c, ingredient)),
        _ => None,
    })
}
