//! Helpers shared by the primitives: amounts, conversion to grams, mixtures, temperatures.

use crate::number::Number;
use crate::ontology::{ClassId, SlotId};
use crate::simulation::{Model, SimError};
use crate::world::{Entity, Maker, Value};

/// A fresh `amount` object of `value` in `unit`.
pub fn amount(m: &Model, maker: &mut Maker<'_>, value: Number, unit: ClassId) -> Value {
    let k = &m.k;
    let q = maker.make_with(k.quantity_class, &[(k.value, Value::Num(value))]);
    let u = maker.make(unit);
    Value::obj(maker.make_with(k.amount_class, &[(k.quantity, Value::obj(q)), (k.unit, Value::obj(u))]))
}

/// An `amount` object made of given quantity and unit objects (as `fetch-and-proportion`
/// builds one from the network's constants).
pub fn amount_of(m: &Model, maker: &mut Maker<'_>, quantity: &Entity, unit: &Entity) -> Value {
    let k = &m.k;
    Value::obj(maker.make_with(
        k.amount_class,
        &[(k.quantity, Value::obj(quantity.clone())), (k.unit, Value::obj(unit.clone()))],
    ))
}

/// The numeric value of an `amount` object.
pub fn amount_value(m: &Model, amount: &Entity) -> Option<Number> {
    amount.val(m.k.quantity).as_obj()?.val(m.k.value).as_num()
}

/// The unit class of an `amount` object.
pub fn amount_unit(m: &Model, amount: &Entity) -> Option<ClassId> {
    amount.val(m.k.unit).as_obj().map(|u| u.class)
}

/// The `amount` object of an ingredient.
pub fn amount_obj<'e>(m: &Model, ingredient: &'e Entity) -> Option<&'e Entity> {
    ingredient.val(m.k.amount).as_obj()
}

/// Value and unit class of an ingredient's amount; a Lisp error when it has none.
pub fn quantity_of(m: &Model, ingredient: &Entity) -> Result<(Number, ClassId), SimError> {
    let a = amount_obj(m, ingredient).ok_or_else(|| no_amount(m, ingredient))?;
    match (amount_value(m, a), amount_unit(m, a)) {
        (Some(v), Some(u)) => Ok((v, u)),
        _ => Err(no_amount(m, ingredient)),
    }
}

fn no_amount(m: &Model, e: &Entity) -> SimError {
    SimError::new(format!("{} has no amount", m.onto.class_name(e.class).to_uppercase()))
}

/// Replace an ingredient's amount.
pub fn set_amount(m: &Model, maker: &mut Maker<'_>, e: &mut Entity, value: Number, unit: ClassId) -> Result<(), SimError> {
    let a = amount(m, maker, value, unit);
    set(m, e, m.k.amount, a)
}

/// Set a slot, failing like the reference when the object has no such slot.
pub fn set(m: &Model, e: &mut Entity, slot: SlotId, v: Value) -> Result<(), SimError> {
    if e.set(slot, v) {
        Ok(())
    } else {
        Err(SimError::new(format!(
            "There is no applicable method for the generic function (SETF {}) when called with a {}",
            m.onto.slot_name(slot).to_uppercase(),
            m.onto.class_name(e.class).to_uppercase()
        )))
    }
}

/// `convert-to-g`: a copy of the ingredient (or mixture) with its amount in grams.
pub fn convert_to_g(m: &Model, maker: &mut Maker<'_>, e: &Entity) -> Result<Entity, SimError> {
    let k = &m.k;
    let mut out = maker.copy(e);
    let (value, unit) = quantity_of(m, e)?;
    if unit == k.g {
        return Ok(out);
    }
    if m.onto.is_a(e.class, k.mixture) {
        // Component fractions times the mixture's value in its own unit, each converted.
        let mut total = Number::ZERO;
        for c in e.val(k.components).items() {
            let Some(c) = c.as_obj() else { continue };
            let (frac, _) = quantity_of(m, c)?;
            let mut comp = maker.copy(c);
            set_amount(m, maker, &mut comp, frac.mul(value), unit)?;
            let g = convert_to_g(m, maker, &comp)?;
            total = total.add(quantity_of(m, &g)?.0);
        }
        set_amount(m, maker, &mut out, total, k.g)?;
        return Ok(out);
    }
    let name = |c: ClassId| m.onto.class_name(c).to_uppercase();
    let (value, unit) = match m.onto.class_name(unit) {
        "ml" => (value.div(Number::int(1000)).unwrap_or(value), m.class("l")?),
        "tablespoon" => (value.mul(Number::int(3)), m.class("teaspoon")?),
        _ => (value, unit),
    };
    let Some(factor) = m.onto.grams_per(e.class, unit) else {
        return Err(SimError::new(if m.onto.has_conversions(e.class) {
            format!(
                "The ingredient {} has no entry in the conversion table for unit {}!",
                name(e.class),
                name(unit)
            )
        } else {
            format!("The ingredient {} has no entry in the conversion table!", name(e.class))
        }));
    };
    set_amount(m, maker, &mut out, value.mul(factor), k.g)?;
    Ok(out)
}

/// Grams of an ingredient or mixture.
pub fn grams(m: &Model, maker: &mut Maker<'_>, e: &Entity) -> Result<Number, SimError> {
    let g = convert_to_g(m, maker, e)?;
    Ok(quantity_of(m, &g)?.0)
}

/// `create-homogeneous-mixture` / `create-heterogeneous-mixture`: a new mixture of `class`
/// (amount = total grams) whose components are the given objects with their amounts replaced
/// by exact fractions (unit `percent`); `flag` (e.g. `mixed`, `beaten`) is set to T.
pub fn make_mixture(
    m: &Model,
    maker: &mut Maker<'_>,
    ingredients: &[Value],
    class: ClassId,
    flag: Option<SlotId>,
) -> Result<Entity, SimError> {
    let k = &m.k;
    let mut grams_each = Vec::with_capacity(ingredients.len());
    let mut total = Number::ZERO;
    for i in ingredients {
        let e = i.as_obj().ok_or_else(|| SimError::new("a mixture component is not an object"))?;
        let g = grams(m, maker, e)?;
        total = total.add(g);
        grams_each.push(g);
    }
    let mut components = Vec::with_capacity(ingredients.len());
    for (i, g) in ingredients.iter().zip(grams_each) {
        let Some(e) = i.as_obj() else { continue };
        let mut c = e.clone();
        let frac = g.div(total).ok_or_else(|| SimError::new("arithmetic error DIVISION-BY-ZERO signalled"))?;
        set_amount(m, maker, &mut c, frac, k.percent)?;
        components.push(Value::obj(c));
    }
    let mut mixture = maker.make(class);
    let amt = amount(m, maker, total, k.g);
    set(m, &mut mixture, k.amount, amt)?;
    set(m, &mut mixture, k.components, Value::list(components))?;
    if let Some(flag) = flag {
        set(m, &mut mixture, flag, Value::T)?;
    }
    Ok(mixture)
}

/// Replace a container's contents by one mixture of them (`...-mixture-in-container`).
pub fn mix_in_container(
    m: &Model,
    maker: &mut Maker<'_>,
    container: &mut Entity,
    class: ClassId,
    flag: Option<SlotId>,
) -> Result<(), SimError> {
    let contents = container.val(m.k.contents).items().to_vec();
    let mixture = make_mixture(m, maker, &contents, class, flag)?;
    set(m, container, m.k.contents, Value::list(vec![Value::obj(mixture)]))
}

/// `change-temperature`: with a time amount, every content cools towards 18 °C by the
/// reference's formula; otherwise every content with a temperature slot takes `new_amount`.
pub fn change_temperature(
    m: &Model,
    maker: &mut Maker<'_>,
    container: &mut Entity,
    new_amount: &Entity,
) -> Result<(), SimError> {
    let k = &m.k;
    let time_unit = m.class("time-unit")?;
    let has_temperature = m.class("has-temperature")?;
    let by_time = amount_unit(m, new_amount).is_some_and(|u| m.onto.is_a(u, time_unit));
    let Some(list) = container.list_mut(k.contents) else { return Ok(()) };
    for item in list.iter_mut() {
        let Value::Obj(e) = item else { continue };
        if !m.onto.is_a(e.class, has_temperature) {
            continue;
        }
        let new = if by_time {
            match e.val(k.temperature).as_obj() {
                None => Value::Nil,
                Some(t) => {
                    let t = amount_value(m, t).unwrap_or(Number::ZERO);
                    let v = amount_value(m, new_amount).unwrap_or(Number::ZERO);
                    let drop = t.div(Number::int(45)).unwrap_or(Number::ZERO).mul(v);
                    let cooled = t.sub(drop).max(Number::int(18));
                    // `max` keeps the larger argument itself; 18 wins ties only when it is larger.
                    amount(m, maker, cooled, k.degrees_celsius)
                }
            }
        } else {
            Value::Obj(std::sync::Arc::new(new_amount.clone()))
        };
        let _ = std::sync::Arc::make_mut(e).set(k.temperature, new);
    }
    Ok(())
}

// ---- Added by the fetch/transfer/temperature/covering family (engineer A). ----

/// The shared handle of the object at `path` below `root` (`root` itself for an empty path),
/// for binding an object of the new kitchen state to an output.
pub fn arc_at(root: &std::sync::Arc<Entity>, m: &Model, path: &[usize]) -> Option<std::sync::Arc<Entity>> {
    let Some((&last, parent)) = path.split_last() else { return Some(root.clone()) };
    let parent = crate::simulation::kitchen::at(root, m, parent)?;
    match parent.val(m.k.contents).items().get(last)? {
        Value::Obj(e) => Some(e.clone()),
        _ => None,
    }
}

/// The shared handle of the object with persistent id `pid` anywhere in `ks`.
pub fn arc_by_pid(ks: &std::sync::Arc<Entity>, m: &Model, pid: crate::world::Pid) -> Option<std::sync::Arc<Entity>> {
    let path = crate::simulation::kitchen::find_pid(ks, m, &[], pid)?;
    arc_at(ks, m, &path)
}

/// Mutable access to the object with persistent id `pid` anywhere in `ks` (copy on write).
pub fn obj_mut<'e>(ks: &'e mut std::sync::Arc<Entity>, m: &Model, pid: crate::world::Pid) -> Option<&'e mut Entity> {
    let path = crate::simulation::kitchen::find_pid(ks, m, &[], pid)?;
    crate::simulation::kitchen::at_mut(ks, m, &path)
}

/// `find-kitchen-entities`: the items of a list that still lie on the counter-top, as a new
/// list (reversed order); `None` for a failed object. Profile 2023 collects the counter-top's
/// objects from the first item on, walking both in step; 2024 collects the list's own items
/// (one repeated persistent id: walked in step; all distinct: looked up one by one; otherwise
/// none) and fails like the reference when a repeated item is not on the counter-top.
pub fn find_kitchen_entities(
    m: &Model,
    maker: &mut Maker<'_>,
    list: &Entity,
    counter: &Entity,
) -> Result<Option<Entity>, SimError> {
    if m.onto.is_a(list.class, m.k.failed_object) {
        return Ok(None);
    }
    let k = &m.k;
    let items = list.val(k.items).items();
    let on_counter = counter.val(k.contents).items();
    let pid = |v: &Value| v.as_obj().map(|e| e.pid);
    let first = items.first().and_then(pid);
    let mut found: Vec<Value> = Vec::new();
    match m.profile {
        crate::profile::Profile::R2023 => {
            let start = on_counter.iter().position(|c| pid(c) == first).unwrap_or(on_counter.len());
            for (item, thing) in items.iter().zip(&on_counter[start..]) {
                if pid(item) == pid(thing) {
                    found.insert(0, thing.clone());
                }
            }
        }
        crate::profile::Profile::R2024 => {
            let mut unique: Vec<Option<crate::world::Pid>> = Vec::new();
            for i in items {
                if !unique.contains(&pid(i)) {
                    unique.push(pid(i));
                }
            }
            if unique.len() == 1 {
                let start = on_counter.iter().position(|c| pid(c) == first).ok_or_else(|| {
                    SimError::new("The value NIL is not of type KITCHEN-ENTITY (persistent-id of an empty counter-top)")
                })?;
                for (item, thing) in items.iter().zip(&on_counter[start..]) {
                    if pid(item) == pid(thing) {
                        found.insert(0, item.clone());
                    }
                }
            } else if unique.len() == items.len() {
                for item in items {
                    if on_counter.iter().any(|c| pid(c) == pid(item)) {
                        found.insert(0, item.clone());
                    }
                }
            }
        }
    }
    let mut out = maker.copy(list);
    set(m, &mut out, k.items, Value::list(found))?;
    Ok(Some(out))
}
