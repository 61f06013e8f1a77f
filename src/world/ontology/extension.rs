//! Classes and gram conversions of one's own (a benchmark's `ontology.json`), added to the
//! built-in ontology without changing any of its classes: new classes get the ids after the
//! built-in ones, so everything the built-in data scores is scored as before.
//!
//! ```json
//! {"classes": {"halloumi": {"is_a": ["feta-cheese"], "slots": {"keep-refrigerated": true},
//!                           "new_slots": {"grilled": null}, "diet": ["dairy"]}},
//!  "conversion_to_g": {"halloumi": {"piece": 250}}}
//! ```

use super::{
    Class, ClassId, Counted, Init, MAX_OBJECT_VALUES, Ontology, SlotId, ancestor_bits, parse_init,
};
use crate::base::suggest::closest;
use crate::data::data_file::FieldError;
use crate::data::diet_table::DietTable;
use serde_json::{Map, Value as Json};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet};
use std::sync::{Arc, OnceLock};

/// The most classes one file adds: 30 times the built-in ontology's 346. The is-a table holds
/// a bit per pair of classes, 13 MB at this bound.
pub const MAX_NEW_CLASSES: usize = 10_000;
/// The most classes in one class's precedence list, itself included (the built-in deepest
/// has 35): merging parents' lists costs at most this much per parent.
pub const MAX_ANCESTORS: usize = 128;
/// The most slots one class has, inherited ones included (the built-in most have 25): every
/// object of the class holds them all.
pub const MAX_SLOTS: usize = 128;

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
        let mut made = Counted::default();
        if let Some(classes) = root.get("classes") {
            let declared = self.declared(classes).map_err(|e| e.in_key("classes"))?;
            for class in in_order(&declared).map_err(|e| e.in_key("classes"))? {
                self.add(class, &mut made)
                    .map_err(|e| e.in_key(class.name).in_key("classes"))?;
            }
            self.ancestors = ancestor_bits(&self.classes);
        }
        if let Some(table) = root.get("conversion_to_g") {
            self.add_conversions(table, &mut made)
                .map_err(|e| e.in_key("conversion_to_g"))?;
        }
        Ok(())
    }

    /// The declarations of `classes`, checked against each other and the ontology.
    fn declared<'j>(&self, classes: &'j Json) -> Result<Vec<Declared<'j>>, FieldError> {
        let classes = object(classes)?;
        if classes.len() > MAX_NEW_CLASSES {
            return Err(FieldError::new(format!(
                "{} classes; an ontology file adds at most {MAX_NEW_CLASSES}",
                classes.len()
            )));
        }
        let mut out = Vec::new();
        for (name, body) in classes {
            if self.class_id(name).is_some() {
                let taken =
                    "the ontology already has this class; a new class needs a name of its own";
                return Err(FieldError::new(taken).in_key(name));
            }
            out.push(declaration(name, body).map_err(|e| e.in_key(name))?);
        }
        for class in &out {
            for (i, parent) in class.parents.iter().enumerate() {
                if self.class_id(parent).is_none() && !classes.contains_key(*parent) {
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
    /// slots with the most specific default (shared, not copied), its own defaults, and the
    /// slots no copy keeps. A class one object of which would make more than
    /// [`MAX_OBJECT_VALUES`] values is refused at its heaviest default.
    fn add(&mut self, class: &Declared<'_>, made: &mut Counted) -> Result<(), FieldError> {
        let id = ClassId::try_from(self.classes.len())
            .map_err(|_| FieldError::new("the ontology has too many classes"))?;
        let parents: Vec<ClassId> = class
            .parents
            .iter()
            .filter_map(|p| self.class_id(p))
            .collect();
        let precedence = self.linearize(id, &parents).map_err(|e| e.in_key("is_a"))?;
        let (mut slots, mut defaults, mut weights) = (Vec::new(), Vec::new(), Vec::new());
        let (mut has, mut no_copy, mut uncopied) = (HashSet::new(), HashSet::new(), Vec::new());
        for &p in &parents {
            let parent = &self.classes[p as usize];
            for (at, slot) in parent.slots.iter().enumerate() {
                if has.insert(*slot) {
                    slots.push(*slot);
                    defaults.push(Arc::clone(&parent.defaults[at]));
                    weights.push(parent.default_weights[at]);
                }
            }
            for slot in &parent.uncopied {
                if no_copy.insert(*slot) {
                    uncopied.push(*slot);
                }
            }
            if slots.len() > MAX_SLOTS {
                return Err(too_many_slots().in_key("is_a"));
            }
        }
        // The heaviest default the class gives, where a class too heavy is refused.
        let mut heaviest: Option<(u64, &str, &str)> = None;
        let mut heavier = |weight: u64, field, name| {
            if heaviest.is_none_or(|(w, _, _)| weight > w) {
                heaviest = Some((weight, field, name));
            }
        };
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
            (defaults[at], weights[at]) = self.default(value, made).map_err(in_key)?;
            heavier(weights[at], "slots", name.as_str());
        }
        for (name, value) in class.new_slots.into_iter().flatten() {
            let in_key = |e: FieldError| e.in_key(name).in_key("new_slots");
            if self.slot_id(name).is_some_and(|s| has.contains(&s)) {
                return Err(in_key(FieldError::new(
                    "a parent has this slot already; set its default under `slots`",
                )));
            }
            if slots.len() == MAX_SLOTS {
                return Err(in_key(too_many_slots()));
            }
            let (default, weight) = self.default(value, made).map_err(in_key)?;
            slots.push(self.slot(name).map_err(in_key)?);
            defaults.push(default);
            weights.push(weight);
            heavier(weight, "new_slots", name.as_str());
        }
        let weight = weights.iter().fold(1, |a: u64, w| a.saturating_add(*w));
        if weight > MAX_OBJECT_VALUES {
            let message = FieldError::new(format!(
                "one object of the class would make {weight} values with its defaults (the \
                 objects in them with theirs); an object makes at most {MAX_OBJECT_VALUES}"
            ));
            return Err(match heaviest {
                Some((_, field, name)) => message.in_key(name).in_key(field),
                None => message.in_key("is_a"),
            });
        }
        let diet = class
            .diet
            .map(|tags| self.diet_of(&precedence, tags))
            .transpose()
            .map_err(|e| e.in_key("diet"))?;
        Arc::make_mut(&mut self.classes).push(Class {
            name: class.name.to_owned(),
            precedence,
            slots,
            defaults,
            default_weights: weights,
            weight,
            uncopied,
            made: OnceLock::new(),
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
                let known = table
                    .tag(word)
                    .map_err(|e| FieldError::new(e.to_string()).in_item(i))?;
                Ok(known.to_owned())
            })
            .collect()
    }

    /// The class first, then a merge of the parents' precedence lists and the parents
    /// themselves in which every class comes before its own ancestors and the order of each
    /// list is kept: at each step the head of the first list whose head is in no list's tail.
    /// Each list is a cursor, each class counts the tails it is in, and the lists whose head
    /// is free wait in a heap by their order, so the merge is linear in the lists' length
    /// (times log of their number) rather than cubic.
    fn linearize(&self, id: ClassId, parents: &[ClassId]) -> Result<Vec<ClassId>, FieldError> {
        let too_many = || {
            FieldError::new(format!(
                "the class would have more than {MAX_ANCESTORS} classes in its precedence list"
            ))
        };
        if parents.len() >= MAX_ANCESTORS {
            return Err(too_many());
        }
        let lists: Vec<&[ClassId]> = parents
            .iter()
            .map(|&p| self.classes[p as usize].precedence.as_slice())
            .chain([parents])
            .collect();
        let mut at = vec![0; lists.len()];
        let mut in_tails: HashMap<ClassId, usize> = HashMap::new();
        let mut heading: HashMap<ClassId, Vec<usize>> = HashMap::new();
        for (i, list) in lists.iter().enumerate() {
            for c in list.iter().skip(1) {
                *in_tails.entry(*c).or_default() += 1;
            }
            if let Some(head) = list.first() {
                heading.entry(*head).or_default().push(i);
            }
        }
        let free = |c: &ClassId, in_tails: &HashMap<ClassId, usize>| {
            in_tails.get(c).is_none_or(|n| *n == 0)
        };
        let mut ready: BinaryHeap<Reverse<usize>> = (0..lists.len())
            .filter(|&i| lists[i].first().is_some_and(|h| free(h, &in_tails)))
            .map(Reverse)
            .collect();
        let mut out = vec![id];
        while let Some(Reverse(i)) = ready.pop() {
            let Some(&head) = lists[i].get(at[i]) else {
                continue;
            };
            if !free(&head, &in_tails) {
                continue;
            }
            if out.len() == MAX_ANCESTORS {
                return Err(too_many());
            }
            out.push(head);
            for j in heading.remove(&head).unwrap_or_default() {
                at[j] += 1;
                let Some(&next) = lists[j].get(at[j]) else {
                    continue;
                };
                let tails = in_tails.entry(next).or_default();
                *tails -= 1;
                let waiting = heading.entry(next).or_default();
                waiting.push(j);
                if *tails == 0 {
                    ready.extend(waiting.iter().map(|&w| Reverse(w)));
                }
            }
        }
        if at.iter().zip(&lists).all(|(&a, l)| a == l.len()) {
            Ok(out)
        } else {
            Err(FieldError::new(
                "no order of these parent classes agrees with each parent's own order",
            ))
        }
    }

    /// The id of a slot name, a new one when no class has it yet.
    fn slot(&mut self, name: &str) -> Result<SlotId, FieldError> {
        if let Some(id) = self.slot_id(name) {
            return Ok(id);
        }
        let id = SlotId::try_from(self.slot_names.len()).map_err(|_| {
            FieldError::new(format!(
                "one slot name too many: the ontology numbers at most {} slots",
                SlotId::MAX
            ))
        })?;
        self.slot_names.push(name.to_owned());
        self.slot_by_name.insert(name.to_owned(), id);
        Ok(id)
    }

    /// A slot's default and the values it makes (its objects with their classes' defaults).
    fn default(&self, value: &Json, made: &mut Counted) -> Result<(Arc<Init>, u64), FieldError> {
        let before = made.values;
        let init = self.value(value, made)?;
        Ok((Arc::new(init), made.values - before))
    }

    /// A slot value in the kitchen files' encoding, over the classes and slots known so far.
    fn value(&self, value: &Json, made: &mut Counted) -> Result<Init, FieldError> {
        let mut class_of = |c: &str| {
            self.class_id(c)
                .map(|id| (id, self.class(id).weight))
                .ok_or_else(|| format!("unknown class `{c}`"))
        };
        let mut slot_of = |s: &str| self.slot_id(s).ok_or_else(|| format!("unknown slot `{s}`"));
        parse_init(value, &mut class_of, &mut slot_of, made)
    }

    /// Add entries to the conversion table: grams per unit of exactly one class.
    fn add_conversions(&mut self, table: &Json, made: &mut Counted) -> Result<(), FieldError> {
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
                let grams = match self.value(factor, made).map_err(at)? {
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

fn too_many_slots() -> FieldError {
    FieldError::new(format!(
        "the class would have more than {MAX_SLOTS} slots, inherited ones included"
    ))
}

/// ` (did you mean a, b?)` when there are close names.
fn hint(close: &[&str]) -> String {
    if close.is_empty() {
        String::new()
    } else {
        format!(" (did you mean {}?)", close.join(", "))
    }
}

/// The classes in an order that puts every class after its new parents, each time the first
/// one in the file's order whose new parents are placed; a cycle of parents is refused at the
/// first class in it.
fn in_order<'d, 'j>(declared: &'d [Declared<'j>]) -> Result<Vec<&'d Declared<'j>>, FieldError> {
    let index: HashMap<&str, usize> = declared
        .iter()
        .enumerate()
        .map(|(i, c)| (c.name, i))
        .collect();
    let mut waiting_for = vec![0usize; declared.len()];
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); declared.len()];
    for (i, class) in declared.iter().enumerate() {
        for parent in &class.parents {
            if let Some(&p) = index.get(parent) {
                waiting_for[i] += 1;
                children[p].push(i);
            }
        }
    }
    let mut ready: BinaryHeap<Reverse<usize>> = (0..declared.len())
        .filter(|&i| waiting_for[i] == 0)
        .map(Reverse)
        .collect();
    let mut placed = Vec::with_capacity(declared.len());
    while let Some(Reverse(i)) = ready.pop() {
        placed.push(&declared[i]);
        for &child in &children[i] {
            waiting_for[child] -= 1;
            if waiting_for[child] == 0 {
                ready.push(Reverse(child));
            }
        }
    }
    if placed.len() == declared.len() {
        return Ok(placed);
    }
    let waiting: Vec<usize> = (0..declared.len())
        .filter(|&i| waiting_for[i] > 0)
        .collect();
    Err(cycle(declared, &index, &waiting))
}

/// The cycle among classes that all wait for a parent: followed from the first of them, each
/// time to its first parent that waits too.
fn cycle(declared: &[Declared<'_>], index: &HashMap<&str, usize>, waiting: &[usize]) -> FieldError {
    let waits: HashSet<usize> = waiting.iter().copied().collect();
    let mut path: Vec<usize> = Vec::new();
    let mut seen = HashSet::new();
    let mut at = waiting[0];
    while seen.insert(at) {
        path.push(at);
        let next = declared[at]
            .parents
            .iter()
            .filter_map(|p| index.get(p).copied())
            .find(|p| waits.contains(p));
        match next {
            Some(c) => at = c,
            None => break,
        }
    }
    let start = path.iter().position(|&n| n == at).unwrap_or(0);
    let mut names: Vec<&str> = path[start..].iter().map(|&i| declared[i].name).collect();
    names.push(declared[at].name);
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
