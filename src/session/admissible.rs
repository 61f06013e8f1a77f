//! The actions an agent can take now: candidate lines built from the catalogue's cases, the
//! bound variables of fitting types, the classes the kitchen holds and the constants of the
//! ontology, each tried on a copy of the session's run so that every line offered runs.
//!
//! A candidate chains from the current kitchen state and gives every output a fresh
//! variable. Numbers and the units that go with them (amounts, counts, times, temperatures)
//! are free: the line shows a placeholder (`<quantity>`) and says what bounds it, and the
//! runnable `example` fills it with a value that runs.
//!
//! The order is deterministic: the primitives take turns (catalogue order), and within a
//! primitive its cases come in catalogue order with the most recently bound variables first.
//! A call tries at most [`MAX_TRIALS`] lines and looks at most [`MAX_DRAFTS`], so its time
//! is bounded whatever the network.

use super::describe::spaced;
use crate::base::number::Number;
use crate::data::catalogue::{Case, PrimitiveSig};
use crate::data::primitive_words;
use crate::language::ast::{Arg, Predicate, Span};
use crate::simulation::primitives::common::quantity_of;
use crate::simulation::stepwise::{Standing, Stepwise};
use crate::simulation::{Binding, Model, has_type};
use crate::world::ontology::ClassId;
use crate::world::{Entity, Value};
use serde::Serialize;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// How many candidates an agent is shown unless it asks for another number.
pub const DEFAULT_LIMIT: usize = 50;

/// The most candidates one call gives.
pub const MAX_LIMIT: usize = 5_000;

/// The most candidate lines one call runs on its copy of the kitchen.
pub const MAX_TRIALS: usize = 20_000;

/// The most argument combinations one call looks at (most are passed over by a filter
/// without running).
pub const MAX_DRAFTS: usize = 500_000;

/// What an agent asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Query {
    /// At most this many candidates (capped at [`MAX_LIMIT`]).
    pub limit: usize,
    /// Only candidates of this primitive.
    pub primitive: Option<String>,
    /// Only candidates using this variable (`?bowl` or `bowl`) as an input.
    pub using: Option<String>,
}

impl Default for Query {
    fn default() -> Self {
        Query {
            limit: DEFAULT_LIMIT,
            primitive: None,
            using: None,
        }
    }
}

/// A line that runs now.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Candidate {
    pub primitive: String,
    /// The line, free values as placeholders (`<time-to-bake-quantity>`).
    pub line: String,
    /// The line with every placeholder filled by a value that runs.
    pub example: String,
    /// Per input argument, in order, what it uses.
    pub inputs: Vec<Use>,
    /// The free values of the line.
    pub placeholders: Vec<Placeholder>,
    /// Whether the example's first output is a failed object: it runs, but makes nothing.
    pub fails: bool,
}

/// What an input argument of a candidate uses.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Use {
    pub argument: String,
    /// `variable` (`?bowl`), `class` (`butter`), or `free` (a placeholder).
    pub kind: &'static str,
    pub uses: String,
}

/// A free value of a candidate.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Placeholder {
    pub argument: String,
    /// `amount`, `count`, `portion`, `time` or `temperature`.
    pub kind: String,
    /// What the example puts there.
    pub example: String,
    /// What bounds it, in words.
    pub bound: String,
}

/// One argument's choice in a draft.
#[derive(Clone, Debug)]
enum Choice {
    /// The current kitchen state's variable.
    Kitchen,
    /// A fresh variable: an output, or a default the kitchen supplies.
    Fresh,
    /// A bound variable of the pool.
    Variable(usize),
    Class(ClassId),
    /// A free value of this kind.
    Free(String),
}

/// A bound variable an action may take.
struct Bound {
    name: String,
    value: Value,
    /// The primitive and argument that bound it (`bring-to-temperature temperature-quantity`).
    argument: String,
    /// The kitchen state the action that bound it made, when that is not the current one.
    kitchen: Option<String>,
}

/// What the kitchen holds of a class: how many, and the first one found.
struct Held {
    class: ClassId,
    count: usize,
    first: Arc<Entity>,
}

/// The session's state as candidates are built from it.
pub(super) struct Scene<'a> {
    model: &'a Model,
    run: &'a Stepwise,
    kitchen_variable: Option<String>,
    /// The bound variables, most recently bound first, one per object.
    pool: Vec<Bound>,
    held: Vec<Held>,
    /// The kinds a fetch finds by a held subclass ([`kinds_held`]), once per scene.
    kinds: Vec<ClassId>,
    /// Fresh names per argument name.
    fresh: HashMap<String, String>,
    /// The constants under each class asked for ([`Scene::under`]).
    under: HashMap<ClassId, Vec<ClassId>>,
    /// The pool's variables of each type asked for ([`Scene::variables`]).
    typed: HashMap<String, Vec<usize>>,
}

impl<'a> Scene<'a> {
    pub(super) fn new<'w>(
        model: &'a Model,
        run: &'a Stepwise,
        written: impl Iterator<Item = &'w str>,
    ) -> Scene<'a> {
        let written: HashSet<&str> = written.collect();
        let mut fresh = HashMap::new();
        for sig in model.catalogue.iter() {
            for a in &sig.args {
                let stem = match a.ty.as_str() {
                    "kitchen-state" => "ks",
                    _ => a.name.as_str(),
                };
                fresh
                    .entry(a.name.clone())
                    .or_insert_with(|| fresh_name(stem, &written));
            }
        }
        let (kitchen_variable, pool) = bound(model, run);
        let held = held(model, run.kitchen(model));
        Scene {
            model,
            run,
            kitchen_variable,
            pool,
            kinds: kinds_held(model, &held),
            held,
            fresh,
            under: HashMap::new(),
            typed: HashMap::new(),
        }
    }

    /// The candidates `query` asks for, in order.
    pub(super) fn candidates(&mut self, query: &Query) -> Vec<Candidate> {
        let limit = query.limit.min(MAX_LIMIT);
        let using = query
            .using
            .as_deref()
            .map(|u| format!("?{}", u.trim().trim_start_matches('?').to_lowercase()));
        let using = match using {
            Some(u) => match self.pool.iter().position(|b| b.name == u) {
                Some(i) => Some(i),
                None => return Vec::new(),
            },
            None => None,
        };
        let model = self.model;
        let no_kitchen = self.kitchen_variable.is_none();
        let mut streams: Vec<Stream> = model
            .catalogue
            .iter()
            .filter(|s| query.primitive.as_deref().is_none_or(|p| p == s.name))
            .filter(|s| (s.name == "get-kitchen") == no_kitchen)
            .map(|sig| self.stream(sig))
            .collect();
        let mut trial: Option<Stepwise> = None;
        let (mut found, mut trials, mut drafts) = (Vec::new(), 0, 0);
        while found.len() < limit && trials < MAX_TRIALS && drafts < MAX_DRAFTS {
            let mut any = false;
            for stream in &mut streams {
                let Some((sig, case, choices)) = stream.next() else {
                    continue;
                };
                any = true;
                drafts += 1;
                if repeats_an_argument(&choices) {
                    continue;
                }
                let uses_it =
                    |i: usize| matches!(choices[i], Choice::Variable(v) if Some(v) == using);
                if using.is_some() && !(0..choices.len()).any(uses_it) {
                    continue;
                }
                trials += 1;
                let run = trial.get_or_insert_with(|| self.run.clone());
                let mut tried = self.try_draft(run, sig, case, &choices, None);
                // A line that does not run on the kitchen as it is now may run on the kitchen
                // as its latest input was made (the gold networks do this): it forks the
                // kitchen, and says so when given.
                if let (None, Some(older)) = (&tried, self.kitchen_of_latest(&choices)) {
                    trials += 1;
                    tried = self.try_draft(run, sig, case, &choices, Some(older));
                }
                if let Some(c) = tried {
                    found.push(c);
                    if found.len() == limit {
                        break;
                    }
                }
            }
            if !any {
                break;
            }
        }
        found
    }

    /// Every draft of one primitive, case by case.
    fn stream(&mut self, sig: &'a PrimitiveSig) -> Stream<'a> {
        let cases = sig
            .cases
            .iter()
            .map(|&case| {
                let options = (0..sig.arity())
                    .map(|i| self.options(sig, case, i))
                    .collect();
                (case, options)
            })
            .collect();
        Stream {
            sig,
            cases,
            at: 0,
            odometer: Vec::new(),
        }
    }

    /// The choices for argument `i` of `sig` under `case`.
    fn options(&mut self, sig: &PrimitiveSig, case: Case, i: usize) -> Vec<Choice> {
        let arg = &sig.args[i];
        if !case.is_input(i) {
            return vec![Choice::Fresh];
        }
        if arg.ty == "kitchen-state" {
            return vec![Choice::Kitchen];
        }
        let model = self.model;
        let variables = self.variables(&arg.ty).into_iter();
        let words = primitive_words::of(&sig.name);
        // A free value, or a variable an earlier action of the primitive bound at the argument
        // (`?room-temp-quantity`, bound by one `bring-to-temperature`, for another).
        if let Some(kind) = words.and_then(|w| w.free.get(&arg.name)) {
            let pool = &self.pool;
            let at = format!("{} {}", sig.name, arg.name);
            let same =
                variables.filter(|c| matches!(c, Choice::Variable(v) if pool[*v].argument == at));
            return std::iter::once(Choice::Free(kind.clone()))
                .chain(same)
                .collect();
        }
        let declared = model.onto.class_id(&arg.ty);
        // An argument the primitive reads by its class (`line`'s lining) takes the kinds of
        // that class: what to line with is a class far more often than a bound object, so the
        // classes come first.
        let by_class = words.and_then(|w| w.by_class.get(&arg.name));
        if let Some(class) = by_class.and_then(|c| model.onto.class_id(c)) {
            let classes = self.under(class);
            let mut options: Vec<Choice> = (classes.into_iter())
                .filter(|&c| declared.is_none_or(|d| model.onto.is_a(c, d)))
                .map(Choice::Class)
                .collect();
            options.extend(variables);
            return options;
        }
        let Some(ty) = declared else {
            return variables.collect();
        };
        if arg.ty == "conceptualizable" {
            // What to fetch is a class the kitchen holds far more often than a bound object:
            // the classes come first, so the caps on lines tried never cut them off.
            let mut options: Vec<Choice> =
                self.held.iter().map(|h| Choice::Class(h.class)).collect();
            options.extend(self.kinds.iter().copied().map(Choice::Class));
            options.extend(variables);
            return options;
        }
        // A constant is an object of its class the kitchen never holds: a primitive that looks
        // its input up in the kitchen does not find it. So only an argument of a type the
        // kitchen holds nothing of (a unit, a pattern, a shape) takes constants.
        let mut options: Vec<Choice> = variables.collect();
        if !self.held.iter().any(|h| model.onto.is_a(h.class, ty)) {
            options.extend(self.under(ty).into_iter().map(Choice::Class));
        }
        options
    }

    /// The bound variables of type `ty`, most recently bound first (once per type and scene:
    /// many arguments share a type).
    fn variables(&mut self, ty: &str) -> Vec<Choice> {
        let (model, pool) = (self.model, &self.pool);
        let of_type = self.typed.entry(ty.to_string()).or_insert_with(|| {
            (0..pool.len())
                .filter(|&v| has_type(model, &pool[v].value, ty))
                .collect()
        });
        of_type.iter().copied().map(Choice::Variable).collect()
    }

    /// The classes under `ty` that a network may name as constants (concepts), `ty` itself
    /// and the failed object left out.
    fn under(&mut self, ty: ClassId) -> Vec<ClassId> {
        let onto = &self.model.onto;
        let failed = self.model.k.failed_object;
        let concept = onto.class_id("conceptualizable");
        self.under
            .entry(ty)
            .or_insert_with(|| {
                onto.classes()
                    .map(|(c, _)| c)
                    .filter(|&c| c != ty && c != failed && onto.is_a(c, ty))
                    .filter(|&c| concept.is_none_or(|k| onto.is_a(c, k)))
                    .collect()
            })
            .clone()
    }

    /// The kitchen state the action that bound the draft's most recently bound variable
    /// made, when that is not the current one.
    fn kitchen_of_latest(&self, choices: &[Choice]) -> Option<&str> {
        let latest = choices
            .iter()
            .filter_map(|c| match c {
                Choice::Variable(v) => Some(*v),
                _ => None,
            })
            .min()?;
        self.pool[latest].kitchen.as_deref()
    }

    /// The draft as a candidate, chained from the current kitchen state or `kitchen`, when its
    /// example runs on `run` (taken back after).
    fn try_draft(
        &self,
        run: &mut Stepwise,
        sig: &PrimitiveSig,
        case: Case,
        choices: &[Choice],
        kitchen: Option<&str>,
    ) -> Option<Candidate> {
        let model = self.model;
        let class = choices.iter().find_map(|c| match c {
            Choice::Class(c) => self.held.iter().find(|h| h.class == *c),
            _ => None,
        });
        let mut line = Vec::new();
        let mut example = Vec::new();
        let mut args = Vec::new();
        let mut inputs = Vec::new();
        let mut placeholders = Vec::new();
        for (i, choice) in choices.iter().enumerate() {
            let argument = &sig.args[i].name;
            let (shown, filled, arg) = match choice {
                Choice::Kitchen => {
                    let name = kitchen
                        .map(str::to_string)
                        .or(self.kitchen_variable.clone())?;
                    (name.clone(), name.clone(), Arg::Var(name[1..].into()))
                }
                Choice::Fresh => {
                    let name = self.fresh[argument].clone();
                    (name.clone(), name.clone(), Arg::Var(name[1..].into()))
                }
                Choice::Variable(v) => {
                    let name = self.pool[*v].name.clone();
                    (name.clone(), name.clone(), Arg::Var(name[1..].into()))
                }
                Choice::Class(c) => {
                    let name = model.onto.class_name(*c).to_string();
                    (name.clone(), name.clone(), Arg::Sym(name.into()))
                }
                Choice::Free(kind) => {
                    let unit = sig.args[i].ty != "quantity";
                    let (value, symbol, bound) = free_value(model, kind, class, unit)?;
                    placeholders.push(Placeholder {
                        argument: argument.clone(),
                        kind: kind.clone(),
                        example: value.clone(),
                        bound,
                    });
                    (format!("<{argument}>"), value, symbol)
                }
            };
            if case.is_input(i) && !matches!(choice, Choice::Kitchen) {
                let kind = match choice {
                    Choice::Variable(_) => "variable",
                    Choice::Class(_) => "class",
                    _ => "free",
                };
                inputs.push(Use {
                    argument: argument.clone(),
                    kind,
                    uses: shown.clone(),
                });
            }
            line.push(shown);
            example.push(filled);
            args.push(arg);
        }
        let fails = self.runs(run, sig, args)?;
        Some(Candidate {
            primitive: sig.name.clone(),
            line: format!("({} {})", sig.name, line.join(" ")),
            example: format!("({} {})", sig.name, example.join(" ")),
            inputs,
            placeholders,
            fails,
        })
    }

    /// Whether the action runs on `run` (then whether its first output is a failed object);
    /// `run` is as it was after.
    fn runs(&self, run: &mut Stepwise, sig: &PrimitiveSig, args: Vec<Arg>) -> Option<bool> {
        let model = self.model;
        let p = run.recipe().predicates.len();
        let predicate = Predicate {
            name: sig.name.clone(),
            arg_spans: vec![Span::default(); args.len()].into(),
            args,
            span: Span::default(),
            name_span: Span::default(),
        };
        let pushed = run.push(model, predicate, true);
        let ran = pushed.refused.is_none() && matches!(run.standing(p), Some(Standing::Ran { .. }));
        let fails = run
            .slots(p)
            .first()
            .and_then(|&s| run.binding(s))
            .is_some_and(|b| is_failed(model, &b.value));
        run.undo();
        ran.then_some(fails)
    }
}

/// The drafts of one primitive: its cases in order, each an odometer over its arguments'
/// choices, the last argument turning fastest.
struct Stream<'a> {
    sig: &'a PrimitiveSig,
    cases: Vec<(Case, Vec<Vec<Choice>>)>,
    at: usize,
    odometer: Vec<usize>,
}

impl<'a> Stream<'a> {
    fn next(&mut self) -> Option<(&'a PrimitiveSig, Case, Vec<Choice>)> {
        loop {
            let (case, options) = self.cases.get(self.at)?;
            if options.iter().any(Vec::is_empty) {
                self.at += 1;
                self.odometer.clear();
                continue;
            }
            if self.odometer.is_empty() {
                self.odometer = vec![0; options.len()];
            } else if !advance(&mut self.odometer, options) {
                self.at += 1;
                self.odometer.clear();
                continue;
            }
            let choices = options
                .iter()
                .zip(&self.odometer)
                .map(|(o, &k)| o[k].clone())
                .collect();
            return Some((self.sig, *case, choices));
        }
    }
}

/// Whether a draft gives one bound variable or one class twice, which the reference refuses.
fn repeats_an_argument(choices: &[Choice]) -> bool {
    let (mut variables, mut classes) = (HashSet::new(), HashSet::new());
    !choices.iter().all(|c| match c {
        Choice::Variable(v) => variables.insert(*v),
        Choice::Class(c) => classes.insert(*c),
        _ => true,
    })
}

/// Turn the odometer one step; false when it went all the way round.
fn advance(odometer: &mut [usize], options: &[Vec<Choice>]) -> bool {
    for i in (0..odometer.len()).rev() {
        odometer[i] += 1;
        if odometer[i] < options[i].len() {
            return true;
        }
        odometer[i] = 0;
    }
    false
}

/// A free value: what the example puts there (for a quantity, or for its unit when `unit`),
/// as text and as an argument, and what bounds it.
fn free_value(
    model: &Model,
    kind: &str,
    held: Option<&Held>,
    unit: bool,
) -> Option<(String, Arg, String)> {
    let (value, unit_name, bound) = match kind {
        "amount" => {
            let (amount, class) = held
                .and_then(|h| Some((quantity_of(model, &h.first).ok()?, h.class)))
                .map(|((v, u), c)| ((v, model.onto.class_name(u).to_string()), c))
                .map_or((None, None), |(a, c)| (Some(a), Some(c)));
            match (amount, class) {
                (Some((v, u)), Some(c)) => {
                    let one = Number::int(1);
                    let value = match v.num_cmp(&one).is_lt() {
                        true => v,
                        false => one,
                    };
                    let bound = format!(
                        "an amount of {}: at most {v} {u}, what the kitchen holds (in {u}, g, or a unit the ingredient converts from)",
                        spaced(model.onto.class_name(c))
                    );
                    (value, u, bound)
                }
                _ => (
                    Number::int(1),
                    "g".to_string(),
                    "an amount: at most what the container holds".to_string(),
                ),
            }
        }
        "count" => {
            let count = held.map_or(1, |h| h.count);
            let bound = match held {
                Some(h) => format!(
                    "how many: at most {count}, the {} the kitchen holds",
                    spaced(model.onto.class_name(h.class))
                ),
                None => "how many".to_string(),
            };
            (Number::int(1), String::new(), bound)
        }
        "portion" => (
            Number::int(25),
            "g".into(),
            "a portion's size: the dough is divided into portions of it".into(),
        ),
        "time" => (
            Number::int(10),
            "minute".into(),
            "a time: a number of minutes or hours".into(),
        ),
        "temperature" => (
            Number::int(180),
            "degrees-celsius".into(),
            "a temperature, in degrees-celsius".into(),
        ),
        _ => return None,
    };
    Some(match unit {
        true => (unit_name.clone(), Arg::Sym(unit_name.into()), bound),
        false => (value.to_string(), Arg::Num(value), bound),
    })
}

/// `?stem-N`, the first N that makes a name not written yet.
fn fresh_name(stem: &str, written: &HashSet<&str>) -> String {
    (1..)
        .map(|n| format!("{stem}-{n}"))
        .find(|name| !written.contains(name.as_str()))
        .map(|name| format!("?{name}"))
        .unwrap_or_default()
}

/// The variable (`?ks-3`) of the current kitchen state, none before `get-kitchen` ran.
pub(super) fn kitchen_variable(model: &Model, run: &Stepwise) -> Option<String> {
    bound(model, run).0
}

/// The current kitchen state's variable, and the variables the actions that ran bound
/// (kitchen states left out), most recently bound first, failed objects after the others. A variable that
/// holds an object as it was before later actions changed it is kept: the gold networks
/// give such variables too, and the primitive finds the object as it is now.
fn bound(model: &Model, run: &Stepwise) -> (Option<String>, Vec<Bound>) {
    // (step, argument position, variable, binding, the primitive that bound it)
    let mut made: Vec<(usize, usize, &str, &Binding, &PrimitiveSig)> = Vec::new();
    for p in 0..run.recipe().predicates.len() {
        let Some(Standing::Ran { case, step }) = run.standing(p) else {
            continue;
        };
        let Some(sig) = run.sig(model, p) else {
            continue;
        };
        let Some(case) = sig.cases.get(*case) else {
            continue;
        };
        for (i, &slot) in run.slots(p).iter().enumerate() {
            if let Some(b) = run
                .binding(slot)
                .filter(|b| b.is_bound() && !case.is_input(i))
            {
                made.push((*step, i, run.name(slot), b, sig));
            }
        }
    }
    made.sort_by_key(|&(step, i, _, _, _)| (std::cmp::Reverse(step), i));
    let is_kitchen =
        |b: &Binding| matches!(&b.value, Value::Obj(e) if e.class == model.k.kitchen_state);
    let kitchen = made
        .iter()
        .find(|(_, _, _, b, _)| is_kitchen(b))
        .map(|(_, _, n, _, _)| n.to_string());
    // The kitchen state each step made, by step, but the current one.
    let kitchens: HashMap<usize, &str> = (made.iter())
        .filter(|(_, _, n, b, _)| is_kitchen(b) && Some(*n) != kitchen.as_deref())
        .map(|&(step, _, n, _, _)| (step, n))
        .collect();
    // Failed objects last: they fit every type, and what takes them fails too.
    made.sort_by_key(|(_, _, _, b, _)| is_failed(model, &b.value));
    let pool = made
        .into_iter()
        .filter(|(_, _, _, b, _)| !is_kitchen(b))
        .map(|(step, i, name, b, sig)| Bound {
            name: name.to_string(),
            value: b.value.clone(),
            argument: format!("{} {}", sig.name, sig.args[i].name),
            kitchen: kitchens.get(&step).map(|k| k.to_string()),
        })
        .collect();
    (kitchen, pool)
}

/// The kinds the kitchen holds without holding the class itself, which a fetch finds by a
/// held subclass: any kind of a held ingredient (`sugar` where it holds `white-sugar`) and
/// the direct kind of a held tool (`muffin-tins` where it holds `muffin-tins-12`).
fn kinds_held(model: &Model, held: &[Held]) -> Vec<ClassId> {
    let onto = &model.onto;
    let ingredient = model.k.ingredient;
    let direct: HashSet<ClassId> = (held.iter())
        .filter(|h| !onto.is_a(h.class, ingredient))
        .filter_map(|h| onto.class(h.class).precedence.get(1).copied())
        .collect();
    onto.classes()
        .map(|(c, _)| c)
        .filter(|&c| held.iter().all(|h| h.class != c))
        .filter(|&c| {
            let kind_of_ingredient = c != ingredient
                && onto.is_a(c, ingredient)
                && held.iter().any(|h| onto.is_a(h.class, c));
            kind_of_ingredient || direct.contains(&c)
        })
        .collect()
}

/// Every class the kitchen's places hold, counted, in the order found (places in the
/// kitchen's order, each container's contents after it).
fn held(model: &Model, kitchen: &Entity) -> Vec<Held> {
    let mut held: Vec<Held> = Vec::new();
    let mut index: HashMap<ClassId, usize> = HashMap::new();
    let mut stack: Vec<Arc<Entity>> = Vec::new();
    let push_contents = |e: &Entity, stack: &mut Vec<Arc<Entity>>| {
        let items = e.val(model.k.contents).items();
        stack.extend(items.iter().rev().filter_map(|v| match v {
            Value::Obj(o) => Some(o.clone()),
            _ => None,
        }));
    };
    for place in kitchen.val(model.k.contents).items().iter().rev() {
        if let Value::Obj(p) = place {
            stack.push(p.clone());
        }
    }
    let places: HashSet<u32> = stack.iter().map(|p| p.pid).collect();
    while let Some(e) = stack.pop() {
        push_contents(&e, &mut stack);
        if places.contains(&e.pid) || is_failed(model, &Value::Obj(e.clone())) {
            continue;
        }
        match index.get(&e.class) {
            Some(&i) => held[i].count += 1,
            None => {
                index.insert(e.class, held.len());
                held.push(Held {
                    class: e.class,
                    count: 1,
                    first: e,
                });
            }
        }
    }
    held
}

fn is_failed(model: &Model, value: &Value) -> bool {
    matches!(value, Value::Obj(e) if model.onto.is_a(e.class, model.k.failed_object))
}
