//! Executing a network in the symbolic kitchen, as the reference's IRL engine does.
//!
//! Constants become fresh concept objects, every `?variable` one binding slot (value,
//! availability time) that is bound at most once. A primitive runs when the set of its bound
//! arguments is exactly the input set of one of its cases; the engine searches depth-first for
//! an ordering that runs every action and binds every variable. Without one the recipe has no
//! execution (the reference's `NIL`). Primitives never mutate what they were given: each works
//! on a copy of its input kitchen state, so bindings are snapshots.

mod aliases;
pub mod benchmark_world;
mod call;
mod dead_ends;
pub mod effects;
mod engine;
pub mod json_primitive;
pub mod kitchen;
pub mod known;
mod model;
pub mod primitives;
mod runnable;
pub mod stepwise;

use crate::base::budget::{self, Budget, Phase};
use crate::base::number::Number;
use crate::base::profile::Profile;
use crate::data::catalogue::{Catalogue, DataFileError, PrimitiveSig, Role};
use crate::data::data_file::FieldError;
use crate::language::ast::{Arg, Recipe};
use crate::language::validate::Validator;
use crate::world::ontology::{ClassId, Counted, MAX_COUNTED, Ontology, SlotId, parse_init};
use crate::world::{Entity, Maker, Pid, Value};
use dead_ends::{DeadEnds, DoneSet};
use known::Known;
use runnable::Runnable;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

pub use call::{ArgIn, Call, Primitive};
use engine::*;
pub use engine::{FirstPath, has_type};
pub use model::{Model, builtin_kitchen};

/// The most actions a network may have to be simulated. A run keeps every kitchen state it
/// produced (bindings are snapshots sharing what each action left unchanged), about 2.0 to
/// 2.5 KB per action on long chains (docs/performance.md), so this bounds a run to about
/// 250 MB; gold networks have about 40 actions. Larger networks are refused before the run
/// starts.
pub const MAX_ACTIONS: usize = 100_000;

/// The deepest an object a primitive makes may be nested (objects in slots, items in lists):
/// the metrics compare and copy objects level by level, so this bounds their recursion (and
/// their time, which grows with the depth times the number of outputs compared). Gold dishes
/// are nested a few levels deep. Placed where the reference stops (docs/differential.md): it
/// answered a chain of 498 mixtures, each the input of the next, and gave no answer to one of
/// 1,000; this lets 997 run (about 2,000 levels: under 1 MB of stack on a scoring thread, which
/// has 2 MB) and refuses the next at the action that would nest it deeper.
pub const MAX_NESTING: usize = 2_000;

/// A run-time error that aborts the reference's whole evaluation (it writes no CSV).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{message}")]
pub struct SimError {
    pub message: String,
    /// Index of the predicate being executed, when known.
    pub predicate: Option<usize>,
    /// What ran out when the recipe's budget refused the run (the action itself signalled
    /// nothing), for the words a front end puts around the message.
    pub budget: Option<budget::Cause>,
}

impl SimError {
    pub fn new(message: impl Into<String>) -> SimError {
        SimError {
            message: message.into(),
            predicate: None,
            budget: None,
        }
    }

    /// The error of action `predicate`.
    pub fn at(message: impl Into<String>, predicate: usize) -> SimError {
        SimError {
            predicate: Some(predicate),
            ..SimError::new(message)
        }
    }

    /// The refusal of `recipe`'s run by its spent budget, where the work was.
    pub fn over_budget(spent: &budget::Exhausted, recipe: &Recipe) -> SimError {
        SimError {
            message: spent.message(&recipe.id, |p| recipe.action_name(p)),
            predicate: spent.action,
            budget: Some(spent.cause),
        }
    }
}

/// One variable's binding: its value (`Nil` = unbound), score and availability time.
#[derive(Clone, Debug)]
pub struct Binding {
    pub value: Value,
    pub score: f32,
    pub available_at: Option<Number>,
}

impl Binding {
    const UNBOUND: Binding = Binding {
        value: Value::Nil,
        score: 0.0,
        available_at: None,
    };

    pub fn is_bound(&self) -> bool {
        self.value.truthy()
    }
}

/// One executed action.
#[derive(Clone, Debug)]
pub struct Step {
    /// Index of the predicate in the recipe.
    pub predicate: usize,
    /// Which case of the primitive ran.
    pub case: usize,
    /// The kitchen time when it started (that of its input kitchen state).
    pub start: Option<Number>,
    /// List items it changed in place (see [`effects::Effects::aliased`]), when it changed
    /// any: a long network keeps a step per action and nearly all change none, so a step holds
    /// a thin pointer (8 bytes; a boxed slice was 16).
    aliased: Option<Box<Aliased>>,
}

/// The list items one step changed in place: what each was, and what it became.
#[derive(Clone, Debug)]
struct Aliased(Vec<(Arc<Entity>, Arc<Entity>)>);

impl Step {
    /// The list items this step changed in place, as they were and as they became.
    pub(crate) fn aliased(&self) -> &[(Arc<Entity>, Arc<Entity>)] {
        self.aliased.as_deref().map_or(&[], |a| &a.0)
    }
}

/// The result of running a network.
#[derive(Clone, Debug)]
pub struct Execution {
    /// Binding slot of every argument of every predicate (constants have slots of their own).
    pub slots: ActionSlots,
    /// Names of the binding slots: the variable name, or the constant as written.
    pub names: SlotNames,
    pub bindings: Vec<Binding>,
    /// Executed actions in execution order (of the solution, or of the longest attempt).
    pub steps: Vec<Step>,
    /// Whether an ordering ran every action and bound every variable.
    pub solved: bool,
    /// Per action, whether it repeats an earlier one word for word and so ran (or not) with it.
    pub repeat: Vec<bool>,
}

/// The binding slot of each argument of each action (`slots[p]`), one after another in one
/// list: a long network has an action per few slots, and a list of its own per action cost
/// more than its slots.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ActionSlots {
    slots: Vec<usize>,
    /// Where each action's slots end in `slots` (fewer than 2^32: `MAX_ACTIONS` actions).
    ends: Vec<u32>,
}

impl ActionSlots {
    /// The slots of one action.
    pub(crate) fn one(slots: &[usize]) -> ActionSlots {
        let mut one = ActionSlots::default();
        one.push(slots);
        one
    }

    pub(crate) fn push(&mut self, slots: &[usize]) {
        self.slots.extend_from_slice(slots);
        let end = u32::try_from(self.slots.len()).expect("fewer than 2^32 slots");
        self.ends.push(end);
    }

    /// How many actions.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    pub fn get(&self, p: usize) -> Option<&[usize]> {
        let end = *self.ends.get(p)? as usize;
        let start = p
            .checked_sub(1)
            .map_or(0, |before| self.ends[before] as usize);
        Some(&self.slots[start..end])
    }

    pub fn iter(&self) -> impl Iterator<Item = &[usize]> {
        (0..self.len()).filter_map(|p| self.get(p))
    }

    /// Keep the first `len` actions' slots.
    pub(crate) fn truncate(&mut self, len: usize) {
        self.ends.truncate(len);
        self.slots
            .truncate(self.ends.last().map_or(0, |&end| end as usize));
    }

    pub(crate) fn shrink_to_fit(&mut self) {
        self.slots.shrink_to_fit();
        self.ends.shrink_to_fit();
    }
}

impl std::ops::Index<usize> for ActionSlots {
    type Output = [usize];

    fn index(&self, p: usize) -> &[usize] {
        self.get(p).expect("an action of the network")
    }
}

/// The names of binding slots (`?x`, or a constant as written), one after another in one
/// text: a long network has hundreds of thousands of slots, and a string of its own per name
/// cost more than the name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SlotNames {
    text: String,
    /// Where each name ends in `text` (a network's names are far shorter than 4 GB: its text
    /// is at most `MAX_INPUT_BYTES`).
    ends: Vec<u32>,
}

impl SlotNames {
    pub(crate) fn push(&mut self, name: impl std::fmt::Display) {
        use std::fmt::Write;
        let _ = write!(self.text, "{name}");
        let end = u32::try_from(self.text.len()).expect("slot names shorter than 4 GB");
        self.ends.push(end);
    }

    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    pub fn get(&self, slot: usize) -> Option<&str> {
        let end = *self.ends.get(slot)? as usize;
        let start = slot
            .checked_sub(1)
            .map_or(0, |before| self.ends[before] as usize);
        Some(&self.text[start..end])
    }

    pub fn iter(&self) -> impl Iterator<Item = &str> {
        (0..self.len()).filter_map(|slot| self.get(slot))
    }

    /// Keep the first `len` names.
    pub(crate) fn truncate(&mut self, len: usize) {
        self.ends.truncate(len);
        self.text
            .truncate(self.ends.last().map_or(0, |&end| end as usize));
    }

    pub(crate) fn shrink_to_fit(&mut self) {
        self.text.shrink_to_fit();
        self.ends.shrink_to_fit();
    }
}

impl std::ops::Index<usize> for SlotNames {
    type Output = str;

    fn index(&self, slot: usize) -> &str {
        self.get(slot).expect("a slot of the network")
    }
}

impl Execution {
    /// The reference's execution time: the largest availability time of any binding.
    pub fn execution_time(&self) -> Option<Number> {
        self.bindings
            .iter()
            .filter_map(|b| b.available_at)
            .reduce(|a, b| a.max(b))
    }

    /// The value bound to argument `arg` of predicate `p`.
    pub fn value(&self, p: usize, arg: usize) -> &Value {
        &self.bindings[self.slots[p][arg]].value
    }
}

#[cfg(test)]
mod tests {
    use super::SlotNames;

    #[test]
    fn slot_names_read_back_as_written_and_truncated() {
        let mut names = SlotNames::default();
        names.push("?ks0");
        names.push(format_args!("?{}", "whisk-1"));
        names.push(crate::base::number::Number::int(180));
        assert_eq!(
            names.iter().collect::<Vec<_>>(),
            ["?ks0", "?whisk-1", "180"]
        );
        assert_eq!(
            (&names[1], names.get(3), names.len()),
            ("?whisk-1", None, 3)
        );
        names.truncate(1);
        names.push("medium-bowl");
        assert_eq!(names.iter().collect::<Vec<_>>(), ["?ks0", "medium-bowl"]);
    }
}
