//! `translate`: recipe text (benchmark XML, plain text or a page with JSON-LD) → a `.solution`
//! file, checked by the validator and the simulator before it is written.

use super::context::{self, DataContext};
use super::outcome::{AppError, Exit, Outcome};
use super::scoring::STDOUT;
use crate::base::profile::Profile;
use crate::benchmark::{Benchmark, DataSource, RecipeEntry};
use crate::language::diagnostic::terminal_safe;
use crate::report::json::pretty;
use crate::simulation::Model;
use crate::translate::llm::chat::{CachedBackend, ChatBackend, HttpBackend, ServerConfig};
use crate::translate::llm::retrieve::{Example, render_recipe};
use crate::translate::llm::{LlmConfig, LlmTranslator};
use crate::translate::recipe_text::{self, RecipeText};
use crate::translate::rules::RulesTranslator;
use crate::translate::{Checked, Translation, Translator, check_solution};
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Which translator turns text into networks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TranslatorKind {
    /// Deterministic rules, no model (the offline default and the baseline).
    Rules,
    /// A language model on an OpenAI-compatible chat-completions server, checked in the
    /// simulator with repair rounds.
    Llm,
}

/// The language-model translator's settings (flags, else environment).
#[derive(Clone, Debug, Default, clap::Args)]
pub struct LlmOptions {
    /// Base URL of an OpenAI-compatible server (`http://127.0.0.1:8080/v1`); default
    /// $COOKINGBOT_LLM_URL.
    #[arg(long)]
    pub llm_url: Option<String>,
    /// Model name; default $COOKINGBOT_LLM_MODEL.
    #[arg(long)]
    pub llm_model: Option<String>,
    /// API key; default $COOKINGBOT_LLM_KEY.
    #[arg(long)]
    pub llm_key: Option<String>,
    /// Response cache folder: answers are stored there and replayed offline.
    #[arg(long)]
    pub cache: Option<PathBuf>,
    /// Repair rounds after the first answer.
    #[arg(long, default_value_t = 2)]
    pub repair_rounds: usize,
    /// Retrieved examples in the prompt.
    #[arg(long, default_value_t = 2)]
    pub examples: usize,
    /// Send the GBNF grammar (llama.cpp servers).
    #[arg(long)]
    pub grammar: bool,
    /// Seconds one recipe's translation may take, every request and retry included.
    #[arg(long, default_value_t = 300)]
    pub timeout: u64,
    /// Most tokens per answer.
    #[arg(long, default_value_t = 2048)]
    pub max_tokens: u32,
}

/// What `translate` writes when the language model gives no valid network.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Fallback {
    /// The rules translator's network, with a note saying so.
    Rules,
}

/// What `translate` writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum TranslateFormat {
    /// The `.solution` text.
    #[default]
    Solution,
    /// The translate job's answer, `{"solution", "notes"}`: the network (headed by the
    /// recipe's id) with what was left out (`line N: …`).
    Json,
}

/// A recipe translated, as the translate job answers it and `translate --format json` writes
/// it: the network and the notes on what was left out.
#[derive(Serialize)]
pub struct TranslateAnswer {
    pub solution: String,
    pub notes: Vec<String>,
}

impl From<Translation> for TranslateAnswer {
    fn from(translation: Translation) -> TranslateAnswer {
        TranslateAnswer {
            solution: translation.solution,
            notes: translation.notes,
        }
    }
}

pub struct TranslateOptions {
    pub input: PathBuf,
    /// Where to write the `.solution` file (default, or `-`: standard output).
    pub output: Option<PathBuf>,
    pub data: DataContext,
    pub translator: TranslatorKind,
    pub llm: LlmOptions,
    /// Without it, a model that gives no valid network is an error (exit 1): a network that is
    /// not the model's is never written silently.
    pub fallback: Option<Fallback>,
    pub format: TranslateFormat,
}

/// Run the command: no usable network fails (nothing written); an unreadable input, kitchen or
/// output is an error.
pub fn run(opts: &TranslateOptions, out: &mut dyn Write, err: &mut dyn Write) -> Outcome {
    let setup = Setup {
        kind: opts.translator,
        data: &opts.data,
        llm: &opts.llm,
        fallback: opts.fallback == Some(Fallback::Rules),
    };
    with_translator(&setup, err, |model, t, err| {
        run_with(opts, model, t, out, err)
    })
}

/// Build the chosen translator over the profile's model and hand both to `f`.
pub fn with_translator(
    setup: &Setup<'_>,
    err: &mut dyn Write,
    f: impl FnOnce(&Model, &mut dyn Translator, &mut dyn Write) -> Outcome,
) -> Outcome {
    let (model, _) = super::load_model(setup.data)?;
    match setup.kind {
        TranslatorKind::Rules => f(&model, &mut RulesTranslator::new(&model), err),
        TranslatorKind::Llm => {
            let mut t = llm_translator(setup, &model, err).map_err(AppError::Options)?;
            f(&model, &mut t, err)
        }
    }
}

/// What a translator is built from.
pub struct Setup<'a> {
    pub kind: TranslatorKind,
    /// The kitchen, and where the examples' texts and gold networks come from.
    pub data: &'a DataContext,
    pub llm: &'a LlmOptions,
    /// Whether the LLM translator may fall back to the rules (see [`LlmConfig::fallback`]).
    pub fallback: bool,
}

fn llm_translator<'m>(
    setup: &Setup<'_>,
    model: &'m Model,
    err: &mut dyn Write,
) -> Result<LlmTranslator<'m>, String> {
    let o = setup.llm;
    let server = chat_server(o).map(|server| Box::new(server) as Box<dyn ChatBackend>);
    let backend: Box<dyn ChatBackend> = match (&o.cache, server) {
        (Some(dir), server) => Box::new(CachedBackend::new(dir.clone(), server)),
        (None, Some(server)) => server,
        (None, None) => {
            return Err(
                "the llm translator needs a server (--llm-url or COOKINGBOT_LLM_URL) or a response cache to replay (--cache DIR)".into(),
            );
        }
    };
    let mut examples =
        match example_source(setup, err).and_then(|root| examples(setup.data.profile, &root)) {
            Ok(e) => e,
            Err(msg) => {
                let _ = writeln!(err, "warning: no examples for the prompt: {msg}");
                Vec::new()
            }
        };
    examples.retain(|e| match e.misfit(model) {
        None => true,
        Some(why) => {
            let line = format!(
                "warning: example `{}` left out of the prompt: its network is not in the language of profile {}: {why}",
                e.id, model.profile
            );
            let _ = writeln!(err, "{}", terminal_safe(&line));
            false
        }
    });
    let config = LlmConfig {
        model: chat_model(o),
        examples: o.examples,
        repair_rounds: o.repair_rounds,
        grammar: o.grammar,
        max_tokens: o.max_tokens,
        deadline: Duration::from_secs(o.timeout),
        fallback: setup.fallback,
        ..LlmConfig::default()
    };
    Ok(LlmTranslator::new(model, backend, config, examples))
}

/// An option's value, else the environment variable's (when set and not empty).
fn option_or_env(option: &Option<String>, var: &str) -> Option<String> {
    let env = || std::env::var(var).ok().filter(|v| !v.is_empty());
    option.clone().or_else(env)
}

/// The server `--llm-url` names (else `COOKINGBOT_LLM_URL`), with `--llm-key` (else
/// `COOKINGBOT_LLM_KEY`): none when neither names one.
pub fn chat_server(o: &LlmOptions) -> Option<HttpBackend> {
    let url = option_or_env(&o.llm_url, "COOKINGBOT_LLM_URL")?;
    Some(HttpBackend::new(ServerConfig {
        url,
        key: option_or_env(&o.llm_key, "COOKINGBOT_LLM_KEY"),
        retries: 3,
        backoff: Duration::from_millis(500),
    }))
}

/// The model `--llm-model` names (else `COOKINGBOT_LLM_MODEL`, else the server's default).
pub fn chat_model(o: &LlmOptions) -> String {
    option_or_env(&o.llm_model, "COOKINGBOT_LLM_MODEL")
        .unwrap_or_else(|| LlmConfig::default().model)
}

/// The benchmark data the prompt's examples come from (downloaded when missing, as evaluation
/// does: the examples are official recipes); a user benchmark's recipes serve as well.
fn example_source(setup: &Setup<'_>, err: &mut dyn Write) -> Result<DataSource, AppError> {
    match context::locate(setup.data.request(), || true, err)? {
        DataSource::Demo => Err(AppError::Options(
            "the demo benchmark has no recipe texts compiled in".into(),
        )),
        source => Ok(source),
    }
}

/// Every benchmark recipe's text with its gold network (from `source`), for retrieval.
pub fn examples(profile: Profile, source: &DataSource) -> Result<Vec<Example>, AppError> {
    let benchmark = Benchmark::load(profile, source)?;
    benchmark
        .recipes
        .iter()
        .zip(source.manifest(profile)?.recipes)
        .map(|(gold, entry)| {
            let text = benchmark_text(source, &entry)?;
            let network = std::fs::read_to_string(&gold.file).map_err(|e| AppError::File {
                path: gold.file.clone(),
                reason: e.to_string(),
            })?;
            Ok(Example {
                id: entry.id.clone(),
                text: render_recipe(&text),
                network: network
                    .lines()
                    .filter(|l| !l.starts_with('#'))
                    .collect::<Vec<_>>()
                    .join("\n"),
            })
        })
        .collect()
}

/// The text of a benchmark recipe, read as `translate` reads a file; a recipe with none on disk
/// (the demo's, compiled in) is an error naming it.
pub fn benchmark_text(source: &DataSource, entry: &RecipeEntry) -> Result<RecipeText, AppError> {
    let path = source.recipe_text(entry).ok_or_else(|| {
        AppError::Options(format!(
            "the recipe `{}` of {source} has no recipe text on disk; pass --benchmark DIR",
            entry.id
        ))
    })?;
    recipe_text::read(&path).map_err(|e| AppError::Failed(e.to_string()))
}

/// Why a translation is neither written by `translate` nor answered by the translate job:
/// the one rule both follow ([`usable`]).
pub enum Unusable {
    /// No action past `get-kitchen`: nothing of the recipe was understood.
    Empty,
    /// The validator's errors, or where the simulator aborts on it (boxed: the run's record
    /// is large beside a unit variant).
    Invalid(Box<Checked>),
}

impl Unusable {
    /// Why, naming the translator (`rules`, `llm`).
    pub fn message(&self, translator: &str) -> String {
        match self {
            Unusable::Empty => format!("the {translator} translator found no action in the recipe"),
            Unusable::Invalid(_) => {
                format!("the {translator} translator produced an unusable network")
            }
        }
    }
}

/// Whether a translation may be written or answered: it has an action and runs in `model`'s
/// kitchen without an error or an abort.
pub fn usable(model: &Model, translation: &Translation) -> Result<(), Unusable> {
    if translation.is_empty() {
        return Err(Unusable::Empty);
    }
    let checked = check_solution(model, &translation.solution);
    if !checked.errors.is_empty() || checked.crash.is_some() {
        return Err(Unusable::Invalid(Box::new(checked)));
    }
    Ok(())
}

/// Translate with a given translator; outcomes as [`run`].
pub fn run_with(
    opts: &TranslateOptions,
    model: &Model,
    translator: &mut dyn Translator,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Outcome {
    if let Some(path) = opts.output.as_ref().filter(|p| p.as_os_str() != "-") {
        crate::report::refuse_input_as_output(
            path,
            std::iter::once(opts.input.as_path()).chain(opts.data.kitchen.as_deref()),
        )?;
    }
    let recipe = recipe_text::read(&opts.input).map_err(|e| AppError::Failed(e.to_string()))?;
    let translation = match translator.translate(&recipe, 0) {
        Ok(t) => t,
        Err(e) => {
            let line = format!("error: {}: {e}", opts.input.display());
            let _ = writeln!(err, "{}", terminal_safe(&line));
            return Ok(Exit::Failed);
        }
    };
    for note in &translation.notes {
        let line = format!("note: {}: {note}", recipe.id);
        let _ = writeln!(err, "{}", terminal_safe(&line));
    }
    if let Err(unusable) = usable(model, &translation) {
        let why = unusable.message(translator.name());
        match &unusable {
            Unusable::Empty => {
                let input = opts.input.display().to_string();
                let input = terminal_safe(&input);
                let _ = writeln!(err, "error: {input}: {why}; nothing was written");
            }
            Unusable::Invalid(checked) => {
                for d in &checked.errors {
                    let _ = write!(err, "{}", d.render("<translation>", &translation.solution));
                }
                if let Some(c) = &checked.crash {
                    let crash = &c.message;
                    let _ = writeln!(
                        err,
                        "error: the simulator aborts on the translation: {crash}"
                    );
                }
                let _ = writeln!(err, "error: {why}; nothing was written");
            }
        }
        return Ok(Exit::Failed);
    }
    let text = match opts.format {
        TranslateFormat::Solution => translation.solution,
        TranslateFormat::Json => pretty(&TranslateAnswer::from(translation)),
    };
    // `-` is standard output, as for `evaluate`.
    let output = opts.output.as_deref().unwrap_or(Path::new(STDOUT));
    super::scoring::write_report(output, text.as_bytes(), out)?;
    Ok(Exit::Success)
}
