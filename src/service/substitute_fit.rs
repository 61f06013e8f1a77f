//! What the role table (`kitchens/substitutes.json`) says of one class put in another's place
//! in one recipe: the role that offers it, how strong it is beside the class replaced, whether
//! it fits the recipe's use of that class (read from the network), and what else a cook
//! should know (an acid for baking soda, salt in salted butter, a class already in the recipe).

use super::ingredient_use::{Shown, uses_of};
use crate::base::number::Number;
use crate::data::substitute_roles::{Offer, SubstituteRoles};
use crate::language::ast::Recipe;
use crate::language::diagnostic::line_cols;
use crate::simulation::Model;
use crate::world::ontology::ClassId;
use crate::world::rewrite::substitution::{AmountRule, network_ingredients};
use serde::Serialize;

/// Why a substitute is set apart as unfit for the recipe.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SetApart {
    /// The role table calls it unfit for a use the network shows (`unfit` in the table).
    Use,
    /// The network does to the class what the ontology does not let the substitute undergo
    /// (it cuts it, and the substitute is not `cuttable`).
    KitchenModel,
    /// Its amount cannot be converted: the gram table weighs one of the two not in the unit
    /// the recipe gives.
    Amount,
    /// Tried in the recipe, the rewritten network does not run: an action fails.
    Run,
}

/// The table's word on one swap.
#[derive(Clone, Debug, Default)]
pub struct Verdict {
    /// The role that offers the substitute; `None` when the table offers it for no role.
    pub role: Option<String>,
    /// Grams of the substitute that do the work of one gram of the class replaced.
    pub strength_factor: Option<Number>,
    /// Whether it fits the recipe's use of the class (`None`: no network to read, or no role).
    pub fit: Option<bool>,
    /// Why it does not fit.
    pub why_not: Option<String>,
    /// What kind of reason sets it apart.
    pub set_apart: Option<SetApart>,
    pub notes: Vec<String>,
}

impl Verdict {
    /// The rule amounts follow when none is asked: `same-effect` where the two differ in
    /// strength, else `same-weight`.
    pub fn default_rule(&self) -> AmountRule {
        match self.strength_factor {
            Some(f) if !f.num_eq(&Number::int(1)) => AmountRule::SameEffect,
            _ => AmountRule::SameWeight,
        }
    }

    /// The substitute set apart: tried in the recipe, it failed (`why`, after "the recipe").
    pub fn failed(&mut self, to: &str, kind: SetApart, why: String) {
        self.fit = Some(false);
        self.why_not = Some(format!("{to} does not fit: the recipe {why}"));
        self.set_apart = Some(kind);
    }

    /// The strength factor as the answers write it (`1/3`).
    pub fn factor_text(&self) -> Option<String> {
        self.strength_factor.map(|f| f.to_string())
    }
}

/// A recipe read for the verdict: the network and the text its lines are counted in.
#[derive(Clone, Copy)]
pub struct InRecipe<'a> {
    pub recipe: &'a Recipe,
    pub text: &'a str,
}

impl InRecipe<'_> {
    /// The line of action `action` in the text.
    fn line(&self, action: usize) -> usize {
        let start = self.recipe.predicates[action].span.start;
        line_cols(self.text, std::iter::once(start))[0].0
    }

    /// The first action naming `class`.
    fn first_naming(&self, model: &Model, class: ClassId) -> Option<usize> {
        let name = model.onto.class_name(class);
        self.recipe
            .predicates
            .iter()
            .position(|p| p.args.iter().any(|a| a.is_sym(name)))
    }
}

/// The table's word on `with` in `replace`'s place, in `recipe` when one is given.
pub fn judge(
    model: &Model,
    replace: ClassId,
    with: ClassId,
    recipe: Option<InRecipe<'_>>,
) -> Verdict {
    let (from, to) = (model.onto.class_name(replace), model.onto.class_name(with));
    let table = SubstituteRoles::builtin();
    let offers = table.offers(from);
    let Some(offer) = offers.iter().find(|o| o.offered.class == to) else {
        return Verdict::default();
    };
    let uses = recipe.map(|r| uses_of(&model.onto, &model.catalogue, r.recipe, replace));
    let unfit = uses.as_ref().and_then(|uses| {
        let by_use = unfit(offer, uses).map(|u| (SetApart::Use, u));
        by_use.or_else(|| unable(model, with, uses).map(|u| (SetApart::KitchenModel, u)))
    });
    let set_apart = unfit.as_ref().map(|(kind, _)| *kind);
    let why_not = unfit.map(|(_, (shown, why))| {
        let line = recipe.map(|r| r.line(shown.action)).unwrap_or_default();
        format!(
            "{to} does not fit: the recipe {} {from} (line {line}): {why}",
            shown.what.words()
        )
    });
    Verdict {
        role: Some(offer.role.to_owned()),
        strength_factor: Some(offer.strength_factor()),
        fit: recipe.map(|_| why_not.is_none()),
        why_not,
        set_apart,
        notes: notes(model, offer, with, recipe),
    }
}

/// The first use of the class replaced that the offered class is unfit for, and why.
fn unfit(offer: &Offer<'_>, uses: &[Shown]) -> Option<(Shown, String)> {
    uses.iter()
        .find_map(|s| Some((*s, offer.offered.unfit.get(&s.what)?.clone())))
}

/// The first use the kitchen model cannot make of `with` (the reference's action has no method
/// for it: cracking a banana, seeding a chili the ontology gives no seeds, cutting shredded
/// coconut), and why.
fn unable(model: &Model, with: ClassId, uses: &[Shown]) -> Option<(Shown, String)> {
    uses.iter().find_map(|s| {
        let ability = s.what.ability()?;
        let able = model.onto.class_id(ability)?;
        (!model.onto.is_a(with, able)).then(|| {
            let to = model.onto.class_name(with);
            (*s, format!("the kitchen model cannot do this to {to} (its ontology does not make it {ability}), so the rewritten network would not run"))
        })
    })
}

/// What a cook should know of the swap: the table's notes, what the substitute needs and
/// whether the recipe holds it, and whether the recipe already uses the substitute.
fn notes(
    model: &Model,
    offer: &Offer<'_>,
    with: ClassId,
    recipe: Option<InRecipe<'_>>,
) -> Vec<String> {
    let to = model.onto.class_name(with);
    let mut out: Vec<String> = [&offer.replaced.note_replaced, &offer.offered.note_offered]
        .into_iter()
        .flatten()
        .cloned()
        .collect();
    if let Some(needs) = &offer.offered.needs {
        let wanted = needs.classes.join(", ");
        out.push(match recipe {
            None => format!("{to} needs {}: {wanted}", needs.what),
            Some(r) => {
                let held = network_ingredients(&model.onto, r.recipe)
                    .into_iter()
                    .find(|&c| {
                        needs.classes.iter().any(|n| {
                            model
                                .onto
                                .class_id(n)
                                .is_some_and(|n| model.onto.is_a(c, n))
                        })
                    });
                match held.and_then(|c| Some((c, r.first_naming(model, c)?))) {
                    Some((c, action)) => format!(
                        "{to} needs {}: the recipe's {} (line {})",
                        needs.what,
                        model.onto.class_name(c),
                        r.line(action)
                    ),
                    None => format!(
                        "{to} needs {}, and the recipe holds none: add one ({wanted})",
                        needs.what
                    ),
                }
            }
        });
    }
    if let Some(r) = recipe
        && let Some(action) = r.first_naming(model, with)
    {
        out.push(format!(
            "the recipe already uses {to} (line {}): the two amounts add up",
            r.line(action)
        ));
    }
    out
}
