//! Why an action that ran made a failed object, in words: the reason the reference's
//! primitive gives none for, read from what the action was given and the kitchen it ran in.

use super::describe::{brief, spaced};
use crate::simulation::kitchen::{find_in_kitchen, find_ingredient, find_unused};
use crate::simulation::stepwise::{Standing, Stepwise};
use crate::simulation::{Binding, Model};
use crate::world::{Entity, Value};

/// Why action `q`, which ran, made a failed object: an input that is one already, a class the
/// kitchen it ran in does not hold (or holds only used), an object no longer in that kitchen,
/// or, failing those, what it was given.
pub fn why(model: &Model, run: &Stepwise, q: usize) -> String {
    let Some(sig) = run.sig(model, q) else {
        return "the primitive is unknown".into();
    };
    let slots = run.slots(q);
    let inputs: Vec<(usize, &Binding)> = (0..slots.len())
        .filter(|&i| !is_output(run, model, q, i))
        .filter_map(|i| run.binding(slots[i]).map(|b| (i, b)))
        .filter(|(_, b)| b.is_bound())
        .collect();
    let var = |i: usize| run.name(slots[i]).to_string();
    let k = &model.k;
    let kitchen = inputs.iter().find_map(|(_, b)| match &b.value {
        Value::Obj(e) if e.class == k.kitchen_state => Some(e.clone()),
        _ => None,
    });
    for &(i, b) in &inputs {
        if let Value::Obj(e) = &b.value
            && model.onto.is_a(e.class, k.failed_object)
        {
            return format!(
                "its {} {} is a failed object already",
                sig.args[i].name,
                var(i)
            );
        }
    }
    if let Some(ks) = &kitchen {
        for &(i, b) in &inputs {
            let Value::Obj(e) = &b.value else { continue };
            if let Some(why) = missing(model, ks, e, &var(i)) {
                return why;
            }
        }
    }
    let given: Vec<String> = inputs
        .iter()
        .filter(|(_, b)| b.value.as_obj().is_none_or(|e| e.class != k.kitchen_state))
        .map(|&(i, b)| {
            format!(
                "{} {} = {}",
                sig.args[i].name,
                var(i),
                brief(model, &b.value)
            )
        })
        .collect();
    format!(
        "{} could not do what it was asked with what it was given: {}",
        sig.name,
        given.join("; ")
    )
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
fn missing(model: &Model, ks: &Entity, e: &Entity, var: &str) -> Option<String> {
    let k = &model.k;
    if e.class == k.kitchen_state {
        return None;
    }
    let class = spaced(model.onto.class_name(e.class));
    // A concept of a unit or a pattern (`tablespoon`) is nothing the kitchen holds.
    let held = model.onto.is_a(e.class, k.ingredient) || model.onto.has_slot(e.class, k.used);
    if e.val(k.is_concept).truthy() && !held {
        return None;
    }
    if e.val(k.is_concept).truthy() {
        let places = places(model, ks);
        if model.onto.has_slot(e.class, k.used) {
            return find_unused(ks, model, e.class, &[])
                .is_none()
                .then(|| format!("the kitchen holds no unused {class}: looked in {places}"));
        }
        return find_ingredient(ks, model, e.class)
            .is_none()
            .then(|| format!("the kitchen holds no {class}: looked in {places}"));
    }
    let physical = model.onto.is_a(e.class, k.ingredient) || k.is_container(e.class);
    (physical && find_in_kitchen(ks, model, e).is_none())
        .then(|| format!("{var} ({class}) is no longer in the kitchen it was given"))
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
