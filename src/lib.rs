//! cookingbot: parse, simulate and score networks of the MUHAI Cooking Language the way the
//! MUHAI Recipe Execution Benchmark's reference evaluator does.
//!
//! Layers, each depending only on those above it: [`number`] and [`profile`] →
//! [`language`] (text → networks, diagnostics) → [`catalogue`] / [`ontology`] (data) →
//! [`network`] (dependency graph), [`mistakes`] (networks with a parser's typical mistakes) →
//! [`world`] (kitchen entities) → [`simulation`] →
//! [`metrics`] → [`report`]. Front ends (CLI, GUI, LLM, the tool server, the Python package)
//! live in `src/bin`, `src/app` and `src/python.rs`.
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
pub mod catalogue;
pub mod evaluate;
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
