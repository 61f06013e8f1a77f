//! `simulate`: run one recipe of a `.solution` file and show what happened, step by step, and
//! the final dish.

use super::context::{self, DataContext};
use super::golds::{GoldSource, Golds};
use super::outcome::{AppError, Exit, Outcome};
use super::solution_file::read_solution_text;
use crate::base::budget::{self, Budget};
use crate::base::suggest::closest;
use crate::benchmark::{self, Benchmark, DataError};
use crate::language::ast::Recipe;
use crate::language::diagnostic::{Diagnostics, line_col, terminal_safe};
use crate::language::validate::read_checked;
use crate::metrics::{dish, score};
use crate::report::json::pretty;
use crate::report::simulation::SimulationReport;
use crate::session::failed::failed_actions;
use crate::simulation::{Execution, Model, SimError};
use serde::Serialize;
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub struct SimulateOptions {
    pub file: PathBuf,
    /// The recipe to run (default: the first in the file).
    pub recipe: Option<String>,
    pub data: DataContext,
    /// Show every argument's binding.
    pub trace: bool,
    pub json: bool,
}

/// Run the command: the report on `out`, problems on `err`. Exit codes: 0 done (with or
/// without an execution), 1 the file has errors, the simulation crashed (where the
/// reference crashes) or the dish approximation score fails (where the evaluator refuses the
/// file; the report is printed, without a final dish), 2 the file, the kitchen or the
/// benchmark data cannot be used.
pub fn run(opts: &SimulateOptions, out: &mut dyn Write, err: &mut dyn Write) -> Outcome {
    let text = read_solution_text(&opts.file)?;
    let (model, kitchen) = super::load_model(&opts.data)?;
    let name = opts.file.display().to_string();
    let mut gold = |id: &str| gold_benchmark(&opts.data, id, err);
    let simulated = match simulate_text(&model, &kitchen, &text, opts.recipe.as_deref(), &mut gold)
    {
        Ok(s) => s,
        Err(SimulateFailure::Invalid(errors)) => {
            let _ = write!(err, "{}", errors.render(&name, &text));
            let _ = writeln!(err, "error: {name} has errors; nothing was simulated");
            return Ok(Exit::Failed);
        }
        Err(SimulateFailure::Recipe(msg)) => {
            let _ = writeln!(err, "error: {name}: {msg}");
            return Ok(Exit::Failed);
        }
        Err(SimulateFailure::Crashed(e)) => {
            let _ = writeln!(err, "{}", e.render(&name));
            return Ok(Exit::Failed);
        }
        Err(SimulateFailure::Data(msg)) => return Err(AppError::Failed(msg)),
    };
    let written = if opts.json {
        out.write_all(pretty(&simulated).as_bytes())
    } else {
        out.write_all(terminal_safe(&simulated.report.render(opts.trace)).as_bytes())
    };
    written.map_err(AppError::Stdout)?;
    match &simulated.refused {
        Some(failure) => {
            let _ = writeln!(err, "{}", terminal_safe(&failure.render(&name)));
            Ok(Exit::Failed)
        }
        None => Ok(Exit::Success),
    }
}

/// The text of a one-recipe command's `file` and the model of its `data`, once an `output`
/// that would overwrite the file or the kitchen is refused (`-` is standard output).
pub(crate) fn text_and_model(
    file: &Path,
    output: Option<&Path>,
    data: &DataContext,
) -> Result<(String, Model), AppError> {
    if let Some(path) = output.filter(|p| p.as_os_str() != "-") {
        crate::report::refuse_input_as_output(
            path,
            std::iter::once(file).chain(data.kitchen.as_deref()),
        )?;
    }
    let text = read_solution_text(file)?;
    let (model, _) = super::load_model(data)?;
    Ok((text, model))
}

/// A simulation problem at an action of the text (`line`, `column` and `action` are `None`
/// when it concerns no action).
#[derive(Clone, Debug, Serialize)]
pub struct LocatedError {
    pub line: Option<usize>,
    pub column: Option<usize>,
    /// The action as written.
    pub action: Option<String>,
    pub message: String,
}

impl LocatedError {
    /// The problem in one line for people: `line 12, (cut …): why`.
    pub fn words(&self) -> String {
        match (self.line, &self.action) {
            (Some(line), Some(action)) => format!("line {line}, {action}: {}", self.message),
            _ => self.message.clone(),
        }
    }

    pub(super) fn new(text: &str, recipe: &Recipe, e: &SimError) -> LocatedError {
        let p = e.predicate.and_then(|p| recipe.predicates.get(p));
        let at = p.map(|p| line_col(text, p.span.start));
        LocatedError {
            line: at.map(|(line, _)| line),
            column: at.map(|(_, col)| col),
            action: p.map(ToString::to_string),
            message: e.message.clone(),
        }
    }

    /// `error: FILE:LINE:COL: (action): MESSAGE` at the action, else `error: FILE: MESSAGE`.
    pub fn render(&self, name: &str) -> String {
        match (self.line, self.column, &self.action) {
            (Some(line), Some(col), Some(action)) => {
                format!("error: {name}:{line}:{col}: {action}: {}", self.message)
            }
            _ => format!("error: {name}: {}", self.message),
        }
    }
}

/// Why a text was not simulated.
#[derive(Debug)]
pub enum SimulateFailure {
    /// The text has errors (located diagnostics, the first kept); nothing ran.
    Invalid(Diagnostics),
    /// The text holds no recipe, or not the one asked for.
    Recipe(String),
    /// The simulation crashed where the reference's crashes.
    Crashed(LocatedError),
    /// The benchmark data asked for cannot be used.
    Data(String),
}

/// A simulated recipe: the report, and where the evaluator would refuse the file (the dish
/// approximation score fails), why; the report then has no final dish. The simulate job's
/// answer, and what `simulate --json` prints.
#[derive(Serialize)]
pub struct Simulated {
    pub report: SimulationReport,
    pub refused: Option<LocatedError>,
}

/// Simulate one recipe of a text (`recipe`, else the first): the one pipeline behind
/// `simulate`, the tool server and the Python package. `gold` gives the benchmark for a
/// recipe id, when there is one (asked only once the recipe ran).
pub fn simulate_text(
    model: &Model,
    kitchen: &str,
    text: &str,
    recipe: Option<&str>,
    gold: &mut GoldSource<'_>,
) -> Result<Simulated, SimulateFailure> {
    let ran = run_text(model, text, recipe, gold)?;
    let mut report = SimulationReport::new(model, &ran.recipe, text, &ran.exec, kitchen, ran.dish);
    for (p, why) in failed_actions(model, &ran.recipe, &ran.exec) {
        if let Some(step) = report.steps.iter_mut().find(|s| s.action.action == p + 1) {
            step.failed = Some(why.to_string());
        }
    }
    Ok(Simulated {
        report,
        refused: ran.refused,
    })
}

/// One recipe of a text run, with its final dish: what `simulate` shows and `diet` judges.
pub(super) struct Ran {
    pub recipe: Recipe,
    pub exec: Execution,
    /// The final dish, when the run has one and it could be chosen.
    pub dish: Option<ChosenDish>,
    /// Where the evaluator refuses the file (the dish approximation score fails), why.
    pub refused: Option<LocatedError>,
}

/// Check, then run one recipe of a text (`recipe`, else the first): the recipe and its run.
pub(super) fn run_checked(
    model: &Model,
    text: &str,
    recipe: Option<&str>,
) -> Result<(Recipe, Execution), SimulateFailure> {
    let into = Diagnostics::new().errors_only();
    let (file, errors) = read_checked(text, &model.validator(), into);
    if errors.has_errors() {
        return Err(SimulateFailure::Invalid(errors));
    }
    let recipe = pick(&file.recipes, recipe).map_err(SimulateFailure::Recipe)?;
    let exec = model
        .execute(recipe)
        .map_err(|e| SimulateFailure::Crashed(LocatedError::new(text, recipe, &e)))?;
    Ok((recipe.clone(), exec))
}

/// Check, then run one recipe of a text (`recipe`, else the first) and choose its final dish,
/// all within the model's time budget, as the evaluation scores a recipe: choosing the dish
/// scores it, which for a dish of thousands of items takes longer than any budget.
pub(super) fn run_text(
    model: &Model,
    text: &str,
    recipe: Option<&str>,
    gold: &mut GoldSource<'_>,
) -> Result<Ran, SimulateFailure> {
    Budget::new(model.time_budget).run(|| run_within_budget(model, text, recipe, gold))
}

fn run_within_budget(
    model: &Model,
    text: &str,
    recipe: Option<&str>,
    gold: &mut GoldSource<'_>,
) -> Result<Ran, SimulateFailure> {
    let (recipe, exec) = run_checked(model, text, recipe)?;
    let gold = gold(&recipe.id).map_err(SimulateFailure::Data)?;
    let chosen = final_dish(model, &recipe, &exec, gold.as_ref());
    // Work the budget stopped returned early: what it chose is no answer.
    let chosen = match budget::check() {
        Ok(()) => chosen,
        Err(spent) => Err(SimError::over_budget(&spent, &recipe)),
    };
    let (dish, refused) = match chosen {
        Ok(dish) => (dish, None),
        Err(failure) => {
            let failure = SimError {
                message: format!(
                    "{} (the evaluator refuses the file, as the reference does)",
                    failure.message
                ),
                ..failure
            };
            (None, Some(LocatedError::new(text, &recipe, &failure)))
        }
    };
    Ok(Ran {
        recipe,
        exec,
        dish,
        refused,
    })
}

/// The recipe asked for, or the first; an unknown id names the closest ids in the file.
pub(crate) fn pick<'r>(recipes: &'r [Recipe], id: Option<&str>) -> Result<&'r Recipe, String> {
    let Some(id) = id.map(str::to_lowercase) else {
        return recipes
            .first()
            .ok_or_else(|| "the file holds no recipe".into());
    };
    if let Some(r) = recipes.iter().find(|r| r.id == id) {
        return Ok(r);
    }
    let close = closest(&id, recipes.iter().map(|r| r.id.as_str()), 3);
    Err(if close.is_empty() {
        format!("no recipe `{id}` in the file")
    } else {
        format!(
            "no recipe `{id}` in the file; did you mean {}?",
            close.join(", ")
        )
    })
}

/// The benchmark of a command's data for the recipe ids its runs ask for, located and loaded
/// once per id: a command that runs many networks (`substitute --suggest` tries each
/// substitute) says once that no data was found, and tries a download once.
#[derive(Default)]
pub(super) struct GoldOnce(HashMap<String, Result<Option<Golds>, String>>);

impl GoldOnce {
    pub(super) fn get(
        &mut self,
        data: &DataContext,
        id: &str,
        err: &mut dyn Write,
    ) -> Result<Option<Golds>, String> {
        self.0
            .entry(id.to_owned())
            .or_insert_with(|| gold_benchmark(data, id, err))
            .clone()
    }
}

/// The benchmark's gold data, when it can be found: `--benchmark` must be usable; otherwise
/// the data is located (downloaded for an official recipe, as evaluation does) and simulation
/// goes on without it, with a warning when the download failed.
pub(super) fn gold_benchmark(
    data: &DataContext,
    recipe: &str,
    err: &mut dyn Write,
) -> Result<Option<Golds>, String> {
    let request = data.request();
    let official = || benchmark::manifest(data.profile).has(recipe);
    let source = match context::locate(request, official, err) {
        Ok(source) => source,
        Err(e) if data.benchmark.is_some() => return Err(e.to_string()),
        Err(e @ DataError::NotDownloaded { .. }) => {
            let _ = writeln!(err, "warning: {e}");
            return Ok(None);
        }
        Err(_) => return Ok(None),
    };
    Benchmark::load(data.profile, &source)
        .map(|b| Some(Golds::Read(Arc::new(b))))
        .map_err(|e| e.to_string())
}

/// The final dish: its step (into `exec.steps`), how it was chosen and its score.
pub(super) type ChosenDish = (usize, &'static str, Option<f32>);

/// The step whose primary output is the final dish, how it was chosen and its score: the
/// dish approximation score's best candidate when the benchmark has the recipe, else the
/// last executed action whose primary output no other action uses. `Err` is where the
/// evaluator refuses the file: the gold network does not run, or the dish approximation score
/// fails (located at the action whose output it was comparing).
fn final_dish(
    model: &Model,
    recipe: &Recipe,
    exec: &Execution,
    gold: Option<&Golds>,
) -> Result<Option<ChosenDish>, SimError> {
    if !exec.solved || exec.steps.is_empty() {
        return Ok(None);
    }
    if let Some((golds, g)) = gold.and_then(|b| Some((b, b.recipe(&recipe.id)?))) {
        let run = golds.run(model, g).map_err(|e| {
            SimError::new(format!(
                "the gold network of {} fails to run: {}",
                recipe.id, e.message
            ))
        })?;
        let scored = score(model, recipe, exec, &run).map_err(|e| SimError {
            message: format!("the dish approximation score fails: {}", e.message),
            ..e
        })?;
        let best = scored.detail.and_then(|d| {
            let step = dish::best_step(exec, &d.dish)?;
            Some((step, "gold", Some(d.dish.score)))
        });
        return Ok(best);
    }
    Ok(dish::last_unused_output(exec).map(|step| (step, "last", None)))
}
