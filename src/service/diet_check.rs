//! `diet`: does the dish a network makes keep a diet? One recipe of a `.solution` file is run;
//! its final dish (the one `simulate` shows: the dish approximation score's best candidate when
//! the benchmark has the recipe, else the last output no other action uses) is judged against
//! the diet table, and every excluded ingredient is listed with its amount and the actions that
//! brought it in.

use super::DataContext;
use super::golds::GoldSource;
use super::outcome::{AppError, Exit, Outcome};
use super::simulate::{SimulateFailure, gold_benchmark, run_text, text_and_model};
use crate::data::diet_table::Diet;
use crate::language::diagnostic::terminal_safe;
use crate::metrics::diet::Dish;
use crate::report::dietary::DietReport;
use crate::simulation::Model;
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};

/// How the verdict is written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum DietFormat {
    /// The verdict for people.
    #[default]
    Text,
    /// `{"recipe", "diet", "satisfied", "violations": [{"ingredient", "tags", "amount",
    /// "actions"}], ...}`.
    Json,
}

pub struct DietOptions {
    pub file: PathBuf,
    /// The recipe to judge (default: the first in the file).
    pub recipe: Option<String>,
    pub diet: Diet,
    pub data: DataContext,
    pub format: DietFormat,
    /// Where to write the verdict (default, or `-`: standard output).
    pub output: Option<PathBuf>,
}

/// A recipe's dish judged against a diet: the `diet` command's JSON, and what the tool server
/// and the Python package answer.
#[derive(Clone, Debug, Serialize)]
pub struct DietAnswer {
    pub recipe: String,
    #[serde(flatten)]
    pub verdict: DietReport,
}

/// Run the command: the verdict on `out` (or `-o`), problems on `err`. Exit codes: 0 the dish
/// keeps the diet, 1 it does not, it has no verdict (the network does not execute), the file
/// has errors or its dish cannot be judged, 2 the file, the kitchen or the data cannot be used.
pub fn run(opts: &DietOptions, out: &mut dyn Write, err: &mut dyn Write) -> Outcome {
    let (text, model) = text_and_model(&opts.file, opts.output.as_deref(), &opts.data)?;
    let name = opts.file.display().to_string();
    let mut gold = |id: &str| gold_benchmark(&opts.data, id, err);
    let answer = match diet_text(&model, &text, opts.recipe.as_deref(), opts.diet, &mut gold) {
        Ok(answer) => answer,
        Err(SimulateFailure::Invalid(errors)) => {
            let _ = write!(err, "{}", errors.render(&name, &text));
            let _ = writeln!(err, "error: {name} has errors; no dish was judged");
            return Ok(Exit::Failed);
        }
        Err(SimulateFailure::Recipe(msg)) => {
            let _ = writeln!(err, "error: {name}: {msg}");
            return Ok(Exit::Failed);
        }
        Err(SimulateFailure::Crashed(e)) => {
            let _ = writeln!(err, "{}", terminal_safe(&e.render(&name)));
            return Ok(Exit::Failed);
        }
        Err(SimulateFailure::Data(msg)) => return Err(AppError::Failed(msg)),
    };
    let written = match opts.format {
        DietFormat::Text => terminal_safe(&answer.verdict.render(&answer.recipe)).into_owned(),
        DietFormat::Json => crate::report::json::pretty(&answer),
    };
    let output = opts
        .output
        .as_deref()
        .unwrap_or(Path::new(super::scoring::STDOUT));
    super::scoring::write_report(output, written.as_bytes(), out)?;
    Ok(match answer.verdict.satisfied {
        Some(true) => Exit::Success,
        _ => Exit::Failed,
    })
}

/// Judge the dish of one recipe of a text (`recipe`, else the first) against `diet`: the one
/// pipeline behind `diet`, the tool server and the Python package. `gold` gives the benchmark
/// for a recipe id, when there is one (asked only once the recipe ran). A dish the dish
/// approximation score cannot compare with the gold dish, where the evaluator refuses the
/// file, is `Crashed`.
pub fn diet_text(
    model: &Model,
    text: &str,
    recipe: Option<&str>,
    diet: Diet,
    gold: &mut GoldSource<'_>,
) -> Result<DietAnswer, SimulateFailure> {
    let ran = run_text(model, text, recipe, gold)?;
    if let Some(refused) = ran.refused {
        return Err(SimulateFailure::Crashed(refused));
    }
    let step = ran.dish.map(|(step, _, _)| step);
    let dish = Dish::of(model, &ran.recipe, &ran.exec, step);
    let verdict = dish.judge(&model.onto, diet);
    Ok(DietAnswer {
        recipe: ran.recipe.id.clone(),
        verdict: DietReport::new(&verdict, Some(text)),
    })
}
