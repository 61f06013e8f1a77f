//! cookingbot: parse, simulate and score networks of the MUHAI Cooking Language the way the
//! MUHAI Recipe Execution Benchmark's reference evaluator does.
//!
//! Layers, each depending only on those above it: [`number`] and [`profile`] →
//! [`language`] (text → networks, diagnostics) → [`catalogue`] / [`ontology`] (data) →
//! [`network`] (dependency graph) → [`world`] (kitchen entities) → [`simulation`] →
//! [`metrics`] → [`report`]. Front ends (CLI, GUI, LLM) live in `src/bin` and `src/app`.

pub mod catalogue;
pub mod language;
pub mod metrics;
pub mod number;
pub mod profile;
