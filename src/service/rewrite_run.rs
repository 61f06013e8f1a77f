//! What `substitute` and `scale` share: one recipe of a text run as written and as rewritten
//! ([`crate::world::rewrite`]), the rewrite scored against the original's run with the
//! evaluation's own metrics (the original's dish standing as the gold dish), and both scored
//! against the benchmark's gold network when the benchmark has the recipe.

use super::DataContext;
use super::check::{counting_omitted, located as located_diagnostics};
use super::golds::{GoldSource, Golds};
use super::outcome::{AppError, Exit, Outcome};
use super::scoring::{STDOUT, write_report};
use super::simulate::{LocatedError, pick};
use crate::base::budget::{self, Budget};
use crate::base::number::{Number, two_decimals};
use crate::benchmark::{GoldRecipe, default_dish};
use crate::language::ast::Recipe;
use crate::language::diagnostic::{Diagnostics, line_col, line_cols, terminal_safe};
use crate::language::validate::read_checked;
use crate::metrics::metric::{MetricSet, RecipeResult};
use crate::metrics::{GoldRun, Scores, gold_run, score};
use crate::report::content::RecipeReport;
use crate::report::figures::number;
use crate::report::refuse_input_as_output;
use crate::session::failed::failed_actions;
use crate::simulation::kitchen::{at, find_ingredient};
use crate::simulation::primitives::common::quantity_of;
use crate::simulation::{Execution, Model, SimError};
use crate::world::ontology::ClassId;
use crate::world::rewrite::{Change, Rewrite, RewriteError, grams};
use crate::world::{Entity, Value};
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Why a network and its rewrite were not compared.
#[derive(Debug)]
pub enum RerunFailure {
    /// The network has errors (located in its text); nothing ran.
    Invalid(Diagnostics),
    /// The text holds no recipe, or not the one asked for.
    Recipe(String),
    /// The rewrite asked for cannot be made (an unknown ingredient, an amount without grams),
    /// with the line and column of the action that could not be rewritten, where one could not.
    Rewrite {
        message: String,
        at: Option<(usize, usize)>,
    },
    /// The rewritten network has errors (an amount out of the language's bounds), located in
    /// its own text.
    RewriteInvalid {
        text: String,
        diagnostics: Diagnostics,
    },
    /// A run or a score stopped: where the reference's evaluator fails (located at the action
    /// of the text where it is one of its actions), or the time budget.
    Failed(LocatedError),
    /// The benchmark data asked for cannot be used.
    Data(String),
}

/// One rewritten action, located in the original text.
#[derive(Clone, Debug, Serialize)]
pub struct ChangedAction {
    /// 1-based position of the action in the network.
    pub action: usize,
    pub line: usize,
    pub before: String,
    pub after: String,
    pub note: String,
}

/// The scores of the original and of the rewrite against the benchmark's gold network.
#[derive(Clone, Debug, Serialize)]
pub struct GoldScores {
    pub original: RecipeReport,
    pub rewritten: RecipeReport,
}

/// A recipe run as written and as rewritten.
pub struct Rerun {
    pub recipe: String,
    /// The rewritten network's text, as it ran.
    pub network: String,
    pub changes: Vec<ChangedAction>,
    /// The original's run, its dish standing as the gold dish (the kept gold run, when the
    /// original is a gold network of the evaluator's).
    pub original: Arc<GoldRun>,
    /// The rewritten network as it ran.
    pub rewritten_recipe: Recipe,
    /// Its execution; `None` where it failed as the reference's evaluator fails (`failure`).
    pub rewritten: Option<Execution>,
    /// Where and why the rewrite failed as the reference's evaluator fails, located at the
    /// action of the original text.
    pub failure: Option<LocatedError>,
    /// The rewritten actions that made a failed object of their own, each with why, located
    /// at the action's line in the original text (the rewrite keeps every action in its place).
    pub failed_actions: Vec<LocatedError>,
    /// The rewrite scored against the original's run.
    pub against_original: RecipeResult,
    /// Both scored against the benchmark's gold network, when it has the recipe.
    pub against_gold: Option<GoldScores>,
}

impl Rerun {
    /// Whether the rewritten network has an execution.
    pub fn executes(&self) -> bool {
        self.rewritten.as_ref().is_some_and(|e| e.solved)
    }

    /// The original's execution time, as the evaluation writes it.
    pub fn original_time(&self) -> Option<serde_json::Value> {
        self.original.execution.execution_time().map(number)
    }

    /// The scores against the original as the evaluation's JSON report writes a recipe.
    pub fn report(&self) -> RecipeReport {
        RecipeReport::new(&self.against_original, &MetricSet::default())
    }
}

/// Run recipe `recipe` (else the first) of `text` as written and as `rewrite` makes it, within
/// the model's time budget for the whole of the work. `gold` gives the benchmark for a recipe
/// id, when there is one.
pub fn rerun<T>(
    model: &Model,
    text: &str,
    recipe: Option<&str>,
    gold: &mut GoldSource<'_>,
    rewrite: impl FnOnce(&Recipe) -> Result<(Rewrite, T), RewriteError>,
) -> Result<(Rerun, T), RerunFailure> {
    let original = original_recipe(model, text, recipe)?;
    let (rewritten, extra) = rewrite(&original).map_err(|e| RerunFailure::Rewrite {
        at: e
            .action
            .and_then(|p| original.predicates.get(p))
            .map(|p| line_col(text, p.span.start)),
        message: e.message,
    })?;
    let network = rewritten.recipe.to_string();
    let rewritten_recipe = checked(model, &network)
        .map_err(|failure| match failure {
            RerunFailure::Invalid(diagnostics) => RerunFailure::RewriteInvalid {
                text: network.clone(),
                diagnostics,
            },
            other => other,
        })?
        .swap_remove(0);
    let golds = gold(&original.id).map_err(RerunFailure::Data)?;
    let run = Budget::new(model.time_budget).run(|| {
        let ran = run_both(model, &original, &rewritten_recipe, golds.as_ref());
        let Err(spent) = budget::check() else {
            return ran.map_err(|e| LocatedError::new(text, &original, &e));
        };
        // Past the budget, a run's own refusal says what its search had done.
        Err(match &ran {
            Err(e)
            | Ok(Ran {
                rewritten: Err(e), ..
            }) => LocatedError::new(text, &original, e),
            Ok(_) => unlocated(spent.message(&original.id, |p| original.action_name(p))),
        })
    });
    let ran = run.map_err(RerunFailure::Failed)?;
    let changes = located(text, &original, &rewritten.changes);
    let failed = match &ran.rewritten {
        Ok((execution, _)) => failed_in(model, text, &original, &rewritten_recipe, execution),
        Err(_) => Vec::new(),
    };
    let (execution, against_original, failure) = match ran.rewritten {
        Ok((execution, scores)) => (Some(execution), scores, None),
        Err(e) => (
            None,
            Scores::default(),
            Some(LocatedError::new(text, &original, &e)),
        ),
    };
    Ok((
        Rerun {
            recipe: original.id.clone(),
            network,
            changes,
            original: ran.original,
            rewritten_recipe,
            rewritten: execution,
            failure,
            failed_actions: failed,
            against_original: result(&original.id, against_original),
            against_gold: ran.against_gold,
        },
        extra,
    ))
}

/// The actions of the rewritten run that made a failed object of their own, with why, at
/// their line in the original text and as rewritten.
fn failed_in(
    model: &Model,
    text: &str,
    original: &Recipe,
    rewritten: &Recipe,
    execution: &Execution,
) -> Vec<LocatedError> {
    let found = failed_actions(model, rewritten, execution);
    let at = line_cols(
        text,
        found
            .iter()
            .map(|(p, _)| original.predicates[*p].span.start),
    );
    found
        .into_iter()
        .zip(at)
        .map(|((p, why), (line, column))| LocatedError {
            line: Some(line),
            column: Some(column),
            action: Some(rewritten.predicates[p].to_string()),
            message: why.to_string(),
        })
        .collect()
}

/// What the runs gave.
struct Ran {
    original: Arc<GoldRun>,
    /// `Err` where the rewrite fails as the reference's evaluator fails (a primitive's error,
    /// a dish that cannot be weighed).
    rewritten: Result<(Execution, Scores), SimError>,
    against_gold: Option<GoldScores>,
}

/// Both runs and their scores: the rewrite against the original's run, and both against the
/// gold network when there is one. `Err` where the original itself cannot be compared.
fn run_both(
    model: &Model,
    original: &Recipe,
    rewritten: &Recipe,
    golds: Option<&Golds>,
) -> Result<Ran, SimError> {
    let gold = golds.and_then(|g| Some((g, g.recipe(&original.id)?)));
    let dish = dish_variable(original, gold.map(|(_, g)| g)).ok_or_else(|| {
        SimError::new(format!(
            "the network of {} has no action whose output could be its dish",
            original.id
        ))
    })?;
    // A gold file rewritten as it is (the network and dish of the gold itself) has the gold
    // run for the original's: the same network run twice would give it again. The gold
    // network's actions are not the text's: where its run fails is said, not located.
    let gold_is_original = gold.filter(|(_, g)| is_original(g, original, &dish));
    let original_run = match gold_is_original {
        Some((golds, g)) => golds.run(model, g)?,
        None => Arc::new(gold_run(model, original, &dish)?),
    };
    if original_run.output_step.is_none() {
        return Err(SimError::new(format!(
            "the network of {} does not execute as written, so there is no dish to compare its rewrite with",
            original.id
        )));
    }
    let other_gold = gold
        .filter(|_| gold_is_original.is_none())
        .map(|(golds, g)| golds.run(model, g))
        .transpose()
        .map_err(|e| SimError {
            predicate: None,
            ..e
        })?;
    let gold_run = gold.map(|_| other_gold.as_deref().unwrap_or(&*original_run));
    let against = |recipe: &Recipe, exec: &Execution, gold: &GoldRun| {
        let scores = score(model, recipe, exec, gold)?;
        Ok::<_, SimError>(RecipeReport::new(
            &result(&recipe.id, scores),
            &MetricSet::default(),
        ))
    };
    // The original against the gold run it is: the gold run scored against itself, kept.
    let original_against_gold = gold_run
        .map(|g| match std::ptr::eq(g, &*original_run) {
            true => Ok(RecipeReport::new(
                &result(&original.id, g.scored_against_itself(model)?),
                &MetricSet::default(),
            )),
            false => against(original, &original_run.execution, g),
        })
        .transpose()?;
    let ran = model.execute(rewritten).and_then(|exec| {
        let scores = score(model, rewritten, &exec, &original_run)?;
        let against_gold = match gold_run {
            // The gold run is the original's: the rewrite's scores against it are made.
            Some(g) if std::ptr::eq(g, &*original_run) => Some(RecipeReport::new(
                &result(&rewritten.id, scores.clone()),
                &MetricSet::default(),
            )),
            Some(g) => Some(against(rewritten, &exec, g)?),
            None => None,
        };
        Ok(((exec, scores), against_gold))
    });
    let nil = || {
        RecipeReport::new(
            &result(&rewritten.id, Scores::default()),
            &MetricSet::default(),
        )
    };
    let (rewritten, rewritten_against_gold) = match ran {
        Ok((run, against_gold)) => (Ok(run), against_gold),
        Err(e) => (Err(e), None),
    };
    Ok(Ran {
        original: original_run,
        rewritten,
        against_gold: original_against_gold.map(|original| GoldScores {
            original,
            rewritten: rewritten_against_gold.unwrap_or_else(nil),
        }),
    })
}

/// Whether the gold network is the original, action for action and place for place, with
/// `dish` for its dish variable: then its gold run is the original's run.
fn is_original(gold: &GoldRecipe, original: &Recipe, dish: &str) -> bool {
    gold.network == *original
        && dish.strip_prefix('?')
            == Some(
                &*gold
                    .primary_output_var
                    .trim_start_matches('?')
                    .to_lowercase(),
            )
}

/// The variable whose value is the original's dish: the benchmark's dish variable when an
/// action of the network makes it (its first argument), else the output of its last action
/// (as `--gold` and `add-recipe` choose). A network naming the dish only as an input still
/// has a dish to compare with.
fn dish_variable(original: &Recipe, gold: Option<&GoldRecipe>) -> Option<String> {
    let named = gold.map(|g| g.primary_output_var.trim_start_matches('?').to_lowercase());
    let makes = |var: &str| {
        original
            .predicates
            .iter()
            .any(|p| p.args.first().and_then(|a| a.as_var()) == Some(var))
    };
    match named {
        Some(var) if makes(&var) => Some(format!("?{var}")),
        _ => default_dish(original),
    }
}

fn result(id: &str, scores: Scores) -> RecipeResult {
    RecipeResult {
        recipe_id: id.to_owned(),
        smatch: None,
        goal_condition_success: scores.goal_condition_success,
        dish_approximation_score: scores.dish_approximation_score,
        execution_time: scores.execution_time,
        detail: scores.detail,
        diets: Vec::new(),
    }
}

/// A failure at no action of the text.
pub(super) fn unlocated(message: String) -> LocatedError {
    LocatedError {
        line: None,
        column: None,
        action: None,
        message,
    }
}

/// Recipe `recipe` (else the first) of a text that parses and validates, or why not.
pub(super) fn original_recipe(
    model: &Model,
    text: &str,
    recipe: Option<&str>,
) -> Result<Recipe, RerunFailure> {
    checked(model, text).and_then(|mut recipes| {
        let at = pick(&recipes, recipe).map_err(RerunFailure::Recipe)?;
        let at = recipes
            .iter()
            .position(|r| std::ptr::eq(r, at))
            .unwrap_or(0);
        Ok(recipes.swap_remove(at))
    })
}

/// The recipes of a text that parses and validates, or its errors.
fn checked(model: &Model, text: &str) -> Result<Vec<Recipe>, RerunFailure> {
    let into = Diagnostics::new().errors_only();
    let (file, errors) = read_checked(text, &model.validator(), into);
    if errors.has_errors() {
        return Err(RerunFailure::Invalid(errors));
    }
    if file.recipes.is_empty() {
        return Err(RerunFailure::Recipe("the text holds no recipe".into()));
    }
    Ok(file.recipes)
}

/// The rewrite's changes with their lines in the original text.
fn located(text: &str, original: &Recipe, changes: &[Change]) -> Vec<ChangedAction> {
    let starts = changes
        .iter()
        .map(|c| original.predicates[c.predicate].span.start);
    changes
        .iter()
        .zip(line_cols(text, starts))
        .map(|(c, (line, _))| ChangedAction {
            action: c.predicate + 1,
            line,
            before: c.before.clone(),
            after: c.after.clone(),
            note: c.note.clone(),
        })
        .collect()
}

/// A network and its rewrite compared: what `substitute` and `scale` answer beside their own
/// fields.
#[derive(Clone, Debug, Serialize)]
pub struct Comparison {
    pub recipe: String,
    /// Whether the rewritten network has an execution.
    pub executes: bool,
    /// Where the rewritten network fails as the reference's evaluator fails (the evaluation
    /// would refuse its file), located at the action of the original text.
    pub failure: Option<LocatedError>,
    /// The rewritten actions that made a failed object of their own (the network then does
    /// not execute), each with why, at its line in the original text.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub failed_actions: Vec<LocatedError>,
    pub original_execution_time: Option<serde_json::Value>,
    /// The rewrite scored against the original's run, the original's dish standing as the
    /// gold dish: the evaluation's JSON names and detail (missed goals are actions of the
    /// original whose result the rewrite does not make).
    pub against_original: RecipeReport,
    /// The original and the rewrite scored against the benchmark's gold network, when the
    /// benchmark has the recipe.
    pub against_gold: Option<GoldScores>,
    /// The rewritten actions, in network order.
    pub changes: Vec<ChangedAction>,
    /// The rewritten network's text, as it ran.
    pub network: String,
}

impl Comparison {
    pub fn of(run: &Rerun) -> Comparison {
        Comparison {
            recipe: run.recipe.clone(),
            executes: run.executes(),
            failure: run.failure.clone(),
            failed_actions: run.failed_actions.clone(),
            original_execution_time: run.original_time(),
            against_original: run.report(),
            against_gold: run.against_gold.clone(),
            changes: run.changes.clone(),
            network: run.network.clone(),
        }
    }

    /// The comparison for people, appended to `s`; `what` names the rewrite ("scaled").
    pub fn render_into(&self, s: &mut String, what: &str) {
        if self.changes.is_empty() {
            s.push_str("No action changed.\n");
        }
        for c in &self.changes {
            s.push_str(&format!(
                "  action {} (line {}): {}\n    now: {}\n    ({})\n",
                c.action, c.line, c.before, c.after, c.note
            ));
        }
        let original_time = self
            .original_execution_time
            .as_ref()
            .map(ToString::to_string)
            .unwrap_or_else(|| "NIL".into());
        match (&self.failure, self.executes) {
            (Some(f), _) => {
                let at = match (f.line, &f.action) {
                    (Some(line), Some(action)) => format!("line {line}, {action}: "),
                    _ => String::new(),
                };
                s.push_str(&format!(
                    "The {what} network fails where the reference's evaluator fails (it would refuse the file): {at}{}\n",
                    f.message
                ));
            }
            (None, true) => s.push_str(&format!("The {what} network executes.\n")),
            (None, false) => {
                s.push_str(&format!("The {what} network does not execute.\n"));
                for f in &self.failed_actions {
                    s.push_str(&format!("  {}\n", f.words()));
                }
            }
        }
        let r = &self.against_original;
        s.push_str(&format!(
            "Against the original (its dish as the gold dish): {}; the original's execution time {original_time}\n",
            scores(r)
        ));
        if let Some(d) = &r.dish {
            let mut parts = Vec::new();
            if !d.detail.missing.is_empty() {
                parts.push(format!("missing {}", d.detail.missing.join(", ")));
            }
            if !d.detail.surplus.is_empty() {
                parts.push(format!("surplus {}", d.detail.surplus.join(", ")));
            }
            let differing: Vec<String> = d
                .detail
                .matched
                .iter()
                .filter(|m| !m.differing.is_empty())
                .map(|m| format!("{} ({})", m.class, m.differing.join(", ")))
                .collect();
            if !differing.is_empty() {
                parts.push(format!("differing {}", differing.join(", ")));
            }
            if !d.detail.container_differences.is_empty() {
                parts.push(format!(
                    "container {}",
                    d.detail.container_differences.join(", ")
                ));
            }
            if !parts.is_empty() {
                s.push_str(&format!("  dish: {}\n", parts.join("; ")));
            }
        }
        if let Some(g) = &r.goal_condition_success
            && !r.missed_goals.is_empty()
        {
            let actions: Vec<String> = r
                .missed_goals
                .iter()
                .map(|m| m.gold_action.to_string())
                .collect();
            s.push_str(&format!(
                "  actions of the original whose result the {what} network does not make ({} of {}): {}\n",
                r.missed_goals.len(),
                g.denominator,
                actions.join(", ")
            ));
        }
        if let Some(g) = &self.against_gold {
            s.push_str(&format!(
                "Against the gold network of {}: original {}; {what} {}\n",
                self.recipe,
                scores(&g.original),
                scores(&g.rewritten)
            ));
        }
    }
}

/// A recipe's three simulation metrics as the evaluation prints them.
fn scores(r: &RecipeReport) -> String {
    let gcs = r
        .goal_condition_success
        .as_ref()
        .and_then(|g| Number::ratio(g.numerator as i64, g.denominator as i64))
        .map(two_decimals)
        .unwrap_or_else(|| "NIL".into());
    let dish = r
        .dish_approximation_score
        .map(|d| two_decimals(Number::float(d)))
        .unwrap_or_else(|| "NIL".into());
    let time = r
        .execution_time
        .as_ref()
        .map(ToString::to_string)
        .unwrap_or_else(|| "NIL".into());
    format!("goal-condition success {gcs}, dish approximation score {dish}, execution time {time}")
}

/// The amounts of exactly `class` the initial kitchen holds, with their units.
pub fn held(model: &Model, class: ClassId) -> Vec<(Number, ClassId)> {
    let contents = model.k.contents;
    let mut out = Vec::new();
    let mut stack: Vec<&Entity> = vec![&model.kitchen];
    while let Some(e) = stack.pop() {
        if e.class == class
            && let Ok(amount) = quantity_of(model, e)
        {
            out.push(amount);
        }
        stack.extend(e.val(contents).items().iter().filter_map(Value::as_obj));
    }
    out
}

/// The class of what a fetch of `class` takes from the initial kitchen (the first object of
/// it `find-ingredient` finds: the kitchen's extra-virgin olive oil for `olive-oil`); `class`
/// itself where the kitchen holds none.
pub fn fetched_class(model: &Model, class: ClassId) -> ClassId {
    let kitchen = &model.kitchen;
    let bowl =
        find_ingredient(kitchen, model, class).and_then(|(bowl, _)| at(kitchen, model, &bowl));
    let Some(bowl) = bowl else {
        return class;
    };
    if model.onto.is_a(bowl.class, class) {
        return bowl.class;
    }
    let items = bowl.val(model.k.contents).items();
    let first = items
        .iter()
        .filter_map(Value::as_obj)
        .find(|o| model.onto.is_a(o.class, class));
    first.map_or(class, |o| o.class)
}

/// Grams of exactly `class` the initial kitchen holds; `None` when it holds none or the gram
/// table cannot weigh some of it.
pub fn held_grams(model: &Model, class: ClassId) -> Option<Number> {
    let amounts = held(model, class);
    if amounts.is_empty() {
        return None;
    }
    amounts
        .into_iter()
        .try_fold(Number::ZERO, |sum, (value, unit)| {
            Some(sum.add(grams(&model.onto, class, value, unit)?))
        })
}

/// Where `substitute` and `scale` write: the answer, as JSON or for people, and the rewritten
/// network when asked.
pub struct AnswerOutputs {
    pub json: bool,
    /// Where to write the answer (default, or `-`: standard output).
    pub output: Option<PathBuf>,
    /// Where to write the rewritten network.
    pub network_output: Option<PathBuf>,
}

impl AnswerOutputs {
    /// Refuse, before anything runs, an output that is an input (the network `file` or the
    /// kitchen data), and an answer and a network that are one file (the answer, written
    /// last, would replace the network).
    pub(super) fn refuse_overwriting(
        &self,
        file: Option<&Path>,
        data: &DataContext,
    ) -> Result<(), AppError> {
        let (answer, network) = (self.output.as_deref(), self.network_output.as_deref());
        let outputs = [answer, network].into_iter().flatten();
        for output in outputs.filter(|o| *o != Path::new(STDOUT)) {
            refuse_input_as_output(output, file.into_iter().chain(data.kitchen.as_deref()))?;
        }
        if let (Some(answer), Some(network)) = (answer, network)
            && answer != Path::new(STDOUT)
            && one_file(answer, network)
        {
            return Err(AppError::Options(format!(
                "-o {} and --network-output {} are one file: the answer would replace the network; give each a path of its own",
                answer.display(),
                network.display()
            )));
        }
        Ok(())
    }

    /// Write the answer (to `-o`, else standard output) and the rewritten `network` (when
    /// there is one and it is asked for), each whole or not at all; the network first, so
    /// that a failure writes no answer.
    pub(super) fn write<A: Serialize>(
        &self,
        answer: &A,
        render: fn(&A) -> String,
        network: Option<&str>,
        out: &mut dyn Write,
    ) -> Result<(), AppError> {
        if let (Some(path), Some(network)) = (&self.network_output, network) {
            write_report(path, network.as_bytes(), out)?;
        }
        let text = if self.json {
            crate::report::json::pretty(answer)
        } else {
            render(answer)
        };
        let path = self.output.as_deref().unwrap_or(Path::new(STDOUT));
        write_report(path, text.as_bytes(), out)
    }
}

/// Whether two output paths name one regular file, or one new path, however spelt. A
/// character device or a pipe (`/dev/null`, `-`) takes both writes.
fn one_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    let place = |p: &Path| {
        let folder = p.parent().filter(|f| !f.as_os_str().is_empty());
        let folder = folder.unwrap_or(Path::new(".")).canonicalize().ok()?;
        Some(folder.join(p.file_name()?))
    };
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) => x.is_file() && x.dev() == y.dev() && x.ino() == y.ino(),
        (Err(_), Err(_)) => place(a).is_some_and(|p| Some(p) == place(b)),
        _ => false,
    }
}

/// Say why a comparison was not made; `Err` for data that cannot be used.
pub(super) fn report_failure(
    name: &str,
    text: &str,
    failure: RerunFailure,
    err: &mut dyn Write,
) -> Outcome {
    let message = match failure {
        RerunFailure::Invalid(errors) => {
            format!(
                "{}error: {name} has errors; nothing was run",
                errors.render(name, text)
            )
        }
        RerunFailure::RewriteInvalid { text, diagnostics } => format!(
            "{}error: the rewritten network has errors; nothing was run",
            diagnostics.render(&format!("{name} (rewritten)"), &text)
        ),
        RerunFailure::Recipe(m) => format!("error: {name}: {m}"),
        RerunFailure::Failed(e) => e.render(name),
        RerunFailure::Rewrite { message, at } => match at {
            Some((line, column)) => format!("error: {name}:{line}:{column}: {message}"),
            None => format!("error: {message}"),
        },
        RerunFailure::Data(m) => return Err(AppError::Failed(m)),
    };
    let _ = writeln!(err, "{}", terminal_safe(&message));
    Ok(Exit::Failed)
}

impl RerunFailure {
    /// The failure as the tool server and the Python package answer it: `error`, `kind`
    /// (`network`: the network has errors or does not run; `request`: the rewrite asked for
    /// cannot be made; `data`) and located `diagnostics` where there are some (for
    /// `rewritten-network`, located in `network`, the rewritten text).
    pub fn to_json(&self, text: &str) -> serde_json::Value {
        use serde_json::json;
        match self {
            RerunFailure::Invalid(d) => counting_omitted(
                json!({
                    "error": "the network has errors; nothing was run",
                    "kind": "network",
                    "diagnostics": located_diagnostics(text, d),
                }),
                d,
            ),
            RerunFailure::RewriteInvalid { text, diagnostics } => counting_omitted(
                json!({
                    "error": "the rewritten network has errors; nothing was run",
                    "kind": "rewritten-network",
                    "diagnostics": located_diagnostics(text, diagnostics),
                    "network": text,
                }),
                diagnostics,
            ),
            RerunFailure::Recipe(m) => json!({ "error": m, "kind": "network" }),
            RerunFailure::Failed(e) => match e.line {
                Some(_) => json!({ "error": e.message, "kind": "network", "at": e }),
                None => json!({ "error": e.message, "kind": "network" }),
            },
            RerunFailure::Rewrite { message, at } => {
                let mut answer = json!({ "error": message, "kind": "request" });
                if let Some((line, column)) = at {
                    answer["line"] = json!(line);
                    answer["column"] = json!(column);
                }
                answer
            }
            RerunFailure::Data(m) => json!({ "error": m, "kind": "data" }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::language::parse::parse;

    fn recipe(text: &str) -> Recipe {
        parse(text).file.recipes.swap_remove(0)
    }

    const NETWORK: &str = "#afghan-biscuits\n(get-kitchen ?ks)\n(fetch-and-proportion ?butter ?ks-2 ?ks ?bowl butter 100 g)\n";

    fn gold(network: &str, dish: &str) -> GoldRecipe {
        GoldRecipe {
            id: "afghan-biscuits".into(),
            network: recipe(network),
            primary_output_var: dish.into(),
            file: PathBuf::from("afghan-biscuits.solution"),
        }
    }

    #[test]
    fn the_gold_network_itself_with_its_dish_is_the_original() {
        let original = recipe(NETWORK);
        assert!(is_original(&gold(NETWORK, "?BUTTER"), &original, "?butter"));
        assert!(is_original(&gold(NETWORK, "butter"), &original, "?butter"));
    }

    #[test]
    fn another_dish_or_another_spacing_is_not_the_original() {
        let original = recipe(NETWORK);
        assert!(!is_original(&gold(NETWORK, "?ks-2"), &original, "?butter"));
        let spaced = NETWORK.replace("(get-kitchen", "\n(get-kitchen");
        assert!(!is_original(
            &gold(&spaced, "?butter"),
            &original,
            "?butter"
        ));
    }
}
