//! Primitives: bake, fry, bring-to-temperature, leave-for-time, refrigerate, preheat-oven, melt.
//! (boil is not implemented yet.)
//!
//! Most of these are passive: the object becomes available much later than the kitchen time
//! advances (README §4, quirks P1/P2).

use super::common::{amount, amount_of, arc_at, arc_by_pid, change_temperature, obj_mut, set};
use crate::number::Number;
use crate::simulation::kitchen::{find_in_kitchen, find_on_counter, location};
use crate::simulation::{Call, Model, Primitive, SimError};
use crate::world::{Entity, Pid, Value};
use std::sync::Arc;

pub const PRIMITIVES: &[(&str, &dyn Primitive)] = &[
    ("bake", &Bake),
    ("fry", &Fry),
    ("bring-to-temperature", &BringToTemperature),
    ("leave-for-time", &LeaveForTime),
    ("refrigerate", &Refrigerate),
    ("preheat-oven", &PreheatOven),
    ("melt", &Melt),
];

fn gone() -> SimError {
    SimError::new("There is no applicable method for the generic function CONTENTS when called with NIL")
}

fn num(call: &Call<'_, '_>, arg: &str) -> Result<Number, SimError> {
    call.input(arg)?
        .val(call.model.k.value)
        .as_num()
        .ok_or_else(|| SimError::new(format!("The value of {arg} is not a number")))
}

/// An amount object made of two bound inputs (quantity and unit), as the reference builds one.
fn amount_from(call: &mut Call<'_, '_>, quantity: &str, unit: &str) -> Result<Entity, SimError> {
    let (q, u) = (call.input(quantity)?.clone(), call.input(unit)?.clone());
    match amount_of(call.model, call.maker, &q, &u) {
        Value::Obj(a) => Ok(Arc::unwrap_or_clone(a)),
        _ => Err(SimError::new("no amount")),
    }
}

fn found(call: &Call<'_, '_>, ks: &Entity, arg: &str, on_counter: bool) -> Result<Option<Pid>, SimError> {
    let m = call.model;
    let obj = call.input(arg)?;
    let path = if on_counter { find_on_counter(ks, m, obj) } else { find_in_kitchen(ks, m, obj) };
    Ok(path.map(|_| obj.pid))
}

fn bound(ks: &Arc<Entity>, m: &Model, pid: Pid) -> Result<Value, SimError> {
    arc_by_pid(ks, m, pid).map(Value::Obj).ok_or_else(gone)
}

/// A kitchen location of the state (oven, fridge, stove, microwave) as a value.
fn place(ks: &Arc<Entity>, m: &Model, class: &str) -> Result<(Pid, Value), SimError> {
    let path = location(ks, m, m.class(class)?).ok_or_else(|| SimError::new(format!("the kitchen has no {class}")))?;
    let e = arc_at(ks, m, &path).ok_or_else(gone)?;
    Ok((e.pid, Value::Obj(e)))
}

/// Set `slot` of every content of the object `pid` that is an instance of `only` (all when
/// `None`), failing like the reference when a content lacks the slot.
fn set_on_contents(
    ks: &mut Arc<Entity>,
    m: &Model,
    pid: Pid,
    only: Option<crate::ontology::ClassId>,
    slots: &[(crate::ontology::SlotId, Value)],
) -> Result<(), SimError> {
    let c = obj_mut(ks, m, pid).ok_or_else(gone)?;
    let Some(list) = c.list_mut(m.k.contents) else { return Ok(()) };
    for item in list.iter_mut() {
        let Value::Obj(e) = item else { continue };
        if only.is_some_and(|cl| !m.onto.is_a(e.class, cl)) {
            continue;
        }
        let e = Arc::make_mut(e);
        for (s, v) in slots {
            set(m, e, *s, v.clone())?;
        }
    }
    c.tidy_list(m.k.contents);
    Ok(())
}

/// `bake`: contents take the oven temperature and are baked (they never enter the oven). The
/// time unit is ignored: always minutes (P1). Object kt∨thing(∨oven) + 60·t, kitchen +30.
struct Bake;

impl Primitive for Bake {
    fn run(&self, call: &mut Call<'_, '_>) -> Result<(), SimError> {
        let m = call.model;
        let k = &m.k;
        let mut ks = call.kitchen_in()?.clone();
        let kt = call.kitchen_time(&ks);
        let oven_given = call.is_bound("oven-to-bake-in");
        let temp_given = call.is_bound("target-temperature-quantity");
        let ready = call.ready_at(kt, "thing-to-bake")?;
        let ks_at = ready.add(Number::int(30));
        let start = if oven_given {
            let oven_at = call.available_at("oven-to-bake-in")?.ok_or_else(|| SimError::new("The value NIL is not of type REAL"))?;
            ready.max(oven_at)
        } else {
            ready
        };
        let at = start.add(num(call, "time-to-bake-quantity")?.mul(Number::int(60)));
        let thing = found(call, &ks, "thing-to-bake", false)?;
        let thing_failed = call.is_failed(call.input("thing-to-bake")?);
        let baked = m.slot("baked")?;

        // The oven and the temperature the contents take.
        let oven = if oven_given { found(call, &ks, "oven-to-bake-in", false)? } else { Some(place(&ks, m, "oven")?.0) };
        let temperature = if temp_given {
            Value::obj(amount_from(call, "target-temperature-quantity", "target-temperature-unit")?)
        } else {
            let oven = oven.ok_or_else(|| SimError::new("There is no applicable method for the generic function TEMPERATURE when called with NIL"))?;
            arc_by_pid(&ks, m, oven).map(|o| o.val(k.temperature).clone()).unwrap_or(Value::Nil)
        };
        if !temp_given {
            // Binding the quantity and unit of an oven never preheated fails in the reference.
            let t = temperature.as_obj().ok_or_else(|| SimError::new("There is no applicable method for the generic function QUANTITY when called with NIL"))?;
            let (q, u) = (t.val(k.quantity).clone(), t.val(k.unit).clone());
            call.bind("target-temperature-quantity", 0.0, q, None)?;
            call.bind("target-temperature-unit", 0.0, u, None)?;
        }
        // Case 1 succeeds when the thing is found; cases 2 and 3 when it is not a failed object
        // (a real thing that is not found makes the reference fail).
        let ok = if oven_given { !thing_failed } else { thing.is_some() };
        if ok {
            let thing = thing.ok_or_else(gone)?;
            if temp_given {
                let oven = oven.ok_or_else(|| SimError::new("There is no applicable method for the generic function (SETF TEMPERATURE) when called with NIL"))?;
                let o = obj_mut(&mut ks, m, oven).ok_or_else(gone)?;
                set(m, o, k.temperature, temperature.clone())?;
            }
            set_on_contents(&mut ks, m, thing, None, &[(k.temperature, temperature), (baked, Value::T)])?;
            call.bind("thing-baked", 1.0, bound(&ks, m, thing)?, Some(at))?;
        } else {
            let f = call.failed();
            call.bind("thing-baked", 1.0, f, Some(at))?;
        }
        if !oven_given {
            let o = place(&ks, m, "oven")?.1;
            call.bind("oven-to-bake-in", 0.0, o, Some(at))?;
        }
        call.bind_kitchen("kitchen-state-out", ks, ks_at)
    }
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
    Ok(amount(m, call.maker, Number::int(degrees), m.k.degrees_celsius))
}

/// `fry`: always 30 minutes on the kitchen's stove (P1); fryable contents take the stove
/// temperature. Only heatable containers (pots, pans) can be fried in.
struct Fry;

impl Primitive for Fry {
    fn run(&self, call: &mut Call<'_, '_>) -> Result<(), SimError> {
        let m = call.model;
        let k = &m.k;
        let mut ks = call.kitchen_in()?.clone();
        let kt = call.kitchen_time(&ks);
        let ready = call.ready_at(kt, "thing-to-fry")?;
        let at = ready.add(Number::int(1800));
        let ks_at = ready.add(Number::int(30));
        let minutes = call.maker.make_with(k.quantity_class, &[(k.value, Value::Num(Number::int(30)))]);
        let minute = call.maker.make(m.class("minute")?);
        let mode_given = call.is_bound("heating-mode");
        let mode = if mode_given { call.input("heating-mode")?.clone() } else { call.maker.make(m.class("medium-heat")?) };
        let (stove, _) = place(&ks, m, "stove")?;
        let thing = found(call, &ks, "thing-to-fry", false)?;
        let heatable = m.class("heatable-container")?;
        let thing = thing.filter(|&p| arc_by_pid(&ks, m, p).is_some_and(|e| m.onto.is_a(e.class, heatable)));
        let (fried_obj, stove_out) = match thing {
            Some(thing) => {
                let t = mode_temperature(call, &mode)?;
                let s = obj_mut(&mut ks, m, stove).ok_or_else(gone)?;
                set(m, s, k.temperature, t.clone())?;
                let fried = m.slot("fried")?;
                let fryable = m.class("fryable")?;
                set_on_contents(&mut ks, m, thing, Some(fryable), &[(k.temperature, t), (fried, Value::T)])?;
                (bound(&ks, m, thing)?, bound(&ks, m, stove)?)
            }
            None => (call.failed(), call.failed()),
        };
        call.bind("thing-fried", 1.0, fried_obj, Some(at))?;
        call.bind("stove-to-fry-on", 0.0, stove_out, Some(at))?;
        call.bind("time-to-fry-quantity", 0.0, Value::obj(minutes), None)?;
        call.bind("time-to-fry-unit", 0.0, Value::obj(minute), None)?;
        if !mode_given {
            call.bind("heating-mode", 0.0, Value::obj(mode), None)?;
        }
        call.bind_kitchen("kitchen-state-out", ks, ks_at)
    }
}

/// `bring-to-temperature`: contents of a container on the counter-top take the given (or the
/// room) temperature; object kt + 800, kitchen time unchanged (P2).
struct BringToTemperature;

impl Primitive for BringToTemperature {
    fn run(&self, call: &mut Call<'_, '_>) -> Result<(), SimError> {
        let m = call.model;
        let k = &m.k;
        let mut ks = call.kitchen_in()?.clone();
        let kt = call.kitchen_time(&ks);
        let at = kt.add(Number::int(800));
        let given = call.is_bound("temperature-quantity");
        let temperature = if given {
            amount_from(call, "temperature-quantity", "temperature-unit")?
        } else {
            let t = ks.val(k.temperature).as_obj().cloned();
            t.ok_or_else(|| SimError::new("There is no applicable method for the generic function QUANTITY when called with NIL"))?
        };
        let container = found(call, &ks, "container-with-ingredients", true)?;
        let out = match container {
            Some(c) => {
                let e = obj_mut(&mut ks, m, c).ok_or_else(gone)?;
                change_temperature(m, call.maker, e, &temperature)?;
                bound(&ks, m, c)?
            }
            None => call.failed(),
        };
        call.bind("container-with-ingredients-at-temperature", 1.0, out, Some(at))?;
        if !given {
            call.bind("temperature-quantity", 0.0, temperature.val(k.quantity).clone(), None)?;
            call.bind("temperature-unit", 0.0, temperature.val(k.unit).clone(), None)?;
        }
        call.bind_kitchen("kitchen-state-out", ks, kt)
    }
}

/// Seconds of a time amount: hours counted correctly, anything else as minutes.
fn seconds(call: &Call<'_, '_>, quantity: Number, unit: &Entity) -> Number {
    let per = if call.model.onto.class_name(unit.class) == "hour" { 3600 } else { 60 };
    quantity.mul(Number::int(per))
}

/// `leave-for-time`: contents cool by the reference's formula; object kt + the time, kitchen
/// time unchanged.
struct LeaveForTime;

impl Primitive for LeaveForTime {
    fn run(&self, call: &mut Call<'_, '_>) -> Result<(), SimError> {
        let m = call.model;
        let mut ks = call.kitchen_in()?.clone();
        let kt = call.kitchen_time(&ks);
        let time = amount_from(call, "cooling-quantity", "cooling-unit")?;
        let at = kt.add(seconds(call, num(call, "cooling-quantity")?, call.input("cooling-unit")?));
        let out = match found(call, &ks, "container-with-ingredients", true)? {
            Some(c) => {
                let e = obj_mut(&mut ks, m, c).ok_or_else(gone)?;
                change_temperature(m, call.maker, e, &time)?;
                bound(&ks, m, c)?
            }
            None => call.failed(),
        };
        call.bind("container-with-ingredients-at-temperature", 1.0, out, Some(at))?;
        call.bind_kitchen("kitchen-state-out", ks, kt)
    }
}

/// `refrigerate`: contents take the fridge's temperature; the container stays where it is.
/// The time is quadratic in the given value (P1); default 1 hour.
struct Refrigerate;

impl Primitive for Refrigerate {
    fn run(&self, call: &mut Call<'_, '_>) -> Result<(), SimError> {
        let m = call.model;
        let k = &m.k;
        let ks_in = call.kitchen_in()?.clone();
        let mut ks = ks_in.clone();
        let kt = call.kitchen_time(&ks);
        let time_given = call.is_bound("cooling-quantity");
        let fridge_given = call.is_bound("refrigerator");
        let at = if time_given {
            let v = num(call, "cooling-quantity")?;
            kt.add(v.mul(seconds(call, v, call.input("cooling-unit")?)))
        } else {
            kt.add(Number::int(3600))
        };
        let container = found(call, &ks, "container-with-ingredients", true)?;
        let fridge = if fridge_given {
            found(call, &ks, "refrigerator", false)?.and_then(|p| arc_by_pid(&ks, m, p))
        } else {
            Some(place(&ks_in, m, "fridge")?.1).and_then(|v| match v {
                Value::Obj(f) => Some(f),
                _ => None,
            })
        };
        let out = match (container, &fridge) {
            (Some(c), Some(f)) => {
                let t = f.val(k.temperature).as_obj().cloned();
                let t = t.ok_or_else(|| SimError::new("There is no applicable method for the generic function UNIT when called with NIL"))?;
                let e = obj_mut(&mut ks, m, c).ok_or_else(gone)?;
                change_temperature(m, call.maker, e, &t)?;
                bound(&ks, m, c)?
            }
            // Case 3 binds whatever it found, NIL included (the variable then stays unbound).
            (c, _) if fridge_given => match c {
                Some(c) => bound(&ks, m, c)?,
                None => Value::Nil,
            },
            _ => call.failed(),
        };
        call.bind("container-with-ingredients-at-temperature", 1.0, out, Some(at))?;
        if !fridge_given {
            let f = place(&ks_in, m, "fridge")?.1;
            call.bind("refrigerator", 0.0, f, Some(kt))?;
        }
        if !time_given {
            let q = call.maker.make_with(k.quantity_class, &[(k.value, Value::Num(Number::int(1)))]);
            let h = call.maker.make(m.class("hour")?);
            call.bind("cooling-quantity", 0.0, Value::obj(q), None)?;
            call.bind("cooling-unit", 0.0, Value::obj(h), None)?;
        }
        call.bind_kitchen("kitchen-state-out", ks, kt)
    }
}

/// `preheat-oven`: the oven takes the temperature; oven kt + 615, kitchen kt + 15.
struct PreheatOven;

impl Primitive for PreheatOven {
    fn run(&self, call: &mut Call<'_, '_>) -> Result<(), SimError> {
        let m = call.model;
        let k = &m.k;
        let ks_in = call.kitchen_in()?.clone();
        let mut ks = ks_in.clone();
        let kt = call.kitchen_time(&ks);
        let (oven_at, ks_at) = (kt.add(Number::int(615)), kt.add(Number::int(15)));
        let temperature = Value::obj(amount_from(call, "quantity", "unit")?);
        let given = call.is_bound("oven");
        let oven = if given { found(call, &ks, "oven", false)? } else { Some(place(&ks, m, "oven")?.0) };
        let out = match oven {
            Some(o) => {
                let e = obj_mut(&mut ks, m, o).ok_or_else(gone)?;
                set(m, e, k.temperature, temperature)?;
                bound(&ks, m, o)?
            }
            None => call.failed(),
        };
        call.bind("preheated-oven", 1.0, out, Some(oven_at))?;
        if !given {
            let old = place(&ks_in, m, "oven")?.1;
            call.bind("oven", 0.0, old, Some(kt))?;
        }
        call.bind_kitchen("kitchen-state-out", ks, ks_at)
    }
}

/// `melt`: meltable contents are melted (the microwave is the default tool, never marked used;
/// a given tool is not even looked up). 60 s.
struct Melt;

impl Primitive for Melt {
    fn run(&self, call: &mut Call<'_, '_>) -> Result<(), SimError> {
        let m = call.model;
        let mut ks = call.kitchen_in()?.clone();
        let kt = call.kitchen_time(&ks);
        let at = call.ready_at(kt, "container-with-input-ingredients")?.add(Number::int(60));
        let given = call.is_bound("melting-tool");
        let failed = call.is_failed(call.input("container-with-input-ingredients")?)
            || (given && call.is_failed(call.input("melting-tool")?));
        let out = if failed {
            call.failed()
        } else {
            let c = found(call, &ks, "container-with-input-ingredients", true)?.ok_or_else(gone)?;
            let melted = m.slot("melted")?;
            set_on_contents(&mut ks, m, c, Some(m.class("meltable")?), &[(melted, Value::T)])?;
            bound(&ks, m, c)?
        };
        call.bind("container-with-melted-ingredients", 1.0, out, Some(at))?;
        if !given {
            let mw = place(&ks, m, "microwave")?.1;
            call.bind("melting-tool", 0.0, mw, Some(at))?;
        }
        call.bind_kitchen("kitchen-state-out", ks, at)
    }
}
