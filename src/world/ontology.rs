//! The ontology: classes, their precedence lists, slots with defaults, and the gram conversion
//! table. Loaded once per profile from `kitchens/ontology-<profile>.json`.
//!
//! Every kitchen object is an instance of a class here; "is a" tests use the precedence list,
//! and object equality and dish scoring walk the slots listed here, so this file decides what
//! the metrics compare.

use crate::base::number::Number;
use crate::base::profile::Profile;
use crate::data::catalogue::DataFileError;
use crate::data::data_file::FieldError;
use rustc_hash::FxHashMap;
use serde_json::Value as Json;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

mod extension;

pub type ClassId = u16;
pub type SlotId = u16;

/// A slot's initial value, instantiated afresh for every new object (as an `:initform` is).
#[derive(Clone, Debug)]
pub enum Init {
    Nil,
    T,
    Num(Number),
    /// A Lisp string (the names HEAD gives its auto-created locations), shared by every object
    /// made with it: Lisp strings here are never changed in place.
    Str(Arc<str>),
    /// A fresh instance of a class with some slots set.
    Instance(ClassId, Vec<(SlotId, Init)>),
    List(Vec<Init>),
}

#[derive(Clone, Debug)]
pub struct Class {
    pub name: String,
    /// Precedence list including the class itself first.
    pub precedence: Vec<ClassId>,
    /// Effective slots (without `id` and `persistent-id`) in layout order.
    pub slots: Vec<SlotId>,
    /// Shared with the classes that inherit them, so a default is held once however many
    /// classes inherit it.
    pub defaults: Vec<Arc<Init>>,
    /// The values each default makes when an object is made (in the order of `defaults`).
    pub default_weights: Vec<u64>,
    /// The values one object of the class makes: itself, its defaults, and the objects in
    /// those with theirs (what `make-instance` costs).
    pub weight: u64,
    /// Slots a copy does not carry over (they revert to their default).
    pub uncopied: Vec<SlotId>,
    /// What each default makes when an object is made (in the order of `defaults`), worked
    /// out at the first object made ([`defaults_made`]).
    pub made: OnceLock<Vec<Made>>,
}

/// What a default makes when an object is made: the persistent ids its objects take (in the
/// order `make-instance` makes them), the cells they count for in the memory budget (an
/// object one and one per slot, a list one per item; see [`crate::base::budget::charge`]) and
/// how deep its objects and lists nest (0 for a plain value, 1 for an object of plain slots).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Made {
    pub objects: u32,
    pub cells: u64,
    pub height: u32,
}

impl Made {
    /// What `self` and then `other` make; `other` nests inside the same value.
    fn and(self, other: Made) -> Made {
        Made {
            objects: self.objects.saturating_add(other.objects),
            cells: self.cells.saturating_add(other.cells),
            height: self.height.max(other.height),
        }
    }
}

/// What each default of `class` makes (see [`Made`]), worked out once per class. The classes
/// whose defaults hold their own objects are never made (an ontology refuses them by weight).
pub fn defaults_made(classes: &[Class], class: ClassId) -> &[Made] {
    let c = &classes[class as usize];
    c.made
        .get_or_init(|| c.defaults.iter().map(|d| init_made(classes, d)).collect())
}

/// What `init` makes: an object its class's own id and cells with its defaults', then the
/// slots it sets; a list one cell per item with its items'.
fn init_made(classes: &[Class], init: &Init) -> Made {
    match init {
        // The empty list is NIL.
        Init::List(items) if items.is_empty() => Made::default(),
        Init::List(items) => {
            let made = (items.iter()).fold(Made::default(), |a, i| a.and(init_made(classes, i)));
            Made {
                cells: made.cells.saturating_add(items.len() as u64),
                height: made.height.saturating_add(1),
                ..made
            }
        }
        Init::Instance(class, set) => {
            let c = &classes[*class as usize];
            let defaults = defaults_made(classes, *class);
            // A slot's height is the value set into it, else its default's.
            let kept = (c.slots.iter().zip(defaults))
                .filter(|(slot, _)| set.iter().all(|(s, _)| s != *slot))
                .map(|(_, m)| Made {
                    height: m.height,
                    ..Made::default()
                });
            let sets = (set.iter())
                .filter(|(s, _)| c.slots.contains(s))
                .map(|(_, i)| init_made(classes, i));
            let heights = kept.chain(sets).fold(Made::default(), Made::and).height;
            let own = Made {
                objects: 1,
                cells: 1 + c.slots.len() as u64,
                height: 0,
            };
            let made = defaults
                .iter()
                .fold(own, |a, m| a.and(Made { height: 0, ..*m }));
            let made = set.iter().fold(made, |a, (_, i)| {
                a.and(Made {
                    height: 0,
                    ..init_made(classes, i)
                })
            });
            Made {
                height: heights.saturating_add(1),
                ..made
            }
        }
        _ => Made::default(),
    }
}

#[derive(Debug)]
pub struct Ontology {
    pub profile: Profile,
    /// Shared with the objects whose defaults are made when first read ([`super::Entity`]).
    classes: Arc<Vec<Class>>,
    /// Names to ids, asked at every type check by name (FxHash: the names are the ontology
    /// files' own, and a lookup hashes a short name several times faster than SipHash).
    class_by_name: FxHashMap<String, ClassId>,
    slot_names: Vec<String>,
    slot_by_name: FxHashMap<String, SlotId>,
    /// `ancestor[c]` as a bitset over class ids, for O(1) `is_a`.
    ancestors: Vec<Vec<u64>>,
    /// Grams per unit by exact class.
    conversions: HashMap<ClassId, Vec<(ClassId, Number)>>,
    /// Diet tags a benchmark's own classes declare (the built-in ones are in the diet table).
    diet: HashMap<ClassId, Vec<String>>,
}

const ONTOLOGY_2023: &str = include_str!("../../kitchens/ontology-2023.json");
const ONTOLOGY_2024: &str = include_str!("../../kitchens/ontology-2024.json");

/// The most copies one `"count"` may ask for: far above any kitchen's (18 bowls), low enough
/// that a typing slip cannot exhaust memory.
pub const MAX_COUNT: u64 = 10_000;

/// The most values the counts of one file may make, counts nested in counts multiplying, and
/// the most a kitchen file makes in all, its objects' defaults included: 12 times the built-in
/// 2024 kitchen's 8,372 values, and about 50 MB of kitchen objects.
pub const MAX_COUNTED: u64 = 100_000;

/// The most values one object may make with its class's defaults (the objects in them made
/// with theirs): every object of the class costs this much when it is made, at load or by a
/// primitive. 62 times the built-in heaviest class's 160 (`failed-object`, 2024).
pub const MAX_OBJECT_VALUES: u64 = 10_000;

/// What the counts of one data file have made so far: a count's copies are charged with
/// everything its item holds, so nested counts are bounded as a product, not one by one, and
/// an object is charged with the values its class's defaults make.
#[derive(Debug)]
pub(crate) struct Counted {
    /// Values decoded so far, copies and objects' defaults included.
    values: u64,
    /// Values made by counts so far.
    counted: u64,
    /// The most `values` may reach: a kitchen's objects are all made when it loads, an
    /// ontology's defaults only when an object of their class is (and bounded per class).
    limit: u64,
}

impl Default for Counted {
    fn default() -> Self {
        Counted::within(u64::MAX)
    }
}

impl Counted {
    /// A budget of `limit` values for the whole file.
    pub(crate) fn within(limit: u64) -> Self {
        Counted {
            values: 0,
            counted: 0,
            limit,
        }
    }

    /// Charge `n` more values to the file.
    fn charge(&mut self, n: u64) -> Result<(), FieldError> {
        self.values = self.values.saturating_add(n);
        if self.values > self.limit {
            return Err(FieldError::new(format!(
                "here the file's values come to {}, its objects' defaults included; a file \
                 makes at most {}",
                self.values, self.limit
            )));
        }
        Ok(())
    }
}

/// A class's id and weight by its name (what `parse_init` needs of the ontology).
pub(crate) type ClassOf<'a> = dyn FnMut(&str) -> Result<(ClassId, u64), String> + 'a;

/// Decode the shared value encoding of the kitchen data files (see `kitchens/README.md`); a
/// list item `{"count": n, ...}` stands for n identical items. `class_of` gives a class's id
/// and the values one object of it makes. A problem names its field.
pub(crate) fn parse_init(
    j: &Json,
    class_of: &mut ClassOf<'_>,
    slot_of: &mut dyn FnMut(&str) -> Result<SlotId, String>,
    made: &mut Counted,
) -> Result<Init, FieldError> {
    made.values += 1;
    Ok(match j {
        Json::Null => Init::Nil,
        Json::Bool(true) => Init::T,
        Json::Bool(false) => Init::Nil,
        Json::Number(n) => Init::Num(match n.as_i64() {
            Some(i) => Number::int(i),
            None => Number::float(single_float(n)?),
        }),
        Json::String(s) => {
            let (class, weight) = class_of(s)?;
            made.charge(weight.saturating_sub(1))?;
            Init::Instance(class, Vec::new())
        }
        Json::Array(items) => {
            let mut out = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                let before = made.values;
                let init = parse_init(item, class_of, slot_of, made).map_err(|e| e.in_item(i))?;
                let count = match item.get("count") {
                    None => 1,
                    Some(c) => counted(c, made.values - before, made)
                        .map_err(|e| e.in_key("count").in_item(i))?,
                };
                out.extend(std::iter::repeat_n(init, count as usize));
            }
            Init::List(out)
        }
        Json::Object(map) => {
            if let Some(Json::String(text)) = map.get("string") {
                return Ok(Init::Str(Arc::from(text.as_str())));
            }
            if let Some(Json::String(r)) = map.get("ratio") {
                return ratio(r).map_err(|e| e.in_key("ratio"));
            }
            let class = match map.get("class") {
                Some(Json::String(c)) => {
                    let (class, weight) =
                        class_of(c).map_err(|e| FieldError::new(e).in_key("class"))?;
                    made.charge(weight.saturating_sub(1))?;
                    class
                }
                _ => {
                    return Err(FieldError::new(format!(
                        "an object without a class name: {j}"
                    )));
                }
            };
            let mut slots = Vec::new();
            for (k, v) in map {
                if k == "class" || k == "count" {
                    continue;
                }
                let slot = slot_of(k).map_err(|e| FieldError::new(e).in_key(k))?;
                slots.push((
                    slot,
                    parse_init(v, class_of, slot_of, made).map_err(|e| e.in_key(k))?,
                ));
            }
            Init::Instance(class, slots)
        }
    })
}

/// A list item's `count`, charged with the `size` values of its item (checked before any copy
/// is made).
fn counted(count: &Json, size: u64, made: &mut Counted) -> Result<u64, FieldError> {
    let count = count
        .as_u64()
        .filter(|n| *n <= MAX_COUNT)
        .ok_or_else(|| FieldError::new(format!("a count from 0 to {MAX_COUNT}")))?;
    made.counted = made.counted.saturating_add(count.saturating_mul(size));
    if made.counted > MAX_COUNTED {
        return Err(FieldError::new(format!(
            "{count} copies of an item of {size} values bring the values the file's counts make \
             to {}, counts in counts multiplying; a file's counts make at most {MAX_COUNTED}",
            made.counted
        )));
    }
    made.charge(size * count.saturating_sub(1))?;
    Ok(count)
}

/// A number with a fraction or an exponent as the single float the reference computes with:
/// one that would be infinite, or lose all its digits, is refused rather than changed.
fn single_float(n: &serde_json::Number) -> Result<f32, FieldError> {
    let wide = n.as_f64().unwrap_or(f64::NAN);
    let single = wide as f32;
    if wide == 0.0 || single.is_normal() {
        Ok(single)
    } else {
        Err(FieldError::new(format!(
            "{n} is not a single float: a magnitude from {:e} to {:e}, or 0",
            f32::MIN_POSITIVE,
            f32::MAX
        )))
    }
}

/// Each class's weight and its defaults' (see [`Class::weight`]), each class weighed once.
fn weigh(classes: &mut [Class]) {
    let mut weights = vec![None; classes.len()];
    let per_default: Vec<Vec<u64>> = (0..classes.len())
        .map(|c| {
            let defaults = &classes[c].defaults;
            defaults
                .iter()
                .map(|d| init_weight(classes, d, &mut weights))
                .collect()
        })
        .collect();
    for (class, default_weights) in classes.iter_mut().zip(per_default) {
        class.weight = default_weights.iter().fold(1, |a, w| a.saturating_add(*w));
        class.default_weights = default_weights;
    }
}

/// The values `init` makes: 1 for itself and its items, or its class's weight for an object
/// (plus the values of the slots it sets, which it makes after the defaults).
fn init_weight(classes: &[Class], init: &Init, weights: &mut [Option<u64>]) -> u64 {
    match init {
        Init::List(items) => items
            .iter()
            .fold(1, |a, i| a.saturating_add(init_weight(classes, i, weights))),
        Init::Instance(class, set) => {
            let c = *class as usize;
            let own = match weights[c] {
                Some(w) => w,
                None => {
                    // A class whose defaults hold its own objects weighs without end.
                    weights[c] = Some(u64::MAX);
                    let w = classes[c].defaults.iter().fold(1, |a: u64, d| {
                        a.saturating_add(init_weight(classes, d, weights))
                    });
                    weights[c] = Some(w);
                    w
                }
            };
            set.iter().fold(own, |a, (_, i)| {
                a.saturating_add(init_weight(classes, i, weights))
            })
        }
        _ => 1,
    }
}

/// Each class's precedence list as a bitset over class ids.
fn ancestor_bits(classes: &[Class]) -> Vec<Vec<u64>> {
    let words = classes.len().div_ceil(64);
    classes
        .iter()
        .map(|c| {
            let mut bits = vec![0u64; words];
            for &a in &c.precedence {
                bits[a as usize / 64] |= 1 << (a % 64);
            }
            bits
        })
        .collect()
}

/// An exact ratio written `"n/d"`.
fn ratio(text: &str) -> Result<Init, FieldError> {
    let bad = || FieldError::new(format!("`{text}` is not a ratio n/d of integers, d not 0"));
    let (n, d) = text.split_once('/').ok_or_else(bad)?;
    let n: i64 = n.trim().parse().map_err(|_| bad())?;
    let d: i64 = d.trim().parse().map_err(|_| bad())?;
    Ok(Init::Num(Number::ratio(n, d).ok_or_else(bad)?))
}

impl Ontology {
    pub fn builtin(profile: Profile) -> Ontology {
        let text = profile.pick(ONTOLOGY_2023, ONTOLOGY_2024);
        // Checked by the test suite; a failure here is a build defect, not a user error.
        Self::from_json(text, profile).expect("embedded ontology is valid")
    }

    pub fn from_json(text: &str, profile: Profile) -> Result<Ontology, DataFileError> {
        let root: Json = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let classes_json = root["classes"]
            .as_array()
            .ok_or("ontology: no classes array")?;
        let mut class_by_name = FxHashMap::default();
        for (i, c) in classes_json.iter().enumerate() {
            let name = c["name"].as_str().ok_or("class without name")?;
            class_by_name.insert(name.to_string(), i as ClassId);
        }
        let mut slot_names: Vec<String> = Vec::new();
        let mut slot_by_name: FxHashMap<String, SlotId> = FxHashMap::default();
        let mut slot_of = |s: &str| -> Result<SlotId, String> {
            if let Some(&id) = slot_by_name.get(s) {
                return Ok(id);
            }
            let id = slot_names.len() as SlotId;
            slot_names.push(s.to_string());
            slot_by_name.insert(s.to_string(), id);
            Ok(id)
        };
        let class_of_map = class_by_name.clone();
        let class_of = |s: &str| -> Result<ClassId, String> {
            class_of_map
                .get(s)
                .copied()
                .ok_or_else(|| format!("unknown class {s}"))
        };
        // Weighed once all classes are read (below): a default may name a later class.
        let mut unweighed = |s: &str| class_of(s).map(|c| (c, 1));
        let mut classes = Vec::new();
        let mut made = Counted::default();
        for (i, c) in classes_json.iter().enumerate() {
            let name = c["name"].as_str().unwrap_or_default().to_string();
            let mut precedence = vec![i as ClassId];
            for s in c["precedence"].as_array().map(Vec::as_slice).unwrap_or(&[]) {
                let s = s.as_str().ok_or("precedence entry not a string")?;
                if s == "entity" || s == "standard-object" {
                    // IRL's root classes carry no slots of ours.
                    if let Some(&id) = class_of_map.get(s) {
                        precedence.push(id);
                    }
                    continue;
                }
                precedence.push(class_of(s)?);
            }
            let mut slots = Vec::new();
            let mut defaults = Vec::new();
            for s in c["slots"].as_array().map(Vec::as_slice).unwrap_or(&[]) {
                let sname = s["name"].as_str().ok_or("slot without name")?;
                slots.push(slot_of(sname)?);
                let default = parse_init(&s["default"], &mut unweighed, &mut slot_of, &mut made);
                defaults.push(Arc::new(default.map_err(|e| e.to_string())?));
            }
            let uncopied = c["uncopied"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|s| s.as_str())
                        .filter_map(|s| slot_of(s).ok())
                        .collect()
                })
                .unwrap_or_default();
            classes.push(Class {
                name,
                precedence,
                slots,
                defaults,
                default_weights: Vec::new(),
                weight: 0,
                uncopied,
                made: OnceLock::new(),
            });
        }
        weigh(&mut classes);
        let ancestors = ancestor_bits(&classes);
        let mut conversions = HashMap::new();
        if let Some(table) = root["conversions"].as_object() {
            for (cls, units) in table {
                let c = class_of(cls)?;
                let mut v = Vec::new();
                for (unit, factor) in units.as_object().ok_or("conversion entry not an object")? {
                    let f = match parse_init(factor, &mut unweighed, &mut slot_of, &mut made)
                        .map_err(|e| e.to_string())?
                    {
                        Init::Num(n) => n,
                        _ => return Err(format!("conversion factor of {cls} not a number").into()),
                    };
                    v.push((class_of(unit)?, f));
                }
                conversions.insert(c, v);
            }
        }
        Ok(Ontology {
            profile,
            classes: Arc::new(classes),
            class_by_name,
            slot_names,
            slot_by_name,
            ancestors,
            conversions,
            diet: HashMap::new(),
        })
    }

    pub fn class(&self, id: ClassId) -> &Class {
        &self.classes[id as usize]
    }

    /// Every class by id, shared (what an object needs to make its defaults later).
    pub fn class_table(&self) -> &Arc<Vec<Class>> {
        &self.classes
    }

    pub fn class_name(&self, id: ClassId) -> &str {
        &self.classes[id as usize].name
    }

    pub fn class_id(&self, name: &str) -> Option<ClassId> {
        self.class_by_name.get(name).copied()
    }

    /// Class id of a name the code itself relies on (`kitchen-state`, `medium-bowl` ...).
    /// Missing ones are a defect of the data file, caught by the test suite.
    pub fn known(&self, name: &str) -> ClassId {
        self.class_id(name)
            .unwrap_or_else(|| panic!("ontology lacks class {name}"))
    }

    pub fn slot_id(&self, name: &str) -> Option<SlotId> {
        self.slot_by_name.get(name).copied()
    }

    pub fn slot_name(&self, id: SlotId) -> &str {
        &self.slot_names[id as usize]
    }

    /// `class` is `ancestor` or inherits from it.
    pub fn is_a(&self, class: ClassId, ancestor: ClassId) -> bool {
        self.ancestors[class as usize][ancestor as usize / 64] & (1 << (ancestor % 64)) != 0
    }

    pub fn is_a_name(&self, class: ClassId, ancestor: &str) -> bool {
        self.class_id(ancestor).is_some_and(|a| self.is_a(class, a))
    }

    pub fn has_slot(&self, class: ClassId, slot: SlotId) -> bool {
        self.classes[class as usize].slots.contains(&slot)
    }

    /// Grams per `unit` for objects of exactly `class` (no inheritance, as the reference).
    pub fn grams_per(&self, class: ClassId, unit: ClassId) -> Option<Number> {
        self.conversions
            .get(&class)?
            .iter()
            .find(|(u, _)| *u == unit)
            .map(|(_, f)| *f)
    }

    /// The diet tags a benchmark's `ontology.json` gives `class`, when it gives some.
    pub fn diet_tags(&self, class: ClassId) -> Option<&[String]> {
        self.diet.get(&class).map(Vec::as_slice)
    }

    /// Whether the conversion table has an entry for exactly `class`.
    pub fn has_conversions(&self, class: ClassId) -> bool {
        self.conversions.contains_key(&class)
    }

    pub fn classes(&self) -> impl Iterator<Item = (ClassId, &Class)> {
        self.classes
            .iter()
            .enumerate()
            .map(|(i, c)| (i as ClassId, c))
    }

    pub fn len(&self) -> usize {
        self.classes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.classes.is_empty()
    }

    /// `value` `unit` in the unit the gram table lists it under, as `convert-to-g` reads the
    /// table: `ml` as thousandths of `l`, `tablespoon` as three `teaspoon`s, any other unit as
    /// it is.
    pub fn in_table_unit(&self, value: Number, unit: ClassId) -> (Number, ClassId) {
        let table = |name: &str| self.class_id(name).unwrap_or(unit);
        match self.class_name(unit) {
            "ml" => (value.div(Number::int(1000)).unwrap_or(value), table("l")),
            "tablespoon" => (value.mul(Number::int(3)), table("teaspoon")),
            _ => (value, unit),
        }
    }
}

/// Lets validation check constants against the ontology without knowing its representation.
impl crate::language::validate::ClassLookup for Ontology {
    fn class_exists(&self, name: &str) -> bool {
        self.class_id(name).is_some()
    }

    fn is_a(&self, class: &str, ancestor: &str) -> bool {
        ancestor == "t"
            || matches!((self.class_id(class), self.class_id(ancestor)), (Some(c), Some(a)) if Ontology::is_a(self, c, a))
    }

    fn is_conceptualizable(&self, class: &str) -> bool {
        self.class_id(class)
            .is_some_and(|c| self.is_a_name(c, "conceptualizable"))
    }

    fn class_names(&self) -> Vec<&str> {
        self.classes.iter().map(|c| c.name.as_str()).collect()
    }
}
