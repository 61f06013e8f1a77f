//! What an agent reads back from a session: the answer to an action, to a look, the opening
//! kitchen and the final score. Each is plain data with words for a language model and JSON
//! (`serde`) for a program.

use super::describe::Place;
use crate::evaluate::Refusal;
use crate::language::diagnostic::{Diagnostic, LineIndex};
use crate::metrics::metric::RecipeResult;
use crate::report::dish_tree::DishNode;
use serde::Serialize;

/// What became of one line given to [`super::Session::act`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// The action ran on the current kitchen.
    Ran,
    /// The action ran as the reference runs it, but what it made is a failed object (a fetch
    /// of an ingredient the kitchen lacks): the score counts no goal it would have reached.
    Failed,
    /// The action cannot run yet (an input is not bound); it stays in the network and runs
    /// once the actions given after it bind what it lacks.
    Waiting,
    /// The action can never run in this network as written: an output variable is bound
    /// already, or a bound input holds a value of the wrong type. A network with it gets no
    /// execution (NIL scores) until the line is taken back.
    Never,
    /// A word-for-word repeat of an earlier action, which the 2024 reference runs with that one.
    RunsWithFirst,
    /// The line makes the reference refuse the whole network: its text, or an error its
    /// primitive signalled. It stays in the network until taken back with `undo`.
    Refused,
    /// A blank line, a comment or the recipe's header: nothing to run.
    NoAction,
    /// The session did not take the line (see [`super::Session::attempt`]): the network is
    /// unchanged.
    Rejected,
}

/// A problem or a note at a place in the network written so far.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Located {
    /// 1-based line and column in [`super::Session::network`].
    pub line: usize,
    pub column: usize,
    /// `error`, `warning` or `note` (why an action waits).
    pub severity: &'static str,
    /// The diagnostic's code (`E0104`), none for a note.
    pub code: Option<&'static str>,
    pub message: String,
    /// The reference's own text (its Lisp error), when `message` puts it in plain words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reference_message: Option<String>,
    /// What to do about it, with did-you-mean suggestions where there are any.
    pub hint: Option<String>,
    /// The did-you-mean names of the hint, best first (a primitive, a class, a bound
    /// variable): what a program puts in place of the name at `line`:`column`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub suggestions: Vec<String>,
}

impl Located {
    /// An error primitive `action` signalled at `line`:`column`, in plain words, with the
    /// reference's words when they differ.
    pub fn signalled(
        line: usize,
        column: usize,
        message: &str,
        hint: &str,
        action: &str,
    ) -> Located {
        let plain = super::words::plain_error(message, action);
        Located {
            line,
            column,
            severity: "error",
            code: None,
            reference_message: (plain != message).then(|| message.to_string()),
            message: plain,
            hint: Some(hint.to_string()),
            suggestions: Vec::new(),
        }
    }

    /// A note (why an action waits) or a warning of the session at `line`:`column`.
    pub fn note(
        line: usize,
        column: usize,
        severity: &'static str,
        message: String,
        suggestions: Vec<String>,
    ) -> Located {
        let hint =
            (!suggestions.is_empty()).then(|| format!("did you mean {}?", suggestions.join(", ")));
        Located {
            line,
            column,
            severity,
            code: None,
            message,
            reference_message: None,
            hint,
            suggestions,
        }
    }

    /// A diagnostic of the language layer, located in `lines`.
    pub fn diagnostic(d: &Diagnostic, lines: &LineIndex<'_>) -> Located {
        let (line, column) = lines.line_col(d.span.start);
        Located {
            line,
            column,
            severity: if d.is_error() { "error" } else { "warning" },
            code: Some(d.kind.code()),
            message: d.message.clone(),
            reference_message: None,
            hint: d.hint.clone(),
            suggestions: d.suggestions.clone(),
        }
    }
}

/// An object an action bound, in words and as a tree.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ObjectView {
    /// The line of the action that made it (1-based, in the network).
    pub line: usize,
    /// The variable it is bound to (`?bowl`).
    pub variable: String,
    /// The primitive's name for the argument (`container-with-ingredients`).
    pub argument: String,
    /// `a medium bowl holding 200 g butter at 18 °C, ready at 0:40`.
    pub words: String,
    /// When it is ready, in seconds of kitchen time.
    pub available_at: Option<serde_json::Value>,
    /// The object as the dish tree (none for a kitchen state or a value that is no object).
    pub object: Option<DishNode>,
    /// Why the action made a failed object instead, in words (`the kitchen holds no paneer`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failed: Option<String>,
}

/// The answer to one line.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Observation {
    /// Whether the line's action ran and made what it was asked (true for a line with nothing
    /// to run).
    pub ok: bool,
    pub outcome: Outcome,
    /// The line's number in the network (the header is line 1).
    pub line: usize,
    /// What happened, in words: what ran and what it made, or why nothing ran.
    pub text: String,
    /// What the line's action made, then what the waiting actions it let run made.
    pub objects: Vec<ObjectView>,
    /// Why the line did not run or refuses the network, and warnings about it.
    pub diagnostics: Vec<Located>,
    /// The kitchen time of the current kitchen state, in seconds.
    pub time: serde_json::Value,
}

impl Observation {
    /// The observation as JSON, numbers as the JSON report prints them.
    pub fn json(&self) -> serde_json::Value {
        crate::report::json::value(self)
    }
}

/// The answer to a look at a variable or a place.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct View {
    pub text: String,
    /// The object bound to the variable (when it is bound).
    pub object: Option<ObjectView>,
    /// The place looked at, with what it holds now.
    pub place: Option<Place>,
}

/// What a session starts with: the recipe and the kitchen.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Opening {
    pub recipe: String,
    /// The recipe text (title, ingredients, numbered instructions), when the benchmark has
    /// it on disk (the demo's texts are not compiled in).
    pub recipe_text: Option<String>,
    /// The initial kitchen in words, a line per place.
    pub kitchen: String,
    pub places: Vec<Place>,
    /// The kitchen time, in seconds.
    pub time: serde_json::Value,
    /// The action language in a line per primitive (`language::compact`).
    pub language: String,
}

/// The evaluation of the network written, exactly as `evaluate` scores it as a `.solution`
/// file.
#[derive(Clone, Debug)]
pub struct Score {
    /// The recipe's row with its detail, or why the reference refuses the network.
    pub result: Result<RecipeResult, Refusal>,
    /// The reference's CSV of the file (header and the row); empty when refused.
    pub csv: String,
    /// What `evaluate --format json` writes for the file: the recipe's report with the
    /// printed cells (`scored`), or the refusal (`refused`), as a batch's unit.
    pub json: serde_json::Value,
    /// Why the network makes no dish (NIL scores), in words: the first line that failed or
    /// never ran, and the gold goals never reached. Advice only: the score is `result`.
    pub why_no_dish: Option<String>,
}
