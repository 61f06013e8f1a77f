//! Equality of kitchen objects and their locations, as the reference's metrics see them
//! (`equal-ontology-objects`, `similar-entities`, `find-location`, `similar-locations`).
//!
//! Goal conditions and the dish score both rest on this deep, id-blind equality: two objects
//! are "similar" when they have the same exact class and every slot is recursively similar.

use crate::base::budget;
use crate::simulation::Model;
use crate::world::ontology::{ClassId, SlotId};
use crate::world::{Entity, Value};
use std::sync::Arc;

/// `similar-entities`: deep equality ignoring the ids (which entities never store as slots).
///
/// Not symmetric for lists: every element of `a` must have a similar element in `b` (plus equal
/// lengths), so argument order follows the reference's calls.
pub fn similar(a: &Value, b: &Value) -> bool {
    similar_ignoring(a, b, &[])
}

/// `equal-ontology-objects` with extra slots to ignore; the ignore list applies at every depth.
pub fn similar_ignoring(a: &Value, b: &Value, ignore: &[SlotId]) -> bool {
    match (symbol(a), symbol(b)) {
        // NIL is both a symbol and the empty list; the symbol method wins (identity).
        (Some(x), Some(y)) => return x == y,
        (Some(_), None) | (None, Some(_)) => {
            // NIL against a non-empty list goes to the list method: the lengths differ.
            // Anything else against a symbol: the classes differ.
            return false;
        }
        (None, None) => {}
    }
    match (a, b) {
        (Value::Num(x), Value::Num(y)) => x.num_eq(y),
        // Strings compare case-insensitively (`equalp`).
        (Value::Str(x), Value::Str(y)) => x.eq_ignore_ascii_case(y),
        // Quadratic in the lists' lengths (thousands of portions): past the recipe's budget
        // the answer is no, and the recipe is refused.
        (Value::List(x), Value::List(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|e| !budget::spent() && y.iter().any(|f| similar_ignoring(e, f, ignore)))
        }
        (Value::Obj(x), Value::Obj(y)) => Arc::ptr_eq(x, y) || entities_similar(x, y, ignore),
        _ => false,
    }
}

/// Same exact class and every slot of the first (except `ignore`) similar.
pub fn entities_similar(a: &Entity, b: &Entity, ignore: &[SlotId]) -> bool {
    if a.class != b.class {
        return false;
    }
    a.slots().enumerate().all(|(i, (slot, va))| {
        if ignore.contains(&slot) {
            return true;
        }
        // Same class: same layout, so the slot is normally at the same index.
        let vb = match b.slot_at(i) {
            Some((s, v)) if s == slot => v,
            _ => b.val(slot),
        };
        similar_ignoring(va, vb, ignore)
    })
}

/// The symbol a value is, if it is one (`Nil`, `T`, raw symbols; an empty list is NIL).
fn symbol(v: &Value) -> Option<&str> {
    match v {
        Value::Nil => Some("nil"),
        Value::List(l) if l.is_empty() => Some("nil"),
        Value::T => Some("t"),
        Value::Sym(s) => Some(s),
        _ => None,
    }
}

/// The top-level slots in which two objects of the same class differ (for reports).
pub fn differing_slots(m: &Model, a: &Entity, b: &Entity) -> Vec<String> {
    if a.class != b.class {
        return vec!["class".into()];
    }
    a.slots()
        .filter(|(s, v)| !similar(v, b.val(*s)))
        .map(|(s, _)| m.onto.slot_name(s).to_string())
        .collect()
}

/// `find-location`: the classes of the containers from `place` down to the one directly
/// holding `obj` (matched by persistent id; at each level the direct contents first, then each
/// nested container in order). A list of kitchen entities is always "on the counter-top".
/// An object that is not found has the empty location, which matches every location.
pub fn find_location(m: &Model, obj: &Value, place: Option<&Entity>) -> Vec<ClassId> {
    let (Some(place), Some(obj)) = (place, obj.as_obj()) else {
        return Vec::new();
    };
    if m.onto.is_a(obj.class, m.k.list_of_kitchen_entities)
        && m.onto.is_a(place.class, m.k.kitchen_state)
    {
        return vec![place.class, m.k.counter_top];
    }
    let mut path = Vec::new();
    if locate(m, obj, place, &mut path) {
        path
    } else {
        Vec::new()
    }
}

fn locate(m: &Model, obj: &Entity, place: &Entity, path: &mut Vec<ClassId>) -> bool {
    let contents = place.val(m.k.contents).items();
    path.push(place.class);
    if contents
        .iter()
        .any(|e| e.as_obj().is_some_and(|e| e.pid == obj.pid))
    {
        return true;
    }
    for e in contents {
        if e.as_obj()
            .is_some_and(|e| m.k.is_container(e.class) && locate(m, obj, e, path))
        {
            return true;
        }
    }
    path.pop();
    false
}

/// `similar-locations`: the classes agree position by position over the shorter path only.
pub fn similar_locations(a: &[ClassId], b: &[ClassId]) -> bool {
    a.iter().zip(b).all(|(x, y)| x == y)
}

/// Class names of a location, for reports.
pub fn location_names(m: &Model, loc: &[ClassId]) -> Vec<String> {
    loc.iter()
        .map(|c| m.onto.class_name(*c).to_string())
        .collect()
}
