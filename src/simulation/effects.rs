//! What a step does beyond its bindings, recorded while the primitive runs and applied by the
//! engine when the step ends. Primitives reach these from deep helpers (taking a default tool,
//! changing a found list item) that have no access to the step, so the record is per thread:
//! a step runs on one thread from start to end, and the engine clears the record before each.

use crate::world::{Entity, Pid};
use std::cell::RefCell;
use std::sync::Arc;

#[derive(Default)]
pub struct Effects {
    /// Objects taken from the counter-top to the counter-top, which the reference loses (see
    /// [`crate::simulation::kitchen::take_default`]): removed from the kitchen state the step
    /// produces.
    pub lost: Vec<Pid>,
    /// List items the step changed in place, as (before, after). HEAD's `find-kitchen-entities`
    /// hands a primitive the list's own objects, which are also the objects of every earlier
    /// binding holding them, so those bindings show the change too.
    pub aliased: Vec<(Arc<Entity>, Arc<Entity>)>,
}

thread_local! {
    static EFFECTS: RefCell<Effects> = RefCell::new(Effects::default());
}

/// Record an object lost by this step.
pub fn lost(pid: Pid) {
    EFFECTS.with(|e| e.borrow_mut().lost.push(pid));
}

/// Record that list item `before` became `after` in this step.
pub fn aliased(before: Arc<Entity>, after: &Arc<Entity>) {
    if !Arc::ptr_eq(&before, after) {
        EFFECTS.with(|e| e.borrow_mut().aliased.push((before, after.clone())));
    }
}

/// The effects recorded since the last call (and forget them).
pub fn take() -> Effects {
    EFFECTS.with(|e| std::mem::take(&mut *e.borrow_mut()))
}
