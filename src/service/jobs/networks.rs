//! The jobs on networks as written: check, simulate, score, Smatch, and translating a recipe's
//! text into a network.

use super::refusal::Refusal;
use crate::base::budget;
use crate::benchmark::DataError;
use crate::evaluate::Evaluator;
use crate::language::parse::parse;
use crate::metrics::metric::{Metric, MetricSet};
use crate::metrics::smatch::{SmatchConfig, SmatchResult, smatch as smatch_score};
use crate::report::json::value;
use crate::service::check::{
    CheckOptions, CheckedText, benchmark_recipes, check_each, counting_omitted, located,
};
use crate::service::outcome::{AppError, Outcome};
use crate::service::scoring::score_text;
use crate::service::simulate::{SimulateFailure, Simulated, simulate_text};
use crate::service::translation::{TranslateAnswer, Unusable, usable};
use crate::service::workspace::Workspace;
use crate::translate::Translator;
use crate::translate::recipe_text;
use crate::translate::rules::RulesTranslator;
use rayon::prelude::*;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::io::Write;
use std::path::Path;

/// A network to check, and the recipe ids its headers may name.
#[derive(Deserialize, JsonSchema)]
pub struct CheckRequest {
    /// The network: the text of a .solution file (`#recipe-id` then the actions).
    pub network: String,
    /// The recipe ids to accept (default: the benchmark's: the 30 official recipes, or those
    /// of the demo or of a benchmark of one's own when the evaluator was given one).
    pub known_recipes: Option<Vec<String>>,
}

/// A network and which of its recipes to use.
#[derive(Deserialize, JsonSchema)]
pub struct NetworkRequest {
    /// The network: the text of a .solution file (`#recipe-id` then the actions).
    pub network: String,
    /// The recipe to use when the text holds several (default: the first).
    pub recipe: Option<String>,
}

/// Every diagnostic of a network, located, as `check` finds them for a file: against the
/// workspace's classes and kitchen (an action that fails there is a warning) and the recipe
/// ids asked for, else the workspace benchmark's.
pub fn check(workspace: &Workspace, request: CheckRequest) -> Result<CheckedText, Refusal> {
    let opts =
        check_options(workspace, request.known_recipes).map_err(|e| Refusal::new(e.to_string()))?;
    let text = &request.network;
    Ok(CheckedText::of(text, &opts.check_text(text)))
}

/// How every front end checks in a workspace (`check`, the check job): against its model's
/// classes and kitchen, every action that fails there a warning, and the recipe ids
/// `known_recipes`, else those of its benchmark ([`benchmark_recipes`]).
pub fn check_options(
    workspace: &Workspace,
    known_recipes: Option<Vec<String>>,
) -> Result<CheckOptions<'_>, DataError> {
    let data = workspace.data();
    let known_recipes = match known_recipes {
        Some(ids) => Some(ids),
        None => benchmark_recipes(data.profile, data.benchmark.as_ref())?,
    };
    let model = workspace.model();
    Ok(CheckOptions {
        profile: data.profile,
        known_recipes,
        classes: Some(&model.onto),
        kitchen: Some((model, workspace.kitchen_file().to_owned())),
    })
}

/// `check --format json`: one line per file, in the order given, each the check job's answer
/// for the file's text (what `check_network` answers for it), or for a file that cannot be
/// read the refusal. Lines rather than one array: a script reads one file's answer with the
/// tool server's own shape, and reads each line as it comes; the exit is `check`'s.
pub fn check_lines(files: &[&Path], opts: &CheckOptions, out: &mut dyn Write) -> Outcome {
    let totals = check_each(files, opts, &mut |_, checked| {
        let answer = match checked {
            Ok((text, diagnostics)) => value(&CheckedText::of(text, diagnostics)),
            Err(e) => Refusal::new(e.to_string()).to_json(),
        };
        writeln!(out, "{answer}").map_err(AppError::Stdout)
    })?;
    Ok(totals.exit())
}

/// One recipe of a network run in the workspace's kitchen (a `Model`'s workspace: with its
/// primitives), its final dish chosen against the gold networks.
pub fn simulate(workspace: &Workspace, request: NetworkRequest) -> Result<Simulated, Refusal> {
    let text = &request.network;
    let recipe = request.recipe.as_deref();
    workspace
        .with_gold(|model, gold| simulate_text(model, workspace.kitchen_name(), text, recipe, gold))
        .map_err(|failure| simulate_refusal(text, failure))
}

/// A text that did not run: `{"error", "diagnostics"}` or `{"error", "at"}`.
pub fn simulate_refusal(text: &str, failure: SimulateFailure) -> Refusal {
    let refused = match failure {
        SimulateFailure::Invalid(d) => counting_omitted(
            json!({"error": "the network has errors; nothing ran", "diagnostics": located(text, &d)}),
            &d,
        ),
        SimulateFailure::Recipe(m) | SimulateFailure::Data(m) => json!({ "error": m }),
        SimulateFailure::Crashed(e) => json!({ "error": e.message, "at": e }),
    };
    Refusal::of_json(refused)
}

/// A network and the metrics to score it by.
#[derive(Deserialize, JsonSchema)]
pub struct ScoreRequest {
    /// The network: the text of a .solution file.
    pub network: String,
    /// The metrics, named as `--metrics` names them (default: all four).
    pub metrics: Option<Vec<String>>,
}

/// The metrics named (`none` too), or all four; a misspelt name is refused naming the closest.
pub fn metric_set(words: Option<&[String]>) -> Result<MetricSet, Refusal> {
    metrics_or(words, || {
        MetricSet::from_words(&Metric::ALL.map(Metric::name))
    })
}

/// [`metric_set`] with another default: what `default` gives when no metric is named.
pub fn metrics_or(
    words: Option<&[String]>,
    default: impl FnOnce() -> MetricSet,
) -> Result<MetricSet, Refusal> {
    let Some(words) = words.filter(|w| !w.is_empty()) else {
        return Ok(default());
    };
    for w in words.iter().filter(|w| !w.eq_ignore_ascii_case("none")) {
        Metric::named(w).map_err(|e| Refusal::request(e.to_string()))?;
    }
    Ok(MetricSet::from_words(words))
}

/// A network scored against the workspace benchmark's gold network of each of its recipes:
/// `{"recipes": [...]}` with the JSON report's values.
pub fn score(workspace: &Workspace, request: ScoreRequest) -> Result<Value, Refusal> {
    let metrics = metric_set(request.metrics.as_deref())?;
    scored(workspace, &request.network, &metrics)
}

/// [`score`] by a set of metrics already read.
pub fn scored(workspace: &Workspace, text: &str, metrics: &MetricSet) -> Result<Value, Refusal> {
    let evaluator = workspace
        .evaluator()
        .map_err(|e| Refusal::new(e.to_string()))?;
    score_with(&evaluator, text, metrics)
}

/// [`score`] by an evaluator already loaded.
pub fn score_with(
    evaluator: &Evaluator,
    text: &str,
    metrics: &MetricSet,
) -> Result<Value, Refusal> {
    score_text(evaluator, text, metrics).map_err(Refusal::of_json)
}

/// Networks to score, each on its own.
#[derive(Deserialize, JsonSchema)]
pub struct ScoreEachRequest {
    /// The networks: texts of .solution files.
    pub networks: Vec<String>,
    /// The metrics, named as `--metrics` names them (default: the three simulation metrics,
    /// as `evaluate` scores).
    pub metrics: Option<Vec<String>>,
}

/// Each network scored on its own.
#[derive(Serialize)]
pub struct ScoredEach {
    /// Per network, in the order given: what `score` answers for it, or its refusal.
    pub scores: Vec<Value>,
}

/// Networks scored against the workspace benchmark's gold networks, in parallel, each as
/// [`score`] scores it; a network refused is one refusal among the answers, not the job's.
pub fn score_each(workspace: &Workspace, request: ScoreEachRequest) -> Result<ScoredEach, Refusal> {
    let metrics = metrics_or(request.metrics.as_deref(), MetricSet::default)?;
    let evaluator = workspace
        .evaluator()
        .map_err(|e| Refusal::new(e.to_string()))?;
    let budget = budget::handed_on();
    let scores = request
        .networks
        .par_iter()
        .map(|text| {
            budget.run(|| score_with(&evaluator, text, &metrics).unwrap_or_else(|r| r.to_json()))
        })
        .collect();
    Ok(ScoredEach { scores })
}

fn exact_budget() -> u64 {
    SmatchConfig::default().exact_budget
}

/// Two networks to compare.
#[derive(Deserialize, JsonSchema)]
pub struct SmatchRequest {
    /// The network to score: the text of a .solution file (its first recipe is used).
    pub test: String,
    /// The network to score against (its first recipe is used).
    pub gold: String,
    /// Also search for the optimum and try to prove it (default: false).
    #[serde(default)]
    pub exact: bool,
    /// Search nodes the exact search may visit (at least the root).
    #[serde(default = "exact_budget")]
    pub exact_budget: u64,
}

/// Smatch between two networks, as `smatch.py` computes it: the result the evaluation
/// reports ([`SmatchResult`], its fields and names), but for the flags only the evaluation acts
/// on (whether hill-climbing fell short of exact mode, whether the climb ran to its end).
pub struct SmatchAnswer(pub SmatchResult);

impl Serialize for SmatchAnswer {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut fields = value(&self.0);
        if let Some(fields) = fields.as_object_mut() {
            for flag in ["hill_climbing_fell_short", "climb_complete"] {
                fields.remove(flag);
            }
        }
        fields.serialize(serializer)
    }
}

/// Smatch between the first recipes of two networks.
pub fn smatch(_: &Workspace, request: SmatchRequest) -> Result<SmatchAnswer, Refusal> {
    smatch_of(request)
}

/// [`smatch`], which needs no workspace: a front end asks it without opening one.
pub fn smatch_of(request: SmatchRequest) -> Result<SmatchAnswer, Refusal> {
    let first = |text: &str, which: &str| {
        let parsed = parse(text);
        if let Some(d) = parsed.diagnostics.first_error() {
            let l = &located(text, std::slice::from_ref(d))[0];
            return Err(Refusal::new(format!("{which}: {}", d.message)).with("diagnostics", [l]));
        }
        let recipe = parsed.file.recipes.into_iter().next();
        recipe.ok_or_else(|| Refusal::new(format!("{which}: the text holds no recipe")))
    };
    let (test, gold) = (first(&request.test, "test")?, first(&request.gold, "gold")?);
    let cfg = SmatchConfig {
        exact: request.exact,
        exact_budget: request.exact_budget,
        ..SmatchConfig::default()
    };
    Ok(SmatchAnswer(smatch_score(
        &test.predicates,
        &gold.predicates,
        &cfg,
    )))
}

/// A recipe's text.
#[derive(Deserialize, JsonSchema)]
pub struct TranslateRequest {
    /// The recipe: benchmark XML, plain text, or an HTML page with a schema.org Recipe.
    pub text: String,
}

/// A recipe's text translated by the rule-based translator, against the workspace's kitchen;
/// refused as `translate` refuses it when it is not usable (no action, or it does not run).
pub fn translate(
    workspace: &Workspace,
    request: TranslateRequest,
) -> Result<TranslateAnswer, Refusal> {
    let recipe =
        recipe_text::from_text(&request.text, "recipe").map_err(|e| Refusal::new(e.to_string()))?;
    let mut translator = RulesTranslator::new(workspace.model());
    let translated = translator
        .translate(&recipe, 0)
        .map_err(|e| Refusal::new(e.to_string()))?;
    if let Err(unusable) = usable(workspace.model(), &translated) {
        let mut refusal =
            Refusal::new(unusable.message(translator.name())).with("notes", &translated.notes);
        if let Unusable::Invalid(checked) = &unusable {
            let text = &translated.solution;
            refusal = refusal.with("diagnostics", located(text, &checked.errors));
            if let Some(crash) = &checked.crash {
                refusal = refusal.with("crash", &crash.message);
            }
        }
        return Err(refusal);
    }
    Ok(translated.into())
}
