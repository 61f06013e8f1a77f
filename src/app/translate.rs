//! `translate`: recipe text (benchmark XML, plain text or a page with JSON-LD) → a `.solution`
//! file, checked by the validator and the simulator before it is written.

use super::check::{EXIT_INVALID, EXIT_UNREADABLE};
use crate::profile::Profile;
use crate::report::write_atomically;
use crate::simulation::Model;
use crate::translate::recipe_text;
use crate::translate::rules::RulesTranslator;
use crate::translate::{Translator, check_solution};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Which translator turns text into networks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TranslatorKind {
    /// Deterministic rules, no model (the offline default and the baseline).
    Rules,
}

pub struct TranslateOptions {
    pub input: PathBuf,
    /// Where to write the `.solution` file (default: standard output).
    pub output: Option<PathBuf>,
    pub profile: Profile,
    pub kitchen: Option<PathBuf>,
    pub translator: TranslatorKind,
}

/// Run the command. Exit codes: 0 written, 1 no usable network (nothing written), 2 unreadable
/// input, kitchen or output.
pub fn run(opts: &TranslateOptions, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    with_translator(
        opts.translator,
        opts.profile,
        opts.kitchen.as_deref(),
        err,
        |model, t, err| run_with(opts, model, t, out, err),
    )
}

/// Build the chosen translator over the profile's model and hand both to `f`; exit code 2 when
/// the kitchen cannot be loaded.
pub fn with_translator(
    kind: TranslatorKind,
    profile: Profile,
    kitchen: Option<&Path>,
    err: &mut dyn Write,
    f: impl FnOnce(&Model, &mut dyn Translator, &mut dyn Write) -> i32,
) -> i32 {
    let (model, _) = match super::load_model(profile, kitchen) {
        Ok(m) => m,
        Err(msg) => {
            let _ = writeln!(err, "error: {msg}");
            return EXIT_UNREADABLE;
        }
    };
    match kind {
        TranslatorKind::Rules => f(&model, &mut RulesTranslator::new(&model), err),
    }
}

/// Translate with a given translator; exit codes as [`run`].
pub fn run_with(
    opts: &TranslateOptions,
    model: &Model,
    translator: &mut dyn Translator,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let recipe = match recipe_text::read(&opts.input) {
        Ok(r) => r,
        Err(e) => {
            let _ = writeln!(err, "error: {e}");
            return EXIT_UNREADABLE;
        }
    };
    let translation = match translator.translate(&recipe, 0) {
        Ok(t) => t,
        Err(e) => {
            let _ = writeln!(err, "error: {}: {e}", opts.input.display());
            return EXIT_INVALID;
        }
    };
    for note in &translation.notes {
        let _ = writeln!(err, "note: {}: {note}", recipe.id);
    }
    let checked = check_solution(model, &translation.solution);
    if !checked.errors.is_empty() || checked.crash.is_some() {
        for d in &checked.errors {
            let _ = write!(err, "{}", d.render("<translation>", &translation.solution));
        }
        if let Some(c) = &checked.crash {
            let _ = writeln!(
                err,
                "error: the simulator aborts on the translation: {}",
                c.message
            );
        }
        let _ = writeln!(
            err,
            "error: the {} translator produced an unusable network; nothing was written",
            translator.name()
        );
        return EXIT_INVALID;
    }
    match &opts.output {
        Some(path) => {
            if let Err(e) = write_atomically(path, translation.solution.as_bytes()) {
                let _ = writeln!(err, "error: {}: {e}", path.display());
                return EXIT_UNREADABLE;
            }
        }
        None => {
            let _ = write!(out, "{}", translation.solution);
        }
    }
    0
}
