//! cookingbot: parse, simulate and score networks of the MUHAI Cooking Language the way the
//! MUHAI Recipe Execution Benchmark's reference evaluator does.
//!
//! Layers, each depending only on its own and those before it (checked by a unit test on the
//! source): [`number`], [`profile`], [`random`], [`budget`] (the time a recipe may take) → [`manifest`] (the benchmark's manifest as
//! data), [`catalogue`], [`fetch`] → [`language`] (text → networks, diagnostics) and
//! [`network`] (dependency graph) → [`ontology`], [`world`] (kitchen entities), [`mistakes`]
//! (networks with a parser's typical mistakes), [`benchmark`] (the gold data, located) →
//! [`simulation`] → [`metrics`] → [`report`] → [`evaluate`], [`translate`]. Front ends (CLI,
//! GUI, LLM, the tool server, the Python package) live in `src/bin`, `src/app`, `src/gui` and
//! `src/python.rs`.
//!
//! Scoring a solution text against a benchmark (here the small demo built into the crate;
//! [`benchmark::locate`] finds the official data):
//!
//! ```
//! use cookingbot::benchmark::DataSource;
//! use cookingbot::evaluate::Evaluator;
//! use cookingbot::profile::Profile;
//! use cookingbot::report::{Metric, MetricSet};
//!
//! let evaluator = Evaluator::new(Profile::R2024, DataSource::Demo)?;
//! let path = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/demo-perfect.solution");
//! let text = std::fs::read_to_string(path)?;
//! let metrics = MetricSet::from_words(&[Metric::GoalConditionSuccess.name()]);
//! // Rows come in the reference's order: the reverse of the file.
//! let results = evaluator.evaluate(&text, &metrics).map_err(|r| r.message)?;
//! let first = &results[0];
//! assert_eq!(first.recipe_id, "demo-shortbread-rounds");
//! assert_eq!(first.formatted(Metric::GoalConditionSuccess), "1.00");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! `examples/custom_metric.rs` adds a metric of one's own over executions and
//! `examples/custom_kitchen.rs` runs a network in another initial kitchen
//! (`cargo run --example custom_metric`).

pub mod app;
pub mod benchmark;
pub mod budget;
pub mod catalogue;
pub mod data_file;
pub mod evaluate;
pub mod extension;
pub mod fetch;
#[cfg(feature = "gui")]
pub mod gui;
pub mod language;
pub mod manifest;
pub mod metrics;
pub mod mistakes;
pub mod network;
pub mod number;
pub mod ontology;
pub mod profile;
#[cfg(feature = "python")]
mod python;
pub mod random;
pub mod report;
pub mod simulation;
pub mod translate;
pub mod world;

/// The layering stated above, checked on the source: a module may use modules of its own layer
/// or of layers below it, never one above. `language` and `network` share a layer (validation
/// checks the dependency graph the network builds from the syntax tree), as do the front ends.
#[cfg(test)]
mod layering {
    const LAYERS: [&[&str]; 9] = [
        &["number", "profile", "random", "budget", "data_file"],
        &["manifest", "catalogue", "fetch"],
        &["language", "network"],
        &["ontology", "world", "mistakes", "benchmark"],
        &["simulation", "extension"],
        &["metrics"],
        &["report"],
        &["evaluate", "translate"],
        &["app", "gui", "python"],
    ];

    fn layer(module: &str) -> Option<usize> {
        LAYERS.iter().position(|l| l.contains(&module))
    }

    /// `crate::<module>` paths in a file's code (comments left out).
    fn uses(text: &str) -> Vec<String> {
        text.lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .flat_map(|l| l.match_indices("crate::").map(move |(i, _)| &l[i + 7..]))
            .map(|rest| {
                rest.chars()
                    .take_while(|c| c.is_ascii_lowercase() || *c == '_')
            })
            .map(String::from_iter)
            .collect()
    }

    #[test]
    fn no_module_uses_one_above_it() {
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut climbs = Vec::new();
        let mut files = 0;
        for entry in walkdir::WalkDir::new(&src) {
            let entry = entry.expect("src is readable");
            let path = entry.path();
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let relative = path.strip_prefix(&src).expect("under src");
            let top = relative
                .iter()
                .next()
                .and_then(|c| c.to_str())
                .unwrap_or("");
            let Some(own) = layer(top.trim_end_matches(".rs")) else {
                continue; // lib.rs and the binary
            };
            files += 1;
            let text = std::fs::read_to_string(path).expect("source is readable");
            for used in uses(&text) {
                match layer(&used) {
                    Some(l) if l > own => {
                        climbs.push(format!("{}: crate::{used}", relative.display()))
                    }
                    Some(_) => {}
                    None => climbs.push(format!(
                        "{}: crate::{used} is in no layer",
                        relative.display()
                    )),
                }
            }
        }
        assert!(files > 50, "only {files} source files found");
        assert!(
            climbs.is_empty(),
            "imports that climb:\n{}",
            climbs.join("\n")
        );
    }
}
