//! `new-benchmark` and `add-recipe`: a user benchmark of one's own recipes, laid out as the
//! official data is (texts under `data/recipe-texts/`, gold networks under
//! `data/gold-standard-solutions/meaning-only/`) with the manifest `benchmark.json`, which every
//! command reads through `--benchmark DIR` ([`crate::benchmark::UserData`]).

use crate::base::profile::Profile;
use crate::benchmark::{RecipeEntry, UserData, dish_variable, first_network, official_recipe};
use crate::data::manifest::{GOLD_DIR, TEXT_DIR, USER_MANIFEST, UserManifest};
use crate::language::ast::Recipe;
use crate::service::check::{self, CheckOptions};
use crate::service::outcome::{AppError, Exit, Outcome};
use crate::service::solution_file::read_solution_text;
use crate::simulation::Model;
use crate::simulation::benchmark_world::World;
use crate::translate::recipe_text;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Create the layout and an empty manifest in `dir` (created when missing). A folder that is
/// already a user benchmark is left as it is; any other non-empty folder is refused, so that
/// nothing of the user's is mixed into a benchmark by mistake.
pub fn new_benchmark(dir: &Path, out: &mut dyn Write) -> Outcome {
    if UserData::is_in(dir) {
        let _ = writeln!(out, "{} is already a benchmark", dir.display());
        return Ok(Exit::Success);
    }
    let unusable = |reason: String| AppError::File {
        path: dir.to_owned(),
        reason,
    };
    if dir.exists() {
        let mut entries = std::fs::read_dir(dir).map_err(|e| unusable(e.to_string()))?;
        if entries.next().is_some() {
            return Err(unusable(format!(
                "not empty and not a benchmark (no {USER_MANIFEST}); new-benchmark makes a new folder or fills an empty one"
            )));
        }
    }
    for sub in [GOLD_DIR, TEXT_DIR] {
        std::fs::create_dir_all(dir.join(sub)).map_err(|e| unusable(e.to_string()))?;
    }
    write(
        &dir.join(USER_MANIFEST),
        UserManifest::default().to_json().as_bytes(),
    )?;
    let _ = writeln!(
        out,
        "created the benchmark {0}; add recipes with `cookingbot-evaluator add-recipe --benchmark {0} --text RECIPE.txt --gold RECIPE.solution`",
        dir.display()
    );
    Ok(Exit::Success)
}

/// What `add-recipe` adds to which benchmark.
pub struct AddRecipe {
    pub benchmark: PathBuf,
    pub profile: Profile,
    pub recipe: NewRecipe,
    /// Add one's own gold even when its dish is a failed object in the benchmark's kitchen.
    pub allow_failing_gold: bool,
}

/// A recipe to add: one's own, or an official one by id.
pub enum NewRecipe {
    Own {
        /// The recipe text (benchmark XML, plain text or a page with a schema.org Recipe).
        text: PathBuf,
        /// The gold network (`.solution`; its first network is the gold).
        gold: PathBuf,
        /// Default: the gold network's header.
        id: Option<String>,
        /// Default: [`crate::benchmark::default_dish`].
        dish: Option<String>,
    },
    /// Read from the official data wherever it is found.
    Official(String),
}

/// Add a recipe to a user benchmark's manifest; one's own recipe's text and gold network are
/// copied in first. Its gold network is checked before anything is written: one with errors is
/// refused with its located diagnostics (exit 1). The manifest is written last and whole, so
/// an interrupted run leaves at most unlisted files.
pub fn add_recipe(opts: &AddRecipe, out: &mut dyn Write, err: &mut dyn Write) -> Outcome {
    let dir = &opts.benchmark;
    if !UserData::is_in(dir) {
        return Err(AppError::Options(format!(
            "{} is not a benchmark of your own (no {USER_MANIFEST}); create it with `cookingbot-evaluator new-benchmark {}`",
            dir.display(),
            dir.display()
        )));
    }
    let mut manifest = UserData::read_manifest(dir)?;
    let not_listed = |id: &str| {
        if manifest.has(id) {
            return Err(AppError::Options(format!(
                "{} already has a recipe `{id}`",
                dir.display()
            )));
        }
        Ok(())
    };
    let added = match &opts.recipe {
        NewRecipe::Official(id) => {
            official_recipe(opts.profile, id)?;
            not_listed(id)?;
            manifest.official_recipes.push(id.clone());
            format!("added the official recipe `{id}` to {}", dir.display())
        }
        NewRecipe::Own {
            text,
            gold,
            id,
            dish,
        } => {
            let gold_text = read_solution_text(gold)?;
            let header = crate::language::parse::parse(&gold_text)
                .file
                .recipes
                .first()
                .map(|r| r.id.clone());
            let Some(id) = id.clone().or_else(|| header.clone()) else {
                return Err(AppError::File {
                    path: gold.clone(),
                    reason: "holds no network to take the id from; give it with --id".into(),
                });
            };
            check_id(&id)?;
            not_listed(&id)?;
            let world = World::of_folder(dir)?;
            let model = world.model(opts.profile)?;
            if let refused @ (Exit::Failed | Exit::Unusable) =
                check_gold(&model, world.kitchen_file(), gold, header, err)?
            {
                return Ok(refused);
            }
            let network = first_network(gold, &gold_text)?;
            let primary_output_var = dish_variable(gold, &network, dish.as_deref())?;
            if !opts.allow_failing_gold && dish_fails(&model, &network, &primary_output_var) {
                let _ = writeln!(
                    err,
                    "error: {}: the gold's dish {primary_output_var} is a failed object in the benchmark's kitchen (the warnings above say which action fails and why), so it would score 0 against itself; nothing was added (--allow-failing-gold adds it anyway)",
                    gold.display()
                );
                return Ok(Exit::Failed);
            }
            // Read once: checked as a recipe text, then copied in as it is.
            let text_body = std::fs::read_to_string(text).map_err(|e| AppError::File {
                path: text.clone(),
                reason: format!("cannot read: {e}"),
            })?;
            recipe_text::from_text(&text_body, &id).map_err(|e| AppError::File {
                path: text.clone(),
                reason: e.to_string(),
            })?;
            let extension = text
                .extension()
                .map_or("txt".into(), |e| e.to_string_lossy());
            let text_file = format!("{TEXT_DIR}/{id}.{extension}");
            let entry = RecipeEntry {
                id: id.clone(),
                gold_file: format!("{GOLD_DIR}/{id}.solution"),
                gold_file_header: Some(network.id),
                primary_output_var,
                recipe_text: Some(text_file.clone()),
            };
            write(&dir.join(&entry.gold_file), gold_text.as_bytes())?;
            write(&dir.join(text_file), text_body.as_bytes())?;
            let added = format!(
                "added `{id}` (dish {}) to {}",
                entry.primary_output_var,
                dir.display()
            );
            manifest.recipes.push(entry);
            added
        }
    };
    write(&dir.join(USER_MANIFEST), manifest.to_json().as_bytes())?;
    let _ = writeln!(out, "{added}");
    Ok(Exit::Success)
}

/// Check a gold network as `check` does, against the benchmark's own classes and kitchen
/// (`model`, its kitchen read from `kitchen_file`; its own header the one recipe id
/// accepted): an action that fails in the kitchen is a warning at its line. With errors, say
/// that nothing was added.
fn check_gold(
    model: &Model,
    kitchen_file: String,
    gold: &Path,
    header: Option<String>,
    err: &mut dyn Write,
) -> Outcome {
    let checking = CheckOptions {
        profile: model.profile,
        known_recipes: Some(header.into_iter().collect()),
        classes: Some(&model.onto),
        kitchen: Some((model, kitchen_file)),
    };
    let exit = check::check_files(&[gold], &checking, err)?;
    if exit != Exit::Success {
        let _ = writeln!(
            err,
            "error: {}: the gold network has errors; nothing was added",
            gold.display()
        );
    }
    Ok(exit)
}

/// Whether the gold network's dish (`dish`, a variable) is a failed object when it runs in
/// `model`'s kitchen. A network the simulator refuses is left to the evaluation, which says
/// why.
fn dish_fails(model: &Model, network: &Recipe, dish: &str) -> bool {
    let Ok(exec) = model.execute(network) else {
        return false;
    };
    let failed = model.k.failed_object;
    exec.names
        .iter()
        .position(|name| name == dish)
        .and_then(|slot| exec.bindings[slot].value.as_obj())
        .is_some_and(|e| model.onto.is_a(e.class, failed))
}

/// An id names the recipe's files, so it is a file name anywhere: ASCII letters, digits, `-`
/// and `_`.
fn check_id(id: &str) -> Result<(), AppError> {
    let fits = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    if !id.is_empty() && id.chars().all(fits) {
        return Ok(());
    }
    Err(AppError::Options(format!(
        "`{id}` cannot be a recipe id: use ASCII letters, digits, `-` and `_` (--id ID)"
    )))
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), AppError> {
    crate::report::write_atomically(path, bytes).map_err(|source| AppError::Write {
        path: path.to_owned(),
        source,
    })
}
