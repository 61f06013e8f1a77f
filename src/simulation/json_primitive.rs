//! A primitive of one's own whose code is not Rust (the Python package's `Model.add_primitive`):
//! the code is called with a JSON request holding the inputs the primitive's case binds and
//! answers with the outputs, in the value encoding of the kitchen files (`kitchens/README.md`)
//! with every object's persistent id, so that what it returns can be put back into the
//! kitchen. Everything else a primitive does (the kitchen state out, its time, the bindings)
//! is done here from the answer, so the foreign code only computes.
//!
//! The request: `{"primitive", "inputs": {arg: value}, "ready": {arg: seconds or null},
//! "outputs": [arg], "kitchen_time", "kitchen": [place] or null}` (the input kitchen state is
//! not among the inputs; its places are sent only to code that asks for them, since encoding
//! a kitchen costs more than most primitives). An object is `{"class", "id", slot: value ...}`
//! with every slot of its class; numbers are integers, floats or `{"ratio": "n/d"}`.
//!
//! The answer: `{"outputs": {arg: value}, "ready_at": {arg: seconds}, "kitchen_time":
//! seconds, "kitchen": [object]}`; only `outputs` is required (every output of the case). An
//! object whose `id` is an object of the kitchen replaces that object in the kitchen state out
//! (an output, or an object listed under `kitchen`, which may be a place holding new things); an
//! object without an `id` is new, and a string `id` names a new object, the same string the
//! same object. Missing slots take the class's defaults. An output is ready at its `ready_at`,
//! else at the kitchen time out, which is `kitchen_time`, else the input kitchen's time.

use crate::base::budget;
use crate::base::number::Number;
use crate::data::catalogue::Role;
use crate::data::data_file::FieldError;
use crate::simulation::primitives::common::obj_mut;
use crate::simulation::{Call, Model, Primitive, SimError};
use crate::world::{Entity, Maker, Pid, Value};
use serde_json::{Map, Value as Json, json};
use std::collections::HashMap;
use std::sync::Arc;

/// The longest answer read, in bytes.
pub const MAX_ANSWER_BYTES: usize = 64 << 20;
/// The most objects one answer may make: as many as the largest `portion-and-arrange`.
pub const MAX_OBJECTS: usize = 20_000;
/// The largest magnitude and denominator of a number in an answer: products of two such
/// numbers stay within the simulator's exact integers.
pub const MAX_MAGNITUDE: i64 = 1_000_000_000;

/// The code of a primitive, request text in, answer text out; `Err` is why it failed, which
/// refuses the network as an error a built-in primitive signals does.
pub trait JsonCode: Send + Sync {
    fn call(&self, request: &str) -> Result<String, String>;
}

/// A primitive whose code speaks JSON.
pub struct JsonPrimitive<C> {
    code: C,
    /// Whether the request carries the input kitchen's places.
    kitchen: bool,
}

impl<C: JsonCode> JsonPrimitive<C> {
    pub fn new(code: C, kitchen: bool) -> Self {
        JsonPrimitive { code, kitchen }
    }
}

impl<C: JsonCode> Primitive for JsonPrimitive<C> {
    fn run(&self, call: &mut Call<'_, '_>) -> Result<(), SimError> {
        let name = call.sig.name.clone();
        let request = request(call, self.kitchen)?;
        let answer = self
            .code
            .call(&request.to_string())
            .map_err(|e| SimError::new(format!("{name}: {e}")))?;
        apply(call, &answer).map_err(|e| match e.path.is_empty() {
            true => SimError::new(format!("{name}: the answer: {}", e.message)),
            false => SimError::new(format!("{name}: the answer's {e}")),
        })
    }
}

/// Add a primitive whose code speaks JSON to `model`, with its catalogue entry.
pub fn add(
    model: &mut Model,
    entry: &str,
    code: impl JsonCode + 'static,
    kitchen: bool,
) -> Result<(), crate::data::catalogue::DataFileError> {
    model.add_primitive(entry, JsonPrimitive::new(code, kitchen))
}

/// The argument names of the call's case: the inputs (but the kitchen state) and the outputs
/// (but the kitchen state), and the kitchen state in and out when the primitive has them.
struct Roles {
    inputs: Vec<String>,
    outputs: Vec<String>,
    kitchen_in: Option<String>,
    kitchen_out: Option<String>,
}

fn roles(call: &Call<'_, '_>) -> Roles {
    let case = call.sig.cases[call.case];
    let mut roles = Roles {
        inputs: Vec::new(),
        outputs: Vec::new(),
        kitchen_in: None,
        kitchen_out: None,
    };
    for (i, arg) in call.sig.args.iter().enumerate() {
        let name = arg.name.clone();
        match (arg.role, case.is_input(i)) {
            (Role::KitchenStateIn, true) => roles.kitchen_in = Some(name),
            (Role::KitchenStateOut, false) => roles.kitchen_out = Some(name),
            (_, true) => roles.inputs.push(name),
            (_, false) => roles.outputs.push(name),
        }
    }
    roles
}

fn request(call: &Call<'_, '_>, with_kitchen: bool) -> Result<Json, SimError> {
    let m = call.model;
    let roles = roles(call);
    let (mut inputs, mut ready) = (Map::new(), Map::new());
    for name in &roles.inputs {
        let value = call.value(name)?.unwrap_or(&Value::Nil);
        inputs.insert(name.clone(), encode(m, value));
        let at = call.available_at(name)?;
        ready.insert(name.clone(), at.map_or(Json::Null, number));
    }
    let kitchen = match &roles.kitchen_in {
        Some(name) => Some(call.input(name)?),
        None => None,
    };
    let places = |ks: &Entity| {
        let items = ks.val(m.k.contents).items();
        Json::Array(items.iter().map(|v| encode(m, v)).collect())
    };
    Ok(json!({
        "primitive": call.sig.name,
        "inputs": inputs,
        "ready": ready,
        "outputs": roles.outputs,
        "kitchen_time": kitchen.map_or(Json::Null, |ks| number(call.kitchen_time(ks))),
        "kitchen": kitchen.filter(|_| with_kitchen).map_or(Json::Null, places),
    }))
}

/// A value in the kitchen files' encoding, objects with their ids and every slot.
pub fn encode(m: &Model, value: &Value) -> Json {
    match value {
        Value::Nil => Json::Null,
        Value::T => Json::Bool(true),
        Value::Num(n) => number(*n),
        Value::Sym(s) => json!({ "symbol": &**s }),
        Value::Str(s) => json!({ "string": &**s }),
        Value::List(items) => Json::Array(items.iter().map(|v| encode(m, v)).collect()),
        Value::Obj(e) => {
            let mut object = Map::new();
            object.insert("class".into(), m.onto.class_name(e.class).into());
            object.insert("id".into(), e.pid.into());
            for (slot, v) in e.slots() {
                object.insert(m.onto.slot_name(slot).to_owned(), encode(m, v));
            }
            Json::Object(object)
        }
    }
}

/// A number exactly: an integer, a float, or `{"ratio": "n/d"}`.
pub fn number(n: Number) -> Json {
    match n {
        Number::Exact(r) if r.is_integer() => Json::from(*r.numer()),
        Number::Exact(r) => json!({ "ratio": format!("{}/{}", r.numer(), r.denom()) }),
        Number::Float(x) => {
            serde_json::Number::from_f64(f64::from(x)).map_or(Json::Null, Json::Number)
        }
    }
}

/// Bind what the answer says: the outputs, and the kitchen state out with the objects the
/// answer changed.
fn apply(call: &mut Call<'_, '_>, answer: &str) -> Result<(), FieldError> {
    let answer = read(answer)?;
    let roles = roles(call);
    let m = call.model;
    if roles.kitchen_out.is_some() != roles.kitchen_in.is_some() {
        return Err(FieldError::new(
            "a primitive of one's own takes a kitchen state in exactly when it makes one",
        ));
    }
    if roles.kitchen_out.is_none() && answer.get("kitchen").is_some_and(|k| !k.is_null()) {
        return Err(FieldError::new("the primitive makes no kitchen state").in_key("kitchen"));
    }
    let kitchen_in = match &roles.kitchen_in {
        Some(name) => Some(
            call.input_arc(name)
                .map_err(|e| FieldError::new(e.message))?
                .clone(),
        ),
        None => None,
    };
    let time_in = kitchen_in
        .as_ref()
        .map_or(Number::ZERO, |ks| call.kitchen_time(ks));
    let time_out = match answer.get("kitchen_time") {
        None | Some(Json::Null) => time_in,
        Some(t) => time(t).map_err(|e| e.in_key("kitchen_time"))?,
    };
    let mut decoder = Decoder::new(m, call.maker);
    let outputs = decoder.outputs(&answer, &roles.outputs)?;
    let changed = match answer.get("kitchen") {
        None | Some(Json::Null) => Vec::new(),
        Some(Json::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, j)| decoder.value(j).map_err(|e| e.in_item(i).in_key("kitchen")))
            .collect::<Result<_, _>>()?,
        Some(_) => return Err(FieldError::new("a list of objects").in_key("kitchen")),
    };
    if let (Some(name), Some(mut ks)) = (&roles.kitchen_out, kitchen_in) {
        for (i, v) in changed.iter().enumerate() {
            let replaced = v.as_obj().is_some_and(|e| replace(m, &mut ks, e));
            if !replaced {
                let e = FieldError::new("no object of the kitchen has this id");
                return Err(e.in_item(i).in_key("kitchen"));
            }
        }
        for (_, v) in &outputs {
            if let Some(e) = v.as_obj() {
                replace(m, &mut ks, e);
            }
        }
        call.bind_kitchen(name, ks, time_out)
            .map_err(|e| FieldError::new(e.message))?;
    }
    let ready_at = match answer.get("ready_at") {
        None | Some(Json::Null) => None,
        Some(Json::Object(times)) => Some(times),
        Some(_) => {
            let e = FieldError::new("an object of times by output name");
            return Err(e.in_key("ready_at"));
        }
    };
    if let Some(extra) = ready_at
        .into_iter()
        .flat_map(|r| r.keys())
        .find(|k| !roles.outputs.contains(k))
    {
        let e = FieldError::new("not an output of this case");
        return Err(e.in_key(extra).in_key("ready_at"));
    }
    for (name, value) in outputs {
        let at = match ready_at.and_then(|r| r.get(&name)) {
            None | Some(Json::Null) => time_out,
            Some(t) => time(t).map_err(|e| e.in_key(&name).in_key("ready_at"))?,
        };
        call.bind(&name, 1.0, value, Some(at))
            .map_err(|e| FieldError::new(e.message))?;
    }
    Ok(())
}

/// The answer's text as a JSON object of the known keys.
fn read(answer: &str) -> Result<Map<String, Json>, FieldError> {
    if answer.len() > MAX_ANSWER_BYTES {
        return Err(FieldError::new(format!(
            "{} bytes, over the bound of {MAX_ANSWER_BYTES}",
            answer.len()
        )));
    }
    let answer: Json = serde_json::from_str(answer).map_err(|e| FieldError::new(e.to_string()))?;
    let Json::Object(answer) = answer else {
        return Err(FieldError::new("not an object"));
    };
    let known = ["outputs", "ready_at", "kitchen_time", "kitchen"];
    if let Some(key) = answer.keys().find(|k| !known.contains(&k.as_str())) {
        return Err(
            FieldError::new(format!("unknown key (keys are {})", known.join(", "))).in_key(key),
        );
    }
    Ok(answer)
}

/// Put `e` in place of the kitchen's object with its id; whether there was one (the kitchen
/// state itself is never replaced).
fn replace(m: &Model, ks: &mut Arc<Entity>, e: &Entity) -> bool {
    match obj_mut(ks, m, e.pid) {
        Some(target) => {
            *target = e.clone();
            true
        }
        None => false,
    }
}

/// A time of the answer: a number within the bounds.
fn time(j: &Json) -> Result<Number, FieldError> {
    match decode_number(j)? {
        Some(n) => Ok(n),
        None => Err(FieldError::new(format!("a time in seconds, not {j}"))),
    }
}

/// A number of the answer (`None`: the JSON is no number), refused past the bounds.
fn decode_number(j: &Json) -> Result<Option<Number>, FieldError> {
    let n = match j {
        Json::Number(n) => match n.as_i64() {
            Some(i) => Number::int(i),
            None => Number::float(n.as_f64().unwrap_or(f64::NAN) as f32),
        },
        Json::Object(o) if o.len() == 1 && o.contains_key("ratio") => {
            let text = o["ratio"].as_str().unwrap_or("");
            let bad =
                || FieldError::new(format!("`{text}` is not a ratio n/d of integers, d not 0"));
            let (n, d) = text.split_once('/').ok_or_else(bad)?;
            let n: i64 = n.trim().parse().map_err(|_| bad())?;
            let d: i64 = d.trim().parse().map_err(|_| bad())?;
            if d.unsigned_abs() > MAX_MAGNITUDE as u64 {
                return Err(FieldError::new(format!(
                    "the denominator of {text} is over the bound of {MAX_MAGNITUDE}"
                )));
            }
            Number::ratio(n, d).ok_or_else(bad)?
        }
        _ => return Ok(None),
    };
    let value = n.to_f64();
    if !value.is_finite() || value.abs() > MAX_MAGNITUDE as f64 {
        return Err(FieldError::new(format!(
            "{j} is not a finite number within the bound of {MAX_MAGNITUDE}"
        )));
    }
    Ok(Some(n))
}

/// `Err` when an object of `weight` (its class's: itself, its defaults and the objects in them)
/// would take the recipe past its memory budget, which it then spends: the run is refused with
/// the budget's message, located at the action, before the object is made. Without it an answer
/// of [`MAX_OBJECTS`] objects of a class weighing 10,000 values would make them all (gigabytes)
/// before the budget is looked at again.
fn affordable(weight: u64) -> Result<(), FieldError> {
    if budget::cells().saturating_add(weight) <= budget::MEMORY_BUDGET {
        return Ok(());
    }
    budget::charge(usize::try_from(weight).unwrap_or(usize::MAX));
    Err(FieldError::new(
        "the objects it makes are past the memory budget",
    ))
}

/// Reads the answer's values into kitchen values, giving new objects fresh ids.
struct Decoder<'a, 'm> {
    m: &'m Model,
    maker: &'a mut Maker<'m>,
    /// The ids of new objects named by strings.
    named: HashMap<String, Pid>,
    /// The highest id of an object that exists: a greater one would be a future object's.
    last: Pid,
    objects: usize,
}

impl<'a, 'm> Decoder<'a, 'm> {
    fn new(m: &'m Model, maker: &'a mut Maker<'m>) -> Self {
        let last = maker.last_pid();
        Decoder {
            m,
            maker,
            named: HashMap::new(),
            last,
            objects: 0,
        }
    }

    /// Every output of the case, in the order of the arguments, with its value.
    fn outputs(
        &mut self,
        answer: &Map<String, Json>,
        names: &[String],
    ) -> Result<Vec<(String, Value)>, FieldError> {
        let given = match answer.get("outputs") {
            Some(Json::Object(o)) => o,
            _ => {
                return Err(
                    FieldError::new("an object of the outputs by argument name").in_key("outputs")
                );
            }
        };
        if let Some(extra) = given.keys().find(|k| !names.contains(k)) {
            let e = FieldError::new(format!(
                "not an output of this case (outputs: {})",
                names.join(", ")
            ));
            return Err(e.in_key(extra).in_key("outputs"));
        }
        let mut out = Vec::new();
        for name in names {
            let j = given.get(name).ok_or_else(|| {
                FieldError::new("missing: every output of the case must be given")
                    .in_key(name)
                    .in_key("outputs")
            })?;
            let v = self
                .value(j)
                .map_err(|e| e.in_key(name).in_key("outputs"))?;
            out.push((name.clone(), v));
        }
        Ok(out)
    }

    fn value(&mut self, j: &Json) -> Result<Value, FieldError> {
        if let Some(n) = decode_number(j)? {
            return Ok(Value::Num(n));
        }
        Ok(match j {
            Json::Null | Json::Bool(false) => Value::Nil,
            Json::Bool(true) => Value::T,
            Json::String(s) => Value::Obj(Arc::new(self.object(s, None, &Map::new())?)),
            Json::Array(items) => Value::list(
                items
                    .iter()
                    .enumerate()
                    .map(|(i, j)| self.value(j).map_err(|e| e.in_item(i)))
                    .collect::<Result<_, _>>()?,
            ),
            Json::Object(o) => match (o.get("string"), o.get("symbol"), o.get("class")) {
                (Some(Json::String(s)), None, None) if o.len() == 1 => {
                    Value::Str(Arc::from(s.as_str()))
                }
                (None, Some(Json::String(s)), None) if o.len() == 1 => {
                    Value::Sym(Arc::from(s.as_str()))
                }
                (None, None, Some(Json::String(class))) => {
                    Value::Obj(Arc::new(self.object(class, o.get("id"), o)?))
                }
                _ => {
                    return Err(FieldError::new(format!(
                        "an object without a class name: {j}"
                    )));
                }
            },
            Json::Number(_) => unreachable!("numbers are decoded above"),
        })
    }

    /// An object of `class` with id `id` and the slots of `o` (the others at their defaults).
    fn object(
        &mut self,
        class: &str,
        id: Option<&Json>,
        o: &Map<String, Json>,
    ) -> Result<Entity, FieldError> {
        let m = self.m;
        self.objects += 1;
        if self.objects > MAX_OBJECTS {
            return Err(FieldError::new(format!("more than {MAX_OBJECTS} objects")));
        }
        let class_id = m
            .onto
            .class_id(class)
            .ok_or_else(|| FieldError::new(format!("unknown class `{class}`")).in_key("class"))?;
        affordable(m.onto.class(class_id).weight)?;
        let pid = self.id(id).map_err(|e| e.in_key("id"))?;
        let given: Vec<(&String, &Json)> = o
            .iter()
            .filter(|(k, _)| *k != "class" && *k != "id")
            .collect();
        let c = m.onto.class(class_id);
        if let Some((k, _)) = given
            .iter()
            .find(|(k, _)| m.onto.slot_id(k).is_none_or(|s| !c.slots.contains(&s)))
        {
            return Err(FieldError::new(format!("`{class}` has no slot `{k}`")).in_key(k));
        }
        let mut slots = Vec::with_capacity(c.slots.len());
        for (slot, default) in c.slots.iter().zip(&c.defaults) {
            let name = m.onto.slot_name(*slot);
            let v = match given.iter().find(|(k, _)| k.as_str() == name) {
                Some((k, j)) => self.value(j).map_err(|e| e.in_key(k))?,
                None => self.maker.init(default),
            };
            slots.push((*slot, v));
        }
        budget::charge(1 + slots.len());
        let e = Entity::new(class_id, pid, slots);
        Ok(e)
    }

    /// The persistent id an object of the answer has: its own, a new object's by its name, or
    /// a fresh one.
    fn id(&mut self, id: Option<&Json>) -> Result<Pid, FieldError> {
        match id {
            None | Some(Json::Null) => Ok(self.maker.fresh_pid()),
            Some(Json::String(name)) => match self.named.get(name) {
                Some(&pid) => Ok(pid),
                None => {
                    let pid = self.maker.fresh_pid();
                    self.named.insert(name.clone(), pid);
                    Ok(pid)
                }
            },
            Some(j) => match j.as_u64().and_then(|n| Pid::try_from(n).ok()) {
                Some(pid) if pid >= 1 && pid <= self.last => Ok(pid),
                _ => Err(FieldError::new(format!(
                    "{j} is the id of no object (an existing object's id, or a string naming a new one)"
                ))),
            },
        }
    }
}
