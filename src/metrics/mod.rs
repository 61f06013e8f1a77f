//! The reference's simulation metrics: goal-condition success, dish approximation score and
//! execution time of a predicted execution against the gold run of the same recipe.
//!
//! Each executed step is one IRL node of the reference: its *primary output* is the value of
//! the primitive's first argument, its *output kitchen state* the first argument whose value
//! is exactly a `kitchen-state`. Bindings are never overwritten, so the final bindings show
//! every node's values as they were when it ran.

pub mod corpus;
pub mod diet;
pub mod dish;
pub mod equality;
pub mod goals;
pub mod metric;
pub mod significance;
pub mod smatch;

use crate::base::budget::{self, Phase};
use crate::base::number::Number;
use crate::language::ast::Recipe;
use crate::simulation::{Execution, Model, SimError};
use crate::world::{Entity, Maker, Value};
use std::borrow::Cow;
use std::sync::OnceLock;

/// The gold side of a recipe, computed once (the reference's simulation environment).
#[derive(Clone, Debug)]
pub struct GoldRun {
    pub recipe: Recipe,
    pub execution: Execution,
    /// Index into `execution.steps` of the output node: walking back from the last step, the
    /// first whose first argument is the recipe's primary-output variable.
    pub output_step: Option<usize>,
    /// The gold dish unfolded, made at its first comparison and kept with the run, so that
    /// every prediction scored against a kept run (a session's finish, a batch, a rewrite)
    /// compares with it without unfolding it again.
    dish: OnceLock<Result<Vec<dish::Unfolded>, SimError>>,
    /// The run scored against itself, made once and kept.
    own_scores: OnceLock<Result<Scores, SimError>>,
}

impl GoldRun {
    /// The gold execution time (documentation Table 5.1).
    pub fn execution_time(&self) -> Option<Number> {
        self.execution.execution_time()
    }

    /// The gold network scored against its own run, as a prediction is scored (what a rewrite
    /// of a gold file reports for the original against the gold): made once, then kept; a
    /// failure of the time budget is not kept.
    pub fn scored_against_itself(&self, model: &Model) -> Result<Scores, SimError> {
        kept(&self.own_scores, || {
            score(model, &self.recipe, &self.execution, self)
        })
        .map(Cow::into_owned)
    }

    /// The gold dish `dish` (the run's output) unfolded as the dish approximation score
    /// unfolds it: made once, then kept. A failure of the time budget is not kept (a later
    /// comparison under a budget of its own unfolds it again); the dish's own failure is.
    fn unfolded_dish(
        &self,
        model: &Model,
        maker: &mut Maker<'_>,
        dish: &Entity,
    ) -> Result<Cow<'_, [dish::Unfolded]>, SimError> {
        Ok(
            match kept(&self.dish, || dish::unfold_dish(model, maker, dish))? {
                Cow::Borrowed(kept) => Cow::Borrowed(kept.as_slice()),
                Cow::Owned(made) => Cow::Owned(made),
            },
        )
    }
}

/// The value in `cell`, made by `make` if there is none yet. What was made once the time
/// budget is spent (work stopped early, or its partial result) is returned, not kept: work
/// under a later budget makes it again.
fn kept<T: Clone>(
    cell: &OnceLock<Result<T, SimError>>,
    make: impl FnOnce() -> Result<T, SimError>,
) -> Result<Cow<'_, T>, SimError> {
    if let Some(kept) = cell.get() {
        return kept.as_ref().map(Cow::Borrowed).map_err(Clone::clone);
    }
    let made = make();
    if budget::spent() {
        return made.map(Cow::Owned);
    }
    let kept = cell.get_or_init(|| made);
    kept.as_ref().map(Cow::Borrowed).map_err(Clone::clone)
}

/// Run the gold network of a recipe. `primary_output_var` is matched against the *variable
/// name* of each step's first argument, with or without the leading `?`.
pub fn gold_run(
    model: &Model,
    recipe: &Recipe,
    primary_output_var: &str,
) -> Result<GoldRun, SimError> {
    let execution = model.execute(recipe)?;
    let wanted = format!(
        "?{}",
        primary_output_var.trim_start_matches('?').to_lowercase()
    );
    let output_step = if execution.solved {
        execution.steps.iter().rposition(|s| {
            execution.slots[s.predicate]
                .first()
                .is_some_and(|&slot| execution.names[slot] == wanted)
        })
    } else {
        None
    };
    Ok(GoldRun {
        recipe: recipe.clone(),
        execution,
        output_step,
        dish: OnceLock::new(),
        own_scores: OnceLock::new(),
    })
}

/// The three metrics of one recipe; all `None` when the prediction has no execution (the
/// reference prints `NIL`).
#[derive(Clone, Debug, Default)]
pub struct Scores {
    /// Exact ratio of reached gold goals.
    pub goal_condition_success: Option<Number>,
    /// Single-float score, as the reference computes it.
    pub dish_approximation_score: Option<f32>,
    pub execution_time: Option<Number>,
    pub detail: Option<Detail>,
}

/// What lies behind the scores, for the JSON report.
#[derive(Clone, Debug)]
pub struct Detail {
    pub goals: goals::GoalReport,
    pub dish: dish::DishReport,
}

/// Score a predicted execution of `recipe` against its gold run. `Err` is a run-time error
/// that makes the reference refuse the whole file (e.g. a missing gram conversion).
pub fn score(
    model: &Model,
    recipe: &Recipe,
    predicted: &Execution,
    gold: &GoldRun,
) -> Result<Scores, SimError> {
    if !predicted.solved || predicted.steps.is_empty() {
        return Ok(Scores::default());
    }
    if !gold.execution.solved {
        return Err(SimError::new(format!(
            "the gold network of {} has no execution",
            gold.recipe.id
        )));
    }
    budget::enter(Phase::GoalConditions);
    let goals = goals::evaluate(model, recipe, predicted, &gold.recipe, &gold.execution);
    budget::enter(Phase::Dish);
    let dish = dish::best_dish_score(model, predicted, gold)?;
    Ok(Scores {
        goal_condition_success: Some(goals.ratio()),
        dish_approximation_score: Some(dish.score),
        execution_time: predicted.execution_time(),
        detail: Some(Detail { goals, dish }),
    })
}

/// The value bound to the first argument of step `step` (NIL for an argument-less predicate).
pub fn primary_output(exec: &Execution, step: usize) -> &Value {
    let p = exec.steps[step].predicate;
    match exec.slots[p].first() {
        Some(&slot) => &exec.bindings[slot].value,
        None => &Value::Nil,
    }
}

/// The first argument of step `step` (in argument order) bound to exactly a `kitchen-state`.
pub fn output_kitchen_state<'e>(
    model: &Model,
    exec: &'e Execution,
    step: usize,
) -> Option<&'e Entity> {
    let p = exec.steps[step].predicate;
    exec.slots[p]
        .iter()
        .filter_map(|&slot| exec.bindings[slot].value.as_obj())
        .find(|e| e.class == model.k.kitchen_state)
}
