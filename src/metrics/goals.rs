//! Goal-condition success (`compute-subgoal-success-ratio`, `evaluate-subgoals`).
//!
//! Every gold step but `get-kitchen` is a goal: its primary output as produced, located in
//! its output kitchen state. A goal is reached when some not yet used predicted step (not
//! `get-kitchen`, not a failed object) produced a similar object at a similar location; the
//! first such step in execution order is taken, one-to-one.

use super::equality::{Similarity, find_location, location_names, similar, similar_locations};
use super::{output_kitchen_state, primary_output};
use crate::base::budget;
use crate::base::number::Number;
use crate::language::ast::Recipe;
use crate::simulation::{Execution, Model};
use crate::world::Value;
use crate::world::ontology::ClassId;

/// The outcome of one gold goal.
#[derive(Clone, Debug)]
pub struct GoalOutcome {
    /// Index of the gold predicate and its text.
    pub gold_predicate: usize,
    pub gold_text: String,
    /// Index of the predicted predicate that reached it.
    pub reached_by: Option<usize>,
    /// Why it was missed (empty when reached).
    pub reason: String,
}

#[derive(Clone, Debug, Default)]
pub struct GoalReport {
    /// One entry per gold goal, in gold execution order.
    pub goals: Vec<GoalOutcome>,
}

impl GoalReport {
    pub fn reached(&self) -> usize {
        self.goals.iter().filter(|g| g.reached_by.is_some()).count()
    }

    /// Reached / all goals, exact (0 when the gold run has no goal, where the reference would
    /// divide by zero).
    pub fn ratio(&self) -> Number {
        Number::ratio(self.reached() as i64, self.goals.len() as i64).unwrap_or(Number::ZERO)
    }
}

/// A step's primary output and where it is in the step's output kitchen state.
#[derive(Clone)]
struct Located {
    predicate: usize,
    value: Value,
    location: Vec<ClassId>,
}

impl Located {
    /// Whether this predicted output reaches `goal`: a similar object at a similar place (the
    /// places, a few classes, compared first: both tests are pure, and the objects' is deep).
    fn reaches(&self, goal: &Located) -> bool {
        similar_locations(&goal.location, &self.location) && similar(&goal.value, &self.value)
    }

    /// [`Located::reaches`], each pair of objects compared once in `same`.
    fn reaches_in(&self, goal: &Located, same: &mut Similarity) -> bool {
        similar_locations(&goal.location, &self.location) && same.similar(&goal.value, &self.value)
    }
}

fn located(model: &Model, exec: &Execution, step: usize) -> Located {
    let value = primary_output(exec, step);
    let location = find_location(model, value, output_kitchen_state(model, exec, step));
    Located {
        predicate: exec.steps[step].predicate,
        value: value.clone(),
        location,
    }
}

/// Whether predicted step `step` may reach a goal: not `get-kitchen`, not a failed object.
fn is_candidate(model: &Model, recipe: &Recipe, predicted: &Execution, step: usize) -> bool {
    !is_get_kitchen(recipe, predicted.steps[step].predicate)
        && !primary_output(predicted, step)
            .as_obj()
            .is_some_and(|e| model.onto.is_a(e.class, model.k.failed_object))
}

/// A gold run's goals, located once, for matching a prediction as it runs step by step.
///
/// [`evaluate`] gives each goal, in gold order, the first remaining predicted step (in
/// execution order) that reaches it. So a step run after all the others takes the first goal
/// that no earlier step took and that it reaches, and changes nothing else: matching steps
/// one at a time as they run gives [`evaluate`]'s goals.
#[derive(Clone)]
pub struct GoldGoals {
    goals: Vec<Located>,
}

impl GoldGoals {
    pub fn new(model: &Model, gold_recipe: &Recipe, gold: &Execution) -> GoldGoals {
        let goals = (0..gold.steps.len())
            .filter(|&s| !is_get_kitchen(gold_recipe, gold.steps[s].predicate))
            .map(|s| located(model, gold, s))
            .collect();
        GoldGoals { goals }
    }

    /// How many goals the gold has.
    pub fn len(&self) -> usize {
        self.goals.len()
    }

    pub fn is_empty(&self) -> bool {
        self.goals.is_empty()
    }

    /// The goal (index, in gold order) predicted step `step` reaches when the steps before
    /// it reached those `taken` marks.
    pub fn reached_by(
        &self,
        model: &Model,
        recipe: &Recipe,
        predicted: &Execution,
        step: usize,
        taken: &[bool],
    ) -> Option<usize> {
        if !is_candidate(model, recipe, predicted, step) {
            return None;
        }
        let c = located(model, predicted, step);
        (0..self.goals.len())
            .find(|&g| !taken.get(g).copied().unwrap_or(false) && c.reaches(&self.goals[g]))
    }
}

fn is_get_kitchen(recipe: &Recipe, predicate: usize) -> bool {
    recipe
        .predicates
        .get(predicate)
        .is_some_and(|p| p.name == "get-kitchen")
}

/// Match the gold goals against the predicted steps.
pub fn evaluate(
    model: &Model,
    recipe: &Recipe,
    predicted: &Execution,
    gold_recipe: &Recipe,
    gold: &Execution,
) -> GoalReport {
    let mut candidates: Vec<Located> = (0..predicted.steps.len())
        .filter(|&s| is_candidate(model, recipe, predicted, s))
        .map(|s| located(model, predicted, s))
        .collect();
    let mut report = GoalReport::default();
    let mut same = Similarity::default();
    for s in 0..gold.steps.len() {
        // Past the budget the report is partial; the caller refuses the recipe.
        if budget::spent() {
            break;
        }
        if is_get_kitchen(gold_recipe, gold.steps[s].predicate) {
            continue;
        }
        let goal = located(model, gold, s);
        let found = candidates
            .iter()
            .position(|c| c.reaches_in(&goal, &mut same));
        let gold_text = gold_recipe
            .predicates
            .get(goal.predicate)
            .map(|p| p.to_string())
            .unwrap_or_default();
        let outcome = match found {
            Some(i) => {
                let c = candidates.remove(i);
                GoalOutcome {
                    gold_predicate: goal.predicate,
                    gold_text,
                    reached_by: Some(c.predicate),
                    reason: String::new(),
                }
            }
            None => GoalOutcome {
                gold_predicate: goal.predicate,
                gold_text,
                reached_by: None,
                reason: why_missed(model, &goal, &candidates, &mut same),
            },
        };
        report.goals.push(outcome);
    }
    report
}

/// A short explanation of a missed goal, from the nearest remaining candidate.
fn why_missed(
    model: &Model,
    goal: &Located,
    candidates: &[Located],
    same: &mut Similarity,
) -> String {
    let Some(g) = goal.value.as_obj() else {
        return "the gold output is not an object".into();
    };
    let class = model.onto.class_name(g.class);
    if let Some(c) = candidates
        .iter()
        .find(|c| same.similar(&goal.value, &c.value))
    {
        return format!(
            "an equal {class} (predicate {}) is at {:?}, the gold one at {:?}",
            c.predicate + 1,
            location_names(model, &c.location),
            location_names(model, &goal.location)
        );
    }
    let nearest = candidates
        .iter()
        .filter_map(|c| {
            c.value
                .as_obj()
                .filter(|e| e.class == g.class)
                .map(|e| (c, same.differing_slots(model, g, e)))
        })
        .min_by_key(|(_, d)| d.len());
    match nearest {
        Some((c, diff)) => format!(
            "no equal {class}; the closest (predicate {}) differs in {}",
            c.predicate + 1,
            diff.join(", ")
        ),
        None => format!("no remaining predicted step produced a {class}"),
    }
}
