//! Why an action that ran made a failed object, in words: the reason the reference's
//! primitive gives none for, read from what the action was given and the kitchen it ran in.

use super::describe::{brief, spaced};
use crate::data::catalogue::PrimitiveSig;
use crate::language::ast::Recipe;
use crate::simulation::kitchen::{find_in_kitchen, find_ingredient, find_unused};
use crate::simulation::stepwise::{Standing, Stepwise};
use crate::simulation::{Execution, Model};
use crate::world::{Entity, Value};

/// Why an action made a failed object.
#[derive(Clone, Debug, PartialEq)]
pub enum Failure {
    /// An input was a failed object already (an earlier action failed): `its ARG VAR`.
    FailedInput(String),
    /// The kitchen holds none of a class the action asked for (or none unused), looked for
    /// in the kitchen's places (the class as the ontology names it).
    NotInKitchen {
        class: String,
        unused: bool,
        places: String,
    },
    /// An object given is no longer in the kitchen it was given: `VAR (CLASS)`.
    Gone(String),
    /// None of those: the primitive and what it was given.
    Given(String),
    /// The primitive is not in the catalogue.
    UnknownPrimitive,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::FailedInput(input) => write!(f, "its {input} is a failed object already"),
            Failure::NotInKitchen {
                class,
                unused,
                places,
            } => {
                let unused = if *unused { "unused " } else { "" };
                let class = spaced(class);
                write!(
                    f,
                    "the kitchen holds no {unused}{class}: looked in {places}"
                )
            }
            Failure::Gone(what) => write!(f, "{what} is no longer in the kitchen it was given"),
            Failure::Given(said) => f.write_str(said),
            Failure::UnknownPrimitive => f.write_str("the primitive is unknown"),
        }
    }
}

/// An input an action was given: its argument's index, its variable and its value.
pub struct Given<'v> {
    pub arg: usize,
    pub var: String,
    pub value: &'v Value,
}

/// Why action `q` of a session's run, which ran, made a failed object (see [`failure`]).
pub fn why(model: &Model, run: &Stepwise, q: usize) -> String {
    let Some(sig) = run.sig(model, q) else {
        return Failure::UnknownPrimitive.to_string();
    };
    let slots = run.slots(q);
    let inputs: Vec<Given<'_>> = (0..slots.len())
        .filter(|&i| !is_output(run, model, q, i))
        .filter_map(|i| run.binding(slots[i]).map(|b| (i, b)))
        .filter(|(_, b)| b.is_bound())
        .map(|(i, b)| Given {
            arg: i,
            var: run.name(slots[i]).to_string(),
            value: &b.value,
        })
        .collect();
    failure(model, sig, &inputs).to_string()
}

/// The actions of a run (`exec`, of `recipe`) that made a failed object of their own, each
/// with why: those given a failed object made by an earlier one are left out, so each
/// failure is said once, where it began.
pub fn failed_actions(model: &Model, recipe: &Recipe, exec: &Execution) -> Vec<(usize, Failure)> {
    let k = &model.k;
    let failed = |v: &Value| {
        v.as_obj()
            .is_some_and(|e| model.onto.is_a(e.class, k.failed_object))
    };
    let mut found = Vec::new();
    for step in &exec.steps {
        let p = step.predicate;
        let Some(sig) = model.catalogue.get(&recipe.predicates[p].name) else {
            continue;
        };
        let Some(case) = sig.cases.get(step.case) else {
            continue;
        };
        let slots = &exec.slots[p];
        let made_failed =
            (0..slots.len()).any(|i| !case.is_input(i) && failed(&exec.bindings[slots[i]].value));
        if !made_failed {
            continue;
        }
        let inputs: Vec<Given<'_>> = (0..slots.len())
            .filter(|&i| case.is_input(i) && exec.bindings[slots[i]].is_bound())
            .map(|i| Given {
                arg: i,
                var: exec.names[slots[i]].to_owned(),
                value: &exec.bindings[slots[i]].value,
            })
            .collect();
        match failure(model, sig, &inputs) {
            Failure::FailedInput(_) => {}
            why => found.push((p, why)),
        }
    }
    found
}

/// Why an action of primitive `sig`, given `inputs`, made a failed object: an input that is
/// one already, a class the kitchen it ran in does not hold (or holds only used), an object
/// no longer in that kitchen, or, failing those, what it was given.
pub fn failure(model: &Model, sig: &PrimitiveSig, inputs: &[Given<'_>]) -> Failure {
    let k = &model.k;
    let kitchen = inputs.iter().find_map(|g| match g.value {
        Value::Obj(e) if e.class == k.kitchen_state => Some(e.clone()),
        _ => None,
    });
    for g in inputs {
        if let Value::Obj(e) = g.value
            && model.onto.is_a(e.class, k.failed_object)
        {
            return Failure::FailedInput(format!("{} {}", sig.args[g.arg].name, g.var));
        }
    }
    if let Some(ks) = &kitchen {
        for g in inputs {
            let Value::Obj(e) = g.value else { continue };
            if let Some(why) = missing(model, ks, e, &g.var) {
                return why;
            }
        }
    }
    let given: Vec<String> = inputs
        .iter()
        .filter(|g| g.value.as_obj().is_none_or(|e| e.class != k.kitchen_state))
        .map(|g| {
            format!(
                "{} {} = {}",
                sig.args[g.arg].name,
                g.var,
                brief(model, g.value)
            )
        })
        .collect();
    Failure::Given(format!(
        "{} could not do what it was asked with what it was given: {}",
        sig.name,
        given.join("; ")
    ))
}

/// Whether argument `i` of action `q` is one its case produced.
fn is_output(run: &Stepwise, model: &Model, q: usize, i: usize) -> bool {
    let case = match (run.standing(q), run.sig(model, q)) {
        (Some(Standing::Ran { case, .. }), Some(sig)) => sig.cases.get(*case).copied(),
        _ => None,
    };
    case.is_some_and(|c| !c.is_input(i))
}

/// What the kitchen `ks` lacks of input `e`: a concept's class (none of it, or none unused),
/// or the object itself (used up or moved away by an earlier action).
fn missing(model: &Model, ks: &Entity, e: &Entity, var: &str) -> Option<Failure> {
    let k = &model.k;
    if e.class == k.kitchen_state {
        return None;
    }
    let class = model.onto.class_name(e.class);
    // A concept of a unit or a pattern (`tablespoon`) is nothing the kitchen holds.
    let held = model.onto.is_a(e.class, k.ingredient) || model.onto.has_slot(e.class, k.used);
    if e.val(k.is_concept).truthy() && !held {
        return None;
    }
    if e.val(k.is_concept).truthy() {
        let unused = model.onto.has_slot(e.class, k.used);
        let none = if unused {
            find_unused(ks, model, e.class, &[]).is_none()
        } else {
            find_ingredient(ks, model, e.class).is_none()
        };
        return none.then(|| Failure::NotInKitchen {
            class: class.to_owned(),
            unused,
            places: places(model, ks),
        });
    }
    let physical = model.onto.is_a(e.class, k.ingredient) || k.is_container(e.class);
    (physical && find_in_kitchen(ks, model, e).is_none())
        .then(|| Failure::Gone(format!("{var} ({})", spaced(class))))
}

/// The places of a kitchen state, as a list in words.
fn places(model: &Model, ks: &Entity) -> String {
    let names: Vec<String> = ks
        .val(model.k.contents)
        .items()
        .iter()
        .filter_map(Value::as_obj)
        .map(|p| spaced(model.onto.class_name(p.class)))
        .collect();
    names.join(", ")
}
