//! The evaluation pipeline of the reference's `cookingbot-evaluator`: read a solution file,
//! refuse it whole where the reference refuses it, otherwise score every recipe against its
//! gold run, rows in the reference's order (the reverse of the file).

use crate::base::budget::{self, Budget, Phase};
use crate::base::profile::Profile;
use crate::base::suggest::closest;
use crate::benchmark::{Benchmark, DataError, DataSource};
use crate::language::ast::Recipe;
use crate::language::diagnostic::{Diagnostics, terminal_safe};
use crate::language::validate::read_checked;
use crate::metrics::diet::{Dish, Verdict};
use crate::metrics::metric::{Metric, MetricSet, RecipeResult};
use crate::metrics::smatch::{self, SmatchConfig, SmatchGold, smatch_against};
use crate::metrics::{GoldRun, Scores, dish, gold_run, score};
use crate::simulation::benchmark_world::World;
use crate::simulation::{Execution, FirstPath, Model, SimError};
use std::any::Any;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

/// Why the reference would write no results for a file.
#[derive(Clone, Debug)]
pub struct Refusal {
    /// One line saying what is wrong.
    pub message: String,
    /// Located errors, when the problem is in the text (the first kept, the rest counted).
    pub diagnostics: Diagnostics,
    /// The recipe ids the refused text names, in file order, when it was refused whole before
    /// scoring (empty for one recipe refused while scored: its file knows the ids).
    pub recipes: Vec<String>,
}

impl Refusal {
    fn new(message: impl Into<String>) -> Refusal {
        Refusal {
            message: message.into(),
            diagnostics: Diagnostics::new(),
            recipes: Vec::new(),
        }
    }

    /// The refusal as rustc-style text for a terminal.
    pub fn render(&self, file_name: &str, text: &str) -> String {
        if self.diagnostics.is_empty() {
            let line = format!("error: {file_name}: {}\n", self.message);
            return terminal_safe(&line).into_owned();
        }
        self.diagnostics.render(file_name, text)
    }
}

/// Scores solution files for one profile; holds the model, the gold networks and their runs
/// (computed once, on first use).
pub struct Evaluator {
    pub model: Model,
    pub benchmark: Benchmark,
    pub smatch: SmatchConfig,
    gold_runs: Vec<OnceLock<Result<Arc<GoldRun>, SimError>>>,
    /// Each gold network as Smatch compares with it (made on first use).
    smatch_golds: Vec<OnceLock<SmatchGold>>,
    /// What the layers above derive from the model and the benchmark alone, made once and
    /// shared by every job on this evaluator (one value per type, [`Evaluator::derived`]).
    derived: Mutex<Vec<Arc<dyn Any + Send + Sync>>>,
}

impl Evaluator {
    /// An evaluator for a data folder (any path: the official data, or a user benchmark when
    /// it holds one's manifest) or a [`DataSource`] such as the demo.
    pub fn new(profile: Profile, data: impl Into<DataSource>) -> Result<Evaluator, DataError> {
        let source = match data.into() {
            DataSource::Folder(dir) => DataSource::of_folder(profile, dir)?,
            source => source,
        };
        let benchmark = Benchmark::load(profile, &source)?;
        let model = World::of_source(&source)?.model(profile)?;
        Ok(Self::with(model, benchmark))
    }

    pub fn with(model: Model, benchmark: Benchmark) -> Evaluator {
        let gold_runs = benchmark.recipes.iter().map(|_| OnceLock::new()).collect();
        let smatch_golds = benchmark.recipes.iter().map(|_| OnceLock::new()).collect();
        Evaluator {
            model,
            benchmark,
            smatch: SmatchConfig::default(),
            gold_runs,
            smatch_golds,
            derived: Mutex::default(),
        }
    }

    /// The value of type `T` derived from this evaluator, made by `make` on first use: what
    /// every session on the evaluator would otherwise make again (a kitchen described in
    /// words, the recipe texts read). `make` runs outside the lock; of two made at once, the
    /// first stored is kept.
    pub fn derived<T: Any + Send + Sync>(&self, make: impl FnOnce(&Evaluator) -> T) -> Arc<T> {
        let find = |held: &[Arc<dyn Any + Send + Sync>]| {
            held.iter().find_map(|d| d.clone().downcast::<T>().ok())
        };
        let lock = || self.derived.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(found) = find(&lock()) {
            return found;
        }
        let made = Arc::new(make(self));
        let mut held = lock();
        if let Some(found) = find(&held) {
            return found;
        }
        held.push(made.clone());
        made
    }

    /// The gold network of recipe `id` and its run (computed on first use), or why there is
    /// none.
    pub fn gold(&self, id: &str) -> Result<(&Recipe, &GoldRun), Refusal> {
        let i = self.position(id)?;
        Ok((&self.benchmark.recipes[i].network, self.gold_run(i)?))
    }

    /// Where recipe `id` is in the benchmark, or the reference's refusal of it.
    fn position(&self, id: &str) -> Result<usize, Refusal> {
        self.benchmark
            .recipes
            .iter()
            .position(|r| r.id == id)
            .ok_or_else(|| {
                let close = closest(id, self.benchmark.ids().into_iter(), 3);
                let hint = if close.is_empty() {
                    String::new()
                } else {
                    format!(" (did you mean {}?)", close.join(", "))
                };
                Refusal::new(format!(
                    "Solution contains recipe {id} which is currently unsupported{hint}"
                ))
            })
    }

    /// The run of recipe `id`'s gold network on the evaluator's model (computed on first use
    /// and kept, shared with every job on the evaluator), or why it failed; `None` when the
    /// benchmark has no such recipe.
    pub fn gold_run_of(&self, id: &str) -> Option<Result<Arc<GoldRun>, SimError>> {
        let i = self.benchmark.recipes.iter().position(|r| r.id == id)?;
        Some(self.kept_run(i).clone())
    }

    fn kept_run(&self, i: usize) -> &Result<Arc<GoldRun>, SimError> {
        let g = &self.benchmark.recipes[i];
        self.gold_runs[i]
            .get_or_init(|| gold_run(&self.model, &g.network, &g.primary_output_var).map(Arc::new))
    }

    /// The run of gold network `i` (computed on first use).
    fn gold_run(&self, i: usize) -> Result<&GoldRun, Refusal> {
        self.kept_run(i).as_deref().map_err(|e| {
            let id = &self.benchmark.recipes[i].id;
            Refusal::new(format!("the gold network of {id} fails to run: {e}"))
        })
    }

    /// Evaluate the text of a solution file.
    pub fn evaluate(&self, text: &str, metrics: &MetricSet) -> Result<Vec<RecipeResult>, Refusal> {
        let scored = self.evaluate_each(text, metrics, &mut |_, _, _| true)?;
        Ok(scored.into_iter().flatten().map(|(_, r)| r).collect())
    }

    /// [`Evaluator::evaluate`] recipe by recipe, for a front end that shows progress and may
    /// stop (the launcher): `go_on(recipe, i, n)` is asked before recipe `i` of `n` is scored,
    /// and `false` stops the evaluation (`None`). Each recipe with its result, in the
    /// reference's order.
    pub fn evaluate_each(
        &self,
        text: &str,
        metrics: &MetricSet,
        go_on: &mut dyn FnMut(&Recipe, usize, usize) -> bool,
    ) -> Result<Option<Vec<(Recipe, RecipeResult)>>, Refusal> {
        let recipes = self.prepare(text)?;
        let n = recipes.len();
        let mut scored = Vec::with_capacity(n);
        for (i, recipe) in recipes.into_iter().enumerate() {
            if !go_on(&recipe, i, n) {
                return Ok(None);
            }
            let result = self.evaluate_recipe(&recipe, metrics)?;
            scored.push((recipe, result));
        }
        Ok(Some(scored))
    }

    /// Parse and validate the text of a solution file: its recipes in the reference's order
    /// (the reverse of the file), or the refusal of the whole file. Each recipe can then be
    /// scored on its own ([`Evaluator::evaluate_recipe`]); the reference refuses the file when
    /// any of them is refused.
    pub fn prepare(&self, text: &str) -> Result<Vec<Recipe>, Refusal> {
        let ids = self.benchmark.ids();
        let validator = self.model.validator().with_known_recipes(&ids);
        let (file, errors) = read_checked(text, &validator, Diagnostics::new().errors_only());
        if let Some(first) = errors.first() {
            let message = first.message.clone();
            return Err(Refusal {
                message,
                diagnostics: errors,
                recipes: file.recipes.iter().map(|r| r.id.clone()).collect(),
            });
        }
        let mut recipes = file.recipes;
        recipes.reverse();
        Ok(recipes)
    }

    /// Score one recipe of a prepared file, within the model's time budget for the whole of
    /// it (Smatch, the simulation and the metrics).
    pub fn evaluate_recipe(
        &self,
        recipe: &Recipe,
        metrics: &MetricSet,
    ) -> Result<RecipeResult, Refusal> {
        self.evaluate_after(recipe, None, metrics)
    }

    /// [`Evaluator::evaluate_recipe`] of a valid recipe (one [`Evaluator::prepare`] accepts),
    /// given steps of it run already in the order the simulation's search tries first (an
    /// agent's session runs its network so): the same result, without running them again.
    pub fn evaluate_after(
        &self,
        recipe: &Recipe,
        first: Option<FirstPath>,
        metrics: &MetricSet,
    ) -> Result<RecipeResult, Refusal> {
        let i = self.position(&recipe.id)?;
        let gold = self.gold_run(i)?;
        Budget::new(self.model.time_budget)
            .run(|| self.score_recipe(recipe, first, metrics, i, gold))
    }

    fn score_recipe(
        &self,
        recipe: &Recipe,
        first: Option<FirstPath>,
        metrics: &MetricSet,
        i: usize,
        gold: &GoldRun,
    ) -> Result<RecipeResult, Refusal> {
        let mut result = RecipeResult {
            recipe_id: recipe.id.clone(),
            ..Default::default()
        };
        let over_budget = |spent: budget::Exhausted| {
            Refusal::new(spent.message(&recipe.id, |p| recipe.action_name(p)))
        };
        if metrics.contains(Metric::SmatchScore) {
            let actions = recipe.predicates.len();
            if actions > smatch::MAX_ACTIONS {
                return Err(Refusal::new(format!(
                    "recipe {} has {actions} actions; Smatch compares networks of at most {} actions",
                    recipe.id,
                    smatch::MAX_ACTIONS
                )));
            }
            budget::enter(Phase::Smatch);
            let gold_network = self.smatch_golds[i]
                .get_or_init(|| SmatchGold::new(&self.benchmark.recipes[i].network.predicates));
            let s = smatch_against(&recipe.predicates, gold_network, &self.smatch);
            budget::check().map_err(over_budget)?;
            if !s.climb_complete && !self.smatch.exact {
                return Err(Refusal::new(format!(
                    "recipe {}: Smatch's replay of the reference's search stopped at its work \
                     bound ({} gain-table cells; {} test and {} gold triples), so the value the \
                     reference prints is not known; --smatch-exact reports the best alignment \
                     found instead, or leave smatch-score out of --metrics",
                    recipe.id, self.smatch.climb_work, s.test_triples, s.gold_triples
                )));
            }
            result.smatch = Some(s);
        }
        if metrics.needs_simulation() {
            budget::enter(Phase::Simulation);
            // The simulation's own refusal over budget says what its search had done.
            let execution =
                (self.model.execute_after(recipe, first)).map_err(|e| Refusal::new(e.message))?;
            let scores = score(&self.model, recipe, &execution, gold);
            budget::check().map_err(over_budget)?;
            let scores = scores.map_err(|e| Refusal::new(e.message))?;
            if metrics.contains(Metric::GoalConditionSuccess) {
                result.goal_condition_success = scores.goal_condition_success;
            }
            if metrics.contains(Metric::DishApproximationScore) {
                result.dish_approximation_score = scores.dish_approximation_score;
            }
            if metrics.contains(Metric::ExecutionTime) {
                result.execution_time = scores.execution_time;
            }
            result.diets = self.judge_diets(recipe, &execution, &scores, metrics);
            budget::check().map_err(over_budget)?;
            result.detail = scores.detail;
        }
        Ok(result)
    }

    /// The diets asked for, judged on the dish the dish approximation score compared best.
    fn judge_diets(
        &self,
        recipe: &Recipe,
        execution: &Execution,
        scores: &Scores,
        metrics: &MetricSet,
    ) -> Vec<Verdict> {
        if metrics.diets().next().is_none() {
            return Vec::new();
        }
        let step = scores
            .detail
            .as_ref()
            .and_then(|d| dish::best_step(execution, &d.dish));
        let dish = Dish::of(&self.model, recipe, execution, step);
        metrics
            .diets()
            .map(|d| dish.judge(&self.model.onto, d))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::benchmark::DataSource;
    use std::cell::Cell;

    /// A value derived from an evaluator is made on first use and shared after, one per type.
    #[test]
    fn a_derived_value_is_made_once_per_evaluator_and_type() {
        let evaluator = Evaluator::new(Profile::R2024, DataSource::Demo).unwrap();
        let made = Cell::new(0);
        let count = |e: &Evaluator| {
            made.set(made.get() + 1);
            e.benchmark.recipes.len()
        };
        let first = evaluator.derived(count);
        let again = evaluator.derived(count);
        assert!(Arc::ptr_eq(&first, &again));
        assert_eq!((*first, made.get()), (3, 1));
        let other = evaluator.derived(|e| e.model.profile.name().to_string());
        assert_eq!(other.as_str(), "2024");
        assert!(Arc::ptr_eq(&first, &evaluator.derived(count)));
        let fresh = Evaluator::new(Profile::R2024, DataSource::Demo).unwrap();
        assert!(!Arc::ptr_eq(&first, &fresh.derived(count)));
        assert_eq!(made.get(), 2);
    }
}
