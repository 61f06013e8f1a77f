//! An agent that acts with feedback: it starts from the rules translator's network of a
//! benchmark recipe, gives it to a session line by line and repairs each line that does not
//! run from the observation (`cookingbot::agent::repair`), then finishes. Prints each
//! line with its observation, the repairs, and the score next to the one-shot network's.
//!
//! ```sh
//! cargo run --release --example agent_repair -- RECIPE [--text-only] [--profile 2023]
//! cargo run --release --example agent_repair -- --table
//! ```
//!
//! `--text-only` starts from the rules alone, without the translator's own pass that takes out
//! what the simulator aborts on. `--table` prints the table of docs/agents.md: every recipe of
//! each profile whose benchmark data is found (`COOKINGBOT_BENCHMARK`,
//! `COOKINGBOT_BENCHMARK_2023`, the `fetch` cache), one shot against the repairing agent.

use cookingbot::agent::repair::{Repaired, repair};
use cookingbot::agent::{score_words, table, turn_words};
use cookingbot::base::profile::Profile;
use cookingbot::benchmark::{self, DataSource};
use cookingbot::evaluate::Evaluator;
use cookingbot::metrics::metric::{Metric, MetricSet};
use cookingbot::service::translation::benchmark_text;
use cookingbot::session::Session;
use cookingbot::translate::Translator;
use cookingbot::translate::rules::RulesTranslator;
use std::io::Write;
use std::sync::Arc;

type Failure = Box<dyn std::error::Error>;

/// Translate `recipe` of a profile's official data with the rules, score the network as a file
/// and give it to the repairing agent; print both on `out`.
pub fn run(
    profile: Profile,
    recipe: &str,
    text_only: bool,
    out: &mut dyn Write,
) -> Result<Repaired, Failure> {
    let source = benchmark::locate(profile, None)?;
    let manifest = source.manifest(profile)?;
    let entry = manifest.recipes.iter().find(|r| r.id == recipe);
    let entry = entry.ok_or_else(|| format!("the benchmark has no recipe `{recipe}`"))?;
    let text = benchmark_text(&source, entry)?;
    let evaluator = Arc::new(Evaluator::new(profile, source)?);
    let model = &evaluator.model;
    let mut rules = match text_only {
        true => RulesTranslator::text_only(model),
        false => RulesTranslator::new(model),
    };
    let script = rules.translate(&text, 0)?.solution;
    let metrics = Metric::ALL
        .into_iter()
        .fold(MetricSet::empty(), MetricSet::with);
    let once = evaluator.evaluate(&script, &metrics);
    let once = match &once {
        Ok(rows) => rows.first().map(|row| score_words(Ok(row))),
        Err(refusal) => Some(score_words(Err(refusal))),
    };
    let mut session = Session::with_evaluator(evaluator.clone(), recipe)?;
    let repaired = repair(&mut session, &script)?;
    for turn in &repaired.episode.turns {
        writeln!(out, "{}", turn_words(turn))?;
    }
    for r in &repaired.repairs {
        let instead = r.instead.join(" ; ");
        writeln!(
            out,
            "repair {}: {} -> [{instead}] ({})",
            r.kind.name(),
            r.line,
            r.why
        )?;
    }
    writeln!(out, "one shot:        {}", once.unwrap_or_default())?;
    let score = &repaired.episode.score;
    writeln!(
        out,
        "repairing agent: {}",
        score_words(score.result.as_ref())
    )?;
    Ok(repaired)
}

/// The table of docs/agents.md for each profile whose official data is found.
pub fn tables() -> Result<String, Failure> {
    let mut s = String::new();
    for profile in [Profile::R2024, Profile::R2023] {
        if let Ok(source @ DataSource::Folder(_)) = benchmark::locate(profile, None) {
            s.push_str(&table::measure(profile, source)?.markdown());
            s.push('\n');
        }
    }
    Ok(s)
}

#[allow(dead_code)] // the test suite includes this file and calls `run` and `tables`
fn main() -> Result<(), Failure> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--table") {
        print!("{}", tables()?);
        return Ok(());
    }
    let usage = "usage: agent_repair RECIPE [--text-only] [--profile 2023|2024] | --table";
    let text_only = args.iter().any(|a| a == "--text-only");
    let profile = match args.iter().position(|a| a == "--profile") {
        Some(at) => args.get(at + 1).ok_or(usage)?.parse()?,
        None => Profile::R2024,
    };
    let given = |a: &&String| !a.starts_with("--") && a.parse::<Profile>().is_err();
    let recipe = args.iter().find(given).ok_or(usage)?;
    run(profile, recipe, text_only, &mut std::io::stdout().lock())?;
    Ok(())
}
