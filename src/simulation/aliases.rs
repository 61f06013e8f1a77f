//! HEAD's shared list items, shown in the bindings at the end of a run.
//!
//! The 2024 reference's `find-kitchen-entities` hands a primitive the list's own objects, not
//! the kitchen state's: a primitive that lines, tops or flattens the items of a list changes
//! the very objects that earlier bindings hold (the list a `fetch` made, the portions of a
//! `portion-and-arrange`), so the goal-condition and dish comparisons see those bindings as
//! the items last became. Objects here are snapshots; the engine records each in-place change
//! ([`super::effects::Effects::aliased`]) and this module rewrites the bindings once the run
//! is over. Kitchen states are left alone: a kitchen copy makes new objects, and no metric
//! reads objects of an earlier kitchen state.

use super::{Binding, Model, Step};
use crate::world::seq::Seq;
use crate::world::{Entity, Value};
use rustc_hash::FxHashMap as HashMap;
use std::sync::Arc;

/// Show in `bindings` what every changed list item became by the end of `steps`.
pub fn show(model: &Model, steps: &[Step], bindings: &mut [Binding]) {
    let mut became: HashMap<*const Entity, Arc<Entity>> = HashMap::default();
    for step in steps {
        for (before, after) in step.aliased() {
            became.insert(Arc::as_ptr(before), after.clone());
        }
    }
    if became.is_empty() {
        return;
    }
    let mut resolver = Resolver {
        became,
        seen: HashMap::default(),
    };
    let kitchen_state = model.k.kitchen_state;
    for b in bindings {
        let is_state = b
            .value
            .as_obj()
            .is_some_and(|e| model.onto.is_a(e.class, kitchen_state));
        if !is_state && let Some(v) = resolver.value(&b.value) {
            b.value = v;
        }
    }
}

struct Resolver {
    /// By address (FxHash: an address needs no seeded hasher, and SipHash cost a tenth of
    /// the rewrite).
    became: HashMap<*const Entity, Arc<Entity>>,
    /// Objects already rewritten (None: unchanged), by address: shared parts are walked once.
    seen: HashMap<*const Entity, Option<Arc<Entity>>>,
}

impl Resolver {
    /// The object as it last became (following changes of changes).
    fn last(&self, e: &Arc<Entity>) -> Arc<Entity> {
        let mut current = e;
        // Each change makes a new object, so the chain has no cycle; the bound is a guard.
        for _ in 0..=self.became.len() {
            match self.became.get(&Arc::as_ptr(current)) {
                Some(next) => current = next,
                None => break,
            }
        }
        current.clone()
    }

    /// `v` rewritten, or None when nothing in it changed.
    fn value(&mut self, v: &Value) -> Option<Value> {
        match v {
            Value::Obj(e) => self.object(e).map(Value::Obj),
            Value::List(items) => {
                let mut out: Option<Seq<Value>> = None;
                for (i, item) in items.iter().enumerate() {
                    if let Some(new) = self.value(item)
                        && let Some(slot) = out.get_or_insert_with(|| (**items).clone()).get_mut(i)
                    {
                        *slot = new;
                    }
                }
                out.map(|items| Value::List(Arc::new(items)))
            }
            _ => None,
        }
    }

    fn object(&mut self, e: &Arc<Entity>) -> Option<Arc<Entity>> {
        let key = Arc::as_ptr(e);
        if let Some(done) = self.seen.get(&key) {
            return done.clone();
        }
        // Mark before descending, so that a cycle (none is expected) ends.
        self.seen.insert(key, None);
        let last = self.last(e);
        let mut rebuilt: Option<Entity> = None;
        for (slot, value) in last.made_slots() {
            if let Some(new) = self.value(value) {
                let _ = rebuilt
                    .get_or_insert_with(|| (*last).clone())
                    .set(slot, new);
            }
        }
        let out = match rebuilt {
            Some(entity) => Some(Arc::new(entity)),
            None => (!Arc::ptr_eq(&last, e)).then_some(last),
        };
        self.seen.insert(key, out.clone());
        out
    }
}
