//! Primitives: transfer-contents, transfer-items, crack, separate-eggs, drain, sift.

use super::common::{
    Lookup, Start, amount_obj, amount_of, arc_by_pid, bound, find_kitchen_entities, mark_used,
    obj_mut, quantity_of, set,
};
use super::errors::LispError;
use crate::base::number::Number;
use crate::simulation::kitchen::{location, take_default};
use crate::simulation::{Call, Model, Primitive, SimError};
use crate::world::{Entity, Pid, Value, edit};
use std::sync::Arc;

pub const PRIMITIVES: &[(&str, &dyn Primitive)] = &[
    ("transfer-contents", &transfer_contents),
    ("transfer-items", &transfer_items),
    ("crack", &crack),
    ("separate-eggs", &separate_eggs),
    ("drain", &drain),
    ("sift", &sift),
];

/// The input-state version of a default container (`old(x)` in the spec): only its identity
/// matters later.
fn old(call: &Call<'_, '_>, pid: Option<Pid>) -> Result<Value, SimError> {
    let ks_in = call.kitchen_in()?;
    Ok(pid
        .and_then(|p| arc_by_pid(ks_in, call.model, p))
        .map(Value::Obj)
        .unwrap_or(Value::Nil))
}

/// Bind output `name` to the object `pid` as it is in the new kitchen state `ks`.
fn bind_now(
    call: &mut Call<'_, '_>,
    name: &str,
    score: f32,
    ks: &Arc<Entity>,
    pid: Pid,
    at: Number,
) -> Result<(), SimError> {
    let found = bound(call.model, ks, pid, LispError::NOT_KITCHEN_ENTITY)?;
    call.bind(name, score, found, Some(at))
}

/// Replace the contents of the object `pid` by `f(old contents)`.
fn replace_contents(
    ks: &mut Arc<Entity>,
    m: &Model,
    pid: Pid,
    f: impl FnOnce(Vec<Value>) -> Vec<Value>,
) -> Result<(), SimError> {
    let e = obj_mut(ks, m, pid).ok_or(LispError::NOT_KITCHEN_ENTITY)?;
    let new = f(e.val(m.k.contents).items().to_vec());
    set(m, e, m.k.contents, Value::list(new))
}

fn contents_of(ks: &Arc<Entity>, m: &Model, pid: Pid) -> Vec<Value> {
    arc_by_pid(ks, m, pid)
        .map(|e| e.val(m.k.contents).items().to_vec())
        .unwrap_or_default()
}

/// `transfer-contents`: everything from the source (on the counter-top) to the front of the
/// target, in reverse order; 20 s after the source is available.
fn transfer_contents(call: &mut Call<'_, '_>) -> Result<(), SimError> {
    let (Start { m, k, mut ks, .. }, at) =
        call.start_after("container-with-input-ingredients", 20)?;
    let given = call.is_bound("target-container");
    let target = if given {
        call.find(&ks, "target-container", Lookup::Kitchen)?
    } else {
        take_default(&mut ks, m, m.class("large-bowl")?, &[])
    };
    let source = call.find(&ks, "container-with-input-ingredients", Lookup::Counter)?;
    let items = source.map(|s| contents_of(&ks, m, s)).unwrap_or_default();
    let (Some(target), Some(source), false) = (target, source, items.is_empty()) else {
        if !given {
            call.fail(&[("target-container", 0.0, None)])?;
        }
        call.fail(&[
            ("container-with-all-ingredients", 1.0, Some(at)),
            ("container-with-rest", 1.0, Some(at)),
            ("quantity", 0.0, None),
            ("unit", 0.0, None),
        ])?;
        return call.finish(ks, at);
    };
    // P7: the quantity output adds raw values whatever their units; the unit is the last item's.
    let mut total = Number::ZERO;
    let mut unit = Value::Nil;
    for item in &items {
        let Some(e) = item.as_obj() else { continue };
        total = total.add(quantity_of(m, e)?.0);
        unit = amount_obj(m, e)
            .map(|a| a.val(k.unit).clone())
            .unwrap_or(Value::Nil);
    }
    replace_contents(&mut ks, m, target, |mut c| {
        for item in &items {
            c.insert(0, item.clone());
        }
        c
    })?;
    replace_contents(&mut ks, m, source, |_| Vec::new())?;
    mark_used(m, &mut ks, target, LispError::NOT_KITCHEN_ENTITY)?;
    if !given {
        let o = old(call, Some(target))?;
        call.bind("target-container", 0.0, o, None)?;
    }
    bind_now(call, "container-with-all-ingredients", 1.0, &ks, target, at)?;
    bind_now(call, "container-with-rest", 1.0, &ks, source, at)?;
    let q = call
        .maker
        .make_with(k.quantity_class, &[(k.value, Value::Num(total))]);
    call.bind("quantity", 0.0, Value::obj(q), None)?;
    call.bind("unit", 0.0, unit, None)?;
    call.finish(ks, at)
}

/// `transfer-items`: a list of portions from the counter-top, or a container's contents, become
/// the destination's contents (replacing them, P8); 120 s.
fn transfer_items(call: &mut Call<'_, '_>) -> Result<(), SimError> {
    let Start { m, k, mut ks, kt } = call.start()?;
    let items = call.input("items-to-transfer")?.clone();
    let given_pattern = call.is_bound("arrangement-pattern");
    let pattern = if given_pattern {
        Value::Obj(call.input_arc("arrangement-pattern")?.clone())
    } else {
        Value::obj(call.maker.make(m.class("side-to-side")?))
    };
    let is_list = m.onto.is_a(items.class, k.list_of_kitchen_entities);
    if !is_list && !m.onto.is_a_name(items.class, "transferable-container") {
        // Neither case applies: the reference binds nothing at all.
        return Ok(());
    }
    let at = if is_list {
        call.ready_at(kt, "destination")?.add(Number::int(120))
    } else {
        kt.add(Number::int(120))
    };
    let destination = call.find(&ks, "destination", Lookup::Kitchen)?;
    let moved = if is_list {
        let ct = location(&ks, m, k.counter_top).ok_or(LispError::NOT_KITCHEN_ENTITY)?;
        let counter = crate::simulation::kitchen::at(&ks, m, &ct)
            .ok_or(LispError::NOT_KITCHEN_ENTITY)?
            .clone();
        match (
            find_kitchen_entities(m, call.maker, &items, &counter)?,
            destination,
        ) {
            (Some(list), Some(dest)) => {
                let moved = list.val(k.items).items().to_vec();
                let pids: Vec<Option<Pid>> =
                    moved.iter().map(|v| v.as_obj().map(|e| e.pid)).collect();
                if let Some(c) = crate::simulation::kitchen::at_mut(&mut ks, m, &ct) {
                    let rest: Vec<Value> = c
                        .val(k.contents)
                        .items()
                        .iter()
                        .filter(|v| !pids.contains(&v.as_obj().map(|e| e.pid)))
                        .cloned()
                        .collect();
                    set(m, c, k.contents, Value::list(rest))?;
                }
                Some((dest, moved))
            }
            _ => None,
        }
    } else {
        match (
            call.find(&ks, "items-to-transfer", Lookup::Kitchen)?,
            destination,
        ) {
            (Some(src), Some(dest)) => {
                let moved = contents_of(&ks, m, src);
                replace_contents(&mut ks, m, src, |_| Vec::new())?;
                Some((dest, moved))
            }
            _ => None,
        }
    };
    let transferred = match moved {
        Some((dest, moved)) => {
            let d = obj_mut(&mut ks, m, dest).ok_or(LispError::NOT_KITCHEN_ENTITY)?;
            set(m, d, k.used, Value::T)?;
            set(m, d, k.contents, Value::list(moved))?;
            set(m, d, k.arrangement, pattern.clone())?;
            bound(m, &ks, dest, LispError::NOT_KITCHEN_ENTITY)?
        }
        None => call.failed(),
    };
    if !given_pattern {
        call.bind("arrangement-pattern", 0.0, pattern, None)?;
    }
    call.bind("transferred", 1.0, transferred, Some(at))?;
    call.finish(ks, at)
}

/// kt + 5 s per entry of the eggs container (as bound, not as found).
fn eggs_time(call: &Call<'_, '_>, kt: Number) -> Result<Number, SimError> {
    let n = call.input("eggs")?.val(call.model.k.contents).items().len();
    Ok(kt.add(Number::int(5 * n as i64)))
}

/// `crack`: every entry of the eggs container yields ⌊value⌋ fresh 50 g whole eggs (no check
/// that it is an egg, P9) and as many shells; the eggs themselves are then removed.
fn crack(call: &mut Call<'_, '_>) -> Result<(), SimError> {
    let Start { m, k, mut ks, kt } = call.start()?;
    let at = eggs_time(call, kt)?;
    let eggs_failed = call.is_failed(call.input("eggs")?);
    let given = call.is_bound("target-container");
    let (target, ok) = if given {
        let failed = eggs_failed || call.is_failed(call.input("target-container")?);
        (
            call.find(&ks, "target-container", Lookup::Kitchen)?,
            !failed,
        )
    } else {
        let t = take_default(&mut ks, m, m.class("medium-bowl")?, &[]);
        (t, t.is_some() && !eggs_failed)
    };
    let eggs = call.find(&ks, "eggs", Lookup::Kitchen)?;
    if !ok {
        call.fail(&[("container-with-cracked-eggs", 1.0, Some(at))])?;
        if !given {
            call.fail(&[("target-container", 0.0, None)])?;
        }
        return call.finish(ks, at);
    }
    let (Some(target), Some(eggs)) = (target, eggs) else {
        return Err(LispError::CONTENTS_OF_NIL.into());
    };
    let whole_egg = m.class("whole-egg")?;
    let shell = m.class("egg-shell")?;
    let egg = m.class("egg")?;
    let cracked = m.slot("cracked")?;
    let mut new_eggs = Vec::new();
    let mut shells = Vec::new();
    for entry in contents_of(&ks, m, eggs) {
        let Some(e) = entry.as_obj() else { continue };
        let n = quantity_of(m, e)?.0;
        let mut i = Number::int(1);
        while i.num_cmp(&n) != std::cmp::Ordering::Greater {
            let a = super::common::amount(m, call.maker, Number::int(50), k.g);
            new_eggs.push(Value::obj(
                call.maker.make_with(whole_egg, &[(k.amount, a)]),
            ));
            let mut s = call.maker.make(shell);
            set(m, &mut s, cracked, Value::T)?;
            shells.push(Value::obj(s));
            i = i.add(Number::int(1));
        }
    }
    replace_contents(&mut ks, m, target, |mut c| {
        c.extend(new_eggs);
        c
    })?;
    replace_contents(&mut ks, m, eggs, |mut c| {
        c.extend(shells);
        c.retain(|v| !v.as_obj().is_some_and(|e| m.onto.is_a(e.class, egg)));
        c
    })?;
    if !given {
        mark_used(m, &mut ks, target, LispError::NOT_KITCHEN_ENTITY)?;
        let o = old(call, Some(target))?;
        call.bind("target-container", 0.0, o, None)?;
    }
    bind_now(call, "container-with-cracked-eggs", 1.0, &ks, target, at)?;
    call.finish(ks, at)
}

/// `separate-eggs`: every entry gives 0.36 of its value as yolk and 0.64 as white (same unit);
/// whole eggs are then removed from the eggs container.
fn separate_eggs(call: &mut Call<'_, '_>) -> Result<(), SimError> {
    let Start { m, k, mut ks, kt } = call.start()?;
    let given = call.is_bound("egg-separator");
    let eggs = call.find(&ks, "eggs", Lookup::Kitchen)?;
    let (whites, yolks, separator) = if given {
        (
            call.find(&ks, "target-container-for-whites", Lookup::Kitchen)?,
            call.find(&ks, "target-container-for-yolks", Lookup::Kitchen)?,
            call.find(&ks, "egg-separator", Lookup::Counter)?,
        )
    } else {
        let bowl = m.class("medium-bowl")?;
        let w = take_default(&mut ks, m, bowl, &[]);
        let y = take_default(&mut ks, m, bowl, &w.into_iter().collect::<Vec<_>>());
        let s = take_default(&mut ks, m, m.class("egg-separator")?, &[]);
        (w, y, s)
    };
    let at = eggs_time(call, kt)?;
    let (Some(eggs), Some(whites), Some(yolks), Some(separator)) = (eggs, whites, yolks, separator)
    else {
        call.fail(&[
            ("container-with-egg-yolks", 1.0, Some(at)),
            ("container-with-egg-whites", 1.0, Some(at)),
        ])?;
        if !given {
            call.fail(&[
                ("target-container-for-yolks", 0.0, Some(at)),
                ("target-container-for-whites", 0.0, Some(at)),
                ("egg-separator", 0.0, Some(at)),
            ])?;
        }
        return call.finish(ks, at);
    };
    let (yolk_class, white_class, whole_egg) = (
        m.class("egg-yolk")?,
        m.class("egg-white")?,
        m.class("whole-egg")?,
    );
    let mut new_yolks = Vec::new();
    let mut new_whites = Vec::new();
    for entry in contents_of(&ks, m, eggs) {
        let Some(e) = entry.as_obj() else { continue };
        let (v, _) = quantity_of(m, e)?;
        let unit = amount_obj(m, e)
            .and_then(|a| a.val(k.unit).as_obj())
            .ok_or(LispError::NOT_KITCHEN_ENTITY)?
            .clone();
        for (share, class, out) in [
            (0.36, yolk_class, &mut new_yolks),
            (0.64, white_class, &mut new_whites),
        ] {
            let q = Arc::new(call.maker.make_with(
                k.quantity_class,
                &[(k.value, Value::Num(Number::float(share).mul(v)))],
            ));
            let u = Arc::new(call.maker.copy(&unit));
            let a = Value::obj(amount_of(m, call.maker, &q, &u));
            out.push(Value::obj(call.maker.make_with(class, &[(k.amount, a)])));
        }
    }
    replace_contents(&mut ks, m, yolks, |mut c| {
        c.extend(new_yolks);
        c
    })?;
    replace_contents(&mut ks, m, whites, |mut c| {
        c.extend(new_whites);
        c
    })?;
    replace_contents(&mut ks, m, eggs, |mut c| {
        c.retain(|v| !v.as_obj().is_some_and(|e| m.onto.is_a(e.class, whole_egg)));
        c
    })?;
    for p in [yolks, whites, separator] {
        mark_used(m, &mut ks, p, LispError::NOT_KITCHEN_ENTITY)?;
    }
    bind_now(call, "container-with-egg-yolks", 1.0, &ks, yolks, at)?;
    bind_now(call, "container-with-egg-whites", 1.0, &ks, whites, at)?;
    if !given {
        let (y, w) = (old(call, Some(yolks))?, old(call, Some(whites))?);
        call.bind("target-container-for-yolks", 0.0, y, Some(at))?;
        call.bind("target-container-for-whites", 0.0, w, Some(at))?;
        bind_now(call, "egg-separator", 0.0, &ks, separator, at)?;
    }
    call.finish(ks, at)
}

/// `drain`: liquids (and liquid parts of heterogeneous mixtures) go to a fresh medium bowl,
/// the rest stays; a heterogeneous mixture without liquid part is dropped (P9). 60 s.
fn drain(call: &mut Call<'_, '_>) -> Result<(), SimError> {
    let (Start { m, k, mut ks, .. }, at) = call.start_after("container-with-ingredients", 60)?;
    let container = call.find(&ks, "container-with-ingredients", Lookup::Counter)?;
    let given = call.is_bound("draining-tool");
    let tool = if given {
        call.find(&ks, "draining-tool", Lookup::Counter)?
    } else {
        take_default(&mut ks, m, m.class("colander")?, &[])
    };
    let bowl = take_default(&mut ks, m, m.class("medium-bowl")?, &[]);
    let (Some(tool), Some(bowl), Some(container)) = (tool, bowl, container) else {
        call.fail(&[
            ("drained-ingredient", 1.0, Some(at)),
            ("liquid-rests", 1.0, Some(at)),
        ])?;
        if !given {
            call.fail(&[("draining-tool", 0.0, Some(at))])?;
        }
        return call.finish(ks, at);
    };
    let liquid = m.class("liquid")?;
    let liquefiable = m.class("liquefiable")?;
    let hetero = m.class("heterogeneous-mixture")?;
    let is_liquid_slot = m.slot("is-liquid")?;
    let is_liquid = |e: &Entity| {
        m.onto.is_a(e.class, liquid)
            || (m.onto.is_a(e.class, liquefiable) && e.val(is_liquid_slot).truthy())
    };
    let (mut liquids, mut solids) = (Vec::new(), Vec::new());
    for item in contents_of(&ks, m, container) {
        let Some(e) = item.as_obj() else { continue };
        if is_liquid(e) {
            liquids.insert(0, item.clone());
        } else if m.onto.is_a(e.class, hetero) {
            let comps = e.val(k.components).items();
            if comps.iter().filter_map(Value::as_obj).any(is_liquid) {
                let (total, _) = quantity_of(m, e)?;
                let unit = amount_obj(m, e)
                    .map(|a| a.val(k.unit).clone())
                    .unwrap_or(Value::Nil);
                for c in comps.iter().filter_map(Value::as_obj) {
                    let (frac, _) = quantity_of(m, c)?;
                    let mut c = c.clone();
                    let q = call
                        .maker
                        .make_with(k.quantity_class, &[(k.value, Value::Num(frac.mul(total)))]);
                    let mut a = amount_obj(m, &c)
                        .cloned()
                        .ok_or(LispError::NOT_KITCHEN_ENTITY)?;
                    set(m, &mut a, k.quantity, Value::obj(q))?;
                    set(m, &mut a, k.unit, unit.clone())?;
                    set(m, &mut c, k.amount, Value::obj(a))?;
                    let liquid_part = is_liquid(&c);
                    let c = Value::obj(c);
                    if liquid_part {
                        liquids.insert(0, c)
                    } else {
                        solids.insert(0, c)
                    }
                }
            }
        } else {
            solids.insert(0, item.clone());
        }
    }
    replace_contents(&mut ks, m, bowl, |_| liquids)?;
    replace_contents(&mut ks, m, container, |_| solids)?;
    mark_used(m, &mut ks, tool, LispError::NOT_KITCHEN_ENTITY)?;
    mark_used(m, &mut ks, bowl, LispError::NOT_KITCHEN_ENTITY)?;
    bind_now(call, "drained-ingredient", 1.0, &ks, container, at)?;
    bind_now(call, "liquid-rests", 1.0, &ks, bowl, at)?;
    if !given {
        bind_now(call, "draining-tool", 0.0, &ks, tool, at)?;
    }
    call.finish(ks, at)
}

/// `sift`: the source's contents go to the target (replacing its contents unless both the
/// target and the sift are given, P8) and are marked sifted. 90 s, 60 s with everything given.
fn sift(call: &mut Call<'_, '_>) -> Result<(), SimError> {
    let Start { m, mut ks, kt, .. } = call.start()?;
    let given_target = call.is_bound("target-container");
    let given_sift = call.is_bound("sifting-tool");
    let both = given_target && given_sift;
    let step = Number::int(if both { 60 } else { 90 });
    let at = call
        .ready_at(kt, "container-with-ingredients-to-be-sifted")?
        .add(step);
    let source = call.find(
        &ks,
        "container-with-ingredients-to-be-sifted",
        Lookup::Kitchen,
    )?;
    let target = if given_target {
        call.find(&ks, "target-container", Lookup::Kitchen)?
    } else {
        take_default(&mut ks, m, m.class("large-bowl")?, &[])
    };
    let sift = if given_sift {
        call.find(&ks, "sifting-tool", Lookup::Kitchen)?
    } else {
        take_default(&mut ks, m, m.class("sift")?, &[])
    };
    if !given_target {
        let o = old(call, target)?;
        call.bind("target-container", 0.0, o, None)?;
    }
    let (Some(source), Some(target), Some(sift)) = (source, target, sift) else {
        call.fail(&[("container-with-sifted-contents", 1.0, Some(at))])?;
        if !given_sift {
            call.fail(&[("sifting-tool", 1.0, Some(at))])?;
        }
        return call.finish(ks, at);
    };
    let moved = contents_of(&ks, m, source);
    let siftable = m.class("siftable")?;
    let sifted = m.slot("sifted")?;
    let mut error = None;
    replace_contents(&mut ks, m, target, |c| {
        let mut all = if both { c } else { Vec::new() };
        all.extend(moved);
        for v in all.iter_mut() {
            let Value::Obj(e) = v else { continue };
            if m.onto.is_a(e.class, siftable)
                && let Err(err) = set(m, edit(e), sifted, Value::T)
            {
                error = Some(err);
            }
        }
        all
    })?;
    if let Some(err) = error {
        return Err(err);
    }
    mark_used(m, &mut ks, target, LispError::NOT_KITCHEN_ENTITY)?;
    mark_used(m, &mut ks, sift, LispError::NOT_KITCHEN_ENTITY)?;
    replace_contents(&mut ks, m, source, |_| Vec::new())?;
    bind_now(call, "container-with-sifted-contents", 1.0, &ks, target, at)?;
    if !given_sift {
        bind_now(call, "sifting-tool", 1.0, &ks, sift, at)?;
    }
    call.finish(ks, at)
}
