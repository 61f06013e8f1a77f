//! Executing a network in the symbolic kitchen, as the reference's IRL engine does.
//!
//! Constants become fresh concept objects, every `?variable` one binding slot (value,
//! availability time) that is bound at most once. A primitive runs when the set of its bound
//! arguments is exactly the input set of one of its cases; the engine searches depth-first for
//! an ordering that runs every action and binds every variable. Without one the recipe has no
//! execution (the reference's `NIL`). Primitives never mutate what they were given: each works
//! on a copy of its input kitchen state, so bindings are snapshots.

mod aliases;
mod dead_ends;
pub mod effects;
pub mod kitchen;
pub mod known;
pub mod primitives;
mod runnable;

use crate::budget::{self, Budget, Phase};
use crate::catalogue::{Catalogue, DataFileError, PrimitiveSig, Role};
use crate::data_file::FieldError;
use crate::language::ast::{Arg, Recipe};
use crate::language::validate::Validator;
use crate::number::Number;
use crate::ontology::{ClassId, Ontology, SlotId, parse_init};
use crate::profile::Profile;
use crate::world::{Entity, Maker, Pid, Value};
use dead_ends::{DeadEnds, DoneSet};
use known::Known;
use runnable::Runnable;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

/// The most actions a network may have to be simulated. A run keeps every kitchen state it
/// produced (bindings are snapshots), about 17 KB per action on long networks, so this bounds a
/// run to about 2 GB; gold networks have about 40 actions. Larger networks are refused before
/// the run starts.
pub const MAX_ACTIONS: usize = 100_000;

/// The deepest an object a primitive makes may be nested (objects in slots, items in lists):
/// the metrics compare and copy objects level by level, so this bounds their recursion (and
/// their time, which grows with the depth times the number of outputs compared). Gold dishes
/// are nested a few levels deep; a chain of a thousand mixtures, each the input of the next,
/// is refused at the action that would nest it deeper.
pub const MAX_NESTING: usize = 1_000;

/// The most actions the 2024 search runs after it has found the execution, looking for an
/// error in another ordering. The reference walks every ordering without a memo, so a tree
/// that needs more distinct steps than this takes it hours (one of 16 independent actions:
/// 2^16 sets, billions of orderings); there the execution found stands.
const CHECK_AFTER_SOLUTION: u32 = 2_000;

/// Make the execution the search found, if any, the run's state; whether there was one.
fn adopt(solution: Option<Attempt>, state: &mut Attempt) -> bool {
    solution.map(|found| *state = found).is_some()
}

/// Everything a simulation needs, loaded once per profile and shared by all runs.
pub struct Model {
    pub profile: Profile,
    pub onto: Ontology,
    pub k: Known,
    pub catalogue: Catalogue,
    /// The initial kitchen state (`full-kitchen`).
    pub kitchen: Arc<Entity>,
    /// The highest persistent id used by the initial kitchen.
    kitchen_pids: Pid,
    /// SHA-256 of the kitchen data, for the signature: a changed kitchen changes the scores.
    pub kitchen_sha256: String,
    /// SHA-256 of the ontology extension the ontology was extended with, if any: it decides
    /// which classes exist and how amounts convert, so it changes the scores too.
    pub ontology_sha256: Option<String>,
    registry: HashMap<String, Arc<dyn Primitive>>,
    /// The time one recipe may take ([`budget::DEFAULT_TIME_BUDGET`] unless set): a run
    /// started with [`Model::execute`] has it, and an evaluation that runs the recipe inside a
    /// budget of its own keeps the sooner deadline.
    pub time_budget: Duration,
}

const KITCHEN_2023: &str = include_str!("../../kitchens/full-kitchen-2023.json");
const KITCHEN_2024: &str = include_str!("../../kitchens/full-kitchen-2024.json");

/// The text of a profile's built-in kitchen (`kitchens/full-kitchen-<profile>.json`).
pub fn builtin_kitchen(profile: Profile) -> &'static str {
    profile.pick(KITCHEN_2023, KITCHEN_2024)
}

impl Model {
    /// The built-in ontology, catalogue and kitchen of a profile.
    pub fn builtin(profile: Profile) -> Model {
        let kitchen = builtin_kitchen(profile);
        // The embedded data is checked by the test suite; failing here is a build defect.
        Self::with_kitchen(profile, kitchen).expect("embedded kitchen data is valid")
    }

    /// The built-in ontology and catalogue of a profile with another initial kitchen state
    /// (`--kitchen FILE`).
    pub fn with_kitchen(profile: Profile, kitchen_json: &str) -> Result<Model, DataFileError> {
        let kitchen: serde_json::Value =
            serde_json::from_str(kitchen_json).map_err(|e| e.to_string())?;
        Self::new(Ontology::builtin(profile), kitchen_json, &kitchen)
            .map_err(|e| DataFileError(e.to_string()))
    }

    /// A model over an ontology (the built-in one of its profile, possibly extended) and an
    /// initial kitchen state, given as its text (which the signature fingerprints) and its JSON.
    pub fn new(
        onto: Ontology,
        kitchen_text: &str,
        kitchen: &serde_json::Value,
    ) -> Result<Model, FieldError> {
        let profile = onto.profile;
        let k = Known::new(&onto);
        let catalogue = Catalogue::builtin(profile);
        let (kitchen, kitchen_pids) = load_kitchen(&onto, profile, kitchen)?;
        let registry = primitives::registry();
        Ok(Model {
            profile,
            onto,
            k,
            catalogue,
            kitchen: Arc::new(kitchen),
            kitchen_pids,
            kitchen_sha256: crate::manifest::sha256_hex(kitchen_text.as_bytes()),
            ontology_sha256: None,
            registry,
            time_budget: budget::DEFAULT_TIME_BUDGET,
        })
    }

    /// Add a primitive of one's own: its catalogue entry, in the shape of an entry of
    /// `kitchens/primitives.json` (arguments with types, cases), and its code, which works as
    /// the built-in primitives do (`call.start()`, the helpers of
    /// [`primitives::common`], `call.bind`, `call.finish`). Networks using it are then checked,
    /// simulated and scored like any other.
    pub fn add_primitive(
        &mut self,
        entry: &str,
        code: impl Primitive + 'static,
    ) -> Result<(), DataFileError> {
        let name = self.catalogue.add(entry)?.name.clone();
        self.registry.insert(name, Arc::new(code));
        Ok(())
    }

    /// A validator of networks against this model's primitives and classes.
    pub fn validator(&self) -> Validator<'_> {
        Validator::new(self.profile)
            .with_catalogue(&self.catalogue)
            .with_classes(&self.onto)
    }

    pub fn maker(&self) -> Maker<'_> {
        Maker::new(&self.onto, self.kitchen_pids)
    }

    pub fn slot(&self, name: &str) -> Result<SlotId, SimError> {
        self.onto
            .slot_id(name)
            .ok_or_else(|| SimError::new(format!("the ontology has no slot {name}")))
    }

    pub fn class(&self, name: &str) -> Result<ClassId, SimError> {
        self.onto
            .class_id(name)
            .ok_or_else(|| SimError::new(format!("the ontology has no class {name}")))
    }

    /// Run one recipe network. `Err` is a run-time error that makes the reference refuse the
    /// whole file; `Ok` with `solved == false` is a recipe with no execution.
    pub fn execute(&self, recipe: &Recipe) -> Result<Execution, SimError> {
        Budget::new(self.time_budget).run(|| {
            budget::enter(Phase::Simulation);
            Engine::new(self, recipe)?.run()
        })
    }
}

/// Decode a kitchen data file (see `kitchens/README.md`). The file names its profile: the two
/// profiles' kitchens hold different objects under the same classes, so a kitchen of the other
/// profile would score differently without any error.
fn load_kitchen(
    onto: &Ontology,
    profile: Profile,
    root: &serde_json::Value,
) -> Result<(Entity, Pid), FieldError> {
    match root.get("profile").and_then(|p| p.as_str()) {
        Some(named) if named == profile.name() => {}
        Some(named) => {
            return Err(FieldError::new(format!(
                "a kitchen of profile {named}, not {profile}: pass --reference {named}, or a kitchen of profile {profile}"
            ))
            .in_key("profile"));
        }
        None => {
            return Err(FieldError::new(format!(
                "the kitchen names no profile (`\"profile\": \"{profile}\"` at its top, as in kitchens/)"
            )));
        }
    }
    let root = root
        .get("kitchen")
        .ok_or("the file has no `kitchen` entry")?;
    let mut class_of = |s: &str| {
        onto.class_id(s)
            .ok_or_else(|| format!("unknown class `{s}`"))
    };
    let mut slot_of = |s: &str| onto.slot_id(s).ok_or_else(|| format!("unknown slot `{s}`"));
    let init = parse_init(root, &mut class_of, &mut slot_of).map_err(|e| e.in_key("kitchen"))?;
    let mut maker = Maker::new(onto, 0);
    match maker.init(&init) {
        Value::Obj(e) if onto.is_a_name(e.class, "kitchen-state") => {
            let e = Arc::unwrap_or_clone(e);
            let last = maker.fresh_pid();
            Ok((e, last))
        }
        _ => Err(FieldError::new("the root must be a kitchen-state").in_key("kitchen")),
    }
}

/// A run-time error that aborts the reference's whole evaluation (it writes no CSV).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{message}")]
pub struct SimError {
    pub message: String,
    /// Index of the predicate being executed, when known.
    pub predicate: Option<usize>,
}

impl SimError {
    pub fn new(message: impl Into<String>) -> SimError {
        SimError {
            message: message.into(),
            predicate: None,
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
    /// List items it changed in place (see [`effects::Effects::aliased`]).
    aliased: Vec<(Arc<Entity>, Arc<Entity>)>,
}

/// The result of running a network.
#[derive(Clone, Debug)]
pub struct Execution {
    /// Binding slot of every argument of every predicate (constants have slots of their own).
    pub slots: Vec<Vec<usize>>,
    /// Names of the binding slots: the variable name, or the constant as written.
    pub names: Vec<String>,
    pub bindings: Vec<Binding>,
    /// Executed actions in execution order (of the solution, or of the longest attempt).
    pub steps: Vec<Step>,
    /// Whether an ordering ran every action and bound every variable.
    pub solved: bool,
    /// Per action, whether it repeats an earlier one word for word and so ran (or not) with it.
    pub repeat: Vec<bool>,
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

/// What a primitive sees of one argument when it runs.
#[derive(Clone, Debug)]
pub struct ArgIn {
    pub value: Value,
    pub available_at: Option<Number>,
}

/// The interface between the engine and one primitive's implementation.
pub struct Call<'m, 'a> {
    pub model: &'m Model,
    pub maker: &'a mut Maker<'m>,
    pub sig: &'m PrimitiveSig,
    pub case: usize,
    args: Vec<Option<ArgIn>>,
    out: Vec<Option<Binding>>,
}

impl<'m> Call<'m, '_> {
    fn index(&self, name: &str) -> Result<usize, SimError> {
        self.sig
            .arg_index(name)
            .ok_or_else(|| SimError::new(format!("{} has no argument {name}", self.sig.name)))
    }

    /// Whether argument `name` was bound when the primitive started.
    pub fn is_bound(&self, name: &str) -> bool {
        self.index(name).is_ok_and(|i| self.args[i].is_some())
    }

    /// The object bound to input `name`.
    pub fn input(&self, name: &str) -> Result<&Entity, SimError> {
        self.input_arc(name).map(|e| &**e)
    }

    /// The object bound to input `name`, shared (to keep it without copying).
    pub fn input_arc(&self, name: &str) -> Result<&Arc<Entity>, SimError> {
        let i = self.index(name)?;
        match &self.args[i] {
            Some(ArgIn {
                value: Value::Obj(e),
                ..
            }) => Ok(e),
            _ => Err(SimError::new(format!(
                "{}: {name} is not bound to an object",
                self.sig.name
            ))),
        }
    }

    /// The availability time of input `name` (`None` for constants and untimed outputs).
    /// The reference looks the time up by the object's id among the primitive's arguments in
    /// their order. In 2024 every copy of an object keeps its id, so when an earlier argument
    /// holds the same object (another kitchen state's copy of it, as when two branches fetched
    /// the same bowl) that argument's time is the one used; in 2023 a copy gets an id of its
    /// own and each argument has its own time.
    pub fn available_at(&self, name: &str) -> Result<Option<Number>, SimError> {
        let i = self.index(name)?;
        let Some(arg) = &self.args[i] else {
            return Ok(None);
        };
        let first = match &arg.value {
            Value::Obj(object) if self.model.profile == Profile::R2024 => self
                .args
                .iter()
                .flatten()
                .find(|a| matches!(&a.value, Value::Obj(o) if o.pid == object.pid))
                .unwrap_or(arg),
            _ => arg,
        };
        Ok(first.available_at)
    }

    /// `max(kitchen time, availability of input)`: the reference fails with a type error
    /// when the input has no availability time.
    pub fn ready_at(&self, kt: Number, name: &str) -> Result<Number, SimError> {
        match self.available_at(name)? {
            Some(t) => Ok(kt.max(t)),
            None => Err(primitives::errors::LispError::NIL_NOT_REAL.into()),
        }
    }

    /// The input kitchen state (argument `kitchen-state-in`).
    pub fn kitchen_in(&self) -> Result<&Arc<Entity>, SimError> {
        self.input_arc("kitchen-state-in")
    }

    /// The kitchen time of a kitchen state.
    pub fn kitchen_time(&self, ks: &Entity) -> Number {
        ks.val(self.model.k.kitchen_time)
            .as_num()
            .unwrap_or(Number::ZERO)
    }

    /// Bind output `name`. Binding `Value::Nil` leaves the variable unbound, as in the
    /// reference (the recipe then has no execution).
    pub fn bind(
        &mut self,
        name: &str,
        score: f32,
        value: Value,
        at: Option<Number>,
    ) -> Result<(), SimError> {
        let i = self.index(name)?;
        self.out[i] = Some(Binding {
            value,
            score,
            available_at: at,
        });
        Ok(())
    }

    /// Bind the new kitchen state with `kitchen-time` set to `at`.
    pub fn bind_kitchen(
        &mut self,
        name: &str,
        mut ks: Arc<Entity>,
        at: Number,
    ) -> Result<(), SimError> {
        let slot = self.model.k.kitchen_time;
        let _ = Arc::make_mut(&mut ks).set(slot, Value::Num(at));
        self.bind(name, 1.0, Value::Obj(ks), Some(at))
    }

    /// A fresh `failed-object` (the reference's "custom NIL" that flows through the network).
    pub fn failed(&mut self) -> Value {
        Value::obj(self.maker.make(self.model.k.failed_object))
    }

    pub fn is_failed(&self, e: &Entity) -> bool {
        self.model.onto.is_a(e.class, self.model.k.failed_object)
    }
}

/// One primitive's semantics. Implementations read their inputs from the [`Call`], work on a
/// copy of the input kitchen state and bind their outputs.
pub trait Primitive: Send + Sync {
    fn run(&self, call: &mut Call<'_, '_>) -> Result<(), SimError>;
}

/// A primitive is usually one function of its own logic; families that differ only in data
/// (e.g. beat, mix and mingle) implement [`Primitive`] on a struct of that data instead.
impl<F> Primitive for F
where
    F: Fn(&mut Call<'_, '_>) -> Result<(), SimError> + Send + Sync,
{
    fn run(&self, call: &mut Call<'_, '_>) -> Result<(), SimError> {
        self(call)
    }
}

struct Engine<'m> {
    model: &'m Model,
    recipe: &'m Recipe,
    sigs: Vec<&'m PrimitiveSig>,
    slots: Vec<Vec<usize>>,
    names: Vec<String>,
    initial: Vec<Binding>,
    maker: Maker<'m>,
    /// Per action, whether it repeats an earlier action (see [`repeats`]).
    repeat: Vec<bool>,
}

struct Attempt {
    bindings: Vec<Binding>,
    steps: Vec<Step>,
}

/// A node of the search on the current path: its set of executed actions, the next action to
/// try from it, whether it is explored at all (not complete, not a known dead end), and how to
/// undo the action that led into it.
struct Node<'m> {
    done: DoneSet,
    next: usize,
    explore: bool,
    undo: Option<Undo<'m>>,
}

struct Undo<'m> {
    p: usize,
    /// The slots the action filled, with what they held before.
    replaced: Vec<(usize, Binding)>,
    maker: Maker<'m>,
}

/// What a search has done so far, for the refusal of one that runs out of time.
struct Searched {
    actions_run: u64,
    /// Sets of executed actions whose every continuation was tried.
    dead_ends: u64,
    /// Per action, whether any ordering ran it.
    ever_run: Vec<bool>,
}

impl Searched {
    fn new(actions: usize) -> Searched {
        Searched {
            actions_run: 0,
            dead_ends: 0,
            ever_run: vec![false; actions],
        }
    }

    fn run(&mut self, p: usize) {
        self.actions_run += 1;
        self.ever_run[p] = true;
        budget::at_action(p);
    }
}

/// Whether `v` is of the argument type `ty` (`t`: anything), as IRL's `typep`.
fn has_type(model: &Model, v: &Value, ty: &str) -> bool {
    if ty == "t" {
        return true;
    }
    match v {
        Value::Obj(e) => model.onto.is_a_name(e.class, ty),
        _ => false,
    }
}

/// Which actions repeat an earlier action word for word with variables only. The 2024
/// reference removes every action `equal` to the one it has just run from those remaining, and
/// only actions without constants can be equal (each constant becomes a variable of its own), so
/// such a repeat runs with its first occurrence: it is never run on its own and the network is
/// complete without it. The 2023 reference removes only the action itself: a repeat never runs.
fn repeats(profile: Profile, recipe: &Recipe) -> Vec<bool> {
    if profile == Profile::R2023 {
        return vec![false; recipe.predicates.len()];
    }
    let mut seen = std::collections::HashSet::new();
    recipe
        .predicates
        .iter()
        .map(|p| {
            let vars: Option<Vec<&str>> = p.args.iter().map(Arg::as_var).collect();
            vars.is_some_and(|vars| !seen.insert((p.name.as_str(), vars)))
        })
        .collect()
}

impl<'m> Engine<'m> {
    fn new(model: &'m Model, recipe: &'m Recipe) -> Result<Engine<'m>, SimError> {
        let actions = recipe.predicates.len();
        if actions > MAX_ACTIONS {
            return Err(SimError::new(format!(
                "recipe {} has {actions} actions; networks of at most {MAX_ACTIONS} actions are simulated",
                recipe.id
            )));
        }
        let mut maker = model.maker();
        let mut sigs = Vec::with_capacity(recipe.predicates.len());
        let mut slots = Vec::with_capacity(recipe.predicates.len());
        let mut names: Vec<String> = Vec::new();
        let mut initial: Vec<Binding> = Vec::new();
        let mut var_slot: HashMap<&str, usize> = HashMap::new();
        for (pi, p) in recipe.predicates.iter().enumerate() {
            let sig = model.catalogue.get(&p.name).ok_or_else(|| SimError {
                message: format!("unknown primitive {}", p.name),
                predicate: Some(pi),
            })?;
            if sig.arity() != p.args.len() {
                return Err(SimError {
                    message: format!(
                        "{} takes {} arguments, {} given",
                        p.name,
                        sig.arity(),
                        p.args.len()
                    ),
                    predicate: Some(pi),
                });
            }
            sigs.push(sig);
            let mut ps = Vec::with_capacity(p.args.len());
            for a in &p.args {
                let slot = match a {
                    Arg::Var(v) => *var_slot.entry(v.as_str()).or_insert_with(|| {
                        names.push(format!("?{v}"));
                        initial.push(Binding::UNBOUND);
                        names.len() - 1
                    }),
                    constant => {
                        let value =
                            instantiate(model, &mut maker, constant).map_err(|m| SimError {
                                message: m,
                                predicate: Some(pi),
                            })?;
                        names.push(constant.to_string());
                        initial.push(Binding {
                            value,
                            score: 1.0,
                            available_at: None,
                        });
                        names.len() - 1
                    }
                };
                ps.push(slot);
            }
            slots.push(ps);
        }
        Ok(Engine {
            model,
            recipe,
            sigs,
            slots,
            names,
            initial,
            maker,
            repeat: repeats(model.profile, recipe),
        })
    }

    fn run(mut self) -> Result<Execution, SimError> {
        let mut best = Attempt {
            bindings: self.initial.clone(),
            steps: Vec::new(),
        };
        let mut state = Attempt {
            bindings: self.initial.clone(),
            steps: Vec::new(),
        };
        let solved = self.search(&mut state, &mut best)?;
        let mut result = if solved { state } else { best };
        aliases::show(self.model, &result.steps, &mut result.bindings);
        Ok(Execution {
            slots: self.slots,
            names: self.names,
            bindings: result.bindings,
            steps: result.steps,
            solved,
            repeat: self.repeat,
        })
    }

    /// Depth-first search over orderings, remaining actions tried in file order. The first
    /// complete ordering is the execution. The 2024 reference asks IRL for every solution, so
    /// its search goes on over every ordering and an action that fails with an error anywhere
    /// in the tree refuses the network even when another ordering completes it; the 2023
    /// reference evaluates nothing more once it has a solution. Sets of executed actions (with
    /// the case each ran with) already explored are not explored again. The path is an
    /// explicit stack (networks may be far deeper than the call stack) and backtracking
    /// restores what the undone action replaced, so one set of bindings serves the whole
    /// search; the longest attempt is copied out only when the search leaves it. Which actions
    /// can run is kept up to date per changed slot ([`Runnable`]) and executed sets are
    /// remembered as trail cells ([`DeadEnds`]): each step costs the same however long the
    /// network.
    fn search(&mut self, state: &mut Attempt, best: &mut Attempt) -> Result<bool, SimError> {
        let actions = self.slots.len();
        // Actions to run for a complete network: repeats run with their first occurrence.
        let n = actions - self.repeat.iter().filter(|r| **r).count();
        let mut runnable = Runnable::new(&self.slots, state.bindings.len());
        runnable.refresh(0..actions, |q| self.applicable(q, &state.bindings));
        // One memo key per action and case: the case decides which slots an action binds.
        let cases = self.sigs.iter().map(|s| s.cases.len()).max().unwrap_or(1);
        let mut dead_ends = DeadEnds::new(actions * cases);
        let mut solution: Option<Attempt> = None;
        // Actions run since the execution was found (2024), against CHECK_AFTER_SOLUTION.
        let mut checked = 0u32;
        let mut path: Vec<Node<'m>> = Vec::new();
        let mut done = DeadEnds::empty();
        let mut undo = None;
        let mut searched = Searched::new(actions);
        loop {
            // Over budget with an execution in hand: the rest of the tree goes unchecked.
            if let Err(spent) = budget::check() {
                if solution.is_some() {
                    return Ok(adopt(solution, state));
                }
                return Err(self.over_budget(spent, &searched));
            }
            if checked > CHECK_AFTER_SOLUTION {
                return Ok(adopt(solution, state));
            }
            // Enter a node.
            let explore = if state.steps.len() == n {
                if solution.is_none() && state.bindings.iter().all(Binding::is_bound) {
                    if self.model.profile == Profile::R2023 {
                        return Ok(true);
                    }
                    solution = Some(Attempt {
                        bindings: state.bindings.clone(),
                        steps: state.steps.clone(),
                    });
                }
                false
            } else {
                !dead_ends.is_dead(done)
            };
            path.push(Node {
                done,
                next: 0,
                explore,
                undo: undo.take(),
            });
            // Run the next applicable action of the deepest node, leaving exhausted nodes.
            loop {
                let Some(node) = path.last_mut() else {
                    return Ok(adopt(solution, state));
                };
                let child = if node.explore {
                    runnable.first_from(node.next)
                } else {
                    None
                };
                if let Some((p, case)) = child {
                    node.next = p + 1;
                    done = dead_ends.with(node.done, p * cases + case);
                    let maker = self.maker.clone();
                    checked += u32::from(solution.is_some());
                    searched.run(p);
                    let replaced = match self.execute(p, case, state) {
                        Err(_) if budget::spent() => {
                            return Err(self.over_budget(budget::check().unwrap_err(), &searched));
                        }
                        replaced => replaced?,
                    };
                    runnable.run(p);
                    runnable.refresh_users(replaced.iter().map(|(s, _)| *s), |q| {
                        self.applicable(q, &state.bindings)
                    });
                    undo = Some(Undo { p, replaced, maker });
                    break;
                }
                let node = path.pop().expect("the deepest node exists");
                if node.explore {
                    dead_ends.mark_dead(node.done);
                    searched.dead_ends += 1;
                }
                // The first attempt to reach a new length has no longer descendant: keep it.
                if state.steps.len() > best.steps.len() {
                    best.bindings.clone_from(&state.bindings);
                    best.steps.clone_from(&state.steps);
                }
                if let Some(u) = node.undo {
                    state.steps.pop();
                    let filled: Vec<usize> = u.replaced.iter().map(|(s, _)| *s).collect();
                    for (s, old) in u.replaced.into_iter().rev() {
                        state.bindings[s] = old;
                    }
                    self.maker = u.maker;
                    runnable.undo(u.p);
                    let case_of = |q| self.applicable(q, &state.bindings);
                    runnable.refresh([u.p], case_of);
                    runnable.refresh_users(filled, case_of);
                }
            }
        }
    }

    /// The refusal of a run over its time budget: where it was, and what it had searched.
    fn over_budget(&self, spent: budget::Exhausted, searched: &Searched) -> SimError {
        let name = |p: usize| self.recipe.predicates.get(p).map(|a| a.name.clone());
        let mut message = spent.message(&self.recipe.id, name);
        message.push_str(&format!(
            ": {} actions run over {} sets of executed actions searched to the end",
            searched.actions_run, searched.dead_ends
        ));
        let never: Vec<usize> = (0..searched.ever_run.len())
            .filter(|&p| !searched.ever_run[p] && !self.repeat[p])
            .collect();
        if !never.is_empty() {
            let named: Vec<String> = never
                .iter()
                .take(5)
                .map(|&p| format!("{} (`{}`)", p + 1, self.recipe.predicates[p].name))
                .collect();
            let more = match never.len() - named.len() {
                0 => String::new(),
                more => format!(" and {more} more"),
            };
            message.push_str(&format!("; never run: action {}{more}", named.join(", ")));
        }
        SimError {
            message,
            predicate: spent.action,
        }
    }

    /// The case whose input set is exactly the bound arguments, if every bound value has the
    /// argument's type.
    fn applicable(&self, p: usize, bindings: &[Binding]) -> Option<usize> {
        if self.repeat[p] {
            return None;
        }
        let sig = self.sigs[p];
        let mut bound = 0u64;
        for (i, &s) in self.slots[p].iter().enumerate() {
            let b = &bindings[s];
            if b.is_bound() {
                if !self.has_type(&b.value, &sig.args[i].ty) {
                    return None;
                }
                bound |= 1 << i;
            }
        }
        sig.case_for(bound)
    }

    fn has_type(&self, v: &Value, ty: &str) -> bool {
        has_type(self.model, v, ty)
    }

    /// Run action `p`; returns the slots it filled with what they held before.
    fn execute(
        &mut self,
        p: usize,
        case: usize,
        state: &mut Attempt,
    ) -> Result<Vec<(usize, Binding)>, SimError> {
        let sig = self.sigs[p];
        let imp = self
            .model
            .registry
            .get(sig.name.as_str())
            .ok_or_else(|| SimError {
                message: format!("primitive {} is not implemented", sig.name),
                predicate: Some(p),
            })?;
        let args: Vec<Option<ArgIn>> = self.slots[p]
            .iter()
            .map(|&s| {
                let b = &state.bindings[s];
                b.is_bound().then(|| ArgIn {
                    value: b.value.clone(),
                    available_at: b.available_at,
                })
            })
            .collect();
        let start = args
            .iter()
            .zip(&sig.args)
            .find(|(_, a)| a.role == Role::KitchenStateIn)
            .and_then(|(a, _)| a.as_ref())
            .and_then(|a| a.value.as_obj())
            .and_then(|ks| ks.val(self.model.k.kitchen_time).as_num());
        let model = self.model;
        let mut call = Call {
            model,
            maker: &mut self.maker,
            sig,
            case,
            out: vec![None; args.len()],
            args,
        };
        effects::take();
        imp.run(&mut call).map_err(|mut e| {
            e.predicate.get_or_insert(p);
            e
        })?;
        // IRL checks every value a primitive binds against its argument's type, and an error
        // there aborts the whole evaluation (a failed-object is not every type: not a tool).
        for (out, arg) in call.out.iter().zip(&sig.args) {
            if let Some(b) = out
                && !has_type(model, &b.value, &arg.ty)
            {
                let shown = match &b.value {
                    Value::Obj(e) => model.onto.class_name(e.class).to_uppercase(),
                    other => format!("{other:?}"),
                };
                return Err(SimError {
                    message: format!(
                        "Primitive {}. The bound value {shown} for slot {} is not of expected type {}.",
                        sig.name.to_uppercase(),
                        arg.name.to_uppercase(),
                        arg.ty.to_uppercase()
                    ),
                    predicate: Some(p),
                });
            }
        }
        for (out, arg) in call.out.iter().zip(&sig.args) {
            if let Some(b) = out
                && arg.role != Role::KitchenStateOut
                && b.value.nested_deeper_than(MAX_NESTING)
            {
                return Err(SimError {
                    message: format!(
                        "{} would nest {} deeper than {MAX_NESTING} levels (objects within objects); \
                         networks whose objects nest that deep are not simulated",
                        sig.name, arg.name
                    ),
                    predicate: Some(p),
                });
            }
        }
        let effects = effects::take();
        if !effects.lost.is_empty() {
            for (out, arg) in call.out.iter_mut().zip(&sig.args) {
                if let (Some(b), Role::KitchenStateOut) = (out, arg.role)
                    && let Value::Obj(ks) = &mut b.value
                {
                    kitchen::remove_from_counter(ks, model, &effects.lost);
                }
            }
        }
        // Outputs only fill unbound slots; the reference never overwrites a binding.
        let mut replaced = Vec::new();
        for (i, out) in call.out.into_iter().enumerate() {
            let s = self.slots[p][i];
            if let Some(b) = out
                && !state.bindings[s].is_bound()
            {
                replaced.push((s, std::mem::replace(&mut state.bindings[s], b)));
            }
        }
        state.steps.push(Step {
            predicate: p,
            case,
            start,
            aliased: effects.aliased,
        });
        Ok(replaced)
    }
}

/// A constant of a network as the object the reference makes of it: a number becomes a
/// `quantity`, a list a `list-of-kitchen-entities`, a symbol an instance of its class marked as
/// a concept.
fn instantiate(model: &Model, maker: &mut Maker<'_>, arg: &Arg) -> Result<Value, String> {
    let k = &model.k;
    Ok(match arg {
        Arg::Num(n) => Value::obj(maker.make_with(k.quantity_class, &[(k.value, Value::Num(*n))])),
        Arg::List(items) => {
            let raw = items
                .iter()
                .map(|i| Value::Sym(Arc::from(i.to_string().as_str())))
                .collect();
            Value::obj(maker.make_with(k.list_of_kitchen_entities, &[(k.items, Value::list(raw))]))
        }
        Arg::Sym(s) => {
            let class = model
                .onto
                .class_id(s)
                .ok_or_else(|| format!("There is no class named {s}"))?;
            let mut e = maker.make(class);
            if !e.set(k.is_concept, Value::T) {
                return Err(format!("Invalid initarg :IS-CONCEPT for class {s}"));
            }
            Value::obj(e)
        }
        Arg::Str(s) => return Err(format!("a string constant {s:?} is not a concept")),
        Arg::Var(v) => return Err(format!("?{v} is a variable, not a constant")),
    })
}
