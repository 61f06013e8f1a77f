//! A network run one action at a time, as an agent writes it: each action given runs on the
//! bindings the earlier ones left, with no search and no replay of what ran before
//! (`crate::session` builds the agent's environment on it).
//!
//! An action runs as soon as its bound arguments are one case's inputs, exactly as in
//! [`Model::execute`]; one that cannot run yet waits, and runs as soon as the actions given
//! after it bind what it lacks, the waiting actions in file order. This is the first path the
//! reference's depth-first search takes (it always runs the first runnable action in file
//! order), so where that path completes the network, the bindings here are the execution's
//! (before `aliases` shows list items changed in place in the bindings of earlier actions).

use super::{
    ActionSlots, Attempt, Binding, Engine, Execution, FirstPath, Model, Ran, SimError, SlotTable,
    Step, aliases, has_type, repeat_key,
};
use crate::base::budget;
use crate::base::profile::Profile;
use crate::data::catalogue::PrimitiveSig;
use crate::language::ast::{Predicate, Recipe, Span};
use crate::world::{Entity, Maker, Pid, Value};
use std::collections::BTreeSet;
use std::sync::Arc;

/// Where one action of a stepwise run stands.
#[derive(Clone, Debug, PartialEq)]
pub enum Standing {
    /// Not run: its bound arguments are not (yet) one case's inputs.
    Waiting,
    /// Ran with this case, as step `step` of the run.
    Ran { case: usize, step: usize },
    /// Repeats action `first` word for word with variables only: the 2024 reference runs it
    /// with that one and never on its own.
    Repeat { first: usize },
    /// Never runs: its text makes the reference refuse the network (the caller knows why).
    Inert,
    /// Its primitive signalled an error, which makes the reference refuse the network.
    Refused(SimError),
}

/// What one [`Stepwise::push`] ran.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Pushed {
    /// The actions that ran, in order: the pushed one when it could, then the waiting actions
    /// it let run.
    pub ran: Vec<usize>,
    /// The action whose primitive signalled an error, if one did (nothing runs after it).
    pub refused: Option<usize>,
}

/// Why a waiting action cannot run: argument positions, against the case nearest to what is
/// bound.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Blocked {
    /// Inputs of that case not bound yet.
    pub unbound: Vec<usize>,
    /// Arguments bound already that the case produces.
    pub bound: Vec<usize>,
    /// Bound arguments whose value is not of the argument's type.
    pub mistyped: Vec<usize>,
}

/// A network run action by action; every push can be taken back.
#[derive(Clone, Debug)]
pub struct Stepwise {
    recipe: Recipe,
    /// Per action, the binding slot of each argument (none for inert actions).
    slots: ActionSlots,
    standing: Vec<Standing>,
    table: SlotTable,
    steps: Vec<Step>,
    /// What each step changed, to take it back (and for the search to replay it).
    ran: Vec<Ran>,
    last_pid: Pid,
    /// The kitchen cells the run's bindings hold, which each push's memory budget counts on
    /// from (see [`budget::MEMORY_BUDGET`]).
    cells: u64,
    history: Vec<Change>,
}

/// What one push changed, to take it back.
#[derive(Clone, Debug)]
struct Change {
    slots: usize,
    steps: usize,
    last_pid: Pid,
    cells: u64,
    /// Earlier actions whose standing changed, with their standing before.
    standing: Vec<(usize, Standing)>,
}

impl Stepwise {
    /// An empty network of recipe `id` in the model's initial kitchen.
    pub fn new(model: &Model, id: &str) -> Stepwise {
        Stepwise {
            recipe: Recipe {
                id: id.to_string(),
                id_span: Span::default(),
                predicates: Vec::new(),
            },
            slots: ActionSlots::default(),
            standing: Vec::new(),
            table: SlotTable::default(),
            steps: Vec::new(),
            ran: Vec::new(),
            last_pid: model.maker().last_pid(),
            cells: 0,
            history: Vec::new(),
        }
    }

    /// Append an action and run what can run. An action that is not `valid` (its text makes
    /// the reference refuse the network) is kept, inert. Within a budget, what the run holds
    /// counts against its memory budget: an action that would hold more is refused.
    pub fn push(&mut self, model: &Model, predicate: Predicate, valid: bool) -> Pushed {
        let p = self.recipe.predicates.len();
        let mut change = Change {
            slots: self.table.len(),
            steps: self.steps.len(),
            last_pid: self.last_pid,
            cells: self.cells,
            standing: Vec::new(),
        };
        budget::hold(self.cells);
        let (slots, standing) = if valid {
            match self.bind_arguments(model, &predicate, p) {
                Ok(slots) => (slots, self.repeated(model.profile, &predicate)),
                Err(e) => (Vec::new(), Standing::Refused(e)),
            }
        } else {
            (Vec::new(), Standing::Inert)
        };
        self.recipe.predicates.push(predicate);
        self.slots.push(&slots);
        let refused_now = matches!(standing, Standing::Refused(_));
        self.standing.push(standing);
        let mut pushed = Pushed::default();
        if refused_now {
            pushed.refused = Some(p);
        } else {
            self.run_ready(model, &mut change, &mut pushed);
        }
        self.cells = budget::cells();
        self.history.push(change);
        pushed
    }

    /// Take back the last push; whether there was one.
    pub fn undo(&mut self) -> bool {
        let Some(change) = self.history.pop() else {
            return false;
        };
        let p = self.recipe.predicates.len() - 1;
        self.recipe.predicates.truncate(p);
        self.slots.truncate(p);
        self.standing.truncate(p);
        for ran in self.ran.drain(change.steps..).rev() {
            for (s, old) in ran.filled.into_iter().rev() {
                self.table.bindings[s] = old;
            }
        }
        for (q, old) in change.standing.into_iter().rev() {
            self.standing[q] = old;
        }
        self.table.truncate(change.slots);
        self.steps.truncate(change.steps);
        self.last_pid = change.last_pid;
        self.cells = change.cells;
        true
    }

    /// The binding slot of each argument, new slots made for new variables and constants.
    fn bind_arguments(
        &mut self,
        model: &Model,
        predicate: &Predicate,
        p: usize,
    ) -> Result<Vec<usize>, SimError> {
        let mut maker = Maker::new(&model.onto, self.last_pid);
        let slots = self.table.bind(model, &mut maker, predicate, p)?;
        self.last_pid = maker.last_pid();
        Ok(slots)
    }

    /// `Repeat` for a word-for-word repeat of an earlier all-variable action in profile 2024
    /// (see `repeats` in the engine), else `Waiting`.
    fn repeated(&self, profile: Profile, predicate: &Predicate) -> Standing {
        let Some(key) = repeat_key(profile, predicate) else {
            return Standing::Waiting;
        };
        let first = self
            .recipe
            .predicates
            .iter()
            .position(|q| repeat_key(profile, q).as_ref() == Some(&key));
        first.map_or(Standing::Waiting, |first| Standing::Repeat { first })
    }

    /// Run the first waiting action (file order) that can run, until none can or one is
    /// refused. Whether a waiting action can run depends only on its slots' bindings, so the
    /// only actions asked are the pushed one and those sharing a slot with an action that ran.
    fn run_ready(&mut self, model: &Model, change: &mut Change, pushed: &mut Pushed) {
        let last = self.standing.len() - 1;
        let refused_before = (self.standing.iter()).any(|s| matches!(s, Standing::Refused(_)));
        // A refusal stopped an earlier push before it asked every action it could have run.
        let mut asked = match refused_before {
            true => (0..=last).collect(),
            false => BTreeSet::from([last]),
        };
        while let Some((p, case)) = self.first_ready(model, &mut asked) {
            let before = self.standing[p].clone();
            let now = match self.run(model, p, case) {
                Ok(()) => {
                    let filled = self.ran.last().map_or(&[][..], |r| &r.filled[..]);
                    asked.extend(self.waiting_on(filled.iter().map(|&(s, _)| s)));
                    pushed.ran.push(p);
                    Standing::Ran {
                        case,
                        step: self.steps.len() - 1,
                    }
                }
                Err(e) => {
                    pushed.refused = Some(p);
                    Standing::Refused(e)
                }
            };
            if p != last {
                change.standing.push((p, before));
            }
            self.standing[p] = now;
            if pushed.refused.is_some() {
                break;
            }
        }
    }

    /// The first of the `asked` actions (file order) that waits and can run now, with its
    /// case; those asked before it leave the set.
    fn first_ready(&self, model: &Model, asked: &mut BTreeSet<usize>) -> Option<(usize, usize)> {
        while let Some(p) = asked.pop_first() {
            if self.standing[p] == Standing::Waiting
                && let Some(case) = self.case_now(model, p)
            {
                return Some((p, case));
            }
        }
        None
    }

    /// The waiting actions with an argument in one of `slots`.
    fn waiting_on(&self, slots: impl Iterator<Item = usize>) -> Vec<usize> {
        let slots: Vec<usize> = slots.collect();
        (0..self.standing.len())
            .filter(|&q| self.standing[q] == Standing::Waiting)
            .filter(|&q| self.slots[q].iter().any(|s| slots.contains(s)))
            .collect()
    }

    /// The engine reduced to action `p`, to ask whether it can run and to run it.
    fn engine<'m>(&'m self, model: &'m Model, p: usize) -> Option<Engine<'m>> {
        let sig = self.sig(model, p)?;
        Some(Engine {
            model,
            recipe: &self.recipe,
            sigs: vec![sig],
            slots: ActionSlots::one(&self.slots[p]),
            table: SlotTable::default(),
            maker: Maker::new(&model.onto, self.last_pid),
            repeat: vec![false],
        })
    }

    fn case_now(&self, model: &Model, p: usize) -> Option<usize> {
        self.engine(model, p)?.applicable(0, &self.table.bindings)
    }

    /// Run action `p`, keeping what its step changed.
    fn run(&mut self, model: &Model, p: usize, case: usize) -> Result<(), SimError> {
        budget::at_action(p);
        let cells = budget::cells();
        let mut attempt = Attempt::new(
            std::mem::take(&mut self.table.bindings),
            std::mem::take(&mut self.steps),
        );
        let (result, last_pid) = match self.engine(model, p) {
            Some(mut engine) => (
                engine.execute(0, case, &mut attempt),
                engine.maker.last_pid(),
            ),
            None => (Err(SimError::new("no such primitive")), self.last_pid),
        };
        self.table.bindings = attempt.bindings;
        self.steps = attempt.steps;
        self.last_pid = last_pid;
        match result {
            Ok(filled) => {
                if let Some(step) = self.steps.last_mut() {
                    step.predicate = p;
                }
                self.ran.push(Ran { filled, cells });
                Ok(())
            }
            Err(mut e) => {
                // Nothing it made is bound.
                budget::hold(cells);
                e.predicate = Some(p);
                Err(e)
            }
        }
    }

    /// The signature of action `p`'s primitive, when the catalogue has it.
    pub fn sig<'m>(&self, model: &'m Model, p: usize) -> Option<&'m PrimitiveSig> {
        model.catalogue.get(&self.recipe.predicates.get(p)?.name)
    }

    /// The actions pushed so far.
    pub fn recipe(&self) -> &Recipe {
        &self.recipe
    }

    /// The steps run so far, as the search over the actions pushed replays them: they are the
    /// first path it takes (see the module's documentation), so it need not run them again.
    pub fn first_path(&self) -> FirstPath<'_> {
        FirstPath {
            bindings: &self.table.bindings,
            names: &self.table.names,
            steps: &self.steps,
            ran: &self.ran,
            last_pid: self.last_pid,
            cells: self.cells,
        }
    }

    pub fn standing(&self, p: usize) -> Option<&Standing> {
        self.standing.get(p)
    }

    /// The binding slot of each argument of action `p` (none for an inert action).
    pub fn slots(&self, p: usize) -> &[usize] {
        self.slots.get(p).unwrap_or(&[])
    }

    pub fn binding(&self, slot: usize) -> Option<&Binding> {
        self.table.bindings.get(slot)
    }

    /// The variable (`?x`) or the constant a slot holds, as written.
    pub fn name(&self, slot: usize) -> &str {
        self.table.names.get(slot).unwrap_or("")
    }

    /// The slot of variable `name` (without `?`, lower case).
    pub fn variable(&self, name: &str) -> Option<usize> {
        self.table.variable(name)
    }

    /// The variables, in the order they first appeared.
    pub fn variables(&self) -> impl Iterator<Item = (&str, &Binding)> {
        self.table
            .names
            .iter()
            .zip(&self.table.bindings)
            .filter(|(n, _)| n.starts_with('?'))
    }

    /// The kitchen state the last action that made one made, else the initial kitchen.
    pub fn kitchen<'a>(&'a self, model: &'a Model) -> &'a Arc<Entity> {
        self.steps
            .iter()
            .rev()
            .find_map(|step| {
                let case = self.sig(model, step.predicate)?.cases.get(step.case)?;
                self.slots[step.predicate]
                    .iter()
                    .enumerate()
                    .filter(|&(i, _)| !case.is_input(i))
                    .find_map(|(_, &s)| match &self.table.bindings[s].value {
                        Value::Obj(e) if e.class == model.k.kitchen_state => Some(e),
                        _ => None,
                    })
            })
            .unwrap_or(&model.kitchen)
    }

    /// What ran so far as the metrics read an execution: the actions pushed, the steps in the
    /// order they ran, and list items changed in place shown as they became, as
    /// [`Model::execute`] shows them. `solved` when every action ran (or runs with the one it
    /// repeats) and every variable is bound.
    pub fn execution(&self, model: &Model) -> Execution {
        let mut bindings = self.table.bindings.clone();
        aliases::show(model, &self.steps, &mut bindings);
        let ran = |s: &Standing| matches!(s, Standing::Ran { .. } | Standing::Repeat { .. });
        let solved = self.standing.iter().all(ran) && self.variables().all(|(_, b)| b.is_bound());
        Execution {
            slots: self.slots.clone(),
            names: self.table.names.clone(),
            bindings,
            steps: self.steps.clone(),
            solved,
            repeat: (self.standing.iter())
                .map(|s| matches!(s, Standing::Repeat { .. }))
                .collect(),
        }
    }

    /// Why waiting action `p` cannot run now.
    pub fn blocked(&self, model: &Model, p: usize) -> Blocked {
        let (Some(sig), Some(slots)) = (self.sig(model, p), self.slots.get(p)) else {
            return Blocked::default();
        };
        let mut out = Blocked::default();
        let mut bound = 0u64;
        for (i, &s) in slots.iter().enumerate() {
            let b = &self.table.bindings[s];
            if b.is_bound() {
                bound |= 1 << i;
                if !has_type(model, &b.value, &sig.args[i].ty) {
                    out.mistyped.push(i);
                }
            }
        }
        let Some(case) = sig
            .cases
            .iter()
            .min_by_key(|c| (c.inputs ^ bound).count_ones())
        else {
            return out;
        };
        for i in 0..slots.len() {
            match (case.is_input(i), bound & (1 << i) != 0) {
                (true, false) => out.unbound.push(i),
                (false, true) => out.bound.push(i),
                _ => {}
            }
        }
        out
    }
}
