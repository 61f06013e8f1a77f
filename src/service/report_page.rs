//! `report` (and the reference's `-show-output true`): the evaluation as one self-contained
//! HTML page that shows why each recipe scored as it did, optionally opened in a browser.

use super::context;
use super::outcome::{AppError, Exit, Outcome};
use super::scoring::{self, EvaluateOptions};
use super::simulate::pick;
use super::solution_file::read_solution_text;
use crate::evaluate::Evaluator;
use crate::language::parse::parse;
use crate::metrics::gold_run;
use crate::metrics::metric::MetricSet;
use crate::report::batch_report::means;
use crate::report::content::RecipeReport;
use crate::report::html::{RecipePage, ReportModel, render};
use crate::report::json::Summary;
use crate::report::write_atomically;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

pub struct ReportOptions {
    /// What to evaluate and how (`output` is not used).
    pub evaluation: EvaluateOptions,
    /// Only this recipe of the file (default: all).
    pub recipe: Option<String>,
    /// The HTML file to write.
    pub html: PathBuf,
    /// Open the page with the platform's opener afterwards.
    pub open: bool,
    /// A trajectory log to show after the recipes, on the kitchen's timeline.
    pub trajectory: Option<PathBuf>,
}

/// The page beside an output file: `results.csv` → `results.html`.
pub fn beside(output: &Path) -> PathBuf {
    output.with_extension("html")
}

/// The page for a solution file when no name is given: its stem in the current folder.
pub fn default_path(input: &Path) -> PathBuf {
    let stem = input.file_stem().unwrap_or(input.as_os_str());
    PathBuf::from(stem).with_extension("html")
}

/// The reference's `-show-output` value: `t` or `true` (any case) asks for the view.
pub fn show_output_requested(value: &str) -> bool {
    value.eq_ignore_ascii_case("t") || value.eq_ignore_ascii_case("true")
}

/// Evaluate, write the page (whole or not at all), print its path and open it if asked.
/// Exits as the evaluation does; a page that cannot be opened is only a warning.
pub fn run(opts: &ReportOptions, out: &mut dyn Write, err: &mut dyn Write) -> Outcome {
    let Some(model) = build(opts, err)? else {
        return Ok(Exit::Failed);
    };
    write_atomically(&opts.html, render(&model).as_bytes()).map_err(|source| AppError::Write {
        path: opts.html.clone(),
        source,
    })?;
    let _ = writeln!(out, "report written to {}", opts.html.display());
    if opts.open
        && let Err(why) = open_in_browser(&opts.html)
    {
        let _ = writeln!(
            err,
            "warning: cannot open the report ({why}); open {} in a browser",
            opts.html.display()
        );
    }
    Ok(Exit::Success)
}

/// The page model of the options' evaluation; `None` where the evaluation refused the file or
/// has no such recipe (said on `err`).
fn build(opts: &ReportOptions, err: &mut dyn Write) -> Result<Option<ReportModel>, AppError> {
    let e = &opts.evaluation;
    scoring::check_ci(e.ci, err)?;
    let input = match e.inputs.as_slice() {
        [one] => one,
        _ => {
            return Err(AppError::Options(
                "a report covers one solution file".into(),
            ));
        }
    };
    crate::report::refuse_input_as_output(
        &opts.html,
        scoring::inputs_read(e, std::slice::from_ref(input)),
    )?;
    let text = read_solution_text(input)?;
    let trajectory = (opts.trajectory.as_deref())
        .map(super::trajectory_page::page)
        .transpose()
        .map_err(|e| AppError::Failed(e.to_string()))?;
    let official = || context::names_official(e.data.profile, [text.as_str()]);
    let (evaluator, kitchen) = scoring::load(e, official, err)?;
    let name = input.display().to_string();
    let results = match evaluator.evaluate(&text, &e.metrics) {
        Ok(results) => results,
        Err(refusal) => {
            let _ = writeln!(
                err,
                "{}error: {name} was refused; no report was written",
                refusal.render(&name, &text)
            );
            return Ok(None);
        }
    };
    let recipes = parse(&text).file.recipes;
    let only = match &opts.recipe {
        Some(id) => match pick(&recipes, Some(id)) {
            Ok(recipe) => Some(recipe.id.clone()),
            Err(msg) => {
                let _ = writeln!(err, "error: {name}: {msg}");
                return Ok(None);
            }
        },
        None => None,
    };
    let mut pages = Vec::new();
    let mut shown = Vec::new();
    // Results are in the reference's order, the reverse of the file.
    for (recipe, result) in recipes.iter().zip(results.iter().rev()) {
        if only.as_ref().is_some_and(|id| *id != recipe.id) {
            continue;
        }
        pages.push(recipe_page(&evaluator, recipe, &text, result, &e.metrics)?);
        shown.push(RecipeReport::new(result, &e.metrics));
    }
    let summary = e.ci.map(|b| {
        let rows: Vec<&RecipeReport> = shown.iter().collect();
        Summary::new(means(&rows, 0, &e.metrics, Some(b)), b)
    });
    Ok(Some(ReportModel {
        source: name,
        signature: scoring::signature(e, kitchen, &evaluator),
        recipes: pages,
        summary,
        trajectory,
    }))
}

/// The page of one recipe of `text`, scored as `result`: runs the recipe and its gold network
/// again for what the scores do not keep (every action's status and times, the dishes).
/// `Err` says why a run fails.
pub fn recipe_page(
    evaluator: &Evaluator,
    recipe: &crate::language::ast::Recipe,
    text: &str,
    result: &crate::metrics::metric::RecipeResult,
    metrics: &MetricSet,
) -> Result<RecipePage, AppError> {
    let model = &evaluator.model;
    let fails = |what: &str, m: String| AppError::Failed(format!("{}: {what}: {m}", recipe.id));
    let exec = model
        .execute(recipe)
        .map_err(|x| fails("the simulation fails", x.message))?;
    let g = evaluator
        .benchmark
        .recipe(&recipe.id)
        .ok_or_else(|| AppError::Failed(format!("{}: no gold network", recipe.id)))?;
    let gold = gold_run(model, &g.network, &g.primary_output_var)
        .map_err(|x| fails("the gold network fails to run", x.message))?;
    Ok(RecipePage::new(
        model, recipe, text, &exec, result, &gold, metrics,
    ))
}

/// Hand the page to the platform's opener (`xdg-open`, `open`, `start`).
pub fn open_in_browser(path: &Path) -> std::io::Result<()> {
    let (program, leading): (&str, &[&str]) = if cfg!(target_os = "macos") {
        ("open", &[])
    } else if cfg!(windows) {
        ("cmd", &["/C", "start", ""])
    } else {
        ("xdg-open", &[])
    };
    let status = Command::new(program)
        .args(leading)
        .arg(path)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map_err(|e| std::io::Error::new(e.kind(), format!("cannot run {program}: {e}")))?;
    if status.success() {
        Ok(())
    } else {
        Err(std::io::Error::other(format!("{program} failed: {status}")))
    }
}
