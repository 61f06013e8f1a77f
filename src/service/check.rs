//! `check` (diagnostics for `.solution` files) and `graph` (a recipe's dependency DAG as DOT).

use crate::base::profile::Profile;
use crate::benchmark::{self, DataChoice, DataError, DataSource};
use crate::language::ast::SolutionFile;
use crate::language::dependencies::Network;
use crate::language::diagnostic::{Diagnostic, DiagnosticKind, Diagnostics, line_cols};
use crate::language::parse::parse_into;
use crate::language::validate::{ClassLookup, Validator};
use crate::service::outcome::{AppError, Exit, Outcome};
use crate::service::solution_file::read_solution_text;
use crate::session::failed::{Failure, failed_actions};
use crate::simulation::Model;
use serde::Serialize;
use std::io::Write;
use std::path::Path;

pub struct CheckOptions<'a> {
    pub profile: Profile,
    /// The recipe ids to accept; `None` = the benchmark's ids for the profile.
    pub known_recipes: Option<Vec<String>>,
    /// Class checks are skipped without an ontology.
    pub classes: Option<&'a dyn ClassLookup>,
    /// The model to run each network without errors in, and the file its kitchen is read
    /// from as the user names it (`kitchen.json`): every action that fails there is a
    /// warning at its line. `None`: networks are not run.
    pub kitchen: Option<(&'a Model, String)>,
}

impl CheckOptions<'_> {
    /// Hand `check` the validator of these options: their profile, classes and recipe ids.
    fn validating<T>(&self, check: impl FnOnce(&Validator) -> T) -> T {
        let ids: Vec<String> = self.known_recipes.clone().unwrap_or_else(|| {
            benchmark::manifest(self.profile)
                .recipes
                .into_iter()
                .map(|r| r.id)
                .collect()
        });
        let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
        let mut validator = Validator::new(self.profile).with_known_recipes(&ids);
        if let Some(c) = self.classes {
            validator = validator.with_classes(c);
        }
        check(&validator)
    }

    /// The diagnostics of one text, as `check` finds them for a file.
    pub fn check_text(&self, text: &str) -> Diagnostics {
        self.validating(|validator| self.checked(validator, text))
    }

    /// The diagnostics of `text` by `validator`, and, when it has no error, a warning at each
    /// action that fails in the kitchen; the text is parsed once for both.
    fn checked(&self, validator: &Validator, text: &str) -> Diagnostics {
        let (file, mut diagnostics) = crate::language::validate::check(text, validator);
        if let Some((model, kitchen_file)) = &self.kitchen
            && !diagnostics.has_errors()
        {
            for d in failing_in_kitchen(model, kitchen_file, &file) {
                diagnostics.push(d);
            }
        }
        diagnostics
    }
}

/// The recipe ids of the benchmark named by `--benchmark`: the demo's, or a user benchmark's
/// own and the official ones it lists; `None` for none named or a folder of official data
/// (the official ids).
pub fn benchmark_recipes(
    profile: Profile,
    benchmark: Option<&DataChoice>,
) -> Result<Option<Vec<String>>, DataError> {
    let source = match benchmark {
        None => return Ok(None),
        Some(DataChoice::Demo) => DataSource::Demo,
        Some(DataChoice::Folder(dir)) => match DataSource::of_folder(profile, dir.clone())? {
            DataSource::Folder(_) => return Ok(None),
            user => user,
        },
    };
    let manifest = source.manifest(profile)?;
    Ok(Some(manifest.recipes.into_iter().map(|r| r.id).collect()))
}

/// A file as [`check_each`] hands it on: its text with the diagnostics found, or why it could
/// not be read.
pub type FileChecked<'t> = Result<(&'t str, &'t Diagnostics), AppError>;

/// Check files in order, handing `each` every file's name and what was found; how the check
/// ends: unusable when a file could not be read, failed on an error, else a success. Each
/// file's text is dropped once handed on, so memory is that of one file.
pub fn check_each(
    files: &[&Path],
    opts: &CheckOptions,
    each: &mut dyn FnMut(&Path, FileChecked<'_>) -> Result<(), AppError>,
) -> Result<Totals, AppError> {
    opts.validating(|validator| {
        let mut totals = Totals::default();
        for path in files {
            let text = match read_solution_text(path) {
                Ok(t) => t,
                Err(e) => {
                    totals.unreadable += 1;
                    each(path, Err(e.into()))?;
                    continue;
                }
            };
            let diagnostics = opts.checked(validator, &text);
            totals.errors += diagnostics.errors();
            totals.warnings += diagnostics.warnings();
            each(path, Ok((&text, &diagnostics)))?;
        }
        Ok(totals)
    })
}

/// What a check of files found in all.
#[derive(Clone, Copy, Debug, Default)]
pub struct Totals {
    pub errors: usize,
    pub warnings: usize,
    pub unreadable: usize,
}

impl Totals {
    /// Clean or warnings only is success; an error fails; a file that could not be read is
    /// unusable.
    pub fn exit(&self) -> Exit {
        if self.unreadable > 0 {
            Exit::Unusable
        } else if self.errors > 0 {
            Exit::Failed
        } else {
            Exit::Success
        }
    }
}

/// Check files, rendering every diagnostic to `err`, then a one-line summary; the exit as
/// [`Totals::exit`].
pub fn check_files(files: &[&Path], opts: &CheckOptions, err: &mut dyn Write) -> Outcome {
    let totals = check_each(files, opts, &mut |path, checked| {
        let _ = match checked {
            Ok((text, diagnostics)) => {
                write!(
                    err,
                    "{}",
                    diagnostics.render(&path.display().to_string(), text)
                )
            }
            Err(e) => writeln!(err, "error: {e}"),
        };
        Ok(())
    })?;
    let Totals {
        errors,
        warnings,
        unreadable,
    } = totals;
    let _ = writeln!(
        err,
        "checked {} file(s) against profile {}: {errors} error(s), {warnings} warning(s){}",
        files.len(),
        opts.profile,
        if unreadable > 0 {
            format!(", {unreadable} unreadable")
        } else {
            String::new()
        }
    );
    Ok(totals.exit())
}

/// A warning at each action of each recipe of `file` that makes a failed object of its own
/// when the recipe runs in `model`'s kitchen (read from `kitchen_file`), saying why; a class
/// the kitchen lacks is named with where to add it. A recipe the simulator refuses, or that
/// runs past its time budget, is left to the commands that run it.
fn failing_in_kitchen(model: &Model, kitchen_file: &str, file: &SolutionFile) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    for recipe in &file.recipes {
        let Ok(exec) = model.execute(recipe) else {
            continue;
        };
        for (p, why) in failed_actions(model, recipe, &exec) {
            let message = match &why {
                Failure::NotInKitchen {
                    class,
                    unused: false,
                    ..
                } => format!("the kitchen holds no {class}: add it to {kitchen_file}"),
                why => format!("the action fails in the kitchen: {why}"),
            };
            let mut d = Diagnostic::new(
                DiagnosticKind::FailsInKitchen,
                recipe.predicates[p].span,
                message,
            );
            if let Failure::NotInKitchen { places, .. } = &why {
                d = d.with_hint(format!("looked in {places}"));
            }
            found.push(d);
        }
    }
    found
}

/// Write the dependency graph of one recipe (the first, or `recipe`) as DOT to `out`.
pub fn graph(
    path: &Path,
    recipe: Option<&str>,
    profile: Profile,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Outcome {
    let text = read_solution_text(path)?;
    let parsed = parse_into(&text, Diagnostics::new().errors_only());
    let name = path.display().to_string();
    let _ = write!(err, "{}", parsed.diagnostics.render(&name, &text));
    let wanted = recipe.map(str::to_lowercase);
    let found = parsed
        .file
        .recipes
        .iter()
        .find(|r| wanted.as_ref().is_none_or(|w| &r.id == w));
    let Some(r) = found else {
        let _ = match &wanted {
            Some(w) => writeln!(err, "error: {name}: no recipe `{w}` in the file"),
            None => writeln!(err, "error: {name}: the file holds no recipe"),
        };
        return Ok(Exit::Failed);
    };
    let net = Network::build(r, &crate::data::catalogue::Catalogue::builtin(profile));
    out.write_all(net.to_dot(r).as_bytes())
        .map_err(AppError::Stdout)?;
    Ok(Exit::Success)
}

/// A diagnostic as a program needs it (the tool server, the Python package): where, what,
/// and a hint when there is one.
#[derive(Serialize)]
pub struct LocatedDiagnostic {
    pub severity: &'static str,
    pub code: &'static str,
    pub line: usize,
    pub column: usize,
    pub message: String,
    pub hint: Option<String>,
}

/// Diagnostics with their lines and columns, located in one pass over the text.
pub fn located(text: &str, diagnostics: &[Diagnostic]) -> Vec<LocatedDiagnostic> {
    let at = line_cols(text, diagnostics.iter().map(|d| d.span.start));
    diagnostics
        .iter()
        .zip(at)
        .map(|(d, (line, column))| LocatedDiagnostic {
            severity: if d.is_error() { "error" } else { "warning" },
            code: d.kind.code(),
            line,
            column,
            message: d.message.clone(),
            hint: d.hint.clone(),
        })
        .collect()
}

/// A JSON answer listing the diagnostics `found` kept, with `diagnostics_omitted` counting
/// the others when there are any.
pub fn counting_omitted(mut answer: serde_json::Value, found: &Diagnostics) -> serde_json::Value {
    if found.unkept() > 0 {
        answer["diagnostics_omitted"] = serde_json::json!(found.unkept());
    }
    answer
}

/// The diagnostics of a text as a program reads them: the first located, how many more there
/// are, and whether the evaluator would accept the text.
#[derive(Serialize)]
pub struct CheckedText {
    /// Whether the text has no error.
    pub ok: bool,
    pub diagnostics: Vec<LocatedDiagnostic>,
    /// How many more diagnostics the text has, not listed (only the first are kept).
    pub diagnostics_omitted: usize,
}

impl CheckedText {
    /// The diagnostics `found` in `text`, located: the check job's answer, and each line of
    /// `check --format json`.
    pub fn of(text: &str, found: &Diagnostics) -> CheckedText {
        CheckedText {
            ok: !found.has_errors(),
            diagnostics: located(text, found),
            diagnostics_omitted: found.unkept(),
        }
    }
}
