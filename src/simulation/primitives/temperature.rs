//! Primitives: bake, boil, fry, bring-to-temperature, leave-for-time, refrigerate, preheat-oven,
//! melt.
//!
//! Most of these are passive: the object becomes available much later than the kitchen time
//! advances (README §4, quirks P1/P2).

use super::common::{
    Lookup, Start, amount, amount_of, arc_at, arc_by_pid, bound, change_temperature, obj_mut, set,
};
use super::errors::LispError;
use crate::base::number::Number;
use crate::simulation::kitchen::location;
use crate::simulation::{Call, Model, Primitive, SimError};
use crate::world::{Entity, Pid, Value, edit};
use std::sync::Arc;

pub const PRIMITIVES: &[(&str, &dyn Primitive)] = &[
    ("bake", &bake),
    ("boil", &boil),
    ("fry", &fry),
    ("bring-to-temperature", &bring_to_temperature),
    ("leave-for-time", &leave_for_time),
    ("refrigerate", &refrigerate),
    ("preheat-oven", &preheat_oven),
    ("melt", &melt),
];

/// An amount object made of two bound inputs (quantity and unit), as the reference builds one.
fn amount_from(call: &mut Call<'_, '_>, quantity: &str, unit: &str) -> Result<Entity, SimError> {
    let (q, u) = (
        call.input_arc(quantity)?.clone(),
        call.input_arc(unit)?.clone(),
    );
    Ok(amount_of(call.model, call.maker, &q, &u))
}

/// A kitchen location of the state (oven, fridge, stove, microwave) as a value.
fn place(ks: &Arc<Entity>, m: &Model, class: &str) -> Result<(Pid, Value), SimError> {
    let path = location(ks, m, m.class(class)?)
        .ok_or_else(|| SimError::new(format!("the kitchen has no {class}")))?;
    let e = arc_at(ks, m, &path).ok_or(LispError::CONTENTS_OF_NIL)?;
    Ok((e.pid, Value::Obj(e)))
}

/// Bind the defaulted tool `arg` to the kitchen's `class` (oven, fridge, microwave) as it is in
/// `ks`.
fn bind_place(
    call: &mut Call<'_, '_>,
    arg: &str,
    ks: &Arc<Entity>,
    class: &str,
    at: Number,
) -> Result<(), SimError> {
    let (_, found) = place(ks, call.model, class)?;
    call.bind(arg, 0.0, found, Some(at))
}

/// Set `slot` of every content of the object `pid` that is an instance of `only` (all when
/// `None`), failing like the reference when a content lacks the slot.
fn set_on_contents(
    ks: &mut Arc<Entity>,
    m: &Model,
    pid: Pid,
    only: Option<crate::world::ontology::ClassId>,
    slots: &[(crate::world::ontology::SlotId, Value)],
) -> Result<(), SimError> {
    let c = obj_mut(ks, m, pid).ok_or(LispError::CONTENTS_OF_NIL)?;
    let Some(list) = c.list_mut(m.k.contents) else {
        return Ok(());
    };
    for item in list.iter_mut() {
        let Value::Obj(e) = item else { continue };
        if only.is_some_and(|cl| !m.onto.is_a(e.class, cl)) {
            continue;
        }
        let e = edit(e);
        for (s, v) in slots {
            set(m, e, *s, v.clone())?;
        }
    }
    c.tidy_list(m.k.contents);
    Ok(())
}

/// `bake`: contents take the oven temperature and are baked (they never enter the oven). The
/// time unit is ignored: always minutes (P1). Object kt∨thing(∨oven) + 60·t, kitchen +30.
fn bake(call: &mut Call<'_, '_>) -> Result<(), SimError> {
    let Start { m, k, mut ks, kt } = call.start()?;
    let oven_given = call.is_bound("oven-to-bake-in");
    let temp_given = call.is_bound("target-temperature-quantity");
    let ready = call.ready_at(kt, "thing-to-bake")?;
    let ks_at = ready.add(Number::int(30));
    let start = if oven_given {
        let oven_at = call
            .available_at("oven-to-bake-in")?
            .ok_or(LispError::NIL_NOT_REAL)?;
        ready.max(oven_at)
    } else {
        ready
    };
    let at = start.add(call.number("time-to-bake-quantity")?.mul(Number::int(60)));
    let thing = call.find(&ks, "thing-to-bake", Lookup::Kitchen)?;
    let thing_failed = call.is_failed(call.input("thing-to-bake")?);
    let baked = m.slot("baked")?;

    // The oven and the temperature the contents take.
    let oven = if oven_given {
        call.find(&ks, "oven-to-bake-in", Lookup::Kitchen)?
    } else {
        Some(place(&ks, m, "oven")?.0)
    };
    let temperature = if temp_given {
        Value::obj(amount_from(
            call,
            "target-temperature-quantity",
            "target-temperature-unit",
        )?)
    } else {
        let oven = oven.ok_or(LispError::nil("TEMPERATURE"))?;
        arc_by_pid(&ks, m, oven)
            .map(|o| o.val(k.temperature).clone())
            .unwrap_or(Value::Nil)
    };
    if !temp_given {
        // Binding the quantity and unit of an oven never preheated fails in the reference.
        let t = temperature.as_obj().ok_or(LispError::nil("QUANTITY"))?;
        let (q, u) = (t.val(k.quantity).clone(), t.val(k.unit).clone());
        call.bind("target-temperature-quantity", 0.0, q, None)?;
        call.bind("target-temperature-unit", 0.0, u, None)?;
    }
    // Case 1 succeeds when the thing is found; cases 2 and 3 when it is not a failed object
    // (a real thing that is not found makes the reference fail).
    let ok = if oven_given {
        !thing_failed
    } else {
        thing.is_some()
    };
    if ok {
        let thing = thing.ok_or(LispError::CONTENTS_OF_NIL)?;
        if temp_given {
            let oven = oven.ok_or(LispError::nil("(SETF TEMPERATURE)"))?;
            let o = obj_mut(&mut ks, m, oven).ok_or(LispError::CONTENTS_OF_NIL)?;
            set(m, o, k.temperature, temperature.clone())?;
        }
        set_on_contents(
            &mut ks,
            m,
            thing,
            None,
            &[(k.temperature, temperature), (baked, Value::T)],
        )?;
        let found = bound(m, &ks, thing, LispError::CONTENTS_OF_NIL)?;
        call.bind("thing-baked", 1.0, found, Some(at))?;
    } else {
        call.fail(&[("thing-baked", 1.0, Some(at))])?;
    }
    if !oven_given {
        bind_place(call, "oven-to-bake-in", &ks, "oven", at)?;
    }
    call.finish(ks, ks_at)
}

/// The stove temperature of a heating mode (`convert-to-temperature`).
fn mode_temperature(call: &mut Call<'_, '_>, mode: &Entity) -> Result<Value, SimError> {
    let m = call.model;
    let degrees = match m.onto.class_name(mode.class) {
        "low-heat" => 110,
        "medium-heat" => 150,
        "medium-high-heat" => 175,
        "high-heat" => 200,
        _ => return Ok(Value::Nil),
    };
    Ok(amount(
        m,
        call.maker,
        Number::int(degrees),
        m.k.degrees_celsius,
    ))
}

/// `fry`: always 30 minutes on the kitchen's stove (P1); fryable contents take the stove
/// temperature. Only heatable containers (pots, pans) can be fried in.
fn fry(call: &mut Call<'_, '_>) -> Result<(), SimError> {
    let Start { m, k, mut ks, kt } = call.start()?;
    let ready = call.ready_at(kt, "thing-to-fry")?;
    let at = ready.add(Number::int(1800));
    let ks_at = ready.add(Number::int(30));
    let (minutes, minute) = default_time(call, 30, "minute")?;
    let mode_given = call.is_bound("heating-mode");
    let mode = if mode_given {
        call.input("heating-mode")?.clone()
    } else {
        call.maker.make(m.class("medium-heat")?)
    };
    let (stove, _) = place(&ks, m, "stove")?;
    let thing = call.find(&ks, "thing-to-fry", Lookup::Kitchen)?;
    let heatable = m.class("heatable-container")?;
    let thing =
        thing.filter(|&p| arc_by_pid(&ks, m, p).is_some_and(|e| m.onto.is_a(e.class, heatable)));
    let (fried_obj, stove_out) = match thing {
        Some(thing) => {
            let t = mode_temperature(call, &mode)?;
            let s = obj_mut(&mut ks, m, stove).ok_or(LispError::CONTENTS_OF_NIL)?;
            set(m, s, k.temperature, t.clone())?;
            let fried = m.slot("fried")?;
            let fryable = m.class("fryable")?;
            set_on_contents(
                &mut ks,
                m,
                thing,
                Some(fryable),
                &[(k.temperature, t), (fried, Value::T)],
            )?;
            (
                bound(m, &ks, thing, LispError::CONTENTS_OF_NIL)?,
                bound(m, &ks, stove, LispError::CONTENTS_OF_NIL)?,
            )
        }
        None => (call.failed(), call.failed()),
    };
    call.bind("thing-fried", 1.0, fried_obj, Some(at))?;
    call.bind("stove-to-fry-on", 0.0, stove_out, Some(at))?;
    call.bind("time-to-fry-quantity", 0.0, minutes, None)?;
    call.bind("time-to-fry-unit", 0.0, minute, None)?;
    if !mode_given {
        call.bind("heating-mode", 0.0, Value::obj(mode), None)?;
    }
    call.finish(ks, ks_at)
}

/// `bring-to-temperature`: contents of a container on the counter-top take the given (or the
/// room) temperature; object kt + 800, kitchen time unchanged (P2).
fn bring_to_temperature(call: &mut Call<'_, '_>) -> Result<(), SimError> {
    let Start { k, mut ks, kt, .. } = call.start()?;
    let at = kt.add(Number::int(800));
    let given = call.is_bound("temperature-quantity");
    let temperature = if given {
        amount_from(call, "temperature-quantity", "temperature-unit")?
    } else {
        let t = ks.val(k.temperature).as_obj().cloned();
        t.ok_or(LispError::nil("QUANTITY"))?
    };
    let container = call.find(&ks, "container-with-ingredients", Lookup::Counter)?;
    let out = match container {
        Some(c) => temper(call, &mut ks, c, &temperature)?,
        None => call.failed(),
    };
    if !given {
        call.bind(
            "temperature-quantity",
            0.0,
            temperature.val(k.quantity).clone(),
            None,
        )?;
        call.bind(
            "temperature-unit",
            0.0,
            temperature.val(k.unit).clone(),
            None,
        )?;
    }
    finish_tempered(call, ks, out, at, kt)
}

/// The contents of the container `pid` take `temperature` (see [`change_temperature`]);
/// returns the container as it now is.
fn temper(
    call: &mut Call<'_, '_>,
    ks: &mut Arc<Entity>,
    pid: Pid,
    temperature: &Entity,
) -> Result<Value, SimError> {
    let m = call.model;
    let e = obj_mut(ks, m, pid).ok_or(LispError::CONTENTS_OF_NIL)?;
    change_temperature(m, call.maker, e, temperature)?;
    bound(m, ks, pid, LispError::CONTENTS_OF_NIL)
}

/// Bind the container whose contents changed temperature, available at `at`, and the new
/// kitchen state at the unchanged kitchen time `kt` (P2).
fn finish_tempered(
    call: &mut Call<'_, '_>,
    ks: Arc<Entity>,
    out: Value,
    at: Number,
    kt: Number,
) -> Result<(), SimError> {
    call.bind(
        "container-with-ingredients-at-temperature",
        1.0,
        out,
        Some(at),
    )?;
    call.finish(ks, kt)
}

/// A default time the reference binds: a fresh quantity of `value` and a fresh `unit`.
fn default_time(
    call: &mut Call<'_, '_>,
    value: i64,
    unit: &str,
) -> Result<(Value, Value), SimError> {
    let k = &call.model.k;
    let q = call.maker.make_with(
        k.quantity_class,
        &[(k.value, Value::Num(Number::int(value)))],
    );
    let u = call.maker.make(call.model.class(unit)?);
    Ok((Value::obj(q), Value::obj(u)))
}

/// Seconds of a time amount: hours counted correctly, anything else as minutes.
fn seconds(call: &Call<'_, '_>, quantity: Number, unit: &Entity) -> Number {
    let per = if call.model.onto.class_name(unit.class) == "hour" {
        3600
    } else {
        60
    };
    quantity.mul(Number::int(per))
}

/// `leave-for-time`: contents cool by the reference's formula; object kt + the time, kitchen
/// time unchanged.
fn leave_for_time(call: &mut Call<'_, '_>) -> Result<(), SimError> {
    let Start { mut ks, kt, .. } = call.start()?;
    let time = amount_from(call, "cooling-quantity", "cooling-unit")?;
    let at = kt.add(seconds(
        call,
        call.number("cooling-quantity")?,
        call.input("cooling-unit")?,
    ));
    let out = match call.find(&ks, "container-with-ingredients", Lookup::Counter)? {
        Some(c) => temper(call, &mut ks, c, &time)?,
        None => call.failed(),
    };
    finish_tempered(call, ks, out, at, kt)
}

/// `refrigerate`: contents take the fridge's temperature; the container stays where it is.
/// The time is quadratic in the given value (P1); default 1 hour.
fn refrigerate(call: &mut Call<'_, '_>) -> Result<(), SimError> {
    let Start { m, mut ks, kt, .. } = call.start()?;
    let ks_in = ks.clone();
    let k = &m.k;
    let time_given = call.is_bound("cooling-quantity");
    let fridge_given = call.is_bound("refrigerator");
    let at = if time_given {
        let v = call.number("cooling-quantity")?;
        kt.add(v.mul(seconds(call, v, call.input("cooling-unit")?)))
    } else {
        kt.add(Number::int(3600))
    };
    let container = call.find(&ks, "container-with-ingredients", Lookup::Counter)?;
    let fridge = if fridge_given {
        call.find(&ks, "refrigerator", Lookup::Kitchen)?
            .and_then(|p| arc_by_pid(&ks, m, p))
    } else {
        Some(place(&ks_in, m, "fridge")?.1).and_then(|v| match v {
            Value::Obj(f) => Some(f),
            _ => None,
        })
    };
    let out = match (container, &fridge) {
        (Some(c), Some(f)) => {
            let t = f.val(k.temperature).as_obj().cloned();
            let t = t.ok_or(LispError::nil("UNIT"))?;
            temper(call, &mut ks, c, &t)?
        }
        // Case 3 binds whatever it found, NIL included (the variable then stays unbound).
        (c, _) if fridge_given => match c {
            Some(c) => bound(m, &ks, c, LispError::CONTENTS_OF_NIL)?,
            None => Value::Nil,
        },
        _ => call.failed(),
    };
    if !fridge_given {
        bind_place(call, "refrigerator", &ks_in, "fridge", kt)?;
    }
    if !time_given {
        let (q, h) = default_time(call, 1, "hour")?;
        call.bind("cooling-quantity", 0.0, q, None)?;
        call.bind("cooling-unit", 0.0, h, None)?;
    }
    finish_tempered(call, ks, out, at, kt)
}

/// `preheat-oven`: the oven takes the temperature; oven kt + 615, kitchen kt + 15.
fn preheat_oven(call: &mut Call<'_, '_>) -> Result<(), SimError> {
    let Start { m, mut ks, kt, .. } = call.start()?;
    let ks_in = ks.clone();
    let k = &m.k;
    let (oven_at, ks_at) = (kt.add(Number::int(615)), kt.add(Number::int(15)));
    let temperature = Value::obj(amount_from(call, "quantity", "unit")?);
    let given = call.is_bound("oven");
    let oven = if given {
        call.find(&ks, "oven", Lookup::Kitchen)?
    } else {
        Some(place(&ks, m, "oven")?.0)
    };
    let out = match oven {
        Some(o) => {
            let e = obj_mut(&mut ks, m, o).ok_or(LispError::CONTENTS_OF_NIL)?;
            set(m, e, k.temperature, temperature)?;
            bound(m, &ks, o, LispError::CONTENTS_OF_NIL)?
        }
        None => call.failed(),
    };
    call.bind("preheated-oven", 1.0, out, Some(oven_at))?;
    if !given {
        bind_place(call, "oven", &ks_in, "oven", kt)?;
    }
    call.finish(ks, ks_at)
}

/// `melt`: meltable contents are melted (the microwave is the default tool, never marked used;
/// a given tool is not even looked up). 60 s.
fn melt(call: &mut Call<'_, '_>) -> Result<(), SimError> {
    let (Start { m, mut ks, .. }, at) = call.start_after("container-with-input-ingredients", 60)?;
    let given = call.is_bound("melting-tool");
    let failed = call.is_failed(call.input("container-with-input-ingredients")?)
        || (given && call.is_failed(call.input("melting-tool")?));
    let out = if failed {
        call.failed()
    } else {
        let c = call
            .find(&ks, "container-with-input-ingredients", Lookup::Counter)?
            .ok_or(LispError::CONTENTS_OF_NIL)?;
        let melted = m.slot("melted")?;
        set_on_contents(
            &mut ks,
            m,
            c,
            Some(m.class("meltable")?),
            &[(melted, Value::T)],
        )?;
        bound(m, &ks, c, LispError::CONTENTS_OF_NIL)?
    };
    call.bind("container-with-melted-ingredients", 1.0, out, Some(at))?;
    if !given {
        bind_place(call, "melting-tool", &ks, "microwave", at)?;
    }
    call.finish(ks, at)
}

/// `boil`: spices and liquids become the boiling liquid (a boiled homogeneous mixture unless it
/// is a single liquid), every other content is boiled in it; all take the stove temperature.
/// The time unit is never taken as hours (P1): object m(thing) + 60·t (default 30), kitchen +30.
/// Only case 1 insists on a heatable container; a container without liquid or spice makes the
/// reference fail.
fn boil(call: &mut Call<'_, '_>) -> Result<(), SimError> {
    let Start { m, k, mut ks, kt } = call.start()?;
    let stove_given = call.is_bound("stove-to-boil-on");
    let time_given = call.is_bound("time-to-boil-quantity");
    let mode_given = call.is_bound("heating-mode");
    let ready = call.ready_at(kt, "thing-to-boil")?;
    let minutes = if time_given {
        call.number("time-to-boil-quantity")?
    } else {
        Number::int(30)
    };
    let at = ready.add(minutes.mul(Number::int(60)));
    let ks_at = ready.add(Number::int(30));
    let mode = if mode_given {
        call.input("heating-mode")?.clone()
    } else {
        call.maker.make(m.class("medium-heat")?)
    };
    let stove = if stove_given {
        call.find(&ks, "stove-to-boil-on", Lookup::Kitchen)?
    } else {
        Some(place(&ks, m, "stove")?.0)
    };
    let mut thing = call.find(&ks, "thing-to-boil", Lookup::Kitchen)?;
    // Case 1 (time given, stove not) only boils in pots and pans.
    if time_given && !stove_given {
        let heatable = m.class("heatable-container")?;
        thing = thing
            .filter(|&p| arc_by_pid(&ks, m, p).is_some_and(|e| m.onto.is_a(e.class, heatable)));
    }
    let boiled_out = match (thing, stove) {
        (Some(thing), Some(stove)) => {
            let t = mode_temperature(call, &mode)?;
            let s = obj_mut(&mut ks, m, stove).ok_or(LispError::CONTENTS_OF_NIL)?;
            set(m, s, k.temperature, t.clone())?;
            boil_contents(call, &mut ks, thing, &t)?;
            bound(m, &ks, thing, LispError::CONTENTS_OF_NIL)?
        }
        _ => call.failed(),
    };
    call.bind("thing-boiled", 1.0, boiled_out, Some(at))?;
    if !stove_given {
        // Case 4 reports a failed stove on failure, case 1 the kitchen's stove.
        let s = match (thing, stove, time_given) {
            (None, _, false) => call.failed(),
            (_, Some(s), _) => bound(m, &ks, s, LispError::CONTENTS_OF_NIL)?,
            _ => call.failed(),
        };
        call.bind("stove-to-boil-on", 0.0, s, Some(at))?;
    }
    if !mode_given {
        call.bind("heating-mode", 0.0, Value::obj(mode), None)?;
    }
    if !time_given {
        let (q, u) = default_time(call, 30, "minute")?;
        call.bind("time-to-boil-quantity", 0.0, q, None)?;
        call.bind("time-to-boil-unit", 0.0, u, None)?;
    }
    call.finish(ks, ks_at)
}

/// The effect of `boil` on the contents of the container `pid`, at stove temperature `t`.
fn boil_contents(
    call: &mut Call<'_, '_>,
    ks: &mut Arc<Entity>,
    pid: Pid,
    t: &Value,
) -> Result<(), SimError> {
    let m = call.model;
    let k = &m.k;
    let (spice, liquid) = (m.class("spice")?, m.class("liquid")?);
    let (boiled, boiled_with, is_liquid) = (
        m.slot("boiled")?,
        m.slot("boiled-with")?,
        m.slot("is-liquid")?,
    );
    let all = arc_by_pid(ks, m, pid)
        .map(|c| c.val(k.contents).items().to_vec())
        .unwrap_or_default();
    let of = |class| -> Vec<Value> {
        all.iter()
            .filter(|v| v.as_obj().is_some_and(|e| m.onto.is_a(e.class, class)))
            .cloned()
            .collect()
    };
    let (spices, liquids) = (of(spice), of(liquid));
    let mut boiling: Vec<Value> = spices.iter().chain(&liquids).cloned().collect();
    let pids: Vec<Option<Pid>> = boiling.iter().map(|v| v.as_obj().map(|e| e.pid)).collect();
    // `set-difference` (SBCL) collects the remaining contents in reverse order.
    let mut main: Vec<Value> = all
        .iter()
        .filter(|v| !pids.contains(&v.as_obj().map(|e| e.pid)))
        .cloned()
        .collect();
    if !boiling.is_empty() {
        main.reverse();
    }
    let liquid_obj = if spices.is_empty() && liquids.len() == 1 {
        let Some(Value::Obj(l)) = liquids.first() else {
            return Err(LispError::CONTENTS_OF_NIL.into());
        };
        let mut l = (**l).clone();
        set(m, &mut l, boiled, Value::T)?;
        set(m, &mut l, k.temperature, t.clone())?;
        l
    } else {
        let homogeneous = m.class("homogeneous-mixture")?;
        let mut mix =
            super::common::make_mixture(m, call.maker, &boiling, homogeneous, Some(boiled))?;
        if boiling.is_empty() {
            // The reference then marks the first liquid, which does not exist.
            return Err(LispError::CalledWithArguments {
                generic: "(SETF BOILED)",
                arguments: "(T NIL)",
            }
            .into());
        }
        set(m, &mut mix, is_liquid, Value::T)?;
        set(m, &mut mix, k.temperature, t.clone())?;
        mix
    };
    boiling.clear();
    let liquid_obj = Value::obj(liquid_obj);
    for v in main.iter_mut() {
        if let Value::Obj(e) = v {
            let e = edit(e);
            set(m, e, boiled, Value::T)?;
            set(m, e, k.temperature, t.clone())?;
            set(m, e, boiled_with, liquid_obj.clone())?;
        }
    }
    main.push(liquid_obj);
    let c = obj_mut(ks, m, pid).ok_or(LispError::CONTENTS_OF_NIL)?;
    set(m, c, k.contents, Value::list(main))
}
