//! Does a simulated dish keep a diet? The dish is the output the dish approximation score
//! compares (or, without a gold run, the last output nothing else uses), unfolded as that
//! score unfolds it: base ingredients with their amounts in grams. Each ingredient class is
//! judged by its tags in the diet table (`kitchens/diet.json`, or a benchmark's own classes'
//! tags), and a violation names the class, its amount in the dish and the actions that
//! brought it into the kitchen's dish. The text of the network is never read: a network that
//! names butter and never runs has no verdict.

use super::dish::dish_ingredients;
use super::primary_output;
use crate::base::number::Number;
use crate::data::diet_table::{Diet, DietTable, Rule, UNKNOWN};
use crate::language::ast::{Arg, Recipe};
use crate::simulation::primitives::common::quantity_of;
use crate::simulation::{Execution, Model, SimError};
use crate::world::ontology::{ClassId, Ontology};
use crate::world::{Pid, Value};
use std::collections::{BTreeSet, HashMap, HashSet};
use std::sync::Arc;

/// An action of the network, as a report locates it.
#[derive(Clone, Debug, PartialEq)]
pub struct ActionRef {
    /// Index of the predicate in the recipe.
    pub predicate: usize,
    /// The action as written.
    pub text: String,
    /// Byte offset of the action in the file's text.
    pub offset: usize,
}

impl ActionRef {
    pub fn new(recipe: &Recipe, predicate: usize) -> ActionRef {
        let p = &recipe.predicates[predicate];
        ActionRef {
            predicate,
            text: p.to_string(),
            offset: p.span.start,
        }
    }
}

/// One ingredient class of a dish: how much of it the dish holds and what brought it in.
#[derive(Clone, Debug)]
pub struct Component {
    pub class: ClassId,
    /// Grams, summed over every piece of the class (portions, mixtures' shares, toppings).
    pub grams: Number,
    /// Where it came from, in network order: the actions that fetched it (named its class),
    /// or, for an ingredient an action made (an egg cracked into whole egg), those that
    /// fetched what it was made from.
    pub brought_by: Vec<ActionRef>,
    /// The actions that carried it from there into the dish, the dish's action included, in
    /// network order.
    pub carried_by: Vec<ActionRef>,
}

/// A run as diets see it.
#[derive(Clone, Debug)]
pub enum Dish {
    /// The network has no execution: no verdict.
    NotExecuted,
    /// The output taken for the dish holds no ingredient (a failed object, a tool): no verdict.
    Empty(ActionRef),
    /// The dish's ingredients cannot be weighed in grams (an amount in a unit the conversion
    /// table lacks), why: no verdict. The evaluation goes on, as the reference's does when
    /// this output is not the dish it compares.
    Unweighable(ActionRef, String),
    /// The ingredient classes of the dish made by an action, in the order the dish lists them.
    Holding(ActionRef, Vec<Component>),
}

/// Why a network has no verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoVerdict {
    NotExecuted,
    NoIngredient,
    /// The unfolding's error.
    Unweighable(String),
}

impl NoVerdict {
    pub fn reason(&self) -> String {
        match self {
            NoVerdict::NotExecuted => "the network does not execute, so it makes no dish".into(),
            NoVerdict::NoIngredient => "the output taken for the dish holds no ingredient".into(),
            NoVerdict::Unweighable(why) => {
                format!("the dish's ingredients cannot be weighed in grams: {why}")
            }
        }
    }
}

/// A component a diet excludes.
#[derive(Clone, Debug, PartialEq)]
pub struct Violation {
    pub ingredient: String,
    /// The class's tags the diet excludes.
    pub tags: Vec<String>,
    pub grams: Number,
    /// Where it came from ([`Component::brought_by`]).
    pub actions: Vec<ActionRef>,
    /// The actions that carried it into the dish ([`Component::carried_by`]).
    pub carried_by: Vec<ActionRef>,
}

/// A dish judged against a diet.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    pub diet: Diet,
    /// The action whose output is the dish.
    pub dish: Option<ActionRef>,
    pub violations: Vec<Violation>,
    pub no_verdict: Option<NoVerdict>,
}

impl Verdict {
    /// `None` when there is no verdict.
    pub fn satisfied(&self) -> Option<bool> {
        match &self.no_verdict {
            Some(_) => None,
            None => Some(self.violations.is_empty()),
        }
    }

    /// The evaluation's column: `1` satisfied, `0` violated, `NIL` no verdict.
    pub fn cell(&self) -> &'static str {
        match self.satisfied() {
            Some(true) => "1",
            Some(false) => "0",
            None => "NIL",
        }
    }
}

impl Dish {
    /// The dish of a run: the primary output of step `step` (into `exec.steps`). A run that
    /// did not execute, or without a step, has none.
    pub fn of(model: &Model, recipe: &Recipe, exec: &Execution, step: Option<usize>) -> Dish {
        let Some(step) = step.filter(|_| exec.solved) else {
            return Dish::NotExecuted;
        };
        let made_by = ActionRef::new(recipe, exec.steps[step].predicate);
        match Self::components(model, recipe, exec, step) {
            Ok(components) if components.is_empty() => Dish::Empty(made_by),
            Ok(components) => Dish::Holding(made_by, components),
            Err(e) => Dish::Unweighable(made_by, e.message),
        }
    }

    /// The ingredient classes the output of `step` holds, as the dish approximation score
    /// unfolds it; `Err` where that unfolding fails.
    fn components(
        model: &Model,
        recipe: &Recipe,
        exec: &Execution,
        step: usize,
    ) -> Result<Vec<Component>, SimError> {
        let Some(dish) = primary_output(exec, step).as_obj() else {
            return Ok(Vec::new());
        };
        let pieces = dish_ingredients(model, &mut model.maker(), dish)?;
        let mut sources = Sources::new(model, recipe, exec);
        let mut classes: Vec<(ClassId, Number, Provenance)> = Vec::new();
        let mut traced: HashMap<(Pid, ClassId), Provenance> = HashMap::new();
        for piece in &pieces {
            let (grams, _) = quantity_of(model, piece)?;
            let found = traced
                .entry((piece.pid, piece.class))
                .or_insert_with(|| sources.bringing(step, piece.pid, piece.class))
                .clone();
            match classes.iter_mut().find(|(c, _, _)| *c == piece.class) {
                Some((_, total, provenance)) => {
                    *total = total.add(grams);
                    provenance.from.extend(found.from);
                    provenance.carried.extend(found.carried);
                }
                None => classes.push((piece.class, grams, found)),
            }
        }
        let refs =
            |ps: BTreeSet<usize>| ps.into_iter().map(|p| ActionRef::new(recipe, p)).collect();
        let components = classes
            .into_iter()
            .map(|(class, grams, provenance)| Component {
                class,
                grams,
                brought_by: refs(provenance.from),
                carried_by: refs(provenance.carried),
            })
            .collect();
        Ok(components)
    }

    /// The dish against `diet`: every component with a tag the diet excludes, ordered by the
    /// first action that brought it in.
    pub fn judge(&self, onto: &Ontology, diet: Diet) -> Verdict {
        let (dish, components) = match self {
            Dish::NotExecuted => return no_verdict(diet, None, NoVerdict::NotExecuted),
            Dish::Empty(dish) => {
                return no_verdict(diet, Some(dish.clone()), NoVerdict::NoIngredient);
            }
            Dish::Unweighable(dish, why) => {
                let why = NoVerdict::Unweighable(why.clone());
                return no_verdict(diet, Some(dish.clone()), why);
            }
            Dish::Holding(dish, components) => (dish, components),
        };
        let tags = Tags::new(onto);
        let mut violations: Vec<Violation> = components
            .iter()
            .filter_map(|c| {
                let bad = tags.excluded(c.class, diet);
                (!bad.is_empty()).then(|| Violation {
                    ingredient: onto.class_name(c.class).to_owned(),
                    tags: bad,
                    grams: c.grams,
                    actions: c.brought_by.clone(),
                    carried_by: c.carried_by.clone(),
                })
            })
            .collect();
        violations.sort_by(|a, b| {
            let first = |v: &Violation| v.actions.first().map_or(usize::MAX, |a| a.predicate);
            first(a)
                .cmp(&first(b))
                .then_with(|| a.ingredient.cmp(&b.ingredient))
        });
        Verdict {
            diet,
            dish: Some(dish.clone()),
            violations,
            no_verdict: None,
        }
    }
}

fn no_verdict(diet: Diet, dish: Option<ActionRef>, why: NoVerdict) -> Verdict {
    Verdict {
        diet,
        dish,
        violations: Vec::new(),
        no_verdict: Some(why),
    }
}

/// The diet tags of classes: the built-in table's, and those a benchmark's `ontology.json`
/// gives its own classes.
pub struct Tags<'o> {
    onto: &'o Ontology,
    pub table: &'static DietTable,
}

impl<'o> Tags<'o> {
    pub fn new(onto: &'o Ontology) -> Tags<'o> {
        Tags {
            onto,
            table: DietTable::builtin(),
        }
    }

    /// The tags of an ingredient class, sorted: its own, those of every subclass for an
    /// abstract class, none for a mixture (its components are judged); a class without an
    /// entry (a benchmark's class that gives none) takes its nearest ancestor's, and with no
    /// such ancestor is `unknown`.
    pub fn of(&self, class: ClassId) -> Vec<String> {
        let precedence = &self.onto.class(class).precedence;
        for &c in precedence {
            if let Some(tags) = self.own(c) {
                return tags;
            }
            match self.table.rule(self.onto.class_name(c)) {
                Some(Rule::Tags(_)) | None => {}
                Some(Rule::Components) => return Vec::new(),
                Some(Rule::Subclasses) => return self.of_subclasses(c),
            }
        }
        vec![UNKNOWN.to_owned()]
    }

    /// The tags of an ingredient class that `diet` excludes, sorted (none: the diet keeps it).
    pub fn excluded(&self, class: ClassId, diet: Diet) -> Vec<String> {
        let excluded = self.table.excludes(diet);
        let mut tags = self.of(class);
        tags.retain(|t| excluded.contains(t));
        tags
    }

    /// The tags a class itself has, when it has an entry of tags.
    fn own(&self, class: ClassId) -> Option<Vec<String>> {
        if let Some(tags) = self.onto.diet_tags(class) {
            return Some(sorted(tags.iter().cloned()));
        }
        match self.table.rule(self.onto.class_name(class)) {
            Some(Rule::Tags(tags)) => Some(sorted(tags.iter().cloned())),
            _ => None,
        }
    }

    /// Every tag a class below `class` has of its own.
    fn of_subclasses(&self, class: ClassId) -> Vec<String> {
        let below = self
            .onto
            .classes()
            .filter(|&(c, _)| c != class && self.onto.is_a(c, class))
            .filter_map(|(c, _)| self.own(c));
        sorted(below.flatten())
    }
}

fn sorted(tags: impl Iterator<Item = String>) -> Vec<String> {
    tags.collect::<BTreeSet<String>>().into_iter().collect()
}

/// Where an ingredient of a dish came from and how it got there (predicates of the network).
#[derive(Clone, Debug, Default)]
struct Provenance {
    from: BTreeSet<usize>,
    carried: BTreeSet<usize>,
}

/// Which actions brought an ingredient into a dish, read back from the run: from the action
/// that made the dish, along the inputs that hold the ingredient, to the actions that named
/// its class (the fetches). An action given no input holding it took it from the kitchen
/// state it was given (crack finds the bowl by its id, holding what an earlier transfer put
/// there): the trace goes on at the latest action up that kitchen state's chain whose output
/// held it. An ingredient no action held before (an egg cracked into whole egg) was made by
/// the first action that held it, from the ingredients it was given: the trace goes on at
/// the actions that gave them.
struct Sources<'r> {
    model: &'r Model,
    recipe: &'r Recipe,
    exec: &'r Execution,
    /// The step that bound each binding slot.
    producer: HashMap<usize, usize>,
    /// The ingredients (persistent ids) each binding slot's value holds, once asked for.
    held: HashMap<usize, HashSet<Pid>>,
}

impl<'r> Sources<'r> {
    fn new(model: &'r Model, recipe: &'r Recipe, exec: &'r Execution) -> Sources<'r> {
        let mut producer = HashMap::new();
        for (step, s) in exec.steps.iter().enumerate() {
            let inputs = Self::case_inputs(model, recipe, exec, step);
            for (arg, &slot) in exec.slots[s.predicate].iter().enumerate() {
                if inputs.is_none_or(|c| c & (1 << arg) == 0) {
                    producer.entry(slot).or_insert(step);
                }
            }
        }
        Sources {
            model,
            recipe,
            exec,
            producer,
            held: HashMap::new(),
        }
    }

    /// The input set of the case a step ran (bit per argument).
    fn case_inputs(model: &Model, recipe: &Recipe, exec: &Execution, step: usize) -> Option<u64> {
        let s = &exec.steps[step];
        let sig = model.catalogue.get(&recipe.predicates[s.predicate].name)?;
        sig.cases.get(s.case).map(|c| c.inputs)
    }

    /// The binding slots of a step's inputs (`inputs: true`) or outputs.
    fn slots_of(&self, step: usize, inputs: bool) -> impl Iterator<Item = usize> + '_ {
        let p = self.exec.steps[step].predicate;
        let case = Self::case_inputs(self.model, self.recipe, self.exec, step).unwrap_or(0);
        self.exec.slots[p]
            .iter()
            .enumerate()
            .filter(move |&(arg, _)| (case & (1 << arg) != 0) == inputs)
            .map(|(_, &slot)| slot)
    }

    /// Where ingredient `pid` of `class` in the output of step `dish` came from, and the
    /// actions that carried it there.
    fn bringing(&mut self, dish: usize, pid: Pid, class: ClassId) -> Provenance {
        let mut found = Provenance::default();
        let mut seen = HashSet::from([dish]);
        let mut stack = vec![dish];
        while let Some(step) = stack.pop() {
            let p = self.exec.steps[step].predicate;
            let inputs: Vec<usize> = self.slots_of(step, true).collect();
            let fed: Vec<usize> = inputs
                .iter()
                .copied()
                .filter(|&slot| self.holds(slot, pid))
                .collect();
            let fetched = self.names(p, class);
            let mut from: Vec<usize> = fed
                .iter()
                .filter_map(|s| self.producer.get(s))
                .copied()
                .collect();
            if fed.is_empty() && !fetched {
                from.extend(self.through_kitchen(&inputs, pid));
            }
            if from.is_empty() && !fetched {
                // Made here (an egg cracked into whole egg): from the ingredients given.
                from.extend(self.made_from(step, &inputs));
            }
            if fetched || from.is_empty() {
                found.from.insert(p);
            } else {
                found.carried.insert(p);
            }
            for from in from {
                if seen.insert(from) {
                    stack.push(from);
                }
            }
        }
        found
    }

    /// The latest step up the chain of the kitchen states among `inputs` whose output (a
    /// kitchen state aside) held ingredient `pid`.
    fn through_kitchen(&mut self, inputs: &[usize], pid: Pid) -> Option<usize> {
        let model = self.model;
        let k = &model.k;
        let is_kitchen = |slot: usize, exec: &Execution| {
            exec.bindings[slot]
                .value
                .as_obj()
                .is_some_and(|e| e.class == k.kitchen_state)
        };
        let mut kitchen = inputs.iter().copied().find(|&s| is_kitchen(s, self.exec));
        let mut walked = HashSet::new();
        while let Some(slot) = kitchen {
            let &step = self.producer.get(&slot)?;
            if !walked.insert(step) {
                return None;
            }
            let outputs: Vec<usize> = self.slots_of(step, false).collect();
            if outputs.iter().any(|&s| self.holds(s, pid)) {
                return Some(step);
            }
            kitchen = self
                .slots_of(step, true)
                .find(|&s| is_kitchen(s, self.exec));
        }
        None
    }

    /// The steps that produced those of a step's `inputs` holding an ingredient its outputs
    /// no longer hold (the eggs a crack made whole egg of, not the bowl it cracked them into).
    fn made_from(&mut self, step: usize, inputs: &[usize]) -> Vec<usize> {
        let outputs: Vec<usize> = self.slots_of(step, false).collect();
        let mut kept: HashSet<Pid> = HashSet::new();
        for slot in outputs {
            kept.extend(self.held_by(slot).iter().copied());
        }
        let mut steps = Vec::new();
        for &slot in inputs {
            if self.held_by(slot).iter().any(|pid| !kept.contains(pid)) {
                steps.extend(self.producer.get(&slot));
            }
        }
        steps
    }

    /// The ingredients (persistent ids) the value of a binding slot holds.
    fn held_by(&mut self, slot: usize) -> &HashSet<Pid> {
        let (model, exec) = (self.model, self.exec);
        self.held
            .entry(slot)
            .or_insert_with(|| ingredients_in(model, &exec.bindings[slot].value))
    }

    /// Whether action `p` names the ingredient's class, or a class above it, as a constant.
    fn names(&self, p: usize, class: ClassId) -> bool {
        let onto = &self.model.onto;
        self.recipe.predicates[p].args.iter().any(|a| match a {
            Arg::Sym(name) => onto
                .class_id(name)
                .is_some_and(|c| onto.is_a(c, self.model.k.ingredient) && onto.is_a(class, c)),
            _ => false,
        })
    }

    /// Whether the value of a binding slot holds ingredient `pid` (a kitchen state holds
    /// everything, and counts as holding nothing).
    fn holds(&mut self, slot: usize, pid: Pid) -> bool {
        self.held_by(slot).contains(&pid)
    }
}

/// The persistent ids of the ingredients a value holds at any depth, each object and list
/// walked once (a kitchen state: none).
fn ingredients_in(model: &Model, value: &Value) -> HashSet<Pid> {
    let (onto, k) = (&model.onto, &model.k);
    let mut pids = HashSet::new();
    if value.as_obj().is_some_and(|e| e.class == k.kitchen_state) {
        return pids;
    }
    let mut walked: HashSet<usize> = HashSet::new();
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Obj(e) => {
                if !walked.insert(Arc::as_ptr(e) as usize) {
                    continue;
                }
                if onto.is_a(e.class, k.ingredient) {
                    pids.insert(e.pid);
                }
                stack.extend(e.slots().map(|(_, v)| v));
            }
            Value::List(items) if walked.insert(Arc::as_ptr(items) as *const u8 as usize) => {
                stack.extend(items.iter());
            }
            _ => {}
        }
    }
    pids
}
