//! Helpers shared by the primitives: the steps every primitive takes (start from the input
//! kitchen, find inputs, take tools, bind failures, finish), amounts, conversion to grams,
//! mixtures, temperatures.

use super::errors::LispError;
use crate::base::number::Number;
use crate::base::profile::Profile;
use crate::simulation::kitchen::{self, Path};
use crate::simulation::{Call, Known, Model, SimError};
use crate::world::ontology::{ClassId, SlotId};
use crate::world::seq::Seq;
use crate::world::{Entity, Maker, Pid, Value, edit};
use std::sync::Arc;

/// What every primitive starts from: the model and its known classes and slots, a copy of the
/// input kitchen state (the one the primitive changes and binds as its output) and that
/// state's time.
pub struct Start<'m> {
    pub m: &'m Model,
    pub k: &'m Known,
    pub ks: Arc<Entity>,
    pub kt: Number,
}

/// Where a given input is looked up: on the counter-top (the reference's find-CT) or anywhere
/// in the kitchen (find-K). Failed objects are never found.
#[derive(Clone, Copy, PartialEq)]
pub enum Lookup {
    Counter,
    Kitchen,
}

impl<'m> Call<'m, '_> {
    /// The input kitchen state, copied for the primitive to change, with its time.
    pub fn start(&self) -> Result<Start<'m>, SimError> {
        let ks = self.kitchen_in()?.clone();
        let kt = self.kitchen_time(&ks);
        Ok(Start {
            m: self.model,
            k: &self.model.k,
            ks,
            kt,
        })
    }

    /// [`Call::start`] for a primitive that takes `duration` seconds once input `arg` is
    /// ready, with the time it is done.
    pub fn start_after(&self, arg: &str, duration: i64) -> Result<(Start<'m>, Number), SimError> {
        let start = self.start()?;
        let at = self.ready_at(start.kt, arg)?.add(Number::int(duration));
        Ok((start, at))
    }

    /// Persistent id of input `arg` when it is found in `ks`.
    pub fn find(&self, ks: &Entity, arg: &str, lookup: Lookup) -> Result<Option<Pid>, SimError> {
        let m = self.model;
        let obj = self.input(arg)?;
        let path = match lookup {
            Lookup::Counter => kitchen::find_on_counter(ks, m, obj),
            Lookup::Kitchen => kitchen::find_in_kitchen(ks, m, obj),
        };
        Ok(path.map(|_| obj.pid))
    }

    /// The tool of argument `arg`: the given one looked up in `ks`, else the first unused
    /// `default` brought to the counter-top.
    pub fn tool(
        &self,
        ks: &mut Arc<Entity>,
        arg: &str,
        default: &str,
        lookup: Lookup,
    ) -> Result<Option<Pid>, SimError> {
        if self.is_bound(arg) {
            self.find(ks, arg, lookup)
        } else {
            Ok(kitchen::take_default(
                ks,
                self.model,
                self.model.class(default)?,
                &[],
            ))
        }
    }

    /// A tool the reference looks up only when it marks it used (mash, flatten): a default
    /// one is brought to the counter-top now (`Some`), a given one (`None`) only must not be a
    /// failed-object. Also whether the primitive can go on with its `input`.
    pub fn deferred_tool(
        &self,
        ks: &mut Arc<Entity>,
        arg: &str,
        default: &str,
        input: &Entity,
    ) -> Result<(Option<Pid>, bool), SimError> {
        if self.is_bound(arg) {
            let ok = !self.is_failed(input) && !self.is_failed(self.input(arg)?);
            Ok((None, ok))
        } else {
            let taken = kitchen::take_default(ks, self.model, self.model.class(default)?, &[]);
            Ok((taken, taken.is_some() && !self.is_failed(input)))
        }
    }

    /// Mark a [`Call::deferred_tool`] used: the default taken, or the given one looked up in
    /// the kitchen now.
    pub fn use_deferred_tool(
        &self,
        ks: &mut Arc<Entity>,
        taken: Option<Pid>,
        arg: &str,
    ) -> Result<Pid, SimError> {
        let tool = match taken {
            Some(p) => p,
            None => self
                .find(ks, arg, Lookup::Kitchen)?
                .ok_or(LispError::SETF_USED_OF_NIL)?,
        };
        mark_used(self.model, ks, tool, LispError::USED_OF_NIL)?;
        Ok(tool)
    }

    /// The numeric value of the `quantity` object bound to input `arg`.
    pub fn number(&self, arg: &str) -> Result<Number, SimError> {
        self.input(arg)?
            .val(self.model.k.value)
            .as_num()
            .ok_or_else(|| SimError::new(format!("The value of {arg} is not a number")))
    }

    /// Bind each of `outputs` (name, score, availability) to a fresh failed-object, in order.
    pub fn fail(&mut self, outputs: &[(&str, f32, Option<Number>)]) -> Result<(), SimError> {
        for &(name, score, at) in outputs {
            let failed = self.failed();
            self.bind(name, score, failed, at)?;
        }
        Ok(())
    }

    /// Bind the new kitchen state, its time set to `at`.
    pub fn finish(&mut self, ks: Arc<Entity>, at: Number) -> Result<(), SimError> {
        self.bind_kitchen("kitchen-state-out", ks, at)
    }

    /// Bind the new kitchen state available at `at` but with its time unchanged: the
    /// reference's branches that fail before they set the time.
    pub fn finish_untimed(&mut self, ks: Arc<Entity>, at: Number) -> Result<(), SimError> {
        self.bind("kitchen-state-out", 1.0, Value::Obj(ks), Some(at))
    }
}

/// The first content of `container`, when it is an object.
pub fn first_of(m: &Model, container: &Entity) -> Option<Entity> {
    container
        .val(m.k.contents)
        .items()
        .first()
        .and_then(Value::as_obj)
        .cloned()
}

/// The first content of the container at `path` (a Lisp error when there is none).
pub fn first_content(m: &Model, ks: &Entity, path: &Path) -> Result<Entity, SimError> {
    let c = kitchen::at(ks, m, path).ok_or(LispError::nil_argument("CONTENTS"))?;
    Ok(first_of(m, c).ok_or(LispError::nil_argument("AMOUNT"))?)
}

/// Whether `e` is a list of kitchen entities, and whether it is a transferable container: the
/// two kinds of thing that primitives on portions accept.
pub fn list_or_container(m: &Model, e: &Entity) -> (bool, bool) {
    (
        m.onto.is_a(e.class, m.k.list_of_kitchen_entities),
        m.onto.is_a_name(e.class, "transferable-container"),
    )
}

/// A fresh `amount` object of `value` in `unit`.
pub fn amount(m: &Model, maker: &mut Maker<'_>, value: Number, unit: ClassId) -> Value {
    let k = &m.k;
    let q = maker.make_with(k.quantity_class, &[(k.value, Value::Num(value))]);
    let u = maker.make(unit);
    Value::obj(maker.make_with(
        k.amount_class,
        &[(k.quantity, Value::obj(q)), (k.unit, Value::obj(u))],
    ))
}

/// An `amount` object holding the given quantity and unit objects themselves (as
/// `fetch-and-proportion` builds one from the network's constants), not copies: the
/// reference's slots hold the very objects, and a copy per action cost a long network more
/// than the amount.
pub fn amount_of(
    m: &Model,
    maker: &mut Maker<'_>,
    quantity: &Arc<Entity>,
    unit: &Arc<Entity>,
) -> Entity {
    let k = &m.k;
    maker.make_with(
        k.amount_class,
        &[
            (k.quantity, Value::Obj(Arc::clone(quantity))),
            (k.unit, Value::Obj(Arc::clone(unit))),
        ],
    )
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
    LispError::NoAmount {
        ingredient: m.onto.class_name(e.class).to_uppercase(),
    }
    .into()
}

/// A portion size given by two inputs (quantity and unit objects), in grams as `like` (the
/// ingredient portioned out) would weigh it unless the unit already is grams, with its value.
pub fn portion_size(
    call: &mut Call<'_, '_>,
    like: &Entity,
    quantity: &str,
    unit: &str,
) -> Result<(Value, Option<Number>), SimError> {
    let m = call.model;
    let quantity = call.input_arc(quantity)?.clone();
    let unit = call.input_arc(unit)?.clone();
    let mut size = Value::obj(amount_of(m, call.maker, &quantity, &unit));
    if unit.class != m.k.g {
        let mut probe = call.maker.copy(like);
        set(m, &mut probe, m.k.amount, size)?;
        size = convert_to_g(m, call.maker, &probe)?.val(m.k.amount).clone();
    }
    let value = size.as_obj().and_then(|a| amount_value(m, a));
    Ok((size, value))
}

/// The amount of the next portion of what is `left`, as the reference compares them (the
/// source's own value against the size in grams): `size` while more than `size_value` is left,
/// then the rest, in grams.
pub fn next_portion(
    m: &Model,
    maker: &mut Maker<'_>,
    left: &mut Number,
    size_value: Number,
    size: &Value,
) -> Value {
    if left.num_cmp(&size_value) == std::cmp::Ordering::Greater {
        *left = left.sub(size_value);
        size.clone()
    } else {
        let rest = amount(m, maker, *left, m.k.g);
        *left = Number::ZERO;
        rest
    }
}

/// Replace an ingredient's amount.
pub fn set_amount(
    m: &Model,
    maker: &mut Maker<'_>,
    e: &mut Entity,
    value: Number,
    unit: ClassId,
) -> Result<(), SimError> {
    let a = amount(m, maker, value, unit);
    set(m, e, m.k.amount, a)
}

/// Set a slot, failing like the reference when the object has no such slot.
pub fn set(m: &Model, e: &mut Entity, slot: SlotId, v: Value) -> Result<(), SimError> {
    if e.set(slot, v) {
        Ok(())
    } else {
        Err(LispError::CalledWithClass {
            generic: format!("(SETF {})", m.onto.slot_name(slot).to_uppercase()),
            class: m.onto.class_name(e.class).to_uppercase(),
        }
        .into())
    }
}

/// Put `items` at the front of the contents of `container`, the contents it held shared
/// rather than copied (a counter-top of thousands of portions).
pub fn prepend_contents(
    m: &Model,
    container: &mut Entity,
    items: Vec<Value>,
) -> Result<(), SimError> {
    if container.prepend(m.k.contents, items) {
        Ok(())
    } else {
        set(m, container, m.k.contents, Value::Nil)
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
    let (value, unit) = m.onto.in_table_unit(value, unit);
    let Some(factor) = m.onto.grams_per(e.class, unit) else {
        return Err(if m.onto.has_conversions(e.class) {
            LispError::NoConversionForUnit {
                ingredient: name(e.class),
                unit: name(unit),
            }
        } else {
            LispError::NoConversion {
                ingredient: name(e.class),
            }
        }
        .into());
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
        let e = i
            .as_obj()
            .ok_or_else(|| SimError::new("a mixture component is not an object"))?;
        let g = grams(m, maker, e)?;
        total = total.add(g);
        grams_each.push(g);
    }
    let mut components = Vec::with_capacity(ingredients.len());
    for (i, g) in ingredients.iter().zip(grams_each) {
        let Some(e) = i.as_obj() else { continue };
        let mut c = e.clone();
        let frac = g.div(total).ok_or(LispError::DivisionByZero)?;
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
    set(
        m,
        container,
        m.k.contents,
        Value::list(vec![Value::obj(mixture)]),
    )
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
    let Some(list) = container.list_mut(k.contents) else {
        return Ok(());
    };
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
        let _ = edit(e).set(k.temperature, new);
    }
    Ok(())
}

// ---- Helpers of the mixing, cutting, portions and toppings families ----

/// `duration + max(kitchen time, availability of input arg)`: when an active operation on
/// `arg` ends.
pub fn done_at(call: &Call<'_, '_>, arg: &str, duration: i64) -> Result<Number, SimError> {
    let kt = call.kitchen_time(call.kitchen_in()?);
    Ok(call.ready_at(kt, arg)?.add(Number::int(duration)))
}

/// Path of the counter-top (every full kitchen has one).
pub fn counter_path(m: &Model, ks: &Entity) -> Result<Path, SimError> {
    kitchen::location(ks, m, m.k.counter_top)
        .ok_or_else(|| SimError::new("the kitchen state has no counter-top"))
}

/// The object at `path` (as a shared snapshot).
pub fn node_at(m: &Model, ks: &Entity, path: &[usize]) -> Result<Arc<Entity>, SimError> {
    let (&last, parent) = path
        .split_last()
        .ok_or_else(|| SimError::new("empty path"))?;
    let container =
        kitchen::at(ks, m, parent).ok_or_else(|| SimError::new("stale kitchen path"))?;
    match container.val(m.k.contents).items().get(last) {
        Some(Value::Obj(e)) => Ok(e.clone()),
        _ => Err(SimError::new("stale kitchen path")),
    }
}

/// Mutable access to the object at `path` of a kitchen state being built.
pub fn node_mut<'e>(
    m: &Model,
    ks: &'e mut Arc<Entity>,
    path: &[usize],
) -> Result<&'e mut Entity, SimError> {
    kitchen::at_mut(ks, m, path).ok_or_else(|| SimError::new("stale kitchen path"))
}

/// Set a slot of the object at `path`.
pub fn set_at(
    m: &Model,
    ks: &mut Arc<Entity>,
    path: &[usize],
    slot: SlotId,
    v: Value,
) -> Result<(), SimError> {
    set(m, node_mut(m, ks, path)?, slot, v)
}

/// Mark the object with persistent id `pid` (anywhere in the kitchen) as used; `missing` is
/// the reference's error when it is no longer there (which depends on how the reference held it).
pub fn mark_used(
    m: &Model,
    ks: &mut Arc<Entity>,
    pid: Pid,
    missing: LispError,
) -> Result<(), SimError> {
    let e = obj_mut(ks, m, pid).ok_or(missing)?;
    set(m, e, m.k.used, Value::T)
}

/// The object with persistent id `pid` as it is now in `ks`, to bind to an output; `missing`
/// is the reference's error when it is no longer there.
pub fn bound(m: &Model, ks: &Arc<Entity>, pid: Pid, missing: LispError) -> Result<Value, SimError> {
    Ok(Value::Obj(arc_by_pid(ks, m, pid).ok_or(missing)?))
}

/// Apply `f` to every content of `container`, in order.
pub fn update_contents(
    m: &Model,
    container: &mut Entity,
    mut f: impl FnMut(&mut Entity) -> Result<(), SimError>,
) -> Result<(), SimError> {
    if container.val(m.k.contents).is_nil() {
        return Ok(());
    }
    if let Some(list) = container.list_mut(m.k.contents) {
        for item in list.iter_mut() {
            if let Value::Obj(e) = item {
                f(edit(e))?;
            }
        }
    }
    Ok(())
}

/// One entity found by `find-kitchen-entities`.
#[derive(Clone, Debug)]
pub struct FoundEntity {
    /// What the reference collects: the counter-top object (2023) or the list's own item (HEAD,
    /// an object that is not part of the new kitchen state).
    pub item: Arc<Entity>,
    /// Index of the matching element among the counter-top's direct contents.
    pub counter_index: usize,
    /// Whether `item` is the object in the kitchen state (changes to it change the state).
    pub in_state: bool,
}

/// `find-kitchen-entities`: the items of a list that are on the counter-top (`counter`), in the reference's
/// (reversed) order; `None` for a failed-object. 2023 expects the items contiguous on the
/// counter-top, starting at the first item; HEAD handles lists of one repeated persistent id
/// (portions) that way, lists of distinct ids by individual look-up, and finds nothing otherwise.
pub fn locate_kitchen_entities(
    m: &Model,
    list: &Entity,
    counter: &Entity,
) -> Result<Option<Vec<FoundEntity>>, SimError> {
    if m.onto.is_a(list.class, m.k.failed_object) {
        return Ok(None);
    }
    let on_counter = counter.val(m.k.contents).items();
    let items = list.val(m.k.items).items();
    let mut found = Vec::new();
    match m.profile {
        Profile::R2023 => {
            let start = skip_to_first(items, on_counter, false)?;
            found = walk_in_parallel(items, on_counter, start, false)?;
        }
        Profile::R2024 => {
            let mut pids = Vec::with_capacity(items.len());
            for v in items {
                let p = pid_of(v)?;
                if !pids.contains(&p) {
                    pids.push(p);
                }
            }
            if pids.len() == 1 {
                let start = skip_to_first(items, on_counter, true)?;
                found = walk_in_parallel(items, on_counter, start, true)?;
            } else if pids.len() == items.len() {
                for v in items {
                    let Value::Obj(i) = v else { continue };
                    let hit = on_counter
                        .iter()
                        .position(|t| t.as_obj().is_some_and(|t| t.pid == i.pid));
                    if let Some(ix) = hit {
                        found.push(FoundEntity {
                            item: i.clone(),
                            counter_index: ix,
                            in_state: false,
                        });
                    }
                }
                found.reverse();
            }
        }
    }
    Ok(Some(found))
}

fn pid_of(v: &Value) -> Result<Pid, SimError> {
    v.as_obj()
        .map(|e| e.pid)
        .ok_or(LispError::nil_argument("PERSISTENT-ID").into())
}

/// Index of the first counter-top element with the first item's persistent id. Running off the
/// end stops the 2023 search but makes HEAD's ask NIL for its id (`strict`).
fn skip_to_first(
    items: &Seq<Value>,
    on_counter: &Seq<Value>,
    strict: bool,
) -> Result<usize, SimError> {
    let mut start = 0;
    loop {
        if start == on_counter.len() {
            return if strict {
                Err(LispError::nil_argument("PERSISTENT-ID").into())
            } else {
                Ok(start)
            };
        }
        let first = pid_of(items.first().unwrap_or(&Value::Nil))?;
        if pid_of(&on_counter[start])? == first {
            return Ok(start);
        }
        start += 1;
    }
}

/// Walk the list and the counter-top from `start` side by side, keeping matching ids; the
/// result is reversed (the reference pushes). HEAD keeps the list's items, 2023 the
/// counter-top's.
fn walk_in_parallel(
    items: &Seq<Value>,
    on_counter: &Seq<Value>,
    start: usize,
    keep_list_items: bool,
) -> Result<Vec<FoundEntity>, SimError> {
    let mut out = Vec::new();
    for (offset, (item, thing)) in items.iter().zip(on_counter.iter().skip(start)).enumerate() {
        if pid_of(item)? != pid_of(thing)? {
            continue;
        }
        let (Value::Obj(i), Value::Obj(t)) = (item, thing) else {
            continue;
        };
        let item = if keep_list_items {
            i.clone()
        } else {
            t.clone()
        };
        out.push(FoundEntity {
            item,
            counter_index: start + offset,
            in_state: !keep_list_items,
        });
    }
    out.reverse();
    Ok(out)
}

/// Apply `f` to found entities (in the kitchen state where they are part of it, on detached
/// copies otherwise) and return the changed objects in order, as list items.
pub fn update_found(
    m: &Model,
    ks: &mut Arc<Entity>,
    found: &[FoundEntity],
    mut f: impl FnMut(&mut Entity) -> Result<(), SimError>,
) -> Result<Vec<Value>, SimError> {
    let ct = counter_path(m, ks)?;
    let mut out = Vec::with_capacity(found.len());
    for fe in found {
        if fe.in_state {
            let mut path = ct.clone();
            path.push(fe.counter_index);
            f(node_mut(m, ks, &path)?)?;
            out.push(Value::Obj(node_at(m, ks, &path)?));
        } else {
            let mut e = fe.item.clone();
            f(edit(&mut e))?;
            crate::simulation::effects::aliased(fe.item.clone(), &e);
            out.push(Value::Obj(e));
        }
    }
    Ok(out)
}

/// The new list of `find-kitchen-entities`: a copy of the input list holding `items`.
pub fn list_copy(
    m: &Model,
    maker: &mut Maker<'_>,
    list: &Entity,
    items: Vec<Value>,
) -> Result<Value, SimError> {
    let mut l = maker.copy(list);
    set(m, &mut l, m.k.items, Value::list(items))?;
    Ok(Value::obj(l))
}

/// [`locate_kitchen_entities`] on the counter-top of a kitchen state.
pub fn locate_on_counter(
    m: &Model,
    list: &Entity,
    ks: &Entity,
) -> Result<Option<Vec<FoundEntity>>, SimError> {
    let ct = counter_path(m, ks)?;
    let counter = kitchen::at(ks, m, &ct).ok_or(LispError::nil_argument("CONTENTS"))?;
    locate_kitchen_entities(m, list, counter)
}

/// The shared handle of the object at `path` below `root` (`root` itself for an empty path),
/// for binding an object of the new kitchen state to an output.
pub fn arc_at(root: &Arc<Entity>, m: &Model, path: &[usize]) -> Option<Arc<Entity>> {
    let Some((&last, parent)) = path.split_last() else {
        return Some(root.clone());
    };
    let parent = kitchen::at(root, m, parent)?;
    match parent.val(m.k.contents).items().get(last)? {
        Value::Obj(e) => Some(e.clone()),
        _ => None,
    }
}

/// The shared handle of the object with persistent id `pid` anywhere in `ks`.
pub fn arc_by_pid(ks: &Arc<Entity>, m: &Model, pid: Pid) -> Option<Arc<Entity>> {
    let path = kitchen::find_pid(ks, m, &[], pid)?;
    arc_at(ks, m, &path)
}

/// Mutable access to the object with persistent id `pid` anywhere in `ks` (copy on write).
pub fn obj_mut<'e>(ks: &'e mut Arc<Entity>, m: &Model, pid: Pid) -> Option<&'e mut Entity> {
    let path = kitchen::find_pid(ks, m, &[], pid)?;
    kitchen::at_mut(ks, m, &path)
}

/// `find-kitchen-entities` as a new list (a copy of `list` holding the found items, reversed
/// order); `None` for a failed object. See [`locate_kitchen_entities`].
pub fn find_kitchen_entities(
    m: &Model,
    maker: &mut Maker<'_>,
    list: &Entity,
    counter: &Entity,
) -> Result<Option<Entity>, SimError> {
    let Some(found) = locate_kitchen_entities(m, list, counter)? else {
        return Ok(None);
    };
    let mut out = maker.copy(list);
    set(
        m,
        &mut out,
        m.k.items,
        Value::list(found.into_iter().map(|f| Value::Obj(f.item)).collect()),
    )?;
    Ok(Some(out))
}
