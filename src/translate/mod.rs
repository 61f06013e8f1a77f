//! Recipe text → networks of the MUHAI Cooking Language: reading recipe text in its usual
//! forms, translating it (rules, or a language model checked in the simulator) and checking
//! what comes out. A front end over the library: it uses the language, simulation and metrics
//! layers and nothing uses it.

pub mod forms;
pub mod inventory;
pub mod llm;
pub mod network;
pub mod quantity;
pub mod recipe_text;
pub mod rules;

use crate::language::diagnostic::{Diagnostic, Diagnostics};
use crate::language::parse::parse;
use crate::language::validate::read_checked;
use crate::simulation::{Execution, Model};
use recipe_text::RecipeText;
use serde::Serialize;

/// A translated recipe: the `.solution` entry and what the translator could not do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Translation {
    /// The network with its `#recipe-id` header.
    pub solution: String,
    pub notes: Vec<String>,
    /// How many clauses of the text were not understood and left out, for a translator that
    /// can tell (the rules; each is also a located note).
    pub untranslated: Option<usize>,
}

impl Translation {
    /// Whether the network does nothing: no action beyond `get-kitchen`.
    pub fn is_empty(&self) -> bool {
        self.solution
            .lines()
            .filter(|l| l.starts_with('(') && !l.starts_with("(get-kitchen "))
            .count()
            == 0
    }
}

/// Why no network came out.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct TranslateError {
    pub message: String,
    /// The model could not be asked (no server, its deadline passed, no cached answer): a
    /// benchmark stops there, since its table would measure the server rather than the model.
    pub unavailable: bool,
}

impl TranslateError {
    pub fn new(message: impl Into<String>) -> TranslateError {
        TranslateError {
            message: message.into(),
            unavailable: false,
        }
    }
}

/// How a translation is made, recorded beside a stored sample (`benchmark --out`) so that it
/// can be audited: which model was asked and a digest of exactly what the translator read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Provenance {
    /// The model asked, for a translator that asks one.
    pub model: Option<String>,
    /// What `input_sha256` is the digest of.
    pub input: &'static str,
    pub input_sha256: String,
}

/// Recipe text in, network out.
pub trait Translator {
    fn name(&self) -> &str;
    /// How this translator makes sample `sample` of `recipe` (computed without translating).
    fn provenance(&self, recipe: &RecipeText, sample: usize) -> Provenance;
    /// Translate one recipe; `sample` numbers repeated attempts (a sampling translator
    /// varies its output by it, a deterministic one ignores it).
    fn translate(
        &mut self,
        recipe: &RecipeText,
        sample: usize,
    ) -> Result<Translation, TranslateError>;
}

/// What the language and the simulator say of a candidate network.
#[derive(Debug)]
pub struct Checked {
    /// Parse and validation errors (the reference would refuse the file).
    pub errors: Vec<Diagnostic>,
    /// The run, when the network is valid and the simulator did not abort.
    pub execution: Option<Execution>,
    /// Where and why the simulator aborted.
    pub crash: Option<Crash>,
}

/// The simulator's abort: its message and the action it was running, if known.
#[derive(Clone, Debug)]
pub struct Crash {
    pub message: String,
    pub predicate: Option<usize>,
}

/// Parse, validate and run a one-recipe solution text.
pub fn check_solution(model: &Model, text: &str) -> Checked {
    let validator = model.validator();
    let into = Diagnostics::new().in_text_order().errors_only();
    let errors = read_checked(text, &validator, into).1.into_kept();
    if !errors.is_empty() {
        return Checked {
            errors,
            execution: None,
            crash: None,
        };
    }
    let parsed = parse(text);
    let Some(recipe) = parsed.file.recipes.first() else {
        return Checked {
            errors,
            execution: None,
            crash: Some(Crash {
                message: "the text holds no network".into(),
                predicate: None,
            }),
        };
    };
    match model.execute(recipe) {
        Ok(e) => Checked {
            errors,
            execution: Some(e),
            crash: None,
        },
        Err(e) => Checked {
            errors,
            execution: None,
            crash: Some(Crash {
                message: e.message,
                predicate: e.predicate,
            }),
        },
    }
}
