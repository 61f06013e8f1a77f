//! The engine: constants become concept objects, every variable one binding slot, and a
//! depth-first search over orderings runs each action when its bound arguments are exactly one
//! case's inputs, as IRL does.

use super::*;
use crate::language::ast::Predicate;

/// The most actions the 2024 search runs after it has found the execution, looking for an
/// error in another ordering. The reference walks every ordering without a memo, so a tree
/// that needs more distinct steps than this takes it hours (one of 16 independent actions:
/// 2^16 sets, billions of orderings); there the execution found stands.
pub(super) const CHECK_AFTER_SOLUTION: u32 = 2_000;

/// A binding the search reads for a slot whose binding in the execution it found is kept in
/// place but is unbound on the current path.
static UNBOUND: Binding = Binding::UNBOUND;

/// The bindings and steps of the search's current path (of the one action run, for a
/// stepwise run), and, once the 2024 search has found the execution, what it keeps of it.
pub(super) struct Attempt {
    pub(super) bindings: Vec<Binding>,
    pub(super) steps: Vec<Step>,
    found: Option<Found>,
}

impl std::ops::Index<usize> for Attempt {
    type Output = Binding;

    /// The binding of slot `s` on the current path.
    fn index(&self, s: usize) -> &Binding {
        match &self.found {
            Some(found) if found.kept[s] == Kept::Hidden => &UNBOUND,
            _ => &self.bindings[s],
        }
    }
}

impl Attempt {
    pub(super) fn new(bindings: Vec<Binding>, steps: Vec<Step>) -> Attempt {
        Attempt {
            bindings,
            steps,
            found: None,
        }
    }

    /// Bind `b` to slot `s` (unbound on the current path); what the path held there.
    fn fill(&mut self, s: usize, b: Binding) -> Binding {
        let held = std::mem::replace(&mut self.bindings[s], b);
        match &mut self.found {
            Some(found) if found.kept[s] == Kept::Hidden => {
                found.kept[s] = Kept::Aside;
                found.aside.push((s, held));
                Binding::UNBOUND
            }
            _ => held,
        }
    }

    /// Undo the last step: pop it and put back what it replaced, keeping what the execution
    /// found holds; the slots it had filled.
    fn take_back(&mut self, replaced: Box<[Replaced]>) -> Vec<usize> {
        let filled = replaced.iter().map(|(s, _)| *s).collect();
        let replaced = replaced.into_vec().into_iter().rev();
        match &mut self.found {
            Some(found) => {
                found.pop(&mut self.steps);
                for (s, old) in replaced {
                    found.put_back(&mut self.bindings, s, old);
                }
            }
            None => {
                self.steps.pop();
                for (s, old) in replaced {
                    self.bindings[s] = old.map_or(Binding::UNBOUND, |b| *b);
                }
            }
        }
        filled
    }

    /// Keep the current path as the execution found: the search goes on from it.
    fn keep_found(&mut self) {
        self.found = Some(Found {
            kept: vec![Kept::InPlace; self.bindings.len()],
            aside: Vec::new(),
            depth: self.steps.len(),
            popped: Vec::new(),
        });
    }

    /// Make the execution the search found, if any, the path again; whether there was one.
    pub(super) fn adopt(&mut self) -> bool {
        let Some(found) = self.found.take() else {
            return false;
        };
        self.steps.truncate(found.depth);
        self.steps.extend(found.popped.into_iter().rev());
        for (s, b) in found.aside {
            self.bindings[s] = b;
        }
        true
    }
}

/// Where the execution the 2024 search found keeps a slot's binding while the search goes on
/// from it (looking for an error in another ordering).
#[derive(Clone, Copy, PartialEq)]
enum Kept {
    /// In place, on the current path as well.
    InPlace,
    /// In place, but unbound on the current path: the search backed out of the action that
    /// filled it.
    Hidden,
    /// In [`Found::aside`]: the slot held something else before that action, or was filled
    /// again on another path.
    Aside,
}

/// The execution the 2024 search found, kept as what the search has undone of it since. A
/// copy of every binding and step doubled the peak memory of a long network, and so did
/// moving each binding aside as the search backed out of it (a network backs out of every
/// action); only backtracking changes a binding the execution holds (the execution binds
/// every slot, and an action only fills unbound ones), so the bindings stay in place and the
/// search reads the slots it backed out of as unbound.
struct Found {
    kept: Vec<Kept>,
    aside: Vec<(usize, Binding)>,
    /// How many of the execution's steps the path still holds as they were.
    depth: usize,
    /// The execution's steps popped since, the deepest first.
    popped: Vec<Step>,
}

impl Found {
    /// Backtracking puts `old` (`None`: unbound) back into slot `s`.
    fn put_back(&mut self, bindings: &mut [Binding], s: usize, old: Option<Box<Binding>>) {
        match (self.kept[s], old) {
            (Kept::InPlace | Kept::Hidden, None) => self.kept[s] = Kept::Hidden,
            (Kept::InPlace | Kept::Hidden, Some(old)) => {
                self.kept[s] = Kept::Aside;
                self.aside
                    .push((s, std::mem::replace(&mut bindings[s], *old)));
            }
            (Kept::Aside, old) => bindings[s] = old.map_or(Binding::UNBOUND, |b| *b),
        }
    }

    /// Backtracking pops the last step: one of the execution's if the path held it still. The
    /// path's room is given back as it shrinks (the popped steps' grows meanwhile).
    fn pop(&mut self, steps: &mut Vec<Step>) {
        let step = steps.pop();
        if let Some(step) = step.filter(|_| steps.len() < self.depth) {
            self.popped.push(step);
            self.depth = steps.len();
        }
        if steps.len() < steps.capacity() / 4 {
            steps.shrink_to(steps.capacity() / 2);
        }
    }
}

pub(super) struct Engine<'m> {
    pub(super) model: &'m Model,
    pub(super) recipe: &'m Recipe,
    pub(super) sigs: Vec<&'m PrimitiveSig>,
    pub(super) slots: ActionSlots,
    /// The slots as the network's text makes them, before any action runs.
    pub(super) table: SlotTable,
    pub(super) maker: Maker<'m>,
    /// Per action, whether it repeats an earlier action (see [`repeats`]).
    pub(super) repeat: Vec<bool>,
}

/// A node of the search on the current path: its set of executed actions, the next action to
/// try from it, whether it is explored at all (not complete, not a known dead end), and how to
/// undo the action that led into it.
/// A long network's path holds one per action, so its fields are small.
pub(super) struct Node {
    pub(super) done: DoneSet,
    pub(super) next: u32,
    pub(super) explore: bool,
    pub(super) undo: Option<Undo>,
}

/// A slot an action filled and what it held before: nothing (`None`), an unbound slot as the
/// network made it, nearly always, as an action fills only unbound slots. Every action on the
/// search's path keeps these, so the common case costs the slot alone.
pub(super) type Replaced = (usize, Option<Box<Binding>>);

/// What the search keeps of what `execute` replaced (see [`Replaced`]).
fn to_undo(replaced: Vec<(usize, Binding)>) -> Box<[Replaced]> {
    let unbound = |b: &Binding| {
        matches!(b.value, Value::Nil) && b.score.to_bits() == 0 && b.available_at.is_none()
    };
    (replaced.into_iter())
        .map(|(s, b)| (s, (!unbound(&b)).then(|| Box::new(b))))
        .collect()
}

pub(super) struct Undo {
    pub(super) p: u32,
    /// The slots the action filled, with what they held before (see [`Replaced`]).
    pub(super) replaced: Box<[Replaced]>,
    /// The last persistent id made before the action ran.
    pub(super) last_pid: Pid,
    /// The kitchen cells held before the action ran (see [`budget::MEMORY_BUDGET`]).
    pub(super) cells: u64,
}

/// What running one step changed, to take it back or to run it again without running it.
#[derive(Clone, Debug)]
pub(super) struct Ran {
    /// The slots the step filled, with what they held before.
    pub(super) filled: Vec<(usize, Binding)>,
    /// The kitchen cells held before it ran (see [`budget::MEMORY_BUDGET`]).
    pub(super) cells: u64,
}

/// Steps of a network run already in the order the search tries first (an agent's session
/// runs its actions as they are written, which is that order: see [`super::stepwise`]). The
/// search replays them, filling each slot with what the run bound there, as long as they are
/// the steps it chooses, and runs actions from where they end or differ.
pub struct FirstPath<'a> {
    /// The run's bindings after its last step (list items changed in place not shown).
    pub(super) bindings: &'a [Binding],
    pub(super) names: &'a SlotNames,
    pub(super) steps: &'a [Step],
    pub(super) ran: &'a [Ran],
    /// The last persistent id the run made, and the kitchen cells it holds.
    pub(super) last_pid: Pid,
    pub(super) cells: u64,
}

/// A first path being replayed: the next of its steps to replay.
struct Replay<'a> {
    path: FirstPath<'a>,
    next: usize,
}

impl Replay<'_> {
    /// Replay the next step if it is action `p` with `case`: what it replaced, and the kitchen
    /// cells held before it.
    fn replay(
        &mut self,
        p: usize,
        case: usize,
        state: &mut Attempt,
    ) -> Option<(Vec<(usize, Binding)>, u64)> {
        let k = self.next;
        let step = self
            .path
            .steps
            .get(k)
            .filter(|s| s.predicate == p && s.case == case)?;
        let ran = &self.path.ran[k];
        let replaced = (ran.filled.iter())
            .map(|&(s, _)| (s, state.fill(s, self.path.bindings[s].clone())))
            .collect();
        state.steps.push(step.clone());
        self.next += 1;
        let after = self
            .path
            .ran
            .get(k + 1)
            .map_or(self.path.cells, |r| r.cells);
        budget::hold(after);
        Some((replaced, ran.cells))
    }
}

/// What a search has done so far, for the refusal of one that runs out of time.
pub(super) struct Searched {
    pub(super) actions_run: u64,
    /// Sets of executed actions whose every continuation was tried.
    pub(super) dead_ends: u64,
    /// Per action, whether any ordering ran it.
    pub(super) ever_run: Vec<bool>,
}

impl Searched {
    pub(super) fn new(actions: usize) -> Searched {
        Searched {
            actions_run: 0,
            dead_ends: 0,
            ever_run: vec![false; actions],
        }
    }

    pub(super) fn run(&mut self, p: usize) {
        self.actions_run += 1;
        self.ever_run[p] = true;
        budget::at_action(p);
    }
}

/// Whether `v` is of the argument type `ty` (`t`: anything), as IRL's `typep`.
pub fn has_type(model: &Model, v: &Value, ty: &str) -> bool {
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
pub(super) fn repeats(profile: Profile, recipe: &Recipe) -> Vec<bool> {
    let mut seen = std::collections::HashSet::new();
    recipe
        .predicates
        .iter()
        .map(|p| repeat_key(profile, p).is_some_and(|key| !seen.insert(key)))
        .collect()
}

/// What two actions share when one repeats the other (see [`repeats`]): the primitive and the
/// variables, for an action with variables only in profile 2024; `None` for any other action.
pub(super) fn repeat_key(profile: Profile, p: &Predicate) -> Option<(&str, Vec<&str>)> {
    if profile == Profile::R2023 {
        return None;
    }
    let vars: Option<Vec<&str>> = p.args.iter().map(Arg::as_var).collect();
    Some((p.name.as_str(), vars?))
}

/// The binding slots of a network: one per variable, made at its first use, and one per
/// constant, holding the concept object made for it. The search and the stepwise run build
/// them alike, so a network's objects get the same ids on both.
#[derive(Clone, Debug, Default)]
pub(super) struct SlotTable {
    /// Per slot, the variable (`?x`) or the constant as written.
    pub(super) names: SlotNames,
    pub(super) bindings: Vec<Binding>,
    var_slot: HashMap<Arc<str>, usize>,
}

impl SlotTable {
    /// The slot of each argument of action `pi`. Its constants' objects are made first, so an
    /// action with a constant that cannot be made adds no slot.
    pub(super) fn bind(
        &mut self,
        model: &Model,
        maker: &mut Maker,
        predicate: &Predicate,
        pi: usize,
    ) -> Result<Vec<usize>, SimError> {
        let mut constants = Vec::new();
        for a in predicate.args.iter().filter(|a| a.as_var().is_none()) {
            let value =
                instantiate(model, maker, a).map_err(|message| SimError::at(message, pi))?;
            constants.push(value);
        }
        let mut constants = constants.into_iter();
        let mut slots = Vec::with_capacity(predicate.args.len());
        for a in &predicate.args {
            let slot = match a {
                Arg::Var(v) => match self.var_slot.get(&**v) {
                    Some(&s) => s,
                    None => {
                        self.var_slot.insert(v.clone(), self.bindings.len());
                        self.push(format_args!("?{v}"), Binding::UNBOUND)
                    }
                },
                constant => {
                    let binding = Binding {
                        value: constants.next().unwrap_or(Value::Nil),
                        score: 1.0,
                        available_at: None,
                    };
                    self.push(constant, binding)
                }
            };
            slots.push(slot);
        }
        Ok(slots)
    }

    fn push(&mut self, name: impl std::fmt::Display, binding: Binding) -> usize {
        self.names.push(name);
        self.bindings.push(binding);
        self.bindings.len() - 1
    }

    pub(super) fn len(&self) -> usize {
        self.bindings.len()
    }

    /// Drop the slots from `len` on (those made after the table had `len`).
    pub(super) fn truncate(&mut self, len: usize) {
        self.bindings.truncate(len);
        self.names.truncate(len);
        self.var_slot.retain(|_, s| *s < len);
    }

    /// The slot of variable `name` (without `?`).
    pub(super) fn variable(&self, name: &str) -> Option<usize> {
        self.var_slot.get(name).copied()
    }
}

impl<'m> Engine<'m> {
    pub(super) fn new(model: &'m Model, recipe: &'m Recipe) -> Result<Engine<'m>, SimError> {
        let actions = recipe.predicates.len();
        if actions > MAX_ACTIONS {
            return Err(SimError::new(format!(
                "recipe {} has {actions} actions; networks of at most {MAX_ACTIONS} actions are simulated",
                recipe.id
            )));
        }
        let mut maker = model.maker();
        let mut sigs = Vec::with_capacity(recipe.predicates.len());
        let mut slots = ActionSlots::default();
        let mut table = SlotTable::default();
        for (pi, p) in recipe.predicates.iter().enumerate() {
            let sig = (model.catalogue.get(&p.name))
                .ok_or_else(|| SimError::at(format!("unknown primitive {}", p.name), pi))?;
            if sig.arity() != p.args.len() {
                let given = p.args.len();
                let message = format!("{} takes {} arguments, {given} given", p.name, sig.arity());
                return Err(SimError::at(message, pi));
            }
            sigs.push(sig);
            slots.push(&table.bind(model, &mut maker, p, pi)?);
        }
        slots.shrink_to_fit();
        Ok(Engine {
            model,
            recipe,
            sigs,
            slots,
            table,
            maker,
            repeat: repeats(model.profile, recipe),
        })
    }

    /// Search for the execution, replaying `first` where it is the path the search takes
    /// (its slots must be the network's: the same names in the same order).
    pub(super) fn run(mut self, first: Option<FirstPath>) -> Result<Execution, SimError> {
        // The table's bindings become the search's (one copy of them, not three): the search
        // restores them as it backtracks, so they are the network's as written again when it
        // ends without having run anything. The variables' names are not looked up again.
        let mut bindings = std::mem::take(&mut self.table.bindings);
        let fits = |f: &FirstPath| {
            *f.names == self.table.names
                && f.bindings.len() == bindings.len()
                && f.steps.len() == f.ran.len()
        };
        let replay = first.filter(fits).map(|path| {
            // The path's objects throughout: its constants', and what its steps made, whose
            // slots are unbound until they are replayed. Objects made after it come after its
            // ids.
            bindings = path.bindings.to_vec();
            for ran in path.ran.iter().rev() {
                for (s, old) in ran.filled.iter().rev() {
                    bindings[*s] = old.clone();
                }
            }
            self.maker = Maker::new(&self.model.onto, path.last_pid);
            Replay { path, next: 0 }
        });
        bindings.shrink_to_fit();
        self.table.names.shrink_to_fit();
        self.table.var_slot = HashMap::new();
        let mut state = Attempt::new(bindings, Vec::new());
        let mut best = Attempt::new(Vec::new(), Vec::new());
        let solved = self.search(&mut state, &mut best, replay)?;
        let mut result = if solved || best.steps.is_empty() {
            state
        } else {
            best
        };
        aliases::show(self.model, &result.steps, &mut result.bindings);
        // The steps were pushed one by one (up to twice their room): the execution is kept
        // while the network is scored.
        result.steps.shrink_to_fit();
        Ok(Execution {
            slots: self.slots,
            names: self.table.names,
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
    /// A path given to `replay` is replayed, not run, while it is the one taken.
    fn search(
        &mut self,
        state: &mut Attempt,
        best: &mut Attempt,
        mut replay: Option<Replay>,
    ) -> Result<bool, SimError> {
        let actions = self.slots.len();
        // Actions to run for a complete network: repeats run with their first occurrence.
        let n = actions - self.repeat.iter().filter(|r| **r).count();
        let mut runnable = Runnable::new(&self.slots, state.bindings.len());
        runnable.refresh(0..actions, |q| self.applicable(q, state));
        // One memo key per action and case: the case decides which slots an action binds.
        let cases = self.sigs.iter().map(|s| s.cases.len()).max().unwrap_or(1);
        let mut dead_ends = DeadEnds::new(actions * cases);
        // Actions run since the execution was found (2024), against CHECK_AFTER_SOLUTION.
        let mut checked = 0u32;
        let mut path: Vec<Node> = Vec::new();
        let mut done = DeadEnds::empty();
        let mut undo = None;
        let mut searched = Searched::new(actions);
        loop {
            // Over budget with an execution in hand: the rest of the tree goes unchecked.
            if let Err(spent) = budget::check() {
                if state.adopt() {
                    return Ok(true);
                }
                return Err(self.over_budget(spent, &searched));
            }
            if checked > CHECK_AFTER_SOLUTION {
                return Ok(state.adopt());
            }
            // Enter a node.
            let explore = if state.steps.len() == n {
                if state.found.is_none() && state.bindings.iter().all(Binding::is_bound) {
                    if self.model.profile == Profile::R2023 {
                        return Ok(true);
                    }
                    state.keep_found();
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
                    return Ok(state.adopt());
                };
                let child = if node.explore {
                    runnable.first_from(node.next as usize)
                } else {
                    None
                };
                if let Some((p, case)) = child {
                    // Fewer than `MAX_ACTIONS` actions.
                    node.next = p as u32 + 1;
                    done = dead_ends.with(node.done, p * cases + case);
                    let last_pid = self.maker.last_pid();
                    checked += u32::from(state.found.is_some());
                    searched.run(p);
                    let replayed = replay.as_mut().and_then(|r| r.replay(p, case, state));
                    let (replaced, cells) = match replayed {
                        Some(replayed) => replayed,
                        None => {
                            replay = None;
                            let cells = budget::cells();
                            match self.execute(p, case, state) {
                                Err(_) if budget::spent() => {
                                    let spent = budget::check().unwrap_err();
                                    return Err(self.over_budget(spent, &searched));
                                }
                                replaced => (replaced?, cells),
                            }
                        }
                    };
                    runnable.run(p);
                    runnable.refresh_users(replaced.iter().map(|(s, _)| *s), |q| {
                        self.applicable(q, state)
                    });
                    undo = Some(Undo {
                        p: p as u32,
                        replaced: to_undo(replaced),
                        last_pid,
                        cells,
                    });
                    break;
                }
                let node = path.pop().expect("the deepest node exists");
                // Backing out leaves the first path for good.
                replay = None;
                // A long path's room is given back as the search backs out of it (what the
                // execution found holds grows meanwhile).
                if path.len() < path.capacity() / 4 {
                    path.shrink_to(path.capacity() / 2);
                }
                if node.explore {
                    dead_ends.mark_dead(node.done);
                    searched.dead_ends += 1;
                }
                // The first attempt to reach a new length has no longer descendant: keep it
                // (unless an execution was found, which is the result then).
                if state.found.is_none() && state.steps.len() > best.steps.len() {
                    best.bindings.clone_from(&state.bindings);
                    best.steps.clone_from(&state.steps);
                }
                if let Some(u) = node.undo {
                    let filled = state.take_back(u.replaced);
                    self.maker = Maker::new(&self.model.onto, u.last_pid);
                    // What the action made is dropped with its bindings (unless the longest
                    // attempt keeps it: at most one more path's worth).
                    budget::hold(u.cells);
                    let p = u.p as usize;
                    runnable.undo(p);
                    let case_of = |q| self.applicable(q, state);
                    runnable.refresh([p], case_of);
                    runnable.refresh_users(filled, case_of);
                }
            }
        }
    }

    /// The refusal of a run over its time budget: where it was, and what it had searched.
    pub(super) fn over_budget(&self, spent: budget::Exhausted, searched: &Searched) -> SimError {
        let mut refused = SimError::over_budget(&spent, self.recipe);
        refused.message.push_str(&format!(
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
            (refused.message).push_str(&format!("; never run: action {}{more}", named.join(", ")));
        }
        refused
    }

    /// The case whose input set is exactly the bound arguments, if every bound value has the
    /// argument's type.
    pub(super) fn applicable<B>(&self, p: usize, bindings: &B) -> Option<usize>
    where
        B: std::ops::Index<usize, Output = Binding> + ?Sized,
    {
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

    pub(super) fn has_type(&self, v: &Value, ty: &str) -> bool {
        has_type(self.model, v, ty)
    }

    /// Run action `p`; returns the slots it filled with what they held before.
    pub(super) fn execute(
        &mut self,
        p: usize,
        case: usize,
        state: &mut Attempt,
    ) -> Result<Vec<(usize, Binding)>, SimError> {
        let sig = self.sigs[p];
        let imp =
            self.model.registry.get(sig.name.as_str()).ok_or_else(|| {
                SimError::at(format!("primitive {} is not implemented", sig.name), p)
            })?;
        let args: Vec<Option<ArgIn>> = self.slots[p]
            .iter()
            .map(|&s| {
                let b = &state[s];
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
        let ran = imp.run(&mut call);
        // What the primitive made counts against the memory budget before anything else.
        budget::check_memory().map_err(|spent| SimError {
            predicate: Some(p),
            ..SimError::over_budget(&spent, self.recipe)
        })?;
        ran.map_err(|mut e| {
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
                let message = format!(
                    "Primitive {}. The bound value {shown} for slot {} is not of expected type {}.",
                    sig.name.to_uppercase(),
                    arg.name.to_uppercase(),
                    arg.ty.to_uppercase()
                );
                return Err(SimError::at(message, p));
            }
        }
        for (out, arg) in call.out.iter().zip(&sig.args) {
            if let Some(b) = out
                && arg.role != Role::KitchenStateOut
                && b.value.nested_deeper_than(MAX_NESTING)
            {
                let message = format!(
                    "{} would nest {} deeper than {MAX_NESTING} levels (objects within objects); \
                     networks whose objects nest that deep are not simulated",
                    sig.name, arg.name
                );
                return Err(SimError::at(message, p));
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
        // Outputs only fill unbound slots; the reference never overwrites a binding. What they
        // replaced is kept for every action on the search's path: sized to fit.
        let fills =
            |i: usize, out: &Option<Binding>| out.is_some() && !state[self.slots[p][i]].is_bound();
        let filled = (call.out.iter().enumerate()).filter(|(i, out)| fills(*i, out));
        let mut replaced = Vec::with_capacity(filled.count());
        for (i, out) in call.out.into_iter().enumerate() {
            let s = self.slots[p][i];
            if let Some(b) = out
                && !state[s].is_bound()
            {
                replaced.push((s, state.fill(s, b)));
            }
        }
        state.steps.push(Step {
            predicate: p,
            case,
            start,
            aliased: (!effects.aliased.is_empty()).then(|| Box::new(Aliased(effects.aliased))),
        });
        Ok(replaced)
    }
}

/// A constant of a network as the object the reference makes of it: a number becomes a
/// `quantity`, a list a `list-of-kitchen-entities`, a symbol an instance of its class marked as
/// a concept.
pub(super) fn instantiate(
    model: &Model,
    maker: &mut Maker<'_>,
    arg: &Arg,
) -> Result<Value, String> {
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
