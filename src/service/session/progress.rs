//! How far a session's network is: the gold's goal conditions reached by what ran so far,
//! and the dish approximation score of the best candidate dish, measured with the metrics'
//! own goal-condition and dish code (`metrics::goals`, `metrics::dish`) on the run as it
//! stands. Non-terminal: asking changes nothing, and the session goes on.

use crate::base::budget::{self, Budget, Phase};
use crate::metrics::goals::{self, GoalReport};
use crate::metrics::{GoldRun, dish};
use crate::simulation::stepwise::Stepwise;
use crate::simulation::{Execution, Model};
use serde::Serialize;

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

/// What the run so far reaches, with `line_of` the network line of an action.
pub fn measure(
    model: &Model,
    run: &Stepwise,
    gold: &GoldRun,
    line_of: impl Fn(usize) -> usize,
) -> Progress {
    let execution = run.execution(model);
    let (goals, dish) = Budget::new(model.time_budget).run(|| {
        budget::enter(Phase::GoalConditions);
        let goals = reached(model, run, &execution, gold);
        budget::enter(Phase::Dish);
        (goals, dish::best_dish_score(model, &execution, gold).ok())
    });
    let best = dish.as_ref().and_then(|d| d.scored.get(d.best?));
    let dish_score = dish.as_ref().map(|d| d.score);
    let dish_line = best.map(|b| line_of(b.predicate));
    let (goals_reached, all) = (goals.reached(), goals.goals.len());
    let goal_share = goals.ratio().to_f64();
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
