//! A scripted agent: a recipe's gold network given to a session line by line, each observation
//! printed, then the score, which is the gold file's own evaluation.
//!
//! ```sh
//! cargo run --release --example agent_replay -- [RECIPE]
//! ```
//!
//! The benchmark is the official data where it is found (`COOKINGBOT_BENCHMARK`, the `fetch`
//! cache), else the demo compiled in; without RECIPE, its first recipe.

use cookingbot::agent::{Episode, data_or_demo, gold_script, replay, score_words, turn_words};
use cookingbot::base::profile::Profile;
use cookingbot::evaluate::Evaluator;
use cookingbot::session::Session;
use std::io::Write;
use std::sync::Arc;

/// Replay `recipe`'s gold network (the benchmark's first recipe without one), printing each
/// line, its observation and the score on `out`.
pub fn run(
    evaluator: Arc<Evaluator>,
    recipe: Option<&str>,
    out: &mut dyn Write,
) -> Result<Episode, Box<dyn std::error::Error>> {
    let first = evaluator.benchmark.ids().first().map(|id| id.to_string());
    let recipe = recipe.map(str::to_string).or(first).ok_or("no recipes")?;
    let script = gold_script(&evaluator.benchmark, &recipe)
        .ok_or_else(|| format!("the benchmark has no recipe `{recipe}`"))?;
    let mut session = Session::with_evaluator(evaluator, &recipe)?;
    let episode = replay(&mut session, &script)?;
    for turn in &episode.turns {
        writeln!(out, "{}", turn_words(turn))?;
    }
    writeln!(
        out,
        "{recipe}: {}",
        score_words(episode.score.result.as_ref())
    )?;
    Ok(episode)
}

#[allow(dead_code)] // the test suite includes this file and calls `run`
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let recipe = std::env::args().nth(1);
    let evaluator = Arc::new(Evaluator::new(
        Profile::R2024,
        data_or_demo(Profile::R2024),
    )?);
    run(evaluator, recipe.as_deref(), &mut std::io::stdout().lock())?;
    Ok(())
}
