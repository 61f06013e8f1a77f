//! Primitives: portion-and-arrange, shape, flatten.
//!
//! Portions are copies of the dough (sharing its persistent id), put on the counter-top or in a
//! destination; shape and flatten then find them again with `find-kitchen-entities`.

use super::common::{
    Start, bound, done_at, first_content, list_copy, locate_on_counter, next_portion, node_at,
    node_mut, portion_size, prepend_contents, quantity_of, set, update_contents, update_found,
};
use super::errors::LispError;
use crate::base::number::Number;
use crate::language::validate::bounds::MAX_PORTIONS;
use crate::simulation::kitchen::{self, Path};
use crate::simulation::{Call, Model, Primitive, SimError};
use crate::world::{Entity, Value};
use std::cmp::Ordering;
use std::sync::Arc;

pub const PRIMITIVES: &[(&str, &dyn Primitive)] = &[
    ("portion-and-arrange", &portion_and_arrange),
    ("shape", &shape),
    ("flatten", &flatten),
];

const DOUGH: &str = "container-with-dough";

/// `portion-and-arrange`: split the first content of the dough container into portions of the
/// given size (the last one takes the rest) on the counter-top or in a destination; without a
/// size, fill the tins of a muffin tray equally.
fn portion_and_arrange(call: &mut Call<'_, '_>) -> Result<(), SimError> {
    if call.is_bound("destination") && !call.is_bound("quantity") {
        return fill_tins(call);
    }
    let (Start { m, mut ks, .. }, at) = call.start_after(DOUGH, 80)?;
    let ks_in = ks.clone();
    let to_counter = !call.is_bound("destination");
    let pattern_given = call.is_bound("arrangement-pattern");
    let destination = if to_counter {
        kitchen::location(&ks, m, m.k.counter_top)
    } else {
        kitchen::find_in_kitchen(&ks, m, call.input("destination")?)
    };
    let dough_container = call.input(DOUGH)?;
    // With a given pattern and no destination the container is looked up first and a
    // missing one fails; otherwise only a failed-object fails and a missing one is an error.
    let container = kitchen::find_on_counter(&ks, m, dough_container);
    let fails = if to_counter && pattern_given {
        container.is_none()
    } else {
        call.is_failed(dough_container)
    };
    let pattern = if pattern_given {
        Value::Obj(call.input_arc("arrangement-pattern")?.clone())
    } else {
        Value::obj(call.maker.make(m.class("evenly-spread")?))
    };
    if fails {
        call.fail(&[("portions", 1.0, Some(at))])?;
        if !pattern_given {
            call.bind("arrangement-pattern", 0.0, pattern, None)?;
        }
        if to_counter {
            call.fail(&[("destination", 0.0, None)])?;
        }
        return call.finish(ks, at);
    }
    let container = container.ok_or(LispError::nil_argument("CONTENTS"))?;
    let dough = first_content(m, &ks, &container)?;
    let (left, _) = quantity_of(m, &dough)?;
    let (size, size_value) = portion_size(call, &dough, "quantity", "unit")?;
    let size_value = size_value.unwrap_or(Number::ZERO);
    let portions = cut_portions(call, &dough, left, size_value, size)?;
    let destination = destination.ok_or(LispError::nil_argument("CONTENTS"))?;
    let arranged = arrange(m, &mut ks, &container, &destination, &portions, &pattern)?;
    if to_counter {
        let mut list = call.maker.make(m.k.list_of_kitchen_entities);
        set(
            m,
            &mut list,
            m.k.items,
            Value::list(portions.into_iter().rev().collect()),
        )?;
        call.bind("portions", 1.0, Value::obj(list), Some(at))?;
        let old_counter = kitchen::location(&ks_in, m, m.k.counter_top)
            .map(|p| node_at(m, &ks_in, &p))
            .transpose()?
            .ok_or(LispError::nil_argument("COUNTER-TOP"))?;
        call.bind("destination", 0.0, Value::Obj(old_counter), None)?;
    } else {
        call.bind("portions", 1.0, arranged, Some(at))?;
    }
    if !pattern_given {
        call.bind("arrangement-pattern", 0.0, pattern, None)?;
    }
    call.finish(ks, at)
}

/// Empty the dough container at `container` and put the portions (in the order they were
/// made) at the front of the destination at `destination`, arranged in `pattern`; returns the
/// destination as it now is.
fn arrange(
    m: &Model,
    ks: &mut Arc<Entity>,
    container: &Path,
    destination: &Path,
    portions: &[Value],
    pattern: &Value,
) -> Result<Value, SimError> {
    set(m, node_mut(m, ks, container)?, m.k.contents, Value::Nil)?;
    let dest = node_mut(m, ks, destination)?;
    prepend_contents(m, dest, portions.iter().rev().cloned().collect())?;
    set(m, dest, m.k.arrangement, pattern.clone())?;
    Ok(Value::Obj(node_at(m, ks, destination)?))
}

/// Copies of the dough, in the order they are made: `size` each while more than `size` is left
/// (compared with the dough's own value, whatever its unit), then the rest in grams.
fn cut_portions(
    call: &mut Call<'_, '_>,
    dough: &Entity,
    mut left: Number,
    size_value: Number,
    size: Value,
) -> Result<Vec<Value>, SimError> {
    let m = call.model;
    if left.num_cmp(&Number::ZERO) == Ordering::Greater
        && size_value.num_cmp(&Number::ZERO) != Ordering::Greater
    {
        return Err(SimError::new(
            "portion-and-arrange: a portion size of 0 or less never ends (the reference hangs)",
        ));
    }
    // Each portion is an object of the kitchen state: refuse before making a billion of them.
    // The reference cuts a few thousand portions in seconds (1/3 g portions of a dough), so the
    // bound is far above the constants' own.
    let count = left.div(size_value).unwrap_or(Number::ZERO);
    if count.num_cmp(&Number::int(MAX_PORTIONS)) == Ordering::Greater {
        return Err(SimError::new(format!(
            "portion-and-arrange: {:.0} portions of {}; at most {MAX_PORTIONS} are cut in one action",
            count.to_f64().ceil(),
            size_value
        )));
    }
    let mut portions = Vec::new();
    while left.num_cmp(&Number::ZERO) == Ordering::Greater {
        let mut portion = call.maker.copy(dough);
        let share = next_portion(m, call.maker, &mut left, size_value, &size);
        set(m, &mut portion, m.k.amount, share)?;
        portions.push(Value::obj(portion));
    }
    Ok(portions)
}

/// Case without portion size: only muffin tins, one equal portion per tin.
fn fill_tins(call: &mut Call<'_, '_>) -> Result<(), SimError> {
    let (Start { m, mut ks, .. }, at) = call.start_after(DOUGH, 80)?;
    let destination = kitchen::find_in_kitchen(&ks, m, call.input("destination")?);
    let container = kitchen::find_on_counter(&ks, m, call.input(DOUGH)?);
    let pattern = Value::obj(call.maker.make(m.class("evenly-spread")?));
    let muffin_tins = m.class("muffin-tins")?;
    let tins = destination
        .as_ref()
        .and_then(|p| kitchen::at(&ks, m, p))
        .filter(|d| m.onto.is_a(d.class, muffin_tins));
    let (Some(container), Some(tins), Some(destination)) = (container, tins, destination.clone())
    else {
        call.bind("arrangement-pattern", 0.0, pattern, None)?;
        call.fail(&[
            ("portions", 1.0, Some(at)),
            ("quantity", 0.0, None),
            ("unit", 0.0, None),
        ])?;
        return call.finish(ks, at);
    };
    let number_of_tins = m.slot("number-of-tins")?;
    let n = tins
        .val(number_of_tins)
        .as_obj()
        .and_then(|q| q.val(m.k.value).as_num())
        .ok_or(LispError::nil_argument("VALUE"))?;
    let dough = first_content(m, &ks, &container)?;
    let (value, _) = quantity_of(m, &dough)?;
    let each = value.div(n).ok_or(LispError::DivisionByZero)?;
    let unit = dough
        .val(m.k.amount)
        .as_obj()
        .and_then(|a| a.val(m.k.unit).as_obj())
        .ok_or(LispError::nil_argument("UNIT"))?;
    let unit = Value::obj(call.maker.copy(unit));
    let quantity = Value::obj(
        call.maker
            .make_with(m.k.quantity_class, &[(m.k.value, Value::Num(each))]),
    );
    let size = Value::obj(call.maker.make_with(
        m.k.amount_class,
        &[(m.k.quantity, quantity.clone()), (m.k.unit, unit.clone())],
    ));
    let mut portions = Vec::new();
    let mut left = n;
    while left.num_cmp(&Number::ZERO) == Ordering::Greater {
        let mut portion = call.maker.copy(&dough);
        set(m, &mut portion, m.k.amount, size.clone())?;
        portions.push(Value::obj(portion));
        left = left.sub(Number::int(1));
    }
    let arranged = arrange(m, &mut ks, &container, &destination, &portions, &pattern)?;
    call.bind("portions", 1.0, arranged, Some(at))?;
    call.bind("arrangement-pattern", 0.0, pattern, None)?;
    call.bind("quantity", 0.0, quantity, None)?;
    call.bind("unit", 0.0, unit, None)?;
    call.finish(ks, at)
}

/// `shape`: every portion (list items on the counter-top, or contents of a container on the
/// counter-top) gets the shape.
fn shape(call: &mut Call<'_, '_>) -> Result<(), SimError> {
    let portions = call.input_arc("portions")?.clone();
    let shape = Value::Obj(call.input_arc("shape")?.clone());
    let Start { m, mut ks, .. } = call.start()?;
    let current_shape = m.slot("current-shape")?;
    let shaped = if m.onto.is_a(portions.class, m.k.list_of_kitchen_entities) {
        let at = done_at(call, "portions", 85)?;
        match locate_on_counter(m, &portions, &ks)? {
            Some(found) => {
                let items = update_found(m, &mut ks, &found, |e| {
                    set(m, e, current_shape, shape.clone())
                })?;
                (Some(list_copy(m, call.maker, &portions, items)?), at)
            }
            None => (None, at),
        }
    } else if m.onto.is_a_name(portions.class, "transferable-container") {
        let at = done_at(call, "portions", 85)?;
        match kitchen::find_on_counter(&ks, m, &portions) {
            Some(path) => {
                update_contents(m, node_mut(m, &mut ks, &path)?, |e| {
                    set(m, e, current_shape, shape.clone())
                })?;
                (Some(Value::Obj(node_at(m, &ks, &path)?)), at)
            }
            None => (None, at),
        }
    } else {
        // Neither a list nor a container: the reference binds nothing.
        return Ok(());
    };
    let (value, at) = match shaped {
        (Some(v), at) => (v, at),
        (None, at) => (call.failed(), at),
    };
    call.bind("shaped-portions", 1.0, value, Some(at))?;
    call.finish(ks, at)
}

/// `flatten`: every portion of a list on the counter-top is flattened, with a rolling pin by
/// default.
fn flatten(call: &mut Call<'_, '_>) -> Result<(), SimError> {
    let at = done_at(call, "portions", 90)?;
    let portions = call.input_arc("portions")?.clone();
    let Start { m, mut ks, .. } = call.start()?;
    let tool_given = call.is_bound("can-flatten-tool");
    let (pin, ok) = call.deferred_tool(&mut ks, "can-flatten-tool", "rolling-pin", &portions)?;
    // Looked up after the rolling pin moved (it cannot be one of the portions), so that the
    // counter-top positions are those of the final state.
    let found = locate_on_counter(m, &portions, &ks)?;
    let (true, Some(found)) = (ok, found) else {
        call.fail(&[("container-with-flattened-items", 1.0, Some(at))])?;
        if !tool_given {
            call.fail(&[("can-flatten-tool", 0.0, None)])?;
        }
        return call.finish(ks, at);
    };
    let flattened = m.slot("flattened")?;
    let items = update_found(m, &mut ks, &found, |e| set(m, e, flattened, Value::T))?;
    let tool = call.use_deferred_tool(&mut ks, pin, "can-flatten-tool")?;
    let list = list_copy(m, call.maker, &portions, items)?;
    call.bind("container-with-flattened-items", 1.0, list, Some(at))?;
    if !tool_given {
        let found = bound(m, &ks, tool, LispError::USED_OF_NIL)?;
        call.bind("can-flatten-tool", 0.0, found, None)?;
    }
    call.finish(ks, at)
}
