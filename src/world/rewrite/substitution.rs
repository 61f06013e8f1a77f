//! One ingredient class for another throughout a network (`substitute --replace
//! butter=coconut-oil`): every constant naming the class is replaced, and the amount of each
//! action that fetches it is converted by an [`AmountRule`] through the ontology's gram table.

use super::{Rewrite, RewriteError, VOLUME_UNITS, constant_amount, grams, unit_is};
use crate::base::number::{Number, amount, kitchen_fraction};
use crate::base::suggest::closest;
use crate::data::catalogue::Catalogue;
use crate::language::ast::{Arg, Recipe};
use crate::world::ontology::{ClassId, Ontology};
use serde::Serialize;

/// How the new ingredient's amount follows from the old one's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum AmountRule {
    /// As many grams (by each class's gram table entry for the unit).
    #[default]
    SameWeight,
    /// As much volume: a spoonful for a spoonful; grams through the densities both classes
    /// have in the gram table.
    SameVolume,
    /// The same number in the same unit: an egg for an egg.
    SameCount,
    /// As much of the job: the same weight times the pair's strength factor (a third of the
    /// weight of baking soda for baking powder); the same weight where the two are as strong.
    SameEffect,
}

impl AmountRule {
    pub const ALL: [AmountRule; 4] = [
        AmountRule::SameWeight,
        AmountRule::SameVolume,
        AmountRule::SameCount,
        AmountRule::SameEffect,
    ];

    pub fn name(self) -> &'static str {
        match self {
            AmountRule::SameWeight => "same-weight",
            AmountRule::SameVolume => "same-volume",
            AmountRule::SameCount => "same-count",
            AmountRule::SameEffect => "same-effect",
        }
    }

    /// A rule by name; an unknown one is an error naming the rules.
    pub fn named(word: &str) -> Result<AmountRule, UnknownAmountRule> {
        Self::ALL
            .into_iter()
            .find(|r| r.name().eq_ignore_ascii_case(word))
            .ok_or_else(|| {
                let names = Self::ALL.map(Self::name);
                let close = closest(&word.to_ascii_lowercase(), names.into_iter(), 1);
                UnknownAmountRule {
                    word: word.to_owned(),
                    closest: close.first().map(|c| c.to_string()),
                }
            })
    }
}

/// A word that names no amount rule, with the closest rule when one is near.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{word}` is not an amount rule (one of {names}){hint}",
    names = AmountRule::ALL.map(AmountRule::name).join(", "),
    hint = closest.as_ref().map(|c| format!("; did you mean {c}?")).unwrap_or_default())]
pub struct UnknownAmountRule {
    pub word: String,
    pub closest: Option<String>,
}

/// What to replace, by what, and how amounts follow.
#[derive(Clone, Copy, Debug)]
pub struct Substitution {
    pub replace: ClassId,
    pub with: ClassId,
    pub rule: AmountRule,
    /// Grams of the new class that do the work of a gram of the old (the role table's
    /// strengths); read by [`AmountRule::SameEffect`] only.
    pub strength_factor: Number,
    /// The class whose gram entry weighs the old one where the table has none for it: what a
    /// fetch of an abstract class takes from the kitchen (extra-virgin olive oil for olive
    /// oil); the old class itself otherwise.
    pub weighed_as: ClassId,
}

impl Substitution {
    /// `replace` by `with`, amounts by `rule`, the two as strong as each other.
    pub fn new(replace: ClassId, with: ClassId, rule: AmountRule) -> Substitution {
        Substitution {
            replace,
            with,
            rule,
            strength_factor: Number::int(1),
            weighed_as: replace,
        }
    }
}

/// Why a name is no ingredient class of the ontology.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IngredientError {
    #[error("the ontology has no class `ingredient`")]
    NoIngredients,
    /// A class, but not an ingredient (a tool, a unit).
    #[error("`{0}` is not an ingredient class of the ontology")]
    NotAnIngredient(String),
    /// No class of that name; the closest ingredient classes.
    #[error("no ingredient `{name}` in the ontology{hint}",
        hint = if closest.is_empty() { String::new() } else { format!("; did you mean {}?", closest.join(", ")) })]
    Unknown { name: String, closest: Vec<String> },
}

/// An ingredient class by name: an unknown name is an error with the closest ingredient
/// classes; a class that is not an ingredient (a tool, a unit) is named as such.
pub fn ingredient_class(onto: &Ontology, name: &str) -> Result<ClassId, IngredientError> {
    let name = name.trim().to_ascii_lowercase();
    let Some(ingredient) = onto.class_id("ingredient") else {
        return Err(IngredientError::NoIngredients);
    };
    match onto.class_id(&name) {
        Some(class) if onto.is_a(class, ingredient) => Ok(class),
        Some(_) => Err(IngredientError::NotAnIngredient(name)),
        None => {
            let ingredients = onto
                .classes()
                .filter(|(id, _)| onto.is_a(*id, ingredient))
                .map(|(_, c)| c.name.as_str());
            let closest = closest(&name, ingredients, 3).into_iter().map(String::from);
            Err(IngredientError::Unknown {
                name,
                closest: closest.collect(),
            })
        }
    }
}

/// The ingredient classes a network's constants name, in first-use order.
pub fn network_ingredients(onto: &Ontology, recipe: &Recipe) -> Vec<ClassId> {
    let Some(ingredient) = onto.class_id("ingredient") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for arg in recipe.predicates.iter().flat_map(|p| &p.args) {
        if let Arg::Sym(name) = arg
            && let Some(class) = onto.class_id(name)
            && onto.is_a(class, ingredient)
            && !out.contains(&class)
        {
            out.push(class);
        }
    }
    out
}

/// `recipe` with `s.replace` replaced by `s.with` in every action naming it, each constant
/// amount converted by `s.rule`. `Err` when the network never names the class, or when an
/// amount cannot be converted (the gram table lacks a factor the rule needs: at that action).
pub fn substitute(
    onto: &Ontology,
    catalogue: &Catalogue,
    recipe: &Recipe,
    s: &Substitution,
) -> Result<Rewrite, RewriteError> {
    let (from, to) = (onto.class_name(s.replace), onto.class_name(s.with));
    let mut rewrite = Rewrite::of(recipe);
    let mut named = false;
    for (i, p) in recipe.predicates.iter().enumerate() {
        if !p.args.iter().any(|a| a.is_sym(from)) {
            continue;
        }
        named = true;
        let mut after = p.clone();
        for arg in &mut after.args {
            if arg.is_sym(from) {
                *arg = Arg::Sym(to.into());
            }
        }
        let note = match constant_amount(onto, catalogue, p) {
            Some(amount) if s.replace != s.with => {
                let (value, unit, note) = convert(onto, s, amount.value, amount.unit_class)
                    .map_err(|e| RewriteError {
                        action: Some(i),
                        message: format!("action {} ({}): {e}", i + 1, p.name),
                    })?;
                after.args[amount.quantity] = Arg::Num(value);
                after.args[amount.unit] = Arg::Sym(onto.class_name(unit).into());
                note
            }
            Some(_) => "the same amount".to_owned(),
            None => format!("{from} replaced by {to}; no constant amount to convert"),
        };
        rewrite.set(i, after, note);
    }
    if !named {
        let names: Vec<&str> = network_ingredients(onto, recipe)
            .into_iter()
            .map(|c| onto.class_name(c))
            .collect();
        let close = closest(from, names.iter().copied(), 3);
        let hint = if close.is_empty() {
            String::new()
        } else {
            format!("; did you mean {}?", close.join(", "))
        };
        return Err(RewriteError::from(format!(
            "`{from}` is not in the network of {} (its ingredients: {}){hint}",
            recipe.id,
            names.join(", ")
        )));
    }
    Ok(rewrite)
}

/// The new ingredient's amount for `value` `unit` of the old one, and how it was found.
fn convert(
    onto: &Ontology,
    s: &Substitution,
    value: Number,
    unit: ClassId,
) -> Result<(Number, ClassId, String), String> {
    let (from, to) = (onto.class_name(s.replace), onto.class_name(s.with));
    let unit_name = onto.class_name(unit);
    let g = onto.class_id("g").ok_or("the ontology has no unit g")?;
    let grams_of_old = || {
        let weighed = grams(onto, s.replace, value, unit);
        weighed
            .or_else(|| grams(onto, s.weighed_as, value, unit))
            .ok_or_else(|| {
                format!(
                    "{}: the gram table gives no grams per {unit_name} of {from}",
                    s.rule.name()
                )
            })
    };
    let converted = match s.rule {
        AmountRule::SameCount => (
            value,
            unit,
            format!("the same count: {}", amount(value, unit_name)),
        ),
        AmountRule::SameWeight | AmountRule::SameEffect => {
            same_effect(onto, s, value, unit, grams_of_old)?
        }
        AmountRule::SameVolume if unit_is(onto, unit, &VOLUME_UNITS) => (
            value,
            unit,
            format!("the same volume: {}", amount(value, unit_name)),
        ),
        AmountRule::SameVolume => {
            let weight = grams_of_old()?;
            let (per_old, per_new, volume) = common_volume(onto, s).ok_or_else(|| {
                format!("same-volume: the gram table gives no volume that both {from} and {to} are weighed in (teaspoon or l); try same-weight")
            })?;
            let same = weight
                .mul(per_new)
                .div(per_old)
                .ok_or("same-volume: a density of 0 in the gram table")?;
            (
                same,
                g,
                format!(
                    "the same volume: {} of {from} fill as much as {} of {to} (by their grams per {volume})",
                    amount(weight, "g"),
                    amount(same, "g")
                ),
            )
        }
    };
    check_convertible(onto, s, unit, converted.1)?;
    Ok(converted)
}

/// The same weight times the strength factor (1 by `same-weight`): grams stay grams; another
/// unit stays that unit when the new class has a gram factor for it, else it becomes grams.
fn same_effect(
    onto: &Ontology,
    s: &Substitution,
    value: Number,
    unit: ClassId,
    grams_of_old: impl Fn() -> Result<Number, String>,
) -> Result<(Number, ClassId, String), String> {
    let (from, to) = (onto.class_name(s.replace), onto.class_name(s.with));
    let unit_name = onto.class_name(unit);
    let g = onto.class_id("g").ok_or("the ontology has no unit g")?;
    let factor = match s.rule {
        AmountRule::SameEffect => s.strength_factor,
        _ => Number::int(1),
    };
    let (weight, of_old) = if unit == g {
        (value, amount(value, "g"))
    } else {
        let weight = grams_of_old()?;
        let of_old = format!(
            "{} of {from} weigh {}",
            amount(value, unit_name),
            amount(weight, "g")
        );
        (weight, of_old)
    };
    let wanted = weight.mul(factor);
    let said = if s.rule == AmountRule::SameEffect {
        format!(
            "the same effect: {of_old}; {to} does the work in {} of the weight, {}",
            kitchen_fraction(factor),
            amount(wanted, "g")
        )
    } else {
        format!("the same weight: {of_old}")
    };
    if unit == g {
        return Ok((wanted, g, said));
    }
    let per_unit = grams(onto, s.with, Number::int(1), unit)
        .filter(|_| !unit_is(onto, unit, &super::COUNT_UNITS));
    Ok(match per_unit.and_then(|per| wanted.div(per)) {
        Some(same) => (
            same,
            unit,
            format!("{said}, as {} of {to}", amount(same, unit_name)),
        ),
        None => (wanted, g, said),
    })
}

/// The grams per unit of volume of the old and the new class, in the first volume unit the
/// gram table gives both.
fn common_volume<'o>(onto: &'o Ontology, s: &Substitution) -> Option<(Number, Number, &'o str)> {
    VOLUME_UNITS.iter().find_map(|name| {
        let unit = onto.class_id(name)?;
        let per_old = grams(onto, s.replace, Number::int(1), unit)?;
        let per_new = grams(onto, s.with, Number::int(1), unit)?;
        Some((per_old, per_new, onto.class_name(unit)))
    })
}

/// The new amount must be weighable where the old one was: the dish approximation score
/// weighs every ingredient of the dish, and a missing factor makes the evaluator refuse it.
fn check_convertible(
    onto: &Ontology,
    s: &Substitution,
    old_unit: ClassId,
    new_unit: ClassId,
) -> Result<(), String> {
    let weighable = |class| grams(onto, class, Number::int(1), new_unit).is_some();
    let old_weighable = grams(onto, s.replace, Number::int(1), old_unit).is_some();
    if weighable(s.with) || !old_weighable {
        return Ok(());
    }
    Err(format!(
        "{}: the gram table gives no grams per {} of {}, so the dish could not be weighed; try same-weight",
        s.rule.name(),
        onto.class_name(new_unit),
        onto.class_name(s.with)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::profile::Profile;
    use crate::language::parse::parse;

    fn network(text: &str) -> Recipe {
        parse(text).file.recipes.remove(0)
    }

    fn rewrite(line: &str, from: &str, to: &str, rule: AmountRule) -> Result<String, String> {
        rewrite_as_strong(line, (from, to), rule, Number::int(1)).map(|(line, _)| line)
    }

    /// The rewritten action and its note, the new class `factor` grams for a gram of the old.
    fn rewrite_as_strong(
        line: &str,
        (from, to): (&str, &str),
        rule: AmountRule,
        factor: Number,
    ) -> Result<(String, String), String> {
        let onto = Ontology::builtin(Profile::R2024);
        let catalogue = Catalogue::builtin(Profile::R2024);
        let recipe = network(&format!("#r\n(get-kitchen ?k)\n{line}\n"));
        let s = Substitution {
            strength_factor: factor,
            ..Substitution::new(
                ingredient_class(&onto, from).map_err(|e| e.to_string())?,
                ingredient_class(&onto, to).map_err(|e| e.to_string())?,
                rule,
            )
        };
        let r = substitute(&onto, &catalogue, &recipe, &s).map_err(|e| e.message)?;
        Ok((
            r.recipe.predicates[1].to_string(),
            r.changes[0].note.clone(),
        ))
    }

    #[test]
    fn same_effect_takes_the_strength_factor_of_the_weight_and_same_weight_ignores_it() {
        // Two teaspoons of baking powder weigh 8 g; soda does the work in a third of that.
        let powder = "(fetch-and-proportion ?b ?k2 ?k ?c baking-powder 2 teaspoon)";
        let third = Number::ratio(1, 3).unwrap();
        let pair = ("baking-powder", "baking-soda");
        let (line, note) = rewrite_as_strong(powder, pair, AmountRule::SameEffect, third).unwrap();
        assert_eq!(
            line,
            "(fetch-and-proportion ?b ?k2 ?k ?c baking-soda 8/15 teaspoon)"
        );
        assert_eq!(
            note,
            "the same effect: 2 teaspoon of baking-powder weigh 8 g; baking-soda does the work in \u{2153} of the weight, 2.67 g, as 0.533 teaspoon of baking-soda"
        );
        let (line, _) = rewrite_as_strong(powder, pair, AmountRule::SameWeight, third).unwrap();
        assert_eq!(
            line,
            "(fetch-and-proportion ?b ?k2 ?k ?c baking-soda 8/5 teaspoon)"
        );
        let grams = "(fetch-and-proportion ?b ?k2 ?k ?c fresh-basil 6 g)";
        let pair = ("fresh-basil", "dried-dill-weed");
        let (line, _) = rewrite_as_strong(grams, pair, AmountRule::SameEffect, third).unwrap();
        assert_eq!(
            line,
            "(fetch-and-proportion ?b ?k2 ?k ?c dried-dill-weed 2 g)"
        );
    }

    const FETCH: &str = "(fetch-and-proportion ?b ?k2 ?k ?c butter 3 tablespoon)";

    #[test]
    fn each_rule_converts_three_tablespoons_of_butter_into_coconut_oil() {
        // Butter 5 g and coconut oil 4.5 g per teaspoon; a tablespoon is three teaspoons.
        let weight = rewrite(FETCH, "butter", "coconut-oil", AmountRule::SameWeight).unwrap();
        assert_eq!(
            weight,
            "(fetch-and-proportion ?b ?k2 ?k ?c coconut-oil 3.3333333 tablespoon)"
        );
        let volume = rewrite(FETCH, "butter", "coconut-oil", AmountRule::SameVolume).unwrap();
        assert_eq!(
            volume,
            "(fetch-and-proportion ?b ?k2 ?k ?c coconut-oil 3 tablespoon)"
        );
        let grams = "(fetch-and-proportion ?b ?k2 ?k ?c butter 200 g)";
        let volume = rewrite(grams, "butter", "coconut-oil", AmountRule::SameVolume).unwrap();
        assert_eq!(
            volume,
            "(fetch-and-proportion ?b ?k2 ?k ?c coconut-oil 180.0 g)"
        );
    }

    #[test]
    fn counted_amounts_become_grams_by_weight_and_stay_counts_by_count() {
        let eggs = "(fetch-and-proportion ?b ?k2 ?k ?c egg 2 piece)";
        let weight = rewrite(eggs, "egg", "banana", AmountRule::SameWeight).unwrap();
        assert_eq!(weight, "(fetch-and-proportion ?b ?k2 ?k ?c banana 100 g)");
        let count = rewrite(eggs, "egg", "banana", AmountRule::SameCount).unwrap();
        assert_eq!(count, "(fetch-and-proportion ?b ?k2 ?k ?c banana 2 piece)");
    }

    #[test]
    fn unknown_missing_and_unconvertible_ingredients_are_named() {
        let cases = [
            (
                ("buter", "coconut-oil", AmountRule::SameWeight),
                "no ingredient `buter` in the ontology; did you mean butter, water?",
            ),
            (
                ("medium-bowl", "butter", AmountRule::SameWeight),
                "`medium-bowl` is not an ingredient class of the ontology",
            ),
            (
                ("white-sugar", "butter", AmountRule::SameWeight),
                "`white-sugar` is not in the network of r (its ingredients: butter)",
            ),
            (
                ("butter", "avocado", AmountRule::SameVolume),
                "action 2 (fetch-and-proportion): same-volume: the gram table gives no grams per tablespoon of avocado, so the dish could not be weighed; try same-weight",
            ),
        ];
        for ((from, to, rule), message) in cases {
            assert_eq!(rewrite(FETCH, from, to, rule).unwrap_err(), message);
        }
    }

    #[test]
    fn a_rule_name_is_read_in_any_case_and_a_typo_is_named() {
        assert_eq!(AmountRule::named("Same-Volume"), Ok(AmountRule::SameVolume));
        assert_eq!(
            AmountRule::named("same-wieght").unwrap_err().to_string(),
            "`same-wieght` is not an amount rule (one of same-weight, same-volume, same-count, same-effect); did you mean same-weight?"
        );
    }
}
