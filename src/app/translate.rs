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
use std::path::PathBuf;

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
    let (model, _) = match super::load_model(opts.profile, opts.kitchen.as_deref()) {
        Ok(m) => m,
        Err(msg) => {
            let _ = writeln!(err, "error: {msg}");
            return EXIT_UNREADABLE;
        }
    };
    let mut translator = match opts.translator {
        TranslatorKind::Rules => RulesTranslator::new(&model),
    };
    run_with(opts, &model, &mut translator, out, err)
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
    let translation = match translator.translate(&recipe) {
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
