//! What a session tells an agent beyond what ran: a line that can never run, a kitchen state
//! used a second time, an ingredient a primitive is not meant for, how far the network is,
//! and why a finished network makes no dish.
//! Advice only: nothing here changes what runs or how the network scores.

use super::observation::Located;
use super::progress::{self, Progress};
use super::{Session, SessionError, describe, words};
use crate::base::number::Number;
use crate::data::primitive_words;
use crate::language::diagnostic::LineIndex;
use crate::metrics::GoldRun;
use crate::simulation::Model;
use crate::simulation::stepwise::Standing;
use crate::world::Value;
use crate::world::ontology::ClassId;

/// Gold goals named in the words of a finished network that makes no dish.
const GOALS_NAMED: usize = 5;

impl Session {
    /// Whether waiting action `p` can never run in the network as written: a bound argument
    /// holds a value of the wrong type, or what is bound is no case's inputs (bindings are
    /// never taken back but by `undo`, so no later line makes it one).
    pub(super) fn never(&self, p: usize) -> bool {
        let model = self.model();
        let Some(sig) = self.run.sig(model, p) else {
            return false;
        };
        let blocked = self.run.blocked(model, p);
        if !blocked.mistyped.is_empty() {
            return true;
        }
        let slots = self.run.slots(p);
        let bound = (0..slots.len())
            .filter(|&i| self.run.binding(slots[i]).is_some_and(|b| b.is_bound()))
            .fold(0u64, |mask, i| mask | 1 << i);
        !sig.cases.iter().any(|c| bound & !c.inputs == 0)
    }

    /// The kitchen-state inputs of action `q`: its bound arguments holding a kitchen state
    /// that it did not make.
    fn kitchen_inputs(&self, q: usize) -> Vec<usize> {
        let model = self.model();
        let made: Vec<usize> = self.produced(q).into_iter().map(|(_, s)| s).collect();
        (self.run.slots(q).iter().copied())
            .filter(|s| !made.contains(s))
            .filter(|&s| {
                self.run.binding(s).is_some_and(
                    |b| matches!(&b.value, Value::Obj(e) if e.class == model.k.kitchen_state),
                )
            })
            .collect()
    }

    /// A warning when action `p` takes a kitchen state an earlier action took already: the
    /// kitchen forks, and `p` does not see what that action (and those after it) did.
    /// `latest` is the kitchen time before `p`.
    pub(super) fn fork_warning(
        &self,
        p: usize,
        latest: Number,
        index: &LineIndex<'_>,
    ) -> Option<Located> {
        if matches!(self.run.standing(p), Some(Standing::Repeat { .. })) {
            return None;
        }
        let model = self.model();
        let mine = self.kitchen_inputs(p);
        let (q, slot) = (0..p)
            .filter(|&q| matches!(self.run.standing(q), Some(Standing::Ran { .. })))
            .find_map(|q| {
                let theirs = self.kitchen_inputs(q);
                mine.iter().find(|s| theirs.contains(s)).map(|&s| (q, s))
            })?;
        let at = match self.run.binding(slot).map(|b| &b.value) {
            Some(Value::Obj(e)) => describe::kitchen_time(model, e),
            _ => Number::ZERO,
        };
        let predicate = &self.run.recipe().predicates[p];
        let position = self.run.slots(p).iter().position(|&s| s == slot);
        let span = position.and_then(|i| predicate.arg_spans.get(i));
        let (line, column) = index.line_col(span.unwrap_or(predicate.span).start);
        let message = format!(
            "{} was given to line {} already: the kitchen forks here, and this action does not \
             see what line {} and the actions after it did (this kitchen is at {}, the latest \
             at {})",
            self.run.name(slot),
            self.line_of(q),
            self.line_of(q),
            words::clock(at),
            words::clock(latest),
        );
        Some(Located::note(line, column, "warning", message, Vec::new()))
    }

    /// A warning when action `q`, which ran, was given only ingredients its primitive is not
    /// meant for (`kitchens/primitive-words.json`: crack is meant for eggs). The reference runs
    /// it all the same (cracking salt makes eggs of it), so this is advice, not a refusal.
    pub(super) fn misuse_warning(&self, q: usize, index: &LineIndex<'_>) -> Option<Located> {
        let model = self.model();
        let sig = self.run.sig(model, q)?;
        let meant_for = &primitive_words::of(&sig.name)?.meant_for;
        let made: Vec<usize> = self.produced(q).into_iter().map(|(i, _)| i).collect();
        let slots = self.run.slots(q);
        let (i, meant, odd) = (sig.args.iter().enumerate())
            .filter(|(i, _)| !made.contains(i))
            .find_map(|(i, arg)| {
                let meant = meant_for.get(&arg.name)?;
                let value = &self.run.binding(*slots.get(i)?)?.value;
                let odd = not_meant_for(model, value, &meant.classes);
                (!odd.is_empty()).then_some((i, meant, odd))
            })?;
        let predicate = &self.run.recipe().predicates[q];
        let span = predicate.arg_spans.get(i).unwrap_or(predicate.span);
        let (line, column) = index.line_col(span.start);
        let name = &sig.name;
        let message = format!(
            "{name} on {odd} makes no culinary sense: {name} is meant for {}, and {} holds {odd} \
             (it runs all the same, as the reference runs it)",
            meant.words,
            self.run.name(slots[i]),
        );
        Some(Located::note(line, column, "warning", message, Vec::new()))
    }

    /// The gold run the session's recipe is scored against.
    fn gold_run(&self) -> Result<&GoldRun, SessionError> {
        let gold = self.evaluator.gold(&self.recipe);
        gold.map(|(_, run)| run)
            .map_err(|refusal| SessionError::Data(refusal.message))
    }

    /// How far the network is: the share of the gold's goal conditions the actions that ran
    /// reach, and the dish approximation score of the best candidate dish so far.
    /// Non-terminal: the session goes on as it was.
    pub fn progress(&self) -> Result<Progress, SessionError> {
        let progress = self.gold_run().map(|gold| {
            progress::measure(self.model(), &self.run, gold, &self.progress, |p| {
                self.line_of(p)
            })
        });
        self.record_progress(&progress);
        progress
    }

    /// Why the network makes no dish: the first line that failed, waits or never ran, and
    /// the gold goals no action reached.
    pub(super) fn why_no_dish(&self) -> String {
        let model = self.model();
        let first = (0..self.action_lines.len()).find_map(|p| {
            let name = &self.run.recipe().predicates[p].name;
            let line = self.line_of(p);
            match self.run.standing(p)? {
                Standing::Ran { .. } => {
                    let failed = self.made(p).into_iter().find_map(|o| o.failed)?;
                    Some(format!(
                        "line {line} ({name}) made a failed object: {failed}"
                    ))
                }
                Standing::Repeat { .. } => None,
                Standing::Waiting if self.never(p) => Some(format!(
                    "line {line} ({name}) can never run in this network"
                )),
                Standing::Waiting => Some(format!(
                    "line {line} ({name}) never ran: what it needs was never made"
                )),
                Standing::Inert | Standing::Refused(_) => Some(format!(
                    "line {line} ({name}) makes the reference refuse the network"
                )),
            }
        });
        let mut why = first.unwrap_or_else(|| match self.action_lines.is_empty() {
            true => "the network has no action".to_string(),
            false => "a variable of the network is never bound".to_string(),
        });
        if let Ok(gold) = self.gold_run() {
            let execution = self.run.execution(model);
            let goals = progress::reached(model, &self.run, &execution, gold);
            let missed: Vec<&str> = (goals.goals.iter())
                .filter(|g| g.reached_by.is_none())
                .map(|g| g.gold_text.as_str())
                .collect();
            if !missed.is_empty() {
                let more = missed.len().saturating_sub(GOALS_NAMED);
                why.push_str(&format!(
                    "; {} of {} gold goals never reached: {}{}",
                    missed.len(),
                    goals.goals.len(),
                    missed[..missed.len().min(GOALS_NAMED)].join(", "),
                    match more {
                        0 => String::new(),
                        n => format!(" and {n} more"),
                    }
                ));
            }
        }
        why
    }
}

/// The ingredients `value` holds (a container's or a list's, else itself) as one phrase of
/// their classes (`salt`, `coarse salt and baking soda`), when none of them is one of
/// `classes` (salt sifted with flour is sifting flour); empty otherwise.
fn not_meant_for(model: &Model, value: &Value, classes: &[String]) -> String {
    let onto = &model.onto;
    let classes: Vec<ClassId> = classes.iter().filter_map(|c| onto.class_id(c)).collect();
    let Value::Obj(e) = value else {
        return String::new();
    };
    let held: Box<dyn Iterator<Item = &Value>> = match model.k.is_container(e.class) {
        true => Box::new(e.val(model.k.contents).items().iter()),
        false if onto.is_a(e.class, model.k.list_of_kitchen_entities) => {
            Box::new(e.val(model.k.items).items().iter())
        }
        false => Box::new(std::iter::once(value)),
    };
    let ingredients =
        (held.filter_map(Value::as_obj)).filter(|item| onto.is_a(item.class, model.k.ingredient));
    let mut odd: Vec<String> = Vec::new();
    for item in ingredients {
        if classes.iter().any(|&c| onto.is_a(item.class, c)) {
            return String::new();
        }
        let name = describe::spaced(onto.class_name(item.class));
        if !odd.contains(&name) {
            odd.push(name);
        }
    }
    match odd.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}
