//! cookingbot: parse, simulate and score networks of the MUHAI Cooking Language the way the
//! MUHAI Recipe Execution Benchmark's reference evaluator does.
//!
//! Layers, each depending only on those above it: [`number`] and [`profile`] →
//! [`language`] (text → networks, diagnostics) → [`catalogue`] / [`ontology`] (data) →
//! [`network`] (dependency graph) → [`world`] (kitchen entities) → [`simulation`] →
//! [`metrics`] → [`report`]. Front ends (CLI, GUI, LLM) live in `src/bin` and `src/app`.

pub mod app;
pub mod benchmark;
pub mod catalogue;
pub mod evaluate;
pub mod fetch;
#[cfg(feature = "gui")]
pub mod gui;
pub mod language;
pub mod metrics;
pub mod network;
pub mod number;
pub mod ontology;
pub mod profile;
#[cfg(feature = "python")]
mod python;
pub mod report;
pub mod simulation;
pub mod translate;
pub mod world;
