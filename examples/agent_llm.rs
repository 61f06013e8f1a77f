//! A language-model agent: a model on an OpenAI-compatible chat server writes a recipe's
//! network one line at a time in a session, reading the kitchen's answer to each line
//! (`cookingbot::agent::llm`); prints each line with its observation and the score.
//!
//! ```sh
//! cargo run --release --example agent_llm -- [RECIPE] --llm-url http://127.0.0.1:8080/v1 \
//!     [--llm-model NAME] [--llm-key KEY] [--grammar] [--max-steps N]
//! ```
//!
//! The server, model and key are the translator's (`--llm-*`, else `COOKINGBOT_LLM_URL`,
//! `COOKINGBOT_LLM_MODEL`, `COOKINGBOT_LLM_KEY`). The benchmark is the official data where it is
//! found, else the demo; without RECIPE, its first recipe.

use clap::Parser;
use cookingbot::agent::llm::{LlmAgentConfig, LlmEpisode};
use cookingbot::agent::{data_or_demo, llm, score_words, turn_words};
use cookingbot::base::profile::Profile;
use cookingbot::evaluate::Evaluator;
use cookingbot::service::translation::{LlmOptions, chat_model, chat_server};
use cookingbot::session::Session;
use cookingbot::translate::llm::chat::ChatBackend;
use std::io::Write;
use std::sync::Arc;

#[derive(Parser)]
struct Args {
    recipe: Option<String>,
    #[arg(long)]
    llm_url: Option<String>,
    #[arg(long)]
    llm_model: Option<String>,
    #[arg(long)]
    llm_key: Option<String>,
    /// Send the grammar of one answer (llama.cpp servers).
    #[arg(long)]
    grammar: bool,
    #[arg(long, default_value_t = LlmAgentConfig::default().max_steps)]
    max_steps: usize,
}

/// Let the model behind `backend` write `recipe`'s network (the benchmark's first recipe
/// without one), printing each line, its observation and the score on `out`.
pub fn run(
    evaluator: Arc<Evaluator>,
    recipe: Option<&str>,
    backend: &mut dyn ChatBackend,
    config: &LlmAgentConfig,
    out: &mut dyn Write,
) -> Result<LlmEpisode, Box<dyn std::error::Error>> {
    let first = evaluator.benchmark.ids().first().map(|id| id.to_string());
    let recipe = recipe.map(str::to_string).or(first).ok_or("no recipes")?;
    let mut session = Session::with_evaluator(evaluator, &recipe)?;
    let run = llm::run(&mut session, backend, config)?;
    for turn in &run.episode.turns {
        writeln!(out, "{}", turn_words(turn))?;
    }
    writeln!(out, "stopped: {:?} after {} answers", run.stop, run.answers)?;
    let score = &run.episode.score;
    writeln!(out, "{recipe}: {}", score_words(score.result.as_ref()))?;
    Ok(run)
}

#[allow(dead_code)] // the test suite includes this file and calls `run`
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = Args::parse();
    let options = LlmOptions {
        llm_url: args.llm_url,
        llm_model: args.llm_model,
        llm_key: args.llm_key,
        ..LlmOptions::default()
    };
    let mut server =
        chat_server(&options).ok_or("name a server: --llm-url or COOKINGBOT_LLM_URL")?;
    let config = LlmAgentConfig {
        model: chat_model(&options),
        grammar: args.grammar,
        max_steps: args.max_steps,
        ..LlmAgentConfig::default()
    };
    let evaluator = Arc::new(Evaluator::new(
        Profile::R2024,
        data_or_demo(Profile::R2024),
    )?);
    let recipe = args.recipe.as_deref();
    run(
        evaluator,
        recipe,
        &mut server,
        &config,
        &mut std::io::stdout().lock(),
    )?;
    Ok(())
}
