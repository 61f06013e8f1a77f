//! Primitives: fetch, fetch-and-proportion (with the reference's `take-n-pieces` and
//! `weigh-ingredient`, including their quirks P5 and P6).

use super::common::{
    Start, amount, amount_of, arc_by_pid, convert_to_g, grams, obj_mut, prepend_contents,
    quantity_of, set,
};
use super::errors::LispError;
use crate::base::number::Number;
use crate::simulation::kitchen::{at, find_in_kitchen, find_ingredient, location, take_default};
use crate::simulation::{Call, Model, Primitive, SimError};
use crate::world::ontology::ClassId;
use crate::world::{Entity, Maker, Pid, Value};
use std::sync::Arc;

pub const PRIMITIVES: &[(&str, &dyn Primitive)] = &[
    ("fetch", &fetch),
    ("fetch-and-proportion", &fetch_and_proportion),
];

/// The reference asks every object of the fetched class for its `used` flag; a class without
/// one (an ingredient) makes it fail as soon as such an object is met.
fn check_reusable(ks: &Entity, m: &Model, class: ClassId) -> Result<(), SimError> {
    if m.onto.has_slot(class, m.k.used) {
        return Ok(());
    }
    fn any_of(e: &Entity, m: &Model, class: ClassId) -> bool {
        e.val(m.k.contents)
            .items()
            .iter()
            .filter_map(Value::as_obj)
            .any(|o| {
                m.onto.is_a(o.class, class) || (m.k.is_container(o.class) && any_of(o, m, class))
            })
    }
    if any_of(ks, m, class) {
        return Err(LispError::CalledWithClass {
            generic: "USED".to_string(),
            class: m.onto.class_name(class).to_uppercase(),
        }
        .into());
    }
    Ok(())
}

/// `fetch`: bring one object, or a list of `quantity` objects, of the concept's class to the
/// counter-top (not marked used). Takes 30 s per object.
fn fetch(call: &mut Call<'_, '_>) -> Result<(), SimError> {
    let Start { m, mut ks, kt, .. } = call.start()?;
    let n = call.number("quantity")?;
    let at_time = n.mul(Number::int(30)).add(kt);
    let class = call.input("concept-to-fetch")?.class;
    check_reusable(&ks, m, class)?;
    let fetched = if n.num_eq(&Number::int(1)) {
        match take_default(&mut ks, m, class, &[]) {
            Some(pid) => arc_by_pid(&ks, m, pid).map(Value::Obj),
            None => None,
        }
    } else {
        // `loop for i from 1 to n`: a failed take does not stop the loop.
        let mut taken: Vec<Pid> = Vec::new();
        let mut failed = false;
        let mut i = Number::int(1);
        while i.num_cmp(&n) != std::cmp::Ordering::Greater {
            match take_default(&mut ks, m, class, &taken) {
                Some(pid) => taken.insert(0, pid),
                None => failed = true,
            }
            i = i.add(Number::int(1));
        }
        if failed {
            None
        } else {
            let items = taken
                .iter()
                .filter_map(|&p| arc_by_pid(&ks, m, p).map(Value::Obj))
                .collect();
            let list = call.maker.make_with(
                m.k.list_of_kitchen_entities,
                &[(m.k.items, Value::list(items))],
            );
            Some(Value::obj(list))
        }
    };
    let fetched = match fetched {
        Some(v) => v,
        None => call.failed(),
    };
    call.bind("thing-fetched", 1.0, fetched, Some(at_time))?;
    call.finish(ks, at_time)
}

/// `fetch-and-proportion`: weigh an amount of an ingredient from its store into a (default:
/// fresh medium) bowl; the source bowl goes back to the front of its location. 30 s.
fn fetch_and_proportion(call: &mut Call<'_, '_>) -> Result<(), SimError> {
    let Start { m, mut ks, kt, .. } = call.start()?;
    let ks_in = ks.clone();
    let at_time = kt.add(Number::int(30));
    let given_target = call.is_bound("target-container");
    let (quantity, unit) = (
        call.input_arc("quantity")?.clone(),
        call.input_arc("unit")?.clone(),
    );
    let requested = amount_of(m, call.maker, &quantity, &unit);

    // 1) the target container: a fresh medium bowl brought to the counter-top, or the given one.
    let (target_pid, old_target) = if given_target {
        let target = call.input("target-container")?;
        let pid = (!call.is_failed(target)).then_some(target.pid);
        (pid, None)
    } else {
        let bowl = m.class("medium-bowl")?;
        let pid = take_default(&mut ks, m, bowl, &[]);
        let old = pid.and_then(|p| arc_by_pid(&ks_in, m, p));
        (pid, old)
    };

    // 2) the ingredient's bowl and the location holding it.
    let concept = call.input("ingredient-concept")?.class;
    let found = find_ingredient(&ks, m, concept);
    let (Some(target_pid), Some((bowl_path, place_path))) = (target_pid, found) else {
        call.fail(&[("container-with-ingredient", 1.0, Some(at_time))])?;
        if !given_target {
            call.fail(&[("target-container", 0.0, None)])?;
        }
        return call.finish(ks, at_time);
    };
    if given_target && find_in_kitchen(&ks, m, call.input("target-container")?).is_none() {
        return Err(LispError::CONTENTS_OF_NIL.into());
    }
    let place_class = match place_path.as_slice() {
        [_] => at(&ks, m, &place_path).map(|p| p.class),
        _ => None,
    }
    .ok_or_else(|| SimError::new("The ingredient's bowl is not directly in a kitchen location"))?;
    let bowl_pid = at(&ks, m, &bowl_path)
        .map(|b| b.pid)
        .ok_or_else(|| SimError::new("no ingredient bowl"))?;
    move_pid_to_front(&mut ks, m, bowl_pid, m.k.counter_top)?;

    // 3) weigh into the target.
    weigh(m, call.maker, &mut ks, bowl_pid, target_pid, &requested)?;
    let target = obj_mut(&mut ks, m, target_pid)
        .ok_or_else(|| SimError::new("target container vanished"))?;
    set(m, target, m.k.used, Value::T)?;

    // 4) put the rest back (the source ingredient always stays, whatever its amount).
    let bowl_has_contents =
        arc_by_pid(&ks, m, bowl_pid).is_some_and(|b| b.val(m.k.contents).truthy());
    if bowl_has_contents && place_class != m.k.counter_top {
        move_pid_to_front(&mut ks, m, bowl_pid, place_class)?;
    }

    let weighed =
        arc_by_pid(&ks, m, target_pid).ok_or_else(|| SimError::new("target container vanished"))?;
    if !given_target {
        let old = old_target.map(Value::Obj).unwrap_or(Value::Nil);
        call.bind("target-container", 0.0, old, None)?;
    }
    call.bind(
        "container-with-ingredient",
        1.0,
        Value::Obj(weighed),
        Some(at_time),
    )?;
    call.finish(ks, at_time)
}

/// `change-kitchen-entity-location`: take the object out of wherever it is and put it at the
/// front of the location of class `to`.
fn move_pid_to_front(
    ks: &mut Arc<Entity>,
    m: &Model,
    pid: Pid,
    to: ClassId,
) -> Result<(), SimError> {
    let lost = || SimError::new("an object to move is not in the kitchen");
    let from = crate::simulation::kitchen::find_pid(ks, m, &[], pid).ok_or_else(lost)?;
    let obj = crate::simulation::kitchen::remove(ks, m, &from).ok_or_else(lost)?;
    let dest = location(ks, m, to).ok_or_else(lost)?;
    if crate::simulation::kitchen::push_front(ks, m, &dest, obj) {
        Ok(())
    } else {
        Err(lost())
    }
}

/// An amount of `value` in the given unit object (the reference reuses the network's unit).
fn amount_in(m: &Model, maker: &mut Maker<'_>, value: Number, unit: &Arc<Entity>) -> Value {
    let q = Arc::new(maker.make_with(m.k.quantity_class, &[(m.k.value, Value::Num(value))]));
    Value::obj(amount_of(m, maker, &q, unit))
}

/// `take-n-pieces` / `weigh-ingredient`: move `requested` of the single ingredient in the
/// source bowl into the target (new ingredients at the front) and reduce the source.
fn weigh(
    m: &Model,
    maker: &mut Maker<'_>,
    ks: &mut Arc<Entity>,
    bowl_pid: Pid,
    target_pid: Pid,
    requested: &Entity,
) -> Result<(), SimError> {
    let k = &m.k;
    let bowl = arc_by_pid(ks, m, bowl_pid).ok_or_else(|| SimError::new("no ingredient bowl"))?;
    let Some(Value::Obj(source)) = bowl.val(k.contents).items().single() else {
        return Err(LispError::AssertionFailed {
            assertion: "(= (LENGTH (CONTENTS SOURCE-CONTAINER)) 1)",
        }
        .into());
    };
    let (src_value, src_unit) = quantity_of(m, source)?;
    let req_value = requested
        .val(k.quantity)
        .as_obj()
        .and_then(|q| q.val(k.value).as_num());
    let req_unit = match requested.val(k.unit) {
        Value::Obj(unit) => Some(unit),
        _ => None,
    };
    let (Some(req_value), Some(req_unit)) = (req_value, req_unit) else {
        return Err(SimError::new("the requested amount has no value or unit"));
    };
    let req_amount = Value::Obj(Arc::new(requested.clone()));
    let mut source = (**source).clone();
    // New target ingredients, in the order they end up at the front of the target.
    let mut new_items: Vec<Value> = Vec::new();

    if src_unit == k.piece && m.onto.is_a(req_unit.class, k.piece) {
        // P6: fresh instances with class defaults, one per whole piece, a fraction first.
        let new_source = amount_in(m, maker, src_value.sub(req_value), req_unit);
        set(m, &mut source, k.amount, new_source)?;
        let wholes = req_value.floor_i64();
        let parts = req_value.sub(Number::int(wholes));
        if !parts.is_zero() {
            let mut piece = maker.make(source.class);
            let a = amount(m, maker, parts, k.piece);
            set(m, &mut piece, k.amount, a)?;
            new_items.push(Value::obj(piece));
        }
        for _ in 0..wholes.max(0) {
            let mut piece = maker.make(source.class);
            let a = amount(m, maker, Number::int(1), k.piece);
            set(m, &mut piece, k.amount, a)?;
            new_items.push(Value::obj(piece));
        }
    } else if src_unit == k.piece {
        // Pieces weighed in another unit: through grams per piece.
        let source_g = convert_to_g(m, maker, &source)?;
        let (g, _) = quantity_of(m, &source_g)?;
        let per_piece = g.div(src_value).ok_or(LispError::DivisionByZero)?;
        let mut target = maker.copy(&source_g);
        set(m, &mut target, k.amount, req_amount.clone())?;
        let target_g = grams(m, maker, &target)?;
        let left = g
            .sub(target_g)
            .div(per_piece)
            .ok_or(LispError::DivisionByZero)?;
        let a = amount(m, maker, left, k.piece);
        set(m, &mut source, k.amount, a)?;
        new_items.push(Value::obj(target));
    } else if src_unit == req_unit.class {
        let new_source = amount_in(m, maker, src_value.sub(req_value), req_unit);
        let mut target = maker.copy(&source);
        set(m, &mut target, k.amount, req_amount)?;
        set(m, &mut source, k.amount, new_source)?;
        new_items.push(Value::obj(target));
    } else {
        // P5: grams subtracted from the source's value in its own unit, result in g.
        let source_g = convert_to_g(m, maker, &source)?;
        let mut target = maker.copy(&source_g);
        set(m, &mut target, k.amount, req_amount.clone())?;
        let target_g = grams(m, maker, &target)?;
        let a = amount(m, maker, src_value.sub(target_g), k.g);
        set(m, &mut source, k.amount, a)?;
        new_items.push(Value::obj(target));
    }

    let bowl = obj_mut(ks, m, bowl_pid).ok_or_else(|| SimError::new("no ingredient bowl"))?;
    set(m, bowl, k.contents, Value::list(vec![Value::obj(source)]))?;
    let target =
        obj_mut(ks, m, target_pid).ok_or_else(|| SimError::new("target container vanished"))?;
    prepend_contents(m, target, new_items)
}
