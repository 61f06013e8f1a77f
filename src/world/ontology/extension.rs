//! Classes and gram conversions of one's own (a benchmark's `ontology.json`), added to the
//! built-in ontology without changing any of its classes: new classes get the ids after the
//! built-in ones, so everything the built-in data scores is scored as before.
//!
//! ```json
//! {"classes": {"halloumi": {"is_a": ["feta-cheese"], "slots": {"keep-refrigerated": true},
//!                           "new_slots": {"grilled": null}, "diet": ["dairy"]}},
//!  "conversion_to_g": {"halloumi": {"piece": 250}}}
//! ```

use super::{Class, ClassId, Init, Ontology, SlotId, ancestor_bits, parse_init};
use crate::base::suggest::closest;
use crate::data::data_file::FieldError;
use crate::data::diet_table::DietTable;
use serde_json::{Map, Value as Json};

/// One class as the file declares it.
struct Declared<'j> {
    name: &'j str,
    parents: Vec<&'j str>,
    /// Defaults of inherited slots.
    slots: Option<&'j Map<String, Json>>,
    /// Slots no parent has, with their defaults (for primitives of one's own to set).
    new_slots: Option<&'j Map<String, Json>>,
    /// The tags that decide diets (`kitchens/diet.json`), when the file gives them.
    diet: Option<&'j Vec<Json>>,
}

impl Ontology {
    /// Add the classes (each after its parents, which are built-in classes or other new ones)
    /// and the conversion entries of an ontology extension; every problem names its field.
    pub fn extend(&mut self, extension: &Json) -> Result<(), FieldError> {
        let root = object(extension)?;
        known_fields(root, &["classes", "conversion_to_g"])?;
        if let Some(classes) = root.get("classes") {
            let declared = self.declared(classes).map_err(|e| e.in_key("classes"))?;
            for class in in_order(&declared).map_err(|e| e.in_key("classes"))? {
                self.add(class)
                    .map_err(|e| e.in_key(class.name).in_key("classes"))?;
            }
            self.ancestors = ancestor_bits(&self.classes);
        }
        if let Some(table) = root.get("conversion_to_g") {
            self.add_conversions(table)
                .map_err(|e| e.in_key("conversion_to_g"))?;
        }
        Ok(())
    }

    /// The declarations of `classes`, checked against each other and the ontology.
    fn declared<'j>(&self, classes: &'j Json) -> Result<Vec<Declared<'j>>, FieldError> {
        let mut out = Vec::new();
        for (name, body) in object(classes)? {
            if self.class_id(name).is_some() {
                let taken =
                    "the ontology already has this class; a new class needs a name of its own";
                return Err(FieldError::new(taken).in_key(name));
            }
            out.push(declaration(name, body).map_err(|e| e.in_key(name))?);
        }
        for class in &out {
            for (i, parent) in class.parents.iter().enumerate() {
                if self.class_id(parent).is_none() && !out.iter().any(|c| c.name == *parent) {
                    let names = self.classes.iter().map(|c| c.name.as_str());
                    let close = closest(parent, names.chain(out.iter().map(|c| c.name)), 3);
                    let message = format!("unknown parent class `{parent}`{}", hint(&close));
                    return Err(FieldError::new(message)
                        .in_item(i)
                        .in_key("is_a")
                        .in_key(class.name));
                }
            }
        }
        Ok(out)
    }

    /// Add one class: its precedence list merged from its parents' (as CLOS does), their
    /// slots with the most specific default, its own defaults, and the slots no copy keeps.
    fn add(&mut self, class: &Declared<'_>) -> Result<(), FieldError> {
        let id = ClassId::try_from(self.classes.len())
            .map_err(|_| FieldError::new("the ontology has too many classes"))?;
        let parents: Vec<ClassId> = class
            .parents
            .iter()
            .filter_map(|p| self.class_id(p))
            .collect();
        let precedence = self.linearize(id, &parents).ok_or_else(|| {
            FieldError::new("no order of these parent classes agrees with each parent's own order")
                .in_key("is_a")
        })?;
        let (mut slots, mut defaults, mut uncopied) = (Vec::new(), Vec::new(), Vec::new());
        for &p in &parents {
            let parent = &self.classes[p as usize];
            for (slot, default) in parent.slots.iter().zip(&parent.defaults) {
                if !slots.contains(slot) {
                    slots.push(*slot);
                    defaults.push(default.clone());
                }
            }
            uncopied.extend(
                parent
                    .uncopied
                    .iter()
                    .filter(|s| !uncopied.contains(*s))
                    .copied()
                    .collect::<Vec<_>>(),
            );
        }
        for (name, value) in class.slots.into_iter().flatten() {
            let in_key = |e: FieldError| e.in_key(name).in_key("slots");
            let at = self
                .slot_id(name)
                .and_then(|s| slots.iter().position(|x| *x == s))
                .ok_or_else(|| {
                    let names = slots.iter().map(|&s| self.slot_name(s));
                    let close = closest(name, names, 3);
                    let message = format!("the class has no slot `{name}`{}", hint(&close));
                    in_key(FieldError::new(message))
                })?;
            defaults[at] = self.value(value).map_err(in_key)?;
        }
        for (name, value) in class.new_slots.into_iter().flatten() {
            let in_key = |e: FieldError| e.in_key(name).in_key("new_slots");
            if self.slot_id(name).is_some_and(|s| slots.contains(&s)) {
                return Err(in_key(FieldError::new(
                    "a parent has this slot already; set its default under `slots`",
                )));
            }
            let default = self.value(value).map_err(in_key)?;
            slots.push(self.slot(name));
            defaults.push(default);
        }
        let diet = class
            .diet
            .map(|tags| self.diet_of(&precedence, tags))
            .transpose()
            .map_err(|e| e.in_key("diet"))?;
        self.classes.push(Class {
            name: class.name.to_owned(),
            precedence,
            slots,
            defaults,
            uncopied,
        });
        self.class_by_name.insert(class.name.to_owned(), id);
        if let Some(tags) = diet {
            self.diet.insert(id, tags);
        }
        Ok(())
    }

    /// A class's diet tags, each one of the diet table's; a mixture has none of its own (it is
    /// judged by the components it holds).
    fn diet_of(&self, precedence: &[ClassId], tags: &[Json]) -> Result<Vec<String>, FieldError> {
        if let Some(mixture) = self.class_id("mixture")
            && precedence.contains(&mixture)
        {
            let judged = "a mixture is judged by the ingredients it holds: give them the tags";
            return Err(FieldError::new(judged));
        }
        let table = DietTable::builtin();
        tags.iter()
            .enumerate()
            .map(|(i, tag)| {
                let word = tag
                    .as_str()
                    .ok_or_else(|| FieldError::new("a diet tag").in_item(i))?;
                let known = table.tag(word).map_err(|e| FieldError::new(e).in_item(i))?;
                Ok(known.to_owned())
            })
            .collect()
    }

    /// The class first, then a merge of the parents' precedence lists and the parents
    /// themselves in which every class comes before its own ancestors and the order of each
    /// list is kept; `None` when no such order exists.
    fn linearize(&self, id: ClassId, parents: &[ClassId]) -> Option<Vec<ClassId>> {
        let mut lists: Vec<Vec<ClassId>> = parents
            .iter()
            .map(|&p| self.classes[p as usize].precedence.clone())
            .collect();
        lists.push(parents.to_vec());
        let mut out = vec![id];
        loop {
            lists.retain(|l| !l.is_empty());
            if lists.is_empty() {
                return Some(out);
            }
            let head = lists
                .iter()
                .map(|l| l[0])
                .find(|h| !lists.iter().any(|l| l[1..].contains(h)))?;
            out.push(head);
            for l in &mut lists {
                l.retain(|c| *c != head);
            }
        }
    }

    /// The id of a slot name, a new one when no class has it yet.
    fn slot(&mut self, name: &str) -> SlotId {
        if let Some(id) = self.slot_id(name) {
            return id;
        }
        let id = self.slot_names.len() as SlotId;
        self.slot_names.push(name.to_owned());
        self.slot_by_name.insert(name.to_owned(), id);
        id
    }

    /// A slot value in the kitchen files' encoding, over the classes and slots known so far.
    fn value(&self, value: &Json) -> Result<Init, FieldError> {
        let mut class_of = |c: &str| {
            self.class_id(c)
                .ok_or_else(|| format!("unknown class `{c}`"))
        };
        let mut slot_of = |s: &str| self.slot_id(s).ok_or_else(|| format!("unknown slot `{s}`"));
        parse_init(value, &mut class_of, &mut slot_of)
    }

    /// Add entries to the conversion table: grams per unit of exactly one class.
    fn add_conversions(&mut self, table: &Json) -> Result<(), FieldError> {
        let unit_class = self.class_id("unit");
        for (name, units) in object(table)? {
            let class = self.class_id(name).ok_or_else(|| {
                FieldError::new(format!(
                    "no class `{name}` in the ontology or among `classes`"
                ))
                .in_key(name)
            })?;
            for (unit, factor) in object(units).map_err(|e| e.in_key(name))? {
                let at = |e: FieldError| e.in_key(unit).in_key(name);
                let unit_id = self
                    .class_id(unit)
                    .filter(|&u| unit_class.is_none_or(|c| self.is_a(u, c)))
                    .ok_or_else(|| at(FieldError::new(format!("`{unit}` is not a unit"))))?;
                let grams = match self.value(factor).map_err(at)? {
                    Init::Num(n) if n.to_f64() > 0.0 => n,
                    _ => return Err(at(FieldError::new("grams per unit: a positive number"))),
                };
                let entry = self.conversions.entry(class).or_default();
                entry.retain(|(u, _)| *u != unit_id);
                entry.push((unit_id, grams));
            }
        }
        Ok(())
    }
}

/// One class's body: its parents and the slots it sets or adds.
fn declaration<'j>(name: &'j str, body: &'j Json) -> Result<Declared<'j>, FieldError> {
    let fits = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-';
    if name.is_empty() || !name.chars().all(fits) {
        return Err("a class name is lowercase letters, digits and `-`".into());
    }
    let body = object(body)?;
    known_fields(body, &["is_a", "slots", "new_slots", "diet"])?;
    let parents = match body.get("is_a") {
        Some(Json::Array(items)) if !items.is_empty() => items
            .iter()
            .enumerate()
            .map(|(i, p)| {
                p.as_str()
                    .ok_or_else(|| FieldError::new("a class name").in_item(i))
            })
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| e.in_key("is_a"))?,
        _ => {
            let wanted = "a list of one or more parent classes";
            return Err(FieldError::new(wanted).in_key("is_a"));
        }
    };
    let map = |field: &str| match body.get(field) {
        None => Ok(None),
        Some(s) => object(s).map(Some).map_err(|e| e.in_key(field)),
    };
    let diet = match body.get("diet") {
        None => None,
        Some(Json::Array(tags)) => Some(tags),
        Some(_) => return Err(FieldError::new("a list of diet tags").in_key("diet")),
    };
    Ok(Declared {
        name,
        parents,
        slots: map("slots")?,
        new_slots: map("new_slots")?,
        diet,
    })
}

/// ` (did you mean a, b?)` when there are close names.
fn hint(close: &[&str]) -> String {
    if close.is_empty() {
        String::new()
    } else {
        format!(" (did you mean {}?)", close.join(", "))
    }
}

/// The classes in an order that puts every class after its new parents; a cycle of parents is
/// refused at the first class in it.
fn in_order<'d, 'j>(declared: &'d [Declared<'j>]) -> Result<Vec<&'d Declared<'j>>, FieldError> {
    let mut placed: Vec<&Declared<'j>> = Vec::new();
    while placed.len() < declared.len() {
        let ready = declared.iter().find(|c| {
            !placed.iter().any(|p| p.name == c.name)
                && c.parents.iter().all(|parent| {
                    placed.iter().any(|p| p.name == *parent)
                        || !declared.iter().any(|d| d.name == *parent)
                })
        });
        match ready {
            Some(class) => placed.push(class),
            None => {
                let waiting: Vec<&Declared<'j>> = declared
                    .iter()
                    .filter(|c| !placed.iter().any(|p| p.name == c.name))
                    .collect();
                return Err(cycle(&waiting));
            }
        }
    }
    Ok(placed)
}

/// The cycle among classes that all wait for a parent: followed from the first of them.
fn cycle(waiting: &[&Declared<'_>]) -> FieldError {
    let mut path: Vec<&str> = Vec::new();
    let mut at = waiting[0];
    while !path.contains(&at.name) {
        path.push(at.name);
        let next = at
            .parents
            .iter()
            .find_map(|p| waiting.iter().find(|c| c.name == *p));
        match next {
            Some(c) => at = c,
            None => break,
        }
    }
    let start = path.iter().position(|n| *n == at.name).unwrap_or(0);
    let mut names: Vec<&str> = path[start..].to_vec();
    names.push(at.name);
    FieldError::new(format!(
        "the parent classes form a cycle: {}",
        names.join(" → ")
    ))
    .in_key("is_a")
    .in_key(names[0])
}

fn object(value: &Json) -> Result<&Map<String, Json>, FieldError> {
    value
        .as_object()
        .ok_or_else(|| FieldError::new(format!("expected an object, found {}", kind(value))))
}

fn kind(value: &Json) -> &'static str {
    match value {
        Json::Null => "null",
        Json::Bool(_) => "a boolean",
        Json::Number(_) => "a number",
        Json::String(_) => "a string",
        Json::Array(_) => "a list",
        Json::Object(_) => "an object",
    }
}

/// Refuse a field the format does not have (a misspelt `is_a` would otherwise be ignored).
fn known_fields(map: &Map<String, Json>, fields: &[&str]) -> Result<(), FieldError> {
    match map.keys().find(|k| !fields.contains(&k.as_str())) {
        None => Ok(()),
        Some(k) => Err(FieldError::new(format!(
            "unknown field; the fields are {}",
            fields
                .iter()
                .map(|f| format!("`{f}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ))
        .in_key(k)),
    }
}
