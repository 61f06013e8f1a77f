//! How far a session's network is: the gold's goal conditions reached by what ran so far,
//! and the dish approximation score of the best candidate dish, measured with the metrics'
//! own goal-condition and dish code (`metrics::goals`, `metrics::dish`) on the run as it
//! stands. Non-terminal: asking changes nothing, and the session goes on.
//!
//! Incremental: a [`Memo`] keeps, per step that ran, the goal it reached and its dish score,
//! so a measure matches and compares only the steps that ran since the last one. A step that
//! ran after all the others takes the first goal it reaches that no earlier step took
//! ([`GoldGoals`]), so the goals are the evaluation's.

use crate::base::budget::{self, Budget, Phase};
use crate::base::number::Number;
use crate::metrics::dish::{self, GoldDish, StepScore};
use crate::metrics::goals::{self, GoalReport, GoldGoals};
use crate::metrics::{GoldRun, output_kitchen_state, primary_output};
use crate::simulation::stepwise::Stepwise;
use crate::simulation::{Execution, Model};
use crate::world::{Entity, Value};
use serde::Serialize;
use std::sync::{Arc, Mutex};

/// The gold goals reached so far and the best dish so far.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Progress {
    /// Gold goals reached by an action that ran (one action reaches one goal).
    pub goals_reached: usize,
    /// The gold network's goals: its actions but `get-kitchen`.
    pub goals: usize,
    /// `goals_reached / goals`: at `finish` of a network that runs whole, the evaluation's
    /// goal-condition success.
    pub goal_share: f64,
    /// The dish approximation score of the best candidate dish made so far (0 before any);
    /// none when comparing it signals an error (the evaluation then refuses the network).
    pub dish_score: Option<f32>,
    /// The line of the action that made that dish.
    pub dish_line: Option<usize>,
    /// What `text` says for a language model.
    pub text: String,
}

/// What the measures so far found of the steps that ran, kept while those steps stand.
#[derive(Default)]
pub struct Memo(Mutex<Seen>);

impl Clone for Memo {
    fn clone(&self) -> Memo {
        Memo(Mutex::new(self.seen().clone()))
    }
}

impl Memo {
    fn seen(&self) -> std::sync::MutexGuard<'_, Seen> {
        // A measure that panicked left at worst fewer steps: what is kept is whole.
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[derive(Clone, Default)]
struct Seen {
    /// The gold's goals, located once.
    goals: Option<GoldGoals>,
    steps: Vec<Step>,
}

/// One step that ran, as a measure saw it.
#[derive(Clone)]
struct Step {
    predicate: usize,
    /// The step's primary output and output kitchen state, held: while held, the same
    /// pointers in the run are the same objects (a later action that changes an earlier
    /// output through a shared object makes a new one).
    output: Value,
    kitchen: Option<Arc<Entity>>,
    /// The gold goal (index, in gold order) the step reached.
    goal: Option<usize>,
    /// Its output's dish score, once compared.
    dish: Option<StepScore>,
}

impl Step {
    fn is(&self, execution: &Execution, model: &Model, step: usize) -> bool {
        let same = |a: &Value, b: &Value| match (a, b) {
            (Value::Obj(a), Value::Obj(b)) => Arc::ptr_eq(a, b),
            (Value::Nil, Value::Nil) => true,
            _ => false,
        };
        self.predicate == execution.steps[step].predicate
            && same(&self.output, primary_output(execution, step))
            && match (&self.kitchen, kitchen_of(model, execution, step)) {
                (Some(a), Some(b)) => Arc::ptr_eq(a, &b),
                (a, b) => a.is_none() && b.is_none(),
            }
    }
}

/// The output kitchen state of `step`, as the run holds it.
fn kitchen_of(model: &Model, execution: &Execution, step: usize) -> Option<Arc<Entity>> {
    let found = output_kitchen_state(model, execution, step)?;
    let p = execution.steps[step].predicate;
    execution.slots[p]
        .iter()
        .find_map(|&s| match &execution.bindings[s].value {
            Value::Obj(e) if std::ptr::eq(&**e, found) => Some(e.clone()),
            _ => None,
        })
}

/// What the run so far reaches, with `line_of` the network line of an action; `memo` keeps
/// what this measure finds for the next.
pub fn measure(
    model: &Model,
    run: &Stepwise,
    gold: &GoldRun,
    memo: &Memo,
    line_of: impl Fn(usize) -> usize,
) -> Progress {
    let execution = run.execution(model);
    let mut seen = memo.seen();
    let ((goals_reached, all), dish) = Budget::new(model.time_budget).run(|| {
        budget::enter(Phase::GoalConditions);
        let goals = seen.match_goals(model, run, &execution, gold);
        budget::enter(Phase::Dish);
        (goals, seen.best_dish(model, &execution, gold).ok())
    });
    drop(seen);
    let best = dish.as_ref().and_then(|d| d.scored.get(d.best?));
    let dish_score = dish.as_ref().map(|d| d.score);
    let dish_line = best.map(|b| line_of(b.predicate));
    // As `GoalReport::ratio`: exact, 0 for a gold of no goal.
    let goal_share = Number::ratio(goals_reached as i64, all as i64)
        .unwrap_or(Number::ZERO)
        .to_f64();
    let text = format!(
        "{goals_reached} of {all} goals of the recipe reached ({:.0} %); best dish so far: {}",
        goal_share * 100.0,
        match (dish_score, dish_line) {
            (Some(s), Some(line)) => format!("{s:.2} (line {line})"),
            (Some(_), None) => "none yet".to_string(),
            (None, _) => "cannot be compared (the evaluation refuses it)".to_string(),
        }
    );
    Progress {
        goals_reached,
        goals: all,
        goal_share,
        dish_score,
        dish_line,
        text,
    }
}

impl Seen {
    /// Forget the steps from the first that is not the run's any more (taken back, or changed
    /// by a later action), then match the steps that ran since: (goals reached, goals).
    fn match_goals(
        &mut self,
        model: &Model,
        run: &Stepwise,
        execution: &Execution,
        gold: &GoldRun,
    ) -> (usize, usize) {
        let kept = (self.steps.iter().enumerate())
            .take_while(|(s, step)| *s < execution.steps.len() && step.is(execution, model, *s))
            .count();
        self.steps.truncate(kept);
        let goals = self
            .goals
            .get_or_insert_with(|| GoldGoals::new(model, &gold.recipe, &gold.execution));
        let mut taken = vec![false; goals.len()];
        for g in self.steps.iter().filter_map(|s| s.goal) {
            taken[g] = true;
        }
        for s in kept..execution.steps.len() {
            // Past the budget the steps left are not matched (and not kept).
            if budget::spent() {
                break;
            }
            let goal = goals.reached_by(model, run.recipe(), execution, s, &taken);
            if let Some(g) = goal {
                taken[g] = true;
            }
            self.steps.push(Step {
                predicate: execution.steps[s].predicate,
                output: primary_output(execution, s).clone(),
                kitchen: kitchen_of(model, execution, s),
                goal,
                dish: None,
            });
        }
        (taken.iter().filter(|&&t| t).count(), goals.len())
    }

    /// The best dish, each step's output compared once while it stands.
    fn best_dish(
        &mut self,
        model: &Model,
        execution: &Execution,
        gold: &GoldRun,
    ) -> Result<dish::DishReport, crate::simulation::SimError> {
        let mut dish = GoldDish::new(model, gold)?;
        let steps = &mut self.steps;
        dish::best_dish_by(execution, |s| {
            if let Some(known) = steps.get(s).and_then(|step| step.dish.clone()) {
                return Ok(known);
            }
            let score = dish.compare(execution, s)?;
            if let Some(step) = steps.get_mut(s) {
                step.dish = Some(score.clone());
            }
            Ok(score)
        })
    }
}

/// The gold goals the steps that ran reach, as the evaluation matches them.
pub fn reached(model: &Model, run: &Stepwise, execution: &Execution, gold: &GoldRun) -> GoalReport {
    goals::evaluate(
        model,
        run.recipe(),
        execution,
        &gold.recipe,
        &gold.execution,
    )
}
