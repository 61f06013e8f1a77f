//! Equality of kitchen objects and their locations, as the reference's metrics see them
//! (`equal-ontology-objects`, `similar-entities`, `find-location`, `similar-locations`).
//!
//! Goal conditions and the dish score both rest on this deep, id-blind equality: two objects
//! are "similar" when they have the same exact class and every slot is recursively similar.

use crate::base::budget;
use crate::simulation::Model;
use crate::world::ontology::{ClassId, SlotId};
use crate::world::{Entity, Value};
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// `similar-entities`: deep equality ignoring the ids (which entities never store as slots).
///
/// Not symmetric for lists: every element of `a` must have a similar element in `b` (plus equal
/// lengths), so argument order follows the reference's calls.
pub fn similar(a: &Value, b: &Value) -> bool {
    similar_ignoring(a, b, &[])
}

/// `equal-ontology-objects` with extra slots to ignore; the ignore list applies at every depth.
pub fn similar_ignoring(a: &Value, b: &Value, ignore: &[SlotId]) -> bool {
    similar_in(a, b, ignore, &mut Forget)
}

/// What a run of comparisons remembers of the pairs of objects it compared.
trait Memory {
    /// Whether objects `a` and `b` are similar: remembered, or found by `compare`.
    fn objects(
        &mut self,
        a: &Arc<Entity>,
        b: &Arc<Entity>,
        compare: impl FnOnce(&mut Self) -> bool,
    ) -> bool;
}

/// A lone comparison: nothing remembered.
struct Forget;

impl Memory for Forget {
    fn objects(
        &mut self,
        _: &Arc<Entity>,
        _: &Arc<Entity>,
        compare: impl FnOnce(&mut Self) -> bool,
    ) -> bool {
        compare(self)
    }
}

/// [`similar`] for many comparisons over the same runs, each pair of objects (by identity)
/// compared once. A scoring compares the same objects again and again: every goal with every
/// unused output, and each holds the sub-mixtures of the steps before it, shared by identity
/// between the steps of a run; a rewrite that changes an early ingredient changes every
/// mixture after it, so that most goals are missed and each is compared with every output.
///
/// Objects are immutable and an answer depends on the two objects only, so it holds as long
/// as they live; the memo holds every object it has an answer for, so that no address is
/// reused (and no object is changed in place, [`crate::world::edit`]) while it is kept.
#[derive(Default)]
pub struct Similarity {
    /// The slots ignored at every depth, as [`similar_ignoring`] ignores them.
    ignore: Vec<SlotId>,
    known: Known,
}

/// The most pairs a [`Similarity`] remembers. A long chain's every output compared with
/// every goal (100,000 ovens) repeats no pair, and remembering each cost 155 MB; the pairs a
/// scoring does repeat (a rewrite's missed goals against its mixtures) are a few thousand.
const REMEMBERED: usize = 1 << 16;

/// The answers of a [`Similarity`], by the addresses of the two objects (FxHash: the keys are
/// addresses, chosen by no input, and SipHash was a tenth of a scoring's dish comparison).
#[derive(Default)]
struct Known {
    answers: FxHashMap<(usize, usize), bool>,
    held: Vec<Arc<Entity>>,
}

impl Similarity {
    /// [`similar_ignoring`] with `ignore`, remembered.
    pub fn ignoring(ignore: &[SlotId]) -> Similarity {
        Similarity {
            ignore: ignore.to_vec(),
            known: Known::default(),
        }
    }

    /// [`similar`] (or [`similar_ignoring`]), remembered.
    pub fn similar(&mut self, a: &Value, b: &Value) -> bool {
        similar_in(a, b, &self.ignore, &mut self.known)
    }

    /// [`entities_similar`], remembered.
    pub fn entities_similar(&mut self, a: &Entity, b: &Entity) -> bool {
        entities_similar_in(a, b, &self.ignore, &mut self.known)
    }

    /// [`entities_similar`] of two shared objects, the pair itself remembered by identity (the
    /// same object twice is compared too, as `entities_similar` compares it).
    pub fn objects_similar(&mut self, a: &Arc<Entity>, b: &Arc<Entity>) -> bool {
        let Similarity { ignore, known } = self;
        a.class == b.class
            && known.objects(a, b, |memory| entities_similar_in(a, b, ignore, memory))
    }

    /// [`differing_slots`] (the slots compared as this memo compares them), remembered.
    pub fn differing_slots(&mut self, m: &Model, a: &Entity, b: &Entity) -> Vec<String> {
        differing_in(m, a, b, &self.ignore, &mut self.known)
    }
}

impl Memory for Known {
    fn objects(
        &mut self,
        a: &Arc<Entity>,
        b: &Arc<Entity>,
        compare: impl FnOnce(&mut Self) -> bool,
    ) -> bool {
        let key = (Arc::as_ptr(a) as usize, Arc::as_ptr(b) as usize);
        if let Some(&known) = self.answers.get(&key) {
            return known;
        }
        let answer = compare(self);
        if self.answers.len() >= REMEMBERED {
            return answer;
        }
        self.held.extend([Arc::clone(a), Arc::clone(b)]);
        self.answers.insert(key, answer);
        answer
    }
}

/// [`similar_ignoring`], what `memory` remembers used and kept.
fn similar_in(a: &Value, b: &Value, ignore: &[SlotId], memory: &mut impl Memory) -> bool {
    match (symbol(a), symbol(b)) {
        // NIL is both a symbol and the empty list; the symbol method wins (identity).
        (Some(x), Some(y)) => return x == y,
        (Some(_), None) | (None, Some(_)) => {
            // NIL against a non-empty list goes to the list method: the lengths differ.
            // Anything else against a symbol: the classes differ.
            return false;
        }
        (None, None) => {}
    }
    match (a, b) {
        (Value::Num(x), Value::Num(y)) => x.num_eq(y),
        // Strings compare case-insensitively (`equalp`).
        (Value::Str(x), Value::Str(y)) => x.eq_ignore_ascii_case(y),
        // Quadratic in the lists' lengths (thousands of portions): past the recipe's budget
        // the answer is no, and the recipe is refused.
        // The element at the same place is tried first (lists of similar objects mostly
        // hold them in the same order); the answer is the same, the search is pure.
        (Value::List(x), Value::List(y)) => {
            x.len() == y.len()
                && x.iter().enumerate().all(|(i, e)| {
                    !budget::spent()
                        && (y.get(i).is_some_and(|f| similar_in(e, f, ignore, memory))
                            || y.iter().any(|f| similar_in(e, f, ignore, memory)))
                })
        }
        // Objects of different classes differ (`entities_similar_in`'s first test), answered
        // before the memo is asked: most pairs a scoring compares differ by class.
        (Value::Obj(x), Value::Obj(y)) => {
            Arc::ptr_eq(x, y)
                || (x.class == y.class
                    && memory.objects(x, y, |memory| entities_similar_in(x, y, ignore, memory)))
        }
        _ => false,
    }
}

/// Same exact class and every slot of the first (except `ignore`) similar.
pub fn entities_similar(a: &Entity, b: &Entity, ignore: &[SlotId]) -> bool {
    entities_similar_in(a, b, ignore, &mut Forget)
}

/// [`entities_similar`], what `memory` remembers used and kept.
fn entities_similar_in(
    a: &Entity,
    b: &Entity,
    ignore: &[SlotId],
    memory: &mut impl Memory,
) -> bool {
    if a.class != b.class {
        return false;
    }
    a.slots().enumerate().all(|(i, (slot, va))| {
        if ignore.contains(&slot) {
            return true;
        }
        // Same class: same layout, so the slot is normally at the same index.
        let vb = match b.slot_at(i) {
            Some((s, v)) if s == slot => v,
            _ => b.val(slot),
        };
        similar_in(va, vb, ignore, memory)
    })
}

/// The symbol a value is, if it is one (`Nil`, `T`, raw symbols; an empty list is NIL).
fn symbol(v: &Value) -> Option<&str> {
    match v {
        Value::Nil => Some("nil"),
        Value::List(l) if l.is_empty() => Some("nil"),
        Value::T => Some("t"),
        Value::Sym(s) => Some(s),
        _ => None,
    }
}

/// The top-level slots in which two objects of the same class differ (for reports).
pub fn differing_slots(m: &Model, a: &Entity, b: &Entity) -> Vec<String> {
    differing_in(m, a, b, &[], &mut Forget)
}

/// [`differing_slots`], the slots compared ignoring `ignore`, what `memory` remembers used
/// and kept.
fn differing_in(
    m: &Model,
    a: &Entity,
    b: &Entity,
    ignore: &[SlotId],
    memory: &mut impl Memory,
) -> Vec<String> {
    if a.class != b.class {
        return vec!["class".into()];
    }
    a.slots()
        .filter(|(s, v)| !similar_in(v, b.val(*s), ignore, memory))
        .map(|(s, _)| m.onto.slot_name(s).to_string())
        .collect()
}

/// `find-location`: the classes of the containers from `place` down to the one directly
/// holding `obj` (matched by persistent id; at each level the direct contents first, then each
/// nested container in order). A list of kitchen entities is always "on the counter-top".
/// An object that is not found has the empty location, which matches every location.
pub fn find_location(m: &Model, obj: &Value, place: Option<&Entity>) -> Vec<ClassId> {
    let (Some(place), Some(obj)) = (place, obj.as_obj()) else {
        return Vec::new();
    };
    if m.onto.is_a(obj.class, m.k.list_of_kitchen_entities)
        && m.onto.is_a(place.class, m.k.kitchen_state)
    {
        return vec![place.class, m.k.counter_top];
    }
    let mut path = Vec::new();
    if locate(m, obj, place, &mut path) {
        path
    } else {
        Vec::new()
    }
}

fn locate(m: &Model, obj: &Entity, place: &Entity, path: &mut Vec<ClassId>) -> bool {
    let contents = place.val(m.k.contents).items();
    path.push(place.class);
    if contents
        .iter()
        .any(|e| e.as_obj().is_some_and(|e| e.pid == obj.pid))
    {
        return true;
    }
    for e in contents {
        if e.as_obj()
            .is_some_and(|e| m.k.is_container(e.class) && locate(m, obj, e, path))
        {
            return true;
        }
    }
    path.pop();
    false
}

/// `similar-locations`: the classes agree position by position over the shorter path only.
pub fn similar_locations(a: &[ClassId], b: &[ClassId]) -> bool {
    a.iter().zip(b).all(|(x, y)| x == y)
}

/// Class names of a location, for reports.
pub fn location_names(m: &Model, loc: &[ClassId]) -> Vec<String> {
    loc.iter()
        .map(|c| m.onto.class_name(*c).to_string())
        .collect()
}
