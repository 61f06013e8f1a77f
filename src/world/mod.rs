//! Kitchen entities: instances of ontology classes with slots, shared copy-on-write.
//!
//! The reference deep-copies the whole kitchen before every action and binds snapshots of
//! objects to variables. Here every object sits behind an `Arc`; a copy is a pointer copy and a
//! change copies only the path from the kitchen state down to the changed object
//! (`Arc::make_mut`). Snapshots therefore come for free and never change afterwards.
//!
//! What is made or copied is counted against the recipe's memory budget
//! ([`budget::charge`]): an object one cell and one per slot, a list one per item.

pub mod ontology;
pub mod rewrite;
pub mod seq;

use crate::base::budget;
use crate::base::number::Number;
use crate::world::ontology::{ClassId, Init, Ontology, SlotId};
use crate::world::seq::Seq;
use std::sync::Arc;

/// Identity that survives copying ("persistent-id"); all look-ups across kitchen states use it.
pub type Pid = u32;

#[derive(Clone, Debug)]
pub enum Value {
    Nil,
    T,
    Num(Number),
    /// A raw symbol inside a list constant of a network (`(a b)`); no primitive can use it.
    Sym(Arc<str>),
    /// A Lisp string; compared case-insensitively.
    Str(Arc<str>),
    Obj(Arc<Entity>),
    /// A list: its items shared with every copy of the value, and in parts with the lists
    /// made from it by an edit once it is long ([`Seq`]).
    List(Arc<Seq<Value>>),
}

impl Value {
    pub fn obj(e: Entity) -> Value {
        Value::Obj(Arc::new(e))
    }

    pub fn list(items: Vec<Value>) -> Value {
        budget::charge(items.len());
        if items.is_empty() {
            Value::Nil
        } else {
            Value::List(Arc::new(Seq::from(items)))
        }
    }

    pub fn as_obj(&self) -> Option<&Entity> {
        match self {
            Value::Obj(e) => Some(e),
            _ => None,
        }
    }

    pub fn as_num(&self) -> Option<Number> {
        match self {
            Value::Num(n) => Some(*n),
            _ => None,
        }
    }

    /// List elements (NIL is the empty list).
    pub fn items(&self) -> &Seq<Value> {
        static NONE: Seq<Value> = Seq::new();
        match self {
            Value::List(v) => v,
            _ => &NONE,
        }
    }

    /// NIL, which in Lisp is also the empty list.
    pub fn is_nil(&self) -> bool {
        match self {
            Value::Nil => true,
            Value::List(items) => items.is_empty(),
            _ => false,
        }
    }

    pub fn truthy(&self) -> bool {
        !self.is_nil()
    }

    /// Whether some path from this value down through objects' slots and lists' items is
    /// longer than `limit` values. Walked with an explicit stack, each object or list once
    /// (shared ones are remembered by address), so the walk itself neither recurses nor
    /// follows the paths of a shared value twice. A value held once (its `Arc` counted once)
    /// is reached only through its one holder, so it is met once and not remembered: what a
    /// primitive has just made (a thousand cracked eggs) costs no look-up.
    pub fn nested_deeper_than(&self, limit: usize) -> bool {
        /// The identity of an object or list, and whether it is held more than once (only then
        /// is its height remembered).
        fn key(v: &Value) -> Option<(usize, bool)> {
            match v {
                Value::Obj(e) => Some((Arc::as_ptr(e) as usize, Arc::strong_count(e) > 1)),
                Value::List(l) => Some((
                    Arc::as_ptr(l) as *const u8 as usize,
                    Arc::strong_count(l) > 1,
                )),
                _ => None,
            }
        }
        fn child(v: &Value, i: usize) -> Option<&Value> {
            match v {
                Value::Obj(e) => e.slots.get(i).map(|(_, c)| c),
                Value::List(l) => l.get(i),
                _ => None,
            }
        }
        if key(self).is_none() {
            return false;
        }
        // Heights of the values walked so far: 1 for an object of plain slots.
        let mut heights: std::collections::HashMap<usize, usize> = Default::default();
        // The path: each value, its next child, the greatest height among its children.
        let mut path: Vec<(&Value, usize, usize)> = vec![(self, 0, 0)];
        loop {
            let depth = path.len();
            if depth > limit {
                return true;
            }
            let Some((value, next, tallest)) = path.last_mut() else {
                return false;
            };
            let Some(c) = child(value, *next) else {
                let (value, _, tallest) = path.pop().expect("the path is not empty");
                let height = tallest + 1;
                if let Some((k, true)) = key(value) {
                    heights.insert(k, height);
                }
                if let Some(parent) = path.last_mut() {
                    parent.2 = parent.2.max(height);
                }
                continue;
            };
            *next += 1;
            let Some((k, shared)) = key(c) else { continue };
            let known = match shared {
                true => heights.get(&k).copied(),
                false => None,
            };
            match known {
                Some(h) if depth + h > limit => return true,
                Some(h) => *tallest = (*tallest).max(h),
                None => path.push((c, 0, 0)),
            }
        }
    }
}

#[derive(Clone, Debug)]
pub struct Entity {
    pub class: ClassId,
    pub pid: Pid,
    /// Every effective slot of the class (except the ids), in the class's layout order.
    pub slots: Vec<(SlotId, Value)>,
}

impl Entity {
    pub fn get(&self, slot: SlotId) -> Option<&Value> {
        self.slots.iter().find(|(s, _)| *s == slot).map(|(_, v)| v)
    }

    /// The slot's value, NIL when the class has no such slot.
    pub fn val(&self, slot: SlotId) -> &Value {
        self.get(slot).unwrap_or(&Value::Nil)
    }

    pub fn has(&self, slot: SlotId) -> bool {
        self.get(slot).is_some()
    }

    /// Set a slot; `false` when the class lacks it (a Lisp error in the reference).
    #[must_use]
    pub fn set(&mut self, slot: SlotId, v: Value) -> bool {
        match self.slots.iter_mut().find(|(s, _)| *s == slot) {
            Some((_, old)) => {
                *old = v;
                true
            }
            None => false,
        }
    }

    /// Mutable access to a list-valued slot (NIL becomes an empty list). A list another value
    /// holds too is copied first, a long one sharing its chunks ([`Seq`]); the copy counts
    /// against the memory budget.
    pub fn list_mut(&mut self, slot: SlotId) -> Option<&mut Seq<Value>> {
        let (_, v) = self.slots.iter_mut().find(|(s, _)| *s == slot)?;
        if !matches!(v, Value::List(_)) {
            *v = Value::List(Arc::new(Seq::new()));
        }
        match v {
            Value::List(l) => {
                if Arc::get_mut(l).is_none() {
                    budget::charge(l.copied_by_edit());
                }
                Some(Arc::make_mut(l))
            }
            _ => None,
        }
    }

    /// Put `items` before the items of a list-valued slot (NIL is the empty list), sharing the
    /// items it held ([`Seq::prepend`]); `false` when the class lacks the slot.
    #[must_use]
    pub fn prepend(&mut self, slot: SlotId, items: Vec<Value>) -> bool {
        budget::charge(items.len());
        let Some(list) = self.list_mut(slot) else {
            return false;
        };
        list.prepend(items);
        self.tidy_list(slot);
        true
    }

    /// The cells this object counts for on its own (see [`budget::MEMORY_BUDGET`]).
    fn cells(&self) -> usize {
        1 + self.slots.len()
    }

    /// Normalise an emptied list slot back to NIL (the reference's empty list *is* NIL).
    pub fn tidy_list(&mut self, slot: SlotId) {
        if let Some((_, v)) = self.slots.iter_mut().find(|(s, _)| *s == slot)
            && matches!(v, Value::List(l) if l.is_empty())
        {
            *v = Value::Nil;
        }
    }
}

/// Mutable access to an object, copied first when another value holds it too
/// (`Arc::make_mut`); the copy counts against the memory budget.
pub fn edit(e: &mut Arc<Entity>) -> &mut Entity {
    if Arc::get_mut(e).is_none() {
        budget::charge(e.cells());
    }
    Arc::make_mut(e)
}

/// Creates objects: the source of fresh persistent ids for one simulation run.
#[derive(Clone, Debug)]
pub struct Maker<'o> {
    pub onto: &'o Ontology,
    next_pid: Pid,
}

impl<'o> Maker<'o> {
    pub fn new(onto: &'o Ontology, first_pid: Pid) -> Self {
        Maker {
            onto,
            next_pid: first_pid,
        }
    }

    /// The last persistent id handed out, to go on with the ids of a run later
    /// ([`Maker::new`] with it).
    pub fn last_pid(&self) -> Pid {
        self.next_pid
    }

    pub fn fresh_pid(&mut self) -> Pid {
        self.next_pid += 1;
        self.next_pid
    }

    /// `make-instance`: a fresh object with the class defaults.
    pub fn make(&mut self, class: ClassId) -> Entity {
        let pid = self.fresh_pid();
        let c = self.onto.class(class);
        let mut slots = Vec::with_capacity(c.slots.len());
        for (slot, init) in c.slots.iter().zip(c.defaults.iter()) {
            slots.push((*slot, self.init(init)));
        }
        let e = Entity { class, pid, slots };
        budget::charge(e.cells());
        e
    }

    /// `make-instance` with some slots given.
    pub fn make_with(&mut self, class: ClassId, set: &[(SlotId, Value)]) -> Entity {
        let mut e = self.make(class);
        for (s, v) in set {
            let _ = e.set(*s, v.clone());
        }
        e
    }

    pub fn init(&mut self, init: &Init) -> Value {
        match init {
            Init::Nil => Value::Nil,
            Init::T => Value::T,
            Init::Num(n) => Value::Num(*n),
            Init::Str(s) => Value::Str(s.clone()),
            Init::List(items) => Value::list(items.iter().map(|i| self.init(i)).collect()),
            Init::Instance(class, set) => {
                let mut e = self.make(*class);
                for (s, i) in set {
                    let v = self.init(i);
                    let _ = e.set(*s, v);
                }
                Value::obj(e)
            }
        }
    }

    /// `copy-object`: same class and persistent id, slots carried over except those the
    /// class's copy methods do not copy (they take their defaults again).
    pub fn copy(&mut self, e: &Entity) -> Entity {
        let c = self.onto.class(e.class);
        budget::charge(e.cells());
        let mut out = e.clone();
        for &slot in &c.uncopied {
            if let Some(i) = c.slots.iter().position(|s| *s == slot) {
                let v = self.init(&c.defaults[i]);
                let _ = out.set(slot, v);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An object holding `inner` in its one slot.
    fn wrap(inner: Value) -> Value {
        Value::obj(Entity {
            class: 0,
            pid: 0,
            slots: vec![(0, inner)],
        })
    }

    fn chain(levels: usize) -> Value {
        (1..levels).fold(wrap(Value::Nil), |v, _| wrap(v))
    }

    #[test]
    fn nesting_counts_objects_and_lists_on_the_longest_path() {
        assert!(!Value::Nil.nested_deeper_than(0));
        assert!(!chain(5).nested_deeper_than(5));
        assert!(chain(5).nested_deeper_than(4));
        // A list is a level of its own: object → list → object.
        let listed = wrap(Value::list(vec![wrap(Value::Nil), Value::T]));
        assert!(!listed.nested_deeper_than(3));
        assert!(listed.nested_deeper_than(2));
        // The deepest of several branches decides.
        let uneven = Value::list(vec![chain(2), chain(7), chain(1)]);
        assert!(!uneven.nested_deeper_than(8));
        assert!(uneven.nested_deeper_than(7));
    }

    #[test]
    fn shared_values_are_walked_once_and_measured_where_they_sit() {
        // Each level holds the one below twice: 2^60 paths, 60 distinct objects.
        let mut v = wrap(Value::Nil);
        for _ in 0..59 {
            v = Value::obj(Entity {
                class: 0,
                pid: 0,
                slots: vec![(0, v.clone()), (1, v)],
            });
        }
        assert!(!v.nested_deeper_than(60));
        assert!(v.nested_deeper_than(59));
        // A value first met shallow and then deeper is measured at its deeper place.
        let shared = chain(3);
        let v = Value::list(vec![shared.clone(), wrap(wrap(shared))]);
        assert!(!v.nested_deeper_than(6));
        assert!(v.nested_deeper_than(5));
    }

    /// A place holding `items` in its slot 0 (contents) and a plain value in slot 1.
    fn place(pid: Pid, items: Vec<Value>) -> Arc<Entity> {
        Arc::new(Entity {
            class: 0,
            pid,
            slots: vec![(0, Value::list(items)), (1, Value::T)],
        })
    }

    #[test]
    fn a_kitchen_state_copy_shares_what_a_change_does_not_touch() {
        use crate::base::budget::{self, Budget};
        // A kitchen of two places, each holding one object: the snapshot an earlier binding
        // keeps, and the state the next action changes one object of.
        let (fridge, counter) = (
            place(2, vec![Value::Obj(place(4, vec![]))]),
            place(3, vec![Value::Obj(place(5, vec![]))]),
        );
        let snapshot = place(1, vec![Value::Obj(fridge), Value::Obj(counter)]);
        let mut next = snapshot.clone();
        let charged = Budget::new(std::time::Duration::from_secs(60)).run(|| {
            let before = budget::cells();
            // The change's path: kitchen → its contents → the counter → its contents → object.
            let kitchen = edit(&mut next);
            let places = kitchen.list_mut(0).expect("the kitchen has contents");
            let Some(Value::Obj(counter)) = places.get_mut(1) else {
                unreachable!("the counter is an object")
            };
            let on_counter = edit(counter).list_mut(0).expect("the counter has contents");
            let Some(Value::Obj(object)) = on_counter.get_mut(0) else {
                unreachable!("the counter holds an object")
            };
            assert!(edit(object).set(1, Value::Nil));
            budget::cells() - before
        });
        // What the path holds is copied and charged, an object a cell and one per slot, a list
        // one per item: kitchen 3, its places 2, counter 3, its contents 1, object 3. No more.
        assert_eq!(charged, 3 + 2 + 3 + 1 + 3);
        let (old, new) = (snapshot.val(0).items(), next.val(0).items());
        let obj = |v: &Value| match v {
            Value::Obj(e) => e.clone(),
            _ => unreachable!("places are objects"),
        };
        // The untouched place is the same object in both states, its contents too.
        assert!(Arc::ptr_eq(&obj(&old[0]), &obj(&new[0])));
        assert!(!Arc::ptr_eq(&obj(&old[1]), &obj(&new[1])));
        // The snapshot still holds the object as it was.
        assert!(
            obj(&old[1].as_obj().unwrap().val(0).items()[0])
                .val(1)
                .truthy()
        );
        assert!(
            obj(&new[1].as_obj().unwrap().val(0).items()[0])
                .val(1)
                .is_nil()
        );
        // Ids survive the copy: the changed path has the same persistent ids.
        assert_eq!(obj(&new[1]).pid, 3);
        assert_eq!(next.pid, 1);
    }

    /// A counter-top of 20,000 portions (what one portioning makes at most) and one more put in
    /// front of it by the next kitchen state: the new state's list shares the old one's chunks,
    /// so each portion but those of the chunk the new one went into is held once, and the
    /// copy is charged for that chunk only. A copied list held every portion twice and was
    /// charged 20,000 cells, for every later kitchen state that changed the counter-top.
    #[test]
    fn a_kitchen_state_that_adds_a_portion_shares_the_counter_tops_other_portions() {
        use crate::base::budget::{self, Budget};
        use crate::world::seq::FLAT_MAX;
        let portions = (0..20_000).map(|pid| Value::Obj(place(10 + pid, vec![])));
        let snapshot = place(1, vec![Value::Obj(place(2, portions.collect()))]);
        let mut next = snapshot.clone();
        let charged = Budget::new(std::time::Duration::from_secs(60)).run(|| {
            let before = budget::cells();
            let kitchen = edit(&mut next);
            let places = kitchen.list_mut(0).expect("the kitchen has contents");
            let Some(Value::Obj(counter)) = places.get_mut(0) else {
                unreachable!("the counter is an object")
            };
            let on_counter = edit(counter).list_mut(0).expect("the counter has contents");
            on_counter.insert(0, Value::Obj(place(9, vec![])));
            budget::cells() - before
        });
        fn on_counter(ks: &Entity) -> Vec<Option<&Entity>> {
            let counter = ks.val(0).items()[0].as_obj().expect("a counter");
            counter.val(0).items().iter().map(Value::as_obj).collect()
        }
        let (old, new) = (on_counter(&snapshot), on_counter(&next));
        assert_eq!((old.len(), new.len()), (20_000, 20_001));
        assert_eq!(new[0].map(|p| p.pid), Some(9));
        // The same portions in the same order.
        assert!(
            old.iter()
                .zip(&new[1..])
                .all(|(a, b)| a.map(|a| a.pid) == b.map(|b| b.pid))
        );
        let held_twice = snapshot.val(0).items()[0]
            .as_obj()
            .expect("a counter")
            .val(0)
            .items()
            .iter()
            .filter(|p| matches!(p, Value::Obj(p) if Arc::strong_count(p) > 1))
            .count();
        assert!(held_twice <= FLAT_MAX, "{held_twice} portions held twice");
        // Kitchen 3 cells, its places 1, counter 3, the counter's contents one edit's chunks.
        assert_eq!(charged, 3 + 1 + 3 + FLAT_MAX as u64);
    }

    #[test]
    fn a_chain_far_deeper_than_the_call_stack_allows_is_measured() {
        // Dropping it would recurse as deep: it is leaked, as the simulator never builds it.
        let deep = std::mem::ManuallyDrop::new(chain(200_000));
        assert!(deep.nested_deeper_than(199_999));
        assert!(!deep.nested_deeper_than(200_000));
    }
}
